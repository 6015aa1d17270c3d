/* MJCF loader: robot models from ../shared, small hand-written files under
   tests/data/mjcf (orientations, defaults, inertia from geoms, meshes, include, exclude),
   and bad input (every error names the file and the line). Reference numbers are closed
   forms; a few orientation constants were read from MuJoCo 2.2.2 loading the same file.
   Joint friction loss and limit margin are checked on small files written to a temporary
   directory. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "contactsim/cs_io.h"
#include "cs_test.h"

#define PI 3.14159265358979323846

/* ------------------------------------------------------------------ allocation count */
static long live_allocs = 0;
static void* count_malloc(size_t n) {
  live_allocs++;
  return malloc(n);
}
static void count_free(void* p) {
  if (p) live_allocs--;
  free(p);
}

/* ------------------------------------------------------------------ helpers */
static const char* data(const char* name) {
  static char buf[4][4096];
  static int slot = 0;
  char rel[512];
  snprintf(rel, sizeof rel, "tests/data/mjcf/%s", name);
  char* b = buf[slot++ & 3];
  snprintf(b, 4096, "%s", cs_test_source(rel));
  return b;
}

/* Load and compile; NULL with a message on failure. */
static csModel* load(const char* path, const csLoadOptions* o) {
  csBuilder* b = cs_builder_new();
  csModel* m = NULL;
  csStatus st = cs_load_mjcf(b, path, o);
  if (st != CS_OK) {
    fprintf(stderr, "load %s: %s\n", path, cs_last_error());
  } else if ((st = cs_compile(b, &m)) != CS_OK) {
    fprintf(stderr, "compile %s: %s\n", path, cs_last_error());
  }
  cs_builder_free(b);
  return m;
}

static int body(const csModel* m, const char* name) {
  int id = cs_name2id(m, "body", name);
  CHECK_MSG(id >= 0, "body '%s' missing", name);
  return id;
}
static int joint(const csModel* m, const char* name) {
  int id = cs_name2id(m, "joint", name);
  CHECK_MSG(id >= 0, "joint '%s' missing", name);
  return id;
}

static void check_quat(const csModel* m, const char* name, double w, double x, double y, double z) {
  int b = body(m, name);
  if (b < 0) return;
  const double* q = m->body_quat + 4 * b;
  /* q and -q are the same rotation */
  double s = q[0] * w + q[1] * x + q[2] * y + q[3] * z < 0 ? -1 : 1;
  CHECK_NEAR(s * q[0], w, 1e-8);
  CHECK_NEAR(s * q[1], x, 1e-8);
  CHECK_NEAR(s * q[2], y, 1e-8);
  CHECK_NEAR(s * q[3], z, 1e-8);
}

/* Error text names the file and a line: "<file>:<digits>:" */
static int names_file_line(const char* msg, const char* file, int line) {
  const char* p = msg;
  size_t l = strlen(file);
  while ((p = strstr(p, file)) != NULL) {
    p += l;
    if (*p != ':') continue;
    char* end;
    long n = strtol(p + 1, &end, 10);
    if (end > p + 1 && *end == ':' && (line < 0 || n == line)) return 1;
  }
  return 0;
}

/* Capsule inertia built from a cylinder and two hemispheres, each hemisphere taken about
   its own centre of mass (83/320 m r^2 transverse) and moved to the capsule centre. */
static void capsule_closed_form(double r, double halflen, double density, double* mass,
                                double* Itrans, double* Iaxial) {
  double h = 2 * halflen;
  double mc = density * PI * r * r * h;
  double mh = density * 2.0 / 3.0 * PI * r * r * r; /* one hemisphere */
  double d = halflen + 3.0 * r / 8.0;
  *mass = mc + 2 * mh;
  *Itrans = mc * (3 * r * r + h * h) / 12 + 2 * (83.0 / 320.0 * mh * r * r + mh * d * d);
  *Iaxial = mc * r * r / 2 + 2 * (2.0 / 5.0 * mh * r * r);
}

