/* arm_hold: a fixed-base arm holds a pose while its fingertip presses on a table.

     ./arm_hold [arm.xml]

   The model (examples/models/arm.xml) is a planar 3-link arm with a position servo on each
   joint and a site "tip" at the centre of its fingertip sphere. Its keyframe "hold" puts
   the fingertip on the table's top. The controller holds that pose and presses the tip
   down with PRESS newtons:

     tau  = g(q) + J_tip^T (0, 0, -PRESS)     gravity compensation + the press
     ctrl = q_hold + tau / kp                 a position servo's target that gives tau at
                                              q_hold (servo: kp (ctrl - q) - kv qdot)

   g(q) and J_tip depend on the current state. The step is split in two to compute them
   once, where the step computes them anyway:

     cs_step1   kinematics, bias forces (qfrc_bias: gravity + Coriolis), collision
     (here)     read qfrc_bias, the tip's Jacobian; set ctrl
     cs_step2   actuation from ctrl, the contact solve, integration

   After each step the fingertip's contact force is read with cs_contact_force.

   Checks (exit status 1 if one fails):
     - every library call succeeds;
     - the joints stay within HOLD_TOL of the held pose after the first SETTLE seconds;
     - the steady force on the table (mean over the last second) equals the commanded press
       within 2 %, and equals what statics gives from the joint torques within 2 %: at rest
       J_c^T F = qfrc_bias - qfrc_actuator - qfrc_damping (J_c: the Jacobian at the
       contact point, F: the table's force on the arm), solved for F by least squares. */
#include <math.h>
#include <stdio.h>

#include "contactsim/contactsim.h"

#ifndef EXAMPLES_MODELS
#define EXAMPLES_MODELS "models"
#endif

#define PRESS 10.0    /* N, the tip's push on the table */
#define DURATION 3.0  /* s simulated */
#define SETTLE 0.5    /* s before the pose is checked */
#define HOLD_TOL 0.01 /* rad, the largest joint error allowed after SETTLE */
#define NV_MAX 16     /* the arm's dofs at most (arrays on the stack) */

/* What the controller needs from the model, looked up by name once. */
typedef struct Arm {
  int tip;               /* site at the fingertip's centre */
  int fingertip;         /* the fingertip's geom */
  int table;             /* the table's geom */
  double q_hold[NV_MAX]; /* the held joint angles: the keyframe's */
} Arm;

static int fail(const char* what, csStatus st) {
  fprintf(stderr, "arm_hold: %s: %s: %s\n", what, cs_status_name(st), cs_last_error());
  return 1;
}

/* Look up the site, geoms and keyframe; reset d to the keyframe. */
static int arm_setup(const csModel* m, csData* d, Arm* arm) {
  arm->tip = cs_name2id(m, "site", "tip");
  arm->fingertip = cs_name2id(m, "geom", "fingertip");
  arm->table = cs_name2id(m, "geom", "table");
  int key = cs_name2id(m, "key", "hold");
  if (arm->tip < 0 || arm->fingertip < 0 || arm->table < 0 || key < 0) {
    fprintf(stderr,
            "arm_hold: the model needs a site 'tip', geoms 'fingertip' and 'table' "
            "and a keyframe 'hold'\n");
    return 1;
  }
  if (m->nv > NV_MAX || m->nq != m->nv || m->nu != m->nv) {
    fprintf(stderr, "arm_hold: the model needs hinge joints, one actuator each, at most %d\n",
            NV_MAX);
    return 1;
  }
  csStatus st = cs_data_reset_key(m, d, key);
  if (st != CS_OK) return fail("cs_data_reset_key", st);
  for (int i = 0; i < m->nv; i++) arm->q_hold[i] = d->qpos[i]; /* hinges: qpos = angle */
  return 0;
}

/* Between cs_step1 and cs_step2: the servo targets that give gravity compensation plus the
   press at the held pose. Actuator a drives joint actuator_jnt[a] with gear 1. */
