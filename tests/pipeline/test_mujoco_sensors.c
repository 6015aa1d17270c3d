#define _DEFAULT_SOURCE /* mkdtemp */
/* Sensors side by side with MuJoCo 2.2.2 on the same MJCF files (docs/api.md, "Sensors"):
   a double pendulum with sites, a welded mass and an actuator (every kinematic sensor to
   1e-12; accelerometer, force, torque from the same smooth dynamics to 1e-9), a box resting on
   a plane with a touch site and an IMU, and a hanging mass on force and torque sensors.
   Each comparison is at one state: contactsim's state copied into MuJoCo, then
   cs_forward_full and mj_forward. */
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

static char tmpdir[64];

/* Three links on hinges (one welded mass at the end), sites on them, every sensor type but
   touch; a motor on the first hinge. No contacts (contype 0). */
static const char* pendulum_xml =
    "<mujoco model='pend'>\n"
    "  <compiler angle='radian'/>\n"
    "  <option timestep='0.001' gravity='0 0 -9.81'/>\n"
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
    "        <body name='tip' pos='0 0 -0.45' euler='0 0.3 0'>\n"
    "          <geom name='g3' type='sphere' size='0.06' pos='0.05 0 0' mass='0.9'/>\n"
    "          <site name='s3' pos='0.01 0.02 0.03'/>\n"
    "        </body>\n"
    "      </body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <actuator><motor name='m1' joint='j1' gear='2'/></actuator>\n"
    "  <sensor>\n"
    "    <jointpos joint='j1'/> <jointvel joint='j2'/> <actuatorfrc actuator='m1'/>\n"
    "    <framepos objtype='site' objname='s2'/> <framepos objtype='body' objname='l2'/>\n"
    "    <framepos objtype='xbody' objname='tip'/> <framepos objtype='geom' objname='g2'/>\n"
    "    <framequat objtype='site' objname='s1'/> <framequat objtype='xbody' objname='l2'/>\n"
    "    <framequat objtype='geom' objname='g3'/>\n"
    "    <framelinvel objtype='site' objname='s2'/> <frameangvel objtype='site' objname='s2'/>\n"
    "    <framelinvel objtype='body' objname='tip'/>\n"
    "    <subtreecom body='l2'/> <subtreecom body='l1'/>\n"
    "    <gyro site='s2'/> <accelerometer site='s1'/> <accelerometer site='s2'/>\n"
    "    <accelerometer site='s3'/>\n"
    "    <force site='s2'/> <torque site='s2'/> <force site='s3'/> <torque site='s3'/>\n"
    "  </sensor>\n"
    "</mujoco>\n";

/* A 2 kg box on a plane with touch zones (a box around its bottom face; a sphere at its
   centre, which the contacts' rays, pointing away from the box, miss; a box under the floor,
   which they meet) and an IMU */
static const char* box_xml =
    "<mujoco model='box'>\n"
    "  <option timestep='0.001'/>\n"
    "  <worldbody>\n"
    "    <geom name='floor' type='plane' size='2 2 0.1'/>\n"
    "    <body name='box' pos='0 0 0.1'>\n"
    "      <freejoint/>\n"
    "      <geom type='box' size='0.1 0.1 0.1' mass='2'/>\n"
    "      <site name='bottom' type='box' pos='0 0 -0.1' size='0.12 0.12 0.02'/>\n"
    "      <site name='imu' pos='0.03 0.02 0.05'/>\n"
    "      <site name='center' pos='0 0 0' size='0.05'/>\n"
    "      <site name='under' type='box' pos='0 0 -0.3' size='0.12 0.12 0.05'/>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <sensor>\n"
    "    <touch site='bottom'/> <touch site='center'/> <touch site='under'/>\n"
    "    <accelerometer site='imu'/> <gyro site='imu'/>\n"
    "    <force site='imu'/> <framepos objtype='site' objname='imu'/>\n"
    "  </sensor>\n"
    "</mujoco>\n";

/* A 3 kg mass welded under a hinged arm at rest, the force/torque site 0.1 m beside its
   centre of mass */
static const char* hang_xml =
    "<mujoco model='hang'>\n"
    "  <worldbody>\n"
    "    <body name='arm' pos='0 0 1'>\n"
    "      <joint name='h' type='hinge' axis='0 1 0'/>\n"
    "      <geom type='capsule' fromto='0 0 0 0 0 -0.5' size='0.02' mass='0.5' contype='0' "
    "conaffinity='0'/>\n"
    "      <body name='mass' pos='0 0 -0.5'>\n"
    "        <geom type='sphere' size='0.05' pos='0.1 0 -0.1' mass='3' contype='0' "
    "conaffinity='0'/>\n"
    "        <site name='ft' pos='0 0 -0.1'/>\n"
    "      </body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <sensor> <force site='ft'/> <torque site='ft'/> <accelerometer site='ft'/> </sensor>\n"
    "</mujoco>\n";

