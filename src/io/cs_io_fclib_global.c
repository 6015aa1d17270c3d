/* FCLIB global problems (fclib.h: M v = H r + f, u = H^T v + w; Siconos' q is this f, with
   the same sign) read through libfclib 3.1.0, condensed to the local problem
   W = H^T M^-1 H, q = H^T M^-1 f + w, and the global velocity recovered as
   v = M^-1 (H r + f). The signs were checked on Siconos' files with stored solutions
   (Box_Stacks, Spheres, spheres-in-a-box): (r, v) satisfies M v = H r + f to rounding.

   Reading follows src/io/cs_io_fclib.c: libfclib exits the process on any failed HDF5 call
   and trusts the stored sizes, so every dataset it will touch is checked first with plain
   HDF5 calls (the probing helpers of src/io/cs_io_hdf5.c, shared with cs_io_fclib.c). Also
   checked here, which libfclib never does: every value finite, mu >= 0, indices inside the
   matrix, M symmetric. The stored solution and the first guess are read directly (sizes
   checked), not by libfclib.

   Linear algebra. M can have n in the tens of thousands (Spheres: 12000) but is in
   practice block diagonal (rigid bodies) or a small FEM matrix (LMGC, n = 162). The factor
   is our own sparse Cholesky M = P^T L L^T P with a reverse Cuthill-McKee ordering P and
   L stored by its envelope (row i holds columns first[i]..i): O(n b^2) work for bandwidth
   b, nothing for a diagonal M, no dependency (CHOLMOD would be faster on large 3D FEM
   meshes, which FCLIB's collection does not hold; the envelope is closed under fill, so
   no symbolic phase is needed). H's columns are sparse, so X = L^-1 P H is computed column
   by column with sparse right-hand sides: the non-zeros of L^-1 b are the elimination-
   tree paths from b's non-zeros to the root. W = X^T X is then summed row by row of X, in
   the same order for W_ab and W_ba, so W is exactly symmetric and positive semidefinite
   up to rounding. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraint/cs_contact_cone.h"
#include "contactsim/cs_contact.h"
#include "core/cs_error.h"
#include "io/cs_io_hdf5.h"
#include "solvers/cs_solver.h"

/* ---------------------------------------------------------------- sparse Cholesky */

typedef struct GFactor {
  int n;
  int* perm;     /* new index -> old index */
  int* iperm;    /* old index -> new index */
  int* first;    /* first column of row i's envelope (new indices) */
  size_t* start; /* row i's entries L[i][first[i]..i] at L + start[i] */
  int* parent;   /* elimination tree of the envelope, -1 at roots */
  double* L;
} GFactor;

static void gfactor_free(GFactor* F) {
  if (!F) return;
  cs_free(F->perm);
  cs_free(F->iperm);
  cs_free(F->first);
  cs_free(F->start);
  cs_free(F->parent);
  cs_free(F->L);
  cs_free(F);
}

/* Breadth-first search from s over unvisited nodes (mark != stamp), recording levels in
   order[]; returns the count, *last_level_start the index where the last level begins. */
static int bfs_levels(const csSparseMatrix* A, int s, int* mark, int stamp, int* order,
                      int* last_level_start, int* depth) {
  int head = 0, tail = 0, level_start = 0, level_end = 1, d = 0;
  order[tail++] = s;
  mark[s] = stamp;
  *last_level_start = 0;
  while (head < tail) {
    if (head == level_end) {
      level_start = head;
      level_end = tail;
      d++;
    }
    int x = order[head++];
    for (int k = A->colptr[x]; k < A->colptr[x + 1]; k++) {
      int y = A->rowind[k];
      if (mark[y] != stamp) {
        mark[y] = stamp;
        order[tail++] = y;
      }
    }
  }
  *last_level_start = level_start;
  *depth = d;
  return tail;
}

static int degree(const csSparseMatrix* A, int x) { return A->colptr[x + 1] - A->colptr[x]; }

/* Reverse Cuthill-McKee ordering of the symmetric pattern of A: perm[new] = old. */
static csStatus rcm_order(const csSparseMatrix* A, int* perm) {
  const int n = A->n;
  int* mark = csi_calloc((size_t)n, sizeof(int));
  int* visited = csi_calloc((size_t)n, sizeof(int));
  int* order = csi_malloc((size_t)n * sizeof(int));
  if (!mark || !visited || !order) {
    cs_free(mark), cs_free(visited), cs_free(order);
    return csi_error(CS_ERR_MEMORY, "out of memory ordering a %d x %d matrix", n, n);
  }
  int stamp = 0, count = 0;
  for (int s0 = 0; s0 < n; s0++) {
    if (visited[s0]) continue;
    /* pseudo-peripheral start: repeat BFS from a least-degree node of the last level while
       the depth grows (George and Liu). The search stays in s0's connected component, which
       holds no ordered node yet. */
    int s = s0, depth = -1;
    for (int it = 0; it < 8; it++) {
      int lls = 0, d = 0;
      stamp++;
      int cnt = bfs_levels(A, s, mark, stamp, order, &lls, &d);
      if (d <= depth) break;
      depth = d;
      int best = order[lls];
      for (int k = lls + 1; k < cnt; k++)
        if (degree(A, order[k]) < degree(A, best)) best = order[k];
      if (best == s) break;
      s = best;
    }
    /* Cuthill-McKee from s: neighbours in increasing degree (insertion sort per node). */
    int head = count;
    perm[count++] = s;
    visited[s] = 1;
    while (head < count) {
      int x = perm[head++];
      int begin = count;
      for (int k = A->colptr[x]; k < A->colptr[x + 1]; k++) {
        int y = A->rowind[k];
        if (visited[y]) continue;
        visited[y] = 1;
        int at = count++;
        while (at > begin && degree(A, perm[at - 1]) > degree(A, y)) {
          perm[at] = perm[at - 1];
          at--;
        }
        perm[at] = y;
      }
    }
  }
  for (int a = 0, b = n - 1; a < b; a++, b--) {
    int t = perm[a];
    perm[a] = perm[b];
    perm[b] = t;
  }
  cs_free(mark), cs_free(visited), cs_free(order);
  return CS_OK;
}

