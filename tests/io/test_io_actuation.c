/* Actuators, fixed tendons, condim and URDF joint friction and effort from model files the
   test writes to a temporary directory.
   - MJCF <general> (fixed gain, affine bias) and <velocity>: the applied joint force equals
     MuJoCo's gear (gain ctrl + b0 + b1 gear q + b2 gear qdot), ctrl and force clamped
     (exact); <general> that is motor- or position-like keeps its type; a velocity actuator
     drives a free hinge to its ctrl speed along the exact semi-implicit Euler sequence;
   - fixed tendons: an actuator on a tendon applies coef_i gear force to each joint (exact);
     two coupled fingers pushed apart settle with the tendon's length at its upper bound;
   - condim 1: a frictionless box slides down an incline with a = g sin(theta), while the
     same box with condim 3 stays put;
   - URDF <dynamics friction F>: a hinge under a torque below F stays still, above it
     accelerates by (tau - F) / I; <limit effort> clamps the summed actuator force;
   - bad input: a clear error naming file, line and element. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"
#include "cs_test_models.h"

static char tmpdir[64];

static csModel* load_text(const char* name, const char* text) {
  return cs_test_load_text_fixed(tmpdir, name, text); /* a URDF's base welded to the world */
}

/* The load fails with status want and a message naming name:line and containing also. */
static void expect_error(const char* name, const char* text, csStatus want, int line,
                         const char* also) {
  cs_test_expect_load_error(tmpdir, name, text, want, line, also);
}

/* ------------------------------------------------------------------ MJCF actuators */
/* Three hinges about z through their bodies' centres of mass (Izz = 0.1), no gravity, no
   contacts; the actuators given by act */
static const char* three_hinges =
    "<mujoco>\n"
    "  <compiler angle=\"radian\" autolimits=\"true\"/>\n"
    "  <option gravity=\"0 0 0\" timestep=\"0.001\"/>\n"
    "  <default><geom contype=\"0\" conaffinity=\"0\"/></default>\n"
    "  <worldbody>\n"
    "    <body name=\"a\"><joint name=\"ja\" axis=\"0 0 1\"/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.1 0.1 0.1\"/></body>\n"
    "    <body name=\"b\" pos=\"1 0 0\"><joint name=\"jb\" axis=\"0 0 1\"/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.1 0.1 0.1\"/></body>\n"
    "    <body name=\"c\" pos=\"2 0 0\"><joint name=\"jc\" axis=\"0 0 1\"/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.1 0.1 0.1\"/></body>\n"
    "  </worldbody>\n"
    "  <actuator>\n%s  </actuator>\n"
    "</mujoco>\n";

static csModel* hinges_with(const char* name, const char* act) {
  char text[4096];
  snprintf(text, sizeof text, three_hinges, act);
  return load_text(name, text);
}

/* MuJoCo's force of an affine actuator on a joint: gear (g c + b0 + b1 gear q + b2 gear qd),
   ctrl and force clamped */
static double affine_tau(double gear, double g, const double* b, double c, const double* cr,
                         const double* fr, double q, double qd) {
  if (cr) c = c < cr[0] ? cr[0] : c > cr[1] ? cr[1] : c;
  double f = g * c + b[0] + b[1] * (gear * q) + b[2] * (gear * qd);
  if (fr) f = f < fr[0] ? fr[0] : f > fr[1] ? fr[1] : f;
  return gear * f;
}

