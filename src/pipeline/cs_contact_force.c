/* A contact's force in newtons in the world frame (as MuJoCo's mj_contactForce, which gives
   it in the contact frame): its impulse over the step divided by the time step. */
#include "contactsim/cs_data.h"
#include "core/cs_error.h"

csStatus cs_contact_force(const csModel* m, const csData* d, int i, double f[6], int body[2]) {
  if (i < 0 || i >= d->ncon)
    return csi_error(CS_ERR_ARG, "cs_contact_force: contact %d of %d", i, d->ncon);
  const csContact* c = d->contact + i;
  double idt = 1.0 / m->opt.timestep;
  const double* F = c->frame; /* rows n, t1, t2 */
  for (int a = 0; a < 3; a++)
    f[a] = (c->lambda[0] * F[a] + c->lambda[1] * F[3 + a] + c->lambda[2] * F[6 + a]) * idt;
  f[3] = f[4] = f[5] = 0; /* no torsional or rolling friction: no torque about pos */
  if (body) body[0] = m->geom_body[c->geom[0]], body[1] = m->geom_body[c->geom[1]];
  return CS_OK;
}