/* Envelope Cholesky of the symmetric positive definite M (both triangles stored). */
static csStatus gfactor_make(const csSparseMatrix* M, GFactor** out) {
  *out = NULL;
  const int n = M->n;
  GFactor* F = csi_calloc(1, sizeof *F);
  if (!F) return csi_error(CS_ERR_MEMORY, "out of memory factoring M (n = %d)", n);
  F->n = n;
  F->perm = csi_malloc((size_t)n * sizeof(int));
  F->iperm = csi_malloc((size_t)n * sizeof(int));
  F->first = csi_malloc((size_t)n * sizeof(int));
  F->start = csi_malloc(((size_t)n + 1) * sizeof(size_t));
  F->parent = csi_malloc((size_t)n * sizeof(int));
  if (!F->perm || !F->iperm || !F->first || !F->start || !F->parent) {
    gfactor_free(F);
    return csi_error(CS_ERR_MEMORY, "out of memory factoring M (n = %d)", n);
  }
  csStatus st = rcm_order(M, F->perm);
  if (st) {
    gfactor_free(F);
    return st;
  }
  for (int i = 0; i < n; i++) F->iperm[F->perm[i]] = i;
  /* envelope: first[i] = smallest new column index j <= i with M(i, j) != 0 */
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    int old = F->perm[i], f = i;
    for (int k = M->colptr[old]; k < M->colptr[old + 1]; k++) {
      int j = F->iperm[M->rowind[k]];
      if (j < f) f = j;
    }
    F->first[i] = f;
    F->start[i] = total;
    total += (size_t)(i - f + 1);
  }
  F->start[n] = total;
  if (total > ((size_t)1 << 31)) {
    gfactor_free(F);
    return csi_error(CS_ERR_MEMORY,
                     "M (n = %d) needs %zu factor entries even after "
                     "reordering; too large for the envelope Cholesky",
                     n, total);
  }
  F->L = csi_calloc(total, sizeof(double));
  if (!F->L) {
    gfactor_free(F);
    return csi_error(CS_ERR_MEMORY, "out of memory for M's factor (%zu entries)", total);
  }
  for (int i = 0; i < n; i++) {
    int old = F->perm[i];
    double* Li = F->L + F->start[i] - (size_t)F->first[i]; /* Li[j] = L(i, j) */
    for (int k = M->colptr[old]; k < M->colptr[old + 1]; k++) {
      int j = F->iperm[M->rowind[k]];
      if (j <= i) Li[j] = M->val[k];
    }
  }
  /* Row-by-row (bordering) Cholesky within the envelope. */
  for (int i = 0; i < n; i++) {
    const int fi = F->first[i];
    double* Li = F->L + F->start[i] - (size_t)fi;
    const double aii = Li[i];
    for (int j = fi; j < i; j++) {
      const int fj = F->first[j];
      const double* Lj = F->L + F->start[j] - (size_t)fj;
      double s = Li[j];
      for (int k = fi > fj ? fi : fj; k < j; k++) s -= Li[k] * Lj[k];
      Li[j] = s / Lj[j];
    }
    double d = aii;
    for (int k = fi; k < i; k++) d -= Li[k] * Li[k];
    if (!(d > 0) || !isfinite(d)) {
      int row = F->perm[i];
      gfactor_free(F);
      return csi_error(CS_ERR_NUMERIC,
                       "M is not positive definite (pivot %g at row %d, "
                       "diagonal %g)",
                       d, row, aii);
    }
    Li[i] = sqrt(d);
  }
  /* elimination tree of the envelope: parent(j) = min { i > j : first[i] <= j } */
  for (int j = 0; j < n; j++) F->parent[j] = -1;
  for (int i = 0; i < n; i++)
    for (int j = F->first[i]; j < i; j++)
      if (F->parent[j] < 0) F->parent[j] = i;
  *out = F;
  return CS_OK;
}

/* x (new order, dense) := L^-1 x */
static void gfactor_lsolve(const GFactor* F, double* x) {
  for (int i = 0; i < F->n; i++) {
    const int fi = F->first[i];
    const double* Li = F->L + F->start[i] - (size_t)fi;
    double s = x[i];
    for (int k = fi; k < i; k++) s -= Li[k] * x[k];
    x[i] = s / Li[i];
  }
}

/* x (new order, dense) := L^-T x */
static void gfactor_ltsolve(const GFactor* F, double* x) {
  for (int i = F->n - 1; i >= 0; i--) {
    const int fi = F->first[i];
    const double* Li = F->L + F->start[i] - (size_t)fi;
    x[i] /= Li[i];
    const double xi = x[i];
    for (int k = fi; k < i; k++) x[k] -= Li[k] * xi;
  }
}

