/* ccp_admm and ncp_admm on constraint problems with blocks (unilateral, box, free) beside the
   contacts; test_solver_blocks checks every solver's answer, this file the ADMM's own paths:
   - blocks alone and with frictionless contacts: both solvers against a reference, exact
     Gauss-Seidel (csi_blocks_gs) on the same QP with each contact written as blocks (its
     normal row unilateral, its tangential rows boxes of bound 0);
   - blocks with frictional contacts: ncp_admm cold, warm from its own answer (the
     active-set step must finish it at once), from a perturbed one, and as the bisection's last
     resort calls it (warm from a rough iterate, a tolerance of 0.1 tol / nc tightened twice);
   - redundant free rows (a duplicated equality, G singular): converged, and ncp_admm's two
     rows' impulses equal (the polish removes the internal force);
   - an asymmetric G (the LU path), a compliance R;
   - the workspace: filled with garbage before the solve, nothing written past its end, and no
     smaller for more rows or contacts.
   Prints the iterations and residuals of each case. */
#include <stdlib.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "cs_test.h"
#include "cs_test_problem.h"
#include "solvers/cs_solver.h"

enum { CANARY = 256 };

/* Solves p with s from lambda (warm) or 0, in a garbage-filled workspace followed by a canary
   checked afterwards; returns the status, stats in *st. */
static csStatus run(const csSolver* s, const csContactProblem* p, double tol, int cap, int warm,
                    double* lambda, csSolverStats* st) {
  csSolverOptions o = {cap, tol, 1.0, warm, 0};
  size_t bytes = s->workspace_bytes(p, &o);
  unsigned char* ws = aligned_alloc(64, (bytes + CANARY + 63) / 64 * 64);
  for (size_t i = 0; i < bytes; i++) ws[i] = (unsigned char)(37 * i + 11);
  memset(ws + bytes, 0x5a, CANARY);
  if (!warm) memset(lambda, 0, sizeof(double) * (size_t)cs_problem_rows(p));
  memset(st, 0, sizeof *st);
  csStatus r = s->solve(p, &o, ws, lambda, st);
  int intact = 1;
  for (size_t i = 0; i < CANARY; i++) intact &= ws[bytes + i] == 0x5a;
  CHECK_MSG(intact, "%s wrote past its workspace (nc %d, %d rows)", s->name, p->nc,
            cs_problem_rows(p));
  free(ws);
  return r;
}

/* The blocks' residual of lambda with its true velocity. */
static double blocks_res(const csContactProblem* p, const double* lambda) {
  int n = cs_problem_rows(p);
  double* v = malloc(sizeof(double) * (size_t)n);
  csi_solver_velocity(p, lambda, v);
  double e = csi_blocks_residual(p, lambda, v);
  free(v);
  return e;
}

/* The solution of t's problem with frictionless contacts by Gauss-Seidel on blocks only: each
   contact's normal row unilateral, its tangential rows boxes of bound 0. Into ref (nrow). */
static void reference(const csTestMixed* t, double* ref) {
  int nc = t->p.nc, nb = 3 * nc + t->p.nblock, n = t->nrow;
  csBlock* blk = malloc(sizeof(csBlock) * (size_t)nb);
  for (int i = 0; i < nc; i++) {
    blk[3 * i] = (csBlock){CS_CONE_UNILATERAL, 3 * i, 1, 0};
    blk[3 * i + 1] = (csBlock){CS_CONE_BOX, 3 * i + 1, 1, 0};
    blk[3 * i + 2] = (csBlock){CS_CONE_BOX, 3 * i + 2, 1, 0};
  }
  memcpy(blk + 3 * nc, t->p.block, sizeof(csBlock) * (size_t)t->p.nblock);
  csContactProblem q = t->p;
  q.nc = 0, q.mu = NULL, q.nblock = nb, q.block = blk;
  double* v = malloc(sizeof(double) * (size_t)n);
  memset(ref, 0, sizeof(double) * (size_t)n);
  csi_solver_velocity(&q, ref, v);
  for (int sweep = 0; sweep < 200000; sweep++) {
    double moved = csi_blocks_gs(&q, ref, v, 1.0);
    if (sweep % 100 == 0) csi_solver_velocity(&q, ref, v);
    if (moved < 1e-15) break;
  }
  csi_solver_velocity(&q, ref, v);
  CHECK_MSG(csi_blocks_residual(&q, ref, v) < 1e-12, "reference residual %.3g",
            csi_blocks_residual(&q, ref, v));
  free(v);
  free(blk);
}

