/* gripper: a parallel gripper closes on a box resting on a table and lifts it.

     ./gripper [gripper.xml]

   The model (examples/models/gripper.xml): a hand on a vertical slide ("lift") with two
   fingers on slide joints ("left", "right"), each joint driven by a position servo; the
   box is a free body. The program runs three phases by setting the servo targets (ctrl)
   before each cs_step:

     0 .. CLOSE_END        the fingers close: their targets go SQUEEZE past the box faces,
                           so that each servo pushes with about kp SQUEEZE
     CLOSE_END .. LIFT_END the hand's target rises by LIFT along a smooth ramp
     LIFT_END .. END       everything held for HOLD seconds

   Checks (exit status 1 if one fails):
     - every library call succeeds;
     - at the end the box has risen by LIFT within LIFT_TOL;
     - during the hold the box never drops: its height stays within LIFT_TOL of its height
       at the start of the hold.
   It prints the grip force: the normal forces between the fingers and the box
   (cs_contact_force), and the servo's own force kp (ctrl - q) - kv qdot for comparison. */
#include <math.h>
#include <stdio.h>

#include "contactsim/contactsim.h"

#ifndef EXAMPLES_MODELS
#define EXAMPLES_MODELS "models"
#endif

#define SQUEEZE 0.01   /* m, finger targets past the box faces (500 N/m: 5 N) */
#define LIFT 0.10      /* m, the hand's rise */
#define LIFT_TOL 0.005 /* m */
#define CLOSE_END 0.5  /* s */
#define LIFT_END 1.5   /* s */
#define HOLD 1.0       /* s */

/* Indices looked up by name once. */
typedef struct Gripper {
  int act_lift, act_left, act_right; /* actuators */
  int jnt_left, jnt_right;           /* finger joints */
  int geom_left, geom_right, geom_box;
  int box_z;     /* qpos index of the box's height (its free joint: x y z, quaternion) */
  double closed; /* finger target: the box face's position plus SQUEEZE */
} Gripper;

static int fail(const char* what, csStatus st) {
  fprintf(stderr, "gripper: %s: %s: %s\n", what, cs_status_name(st), cs_last_error());
  return 1;
}

static int grip_setup(const csModel* m, const csData* d, Gripper* g) {
  g->act_lift = cs_name2id(m, "actuator", "lift");
  g->act_left = cs_name2id(m, "actuator", "left");
  g->act_right = cs_name2id(m, "actuator", "right");
  g->jnt_left = cs_name2id(m, "joint", "left");
  g->jnt_right = cs_name2id(m, "joint", "right");
  g->geom_left = cs_name2id(m, "geom", "left");
  g->geom_right = cs_name2id(m, "geom", "right");
  g->geom_box = cs_name2id(m, "geom", "box");
  int box_jnt = cs_name2id(m, "joint", "box");
  if (g->act_lift < 0 || g->act_left < 0 || g->act_right < 0 || g->jnt_left < 0 ||
      g->jnt_right < 0 || g->geom_left < 0 || g->geom_right < 0 || g->geom_box < 0 || box_jnt < 0 ||
      m->jnt_type[box_jnt] != CS_JNT_FREE) {
    fprintf(stderr,
            "gripper: the model needs actuators lift, left, right, joints left, "
            "right, geoms left, right, box and a free joint 'box'\n");
    return 1;
  }
  g->box_z = m->jnt_qposadr[box_jnt] + 2;
  /* Gap between the left pad's inner face and the box's face at q = 0, from the compiled
     model (the fingers are symmetric): finger x + pad half width to box half width. */
  int bl = m->geom_body[g->geom_left];
  double pad_face =
      m->body_pos[3 * bl] + m->geom_pos[3 * g->geom_left] + m->geom_size[3 * g->geom_left];
  double box_face = d->qpos[g->box_z - 2] - m->geom_size[3 * g->geom_box];
  g->closed = box_face - pad_face + SQUEEZE;
  return 0;
}

/* A smooth ramp from 0 at t0 to 1 at t1 (zero velocity at both ends). */
static double ramp(double t, double t0, double t1) {
  if (t <= t0) return 0;
  if (t >= t1) return 1;
  double s = (t - t0) / (t1 - t0);
  return s * s * (3 - 2 * s);
}

