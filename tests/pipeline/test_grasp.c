/* Grasps that hold: the pinch of tests/data/mjcf/pinch*.xml (two fingers on slide joints
   squeeze a 45 g capsule with 10 N each, mu = 1, no floor). Held at the motors' constant
   control, the capsule must not creep: its height change from 1 s to the end (drift, um/s)
   and its rotation about the squeeze axis x (rad) stay below the bounds below (the worst
   capsule of pinch_x5.xml, five pinches in one contact problem of 20 contacts), for the
   default solver and the solvers that enforce stiction exactly. A failure here is the
   creep of a grasp: an impulse in the friction cone's interior that lets the object slip. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

#if defined(__SANITIZE_ADDRESS__)
enum { END_STEPS = 4000 }; /* 1 s to 4 s */
#else
enum { END_STEPS = 10000 }; /* 1 s to 10 s */
#endif

typedef struct Hold {
  double drift_um_s; /* capsule height change per second after 1 s */
  double rot;        /* rotation about world x after 1 s (rad) */
  int failed_steps;  /* cs_step errors */
} Hold;

/* Rotation angle about world x of the unit quaternion q relative to q0 (small angles). */
static double rot_x(const double q0[4], const double q[4]) {
  /* r = q q0^-1; its x part is sin(angle / 2) times the axis' x component */
  double w = q[0] * q0[0] + q[1] * q0[1] + q[2] * q0[2] + q[3] * q0[3];
  double x = -q[0] * q0[1] + q[1] * q0[0] - q[2] * q0[3] + q[3] * q0[2];
  return 2 * atan2(x, w);
}

/* Runs file with solver for END_STEPS steps at the motors' constant control; the worst
   drift and rotation over the model's free bodies (the capsules). */
static Hold run_pinch(const char* file, const char* solver) {
  enum { MAXC = 8 };
  Hold h = {0, 0, 0};
  csModel* m = NULL;
  if (cs_load_model(cs_test_source(file), NULL, &m) != CS_OK) {
    printf("load %s: %s\n", file, cs_last_error());
    h.failed_steps = -1;
    return h;
  }
  m->opt.solver = cs_solver_from_name(solver);
  csData* d = cs_data_new(m);
  CHECK_MSG(d != NULL, "%s: cs_data_new: %s", file, cs_last_error());
  if (!d) {
    cs_model_free(m);
    h.failed_steps = -1;
    return h;
  }
  for (int i = 0; i < m->nu; i++) d->ctrl[i] = 1;
  int qa[MAXC], nc = 0; /* qpos address of each capsule: x y z qw qx qy qz */
  for (int j = 0; j < m->njnt && nc < MAXC; j++)
    if (m->jnt_type[j] == CS_JNT_FREE) qa[nc++] = m->jnt_qposadr[j];
  CHECK_MSG(nc > 0, "%s: no free body", file);
  double z1[MAXC], q1[MAXC][4];
  for (int k = 1; k <= END_STEPS; k++) {
    if (cs_step(m, d) != CS_OK) {
      h.failed_steps++;
      break;
    }
    if (k == 1000)
      for (int c = 0; c < nc; c++) {
        z1[c] = d->qpos[qa[c] + 2];
        memcpy(q1[c], d->qpos + qa[c] + 3, sizeof q1[c]);
      }
  }
  for (int c = 0; c < nc; c++) {
    double drift = (d->qpos[qa[c] + 2] - z1[c]) / ((END_STEPS - 1000) * 1e-3) * 1e6;
    double rot = rot_x(q1[c], d->qpos + qa[c] + 3);
    if (!(fabs(drift) <= fabs(h.drift_um_s))) h.drift_um_s = drift; /* NaN wins */
    if (!(fabs(rot) <= fabs(h.rot))) h.rot = rot;
  }
  cs_data_free(d);
  cs_model_free(m);
  return h;
}

int main(void) {
  static const char* const files[] = {"tests/data/mjcf/pinch.xml",
                                      "tests/data/mjcf/pinch_horizontal.xml",
                                      "tests/data/mjcf/pinch_x5.xml"};
  /* bounds: drift (um/s) and rotation (rad) */
  static const struct {
    const char* solver;
    double drift, rot;
  } cases[] = {{"bisection", 0.015, 1e-5},
               {"bisection_desaxce", 0.015, 1e-5},
               {"ncp_admm", 1e-4, 1e-8},
               {"nsn_ac", 1e-4, 1e-8},
               {"staggered", 1e-4, 1e-8}};
  for (int f = 0; f < 3; f++)
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      Hold h = run_pinch(files[f], cases[c].solver);
      printf("%-38s %-18s drift %+.6f um/s  rotation %+.3e rad  (bounds %g, %g)\n", files[f],
             cases[c].solver, h.drift_um_s, h.rot, cases[c].drift, cases[c].rot);
      CHECK_MSG(h.failed_steps == 0, "%s %s: %d failed steps", files[f], cases[c].solver,
                h.failed_steps);
      CHECK_MSG(fabs(h.drift_um_s) <= cases[c].drift, "%s %s: drift %g um/s", files[f],
                cases[c].solver, h.drift_um_s);
      CHECK_MSG(fabs(h.rot) <= cases[c].rot, "%s %s: rotation %g rad", files[f], cases[c].solver,
                h.rot);
    }
  return cs_test_finish("test_grasp");
}
