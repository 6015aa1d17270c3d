#define _DEFAULT_SOURCE /* mkdtemp */
/* Sensors (docs/api.md, "Sensors") against independent computations: accelerometer, gyro and
   framelinvel against finite differences of the kinematics along q + v t + qacc t^2 / 2;
   framepos and framequat against the kinematics' poses; force and torque of a hanging mass
   (m g, and the torque of its lever arm); touch of a resting box against its contacts'
   normal forces (m g); jointpos and jointvel equal to the state the step started from; a
   step's sensordata equal to cs_forward_full's at that state; a model's trajectory bit for bit
   the same with and without sensors; bad input refused naming the file and line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"
#include "cs_test_models.h"

static char tmpdir[64];

static csModel* load_text(const char* name, const char* text) {
  return cs_test_load_text_fixed(tmpdir, name, text); /* a URDF's base welded to the world */
}

/* The error of loading a bad file, or "" if it loads */
static const char* load_error(const char* name, const char* text) {
  const char* path = cs_test_write_file(tmpdir, name, text);
  csModel* m = NULL;
  csLoadOptions o;
  cs_load_options_default(&o);
  o.floating_base = 0;
  csStatus st = path ? cs_load_model(path, &o, &m) : CS_ERR_IO;
  cs_model_free(m);
  return st == CS_OK ? "" : cs_last_error();
}

/* A double pendulum with tilted sites (no contacts), a motor */
static const char* pend_body =
    "  <compiler angle='radian'/>\n"
    "  <option timestep='0.001'/>\n"
    "  <default><geom contype='0' conaffinity='0'/></default>\n"
    "  <worldbody>\n"
    "    <body name='l1' pos='0 0 1' euler='0.3 0 0.2'>\n"
    "      <joint name='j1' type='hinge' axis='0 1 0'/>\n"
    "      <geom name='g1' type='capsule' fromto='0 0 0 0.3 0 -0.4' size='0.03' mass='1.3'/>\n"
    "      <site name='s1' pos='0.15 0.02 -0.2' euler='0.1 0.5 -0.3'/>\n"
    "      <body name='l2' pos='0.3 0 -0.4'>\n"
    "        <joint name='j2' type='hinge' axis='1 0 0'/>\n"
    "        <geom name='g2' type='box' size='0.05 0.04 0.2' pos='0 0.01 -0.2' mass='0.7'/>\n"
    "        <site name='s2' pos='0.02 -0.03 -0.35' euler='-0.4 0.2 0.9'/>\n"
    "      </body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <actuator><motor name='m1' joint='j1' gear='2'/></actuator>\n";

static const char* pend_sensors =
    "  <sensor>\n"
    "    <accelerometer site='s2'/> <gyro site='s2'/> <framelinvel objtype='site' objname='s2'/>\n"
    "    <framepos objtype='site' objname='s1'/> <framepos objtype='body' objname='l2'/>\n"
    "    <framepos objtype='xbody' objname='l2'/> <framepos objtype='geom' objname='g2'/>\n"
    "    <framequat objtype='site' objname='s2'/> <framequat objtype='geom' objname='g1'/>\n"
    "    <jointpos joint='j1'/> <jointvel joint='j2'/> <actuatorfrc actuator='m1'/>\n"
    "    <accelerometer site='s1'/>\n"
    "  </sensor>\n";

static csModel* pendulum(int with_sensors) {
  char xml[4096];
  snprintf(xml, sizeof xml, "<mujoco>\n%s%s</mujoco>\n", pend_body,
           with_sensors ? pend_sensors : "");
  return load_text(with_sensors ? "pend_s.xml" : "pend.xml", xml);
}

/* Site s's pose at qpos = q0 + v t + a t^2 / 2 */
static void site_at(const csModel* m, csData* d, const double* q0, const double* v, const double* a,
                    double t, int s, double p[3], double R[9]) {
  for (int i = 0; i < m->nq; i++) d->qpos[i] = q0[i] + v[i] * t + 0.5 * a[i] * t * t;
  cs_kinematics(m, d);
  cs_site_poses(m, d);
  memcpy(p, d->site_xpos + 3 * s, 3 * sizeof(double));
  memcpy(R, d->site_xmat + 9 * s, 9 * sizeof(double));
}

