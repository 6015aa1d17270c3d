/* Every solver on constraint problems with blocks beyond contacts (unilateral, box, free):
   - blocks alone and blocks with frictionless contacts: one convex QP with a unique
     solution (G is positive definite), so every solver's answer must meet the NCP report
     and agree with every other's;
   - blocks with frictional contacts: each solver converges on its own model, and the
     blocks' terms of the report are met whatever the contact model; the solvers of
     Coulomb's NCP meet the whole report;
   - Lemke refuses bilateral blocks with an error naming them; a malformed block table is
     refused by cs_solve. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "cs_test.h"
#include "cs_test_problem.h"
#include "solvers/cs_solver.h"

static void* ws_alloc(size_t bytes) { return aligned_alloc(64, (bytes + 127) / 64 * 64); }

/* Solve t's problem with solver type from zero; returns the status, stats in *st. */
static csStatus solve(int type, csTestMixed* t, double tol, int cap, csSolverStats* st) {
  csSolverOptions o = {cap, tol, 1.0, 0, 0};
  size_t bytes = cs_solve_workspace_bytes((csSolverType)type, &t->p, &o);
  void* ws = ws_alloc(bytes);
  memset(t->lambda, 0, sizeof(double) * (size_t)t->nrow);
  memset(st, 0, sizeof *st);
  csStatus s = cs_solve((csSolverType)type, &t->p, &o, ws, t->lambda, st);
  free(ws);
  return s;
}

static int takes_free(int type) { return type != CS_SOLVER_LEMKE; }

/* The caps: sweeps for the first-order methods, Newton steps or pivots for the others. */
static int cap_of(int type) { return type == CS_SOLVER_NSN_AC ? 200 : 20000; }

/* Blocks alone (nc = 0) or with frictionless contacts: every solver meets the report and all
   agree (the solution of a strictly convex QP is unique). */
static void test_unique(int nc, int nuni, int nbox, int nfree, unsigned long long seed) {
  cs_test_seed(seed);
  csTestMixed* t = cs_test_mixed_new(nc, nuni, nbox, nfree);
  for (int i = 0; i < nc; i++) t->mu[i] = 0;
  double* ref = NULL;
  int ref_type = -1;
  for (int type = 1; type < CS_SOLVER_COUNT; type++) {
    if (!cs_solver_get((csSolverType)type)) continue;
    csSolverStats st;
    csStatus s = solve(type, t, 1e-10, cap_of(type), &st);
    if (!takes_free(type) && nfree > 0) {
      CHECK_MSG(s == CS_ERR_UNSUPPORTED && strstr(cs_last_error(), "free"),
                "%s on free blocks: status %d, '%s'", cs_solver_name((csSolverType)type), s,
                cs_last_error());
      continue;
    }
    CHECK_MSG(s == CS_OK, "%s: %s", cs_solver_name((csSolverType)type), cs_last_error());
    if (s != CS_OK) continue;
    csNcpReport r;
    cs_ncp_report(&t->p, t->lambda, &r);
    CHECK_MSG(st.converged && r.eps_abs < 1e-7,
              "seed %llu nc %d: %s converged %d in %d, eps_abs %.3g (p %.3g d %.3g c %.3g)", seed,
              nc, cs_solver_name((csSolverType)type), st.converged, st.iterations, r.eps_abs,
              r.eps_p, r.eps_d, r.eps_c);
    if (!ref) {
      ref = malloc(sizeof(double) * (size_t)t->nrow);
      memcpy(ref, t->lambda, sizeof(double) * (size_t)t->nrow);
      ref_type = type;
      continue;
    }
    double e = cs_test_relerr(t->lambda, ref, t->nrow, 1.0);
    CHECK_MSG(e < 1e-5, "seed %llu nc %d: %s differs from %s by %.3g", seed, nc,
              cs_solver_name((csSolverType)type), cs_solver_name((csSolverType)ref_type), e);
  }
  free(ref);
  cs_test_mixed_free(t);
}

/* 1 for the solvers whose own model is Coulomb's NCP with de Saxce's term */
static int ncp_model(int type) {
  return type == CS_SOLVER_NCP_PGS || type == CS_SOLVER_NCP_ADMM || type == CS_SOLVER_NSN_AC ||
         type == CS_SOLVER_BISECTION_DESAXCE;
}

/* Blocks with frictional contacts: converged on its own model, the blocks' terms met. */
static void test_frictional(int nc, int nuni, int nbox, int nfree, unsigned long long seed) {
  cs_test_seed(seed);
  csTestMixed* t = cs_test_mixed_new(nc, nuni, nbox, nfree);
  double* v = malloc(sizeof(double) * (size_t)t->nrow);
  for (int type = 1; type < CS_SOLVER_COUNT; type++) {
    if (!cs_solver_get((csSolverType)type) || (!takes_free(type) && nfree > 0)) continue;
    csSolverStats st;
    csStatus s = solve(type, t, 1e-9, cap_of(type), &st);
    const char* name = cs_solver_name((csSolverType)type);
    CHECK_MSG(s == CS_OK, "%s: %s", name, cs_last_error());
    if (s != CS_OK) continue;
    csi_solver_velocity(&t->p, t->lambda, v);
    double eb = csi_blocks_residual(&t->p, t->lambda, v);
    CHECK_MSG(st.converged, "seed %llu: %s not converged in %d (residual %.3g)", seed, name,
              st.iterations, st.residual);
    CHECK_MSG(eb < 1e-6, "seed %llu: %s blocks' residual %.3g", seed, name, eb);
    if (ncp_model(type))
      CHECK_MSG(st.ncp.eps_abs < 1e-6, "seed %llu: %s NCP eps_abs %.3g", seed, name,
                st.ncp.eps_abs);
  }
  free(v);
  cs_test_mixed_free(t);
}

