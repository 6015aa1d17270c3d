/* The contact problem's parts shared by its two builds (internal): dense
   (cs_contact_problem_build, cs_contact_problem.c) and by islands (cs_contact_islands.c). */
#ifndef CS_CONTACT_PROBLEM_H
#define CS_CONTACT_PROBLEM_H

#include "contactsim/cs_data.h"
#include "contactsim/cs_model.h"

/* After J and g = J v_free: the normal rows' stabilisation (the gap, or Baumgarte) and every
   contact's warm start and stiction anchor (docs/physics.md). CS_ERR_MEMORY if the matching's
   scratch does not fit the arena. */
csStatus csi_contact_problem_finish(const csModel* m, csData* d);

#endif
