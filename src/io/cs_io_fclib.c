/* FCLIB local problems (W r + q = u, per contact (n, t1, t2)) through libfclib 3.1.0 and
   HDF5: W = G, q = g, r = lambda.

   libfclib quirks this file works around (checked against the Debian 3.1.0 binary):
   - Its readers end the process (exit(1) from its IO/ASSERT macros) on any HDF5 call that
     fails: a missing dataset, a global problem given to fclib_read_local, a file without
     /solution given to fclib_read_solution. Its readers also trust the sizes stored in
     the file (a q longer than W's rows overflows a heap buffer). So every dataset libfclib
     will touch is first checked here with plain HDF5 calls (presence, class, element
     count, consistency of the sizes), and libfclib is called only on files that pass.
   - fclib_write_local refuses a file that already holds a local problem, or any existing
     non-HDF5 file with content (it adds to existing files, never truncates); so the file
     is first created afresh (truncated) here, which gives "overwrite" its meaning.
   - fclib_read_guesses opens the file read-write (it fails on read-only data) and returns
     an uninitialised pointer when there are no guesses; the first guess is read here
     directly instead.
   - fclib_merit_local passes W to CSparse's cs_gaxpy, which does nothing for row-stored
     (nz = -2) matrices, so its merit skips W r on Siconos' CSR files; fclib_merit_global
     returns 0. Neither is used: cs_ncp_report computes the Siconos error itself.
   - FCLIB's local V, R, s describe extra equality constraints (V^T r + R l + s = 0), not a
     compliance on W; such mixed problems are rejected rather than misread.
   HDF5 prints an error stack on stderr for every failed call by default; that is switched
   off while this file probes and calls libfclib, and restored afterwards. The probing
   helpers are shared with cs_io_fclib_global.c (cs_io_hdf5.c). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/cs_contact.h"
#include "core/cs_error.h"
#include "io/cs_io_hdf5.h"
#include "solvers/cs_solver.h"

void cs_problem_free(csOwnedProblem* p) {
  if (!p) return;
  cs_free(p->mu);
  cs_free(p->G);
  cs_free(p->g);
  cs_free(p->R);
  cs_free(p->lambda);
  cs_free(p->velocity);
  cs_free(p->island);
  cs_free(p->island_ids);
  cs_free(p->island_G);
  cs_free(p);
}

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB

#include <fclib.h>
#include <hdf5.h>

int cs_have_fclib(void) { return 1; }

/* ---------------------------------------------------------------- probing */

typedef struct FclibProbe {
  int nrow;         /* 3 nc */
  int has_solution; /* /solution with r and u */
  int has_guess;    /* /guesses/1/r (and maybe u) */
  int guess_u;
} FclibProbe;

/* Checks everything fclib_read_local and fclib_read_solution will read. */
static csStatus probe_local(hid_t f, const char* path, FclibProbe* pr) {
  csStatus st;
  memset(pr, 0, sizeof *pr);
  if (!csi_h5_exists(f, "/fclib_local")) {
    if (csi_h5_exists(f, "/fclib_global"))
      return csi_error(CS_ERR_UNSUPPORTED,
                       "'%s' holds an FCLIB global problem, not a local one "
                       "(read it with cs_fclib_read_global, then cs_global_condense for its "
                       "local form)",
                       path);
    if (csi_h5_exists(f, "/fclib_global_rolling") || csi_h5_exists(f, "/fclib_local_rolling"))
      return csi_error(CS_ERR_UNSUPPORTED,
                       "'%s' is an FCLIB rolling-friction problem; not read (libfclib 3.1.0 "
                       "cannot read it either)",
                       path);
    return csi_error(CS_ERR_PARSE,
                     "'%s' is an HDF5 file without an FCLIB problem "
                     "(no /fclib_local or /fclib_global group)",
                     path);
  }
  if ((st = csi_h5_probe_spacedim(f, path, "/fclib_local"))) return st;
  if (csi_h5_exists(f, "/fclib_local/V") || csi_h5_exists(f, "/fclib_local/R"))
    return csi_error(CS_ERR_UNSUPPORTED,
                     "FCLIB file '%s': local problem with equality constraints (V, R, s); "
                     "not read",
                     path);
  int m = 0, n = 0;
  if ((st = csi_h5_probe_matrix(f, path, "/fclib_local/W", &m, &n))) return st;
  if (m != n || m == 0 || m % 3 != 0)
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': W is %d x %d, not 3nc x 3nc with nc > 0", path,
                     m, n);
  if ((st = csi_h5_need_len(f, path, "/fclib_local/vectors/q", m))) return st;
  if ((st = csi_h5_need_len(f, path, "/fclib_local/vectors/mu", m / 3))) return st;
  if ((st = csi_h5_probe_info(f, path, "/fclib_local"))) return st;
  if (csi_h5_exists(f, "/solution")) {
    if ((st = csi_h5_need_len(f, path, "/solution/r", m))) return st;
    if ((st = csi_h5_need_len(f, path, "/solution/u", m))) return st;
    pr->has_solution = 1;
  } else if (csi_h5_exists(f, "/guesses/1/r")) {
    if ((st = csi_h5_need_len(f, path, "/guesses/1/r", m))) return st;
    pr->has_guess = 1;
    if (csi_h5_exists(f, "/guesses/1/u")) {
      if ((st = csi_h5_need_len(f, path, "/guesses/1/u", m))) return st;
      pr->guess_u = 1;
    }
  }
  pr->nrow = m;
  return CS_OK;
}

