/* The step's fused passes of the smooth dynamics (internal). Each gives exactly what the
   public stages give (the same operations in the same order per output), with fewer walks
   over the tree: cs_fwd_smooth uses them, the public stages stay for everyone else. */
#ifndef CS_DYN_H
#define CS_DYN_H

#include <string.h>

#include "contactsim/cs_dynamics.h"
#include "math/cs_math.h"

/* a . b for spatial 6-vectors, summed left to right */
static inline double csi_dot6(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}
/* S . f for dof motion vector S (tr = dof_tran: S = (0, e_tr) if >= 0) */
static inline double csi_dof_dot(const double* f, const double* S, int tr) {
  return tr >= 0 ? f[3 + tr] : csi_dot6(f, S);
}
/* the world's acceleration: 0, or upward against gravity (gravity, unless disabled) */
static inline void csi_world_acc(const csModel* m, double* acc, int gravity) {
  memset(acc, 0, 6 * sizeof(double));
  if (gravity && !(m->opt.disable & CS_DISABLE_GRAVITY))
    acc[3] = -m->opt.gravity[0], acc[4] = -m->opt.gravity[1], acc[5] = -m->opt.gravity[2];
}

/* cs_rnea's forward pass for body k without the qacc terms: its acceleration from its
   parent's (vel: with the velocity-product terms cdof_dot qvel). */
static inline void csi_body_acc(const csModel* m, csData* d, int k, int vel) {
  const double* ap = d->cacc + 6 * m->body_parent[k];
  double* a = d->cacc + 6 * k;
  const double* cdof_dot = d->cdof_dot;
  const double* qvel = d->qvel;
  int kind = m->body_kind[k];
  int da = m->body_dofadr[k], de = da + m->body_dofnum[k];
  if (vel && (kind == CS_BODY_REVOLUTE || kind == CS_BODY_PRISMATIC)) {
    const double* Sd = cdof_dot + 6 * da;
    cs_v2 qv = {qvel[da], qvel[da]};
    for (int r = 0; r < 6; r += 2) { /* in pairs: acc is one array, a and ap may alias */
      csi_v2_store(a + r, csi_v2_load(ap + r) + csi_v2_load(Sd + r) * qv);
    }
  } else if (vel && kind == CS_BODY_FREE) {
    /* a free joint's translation dofs have cdof_dot = 0 */
    const double* Sd = cdof_dot + 6 * (da + 3);
    double q3 = qvel[da + 3], q4 = qvel[da + 4], q5 = qvel[da + 5];
    for (int r = 0; r < 6; r++) a[r] = ap[r] + Sd[r] * q3 + Sd[6 + r] * q4 + Sd[12 + r] * q5;
  } else {
    for (int r = 0; r < 6; r++) a[r] = ap[r];
    if (vel)
      for (int i = da; i < de; i++) {
        const double* Sd = cdof_dot + 6 * i;
        double qv = qvel[i];
        for (int r = 0; r < 6; r++) a[r] += Sd[r] * qv;
      }
  }
}

/* cs_rnea's body forces f = I a (+ v x* I v if vel) of two bodies a, b (I: their inertias,
   one in each lane), into fa, fb (b's stores last) */
static inline void csi_body_force2(const cs_v2* I, const double* aa, const double* ab,
                                   const double* va, const double* vb, int vel, double* fa,
                                   double* fb) {
  cs_v2 x[6], f[6];
  for (int r = 0; r < 6; r++) x[r] = (cs_v2){aa[r], ab[r]};
  csi_inert_mul_v2(f, I, x);
  if (vel) {
    cs_v2 v[6], h[6];
    for (int r = 0; r < 6; r++) v[r] = (cs_v2){va[r], vb[r]};
    csi_inert_mul_v2(h, I, v);
    /* f += v x* h */
    f[0] += (v[1] * h[2] - v[2] * h[1]) + (v[4] * h[5] - v[5] * h[4]);
    f[1] += (v[2] * h[0] - v[0] * h[2]) + (v[5] * h[3] - v[3] * h[5]);
    f[2] += (v[0] * h[1] - v[1] * h[0]) + (v[3] * h[4] - v[4] * h[3]);
    f[3] += v[1] * h[5] - v[2] * h[4];
    f[4] += v[2] * h[3] - v[0] * h[5];
    f[5] += v[0] * h[4] - v[1] * h[3];
  }
  for (int r = 0; r < 6; r++) fa[r] = f[r][0];
  for (int r = 0; r < 6; r++) fb[r] = f[r][1];
}

/* cs_com_pos, and in the same pass: d->crb = d->cinert (cs_crba's start) and, after
   csi_kinematics_vel, cs_rnea's body forces f = I a + v x* I v from d->cacc into d->cfrc */
void csi_com_pos_forces(const csModel* m, csData* d);
/* cs_kinematics and cs_com_vel in one walk down the tree, with the body accelerations of
   cs_rnea's forward pass (gravity, velocity terms, no qacc) into d->cacc */
void csi_kinematics_vel(const csModel* m, csData* d);
/* After csi_kinematics_vel and csi_com_pos_forces: the rest of cs_crba and of cs_rnea(m, d, NULL,
   CS_RNE_GRAVITY | CS_RNE_VELOCITY, d->qfrc_bias): one walk up the tree sums the composite
   inertias and the body forces, one pass over the dofs fills M's rows and the bias
   forces. */
void csi_crba_bias(const csModel* m, csData* d);

#endif