static int cmp_int(const void* a, const void* b) {
  int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

static csStatus ensure_factor(csGlobalProblem* g) {
  if (g->factor) return CS_OK;
  GFactor* F = NULL;
  csStatus st = gfactor_make(&g->M, &F);
  if (st) return st;
  g->factor = F;
  return CS_OK;
}

/* ---------------------------------------------------------------- numerics (no libfclib) */

static csStatus check_global(const csGlobalProblem* g, const char* fn) {
  if (!g || g->n <= 0 || g->nc <= 0 || !g->M.colptr || !g->H.colptr || !g->f || !g->w || !g->mu ||
      g->M.m != g->n || g->M.n != g->n || g->H.m != g->n || g->H.n != 3 * g->nc)
    return csi_error(CS_ERR_ARG, "%s: incomplete or inconsistent global problem", fn);
  return CS_OK;
}

/* cs_global_condense's work: X = L^-1 P H by columns (xp, xi, xx: xnnz of xcap entries), then
   by rows (rp, rc, rx); y = L^-1 P f; x: a dense column, kept zero between columns; mark,
   stamp, reach: the elimination-tree walk of a column's non-zeros */
typedef struct {
  int n, m;
  double *y, *x;
  int *mark, *reach, stamp;
  int *xp, *xi;
  double* xx;
  size_t xcap, xnnz;
  int *rp, *rc;
  double* rx;
} condenseWork;

static void condense_work_free(condenseWork* w) {
  cs_free(w->y), cs_free(w->x), cs_free(w->mark), cs_free(w->reach), cs_free(w->xp);
  cs_free(w->xi), cs_free(w->xx), cs_free(w->rp), cs_free(w->rc), cs_free(w->rx);
}

/* The dense work and the local problem's G (zero), g and mu (copied) */
static csStatus condense_alloc(const csGlobalProblem* g, condenseWork* w, csOwnedProblem** op) {
  int n = w->n, m = w->m;
  csOwnedProblem* o = *op = csi_calloc(1, sizeof *o);
  w->y = csi_malloc((size_t)n * sizeof(double));
  w->x = csi_calloc((size_t)n, sizeof(double));
  w->mark = csi_calloc((size_t)n, sizeof(int));
  w->reach = csi_malloc((size_t)n * sizeof(int));
  w->xp = csi_malloc(((size_t)m + 1) * sizeof(int));
  if (!o || !w->y || !w->x || !w->mark || !w->reach || !w->xp)
    return csi_error(CS_ERR_MEMORY, "out of memory condensing a global problem (n = %d)", n);
  o->G = csi_calloc((size_t)m * (size_t)m, sizeof(double));
  o->g = csi_malloc((size_t)m * sizeof(double));
  o->mu = csi_malloc((size_t)g->nc * sizeof(double));
  if (!o->G || !o->g || !o->mu)
    return csi_error(CS_ERR_MEMORY, "out of memory for a %d-contact local problem", g->nc);
  memcpy(o->mu, g->mu, (size_t)g->nc * sizeof(double));
  return CS_OK;
}

/* Column a of P H scattered into x, and the rows L^-1 fills from its non-zeros: their
   elimination-tree paths to the root, sorted (parents follow children) into reach. Returns
   their number. */
static int condense_reach(const GFactor* F, const csSparseMatrix* H, condenseWork* w, int a) {
  int nr = 0;
  int *mark = w->mark, *reach = w->reach;
  w->stamp++;
  if (w->stamp == INT_MAX) { /* never in practice; keeps the stamps valid */
    memset(mark, 0, (size_t)w->n * sizeof(int));
    w->stamp = 1;
  }
  int stamp = w->stamp;
  for (int k = H->colptr[a]; k < H->colptr[a + 1]; k++) {
    int i = F->iperm[H->rowind[k]];
    w->x[i] += H->val[k];
    for (int j = i; j >= 0 && mark[j] != stamp; j = F->parent[j]) {
      mark[j] = stamp;
      reach[nr++] = j;
    }
  }
  qsort(reach, (size_t)nr, sizeof(int), cmp_int);
  return nr;
}

/* Room in X's column storage for nr more entries (doubling) */
static csStatus condense_grow(condenseWork* w, int nr) {
  if (w->xnnz + (size_t)nr <= w->xcap) return CS_OK;
  size_t cap = w->xcap ? 2 * w->xcap : 1024;
  while (cap < w->xnnz + (size_t)nr) cap *= 2;
  if (cap > (size_t)INT_MAX)
    return csi_error(CS_ERR_MEMORY, "L^-1 H has more than %d non-zeros", INT_MAX);
  int* ni = csi_realloc(w->xi, w->xcap * sizeof(int), cap * sizeof(int));
  if (ni) w->xi = ni;
  double* nx = csi_realloc(w->xx, w->xcap * sizeof(double), cap * sizeof(double));
  if (nx) w->xx = nx;
  if (!ni || !nx) return csi_error(CS_ERR_MEMORY, "out of memory for L^-1 H (%zu non-zeros)", cap);
  w->xcap = cap;
  return CS_OK;
}

/* Column a of X = L^-1 P H by a sparse forward solve over its reach, appended to X's columns
   (x left zero), and g_a = X_a . y + w_a (H^T M^-1 f + w) */
static csStatus condense_column(const csGlobalProblem* g, condenseWork* w, double* ga, int a) {
  const GFactor* F = g->factor;
  int nr = condense_reach(F, &g->H, w, a);
  csStatus st = condense_grow(w, nr);
  if (st) return st;
  double* x = w->x;
  for (int t = 0; t < nr; t++) {
    const int i = w->reach[t], fi = F->first[i];
    const double* Li = F->L + F->start[i] - (size_t)fi;
    double s = x[i];
    for (int k = fi; k < i; k++) s -= Li[k] * x[k];
    x[i] = s / Li[i];
  }
  double qa = 0;
  for (int t = 0; t < nr; t++) {
    const int i = w->reach[t];
    qa += x[i] * w->y[i];
    w->xi[w->xnnz] = i;
    w->xx[w->xnnz] = x[i];
    w->xnnz++;
    x[i] = 0;
  }
  *ga = qa + g->w[a];
  w->xp[a + 1] = (int)w->xnnz;
  return CS_OK;
}

/* X by rows (column indices increasing within a row) */
static csStatus condense_rows(condenseWork* w) {
  size_t xnnz = w->xnnz;
  w->rp = csi_calloc((size_t)w->n + 1, sizeof(int));
  w->rc = csi_malloc((xnnz ? xnnz : 1) * sizeof(int));
  w->rx = csi_malloc((xnnz ? xnnz : 1) * sizeof(double));
  if (!w->rp || !w->rc || !w->rx)
    return csi_error(CS_ERR_MEMORY, "out of memory for L^-1 H (%zu non-zeros)", xnnz);
  int* rp = w->rp;
  for (size_t k = 0; k < xnnz; k++) rp[w->xi[k] + 1]++;
  for (int i = 0; i < w->n; i++) rp[i + 1] += rp[i];
  int* next = w->reach; /* reuse as the fill pointer of each row */
  memcpy(next, rp, (size_t)w->n * sizeof(int));
  for (int a = 0; a < w->m; a++)
    for (int k = w->xp[a]; k < w->xp[a + 1]; k++) {
      int at = next[w->xi[k]]++;
      w->rc[at] = a;
      w->rx[at] = w->xx[k];
    }
  return CS_OK;
}

/* W = X^T X row by row of X (the same order for W_ab and W_ba: exactly symmetric), the upper
   triangle summed, then mirrored */
static void condense_gram(const condenseWork* w, double* W) {
  const int *rp = w->rp, *rc = w->rc;
  const double* rx = w->rx;
  const size_t ms = (size_t)w->m;
  for (int i = 0; i < w->n; i++)
    for (int s = rp[i]; s < rp[i + 1]; s++) {
      const double xs = rx[s];
      double* Wrow = W + (size_t)rc[s] * ms;
      for (int t = s; t < rp[i + 1]; t++) Wrow[rc[t]] += xs * rx[t];
    }
  for (size_t a = 0; a < ms; a++)
    for (size_t b = a + 1; b < ms; b++) W[b * ms + a] = W[a * ms + b];
}

/* The stored solution (r, u) as the local problem's lambda and velocity, and its view p */
static csStatus condense_finish(const csGlobalProblem* g, csOwnedProblem* o) {
  const size_t ms = 3 * (size_t)g->nc;
  if (g->r) {
    o->lambda = csi_malloc(ms * sizeof(double));
    if (o->lambda) memcpy(o->lambda, g->r, ms * sizeof(double));
  }
  if (g->u) {
    o->velocity = csi_malloc(ms * sizeof(double));
    if (o->velocity) memcpy(o->velocity, g->u, ms * sizeof(double));
  }
  if ((g->r && !o->lambda) || (g->u && !o->velocity))
    return csi_error(CS_ERR_MEMORY, "out of memory for a %d-contact local problem", g->nc);
  o->p.nc = g->nc;
  o->p.nv = 0;
  o->p.mu = o->mu;
  o->p.G = o->G;
  o->p.g = o->g;
  o->p.R = NULL;
  o->p.J = NULL;
  o->p.asym = !csi_is_symmetric(3 * g->nc, o->G);
  return CS_OK;
}

/* W = H^T M^-1 H = X^T X and q = H^T M^-1 f + w = X^T y + w with X = L^-1 P H, y = L^-1 P f
   (the factor M = P^T L L^T P made once and kept in g) */
csStatus cs_global_condense(csGlobalProblem* g, csOwnedProblem** out) {
  if (out) *out = NULL;
  if (!out) return csi_error(CS_ERR_ARG, "cs_global_condense: NULL out");
  csStatus st = check_global(g, "cs_global_condense");
  if (st) return st;
  if ((st = ensure_factor(g))) return st;
  const GFactor* F = g->factor;
  condenseWork w = {0};
  w.n = g->n, w.m = 3 * g->nc;
  csOwnedProblem* o = NULL;
  if ((st = condense_alloc(g, &w, &o))) goto done;
  /* y = L^-1 P f */
  for (int i = 0; i < w.n; i++) w.y[i] = g->f[F->perm[i]];
  gfactor_lsolve(F, w.y);
  w.xp[0] = 0;
  for (int a = 0; a < w.m; a++)
    if ((st = condense_column(g, &w, o->g + a, a))) goto done;
  if ((st = condense_rows(&w))) goto done;
  condense_gram(&w, o->G);
  st = condense_finish(g, o);
done:
  condense_work_free(&w);
  if (st) {
    cs_problem_free(o);
    return st;
  }
  *out = o;
  return CS_OK;
}

/* y += A x (y of A->m entries) */
static void sp_gaxpy(const csSparseMatrix* A, const double* x, double* y) {
  for (int j = 0; j < A->n; j++) {
    const double xj = x[j];
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; k++) y[A->rowind[k]] += A->val[k] * xj;
  }
}

