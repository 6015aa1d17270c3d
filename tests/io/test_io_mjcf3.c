/* MJCF as MuJoCo 3 files write it: <frame> (poses composed by hand here), <keyframe> (qpos,
   qvel, ctrl, time exactly as in the file; cs_data_reset_key), ellipsoid geoms (inertia
   against the closed form, contact distances against the analytic support height over a
   plane, box, sphere, cylinder and ellipsoid, a plane and a box under a resting ellipsoid),
   MuJoCo's default timestep 0.002 and the autolimits default (true) with compiler
   autolimits="false" reading MuJoCo 2.2.2 files. Every feature also has a bad input whose error
   names the file, the line and the element. Files are written to a temporary directory. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "contactsim/cs_io.h"
#include "cs_test.h"

#define PI 3.14159265358979323846

static char tmpdir[] = "/tmp/cs_test_mjcf3_XXXXXX";

/* Write text as dir/name, load it and compile it; NULL on failure, with the status in *st
   (CS_OK if the load and compile succeeded) and cs_last_error() kept in err. */
static char err[2048];
static csModel* load_text(const char* name, const char* text, csStatus* st) {
  const char* path = cs_test_write_file(tmpdir, name, text);
  csModel* m = NULL;
  *st = CS_ERR_IO;
  if (!path) return NULL;
  csBuilder* b = cs_builder_new();
  *st = cs_load_mjcf(b, path, NULL);
  if (*st == CS_OK) *st = cs_compile(b, &m);
  snprintf(err, sizeof err, "%s", *st == CS_OK ? "" : cs_last_error());
  cs_builder_free(b);
  return m;
}

static csModel* load_ok(const char* name, const char* text) {
  csStatus st;
  csModel* m = load_text(name, text, &st);
  CHECK_MSG(m != NULL, "%s: %s", name, err);
  return m;
}

/* The load or compile fails with status want, and the message names "name:line:" and
   contains also. */
static void load_bad(const char* name, const char* text, csStatus want, int line,
                     const char* also) {
  csStatus st;
  csModel* m = load_text(name, text, &st);
  CHECK_MSG(m == NULL && st == want, "%s: status %s, expected %s (%s)", name, cs_status_name(st),
            cs_status_name(want), err);
  cs_model_free(m);
  char where[256];
  snprintf(where, sizeof where, "%s:%d:", name, line);
  CHECK_MSG(strstr(err, where) != NULL, "%s: error does not name %s: %s", name, where, err);
  CHECK_MSG(strstr(err, also) != NULL, "%s: error lacks '%s': %s", name, also, err);
}

static void check_vec(const double* got, const double* want, int n, double tol) {
  for (int i = 0; i < n; i++) CHECK_NEAR(got[i], want[i], tol);
}

/* q and -q are the same rotation */
static void check_quat(const double* q, const double* want, double tol) {
  double s = q[0] * want[0] + q[1] * want[1] + q[2] * want[2] + q[3] * want[3] < 0 ? -1 : 1;
  for (int k = 0; k < 4; k++) CHECK_NEAR(s * q[k], want[k], tol);
}

/* ------------------------------------------------------------------ <frame> */
/* Frame f1 at (1, 0, 0) turned 90 deg about z holds frame f2 at (0, 2, 0) turned 90 deg
   about x, which holds body b at (0.1, 0.2, 0.3). By hand: R2 maps (x, y, z) to (x, -z, y),
   so R2 pb = (0.1, -0.3, 0.2), plus p2: (0.1, 1.7, 0.2); R1 maps (x, y, z) to (-y, x, z):
   (-1.7, 0.1, 0.2), plus p1: (-0.7, 0.1, 0.2). The orientation qz(90) qx(90) =
   (0.5, 0.5, 0.5, 0.5). Body b2 follows b inside f1 only: (1, 0, 0) + R1 (0, 0, 1) =
   (1, 0, 1). In body c, a frame at (0.5, 0, 0) turned 90 deg about z (class k: box
   0.1 0.2 0.3) holds a geom at (0.1, 0, 0): geom pos (0.5, 0.1, 0), and c's centre of mass
   there; a site at (0, 0.2, 0) in it: (0.3, 0, 0). */