static void arm_control(const csModel* m, csData* d, const Arm* arm) {
  double jacp[3 * NV_MAX];
  cs_site_poses(m, d); /* the step computes site poses only on request */
  cs_jac_site(m, d, jacp, NULL, arm->tip);
  const double push[3] = {0, 0, -PRESS}; /* the force the tip applies to the table */
  for (int a = 0; a < m->nu; a++) {
    int dof = m->jnt_dofadr[m->actuator_jnt[a]];
    double tau = d->qfrc_bias[dof];
    for (int k = 0; k < 3; k++) tau += jacp[k * m->nv + dof] * push[k];
    d->ctrl[a] = arm->q_hold[dof] + tau / m->actuator_kp[a];
  }
}

/* The force of the table on the arm at the fingertip contact (world frame) into f_arm
   and the contact's index into *icon (-1 and a zero force when the tip does not touch the
   table). Returns cs_contact_force's status. */
static csStatus tip_force(const csModel* m, const csData* d, const Arm* arm, double f_arm[3],
                          int* icon) {
  f_arm[0] = f_arm[1] = f_arm[2] = 0;
  *icon = -1;
  for (int i = 0; i < d->ncon; i++) {
    const int* g = d->contact[i].geom;
    int tip_second = g[1] == arm->fingertip && g[0] == arm->table;
    if (!tip_second && !(g[0] == arm->fingertip && g[1] == arm->table)) continue;
    double f[6];
    csStatus st = cs_contact_force(m, d, i, f, NULL);
    if (st != CS_OK) return st;
    /* f acts on the body of geom[1]: the arm's if the fingertip is geom[1] */
    for (int k = 0; k < 3; k++) f_arm[k] = tip_second ? f[k] : -f[k];
    *icon = i;
    break;
  }
  return CS_OK;
}

/* Statics at the last step: solve J_c^T F = qfrc_bias - qfrc_actuator - qfrc_damping for
   the table's force F on the arm (least squares over the nv joints: the x and z rows of
   J_c, the arm being planar in x-z). Returns the residual's norm (N m). */
