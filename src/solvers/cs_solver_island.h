/* A problem stored by islands (csContactProblem.nisland > 0), solved island by island
   (cs_solver_island.c; docs/solvers.md, "Islands"). */
#ifndef CS_SOLVER_ISLAND_H
#define CS_SOLVER_ISLAND_H

#include "contactsim/cs_contact.h"

/* Rows of island I: 3 nc + its blocks' rows. */
int csi_island_rows(const csContactProblem* p, const csIsland* I);

/* Workspace of cs_solve for p stored by islands: the largest island's dense solve
   (csi_solve_dense_bytes) plus the gather buffers and the check's marks. */
size_t csi_island_workspace_bytes(const csSolver* s, const csContactProblem* p,
                                  const csSolverOptions* opt);
/* The same for a table known to be well formed (the step's: no check, no heap). */
size_t csi_island_workspace_bytes_wellformed(const csSolver* s, const csContactProblem* p,
                                             const csSolverOptions* opt);

/* cs_solve for p stored by islands: the island table checked, then each island gathered
   into the workspace, solved by csi_solve_dense on its own G and scattered back. */
csStatus csi_island_solve(const csSolver* s, const csContactProblem* p, const csSolverOptions* opt,
                          void* ws, double* lambda, csSolverStats* stats);

/* Defined in cs_solver.c: cs_solve of a dense problem (the elliptic scaling, then the
   solver) and its workspace. */
size_t csi_solve_dense_bytes(const csSolver* s, const csContactProblem* p,
                             const csSolverOptions* opt);
csStatus csi_solve_dense(const csSolver* s, const csContactProblem* p, const csSolverOptions* opt,
                         void* ws, double* lambda, csSolverStats* stats);

#endif
