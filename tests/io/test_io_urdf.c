/* URDF loader: hand-written files under tests/data/urdf (frames, inertia, geoms, joints,
   fixed-joint merging, mesh URIs, errors), joint friction on files written to a temporary
   directory, and the robot models under ../shared/models. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/cs_io.h"
#include "cs_test.h"

static const char* data(const char* name) {
  static char buf[4][1024];
  static int slot = 0;
  char* b = buf[slot++ & 3];
  snprintf(b, 1024, "%s", cs_test_source(name));
  return b;
}

static csStatus load(const char* path, int floating, csModel** m) {
  csLoadOptions o;
  cs_load_options_default(&o);
  o.floating_base = floating;
  return cs_load_model(path, &o, m);
}

/* ------------------------------------------------------------------ rotations (independent
   of the library: explicit matrices) */
static void mat_mul(double* r, const double* a, const double* b) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
  memcpy(r, t, sizeof t);
}

/* R = Rz(y) Ry(p) Rx(r) */
static void rpy_matrix(double* R, double r, double p, double y) {
  double Rx[9] = {1, 0, 0, 0, cos(r), -sin(r), 0, sin(r), cos(r)};
  double Ry[9] = {cos(p), 0, sin(p), 0, 1, 0, -sin(p), 0, cos(p)};
  double Rz[9] = {cos(y), -sin(y), 0, sin(y), cos(y), 0, 0, 0, 1};
  mat_mul(R, Rz, Ry);
  mat_mul(R, R, Rx);
}

static void quat_matrix(double* R, const double* q) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = w * w + x * x - y * y - z * z, R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = w * w - x * x + y * y - z * z, R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = w * w - x * x - y * y + z * z;
}

static double max_abs_diff(const double* a, const double* b, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    if (fabs(a[i] - b[i]) > e) e = fabs(a[i] - b[i]);
  return e;
}

static double total_mass(const csModel* m) {
  double s = 0;
  for (int i = 0; i < m->nbody; i++) s += m->body_mass[i];
  return s;
}

