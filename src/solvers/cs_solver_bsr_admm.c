/* ncp_admm on a block-sparse island (docs/solvers.md, "Block-sparse islands").

   The iteration of cs_solver_admm.c (paper 002 Alg. 3 with de Saxce's shift, omega = 1):
     (G + R + rho I) lambda = -(g + s) + rho z - gamma
     z = P_K(lambda + gamma / rho),  gamma += rho (lambda - z),  s = mu |v_T(z)|
   with the same shift, start dual and stop test (the NCP residual of z with its velocity
   G z + g, kernels shared with the dense solver). The linear solve is a warm-started
   conjugate gradient on the blocks, preconditioned by the inverses of the diagonal blocks:
   G + R + rho I is symmetric positive definite, the products cost one pass over the
   blocks, rho's adaptation costs nothing (no factor to redo), and it needs five vectors of
   3 nc where a sparse Cholesky factor of a bin's grid-like pattern would need room for its
   fill, known only after an ordering. Each solve starts from the last lambda and stops at a
   tenth of the tolerance or after CG_MAX iterations. Not the dense solver's active-set step,
   restart and polish. */
#include "solvers/cs_solver_bsr_admm.h"

#include <math.h>
#include <string.h>

#include "constraint/cs_contact_cone.h"
#include "math/cs_math.h"
#include "solvers/cs_solver.h"
#include "solvers/cs_solver_bsr.h"

/* Conjugate gradient iterations per solve at most: the solve is warm-started from the last
   lambda, and an inexact one is corrected by the next ADMM iteration */
#define CG_MAX 25

typedef struct {
  const csContactProblem* q;
  const csIsland* I;
  int n; /* 3 nc */
  double rho, factor, tol;
  double rho_min, rho_max; /* rho's range: 1e-12 and 1e6 times G's largest eigenvalue */
  double *z, *gam, *s, *v, *rhs, *r, *p, *Ap, *y, *best, *Dinv;
} Bad;

size_t csi_bsr_admm_bytes(int nc, const csSolverOptions* opt) {
  (void)opt;
  return sizeof(double) * (3 * 10 + 9) * (size_t)nc + 64;
}

static void bad_layout(Bad* a, void* ws, int nc) {
  size_t n = 3 * (size_t)nc;
  a->z = (double*)ws;
  a->gam = a->z + n, a->s = a->gam + n, a->v = a->s + n, a->rhs = a->v + n;
  a->r = a->rhs + n, a->p = a->r + n, a->Ap = a->p + n, a->y = a->Ap + n, a->best = a->y + n;
  a->Dinv = a->best + n;
}

/* y = (G + R + rho I) x */
static void bad_apply(const Bad* a, const double* x, double* y) {
  const csIsland* I = a->I;
  for (int b = 0; b < I->nc; b++) {
    double s0 = 0, s1 = 0, s2 = 0;
    for (int k = I->couple_ptr[b]; k < I->couple_ptr[b + 1]; k++) {
      const double* B = I->G + 9 * (size_t)k;
      const double* l = x + 3 * I->couple_col[k];
      s0 += B[0] * l[0] + B[1] * l[1] + B[2] * l[2];
      s1 += B[3] * l[0] + B[4] * l[1] + B[5] * l[2];
      s2 += B[6] * l[0] + B[7] * l[1] + B[8] * l[2];
    }
    y[3 * b] = s0, y[3 * b + 1] = s1, y[3 * b + 2] = s2;
  }
  for (int r = 0; r < a->n; r++) y[r] += (a->q->R ? a->q->R[r] : 0) * x[r] + a->rho * x[r];
}

/* The preconditioner: the inverse of each diagonal block of G + R + rho I (symmetric) */
static void bad_precond(Bad* a) {
  const csIsland* I = a->I;
  for (int b = 0; b < I->nc; b++) {
    double M[9];
    memcpy(M, I->G + 9 * (size_t)csi_bsr_diag(I, b), sizeof M);
    for (int r = 0; r < 3; r++) M[4 * r] += a->rho + (a->q->R ? a->q->R[3 * b + r] : 0);
    double* D = a->Dinv + 9 * (size_t)b;
    D[0] = M[4] * M[8] - M[5] * M[7], D[1] = M[2] * M[7] - M[1] * M[8];
    D[2] = M[1] * M[5] - M[2] * M[4], D[4] = M[0] * M[8] - M[2] * M[6];
    D[5] = M[2] * M[3] - M[0] * M[5], D[8] = M[0] * M[4] - M[1] * M[3];
    D[3] = D[1], D[6] = D[2], D[7] = D[5];
    double det = M[0] * D[0] + M[1] * D[3] + M[2] * D[6];
    for (int k = 0; k < 9; k++) D[k] /= det;
  }
}

