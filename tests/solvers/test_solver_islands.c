/* A problem stored by islands (csContactProblem.nisland > 0) against the same problem with
   its dense block-diagonal G, through cs_solve, for every solver:
   - one island holding everything: lambda and the stats bit for bit those of the dense G
     (the island path gathers the same arrays and calls the same solver);
   - k islands (contacts of random mu and blocks of every cone): lambda agrees to 1e-9
     relative (the islands stop on their own residuals, the dense solve on the largest; the
     iterations differ), the NCP report of one lambda has the same terms, stats.ncp is the
     whole problem's report, and the workspace of the solvers quadratic in the rows is
     smaller (the PGS family's is linear: about the same);
   - elliptic contacts (mu2) and a compliance R gathered with their islands;
   - cs_problem_dense_G gives the dense G back bit for bit;
   - malformed island tables are refused by cs_solve with CS_ERR_ARG naming the island. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_test.h"
#include "cs_test_islands.h"

static void* ws_alloc(size_t bytes) { return aligned_alloc(64, (bytes + 127) / 64 * 64); }

/* Solve p with type from zero into lambda (nrow); returns the status. */
static csStatus solve(int type, const csContactProblem* p, int nrow, double tol, int cap,
                      double* lambda, csSolverStats* st, size_t* bytes) {
  csSolverOptions o = {cap, tol, 1.0, 0, 0};
  size_t b = cs_solve_workspace_bytes((csSolverType)type, p, &o);
  if (bytes) *bytes = b;
  void* ws = ws_alloc(b);
  memset(lambda, 0, sizeof(double) * (size_t)nrow);
  memset(st, 0, sizeof *st);
  csStatus s = cs_solve((csSolverType)type, p, &o, ws, lambda, st);
  free(ws);
  return s;
}

static int cap_of(int type) { return type == CS_SOLVER_NSN_AC ? 200 : 50000; }

/* The solvers whose workspace grows with the square of the rows. */
static int quadratic(int type) {
  return type == CS_SOLVER_CCP_ADMM || type == CS_SOLVER_NCP_ADMM || type == CS_SOLVER_NSN_AC ||
         type == CS_SOLVER_STAGGERED || type == CS_SOLVER_BISECTION ||
         type == CS_SOLVER_BISECTION_DESAXCE || type == CS_SOLVER_LEMKE;
}

static int same_report(const csNcpReport* a, const csNcpReport* b) {
  return a->eps_p == b->eps_p && a->eps_d == b->eps_d && a->eps_c == b->eps_c &&
         a->signorini == b->signorini && fabs(a->error - b->error) <= 1e-13 * fabs(b->error) &&
         fabs(a->error_1pq - b->error_1pq) <= 1e-13 * fabs(b->error_1pq);
}

/* One island holding the whole problem: every solver's lambda and stats bit for bit. */
static void test_one_island(void) {
  static const int size[1][4] = {{5, 2, 2, 3}};
  cs_test_seed(101);
  csTestIslands* t = cs_test_islands_new(1, size);
  double* l2 = malloc(sizeof(double) * (size_t)t->nrow);
  int n = 0;
  for (int type = 1; type < CS_SOLVER_COUNT; type++) {
    if (!cs_solver_get((csSolverType)type)) continue;
    csSolverStats a, b;
    csStatus sa = solve(type, &t->dense, t->nrow, 1e-10, 500, t->lambda, &a, NULL);
    csStatus sb = solve(type, &t->island, t->nrow, 1e-10, 500, l2, &b, NULL);
    const char* name = cs_solver_name((csSolverType)type);
    CHECK_MSG(sa == sb, "%s: status %d dense, %d by islands", name, sa, sb);
    if (sa != CS_OK) continue;
    n++;
    CHECK_MSG(!memcmp(t->lambda, l2, sizeof(double) * (size_t)t->nrow), "%s: lambda differs", name);
    CHECK_MSG(a.iterations == b.iterations && a.converged == b.converged &&
                  a.residual == b.residual && a.fallback == b.fallback &&
                  !memcmp(&a.ncp, &b.ncp, sizeof a.ncp),
              "%s: stats differ (%d/%d iterations)", name, a.iterations, b.iterations);
  }
  printf("one island: %d solvers bit for bit\n", n);
  free(l2);
  cs_test_islands_free(t);
}