/* ------------------------------------------------------------------ basic.urdf */
static void test_basic(void) {
  const char* path = data("tests/data/urdf/basic.urdf");
  csModel* m = NULL;
  csStatus st = load(path, 0, &m);
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st != CS_OK) return;
  /* base welded to the world, a static body of its own: bodies world, base, arm, wheel,
     slide, all in the tree of the base */
  CHECK(m->nbody == 5);
  CHECK(m->njnt == 3 && m->nv == 3 && m->nq == 3);
  int base = cs_name2id(m, "body", "base"), arm = cs_name2id(m, "body", "arm");
  CHECK(base == 1 && arm == 2);
  if (base != 1 || arm < 0) {
    cs_model_free(m);
    return;
  }
  CHECK(m->body_parent[base] == 0 && m->body_jntnum[base] == 0 && m->body_dofnum[base] == 0);
  CHECK(m->body_lastdof[base] == -1);
  CHECK_NEAR(m->body_mass[base], 5, 0);
  CHECK(m->body_parent[arm] == base);
  for (int k = 1; k < m->nbody; k++) CHECK(m->body_rootid[k] == base);
  /* joint origin: xyz 1 2 3, rpy 0.3 -0.5 1.2 */
  double pos[3] = {1, 2, 3};
  CHECK(max_abs_diff(m->body_pos + 3 * arm, pos, 3) < 1e-12);
  double Rexp[9], Rgot[9];
  rpy_matrix(Rexp, 0.3, -0.5, 1.2);
  quat_matrix(Rgot, m->body_quat + 4 * arm);
  CHECK_MSG(max_abs_diff(Rexp, Rgot, 9) < 1e-12, "rpy composition: error %g",
            max_abs_diff(Rexp, Rgot, 9));
  /* inertial origin: com 0.1 0.2 0.3, inertia rotated by rpy 0.4 0.1 -0.7 */
  double ipos[3] = {0.1, 0.2, 0.3};
  CHECK(max_abs_diff(m->body_ipos + 3 * arm, ipos, 3) < 1e-12);
  CHECK_NEAR(m->body_mass[arm], 2, 0);
  double Ri[9], I[9] = {0.2, 0.01, 0.02, 0.01, 0.25, 0.03, 0.02, 0.03, 0.3}, T[9], Iw[9];
  rpy_matrix(Ri, 0.4, 0.1, -0.7);
  mat_mul(T, Ri, I);
  double RiT[9] = {Ri[0], Ri[3], Ri[6], Ri[1], Ri[4], Ri[7], Ri[2], Ri[5], Ri[8]};
  mat_mul(Iw, T, RiT);
  double Iexp[6] = {Iw[0], Iw[4], Iw[8], Iw[1], Iw[2], Iw[5]};
  CHECK_MSG(max_abs_diff(m->body_inertia + 6 * arm, Iexp, 6) < 1e-12, "inertia rotation: %g",
            max_abs_diff(m->body_inertia + 6 * arm, Iexp, 6));
  /* joints */
  int sh = cs_name2id(m, "joint", "shoulder"), wh = cs_name2id(m, "joint", "wheel_joint"),
      sl = cs_name2id(m, "joint", "slider");
  CHECK(sh >= 0 && wh >= 0 && sl >= 0);
  if (sh >= 0 && wh >= 0 && sl >= 0) {
    CHECK(m->jnt_type[sh] == CS_JNT_REVOLUTE && m->jnt_limited[sh] == 1);
    CHECK_NEAR(m->jnt_range[2 * sh], -1, 0);
    CHECK_NEAR(m->jnt_range[2 * sh + 1], 1.5, 0);
    double z[3] = {0, 0, 1}, y[3] = {0, 1, 0}, x[3] = {1, 0, 0}, zero[3] = {0, 0, 0};
    CHECK(max_abs_diff(m->jnt_axis + 3 * sh, z, 3) < 1e-15); /* "0 0 2" normalised */
    CHECK(max_abs_diff(m->jnt_pos + 3 * sh, zero, 3) == 0);  /* anchor at the body origin */
    CHECK_NEAR(m->dof_damping[m->jnt_dofadr[sh]], 0.25, 0);
    CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[sh]], 0.1, 0); /* <dynamics friction> */
    CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[wh]], 0, 0);
    CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[sl]], 0, 0);
    CHECK_NEAR(m->jnt_margin[sh], 0, 0);
    CHECK(m->jnt_type[wh] == CS_JNT_REVOLUTE && m->jnt_limited[wh] == 0); /* continuous */
    CHECK(max_abs_diff(m->jnt_axis + 3 * wh, y, 3) < 1e-15);
    CHECK(m->jnt_type[sl] == CS_JNT_PRISMATIC && m->jnt_limited[sl] == 1);
    CHECK(max_abs_diff(m->jnt_axis + 3 * sl, x, 3) < 1e-15); /* URDF default axis */
    CHECK_NEAR(m->jnt_range[2 * sl], -0.1, 0);
    CHECK_NEAR(m->jnt_range[2 * sl + 1], 0.2, 0);
  }
  /* geoms */
  int gb = cs_name2id(m, "geom", "base_collision0"), gc = cs_name2id(m, "geom", "arm_cyl"),
      gs = cs_name2id(m, "geom", "arm_collision1");
  CHECK(gb >= 0 && gc >= 0 && gs >= 0 && m->ngeom == 3);
  if (gb >= 0 && gc >= 0 && gs >= 0) {
    double box[3] = {0.5, 1, 1.5}, bpos[3] = {0, 0, 0.05};
    CHECK(m->geom_type[gb] == CS_GEOM_BOX && m->geom_body[gb] == base);
    CHECK(max_abs_diff(m->geom_size + 3 * gb, box, 3) == 0);
    CHECK(max_abs_diff(m->geom_pos + 3 * gb, bpos, 3) < 1e-15);
    CHECK(m->geom_type[gc] == CS_GEOM_CYLINDER && m->geom_body[gc] == arm);
    CHECK_NEAR(m->geom_size[3 * gc], 0.1, 0);
    CHECK_NEAR(m->geom_size[3 * gc + 1], 0.2, 0);
    double Rc[9], Rx90[9];
    quat_matrix(Rc, m->geom_quat + 4 * gc);
    rpy_matrix(Rx90, 1.5707963267948966, 0, 0);
    CHECK(max_abs_diff(Rc, Rx90, 9) < 1e-12);
    CHECK(m->geom_type[gs] == CS_GEOM_SPHERE);
    CHECK_NEAR(m->geom_size[3 * gs], 0.3, 0);
  }
  /* notes: velocity limits are reported, not dropped; friction and effort are read (effort:
     the range the joint's summed actuator force is clamped to) */
  CHECK_MSG(strstr(m->notes, "friction") == NULL, "notes: %s", m->notes);
  CHECK_MSG(strstr(m->notes, "effort") == NULL, "notes: %s", m->notes);
  CHECK(m->njntfrc == 2);
  for (int k = 0; k < m->njntfrc && k < 2; k++) {
    const char* jn = cs_id2name(m, "joint", m->jntfrc_jnt[k]);
    double e = jn && !strcmp(jn, "shoulder") ? 10 : 5;
    CHECK(jn && (!strcmp(jn, "shoulder") || !strcmp(jn, "slider")));
    CHECK(m->jntfrc_range[2 * k] == -e && m->jntfrc_range[2 * k + 1] == e);
  }
  CHECK_MSG(strstr(m->notes, "velocity") != NULL, "notes: %s", m->notes);
  CHECK_MSG(strstr(m->notes, "2 times") != NULL, "notes aggregated: %s", m->notes);
  CHECK_MSG(strstr(m->notes, "visual mesh format not read (.ply)") != NULL, "notes: %s",
            m->notes); /* the visual DAE: its visual geom dropped */
  /* the welded root is a body, not a merged frame */
  CHECK(cs_name2id(m, "site", "base") < 0);
  cs_model_free(m);

  /* floating base */
  st = load(path, 1, &m);
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st != CS_OK) return;
  CHECK(m->nbody == 5 && m->njnt == 4 && m->nv == 9 && m->nq == 10);
  CHECK(m->jnt_type[0] == CS_JNT_FREE && m->jnt_body[0] == 1);
  CHECK(cs_name2id(m, "joint", "root_joint") == 0);
  CHECK_NEAR(total_mass(m), 5 + 2 + 1 + 0.5, 1e-12);
  double q0[7] = {0, 0, 0, 1, 0, 0, 0};
  CHECK(max_abs_diff(m->qpos0, q0, 7) == 0);
  gb = cs_name2id(m, "geom", "base_collision0");
  CHECK(gb >= 0 && m->geom_body[gb] == 1);
  cs_model_free(m);
}