/* An elliptic contact (mu along t1, mu2 along t2) through cs_solve: with G = I and a fast
   approach and slip, lambda_N = 1 and maximal dissipation on the ellipse gives
   lambda_T = -lambda_N (mu^2 v1, mu2^2 v2) / sqrt(mu^2 v1^2 + mu2^2 v2^2) for the velocity
   v_T = lambda_T + g_T after the impulse; every NCP-model solver must find it. A solver entry
   called directly refuses mu2. */
static void test_elliptic(void) {
  static const double G[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double g[3] = {-1, 2, 1}, mu[1] = {0.2}, mu2[1] = {0.5};
  csContactProblem p = {.nc = 1, .mu = mu, .G = G, .g = g, .mu2 = mu2};
  const int types[4] = {CS_SOLVER_NCP_ADMM, CS_SOLVER_NSN_AC, CS_SOLVER_NCP_PGS,
                        CS_SOLVER_BISECTION_DESAXCE};
  for (int k = 0; k < 4; k++) {
    csSolverOptions o = {2000, 1e-12, 1.0, 0, 0};
    void* ws = ws_alloc(cs_solve_workspace_bytes((csSolverType)types[k], &p, &o));
    double l[3] = {0, 0, 0};
    csSolverStats st;
    csStatus s = cs_solve((csSolverType)types[k], &p, &o, ws, l, &st);
    free(ws);
    double v1 = l[1] + g[1], v2 = l[2] + g[2];
    double a = mu[0] * mu[0] * v1, b = mu2[0] * mu2[0] * v2;
    double nrm = sqrt(mu[0] * v1 * mu[0] * v1 + mu2[0] * v2 * mu2[0] * v2);
    double e = fabs(l[0] - 1) + fabs(l[1] + l[0] * a / nrm) + fabs(l[2] + l[0] * b / nrm);
    printf("elliptic contact, %-18s lambda (%.9f, %.9f, %.9f), error %.2e\n",
           cs_solver_name((csSolverType)types[k]), l[0], l[1], l[2], e);
    CHECK_MSG(s == CS_OK && e < 1e-6, "%s: status %d, error %.3g",
              cs_solver_name((csSolverType)types[k]), s, e);
  }
  csSolverOptions o = {100, 1e-8, 1.0, 0, 0};
  double l[3] = {0, 0, 0}, ws[64];
  csSolverStats st;
  CHECK(cs_solver_get(CS_SOLVER_NCP_PGS)->solve(&p, &o, ws, l, &st) == CS_ERR_UNSUPPORTED);
  CHECK(strstr(cs_last_error(), "cs_solve") != NULL);
}

/* cs_solve refuses a malformed block table, naming the block. */
static void test_bad_tables(void) {
  cs_test_seed(7);
  csTestMixed* t = cs_test_mixed_new(1, 1, 1, 1);
  csSolverStats st;
  t->block[1].bound = -1;
  CHECK(solve(CS_SOLVER_NCP_PGS, t, 1e-8, 100, &st) == CS_ERR_ARG);
  CHECK(strstr(cs_last_error(), "block 1") != NULL);
  t->block[1].bound = 0.5;
  t->block[2].row += 1;
  CHECK(solve(CS_SOLVER_NCP_PGS, t, 1e-8, 100, &st) == CS_ERR_ARG);
  t->block[2].row -= 1;
  t->block[2].n = 7;
  CHECK(solve(CS_SOLVER_NCP_PGS, t, 1e-8, 100, &st) == CS_ERR_ARG);
  t->block[2].n = 1;
  t->block[0].type = CS_CONE_CONTACT;
  CHECK(solve(CS_SOLVER_NCP_PGS, t, 1e-8, 100, &st) == CS_ERR_ARG);
  t->block[0].type = CS_CONE_UNILATERAL;
  CHECK(solve(CS_SOLVER_NCP_PGS, t, 1e-8, 100, &st) == CS_OK);
  cs_test_mixed_free(t);
}

int main(void) {
  for (unsigned long long seed = 1; seed <= 4; seed++) {
    test_unique(0, 3, 2, 2, seed);
    test_unique(0, 4, 4, 0, seed);
    test_unique(3, 2, 2, 3, seed);
    test_unique(6, 4, 3, 0, seed);
    test_frictional(4, 2, 2, 0, seed);
    test_frictional(4, 3, 2, 3, seed);
  }
  test_bad_tables();
  test_elliptic();
  return cs_test_finish("test_solver_blocks");
}