/* y += A^T x (y of A->n entries) */
static void sp_tgaxpy(const csSparseMatrix* A, const double* x, double* y) {
  for (int j = 0; j < A->n; j++) {
    double s = 0;
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; k++) s += A->val[k] * x[A->rowind[k]];
    y[j] += s;
  }
}

csStatus cs_global_velocity(csGlobalProblem* g, const double* r, double* v) {
  csStatus st = check_global(g, "cs_global_velocity");
  if (st) return st;
  if (!r || !v) return csi_error(CS_ERR_ARG, "cs_global_velocity: NULL r or v");
  if ((st = ensure_factor(g))) return st;
  const GFactor* F = g->factor;
  const int n = g->n;
  double* t = csi_malloc((size_t)n * 2 * sizeof(double));
  if (!t) return csi_error(CS_ERR_MEMORY, "out of memory (n = %d)", n);
  double* z = t + n;
  memcpy(t, g->f, (size_t)n * sizeof(double));
  sp_gaxpy(&g->H, r, t); /* H r + f */
  for (int i = 0; i < n; i++) z[i] = t[F->perm[i]];
  gfactor_lsolve(F, z);
  gfactor_ltsolve(F, z);
  for (int i = 0; i < n; i++) v[F->perm[i]] = z[i];
  cs_free(t);
  return CS_OK;
}

static double nrm2(const double* x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}

double cs_global_error(const csGlobalProblem* g, const double* r, const double* v, double* u) {
  if (check_global(g, "cs_global_error") || !r || !v) return NAN;
  const size_t n = (size_t)g->n, m = 3 * (size_t)g->nc;
  double* t = csi_calloc(2 * n + m, sizeof(double));
  if (!t) return NAN;
  double* Mv = t;
  double* Hr = t + n;
  double* uu = t + 2 * n;
  sp_gaxpy(&g->M, v, Mv);
  sp_gaxpy(&g->H, r, Hr);
  double res2 = 0;
  for (size_t i = 0; i < n; i++) {
    double e = Mv[i] - Hr[i] - g->f[i];
    res2 += e * e;
  }
  double scale = fmax(nrm2(g->f, n), fmax(nrm2(Mv, n), nrm2(Hr, n)));
  double primal = sqrt(res2);
  if (scale > DBL_EPSILON) primal /= scale;
  memcpy(uu, g->w, m * sizeof(double));
  sp_tgaxpy(&g->H, v, uu);
  double err2 = 0;
  for (int i = 0; i < g->nc; i++) err2 += csi_natural_map_sq(r + 3 * i, uu + 3 * i, g->mu[i]);
  double local = sqrt(err2);
  double ls = fmax(nrm2(uu, m), nrm2(r, m));
  if (ls > DBL_EPSILON) local /= ls;
  if (u) memcpy(u, uu, m * sizeof(double));
  cs_free(t);
  return primal + local;
}

static void sparse_free(csSparseMatrix* A) {
  cs_free(A->colptr);
  cs_free(A->rowind);
  cs_free(A->val);
  A->colptr = A->rowind = NULL;
  A->val = NULL;
}

void cs_global_problem_free(csGlobalProblem* g) {
  if (!g) return;
  sparse_free(&g->M);
  sparse_free(&g->H);
  cs_free(g->f);
  cs_free(g->w);
  cs_free(g->mu);
  cs_free(g->r);
  cs_free(g->u);
  cs_free(g->v);
  gfactor_free(g->factor);
  cs_free(g);
}

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB

#include <fclib.h>
#include <hdf5.h>

/* ---------------------------------------------------------------- HDF5 strings */

/* A string dataset (fixed or variable length, scalar or one element) into buf (always
   terminated, truncated to cap). 0 if absent. */
static int h5_string(hid_t f, const char* name, char* buf, size_t cap) {
  buf[0] = 0;
  H5T_class_t cls = H5T_NO_CLASS;
  int varstr = 0;
  if (csi_h5_info(f, name, &cls, &varstr, NULL) != 1 || cls != H5T_STRING) return 0;
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return 0;
  int ok = 0;
  hid_t ft = H5Dget_type(d);
  if (varstr) {
    hid_t mt = H5Tcopy(H5T_C_S1);
    char* s = NULL;
    if (mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 &&
        H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, &s) >= 0 && s) {
      snprintf(buf, cap, "%s", s);
      H5free_memory(s);
      ok = 1;
    }
    if (mt >= 0) H5Tclose(mt);
  } else if (ft >= 0) {
    size_t size = H5Tget_size(ft);
    char* tmp = size > 0 && size < ((size_t)1 << 24) ? csi_calloc(size + 1, 1) : NULL;
    hid_t mt = tmp ? H5Tcopy(ft) : -1;
    if (tmp && mt >= 0 && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, tmp) >= 0) {
      snprintf(buf, cap, "%s", tmp);
      ok = 1;
    }
    if (mt >= 0) H5Tclose(mt);
    cs_free(tmp);
  }
  if (ft >= 0) H5Tclose(ft);
  H5Dclose(d);
  /* control characters (but newlines and tabs) and bytes that are not valid UTF-8 (one
     LMGC title starts with a stray 0x80) become '?', so the text prints and goes into JSON */
  for (unsigned char* c = (unsigned char*)buf; *c;) {
    int len = *c < 0x80             ? 1
              : (*c & 0xE0) == 0xC0 ? 2
              : (*c & 0xF0) == 0xE0 ? 3
              : (*c & 0xF8) == 0xF0 ? 4
                                    : 0;
    int good = len > 0 && (*c >= 32 || *c == '\n' || *c == '\t');
    for (int k = 1; good && k < len; k++) good = (c[k] & 0xC0) == 0x80;
    if (!good) {
      *c++ = '?';
      continue;
    }
    c += len;
  }
  return ok;
}

