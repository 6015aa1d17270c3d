/* The pipeline of one step, stage by stage. Read this file first.

   cs_step(m, d)
     cs_check_state      reject NaN/Inf input and bad options; the state stays as it was
     cs_kinematics       body, joint, geom and site poses; motion subspaces cdof
     cs_com_pos          body spatial inertias
     cs_crba             joint-space inertia M
     cs_com_vel          body velocities, cdof_dot
     cs_rnea             bias forces h (gravity, Coriolis, centrifugal)
     cs_actuation        actuator forces
     cs_factor_m         M (+ dt D with implicit damping) = L^T D L
     qacc = M^-1 (applied + actuator - h - damping)
     integrate           v+ = v + dt qacc; q+ = q (+) dt v+   (rolled back if not finite)
   Contacts enter between the factorisation and the integration (collision issue). */
#include <math.h>
#include <string.h>

#include "cs_error.h"
#include "cs_math.h"
#include "cs_memory.h"
#include "contactsim/cs_dynamics.h"

static int cs_all_finite(const double* a, int n, int* bad) {
  for (int i = 0; i < n; i++)
    if (!isfinite(a[i])) {
      *bad = i;
      return 0;
    }
  return 1;
}

csStatus cs_check_state(const csModel* m, const csData* d) {
  int bad;
  const csOption* o = &m->opt;
  if (!(o->timestep > 0) || !isfinite(o->timestep))
    return cs_error(CS_ERR_ARG, "option timestep = %g must be > 0", o->timestep);
  if (!cs_all_finite(o->gravity, 3, &bad))
    return cs_error(CS_ERR_ARG, "option gravity[%d] is not finite", bad);
  if (!isfinite(d->time)) return cs_error(CS_ERR_STATE, "time is not finite");
  if (!cs_all_finite(d->qpos, m->nq, &bad))
    return cs_error(CS_ERR_STATE, "qpos[%d] is not finite (%g)", bad, d->qpos[bad]);
  if (!cs_all_finite(d->qvel, m->nv, &bad))
    return cs_error(CS_ERR_STATE, "qvel[%d] is not finite (%g)", bad, d->qvel[bad]);
  if (!cs_all_finite(d->ctrl, m->nu, &bad))
    return cs_error(CS_ERR_STATE, "ctrl[%d] is not finite (%g)", bad, d->ctrl[bad]);
  if (!cs_all_finite(d->qfrc_applied, m->nv, &bad))
    return cs_error(CS_ERR_STATE, "qfrc_applied[%d] is not finite (%g)", bad,
                    d->qfrc_applied[bad]);
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j];
    if (t == CS_JNT_FREE || t == CS_JNT_BALL) {
      const double* q = d->qpos + m->jnt_qposadr[j] + (t == CS_JNT_FREE ? 3 : 0);
      if (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] < 1e-20)
        return cs_error(CS_ERR_STATE, "qpos quaternion of joint '%s' is zero",
                        m->names + m->jnt_name[j]);
    }
  }
  return CS_OK;
}

void cs_actuation(const csModel* m, csData* d) {
  memset(d->qfrc_actuator, 0, sizeof(double) * (size_t)m->nv);
  if (m->opt.disable & CS_DISABLE_ACTUATION) return;
  for (int a = 0; a < m->nu; a++) {
    int j = m->actuator_jnt[a];
    int dof = m->jnt_dofadr[j];
    double gear = m->actuator_gear[a];
    double c = d->ctrl[a];
    if (m->actuator_ctrllimited[a]) {
      if (c < m->actuator_ctrlrange[2 * a]) c = m->actuator_ctrlrange[2 * a];
      if (c > m->actuator_ctrlrange[2 * a + 1]) c = m->actuator_ctrlrange[2 * a + 1];
    }
    double f;
    if (m->actuator_type[a] == CS_ACT_POSITION) {
      double len = gear * d->qpos[m->jnt_qposadr[j]];
      f = m->actuator_kp[a] * (c - len) - m->actuator_kd[a] * gear * d->qvel[dof];
    } else {
      f = c;
    }
    if (m->actuator_forcelimited[a]) {
      if (f < m->actuator_forcerange[2 * a]) f = m->actuator_forcerange[2 * a];
      if (f > m->actuator_forcerange[2 * a + 1]) f = m->actuator_forcerange[2 * a + 1];
    }
    d->qfrc_actuator[dof] += gear * f;
  }
}

