/* The contact problem stored by islands (internal; cs_contact_islands.c, docs/memory.md
   "Islands"): contacts grouped by the kinematic trees they touch, J sparse over each
   contact's dofs, one G per island (dense, or block-sparse on its coupling pattern). */
#ifndef CS_CONTACT_ISLANDS_H
#define CS_CONTACT_ISLANDS_H

#include "contactsim/cs_data.h"
#include "contactsim/cs_model.h"
#include "core/cs_memory.h"

/* 1 if this step's contacts are not stored by islands whatever their number: CS_DISABLE_ISLAND,
   a model with block rows, fewer than two contacts, or every contact on one tree (a robot
   on the ground) */
int csi_contact_islands_none(const csModel* m, const csData* d);

/* After collision: if the contacts form two or more islands (or one of bsr_min contacts or
   more), the model has no block rows and CS_DISABLE_ISLAND is off, lays out this step's
   constraint arrays by islands at the arena's bottom with the island table and the
   contacts' dof lists (d->problem set to them; sizes in s) and returns 1; else returns 0 and
   leaves the layout to the dense build (csi_efc_fit). An island of bsr_min contacts or more
   stores its G block-sparse on its coupling pattern (csIsland.ncouple; INT_MAX: none).
   Whether the step's scratch and solve fit as well is the caller's check. */
int csi_contact_islands_layout(const csModel* m, csData* d, csiIslandSizes* s, int bsr_min);

/* The problem on the layout of csi_contact_islands_layout: J on each contact's dofs,
   g = J v_free, the islands' G = J M^-1 J^T, the stabilisation and warm start. */
csStatus csi_contact_islands_build(const csModel* m, csData* d, const double* vfree);

/* f += J^T lambda over the contacts of a problem stored by islands. */
void csi_contact_islands_force(const csData* d, double* f);

/* Contact i's tangent velocities J_t1 v, J_t2 v, with J dense (efc_J) or sparse. */
void csi_contact_tangent_vel(const csModel* m, const csData* d, int i, const double* v, double* v1,
                             double* v2);

#endif