/* ------------------------------------------------------------------ robots */
static int test_anymal(void) {
  const char* path = cs_test_shared("models/anymal_c/mjcf/scene_collision_only.xml");
  if (!path) return 0;
  csModel* m = load(path, NULL);
  CHECK(m != NULL);
  if (!m) return 1;
  CHECK(m->nq == 19);
  CHECK(m->nv == 18);
  CHECK(m->nbody == 14); /* world, base, 4 x (hip, thigh, shank), as in MuJoCo */
  CHECK(m->njnt == 13);
  CHECK(m->jnt_type[0] == CS_JNT_FREE);
  double total = 0;
  for (int i = 0; i < m->nbody; i++) total += m->body_mass[i];
  CHECK_NEAR(total, 44.96518, 0.01);
  CHECK_NEAR(m->body_mass[body(m, "base")], 19.2035, 1e-9);
  /* free body: its pose is in qpos0 */
  CHECK_NEAR(m->qpos0[2], 0.62, 1e-12);
  CHECK_NEAR(m->qpos0[3], 0, 1e-12);
  CHECK_NEAR(fabs(m->qpos0[6]), 1, 1e-12);
  /* legs: radians (compiler angle="radian"), autolimits, damping and friction loss from
     childclass; the free joint has neither */
  int j = joint(m, "LF_HAA");
  if (j >= 0) {
    CHECK(m->jnt_type[j] == CS_JNT_REVOLUTE);
    CHECK(m->jnt_limited[j] == 1);
    CHECK_NEAR(m->jnt_range[2 * j], -0.72, 1e-12);
    CHECK_NEAR(m->jnt_range[2 * j + 1], 0.49, 1e-12);
    CHECK_NEAR(m->dof_damping[m->jnt_dofadr[j]], 1, 1e-12);
  }
  int nfric = 0;
  for (int i = 0; i < m->nv; i++) {
    CHECK_NEAR(m->dof_frictionloss[i], i < 6 ? 0 : 0.1, 0);
    nfric += m->dof_frictionloss[i] > 0;
  }
  CHECK(nfric == 12);
  for (int k = 0; k < m->njnt; k++) CHECK_NEAR(m->jnt_margin[k], 0, 0);
  /* principal moments of a hip survive the rotation into the body frame */
  int hip = body(m, "LF_HIP");
  if (hip >= 0) {
    const double* I = m->body_inertia + 6 * hip;
    CHECK_NEAR(I[0] + I[1] + I[2], 0.00585729 + 0.00491868 + 0.00329081, 1e-10);
  }
  CHECK(m->nu == 12);
  for (int u = 0; u < m->nu; u++) {
    CHECK(m->actuator_type[u] == CS_ACT_POSITION);
    CHECK_NEAR(m->actuator_kp[u], 100, 0);
    CHECK_NEAR(m->actuator_kd[u], 0, 0);
    CHECK(m->actuator_forcelimited[u] == 1);
    CHECK_NEAR(m->actuator_forcerange[2 * u], -80, 0);
    CHECK_NEAR(m->actuator_forcerange[2 * u + 1], 80, 0);
    CHECK(m->actuator_ctrllimited[u] == 1);
    CHECK_NEAR(m->actuator_ctrlrange[2 * u + 1], 6.28, 0);
  }
  CHECK(m->nexclude == 4);
  CHECK(m->ngeom == 45);
  CHECK_MSG(strstr(m->notes, "frictionloss") == NULL, "frictionloss noted: %s", m->notes);
  CHECK(strstr(m->notes, "condim") != NULL);
  CHECK(strstr(m->notes, "solimp") != NULL);
  CHECK(strstr(m->notes, "priority") != NULL);
  CHECK(strstr(m->notes, "impratio") != NULL);
  cs_model_free(m);
  return 1;
}

static int test_allegro(void) {
  const char* path = cs_test_shared("models/allegro_hand/mjcf/scene_right_collision_only.xml");
  if (!path) return 0;
  csModel* m = load(path, NULL);
  CHECK(m != NULL);
  if (!m) return 1;
  CHECK(m->nv == 16 + 6);
  CHECK(m->nq == 16 + 7);
  int nfree = 0, freebody = -1;
  for (int j = 0; j < m->njnt; j++)
    if (m->jnt_type[j] == CS_JNT_FREE) nfree++, freebody = m->jnt_body[j];
  CHECK(nfree == 1); /* the cube only: the palm is fixed */
  int cube = body(m, "cube");
  CHECK(freebody == cube);
  /* the palm has no joint: welded to the world, leaving a site */
  CHECK(cs_name2id(m, "body", "palm") == -1);
  int palm = cs_name2id(m, "site", "palm");
  CHECK(palm >= 0 && m->site_body[palm] == 0);
  if (cube >= 0) {
    double mass = 500 * 0.05 * 0.05 * 0.05;
    double I = mass * (0.05 * 0.05 + 0.05 * 0.05) / 12;
    CHECK_NEAR(m->body_mass[cube], mass, 1e-12);
    for (int k = 0; k < 3; k++) CHECK_NEAR(m->body_inertia[6 * cube + k], I, 1e-15);
    for (int k = 3; k < 6; k++) CHECK_NEAR(m->body_inertia[6 * cube + k], 0, 1e-18);
  }
  CHECK(m->nu == 16);
  for (int u = 0; u < m->nu; u++) {
    CHECK(m->actuator_type[u] == CS_ACT_POSITION);
    CHECK_NEAR(m->actuator_kp[u], 10, 0);
    CHECK(m->actuator_ctrllimited[u] == 1);
    CHECK(m->actuator_forcelimited[u] == 0);
  }
  int j = joint(m, "thj0");
  if (j >= 0) {
    CHECK_NEAR(m->jnt_range[2 * j], 0.263, 1e-12);
    CHECK_NEAR(m->jnt_axis[3 * j], -1, 1e-12);
  }
  cs_model_free(m);
  return 1;
}

