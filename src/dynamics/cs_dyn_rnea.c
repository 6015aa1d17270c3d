/* Recursive Newton-Euler in world coordinates (about the origin): inverse dynamics and the
   bias forces h(q, v) = C(q, v) v + g(q) (+ joint damping). */
#include <string.h>

#include "dynamics/cs_dyn.h"
#include "math/cs_math.h"

/* cs_rnea's body forces f = I a (+ v x* I v if vel) from d->cacc into d->cfrc (bodies 1..). */
static void rnea_body_forces(const csModel* m, csData* d, int vel) {
  int nb = m->nbody;
  const double* restrict acc = d->cacc;
  double* restrict frc = d->cfrc;
  const double* restrict cinert = d->cinert;
  const double* restrict cvel = d->cvel;
  /* the forces that produce them, f = I a (+ v x* I v), independent per body: two bodies at
     a time, one in each lane of a vector (the last one twice if the count is odd) */
  for (int k = 1; k < nb; k += 2) {
    int k2 = k + 1 < nb ? k + 1 : k;
    const double *Ia = cinert + 10 * k, *Ib = cinert + 10 * k2;
    cs_v2 I[10];
    for (int r = 0; r < 10; r++) I[r] = (cs_v2){Ia[r], Ib[r]};
    csi_body_force2(I, acc + 6 * k, acc + 6 * k2, cvel + 6 * k, cvel + 6 * k2, vel, frc + 6 * k,
                    frc + 6 * k2);
  }
}

void cs_rnea(const csModel* m, csData* d, const double* qacc, int flags, double* result) {
  int nb = m->nbody, nv = m->nv;
  double* acc = d->cacc; /* not restrict: csi_body_acc writes it through d */
  double* restrict frc = d->cfrc;
  const double* restrict cdof = d->cdof;
  const double* restrict qvel = d->qvel;
  const int* restrict parent = m->body_parent;
  const int* restrict dofadr = m->body_dofadr;
  const int* restrict dofnum = m->body_dofnum;
  csi_world_acc(m, acc, flags & CS_RNE_GRAVITY);
  int vel = flags & CS_RNE_VELOCITY;
  /* forward: body accelerations (a chain from the root) */
  const int* restrict order = m->body_order;
  for (int o = 1; o < nb; o++) {
    int k = order[o];
    double* a = acc + 6 * k;
    int da = dofadr[k], de = da + dofnum[k];
    csi_body_acc(m, d, k, vel);
    if (qacc)
      for (int i = da; i < de; i++) {
        const double* S = cdof + 6 * i;
        double qa = qacc[i];
        if (qa != 0)
          for (int r = 0; r < 6; r++) a[r] += S[r] * qa;
      }
  }
  rnea_body_forces(m, d, vel);
  /* backward: subtree forces */
  for (int o = nb - 1; o > 0; o--) { /* reverse breadth-first: siblings are independent */
    int k = order[o];
    int p = parent[k];
    if (p > 0) csi_add_v2(frc + 6 * p, frc + 6 * k, 6);
  }
  /* joint forces: tau_i = S_i . f_body(i) (+ armature, damping); qacc[i] is read before
     result[i] is written, so the two may be the same array */
  const int* restrict tran = m->dof_tran;
  const int* restrict dbody = m->dof_body;
  int damp = (flags & CS_RNE_DAMPING) && !(m->opt.disable & CS_DISABLE_DAMPING);
  for (int i = 0; i < nv; i++) {
    const double* f = frc + 6 * dbody[i];
    double tau = csi_dof_dot(f, cdof + 6 * i, tran[i]);
    if (qacc) tau += m->dof_armature[i] * qacc[i];
    if (damp) tau += m->dof_damping[i] * qvel[i];
    result[i] = tau;
  }
}