static const char* frame_xml =
    "<mujoco>\n"
    "  <compiler angle=\"degree\"/>\n"
    "  <default><default class=\"k\"><geom type=\"box\" size=\"0.1 0.2 0.3\"/></default>"
    "</default>\n"
    "  <worldbody>\n"
    "    <frame name=\"f1\" pos=\"1 0 0\" euler=\"0 0 90\">\n"
    "      <frame pos=\"0 2 0\" axisangle=\"1 0 0 90\">\n"
    "        <body name=\"b\" pos=\"0.1 0.2 0.3\">\n"
    "          <joint type=\"hinge\"/>\n"
    "          <geom size=\"0.1\"/>\n"
    "          <frame pos=\"0 0 5\"><geom name=\"bg\" size=\"0.05\"/></frame>\n"
    "        </body>\n"
    "      </frame>\n"
    "      <body name=\"b2\" pos=\"0 0 1\">\n"
    "        <joint type=\"slide\"/>\n"
    "        <geom size=\"0.1\"/>\n"
    "      </body>\n"
    "    </frame>\n"
    "    <body name=\"c\" pos=\"0 0 3\">\n"
    "      <joint type=\"hinge\"/>\n"
    "      <frame pos=\"0.5 0 0\" euler=\"0 0 90\" childclass=\"k\">\n"
    "        <geom name=\"cg\" pos=\"0.1 0 0\"/>\n"
    "        <site name=\"cs\" pos=\"0 0.2 0\"/>\n"
    "      </frame>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "</mujoco>\n";

static void test_frame(void) {
  csModel* m = load_ok("frame.xml", frame_xml);
  if (!m) return;
  CHECK(m->nbody == 4);
  const double h = 0.5;
  int b = cs_name2id(m, "body", "b"), b2 = cs_name2id(m, "body", "b2");
  int c = cs_name2id(m, "body", "c");
  CHECK(b > 0 && b2 > 0 && c > 0);
  if (b > 0 && b2 > 0 && c > 0) {
    const double pb[3] = {-0.7, 0.1, 0.2}, qb[4] = {h, h, h, h};
    check_vec(m->body_pos + 3 * b, pb, 3, 1e-14);
    check_quat(m->body_quat + 4 * b, qb, 1e-14);
    const double pb2[3] = {1, 0, 1}, qb2[4] = {sqrt(0.5), 0, 0, sqrt(0.5)};
    check_vec(m->body_pos + 3 * b2, pb2, 3, 1e-14);
    check_quat(m->body_quat + 4 * b2, qb2, 1e-14);
    /* the frame inside body b is relative to b alone */
    int g = cs_name2id(m, "geom", "bg");
    const double pg[3] = {0, 0, 5};
    if (g >= 0) check_vec(m->geom_pos + 3 * g, pg, 3, 0);
    /* the geom and site in c's frame; the geom's class from the frame's childclass */
    g = cs_name2id(m, "geom", "cg");
    CHECK(g >= 0);
    if (g >= 0) {
      const double p[3] = {0.5, 0.1, 0}, q[4] = {sqrt(0.5), 0, 0, sqrt(0.5)},
                   sz[3] = {0.1, 0.2, 0.3};
      check_vec(m->geom_pos + 3 * g, p, 3, 1e-15);
      check_quat(m->geom_quat + 4 * g, q, 1e-15);
      CHECK(m->geom_type[g] == CS_GEOM_BOX);
      check_vec(m->geom_size + 3 * g, sz, 3, 0);
      check_vec(m->body_ipos + 3 * c, p, 3, 1e-15);
      /* box 0.2 x 0.4 x 0.6 m turned 90 deg about z: Ixx and Iyy swap */
      double mass = 1000 * 0.2 * 0.4 * 0.6;
      CHECK_NEAR(m->body_mass[c], mass, 1e-12);
      CHECK_NEAR(m->body_inertia[6 * c + 0], mass * (0.1 * 0.1 + 0.3 * 0.3) / 3, 1e-12);
      CHECK_NEAR(m->body_inertia[6 * c + 1], mass * (0.2 * 0.2 + 0.3 * 0.3) / 3, 1e-12);
    }
    int s = cs_name2id(m, "site", "cs");
    CHECK(s >= 0);
    const double ps[3] = {0.3, 0, 0};
    if (s >= 0) check_vec(m->site_pos + 3 * s, ps, 3, 1e-15);
  }
  cs_model_free(m);
  /* a joint belongs to a body, not to a frame */
  load_bad("frame_joint.xml",
           "<mujoco>\n  <worldbody>\n    <body>\n      <frame pos=\"1 0 0\">\n"
           "        <joint type=\"hinge\"/>\n      </frame>\n"
           "      <geom size=\"0.1\"/>\n    </body>\n  </worldbody>\n</mujoco>\n",
           CS_ERR_PARSE, 5, "<joint>");
  load_bad("frame_class.xml",
           "<mujoco>\n  <worldbody>\n    <frame childclass=\"nope\">\n"
           "      <geom size=\"0.1\"/>\n    </frame>\n  </worldbody>\n</mujoco>\n",
           CS_ERR_PARSE, 3, "<frame childclass=\"nope\">");
}