typedef struct {
  csModel* m;
  csData* d;
  mjModel* mm;
  mjData* md;
} pairT;

static int load_pair(const char* name, const char* text, pairT* p) {
  memset(p, 0, sizeof *p);
  const char* path = text ? cs_test_write_file(tmpdir, name, text) : name;
  csLoadOptions o;
  cs_load_options_default(&o);
  o.floating_base = 0;
  CHECK_MSG(path && cs_load_model(path, &o, &p->m) == CS_OK, "%s: %s", name, cs_last_error());
  char err[1000] = "";
  p->mm = path ? mj_loadXML(path, NULL, err, sizeof err) : NULL;
  CHECK_MSG(p->mm != NULL, "MuJoCo %s: %s", name, err);
  if (!p->m || !p->mm) return 0;
  p->d = cs_data_new(p->m);
  p->md = mj_makeData(p->mm);
  CHECK_MSG(p->m->nsensordata == p->mm->nsensordata && p->m->nq == p->mm->nq, "%s: sizes", name);
  return p->m->nsensordata == p->mm->nsensordata && p->m->nq == p->mm->nq;
}

static void free_pair(pairT* p) {
  cs_data_free(p->d);
  cs_model_free(p->m);
  if (p->md) mj_deleteData(p->md);
  if (p->mm) mj_deleteModel(p->mm);
}

/* The largest difference over sensor i's values (quaternions up to sign) */
static double sensor_diff(const pairT* p, int i) {
  const double *a = p->d->sensordata + p->m->sensor_adr[i],
               *b = p->md->sensordata + p->mm->sensor_adr[i];
  int n = p->m->sensor_dim[i];
  double e = 0, e2 = 0;
  for (int k = 0; k < n; k++) e = fmax(e, fabs(a[k] - b[k])), e2 = fmax(e2, fabs(a[k] + b[k]));
  return p->m->sensor_type[i] == CS_SENS_FRAMEQUAT ? fmin(e, e2) : e;
}

/* MuJoCo's type of each csSensorType */
static const int mj_type[CS_SENS_COUNT] = {
    mjSENS_JOINTPOS,    mjSENS_JOINTVEL,    mjSENS_ACTUATORFRC,   mjSENS_FRAMEPOS, mjSENS_FRAMEQUAT,
    mjSENS_FRAMELINVEL, mjSENS_FRAMEANGVEL, mjSENS_ACCELEROMETER, mjSENS_GYRO,     mjSENS_FORCE,
    mjSENS_TORQUE,      mjSENS_TOUCH,       mjSENS_SUBTREECOM};

static int is_dynamic(int t) {
  return t == CS_SENS_ACCELEROMETER || t == CS_SENS_FORCE || t == CS_SENS_TORQUE ||
         t == CS_SENS_TOUCH;
}

/* cs_forward_full and mj_forward at contactsim's state; worst kinematic and dynamic
   differences into e[0], e[1] */
static void compare(pairT* p, double* e) {
  memcpy(p->md->qpos, p->d->qpos, sizeof(double) * (size_t)p->m->nq);
  memcpy(p->md->qvel, p->d->qvel, sizeof(double) * (size_t)p->m->nv);
  memcpy(p->md->ctrl, p->d->ctrl, sizeof(double) * (size_t)p->m->nu);
  CHECK(cs_forward_full(p->m, p->d) == CS_OK);
  mj_forward(p->mm, p->md);
  for (int i = 0; i < p->m->nsensor; i++) {
    int t = p->m->sensor_type[i];
    CHECK(mj_type[t] == p->mm->sensor_type[i]);
    double x = sensor_diff(p, i);
    if (is_dynamic(t))
      e[1] = fmax(e[1], x);
    else
      e[0] = fmax(e[0], x);
  }
}

static void pendulum(void) {
  pairT p;
  if (!load_pair("pend.xml", pendulum_xml, &p)) {
    free_pair(&p);
    return;
  }
  double e[2] = {0, 0};
  p.d->qpos[0] = 0.7, p.d->qpos[1] = -1.1, p.d->qvel[0] = 2.0, p.d->qvel[1] = -3.0;
  p.d->ctrl[0] = 0.8;
  for (int k = 0; k < 300; k++) {
    if (k % 30 == 0) compare(&p, e);
    CHECK(cs_step(p.m, p.d) == CS_OK);
  }
  printf("pendulum: kinematic sensors |cs - mj| = %.2e, accelerometer/force/torque %.2e\n", e[0],
         e[1]);
  CHECK(e[0] <= 1e-12);
  CHECK(e[1] <= 1e-9);
  free_pair(&p);
}

