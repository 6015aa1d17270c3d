/* FCLIB global problems (M v = H r + f, u = H^T v + w):
   - condensation W = H^T M^-1 H, q = H^T M^-1 f + w against a dense computation, on random
     problems whose M is diagonal, block diagonal, banded under a random permutation (the
     sparse Cholesky's reordering and elimination-tree solves), and dense; W exactly
     symmetric; v = M^-1 (H r + f) satisfies M v = H r + f; H^T v + w = W r + q;
   - write and read back (problem and solution, bit for bit), an M stored as one triangle;
   - bad input, each a status and a message, never a crash or an exit: a missing file, a
     text file, a local problem given to the global reader, NaN in M and in f, mu < 0, an
     index outside H, sizes that disagree, an asymmetric M, a non-positive diagonal, an
     indefinite M (at condensation), spacedim 2, equality constraints G, rolling friction;
   - with ../shared: every Siconos global file read, condensed (W symmetric with a positive
     diagonal), solved (ncp_admm if implemented, else ncp_pgs), and where the local Siconos
     error reaches 1e-8 the recovered global velocity's global error is <= 1e-8 (the
     acceptance point); cs_fclib_info's kind of every file agrees with INDEX.tsv. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/cs_contact.h"
#include "contactsim/cs_io.h"
#include "cs_test.h"

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB
#include <fclib.h>
#include <hdf5.h>
#define HAVE_FCLIB 1
#else
#define HAVE_FCLIB 0
#endif

/* ---------------------------------------------------------------- helpers */

/* Compressed columns of a dense row-major m x n matrix (non-zeros only). */
static void to_sparse(const double* A, int m, int n, csSparseMatrix* S) {
  int nnz = 0;
  for (int i = 0; i < m * n; i++) nnz += A[i] != 0;
  S->m = m, S->n = n;
  S->colptr = malloc((size_t)(n + 1) * sizeof(int));
  S->rowind = malloc((size_t)(nnz ? nnz : 1) * sizeof(int));
  S->val = malloc((size_t)(nnz ? nnz : 1) * sizeof(double));
  int k = 0;
  for (int j = 0; j < n; j++) {
    S->colptr[j] = k;
    for (int i = 0; i < m; i++)
      if (A[i * n + j] != 0) S->rowind[k] = i, S->val[k] = A[i * n + j], k++;
  }
  S->colptr[n] = k;
}

enum { M_DIAG, M_BLOCK, M_BAND, M_DENSE };

/* A random global problem: M symmetric positive definite of the given structure. */
static csGlobalProblem* random_global(int n, int nc, int kind, double* Md, double* Hd) {
  const int m = 3 * nc;
  memset(Md, 0, (size_t)n * n * sizeof(double));
  if (kind == M_DIAG) {
    for (int i = 0; i < n; i++) Md[i * n + i] = cs_test_uniform(0.5, 3);
  } else if (kind == M_BLOCK || kind == M_DENSE) {
    int b = kind == M_BLOCK ? 6 : n;
    for (int s = 0; s < n; s += b) {
      int e = s + b < n ? s + b : n;
      for (int i = s; i < e; i++) /* diagonally dominant, so positive definite */
        for (int j = s; j <= i; j++) {
          double x = cs_test_gauss();
          Md[i * n + j] = Md[j * n + i] = i == j ? (e - s) + fabs(x) : 0.3 * x;
        }
    }
  } else { /* band 3, then a random symmetric permutation */
    double* B = calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; i++)
      for (int j = i - 3; j <= i; j++)
        if (j >= 0) B[i * n + j] = B[j * n + i] = i == j ? 8 + cs_test_uniform(0, 1) : -1;
    int* p = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = n - 1; i > 0; i--) {
      int j = (int)cs_test_uniform(0, i + 1 - 1e-9);
      int t = p[i];
      p[i] = p[j], p[j] = t;
    }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) Md[p[i] * n + p[j]] = B[i * n + j];
    free(p);
    free(B);
  }
  /* H: each contact touches two "bodies" of 3 rows */
  memset(Hd, 0, (size_t)n * m * sizeof(double));
  for (int c = 0; c < nc; c++) {
    int b1 = (int)cs_test_uniform(0, n / 3 - 1e-9), b2 = (int)cs_test_uniform(0, n / 3 - 1e-9);
    for (int k = 0; k < 3; k++)
      for (int r = 0; r < 3; r++) {
        Hd[(3 * b1 + r) * m + 3 * c + k] += cs_test_gauss();
        if (b2 != b1) Hd[(3 * b2 + r) * m + 3 * c + k] -= cs_test_gauss();
      }
  }
  csGlobalProblem* g = calloc(1, sizeof *g);
  g->n = n, g->nc = nc;
  to_sparse(Md, n, n, &g->M);
  to_sparse(Hd, n, m, &g->H);
  g->f = malloc((size_t)n * sizeof(double));
  g->w = malloc((size_t)m * sizeof(double));
  g->mu = malloc((size_t)nc * sizeof(double));
  for (int i = 0; i < n; i++) g->f[i] = cs_test_gauss();
  for (int i = 0; i < m; i++) g->w[i] = 0.1 * cs_test_gauss();
  for (int i = 0; i < nc; i++) g->mu[i] = cs_test_uniform(0.1, 1);
  return g;
}