/* ------------------------------------------------------------------ fixed.urdf */
static void test_fixed_merge(void) {
  const char* path = data("tests/data/urdf/fixed.urdf");
  csModel* m = NULL;
  csStatus st = load(path, 0, &m);
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st != CS_OK) return;
  /* base welded to the world (a static body), tool merged into upper */
  CHECK(m->nbody == 3 && m->njnt == 1 && m->nv == 1);
  int up = cs_name2id(m, "body", "upper");
  CHECK(up == 2);
  CHECK(cs_name2id(m, "body", "tool") < 0);
  if (up != 2) {
    cs_model_free(m);
    return;
  }
  /* upper: 2 kg at its origin, I = diag(.1 .2 .3); tool: 1 kg at (0 0 1) in upper, yawed by
     90 degrees so its diag(.01 .02 .03) becomes diag(.02 .01 .03). Combined com z = 1/3;
     parallel axis about x and y: 2 (1/3)^2 + 1 (2/3)^2 = 2/3. */
  CHECK_NEAR(m->body_mass[up], 3, 1e-15);
  double com[3] = {0, 0, 1.0 / 3};
  CHECK(max_abs_diff(m->body_ipos + 3 * up, com, 3) < 1e-15);
  double Iexp[6] = {0.1 + 0.02 + 2.0 / 3, 0.2 + 0.01 + 2.0 / 3, 0.3 + 0.03, 0, 0, 0};
  CHECK_MSG(max_abs_diff(m->body_inertia + 6 * up, Iexp, 6) < 1e-12,
            "merged inertia %g %g %g %g %g %g", m->body_inertia[6], m->body_inertia[7],
            m->body_inertia[8], m->body_inertia[9], m->body_inertia[10], m->body_inertia[11]);
  /* the merged link leaves a site, at its frame */
  int s = cs_name2id(m, "site", "tool");
  CHECK(s >= 0);
  if (s >= 0) {
    double p[3] = {0, 0, 1}, R[9], Rz[9];
    CHECK(m->site_body[s] == up);
    CHECK(max_abs_diff(m->site_pos + 3 * s, p, 3) < 1e-15);
    quat_matrix(R, m->site_quat + 4 * s);
    rpy_matrix(Rz, 0, 0, 1.5707963267948966);
    CHECK(max_abs_diff(R, Rz, 9) < 1e-12);
  }
  /* the tool's box moved onto upper: (0.1 0 0) in tool = (0 0.1 1) in upper */
  CHECK(m->ngeom == 1);
  if (m->ngeom == 1) {
    double gp[3] = {0, 0.1, 1};
    CHECK(m->geom_body[0] == up);
    CHECK(max_abs_diff(m->geom_pos, gp, 3) < 1e-12);
  }
  double hp[3] = {0, 0, 0.5};
  CHECK(max_abs_diff(m->body_pos + 3 * up, hp, 3) == 0);
  cs_model_free(m);
}