/* ---------------------------------------------------------------- cs_fclib_info */

static long long matrix_nnz(hid_t f, const char* grp) {
  char name[192]; /* grp comes from a char[160] */
  int nz = 0;
  snprintf(name, sizeof name, "%s/nz", grp);
  if (!csi_h5_int(f, name, &nz)) return -1;
  if (nz >= 0) return nz;
  snprintf(name, sizeof name, "%s/x", grp);
  return csi_h5_numel(f, name);
}

csStatus cs_fclib_info(const char* path, csFclibInfo* info) {
  if (!path || !info) return csi_error(CS_ERR_ARG, "cs_fclib_info: NULL path or info");
  memset(info, 0, sizeof *info);
  csiH5Quiet quiet;
  csi_h5_quiet(&quiet);
  hid_t f;
  csStatus st = csi_h5_open_read(path, &f);
  if (st) {
    csi_h5_restore(&quiet);
    return st;
  }
  static const struct {
    const char* grp;
    csFclibKind kind;
  } kinds[4] = {{"/fclib_local", CS_FCLIB_LOCAL},
                {"/fclib_global", CS_FCLIB_GLOBAL},
                {"/fclib_local_rolling", CS_FCLIB_LOCAL_ROLLING},
                {"/fclib_global_rolling", CS_FCLIB_GLOBAL_ROLLING}};
  const char* grp = NULL;
  for (int k = 0; k < 4 && !grp; k++)
    if (csi_h5_exists(f, kinds[k].grp)) grp = kinds[k].grp, info->kind = kinds[k].kind;
  if (grp) {
    char name[160];
    const int local = info->kind == CS_FCLIB_LOCAL || info->kind == CS_FCLIB_LOCAL_ROLLING;
    snprintf(name, sizeof name, "%s/spacedim", grp);
    if (!csi_h5_int(f, name, &info->spacedim)) info->spacedim = 0;
    if (local) {
      snprintf(name, sizeof name, "%s/W/m", grp);
      if (!csi_h5_int(f, name, &info->rows)) info->rows = 0;
      snprintf(name, sizeof name, "%s/W", grp);
      info->nnz[0] = matrix_nnz(f, name);
      info->nnz[1] = -1;
    } else {
      snprintf(name, sizeof name, "%s/M/n", grp);
      if (!csi_h5_int(f, name, &info->n)) info->n = 0;
      snprintf(name, sizeof name, "%s/H/n", grp);
      if (!csi_h5_int(f, name, &info->rows)) info->rows = 0;
      snprintf(name, sizeof name, "%s/M", grp);
      info->nnz[0] = matrix_nnz(f, name);
      snprintf(name, sizeof name, "%s/H", grp);
      info->nnz[1] = matrix_nnz(f, name);
    }
    if (info->spacedim > 0 && info->rows > 0) info->nc = info->rows / info->spacedim;
    snprintf(name, sizeof name, "%s/vectors/mu", grp);
    long long nmu = csi_h5_numel(f, name);
    info->mu_min = info->mu_max = NAN;
    if (nmu > 0 && nmu <= 100000000) {
      double* mu = csi_malloc((size_t)nmu * sizeof(double));
      if (mu && csi_h5_read(f, name, H5T_NATIVE_DOUBLE, mu) == 0) {
        info->mu_min = info->mu_max = mu[0];
        for (long long i = 1; i < nmu; i++) {
          info->mu_min = fmin(info->mu_min, mu[i]);
          info->mu_max = fmax(info->mu_max, mu[i]);
        }
      }
      cs_free(mu);
    }
    snprintf(name, sizeof name, "%s/info/title", grp);
    h5_string(f, name, info->title, sizeof info->title);
    snprintf(name, sizeof name, "%s/info/description", grp);
    h5_string(f, name, info->description, sizeof info->description);
  }
  info->has_solution = csi_h5_exists(f, "/solution");
  info->has_guess = csi_h5_exists(f, "/guesses");
  H5Fclose(f);
  csi_h5_restore(&quiet);
  return st;
}

/* ---------------------------------------------------------------- probing */

typedef struct GlobalProbe {
  int n, m;
  int sol; /* 1: /solution, 2: /guesses/1 */
  int sol_u;
  int sol_v;
} GlobalProbe;

/* The solution group grp (/solution or /guesses/1): r required, u and v optional. */
static csStatus probe_solution(hid_t f, const char* path, const char* grp, GlobalProbe* pr) {
  char name[64];
  csStatus st;
  snprintf(name, sizeof name, "%s/r", grp);
  if ((st = csi_h5_need_len(f, path, name, pr->m))) return st;
  snprintf(name, sizeof name, "%s/u", grp);
  if (csi_h5_exists(f, name)) {
    if ((st = csi_h5_need_len(f, path, name, pr->m))) return st;
    pr->sol_u = 1;
  }
  snprintf(name, sizeof name, "%s/v", grp);
  if (csi_h5_exists(f, name)) {
    if ((st = csi_h5_need_len(f, path, name, pr->n))) return st;
    pr->sol_v = 1;
  }
  return CS_OK;
}

