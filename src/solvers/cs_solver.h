/* Solver table internals. */
#ifndef CS_SOLVER_H
#define CS_SOLVER_H

#include "constraint/cs_contact_cone.h"
#include "contactsim/cs_contact.h"

/* Largest workspace over every implemented solver for a problem of shape's sizes (default
   options). */
size_t csi_solver_max_workspace(const csContactProblem* shape);

/* The options the step solves with: the model's iterations, tolerance and fall-back. */
static inline csSolverOptions csi_step_solver_options(const csOption* o) {
  csSolverOptions so = {o->iterations, o->tolerance, 1.0, 1, o->fallback};
  return so;
}

/* Solver entries, one per family file. */
extern const csSolver cs_solver_ncp_pgs;
extern const csSolver cs_solver_bisection;
extern const csSolver cs_solver_bisection_desaxce;
extern const csSolver cs_solver_lcp_pgs;
extern const csSolver cs_solver_ccp_pgs;
extern const csSolver cs_solver_pgs_raisim;
extern const csSolver cs_solver_ccp_admm;
extern const csSolver cs_solver_ncp_admm;
extern const csSolver cs_solver_staggered;
extern const csSolver cs_solver_lemke;
extern const csSolver cs_solver_nsn_ac;
extern const csSolver cs_solver_bisection_paper;

/* Helpers shared by the solver files (cs_solver_pgs.c, cs_solver_admm.c). */
/* v = (G + diag R) lambda + g. */
void csi_solver_velocity(const csContactProblem* p, const double* lambda, double* v);
/* The NCP report (cs_ncp_report) of lambda from its velocity v = (G + diag R) lambda + g as
   the caller has it: a solver that keeps v up to date through its sweeps reports from it
   instead of forming G lambda again (576 products for 8 contacts, a quarter of a resting
   ANYmal solve). It differs from cs_ncp_report by the rounding of v's updates. */
void csi_ncp_report_v(const csContactProblem* p, const double* lambda, const double* v,
                      csNcpReport* r);
/* One contact's residual of each model: NCP max(dist(l, K), dist(v~, K*), |<l, v~>|); CCP
   |l - P_K(l - v)|; box LCP largest componentwise natural-map term. */
static inline double csi_ncp_contact_residual(const double* l, const double* v, double mu) {
  /* inline, |v_T| once for v~ and its distance to K*: it runs every iteration on every
     contact (ncp_admm's stop test) */
  if (mu < 0) mu = 0;
  double e, ed, ec;
  csi_ncp_terms(l, v, csi_norm2(v[1], v[2]), mu, &e, &ed, &ec);
  if (ed > e) e = ed;
  return ec > e ? ec : e;
}
double csi_ccp_contact_residual(const double* l, const double* v, double mu);
double csi_box_contact_residual(const double* l, const double* v, double mu);
/* In-place dense Cholesky of an SPD n x n row-major matrix (L in the lower triangle);
   0 if a pivot is not positive. Then x <- A^-1 x. */
int csi_cholesky(int n, double* A, double* dinv);
void csi_cholesky_solve(int n, const double* L, const double* dinv, double* x);
/* The same for a general matrix: in-place LU with partial pivoting (piv: n row swaps).
   FCLIB's W is not always symmetric (Capsules: |W - W^T| up to 1e-2). */
int csi_lu(int n, double* A, int* piv);
void csi_lu_solve(int n, const double* LU, const int* piv, double* x);
/* The first half of csi_lu_solve: x <- L^-1 P x (a caller that does its own back
   substitution: the bisection's correction, which drops vanishing pivots). */
void csi_lu_forward(int n, const double* LU, const int* piv, double* x);
/* 1 if A (n x n) is exactly symmetric. */
int csi_is_symmetric(int n, const double* A);
/* Largest eigenvalue estimate of G + diag R (R may be NULL) by power iteration; tmp 2n. */
double csi_power_iteration(int n, const double* G, const double* R, double* tmp, int iters);

#endif