/* ------------------------------------------------------------------ world link, floating */
static void test_world_floating(void) {
  const char* path = data("tests/data/urdf/world_floating.urdf");
  for (int floating = 0; floating < 2; floating++) {
    csModel* m = NULL;
    csStatus st = load(path, floating, &m);
    CHECK_MSG(st == CS_OK, "%s", cs_last_error());
    if (st != CS_OK) continue;
    /* the "world" link is body 0; the floating joint is a free joint; option ignored */
    CHECK(m->nbody == 3 && m->njnt == 2 && m->nv == 7 && m->nq == 8);
    CHECK(cs_name2id(m, "body", "world") == 0);
    int j = cs_name2id(m, "joint", "base_free");
    CHECK(j == 0 && m->jnt_type[0] == CS_JNT_FREE && m->jnt_body[0] == 1);
    /* the free joint starts at the joint origin */
    double R[9], Rz[9];
    CHECK_NEAR(m->qpos0[2], 1, 0);
    quat_matrix(R, m->qpos0 + 3);
    rpy_matrix(Rz, 0, 0, 0.5);
    CHECK(max_abs_diff(R, Rz, 9) < 1e-12);
    CHECK_NEAR(total_mass(m), 5, 1e-15);
    if (floating)
      CHECK_MSG(strstr(m->notes, "floating_base ignored") != NULL, "notes: %s", m->notes);
    cs_model_free(m);
  }
}

/* ------------------------------------------------------------------ meshes */
static void test_meshes(void) {
  const char* path = data("tests/data/urdf/mesh.urdf");
  csModel* m = NULL;
  csStatus st = load(path, 1, &m);
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st == CS_OK) {
    /* four STL geoms (package://, package:///, relative x2 with two scales); the .ply is
       skipped with a note */
    CHECK(m->ngeom == 4);
    CHECK(m->nmesh == 2); /* one per distinct file + scale */
    CHECK(m->nmeshvert == 16 && m->nmeshface == 24);
    int nscaled = 0;
    for (int g = 0; g < m->ngeom; g++) {
      CHECK(m->geom_type[g] == CS_GEOM_MESH && m->geom_mesh[g] >= 0);
      if (m->geom_size[3 * g] == 2)
        nscaled++;
      else
        CHECK(m->geom_size[3 * g] == 1 && m->geom_size[3 * g + 2] == 1);
    }
    CHECK(nscaled == 1);
    CHECK_MSG(strstr(m->notes, ".ply") != NULL, "notes: %s", m->notes);
    cs_model_free(m);
  }
  /* skip_collision_meshes */
  csLoadOptions o;
  cs_load_options_default(&o);
  o.floating_base = 1;
  o.skip_collision_meshes = 1;
  st = cs_load_model(path, &o, &m);
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st == CS_OK) {
    CHECK(m->ngeom == 0 && m->nmesh == 0);
    CHECK_MSG(strstr(m->notes, "skip_collision_meshes") != NULL, "notes: %s", m->notes);
    cs_model_free(m);
  }
  /* package_path: the mesh is found only through it; without it the path dangles */
  const char* pp = data("tests/data/urdf/pkgpath.urdf");
  char dirs[2048];
  snprintf(dirs, sizeof dirs, "/nonexistent/dir:%s", data("tests/data/stl"));
  o.skip_collision_meshes = 0;
  o.package_path = dirs;
  st = cs_load_model(pp, &o, &m);
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st == CS_OK) {
    CHECK(m->nmesh == 1 && m->ngeom == 1);
    cs_model_free(m);
  }
  /* file:// with an absolute path (written here: the path is not known in advance) */
  FILE* f = fopen("test_io_urdf_fileuri.urdf", "w");
  CHECK(f != NULL);
  if (f) {
    fprintf(f,
            "<robot name=\"fileuri\">\n <link name=\"base\">\n  <inertial><mass value=\"1\"/>"
            "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\"/></inertial>\n  <collision><geometry>"
            "<mesh filename=\"file://%s\"/></geometry></collision>\n </link>\n</robot>\n",
            data("tests/data/stl/cube_ascii.stl"));
    fclose(f);
    st = load("test_io_urdf_fileuri.urdf", 1, &m);
    CHECK_MSG(st == CS_OK, "%s", cs_last_error());
    if (st == CS_OK) {
      CHECK(m->nmesh == 1 && m->ngeom == 1);
      cs_model_free(m);
    }
  }
}

