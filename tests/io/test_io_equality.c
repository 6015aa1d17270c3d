/* Equality constraints from model files: MJCF <equality> (connect, weld, joint) and URDF
   <mimic>, on files the test writes to a temporary directory.
   - the model's eq arrays against values worked out by hand from the file (anchors carried
     between frames, polycoef, active, classes);
   - simulated: a connect holds a free box's corner at its world point while the box swings;
     a weld holds a free body still; two URDF fingers coupled by <mimic> (q2 = a q1 + o) under
     a force on the master only move with the ratio a and the master accelerates as
     F / (m1 + a^2 m2) (the coupled system's effective mass);
   - bad input: a clear error naming file, line and element;
   - the shared robots with <mimic> (Panda, Talos) get their couplings. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
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

static double max3(const double* a, const double* b) {
  double e = 0;
  for (int k = 0; k < 3; k++)
    if (fabs(a[k] - b[k]) > e) e = fabs(a[k] - b[k]);
  return e;
}

/* ------------------------------------------------------------------ MJCF */
/* Bodies: "box" (free, at 0 0 1, a 0.2 x 0.1 x 0.1 half-size box), "a" (rotated 90 degrees
   about z, at 1 0 0, hinge "ha"), "b" (at 0 1 0, hinge "hb"), "w" (free, at 0 0 2, rotated 90
   degrees about z), "ball" (ball joint "jball"). Contacts off: the bodies overlap freely. */
static const char* const mj_head =
    "<mujoco>\n"
    "  <option><flag contact=\"disable\"/></option>\n"
    "  <default>\n"
    "    <default class=\"off\"><equality active=\"false\"/></default>\n"
    "  </default>\n"
    "  <worldbody>\n"
    "    <body name=\"box\" pos=\"0 0 1\"><freejoint/>"
    "<geom type=\"box\" size=\"0.2 0.1 0.1\"/></body>\n"
    "    <body name=\"a\" pos=\"1 0 0\" euler=\"0 0 90\"><joint name=\"ha\" axis=\"1 0 0\"/>"
    "<geom type=\"sphere\" size=\"0.1\"/></body>\n"
    "    <body name=\"b\" pos=\"0 1 0\"><joint name=\"hb\" axis=\"0 1 0\"/>"
    "<geom type=\"sphere\" size=\"0.1\"/></body>\n"
    "    <body name=\"w\" pos=\"0 0 2\" euler=\"0 0 90\"><freejoint/>"
    "<geom type=\"box\" size=\"0.3 0.1 0.05\" pos=\"0.2 0 0\"/></body>\n"
    "    <body name=\"ball\" pos=\"3 0 0\"><joint name=\"jball\" type=\"ball\"/>"
    "<geom type=\"sphere\" size=\"0.1\"/></body>\n"
    "  </worldbody>\n";

static csModel* load_mjcf_eq(const char* name, const char* equality) {
  char text[4096];
  snprintf(text, sizeof text, "%s  <equality>\n%s  </equality>\n</mujoco>\n", mj_head, equality);
  return load_text(name, text);
}