/* ------------------------------------------------------------------ hand-written files */
static void test_basic(void) {
  csModel* m = load(data("basic.xml"), NULL);
  CHECK(m != NULL);
  if (!m) return;
  CHECK(m->nq == 11);
  CHECK(m->nv == 10);
  CHECK(m->nbody == 8);
  CHECK_NEAR(m->opt.timestep, 0.005, 0);
  CHECK_NEAR(m->opt.gravity[2], -10, 0);

  /* orientations; angles in degrees (MuJoCo's default) */
  check_quat(m, "b_euler", 0.943714364, 0.127679441, 0.144878125, 0.268535823); /* MuJoCo */
  double s15 = sin(15 * PI / 180);
  check_quat(m, "b_axisangle", cos(15 * PI / 180), s15 / sqrt(2), s15 / sqrt(2), 0);
  check_quat(m, "b_xyaxes", sqrt(0.5), 0, 0, sqrt(0.5));
  check_quat(m, "b_zaxis", sqrt(0.5), 0, sqrt(0.5), 0);
  check_quat(m, "b_quat", 0, 0, 0, 1);

  /* ranges: hinge and ball converted from degrees, slide not */
  int j = joint(m, "j_euler");
  if (j >= 0) {
    CHECK(m->jnt_limited[j] == 1);
    CHECK_NEAR(m->jnt_range[2 * j], -PI / 2, 1e-12);
    CHECK_NEAR(m->jnt_range[2 * j + 1], PI / 4, 1e-12);
    CHECK_NEAR(m->dof_damping[m->jnt_dofadr[j]], 0.5, 0); /* class main */
  }
  j = joint(m, "j_slide");
  if (j >= 0) {
    CHECK(m->jnt_type[j] == CS_JNT_PRISMATIC);
    CHECK_NEAR(m->jnt_range[2 * j], -0.5, 0);
    CHECK_NEAR(m->jnt_range[2 * j + 1], 0.25, 0);
  }
  j = joint(m, "j_ball");
  if (j >= 0) {
    CHECK(m->jnt_type[j] == CS_JNT_BALL);
    CHECK_NEAR(m->jnt_range[2 * j + 1], PI / 3, 1e-12);
  }
  j = joint(m, "j_zaxis");
  if (j >= 0) CHECK(m->jnt_limited[j] == 0);

  /* defaults: childclass "arm" on the body, class "stiff" (child of arm) on elbow */
  static const struct {
    const char* name;
    double damping, armature;
  } jd[] = {{"shoulder", 2, 0.01}, {"elbow", 5, 0.01}, {"wrist", 2, 0.01}};
  for (int k = 0; k < 3; k++) {
    j = joint(m, jd[k].name);
    if (j < 0) continue;
    CHECK_NEAR(m->dof_damping[m->jnt_dofadr[j]], jd[k].damping, 0);
    CHECK_NEAR(m->dof_armature[m->jnt_dofadr[j]], jd[k].armature, 0);
    CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[j]], 0.3, 0); /* class arm */
    CHECK_NEAR(m->jnt_axis[3 * j + 1], 1, 0);
  }
  int arm = body(m, "arm"), fore = body(m, "forearm");
  CHECK(arm >= 0 && m->body_jntnum[arm] == 2);

  /* capsule inertia from the geom (density 500 from class arm) */
  double mass, It, Ia;
  capsule_closed_form(0.05, 0.2, 500, &mass, &It, &Ia);
  if (arm >= 0) {
    CHECK_NEAR(m->body_mass[arm], mass, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * arm + 0], It, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * arm + 1], It, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * arm + 2], Ia, 1e-12);
  }
  /* fromto capsule along x: centre at 0.2, half length 0.2, axial moment about x */
  capsule_closed_form(0.03, 0.2, 500, &mass, &It, &Ia);
  if (fore >= 0) {
    CHECK_NEAR(m->body_mass[fore], mass, 1e-12);
    CHECK_NEAR(m->body_ipos[3 * fore], 0.2, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * fore + 0], Ia, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * fore + 1], It, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * fore + 2], It, 1e-12);
  }
  int g = cs_name2id(m, "geom", "lower");
  if (g >= 0) {
    CHECK(m->geom_type[g] == CS_GEOM_CAPSULE);
    CHECK_NEAR(m->geom_size[3 * g], 0.03, 0);
    CHECK_NEAR(m->geom_size[3 * g + 1], 0.2, 1e-12);
    CHECK_NEAR(m->geom_pos[3 * g], 0.2, 1e-12);
    /* the geom's z axis lies along x */
    const double* q = m->geom_quat + 4 * g;
    double zx = 2 * (q[1] * q[3] + q[0] * q[2]);
    CHECK_NEAR(fabs(zx), 1, 1e-12);
    CHECK_NEAR(m->geom_friction[g], 0.7, 0);
  }
  g = cs_name2id(m, "geom", "floor");
  CHECK(g >= 0 && m->geom_body[g] == 0 && m->geom_type[g] == CS_GEOM_PLANE);
  if (g >= 0) CHECK_NEAR(m->geom_friction[g], 1, 0);
  /* a sphere of density 1000 (MuJoCo's default) */
  int be = body(m, "b_euler");
  if (be >= 0) CHECK_NEAR(m->body_mass[be], 1000 * 4.0 / 3.0 * PI * 0.001, 1e-12);
  CHECK(cs_name2id(m, "site", "tip") >= 0);

  /* exclude, actuators */
  CHECK(m->nexclude == 1);
  if (m->nexclude == 1 && arm >= 0 && fore >= 0) {
    CHECK(m->exclude_pair[0] == (arm < fore ? arm : fore));
    CHECK(m->exclude_pair[1] == (arm < fore ? fore : arm));
  }
  CHECK(m->nu == 2);
  int u = cs_name2id(m, "actuator", "shoulder_motor");
  if (u >= 0) {
    CHECK(m->actuator_type[u] == CS_ACT_MOTOR);
    CHECK_NEAR(m->actuator_gear[u], 50, 0);
    CHECK(m->actuator_ctrllimited[u] == 1);
    CHECK(m->actuator_forcelimited[u] == 0);
    CHECK(m->actuator_jnt[u] == cs_name2id(m, "joint", "shoulder"));
  }
  u = cs_name2id(m, "actuator", "elbow_servo");
  if (u >= 0) {
    CHECK(m->actuator_type[u] == CS_ACT_POSITION);
    CHECK_NEAR(m->actuator_kp[u], 25, 0);
    CHECK_NEAR(m->actuator_kd[u], 0, 0);
    CHECK(m->actuator_ctrllimited[u] == 1);
    CHECK_NEAR(m->actuator_ctrlrange[2 * u], -1.5, 0); /* not converted: not an angle */
    CHECK(m->actuator_jnt[u] == cs_name2id(m, "joint", "elbow"));
  }
  /* frictionloss from class arm is read, not noted; class main has none */
  j = joint(m, "j_euler");
  if (j >= 0) CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[j]], 0, 0);
  CHECK_MSG(strstr(m->notes, "frictionloss") == NULL, "frictionloss noted: %s", m->notes);
  /* notes name the default class's file and line, once */
  CHECK(strstr(m->notes, "basic_defaults.xml:6: <geom> attribute 'condim'") != NULL);
  CHECK(strstr(m->notes, "condim") != NULL);
  CHECK(m->nsensor == 1 && m->sensor_type[0] == CS_SENS_JOINTPOS &&
        m->sensor_objid[0] == cs_name2id(m, "joint", "elbow")); /* <sensor> read */
  cs_model_free(m);
}

