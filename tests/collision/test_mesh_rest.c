/* A mesh hull resting on a plane against the primitive box it copies, through the whole
   pipeline (loader, convex hull, plane-mesh manifold, solver, integrator):
   - a cube written as a Wavefront OBJ (8 vertices, 12 triangles), loaded as an MJCF mesh
     geom, and a box geom of the same half size, mass and inertia, each a free body dropped
     0.5 mm onto a plane: every step the mesh's contacts are the box's at the same pose
     (count, points and depths as sets, 1e-12 m); from 1 s on both are at rest on 4
     contacts (kinetic energy below 1e-12 J at every step to 5 s: no spike), the normal
     force is m g (1e-9 relative), the solves converge, and the two rest poses agree to
     1e-12 (the runs differ within the solver tolerance during the landing, when the
     contacts come in another order);
   - the same cube turned 0.3 rad about x with its lower edge 0.1 mm in the plane: two
     contacts, at the ends of that edge, for the mesh as for the box;
   - a cube whose faces are tessellated (a vertex at each face centre and edge midpoint,
     26 vertices, 48 triangles): its hull keeps the 8 corners, so it rests as the box. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

static char tmpdir[64];

#define HALF 0.1  /* m: the cube's half size */
#define MASS 2.0  /* kg */
#define T_END 5.0 /* s */
#define T_REST 1.0

/* The scene: a plane and one free body at height z holding the geom text given. The
   inertia is explicit (that of the solid cube) so that both bodies have the same. */
static const char* scene(char* buf, size_t n, const char* asset, const char* geom) {
  double I = MASS * (2 * HALF) * (2 * HALF) / 6;
  snprintf(buf, n,
           "<mujoco><option timestep=\"0.002\"/><asset>%s</asset><worldbody>"
           "<geom name=\"floor\" type=\"plane\" size=\"2 2 0.1\"/>"
           "<body name=\"cube\" pos=\"0.3 -0.2 %.17g\"><freejoint/>"
           "<inertial pos=\"0 0 0\" mass=\"%g\" diaginertia=\"%.17g %.17g %.17g\"/>%s</body>"
           "</worldbody></mujoco>\n",
           asset, HALF + 5e-4, MASS, I, I, I, geom);
  return buf;
}

static csModel* load(const char* name, const char* asset, const char* geom) {
  char text[2048];
  const char* path = cs_test_write_file(tmpdir, name, scene(text, sizeof text, asset, geom));
  csModel* m = NULL;
  CHECK_MSG(path && cs_load_model(path, NULL, &m) == CS_OK, "%s: %s", name, cs_last_error());
  return m;
}

/* A cube of half size HALF as OBJ text: its 8 corners and 12 triangles (outward). */
static void write_cube_obj(void) {
  static const char* text =
      "# cube, half size 0.1\n"
      "v -0.1 -0.1 -0.1\nv 0.1 -0.1 -0.1\nv 0.1 0.1 -0.1\nv -0.1 0.1 -0.1\n"
      "v -0.1 -0.1 0.1\nv 0.1 -0.1 0.1\nv 0.1 0.1 0.1\nv -0.1 0.1 0.1\n"
      "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
      "f 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
  CHECK(cs_test_write_file(tmpdir, "cube.obj", text) != NULL);
}

/* The same cube with each face split into 4 x 2 triangles around its centre: the vertices
   at the face centres and edge midpoints lie on the hull's faces and edges. */
