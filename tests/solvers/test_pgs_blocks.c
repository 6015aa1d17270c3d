/* The PGS family (ncp_pgs, lcp_pgs, ccp_pgs, pgs_raisim) and staggered projections on
   problems with blocks, beyond test_solver_blocks: each block type alone, an asymmetric G,
   a compliance with an infeasible warm start, redundant equalities, the workspace's growth
   with the rows and the solver names in their refusals. CS_TEST_VERBOSE=1 prints each
   solve's iterations and residuals. */
#include <stdlib.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "cs_test.h"
#include "cs_test_problem.h"
#include "solvers/cs_solver.h"

static const char* const names[] = {"ncp_pgs", "lcp_pgs", "ccp_pgs", "pgs_raisim", "staggered"};
enum { NSOLVER = 5 };

static int verbose;

static csSolverType type_of(const char* name) {
  for (int t = 1; t < CS_SOLVER_COUNT; t++)
    if (!strcmp(cs_solver_name((csSolverType)t), name)) return (csSolverType)t;
  return (csSolverType)0;
}

/* Solves t's problem with the named solver, from t->lambda if warm; the NCP report of the
   result in *r. Returns the status. */
static csStatus solve(const char* name, csTestMixed* t, double tol, int warm, csSolverStats* st,
                      csNcpReport* r) {
  csSolverType type = type_of(name);
  csSolverOptions o = {20000, tol, 1.0, warm, 0};
  size_t bytes = cs_solve_workspace_bytes(type, &t->p, &o);
  void* ws = aligned_alloc(64, (bytes + 127) / 64 * 64);
  if (!warm) memset(t->lambda, 0, sizeof(double) * (size_t)t->nrow);
  memset(st, 0, sizeof *st);
  csStatus s = cs_solve(type, &t->p, &o, ws, t->lambda, st);
  free(ws);
  cs_ncp_report(&t->p, t->lambda, r);
  if (verbose)
    printf("  %-10s %5d sweeps/loops, residual %.3g, eps_abs %.3g\n", name, st->iterations,
           st->residual, r->eps_abs);
  return s;
}

/* Every solver meets the report on a problem with a unique solution (frictionless), and
   all agree. */
static void check_unique(const char* what, csTestMixed* t, int warm, const double* start) {
  double* ref = malloc(sizeof(double) * (size_t)t->nrow);
  if (verbose) printf("%s\n", what);
  for (int k = 0; k < NSOLVER; k++) {
    csSolverStats st;
    csNcpReport r;
    if (warm) memcpy(t->lambda, start, sizeof(double) * (size_t)t->nrow);
    csStatus s = solve(names[k], t, 1e-10, warm, &st, &r);
    CHECK_MSG(s == CS_OK && st.converged && r.eps_abs < 1e-7,
              "%s, %s: status %d converged %d in %d, eps_abs %.3g", what, names[k], s, st.converged,
              st.iterations, r.eps_abs);
    if (k == 0) {
      memcpy(ref, t->lambda, sizeof(double) * (size_t)t->nrow);
      continue;
    }
    double e = cs_test_relerr(t->lambda, ref, t->nrow, 1.0);
    CHECK_MSG(e < 1e-5, "%s: %s differs from %s by %.3g", what, names[k], names[0], e);
  }
  free(ref);
}

/* Blocks of a single type, no contacts. */
static void test_single_types(void) {
  static const int shape[3][3] = {{6, 0, 0}, {0, 6, 0}, {0, 0, 3}};
  static const char* const what[3] = {"unilateral only", "box only", "free only"};
  for (int k = 0; k < 3; k++) {
    cs_test_seed(11 + (unsigned long long)k);
    csTestMixed* t = cs_test_mixed_new(0, shape[k][0], shape[k][1], shape[k][2]);
    check_unique(what[k], t, 0, NULL);
    cs_test_mixed_free(t);
  }
}

/* A slightly asymmetric G (FCLIB's W): G + G^T stays positive definite, so the solution is
   unique; the solvers read G's columns as columns. */
static void test_asymmetric(void) {
  cs_test_seed(21);
  csTestMixed* t = cs_test_mixed_new(3, 2, 2, 2);
  int n = t->nrow;
  double scale = 0;
  for (int r = 0; r < n; r++) scale += t->G[(size_t)r * n + r] / n;
  for (int r = 0; r < n; r++)
    for (int c = r + 1; c < n; c++) {
      double s = 0.01 * scale * cs_test_uniform(-1, 1);
      t->G[(size_t)r * n + c] += s, t->G[(size_t)c * n + r] -= s;
    }
  for (int i = 0; i < t->p.nc; i++) t->mu[i] = 0;
  t->p.asym = 1;
  check_unique("asymmetric G", t, 0, NULL);
  cs_test_mixed_free(t);
}