static void test_general_formula(void) {
  csModel* m = hinges_with(
      "general.xml",
      "    <general name=\"g\" joint=\"ja\" gear=\"1.5\" gainprm=\"2.5\" biastype=\"affine\"\n"
      "             biasprm=\"0.3 -4 -0.7\"/>\n"
      "    <general name=\"gc\" joint=\"jb\" gainprm=\"4\" biastype=\"affine\" biasprm=\"0 1 "
      "0\"\n"
      "             ctrlrange=\"-1 0.5\" forcerange=\"-2 1.25\"/>\n"
      "    <velocity name=\"v\" joint=\"jc\" kv=\"3\" gear=\"2\"/>\n"
      "    <general name=\"asmotor\" joint=\"ja\" gear=\"2\"/>\n"
      "    <general name=\"aspos\" joint=\"jb\" gainprm=\"5\" biastype=\"affine\" biasprm=\"0 -5 "
      "-1\"/>\n");
  if (!m) return;
  CHECK(m->nu == 5);
  int g = cs_name2id(m, "actuator", "g"), v = cs_name2id(m, "actuator", "v");
  CHECK(m->actuator_type[g] == CS_ACT_GENERAL && m->actuator_type[v] == CS_ACT_GENERAL);
  CHECK(m->actuator_type[cs_name2id(m, "actuator", "asmotor")] == CS_ACT_MOTOR);
  int ap = cs_name2id(m, "actuator", "aspos");
  CHECK(m->actuator_type[ap] == CS_ACT_POSITION && m->actuator_kp[ap] == 5 &&
        m->actuator_kd[ap] == 1);
  CHECK(m->actuator_gainprm[v] == 3 && m->actuator_biasprm[3 * v + 2] == -3);
  csData* d = cs_data_new(m);
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  double q[3] = {0.4, -0.3, 1.1}, qd[3] = {0.7, 2.0, -0.9};
  double ctrl[2][5] = {{0.8, 0.2, 0.5, 0, 0}, {-1.7, 3.0, -0.25, 0, 0}};
  for (int k = 0; k < 2; k++) {
    memcpy(d->qpos, q, sizeof q), memcpy(d->qvel, qd, sizeof qd);
    memcpy(d->ctrl, ctrl[k], sizeof ctrl[k]);
    CHECK(cs_forward(m, d) == CS_OK);
    double bg[3] = {0.3, -4, -0.7}, bgc[3] = {0, 1, 0}, bv[3] = {0, 0, -3};
    double cr[2] = {-1, 0.5}, fr[2] = {-2, 1.25};
    double ta = affine_tau(1.5, 2.5, bg, ctrl[k][0], NULL, NULL, q[0], qd[0]);
    double tb = affine_tau(1, 4, bgc, ctrl[k][1], cr, fr, q[1], qd[1]);
    double tp = 5 * (0 - q[1]) - 1 * qd[1]; /* aspos, also on jb (ctrl 0) */
    double tc = affine_tau(2, 3, bv, ctrl[k][2], NULL, NULL, q[2], qd[2]);
    CHECK_NEAR(d->qfrc_actuator[0], ta, 0);
    CHECK_NEAR(d->qfrc_actuator[1], tb + tp, 0);
    CHECK_NEAR(d->qfrc_actuator[2], tc, 0);
    /* the second set of controls is outside gc's range, and its force outside forcerange */
    if (k == 1) CHECK(d->qfrc_actuator[1] == 1.25 + tp);
  }
  cs_data_free(d);
  cs_model_free(m);
}

/* A velocity actuator (kv, gear 1) on a free hinge with Izz = I: semi-implicit Euler gives
   qd_{n+1} = qd_n + dt kv (c - qd_n) / I, so qd reaches c */
static void test_velocity_drive(void) {
  csModel* m = hinges_with("velocity.xml", "    <velocity joint=\"ja\" kv=\"1\"/>\n");
  csData* d = m ? cs_data_new(m) : NULL;
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  double c = 2.5, I = 0.1, dt = 1e-3, kv = 1, qd = 0, err100 = 0;
  d->ctrl[0] = c;
  for (int n = 0; n < 2000; n++) {
    CHECK(cs_step(m, d) == CS_OK);
    qd = qd + dt * kv * (c - qd) / I;
    if (n == 99) err100 = fabs(d->qvel[0] - qd) / qd;
  }
  CHECK_MSG(err100 < 1e-12, "relative error after 100 steps %g", err100);
  CHECK_NEAR(d->qvel[0], c, 1e-6);
  printf("velocity actuator: qd %.12g after 2 s (ctrl %g), relative error at step 100 %.2g\n",
         d->qvel[0], c, err100);
  cs_data_free(d);
  cs_model_free(m);
}

