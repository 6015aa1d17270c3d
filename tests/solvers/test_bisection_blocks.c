/* The per-contact bisection solvers (bisection, bisection_desaxce, bisection_paper;
   src/solvers/cs_solver_bisection.c) on problems with blocks beyond the contacts (unilateral,
   box, free rows; docs/solvers/bisection.md, "Blocks"):
   - random mixed problems (tests/support/cs_test_problem.h, as test_solver_blocks): every
     solve converges, and the improved solvers' active-set correction, whose system holds the
     block rows, ends them within a few corrections (bounded sweeps);
   - a box sliding and spinning on its four corners with a rail (a free row), a friction loss
     (a box row) and a limit on its spin (a unilateral row): converged, the blocks' conditions
     met (the rail's velocity 0, the limit's velocity >= 0, the friction loss at its bound
     against the slide);
   - blocks alone with a warm start and a compliance R, and a non-symmetric G;
   - the stall-guard problem of test_solver_bisection (three contacts recorded in ANYmal
     `random`, on which the paper model's sweeps cycle) with two block rows: the guards hand
     over to ncp_admm, which may refuse blocks; the solve must then keep its own answer
     (finite, the blocks met, its statistics consistent);
   - the workspace grows with the contacts and the blocks' rows. */
#include <stdlib.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "cs_test.h"
#include "cs_test_problem.h"
#include "solvers/cs_solver.h"

static const csSolverType solvers[3] = {CS_SOLVER_BISECTION, CS_SOLVER_BISECTION_DESAXCE,
                                        CS_SOLVER_BISECTION_PAPER};

/* Solves p with type (cap, tol, from lambda if warm) in a fresh workspace; the status. */
static csStatus solve(csSolverType type, const csContactProblem* p, int cap, double tol, int warm,
                      double* lambda, csSolverStats* st) {
  csSolverOptions o = {cap, tol, 1.0, warm, 0};
  const csSolver* s = cs_solver_get(type);
  size_t bytes = s->workspace_bytes(p, &o);
  void* ws = aligned_alloc(64, (bytes + 127) / 64 * 64);
  memset(st, 0, sizeof *st);
  csStatus r = s->solve(p, &o, ws, lambda, st);
  free(ws);
  return r;
}

/* The blocks' residual at lambda, with v (every row) recomputed into v. */
static double blocks_residual(const csContactProblem* p, const double* lambda, double* v) {
  csi_solver_velocity(p, lambda, v);
  return csi_blocks_residual(p, lambda, v);
}

/* Random mixed problems: converged, blocks met; the sweeps of the improved solvers bounded (the
   correction holds the block rows: without them, 12-64 sweeps where these take 8). */
static void test_random(void) {
  long its[3] = {0, 0, 0};
  int worst[3] = {0, 0, 0}, n = 0;
  static const int shapes[5][4] = {
      {0, 3, 2, 2}, {0, 4, 4, 0}, {3, 2, 2, 3}, {4, 3, 2, 3}, {8, 6, 4, 4}};
  for (unsigned long long seed = 1; seed <= 10; seed++)
    for (int k = 0; k < 5; k++)
      for (int fric = 0; fric <= 1; fric++) {
        const int* sh = shapes[k];
        cs_test_seed(1000 + seed);
        csTestMixed* t = cs_test_mixed_new(sh[0], sh[1], sh[2], sh[3]);
        if (!fric)
          for (int i = 0; i < sh[0]; i++) t->mu[i] = 0;
        double* v = malloc(sizeof(double) * (size_t)t->nrow);
        n++;
        for (int j = 0; j < 3; j++) {
          csSolverStats st;
          memset(t->lambda, 0, sizeof(double) * (size_t)t->nrow);
          csStatus r = solve(solvers[j], &t->p, 20000, 1e-9, 0, t->lambda, &st);
          double eb = blocks_residual(&t->p, t->lambda, v);
          CHECK_MSG(r == CS_OK && st.converged && eb <= 1e-9 && st.fallback == 0,
                    "%s seed %llu shape %d fric %d: status %d converged %d in %d, blocks %.3g",
                    cs_solver_name(solvers[j]), seed, k, fric, r, st.converged, st.iterations, eb);
          its[j] += st.iterations;
          if (st.iterations > worst[j]) worst[j] = st.iterations;
        }
        free(v);
        cs_test_mixed_free(t);
      }
  for (int j = 0; j < 3; j++)
    printf("random mixed problems, %s: %d solves, mean %.1f sweeps, at most %d\n",
           cs_solver_name(solvers[j]), n, (double)its[j] / n, worst[j]);
  CHECK_MSG(worst[0] <= 40 && worst[1] <= 40, "the improved solvers took up to %d and %d sweeps",
            worst[0], worst[1]);
}

