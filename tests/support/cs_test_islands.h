/* Random problems of independent islands for the island tests (test_solver_islands,
   test_io_fclib): k random mixed problems (cs_test_mixed_new) with their contacts and blocks
   interleaved round-robin into one problem, stored twice: with the dense block-diagonal G
   and by islands (each island's G its own problem's, no copy). */
#ifndef CS_TEST_ISLANDS_H
#define CS_TEST_ISLANDS_H

#include "contactsim/contactsim.h"
#include "cs_test_problem.h"

typedef struct csTestIslands {
  csContactProblem dense;  /* G dense (nrow x nrow) */
  csContactProblem island; /* the same problem stored by islands (G NULL) */
  int k, nrow;
  csTestMixed** part; /* (k) the islands' own problems */
  csIsland* table;    /* (k) */
  int* ids;           /* the islands' contact and block ids */
  double *mu, *G, *g; /* the whole problem's */
  csBlock* block;
  double* lambda; /* (nrow) zeros: space for a solve */
} csTestIslands;

/* k islands, island s of size[s] = {nc, nuni, nbox, nfree} (cs_test_mixed_new), from the
   current cs_test_seed stream. Free with cs_test_islands_free. */
csTestIslands* cs_test_islands_new(int k, const int (*size)[4]);
void cs_test_islands_free(csTestIslands* t);

#endif
