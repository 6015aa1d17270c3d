/* Position integration on the configuration manifold (exact on SO(3)). */
#include <string.h>

#include "contactsim/cs_dynamics.h"
#include "math/cs_math.h"

void cs_integrate_pos(const csModel* m, double* qout, const double* qpos, const double* v,
                      double dt) {
  if (qout != qpos) memcpy(qout, qpos, sizeof(double) * (size_t)m->nq);
  for (int j = 0; j < m->njnt; j++) {
    double* q = qout + m->jnt_qposadr[j];
    const double* w = v + m->jnt_dofadr[j];
    switch (m->jnt_type[j]) {
      case CS_JNT_FREE:
        csi_addscl3(q, w, dt);
        q += 3;
        w += 3;
        __attribute__((fallthrough)); /* then the body-frame angular velocity */
      case CS_JNT_BALL: {
        double rv[3] = {w[0] * dt, w[1] * dt, w[2] * dt}, dq[4];
        csi_quat_exp(dq, rv);
        csi_quat_mul(q, q, dq);
        csi_quat_normalize(q);
        break;
      }
      default:
        q[0] += dt * w[0];
        break;
    }
  }
}

void cs_normalize_quat(const csModel* m, double* qpos) {
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j];
    if (t == CS_JNT_FREE) csi_quat_normalize(qpos + m->jnt_qposadr[j] + 3);
    if (t == CS_JNT_BALL) csi_quat_normalize(qpos + m->jnt_qposadr[j]);
  }
}
