/* Solvers on a block-sparse island (docs/solvers.md, "Block-sparse islands").

   A bin of boxes where every box touches its neighbours is one island: its G is mostly
   zeros (two contacts couple only if they share a kinematic tree), and dense it needs
   (3 nc)^2 doubles (1,000 contacts: 72 MB, 6,000: 2.6 GB). The step stores such an island's
   G as its 3 x 3 blocks on the coupling pattern (csIsland.ncouple > 0) and these solvers
   work on the blocks:
   - bisection, bisection_desaxce: Algorithm 2's sweeps (cs_solver_bisection.c) with the
     per-contact kernels shared with the dense sweeps (csi_bis_contact_solve,
     csi_bis_violation), the same sweep order and stop test; v = G lambda + g is kept up to
     date by the contact's column of blocks. Not the dense solve's accelerations: the
     active-set correction (a dense LU over the contacts), the extrapolation and the stall
     guard's fall-back; a solve that does not converge within the cap reports it.
   - ncp_admm: cs_solver_bsr_admm.c.
   Any other solver gets the island expanded dense (cs_solver_island.c). */
#include "solvers/cs_solver_bsr.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "constraint/cs_contact_cone.h"
#include "core/cs_error.h"
#include "solvers/cs_solver.h"
#include "solvers/cs_solver_bisection.h"
#include "solvers/cs_solver_bsr_admm.h"

/* The island size from which the step stores G block-sparse (docs/benchmarks/bin.md). */
static int bsr_min = 128;

int csi_bsr_takes(const csSolver* s) {
  return s == &cs_solver_bisection || s == &cs_solver_bisection_desaxce || s == &cs_solver_ncp_admm;
}

int csi_bsr_min_contacts(const csSolver* s) { return csi_bsr_takes(s) ? bsr_min : INT_MAX; }

int csi_bsr_set_min_contacts(int nc) {
  int old = bsr_min;
  bsr_min = nc < 2 ? 2 : nc;
  return old;
}

/* ------------------------------------------------------------------ the blocks */

void csi_bsr_velocity(const csIsland* I, const double* R, const double* g, const double* lambda,
                      double* v) {
  const int* ptr = I->couple_ptr;
  for (int a = 0; a < I->nc; a++) {
    double s0 = 0, s1 = 0, s2 = 0;
    for (int k = ptr[a]; k < ptr[a + 1]; k++) {
      const double* B = I->G + 9 * (size_t)k;
      const double* l = lambda + 3 * I->couple_col[k];
      s0 += B[0] * l[0] + B[1] * l[1] + B[2] * l[2];
      s1 += B[3] * l[0] + B[4] * l[1] + B[5] * l[2];
      s2 += B[6] * l[0] + B[7] * l[1] + B[8] * l[2];
    }
    double* va = v + 3 * a;
    va[0] = s0, va[1] = s1, va[2] = s2;
    if (g) va[0] += g[3 * a], va[1] += g[3 * a + 1], va[2] += g[3 * a + 2];
    if (R)
      for (int r = 0; r < 3; r++) va[r] += R[3 * a + r] * lambda[3 * a + r];
  }
}

void csi_bsr_column_add(const csIsland* I, int a, const double d[3], double* v) {
  /* block (b, a) = block (a, b)^T: v_b[c] += sum_r B(a,b)[r][c] d[r], as the dense sweeps'
     column update (bis_vupdate) sums G's rows 3a..3a+2 */
  double d0 = d[0], d1 = d[1], d2 = d[2];
  for (int k = I->couple_ptr[a]; k < I->couple_ptr[a + 1]; k++) {
    const double* B = I->G + 9 * (size_t)k;
    double* vb = v + 3 * I->couple_col[k];
    vb[0] += B[0] * d0 + B[3] * d1 + B[6] * d2;
    vb[1] += B[1] * d0 + B[4] * d1 + B[7] * d2;
    vb[2] += B[2] * d0 + B[5] * d1 + B[8] * d2;
  }
}