/* Accelerometer, gyro, framelinvel of site s2 against central differences (h = 1e-4: error
   h^2 times the next derivatives, about 1e-6 here, and rounding eps / h^2, about 1e-8) */
static void imu_fd(void) {
  csModel* m = pendulum(1);
  if (!m) return;
  csData* d = cs_data_new(m);
  d->qpos[0] = 0.7, d->qpos[1] = -1.1, d->qvel[0] = 2.0, d->qvel[1] = -3.0, d->ctrl[0] = 0.8;
  double worst[3] = {0, 0, 0};
  for (int k = 0; k < 5; k++) {
    CHECK(cs_forward_full(m, d) == CS_OK);
    double q0[2], v[2], a[2], sd[64];
    memcpy(q0, d->qpos, sizeof q0), memcpy(v, d->qvel, sizeof v), memcpy(a, d->qacc, sizeof a);
    memcpy(sd, d->sensordata, sizeof(double) * (size_t)m->nsensordata);
    int s = cs_name2id(m, "site", "s2");
    double h = 1e-4, p[3][3], R[3][9];
    for (int j = 0; j < 3; j++) site_at(m, d, q0, v, a, (j - 1) * h, s, p[j], R[j]);
    double acc[3], vel[3], Rd[9], W[9], w[3], out[3];
    for (int r = 0; r < 3; r++) {
      acc[r] = (p[2][r] - 2 * p[1][r] + p[0][r]) / (h * h) - m->opt.gravity[r];
      vel[r] = (p[2][r] - p[0][r]) / (2 * h);
    }
    for (int r = 0; r < 9; r++) Rd[r] = (R[2][r] - R[0][r]) / (2 * h);
    for (int r = 0; r < 3; r++) /* W = Rdot R^T, skew: w = (W21, W02, W10) */
      for (int c = 0; c < 3; c++)
        W[3 * r + c] = Rd[3 * r] * R[1][3 * c] + Rd[3 * r + 1] * R[1][3 * c + 1] +
                       Rd[3 * r + 2] * R[1][3 * c + 2];
    w[0] = W[7], w[1] = W[2], w[2] = W[3];
    for (int r = 0; r < 3; r++) /* the accelerometer in the site frame: R^T acc */
      out[r] = R[1][r] * acc[0] + R[1][3 + r] * acc[1] + R[1][6 + r] * acc[2];
    for (int r = 0; r < 3; r++) worst[0] = fmax(worst[0], fabs(sd[r] - out[r]));
    for (int r = 0; r < 3; r++) out[r] = R[1][r] * w[0] + R[1][3 + r] * w[1] + R[1][6 + r] * w[2];
    for (int r = 0; r < 3; r++) worst[1] = fmax(worst[1], fabs(sd[3 + r] - out[r]));
    for (int r = 0; r < 3; r++) worst[2] = fmax(worst[2], fabs(sd[6 + r] - vel[r]));
    memcpy(d->qpos, q0, sizeof q0);
    for (int j = 0; j < 40; j++) CHECK(cs_step(m, d) == CS_OK);
  }
  printf(
      "IMU vs finite differences: accelerometer %.2e m/s^2, gyro %.2e rad/s, framelinvel "
      "%.2e m/s\n",
      worst[0], worst[1], worst[2]);
  CHECK(worst[0] <= 1e-5);
  CHECK(worst[1] <= 1e-6);
  CHECK(worst[2] <= 1e-6);
  cs_data_free(d);
  cs_model_free(m);
}

/* framepos, framequat against the kinematics' poses; jointpos, jointvel, actuatorfrc equal
   to the state and control the step started from; a step's sensordata = cs_forward_full's */
