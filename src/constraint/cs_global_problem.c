/* The global contact problem (include/contactsim/cs_contact.h, FCLIB's form)
     M v = H r + f,   u = H^T v + w,   r in K_mu, u~ in K*_mu, <r, u~> = 0,
   condensed to the local problem W = H^T M^-1 H, q = H^T M^-1 f + w, the global velocity
   v = M^-1 (H r + f) recovered from a local solution r, and Siconos' global error. Its
   sources: the FCLIB global reader (src/io/cs_io_fclib_global.c) and a step's contact
   problem (cs_global_from_data.c).

   M is factored once, on first use, by the envelope Cholesky M = P^T L L^T P of
   src/sparse/cs_sparse.h and the factor kept in the problem. H's columns are sparse, so
   X = L^-1 P H is computed column by column with sparse right-hand sides (the non-zeros of
   L^-1 b are the elimination-tree paths from b's non-zeros to the root). W = X^T X is then
   summed row by row of X, in the same order for W_ab and W_ba, so W is exactly symmetric
   and positive semidefinite up to rounding. */
#include "constraint/cs_global_problem.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constraint/cs_contact_cone.h"
#include "core/cs_error.h"
#include "solvers/cs_solver.h"
#include "sparse/cs_sparse.h"

static int cmp_int(const void* a, const void* b) {
  int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

static csStatus ensure_factor(csGlobalProblem* g) {
  if (g->factor) return CS_OK;
  csiSparseFactor* F = NULL;
  csStatus st = csi_sparse_factor_make(&g->M, &F);
  if (st) return st;
  g->factor = F;
  return CS_OK;
}

csStatus csi_global_check(const csGlobalProblem* g, const char* fn) {
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
static int condense_reach(const csiSparseFactor* F, const csSparseMatrix* H, condenseWork* w,
                          int a) {
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
    nr = csi_sparse_reach(F, i, mark, stamp, reach, nr);
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
  const csiSparseFactor* F = g->factor;
  int nr = condense_reach(F, &g->H, w, a);
  csStatus st = condense_grow(w, nr);
  if (st) return st;
  double* x = w->x;
  csi_sparse_lsolve_reach(F, w->reach, nr, x);
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
  csStatus st = csi_global_check(g, "cs_global_condense");
  if (st) return st;
  if ((st = ensure_factor(g))) return st;
  const csiSparseFactor* F = g->factor;
  condenseWork w = {0};
  w.n = g->n, w.m = 3 * g->nc;
  csOwnedProblem* o = NULL;
  if ((st = condense_alloc(g, &w, &o))) goto done;
  /* y = L^-1 P f */
  for (int i = 0; i < w.n; i++) w.y[i] = g->f[F->perm[i]];
  csi_sparse_lsolve(F, w.y);
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

csStatus cs_global_velocity(csGlobalProblem* g, const double* r, double* v) {
  csStatus st = csi_global_check(g, "cs_global_velocity");
  if (st) return st;
  if (!r || !v) return csi_error(CS_ERR_ARG, "cs_global_velocity: NULL r or v");
  if ((st = ensure_factor(g))) return st;
  const int n = g->n;
  double* t = csi_malloc((size_t)n * 2 * sizeof(double));
  if (!t) return csi_error(CS_ERR_MEMORY, "out of memory (n = %d)", n);
  double* z = t + n;
  memcpy(t, g->f, (size_t)n * sizeof(double));
  csi_sparse_gaxpy(&g->H, r, t); /* H r + f */
  csi_sparse_solve(g->factor, t, v, z);
  cs_free(t);
  return CS_OK;
}

static double nrm2(const double* x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}

double cs_global_error(const csGlobalProblem* g, const double* r, const double* v, double* u) {
  if (csi_global_check(g, "cs_global_error") || !r || !v) return NAN;
  const size_t n = (size_t)g->n, m = 3 * (size_t)g->nc;
  double* t = csi_calloc(2 * n + m, sizeof(double));
  if (!t) return NAN;
  double* Mv = t;
  double* Hr = t + n;
  double* uu = t + 2 * n;
  csi_sparse_gaxpy(&g->M, v, Mv);
  csi_sparse_gaxpy(&g->H, r, Hr);
  double res2 = 0;
  for (size_t i = 0; i < n; i++) {
    double e = Mv[i] - Hr[i] - g->f[i];
    res2 += e * e;
  }
  double scale = fmax(nrm2(g->f, n), fmax(nrm2(Mv, n), nrm2(Hr, n)));
  double primal = sqrt(res2);
  if (scale > DBL_EPSILON) primal /= scale;
  memcpy(uu, g->w, m * sizeof(double));
  csi_sparse_tgaxpy(&g->H, v, uu);
  double err2 = 0;
  for (int i = 0; i < g->nc; i++) err2 += csi_natural_map_sq(r + 3 * i, uu + 3 * i, g->mu[i]);
  double local = sqrt(err2);
  double ls = fmax(nrm2(uu, m), nrm2(r, m));
  if (ls > DBL_EPSILON) local /= ls;
  if (u) memcpy(u, uu, m * sizeof(double));
  cs_free(t);
  return primal + local;
}

void cs_global_problem_free(csGlobalProblem* g) {
  if (!g) return;
  csi_sparse_free(&g->M);
  csi_sparse_free(&g->H);
  cs_free(g->f);
  cs_free(g->w);
  cs_free(g->mu);
  cs_free(g->r);
  cs_free(g->u);
  cs_free(g->v);
  csi_sparse_factor_free(g->factor);
  cs_free(g);
}