int csi_bsr_diag(const csIsland* I, int a) {
  int lo = I->couple_ptr[a], hi = I->couple_ptr[a + 1] - 1;
  while (lo < hi) { /* the columns increase: bisect for a */
    int mid = lo + (hi - lo) / 2;
    if (I->couple_col[mid] < a)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void csi_bsr_dense(const csIsland* I, double* G) {
  size_t n = 3 * (size_t)I->nc;
  memset(G, 0, sizeof(double) * n * n);
  for (int a = 0; a < I->nc; a++)
    for (int k = I->couple_ptr[a]; k < I->couple_ptr[a + 1]; k++) {
      const double* B = I->G + 9 * (size_t)k;
      double* D = G + 3 * (size_t)a * n + 3 * (size_t)I->couple_col[k];
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) D[(size_t)r * n + (size_t)c] = B[3 * r + c];
    }
}

/* ------------------------------------------------------------------ bisection */

/* The sweeps' workspace: v (3nc), the contacts' records (CSI_BIS_BLK nc), the order's keys
   (nc), the order (nc ints). */
static size_t bis_bytes(int nc) {
  return sizeof(double) * ((size_t)(3 + CSI_BIS_BLK + 1) * (size_t)nc) + sizeof(int) * (size_t)nc +
         64;
}

typedef struct {
  double *v, *blk, *key;
  int* ord;
} BisWork;

static BisWork bis_layout(void* ws, int nc) {
  BisWork w;
  w.v = (double*)ws;
  w.blk = w.v + 3 * (size_t)nc;
  w.key = w.blk + CSI_BIS_BLK * (size_t)nc;
  w.ord = (int*)(void*)(w.key + nc);
  return w;
}

/* The start: lambda projected onto the cones, v, the sweep order and the contacts' records */
static void bis_start(const csContactProblem* q, const csIsland* I, const csSolverOptions* opt,
                      const BisWork* w, double* lambda) {
  int nc = q->nc;
  if (!opt->warmstart) memset(lambda, 0, sizeof(double) * 3 * (size_t)nc);
  for (int a = 0; a < nc; a++) csi_project_cone(lambda + 3 * a, q->mu[a], lambda + 3 * a);
  csi_bsr_velocity(I, q->R, q->g, lambda, w->v);
  csi_bis_order(lambda, w->v, q->mu, nc, CSI_BIS_ORDER_VMIN * opt->tolerance, w->key, w->ord);
  for (int a = 0; a < nc; a++)
    csi_bis_contact_setup(I->G + 9 * (size_t)csi_bsr_diag(I, a), q->R ? q->R + 3 * a : NULL,
                          opt->tolerance, w->blk + CSI_BIS_BLK * (size_t)a);
}

/* One sweep in the order: each contact to alpha lambda* + (1 - alpha) lambda_a, v with it */
static void bis_sweep(const csContactProblem* q, const csIsland* I, const BisWork* w,
                      double* lambda, double alpha, int desaxce) {
  for (int k = 0; k < q->nc; k++) {
    int a = w->ord[k];
    double* l = lambda + 3 * a;
    double ls[3], d[3];
    csi_bis_contact_solve(w->blk + CSI_BIS_BLK * (size_t)a, l, w->v + 3 * a, q->mu[a], desaxce, ls);
    for (int r = 0; r < 3; r++) d[r] = alpha * ls[r] + (1 - alpha) * l[r] - l[r];
    if (d[0] == 0 && d[1] == 0 && d[2] == 0) continue;
    csi_bsr_column_add(I, a, d, w->v);
    if (q->R)
      for (int r = 0; r < 3; r++) w->v[3 * a + r] += q->R[3 * a + r] * d[r];
    l[0] += d[0], l[1] += d[1], l[2] += d[2];
  }
}

/* The stop test's sum of violations, the adding stopped once past stop */
static double bis_residual(const csContactProblem* q, const BisWork* w, const double* lambda,
                           int desaxce, double stop) {
  double res = 0;
  for (int a = 0; a < q->nc && res <= stop; a++)
    res += csi_bis_violation(w->blk + CSI_BIS_BLK * (size_t)a, lambda + 3 * a, w->v + 3 * a,
                             q->mu[a], desaxce);
  return res;
}

static csStatus bis_solve(const csContactProblem* q, const csIsland* I, const csSolverOptions* opt,
                          void* ws, double* lambda, csSolverStats* st, int desaxce) {
  BisWork w = bis_layout(ws, q->nc);
  memset(st, 0, sizeof *st);
  bis_start(q, I, opt, &w, lambda);
  double alpha = 1, res = INFINITY, tol = opt->tolerance;
  int it = 0;
  while (it < 1 || (res > tol && it < opt->iterations)) {
    bis_sweep(q, I, &w, lambda, alpha, desaxce);
    it++;
    alpha = csi_bis_relax(alpha);
    res = bis_residual(q, &w, lambda, desaxce, tol);
  }
  if (res > tol) res = bis_residual(q, &w, lambda, desaxce, INFINITY);
  st->iterations = it;
  st->residual = res;
  st->converged = res <= tol;
  csi_ncp_report_v(q, lambda, w.v, &st->ncp);
  return CS_OK;
}

/* ------------------------------------------------------------------ the entries */

size_t csi_bsr_workspace_bytes(const csSolver* s, int nc, const csSolverOptions* opt) {
  if (s == &cs_solver_ncp_admm) return csi_bsr_admm_bytes(nc, opt);
  return csi_bsr_takes(s) ? bis_bytes(nc) : 0;
}

csStatus csi_bsr_solve(const csSolver* s, const csContactProblem* q, const csIsland* I,
                       const csSolverOptions* opt, void* ws, double* lambda, csSolverStats* st) {
  if (q->mu2)
    return csi_error(CS_ERR_ARG,
                     "%s: a block-sparse island of %d contacts with elliptic "
                     "friction (mu2) is not supported",
                     s->name, q->nc);
  if (s == &cs_solver_ncp_admm) return csi_bsr_admm_solve(q, I, opt, ws, lambda, st);
  return bis_solve(q, I, opt, ws, lambda, st, s == &cs_solver_bisection_desaxce);
}