static void kinematic(void) {
  csModel* m = pendulum(1);
  if (!m) return;
  csData *d = cs_data_new(m), *f = cs_data_new(m);
  d->qpos[0] = 0.4, d->qvel[1] = 1.5, d->ctrl[0] = -0.3;
  int exact = 1, same = 1;
  double epos = 0;
  for (int k = 0; k < 200; k++) {
    double q[2], v[2];
    memcpy(q, d->qpos, sizeof q), memcpy(v, d->qvel, sizeof v);
    CHECK(cs_data_copy(m, f, d) == CS_OK);
    CHECK(cs_forward_full(m, f) == CS_OK);
    CHECK(cs_step(m, d) == CS_OK);
    same &= !memcmp(d->sensordata, f->sensordata, sizeof(double) * (size_t)m->nsensordata);
    const double* s = d->sensordata;
    exact &= s[29] == q[0] && s[30] == v[1] && s[31] == -0.3;
    cs_site_poses(m, f);
    cs_geom_poses(m, f);
    int l2 = cs_name2id(m, "body", "l2"), g2 = cs_name2id(m, "geom", "g2");
    int s1 = cs_name2id(m, "site", "s1"), s2 = cs_name2id(m, "site", "s2");
    int g1 = cs_name2id(m, "geom", "g1");
    const double* want[4] = {f->site_xpos + 3 * s1, f->xipos + 3 * l2, f->xpos + 3 * l2,
                             f->geom_xpos + 3 * g2};
    for (int j = 0; j < 4; j++)
      for (int r = 0; r < 3; r++) epos = fmax(epos, fabs(s[9 + 3 * j + r] - want[j][r]));
    double Rq[9];
    const double* qs[2] = {s + 21, s + 25};
    const double* Rs[2] = {f->site_xmat + 9 * s2, f->geom_xmat + 9 * g1};
    for (int j = 0; j < 2; j++) {
      const double* qq = qs[j];
      Rq[0] = 1 - 2 * (qq[2] * qq[2] + qq[3] * qq[3]), Rq[1] = 2 * (qq[1] * qq[2] - qq[0] * qq[3]);
      Rq[2] = 2 * (qq[1] * qq[3] + qq[0] * qq[2]), Rq[3] = 2 * (qq[1] * qq[2] + qq[0] * qq[3]);
      Rq[4] = 1 - 2 * (qq[1] * qq[1] + qq[3] * qq[3]), Rq[5] = 2 * (qq[2] * qq[3] - qq[0] * qq[1]);
      Rq[6] = 2 * (qq[1] * qq[3] - qq[0] * qq[2]), Rq[7] = 2 * (qq[2] * qq[3] + qq[0] * qq[1]);
      Rq[8] = 1 - 2 * (qq[1] * qq[1] + qq[2] * qq[2]);
      for (int r = 0; r < 9; r++) epos = fmax(epos, fabs(Rq[r] - Rs[j][r]));
    }
  }
  printf(
      "framepos/framequat vs kinematics %.2e; jointpos, jointvel, actuatorfrc exact: %d; "
      "cs_step = cs_forward_full bit for bit: %d\n",
      epos, exact, same);
  CHECK(epos <= 1e-14);
  CHECK(exact);
  CHECK(same);
  cs_data_free(d);
  cs_data_free(f);
  cs_model_free(m);
}

/* The same trajectory bit for bit with and without sensors (none of them keeps a body) */
static void no_effect(void) {
  csModel *a = pendulum(0), *b = pendulum(1);
  if (!a || !b) return;
  csData *da = cs_data_new(a), *db = cs_data_new(b);
  CHECK(a->nsensor == 0 && b->nsensor == 13 && b->nsensordata == 35);
  da->qpos[0] = db->qpos[0] = 0.9;
  da->ctrl[0] = db->ctrl[0] = 0.2;
  for (int k = 0; k < 500; k++) CHECK(cs_step(a, da) == CS_OK && cs_step(b, db) == CS_OK);
  int same = !memcmp(da->qpos, db->qpos, sizeof(double) * (size_t)a->nq) &&
             !memcmp(da->qvel, db->qvel, sizeof(double) * (size_t)a->nv);
  printf("500 steps with and without sensors: bit for bit %d\n", same);
  CHECK(same);
  cs_data_free(da), cs_data_free(db);
  cs_model_free(a), cs_model_free(b);
}

/* A 3 kg mass welded under a hinged 0.5 kg arm, at rest (centres of mass under the hinge): the
   force on the mass is m g up, its torque about a site 0.1 m to the side of its centre of mass
   (0, -0.1 m g, 0); on the arm's site at the hinge, (0.5 + 3) g up and no torque; an
   accelerometer at rest reads +g up */