/* A box (half sizes 0.15, 0.1, 0.05 m, 2 kg) on its four bottom corners, sliding at (1, 0.4) m/s
   and spinning at -2 rad/s, one step of 1 ms, with three block rows on its body velocity
   u = (v, w): a rail (free: v_y = 0), a friction loss on v_x (box, bound 0.004 N s) and a limit on
   its spin (unilateral: w_z >= 0). G = J M^-1 J^T over 15 rows (6 dofs: singular). */
typedef struct {
  double G[225], g[15], mu[4];
  csBlock block[3];
  csContactProblem p;
} RailBox;

static void make_rail_box(RailBox* B) {
  double hx = 0.15, hy = 0.1, hz = 0.05, m = 2.0, dt = 1e-3;
  double I[3] = {m / 3 * (hy * hy + hz * hz), m / 3 * (hx * hx + hz * hz),
                 m / 3 * (hx * hx + hy * hy)};
  double minv[6] = {1 / m, 1 / m, 1 / m, 1 / I[0], 1 / I[1], 1 / I[2]};
  double uf[6] = {1.0, 0.4, -9.81 * dt, 0, 0, -2.0};
  double J[15][6];
  memset(J, 0, sizeof J);
  for (int i = 0; i < 4; i++) {
    double r[3] = {(i & 1) ? hx : -hx, (i & 2) ? hy : -hy, -hz};
    /* frame (n, t1, t2) = (z, x, y); point velocity v + w x r */
    static const int ax[3] = {2, 0, 1};
    for (int a = 0; a < 3; a++) {
      int e = ax[a], e1 = (e + 1) % 3, e2 = (e + 2) % 3;
      J[3 * i + a][e] = 1;
      /* (w x r)_e = w_e1 r_e2 - w_e2 r_e1 */
      J[3 * i + a][3 + e1] = r[e2], J[3 * i + a][3 + e2] = -r[e1];
    }
    B->mu[i] = 0.4;
  }
  J[12][1] = 1; /* rail: v_y */
  J[13][0] = 1; /* friction loss: v_x */
  J[14][5] = 1; /* spin limit: w_z */
  for (int a = 0; a < 15; a++) {
    double s = 0;
    for (int k = 0; k < 6; k++) s += J[a][k] * uf[k];
    B->g[a] = s;
    for (int b = 0; b < 15; b++) {
      double t = 0;
      for (int k = 0; k < 6; k++) t += J[a][k] * minv[k] * J[b][k];
      B->G[15 * a + b] = t;
    }
  }
  B->block[0] = (csBlock){CS_CONE_FREE, 12, 1, 0};
  B->block[1] = (csBlock){CS_CONE_BOX, 13, 1, 0.004};
  B->block[2] = (csBlock){CS_CONE_UNILATERAL, 14, 1, 0};
  memset(&B->p, 0, sizeof B->p);
  B->p.nc = 4, B->p.nv = 6, B->p.mu = B->mu, B->p.G = B->G, B->p.g = B->g;
  B->p.nblock = 3, B->p.block = B->block;
}

