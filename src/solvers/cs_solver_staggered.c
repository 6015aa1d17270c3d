/* Staggered projections (paper 002 Alg. 6; Kaufman et al.): the NCP as two interleaved
   convex QPs, a fixed point between them.
     normal QP      lambda_N = argmin_{x >= 0} 1/2 x^T (G_NN + R_N) x + (g_N + G_NT lambda_T)^T x
     tangential QP  lambda_T = argmin_{|y_i| <= mu_i lambda_N,i}
                                           1/2 y^T (G_TT + R_T) y + (g_T + G_TN lambda_N)^T y
   The normal QP is Signorini for the current friction, the tangential one is maximal
   dissipation in the disks of the current normal impulses, so a fixed point is an NCP
   solution (Signorini, Coulomb and MDP). There is no convergence guarantee; in practice a
   handful of outer loops (~5) suffice, and the cap is opt->iterations outer loops.

   Blocks (unilateral, box, free; cs_block.h) all join the normal QP: its unknowns are the
   contacts' normal impulses, then the blocks' rows in order, its set the orthant times
   the blocks' sets (R+ for a unilateral row, [-f, f] for a box row, R^n for a free block),
   projected row by row. Their sets are fixed (unlike the disks, whose radii follow
   lambda_N), so the normal QP is the problem's KKT for every row but the tangents given
   the friction, and a fixed point still solves the whole NCP. With frictionless contacts
   (or none) the tangential QP has zero radii (or no rows) and the normal QP is the whole
   problem, a convex QP: the outer loops then only tighten its inner tolerance (4 to 9 of
   them at tolerance 1e-10 on test_solver_blocks' problems). With friction the two QPs
   alternate as for contacts alone (45 to 65 outer loops there at 1e-9). A box row could
   as well join the tangential QP, being a friction bound of its own, but there it would
   add a coupling for the outer loop to resolve, even without friction.

   Each QP is solved by a small ADMM (the iteration of ccp_admm, with the orthant times the
   blocks' sets or the product of disks as the set) to max(0.1 tol, 0.01 res), res the
   outer residual: inexact while the two QPs still disagree, to 0.1 tol at the end (on
   FCLIB's Capsules this cut the time of 100 outer loops from 100 s to 3 s at the same
   accuracy). The two sub-blocks of G are factored once (Cholesky in the workspace; LU if FCLIB gave
   an asymmetric W) and again only when the rho rule of ccp_admm changes rho, and the inner duals
   are carried from one outer loop to the next, so later QPs start almost solved. Inner stop: primal
   |x - z| and dual |A x + b + gamma| below the inner tolerance, a KKT test of the QP (see
   cs_solver_admm.c); inner cap CS_STAG_INNER iterations.

   Stop: eps_abs (the NCP residual, docs/solvers.md; the blocks' residual included) of
   lambda with v = G lambda + g (computed by a full product after each outer loop) <=
   tolerance. stats.iterations counts outer loops. */
#include <math.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "constraint/cs_contact_cone.h"
#include "solvers/cs_solver.h"

enum { CS_STAG_INNER = 200 };

/* One inner QP: min 1/2 x^T A x + b^T x over x in C, A a sub-block of G + R (rows
   stag_row(k)), C the orthant times the blocks' sets (normal) or a product of disks
   (tangential). */
typedef struct StagQP {
  int n;                         /* size */
  int nc;                        /* contacts */
  int ld;                        /* G's leading dimension: every row of the problem */
  int tangent;                   /* 0: rows 3i (x >= 0), then the blocks' rows; 1: rows
                                    3i+1, 3i+2, disks */
  int sym;                       /* the sub-block is symmetric: Cholesky, else LU */
  double* L;                     /* factor of A + rho I (n x n) */
  double* dinv;                  /* (n) the Cholesky factor's reciprocal diagonal */
  int* piv;                      /* (n) LU row swaps */
  int since;                     /* inner iterations since the last factorization */
  double *x, *z, *gam, *rhs, *b; /* (n) */
  double rho, factor, rho_min, rho_max;
} StagQP;

/* The problem's row of the QP's unknown k: the blocks' rows follow the contacts' in the
   normal QP, as they follow them in the problem (row 3 nc + (k - nc)). */
static int stag_row(const StagQP* q, int k) {
  if (q->tangent) return 3 * (k / 2) + 1 + (k % 2);
  return k < q->nc ? 3 * k : 2 * q->nc + k;
}