static void hanging_mass(void) {
  csModel* m = load_text("hang.xml",
                         "<mujoco>\n"
                         "  <worldbody>\n"
                         "    <body name='arm' pos='0 0 1'>\n"
                         "      <joint name='h' type='hinge' axis='0 1 0'/>\n"
                         "      <geom type='capsule' fromto='0 0 0 0 0 -0.5' size='0.02' "
                         "mass='0.5'/>\n"
                         "      <site name='pivot' euler='0 0 1.5707963267948966'/>\n"
                         "      <body name='mass' pos='0 0 -0.5'>\n"
                         "        <geom type='sphere' size='0.05' pos='0 0 -0.1' mass='3'/>\n"
                         "        <site name='ft' pos='-0.1 0 -0.1'/>\n"
                         "      </body>\n"
                         "    </body>\n"
                         "  </worldbody>\n"
                         "  <sensor> <force site='ft'/> <torque site='ft'/> <force site='pivot'/>\n"
                         "    <torque site='pivot'/> <accelerometer site='ft'/> </sensor>\n"
                         "</mujoco>\n");
  if (!m) return;
  csData* d = cs_data_new(m);
  CHECK(cs_step(m, d) == CS_OK);
  const double* s = d->sensordata;
  double g = 9.81, tol = 1e-12;
  printf("hanging mass: force %.15g %.15g %.15g, torque %.15g %.15g %.15g\n", s[0], s[1], s[2],
         s[3], s[4], s[5]);
  double want[15] = {0, 0, 3 * g, 0, -0.1 * 3 * g, 0, 0, 0, 3.5 * g, 0, 0, 0, 0, 0, g};
  for (int k = 0; k < 15; k++) CHECK_NEAR(s[k], want[k], tol * 100);
  cs_data_free(d);
  cs_model_free(m);
}

/* A 2 kg box resting on a plane: touch = the normal forces of its contacts = m g */
static void touch_box(void) {
  csModel* m = load_text("box.xml",
                         "<mujoco>\n"
                         "  <worldbody>\n"
                         "    <geom type='plane' size='2 2 0.1'/>\n"
                         "    <body name='box' pos='0 0 0.1'>\n"
                         "      <freejoint/>\n"
                         "      <geom type='box' size='0.1 0.1 0.1' mass='2'/>\n"
                         "      <site name='bottom' type='box' pos='0 0 -0.1' size='0.12 0.12 "
                         "0.01'/>\n"
                         "      <site name='corner' type='sphere' pos='0.1 0.1 -0.1' "
                         "size='0.01'/>\n"
                         "    </body>\n"
                         "  </worldbody>\n"
                         "  <sensor> <touch site='bottom'/> <touch site='corner'/> </sensor>\n"
                         "</mujoco>\n");
  if (!m) return;
  csData* d = cs_data_new(m);
  for (int k = 0; k < 1000; k++) CHECK(cs_step(m, d) == CS_OK);
  double fn = 0, corner = 0, f[6];
  for (int i = 0; i < d->ncon; i++) {
    CHECK(cs_contact_force(m, d, i, f, NULL) == CS_OK);
    fn += f[2];
    if (d->contact[i].pos[0] > 0.05 && d->contact[i].pos[1] > 0.05) corner += f[2];
  }
  printf(
      "box at rest: touch %.12g, contact normal forces %.12g (m g %.12g); corner zone %.12g "
      "of %.12g\n",
      d->sensordata[0], fn, 2 * 9.81, d->sensordata[1], fn);
  CHECK_NEAR(d->sensordata[0], fn, 1e-12);
  CHECK_NEAR(d->sensordata[0], 2 * 9.81, 1e-9);
  CHECK_NEAR(d->sensordata[1], corner, 1e-12);
  CHECK(corner > 0 && corner < fn);
  cs_data_free(d);
  cs_model_free(m);
}

/* cutoff, as MuJoCo: the resting 2 kg box's touch (m g = 19.62) with cutoff 5 reads 5; its
   framepos (0, 0.3, 0.1) with cutoff 0.2 reads (0, 0.2, 0.1); a framequat with cutoff 0.5
   keeps w = 1; jointpos of a hinge at -0.7 rad with cutoff 0.4 reads -0.4 */