/* Dense W = H^T M^-1 H and q = H^T M^-1 f + w by a dense Cholesky (reference). */
static void dense_condense(const double* Md, const double* Hd, const double* f, const double* w,
                           int n, int m, double* W, double* q) {
  double* L = calloc((size_t)n * n, sizeof(double));
  double* X = malloc((size_t)n * (m + 1) * sizeof(double)); /* L^-1 [H f] */
  for (int j = 0; j < n; j++) {
    double d = Md[j * n + j];
    for (int k = 0; k < j; k++) d -= L[j * n + k] * L[j * n + k];
    L[j * n + j] = sqrt(d);
    for (int i = j + 1; i < n; i++) {
      double s = Md[i * n + j];
      for (int k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / L[j * n + j];
    }
  }
  for (int c = 0; c <= m; c++)
    for (int i = 0; i < n; i++) {
      double s = c < m ? Hd[i * m + c] : f[i];
      for (int k = 0; k < i; k++) s -= L[i * n + k] * X[k * (m + 1) + c];
      X[i * (m + 1) + c] = s / L[i * n + i];
    }
  for (int a = 0; a < m; a++) {
    for (int b = 0; b < m; b++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += X[k * (m + 1) + a] * X[k * (m + 1) + b];
      W[a * m + b] = s;
    }
    double s = 0;
    for (int k = 0; k < n; k++) s += X[k * (m + 1) + a] * X[k * (m + 1) + m];
    q[a] = s + w[a];
  }
  free(L);
  free(X);
}

static double maxabs(const double* x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s = fmax(s, fabs(x[i]));
  return s;
}

static double nrm(const double* x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}

/* max_a |(W r + q)_a - u_a| / max_a (sum_j |H_ja v_j| + |w_a|): u = H^T v + w measured on
   the size of its terms, not of u itself, which is ~0 at sticking contacts while v is not
   (and M of the LMGC files has a condition number near 1e7, so v carries that error). */
static double local_velocity_gap(const csGlobalProblem* g, const csContactProblem* p,
                                 const double* r, const double* v, const double* u) {
  const size_t m = 3 * (size_t)p->nc;
  double gap = 0, scale = 0;
  for (size_t a = 0; a < m; a++) {
    double s = p->g[a];
    for (size_t b = 0; b < m; b++) s += p->G[a * m + b] * r[b];
    gap = fmax(gap, fabs(s - u[a]));
    double t = fabs(g->w[a]);
    for (int k = g->H.colptr[a]; k < g->H.colptr[a + 1]; k++)
      t += fabs(g->H.val[k] * v[g->H.rowind[k]]);
    scale = fmax(scale, t);
  }
  return gap / fmax(scale, 1e-300);
}

static const csSolver* best_solver(const char** name) {
  int t = cs_solver_from_name("ncp_admm");
  const csSolver* s = t > 0 ? cs_solver_get((csSolverType)t) : NULL;
  *name = "ncp_admm";
  if (!s) {
    s = cs_solver_get(CS_SOLVER_NCP_PGS);
    *name = "ncp_pgs";
  }
  return s;
}

/* Solve p from zero until its Siconos error is <= target or the cap of iters: the solver's
   own (absolute) tolerance starts at target and, while its own criterion is met but the
   Siconos error is not, goes on from its solution with 1/100 of the smaller of that
   tolerance and the residual reached (as bench fclib does). Returns the Siconos error. */
static double solve(const csSolver* s, const csContactProblem* p, double target, int iters,
                    double* r, int* its) {
  csSolverOptions o = {iters, target, 1.0, 0, 0};
  size_t bytes = (s->workspace_bytes ? s->workspace_bytes(p, &o) : 0) / 64 * 64 + 128;
  void* ws = aligned_alloc(64, bytes);
  memset(r, 0, 3 * (size_t)p->nc * sizeof(double));
  int total = 0;
  csNcpReport rep;
  for (int k = 0; k < 5 && total < iters; k++) {
    csSolverStats st;
    memset(&st, 0, sizeof st);
    o.iterations = iters - total;
    o.warmstart = k > 0;
    CHECK(s->solve(p, &o, ws, r, &st) == CS_OK);
    total += st.iterations;
    cs_ncp_report(p, r, &rep);
    if (rep.error <= target || !st.converged || !(st.residual > 0)) break;
    o.tolerance = fmin(o.tolerance, st.residual) * 1e-2;
  }
  free(ws);
  if (its) *its = total;
  return rep.error;
}

/* ---------------------------------------------------------------- in-memory tests */

static void test_condense_random(void) {
  static const char* const kinds[4] = {"diagonal", "block", "permuted band", "dense"};
  const char* sname = NULL;
  const csSolver* sv = best_solver(&sname);
  for (int kind = 0; kind < 4; kind++) {
    const int n = 30, nc = 4, m = 3 * nc;
    double* Md = malloc((size_t)n * n * sizeof(double));
    double* Hd = malloc((size_t)n * m * sizeof(double));
    csGlobalProblem* g = random_global(n, nc, kind, Md, Hd);
    csOwnedProblem* o = NULL;
    csStatus st = cs_global_condense(g, &o);
    CHECK_MSG(st == CS_OK && o, "%s M: condense: %s", kinds[kind], cs_last_error());
    if (!o) {
      cs_global_problem_free(g);
      free(Md), free(Hd);
      continue;
    }
    double W[12 * 12], q[12];
    dense_condense(Md, Hd, g->f, g->w, n, m, W, q);
    double dw = 0, dq = 0, asym = 0;
    for (int a = 0; a < m * m; a++) dw = fmax(dw, fabs(o->G[a] - W[a]));
    for (int a = 0; a < m; a++) dq = fmax(dq, fabs(o->g[a] - q[a]));
    for (int a = 0; a < m; a++)
      for (int b = 0; b < m; b++) asym = fmax(asym, fabs(o->G[a * m + b] - o->G[b * m + a]));
    CHECK_MSG(dw <= 1e-12 * maxabs(W, (size_t)m * m), "%s M: W off by %g", kinds[kind], dw);
    CHECK_MSG(dq <= 1e-12 * maxabs(q, (size_t)m), "%s M: q off by %g", kinds[kind], dq);
    CHECK_MSG(asym == 0, "%s M: W not exactly symmetric (%g)", kinds[kind], asym);
    CHECK(o->p.nc == nc && o->p.mu == o->mu && !memcmp(o->mu, g->mu, sizeof(double) * nc));
    CHECK(!o->lambda && !o->velocity);
    for (int a = 0; a < m; a++) CHECK(o->G[a * m + a] > 0);

    /* solve, recover v, check the identities and the global error */
    double r[12], u[12];
    double* v = malloc((size_t)n * sizeof(double));
    double err = solve(sv, &o->p, 1e-10, 20000, r, NULL);
    CHECK(cs_global_velocity(g, r, v) == CS_OK);
    double ge = cs_global_error(g, r, v, u);
    double* res = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) {
      res[i] = -g->f[i];
      for (int j = 0; j < n; j++) res[i] += Md[i * n + j] * v[j];
      for (int a = 0; a < m; a++) res[i] -= Hd[i * m + a] * r[a];
    }
    CHECK_MSG(nrm(res, (size_t)n) <= 1e-12 * fmax(nrm(g->f, (size_t)n), 1),
              "%s M: |M v - H r - f| = %g", kinds[kind], nrm(res, (size_t)n));
    double gap = local_velocity_gap(g, &o->p, r, v, u);
    CHECK_MSG(gap <= 1e-12, "%s M: H^T v + w differs from W r + q by %g", kinds[kind], gap);
    if (err <= 1e-8)
      CHECK_MSG(ge <= 1e-8, "%s M: local error %g but global error %g", kinds[kind], err, ge);
    printf("random %-13s M: %s local error %.2e, global error %.2e\n", kinds[kind], sname, err, ge);
    free(res), free(v);
    cs_problem_free(o);
    cs_global_problem_free(g);
    free(Md), free(Hd);
  }

  /* bad arguments: no crash */
  csOwnedProblem* o = NULL;
  CHECK(cs_global_condense(NULL, &o) == CS_ERR_ARG && !o);
  double x = 0;
  CHECK(cs_global_velocity(NULL, &x, &x) == CS_ERR_ARG);
  CHECK(isnan(cs_global_error(NULL, &x, &x, NULL)));
  cs_global_problem_free(NULL);

  /* an indefinite M with a positive diagonal: CS_ERR_NUMERIC at condensation */
  double Md[9] = {1, 2, 0, 2, 1, 0, 0, 0, 1}, Hd[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  csGlobalProblem* g = calloc(1, sizeof *g);
  g->n = 3, g->nc = 1;
  to_sparse(Md, 3, 3, &g->M);
  to_sparse(Hd, 3, 3, &g->H);
  g->f = calloc(3, sizeof(double));
  g->w = calloc(3, sizeof(double));
  g->mu = calloc(1, sizeof(double));
  csStatus st = cs_global_condense(g, &o);
  CHECK_MSG(st == CS_ERR_NUMERIC && !o, "indefinite M: %d", (int)st);
  CHECK(strstr(cs_last_error(), "positive definite") != NULL);
  cs_global_problem_free(g);
}

#if HAVE_FCLIB

/* ---------------------------------------------------------------- files */

static int mentions(const char* path) { return strstr(cs_last_error(), path) != NULL; }

/* A small valid global problem as libfclib arrays (triplets, as Siconos writes them). */
typedef struct Raw {
  int Mp[8], Mi[8];
  double Mx[8];
  int Hp[8], Hi[8];
  double Hx[8];
  double f[6], w[6], mu[2];
  struct fclib_matrix M, H;
  struct fclib_info info;
  struct fclib_global g;
} Raw;

/* n = 6 (two bodies of 3 dofs, M diagonal), nc = 2, H picks dofs per contact. */
static void raw_init(Raw* R) {
  memset(R, 0, sizeof *R);
  for (int i = 0; i < 6; i++) R->Mp[i] = i, R->Mi[i] = i, R->Mx[i] = 1 + 0.5 * i;
  for (int k = 0; k < 6; k++) R->Hi[k] = k, R->Hp[k] = k, R->Hx[k] = k % 3 ? 0.5 : 1;
  for (int i = 0; i < 6; i++) R->f[i] = i % 3 == 0 ? -0.1 : 0.05;
  R->mu[0] = 0.3, R->mu[1] = 0.6;
  R->M = (struct fclib_matrix){6, 6, 6, R->Mp, R->Mi, R->Mx, 6, NULL};
  R->H = (struct fclib_matrix){6, 6, 6, R->Hp, R->Hi, R->Hx, 6, NULL};
  R->info.title = (char*)"test";
  R->info.description = (char*)"contactsim test";
  R->info.math_info = (char*)"";
  R->g.M = &R->M;
  R->g.H = &R->H;
  R->g.mu = R->mu;
  R->g.f = R->f;
  R->g.w = R->w;
  R->g.spacedim = 3;
  R->g.info = &R->info;
}

static int raw_write(Raw* R, const char* path) {
  remove(path);
  return fclib_write_global(&R->g, path);
}

/* Overwrite the single-integer dataset name of an existing file. */
static int h5_set_int(const char* path, const char* name, int value) {
  hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
  if (f < 0) return -1;
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  herr_t e = d >= 0 ? H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) : -1;
  if (d >= 0) H5Dclose(d);
  H5Fclose(f);
  return e < 0 ? -1 : 0;
}

