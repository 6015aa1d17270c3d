/* A joint held on its bound by another constraint's load (docs/constraints.md, "Limits"):
   tests/data/mjcf/limit_load.xml, a two-link arm on the lower bounds of its shoulder and
   elbow, lifted by torques larger than its own weight and pressed down by a 20 kg box lying
   on it. Each step's free velocity leaves both bounds, so neither row is in the first pass;
   the contacts' impulses press first the shoulder, then (with the shoulder held) the elbow,
   then (with the elbow held) the shoulder onto its bound again. Every limit row of a pass
   stays in the passes after it, and the passes go on until no bound is crossed without its
   row. Checked over 5 s (bisection, tolerance 1e-8):
   - the setup: with contacts off, one step lifts both links off their bounds;
   - no joint beyond its range by more than 1e-9 rad at any step;
   - no kinetic energy above 1e-9 J from 1 s on (the arm and box at rest: a joint crossing
     its bound for a step and pushed back shows as a spike: 1e-3 J where a later pass drops
     the rows of the passes before). */
#include <math.h>
#include <stdio.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

enum { STEPS = 5000, SETTLED = 1000 };
static const double TAU[2] = {30, 10}; /* N m lifting the shoulder and the elbow */

/* the lifting torques on the arm's two dofs */
static void lift(const csModel* m, csData* d) {
  for (int j = 0; j < 2; j++) d->qfrc_applied[m->jnt_dofadr[j]] = TAU[j];
}

/* Worst excursion of the two hinges beyond their ranges (0 inside) */
static double excess(const csModel* m, const csData* d) {
  double w = 0;
  for (int j = 0; j < 2; j++) {
    double q = d->qpos[m->jnt_qposadr[j]];
    w = fmax(w, fmax(m->jnt_range[2 * j] - q, q - m->jnt_range[2 * j + 1]));
  }
  return w;
}

static double kinetic(const csModel* m, csData* d) {
  cs_kinematics(m, d);
  cs_com_pos(m, d);
  cs_com_vel(m, d);
  cs_energy(m, d);
  return d->energy[1];
}

/* Without the box's contacts the torques lift both links within one step */
static void test_setup(csModel* m) {
  m->opt.disable |= CS_DISABLE_CONTACT;
  csData* d = cs_data_new(m);
  lift(m, d);
  CHECK(cs_step(m, d) == CS_OK);
  double q0 = d->qpos[m->jnt_qposadr[0]], q1 = d->qpos[m->jnt_qposadr[1]];
  printf("limit load, contacts off: one step lifts the shoulder %.3e rad, the elbow %.3e rad\n", q0,
         q1);
  CHECK_MSG(q0 > 0 && q1 > 0, "contacts off: shoulder %g, elbow %g after one step", q0, q1);
  cs_data_free(d);
  m->opt.disable &= ~CS_DISABLE_CONTACT;
}

static void test_rest(const csModel* m) {
  csData* d = cs_data_new(m);
  double worst = 0, ke_max = 0, t_ke = 0;
  int bad = 0;
  for (int k = 0; k < STEPS; k++) {
    lift(m, d);
    bad += cs_step(m, d) != CS_OK;
    worst = fmax(worst, excess(m, d));
    double ke = kinetic(m, d);
    if (k >= SETTLED && ke > ke_max) ke_max = ke, t_ke = d->time;
  }
  printf(
      "limit load, 5 s: worst excess %.3e rad, kinetic energy from 1 s at most %.3e J (t %.3f), "
      "at the end shoulder %.3e elbow %.3e rad, %d contacts\n",
      worst, ke_max, t_ke, d->qpos[m->jnt_qposadr[0]], d->qpos[m->jnt_qposadr[1]], d->ncon);
  CHECK_MSG(bad == 0, "%d steps failed", bad);
  CHECK_MSG(worst <= 1e-9, "a joint %.3e rad beyond its bound", worst);
  CHECK_MSG(ke_max <= 1e-9, "kinetic energy %.3e J at t = %.3f s (at rest from 1 s)", ke_max, t_ke);
  cs_data_free(d);
}

int main(void) {
  csModel* m = NULL;
  if (cs_load_model(cs_test_source("tests/data/mjcf/limit_load.xml"), NULL, &m) != CS_OK) {
    CHECK_MSG(0, "limit_load.xml: %s", cs_last_error());
    return cs_test_finish("test_limit_load");
  }
  m->opt.tolerance = 1e-8; /* the default 1e-6 leaves about 1e-9 rad of the solver's slack */
  test_setup(m);
  test_rest(m);
  cs_model_free(m);
  return cs_test_finish("test_limit_load");
}