static void box(void) {
  pairT p;
  if (!load_pair("box.xml", box_xml, &p)) {
    free_pair(&p);
    return;
  }
  /* each settles in its own contact model, then both are compared at their own rest */
  for (int k = 0; k < 2000; k++) CHECK(cs_step(p.m, p.d) == CS_OK);
  CHECK(cs_forward_full(p.m, p.d) == CS_OK);
  for (int k = 0; k < 1000; k++) mj_step(p.mm, p.md);
  mj_forward(p.mm, p.md);
  double mg = 2 * 9.81, e = 0;
  const double *a = p.d->sensordata, *b = p.md->sensordata;
  printf("box at rest: touch (bottom, centre, under) cs %.12g %.12g %.12g, mj %.12g %.12g %.12g\n",
         a[0], a[1], a[2], b[0], b[1], b[2]);
  CHECK_NEAR(a[0], mg, 1e-9 * mg);
  CHECK(a[1] == 0 && b[1] == 0);
  CHECK_NEAR(a[2], mg, 1e-9 * mg);
  int npos = p.m->nsensordata - 3; /* the last sensor: framepos */
  for (int k = 0; k < npos; k++) e = fmax(e, fabs(a[k] - b[k]));
  double ez = fabs(a[npos + 2] - b[npos + 2]);
  printf("box at rest: touch, IMU, force |cs - mj| %.2e; framepos z cs %.9f mj %.9f\n", e,
         a[npos + 2], b[npos + 2]);
  CHECK(e <= 1e-9 * mg); /* both at rest: m g carried exactly once settled */
  /* MuJoCo's soft contact rests the box in penetration (its default solref: about 0.1 mm for
     this box), contactsim's within its 1 mm margin: framepos differs by those */
  CHECK(ez <= 2e-3);
  free_pair(&p);
}

static void hang(void) {
  pairT p;
  if (!load_pair("hang.xml", hang_xml, &p)) {
    free_pair(&p);
    return;
  }
  double e[2] = {0, 0};
  compare(&p, e);
  printf("hanging mass: force %.9f %.9f %.9f (mj %.9f %.9f %.9f)\n", p.d->sensordata[0],
         p.d->sensordata[1], p.d->sensordata[2], p.md->sensordata[0], p.md->sensordata[1],
         p.md->sensordata[2]);
  printf("              torque %.9f %.9f %.9f (mj %.9f %.9f %.9f)\n", p.d->sensordata[3],
         p.d->sensordata[4], p.d->sensordata[5], p.md->sensordata[3], p.md->sensordata[4],
         p.md->sensordata[5]);
  CHECK(e[1] <= 1e-9);
  free_pair(&p);
}

/* ANYmal C with an IMU and foot sensors (tests/data/mjcf/anymal_c_sensors.xml) in the air at
   random joint positions (away from the limits) and velocities: every sensor equal (the smooth
   dynamics are the same: the accelerometer and the legs' forces from qacc agree to rounding,
   1e-9 of their scale). Joint damping is turned off in both: MuJoCo's qacc (and sensors)
   take it explicitly, its Euler integrator implicitly, while contactsim's qacc is the step's
   (v+ - v) / dt with the implicit damping (docs/api.md, "Sensors"). */
static void anymal(void) {
  pairT p;
  if (!load_pair(cs_test_source("tests/data/mjcf/anymal_c_sensors.xml"), NULL, &p)) {
    free_pair(&p);
    return;
  }
  double e[2] = {0, 0};
  p.m->opt.disable |= CS_DISABLE_DAMPING;
  p.mm->opt.disableflags |= mjDSBL_PASSIVE; /* its passive forces: the damping alone here */
  cs_test_seed(18);
  for (int k = 0; k < 20; k++) {
    cs_data_reset(p.m, p.d);
    p.d->qpos[2] = 2.0;
    for (int i = 7; i < p.m->nq; i++) p.d->qpos[i] = cs_test_uniform(-0.3, 0.3);
    for (int i = 0; i < p.m->nv; i++) p.d->qvel[i] = cs_test_uniform(-2, 2);
    for (int i = 0; i < p.m->nu; i++) p.d->ctrl[i] = cs_test_uniform(-0.5, 0.5);
    compare(&p, e);
  }
  printf(
      "ANYmal C in the air, 20 random states: kinematic sensors |cs - mj| = %.2e, "
      "accelerometer/force/torque %.2e\n",
      e[0], e[1]);
  CHECK(e[0] <= 1e-12);
  CHECK(e[1] <= 1e-9 * 45 * 9.81);
  free_pair(&p);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cs_test_mjsens_XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  printf("MuJoCo %d\n", mj_version());
  pendulum();
  box();
  hang();
  anymal();
  return cs_test_finish("test_mujoco_sensors");
}
