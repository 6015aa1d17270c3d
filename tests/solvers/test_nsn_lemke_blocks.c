/* nsn_ac and lemke on constraint problems with blocks (unilateral, box, free), beyond the
   checks every solver meets in test_solver_blocks.c:
   - the mixed problems of test_solver_blocks (same seeds and shapes): nsn_ac converges and
     meets the report, lemke too without free blocks, and where the solution is unique
     (frictionless contacts) the two agree; with CS_TEST_VERBOSE set, their iterations,
     residuals and reports are printed;
   - exact answers: equalities alone (lambda = -G^-1 g), a box of bound 0 and a unilateral
     row moving away (lambda = 0 there);
   - redundant equalities (two identical free rows, G singular): nsn_ac converges;
   - an unsymmetric G (asym): both read its columns as columns and agree;
   - warm start from the solution: nsn_ac takes no iteration, lemke no pivot;
   - a NaN in a block's free velocity: no crash, not converged;
   - lemke's refusals: a free block (CS_ERR_UNSUPPORTED naming "free") and an LCP over its
     size cap (CS_ERR_ARG), while one just under the cap is solved;
   - the workspaces: adding a block never gives fewer bytes; filled with garbage, nothing
     written past their end. */
#include <stdlib.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "cs_test.h"
#include "cs_test_problem.h"
#include "solvers/cs_solver.h"

static int verbose;
static const csSolverType both[2] = {CS_SOLVER_NSN_AC, CS_SOLVER_LEMKE};

/* Solve t's problem with solver type (lambda from t->lambda if warm, else 0) in a workspace
   filled with garbage and followed by guard bytes, which must stay untouched. */
static csStatus solve(int type, csTestMixed* t, double tol, int cap, int warm, csSolverStats* st) {
  csSolverOptions o = {cap, tol, 1.0, warm, 0};
  size_t bytes = cs_solve_workspace_bytes((csSolverType)type, &t->p, &o);
  size_t full = (bytes + 64 + 63) / 64 * 64;
  unsigned char* ws = aligned_alloc(64, full);
  memset(ws, 0xA5, full);
  if (!warm) memset(t->lambda, 0, sizeof(double) * (size_t)t->nrow);
  memset(st, 0, sizeof *st);
  csStatus s = cs_solve((csSolverType)type, &t->p, &o, ws, t->lambda, st);
  int intact = 1;
  for (size_t k = bytes; k < full; k++) intact &= ws[k] == 0xA5;
  CHECK_MSG(intact, "%s wrote past its workspace", cs_solver_name((csSolverType)type));
  free(ws);
  return s;
}

/* The blocks' residual of t->lambda. */
static double blocks_residual(csTestMixed* t) {
  double* v = malloc(sizeof(double) * (size_t)t->nrow);
  csi_solver_velocity(&t->p, t->lambda, v);
  double e = csi_blocks_residual(&t->p, t->lambda, v);
  free(v);
  return e;
}

/* One solve of t, checked: converged, the blocks' residual below 1e-6 (test_solver_blocks'
   bound) and 100 tol, eps_abs below eps. Copies the answer into out (nrow) if not NULL. */
static void solve_checked(int type, csTestMixed* t, double tol, double eps, const char* what,
                          double* out) {
  const char* name = cs_solver_name((csSolverType)type);
  csSolverStats st;
  csStatus s = solve(type, t, tol, type == CS_SOLVER_NSN_AC ? 200 : 20000, 0, &st);
  CHECK_MSG(s == CS_OK, "%s %s: %s", what, name, cs_last_error());
  if (s != CS_OK) return;
  double eb = blocks_residual(t);
  if (verbose)
    printf("%-28s %-7s it %4d res %.2e eps_abs %.2e blocks %.2e\n", what, name, st.iterations,
           st.residual, st.ncp.eps_abs, eb);
  CHECK_MSG(st.converged && eb < 1e-6 && eb < 100 * tol && st.ncp.eps_abs < eps,
            "%s %s: converged %d in %d (residual %.3g), blocks %.3g, eps_abs %.3g", what, name,
            st.converged, st.iterations, st.residual, eb, st.ncp.eps_abs);
  if (out) memcpy(out, t->lambda, sizeof(double) * (size_t)t->nrow);
}

/* test_solver_blocks' shapes: nsn_ac always, lemke without free blocks; frictionless
   (unique) ones must agree. */