/* L = A (+ rho I when rho > 0): the sub-block gathered from G and R. */
static void stag_gather(const csContactProblem* p, const StagQP* q, double rho) {
  for (int a = 0; a < q->n; a++) {
    const double* Gr = p->G + (size_t)stag_row(q, a) * (size_t)q->ld;
    double* La = q->L + (size_t)a * (size_t)q->n;
    for (int c = 0; c < q->n; c++) La[c] = Gr[stag_row(q, c)];
    La[a] += rho + (p->R ? p->R[stag_row(q, a)] : 0);
  }
}

/* Factors A + rho I, raising rho when rounding makes a singular A fail. 0 if it cannot. */
static int stag_factor(const csContactProblem* p, StagQP* q, double rho) {
  for (int attempt = 0; attempt < 40; attempt++, rho *= 10) {
    stag_gather(p, q, rho);
    if (q->sym ? csi_cholesky(q->n, q->L, q->dinv) : csi_lu(q->n, q->L, q->piv)) {
      q->rho = rho;
      q->since = 0;
      return 1;
    }
  }
  return 0;
}

/* rho from the sub-block's spectrum (the rule of ccp_admm), then the factor. */
static int stag_setup(const csContactProblem* p, StagQP* q, double* tmp) {
  double m = INFINITY;
  for (int k = 0; k < q->n && p->R; k++) m = fmin(m, p->R[stag_row(q, k)]);
  m = (isfinite(m) && m > 0 ? m : 0) + 1e-6;
  stag_gather(p, q, 0);
  q->sym = csi_is_symmetric(q->n, q->L);
  double L = csi_power_iteration(q->n, q->L, NULL, tmp, 50);
  if (!(L > m)) L = m;
  q->factor = pow(L / m, 0.05);
  q->rho_min = 1e-12 * L;
  q->rho_max = 1e6 * L;
  return stag_factor(p, q, sqrt(L * m) * pow(L / m, 0.2));
}

/* z <- P_C(w) for the QP's set; rad (nc) the disk radii of the tangential QP. */
static void stag_project(const csContactProblem* p, const StagQP* q, const double* rad,
                         const double* w, double* z) {
  if (!q->tangent) {
    for (int k = 0; k < q->nc; k++) z[k] = w[k] > 0 ? w[k] : 0;
    for (int j = 0; j < p->nblock; j++) {
      const csBlock* b = p->block + j;
      for (int r = 0, k = b->row - 2 * q->nc; r < b->n; r++, k++)
        z[k] = csi_block_project1(b->type, b->bound, w[k]);
    }
    return;
  }
  for (int i = 0; i < q->n / 2; i++) {
    double t1 = w[2 * i], t2 = w[2 * i + 1], r = rad[i] > 0 ? rad[i] : 0;
    double nt = sqrt(t1 * t1 + t2 * t2);
    double s = nt > r ? r / nt : 1.0;
    z[2 * i] = t1 * s, z[2 * i + 1] = t2 * s;
  }
}

/* Inner ADMM from the current x, z, gamma. Returns 1 if its KKT test passed. */
static int stag_solve(const csContactProblem* p, StagQP* q, const double* rad, double tol) {
  int n = q->n;
  for (int it = 0; it < CS_STAG_INNER; it++) {
    for (int k = 0; k < n; k++) q->rhs[k] = -q->b[k] + q->rho * q->z[k] - q->gam[k];
    memcpy(q->x, q->rhs, sizeof(double) * (size_t)n);
    if (q->sym)
      csi_cholesky_solve(n, q->L, q->dinv, q->x);
    else
      csi_lu_solve(n, q->L, q->piv, q->x);
    q->since++;
    /* w = x + gamma / rho, kept in rhs after A x + b = rhs - rho x + b is used */
    double rp = 0, rd = 0;
    for (int k = 0; k < n; k++) {
      double u = q->rhs[k] - q->rho * q->x[k] + q->b[k];
      q->rhs[k] = u; /* A x + b */
    }
    for (int k = 0; k < n; k++) q->z[k] = q->x[k] + q->gam[k] / q->rho;
    stag_project(p, q, rad, q->z, q->z);
    for (int k = 0; k < n; k++) {
      q->gam[k] += q->rho * (q->x[k] - q->z[k]);
      rp = fmax(rp, fabs(q->x[k] - q->z[k]));
      rd = fmax(rd, fabs(q->rhs[k] + q->gam[k]));
    }
    if (!isfinite(rp) || !isfinite(rd)) return 0;
    if (rp <= tol && rd <= tol) return 1;
    double nrho = q->rho;
    if (rp > 10 * rd)
      nrho = fmin(q->rho * q->factor, q->rho_max);
    else if (rd > 10 * rp)
      nrho = fmax(q->rho / q->factor, q->rho_min);
    /* refactor no more often than every n/12 iterations (n/3 for LU): see ccp_admm */
    int every = q->sym ? n / 12 : n / 3;
    if (q->since < every) nrho = q->rho;
    if (nrho != q->rho) {
      double old = q->rho;
      if (!stag_factor(p, q, nrho) && !stag_factor(p, q, old)) return 0;
    }
  }
  return 0;
}