static void cutoff(void) {
  csModel* m = load_text("cutoff.xml",
                         "<mujoco>\n"
                         "  <worldbody>\n"
                         "    <geom type='plane' size='2 2 0.1'/>\n"
                         "    <body name='box' pos='0 0.3 0.1'>\n"
                         "      <freejoint/>\n"
                         "      <geom type='box' size='0.1 0.1 0.1' mass='2'/>\n"
                         "      <site name='bottom' type='box' pos='0 0 -0.1' size='0.12 0.12 "
                         "0.01'/>\n"
                         "    </body>\n"
                         "    <body name='arm' pos='1 0 1'>\n"
                         "      <joint name='h' type='hinge' axis='0 1 0' ref='0'/>\n"
                         "      <geom type='sphere' size='0.05' contype='0' conaffinity='0'/>\n"
                         "    </body>\n"
                         "  </worldbody>\n"
                         "  <sensor> <touch site='bottom' cutoff='5'/>\n"
                         "    <framepos objtype='body' objname='box' cutoff='0.2'/>\n"
                         "    <framequat objtype='site' objname='bottom' cutoff='0.5'/>\n"
                         "    <jointpos joint='h' cutoff='0.4'/> </sensor>\n"
                         "</mujoco>\n");
  if (!m) return;
  csData* d = cs_data_new(m);
  m->opt.gravity[2] = -9.81;
  for (int k = 0; k < 500; k++) {
    d->qpos[7] = -0.7, d->qvel[6] = 0; /* the hinge held at -0.7 */
    CHECK(cs_step(m, d) == CS_OK);
  }
  double* s = d->sensordata;
  printf("cutoff: touch %.12g, framepos %.12g %.12g %.12g, quat w %.12g, jointpos %.12g\n", s[0],
         s[1], s[2], s[3], s[4], s[8]);
  CHECK(s[0] == 5);
  CHECK_NEAR(s[1], 0, 1e-9);
  CHECK(s[2] == 0.2);
  CHECK_NEAR(s[3], 0.1, 1e-6);
  CHECK_NEAR(fabs(s[4]), 1, 1e-9);
  CHECK(s[8] == -0.4);
  cs_data_free(d);
  cs_model_free(m);
}

/* Bad sensors: refused naming the file and line; unknown types and noise noted */
static void bad_input(void) {
  static const char* head =
      "<mujoco>\n<worldbody>\n<body name='b'>\n<joint name='j' type='hinge'/>\n"
      "<joint name='k' type='ball'/>\n<geom size='0.1'/>\n<site name='s'/>\n</body>\n"
      "</worldbody>\n<sensor>\n";
  static const struct {
    const char* elem;
    const char* want;
  } bad[] = {
      {"<force site='nosuch'/>", "bad0.xml:11: <force site=\"nosuch\">: unknown site"},
      {"<jointpos joint='nosuch'/>", "bad1.xml:11: <jointpos joint=\"nosuch\">: unknown joint"},
      {"<jointpos joint='k'/>", "bad2.xml:11: <jointpos joint=\"k\">: not a hinge or slide"},
      {"<framepos objtype='joint' objname='j'/>", "bad3.xml:11: <framepos objtype=\"joint\">"},
      {"<framepos objtype='body' objname='nosuch'/>", "bad4.xml:11: <framepos objname=\"nosuch\">"},
      {"<subtreecom body='nosuch'/>", "bad5.xml:11: <subtreecom body=\"nosuch\">: unknown body"},
      {"<framepos objname='b'/>", "bad6.xml:11: <framepos>: missing attribute 'objtype'"},
      {"<actuatorfrc actuator='nosuch'/>", "bad7.xml:11"},
      {"<framepos objtype='site' objname='s' reftype='body' refname='b'/>", "bad8.xml:11"},
      {"<framequat objtype='body' objname='b'/>", "bad9.xml:11"},
  };
  for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
    char name[32], xml[1024];
    snprintf(name, sizeof name, "bad%d.xml", i);
    snprintf(xml, sizeof xml, "%s%s\n</sensor>\n</mujoco>\n", head, bad[i].elem);
    const char* e = load_error(name, xml);
    CHECK_MSG(strstr(e, bad[i].want) != NULL, "%s: got '%s'", bad[i].elem, e);
    if (getenv("CS_TEST_VERBOSE")) printf("%s\n", e);
  }
  char xml[1024];
  snprintf(xml, sizeof xml,
           "%s<magnetometer site='s'/><gyro site='s' noise='0.01'/>\n</sensor>\n</mujoco>\n", head);
  csModel* m = load_text("notes.xml", xml);
  if (m) {
    CHECK(m->nsensor == 1 && m->sensor_type[0] == CS_SENS_GYRO && m->sensor_noise[0] == 0.01);
    CHECK_MSG(strstr(m->notes, "magnetometer") && strstr(m->notes, "noise"), "%s", m->notes);
  }
  cs_model_free(m);
}

