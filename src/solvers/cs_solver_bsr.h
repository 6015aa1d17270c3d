/* Solvers on a block-sparse island (csIsland.ncouple > 0; cs_solver_bsr.c, docs/solvers.md
   "Block-sparse islands"): G stored as its 3 x 3 blocks on the coupling pattern, block
   compressed rows over the island's contacts. */
#ifndef CS_SOLVER_BSR_H
#define CS_SOLVER_BSR_H

#include "contactsim/cs_contact.h"

/* Islands of more contacts than this are not expanded dense for a solver that takes no
   block-sparse G (3 x 2,000 rows: 288 MB of G); cs_solve refuses them with CS_ERR_ARG. */
enum { CSI_BSR_EXPAND_MAX = 2000 };

/* 1 if s solves a block-sparse island on its blocks (bisection, bisection_desaxce,
   ncp_admm); the others get it expanded dense. */
int csi_bsr_takes(const csSolver* s);
/* The fewest contacts of an island the step stores block-sparse for solver s (INT_MAX if s
   does not take a block-sparse G): the threshold of docs/benchmarks/bin.md. */
int csi_bsr_min_contacts(const csSolver* s);
/* Sets that threshold for the solvers that take block-sparse islands (tests and benches:
   2 stores every island of two or more contacts block-sparse, INT_MAX none); returns the
   previous one. Not for use while another thread steps. */
int csi_bsr_set_min_contacts(int nc);

/* Workspace of csi_bsr_solve for an island of nc contacts (s taking it). */
size_t csi_bsr_workspace_bytes(const csSolver* s, int nc, const csSolverOptions* opt);
/* Island I's problem q solved on I's blocks: q->nc = I->nc, q->mu, q->g, q->R and lambda in
   the island's order (q->G unused, no blocks, no mu2). */
csStatus csi_bsr_solve(const csSolver* s, const csContactProblem* q, const csIsland* I,
                       const csSolverOptions* opt, void* ws, double* lambda, csSolverStats* st);

/* v = (G + diag R) lambda + g over island I's rows (R, g may be NULL: zero). */
void csi_bsr_velocity(const csIsland* I, const double* R, const double* g, const double* lambda,
                      double* v);
/* v += G e_a d: contact a's impulse change d (3) times its column of G (over the island's
   rows; G symmetric, so row a's blocks transposed). */
void csi_bsr_column_add(const csIsland* I, int a, const double d[3], double* v);
/* The position of contact a's diagonal block in I's block table. */
int csi_bsr_diag(const csIsland* I, int a);
/* Island I's G written out dense (3 nc x 3 nc, row-major). */
void csi_bsr_dense(const csIsland* I, double* G);

#endif
