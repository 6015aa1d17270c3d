/* Actuator forces (cs_actuation): each actuator's force from its clamped control and its
   transmission (a joint, or a fixed tendon's joints), clamped to its force range, times gear
   onto the dofs; then the joints' actuator-force ranges on the sums. The one formula also
   gives the actuatorfrc sensor (csi_actuator_force). */
#include <string.h>

#include "contactsim/cs_dynamics.h"
#include "pipeline/cs_pipeline.h"

/* A tendon's length and rate: sum coef q and sum coef qdot over its joints */
static void tendon_state(const csModel* m, const csData* d, int t, double* len, double* vel) {
  double l = 0, v = 0;
  for (int w = m->tendon_adr[t], e = w + m->tendon_num[t]; w < e; w++) {
    int j = m->wrap_jnt[w];
    l += m->wrap_coef[w] * d->qpos[m->jnt_qposadr[j]];
    v += m->wrap_coef[w] * d->qvel[m->jnt_dofadr[j]];
  }
  *len = l, *vel = v;
}

/* The force of actuator a (before its force range) from its clamped control c, with its
   transmission's length L and rate Ldot (gear times the joint's or the tendon's) */
static double act_force(const csModel* m, int a, double c, double len, double vel) {
  if (m->actuator_type[a] == CS_ACT_POSITION)
    return m->actuator_kp[a] * (c - len) - m->actuator_kd[a] * vel;
  if (m->actuator_type[a] == CS_ACT_GENERAL) {
    const double* b = m->actuator_biasprm + 3 * a;
    return m->actuator_gainprm[a] * c + b[0] + b[1] * len + b[2] * vel;
  }
  return c;
}

/* Actuator a's force on a joint transmission: a position servo's damping term as
   kd gear qdot, the others by act_force */
static double act_joint_force(const csModel* m, const csData* d, int a, double c) {
  int j = m->actuator_jnt[a], dof = m->jnt_dofadr[j];
  double gear = m->actuator_gear[a];
  if (m->actuator_type[a] == CS_ACT_POSITION) {
    double len = gear * d->qpos[m->jnt_qposadr[j]];
    return m->actuator_kp[a] * (c - len) - m->actuator_kd[a] * gear * d->qvel[dof];
  }
  return act_force(m, a, c, gear * d->qpos[m->jnt_qposadr[j]], gear * d->qvel[dof]);
}

double csi_actuator_force(const csModel* m, const csData* d, int a) {
  double c = d->ctrl[a];
  if (m->actuator_ctrllimited[a]) {
    if (c < m->actuator_ctrlrange[2 * a]) c = m->actuator_ctrlrange[2 * a];
    if (c > m->actuator_ctrlrange[2 * a + 1]) c = m->actuator_ctrlrange[2 * a + 1];
  }
  double f;
  if (m->actuator_tendon[a] >= 0) {
    double gear = m->actuator_gear[a], len, vel;
    tendon_state(m, d, m->actuator_tendon[a], &len, &vel);
    f = act_force(m, a, c, gear * len, gear * vel);
  } else {
    f = act_joint_force(m, d, a, c);
  }
  if (m->actuator_forcelimited[a]) {
    if (f < m->actuator_forcerange[2 * a]) f = m->actuator_forcerange[2 * a];
    if (f > m->actuator_forcerange[2 * a + 1]) f = m->actuator_forcerange[2 * a + 1];
  }
  return f;
}

/* The joints' actuator-force ranges on the summed qfrc_actuator */
static void act_joint_ranges(const csModel* m, csData* d) {
  for (int k = 0; k < m->njntfrc; k++) {
    double* f = d->qfrc_actuator + m->jnt_dofadr[m->jntfrc_jnt[k]];
    const double* r = m->jntfrc_range + 2 * k;
    if (*f < r[0]) *f = r[0];
    if (*f > r[1]) *f = r[1];
  }
}

void cs_actuation(const csModel* m, csData* d) {
  memset(d->qfrc_actuator, 0, sizeof(double) * (size_t)m->nv);
  if (m->opt.disable & CS_DISABLE_ACTUATION) return;
  for (int a = 0; a < m->nu; a++) {
    double f = csi_actuator_force(m, d, a), gear = m->actuator_gear[a];
    int t = m->actuator_tendon[a];
    if (t < 0) {
      d->qfrc_actuator[m->jnt_dofadr[m->actuator_jnt[a]]] += gear * f;
      continue;
    }
    for (int w = m->tendon_adr[t], e = w + m->tendon_num[t]; w < e; w++)
      d->qfrc_actuator[m->jnt_dofadr[m->wrap_jnt[w]]] += m->wrap_coef[w] * gear * f;
  }
  if (m->njntfrc > 0) act_joint_ranges(m, d);
}