static size_t stag_workspace(const csContactProblem* p, const csSolverOptions* opt) {
  (void)opt;
  size_t c = (size_t)p->nc, nrow = (size_t)cs_problem_rows(p);
  size_t m = nrow - 2 * c, t = 2 * c, big = m > t ? m : t; /* the two QPs' sizes */
  /* factors m^2 + t^2; v nrow; per QP x z gamma rhs b (5m + 5t); radii nc; power iteration
     2 max(m, t); the factors' reciprocal diagonals m + t; LU row swaps m + t ints */
  return sizeof(double) * (m * m + t * t + nrow + 5 * (m + t) + c + 2 * big + (m + t)) +
         sizeof(int) * (m + t) + 128;
}

static double stag_residual(const csContactProblem* p, const double* lambda, const double* v) {
  double worst = 0;
  for (int i = 0; i < p->nc; i++) {
    double e = csi_ncp_contact_residual(lambda + 3 * i, v + 3 * i, p->mu[i]);
    if (!(e <= worst)) worst = e;
  }
  if (p->nblock) {
    double e = csi_blocks_residual(p, lambda, v);
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

/* The two QPs' arrays carved from the workspace (sizes as in stag_workspace); returns v. */
static double* stag_layout(const csContactProblem* p, int nrow, void* ws, StagQP* qn, StagQP* qt,
                           double** rad, double** tmp) {
  int nc = p->nc;
  double* w = ws;
  memset(qn, 0, sizeof *qn);
  memset(qt, 0, sizeof *qt);
  qn->n = nrow - 2 * nc, qt->n = 2 * nc, qt->tangent = 1;
  qn->nc = qt->nc = nc, qn->ld = qt->ld = nrow;
  qn->L = w, w += (size_t)qn->n * qn->n;
  qt->L = w, w += (size_t)qt->n * qt->n;
  double* v = w;
  w += nrow;
  StagQP* qs[2] = {qn, qt};
  for (int k = 0; k < 2; k++) {
    int m = qs[k]->n;
    qs[k]->x = w, qs[k]->z = w + m, qs[k]->gam = w + 2 * m, qs[k]->rhs = w + 3 * m;
    qs[k]->b = w + 4 * m;
    w += 5 * m;
  }
  qn->dinv = w, qt->dinv = w + qn->n;
  w += qn->n + qt->n;
  *rad = w;
  *tmp = w + nc; /* 2 max(m, t) */
  qn->piv = (int*)(*tmp + 2 * (qn->n > qt->n ? qn->n : qt->n));
  qt->piv = qn->piv + qn->n;
  return v;
}

/* Inner warm start: x = z = lambda's rows; duals from the velocity where the start is on
   the boundary of its set (the KKT multiplier -v projected onto the set's normal cone, as
   it would be at a solution). */
static void stag_warm(const csContactProblem* p, const double* lambda, const double* v, StagQP* qn,
                      StagQP* qt) {
  for (int i = 0; i < p->nc; i++) {
    const double* l = lambda + 3 * i;
    const double* vi = v + 3 * i;
    qn->x[i] = qn->z[i] = l[0];
    qn->gam[i] = l[0] > 0 ? 0 : -fmax(vi[0], 0);
    double nt = hypot(l[1], l[2]);
    double push = nt > 0 ? -(vi[1] * l[1] + vi[2] * l[2]) / nt : 0;
    int on = nt > 0 && nt >= p->mu[i] * l[0] * (1 - 1e-12) && push > 0;
    for (int k = 0; k < 2; k++) {
      qt->x[2 * i + k] = qt->z[2 * i + k] = l[1 + k];
      qt->gam[2 * i + k] = on ? push * l[1 + k] / nt : 0;
    }
  }
  for (int j = 0; j < p->nblock; j++) {
    const csBlock* b = p->block + j;
    for (int r = 0; r < b->n; r++) {
      int k = b->row + r - 2 * p->nc;
      double l = lambda[b->row + r], vr = v[b->row + r], f = b->bound, gam = 0;
      if (b->type == CS_CONE_UNILATERAL) gam = l > 0 ? 0 : -fmax(vr, 0);
      if (b->type == CS_CONE_BOX) /* both terms at f = 0: gamma = -v */
        gam = (l >= f ? fmax(-vr, 0) : 0) + (l <= -f ? fmin(-vr, 0) : 0);
      qn->x[k] = qn->z[k] = l;
      qn->gam[k] = gam;
    }
  }
}

/* b of the normal QP: g + G lambda over the tangential columns, for each of its rows. */
static void stag_rhs_normal(const csContactProblem* p, const double* lambda, StagQP* qn) {
  for (int k = 0; k < qn->n; k++) {
    int r = stag_row(qn, k);
    const double* Gr = p->G + (size_t)r * qn->ld;
    double s = p->g[r];
    for (int j = 0; j < qn->nc; j++)
      s += Gr[3 * j + 1] * lambda[3 * j + 1] + Gr[3 * j + 2] * lambda[3 * j + 2];
    qn->b[k] = s;
  }
}

/* b of the tangential QP: g + G lambda over the normal columns and the blocks'. */
static void stag_rhs_tangent(const csContactProblem* p, const double* lambda, StagQP* qt) {
  for (int k = 0; k < qt->n; k++) {
    int r = stag_row(qt, k);
    const double* Gr = p->G + (size_t)r * qt->ld;
    double s = p->g[r];
    for (int j = 0; j < qt->nc; j++) s += Gr[3 * j] * lambda[3 * j];
    for (int c = 3 * qt->nc; c < qt->ld; c++) s += Gr[c] * lambda[c];
    qt->b[k] = s;
  }
}

static csStatus stag_run(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                         double* lambda, csSolverStats* st) {
  {
    unsigned mask = 1u << CS_CONE_UNILATERAL | 1u << CS_CONE_BOX | 1u << CS_CONE_FREE;
    csStatus bst = csi_blocks_supported(p, "staggered", mask);
    if (bst != CS_OK) return bst;
  }
  int nc = p->nc, nrow = p->nblock ? cs_problem_rows(p) : 3 * nc;
  StagQP qn, qt;
  double *rad, *tmp;
  double* v = stag_layout(p, nrow, ws, &qn, &qt, &rad, &tmp);
  double tol = opt->tolerance, tin = 0.1 * opt->tolerance;
  memset(st, 0, sizeof *st);
  if (!opt->warmstart) memset(lambda, 0, sizeof(double) * (size_t)nrow);
  for (int i = 0; i < nc; i++) csi_project_cone(lambda + 3 * i, p->mu[i], lambda + 3 * i);
  if (p->nblock) csi_blocks_project(p, lambda);
  if (!stag_setup(p, &qn, tmp) || !stag_setup(p, &qt, tmp)) {
    st->residual = INFINITY;
    cs_ncp_report(p, lambda, &st->ncp);
    return CS_OK;
  }
  csi_solver_velocity(p, lambda, v);
  stag_warm(p, lambda, v, &qn, &qt);
  double res = stag_residual(p, lambda, v);
  int it = 0;
  /* at least one outer loop: see cs_solver_pgs.c on warm starts that pass an absolute test */
  while (it < 1 || (res > tol && it < opt->iterations)) {
    /* Inexact QPs while the outer residual is large: each to max(0.1 tol, 0.01 res) -- a
       QP solved far below the mismatch between the two QPs is wasted work */
    tin = fmax(0.1 * tol, 0.01 * res);
    stag_rhs_normal(p, lambda, &qn);
    stag_solve(p, &qn, NULL, tin);
    for (int k = 0; k < qn.n; k++) lambda[stag_row(&qn, k)] = qn.z[k]; /* z: exactly feasible */
    for (int i = 0; i < nc; i++) rad[i] = (p->mu[i] > 0 ? p->mu[i] : 0) * qn.z[i];
    /* tangential QP in the disks of the new lambda_N */
    stag_rhs_tangent(p, lambda, &qt);
    /* the radii changed: bring z into the new disks before iterating */
    stag_project(p, &qt, rad, qt.z, qt.z);
    stag_solve(p, &qt, rad, tin);
    for (int i = 0; i < nc; i++)
      lambda[3 * i + 1] = qt.z[2 * i], lambda[3 * i + 2] = qt.z[2 * i + 1];
    it++;
    csi_solver_velocity(p, lambda, v);
    res = stag_residual(p, lambda, v);
    if (!isfinite(res)) break;
  }
  st->iterations = it;
  st->residual = res;
  st->converged = res <= tol;
  cs_ncp_report(p, lambda, &st->ncp);
  return CS_OK;
}

const csSolver cs_solver_staggered = {"staggered", stag_workspace, stag_run};