static void bad_precond_apply(const Bad* a, const double* r, double* y) {
  for (int b = 0; b < a->I->nc; b++) {
    const double* D = a->Dinv + 9 * (size_t)b;
    const double* x = r + 3 * b;
    for (int k = 0; k < 3; k++)
      y[3 * b + k] = D[3 * k] * x[0] + D[3 * k + 1] * x[1] + D[3 * k + 2] * x[2];
  }
}

static double dot(int n, const double* x, const double* y) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

static double norm_inf(int n, const double* x) {
  double m = 0;
  for (int i = 0; i < n; i++) m = csi_max(m, fabs(x[i]));
  return m;
}

/* (G + R + rho I) x = rhs by preconditioned CG from x (warm start), to |r|_inf <= ctol; on
   return r = rhs - (G + R + rho I) x. */
static void bad_cg(Bad* a, double* x, double ctol) {
  int n = a->n, cap = CG_MAX;
  bad_apply(a, x, a->Ap);
  for (int i = 0; i < n; i++) a->r[i] = a->rhs[i] - a->Ap[i];
  if (norm_inf(n, a->r) <= ctol) return;
  bad_precond_apply(a, a->r, a->y);
  memcpy(a->p, a->y, sizeof(double) * (size_t)n);
  double ry = dot(n, a->r, a->y);
  for (int it = 0; it < cap && ry > 0; it++) {
    bad_apply(a, a->p, a->Ap);
    double pAp = dot(n, a->p, a->Ap);
    if (!(pAp > 0)) break;
    double al = ry / pAp;
    for (int i = 0; i < n; i++) x[i] += al * a->p[i], a->r[i] -= al * a->Ap[i];
    if (norm_inf(n, a->r) <= ctol) break;
    bad_precond_apply(a, a->r, a->y);
    double ry2 = dot(n, a->r, a->y);
    for (int i = 0; i < n; i++) a->p[i] = a->y[i] + (ry2 / ry) * a->p[i];
    ry = ry2;
  }
}

/* rho0 as the dense solver's: from the largest eigenvalue of G + R (power iteration, 1 %)
   and the smallest regularisation 1e-6 */
static void bad_rho(Bad* a) {
  int n = a->n;
  double dmax = 0, lam = 0;
  a->rho = 0; /* the product of G + R alone */
  for (int i = 0; i < n; i++) a->y[i] = 1;
  for (int it = 0; it < 50; it++) {
    bad_apply(a, a->y, a->Ap);
    double nx = dot(n, a->y, a->y), xy = dot(n, a->y, a->Ap), ny = dot(n, a->Ap, a->Ap);
    if (!(ny > 0) || !(nx > 0) || !isfinite(ny)) break;
    double next = xy / nx, inv = 1.0 / sqrt(ny);
    for (int i = 0; i < n; i++) a->y[i] = a->Ap[i] * inv;
    int close = fabs(next - lam) <= 1e-2 * next;
    lam = next;
    if (it > 0 && close) break;
  }
  for (int b = 0; b < a->I->nc; b++) {
    const double* D = a->I->G + 9 * (size_t)csi_bsr_diag(a->I, b);
    dmax = csi_max(dmax, csi_max(D[0], csi_max(D[4], D[8])));
  }
  double m = 1e-6, L = csi_max(csi_max(lam, dmax), m);
  a->factor = pow(L / m, 0.05);
  a->rho = sqrt(L * m) * pow(L / m, 0.2);
  a->rho_min = 1e-12 * L, a->rho_max = 1e6 * L;
}

/* v = (G + R) x + g */
static void bad_velocity(const Bad* a, const double* x, double* v) {
  csi_bsr_velocity(a->I, a->q->R, a->q->g, x, v);
}