static void test_radian_mesh(void) {
  csModel* m = load(data("radian.xml"), NULL);
  CHECK(m != NULL);
  if (!m) return;
  CHECK(m->nq == 16);
  CHECK(m->nv == 14);
  CHECK(m->nmesh == 2);
  CHECK((m->opt.disable & CS_DISABLE_GRAVITY) != 0);
  CHECK(m->opt.warmstart == 0);
  /* eulerseq="ZYX" (extrinsic), radians: reference from MuJoCo 2.2.2 */
  check_quat(m, "b_zyx", 0.943714364, 0.268535823, 0.144878125, 0.127679441);
  check_quat(m, "b_aa", sqrt(0.5), 0, 0, sqrt(0.5));
  int j = joint(m, "j_zyx");
  if (j >= 0) {
    CHECK_NEAR(m->jnt_range[2 * j], -1, 0);
    CHECK_NEAR(m->jnt_range[2 * j + 1], 0.5, 0);
  }
  j = joint(m, "j_aa");
  if (j >= 0) CHECK_NEAR(m->jnt_range[2 * j + 1], 0.5, 0);

  /* two geoms combined by the parallel-axis theorem; a geom outside inertiagrouprange,
     one with mass 0 and one with density 0 add nothing */
  int b = body(m, "combo");
  if (b >= 0) {
    double Ib[3] = {2 * (0.04 + 0.09) / 3, 2 * (0.01 + 0.09) / 3, 2 * (0.01 + 0.04) / 3};
    double Is = 0.4 * 2 * 0.01, d2 = 2 * 0.25;
    CHECK_NEAR(m->body_mass[b], 4, 1e-12);
    for (int k = 0; k < 3; k++) CHECK_NEAR(m->body_ipos[3 * b + k], 0, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * b + 0], Ib[0] + Is, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * b + 1], Ib[1] + Is + 2 * d2, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * b + 2], Ib[2] + Is + 2 * d2, 1e-12);
  }
  /* STL cube of side 0.2 at [0, 0.2]^3 (float vertices), density 1000, free body */
  b = body(m, "mesh_free");
  if (b >= 0) {
    CHECK_NEAR(m->body_mass[b], 8, 1e-5);
    for (int k = 0; k < 3; k++) CHECK_NEAR(m->body_ipos[3 * b + k], 0.1, 1e-7);
    for (int k = 0; k < 3; k++) CHECK_NEAR(m->body_inertia[6 * b + k], 8 * 0.08 / 12, 1e-8);
    for (int k = 3; k < 6; k++) CHECK_NEAR(m->body_inertia[6 * b + k], 0, 1e-9);
    CHECK_NEAR(m->qpos0[m->jnt_qposadr[m->body_jntadr[b]] + 2], 2, 0);
  }
  /* inline mesh, mass 3, geom at x=1 turned 90 deg about x (third angle of ZYX) */
  b = body(m, "mesh_inline");
  if (b >= 0) {
    CHECK_NEAR(m->body_mass[b], 3, 1e-12);
    CHECK_NEAR(m->body_ipos[3 * b + 0], 1.1, 1e-12);
    CHECK_NEAR(m->body_ipos[3 * b + 1], -0.1, 1e-12);
    CHECK_NEAR(m->body_ipos[3 * b + 2], 0.1, 1e-12);
    for (int k = 0; k < 3; k++) CHECK_NEAR(m->body_inertia[6 * b + k], 3 * 0.08 / 12, 1e-12);
  }
  b = body(m, "full");
  if (b >= 0) {
    static const double I[6] = {0.1, 0.2, 0.25, 0.01, 0, 0};
    for (int k = 0; k < 6; k++) CHECK_NEAR(m->body_inertia[6 * b + k], I[k], 1e-12);
    CHECK_NEAR(m->body_ipos[3 * b], 0.1, 0);
  }
  /* explicit <inertial> wins over the geom; its frame turned 90 deg about z */
  b = body(m, "diag");
  if (b >= 0) {
    CHECK_NEAR(m->body_mass[b], 1, 0);
    CHECK_NEAR(m->body_inertia[6 * b + 0], 2, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * b + 1], 1, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * b + 2], 3, 1e-12);
    CHECK_NEAR(m->body_inertia[6 * b + 3], 0, 1e-12);
  }
  cs_model_free(m);

  /* skip_collision_meshes: the mesh geoms go (with a note), so the free mesh body has no
     mass left and compile says so */
  csLoadOptions o;
  memset(&o, 0, sizeof o);
  o.skip_collision_meshes = 1;
  csBuilder* bl = cs_builder_new();
  CHECK(cs_load_mjcf(bl, data("radian.xml"), &o) == CS_OK);
  csModel* m2 = NULL;
  CHECK(cs_compile(bl, &m2) == CS_ERR_MODEL);
  CHECK(strstr(cs_last_error(), "mesh_free") != NULL);
  cs_builder_free(bl);
}

