/* The contact problem stored by islands (internal; cs_contact_islands.c, docs/memory.md
   "Islands"): contacts grouped by the kinematic trees they touch, J sparse over each
   contact's dofs, one dense G per island. */
#ifndef CS_CONTACT_ISLANDS_H
#define CS_CONTACT_ISLANDS_H

#include "contactsim/cs_data.h"
#include "contactsim/cs_model.h"

/* After collision: lays out this step's constraint arrays by islands and returns 1 if the
   contacts form two or more islands, the model has no block rows, CS_DISABLE_ISLAND is off
   and the step (layout, build, warm start, the selected solver's workspace) fits the arena;
   else returns 0 and leaves the layout to the dense build (csi_efc_fit). */
int csi_contact_islands_plan(const csModel* m, csData* d);

/* The problem on the layout of csi_contact_islands_plan: J on each contact's dofs,
   g = J v_free, the islands' G = J M^-1 J^T, the stabilisation and warm start. */
csStatus csi_contact_islands_build(const csModel* m, csData* d, const double* vfree);

/* f += J^T lambda over the contacts of a problem stored by islands. */
void csi_contact_islands_force(const csData* d, double* f);

/* Contact i's tangent velocities J_t1 v, J_t2 v, with J dense (efc_J) or sparse. */
void csi_contact_tangent_vel(const csModel* m, const csData* d, int i, const double* v, double* v1,
                             double* v2);

#endif
