/* The stiction anchor of contacts (internal; src/constraint/cs_contact_anchor.c). */
#ifndef CS_CONTACT_ANCHOR_H
#define CS_CONTACT_ANCHOR_H

#include "contactsim/cs_data.h"
#include "contactsim/cs_model.h"

/* After the solve (vnew: the velocity it gave): each contact's impulse into d->contact, and
   the anchor of a contact between two moving bodies. One that sticks (its impulse inside its
   cone, its tangential speed J_T v+ within a hundred tolerances: a residual of the solve,
   not a slip; an NCP residual's complementarity term lets |v_T| reach tol / lambda_N) adds
   the step's tangential motion dt J_T v+ (world frame) to its slip; any other starts again
   from 0. Contacts with the world keep no anchor (their slip stays 0): the cost stays off
   legged robots on the ground, where a creep at the tolerance is harmless. */
void csi_contact_anchors(const csModel* m, csData* d, const double* vnew);

#endif