static double statics_force(const csModel* m, csData* d, const double pos[3], int body,
                            double F[3]) {
  double jacp[3 * NV_MAX], r[NV_MAX];
  cs_jac(m, d, jacp, NULL, pos, body);
  for (int i = 0; i < m->nv; i++) r[i] = d->qfrc_bias[i] - d->qfrc_actuator[i] - d->qfrc_damping[i];
  const double* jx = jacp;
  const double* jz = jacp + 2 * m->nv;
  double a = 0, b = 0, c = 0, u = 0, w = 0; /* [a b; b c] (Fx, Fz) = (u, w) */
  for (int i = 0; i < m->nv; i++) {
    a += jx[i] * jx[i], b += jx[i] * jz[i], c += jz[i] * jz[i];
    u += jx[i] * r[i], w += jz[i] * r[i];
  }
  double det = a * c - b * b;
  F[0] = (c * u - b * w) / det;
  F[1] = 0;
  F[2] = (a * w - b * u) / det;
  double res = 0;
  for (int i = 0; i < m->nv; i++) {
    double e = jx[i] * F[0] + jz[i] * F[2] - r[i];
    res += e * e;
  }
  return sqrt(res);
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Relative difference |a - b| / |b| of two vectors */
static double rel_diff(const double a[3], const double b[3]) {
  double e[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return norm3(e) / norm3(b);
}

/* Run the controller for DURATION; the mean force on the arm over the last second into
   f_mean, the largest joint error after SETTLE into *qerr. */
static int arm_run(const csModel* m, csData* d, const Arm* arm, double f_mean[3], double* qerr) {
  long n = (long)(DURATION / m->opt.timestep + 0.5);
  long n_avg = (long)(1.0 / m->opt.timestep + 0.5), counted = 0;
  csStatus st;
  *qerr = 0;
  f_mean[0] = f_mean[1] = f_mean[2] = 0;
  for (long k = 0; k < n; k++) {
    if ((st = cs_step1(m, d)) != CS_OK) return fail("cs_step1", st);
    arm_control(m, d, arm);
    if ((st = cs_step2(m, d)) != CS_OK) return fail("cs_step2", st);
    double f[3];
    int icon;
    if ((st = tip_force(m, d, arm, f, &icon)) != CS_OK) return fail("cs_contact_force", st);
    if (d->time > SETTLE)
      for (int i = 0; i < m->nv; i++)
        if (fabs(d->qpos[i] - arm->q_hold[i]) > *qerr) *qerr = fabs(d->qpos[i] - arm->q_hold[i]);
    if (k >= n - n_avg) {
      for (int j = 0; j < 3; j++) f_mean[j] += f[j];
      counted++;
    }
  }
  for (int j = 0; j < 3; j++) f_mean[j] /= (double)counted;
  return 0;
}

/* The checks after the run; 0 when they pass. */
static int arm_check(const csModel* m, csData* d, const Arm* arm, const double f_mean[3],
                     double qerr) {
  double f_last[3], F_statics[3];
  int i;
  csStatus st = tip_force(m, d, arm, f_last, &i);
  if (st != CS_OK) return fail("cs_contact_force", st);
  if (i < 0) {
    fprintf(stderr, "arm_hold: FAIL: the fingertip is not on the table at the end\n");
    return 1;
  }
  int body = m->geom_body[arm->fingertip];
  double res = statics_force(m, d, d->contact[i].pos, body, F_statics);
  const double F_press[3] = {0, 0, PRESS}; /* the table's push on the arm */
  double e_press = rel_diff(f_mean, F_press), e_statics = rel_diff(f_mean, F_statics);
  printf("joint error after %.1f s: %.2e rad (tolerance %.2e)\n", SETTLE, qerr, HOLD_TOL);
  printf("steady force on the table: (%.4f, %.4f, %.4f) N\n", -f_mean[0], -f_mean[1], -f_mean[2]);
  printf("steady normal force %.4f N (commanded %.4f N: %.3f %%)\n", f_mean[2], PRESS,
         100 * e_press);
  printf("statics from the joint torques: (%.4f, %.4f, %.4f) N (%.3f %%, residual %.1e N m)\n",
         -F_statics[0], -F_statics[1], -F_statics[2], 100 * e_statics, res);
  int rc = 0;
  if (!(qerr <= HOLD_TOL)) {
    fprintf(stderr, "arm_hold: FAIL: the pose is not held\n");
    rc = 1;
  }
  if (!(e_press <= 0.02)) {
    fprintf(stderr, "arm_hold: FAIL: the force is not the commanded press\n");
    rc = 1;
  }
  if (!(e_statics <= 0.02)) {
    fprintf(stderr, "arm_hold: FAIL: the force is not what statics gives\n");
    rc = 1;
  }
  return rc;
}

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : EXAMPLES_MODELS "/arm.xml";
  csLoadOptions opt;
  cs_load_options_default(&opt);
  csModel* m = NULL;
  csStatus st = cs_load_model(path, &opt, &m);
  if (st != CS_OK) return fail(path, st);
  csData* d = cs_data_new(m);
  if (!d) {
    fprintf(stderr, "arm_hold: cs_data_new: %s\n", cs_last_error());
    cs_model_free(m);
    return 1;
  }
  Arm arm;
  double f_mean[3], qerr;
  int rc = arm_setup(m, d, &arm);
  if (rc == 0) rc = arm_run(m, d, &arm, f_mean, &qerr);
  if (rc == 0) rc = arm_check(m, d, &arm, f_mean, qerr);
  cs_data_free(d);
  cs_model_free(m);
  return rc;
}