/* ------------------------------------------------------------------ friction loss, margin */

/* <size nconmax="N"> sets the contact capacity (and with it csData's size); the default
   otherwise; a capacity below 1 is an error naming the attribute; the builder refuses a
   negative one. */
static void test_size(void) {
  char dir[] = "/tmp/cs_test_mjcf_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK_MSG(0, "mkdtemp failed");
    return;
  }
  const char* fmt =
      "<mujoco>\n  <size %s/>\n  <worldbody>\n    <geom type=\"plane\" size=\"1 1 0.1\"/>\n"
      "    <body pos=\"0 0 0.1\"><freejoint/><geom type=\"box\" size=\"0.1 0.1 0.1\"/></body>\n"
      "  </worldbody>\n</mujoco>\n";
  char text[1024];
  snprintf(text, sizeof text, fmt, "nconmax=\"8\" njmax=\"100\" nstack=\"1000\"");
  const char* path = cs_test_write_file(dir, "size.xml", text);
  csModel* m = path ? load(path, NULL) : NULL;
  CHECK(m && m->ncon_max == 8);
  csData* d8 = m ? cs_data_new(m) : NULL;
  snprintf(text, sizeof text, fmt, "njmax=\"100\"");
  path = cs_test_write_file(dir, "size.xml", text);
  csModel* m2 = path ? load(path, NULL) : NULL;
  CHECK(m2 && m2->ncon_max == 64 + 8 * m2->ngeom);
  csData* d2 = m2 ? cs_data_new(m2) : NULL;
  CHECK(d8 && d2 && d8->nbuffer_ < d2->nbuffer_);
  if (d8) { /* the box resting on four corners fits */
    for (int k = 0; k < 100; k++) cs_step(m, d8);
    CHECK(d8->ncon == 4 && d8->warning[CS_WARN_CONTACTFULL].count == 0);
  }
  cs_data_free(d8), cs_data_free(d2), cs_model_free(m), cs_model_free(m2);
  snprintf(text, sizeof text, fmt, "nconmax=\"0\"");
  path = cs_test_write_file(dir, "size.xml", text);
  csModel* m3 = NULL;
  CHECK(path && cs_load_model(path, NULL, &m3) != CS_OK && m3 == NULL);
  CHECK_MSG(strstr(cs_last_error(), "nconmax") != NULL, "'%s'", cs_last_error());
  csBuilder* b = cs_builder_new();
  CHECK(cs_builder_set_ncon_max(b, -1) == -1 && cs_builder_set_ncon_max(b, 5) == 0);
  CHECK(cs_builder_set_memory(b, CS_MEMORY_LIMIT + 1) == -1 && cs_builder_set_memory(b, 0) == 0);
  cs_builder_free(b);
  /* memory: the arena of each csData, with MuJoCo's suffixes */
  snprintf(text, sizeof text, fmt, "memory=\"3M\"");
  path = cs_test_write_file(dir, "size.xml", text);
  csModel* m4 = path ? load(path, NULL) : NULL;
  CHECK(m4 && m4->memory == (size_t)3 << 20);
  csData* d4 = m4 ? cs_data_new(m4) : NULL;
  CHECK(d4 && d4->narena_ == (size_t)3 << 20 && cs_data_room(m4, d4) == m4->ncon_max);
  cs_data_free(d4), cs_model_free(m4);
  snprintf(text, sizeof text, fmt, "memory=\"100\""); /* loads; too small for any step */
  path = cs_test_write_file(dir, "size.xml", text);
  csModel* m5 = path ? load(path, NULL) : NULL;
  CHECK(m5 && m5->memory == 100 && cs_data_new(m5) == NULL);
  CHECK_MSG(strstr(cs_last_error(), "memory") != NULL, "'%s'", cs_last_error());
  cs_model_free(m5);
  const char* bad[] = {"memory=\"0\"",  "memory=\"12X\"", "memory=\"-5M\"",
                       "memory=\"2T\"", "memory=\"M\"",   "memory=\"4MB\""};
  for (int k = 0; k < 6; k++) {
    snprintf(text, sizeof text, fmt, bad[k]);
    path = cs_test_write_file(dir, "size.xml", text);
    csModel* mb = NULL;
    CHECK_MSG(path && cs_load_model(path, NULL, &mb) != CS_OK && mb == NULL, "%s", bad[k]);
    CHECK_MSG(strstr(cs_last_error(), "memory") != NULL, "%s: '%s'", bad[k], cs_last_error());
  }
  unlink(path);
  rmdir(dir);
}