/* A joint's actuatorfrcrange clamps the sum of its actuators' forces (two motors, gear 2) */
static const char* frc_joint =
    "<mujoco>\n"
    "  <compiler autolimits=\"true\"/>\n"
    "  <worldbody>\n"
    "    <body><joint name=\"j\" axis=\"0 0 1\" actuatorfrcrange=\"-1 1.5\" %s/>\n"
    "      <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.1 0.1 0.1\"/></body>\n"
    "  </worldbody>\n"
    "  <actuator><motor joint=\"j\" gear=\"2\"/><motor joint=\"j\" gear=\"2\"/></actuator>\n"
    "</mujoco>\n";

static void test_joint_force_range(void) {
  char text[2048];
  snprintf(text, sizeof text, frc_joint, "");
  csModel* m = load_text("frc.xml", text);
  csData* d = m ? cs_data_new(m) : NULL;
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  CHECK(m->njntfrc == 1 && m->jntfrc_jnt[0] == 0);
  double ctrl[3][2] = {{0.1, 0.2}, {0.5, 0.5}, {-0.5, 0.1}},
         want[3] = {0.6000000000000001, 1.5, -0.8};
  for (int k = 0; k < 3; k++) {
    d->ctrl[0] = ctrl[k][0], d->ctrl[1] = ctrl[k][1];
    CHECK(cs_forward(m, d) == CS_OK);
    CHECK_NEAR(d->qfrc_actuator[0], want[k], 0);
  }
  cs_data_free(d);
  cs_model_free(m);
  snprintf(text, sizeof text, frc_joint, "actuatorfrclimited=\"false\"");
  m = load_text("frc_off.xml", text);
  CHECK(m && m->njntfrc == 0);
  cs_model_free(m);
}

/* ------------------------------------------------------------------ fixed tendons */
static const char* fingers =
    "<mujoco>\n"
    "  <compiler angle=\"radian\" autolimits=\"true\"/>\n"
    "  <option gravity=\"0 0 0\" timestep=\"0.001\"/>\n"
    "  <default><geom contype=\"0\" conaffinity=\"0\"/></default>\n"
    "  <worldbody>\n"
    "    <body name=\"f1\"><joint name=\"j1\" axis=\"0 0 1\" range=\"-1 1\"/>\n"
    "      <geom type=\"capsule\" fromto=\"0 0 0 0.1 0 0\" size=\"0.01\"/></body>\n"
    "    <body name=\"f2\" pos=\"0 0.1 0\"><joint name=\"j2\" axis=\"0 0 1\" range=\"-1 1\"/>\n"
    "      <geom type=\"capsule\" fromto=\"0 0 0 0.1 0 0\" size=\"0.01\"/></body>\n"
    "  </worldbody>\n"
    "  <tendon>\n"
    "    <fixed name=\"t\" range=\"-0.5 0.5\">\n"
    "      <joint joint=\"j1\" coef=\"1\"/><joint joint=\"j2\" coef=\"%s\"/>\n"
    "    </fixed>\n"
    "  </tendon>\n"
    "  <actuator>\n%s  </actuator>\n"
    "</mujoco>\n";

static void test_tendon_actuator(void) {
  char text[4096];
  snprintf(text, sizeof text, fingers, "-0.5",
           "    <motor name=\"m\" tendon=\"t\" gear=\"2\"/>\n"
           "    <position name=\"p\" tendon=\"t\" kp=\"7\" kv=\"0.5\"/>\n");
  csModel* m = load_text("tendon_act.xml", text);
  csData* d = m ? cs_data_new(m) : NULL;
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  CHECK(m->ntendon == 1 && m->nwrap == 2 && m->tendon_limited[0] == 1);
  CHECK(m->actuator_tendon[0] == 0 && m->actuator_jnt[0] == -1);
  d->qpos[0] = 0.2, d->qpos[1] = 0.3, d->qvel[0] = 1, d->qvel[1] = -2;
  d->ctrl[0] = 3, d->ctrl[1] = 0.1;
  CHECK(cs_forward(m, d) == CS_OK);
  double L = 0.2 - 0.5 * 0.3, Ld = 1 - 0.5 * -2;
  double fp = 7 * (0.1 - L) - 0.5 * Ld; /* MuJoCo's position servo on the tendon */
  CHECK_NEAR(d->qfrc_actuator[0], 1 * 2 * 3 + 1 * fp, 1e-15);
  CHECK_NEAR(d->qfrc_actuator[1], -0.5 * 2 * 3 + -0.5 * fp, 1e-15);
  cs_data_free(d);
  cs_model_free(m);
}

