/* Random mixed constraint problems for the solver tests: contacts and blocks of every cone
   (unilateral, box, free) with G = J W J^T from a random full-rank J and a diagonal W > 0,
   so G is symmetric positive definite and every block type has a solution. */
#ifndef CS_TEST_PROBLEM_H
#define CS_TEST_PROBLEM_H

#include "contactsim/contactsim.h"

typedef struct csTestMixed {
  csContactProblem p;
  double* mu;     /* (nc) */
  double* G;      /* (nrow^2) */
  double* g;      /* (nrow) */
  csBlock* block; /* (nblock) */
  double* lambda; /* (nrow) zeros: space for a solve */
  int nrow;
} csTestMixed;

/* A problem of nc contacts, then nuni unilateral rows, nbox box rows and nfree free blocks
   (of 1, 3, 6, 1, 3, 6, ... rows), interleaved in the order unilateral, box, free, ...,
   from the current cs_test_seed stream. Free to release with cs_test_mixed_free. */
csTestMixed* cs_test_mixed_new(int nc, int nuni, int nbox, int nfree);
void cs_test_mixed_free(csTestMixed* t);

/* The stall-guard problem (3 contacts, mu 0.8): recorded in the ANYmal `random` task near
   t = 85.95 s, two slipping feet of one stance, on which the paper model's sweeps cycle with
   period 2 (test_solver_bisection, test_bisection_blocks). G is 9 x 9, row-major. */
extern const double cs_test_stall_G[81];
extern const double cs_test_stall_g[9];

#endif
