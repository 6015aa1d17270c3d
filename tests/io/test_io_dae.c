/* COLLADA meshes through Assimp: a cube written here as DAE (a node translation and a unit
   of 0.5 m) has the vertices of the same cube moved and scaled by hand, 12 triangles, and
   through MJCF the mass and inertia of the analytic box; a file Assimp cannot read is an error
   naming it; a URDF visual on a DAE mesh becomes a visual geom. Skipped (77) when the library
   is built without Assimp. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contactsim/cs_io.h"
#include "contactsim/cs_model.h"
#include "cs_test.h"
#include "io/cs_io_mesh.h"

/* The unit cube (vertex i: coordinate k is +0.5 if bit k of i is set), triangles outward. */
static const int cube_tri[12][3] = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5},
                                    {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                    {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};

/* The cube as COLLADA 1.4.1 with <unit meter=unit> and its node translated by (tx, 0, 0). */
static const char* write_dae(const char* name, double unit, double tx) {
  static char text[8192];
  size_t n = (size_t)snprintf(
      text, sizeof text,
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
      "<asset><unit name=\"u\" meter=\"%g\"/><up_axis>Z_UP</up_axis></asset>\n"
      "<library_geometries><geometry id=\"cube\"><mesh>\n"
      "<source id=\"pos\"><float_array id=\"pos-a\" count=\"24\">",
      unit);
  for (int i = 0; i < 8; i++)
    n += (size_t)snprintf(text + n, sizeof text - n, "%g %g %g ", i & 1 ? 0.5 : -0.5,
                          i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
  n += (size_t)snprintf(text + n, sizeof text - n,
                        "</float_array><technique_common><accessor source=\"#pos-a\" "
                        "count=\"8\" stride=\"3\"><param name=\"X\" type=\"float\"/><param "
                        "name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>"
                        "</accessor></technique_common></source>\n"
                        "<vertices id=\"v\"><input semantic=\"POSITION\" source=\"#pos\"/>"
                        "</vertices>\n<triangles count=\"12\"><input semantic=\"VERTEX\" "
                        "source=\"#v\" offset=\"0\"/><p>");
  for (int t = 0; t < 12; t++)
    n += (size_t)snprintf(text + n, sizeof text - n, "%d %d %d ", cube_tri[t][0], cube_tri[t][1],
                          cube_tri[t][2]);
  snprintf(text + n, sizeof text - n,
           "</p></triangles>\n</mesh></geometry></library_geometries>\n"
           "<library_visual_scenes><visual_scene id=\"s\"><node id=\"n\">"
           "<translate>%g 0 0</translate><instance_geometry url=\"#cube\"/></node>"
           "</visual_scene></library_visual_scenes>\n"
           "<scene><instance_visual_scene url=\"#s\"/></scene></COLLADA>\n",
           tx);
  return cs_test_write_file(".", name, text);
}

/* Every output vertex is unit * (cube vertex + (tx, 0, 0)) for one cube vertex, each cube
   vertex appears once, and the triangles enclose the volume unit^3. */
static void check_vertices(void) {
  const double unit = 0.5, tx = 2;
  const char* path = write_dae("test_io_dae_cube.dae", unit, tx);
  int nv = 0, nf = 0;
  double* v = NULL;
  int* f = NULL;
  csStatus st = path ? csi_load_mesh(path, &nv, &v, &nf, &f) : CS_ERR_IO;
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  CHECK_MSG(nv == 8 && nf == 12, "DAE cube: %d vertices, %d triangles", nv, nf);
  if (st != CS_OK || nv != 8 || nf != 12) return;
  int seen[8] = {0};
  for (int i = 0; i < 8; i++) {
    int bits = 0;
    bits |= (v[3 * i] / unit - tx > 0) << 0;
    bits |= (v[3 * i + 1] > 0) << 1;
    bits |= (v[3 * i + 2] > 0) << 2;
    double want[3] = {unit * ((bits & 1 ? 0.5 : -0.5) + tx), unit * (bits & 2 ? 0.5 : -0.5),
                      unit * (bits & 4 ? 0.5 : -0.5)};
    for (int k = 0; k < 3; k++) CHECK_NEAR(v[3 * i + k], want[k], 1e-7);
    seen[bits]++;
  }
  for (int b = 0; b < 8; b++) CHECK_MSG(seen[b] == 1, "cube vertex %d seen %d times", b, seen[b]);
  double vol = 0; /* divergence theorem: sum of a . (b x c) / 6 */
  for (int t = 0; t < 12; t++) {
    const double *a = v + 3 * f[3 * t], *b = v + 3 * f[3 * t + 1], *c = v + 3 * f[3 * t + 2];
    vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
            a[2] * (b[0] * c[1] - b[1] * c[0])) /
           6;
  }
  printf("DAE cube: volume %.9g (want %.9g)\n", vol, unit * unit * unit);
  CHECK_NEAR(vol, unit * unit * unit, 1e-7);
  cs_free(v);
  cs_free(f);
}

/* Through MJCF: a body on the DAE cube (unit 1, no translation) has the analytic box's mass
   and inertia at density 1000. */
static void check_mjcf(void) {
  write_dae("test_io_dae_unit.dae", 1, 0);
  const char* xml =
      "<mujoco><asset><mesh name=\"d\" file=\"test_io_dae_unit.dae\"/></asset>"
      "<worldbody><body name=\"a\"><freejoint/><geom type=\"mesh\" mesh=\"d\"/>"
      "</body></worldbody></mujoco>";
  const char* path = cs_test_write_file(".", "test_io_dae.xml", xml);
  csModel* m = NULL;
  csStatus st = path ? cs_load_model(path, NULL, &m) : CS_ERR_IO;
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st != CS_OK) return;
  int a = cs_name2id(m, "body", "a");
  CHECK_NEAR(m->body_mass[a], 1000, 1e-4);
  CHECK_NEAR(m->body_inertia[6 * a], 1000.0 / 6, 1e-4);
  cs_model_free(m);
}

/* A URDF <visual> on a DAE mesh is a visual geom; a file that is not COLLADA is an error
   naming it. */
static void check_urdf_and_bad(void) {
  const char* urdf =
      "<robot name=\"r\"><link name=\"base\"><inertial><mass value=\"1\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
      "</inertial><visual><geometry><mesh filename=\"test_io_dae_unit.dae\"/>"
      "</geometry></visual></link></robot>";
  const char* path = cs_test_write_file(".", "test_io_dae.urdf", urdf);
  csModel* m = NULL;
  csStatus st = path ? cs_load_model(path, NULL, &m) : CS_ERR_IO;
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st == CS_OK) {
    CHECK_MSG(m->ngeomvisual == 1 && m->nmesh == 1, "ngeomvisual %d nmesh %d", m->ngeomvisual,
              m->nmesh);
    cs_model_free(m);
  }
  const char* bad = cs_test_write_file(".", "test_io_dae_bad.dae", "<COLLADA><oops");
  int nv, nf;
  double* v = NULL;
  int* f = NULL;
  st = bad ? csi_load_mesh(bad, &nv, &v, &nf, &f) : CS_OK;
  CHECK(st != CS_OK && v == NULL && f == NULL);
  CHECK_MSG(strstr(cs_last_error(), "test_io_dae_bad.dae") != NULL, "%s", cs_last_error());
}

int main(void) {
  if (!csi_mesh_format_known("x.dae")) {
    printf("test_io_dae: built without Assimp, skipped\n");
    return 77;
  }
  check_vertices();
  check_mjcf();
  check_urdf_and_bad();
  return cs_test_finish("test_io_dae");
}