/* Two fingers pushed to open (torques 1 and 0.6 N m) with their joints limited to +-1 and
   the tendon q1 + q2 to <= 0.5: they settle at q1 = 1, q2 = -0.5 with the tendon taut */
static void test_tendon_limit(void) {
  char text[4096];
  snprintf(text, sizeof text, fingers, "1", "");
  csModel* m = load_text("tendon_limit.xml", text);
  csData* d = m ? cs_data_new(m) : NULL;
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  double Lmax = -1e9;
  for (int n = 0; n < 3000; n++) {
    d->qfrc_applied[0] = 1, d->qfrc_applied[1] = 0.6;
    CHECK(cs_step(m, d) == CS_OK);
    double L = d->qpos[0] + d->qpos[1];
    if (n > 1500 && L > Lmax) Lmax = L;
  }
  double L = d->qpos[0] + d->qpos[1];
  printf(
      "tendon limit: L - 0.5 = %.3g (bound 0.5), max over the last 1.5 s - 0.5 = %.3g, q %.9g "
      "%.9g\n",
      L - 0.5, Lmax - 0.5, d->qpos[0], d->qpos[1]);
  CHECK(Lmax <= 0.5 + 1e-6);
  CHECK_NEAR(L, 0.5, 1e-6);
  /* finger 1 at its joint limit; finger 2 held by the tendon, 0.5 from its own limit */
  CHECK_NEAR(d->qpos[0], 1, 1e-6);
  CHECK_NEAR(d->qpos[1], -0.5, 1e-6);
  cs_data_free(d);
  cs_model_free(m);
}

/* ------------------------------------------------------------------ condim */
/* A box on a plane tilted by 0.3 rad about x; frictionless (condim 1 on both) it slides with
   a = g sin(theta); with condim 3 and friction 1 (> tan 0.3) it stays */
static void test_condim_incline(void) {
  const char* fmt =
      "<mujoco>\n"
      "  <compiler angle=\"radian\"/>\n"
      "  <option timestep=\"0.001\"/>\n"
      "  <worldbody>\n"
      "    <geom name=\"floor\" type=\"plane\" size=\"5 5 0.1\" euler=\"0.3 0 0\" condim=\"%d\"/>\n"
      "    <body name=\"box\" pos=\"0 -0.0295520207 0.0955336489\" euler=\"0.3 0 0\"><freejoint/>\n"
      "      <geom name=\"b\" type=\"box\" size=\"0.1 0.1 0.1\" condim=\"%d\"/></body>\n"
      "  </worldbody>\n"
      "</mujoco>\n";
  double th = 0.3, g = 9.81;
  for (int cd = 1; cd <= 3; cd += 2) {
    char text[2048], name[32];
    snprintf(text, sizeof text, fmt, cd, cd);
    snprintf(name, sizeof name, "incline%d.xml", cd);
    csModel* m = load_text(name, text);
    csData* d = m ? cs_data_new(m) : NULL;
    CHECK(d != NULL);
    if (!d) {
      cs_model_free(m);
      continue;
    }
    CHECK(m->geom_condim[0] == cd && m->geom_condim[1] == cd);
    CHECK(m->geom_friction[0] == 1); /* condim 1 keeps the geom's friction: the contact drops it */
    /* settle the contact for 0.1 s, then measure the velocity gained along the slope */
    for (int n = 0; n < 100; n++) cs_step(m, d);
    double dir[3] = {0, -cos(th), -sin(th)}; /* down the slope */
    double v0 = d->qvel[1] * dir[1] + d->qvel[2] * dir[2], t0 = d->time;
    for (int n = 0; n < 400; n++) CHECK(cs_step(m, d) == CS_OK);
    double v1 = d->qvel[1] * dir[1] + d->qvel[2] * dir[2];
    double a = (v1 - v0) / (d->time - t0);
    printf(
        "condim %d: acceleration down the incline %.12g (g sin(theta) = %.12g, difference "
        "%.2g), contacts %d\n",
        cd, a, g * sin(th), a - g * sin(th), d->ncon);
    CHECK(d->ncon >= 1);
    if (cd == 1)
      CHECK_MSG(fabs(a - g * sin(th)) < 1e-6 * g, "a %.12g", a);
    else
      CHECK_MSG(fabs(a) < 1e-6, "a %.12g", a);
    cs_data_free(d);
    cs_model_free(m);
  }
}