/* ------------------------------------------------------------------ joint friction */
/* <dynamics friction> is the joint's friction loss: read on revolute, continuous and
   prismatic joints, noted and dropped on a fixed joint; a negative value is an error naming
   the file, line and joint. */
static void test_friction(void) {
  char dir[] = "/tmp/cs_test_urdf_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK_MSG(0, "mkdtemp failed");
    return;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/friction.urdf", dir);
  static const char* const fmt =
      "<robot name=\"friction\">\n"
      "  <link name=\"base\"><inertial><mass value=\"1\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
      "  <link name=\"a\"><inertial><mass value=\"1\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
      "  <link name=\"b\"><inertial><mass value=\"1\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
      "  <link name=\"c\"><inertial><mass value=\"1\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
      "  <joint name=\"hinge\" type=\"continuous\"><parent link=\"base\"/><child link=\"a\"/>\n"
      "    <dynamics friction=\"%s\"/></joint>\n"
      "  <joint name=\"slide\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/>\n"
      "    <limit lower=\"-1\" upper=\"1\"/><dynamics damping=\"0.5\" friction=\"2.5\"/></joint>\n"
      "  <joint name=\"weld\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/>\n"
      "    <dynamics friction=\"3\"/></joint>\n"
      "</robot>\n";
  for (int k = 0; k < 2; k++) {
    FILE* f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) break;
    fprintf(f, fmt, k == 0 ? "0.75" : "-0.75");
    fclose(f);
    csModel* m = NULL;
    csStatus st = load(path, 0, &m);
    if (k == 0) {
      CHECK_MSG(st == CS_OK, "%s", cs_last_error());
      if (st != CS_OK) continue;
      int h = cs_name2id(m, "joint", "hinge"), s = cs_name2id(m, "joint", "slide");
      CHECK(h >= 0 && s >= 0 && m->njnt == 2);
      if (h >= 0 && s >= 0) {
        CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[h]], 0.75, 0);
        CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[s]], 2.5, 0);
        CHECK_NEAR(m->dof_damping[m->jnt_dofadr[s]], 0.5, 0);
      }
      CHECK_MSG(
          strstr(m->notes, "<dynamics friction> on a fixed or floating joint ignored") != NULL,
          "notes: %s", m->notes);
      cs_model_free(m);
    } else {
      CHECK_MSG(st == CS_ERR_MODEL, "negative friction: %s (%s)", cs_status_name(st),
                cs_last_error());
      CHECK(m == NULL);
      CHECK_MSG(strstr(cs_last_error(), "friction.urdf:6") != NULL &&
                    strstr(cs_last_error(), "'hinge'") != NULL &&
                    strstr(cs_last_error(), "frictionloss = -0.75") != NULL,
                "message: %s", cs_last_error());
    }
  }
  remove(path);
  rmdir(dir);
}

/* ------------------------------------------------------------------ errors */
static void expect_fail(const char* rel, int floating, csStatus want, const char* where,
                        const char* also) {
  csModel* m = (csModel*)1;
  const char* path = strchr(rel, '/') ? data(rel) : rel;
  csStatus st = load(path, floating, &m);
  CHECK_MSG(st == want, "%s: status '%s', want '%s' (%s)", rel, cs_status_name(st),
            cs_status_name(want), cs_last_error());
  CHECK(m == NULL);
  if (st == CS_OK) cs_model_free(m);
  CHECK_MSG(strstr(cs_last_error(), where) != NULL, "%s: message lacks '%s': %s", rel, where,
            cs_last_error());
  if (also)
    CHECK_MSG(strstr(cs_last_error(), also) != NULL, "%s: message lacks '%s': %s", rel, also,
              cs_last_error());
}