/* ------------------------------------------------------------------ <keyframe> */
/* A free body (7 qpos, 6 qvel), two hinges, and three actuators of which contactsim
   simulates the motor and the position servo (the adhesion, a body transmission, is
   dropped): ctrl's three numbers map onto two. */
static const char* key_xml =
    "<mujoco>\n"
    "  <worldbody>\n"
    "    <body name=\"base\" pos=\"0 0 1\">\n"
    "      <freejoint/>\n"
    "      <geom size=\"0.1\"/>\n"
    "      <body name=\"arm\">\n"
    "        <joint name=\"j1\" type=\"hinge\"/>\n"
    "        <geom size=\"0.1\"/>\n"
    "        <body name=\"hand\">\n"
    "          <joint name=\"j2\" type=\"hinge\" axis=\"0 1 0\"/>\n"
    "          <geom size=\"0.1\"/>\n"
    "        </body>\n"
    "      </body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <actuator>\n"
    "    <motor joint=\"j1\"/>\n"
    "    <adhesion body=\"hand\" ctrlrange=\"0 1\"/>\n"
    "    <position joint=\"j2\" kp=\"10\"/>\n"
    "  </actuator>\n"
    "  <keyframe>\n"
    "    <key name=\"stand\" time=\"1.25\" qpos=\"0.1 0.2 0.3 0.5 0.5 0.5 0.5 0.7 -0.8\"\n"
    "         qvel=\"1 2 3 4 5 6 7 8\" ctrl=\"0.5 0 -0.25\" act=\"0\"/>\n"
    "    <key qvel=\"0 0 0 0 0 0 0.125 0\"/>\n"
    "  </keyframe>\n"
    "</mujoco>\n";

