/* Jacobians of points and frames, momentum and energy. */
#include <string.h>

#include "contactsim/cs_dynamics.h"
#include "math/cs_math.h"

void cs_jac(const csModel* m, const csData* d, double* jacp, double* jacr, const double p[3],
            int body) {
  int nv = m->nv;
  if (jacp) memset(jacp, 0, sizeof(double) * 3 * (size_t)nv);
  if (jacr) memset(jacr, 0, sizeof(double) * 3 * (size_t)nv);
  for (int i = m->body_lastdof[body]; i >= 0; i = m->dof_parent[i]) {
    const double* S = d->cdof + 6 * i;
    if (jacr) jacr[i] = S[0], jacr[nv + i] = S[1], jacr[2 * nv + i] = S[2];
    if (jacp) {
      double t[3];
      csi_cross3(t, S, p); /* v_p = v_O + w x p */
      jacp[i] = S[3] + t[0], jacp[nv + i] = S[4] + t[1], jacp[2 * nv + i] = S[5] + t[2];
    }
  }
}

void cs_jac_site(const csModel* m, const csData* d, double* jacp, double* jacr, int site) {
  cs_jac(m, d, jacp, jacr, d->site_xpos + 3 * site, m->site_body[site]);
}

void cs_momentum(const csModel* m, const csData* d, double h[6]) {
  memset(h, 0, 6 * sizeof(double));
  for (int k = 1; k < m->nbody; k++) {
    double f[6];
    csi_inert_mul(f, d->cinert + 10 * k, d->cvel + 6 * k);
    for (int r = 0; r < 6; r++) h[r] += f[r];
  }
}

void cs_energy(const csModel* m, csData* d) {
  double pot = 0, kin = 0;
  for (int k = 1; k < m->nbody; k++) {
    pot -= m->body_mass[k] * csi_dot3(m->opt.gravity, d->xipos + 3 * k);
    double f[6];
    const double* v = d->cvel + 6 * k;
    csi_inert_mul(f, d->cinert + 10 * k, v);
    kin += 0.5 * csi_dot(f, v, 6);
  }
  for (int i = 0; i < m->nv; i++) kin += 0.5 * m->dof_armature[i] * d->qvel[i] * d->qvel[i];
  d->energy[0] = pot;
  d->energy[1] = kin;
}