static void test_errors(void) {
  expect_fail("tests/data/urdf/does_not_exist.urdf", 0, CS_ERR_IO, "does_not_exist.urdf", NULL);
  expect_fail("tests/data/urdf/bad_malformed.urdf", 0, CS_ERR_PARSE, "bad_malformed.urdf:", NULL);
  expect_fail("tests/data/urdf/bad_jointtype.urdf", 0, CS_ERR_PARSE, "bad_jointtype.urdf:5",
              "'twist'");
  expect_fail("tests/data/urdf/bad_negmass.urdf", 1, CS_ERR_MODEL, "bad_negmass.urdf:5",
              "negative mass");
  expect_fail("tests/data/urdf/bad_nan.urdf", 1, CS_ERR_PARSE, "bad_nan.urdf:5", "nan");
  expect_fail("tests/data/urdf/bad_number.urdf", 0, CS_ERR_PARSE, "bad_number.urdf:8", "0.1x");
  expect_fail("tests/data/urdf/bad_cycle.urdf", 0, CS_ERR_MODEL, "bad_cycle.urdf:", "cycle");
  expect_fail("tests/data/urdf/bad_cycle_noroot.urdf", 0, CS_ERR_MODEL, "bad_cycle_noroot.urdf",
              "cycle");
  expect_fail("tests/data/urdf/bad_tworoots.urdf", 0, CS_ERR_MODEL, "bad_tworoots.urdf",
              "'right_root'");
  CHECK(strstr(cs_last_error(), "'left_root'") != NULL);
  expect_fail("tests/data/urdf/bad_twoparents.urdf", 0, CS_ERR_MODEL, "bad_twoparents.urdf:10",
              "'c'");
  expect_fail("tests/data/urdf/bad_unknownlink.urdf", 0, CS_ERR_MODEL, "bad_unknownlink.urdf:6",
              "'ghost'");
  expect_fail("tests/data/urdf/bad_duplicate.urdf", 0, CS_ERR_MODEL, "bad_duplicate.urdf:4", "'a'");
  expect_fail("tests/data/urdf/bad_planar.urdf", 0, CS_ERR_UNSUPPORTED, "bad_planar.urdf:5",
              "planar");
  expect_fail("tests/data/urdf/bad_notrobot.urdf", 0, CS_ERR_PARSE, "bad_notrobot.urdf:2",
              "<robot>");
  /* compile errors name the link's line (body source) */
  expect_fail("tests/data/urdf/bad_zeromass.urdf", 0, CS_ERR_MODEL, "bad_zeromass.urdf:9",
              "'massless'");
  /* a dangling mesh path: file, line, link and URI */
  expect_fail("tests/data/urdf/pkgpath.urdf", 1, CS_ERR_IO, "pkgpath.urdf:10",
              "package://nowhere_pkg/cube_ascii.stl");
  CHECK(strstr(cs_last_error(), "'base'") != NULL);
  /* a broken STL: the URDF place and the STL's own line */
  expect_fail("tests/data/urdf/bad_badstl.urdf", 1, CS_ERR_PARSE, "bad_badstl.urdf:9",
              "bad_ascii.stl:7");
  /* extension dispatch */
  expect_fail("model.obj", 0, CS_ERR_ARG, "model.obj", NULL);
  expect_fail("model", 0, CS_ERR_ARG, "model", NULL);
  csModel* m = NULL;
  CHECK(cs_load_model(NULL, NULL, &m) == CS_ERR_ARG);
  CHECK(cs_load_urdf(NULL, "x.urdf", NULL) == CS_ERR_ARG);
}

/* ------------------------------------------------------------------ robot models */
/* Sum of <link><inertial><mass value> and count of non-fixed <joint>s, read with libxml2
   directly (independent of the loader). */
