/* The stiction anchor of contacts between two moving bodies (docs/physics.md, "Why a held
   object crept"): the tangential displacement a sticking contact has been let slide by the
   solves' residual velocities, kept with the contact (csContact.slip) and pulled back by the
   next step's free velocity (cs_contact_problem_build adds baumgarte x slip / dt to its
   tangent rows). */
#include "constraint/cs_contact_anchor.h"

#include <math.h>
#include <string.h>

#include "constraint/cs_contact_islands.h"
#include "math/cs_math.h"

void csi_contact_anchors(const csModel* m, csData* d, const double* vnew) {
  double dt = m->opt.timestep, vmax = 100 * m->opt.tolerance;
  const int* gb = m->geom_body;
  for (int i = 0; i < d->ncon; i++) {
    csContact* c = d->contact + i;
    const double* l = d->efc_lambda + 3 * i;
    memcpy(c->lambda, l, 3 * sizeof(double));
    if (gb[c->geom[0]] == 0 || gb[c->geom[1]] == 0) continue;
    double lt = l[1] * l[1] + l[2] * l[2], lim = c->mu * l[0] * (1 - 1e-6);
    double v1 = 0, v2 = 0;
    if (l[0] > 0 && lt < lim * lim) {
      csi_contact_tangent_vel(m, d, i, vnew, &v1, &v2);
    } else {
      v1 = INFINITY;
    }
    if (!(v1 * v1 + v2 * v2 <= vmax * vmax)) {
      c->slip[0] = c->slip[1] = c->slip[2] = 0;
      continue;
    }
    const double* F = c->frame;
    double sn = csi_dot3(F, c->slip); /* kept in the current tangent plane */
    for (int a = 0; a < 3; a++) c->slip[a] += dt * (v1 * F[3 + a] + v2 * F[6 + a]) - sn * F[a];
  }
}