/* The servo targets at time t. */
static void grip_control(csData* d, const Gripper* g) {
  double close = ramp(d->time, 0, 0.6 * CLOSE_END);
  d->ctrl[g->act_left] = close * g->closed;
  d->ctrl[g->act_right] = close * g->closed;
  d->ctrl[g->act_lift] = LIFT * ramp(d->time, CLOSE_END, LIFT_END);
}

/* The sum of the normal forces between a finger's geom and the box (N). */
static int finger_force(const csModel* m, const csData* d, int finger, const Gripper* g,
                        double* fn) {
  *fn = 0;
  for (int i = 0; i < d->ncon; i++) {
    const csContact* c = &d->contact[i];
    if (!((c->geom[0] == finger && c->geom[1] == g->geom_box) ||
          (c->geom[1] == finger && c->geom[0] == g->geom_box)))
      continue;
    double f[6];
    csStatus st = cs_contact_force(m, d, i, f, NULL);
    if (st != CS_OK) return fail("cs_contact_force", st);
    /* the normal component: the force along the contact normal n (frame row 0) */
    *fn += fabs(f[0] * c->frame[0] + f[1] * c->frame[1] + f[2] * c->frame[2]);
  }
  return 0;
}

/* The force a position servo applies (before its force range): kp (ctrl - q) - kv qdot,
   gear 1. */
static double servo_force(const csModel* m, const csData* d, int act) {
  int j = m->actuator_jnt[act];
  double q = d->qpos[m->jnt_qposadr[j]], v = d->qvel[m->jnt_dofadr[j]];
  return m->actuator_kp[act] * (d->ctrl[act] - q) - m->actuator_kd[act] * v;
}

static int grip_run(const csModel* m, csData* d, const Gripper* g) {
  double z0 = d->qpos[g->box_z], z_hold = 0, drop = 0;
  long n = (long)((LIFT_END + HOLD) / m->opt.timestep + 0.5);
  for (long k = 0; k < n; k++) {
    grip_control(d, g);
    csStatus st = cs_step(m, d);
    if (st != CS_OK) return fail("cs_step", st);
    if (z_hold == 0 && d->time >= LIFT_END) z_hold = d->qpos[g->box_z];
    if (z_hold != 0 && z_hold - d->qpos[g->box_z] > drop) drop = z_hold - d->qpos[g->box_z];
  }
  double fl, fr;
  if (finger_force(m, d, g->geom_left, g, &fl) || finger_force(m, d, g->geom_right, g, &fr))
    return 1;
  double rise = d->qpos[g->box_z] - z0;
  printf("box rise %.5f m (lift %.3f m), largest drop while held %.2e m\n", rise, LIFT, drop);
  printf("grip force left %.4f N, right %.4f N (servos: %.4f N, %.4f N)\n", fl, fr,
         servo_force(m, d, g->act_left), servo_force(m, d, g->act_right));
  int rc = 0;
  if (!(fabs(rise - LIFT) <= LIFT_TOL)) {
    fprintf(stderr, "gripper: FAIL: the box rose %.4f m, not %.3f m\n", rise, LIFT);
    rc = 1;
  }
  if (!(drop <= LIFT_TOL)) {
    fprintf(stderr, "gripper: FAIL: the box dropped %.4f m while held\n", drop);
    rc = 1;
  }
  return rc;
}

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : EXAMPLES_MODELS "/gripper.xml";
  csLoadOptions opt;
  cs_load_options_default(&opt);
  csModel* m = NULL;
  csStatus st = cs_load_model(path, &opt, &m);
  if (st != CS_OK) return fail(path, st);
  csData* d = cs_data_new(m);
  if (!d) {
    fprintf(stderr, "gripper: cs_data_new: %s\n", cs_last_error());
    cs_model_free(m);
    return 1;
  }
  Gripper g;
  int rc = grip_setup(m, d, &g);
  if (rc == 0) rc = grip_run(m, d, &g);
  cs_data_free(d);
  cs_model_free(m);
  return rc;
}