static void expect_fail(const char* path, csStatus want, const char* what) {
  csGlobalProblem* g = (csGlobalProblem*)1;
  csStatus st = cs_fclib_read_global(path, &g);
  CHECK_MSG(st == want && g == NULL, "%s: got status %d (%s), wanted %d", what, (int)st,
            cs_last_error(), (int)want);
  CHECK_MSG(mentions(path), "%s: message does not name the file: %s", what, cs_last_error());
}

static void test_files(const char* dir) {
  char path[512], path2[512];
  snprintf(path, sizeof path, "%s/global.hdf5", dir);
  snprintf(path2, sizeof path2, "%s/global2.hdf5", dir);
  Raw R;

  /* valid; read, condense, round trip through our writer with a solution */
  raw_init(&R);
  CHECK(raw_write(&R, path) == 1);
  csGlobalProblem* g = NULL;
  csStatus st = cs_fclib_read_global(path, &g);
  CHECK_MSG(st == CS_OK && g, "read: %s", cs_last_error());
  if (g) {
    CHECK(g->n == 6 && g->nc == 2 && !g->r && !g->u && !g->v);
    CHECK(g->M.colptr[6] == 6 && g->H.colptr[6] == 6);
    CHECK(g->f[0] == -0.1 && g->mu[1] == 0.6);
    csOwnedProblem* o = NULL;
    CHECK(cs_global_condense(g, &o) == CS_OK && o);
    const char* sname = NULL;
    const csSolver* sv = best_solver(&sname);
    if (o && sv) {
      double r[6], v[6];
      double err = solve(sv, &o->p, 1e-10, 10000, r, NULL);
      CHECK(err <= 1e-8);
      CHECK(cs_global_velocity(g, r, v) == CS_OK);
      CHECK(cs_global_error(g, r, v, NULL) <= 1e-8);
      st = cs_fclib_write_global(path2, g, r, v, "round trip");
      CHECK_MSG(st == CS_OK, "write: %s", cs_last_error());
      /* overwrite works (libfclib alone refuses a second problem or solution) */
      st = cs_fclib_write_global(path2, g, r, v, "round trip");
      CHECK_MSG(st == CS_OK, "overwrite: %s", cs_last_error());
      csGlobalProblem* b = NULL;
      st = cs_fclib_read_global(path2, &b);
      CHECK_MSG(st == CS_OK && b, "read back: %s", cs_last_error());
      if (b) {
        CHECK(b->n == 6 && b->nc == 2);
        CHECK(!memcmp(b->M.colptr, g->M.colptr, 7 * sizeof(int)) &&
              !memcmp(b->M.rowind, g->M.rowind, 6 * sizeof(int)) &&
              !memcmp(b->M.val, g->M.val, 6 * sizeof(double)));
        CHECK(!memcmp(b->H.val, g->H.val, 6 * sizeof(double)));
        CHECK(!memcmp(b->f, g->f, 6 * sizeof(double)) && !memcmp(b->w, g->w, 6 * sizeof(double)));
        CHECK(!memcmp(b->mu, g->mu, 2 * sizeof(double)));
        CHECK_MSG(b->r && b->u && b->v && !memcmp(b->r, r, sizeof r) && !memcmp(b->v, v, sizeof v),
                  "solution not read back identical");
        if (b->u) {
          double u[6];
          cs_global_error(g, r, v, u);
          CHECK(!memcmp(b->u, u, sizeof u));
        }
        csOwnedProblem* ob = NULL;
        CHECK(cs_global_condense(b, &ob) == CS_OK && ob && ob->lambda && ob->velocity);
        if (ob && ob->lambda) CHECK(!memcmp(ob->lambda, r, sizeof r));
        cs_problem_free(ob);
      }
      cs_global_problem_free(b);
      csFclibInfo in;
      CHECK(cs_fclib_info(path2, &in) == CS_OK);
      CHECK(in.kind == CS_FCLIB_GLOBAL && in.nc == 2 && in.n == 6 && in.rows == 6 &&
            in.has_solution && !in.has_guess && in.mu_min == 0.3 && in.mu_max == 0.6 &&
            !strcmp(in.title, "round trip"));
    }
    cs_problem_free(o);
  }
  cs_global_problem_free(g);

  /* M stored as one triangle (lower, then upper) reads as the full matrix */
  {
    double Md[9] = {4, 1, 0, 1, 3, 0.5, 0, 0.5, 2};
    for (int tri = 0; tri < 2; tri++) {
      raw_init(&R);
      int k = 0;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          if (Md[i * 3 + j] != 0 && (tri ? j >= i : j <= i))
            R.Mi[k] = i, R.Mp[k] = j, R.Mx[k] = Md[i * 3 + j], k++;
      for (int i = 3; i < 6; i++) R.Mi[k] = i, R.Mp[k] = i, R.Mx[k] = 2, k++;
      R.M.nz = R.M.nzmax = k;
      CHECK(raw_write(&R, path) == 1);
      csGlobalProblem* t = NULL;
      st = cs_fclib_read_global(path, &t);
      CHECK_MSG(st == CS_OK && t, "one-triangle M: %s", cs_last_error());
      if (t) {
        CHECK(t->M.colptr[6] == 7 + 3);
        int ok = 1;
        for (int j = 0; j < 3; j++)
          for (int q = t->M.colptr[j]; q < t->M.colptr[j + 1]; q++) {
            ok &= t->M.val[q] == Md[t->M.rowind[q] * 3 + j];
            if (q > t->M.colptr[j]) ok &= t->M.rowind[q] > t->M.rowind[q - 1];
          }
        CHECK_MSG(ok, "one-triangle M (%s) not mirrored", tri ? "upper" : "lower");
      }
      cs_global_problem_free(t);
    }
  }

  /* ---- bad input */
  expect_fail("/nonexistent/dir/problem.hdf5", CS_ERR_IO, "missing file");
  {
    FILE* fp = fopen(path, "w");
    if (fp) fputs("not hdf5\n", fp), fclose(fp);
    expect_fail(path, CS_ERR_PARSE, "text file");
  }
  {
    double G[9] = {2, 0, 0, 0, 2, 0, 0, 0, 2}, q[3] = {-1, 0, 0}, mu[1] = {0.5};
    csContactProblem p;
    memset(&p, 0, sizeof p);
    p.nc = 1, p.G = G, p.g = q, p.mu = mu;
    CHECK(cs_fclib_write_local(path, &p, NULL, "local") == CS_OK);
    expect_fail(path, CS_ERR_ARG, "local problem");
    CHECK(strstr(cs_last_error(), "local") != NULL);
  }
  raw_init(&R);
  R.Mx[2] = NAN;
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "NaN in M");
  raw_init(&R);
  R.f[4] = NAN;
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "NaN in f");
  raw_init(&R);
  R.Hx[1] = INFINITY;
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "Inf in H");
  raw_init(&R);
  R.mu[1] = -0.2;
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "mu < 0");
  CHECK(strstr(cs_last_error(), "mu[1]") != NULL);
  raw_init(&R);
  R.Hi[3] = 6; /* row 6 of a 6-row H */
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "index outside H");
  raw_init(&R);
  R.Hp[3] = -1;
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "negative index in H");
  raw_init(&R);
  R.H.m = 5; /* H's rows disagree with M */
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "H rows != n");
  raw_init(&R); /* 5 columns, not 3nc (libfclib's writer exits on that: patched after) */
  CHECK(raw_write(&R, path) == 1);
  CHECK(h5_set_int(path, "/fclib_global/H/n", 5) == 0);
  expect_fail(path, CS_ERR_PARSE, "H columns not 3nc");
  raw_init(&R);
  CHECK(raw_write(&R, path) == 1);
  CHECK(h5_set_int(path, "/fclib_global/M/m", 1 << 30) == 0); /* libfclib would trust it */
  expect_fail(path, CS_ERR_PARSE, "huge stored size");
  raw_init(&R);
  R.M.nzmax = 4; /* x shorter than the 6 triplets libfclib would read */
  R.M.nz = 6;
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "M arrays inconsistent");
  raw_init(&R);
  R.Mi[0] = 0, R.Mp[0] = 1, R.Mx[0] = 0.5; /* M(0,1) without M(1,0); M(0,0) missing */
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "M one-sided off-diagonal");
  raw_init(&R);
  R.Mi[6] = 1, R.Mp[6] = 0, R.Mx[6] = 0.25, R.Mi[7] = 0, R.Mp[7] = 1, R.Mx[7] = 0.5;
  R.M.nz = R.M.nzmax = 8;
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "asymmetric M");
  CHECK(strstr(cs_last_error(), "symmetric") != NULL);
  raw_init(&R);
  R.Mx[3] = -1;
  CHECK(raw_write(&R, path) == 1);
  expect_fail(path, CS_ERR_PARSE, "negative diagonal of M");
  raw_init(&R);
  R.g.spacedim = 2; /* libfclib accepts 2D; H's 6 columns are 3 contacts of 2 */
  {
    double mu3[3] = {0.3, 0.3, 0.3};
    R.g.mu = mu3;
    CHECK(raw_write(&R, path) == 1);
    expect_fail(path, CS_ERR_UNSUPPORTED, "spacedim 2");
  }
  raw_init(&R);
  {
    int Gp[1] = {0}, Gi[1] = {0};
    double Gx[1] = {1}, b[1] = {0};
    struct fclib_matrix G = {1, 6, 1, Gp, Gi, Gx, 1, NULL};
    R.g.G = &G;
    R.g.b = b;
    CHECK(raw_write(&R, path) == 1);
    expect_fail(path, CS_ERR_UNSUPPORTED, "equality constraints G");
  }
  /* a rolling-friction group (written with plain HDF5: libfclib has no writer for it) */
  {
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    if (f >= 0) {
      hid_t grp = H5Gcreate2(f, "/fclib_global_rolling", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      if (grp >= 0) H5Gclose(grp);
      H5Fclose(f);
    }
    expect_fail(path, CS_ERR_UNSUPPORTED, "rolling friction");
    csFclibInfo in;
    CHECK(cs_fclib_info(path, &in) == CS_OK && in.kind == CS_FCLIB_GLOBAL_ROLLING);
  }
  {
    csFclibInfo in;
    CHECK(cs_fclib_info("/nonexistent/x.hdf5", &in) == CS_ERR_IO);
  }
  remove(path);
  remove(path2);
}