static void write_fine_cube_obj(void) {
  char text[8192];
  size_t len = 0;
  int id[3][3][3], nv = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++) {
        id[i][j][k] = 0;
        if (i == 1 && j == 1 && k == 1) continue; /* the centre: not on the surface */
        id[i][j][k] = ++nv;
        len += (size_t)snprintf(text + len, sizeof text - len, "v %g %g %g\n", (i - 1) * HALF,
                                (j - 1) * HALF, (k - 1) * HALF);
      }
  /* each face (axis a at side s) as a 3 x 3 grid of vertices, 8 triangles */
  for (int a = 0; a < 3; a++)
    for (int s = 0; s <= 2; s += 2)
      for (int u = 0; u < 2; u++)
        for (int w = 0; w < 2; w++) {
          int q[4];
          for (int c = 0; c < 4; c++) {
            int g[3], du = (c == 1 || c == 2), dw = (c >= 2);
            g[a] = s, g[(a + 1) % 3] = u + du, g[(a + 2) % 3] = w + dw;
            q[c] = id[g[0]][g[1]][g[2]];
          }
          /* orientation does not matter to the hull */
          len += (size_t)snprintf(text + len, sizeof text - len, "f %d %d %d\nf %d %d %d\n", q[0],
                                  q[1], q[2], q[0], q[2], q[3]);
        }
  CHECK(cs_test_write_file(tmpdir, "fine_cube.obj", text) != NULL);
}

/* Does every contact of a have a contact of b at the same point (tol) with the same depth? */
static int same_contacts(const csData* a, const csData* b, double tol) {
  if (a->ncon != b->ncon) return 0;
  for (int i = 0; i < a->ncon; i++) {
    int found = 0;
    for (int j = 0; j < b->ncon && !found; j++) {
      double d = 0;
      for (int k = 0; k < 3; k++) d = fmax(d, fabs(a->contact[i].pos[k] - b->contact[j].pos[k]));
      found = d <= tol && fabs(a->contact[i].dist - b->contact[j].dist) <= tol &&
              a->contact[i].frame[2] == b->contact[j].frame[2];
    }
    if (!found) return 0;
  }
  return 1;
}

/* The total normal force of d's contacts (N) */
static double normal_force(const csModel* m, const csData* d) {
  double fz = 0;
  for (int i = 0; i < d->ncon; i++) fz += d->contact[i].lambda[0] / m->opt.timestep;
  return fz;
}

/* Drops the mesh cube and the box side by side in time and compares them step by step. */
static void rest_against_box(const char* mesh_file) {
  char asset[256];
  snprintf(asset, sizeof asset, "<mesh name=\"m\" file=\"%s\"/>", mesh_file);
  csModel* mm = load("mesh.xml", asset, "<geom type=\"mesh\" mesh=\"m\"/>");
  csModel* mb = load("box.xml", "", "<geom type=\"box\" size=\"0.1 0.1 0.1\"/>");
  if (!mm || !mb) return;
  csData* dm = cs_data_new(mm);
  csData* db = cs_data_new(mb);
  csData* dp = cs_data_new(mb);
  CHECK(dm && db && dp);
  if (!dm || !db || !dp) return;
  int nstep = (int)lround(T_END / mm->opt.timestep), differ = 0, unconverged = 0, ncon4 = 1;
  double ke_max = 0, fz_err = 0, weight = MASS * 9.81;
  for (int s = 0; s < nstep; s++) {
    /* the box's contacts at the mesh's pose */
    memcpy(dp->qpos, dm->qpos, sizeof(double) * (size_t)mm->nq);
    CHECK(cs_forward_full(mb, dp) == CS_OK);
    CHECK(cs_step(mm, dm) == CS_OK);
    CHECK(cs_step(mb, db) == CS_OK);
    if (!same_contacts(dm, dp, 1e-12)) differ++;
    if (dm->time < T_REST) continue;
    cs_energy(mm, dm);
    cs_energy(mb, db);
    ke_max = fmax(ke_max, fmax(dm->energy[1], db->energy[1]));
    fz_err = fmax(fz_err, fabs(normal_force(mm, dm) - weight) / weight);
    if (dm->ncon != 4) ncon4 = 0;
  }
  unconverged = dm->warning[CS_WARN_SOLVER].count;
  double dq = 0;
  for (int i = 0; i < mm->nq; i++) dq = fmax(dq, fabs(dm->qpos[i] - db->qpos[i]));
  CHECK_MSG(differ == 0, "%s: %d of %d steps with contacts unlike the box's at its pose", mesh_file,
            differ, nstep);
  CHECK(ncon4);
  CHECK_MSG(ke_max < 1e-12, "%s: kinetic energy up to %.3g J at rest", mesh_file, ke_max);
  CHECK_MSG(fz_err < 1e-9, "%s: normal force off m g by %.3g relative", mesh_file, fz_err);
  CHECK_MSG(dq < 1e-12, "%s: rest pose off the box's by %.3g", mesh_file, dq);
  CHECK(unconverged == 0);
  printf(
      "%s on a plane vs the box, %d steps: contacts unlike %d, %d contacts at rest, "
      "kinetic energy from %.0f s at most %.3g J, |normal force - m g| / m g %.3g, rest "
      "pose difference %.3g, unconverged solves %d\n",
      mesh_file, nstep, differ, dm->ncon, T_REST, ke_max, fz_err, dq, unconverged);
  cs_data_free(dm);
  cs_data_free(db);
  cs_data_free(dp);
  cs_model_free(mm);
  cs_model_free(mb);
}