/* A compliance on every row and a warm start outside every block's set. */
static void test_compliance_warm(void) {
  cs_test_seed(31);
  csTestMixed* t = cs_test_mixed_new(2, 3, 3, 2);
  double* R = malloc(sizeof(double) * (size_t)t->nrow);
  double* start = malloc(sizeof(double) * (size_t)t->nrow);
  for (int r = 0; r < t->nrow; r++) R[r] = 1e-2 * cs_test_uniform(0.5, 1.5);
  for (int r = 0; r < t->nrow; r++) start[r] = cs_test_uniform(-3, -1); /* infeasible */
  for (int i = 0; i < t->p.nc; i++) t->mu[i] = 0;
  t->p.R = R;
  check_unique("compliance, infeasible warm start", t, 1, start);
  free(start);
  free(R);
  cs_test_mixed_free(t);
}

/* A free block whose last row repeats its second (the same Jacobian row, consistent g):
   G_BB is singular, the equalities still solvable. With friction: each solver converged on
   its own model and the blocks' residual met. */
static void test_redundant(void) {
  cs_test_seed(41);
  csTestMixed* t = cs_test_mixed_new(3, 1, 1, 2); /* free blocks of 1 and 3 rows */
  int n = t->nrow;
  const csBlock* b = t->block + t->p.nblock - 1;
  int rb = b->row + 1, rc = b->row + 2;
  CHECK(b->type == CS_CONE_FREE && b->n == 3);
  for (int j = 0; j < n; j++) t->G[(size_t)rc * n + j] = t->G[(size_t)rb * n + j];
  for (int j = 0; j < n; j++) t->G[(size_t)j * n + rc] = t->G[(size_t)j * n + rb];
  t->g[rc] = t->g[rb];
  double* v = malloc(sizeof(double) * (size_t)n);
  if (verbose) printf("redundant equalities, friction\n");
  for (int k = 0; k < NSOLVER; k++) {
    csSolverStats st;
    csNcpReport r;
    csStatus s = solve(names[k], t, 1e-9, 0, &st, &r);
    csi_solver_velocity(&t->p, t->lambda, v);
    double eb = csi_blocks_residual(&t->p, t->lambda, v);
    CHECK_MSG(s == CS_OK && st.converged && eb < 1e-6,
              "redundant: %s status %d converged %d in %d (residual %.3g), blocks %.3g", names[k],
              s, st.converged, st.iterations, st.residual, eb);
  }
  free(v);
  cs_test_mixed_free(t);
}

/* More rows or contacts never give fewer bytes; a pure contact problem's size is that of
   its contacts alone. */
static void test_workspace(void) {
  csSolverOptions o = {100, 1e-8, 1.0, 0, 0};
  for (int k = 0; k < NSOLVER; k++) {
    csSolverType type = type_of(names[k]);
    size_t last = 0;
    for (int nb = 0; nb <= 4; nb++) {
      cs_test_seed(51);
      csTestMixed* t = cs_test_mixed_new(2, nb, nb, nb);
      size_t bytes = cs_solve_workspace_bytes(type, &t->p, &o);
      CHECK_MSG(bytes >= last, "%s: %zu bytes with %d of each block < %zu with fewer", names[k],
                bytes, nb, last);
      last = bytes;
      cs_test_mixed_free(t);
    }
  }
}

/* The entries refuse elliptic contacts naming themselves as in the solver table. */
static void test_names(void) {
  cs_test_seed(61);
  csTestMixed* t = cs_test_mixed_new(1, 1, 0, 0);
  double mu2 = 0.3;
  t->p.mu2 = &mu2;
  csSolverOptions o = {100, 1e-8, 1.0, 0, 0};
  for (int k = 0; k < NSOLVER; k++) {
    const csSolver* s = cs_solver_get(type_of(names[k]));
    size_t bytes = s->workspace_bytes(&t->p, &o);
    void* ws = aligned_alloc(64, (bytes + 127) / 64 * 64);
    csSolverStats st;
    csStatus r = s->solve(&t->p, &o, ws, t->lambda, &st);
    const char* msg = cs_last_error();
    CHECK_MSG(r == CS_ERR_UNSUPPORTED && !strncmp(msg, names[k], strlen(names[k])) &&
                  msg[strlen(names[k])] == ':',
              "%s on mu2: status %d, '%s'", names[k], r, msg);
    free(ws);
  }
  cs_test_mixed_free(t);
}

int main(void) {
  verbose = getenv("CS_TEST_VERBOSE") != NULL;
  test_single_types();
  test_asymmetric();
  test_compliance_warm();
  test_redundant();
  test_workspace();
  test_names();
  return cs_test_finish("test_pgs_blocks");
}