/* ---------------------------------------------------------------- conversion */

/* a += x, except that a still zero takes x itself: 0.0 + (-0.0) would turn a stored -0.0
   into +0.0 and break the bit-for-bit round trip. Duplicates are summed, as in CSparse. */
static void acc(double* a, double x) { *a = *a == 0 ? x : *a + x; }

/* Every stored entry (r, c, x) of W (nrow x nrow) given to put in storage order, indices
   checked. Storage as in CSparse, which Siconos uses to write these files: triplet i = row,
   p = column (fclib.h's comment says the opposite; for a symmetric W it makes no
   difference); CSC p = column pointers, i = rows; CSR p = row pointers, i = columns. */
typedef void (*EntryFn)(void* ctx, int r, int c, double x);

static csStatus w_each(const struct fclib_matrix* W, int nrow, const char* path, EntryFn put,
                       void* ctx) {
  if (W->m != nrow || W->n != nrow)
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': libfclib returned a %d x %d W", path, W->m,
                     W->n);
  if (W->nz >= 0) {
    for (int k = 0; k < W->nz; k++) {
      int r = W->i[k], c = W->p[k];
      if (r < 0 || r >= nrow || c < 0 || c >= nrow)
        return csi_error(CS_ERR_PARSE,
                         "FCLIB file '%s': W entry %d at (%d, %d) is outside "
                         "the %d x %d matrix",
                         path, k, r, c, nrow, nrow);
      put(ctx, r, c, W->x[k]);
    }
    return CS_OK;
  }
  int csc = W->nz == -1;
  for (int a = 0; a < nrow; a++) {
    int k0 = W->p[a], k1 = W->p[a + 1];
    if (k0 < 0 || k1 < k0 || k1 > W->nzmax || (a == 0 && k0 != 0))
      return csi_error(CS_ERR_PARSE,
                       "FCLIB file '%s': W's %s pointers are not increasing "
                       "within 0..nzmax %d at %d",
                       path, csc ? "column" : "row", W->nzmax, a);
    for (int k = k0; k < k1; k++) {
      int b = W->i[k];
      if (b < 0 || b >= nrow)
        return csi_error(CS_ERR_PARSE, "FCLIB file '%s': W index %d out of range at entry %d", path,
                         b, k);
      if (csc)
        put(ctx, b, a, W->x[k]);
      else
        put(ctx, a, b, W->x[k]);
    }
  }
  return CS_OK;
}

/* The dense row-major G (nrow x nrow, zeroed) of W. */
typedef struct DenseW {
  double* G;
  size_t n;
} DenseW;

static void dense_put(void* ctx, int r, int c, double x) {
  DenseW* d = ctx;
  acc(&d->G[(size_t)r * d->n + (size_t)c], x);
}

/* ---------------------------------------------------------------- islands of W
   Two contacts couple when W stores an entry of their 3 x 3 block (whatever its value, so
   that the islands' matrices hold every stored entry): union-find over the contacts. */