static int urdf_facts(const char* path, double* mass, int* nmov, int* nlink, int* njoint) {
  int flags = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
  xmlDocPtr doc = xmlReadFile(path, NULL, flags);
  if (!doc) return 0;
  *mass = 0;
  *nmov = *nlink = *njoint = 0;
  for (xmlNode* e = xmlDocGetRootElement(doc)->children; e; e = e->next) {
    if (e->type != XML_ELEMENT_NODE) continue;
    if (!strcmp((const char*)e->name, "link")) {
      (*nlink)++;
      for (xmlNode* in = e->children; in; in = in->next)
        if (in->type == XML_ELEMENT_NODE && !strcmp((const char*)in->name, "inertial"))
          for (xmlNode* ms = in->children; ms; ms = ms->next)
            if (ms->type == XML_ELEMENT_NODE && !strcmp((const char*)ms->name, "mass")) {
              xmlChar* v = xmlGetProp(ms, (const xmlChar*)"value");
              if (v) *mass += atof((const char*)v);
              xmlFree(v);
            }
    } else if (!strcmp((const char*)e->name, "joint")) {
      (*njoint)++;
      xmlChar* t = xmlGetProp(e, (const xmlChar*)"type");
      if (t && strcmp((const char*)t, "fixed")) (*nmov)++;
      xmlFree(t);
    }
  }
  xmlFreeDoc(doc);
  return 1;
}

typedef struct {
  const char* rel;
  int nmov;                /* movable joints expected */
  double mass;             /* expected total mass (< 0: only checked against the file's sum) */
  const char* bad_inertia; /* known data defect: compile must reject this body (see below) */
} RobotCase;

/* A file whose link inertias are not physically possible: the loader must fill the builder
   (bodies and joints as in the file) and compile must name the first bad body. */
static void check_known_bad(const RobotCase* c, const char* path, int nlink, int njoint) {
  for (int floating = 0; floating < 2; floating++) {
    csBuilder* b = cs_builder_new();
    csLoadOptions o;
    cs_load_options_default(&o);
    o.floating_base = floating;
    csStatus st = cs_load_urdf(b, path, &o);
    CHECK_MSG(st == CS_OK, "%s: %s", c->rel, cs_last_error());
    /* every link a body (the world added), every joint a joint (plus the free one) */
    CHECK_MSG(cs_builder_nbody(b) == nlink + 1 && cs_builder_njoint(b) == njoint + floating,
              "%s: builder has %d bodies, %d joints", c->rel, cs_builder_nbody(b),
              cs_builder_njoint(b));
    csModel* m = NULL;
    st = cs_compile(b, &m);
    CHECK_MSG(st == CS_ERR_MODEL && strstr(cs_last_error(), c->bad_inertia) &&
                  strstr(cs_last_error(), "triangle inequality"),
              "%s: expected the known inertia defect of '%s', got '%s': %s", c->rel, c->bad_inertia,
              cs_status_name(st), cs_last_error());
    if (floating == 0)
      printf("%-48s KNOWN DATA DEFECT, not compiled: %s\n", c->rel, cs_last_error());
    cs_model_free(m);
    cs_builder_free(b);
    /* with balance_inertia the file loads and every repaired body is named in the notes:
       9, since the 4 distal links merged with their fixed tips become valid */
    m = NULL;
    o.balance_inertia = 1;
    st = cs_load_model(path, &o, &m);
    CHECK_MSG(st == CS_OK, "%s with balance_inertia: %s", c->rel, cs_last_error());
    if (st == CS_OK) {
      CHECK_MSG(m->nv == c->nmov + 6 * floating, "%s balanced: nv %d", c->rel, m->nv);
      int nrep = 0;
      for (const char* p = m->notes; (p = strstr(p, "balanced to")) != NULL; p++) nrep++;
      CHECK_MSG(nrep == 9, "%s: %d bodies balanced, expected 9", c->rel, nrep);
      CHECK(strstr(m->notes, "'link_1.0'") != NULL);
      if (floating == 0)
        printf("%-48s with balance_inertia: nv %d, %d bodies balanced (noted)\n", c->rel, m->nv,
               nrep);
    }
    cs_model_free(m);
  }
}