/* frictionloss and margin: from the joint, from its class (nested classes override), or 0;
   margin is not converted from degrees (as MuJoCo), frictionloss goes to every dof of a ball
   joint; a negative value is an error naming the file, line and joint; the frictionloss and
   equality flags map to CS_DISABLE_FRICTIONLOSS / CS_DISABLE_EQUALITY. */
static void test_frictionloss_margin(void) {
  char dir[] = "/tmp/cs_test_mjcf_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK_MSG(0, "mkdtemp failed");
    return;
  }
  const char* good =
      "<mujoco>\n"
      "  <option><flag frictionloss=\"disable\" equality=\"disable\"/></option>\n"
      "  <default>\n"
      "    <joint frictionloss=\"0.2\" margin=\"0.01\"/>\n"
      "    <default class=\"soft\"><joint frictionloss=\"0.7\"/></default>\n"
      "  </default>\n"
      "  <worldbody>\n"
      "    <body name=\"a\">\n"
      "      <joint name=\"ja\" type=\"hinge\" range=\"-30 30\" limited=\"true\" "
      "margin=\"0.05\"/>\n"
      "      <geom type=\"sphere\" size=\"0.1\"/>\n"
      "      <body name=\"b\" pos=\"0 0 -0.3\">\n"
      "        <joint name=\"jb\" class=\"soft\" type=\"ball\" range=\"0 45\" limited=\"true\"/>\n"
      "        <geom type=\"sphere\" size=\"0.1\"/>\n"
      "        <body name=\"c\" pos=\"0 0 -0.3\">\n"
      "          <joint name=\"jc\" type=\"slide\" frictionloss=\"0\"/>\n"
      "          <geom type=\"sphere\" size=\"0.1\"/>\n"
      "        </body>\n"
      "      </body>\n"
      "    </body>\n"
      "  </worldbody>\n"
      "  <equality><connect body1=\"a\" body2=\"b\" anchor=\"0 0 0\"/></equality>\n"
      "</mujoco>\n";
  const char* path = cs_test_write_file(dir, "good.xml", good);
  CHECK(path != NULL);
  csModel* m = path ? load(path, NULL) : NULL;
  CHECK(m != NULL);
  if (m) {
    int ja = joint(m, "ja"), jb = joint(m, "jb"), jc = joint(m, "jc");
    if (ja >= 0 && jb >= 0 && jc >= 0) {
      CHECK_NEAR(m->jnt_margin[ja], 0.05, 0); /* not converted from degrees */
      CHECK_NEAR(m->jnt_margin[jb], 0.01, 0); /* class main */
      CHECK_NEAR(m->jnt_margin[jc], 0.01, 0);
      CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[ja]], 0.2, 0);
      for (int k = 0; k < 3; k++) CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[jb] + k], 0.7, 0);
      CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[jc]], 0, 0);
      CHECK(m->jnt_limited[jb] == 1);
      CHECK_NEAR(m->jnt_range[2 * jb], 0, 0);
      CHECK_NEAR(m->jnt_range[2 * jb + 1], PI / 4, 1e-12);
    }
    CHECK((m->opt.disable & CS_DISABLE_FRICTIONLOSS) != 0);
    CHECK((m->opt.disable & CS_DISABLE_EQUALITY) != 0);
    /* <equality> is read (tests/io/test_io_equality.c), the flag turns it off */
    CHECK(m->neq == 1 && m->eq_type[0] == CS_EQ_CONNECT);
    CHECK_MSG(strstr(m->notes, "connect") == NULL, "notes: %s", m->notes);
    CHECK_MSG(strstr(m->notes, "frictionloss") == NULL && strstr(m->notes, "margin") == NULL,
              "notes: %s", m->notes);
    cs_model_free(m);
  }
  /* negative values: the builder's error names the file, line and joint */
  static const struct {
    const char* attr;
    const char* msg;
  } bad[] = {{"frictionloss=\"-0.5\"", "frictionloss = -0.5"}, {"margin=\"-1\"", "margin = -1"}};
  for (int k = 0; k < 2; k++) {
    char text[512];
    snprintf(text, sizeof text,
             "<mujoco>\n"
             "  <worldbody>\n"
             "    <body name=\"a\">\n"
             "      <joint name=\"jbad\" type=\"hinge\" %s/>\n"
             "      <geom type=\"sphere\" size=\"0.1\"/>\n"
             "    </body>\n"
             "  </worldbody>\n"
             "</mujoco>\n",
             bad[k].attr);
    path = cs_test_write_file(dir, "bad.xml", text);
    CHECK(path != NULL);
    if (!path) continue;
    csBuilder* b = cs_builder_new();
    csStatus st = cs_load_mjcf(b, path, NULL);
    const char* e = cs_last_error();
    CHECK_MSG(st == CS_ERR_MODEL, "%s: status %s (%s)", bad[k].attr, cs_status_name(st), e);
    CHECK_MSG(names_file_line(e, "bad.xml", 4), "error does not name bad.xml:4: %s", e);
    CHECK_MSG(strstr(e, "'jbad'") != NULL && strstr(e, bad[k].msg) != NULL, "error: %s", e);
    cs_builder_free(b);
  }
  char p1[4200], p2[4200];
  snprintf(p1, sizeof p1, "%s/good.xml", dir);
  snprintf(p2, sizeof p2, "%s/bad.xml", dir);
  remove(p1);
  remove(p2);
  rmdir(dir);
}