static void test_shapes(void) {
  static const int shapes[6][5] = {/* nc, unilateral, box, free, frictional */
                                   {0, 3, 2, 2, 0}, {0, 4, 4, 0, 0}, {3, 2, 2, 3, 0},
                                   {6, 4, 3, 0, 0}, {4, 2, 2, 0, 1}, {4, 3, 2, 3, 1}};
  for (unsigned long long seed = 1; seed <= 4; seed++)
    for (int k = 0; k < 6; k++) {
      const int* sh = shapes[k];
      cs_test_seed(seed);
      csTestMixed* t = cs_test_mixed_new(sh[0], sh[1], sh[2], sh[3]);
      if (!sh[4])
        for (int i = 0; i < sh[0]; i++) t->mu[i] = 0;
      char what[64];
      snprintf(what, sizeof what, "seed %llu %d/%d/%d/%d%s", seed, sh[0], sh[1], sh[2], sh[3],
               sh[4] ? " mu" : "");
      double* a = malloc(sizeof(double) * (size_t)t->nrow);
      double* b = malloc(sizeof(double) * (size_t)t->nrow);
      double tol = sh[4] ? 1e-9 : 1e-10;
      solve_checked(CS_SOLVER_NSN_AC, t, tol, sh[4] ? 1e-6 : 1e-7, what, a);
      if (!sh[3]) {
        solve_checked(CS_SOLVER_LEMKE, t, tol, sh[4] ? INFINITY : 1e-7, what, b);
        if (!sh[4])
          CHECK_MSG(cs_test_relerr(a, b, t->nrow, 1.0) < 1e-6,
                    "%s: nsn_ac and lemke differ by %.3g", what,
                    cs_test_relerr(a, b, t->nrow, 1.0));
      }
      free(a);
      free(b);
      cs_test_mixed_free(t);
    }
}

/* x = A^-1 b by Gaussian elimination with partial pivoting (A n x n destroyed) */
static void gauss(int n, double* A, double* b) {
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int r = c + 1; r < n; r++)
      if (fabs(A[r * n + c]) > fabs(A[p * n + c])) p = r;
    for (int k = 0; k < n; k++) {
      double tmp = A[c * n + k];
      A[c * n + k] = A[p * n + k], A[p * n + k] = tmp;
    }
    double tmp = b[c];
    b[c] = b[p], b[p] = tmp;
    for (int r = c + 1; r < n; r++) {
      double f = A[r * n + c] / A[c * n + c];
      for (int k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
      b[r] -= f * b[c];
    }
  }
  for (int c = n - 1; c >= 0; c--) {
    for (int k = c + 1; k < n; k++) b[c] -= A[c * n + k] * b[k];
    b[c] /= A[c * n + c];
  }
}

/* Exact answers: equalities alone, a zero box, a unilateral row moving away. */
static void test_exact(void) {
  cs_test_seed(11);
  csTestMixed* t = cs_test_mixed_new(0, 0, 0, 3); /* free blocks of 1, 3 and 6 rows */
  int n = t->nrow;
  double* A = malloc(sizeof(double) * (size_t)n * (size_t)n);
  double* x = malloc(sizeof(double) * (size_t)n);
  memcpy(A, t->G, sizeof(double) * (size_t)n * (size_t)n);
  for (int r = 0; r < n; r++) x[r] = -t->g[r];
  gauss(n, A, x);
  solve_checked(CS_SOLVER_NSN_AC, t, 1e-12, 1e-10, "equalities", NULL);
  CHECK_MSG(cs_test_relerr(t->lambda, x, n, 1.0) < 1e-10, "equalities: off by %.3g",
            cs_test_relerr(t->lambda, x, n, 1.0));
  free(A);
  free(x);
  cs_test_mixed_free(t);

  cs_test_seed(12);
  t = cs_test_mixed_new(2, 1, 1, 0);
  t->block[1].bound = 0;
  t->g[t->block[0].row] = 10;   /* far away: no impulse can stop it */
  for (int k = 0; k < 2; k++) { /* nsn_ac's full step lands on 0, lemke's basis on rounding */
    solve_checked(both[k], t, 1e-10, INFINITY, "zero box", NULL);
    double l0 = t->lambda[t->block[0].row], l1 = t->lambda[t->block[1].row];
    CHECK_MSG(fabs(l0) <= 1e-15 && fabs(l1) <= 1e-15, "%s: %g %g", cs_solver_name(both[k]), l0, l1);
  }
  cs_test_mixed_free(t);
}

/* Two identical free rows (the same equality twice): G is singular, the problem still
   consistent. */
static void test_redundant(void) {
  for (unsigned long long seed = 21; seed <= 24; seed++) {
    cs_test_seed(seed);
    csTestMixed* t = cs_test_mixed_new(3, 1, 1, 2); /* free blocks of 1 and 3 rows */
    int n = t->nrow, c1 = t->block[3].row, c2 = c1 + 1;
    CHECK(t->block[3].type == CS_CONE_FREE && t->block[3].n == 3);
    for (int j = 0; j < n; j++) t->G[(size_t)c2 * n + j] = t->G[(size_t)c1 * n + j];
    for (int j = 0; j < n; j++) t->G[(size_t)j * n + c2] = t->G[(size_t)j * n + c1];
    t->g[c2] = t->g[c1];
    solve_checked(CS_SOLVER_NSN_AC, t, 1e-10, 1e-6, "redundant equalities", NULL);
    cs_test_mixed_free(t);
  }
}

/* An unsymmetric positive definite G (G + skew): the LCP's solution is unique, and each
   solver must read G's columns as columns. */