static void test_unique(int nc, int nuni, int nbox, int nfree, unsigned long long seed) {
  cs_test_seed(seed);
  csTestMixed* t = cs_test_mixed_new(nc, nuni, nbox, nfree);
  for (int i = 0; i < nc; i++) t->mu[i] = 0;
  double* ref = malloc(sizeof(double) * (size_t)t->nrow);
  reference(t, ref);
  const csSolver* solvers[2] = {&cs_solver_ccp_admm, &cs_solver_ncp_admm};
  for (int k = 0; k < 2; k++) {
    csSolverStats st;
    CHECK(run(solvers[k], &t->p, 1e-10, 20000, 0, t->lambda, &st) == CS_OK);
    double e = cs_test_relerr(t->lambda, ref, t->nrow, 1.0);
    printf(
        "unique seed %llu nc %d (%d rows): %s %d iterations, eps_abs %.2e, blocks %.2e, "
        "off the reference by %.2e\n",
        seed, nc, t->nrow, solvers[k]->name, st.iterations, st.ncp.eps_abs,
        blocks_res(&t->p, t->lambda), e);
    CHECK_MSG(st.converged && st.ncp.eps_abs < 1e-8 && e < 1e-6,
              "seed %llu nc %d: %s converged %d, eps_abs %.3g, off the reference by %.3g", seed, nc,
              solvers[k]->name, st.converged, st.ncp.eps_abs, e);
  }
  free(ref);
  cs_test_mixed_free(t);
}

/* ncp_admm with frictional contacts: cold, warm from its answer and from a perturbed one. */
static void test_frictional(int nc, int nuni, int nbox, int nfree, unsigned long long seed) {
  cs_test_seed(seed);
  csTestMixed* t = cs_test_mixed_new(nc, nuni, nbox, nfree);
  const csSolver* s = &cs_solver_ncp_admm;
  csSolverStats st;
  double tol = 1e-9;
  CHECK(run(s, &t->p, tol, 20000, 0, t->lambda, &st) == CS_OK);
  double eb = blocks_res(&t->p, t->lambda);
  printf("frictional seed %llu nc %d (%d rows): cold %d iterations, eps_abs %.2e, blocks %.2e",
         seed, nc, t->nrow, st.iterations, st.ncp.eps_abs, eb);
  CHECK_MSG(st.converged && st.ncp.eps_abs < 1e-8 && eb <= tol,
            "seed %llu cold: converged %d, eps_abs %.3g, blocks %.3g", seed, st.converged,
            st.ncp.eps_abs, eb);
  CHECK(run(s, &t->p, tol, 20000, 1, t->lambda, &st) == CS_OK);
  printf("; warm %d", st.iterations);
  CHECK_MSG(st.converged && st.iterations <= 2 && st.ncp.eps_abs < 1e-8,
            "seed %llu warm from the answer: converged %d in %d, eps_abs %.3g", seed, st.converged,
            st.iterations, st.ncp.eps_abs);
  for (int r = 0; r < t->nrow; r++) t->lambda[r] *= 1 + 0.05 * cs_test_gauss();
  CHECK(run(s, &t->p, tol, 20000, 1, t->lambda, &st) == CS_OK);
  eb = blocks_res(&t->p, t->lambda);
  printf("; perturbed %d (eps_abs %.2e, blocks %.2e)\n", st.iterations, st.ncp.eps_abs, eb);
  CHECK_MSG(st.converged && st.ncp.eps_abs < 1e-8 && eb <= tol,
            "seed %llu warm perturbed: converged %d, eps_abs %.3g, blocks %.3g", seed, st.converged,
            st.ncp.eps_abs, eb);
  cs_test_mixed_free(t);
}

