/* Internal helpers of the step's pipeline (src/pipeline): external body wrenches and the
   warm start a cs_forward sets aside. */
#ifndef CS_PIPELINE_H
#define CS_PIPELINE_H

#include "contactsim/cs_data.h"

/* 0 if every body's xfrc_applied is zero (the world body's is not read), 1 if one is not,
   -1 with *bad its index in xfrc_applied if one is not finite. */
int csi_xfrc_scan(const csModel* m, const csData* d, int* bad);
/* f (nv) += J^T xfrc_applied: each body's force at its centre of mass and its torque,
   through its dofs' cdof (needs cs_kinematics). */
void csi_xfrc_accumulate(const csModel* m, const csData* d, double* f);
/* Actuator a's force from its clamped control and its transmission (a joint, or a fixed
   tendon's joints), clamped to its force range, before gear (cs_actuation.c): what
   cs_actuation applies and the actuatorfrc sensor reads. */
double csi_actuator_force(const csModel* m, const csData* d, int a);
/* The contacts the next step warm-starts from (n of them): d->contact, or after a
   cs_forward the ones it set aside. */
const csContact* csi_warm_contacts(const csData* d, int* n);

#endif