/* ------------------------------------------------------------------ URDF */
static const char* urdf_hinge =
    "<robot name=\"r\">\n"
    "  <link name=\"base\"/>\n"
    "  <link name=\"arm\"><inertial><origin xyz=\"0 0 0\"/><mass value=\"1\"/>\n"
    "    <inertia ixx=\"0.2\" iyy=\"0.2\" izz=\"0.05\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
    "  </link>\n"
    "  <joint name=\"hinge\" type=\"continuous\"><parent link=\"base\"/><child link=\"arm\"/>\n"
    "    <axis xyz=\"0 0 1\"/>\n"
    "    <limit effort=\"%s\" velocity=\"1\"/>\n"
    "    <dynamics damping=\"0\" friction=\"%s\"/>\n"
    "  </joint>\n"
    "</robot>\n";

/* <dynamics friction F>: below F the hinge stays, above it qacc = (tau - F) / I */
static void test_urdf_friction(void) {
  char text[2048];
  snprintf(text, sizeof text, urdf_hinge, "4", "0.5");
  csModel* m = load_text("friction.urdf", text);
  csData* d = m ? cs_data_new(m) : NULL;
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  CHECK(m->dof_frictionloss[0] == 0.5 && m->njntfrc == 1 && m->jntfrc_range[1] == 4);
  double I = 0.05, F = 0.5;
  for (int n = 0; n < 200; n++) {
    d->qfrc_applied[0] = 0.3;
    CHECK(cs_step(m, d) == CS_OK);
  }
  printf("friction loss %g, torque 0.3: qvel %.3g, qpos %.3g after 0.2 s\n", F, d->qvel[0],
         d->qpos[0]);
  CHECK(fabs(d->qvel[0]) < 1e-9 && fabs(d->qpos[0]) < 1e-9);
  double tau = 0.8, v0 = d->qvel[0], t0 = d->time;
  for (int n = 0; n < 300; n++) {
    d->qfrc_applied[0] = tau;
    CHECK(cs_step(m, d) == CS_OK);
  }
  double a = (d->qvel[0] - v0) / (d->time - t0);
  printf("torque %g: acceleration %.12g, (tau - F) / I = %.12g\n", tau, a, (tau - F) / I);
  CHECK_MSG(fabs(a - (tau - F) / I) < 1e-6 * (tau - F) / I, "a %.15g", a);
  cs_data_free(d);
  cs_model_free(m);
}

/* <limit effort>: a motor added to the URDF's joint is clamped to [-effort, effort] */
static void test_urdf_effort(void) {
  char text[2048];
  snprintf(text, sizeof text, urdf_hinge, "4", "0");
  const char* path = cs_test_write_file(tmpdir, "effort.urdf", text);
  csBuilder* b = cs_builder_new();
  csLoadOptions o;
  cs_load_options_default(&o);
  o.floating_base = 0;
  CHECK(path && cs_load_urdf(b, path, &o) == CS_OK);
  csActuatorSpec a;
  cs_actuator_spec_default(&a);
  a.name = "motor";
  a.joint = cs_builder_njoint(b) - 1;
  a.gear = 3;
  CHECK(cs_builder_add_actuator(b, &a) == 0);
  csModel* m = NULL;
  CHECK(cs_compile(b, &m) == CS_OK);
  cs_builder_free(b);
  csData* d = m ? cs_data_new(m) : NULL;
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  double ctrl[3] = {1, 2, -5}, want[3] = {3, 4, -4};
  for (int k = 0; k < 3; k++) {
    d->ctrl[0] = ctrl[k];
    CHECK(cs_forward(m, d) == CS_OK);
    CHECK_NEAR(d->qfrc_actuator[0], want[k], 0);
  }
  cs_data_free(d);
  cs_model_free(m);
}