static csStatus probe_global(hid_t f, const char* path, GlobalProbe* pr) {
  csStatus st;
  memset(pr, 0, sizeof *pr);
  if (!csi_h5_exists(f, "/fclib_global")) {
    if (csi_h5_exists(f, "/fclib_global_rolling") || csi_h5_exists(f, "/fclib_local_rolling"))
      return csi_error(CS_ERR_UNSUPPORTED,
                       "'%s' is an FCLIB rolling-friction problem (spacedim 5); not supported "
                       "(libfclib 3.1.0 cannot read it either)",
                       path);
    if (csi_h5_exists(f, "/fclib_local"))
      return csi_error(CS_ERR_ARG,
                       "'%s' holds an FCLIB local problem, not a global one "
                       "(read it with cs_fclib_read_local)",
                       path);
    return csi_error(CS_ERR_PARSE,
                     "'%s' is an HDF5 file without an FCLIB problem "
                     "(no /fclib_local or /fclib_global group)",
                     path);
  }
  if ((st = csi_h5_probe_spacedim(f, path, "/fclib_global"))) return st;
  if (csi_h5_exists(f, "/fclib_global/G"))
    return csi_error(CS_ERR_UNSUPPORTED,
                     "FCLIB file '%s': global problem with equality constraints (G, b); not "
                     "read",
                     path);
  int mm = 0, mn = 0, hm = 0, hn = 0;
  if ((st = csi_h5_probe_matrix(f, path, "/fclib_global/M", &mm, &mn))) return st;
  if ((st = csi_h5_probe_matrix(f, path, "/fclib_global/H", &hm, &hn))) return st;
  if (mm != mn)
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': M is %d x %d, not square", path, mm, mn);
  if (hm != mm || hn % 3 != 0)
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': H is %d x %d, expected %d x 3nc", path, hm, hn,
                     mm);
  pr->n = mm;
  pr->m = hn;
  if ((st = csi_h5_need_len(f, path, "/fclib_global/vectors/f", mm))) return st;
  if ((st = csi_h5_need_len(f, path, "/fclib_global/vectors/w", hn))) return st;
  if ((st = csi_h5_need_len(f, path, "/fclib_global/vectors/mu", hn / 3))) return st;
  if ((st = csi_h5_probe_info(f, path, "/fclib_global"))) return st;
  if (csi_h5_exists(f, "/solution")) {
    if ((st = probe_solution(f, path, "/solution", pr))) return st;
    pr->sol = 1;
  } else if (csi_h5_exists(f, "/guesses/1/r")) {
    if ((st = probe_solution(f, path, "/guesses/1", pr))) return st;
    pr->sol = 2;
  }
  return CS_OK;
}

/* ---------------------------------------------------------------- conversion */

typedef struct Trip {
  int row;
  int seq; /* storage order, so duplicates are summed in file order */
  double x;
} Trip;

static int cmp_trip(const void* a, const void* b) {
  const Trip* s = a;
  const Trip* t = b;
  if (s->row != t->row) return (s->row > t->row) - (s->row < t->row);
  return (s->seq > t->seq) - (s->seq < t->seq);
}

/* libfclib's matrix to compressed columns, rows sorted, duplicates summed. Storage as in
   CSparse (Siconos writes these files with it): triplet i = row, p = column (fclib.h says
   the opposite; H, which is not square, shows which: its i reach n - 1, its p 3nc - 1);
   CSC p = column pointers, i = rows; CSR p = row pointers, i = columns. */
static csStatus to_csc(const struct fclib_matrix* A, const char* what, const char* path,
                       csSparseMatrix* out) {
  const int m = A->m, n = A->n;
  long long cnt = A->nz >= 0 ? A->nz : A->nz == -1 ? A->p[n] : A->p[m];
  if (A->nz < 0) {
    const int outer = A->nz == -1 ? n : m;
    for (int a = 0; a < outer; a++)
      if (A->p[a] < 0 || A->p[a + 1] < A->p[a] || A->p[a + 1] > A->nzmax || (a == 0 && A->p[0]))
        return csi_error(CS_ERR_PARSE,
                         "FCLIB file '%s': %s's %s pointers are not increasing "
                         "within 0..nzmax %d at %d",
                         path, what, A->nz == -1 ? "column" : "row", A->nzmax, a);
  }
  Trip* t = csi_malloc((size_t)(cnt ? cnt : 1) * sizeof(Trip));
  int* col = csi_malloc((size_t)(cnt ? cnt : 1) * sizeof(int));
  out->m = m;
  out->n = n;
  out->colptr = csi_calloc((size_t)n + 1, sizeof(int));
  if (!t || !col || !out->colptr) {
    cs_free(t), cs_free(col);
    return csi_error(CS_ERR_MEMORY, "out of memory reading %s from '%s'", what, path);
  }
  long long k = 0;
  if (A->nz >= 0) {
    for (; k < cnt; k++) t[k].row = A->i[k], col[k] = A->p[k], t[k].x = A->x[k];
  } else {
    const int csc = A->nz == -1, outer = csc ? n : m;
    for (int a = 0; a < outer; a++)
      for (int q = A->p[a]; q < A->p[a + 1]; q++, k++) {
        t[k].row = csc ? A->i[q] : a;
        col[k] = csc ? a : A->i[q];
        t[k].x = A->x[q];
      }
  }
  csStatus st = CS_OK;
  for (k = 0; k < cnt; k++) {
    t[k].seq = (int)k;
    if (t[k].row < 0 || t[k].row >= m || col[k] < 0 || col[k] >= n) {
      st = csi_error(CS_ERR_PARSE,
                     "FCLIB file '%s': %s entry %lld at (%d, %d) is outside the "
                     "%d x %d matrix",
                     path, what, k, t[k].row, col[k], m, n);
      break;
    }
    if (!isfinite(t[k].x)) {
      st = csi_error(CS_ERR_PARSE, "FCLIB file '%s': %s entry %lld at (%d, %d) is %g", path, what,
                     k, t[k].row, col[k], t[k].x);
      break;
    }
  }
  if (st) {
    cs_free(t), cs_free(col);
    return st;
  }
  /* bucket by column (stable), then sort each column by (row, storage order) */
  Trip* s = csi_malloc((size_t)(cnt ? cnt : 1) * sizeof(Trip));
  if (!s) {
    cs_free(t), cs_free(col);
    return csi_error(CS_ERR_MEMORY, "out of memory reading %s from '%s'", what, path);
  }
  for (k = 0; k < cnt; k++) out->colptr[col[k] + 1]++;
  for (int j = 0; j < n; j++) out->colptr[j + 1] += out->colptr[j];
  {
    int* next = col; /* reuse: the column of entry k is no longer needed once placed */
    int* fill = csi_malloc(((size_t)n + 1) * sizeof(int));
    if (!fill) {
      cs_free(t), cs_free(col), cs_free(s);
      return csi_error(CS_ERR_MEMORY, "out of memory reading %s from '%s'", what, path);
    }
    memcpy(fill, out->colptr, (size_t)n * sizeof(int));
    for (k = 0; k < cnt; k++) s[fill[next[k]]++] = t[k];
    cs_free(fill);
  }
  cs_free(t), cs_free(col);
  int nnz = 0;
  for (int j = 0; j < n; j++) {
    int a = out->colptr[j], b = out->colptr[j + 1];
    qsort(s + a, (size_t)(b - a), sizeof(Trip), cmp_trip);
    out->colptr[j] = nnz;
    for (int q = a; q < b; q++) {
      if (nnz > out->colptr[j] && s[nnz - 1].row == s[q].row) {
        /* a still-zero sum takes x itself: 0.0 + (-0.0) would give +0.0 */
        s[nnz - 1].x = s[nnz - 1].x == 0 ? s[q].x : s[nnz - 1].x + s[q].x;
      } else {
        s[nnz++] = s[q];
      }
    }
  }
  out->colptr[n] = nnz;
  out->rowind = csi_malloc((size_t)(nnz ? nnz : 1) * sizeof(int));
  out->val = csi_malloc((size_t)(nnz ? nnz : 1) * sizeof(double));
  if (!out->rowind || !out->val) {
    cs_free(s);
    return csi_error(CS_ERR_MEMORY, "out of memory reading %s from '%s'", what, path);
  }
  for (int q = 0; q < nnz; q++) out->rowind[q] = s[q].row, out->val[q] = s[q].x;
  cs_free(s);
  return CS_OK;
}