typedef struct IslandsW {
  int nc, nisland;
  int* parent; /* (nc) union-find forest, then each contact's island */
  int* local;  /* (nc) each contact's place in its island */
  int* count;  /* (nisland) contacts per island */
  size_t* off; /* (nisland) each island's G in the one array */
  double* G;
} IslandsW;

static int uf_root(int* parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

static void uf_put(void* ctx, int r, int c, double x) {
  IslandsW* w = ctx;
  (void)x;
  int a = uf_root(w->parent, r / 3), b = uf_root(w->parent, c / 3);
  if (a != b) w->parent[a > b ? a : b] = a < b ? a : b; /* the smaller id is the root */
}

/* Islands numbered in the order of their first contact (a root is its component's
   smallest id); parent becomes each contact's island, local its place in it (w->count must
   hold nc ints). */
static void uf_label(IslandsW* w) {
  for (int i = 0; i < w->nc; i++) w->parent[i] = uf_root(w->parent, i);
  int n = 0;
  for (int i = 0; i < w->nc; i++) {
    int root = w->parent[i]; /* root <= i: a root already holds its island */
    int k = root == i ? n++ : w->parent[root];
    if (root == i) w->count[k] = 0;
    w->local[i] = w->count[k]++;
    w->parent[i] = k;
  }
  w->nisland = n;
}

static void island_put(void* ctx, int r, int c, double x) {
  IslandsW* w = ctx;
  int i = r / 3, j = c / 3, k = w->parent[i];
  size_t m = 3 * (size_t)w->count[k];
  size_t lr = 3 * (size_t)w->local[i] + (size_t)(r % 3),
         lc = 3 * (size_t)w->local[j] + (size_t)(c % 3);
  acc(&w->G[w->off[k] + lr * m + lc], x);
}

static void islands_free(IslandsW* w) {
  cs_free(w->parent), cs_free(w->local), cs_free(w->count), cs_free(w->off);
  w->parent = w->local = w->count = NULL, w->off = NULL;
}

/* W's islands: w->nisland, and for more than one the labels (w->parent, w->local,
   w->count). */
static csStatus find_islands(const struct fclib_matrix* W, int nc, const char* path, IslandsW* w) {
  memset(w, 0, sizeof *w);
  w->nc = nc;
  w->parent = csi_malloc(sizeof(int) * (size_t)nc);
  w->local = csi_malloc(sizeof(int) * (size_t)nc);
  w->count = csi_malloc(sizeof(int) * (size_t)nc);
  if (!w->parent || !w->local || !w->count)
    return csi_error(CS_ERR_MEMORY, "out of memory for the islands of '%s'", path);
  for (int i = 0; i < nc; i++) w->parent[i] = i;
  csStatus st = w_each(W, 3 * nc, path, uf_put, w);
  if (st) return st;
  uf_label(w);
  return CS_OK;
}

/* o's island table and matrices from W and its islands w (nisland > 1). */
static csStatus read_islands(const struct fclib_matrix* W, IslandsW* w, const char* path,
                             csOwnedProblem* o) {
  int nc = w->nc, n = w->nisland;
  w->off = csi_malloc(sizeof(size_t) * (size_t)n);
  o->island = csi_calloc((size_t)n, sizeof(csIsland));
  o->island_ids = csi_malloc(sizeof(int) * (size_t)nc);
  size_t total = 0;
  for (int k = 0; w->off && k < n; k++) {
    w->off[k] = total;
    total += 9 * (size_t)w->count[k] * (size_t)w->count[k];
  }
  o->island_G = w->off ? csi_calloc(total, sizeof(double)) : NULL;
  if (!w->off || !o->island || !o->island_ids || !o->island_G)
    return csi_error(CS_ERR_MEMORY, "out of memory for %d islands of '%s'", n, path);
  w->G = o->island_G;
  int at = 0;
  for (int k = 0; k < n; k++) {
    o->island[k].nc = w->count[k];
    o->island[k].contact = o->island_ids + at;
    o->island[k].G = o->island_G + w->off[k];
    at += w->count[k];
  }
  for (int i = 0; i < nc; i++) { /* contacts in increasing order within each island */
    int k = w->parent[i];
    o->island_ids[o->island[k].contact - o->island_ids + w->local[i]] = i;
  }
  csStatus st = w_each(W, 3 * nc, path, island_put, w);
  if (st) return st;
  for (int k = 0; k < n; k++)
    if (!csi_is_symmetric(3 * w->count[k], o->island[k].G)) o->p.asym = 1;
  o->p.nisland = n;
  o->p.island = o->island;
  return CS_OK;
}

/* o's dense G from W (nrow x nrow). */
static csStatus read_dense(const struct fclib_matrix* W, int nrow, const char* path,
                           csOwnedProblem* o) {
  o->G = csi_calloc((size_t)nrow * (size_t)nrow, sizeof(double));
  if (!o->G)
    return csi_error(CS_ERR_MEMORY, "out of memory for a %d-contact problem from '%s'", nrow / 3,
                     path);
  DenseW d = {o->G, (size_t)nrow};
  csStatus st = w_each(W, nrow, path, dense_put, &d);
  if (!st) o->p.asym = !csi_is_symmetric(nrow, o->G);
  return st;
}

/* o's G: dense, or with islands set and W of several islands one matrix per island. */
static csStatus read_w(const struct fclib_matrix* W, int nc, const char* path, int islands,
                       csOwnedProblem* o) {
  if (!islands) return read_dense(W, 3 * nc, path, o);
  IslandsW w;
  csStatus st = find_islands(W, nc, path, &w);
  if (!st) st = w.nisland > 1 ? read_islands(W, &w, path, o) : read_dense(W, 3 * nc, path, o);
  islands_free(&w);
  return st;
}

/* ---------------------------------------------------------------- read */

static csStatus read_local(const char* path, int islands, csOwnedProblem** out) {
  if (out) *out = NULL;
  if (!path || !out) return csi_error(CS_ERR_ARG, "cs_fclib_read_local: NULL path or out");

  csiH5Quiet quiet;
  csi_h5_quiet(&quiet);
  csStatus st = CS_OK;
  struct fclib_local* fl = NULL;
  struct fclib_solution* sol = NULL;
  csOwnedProblem* o = NULL;
  FclibProbe pr;

  hid_t f;
  if ((st = csi_h5_open_read(path, &f))) goto done;
  st = probe_local(f, path, &pr);
  if (!st && pr.has_guess) {
    /* Read here rather than by fclib_read_guesses (see the top of the file). */
    o = csi_calloc(1, sizeof *o);
    if (!o) {
      st = csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
    } else {
      o->lambda = csi_malloc((size_t)pr.nrow * sizeof(double));
      if (pr.guess_u) o->velocity = csi_malloc((size_t)pr.nrow * sizeof(double));
      if (!o->lambda || (pr.guess_u && !o->velocity))
        st = csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
      else if (csi_h5_read(f, "/guesses/1/r", H5T_NATIVE_DOUBLE, o->lambda) < 0 ||
               (pr.guess_u && csi_h5_read(f, "/guesses/1/u", H5T_NATIVE_DOUBLE, o->velocity) < 0))
        st = csi_error(CS_ERR_IO, "FCLIB file '%s': cannot read /guesses/1", path);
    }
  }
  H5Fclose(f);
  if (st) goto done;

  fl = fclib_read_local(path);
  if (!fl) {
    st = csi_error(CS_ERR_IO, "libfclib could not read the local problem in '%s'", path);
    goto done;
  }
  const int nrow = pr.nrow, nc = nrow / 3;
  if (!o) o = csi_calloc(1, sizeof *o);
  if (!o) {
    st = csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
    goto done;
  }
  o->g = csi_dup_doubles(fl->q, (size_t)nrow);
  o->mu = csi_dup_doubles(fl->mu, (size_t)nc);
  if (!o->g || !o->mu) {
    st = csi_error(CS_ERR_MEMORY, "out of memory for a %d-contact problem from '%s'", nc, path);
    goto done;
  }
  if ((st = read_w(fl->W, nc, path, islands, o))) goto done;

  if (pr.has_solution) {
    sol = fclib_read_solution(path);
    if (!sol || !sol->r || !sol->u) {
      st = csi_error(CS_ERR_IO, "libfclib could not read the solution in '%s'", path);
      goto done;
    }
    o->lambda = csi_dup_doubles(sol->r, (size_t)nrow);
    o->velocity = csi_dup_doubles(sol->u, (size_t)nrow);
    if (!o->lambda || !o->velocity) {
      st = csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
      goto done;
    }
  }
  /* FCLIB has no compliance on W (its R belongs to the V/R/s equality block, rejected
     above), so R stays NULL; a problem written with R comes back with it folded into G. */
  o->p.nc = nc;
  o->p.nv = 0;
  o->p.mu = o->mu;
  o->p.G = o->G;
  o->p.g = o->g;
  o->p.R = NULL;
  o->p.J = NULL;

done:
  if (sol) fclib_delete_solutions(sol, 1);
  if (fl) {
    fclib_delete_local(fl); /* frees the members (and info), not the struct itself */
    free(fl);
  }
  csi_h5_restore(&quiet);
  if (st) {
    cs_problem_free(o);
    return st;
  }
  *out = o;
  return CS_OK;
}

csStatus cs_fclib_read_local(const char* path, csOwnedProblem** out) {
  return read_local(path, 0, out);
}

csStatus cs_fclib_read_local_islands(const char* path, csOwnedProblem** out) {
  return read_local(path, 1, out);
}

/* ---------------------------------------------------------------- write */

/* Entry (r, c) of W = G + diag(R). A zero R[r] is not added, so G's -0.0 stays -0.0. */
static double w_entry(const csContactProblem* p, size_t r, size_t c) {
  double x = p->G[r * 3 * (size_t)p->nc + c];
  if (p->R && r == c && p->R[r] != 0) x += p->R[r];
  return x;
}

static int w_keep(double x, size_t r, size_t c) { return x != 0 || signbit(x) || r == c; }

/* Where each contact of a problem stored by islands is: its island (where[i]) and its
   place in it (where[nc + i]). */
static void island_where(const csContactProblem* p, int* where) {
  for (int k = 0; k < p->nisland; k++)
    for (int a = 0; a < p->island[k].nc; a++) {
      where[p->island[k].contact[a]] = k;
      where[p->nc + p->island[k].contact[a]] = a;
    }
}

/* The kept entries of W's column c, rows increasing, into rowind, val (when not NULL);
   returns their count. Of islands (where from island_where), the column's island: the
   entries outside it are +0.0, never kept. */
static size_t w_column_bsr(const csContactProblem* p, const csIsland* I, size_t c, int a,
                           int* rowind, double* val) {
  size_t n = 0;
  for (int k = I->couple_ptr[a]; k < I->couple_ptr[a + 1]; k++) {
    const double* B = I->G + 9 * (size_t)k; /* block (a, b); G symmetric: (b, a) = B^T */
    for (int i = 0; i < 3; i++) {
      size_t r = 3 * (size_t)I->contact[I->couple_col[k]] + (size_t)i;
      double x = B[3 * (c % 3) + (size_t)i];
      if (p->R && r == c && p->R[r] != 0) x += p->R[r];
      if (!w_keep(x, r, c)) continue;
      if (rowind) rowind[n] = (int)r, val[n] = x;
      n++;
    }
  }
  return n;
}

static size_t w_column(const csContactProblem* p, const int* where, size_t c, int* rowind,
                       double* val) {
  size_t k = 0, n = 3 * (size_t)p->nc;
  const csIsland* I = where ? p->island + where[c / 3] : NULL;
  if (I && I->ncouple > 0) return w_column_bsr(p, I, c, where[p->nc + c / 3], rowind, val);
  size_t m = I ? 3 * (size_t)I->nc : n, lc = I ? 3 * (size_t)where[p->nc + c / 3] + c % 3 : c;
  for (size_t lr = 0; lr < m; lr++) {
    size_t r = I ? 3 * (size_t)I->contact[lr / 3] + lr % 3 : lr;
    double x = I ? I->G[lr * m + lc] : w_entry(p, r, c);
    if (I && p->R && r == c && p->R[r] != 0) x += p->R[r];
    if (!w_keep(x, r, c)) continue;
    if (rowind) rowind[k] = (int)r, val[k] = x;
    k++;
  }
  return k;
}

/* Row i of contact a of a block-sparse island times lambda, plus R lambda. */
static double w_row_bsr(const csContactProblem* p, const csIsland* I, int a, int i,
                        const double* lambda) {
  double s = 0;
  for (int k = I->couple_ptr[a]; k < I->couple_ptr[a + 1]; k++) {
    const double* B = I->G + 9 * (size_t)k + 3 * i;
    const double* l = lambda + 3 * (size_t)I->contact[I->couple_col[k]];
    s += B[0] * l[0], s += B[1] * l[1], s += B[2] * l[2];
  }
  size_t r = 3 * (size_t)I->contact[a] + (size_t)i;
  if (p->R) s += p->R[r] * lambda[r];
  return s;
}

/* u = W lambda + q, row by row (of islands, each row's island only: the same sums). */
static void w_velocity(const csContactProblem* p, const int* where, const double* lambda,
                       double* u) {
  size_t n = 3 * (size_t)p->nc;
  for (size_t r = 0; r < n; r++) {
    const csIsland* I = where ? p->island + where[r / 3] : NULL;
    if (I && I->ncouple > 0) {
      u[r] = w_row_bsr(p, I, where[p->nc + r / 3], (int)(r % 3), lambda) + p->g[r];
      continue;
    }
    size_t m = I ? 3 * (size_t)I->nc : n, lr = I ? 3 * (size_t)where[p->nc + r / 3] + r % 3 : r;
    const double* Gr = I ? I->G + lr * m : p->G + r * n;
    double s = 0;
    for (size_t lc = 0; lc < m; lc++)
      s += Gr[lc] * lambda[I ? 3 * (size_t)I->contact[lc / 3] + lc % 3 : lc];
    if (p->R) s += p->R[r] * lambda[r];
    u[r] = s + p->g[r];
  }
}

csStatus cs_fclib_write_local(const char* path, const csContactProblem* p, const double* lambda,
                              const char* title) {
  if (!path || !p) return csi_error(CS_ERR_ARG, "cs_fclib_write_local: NULL path or problem");
  if (p->nc <= 0)
    return csi_error(CS_ERR_ARG,
                     "cannot write '%s': an FCLIB problem needs at least one "
                     "contact (nc = %d)",
                     path, p->nc);
  if ((!p->G && p->nisland <= 0) || !p->g || !p->mu)
    return csi_error(CS_ERR_ARG, "cannot write '%s': the problem has no G, g or mu", path);
  if (p->nblock > 0 || p->mu2)
    return csi_error(CS_ERR_UNSUPPORTED,
                     "cannot write '%s': FCLIB holds isotropic friction contacts only, and the "
                     "problem has %d blocks of limits, friction loss or equalities%s",
                     path, p->nblock, p->mu2 ? " and elliptic contacts" : "");
  if (p->nc > INT_MAX / 3)
    return csi_error(CS_ERR_ARG, "cannot write '%s': nc = %d is too large", path, p->nc);
  const int nrow = 3 * p->nc;
  const size_t n = (size_t)nrow;

  /* W = G (+ diag R): FCLIB has no slot for a compliance on W, so the matrix the solvers
     actually see is written. Kept: every entry but +0.0, so a -0.0 survives the trip, and
     the whole diagonal, so no array is empty (libfclib's reader exits on a NULL from
     malloc, which malloc(0) may return). */
  csStatus st = p->nisland > 0 ? cs_problem_check_islands(p, NULL) : CS_OK;
  if (st) return csi_error(st, "cannot write '%s': %s", path, cs_last_error());
  int* where = p->nisland > 0 ? csi_malloc(2 * (size_t)p->nc * sizeof(int)) : NULL;
  if (p->nisland > 0 && !where) return csi_error(CS_ERR_MEMORY, "out of memory writing '%s'", path);
  if (where) island_where(p, where);
  size_t nnz = 0;
  for (size_t c = 0; c < n; c++) nnz += w_column(p, where, c, NULL, NULL);
  if (nnz > (size_t)INT_MAX) {
    cs_free(where);
    return csi_error(CS_ERR_ARG, "cannot write '%s': %zu non-zeros exceed FCLIB's int indices",
                     path, nnz);
  }

  int* colptr = csi_malloc((n + 1) * sizeof(int));
  int* rowind = csi_malloc(nnz * sizeof(int));
  double* val = csi_malloc(nnz * sizeof(double));
  double* u = lambda ? csi_malloc(n * sizeof(double)) : NULL;
  if (!colptr || !rowind || !val || (lambda && !u)) {
    cs_free(colptr), cs_free(rowind), cs_free(val), cs_free(u), cs_free(where);
    return csi_error(CS_ERR_MEMORY, "out of memory writing '%s'", path);
  }
  /* Compressed columns (nz = -1): the CSparse form libfclib's own merit code understands
     (see the top of the file). G is symmetric, so the arrays equal the CSR ones anyway. */
  size_t k = 0;
  for (size_t c = 0; c < n; c++) {
    colptr[c] = (int)k;
    k += w_column(p, where, c, rowind + k, val + k);
  }
  colptr[n] = (int)k;

  /* u = W r + q with the W just written, so the stored pair is consistent in FCLIB's own
     terms. */
  if (lambda) w_velocity(p, where, lambda, u);
  cs_free(where);

  csiH5Quiet quiet;
  csi_h5_quiet(&quiet);
  /* Create (truncate) the file ourselves, so libfclib finds an empty HDF5 file it is
     willing to add a problem to. */
  if ((st = csi_h5_create_empty(path))) goto done;

  {
    /* libfclib takes non-const pointers but only reads through them. */
    struct fclib_matrix W;
    memset(&W, 0, sizeof W);
    W.nzmax = (int)nnz;
    W.m = nrow;
    W.n = nrow;
    W.p = colptr;
    W.i = rowind;
    W.x = val;
    W.nz = -1;
    W.info = NULL;
    struct fclib_info info;
    info.title = (char*)(title ? title : "contactsim contact problem");
    info.description = (char*)(p->R ? "contactsim: W = G + diag(R) (Delassus plus compliance), "
                                      "q = g (free velocity), r = lambda (impulses)"
                                    : "contactsim: W = G (Delassus J M^-1 J^T), q = g (free "
                                      "velocity), r = lambda (impulses)");
    info.math_info = NULL;
    struct fclib_local prob;
    memset(&prob, 0, sizeof prob);
    prob.W = &W;
    prob.V = NULL;
    prob.R = NULL;
    prob.mu = (double*)p->mu;
    prob.q = (double*)p->g;
    prob.s = NULL;
    prob.spacedim = 3;
    prob.info = &info;
    if (!fclib_write_local(&prob, path)) {
      st = csi_error(CS_ERR_IO, "libfclib could not write the local problem to '%s'", path);
      goto done;
    }
    if (lambda) {
      struct fclib_solution sol;
      sol.v = NULL;
      sol.u = u;
      sol.r = (double*)lambda;
      sol.l = NULL;
      if (!fclib_write_solution(&sol, path)) {
        st = csi_error(CS_ERR_IO, "libfclib could not write the solution to '%s'", path);
        goto done;
      }
    }
  }

done:
  csi_h5_restore(&quiet);
  cs_free(colptr);
  cs_free(rowind);
  cs_free(val);
  cs_free(u);
  return st;
}

#else /* no libfclib */

int cs_have_fclib(void) { return 0; }

csStatus cs_fclib_read_local(const char* path, csOwnedProblem** out) {
  if (out) *out = NULL;
  return csi_error(CS_ERR_UNSUPPORTED,
                   "cannot read FCLIB file '%s': contactsim was built "
                   "without libfclib (FCLIB support off)",
                   path ? path : "(null)");
}

csStatus cs_fclib_read_local_islands(const char* path, csOwnedProblem** out) {
  return cs_fclib_read_local(path, out);
}

csStatus cs_fclib_write_local(const char* path, const csContactProblem* p, const double* lambda,
                              const char* title) {
  (void)p, (void)lambda, (void)title;
  return csi_error(CS_ERR_UNSUPPORTED,
                   "cannot write FCLIB file '%s': contactsim was built "
                   "without libfclib (FCLIB support off)",
                   path ? path : "(null)");
}

#endif