/* The eq arrays of every element kind, against values worked out from the file. */
static void test_mjcf_arrays(void) {
  csModel* m = load_mjcf_eq(
      "arrays.xml",
      "    <connect name=\"c_world\" body1=\"box\" anchor=\"0.2 -0.1 0.1\" solref=\"0.01 1\"/>\n"
      "    <connect name=\"c_ab\" body1=\"a\" body2=\"b\" anchor=\"0.1 0.2 0.3\" "
      "class=\"off\"/>\n"
      "    <weld name=\"weld\" body1=\"w\" anchor=\"0.5 0 0\"/>\n"
      "    <joint name=\"couple\" joint1=\"ha\" joint2=\"hb\" polycoef=\"0.1 2 0 0.5 0\" "
      "active=\"false\"/>\n"
      "    <joint name=\"short\" joint1=\"hb\" joint2=\"ha\" polycoef=\"0 -1\"/>\n"
      "    <joint name=\"lock\" joint1=\"ha\" polycoef=\"0.25\"/>\n"
      "    <tendon name=\"t\" tendon1=\"x\"/>\n");
  if (!m) return;
  CHECK_MSG(m->neq == 6, "neq %d", m->neq);
  if (m->neq != 6) {
    cs_model_free(m);
    return;
  }
  int box = cs_name2id(m, "body", "box"), a = cs_name2id(m, "body", "a");
  int b = cs_name2id(m, "body", "b"), w = cs_name2id(m, "body", "w");
  int ha = cs_name2id(m, "joint", "ha"), hb = cs_name2id(m, "joint", "hb");
  CHECK(box > 0 && a > 0 && b > 0 && w > 0 && ha >= 0 && hb >= 0);
  for (int e = 0; e < 6; e++) {
    static const char* const names[] = {"c_world", "c_ab", "weld", "couple", "short", "lock"};
    CHECK_MSG(cs_name2id(m, "equality", names[e]) == e, "equality '%s'", names[e]);
  }
  static const int types[] = {CS_EQ_CONNECT, CS_EQ_CONNECT, CS_EQ_WELD,
                              CS_EQ_JOINT,   CS_EQ_JOINT,   CS_EQ_JOINT};
  static const int active[] = {1, 0, 1, 0, 1, 1};
  for (int e = 0; e < 6; e++) {
    CHECK_MSG(m->eq_type[e] == types[e], "eq %d type %d", e, m->eq_type[e]);
    CHECK_MSG(m->eq_active[e] == active[e], "eq %d active %d", e, m->eq_active[e]);
  }
  const double* d = m->eq_data;
  /* connect to the world: the anchor in the box's frame; its world point (box at 0 0 1) */
  CHECK(m->eq_obj1[0] == box && m->eq_obj2[0] == 0);
  static const double c0[6] = {0.2, -0.1, 0.1, 0.2, -0.1, 1.1};
  for (int k = 0; k < 6; k++) CHECK_NEAR(d[k], c0[k], 1e-15);
  /* connect a to b: a turned 90 degrees about z maps (x, y, z) to (-y, x, z): the anchor
     (0.1 0.2 0.3) is at (1, 0, 0) + (-0.2, 0.1, 0.3) in the world, (0.8, -0.9, 0.3) from b */
  CHECK(m->eq_obj1[1] == a && m->eq_obj2[1] == b);
  static const double c1[6] = {0.1, 0.2, 0.3, 0.8, -0.9, 0.3};
  for (int k = 0; k < 6; k++) CHECK_NEAR(d[11 + k], c1[k], 1e-15);
  /* weld: MuJoCo's anchor is a point of body2 (the world), (0.5 0 0); in w's frame (at 0 0 2,
     turned 90 degrees about z: the inverse maps (x, y, z) to (y, -x, z)) it is (0, -0.5, -2);
     the relative orientation w to the world is w's own, (cos 45, 0, 0, sin 45) */
  CHECK(m->eq_obj1[2] == w && m->eq_obj2[2] == 0);
  static const double c2[10] = {
      0, -0.5, -2, 0.5, 0, 0, 0.70710678118654752, 0, 0, 0.70710678118654752};
  for (int k = 0; k < 10; k++) CHECK_NEAR(d[22 + k], c2[k], 1e-15);
  /* joint couplings: polycoef as given, missing numbers from the default 0 1 0 0 0 */
  CHECK(m->eq_obj1[3] == ha && m->eq_obj2[3] == hb);
  CHECK(m->eq_obj1[4] == hb && m->eq_obj2[4] == ha);
  CHECK(m->eq_obj1[5] == ha && m->eq_obj2[5] == -1);
  static const double p[3][5] = {{0.1, 2, 0, 0.5, 0}, {0, -1, 0, 0, 0}, {0.25, 1, 0, 0, 0}};
  for (int e = 0; e < 3; e++)
    for (int k = 0; k < 5; k++) CHECK_NEAR(d[11 * (3 + e) + k], p[e][k], 0);
  /* noted: the soft-constraint parameters, the tendon equality; nothing says equality is
     not read */
  CHECK_MSG(strstr(m->notes, "arrays.xml:14: <connect> attribute 'solref' ignored") != NULL,
            "notes: %s", m->notes);
  CHECK_MSG(strstr(m->notes,
                   "arrays.xml:20: <tendon> element ignored (tendon equalities are not "
                   "supported; the constraint is dropped)") != NULL,
            "notes: %s", m->notes);
  CHECK_MSG(strstr(m->notes, "does not read") == NULL, "notes: %s", m->notes);
  cs_model_free(m);
}