static void test_unsymmetric(void) {
  cs_test_seed(31);
  csTestMixed* t = cs_test_mixed_new(3, 3, 3, 0);
  int n = t->nrow;
  for (int i = 0; i < 3; i++) t->mu[i] = 0;
  double scale = t->G[0];
  for (int r = 0; r < n; r++)
    for (int c = 0; c < r; c++) {
      double s = 0.1 * scale * cs_test_uniform(-1, 1);
      t->G[(size_t)r * n + c] += s, t->G[(size_t)c * n + r] -= s;
    }
  t->p.asym = 1;
  double* a = malloc(sizeof(double) * (size_t)n);
  double* b = malloc(sizeof(double) * (size_t)n);
  solve_checked(CS_SOLVER_NSN_AC, t, 1e-11, 1e-8, "unsymmetric", a);
  solve_checked(CS_SOLVER_LEMKE, t, 1e-11, 1e-8, "unsymmetric", b);
  CHECK_MSG(cs_test_relerr(a, b, n, 1.0) < 1e-7, "unsymmetric: nsn_ac and lemke differ by %.3g",
            cs_test_relerr(a, b, n, 1.0));
  free(a);
  free(b);
  cs_test_mixed_free(t);
}

/* A warm start at the solution: no Newton iteration, no pivot. */
static void test_warm(void) {
  cs_test_seed(41);
  csTestMixed* t = cs_test_mixed_new(3, 2, 3, 0); /* frictionless: lemke's basis guess is */
  for (int i = 0; i < 3; i++) t->mu[i] = 0;       /* exact there (its pyramid's corners aside) */
  for (int k = 0; k < 2; k++) {
    int type = both[k];
    csSolverStats st;
    CHECK(solve(type, t, 1e-10, 20000, 0, &st) == CS_OK && st.converged);
    CHECK(solve(type, t, 1e-10, 20000, 1, &st) == CS_OK && st.converged);
    CHECK_MSG(st.iterations == 0, "%s warm from its solution: %d iterations",
              cs_solver_name((csSolverType)type), st.iterations);
  }
  cs_test_mixed_free(t);
}

/* A NaN in a block's free velocity: no crash, not converged. */
static void test_nan(void) {
  for (int nc = 0; nc <= 2; nc += 2) {
    cs_test_seed(45);
    csTestMixed* t = cs_test_mixed_new(nc, 2, 2, 0);
    t->g[t->block[3].row] = NAN;
    for (int k = 0; k < 2; k++) {
      csSolverStats st;
      CHECK(solve(both[k], t, 1e-10, 100, 0, &st) == CS_OK && !st.converged);
    }
    cs_test_mixed_free(t);
  }
}

/* Lemke's refusals and size cap: 6 nc + unilateral rows + 3 box rows <= 288. */
static void test_lemke_limits(void) {
  csSolverStats st;
  cs_test_seed(51);
  csTestMixed* t = cs_test_mixed_new(1, 1, 1, 1);
  CHECK(solve(CS_SOLVER_LEMKE, t, 1e-10, 1000, 0, &st) == CS_ERR_UNSUPPORTED);
  CHECK(strstr(cs_last_error(), "free") != NULL);
  cs_test_mixed_free(t);
  t = cs_test_mixed_new(47, 0, 3, 0); /* 282 + 9 */
  CHECK(solve(CS_SOLVER_LEMKE, t, 1e-10, 1000, 0, &st) == CS_ERR_ARG);
  CHECK(strstr(cs_last_error(), "291") != NULL);
  cs_test_mixed_free(t);
  t = cs_test_mixed_new(46, 10, 0, 0); /* 276 + 10 */
  for (int i = 0; i < 46; i++) t->mu[i] = 0;
  solve_checked(CS_SOLVER_LEMKE, t, 1e-9, 1e-7, "lemke at its cap", NULL);
  cs_test_mixed_free(t);
}

/* Adding a block of any type never gives fewer workspace bytes. */
static void test_workspace(void) {
  static const int ncs[4] = {0, 5, 48, 60};
  csBlock blocks[120];
  csSolverOptions o = {100, 1e-8, 1.0, 0, 0};
  for (int s = 0; s < 2; s++)
    for (int q = 0; q < 4; q++) {
      csContactProblem p = {0};
      p.nc = ncs[q];
      p.block = blocks;
      const csSolver* sv = cs_solver_get(both[s]);
      size_t prev = sv->workspace_bytes(&p, &o);
      int row = 3 * p.nc;
      for (int k = 0; k < 120; k++) {
        int type = 1 + k % 3, n = type == CS_CONE_FREE ? 1 + k % 6 : 1;
        blocks[k] = (csBlock){type, row, n, 1.0};
        row += n;
        p.nblock = k + 1;
        size_t b = sv->workspace_bytes(&p, &o);
        CHECK_MSG(b >= prev, "%s nc %d: %zu bytes with %d blocks, %zu with %d", sv->name, p.nc, b,
                  k + 1, prev, k);
        prev = b;
      }
    }
}

int main(void) {
  verbose = getenv("CS_TEST_VERBOSE") != NULL;
  test_shapes();
  test_exact();
  test_redundant();
  test_unsymmetric();
  test_warm();
  test_nan();
  test_lemke_limits();
  test_workspace();
  return cs_test_finish("test_nsn_lemke_blocks");
}