static void test_rail_box(void) {
  RailBox B;
  make_rail_box(&B);
  for (int j = 0; j < 3; j++) {
    double l[15] = {0}, v[15];
    csSolverStats st;
    CHECK(solve(solvers[j], &B.p, 2000, 1e-8, 0, l, &st) == CS_OK);
    double eb = blocks_residual(&B.p, l, v);
    printf(
        "rail box, %-17s %4d sweeps, converged %d, residual %.3g, blocks %.3g, eps_abs %.3g; "
        "v_y %.2g, v_x %.3g (loss %.4g N s), w_z %.3g (limit %.4g N s)\n",
        cs_solver_name(solvers[j]), st.iterations, st.converged, st.residual, eb, st.ncp.eps_abs,
        v[12], v[13], l[13], v[14], l[14]);
    CHECK(st.ncp.eps_p <= 1e-12 && eb <= 1e-8);
    CHECK(fabs(v[12]) <= 1e-8 && v[14] >= -1e-8 && l[14] >= 0);
    CHECK(v[13] > 0 && l[13] == -0.004); /* still sliding: the loss at its bound */
    CHECK(st.converged);
    if (solvers[j] == CS_SOLVER_BISECTION_DESAXCE) CHECK(st.ncp.eps_abs <= 1e-8);
  }
}

/* Blocks alone (nc = 0): from a warm start that is the answer, one sweep; with a compliance R on
   every row; and a non-symmetric G (its columns in the velocity updates: the report of the answer
   equals that of G lambda + g). */
static void test_blocks_only(void) {
  cs_test_seed(77);
  csTestMixed* t = cs_test_mixed_new(0, 3, 3, 2);
  double* v = malloc(sizeof(double) * (size_t)t->nrow);
  double* R = malloc(sizeof(double) * (size_t)t->nrow);
  for (int j = 0; j < 3; j++) {
    csSolverStats st;
    memset(t->lambda, 0, sizeof(double) * (size_t)t->nrow);
    CHECK(solve(solvers[j], &t->p, 5000, 1e-10, 0, t->lambda, &st) == CS_OK && st.converged);
    int cold = st.iterations;
    CHECK(solve(solvers[j], &t->p, 5000, 1e-10, 1, t->lambda, &st) == CS_OK && st.converged);
    CHECK_MSG(st.iterations <= 1, "%s warm: %d sweeps", cs_solver_name(solvers[j]), st.iterations);
    printf("blocks alone, %s: %d sweeps cold, %d warm\n", cs_solver_name(solvers[j]), cold,
           st.iterations);
  }
  for (int r = 0; r < t->nrow; r++) R[r] = 1e-2;
  t->p.R = R;
  for (int j = 0; j < 3; j++) {
    csSolverStats st;
    memset(t->lambda, 0, sizeof(double) * (size_t)t->nrow);
    CHECK(solve(solvers[j], &t->p, 5000, 1e-10, 0, t->lambda, &st) == CS_OK);
    CHECK(st.converged && blocks_residual(&t->p, t->lambda, v) <= 1e-10);
  }
  t->p.R = NULL;
  /* G + K, K skew (0.05 of G's diagonal scale) */
  int n = t->nrow;
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++) {
      double k = 0.05 * t->G[(size_t)a * n + a] * sin(a + 2.0 * b);
      t->G[(size_t)a * n + b] += k, t->G[(size_t)b * n + a] -= k;
    }
  t->p.asym = 1;
  for (int j = 0; j < 3; j++) {
    csSolverStats st;
    csNcpReport rep;
    memset(t->lambda, 0, sizeof(double) * (size_t)n);
    CHECK(solve(solvers[j], &t->p, 5000, 1e-10, 0, t->lambda, &st) == CS_OK);
    cs_ncp_report(&t->p, t->lambda, &rep);
    printf("blocks alone, non-symmetric G, %s: %d sweeps, converged %d, eps_abs %.3g\n",
           cs_solver_name(solvers[j]), st.iterations, st.converged, rep.eps_abs);
    CHECK(st.converged && fabs(st.ncp.eps_abs - rep.eps_abs) <= 1e-12 && rep.eps_abs <= 1e-9);
  }
  free(R);
  free(v);
  cs_test_mixed_free(t);
}