/* The NCP report of one lambda, dense and by islands; and cs_problem_dense_G. */
static void test_report(const csTestIslands* t, const double* lambda) {
  csNcpReport a, b;
  cs_ncp_report(&t->dense, lambda, &a);
  cs_ncp_report(&t->island, lambda, &b);
  CHECK_MSG(same_report(&a, &b), "report: error %.17g / %.17g, eps_abs %.17g / %.17g", a.error,
            b.error, a.eps_abs, b.eps_abs);
  double* G = malloc(sizeof(double) * (size_t)t->nrow * (size_t)t->nrow);
  cs_problem_dense_G(&t->island, G);
  CHECK(!memcmp(G, t->G, sizeof(double) * (size_t)t->nrow * (size_t)t->nrow));
  free(G);
}

/* k islands: every solver's lambda by islands within 1e-9 of the dense one. */
static void test_islands(int k, const int (*size)[4], unsigned long long seed, int with_R,
                         int with_mu2) {
  cs_test_seed(seed);
  csTestIslands* t = cs_test_islands_new(k, size);
  double* R = malloc(sizeof(double) * (size_t)t->nrow);
  double* mu2 = malloc(sizeof(double) * (size_t)(t->dense.nc + 1));
  for (int r = 0; r < t->nrow; r++) R[r] = cs_test_uniform(0.01, 0.1);
  for (int i = 0; i < t->dense.nc; i++) mu2[i] = t->mu[i] * cs_test_uniform(0.5, 1.5);
  if (with_R) t->dense.R = t->island.R = R;
  if (with_mu2) t->dense.mu2 = t->island.mu2 = mu2;
  double* l2 = malloc(sizeof(double) * (size_t)t->nrow);
  printf("\n%d islands, %d rows%s%s:\n%-18s %8s %8s %10s %10s %12s %12s\n", k, t->nrow,
         with_R ? ", R" : "", with_mu2 ? ", mu2" : "", "solver", "iters", "iters_isl", "eps_abs",
         "diff", "ws_dense", "ws_islands");
  for (int type = 1; type < CS_SOLVER_COUNT; type++) {
    if (!cs_solver_get((csSolverType)type)) continue;
    csSolverStats a, b;
    size_t ba, bb;
    csStatus sa = solve(type, &t->dense, t->nrow, 1e-13, cap_of(type), t->lambda, &a, &ba);
    csStatus sb = solve(type, &t->island, t->nrow, 1e-13, cap_of(type), l2, &b, &bb);
    const char* name = cs_solver_name((csSolverType)type);
    CHECK_MSG(sa == sb, "%s: status %d dense, %d by islands (%s)", name, sa, sb, cs_last_error());
    if (sb != CS_OK) {
      CHECK_MSG(strstr(cs_last_error(), "problem island"), "%s: '%s' names no island", name,
                cs_last_error());
      printf("%-18s refused: %s\n", name, cs_last_error());
      continue;
    }
    double d = cs_test_relerr(l2, t->lambda, t->nrow, 1.0);
    printf("%-18s %8d %8d %10.2e %10.2e %12zu %12zu\n", name, a.iterations, b.iterations,
           b.ncp.eps_abs, d, ba, bb);
    CHECK_MSG(d <= 1e-9, "%s: lambda by islands differs by %.3g (converged %d/%d)", name, d,
              a.converged, b.converged);
    csNcpReport r;
    cs_ncp_report(&t->island, l2, &r);
    CHECK_MSG(!memcmp(&r, &b.ncp, sizeof r), "%s: stats.ncp is not the whole problem's", name);
    if (quadratic(type))
      CHECK_MSG(bb < ba, "%s: workspace %zu by islands, %zu dense", name, bb, ba);
    test_report(t, l2);
  }
  free(l2);
  free(R);
  free(mu2);
  cs_test_islands_free(t);
}