/* As the bisection's last resort: warm from a rough iterate (ncp_admm stopped after 3
   iterations), tolerance 0.1 tol / nc, a hundredfold tighter twice. */
static void test_last_resort(int nc, int nuni, int nbox, int nfree, unsigned long long seed) {
  cs_test_seed(seed);
  csTestMixed* t = cs_test_mixed_new(nc, nuni, nbox, nfree);
  const csSolver* s = &cs_solver_ncp_admm;
  csSolverStats st;
  double tol = 1e-6 * 0.1 / (nc > 0 ? nc : 1);
  run(s, &t->p, 1e-12, 3, 0, t->lambda, &st);
  int used = 0;
  for (int k = 0; k < 3; k++, tol *= 0.01) {
    CHECK(run(s, &t->p, tol, 5000 - used, 1, t->lambda, &st) == CS_OK);
    used += st.iterations;
    CHECK_MSG(st.converged && st.residual <= tol && blocks_res(&t->p, t->lambda) <= 1.01 * tol,
              "seed %llu last resort %d (tolerance %.2g): converged %d in %d, residual %.3g, "
              "blocks %.3g",
              seed, k, tol, st.converged, st.iterations, st.residual, blocks_res(&t->p, t->lambda));
  }
  printf("last resort seed %llu nc %d: %d iterations over three calls, eps_abs %.2e\n", seed, nc,
         used, st.ncp.eps_abs);
  cs_test_mixed_free(t);
}

/* A problem with its last free row duplicated: G singular, the two rows' impulses free but
   their sum. Both solvers converge; ncp_admm splits the sum evenly (ccp_admm's polish is
   accepted only where the CCP's natural map, not its stopping test, is below the tolerance:
   not always). */
static void test_redundant_free(unsigned long long seed) {
  cs_test_seed(seed);
  csTestMixed* t = cs_test_mixed_new(2, 2, 1, 1); /* the free block: 1 row, the last */
  int n = t->nrow, m = n + 1;
  double* G = malloc(sizeof(double) * (size_t)m * (size_t)m);
  double* g = malloc(sizeof(double) * (size_t)m);
  double* l = calloc((size_t)m, sizeof(double));
  csBlock* blk = malloc(sizeof(csBlock) * (size_t)(t->p.nblock + 1));
  for (int r = 0; r < m; r++) {
    int sr = r < n ? r : n - 1;
    g[r] = t->g[sr];
    for (int c = 0; c < m; c++) G[(size_t)r * m + c] = t->G[(size_t)sr * n + (c < n ? c : n - 1)];
  }
  memcpy(blk, t->p.block, sizeof(csBlock) * (size_t)t->p.nblock);
  blk[t->p.nblock] = (csBlock){CS_CONE_FREE, n, 1, 0};
  csContactProblem p = t->p;
  p.G = G, p.g = g, p.block = blk, p.nblock = t->p.nblock + 1;
  const csSolver* solvers[2] = {&cs_solver_ccp_admm, &cs_solver_ncp_admm};
  for (int k = 0; k < 2; k++) {
    csSolverStats st;
    CHECK(run(solvers[k], &p, 1e-9, 20000, 0, l, &st) == CS_OK);
    double split = fabs(l[n - 1] - l[n]);
    printf(
        "redundant free rows seed %llu: %s %d iterations, eps_abs %.2e, the two rows %.6g "
        "%.6g\n",
        seed, solvers[k]->name, st.iterations, st.ncp.eps_abs, l[n - 1], l[n]);
    CHECK_MSG(
        st.converged && blocks_res(&p, l) <= 1e-9 && (k == 0 || split <= 1e-6 * fabs(l[n]) + 1e-9),
        "seed %llu %s: converged %d, blocks %.3g, free rows %.9g %.9g", seed, solvers[k]->name,
        st.converged, blocks_res(&p, l), l[n - 1], l[n]);
  }
  free(G), free(g), free(l), free(blk);
  cs_test_mixed_free(t);
}

