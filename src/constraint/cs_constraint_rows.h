/* Rows of the constraint problem beyond the contacts (internal; docs/constraints.md): joint
   limits (unilateral), friction loss (box) and equality constraints (free), appended to the
   contacts' problem in d->problem. */
#ifndef CS_CONSTRAINT_ROWS_H
#define CS_CONSTRAINT_ROWS_H

#include "contactsim/cs_data.h"
#include "contactsim/cs_model.h"

/* The most blocks and block rows the model can have in one step, and its warm-start slots
   (2 per joint for limits, 1 per dof for friction loss, each equality's rows). */
void csi_efc_capacity(const csModel* m, int* nblock, int* nrow, int* nslot);

/* Appends this step's blocks to d->problem (the contacts' problem, built before, or an
   empty one): their Jacobian rows, free velocities with stabilisation, G grown to all
   rows, and warm starts; d->problem.nblock = 0 if there are none this step (nothing is
   touched then). CS_ERR_MEMORY if the arena is too small. */
csStatus csi_constraint_rows_build(const csModel* m, csData* d, const double* vfree);

/* After the solve: f += J_B^T lambda_B over the blocks' rows, and the warm-start slots. */
void csi_constraint_rows_finish(const csModel* m, csData* d, double* f);

#endif