static void test_keyframe(void) {
  csModel* m = load_ok("key.xml", key_xml);
  if (!m) return;
  CHECK(m->nkey == 2 && m->nq == 9 && m->nv == 8 && m->nu == 2);
  CHECK(cs_name2id(m, "key", "stand") == 0);
  CHECK(cs_id2name(m, "key", 1) != NULL && cs_id2name(m, "key", 1)[0] == 0);
  CHECK(strstr(m->notes, "<key> attribute 'act' ignored") != NULL);
  csData* d = cs_data_new(m);
  if (d && m->nkey == 2) {
    const double qpos[9] = {0.1, 0.2, 0.3, 0.5, 0.5, 0.5, 0.5, 0.7, -0.8};
    const double qvel[8] = {1, 2, 3, 4, 5, 6, 7, 8}, ctrl[2] = {0.5, -0.25};
    CHECK(cs_step(m, d) == CS_OK);
    CHECK(cs_data_reset_key(m, d, 0) == CS_OK);
    check_vec(d->qpos, qpos, 9, 0);
    check_vec(d->qvel, qvel, 8, 0);
    check_vec(d->ctrl, ctrl, 2, 0);
    CHECK(d->time == 1.25);
    /* the second key: qpos0 (the free body at its placement), its qvel, zero ctrl */
    CHECK(cs_data_reset_key(m, d, 1) == CS_OK);
    check_vec(d->qpos, m->qpos0, 9, 0);
    CHECK(d->qpos[2] == 1 && d->qvel[6] == 0.125 && d->qvel[0] == 0);
    CHECK(d->ctrl[0] == 0 && d->ctrl[1] == 0 && d->time == 0);
    /* a bad index leaves d as it was */
    CHECK(cs_data_reset_key(m, d, 2) == CS_ERR_ARG);
    CHECK(strstr(cs_last_error(), "key 2") != NULL);
    CHECK(cs_data_reset_key(m, d, -1) == CS_ERR_ARG);
    CHECK(d->qvel[6] == 0.125);
  }
  cs_data_free(d);
  cs_model_free(m);
  /* wrong lengths: the key and its line named */
  load_bad("key_qpos.xml",
           "<mujoco>\n  <worldbody>\n    <body>\n      <joint type=\"hinge\"/>\n"
           "      <geom size=\"0.1\"/>\n    </body>\n  </worldbody>\n  <keyframe>\n"
           "    <key name=\"k0\"/>\n    <key name=\"short\" qpos=\"1 2\"/>\n"
           "  </keyframe>\n</mujoco>\n",
           CS_ERR_MODEL, 10, "key 'short': 2 numbers, the model has nq = 1");
  load_bad("key_ctrl.xml",
           "<mujoco>\n  <worldbody>\n    <body>\n      <joint name=\"j\" type=\"hinge\"/>\n"
           "      <geom size=\"0.1\"/>\n    </body>\n  </worldbody>\n"
           "  <actuator><motor joint=\"j\"/></actuator>\n  <keyframe>\n"
           "    <key name=\"c\" ctrl=\"1 2\"/>\n  </keyframe>\n</mujoco>\n",
           CS_ERR_MODEL, 10, "<key ctrl=\"1 2\">");
  /* the builder checks its keys against the compiled sizes */
  csBuilder* b = cs_builder_new();
  csBodySpec bs;
  cs_body_spec_default(&bs);
  bs.mass = 1, bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 0.1;
  cs_test_add_free_body(b, &bs);
  csKeySpec ks;
  cs_key_spec_default(&ks);
  const double v[5] = {1, 2, 3, 4, 5};
  ks.name = "five", ks.qvel = v, ks.nqvel = 5, ks.source = "api:7";
  CHECK(cs_builder_add_key(b, &ks) == 0);
  csModel* bad = NULL;
  CHECK(cs_compile(b, &bad) == CS_ERR_MODEL && bad == NULL);
  CHECK(strstr(cs_last_error(), "api:7: key 'five': qvel has 5 numbers, the model has nv = 6"));
  cs_builder_free(b);
}

/* ------------------------------------------------------------------ ellipsoids */
/* Support height of an ellipsoid of radii r turned by R (row-major) along world z:
   |A R^T z| = sqrt(sum (r_k R_2k)^2). */
static double support_z(const double r[3], const double R[9]) {
  double s = 0;
  for (int k = 0; k < 3; k++) s += (r[k] * R[6 + k]) * (r[k] * R[6 + k]);
  return sqrt(s);
}

static void ellipsoid_inertia(void) {
  csModel* m = load_ok("ell_inertia.xml",
                       "<mujoco>\n  <worldbody>\n    <body name=\"e\">\n      <freejoint/>\n"
                       "      <geom type=\"ellipsoid\" size=\"0.1 0.2 0.3\" density=\"500\"/>\n"
                       "    </body>\n  </worldbody>\n</mujoco>\n");
  if (!m) return;
  double a = 0.1, b = 0.2, c = 0.3, mass = 500 * 4.0 / 3.0 * PI * a * b * c;
  CHECK_NEAR(m->body_mass[1], mass, 1e-12);
  CHECK_NEAR(m->body_inertia[6], mass / 5 * (b * b + c * c), 1e-14);
  CHECK_NEAR(m->body_inertia[7], mass / 5 * (a * a + c * c), 1e-14);
  CHECK_NEAR(m->body_inertia[8], mass / 5 * (a * a + b * b), 1e-14);
  CHECK(m->ngeom == 1 && m->geom_type[0] == CS_GEOM_ELLIPSOID);
  CHECK_NEAR(m->geom_rbound[0], 0.3, 0);
  cs_model_free(m);
}