/* A malformed table: cs_solve and cs_problem_check_islands refuse it naming what. */
static void refuse(csTestIslands* t, const char* what, const char* expect) {
  csSolverStats st;
  csStatus s = solve(CS_SOLVER_NCP_PGS, &t->island, t->nrow, 1e-8, 10, t->lambda, &st, NULL);
  CHECK_MSG(s == CS_ERR_ARG && strstr(cs_last_error(), expect), "%s: status %d, '%s'", what, s,
            cs_last_error());
  printf("%-28s %s\n", what, cs_last_error());
  CHECK(cs_problem_check_islands(&t->island, NULL) == CS_ERR_ARG);
}

static void test_bad_tables(void) {
  static const int size[3][4] = {{2, 1, 0, 0}, {3, 0, 1, 0}, {1, 0, 0, 1}};
  cs_test_seed(7);
  csTestIslands* t = cs_test_islands_new(3, size);
  CHECK(cs_problem_check_islands(&t->island, NULL) == CS_OK);
  int* c0 = (int*)t->table[0].contact;
  int* b1 = (int*)t->table[1].block;
  int keep = c0[1];
  c0[1] = t->table[1].contact[0];
  refuse(t, "a contact in two islands", "already in another island");
  c0[1] = t->dense.nc;
  refuse(t, "a contact id out of range", "not in 0..");
  c0[1] = c0[0];
  refuse(t, "ids not increasing", "strictly increasing");
  c0[1] = keep;
  t->table[0].nc = 1;
  refuse(t, "a contact in no island", "contact 3 is in no island");
  t->table[0].nc = 2;
  keep = b1[0];
  b1[0] = t->table[2].block[0];
  refuse(t, "a block in two islands", "already in another island");
  b1[0] = keep;
  t->table[2].nblock = 0;
  refuse(t, "a block in no island", "is in no island");
  t->table[2].nblock = 1;
  const double* G = t->table[1].G;
  t->table[1].G = NULL;
  refuse(t, "an island without G", "island 1: no G");
  t->table[1].G = G;
  t->island.nisland = -1;
  refuse(t, "nisland < 0", "nisland = -1");
  t->island.nisland = 3;
  csSolverStats st;
  CHECK(solve(CS_SOLVER_NCP_PGS, &t->island, t->nrow, 1e-8, 10, t->lambda, &st, NULL) == CS_OK);
  /* a solver's own entry takes one dense G: it refuses islands and names cs_solve */
  for (int type = 1; type < CS_SOLVER_COUNT; type++) {
    const csSolver* s = cs_solver_get((csSolverType)type);
    if (!s) continue;
    csSolverOptions o = {10, 1e-8, 1.0, 0, -1};
    void* ws = ws_alloc(s->workspace_bytes(&t->dense, &o) + 64);
    csStatus r = s->solve(&t->island, &o, ws, t->lambda, &st);
    CHECK_MSG(r == CS_ERR_UNSUPPORTED && strstr(cs_last_error(), "cs_solve"), "%s: %d '%s'",
              s->name, r, cs_last_error());
    free(ws);
  }
  cs_test_islands_free(t);
}

int main(void) {
  test_one_island();
  static const int mixed[4][4] = {{3, 1, 1, 1}, {2, 0, 1, 2}, {4, 2, 0, 0}, {1, 1, 1, 1}};
  test_islands(4, mixed, 11, 0, 0);
  static const int lcp[3][4] = {{3, 1, 1, 0}, {2, 0, 2, 0}, {4, 2, 0, 0}};
  test_islands(3, lcp, 12, 0, 0);
  test_islands(3, lcp, 13, 1, 1);
  static const int contacts[5][4] = {
      {4, 0, 0, 0}, {2, 0, 0, 0}, {5, 0, 0, 0}, {1, 0, 0, 0}, {3, 0, 0, 0}};
  test_islands(5, contacts, 14, 0, 0);
  test_bad_tables();
  return cs_test_finish("test_solver_islands");
}