/* Entry (i, j) of A, 0 if not stored. */
static double sp_get(const csSparseMatrix* A, int i, int j) {
  int lo = A->colptr[j], hi = A->colptr[j + 1] - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (A->rowind[mid] == i) return A->val[mid];
    if (A->rowind[mid] < i)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return 0;
}

/* M must be symmetric: both triangles stored (Siconos' files), or one triangle only, which
   is mirrored. Asymmetry up to 1e-12 of the largest entry (rounding in the producer) is
   accepted; the global error is then measured with M as stored. */
static csStatus check_symmetric(csSparseMatrix* M, const char* path) {
  const int n = M->n;
  long long lower = 0, upper = 0;
  double amax = 0;
  for (int j = 0; j < n; j++)
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
      int i = M->rowind[k];
      if (i > j) lower++;
      if (i < j) upper++;
      amax = fmax(amax, fabs(M->val[k]));
    }
  if ((lower == 0) != (upper == 0)) {
    /* one triangle: build the full matrix */
    csSparseMatrix F = {n, n, NULL, NULL, NULL};
    long long nnz = (long long)M->colptr[n] + (lower + upper);
    if (nnz > INT_MAX)
      return csi_error(CS_ERR_PARSE, "FCLIB file '%s': M has too many entries", path);
    F.colptr = csi_calloc((size_t)n + 1, sizeof(int));
    F.rowind = csi_malloc((size_t)nnz * sizeof(int));
    F.val = csi_malloc((size_t)nnz * sizeof(double));
    int* fill = csi_malloc(((size_t)n + 1) * sizeof(int));
    if (!F.colptr || !F.rowind || !F.val || !fill) {
      sparse_free(&F);
      cs_free(fill);
      return csi_error(CS_ERR_MEMORY, "out of memory reading M from '%s'", path);
    }
    for (int j = 0; j < n; j++)
      for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
        int i = M->rowind[k];
        F.colptr[j + 1]++;
        if (i != j) F.colptr[i + 1]++;
      }
    for (int j = 0; j < n; j++) F.colptr[j + 1] += F.colptr[j];
    memcpy(fill, F.colptr, ((size_t)n + 1) * sizeof(int));
    /* columns in increasing order: for column c, mirrored entries (rows r < c when the
       lower triangle is stored) come from columns r < c, placed before the own entries */
    for (int j = 0; j < n; j++)
      for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
        int i = M->rowind[k];
        if (i != j) {
          F.rowind[fill[i]] = j;
          F.val[fill[i]++] = M->val[k];
        }
        F.rowind[fill[j]] = i;
        F.val[fill[j]++] = M->val[k];
      }
    cs_free(fill);
    /* rows within each column are now increasing: entries (j < i) from earlier columns
       arrive in increasing j, then the own column's rows in increasing order, and for the
       upper-triangle case the symmetric argument holds */
    sparse_free(M);
    *M = F;
    return CS_OK;
  }
  const double tol = 1e-12 * amax;
  for (int j = 0; j < n; j++)
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
      int i = M->rowind[k];
      if (i <= j) continue;
      double a = M->val[k], b = sp_get(M, j, i);
      if (fabs(a - b) > tol)
        return csi_error(CS_ERR_PARSE,
                         "FCLIB file '%s': M is not symmetric: M(%d, %d) = %.17g "
                         "but M(%d, %d) = %.17g",
                         path, i, j, a, j, i, b);
    }
  return CS_OK;
}

static csStatus check_vector(const double* x, int n, const char* what, const char* path) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return csi_error(CS_ERR_PARSE, "FCLIB file '%s': %s[%d] is %g", path, what, i, x[i]);
  return CS_OK;
}

/* ---------------------------------------------------------------- read */

static csStatus read_solution_group(hid_t f, const char* path, const GlobalProbe* pr,
                                    csGlobalProblem* g) {
  const char* grp = pr->sol == 1 ? "/solution" : "/guesses/1";
  char name[64];
  const size_t m = (size_t)pr->m, n = (size_t)pr->n;
  g->r = csi_malloc(m * sizeof(double));
  if (pr->sol_u) g->u = csi_malloc(m * sizeof(double));
  if (pr->sol_v) g->v = csi_malloc(n * sizeof(double));
  if (!g->r || (pr->sol_u && !g->u) || (pr->sol_v && !g->v))
    return csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
  snprintf(name, sizeof name, "%s/r", grp);
  if (csi_h5_read(f, name, H5T_NATIVE_DOUBLE, g->r) < 0)
    return csi_error(CS_ERR_IO, "FCLIB file '%s': cannot read %s", path, name);
  if (pr->sol_u) {
    snprintf(name, sizeof name, "%s/u", grp);
    if (csi_h5_read(f, name, H5T_NATIVE_DOUBLE, g->u) < 0)
      return csi_error(CS_ERR_IO, "FCLIB file '%s': cannot read %s", path, name);
  }
  if (pr->sol_v) {
    snprintf(name, sizeof name, "%s/v", grp);
    if (csi_h5_read(f, name, H5T_NATIVE_DOUBLE, g->v) < 0)
      return csi_error(CS_ERR_IO, "FCLIB file '%s': cannot read %s", path, name);
  }
  return CS_OK;
}

