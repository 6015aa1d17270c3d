/* Recursive Newton-Euler in world coordinates (about the origin): inverse dynamics and the
   bias forces h(q, v) = C(q, v) v + g(q) (+ joint damping). */
#include <string.h>

#include "cs_math.h"
#include "contactsim/cs_dynamics.h"

void cs_rnea(const csModel* m, csData* d, const double* qacc, int flags, double* result) {
  int nb = m->nbody, nv = m->nv;
  double* acc = d->cacc;
  double* frc = d->cfrc;
  memset(acc, 0, 6 * sizeof(double));
  if ((flags & CS_RNE_GRAVITY) && !(m->opt.disable & CS_DISABLE_GRAVITY)) {
    /* the world accelerates upward: gravity acts on every body */
    acc[3] = -m->opt.gravity[0], acc[4] = -m->opt.gravity[1], acc[5] = -m->opt.gravity[2];
  }
  int vel = flags & CS_RNE_VELOCITY;
  for (int k = 1; k < nb; k++) {
    double* a = acc + 6 * k;
    memcpy(a, acc + 6 * m->body_parent[k], 6 * sizeof(double));
    int da = m->body_dofadr[k], dn = m->body_dofnum[k];
    for (int i = da; i < da + dn; i++) {
      const double* S = d->cdof + 6 * i;
      const double* Sd = d->cdof_dot + 6 * i;
      double qa = qacc ? qacc[i] : 0, qv = vel ? d->qvel[i] : 0;
      if (qa != 0)
        for (int r = 0; r < 6; r++) a[r] += S[r] * qa;
      if (qv != 0)
        for (int r = 0; r < 6; r++) a[r] += Sd[r] * qv;
    }
    double* f = frc + 6 * k;
    cs_inert_mul(f, d->cinert + 10 * k, a);
    if (vel) {
      double h[6], t[6];
      const double* v = d->cvel + 6 * k;
      cs_inert_mul(h, d->cinert + 10 * k, v);
      cs_cross_force(t, v, h);
      for (int r = 0; r < 6; r++) f[r] += t[r];
    }
  }
  for (int k = nb - 1; k > 0; k--) {
    double* fp = frc + 6 * m->body_parent[k];
    const double* f = frc + 6 * k;
    if (m->body_parent[k] > 0)
      for (int r = 0; r < 6; r++) fp[r] += f[r];
  }
  for (int i = 0; i < nv; i++) {
    double tau = cs_dot(d->cdof + 6 * i, frc + 6 * m->dof_body[i], 6);
    if (qacc) tau += m->dof_armature[i] * qacc[i];
    if ((flags & CS_RNE_DAMPING) && !(m->opt.disable & CS_DISABLE_DAMPING))
      tau += m->dof_damping[i] * d->qvel[i];
    result[i] = tau;
  }
}