/* ------------------------------------------------------------------ bad input */
/* named: the file the message must name with the line (NULL: file itself) */
static void expect_load_error(const char* file, csStatus want, const char* named, int line,
                              const char* also) {
  long before = live_allocs;
  csBuilder* b = cs_builder_new();
  csStatus st = cs_load_mjcf(b, data(file), NULL);
  const char* e = cs_last_error();
  CHECK_MSG(st == want, "%s: status %s, expected %s (%s)", file, cs_status_name(st),
            cs_status_name(want), e);
  if (!named) named = file;
  CHECK_MSG(names_file_line(e, named, line), "%s: error does not name %s:%d: %s", file, named, line,
            e);
  if (also) CHECK_MSG(strstr(e, also) != NULL, "%s: error lacks '%s': %s", file, also, e);
  cs_builder_free(b);
  CHECK_MSG(live_allocs == before, "%s: %ld allocations leaked", file, live_allocs - before);
}

static void expect_compile_error(const char* file, int line, const char* body_name) {
  csBuilder* b = cs_builder_new();
  csStatus st = cs_load_mjcf(b, data(file), NULL);
  CHECK_MSG(st == CS_OK, "%s: %s", file, cs_last_error());
  csModel* m = NULL;
  st = cs_compile(b, &m);
  const char* e = cs_last_error();
  CHECK_MSG(st == CS_ERR_MODEL, "%s: compile status %s (%s)", file, cs_status_name(st), e);
  CHECK(m == NULL);
  CHECK_MSG(names_file_line(e, file, line), "%s: error does not name %s:%d: %s", file, file, line,
            e);
  CHECK_MSG(strstr(e, body_name) != NULL, "%s: error lacks body '%s': %s", file, body_name, e);
  cs_builder_free(b);
}