csStatus cs_fclib_read_global(const char* path, csGlobalProblem** out) {
  if (out) *out = NULL;
  if (!path || !out) return csi_error(CS_ERR_ARG, "cs_fclib_read_global: NULL path or out");

  csiH5Quiet quiet;
  csi_h5_quiet(&quiet);
  csStatus st = CS_OK;
  struct fclib_global* fg = NULL;
  csGlobalProblem* g = NULL;
  GlobalProbe pr;

  hid_t f;
  if ((st = csi_h5_open_read(path, &f))) goto done;
  st = probe_global(f, path, &pr);
  if (!st) {
    g = csi_calloc(1, sizeof *g);
    if (!g) st = csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
  }
  if (!st && pr.sol) st = read_solution_group(f, path, &pr, g);
  H5Fclose(f);
  if (st) goto done;

  fg = fclib_read_global(path);
  if (!fg || !fg->M || !fg->H || !fg->f || !fg->w || !fg->mu) {
    st = csi_error(CS_ERR_IO, "libfclib could not read the global problem in '%s'", path);
    goto done;
  }
  if (fg->M->m != pr.n || fg->M->n != pr.n || fg->H->m != pr.n || fg->H->n != pr.m) {
    st = csi_error(CS_ERR_PARSE,
                   "FCLIB file '%s': libfclib returned matrices of other sizes "
                   "than stored",
                   path);
    goto done;
  }
  g->n = pr.n;
  g->nc = pr.m / 3;
  if ((st = to_csc(fg->M, "M", path, &g->M))) goto done;
  if ((st = to_csc(fg->H, "H", path, &g->H))) goto done;
  if ((st = check_symmetric(&g->M, path))) goto done;
  g->f = csi_dup_doubles(fg->f, (size_t)pr.n);
  g->w = csi_dup_doubles(fg->w, (size_t)pr.m);
  g->mu = csi_dup_doubles(fg->mu, (size_t)g->nc);
  if (!g->f || !g->w || !g->mu) {
    st = csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
    goto done;
  }
  if ((st = check_vector(g->f, pr.n, "f", path))) goto done;
  if ((st = check_vector(g->w, pr.m, "w", path))) goto done;
  if ((st = check_vector(g->mu, g->nc, "mu", path))) goto done;
  for (int i = 0; i < g->nc; i++)
    if (g->mu[i] < 0) {
      st = csi_error(CS_ERR_PARSE, "FCLIB file '%s': friction coefficient mu[%d] = %g < 0", path, i,
                     g->mu[i]);
      goto done;
    }
  if (g->r && (st = check_vector(g->r, pr.m, "solution r", path))) goto done;
  for (int j = 0; j < pr.n; j++) {
    double d = sp_get(&g->M, j, j);
    if (!(d > 0)) {
      st = csi_error(CS_ERR_PARSE,
                     "FCLIB file '%s': M(%d, %d) = %g; M must be positive "
                     "definite",
                     path, j, j, d);
      goto done;
    }
  }

done:
  if (fg) {
    fclib_delete_global(fg); /* frees the members (and info), not the struct itself */
    free(fg);
  }
  csi_h5_restore(&quiet);
  if (st) {
    cs_global_problem_free(g);
    return st;
  }
  *out = g;
  return CS_OK;
}

/* ---------------------------------------------------------------- write */

csStatus cs_fclib_write_global(const char* path, const csGlobalProblem* g, const double* r,
                               const double* v, const char* title) {
  if (!path) return csi_error(CS_ERR_ARG, "cs_fclib_write_global: NULL path");
  csStatus st = check_global(g, "cs_fclib_write_global");
  if (st) return st;
  if (r && !v)
    return csi_error(CS_ERR_ARG, "cannot write '%s': a global solution needs r and v", path);
  if (g->M.colptr[g->n] <= 0 || g->H.colptr[g->H.n] <= 0)
    return csi_error(CS_ERR_ARG, "cannot write '%s': M or H has no entries", path);
  const size_t m = 3 * (size_t)g->nc;
  double* u = NULL;
  if (r) {
    u = csi_malloc(m * sizeof(double));
    if (!u) return csi_error(CS_ERR_MEMORY, "out of memory writing '%s'", path);
    memcpy(u, g->w, m * sizeof(double));
    sp_tgaxpy(&g->H, v, u);
  }
  csiH5Quiet quiet;
  csi_h5_quiet(&quiet);
  /* libfclib adds to an existing file and refuses a second problem or solution in it: the
     file is created afresh here (as cs_fclib_write_local does). */
  if ((st = csi_h5_create_empty(path))) goto done;
  {
    /* libfclib takes non-const pointers but only reads through them */
    struct fclib_matrix M, H;
    memset(&M, 0, sizeof M);
    memset(&H, 0, sizeof H);
    M.nzmax = g->M.colptr[g->M.n], M.m = g->M.m, M.n = g->M.n, M.nz = -1;
    M.p = g->M.colptr, M.i = g->M.rowind, M.x = g->M.val;
    H.nzmax = g->H.colptr[g->H.n], H.m = g->H.m, H.n = g->H.n, H.nz = -1;
    H.p = g->H.colptr, H.i = g->H.rowind, H.x = g->H.val;
    struct fclib_info info;
    info.title = (char*)(title ? title : "contactsim global contact problem");
    info.description = (char*)"contactsim: M v = H r + f, u = H^T v + w";
    info.math_info = NULL;
    struct fclib_global prob;
    memset(&prob, 0, sizeof prob);
    prob.M = &M;
    prob.H = &H;
    prob.G = NULL;
    prob.mu = g->mu;
    prob.f = g->f;
    prob.b = NULL;
    prob.w = g->w;
    prob.spacedim = 3;
    prob.info = &info;
    if (!fclib_write_global(&prob, path)) {
      st = csi_error(CS_ERR_IO, "libfclib could not write the global problem to '%s'", path);
      goto done;
    }
    if (r) {
      struct fclib_solution sol;
      sol.v = (double*)v;
      sol.u = u;
      sol.r = (double*)r;
      sol.l = NULL;
      if (!fclib_write_solution(&sol, path)) {
        st = csi_error(CS_ERR_IO, "libfclib could not write the solution to '%s'", path);
        goto done;
      }
    }
  }
done:
  csi_h5_restore(&quiet);
  cs_free(u);
  return st;
}

#else /* no libfclib */

csStatus cs_fclib_info(const char* path, csFclibInfo* info) {
  if (info) memset(info, 0, sizeof *info);
  return csi_error(CS_ERR_UNSUPPORTED,
                   "cannot read FCLIB file '%s': contactsim was built "
                   "without libfclib (FCLIB support off)",
                   path ? path : "(null)");
}

csStatus cs_fclib_read_global(const char* path, csGlobalProblem** out) {
  if (out) *out = NULL;
  return csi_error(CS_ERR_UNSUPPORTED,
                   "cannot read FCLIB file '%s': contactsim was built "
                   "without libfclib (FCLIB support off)",
                   path ? path : "(null)");
}

csStatus cs_fclib_write_global(const char* path, const csGlobalProblem* g, const double* r,
                               const double* v, const char* title) {
  (void)g, (void)r, (void)v, (void)title;
  return csi_error(CS_ERR_UNSUPPORTED,
                   "cannot write FCLIB file '%s': contactsim was built "
                   "without libfclib (FCLIB support off)",
                   path ? path : "(null)");
}

#endif
