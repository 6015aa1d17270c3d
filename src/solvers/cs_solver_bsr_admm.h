/* ncp_admm on a block-sparse island (cs_solver_bsr_admm.c; docs/solvers.md "Block-sparse
   islands"), and the per-contact kernels it shares with the dense ncp_admm. */
#ifndef CS_SOLVER_BSR_ADMM_H
#define CS_SOLVER_BSR_ADMM_H

#include "contactsim/cs_contact.h"

/* Workspace of csi_bsr_admm_solve for nc contacts. */
size_t csi_bsr_admm_bytes(int nc, const csSolverOptions* opt);
/* ncp_admm on island I's blocks (q as for csi_bsr_solve). */
csStatus csi_bsr_admm_solve(const csContactProblem* q, const csIsland* I,
                            const csSolverOptions* opt, void* ws, double* lambda,
                            csSolverStats* st);

/* Defined in cs_solver_admm.c, the dense ncp_admm's steps. De Saxce's shift s (3nc) of the
   velocity v at z (0 at contacts inside their cone by more than 10 tol, or if !ncp). */
void csi_admm_shift(int ncp, int nc, const double* mu, const double* v, const double* z, double tol,
                    double* s);
/* The start's dual gamma of one contact: -w projected onto K's normal cone at z. */
void csi_admm_normal_dual(const double* z, double mu, const double* w, double tol, double* gam);
/* The NCP stop test: the largest contact residual (eps_abs's terms) of lambda with v. */
double csi_admm_ncp_residual(int nc, const double* mu, const double* lambda, const double* v);

#endif