/* A connect holds the box's corner (0.2 -0.1 0.1) at its world point (0.2 -0.1 1.1) while the
   box swings about it under gravity; a weld holds w where it started. */
static void test_mjcf_simulated(void) {
  csModel* m = load_mjcf_eq("sim.xml",
                            "    <connect body1=\"box\" anchor=\"0.2 -0.1 0.1\"/>\n"
                            "    <weld body1=\"w\" anchor=\"0.5 0 0\"/>\n");
  if (!m) return;
  csData* d = cs_data_new(m);
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  int box = cs_name2id(m, "body", "box"), w = cs_name2id(m, "body", "w");
  static const double corner[3] = {0.2, -0.1, 0.1}, held[3] = {0.2, -0.1, 1.1};
  static const double wpos[3] = {0, 0, 2};
  double worst_c = 0, worst_w = 0, worst_q = 0, w2max = 0;
  int bad = 0, fdof = m->jnt_dofadr[m->body_jntadr[box]];
  for (int s = 0; s < 1000; s++) {
    bad += cs_step(m, d) != CS_OK;
    cs_kinematics(m, d);
    double p[3];
    for (int k = 0; k < 3; k++)
      p[k] = d->xpos[3 * box + k] + d->xmat[9 * box + 3 * k] * corner[0] +
             d->xmat[9 * box + 3 * k + 1] * corner[1] + d->xmat[9 * box + 3 * k + 2] * corner[2];
    double e = max3(p, held), ew = max3(d->xpos + 3 * w, wpos);
    if (e > worst_c) worst_c = e;
    if (ew > worst_w) worst_w = ew;
    double q = fabs(d->xquat[4 * w] - 0.70710678118654752) +
               fabs(d->xquat[4 * w + 3] - 0.70710678118654752);
    if (q > worst_q) worst_q = q;
    const double* om = d->qvel + fdof + 3;
    double w2 = om[0] * om[0] + om[1] * om[1] + om[2] * om[2];
    if (w2 > w2max) w2max = w2;
  }
  /* The connect's rows hold the corner's velocity at 0; a free body's step moves its centre
     along a straight line and turns it by omega h, so the corner drifts by omega^2 r h^2 per
     step, which the Baumgarte term removes at a rate beta: the drift stays below
     omega^2 r h^2 / beta (2.5e-5 m here). Twice that bounds it. */
  double h = m->opt.timestep, r = sqrt(0.06);
  double bound = 2 * w2max * r * h * h / m->opt.baumgarte;
  /* the box's centre hangs from the corner: it has fallen (not a weld) */
  double drop = 1 - d->xpos[3 * box + 2];
  CHECK(bad == 0);
  CHECK_MSG(worst_c < bound, "connect: the corner moved %.3g m (bound %.3g)", worst_c, bound);
  CHECK_MSG(drop > 0.05, "connect: the box's centre fell only %.3g m", drop);
  CHECK_MSG(worst_w < 1e-12 && worst_q < 1e-12, "weld: moved %.3g m, turned %.3g", worst_w,
            worst_q);
  printf(
      "mjcf: connect corner worst %.2e m (bound omega^2 r h^2 / beta x 2 = %.2e; centre fell "
      "%.3f m), weld worst %.2e m / %.2e\n",
      worst_c, bound, drop, worst_w, worst_q);
  cs_data_free(d);
  cs_model_free(m);
}

