/* Conservation laws:
   - a free-floating system in zero gravity without damping: the rate of change of the
     total spatial momentum implied by the computed accelerations is zero (1e-10 relative);
   - over 10 s of semi-implicit Euler the momentum drift shrinks linearly with dt;
   - a 5-link pendulum under gravity: the energy drift shrinks linearly with dt.
   The floating system is ANYmal C when ../shared is present, and a random free tree always. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"
#include "cs_test_models.h"

#ifndef VSCALE
#define VSCALE 0.5
#endif
#ifndef DT0
#define DT0 1e-3
#endif

/* free-floating tree: one free root and revolute/ball children (no fixed base) */
static csModel* floating_tree(void) {
  csModel* t = cs_test_random_tree(12, 5);
  return t;
}

static void momentum_rate(csModel* m, const char* name) {
  m->opt.gravity[2] = 0;
  m->opt.disable |= CS_DISABLE_DAMPING | CS_DISABLE_ACTUATION | CS_DISABLE_CONTACT |
                    CS_DISABLE_LIMIT | CS_DISABLE_FRICTIONLOSS; /* energy conserved */
  csData* d = cs_data_new(m);
  double* qacc = malloc(sizeof(double) * m->nv);
  double* tau = calloc(m->nv, sizeof(double));
  double worst = 0;
  for (int s = 0; s < 100; s++) {
    cs_test_random_state(m, d, 1.0);
    cs_kinematics(m, d);
    cs_com_pos(m, d);
    cs_com_vel(m, d);
    CHECK(cs_aba(m, d, tau, CS_RNE_ALL, qacc) == CS_OK);
    /* dh/dt = sum over bodies of I a + v x* I v = the net force on the system; RNEA
       accumulates it into the roots' cfrc. Scale: the largest single body force. */
    double* res = malloc(sizeof(double) * m->nv);
    cs_rnea(m, d, qacc, CS_RNE_VELOCITY, res);
    free(res);
    double net[6] = {0}, scale = 1e-12;
    for (int b = 1; b < m->nbody; b++) {
      if (m->body_parent[b] == 0)
        for (int r = 0; r < 6; r++) net[r] += d->cfrc[6 * b + r];
    }
    /* per-body forces: recompute scale from the momentum-rate magnitudes of each body */
    for (int b = 1; b < m->nbody; b++)
      for (int r = 0; r < 6; r++) scale = fmax(scale, fabs(d->cacc[6 * b + r]) * m->body_mass[b]);
    for (int r = 0; r < 6; r++) worst = fmax(worst, fabs(net[r]) / scale);
  }
  printf("%-16s momentum rate / body force scale: %.2e\n", name, worst);
  CHECK_MSG(worst <= 1e-10, "%s momentum rate %g", name, worst);
  free(qacc), free(tau);
  cs_data_free(d);
}

/* max momentum deviation over T seconds of stepping at dt */
static double momentum_drift(csModel* m, const double* q0, const double* v0, double dt, double T) {
  m->opt.timestep = dt;
  csData* d = cs_data_new(m);
  memcpy(d->qpos, q0, sizeof(double) * m->nq);
  memcpy(d->qvel, v0, sizeof(double) * m->nv);
  double h0[6], h[6], worst = 0, scale = 0;
  cs_kinematics(m, d), cs_com_pos(m, d), cs_com_vel(m, d);
  cs_momentum(m, d, h0);
  for (int r = 0; r < 6; r++) scale = fmax(scale, fabs(h0[r]));
  long n = lround(T / dt);
  for (long k = 0; k < n; k++) {
    if (cs_step(m, d) != CS_OK) {
      worst = INFINITY;
      break;
    }
    cs_kinematics(m, d), cs_com_pos(m, d), cs_com_vel(m, d);
    cs_momentum(m, d, h);
    for (int r = 0; r < 6; r++) worst = fmax(worst, fabs(h[r] - h0[r]));
  }
  cs_data_free(d);
  return worst / scale;
}