/* The start: z = P_K(lambda), v of lambda, its shift and gamma on K's normal cone at z */
static void bad_start(Bad* a, const double* lambda) {
  const csContactProblem* q = a->q;
  for (int i = 0; i < q->nc; i++) csi_project_cone(lambda + 3 * i, q->mu[i], a->z + 3 * i);
  bad_velocity(a, lambda, a->v);
  csi_admm_shift(1, q->nc, q->mu, a->v, a->z, a->tol, a->s);
  for (int i = 0; i < q->nc; i++) {
    double w[3] = {a->v[3 * i] + a->s[3 * i], a->v[3 * i + 1], a->v[3 * i + 2]};
    csi_admm_normal_dual(a->z + 3 * i, q->mu[i] < 0 ? 0 : q->mu[i], w, a->tol, a->gam + 3 * i);
  }
}

/* One iteration: lambda by CG, z, gamma; the primal and dual residuals */
static void bad_iterate(Bad* a, double* lambda, double* rp, double* rd) {
  const csContactProblem* q = a->q;
  int n = a->n;
  double rho = a->rho;
  for (int r = 0; r < n; r++) a->rhs[r] = -(q->g[r] + a->s[r]) + rho * a->z[r] - a->gam[r];
  bad_cg(a, lambda, 0.1 * a->tol);
  /* v = (G + R) lambda + g = rhs - r - rho lambda + g (r: CG's residual) */
  for (int r = 0; r < n; r++) a->v[r] = a->rhs[r] - a->r[r] - rho * lambda[r] + q->g[r];
  double ep = 0, ed = 0;
  for (int i = 0; i < q->nc; i++) {
    double w[3];
    for (int k = 0; k < 3; k++) w[k] = lambda[3 * i + k] + a->gam[3 * i + k] / rho;
    csi_project_cone(w, q->mu[i], a->z + 3 * i);
    for (int k = 0; k < 3; k++) {
      int r = 3 * i + k;
      a->gam[r] += rho * (lambda[r] - a->z[r]);
      ep = csi_max(ep, fabs(lambda[r] - a->z[r]));
      ed = csi_max(ed, fabs(a->v[r] + a->s[r] + a->gam[r]));
    }
  }
  *rp = ep, *rd = ed;
}

/* rho rule of the dense solver: the primal and dual residuals within a factor 10 */
static void bad_adapt(Bad* a, double rp, double rd) {
  double nrho = a->rho;
  if (rp > 10 * rd)
    nrho = fmin(a->rho * a->factor, a->rho_max);
  else if (rd > 10 * rp)
    nrho = fmax(a->rho / a->factor, a->rho_min);
  if (nrho != a->rho) a->rho = nrho, bad_precond(a);
}

csStatus csi_bsr_admm_solve(const csContactProblem* q, const csIsland* I,
                            const csSolverOptions* opt, void* ws, double* lambda,
                            csSolverStats* st) {
  int nc = q->nc, n = 3 * nc;
  Bad a;
  memset(&a, 0, sizeof a);
  a.q = q, a.I = I, a.n = n, a.tol = opt->tolerance;
  bad_layout(&a, ws, nc);
  memset(st, 0, sizeof *st);
  if (!opt->warmstart) memset(lambda, 0, sizeof(double) * (size_t)n);
  bad_rho(&a);
  bad_precond(&a);
  bad_start(&a, lambda);
  double best = INFINITY, res = INFINITY;
  int it = 0;
  while (it < opt->iterations) {
    double rp, rd;
    bad_iterate(&a, lambda, &rp, &rd);
    it++;
    bad_velocity(&a, a.z, a.y); /* z's own velocity: the stop test's and the shift's */
    res = csi_admm_ncp_residual(nc, q->mu, a.z, a.y);
    if (res < best) best = res, memcpy(a.best, a.z, sizeof(double) * (size_t)n);
    if (res <= a.tol) break;
    csi_admm_shift(1, nc, q->mu, a.v, a.z, a.tol, a.s);
    bad_adapt(&a, rp, rd);
  }
  memcpy(lambda, a.best, sizeof(double) * (size_t)n);
  bad_velocity(&a, lambda, a.v);
  st->iterations = it;
  st->residual = best;
  st->converged = best <= a.tol;
  csi_ncp_report_v(q, lambda, a.v, &st->ncp);
  return CS_OK;
}
