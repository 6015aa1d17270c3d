/* The projected Gauss-Seidel family (paper 001 eqs. 17-18; paper 002 Algs. 1, 2, 5), one
   sweep loop with four per-contact updates:
   - ncp_pgs    NCP: normal step 1/G_nn with clamp at 0, then a tangential step
                1/max(G_t1t1, G_t2t2) projected onto the disk of radius mu lambda_N (the
                safe steps of paper 001). Stops on the NCP residual eps_abs.
   - lcp_pgs    LCP with the pyramidal (box) cone |lambda_t1|, |lambda_t2| <= mu lambda_N:
                one exact coordinate step 1/G_jj per row (normal, then t1, then t2) with the
                clamp, as ODE and Bullet do. Stops on its own LCP residual (below).
   - ccp_pgs    CCP: block step 3/trace(G_ii) on the whole contact, projected onto K_mu.
                Stops on the CCP residual (below).
   - pgs_raisim paper 001's PGS: steps r_z = alpha/G_zz, r_T = alpha/max(G_xx, G_yy) with
                alpha = 0.6 constant, normal clamp then disk projection. Stops on paper
                001's own error (below).
   Over-relaxation: every step is multiplied by opt->omega (in (0, 2), else 1).

   Blocks (unilateral, box, free; cs_block.h): a sweep is the contacts' updates above, then
   one Gauss-Seidel pass over the blocks (csi_blocks_gs): each block solved exactly given
   the rest, times omega -- for every kind, pgs_raisim included (its alpha tempers the
   contacts' approximate tangential steps; a block's step is exact). G's rows and v then
   span all nrow rows, and every stop residual takes in the blocks' (csi_blocks_residual),
   so converged means the blocks too. Without blocks the sweep is the contacts' alone.

   The contact velocity v = G lambda + g is kept up to date after every contact update
   (when G is symmetric, as every G the simulator builds, the column of a contact is its
   row and the update reads contiguous memory; FCLIB's W can be asymmetric and is then read
   by columns). A sweep then costs the same as one product G lambda, and the stop tests cost
   O(nc). At least one sweep is always done (see the comment in pgs_run). A sweep that
   changes no impulse at all while the stop test fails is a stall: the solver exits with
   converged = 0 instead of repeating it up to the cap. */
#include <math.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "constraint/cs_contact_cone.h"
#include "math/cs_math.h"
#include "solvers/cs_solver.h"

enum { CS_PGS_NCP, CS_PGS_LCP, CS_PGS_CCP, CS_PGS_RAISIM };

/* Sweeps after which CCP-PGS must have halved its first residual (see the restart). */
enum { CS_PGS_PROBE = 20 };

/* Paper 001's relaxation of the PGS steps (eq. 18), constant (docs/solvers.md). */
#define CS_RAISIM_ALPHA 0.6

/* ------------------------------------------------------------------ shared helpers */

CSI_HOT void csi_solver_velocity(const csContactProblem* p, const double* lambda, double* v) {
  int n = p->nblock ? cs_problem_rows(p) : 3 * p->nc, r = 0;
  const double* R = p->R;
  /* Each row's sum in the order g, R, then the columns in turn; four rows side by side, so
     the four chains of additions overlap instead of waiting on each other (the same sums
     bit for bit, 2.7x fewer cycles for 8 contacts). */
  for (; r + 4 <= n; r += 4) {
    const double* G0 = p->G + (size_t)r * (size_t)n;
    const double *G1 = G0 + n, *G2 = G1 + n, *G3 = G2 + n;
    double s0 = p->g[r] + (R ? R[r] * lambda[r] : 0);
    double s1 = p->g[r + 1] + (R ? R[r + 1] * lambda[r + 1] : 0);
    double s2 = p->g[r + 2] + (R ? R[r + 2] * lambda[r + 2] : 0);
    double s3 = p->g[r + 3] + (R ? R[r + 3] * lambda[r + 3] : 0);
    for (int c = 0; c < n; c++) {
      double l = lambda[c];
      s0 += G0[c] * l, s1 += G1[c] * l, s2 += G2[c] * l, s3 += G3[c] * l;
    }
    v[r] = s0, v[r + 1] = s1, v[r + 2] = s2, v[r + 3] = s3;
  }
  for (; r < n; r++) {
    const double* Gr = p->G + (size_t)r * (size_t)n;
    double s = p->g[r] + (R ? R[r] * lambda[r] : 0);
    for (int c = 0; c < n; c++) s += Gr[c] * lambda[c];
    v[r] = s;
  }
}

