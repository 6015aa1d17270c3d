/* Wavefront OBJ reader: a cube written here (quads, every corner syntax, negative indices,
   comments, ignored statements, CRLF) gives exactly the STL reader's arrays for the same
   cube, and through MJCF and URDF the same mass and inertia as the STL cube and the
   analytic box; every malformed case is an error naming the file and line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contactsim/cs_io.h"
#include "cs_test.h"
#include "cs_test_models.h"
#include "io/cs_io_mesh.h"

/* The unit cube of test_io_stl.c (vertex i: coordinate k is +0.5 if bit k of i is set) as
   ASCII STL: its 12 triangles are the fans of the OBJ quads below, in the same order. */
static const int cube_tri[12][3] = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5},
                                    {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                    {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};

static const char* write_stl_cube(void) {
  static char text[4096];
  size_t n = (size_t)snprintf(text, sizeof text, "solid cube\n");
  for (int t = 0; t < 12; t++) {
    n += (size_t)snprintf(text + n, sizeof text - n, "facet normal 0 0 0\nouter loop\n");
    for (int k = 0; k < 3; k++) {
      int i = cube_tri[t][k];
      n += (size_t)snprintf(text + n, sizeof text - n, "vertex %g %g %g\n", i & 1 ? 0.5 : -0.5,
                            i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
    }
    n += (size_t)snprintf(text + n, sizeof text - n, "endloop\nendfacet\n");
  }
  snprintf(text + n, sizeof text - n, "endsolid cube\n");
  return cs_test_write_file(".", "test_io_obj_cube.stl", text);
}

/* OBJ vertex j (1-based) is cube vertex j - 1; an unused vertex and a duplicate of vertex 1
   follow (both must vanish from the output). The quads are the fans of cube_tri. */
static const char* cube_obj =
    "# a unit cube\r\n"
    "mtllib cube.mtl\r\n"
    "o cube\r\n"
    "v -0.5 -0.5 -0.5\r\n"
    "v 0.5 -0.5 -0.5\r\n"
    "v -0.5 0.5 -0.5\r\n"
    "v 0.5 0.5 -0.5\r\n"
    "v -0.5 -0.5 0.5\r\n"
    "v 0.5 -0.5 0.5 1.0\r\n"
    "v -0.5 0.5 0.5\r\n"
    "v 0.5 0.5 0.5\r\n"
    "v 9 9 9\r\n"
    "v -0.5 -0.5 -0.5\r\n"
    "vt 0 0\r\nvt 1 0\r\nvt 1 1\r\n"
    "vn 0 0 1\r\n"
    "g sides\r\n"
    "usemtl grey\r\n"
    "s off\r\n"
    "f 1 5 7 3\r\n"
    "f 2/1 4/2 8/3 6/1\r\n"
    "f 10//1 2//1 6//1 5//1\r\n"
    "\r\n"
    "f 3/1/1 7/2/1 8/3/1 4/1/1   # trailing comment\r\n"
    "f -10 -8 -7 -9\r\n"
    "f 5 6 8 7\r\n";

/* vert/face of the OBJ equal those of the STL, element by element. */
static void check_same_as_stl(const char* obj, const char* stl) {
  int nv1 = 0, nf1 = 0, nv2 = 0, nf2 = 0;
  double *v1 = NULL, *v2 = NULL;
  int *f1 = NULL, *f2 = NULL;
  csStatus s1 = cs_load_obj(obj, &nv1, &v1, &nf1, &f1);
  CHECK_MSG(s1 == CS_OK, "%s", cs_last_error());
  csStatus s2 = cs_load_stl(stl, &nv2, &v2, &nf2, &f2);
  CHECK_MSG(s2 == CS_OK, "%s", cs_last_error());
  CHECK_MSG(nv1 == 8 && nf1 == 12, "OBJ cube: %d vertices, %d triangles", nv1, nf1);
  if (s1 == CS_OK && s2 == CS_OK && nv1 == nv2 && nf1 == nf2) {
    CHECK(memcmp(v1, v2, sizeof(double) * 3 * (size_t)nv1) == 0);
    CHECK(memcmp(f1, f2, sizeof(int) * 3 * (size_t)nf1) == 0);
  } else {
    CHECK_MSG(0, "OBJ %d/%d vs STL %d/%d", nv1, nf1, nv2, nf2);
  }
  cs_free(v1);
  cs_free(f1);
  cs_free(v2);
  cs_free(f2);
}

/* Mass and inertia through MJCF: bodies with an OBJ cube, an STL cube (file names in upper
   and lower case) and a box geom, density 1000: all 1000 kg and 1000/6 kg m^2. */
static void check_mjcf_cube(void) {
  const char* xml =
      "<mujoco><compiler meshdir=\".\"/><asset>"
      "<mesh name=\"o\" file=\"test_io_obj_cube.OBJ\"/><mesh name=\"s\" "
      "file=\"test_io_obj_cube.stl\"/>"
      "</asset><worldbody>"
      "<body name=\"a\"><freejoint/><geom type=\"mesh\" mesh=\"o\"/></body>"
      "<body name=\"b\" pos=\"3 0 0\"><freejoint/><geom type=\"mesh\" mesh=\"s\"/></body>"
      "<body name=\"c\" pos=\"6 0 0\"><freejoint/><geom type=\"box\" size=\".5 .5 .5\"/></body>"
      "</worldbody></mujoco>";
  const char* path = cs_test_write_file(".", "test_io_obj_cube.xml", xml);
  csModel* m = NULL;
  csStatus st = path ? cs_load_model(path, NULL, &m) : CS_ERR_IO;
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st != CS_OK) return;
  int a = cs_name2id(m, "body", "a"), b = cs_name2id(m, "body", "b"),
      c = cs_name2id(m, "body", "c");
  CHECK(a > 0 && b > 0 && c > 0);
  CHECK(m->nmesh == 2);
  printf("MJCF cube: OBJ %.17g kg, Ixx %.17g; STL %.17g kg, Ixx %.17g; box %.17g kg\n",
         m->body_mass[a], m->body_inertia[6 * a], m->body_mass[b], m->body_inertia[6 * b],
         m->body_mass[c]);
  CHECK(m->body_mass[a] == m->body_mass[b]);
  CHECK(memcmp(m->body_inertia + 6 * a, m->body_inertia + 6 * b, 6 * sizeof(double)) == 0);
  CHECK_NEAR(m->body_mass[a], 1000.0, 1e-9);
  CHECK_NEAR(m->body_mass[c], 1000.0, 1e-9);
  for (int k = 0; k < 6; k++) {
    double want = k < 3 ? 1000.0 / 6.0 : 0.0;
    CHECK_NEAR(m->body_inertia[6 * a + k], want, 1e-9);
    CHECK_NEAR(m->body_inertia[6 * c + k], want, 1e-9);
  }
  cs_model_free(m);
}

/* URDF: a collision mesh given as OBJ (upper-case extension) loads as the same mesh. */
static void check_urdf_cube(void) {
  const char* urdf =
      "<robot name=\"r\"><link name=\"base\"><inertial><mass value=\"1\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\"/></inertial>"
      "<collision><geometry><mesh filename=\"test_io_obj_cube.OBJ\"/></geometry></collision>"
      "<collision><geometry><mesh filename=\"test_io_obj_cube.stl\"/></geometry></collision>"
      "</link></robot>";
  const char* path = cs_test_write_file(".", "test_io_obj_cube.urdf", urdf);
  csModel* m = NULL;
  csStatus st = path ? cs_load_model(path, NULL, &m) : CS_ERR_IO;
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (st != CS_OK) return;
  CHECK(m->nmesh == 2 && m->ngeom == 2 && m->ngeomvisual == 0);
  if (m->nmesh == 2) {
    CHECK(m->mesh_vertnum[0] == 8 && m->mesh_vertnum[1] == 8);
    CHECK(memcmp(m->mesh_vert + 3 * m->mesh_vertadr[0], m->mesh_vert + 3 * m->mesh_vertadr[1],
                 sizeof(double) * 24) == 0);
    CHECK(m->geom_vertnum[0] == 8 && m->geom_vertnum[1] == 8);
  }
  cs_model_free(m);
}

/* A malformed OBJ (text) fails with status want and a message naming the file (and "also"). */
static void check_fails(const char* what, const char* name, const char* text, csStatus want,
                        const char* also) {
  const char* path = text ? cs_test_write_file(".", name, text) : name;
  CHECK_MSG(path != NULL, "%s: cannot write %s", what, name);
  if (!path) return;
  cs_test_mesh_read_fails(cs_load_obj, what, path, want, also);
}

int main(void) {
  const char* obj = cs_test_write_file(".", "test_io_obj_cube.obj", cube_obj);
  CHECK(cs_test_write_file(".", "test_io_obj_cube.OBJ", cube_obj) != NULL);
  const char* stl = write_stl_cube();
  CHECK(obj && stl);
  if (obj && stl) {
    char objp[1024], stlp[1024];
    snprintf(objp, sizeof objp, "%s", obj);
    snprintf(stlp, sizeof stlp, "%s", stl);
    check_same_as_stl(objp, stlp);
    check_mjcf_cube();
    check_urdf_cube();
  }

  const char* tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  char buf[256];
  check_fails("missing file", "test_io_obj_missing.obj", NULL, CS_ERR_IO, "cannot open");
  snprintf(buf, sizeof buf, "%sf 1 2 0\n", tri);
  check_fails("index 0", "test_io_obj_zero.obj", buf, CS_ERR_PARSE, "test_io_obj_zero.obj:4");
  snprintf(buf, sizeof buf, "%sf 1 2 4\n", tri);
  check_fails("index past the end", "test_io_obj_past.obj", buf, CS_ERR_PARSE,
              "test_io_obj_past.obj:4: OBJ: vertex index 4 out of range");
  snprintf(buf, sizeof buf, "v 0 0 0\nf -1 -2 -3\n%s", tri);
  check_fails("negative index before the start", "test_io_obj_neg.obj", buf, CS_ERR_PARSE,
              "test_io_obj_neg.obj:2: OBJ: vertex index -2 out of range");
  snprintf(buf, sizeof buf, "%sf 1/x 2 3\n", tri);
  check_fails("bad texture index", "test_io_obj_vt.obj", buf, CS_ERR_PARSE,
              "test_io_obj_vt.obj:4: OBJ: bad face corner '1/x'");
  snprintf(buf, sizeof buf, "%sf 1 2a 3\n", tri);
  check_fails("bad index", "test_io_obj_idx.obj", buf, CS_ERR_PARSE, "bad face corner '2a'");
  snprintf(buf, sizeof buf, "%sf 1 2\n", tri);
  check_fails("two corners", "test_io_obj_two.obj", buf, CS_ERR_PARSE, "at least 3 corners");
  check_fails("NaN coordinate", "test_io_obj_nan.obj", "v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n",
              CS_ERR_PARSE, "test_io_obj_nan.obj:2: OBJ: NaN or Inf");
  check_fails("Inf coordinate", "test_io_obj_inf.obj",
              "v 0 0 0\r\nv 1 0 0\r\nv 0 1 -inf\r\nf 1 2 3\r\n", CS_ERR_PARSE,
              "test_io_obj_inf.obj:3");
  check_fails("coordinate not a number", "test_io_obj_word.obj", "v 0 0 zero\nf 1 1 1\n",
              CS_ERR_PARSE, "test_io_obj_word.obj:1: OBJ: 'zero' is not a number");
  check_fails("two coordinates", "test_io_obj_short.obj", "v 0 0\nf 1 1 1\n", CS_ERR_PARSE,
              "needs 3 coordinates");
  check_fails("no faces", "test_io_obj_nofaces.obj", tri, CS_ERR_PARSE, "no faces");
  check_fails("empty file", "test_io_obj_empty.obj", "", CS_ERR_PARSE, "no faces");
  snprintf(buf, sizeof buf, "%sfoo 1 2 3\nf 1 2 3\n", tri);
  check_fails("unknown statement", "test_io_obj_kw.obj", buf, CS_ERR_PARSE,
              "test_io_obj_kw.obj:4: OBJ: unknown statement 'foo'");
  CHECK(cs_load_obj(NULL, NULL, NULL, NULL, NULL) == CS_ERR_ARG);

  /* dispatch by extension */
  CHECK(csi_mesh_format_known("a/b.Stl") && csi_mesh_format_known("x.OBJ"));
  CHECK(!csi_mesh_format_known("x.ply") && !csi_mesh_format_known("obj") &&
        !csi_mesh_format_known("dir.obj/x"));
  int nv, nf;
  double* v;
  int* f;
  CHECK(csi_load_mesh("robot.ply", &nv, &v, &nf, &f) == CS_ERR_UNSUPPORTED);
  CHECK(strstr(cs_last_error(), "robot.ply") && strstr(cs_last_error(), "'.ply'"));
  return cs_test_finish("test_io_obj");
}