static void test_mjcf_errors(void) {
  /* mj_head is 12 lines, <equality> line 13: the element is on line 14 */
  static const struct {
    const char* elem;
    csStatus st;
    const char* also;
  } bad[] = {
      {"<connect body1=\"nope\" anchor=\"0 0 0\"/>", CS_ERR_MODEL,
       "<connect body1=\"nope\">: unknown body"},
      {"<connect body1=\"box\" body2=\"ghost\" anchor=\"0 0 0\"/>", CS_ERR_MODEL,
       "<connect body2=\"ghost\">: unknown body"},
      {"<connect body1=\"box\"/>", CS_ERR_PARSE, "<connect>: missing attribute 'anchor'"},
      {"<connect body1=\"box\" anchor=\"0 x 0\"/>", CS_ERR_PARSE, "<connect anchor=\"0 x 0\">"},
      {"<weld body1=\"w\" relpose=\"0 0 0 1 0 0 0\"/>", CS_ERR_UNSUPPORTED, "relpose"},
      {"<weld site1=\"s\" site2=\"t\"/>", CS_ERR_UNSUPPORTED, "site1/site2"},
      {"<joint joint1=\"hz\"/>", CS_ERR_MODEL, "<joint joint1=\"hz\">: unknown joint"},
      {"<joint joint1=\"ha\" joint2=\"jball\"/>", CS_ERR_MODEL, "this is a ball joint"},
      {"<joint joint1=\"ha\" polycoef=\"1 2 3 4 5 6\"/>", CS_ERR_PARSE, "polycoef"},
      {"<joint joint1=\"ha\" active=\"maybe\"/>", CS_ERR_PARSE, "active"},
      {"<distance geom1=\"a\" geom2=\"b\"/>", CS_ERR_PARSE, "removed in MuJoCo 2.2.2"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[4096];
    snprintf(text, sizeof text, "%s  <equality>\n    %s\n  </equality>\n</mujoco>\n", mj_head,
             bad[i].elem);
    expect_error("bad_eq.xml", text, bad[i].st, 14, bad[i].also);
  }
}

/* ------------------------------------------------------------------ URDF */
/* A fixed base with two fingers sliding along x (no collisions, so no contacts); "right"
   mimics "left" with the given multiplier and offset; a fixed joint "tip" carries a mimic
   that is noted. MIMIC is the <mimic> element of "right". */
static void urdf_text(char* out, size_t n, const char* mimic) {
  snprintf(
      out, n,
      "<robot name=\"gripper\">\n"
      "  <link name=\"base\"><inertial><mass value=\"2\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
      "  <link name=\"fl\"><inertial><mass value=\"0.3\"/>"
      "<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
      "</inertial></link>\n"
      "  <link name=\"fr\"><inertial><mass value=\"0.5\"/>"
      "<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
      "</inertial></link>\n"
      "  <link name=\"pad\"><inertial><mass value=\"0.1\"/>"
      "<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
      "</inertial></link>\n"
      "  <joint name=\"left\" type=\"prismatic\"><parent link=\"base\"/><child link=\"fl\"/>\n"
      "    <origin xyz=\"0 0.1 0\"/><axis xyz=\"1 0 0\"/>"
      "<limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"1\"/></joint>\n"
      "  <joint name=\"right\" type=\"prismatic\"><parent link=\"base\"/><child link=\"fr\"/>\n"
      "    <origin xyz=\"0 -0.1 0\"/><axis xyz=\"1 0 0\"/>"
      "<limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"1\"/>\n"
      "    %s\n"
      "  </joint>\n"
      "  <joint name=\"tip\" type=\"fixed\"><parent link=\"fr\"/><child link=\"pad\"/>\n"
      "    <mimic joint=\"left\"/></joint>\n"
      "</robot>\n",
      mimic);
}

/* right = a left + o: polycoef (o, a, 0, 0, 0); a force F on "left" only: the master
   accelerates as F / (m_l + a^2 (m_r + m_pad)) and the slave follows with the ratio a. */
static void test_urdf_mimic(void) {
  const double a = -0.5, o = 0.01, F = 0.4, dt_steps = 500;
  char mimic[128], text[4096];
  snprintf(mimic, sizeof mimic, "<mimic joint=\"left\" multiplier=\"%g\" offset=\"%g\"/>", a, o);
  urdf_text(text, sizeof text, mimic);
  csModel* m = load_text("fingers.urdf", text);
  if (!m) return;
  int l = cs_name2id(m, "joint", "left"), r = cs_name2id(m, "joint", "right");
  CHECK(l >= 0 && r >= 0);
  CHECK_MSG(m->neq == 1, "neq %d", m->neq);
  if (m->neq != 1 || l < 0 || r < 0) {
    cs_model_free(m);
    return;
  }
  CHECK(m->eq_type[0] == CS_EQ_JOINT && m->eq_active[0] == 1);
  CHECK(m->eq_obj1[0] == r && m->eq_obj2[0] == l);
  CHECK(cs_name2id(m, "equality", "right") == 0);
  static const double want[5] = {0.01, -0.5, 0, 0, 0};
  for (int k = 0; k < 5; k++) CHECK_NEAR(m->eq_data[k], want[k], 0);
  CHECK_MSG(strstr(m->notes,
                   "<mimic> on a fixed or floating joint ignored (1 time; first: tip "
                   "at line 13)") != NULL,
            "notes: %s", m->notes);
  CHECK_MSG(strstr(m->notes, "not simulated") == NULL, "notes: %s", m->notes);

  csData* d = cs_data_new(m);
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  /* start on the constraint: right = o */
  double q0[2];
  q0[m->jnt_qposadr[l]] = 0;
  q0[m->jnt_qposadr[r]] = o;
  CHECK(cs_data_set_state(m, d, q0, 2, NULL, 0) == CS_OK);
  int bad = 0;
  double worst = 0;
  int n = (int)dt_steps;
  for (int s = 0; s < n; s++) {
    memset(d->qfrc_applied, 0, sizeof(double) * (size_t)m->nv);
    d->qfrc_applied[m->jnt_dofadr[l]] = F;
    bad += cs_step(m, d) != CS_OK;
    double ql = d->qpos[m->jnt_qposadr[l]], qr = d->qpos[m->jnt_qposadr[r]];
    double e = fabs(qr - (a * ql + o));
    if (e > worst) worst = e;
  }
  CHECK(bad == 0);
  double ql = d->qpos[m->jnt_qposadr[l]], vl = d->qvel[m->jnt_dofadr[l]];
  double meff = 0.3 + a * a * (0.5 + 0.1), h = m->opt.timestep, t = n * h;
  /* v = (F / meff) t exactly (velocity from a constant acceleration); q as the semi-implicit
     step sums it: (F / meff) h^2 n (n + 1) / 2, within h of the continuous F t^2 / (2 meff) */
  double vwant = F / meff * t, qwant = F / meff * h * h * n * (n + 1) / 2;
  CHECK_MSG(worst < 1e-9, "mimic: right - (a left + o) up to %.3g m", worst);
  CHECK_MSG(fabs(vl - vwant) < 1e-9 * vwant, "master velocity %.12g, want %.12g", vl, vwant);
  CHECK_MSG(fabs(ql - qwant) < 1e-9 * qwant, "master position %.12g, want %.12g", ql, qwant);
  printf("urdf mimic: coupling error %.2e m over %d steps; master q %.9f (F t^2/(2 meff) %.9f)\n",
         worst, n, ql, F / meff * t * t / 2);
  cs_data_free(d);
  cs_model_free(m);
}

static void test_urdf_errors(void) {
  static const struct {
    const char* mimic;
    csStatus st;
    const char* also;
  } bad[] = {
      {"<mimic joint=\"ghost\"/>", CS_ERR_MODEL,
       "joint 'right': <mimic joint=\"ghost\">: no such joint"},
      {"<mimic joint=\"tip\"/>", CS_ERR_MODEL, "'tip' is a fixed joint"},
      {"<mimic joint=\"right\"/>", CS_ERR_MODEL, "cannot mimic itself"},
      {"<mimic multiplier=\"2\"/>", CS_ERR_PARSE, "<mimic> without 'joint'"},
      {"<mimic joint=\"left\" multiplier=\"two\"/>", CS_ERR_PARSE, "<mimic multiplier=\"two\">"},
      {"<mimic joint=\"left\" offset=\"1 2\"/>", CS_ERR_PARSE, "<mimic offset=\"1 2\">"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[4096];
    urdf_text(text, sizeof text, bad[i].mimic);
    expect_error("bad_mimic.urdf", text, bad[i].st, 10, bad[i].also);
  }
  /* left mimics right and right mimics left */
  char text[4096];
  urdf_text(text, sizeof text, "<mimic joint=\"left\"/>");
  char* p = strstr(text, "velocity=\"1\"/></joint>");
  CHECK(p != NULL);
  if (p) {
    char fixed[4200];
    size_t head = (size_t)(p - text);
    snprintf(fixed, sizeof fixed, "%.*svelocity=\"1\"/><mimic joint=\"right\"/></joint>%s",
             (int)head, text, p + strlen("velocity=\"1\"/></joint>"));
    expect_error("cycle.urdf", fixed, CS_ERR_MODEL, 7, "mimic joints form a cycle");
  }
}

/* ------------------------------------------------------------------ shared robots */
/* Talos's grippers (fixed base, contacts off, gravity on, joint limits on): a torque
   2 sin(5 t) N m on each master joint only for 2 s; every follower stays on its coupling. */
static void check_talos_grippers(csModel* m) {
  m->opt.disable |= CS_DISABLE_CONTACT;
  csData* d = cs_data_new(m);
  CHECK(d != NULL);
  if (!d) return;
  double worst = 0, travel = 0;
  int bad = 0;
  for (int s = 0; s < 2000; s++) {
    memset(d->qfrc_applied, 0, sizeof(double) * (size_t)m->nv);
    for (int e = 0; e < m->neq; e++)
      d->qfrc_applied[m->jnt_dofadr[m->eq_obj2[e]]] = 2 * sin(0.005 * s);
    bad += cs_step(m, d) != CS_OK;
    for (int e = 0; e < m->neq; e++) {
      double q1 = d->qpos[m->jnt_qposadr[m->eq_obj1[e]]];
      double q2 = d->qpos[m->jnt_qposadr[m->eq_obj2[e]]];
      double err = fabs(q1 - (m->eq_data[11 * e] + m->eq_data[11 * e + 1] * q2));
      if (err > worst) worst = err;
      if (fabs(q2) > travel) travel = fabs(q2);
    }
  }
  CHECK(bad == 0);
  CHECK_MSG(worst < 1e-7, "talos grippers: coupling error %.3g rad", worst);
  CHECK_MSG(travel > 0.05, "talos grippers: the masters moved only %.3g rad", travel);
  printf(
      "talos_full_v2 grippers: coupling error %.2e rad over 2000 steps (masters up to %.3f "
      "rad)\n",
      worst, travel);
  cs_data_free(d);
}

static int test_shared(void) {
  const char* rel[] = {"models/panda/urdf/panda.urdf", "models/talos/robots/talos_full_v2.urdf",
                       "models/talos/robots/talos_reduced.urdf"};
  static const int neq[] = {1, 12, 0};
  int ran = 0;
  for (int i = 0; i < 3; i++) {
    const char* path = cs_test_shared(rel[i]);
    if (!path) continue;
    csModel* m = NULL;
    csStatus st = cs_load_model(path, NULL, &m);
    CHECK_MSG(st == CS_OK, "%s: %s", rel[i], cs_last_error());
    if (st != CS_OK) continue;
    ran++;
    CHECK_MSG(m->neq == neq[i], "%s: neq %d, want %d", rel[i], m->neq, neq[i]);
    for (int e = 0; e < m->neq; e++) {
      CHECK(m->eq_type[e] == CS_EQ_JOINT && m->eq_obj2[e] >= 0);
      /* Panda's finger 2 follows finger 1 (multiplier 1); Talos's grippers +-1 */
      CHECK(m->eq_data[11 * e] == 0 && fabs(m->eq_data[11 * e + 1]) == 1);
    }
    if (i == 0 && m->neq == 1) {
      CHECK(strcmp(cs_id2name(m, "joint", m->eq_obj1[0]), "panda_finger_joint2") == 0);
      CHECK(strcmp(cs_id2name(m, "joint", m->eq_obj2[0]), "panda_finger_joint1") == 0);
    }
    CHECK_MSG(strstr(m->notes, "not simulated") == NULL || strstr(m->notes, "mimic") == NULL,
              "%s notes: %s", rel[i], m->notes);
    if (i == 2) CHECK(strstr(m->notes, "<mimic> on a fixed or floating joint ignored") != NULL);
    if (i == 1) check_talos_grippers(m);
    cs_model_free(m);
  }
  return ran;
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cs_test_eq_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    fprintf(stderr, "mkdtemp failed\n");
    return 1;
  }
  test_mjcf_arrays();
  test_mjcf_simulated();
  test_mjcf_errors();
  test_urdf_mimic();
  test_urdf_errors();
  if (!test_shared()) printf("test_io_equality: ../shared models absent, robot checks skipped\n");
  static const char* const files[] = {"arrays.xml",   "sim.xml",        "bad_eq.xml",
                                      "fingers.urdf", "bad_mimic.urdf", "cycle.urdf"};
  for (int i = 0; i < 6; i++) {
    char p[256];
    snprintf(p, sizeof p, "%s/%s", tmpdir, files[i]);
    remove(p);
  }
  rmdir(tmpdir);
  return cs_test_finish("test_io_equality");
}