/* The type="..." of a geom element, for messages. */
static const char* floor_type(const char* geom) {
  static char t[32];
  const char* p = strstr(geom, "type=\"");
  snprintf(t, sizeof t, "%s", p ? p + 6 : "?");
  char* q = strchr(t, '"');
  if (q) *q = 0;
  return t;
}

/* An ellipsoid (free) over a floor that is a plane or a box top at z = 0, turned by the
   quaternion q and placed gap above its support height: the contact's distance is gap. */
static void ellipsoid_gap(const char* floor, const double q[4], double gap, double tol) {
  char xml[2048];
  const double r[3] = {0.1, 0.2, 0.3};
  snprintf(xml, sizeof xml,
           "<mujoco>\n  <worldbody>\n    %s\n    <body name=\"e\">\n      <freejoint/>\n"
           "      <geom type=\"ellipsoid\" size=\"0.1 0.2 0.3\"/>\n    </body>\n"
           "  </worldbody>\n</mujoco>\n",
           floor);
  csModel* m = load_ok("ell_gap.xml", xml);
  if (!m) return;
  csData* d = cs_data_new(m);
  double qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  double w = q[0] / qn, x = q[1] / qn, y = q[2] / qn, z = q[3] / qn;
  double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                 2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                 2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  double h = support_z(r, R);
  double qpos[7] = {0.01, -0.02, h + gap, w, x, y, z};
  CHECK(cs_data_set_state(m, d, qpos, 7, NULL, 6) == CS_OK);
  cs_kinematics(m, d);
  cs_geom_poses(m, d);
  int n = cs_collide(m, d);
  CHECK_MSG(n == 1, "%s: %d contacts", floor, n);
  if (n >= 1) {
    CHECK_NEAR(d->contact[0].dist, gap, tol);
    printf("ellipsoid over a %s, q = (%g %g %g %g): dist %.17g, want %g (error %.2g)\n",
           floor_type(floor), q[0], q[1], q[2], q[3], d->contact[0].dist, gap,
           d->contact[0].dist - gap);
    CHECK_NEAR(fabs(d->contact[0].frame[2]), 1, 1e-6);
    /* the point is under the ellipsoid's lowest point, midway between the surfaces */
    double lo[3] = {0, 0, -1}, loc[3], p[3];
    double Rt_lo[3] = {R[6] * lo[2], R[7] * lo[2], R[8] * lo[2]}; /* R^T lo */
    for (int k = 0; k < 3; k++) loc[k] = r[k] * r[k] * Rt_lo[k] / h;
    for (int k = 0; k < 3; k++)
      p[k] = qpos[k] + R[3 * k] * loc[0] + R[3 * k + 1] * loc[1] + R[3 * k + 2] * loc[2];
    CHECK_NEAR(d->contact[0].pos[0], p[0], 1e-4);
    CHECK_NEAR(d->contact[0].pos[1], p[1], 1e-4);
    CHECK_NEAR(d->contact[0].pos[2], 0.5 * gap, 1e-4);
  }
  cs_data_free(d);
  cs_model_free(m);
}

/* Resting on the floor for 0.5 s from its support height: the centre stays at the vertical
   radius 0.3 (contact penetration of the order of the solver's tolerance). */
static void ellipsoid_rest(const char* floor) {
  char xml[2048];
  snprintf(xml, sizeof xml,
           "<mujoco>\n  <worldbody>\n    %s\n    <body name=\"e\" pos=\"0 0 0.3\">\n"
           "      <freejoint/>\n      <geom type=\"ellipsoid\" size=\"0.1 0.2 0.3\"/>\n"
           "    </body>\n  </worldbody>\n</mujoco>\n",
           floor);
  csModel* m = load_ok("ell_rest.xml", xml);
  if (!m) return;
  csData* d = cs_data_new(m);
  for (int i = 0; i < 250; i++) CHECK(cs_step(m, d) == CS_OK);
  CHECK_NEAR(d->qpos[2], 0.3, 2e-4);
  printf("ellipsoid resting on a %s after 0.5 s: z = %.9f (vertical radius 0.3), |v_z| = %.2g\n",
         floor_type(floor), d->qpos[2], fabs(d->qvel[2]));
  CHECK_NEAR(d->qpos[0], 0, 1e-6);
  CHECK_NEAR(d->qpos[1], 0, 1e-6);
  for (int k = 0; k < 6; k++) CHECK_NEAR(d->qvel[k], 0, 1e-3);
  CHECK(d->ncon == 1);
  cs_data_free(d);
  cs_model_free(m);
}