static int test_robots(void) {
  static const RobotCase cases[] = {
      {"models/anymal_c/urdf/anymal.urdf", 12, 52.13, NULL},
      {"models/anymal_b/robots/anymal.urdf", 12, -1, NULL},
      {"models/solo12/robots/solo12.urdf", 12, -1, NULL},
      {"models/talos/robots/talos_reduced.urdf", 32, -1, NULL},
      {"models/talos/robots/talos_full_v2.urdf", 44, -1, NULL},
      /* 13 finger links (link_1.0 first) have principal moments violating I1 + I2 >= I3 by
         16-28 %: e.g. link_1.0: 1.296e-05 + 7.106e-05 < 9.982e-05. Compile rejects them. */
      {"models/allegro_hand/urdf/allegro_right_hand.urdf", 16, -1, "'link_1.0'"},
      {"models/bolt/robots/bolt.urdf", 6, -1, NULL},
  };
  int ran = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const RobotCase* c = &cases[i];
    const char* p = cs_test_shared(c->rel);
    if (!p) {
      printf("%s: absent, skipped\n", c->rel);
      continue;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s", p);
    ran++;
    double fmass = 0;
    int fmov = -1, fnlink = 0, fnjoint = 0;
    CHECK(urdf_facts(path, &fmass, &fmov, &fnlink, &fnjoint));
    CHECK_MSG(fmov == c->nmov, "%s: %d movable joints in the file, expected %d", c->rel, fmov,
              c->nmov);
    if (c->mass > 0) CHECK_NEAR(fmass, c->mass, 0.01);
    if (c->bad_inertia) {
      check_known_bad(c, path, fnlink, fnjoint);
      continue;
    }
    csModel *mf = NULL, *mx = NULL;
    csStatus st = load(path, 1, &mf);
    CHECK_MSG(st == CS_OK, "%s floating: %s", c->rel, cs_last_error());
    csStatus st2 = load(path, 0, &mx);
    CHECK_MSG(st2 == CS_OK, "%s fixed: %s", c->rel, cs_last_error());
    if (st == CS_OK) {
      CHECK_MSG(mf->nv == c->nmov + 6, "%s: nv %d", c->rel, mf->nv);
      CHECK(mf->nq == c->nmov + 7);
      CHECK(mf->njnt == c->nmov + 1 && mf->jnt_type[0] == CS_JNT_FREE);
      CHECK_MSG(fabs(total_mass(mf) - fmass) <= 1e-9 * fmass, "%s: mass %.12g vs file %.12g",
                c->rel, total_mass(mf), fmass);
      if (c->mass > 0) CHECK_NEAR(total_mass(mf), c->mass, 0.01);
      CHECK(mf->ngeom > 0);
    }
    if (st2 == CS_OK) {
      CHECK_MSG(mx->nv == c->nmov, "%s fixed: nv %d", c->rel, mx->nv);
      CHECK(mx->nq == c->nmov);
    }
    if (st == CS_OK && st2 == CS_OK) {
      /* welded: the root body of the floating model (root link + its fixed children) is a
         static body of the fixed one, the tree every other body belongs to */
      CHECK_MSG(fabs(total_mass(mx) - fmass) <= 1e-9 * fmass, "%s fixed: mass %.12g, file %.12g",
                c->rel, total_mass(mx), fmass);
      CHECK(mx->nbody == mf->nbody && mx->body_mass[1] == mf->body_mass[1]);
      CHECK(mx->body_dofnum[1] == 0 && mx->body_lastdof[1] == -1);
      int tree = 1;
      for (int k = 1; k < mx->nbody; k++) tree &= mx->body_rootid[k] == 1;
      CHECK_MSG(tree, "%s fixed: a body outside the tree of the root", c->rel);
      CHECK(mx->ngeom == mf->ngeom && mx->nmesh == mf->nmesh);
      printf(
          "%-48s floating: nq %2d nv %2d nbody %2d ngeom %2d nmesh %2d mass %.4f kg | "
          "fixed: nv %2d nbody %2d mass %.4f kg\n",
          c->rel, mf->nq, mf->nv, mf->nbody, mf->ngeom, mf->nmesh, total_mass(mf), mx->nv,
          mx->nbody, total_mass(mx));
    }
    cs_model_free(mf);
    cs_model_free(mx);
  }
  return ran;
}

int main(void) {
  test_basic();
  test_fixed_merge();
  test_world_floating();
  test_meshes();
  test_friction();
  test_errors();
  int ran = test_robots();
  if (!ran) printf("../shared/models absent: robot models skipped\n");
  return cs_test_finish("test_io_urdf");
}