/* The residuals' bodies, forced inline into pgs_run's CPU clones (called there as plain
   functions, they take CCP-PGS 4x its time); csi_*_contact_residual are their entries for
   the other solvers. */
static CSI_INLINE double ccp_contact_residual(const double* l, const double* v, double mu) {
  /* Natural map of the CCP (lambda in K, v in K*, <lambda, v> = 0): lambda - P_K(lambda -
     v), rho = 1. It is 0 exactly at the CCP solutions; no de Saxce term, so a sliding CCP
     solution (v_N = mu |v_T|) passes it. */
  double w[3] = {l[0] - v[0], l[1] - v[1], l[2] - v[2]};
  csi_project_cone(w, mu, w);
  double d0 = l[0] - w[0], d1 = l[1] - w[1], d2 = l[2] - w[2];
  return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

double csi_ccp_contact_residual(const double* l, const double* v, double mu) {
  return ccp_contact_residual(l, v, mu);
}

static CSI_INLINE double clamp(double x, double lo, double hi) {
  return x < lo ? lo : x > hi ? hi : x;
}

static CSI_INLINE double box_contact_residual(const double* l, const double* v, double mu) {
  /* Natural map of the box (pyramidal) LCP, component by component, as the largest
     magnitude: |min(lambda_N, v_N)| for Signorini and |lambda_tj - clamp(lambda_tj - v_tj,
     -mu lambda_N, mu lambda_N)| for each friction row (0 iff lambda_tj is inside the box
     with v_tj = 0, or on the face opposite to v_tj). The bound uses max(lambda_N, 0) so an
     infeasible lambda_N < 0 is caught by the normal term, not by an inverted box. */
  if (mu < 0) mu = 0;
  double b = mu * (l[0] > 0 ? l[0] : 0);
  double e = fabs(fmin(l[0], v[0]));
  double e1 = fabs(l[1] - clamp(l[1] - v[1], -b, b));
  double e2 = fabs(l[2] - clamp(l[2] - v[2], -b, b));
  if (e1 > e) e = e1;
  return e2 > e ? e2 : e;
}

double csi_box_contact_residual(const double* l, const double* v, double mu) {
  return box_contact_residual(l, v, mu);
}

/* ------------------------------------------------------------------ the PGS family */

static size_t pgs_workspace(const csContactProblem* p, const csSolverOptions* opt) {
  size_t nc = (size_t)p->nc, n = (size_t)cs_problem_rows(p);
  (void)opt;
  /* v (every row: n = 3nc + the blocks' rows), three steps per contact (3nc), the start (n,
     ccp_pgs's restart) */
  return sizeof(double) * (2 * n + 3 * nc) + 64;
}

/* The LCP, CCP and NCP stop residuals: the largest contact residual of the model. */
static CSI_INLINE double pgs_residual(int kind, int nc, const double* mu, const double* lambda,
                                      const double* v) {
  double worst = 0;
  for (int i = 0; i < nc; i++) {
    const double *l = lambda + 3 * i, *vi = v + 3 * i;
    double e = kind == CS_PGS_LCP   ? box_contact_residual(l, vi, mu[i])
               : kind == CS_PGS_CCP ? ccp_contact_residual(l, vi, mu[i])
                                    : csi_ncp_contact_residual(l, vi, mu[i]);
    if (e > worst) worst = e;
  }
  return worst;
}

/* Adds column r0 + k of G (leading dimension n, every row) times d[k] (k < cnt) to v, plus
   the compliance. A symmetric G (every G the simulator builds) is read by rows,
   contiguous; a general one (FCLIB files can be asymmetric) by columns. */
static CSI_INLINE void pgs_apply(const csContactProblem* p, int sym, int n, int r0, const double* d,
                                 int cnt, double* v) {
  for (int k = 0; k < cnt; k++) {
    if (d[k] == 0) continue;
    if (sym) {
      const double* Gr = p->G + (size_t)(r0 + k) * (size_t)n;
      for (int c = 0; c < n; c++) v[c] += Gr[c] * d[k];
    } else {
      const double* Gc = p->G + r0 + k;
      for (int c = 0; c < n; c++) v[c] += Gc[(size_t)c * n] * d[k];
    }
    if (p->R) v[r0 + k] += p->R[r0 + k] * d[k];
  }
}

/* One contact of an NCP-PGS or RaiSim sweep: normal step with clamp, then tangential step
   onto the disk. Returns |Delta lambda_i|. */
static CSI_INLINE double pgs_contact_disk(const csContactProblem* p, int sym, int n, int i,
                                          double omega, const double* inv, double* l, double* v) {
  int r0 = 3 * i;
  const double* G = p->G;
  const double* R = p->R;
  double ln = l[0] - omega * v[r0] * inv[0];
  if (ln < 0) ln = 0;
  double dn = ln - l[0];
  if (dn != 0) {
    pgs_apply(p, sym, n, r0, &dn, 1, v);
    l[0] = ln;
  }
  double t1 = l[1] - omega * v[r0 + 1] * inv[1];
  double t2 = l[2] - omega * v[r0 + 2] * inv[1];
  double rad = p->mu[i] * l[0];
  double nt = sqrt(t1 * t1 + t2 * t2);
  if (nt > rad) {
    double s = nt > 0 ? rad / nt : 0;
    t1 *= s, t2 *= s;
  }
  double d1 = t1 - l[1], d2 = t2 - l[2];
  if (d1 != 0 || d2 != 0) {
    if (sym) {
      const double* G1 = G + (size_t)(r0 + 1) * n;
      const double* G2 = G + (size_t)(r0 + 2) * n;
      for (int c = 0; c < n; c++) v[c] += G1[c] * d1 + G2[c] * d2;
    } else {
      for (int c = 0; c < n; c++) {
        const double* Gc = G + (size_t)c * n + r0;
        v[c] += Gc[1] * d1 + Gc[2] * d2;
      }
    }
    if (R) v[r0 + 1] += R[r0 + 1] * d1, v[r0 + 2] += R[r0 + 2] * d2;
    l[1] = t1, l[2] = t2;
  }
  return sqrt(dn * dn + d1 * d1 + d2 * d2);
}

/* One contact of an LCP-PGS sweep: exact coordinate steps, normal first, then each friction
   row clamped to the box of the new lambda_N. Returns |Delta lambda_i|. */
static CSI_INLINE double pgs_contact_box(const csContactProblem* p, int sym, int n, int i,
                                         const double* inv, double omega, double* l, double* v) {
  int r0 = 3 * i;
  double d[3] = {0, 0, 0};
  double ln = l[0] - omega * v[r0] * inv[0];
  if (ln < 0) ln = 0;
  d[0] = ln - l[0];
  l[0] = ln;
  pgs_apply(p, sym, n, r0, d, 1, v);
  double b = p->mu[i] > 0 ? p->mu[i] * ln : 0;
  for (int k = 1; k < 3; k++) {
    double t = clamp(l[k] - omega * v[r0 + k] * inv[k], -b, b);
    double dk[1] = {t - l[k]};
    d[k] = dk[0];
    l[k] = t;
    pgs_apply(p, sym, n, r0 + k, dk, 1, v);
  }
  return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* One contact of a CCP-PGS sweep: lambda_i <- P_K(lambda_i - omega 3/trace(G_ii) v_i).
   Returns |Delta lambda_i|. */
static CSI_INLINE double pgs_contact_ccp(const csContactProblem* p, int sym, int n, int i,
                                         double step, double* l, double* v) {
  int r0 = 3 * i;
  double x[3] = {l[0] - step * v[r0], l[1] - step * v[r0 + 1], l[2] - step * v[r0 + 2]};
  csi_project_cone(x, p->mu[i], x);
  double d[3] = {x[0] - l[0], x[1] - l[1], x[2] - l[2]};
  l[0] = x[0], l[1] = x[1], l[2] = x[2];
  pgs_apply(p, sym, n, r0, d, 3, v);
  return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* Contact i's warm start brought into its model's set (the frames may have moved) and its
   steps s[0..2] (see the kinds in the header); n is G's leading dimension. */
static CSI_INLINE void pgs_contact_setup(int kind, const csContactProblem* p, int n, int i,
                                         double omega, double* l, double* s) {
  const double* G = p->G;
  const double* R = p->R;
  if (kind == CS_PGS_LCP) {
    if (l[0] < 0) l[0] = 0;
    double b = p->mu[i] > 0 ? p->mu[i] * l[0] : 0;
    l[1] = clamp(l[1], -b, b), l[2] = clamp(l[2], -b, b);
  } else {
    csi_project_cone(l, p->mu[i], l);
  }
  double gd[3];
  for (int k = 0; k < 3; k++) gd[k] = G[(3 * i + k) * n + 3 * i + k] + (R ? R[3 * i + k] : 0);
  double gt = gd[1] > gd[2] ? gd[1] : gd[2];
  s[0] = s[1] = s[2] = 0;
  /* A zero diagonal (a contact that cannot move, e.g. on a welded body) gets no step. */
  switch (kind) {
    case CS_PGS_NCP:
      s[0] = gd[0] > 0 ? 1.0 / gd[0] : 0;
      s[1] = gt > 0 ? 1.0 / gt : 0;
      break;
    case CS_PGS_RAISIM:
      s[0] = gd[0] > 0 ? CS_RAISIM_ALPHA / gd[0] : 0;
      s[1] = gt > 0 ? CS_RAISIM_ALPHA / gt : 0;
      break;
    case CS_PGS_LCP:
      for (int k = 0; k < 3; k++) s[k] = gd[k] > 0 ? 1.0 / gd[k] : 0;
      break;
    default: {
      double tr = gd[0] + gd[1] + gd[2];
      s[0] = tr > 0 ? omega * 3.0 / tr : 0;
      /* the safe step of the divergence restart in pgs_run: 1 / (a Gershgorin bound on the
         largest eigenvalue of G_ii + R_i) */
      double bound = 0;
      for (int a = 0; a < 3; a++) {
        double row = R ? R[3 * i + a] : 0;
        for (int b = 0; b < 3; b++) row += fabs(G[(3 * i + a) * n + 3 * i + b]);
        bound = fmax(bound, row);
      }
      s[1] = bound > 0 ? omega / bound : 0;
    }
  }
}

/* One sweep: every contact in turn, then (if any) one exact Gauss-Seidel pass over the
   blocks with the same over-relaxation (every kind, pgs_raisim included: a block's step is
   exact, so paper 001's alpha, which tempers the contacts' approximate steps, is not
   applied to it). Returns the sum of the updates' magnitudes. */
static CSI_INLINE double pgs_sweep(int kind, const csContactProblem* p, int sym, int n,
                                   double omega, int safe, const double* inv, double* lambda,
                                   double* v) {
  double moved = 0;
  for (int i = 0, nc = p->nc; i < nc; i++) {
    double* l = lambda + 3 * i;
    const double* s = inv + 3 * i;
    switch (kind) {
      case CS_PGS_LCP:
        moved += pgs_contact_box(p, sym, n, i, s, omega, l, v);
        break;
      case CS_PGS_CCP:
        moved += pgs_contact_ccp(p, sym, n, i, s[safe], l, v);
        break;
      default:
        moved += pgs_contact_disk(p, sym, n, i, omega, s, l, v);
    }
  }
  if (p->nblock) moved += csi_blocks_gs(p, lambda, v, omega);
  return moved;
}

/* The stop residual after a sweep that moved the impulses by moved in all. RaiSim: paper
   001 section IV, "the sum of the magnitudes of the impulse updates and the norms of the
   penetration velocities" -- here sum_i |Delta lambda_i| over the sweep (N s) plus sum_i
   max(0, -v_N,i) (m/s), compared with the tolerance as the paper does ("1 uNs or um/s").
   The impulse part makes it partly a step test, but an absolute one, and the penetration
   part is a true violation. The other kinds: the largest contact residual of their model.
   The blocks' residual is added to RaiSim's sum and taken into the others' maximum. */
static CSI_INLINE double pgs_stop(int kind, const csContactProblem* p, double moved,
                                  const double* lambda, const double* v) {
  double res;
  if (kind == CS_PGS_RAISIM) {
    double pen = 0;
    for (int i = 0; i < p->nc; i++) pen += v[3 * i] < 0 ? -v[3 * i] : 0;
    res = moved + pen;
    if (p->nblock) res += csi_blocks_residual(p, lambda, v);
  } else {
    res = pgs_residual(kind, p->nc, p->mu, lambda, v);
    if (p->nblock) {
      double eb = csi_blocks_residual(p, lambda, v);
      if (!(eb <= res)) res = eb;
    }
  }
  return res;
}

CSI_HOT static csStatus pgs_run(int kind, const char* name, const csContactProblem* p,
                                const csSolverOptions* opt, void* ws, double* lambda,
                                csSolverStats* st) {
  {
    unsigned mask = 1u << CS_CONE_UNILATERAL | 1u << CS_CONE_BOX | 1u << CS_CONE_FREE;
    csStatus bst = csi_blocks_supported(p, name, mask);
    if (bst != CS_OK) return bst;
  }
  /* n: G's leading dimension and v's length, every row (3 nc without blocks) */
  int nc = p->nc, n = p->nblock ? cs_problem_rows(p) : 3 * nc;
  double* v = ws;      /* (n) */
  double* inv = v + n; /* (3nc) steps per contact: see pgs_contact_setup */
  double omega = opt->omega > 0 && opt->omega < 2 ? opt->omega : 1.0;
  int sym = csi_is_symmetric(n, p->G);
  memset(st, 0, sizeof *st);
  if (!opt->warmstart) memset(lambda, 0, sizeof(double) * (size_t)n);
  for (int i = 0; i < nc; i++) pgs_contact_setup(kind, p, n, i, omega, lambda + 3 * i, inv + 3 * i);
  if (p->nblock) csi_blocks_project(p, lambda);
  double* start = inv + 3 * nc; /* (n) */
  memcpy(start, lambda, sizeof(double) * (size_t)n);
  csi_solver_velocity(p, lambda, v);
  /* At least one sweep, even when the warm start already meets the tolerance: the stop
     residuals are absolute, and with small impulses (light bodies, short steps) a warm start
     can pass them while leaving a sliding velocity of ~tol / lambda at a sticking contact,
     which then accumulates step after step (a pushed cube creeps before mu m g is
     reached). */
  double res = INFINITY, res_first = INFINITY, res_best = INFINITY;
  int it = 0, stalled = 0, safe = 0;
  while (it < 1 || (res > opt->tolerance && it < opt->iterations && !stalled)) {
    double moved = pgs_sweep(kind, p, sym, n, omega, safe, inv, lambda, v);
    it++;
    res = pgs_stop(kind, p, moved, lambda, v);
    stalled = moved == 0;
    if (it == 1) res_first = res;
    if (res < res_best) res_best = res;
    /* CCP-PGS's block step 3 / trace(G_ii) exceeds 2 / lambda_max(G_ii) when G_ii is far
       from isotropic (the feet of a legged robot): the sweep then oscillates on a 2-cycle
       (ANYmal landing: residual 2.6, 7.5, ... 8.5 for ever) or diverges, and the simulation
       blows up within a few steps. If the residual reaches 10 times its best (or
       overflows), or after CS_PGS_PROBE sweeps the best has not halved the first, the
       solve restarts from its start with the safe steps 1 / (Gershgorin bound of
       lambda_max), once. */
    if (kind == CS_PGS_CCP && !safe &&
        (!isfinite(res) || res > 10 * res_best ||
         (it >= CS_PGS_PROBE && res_best > 0.5 * res_first))) {
      safe = 1;
      memcpy(lambda, start, sizeof(double) * (size_t)n);
      csi_solver_velocity(p, lambda, v);
      res = INFINITY, stalled = 0;
    }
  }
  st->iterations = it;
  st->residual = res;
  st->converged = res <= opt->tolerance;
  csi_ncp_report_v(p, lambda, v, &st->ncp); /* v is up to date */
  return CS_OK;
}

/* NCP-PGS. Stop: eps_abs = max_i max(dist(lambda_i, K), dist(v~_i, K*), |<lambda_i, v~_i>|)
   <= tolerance (docs/solvers.md: NCP solvers stop on eps_abs). */
static csStatus ncp_pgs_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                              double* lambda, csSolverStats* st) {
  return pgs_run(CS_PGS_NCP, "ncp_pgs", p, opt, ws, lambda, st);
}

/* LCP-PGS. Stop: the box LCP residual max_i csi_box_contact_residual <= tolerance. */
static csStatus lcp_pgs_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                              double* lambda, csSolverStats* st) {
  return pgs_run(CS_PGS_LCP, "lcp_pgs", p, opt, ws, lambda, st);
}

/* CCP-PGS. Stop: the CCP natural-map residual max_i |lambda_i - P_K(lambda_i - v_i)|
   <= tolerance. */
static csStatus ccp_pgs_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                              double* lambda, csSolverStats* st) {
  return pgs_run(CS_PGS_CCP, "ccp_pgs", p, opt, ws, lambda, st);
}

/* Paper 001's PGS. Stop: sum_i |Delta lambda_i| + sum_i max(0, -v_N,i) <= tolerance. */
static csStatus raisim_pgs_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                                 double* lambda, csSolverStats* st) {
  return pgs_run(CS_PGS_RAISIM, "pgs_raisim", p, opt, ws, lambda, st);
}

const csSolver cs_solver_ncp_pgs = {"ncp_pgs", pgs_workspace, ncp_pgs_solve};
const csSolver cs_solver_lcp_pgs = {"lcp_pgs", pgs_workspace, lcp_pgs_solve};
const csSolver cs_solver_ccp_pgs = {"ccp_pgs", pgs_workspace, ccp_pgs_solve};
const csSolver cs_solver_pgs_raisim = {"pgs_raisim", pgs_workspace, raisim_pgs_solve};