/* ------------------------------------------------------------------ bad input */
static void test_bad_input(void) {
  char text[4096];
  snprintf(text, sizeof text, three_hinges,
           "    <general joint=\"ja\" dyntype=\"filter\" dynprm=\"0.1\"/>\n");
  expect_error("dyn.xml", text, CS_ERR_UNSUPPORTED, 14, "dyntype \"filter\"");
  snprintf(text, sizeof text, three_hinges,
           "    <general joint=\"ja\" gaintype=\"affine\" gainprm=\"1 2\"/>\n");
  expect_error("gain.xml", text, CS_ERR_UNSUPPORTED, 14, "gaintype");
  snprintf(text, sizeof text, three_hinges, "    <general joint=\"ja\" biastype=\"muscle\"/>\n");
  expect_error("bias.xml", text, CS_ERR_UNSUPPORTED, 14, "biastype");
  snprintf(text, sizeof text, fingers, "1", "    <motor tendon=\"nope\"/>\n");
  expect_error("tendon_name.xml", text, CS_ERR_MODEL, 17, "unknown tendon 'nope'");
  snprintf(text, sizeof text, fingers, "1 2", "");
  expect_error("tendon_coef.xml", text, CS_ERR_PARSE, 13, "coef");
  snprintf(text, sizeof text, fingers, "1", "");
  char* p = strstr(text, "joint=\"j2\"");
  if (p) memcpy(p, "joint=\"jx\"", 10);
  expect_error("tendon_joint.xml", text, CS_ERR_MODEL, 13, "unknown joint");
  snprintf(text, sizeof text, fingers, "1", "");
  p = strstr(text, "range=\"-0.5 0.5\"");
  if (p) memcpy(p, "range=\"0.5 -0.5\"", 16);
  expect_error("tendon_range.xml", text, CS_ERR_MODEL, 12, "tendon 't'");
  expect_error("condim.xml",
               "<mujoco>\n  <worldbody>\n    <geom name=\"floor\" type=\"plane\" size=\"1 1 1\"/>\n"
               "    <body><freejoint/><geom name=\"ball\" size=\"0.1\" condim=\"2\"/></body>\n"
               "  </worldbody>\n</mujoco>\n",
               CS_ERR_PARSE, 4, "geom 'ball'");
  snprintf(text, sizeof text, frc_joint, "actuatorfrclimited=\"maybe\"");
  expect_error("frc_bad.xml", text, CS_ERR_PARSE, 4, "actuatorfrclimited");
  snprintf(text, sizeof text, urdf_hinge, "-3", "0");
  expect_error("effort.urdf", text, CS_ERR_MODEL, 8, "hinge");
  snprintf(text, sizeof text, urdf_hinge, "4", "-0.5");
  expect_error("friction.urdf", text, CS_ERR_MODEL, 6, "hinge");
  /* the builder: a tendon on a ball joint, an actuator on a missing tendon */
  csBuilder* b = cs_builder_new();
  csBodySpec bs;
  cs_body_spec_default(&bs);
  bs.parent = 0, bs.mass = 1, bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 0.1;
  int body = cs_builder_add_body(b, &bs);
  csJointSpec js;
  cs_joint_spec_default(&js);
  js.body = body, js.type = CS_JNT_BALL;
  int jb = cs_builder_add_joint(b, &js);
  double coef = 1;
  csTendonSpec ts = {"t", 1, &jb, &coef, 0, {0, 0}, "here.xml:9"};
  CHECK(cs_builder_add_tendon(b, &ts) == -1);
  CHECK_MSG(strstr(cs_last_error(), "here.xml:9") && strstr(cs_last_error(), "hinge or slide"),
            "%s", cs_last_error());
  csActuatorSpec as;
  cs_actuator_spec_default(&as);
  as.tendon = 0;
  CHECK(cs_builder_add_actuator(b, &as) == -1);
  CHECK_MSG(strstr(cs_last_error(), "tendon 0 does not exist"), "%s", cs_last_error());
  cs_builder_free(b);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cs_test_act_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    fprintf(stderr, "mkdtemp failed\n");
    return 1;
  }
  test_general_formula();
  test_velocity_drive();
  test_joint_force_range();
  test_tendon_actuator();
  test_tendon_limit();
  test_condim_incline();
  test_urdf_friction();
  test_urdf_effort();
  test_bad_input();
  return cs_test_finish("test_io_actuation");
}