static void drift_rates(csModel* m, const char* name, double T, double vscale, double dt0) {
  m->opt.gravity[2] = 0;
  m->opt.disable |= CS_DISABLE_DAMPING | CS_DISABLE_ACTUATION | CS_DISABLE_CONTACT |
                    CS_DISABLE_LIMIT | CS_DISABLE_FRICTIONLOSS; /* energy conserved */
  csData* d = cs_data_new(m);
  cs_test_seed(3);
  cs_test_random_state(m, d, vscale);
  double* q0 = malloc(sizeof(double) * m->nq);
  double* v0 = malloc(sizeof(double) * m->nv);
  memcpy(q0, d->qpos, sizeof(double) * m->nq);
  memcpy(v0, d->qvel, sizeof(double) * m->nv);
  double e1 = momentum_drift(m, q0, v0, dt0, T);
  double e2 = momentum_drift(m, q0, v0, dt0 / 2, T);
  double e3 = momentum_drift(m, q0, v0, dt0 / 4, T);
  printf("%-16s momentum drift over %g s: dt %g ms %.3e, /2 %.3e, /4 %.3e (ratios %.2f %.2f)\n",
         name, T, dt0 * 1e3, e1, e2, e3, e1 / e2, e2 / e3);
  CHECK_MSG(e1 / e2 > 1.6 && e1 / e2 < 2.5, "%s ratio %g", name, e1 / e2);
  CHECK_MSG(e2 / e3 > 1.6 && e2 / e3 < 2.5, "%s ratio %g", name, e2 / e3);
  CHECK(e3 < 1e-2);
  free(q0), free(v0);
  cs_data_free(d);
}

static double energy_drift(csModel* m, double dt, double T) {
  m->opt.timestep = dt;
  csData* d = cs_data_new(m);
  for (int i = 0; i < m->nq; i++) d->qpos[i] = 0.3 + 0.1 * i;
  cs_kinematics(m, d), cs_com_pos(m, d), cs_com_vel(m, d);
  cs_energy(m, d);
  double E0 = d->energy[0] + d->energy[1], worst = 0;
  long n = lround(T / dt);
  for (long k = 0; k < n; k++) {
    if (cs_step(m, d) != CS_OK) return INFINITY;
    cs_kinematics(m, d), cs_com_pos(m, d), cs_com_vel(m, d);
    cs_energy(m, d);
    worst = fmax(worst, fabs(d->energy[0] + d->energy[1] - E0));
  }
  cs_data_free(d);
  return worst / fabs(E0);
}

int main(void) {
  csModel* t = floating_tree();
  CHECK(t != NULL);
  if (t) {
    CHECK(t->jnt_type[0] == CS_JNT_FREE);
    momentum_rate(t, "free-tree");
    drift_rates(t, "free-tree", 10.0, 0.5, 2e-3);
  }
  cs_model_free(t);
  csModel* a = cs_test_load_shared("models/anymal_c/mjcf/scene_collision_only.xml", 1);
  if (a) {
    momentum_rate(a, "anymal_c");
    drift_rates(a, "anymal_c", 10.0, VSCALE, DT0);
    cs_model_free(a);
  } else {
    printf("ANYmal C not available: checked on the free tree only\n");
  }
  csModel* p = cs_test_pendulum(5);
  CHECK(p != NULL);
  if (p) {
    double e1 = energy_drift(p, 4e-4, 2.0), e2 = energy_drift(p, 2e-4, 2.0),
           e3 = energy_drift(p, 1e-4, 2.0);
    printf(
        "pendulum-5 energy drift over 2 s: dt 0.4ms %.3e, 0.2ms %.3e, 0.1ms %.3e (ratios %.2f "
        "%.2f)\n",
        e1, e2, e3, e1 / e2, e2 / e3);
    CHECK_MSG(e1 / e2 > 1.6 && e1 / e2 < 2.5, "energy ratio %g", e1 / e2);
    CHECK_MSG(e2 / e3 > 1.6 && e2 / e3 < 2.5, "energy ratio %g", e2 / e3);
  }
  cs_model_free(p);
  return cs_test_finish("test_conservation");
}