static void test_ellipsoid(void) {
  ellipsoid_inertia();
  const char* plane = "<geom type=\"plane\" size=\"5 5 0.1\"/>";
  const char* box = "<geom type=\"box\" size=\"2 2 0.1\" pos=\"0 0 -0.1\"/>";
  const double q0[4] = {1, 0, 0, 0}, q1[4] = {0.9, 0.3, -0.2, 0.1};
  const double q2[4] = {cos(PI / 12), sin(PI / 12), 0, 0}; /* 30 deg about x */
  ellipsoid_gap(plane, q0, 1e-4, 1e-15);
  ellipsoid_gap(plane, q1, -2e-3, 1e-15);
  ellipsoid_gap(plane, q2, 5e-4, 1e-15);
  /* the box goes through the convex support-function path */
  ellipsoid_gap(box, q0, -1e-3, 1e-9);
  ellipsoid_gap(box, q1, -2e-3, 1e-9);
  ellipsoid_gap(box, q2, 5e-4, 1e-9);
  /* the other solids under an upright ellipsoid, their top at z = 0 below its lowest point */
  ellipsoid_gap("<geom type=\"sphere\" size=\"1\" pos=\"0.01 -0.02 -1\"/>", q0, -1e-3, 1e-9);
  ellipsoid_gap("<geom type=\"cylinder\" size=\"1 0.1\" pos=\"0 0 -0.1\"/>", q0, 2e-4, 1e-9);
  ellipsoid_gap("<geom type=\"ellipsoid\" size=\"0.5 0.4 0.2\" pos=\"0.01 -0.02 -0.2\"/>", q0,
                -5e-4, 1e-9);
  ellipsoid_rest(plane);
  ellipsoid_rest(box);
  /* bad input: an ellipsoid needs three radii; it cannot collide with a heightfield */
  load_bad("ell_size.xml",
           "<mujoco>\n  <worldbody>\n    <body>\n      <freejoint/>\n"
           "      <geom name=\"e2\" type=\"ellipsoid\" size=\"0.1 0.2\"/>\n    </body>\n"
           "  </worldbody>\n</mujoco>\n",
           CS_ERR_MODEL, 5, "geom 'e2': size[2] = 0 must be > 0");
  load_bad("ell_hfield.xml",
           "<mujoco>\n  <asset><hfield name=\"h\" nrow=\"2\" ncol=\"2\" size=\"1 1 0.1 0.1\" "
           "elevation=\"0 0 0 0\"/></asset>\n  <worldbody>\n    <geom type=\"hfield\" "
           "hfield=\"h\"/>\n    <body>\n      <freejoint/>\n"
           "      <geom name=\"egg\" type=\"ellipsoid\" size=\"0.1 0.2 0.3\"/>\n    </body>\n"
           "  </worldbody>\n</mujoco>\n",
           CS_ERR_UNSUPPORTED, 7, "geom 'egg': an ellipsoid cannot collide with heightfield");
}

/* ------------------------------------------------------------------ timestep, autolimits */
static void test_timestep(void) {
  csModel* m = load_ok("ts_default.xml",
                       "<mujoco>\n  <worldbody>\n    <geom type=\"plane\" size=\"1 1 1\"/>\n"
                       "  </worldbody>\n</mujoco>\n");
  if (m) CHECK(m->opt.timestep == 0.002);
  cs_model_free(m);
  m = load_ok("ts_given.xml",
              "<mujoco>\n  <option timestep=\"0.001\"/>\n  <worldbody>\n"
              "    <geom type=\"plane\" size=\"1 1 1\"/>\n  </worldbody>\n</mujoco>\n");
  if (m) CHECK(m->opt.timestep == 0.001);
  cs_model_free(m);
  csOption o;
  cs_option_default(&o);
  CHECK(o.timestep == 1e-3); /* the builder's (URDF, built-in scenes) */
}