static void test_errors(void) {
  /* missing file: no line to name */
  csBuilder* b = cs_builder_new();
  CHECK(cs_load_mjcf(b, data("does_not_exist.xml"), NULL) == CS_ERR_IO);
  CHECK(strstr(cs_last_error(), "does_not_exist.xml") != NULL);
  cs_builder_free(b);

  expect_load_error("bad_malformed.xml", CS_ERR_PARSE, NULL, -1, "malformed");
  expect_load_error("bad_root.xml", CS_ERR_PARSE, NULL, 1, "<robot>");
  expect_load_error("bad_joint_type.xml", CS_ERR_PARSE, NULL, 4, "<joint type=\"screw\">");
  expect_load_error("bad_mass.xml", CS_ERR_MODEL, NULL, 5, "mass=\"-1\"");
  expect_load_error("bad_mass_nan.xml", CS_ERR_MODEL, NULL, 5, "mass=\"nan\"");
  expect_load_error("bad_nan_pos.xml", CS_ERR_PARSE, NULL, 3, "pos=\"0 nan 0\"");
  expect_load_error("bad_include.xml", CS_ERR_IO, NULL, 5, "no_such_file.xml");
  /* a includes b, b includes a: the include in b closes the cycle */
  expect_load_error("bad_cycle_a.xml", CS_ERR_PARSE, "bad_cycle_b.xml", 3, "include cycle");
  expect_load_error("bad_mesh.xml", CS_ERR_IO, NULL, 3, "ghost");
  expect_load_error("bad_class.xml", CS_ERR_PARSE, NULL, 8, "imaginary");
  expect_load_error("bad_actuator.xml", CS_ERR_MODEL, NULL, 9, "nope");
  expect_load_error("bad_limited.xml", CS_ERR_PARSE, NULL, 5, "limited");

  expect_compile_error("bad_inertia_triangle.xml", 5, "lopsided");
  expect_compile_error("bad_inertia_zero.xml", 5, "flat");
}

/* compiler balanceinertia (per body, noted) and settotalmass (all bodies scaled); the
   load option balance_inertia repairs the same body at compile instead */
static void test_balance(void) {
  csModel* m = load(data("balance.xml"), NULL);
  CHECK(m != NULL);
  if (m) {
    int b = body(m, "lopsided"), o = body(m, "other");
    if (b >= 0 && o >= 0) {
      CHECK_NEAR(m->body_mass[b] + m->body_mass[o], 6, 1e-12);
      CHECK_NEAR(m->body_mass[b], 2, 1e-12);
      for (int k = 0; k < 3; k++) CHECK_NEAR(m->body_inertia[6 * b + k], 2 * 7.0 / 3.0, 1e-12);
      for (int k = 0; k < 3; k++) CHECK_NEAR(m->body_inertia[6 * o + k], 2 * 0.008, 1e-12);
    }
    CHECK(strstr(m->notes, "balance.xml:6: body 'lopsided'") != NULL);
    cs_model_free(m);
  }
  csLoadOptions opt;
  memset(&opt, 0, sizeof opt);
  opt.balance_inertia = 1;
  m = load(data("bad_inertia_triangle.xml"), &opt);
  CHECK(m != NULL);
  if (m) {
    int b = body(m, "lopsided");
    if (b >= 0)
      for (int k = 0; k < 3; k++) CHECK_NEAR(m->body_inertia[6 * b + k], 7.0 / 3.0, 1e-9);
    cs_model_free(m);
  }
}

/* the loader frees everything it allocates (good file, then builder freed) */
static void test_no_leak(void) {
  long before = live_allocs;
  csBuilder* b = cs_builder_new();
  CHECK(cs_load_mjcf(b, data("basic.xml"), NULL) == CS_OK);
  CHECK(cs_load_mjcf(b, data("radian.xml"), NULL) == CS_OK); /* appending is allowed */
  csModel* m = NULL;
  CHECK(cs_compile(b, &m) == CS_OK);
  if (m) CHECK(m->nbody == 8 + 7);
  cs_model_free(m);
  cs_builder_free(b);
  CHECK_MSG(live_allocs == before, "%ld allocations leaked", live_allocs - before);
}

int main(void) {
  cs_set_allocator(count_malloc, count_free);
  int ran_shared = test_anymal();
  ran_shared += test_allegro();
  test_basic();
  test_radian_mesh();
  test_frictionloss_margin();
  test_size();
  test_balance();
  test_errors();
  test_no_leak();
  if (!ran_shared) printf("test_io_mjcf: ../shared models absent, robot checks skipped\n");
  return cs_test_finish("test_io_mjcf");
}