/* An asymmetric G (p->asym, the LU factor) and a compliance R, with both solvers. */
static void test_asym_and_compliance(unsigned long long seed) {
  cs_test_seed(seed);
  csTestMixed* t = cs_test_mixed_new(3, 2, 2, 2);
  int n = t->nrow;
  double* R = malloc(sizeof(double) * (size_t)n);
  for (int r = 0; r < n; r++) R[r] = 1e-3 * t->G[(size_t)r * n + r];
  const csSolver* solvers[2] = {&cs_solver_ccp_admm, &cs_solver_ncp_admm};
  for (int variant = 0; variant < 2; variant++) {
    if (variant == 0) {
      for (int r = 0; r < n; r++)
        for (int c = 0; c < r; c++) t->G[(size_t)r * n + c] *= 1 + 1e-4 * cs_test_gauss();
      t->p.asym = 1;
    } else {
      for (int r = 0; r < n; r++)
        for (int c = 0; c < r; c++) t->G[(size_t)r * n + c] = t->G[(size_t)c * n + r];
      t->p.asym = 0, t->p.R = R;
    }
    for (int k = 0; k < 2; k++) {
      csSolverStats st;
      CHECK(run(solvers[k], &t->p, 1e-9, 20000, 0, t->lambda, &st) == CS_OK);
      double eb = blocks_res(&t->p, t->lambda);
      printf("%s seed %llu: %s %d iterations, eps_abs %.2e, blocks %.2e\n",
             variant ? "compliance" : "asymmetric G", seed, solvers[k]->name, st.iterations,
             st.ncp.eps_abs, eb);
      CHECK_MSG(st.converged && eb <= 1e-9 && (k == 0 || st.ncp.eps_abs <= 1e-9),
                "%s seed %llu %s: converged %d, blocks %.3g, eps_abs %.3g",
                variant ? "compliance" : "asymmetric", seed, solvers[k]->name, st.converged, eb,
                st.ncp.eps_abs);
    }
  }
  free(R);
  cs_test_mixed_free(t);
}

/* More rows or contacts never give fewer workspace bytes. */
static void test_workspace_monotone(void) {
  csSolverOptions o = {100, 1e-8, 1.0, 0, 0};
  csBlock blk[40];
  for (int nc = 0; nc <= 10; nc++)
    for (int extra = 0; extra <= 30; extra++) {
      for (int k = 0; k < extra; k++) blk[k] = (csBlock){CS_CONE_UNILATERAL, 3 * nc + k, 1, 0};
      csContactProblem p = {0};
      p.nc = nc, p.nblock = extra, p.block = extra ? blk : NULL;
      size_t b = cs_solver_ncp_admm.workspace_bytes(&p, &o);
      /* one more block row, or one more contact in place of up to three block rows */
      csContactProblem q = p;
      blk[extra] = (csBlock){CS_CONE_UNILATERAL, 3 * nc + extra, 1, 0};
      q.nblock = extra + 1, q.block = blk;
      CHECK(cs_solver_ncp_admm.workspace_bytes(&q, &o) >= b);
      if (extra >= 3) {
        csContactProblem c = p;
        csBlock cb[40];
        for (int k = 0; k < extra - 3; k++)
          cb[k] = (csBlock){CS_CONE_UNILATERAL, 3 * nc + 3 + k, 1, 0};
        c.nc = nc + 1, c.nblock = extra - 3, c.block = extra > 3 ? cb : NULL;
        CHECK(cs_solver_ncp_admm.workspace_bytes(&c, &o) >= b);
      }
    }
}

int main(void) {
  for (unsigned long long seed = 1; seed <= 4; seed++) {
    test_unique(0, 3, 2, 2, seed);
    test_unique(0, 4, 4, 0, seed);
    test_unique(3, 2, 2, 3, seed);
    test_unique(6, 4, 3, 0, seed);
    test_unique(2, 0, 3, 0, seed);
    test_frictional(4, 2, 2, 0, seed);
    test_frictional(4, 3, 2, 3, seed);
    test_frictional(0, 3, 3, 2, seed);
    test_last_resort(4, 3, 2, 3, seed);
    test_last_resort(6, 2, 2, 1, seed);
    test_redundant_free(seed);
    test_asym_and_compliance(seed);
  }
  test_workspace_monotone();
  return cs_test_finish("test_admm_blocks");
}