/* The builder: a gyro and a jointpos on a hinged body; a bad type refused at add, an unknown
   site at compile naming the sensor and its source */
static void builder(void) {
  csBuilder* b = cs_builder_new();
  csBodySpec bs;
  cs_body_spec_default(&bs);
  bs.name = "b", bs.parent = 0, bs.mass = 1, bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 0.1;
  int body = cs_builder_add_body(b, &bs);
  csJointSpec js;
  cs_joint_spec_default(&js);
  js.name = "h", js.body = body;
  cs_builder_add_joint(b, &js);
  csSiteSpec ss;
  cs_site_spec_default(&ss);
  ss.name = "s", ss.body = body;
  cs_builder_add_site(b, &ss);
  csSensorSpec sn;
  cs_sensor_spec_default(&sn);
  sn.type = CS_SENS_GYRO, sn.objname = "s", sn.name = "g";
  CHECK(cs_builder_add_sensor(b, &sn) == 0);
  sn.type = CS_SENS_JOINTPOS, sn.objname = "h", sn.name = "q";
  CHECK(cs_builder_add_sensor(b, &sn) == 1);
  sn.type = CS_SENS_COUNT;
  CHECK(cs_builder_add_sensor(b, &sn) == -1);
  csModel* m = NULL;
  CHECK(cs_compile(b, &m) == CS_OK);
  if (m) {
    csData* d = cs_data_new(m);
    d->qpos[0] = 0.25, d->qvel[0] = 1.5;
    CHECK(cs_forward_full(m, d) == CS_OK);
    CHECK(d->sensordata[0] == 0 && d->sensordata[1] == 0 && d->sensordata[2] == 1.5);
    CHECK(d->sensordata[3] == 0.25 && cs_name2id(m, "sensor", "q") == 1);
    cs_data_free(d);
  }
  cs_model_free(m);
  sn.type = CS_SENS_TORQUE, sn.objname = "nosuch", sn.name = "t", sn.source = "here.c:7";
  CHECK(cs_builder_add_sensor(b, &sn) == 2);
  m = NULL;
  CHECK(cs_compile(b, &m) != CS_OK && m == NULL);
  CHECK_MSG(strstr(cs_last_error(), "here.c:7: sensor t: site 'nosuch' not found"), "%s",
            cs_last_error());
  cs_builder_free(b);
  /* a force sensor added before its site, on a body without a joint: refused (not measured on
     the body it is merged into) */
  b = cs_builder_new();
  body = cs_builder_add_body(b, &bs);
  js.body = body;
  cs_builder_add_joint(b, &js);
  bs.name = "w", bs.parent = body;
  int w = cs_builder_add_body(b, &bs);
  sn.type = CS_SENS_FORCE, sn.objname = "ws", sn.name = "f", sn.source = "here.c:9";
  CHECK(cs_builder_add_sensor(b, &sn) == 0);
  ss.name = "ws", ss.body = w;
  cs_builder_add_site(b, &ss);
  CHECK(cs_compile(b, &m) != CS_OK);
  CHECK_MSG(strstr(cs_last_error(), "here.c:9: sensor f: site 'ws' is on a body merged"), "%s",
            cs_last_error());
  cs_builder_free(b);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cs_test_sens_XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  imu_fd();
  kinematic();
  no_effect();
  hanging_mass();
  touch_box();
  cutoff();
  bad_input();
  builder();
  return cs_test_finish("test_sensors");
}