/* The cube turned about x with its lower edge (along x) 0.1 mm deep: two contacts, at the
   edge's ends (x = 0.3 -+ HALF), as the box. */
static void edge_contacts(void) {
  csModel* mm =
      load("mesh.xml", "<mesh name=\"m\" file=\"cube.obj\"/>", "<geom type=\"mesh\" mesh=\"m\"/>");
  csModel* mb = load("box.xml", "", "<geom type=\"box\" size=\"0.1 0.1 0.1\"/>");
  if (!mm || !mb) return;
  csData* dm = cs_data_new(mm);
  csData* db = cs_data_new(mb);
  CHECK(dm && db);
  if (!dm || !db) return;
  double th = 0.3, depth = 1e-4;
  /* the lowest edge of the turned cube is HALF (cos th + sin th) below its centre */
  double z = HALF * (cos(th) + sin(th)) - depth;
  double q[7] = {0.3, -0.2, z, cos(th / 2), sin(th / 2), 0, 0};
  memcpy(dm->qpos, q, sizeof q);
  memcpy(db->qpos, q, sizeof q);
  CHECK(cs_forward_full(mm, dm) == CS_OK);
  CHECK(cs_forward_full(mb, db) == CS_OK);
  CHECK_MSG(dm->ncon == 2, "edge: %d mesh contacts", dm->ncon);
  CHECK(same_contacts(dm, db, 1e-12));
  double xs = 0;
  for (int i = 0; i < dm->ncon; i++) {
    CHECK_NEAR(dm->contact[i].dist, -depth, 1e-12);
    CHECK_NEAR(fabs(dm->contact[i].pos[0] - 0.3), HALF, 1e-12);
    xs += dm->contact[i].pos[0];
  }
  CHECK_NEAR(xs, 0.6, 1e-12); /* one at each end */
  printf("cube on its edge, 0.3 rad: %d contacts (box %d), depths %.3g %.3g\n", dm->ncon, db->ncon,
         dm->ncon > 0 ? dm->contact[0].dist : NAN, dm->ncon > 1 ? dm->contact[1].dist : NAN);
  cs_data_free(dm);
  cs_data_free(db);
  cs_model_free(mm);
  cs_model_free(mb);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cs_test_mesh_rest_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    fprintf(stderr, "test_mesh_rest: no temporary directory\n");
    return 1;
  }
  write_cube_obj();
  write_fine_cube_obj();
  rest_against_box("cube.obj");
  rest_against_box("fine_cube.obj");
  edge_contacts();
  const char* files[] = {"cube.obj", "fine_cube.obj", "mesh.xml", "box.xml"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char p[128];
    snprintf(p, sizeof p, "%s/%s", tmpdir, files[i]);
    remove(p);
  }
  rmdir(tmpdir);
  return cs_test_finish("test_mesh_rest");
}