/* Smooth dynamics up to the factorisation; diag_add (may be NULL) is added to M before
   factorising. Leaves qfrc_bias (without damping), qfrc_damping, qfrc_actuator. */
static csStatus cs_fwd_smooth(const csModel* m, csData* d, const double* diag_add) {
  cs_kinematics(m, d);
  cs_com_pos(m, d);
  cs_crba(m, d);
  cs_com_vel(m, d);
  cs_rnea(m, d, NULL, CS_RNE_GRAVITY | CS_RNE_VELOCITY, d->qfrc_bias);
  int damp = !(m->opt.disable & CS_DISABLE_DAMPING);
  for (int i = 0; i < m->nv; i++) d->qfrc_damping[i] = damp ? -m->dof_damping[i] * d->qvel[i] : 0;
  cs_actuation(m, d);
  return cs_factor_m(m, d, diag_add);
}

static void cs_total_force(const csModel* m, const csData* d, double* f) {
  for (int i = 0; i < m->nv; i++)
    f[i] = d->qfrc_applied[i] + d->qfrc_actuator[i] + d->qfrc_damping[i] - d->qfrc_bias[i];
}

csStatus cs_forward(const csModel* m, csData* d) {
  csStatus st = cs_check_state(m, d);
  if (st != CS_OK) return st;
  st = cs_fwd_smooth(m, d, NULL);
  if (st != CS_OK) return st;
  cs_total_force(m, d, d->qacc);
  cs_solve_m(m, d, d->qacc, d->qacc, 1);
  return CS_OK;
}

csStatus cs_step(const csModel* m, csData* d) {
  csStatus st = cs_check_state(m, d);
  if (st != CS_OK) return st;
  int nv = m->nv, nq = m->nq;
  double dt = m->opt.timestep;
  size_t mark = cs_stack_mark(d);
  double* diag = NULL;
  double* vnew = CS_STACK_ALLOC(d, double, nv);
  double* qnew = CS_STACK_ALLOC(d, double, nq);
  double* f = CS_STACK_ALLOC(d, double, nv);
  int implicit = m->opt.integrator == CS_INT_EULER_IMPLICITDAMP &&
                 !(m->opt.disable & CS_DISABLE_DAMPING);
  if (implicit) {
    diag = CS_STACK_ALLOC(d, double, nv);
    if (diag)
      for (int i = 0; i < nv; i++) diag[i] = dt * m->dof_damping[i];
  }
  if (!vnew || !qnew || !f || (implicit && !diag)) {
    cs_stack_free(d, mark);
    return cs_error(CS_ERR_MEMORY, "cs_step: arena full");
  }
  st = cs_fwd_smooth(m, d, diag);
  if (st != CS_OK) {
    cs_stack_free(d, mark);
    return st;
  }
  cs_total_force(m, d, f);
  cs_solve_m(m, d, f, f, 1);
  for (int i = 0; i < nv; i++) vnew[i] = d->qvel[i] + dt * f[i];
  cs_integrate_pos(m, qnew, d->qpos, vnew, dt);
  int bad;
  if (!cs_all_finite(vnew, nv, &bad) || !cs_all_finite(qnew, nq, &bad)) {
    cs_warning(d, CS_WARN_NAN_STEP, "step produced a non-finite state; not committed");
    cs_stack_free(d, mark);
    return cs_error(CS_ERR_NUMERIC, "step at t = %g produced a non-finite state", d->time);
  }
  memcpy(d->qacc, f, sizeof(double) * (size_t)nv);
  memcpy(d->qvel, vnew, sizeof(double) * (size_t)nv);
  memcpy(d->qpos, qnew, sizeof(double) * (size_t)nq);
  d->time += dt;
  d->nstep++;
  cs_stack_free(d, mark);
  return CS_OK;
}