/* ---------------------------------------------------------------- Siconos' files */

static int test_shared(void) {
  const char* idx = cs_test_shared("fclib/siconos_hdf5/INDEX.tsv");
  if (!idx) {
    printf("../shared/fclib absent: Siconos files not tested\n");
    return 0;
  }
  char index[4096];
  snprintf(index, sizeof index, "%s", idx);
  FILE* f = fopen(index, "r");
  if (!f) return 0;
  const char* sname = NULL;
  const csSolver* sv = best_solver(&sname);
  char line[4096];
  int globals = 0, reached = 0;
  while (fgets(line, sizeof line, f)) {
    char name[512], kind[256];
    if (sscanf(line, "%511[^\t]\t%*[^\t]\t%255[^\t]", name, kind) != 2 || !strcmp(name, "file"))
      continue;
    char rel[700], path[4096];
    snprintf(rel, sizeof rel, "fclib/siconos_hdf5/%s", name);
    const char* pp = cs_test_shared(rel);
    if (!pp) continue;
    snprintf(path, sizeof path, "%s", pp);
    csFclibInfo in;
    CHECK_MSG(cs_fclib_info(path, &in) == CS_OK, "%s: info: %s", name, cs_last_error());
    int is_global = !strcmp(kind, "fclib_global");
    if (is_global) CHECK_MSG(in.kind == CS_FCLIB_GLOBAL, "%s: kind %d", name, (int)in.kind);
    if (!strcmp(kind, "fclib_local")) CHECK_MSG(in.kind == CS_FCLIB_LOCAL, "%s: kind", name);
    if (!strncmp(kind, "fclib_global_rolling", 20)) {
      CHECK(in.kind == CS_FCLIB_GLOBAL_ROLLING && in.spacedim == 5);
      csGlobalProblem* g = NULL;
      CHECK_MSG(cs_fclib_read_global(path, &g) == CS_ERR_UNSUPPORTED && !g,
                "%s: rolling friction not reported unsupported", name);
      printf("%-46s rolling friction: unsupported (%s)\n", name, cs_last_error());
      continue;
    }
    if (!is_global) {
      csGlobalProblem* g = NULL;
      CHECK(cs_fclib_read_global(path, &g) == CS_ERR_ARG && !g);
      continue;
    }
    globals++;
    csGlobalProblem* g = NULL;
    csStatus st = cs_fclib_read_global(path, &g);
    CHECK_MSG(st == CS_OK && g, "%s: read: %s", name, cs_last_error());
    if (!g) continue;
    CHECK(g->n == in.n && 3 * g->nc == in.rows && g->nc == in.nc);
    csOwnedProblem* o = NULL;
    st = cs_global_condense(g, &o);
    CHECK_MSG(st == CS_OK && o, "%s: condense: %s", name, cs_last_error());
    if (!o) {
      cs_global_problem_free(g);
      continue;
    }
    const size_t m = 3 * (size_t)g->nc;
    double asym = 0, dmin = INFINITY;
    for (size_t a = 0; a < m; a++) {
      dmin = fmin(dmin, o->G[a * m + a]);
      for (size_t b = 0; b < m; b++) asym = fmax(asym, fabs(o->G[a * m + b] - o->G[b * m + a]));
    }
    CHECK_MSG(asym == 0, "%s: W not symmetric (%g)", name, asym);
    CHECK_MSG(dmin > 0, "%s: W has a diagonal entry %g <= 0", name, dmin);
    double* r = malloc(m * sizeof(double));
    double* u = malloc(m * sizeof(double));
    double* v = malloc((size_t)g->n * sizeof(double));
    int its = 0;
    double err = solve(sv, &o->p, 1e-10, 20000, r, &its);
    CHECK(cs_global_velocity(g, r, v) == CS_OK);
    double ge = cs_global_error(g, r, v, u);
    double gap = local_velocity_gap(g, &o->p, r, v, u);
    CHECK_MSG(gap <= 1e-12, "%s: H^T v + w differs from W r + q by %g (relative)", name, gap);
    if (err <= 1e-8) {
      reached++;
      CHECK_MSG(ge <= 1e-8, "%s: local error %g but global error %g", name, err, ge);
    }
    printf(
        "%-46s n %5d nc %4d %s: %5d it, local error %.2e, global error %.2e, u gap "
        "%.1e%s\n",
        name, g->n, g->nc, sname, its, err, ge, gap,
        err <= 1e-8 ? "" : " (local 1e-8 not reached)");
    free(r), free(u), free(v);
    cs_problem_free(o);
    cs_global_problem_free(g);
  }
  fclose(f);
  CHECK_MSG(globals >= 1, "no global problem found in INDEX.tsv");
  CHECK_MSG(reached >= 1, "no global problem solved to a local error of 1e-8");
  return globals;
}

#endif /* HAVE_FCLIB */

int main(void) {
  cs_test_seed(7);
  test_condense_random();
#if HAVE_FCLIB
  char dir[] = "/tmp/cs_fclib_global_XXXXXX";
  if (mkdtemp(dir)) {
    test_files(dir);
    rmdir(dir);
  } else {
    CHECK_MSG(0, "mkdtemp failed");
  }
  test_shared();
#else
  printf("built without libfclib: file tests skipped\n");
#endif
  return cs_test_finish("test_io_fclib_global");
}
