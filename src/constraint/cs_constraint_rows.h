/* Rows of the constraint problem beyond the contacts (internal; docs/constraints.md): joint
   limits (unilateral), friction loss (box), equality constraints (free) and fixed tendons'
   length limits (unilateral), appended to the contacts' problem in d->problem. */
#ifndef CS_CONSTRAINT_ROWS_H
#define CS_CONSTRAINT_ROWS_H

#include "contactsim/cs_data.h"
#include "contactsim/cs_model.h"

/* The most blocks and block rows the model can have in one step with its options as they
   are (limits, friction loss, equalities that CS_DISABLE_* turns off take no room), and its
   warm-start slots (2 per joint for limits, 1 per dof for friction loss, each equality's
   rows, 2 per tendon, whatever the options). */
void csi_efc_capacity(const csModel* m, int* nblock, int* nrow, int* nslot);

/* The CS_DISABLE_LIMIT / _FRICTIONLOSS / _EQUALITY bits of the kinds of block rows the model
   has (limited joints, friction loss, equalities), whatever its options. */
int csi_efc_sources(const csModel* m);

/* Appends this step's blocks to d->problem (the contacts' problem, built before, or an
   empty one): their Jacobian rows, free velocities with stabilisation, G grown to all
   rows, and warm starts; d->problem.nblock = 0 if there are none this step (nothing is
   touched then). vplus: NULL, or for a second pass the velocity the last solve gave, so
   that every bound it reaches is in the problem (the blocks are built anew, from the
   impulses kept by csi_constraint_rows_keep). CS_ERR_MEMORY if the arena is too small. */
csStatus csi_constraint_rows_build(const csModel* m, csData* d, const double* vfree,
                                   const double* vplus);

/* 1 if the velocity vfree + dv of a solve crosses a joint's bound whose row was not in the
   problem (the other constraints' impulses turned the joint around): the caller builds and
   solves again with vplus. */
int csi_constraint_rows_missed(const csModel* m, const csData* d, const double* vfree,
                               const double* dv);

/* f += J_B^T lambda_B over the blocks' rows. */
void csi_constraint_rows_force(const csModel* m, const csData* d, double* f);

/* The blocks' impulses into their warm-start slots; clear: first mark every slot unused
   (the end of a step), else only add (between passes). */
void csi_constraint_rows_keep(csData* d, int clear);

#endif