static const char* limits_xml =
    "<mujoco>\n"
    "  %s\n"
    "  <worldbody>\n"
    "    <body>\n"
    "      <joint name=\"auto\" type=\"hinge\" range=\"-10 20\"/>\n"
    "      <joint name=\"off\" type=\"hinge\" range=\"-10 20\" limited=\"false\"/>\n"
    "      <joint name=\"free\" type=\"hinge\"/>\n"
    "      <geom size=\"0.1\"/>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <actuator>\n"
    "    <motor joint=\"auto\" ctrlrange=\"-1 1\" forcerange=\"-5 5\"/>\n"
    "    <motor joint=\"off\" ctrlrange=\"-1 1\" ctrllimited=\"false\" forcerange=\"-5 5\" "
    "forcelimited=\"false\"/>\n"
    "    <motor joint=\"free\"/>\n"
    "  </actuator>\n"
    "</mujoco>\n";

static void test_autolimits(void) {
  char xml[2048];
  for (int explicit_true = 0; explicit_true < 2; explicit_true++) {
    snprintf(xml, sizeof xml, limits_xml, explicit_true ? "<compiler autolimits=\"true\"/>" : "");
    csModel* m = load_ok("limits.xml", xml);
    if (!m) continue;
    int ja = cs_name2id(m, "joint", "auto"), jo = cs_name2id(m, "joint", "off");
    int jf = cs_name2id(m, "joint", "free");
    CHECK(ja >= 0 && jo >= 0 && jf >= 0 && m->nu == 3);
    if (ja >= 0 && jo >= 0 && jf >= 0 && m->nu == 3) {
      CHECK(m->jnt_limited[ja] == 1 && m->jnt_limited[jo] == 0 && m->jnt_limited[jf] == 0);
      CHECK_NEAR(m->jnt_range[2 * ja], -10 * PI / 180, 1e-15);
      CHECK(m->actuator_ctrllimited[0] == 1 && m->actuator_forcelimited[0] == 1);
      CHECK(m->actuator_ctrllimited[1] == 0 && m->actuator_forcelimited[1] == 0);
      CHECK(m->actuator_ctrllimited[2] == 0 && m->actuator_forcelimited[2] == 0);
      CHECK(m->actuator_forcerange[1] == 5);
    }
    cs_model_free(m);
  }
  /* MuJoCo 2.2.2's rule: a range needs limited */
  snprintf(xml, sizeof xml, limits_xml, "<compiler autolimits=\"false\"/>");
  load_bad("limits_222.xml", xml, CS_ERR_PARSE, 5, "joint has 'range' but not 'limited'");
  load_bad("limits_222_act.xml",
           "<mujoco>\n  <compiler autolimits=\"false\"/>\n  <worldbody>\n    <body>\n"
           "      <joint name=\"j\" type=\"hinge\"/>\n      <geom size=\"0.1\"/>\n    </body>\n"
           "  </worldbody>\n  <actuator>\n    <motor joint=\"j\" forcerange=\"-1 1\"/>\n"
           "  </actuator>\n</mujoco>\n",
           CS_ERR_PARSE, 10, "'forcerange' but not 'forcelimited'");
  load_bad("limits_word.xml", "<mujoco>\n  <compiler autolimits=\"yes\"/>\n</mujoco>\n",
           CS_ERR_PARSE, 2, "expected \"true\" or \"false\"");
}

int main(void) {
  if (!mkdtemp(tmpdir)) {
    fprintf(stderr, "test_io_mjcf3: mkdtemp failed\n");
    return 1;
  }
  test_frame();
  test_keyframe();
  test_ellipsoid();
  test_timestep();
  test_autolimits();
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "test_io_mjcf3: could not remove %s\n", tmpdir);
  return cs_test_finish("test_io_mjcf3");
}