/* The stall-guard problem of test_solver_bisection (ANYmal `random`, two slipping feet of one
   stance) with a unilateral and a free row coupled to it: the paper model's sweeps cycle, and
   the budget guard (cap 150) and the stall guard's last resort call ncp_admm. Where ncp_admm
   refuses the blocks, the solve keeps its own answer: finite, the blocks met, the statistics
   those of the answer returned, the iterations within the cap. */
static void test_last_resort(void) {
  static const double mu[3] = {0.8, 0.8, 0.8};
  /* rows 9 (unilateral) and 10 (free): weakly coupled to the contacts' normal rows */
  double G[121], g[11], v[11];
  for (int a = 0; a < 11; a++)
    for (int b = 0; b < 11; b++)
      G[11 * a + b] = a < 9 && b < 9 ? cs_test_stall_G[9 * a + b] : a == b ? 1.0 : 0;
  for (int a = 0; a < 9; a += 3)
    G[11 * a + 9] = G[11 * 9 + a] = 0.02, G[11 * a + 10] = G[110 + a] = -0.01;
  memcpy(g, cs_test_stall_g, sizeof cs_test_stall_g);
  g[9] = -0.05, g[10] = 0.03;
  csBlock blocks[2] = {{CS_CONE_UNILATERAL, 9, 1, 0}, {CS_CONE_FREE, 10, 1, 0}};
  csContactProblem p = {.nc = 3, .mu = mu, .G = G, .g = g, .nblock = 2, .block = blocks};
  static const int caps[2] = {150, 100000};
  for (int c = 0; c < 2; c++) {
    int cap = caps[c];
    double l[11] = {0};
    csSolverStats st;
    CHECK(solve(CS_SOLVER_BISECTION, &p, cap, 1e-6, 0, l, &st) == CS_OK);
    int finite = 1;
    for (int r = 0; r < 11; r++) finite &= isfinite(l[r]);
    double eb = blocks_residual(&p, l, v);
    csNcpReport rep;
    cs_ncp_report(&p, l, &rep);
    printf(
        "stall-guard problem with blocks, cap %d: %d iterations, converged %d, residual %.3g, "
        "fallback %d, blocks %.3g, eps_abs %.3g\n",
        cap, st.iterations, st.converged, st.residual, st.fallback, eb, rep.eps_abs);
    CHECK(finite && st.iterations <= cap && isfinite(st.residual));
    CHECK(fabs(st.ncp.eps_abs - rep.eps_abs) <= 1e-12);
    CHECK(eb <= 1e-6);
    if (cap > 150) CHECK(st.converged && st.fallback >= 1);
  }
}

/* workspace_bytes never shrinks when contacts or block rows are added. */
static void test_workspace(void) {
  csBlock blocks[8];
  double z[1] = {0};
  csSolverOptions o = {100, 1e-6, 1.0, 0, 0};
  int bad = 0;
  for (int j = 0; j < 3; j++) {
    const csSolver* s = cs_solver_get(solvers[j]);
    size_t prev_nc = 0;
    for (int nc = 0; nc <= 6; nc++) {
      size_t prev = 0;
      for (int nb = 0; nb <= 8; nb++) {
        int row = 3 * nc;
        for (int k = 0; k < nb; k++) {
          int n = k % 3 == 2 ? 6 : 1;
          blocks[k] = (csBlock){k % 3 == 2   ? CS_CONE_FREE
                                : k % 3 == 1 ? CS_CONE_BOX
                                             : CS_CONE_UNILATERAL,
                                row, n, 1.0};
          row += n;
        }
        csContactProblem p = {
            .nc = nc, .mu = z, .G = z, .g = z, .nblock = nb, .block = nb ? blocks : NULL};
        size_t b = s->workspace_bytes(&p, &o);
        if (b < prev || (nb == 0 && b < prev_nc)) bad++;
        prev = b;
        if (nb == 0) prev_nc = b;
      }
    }
  }
  CHECK_MSG(bad == 0, "%d workspace sizes shrank", bad);
}

int main(void) {
  test_random();
  test_rail_box();
  test_blocks_only();
  test_last_resort();
  test_workspace();
  return cs_test_finish("test_bisection_blocks");
}
