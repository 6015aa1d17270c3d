/* STL reader: binary and ASCII cubes (written here and in tests/data/stl), vertex merging,
   error cases, and a real mesh from ../shared/models. */
#include <stdint.h>
#include <string.h>

#include "contactsim/cs_io.h"
#include "cs_test.h"
#include "cs_test_models.h"

/* Unit cube centred at the origin: vertex i has coordinate k = +0.5 if bit k of i is set.
   Triangles wound counter-clockwise seen from outside (same list as
   tests/data/stl/cube_ascii.stl). */
static const int cube_tri[12][3] = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5},
                                    {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                    {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};

static void cube_vertex(int i, float* v) {
  for (int k = 0; k < 3; k++) v[k] = (i >> k) & 1 ? 0.5f : -0.5f;
}

static void put_u32(unsigned char* p, uint32_t u) {
  p[0] = (unsigned char)(u & 0xff), p[1] = (unsigned char)(u >> 8 & 0xff);
  p[2] = (unsigned char)(u >> 16 & 0xff), p[3] = (unsigned char)(u >> 24 & 0xff);
}
static void put_f32(unsigned char* p, float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  put_u32(p, u);
}

/* Binary cube into buf (84 + 12 * 50 bytes); header text given. Returns the size. */
static size_t make_binary_cube(unsigned char* buf, const char* header) {
  memset(buf, 0, 84 + 12 * 50);
  memcpy(buf, header, strlen(header) < 80 ? strlen(header) : 80);
  put_u32(buf + 80, 12);
  for (int t = 0; t < 12; t++) {
    unsigned char* rec = buf + 84 + 50 * t;
    /* normal left zero (readers must not rely on it); 3 vertices; attribute 0 */
    for (int v = 0; v < 3; v++) {
      float x[3];
      cube_vertex(cube_tri[t][v], x);
      for (int k = 0; k < 3; k++) put_f32(rec + 12 + 12 * v + 4 * k, x[k]);
    }
  }
  return 84 + 12 * 50;
}

static int write_file(const char* path, const void* data, size_t n) {
  FILE* f = fopen(path, "wb");
  if (!f) return 0;
  size_t w = fwrite(data, 1, n, f);
  fclose(f);
  return w == n;
}

/* Signed volume by the divergence theorem (positive for outward winding). */
static double mesh_volume(int nv, const double* v, int nf, const int* f) {
  double vol = 0;
  for (int i = 0; i < nf; i++) {
    const double *a = v + 3 * f[3 * i], *b = v + 3 * f[3 * i + 1], *c = v + 3 * f[3 * i + 2];
    vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
            a[2] * (b[0] * c[1] - b[1] * c[0])) /
           6.0;
  }
  (void)nv;
  return vol;
}

/* A loaded cube must have 8 distinct vertices, 12 faces, each face the expected triangle
   (same order, so winding is kept), and volume 1. */
static void check_cube(const char* what, const char* path) {
  int nv = -1, nf = -1;
  double* v = NULL;
  int* f = NULL;
  csStatus st = cs_load_stl(path, &nv, &v, &nf, &f);
  CHECK_MSG(st == CS_OK, "%s: %s", what, cs_last_error());
  if (st != CS_OK) return;
  CHECK_MSG(nv == 8, "%s: nvert %d", what, nv);
  CHECK_MSG(nf == 12, "%s: nface %d", what, nf);
  int ok = 1;
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < i; j++)
      if (v[3 * i] == v[3 * j] && v[3 * i + 1] == v[3 * j + 1] && v[3 * i + 2] == v[3 * j + 2])
        ok = 0;
  CHECK_MSG(ok, "%s: duplicate vertices left", what);
  for (int t = 0; t < nf && t < 12; t++)
    for (int k = 0; k < 3; k++) {
      int idx = f[3 * t + k];
      CHECK(idx >= 0 && idx < nv);
      if (idx < 0 || idx >= nv) continue;
      float x[3];
      cube_vertex(cube_tri[t][k], x);
      if (v[3 * idx] != x[0] || v[3 * idx + 1] != x[1] || v[3 * idx + 2] != x[2]) ok = 0;
    }
  CHECK_MSG(ok, "%s: faces do not match the written triangles", what);
  CHECK_NEAR(mesh_volume(nv, v, nf, f), 1.0, 1e-12);
  cs_free(v);
  cs_free(f);
}

/* Expect a failure with status st and the file name in the message. */
static void check_fails(const char* what, const char* path, csStatus want, const char* also) {
  cs_test_mesh_read_fails(cs_load_stl, what, path, want, also);
}

int main(void) {
  unsigned char buf[84 + 12 * 50 + 16];

  /* binary round trip, plain header and a header that starts with "solid" */
  size_t n = make_binary_cube(buf, "contactsim binary cube");
  CHECK(write_file("test_io_stl_cube.stl", buf, n));
  check_cube("binary", "test_io_stl_cube.stl");
  n = make_binary_cube(buf, "solid cube written as binary");
  CHECK(write_file("test_io_stl_solid_header.stl", buf, n));
  check_cube("binary with 'solid' header", "test_io_stl_solid_header.stl");

  /* ASCII */
  check_cube("ascii", cs_test_source("tests/data/stl/cube_ascii.stl"));

  /* errors */
  check_fails("missing file", "test_io_stl_does_not_exist.stl", CS_ERR_IO, NULL);
  n = make_binary_cube(buf, "truncated");
  CHECK(write_file("test_io_stl_truncated.stl", buf, n - 10));
  check_fails("truncated binary", "test_io_stl_truncated.stl", CS_ERR_PARSE, "truncated");
  CHECK(write_file("test_io_stl_short.stl", buf, 40));
  check_fails("shorter than a header", "test_io_stl_short.stl", CS_ERR_PARSE, "truncated");
  n = make_binary_cube(buf, "inconsistent count");
  put_u32(buf + 80, 13);
  CHECK(write_file("test_io_stl_count.stl", buf, n));
  check_fails("count larger than the data", "test_io_stl_count.stl", CS_ERR_PARSE, "13 triangles");
  memset(buf, 0, 84);
  CHECK(write_file("test_io_stl_empty.stl", buf, 84));
  check_fails("binary, zero triangles", "test_io_stl_empty.stl", CS_ERR_PARSE, "no triangles");
  n = make_binary_cube(buf, "nan");
  put_f32(buf + 84 + 50 * 3 + 12 + 4, (float)NAN);
  CHECK(write_file("test_io_stl_nan.stl", buf, n));
  check_fails("binary NaN vertex", "test_io_stl_nan.stl", CS_ERR_PARSE, "NaN");
  check_fails("ascii NaN vertex", cs_test_source("tests/data/stl/nan_ascii.stl"), CS_ERR_PARSE,
              "nan_ascii.stl:5");
  check_fails("ascii missing endloop", cs_test_source("tests/data/stl/bad_ascii.stl"), CS_ERR_PARSE,
              "bad_ascii.stl:7");
  check_fails("ascii, zero triangles", cs_test_source("tests/data/stl/empty_ascii.stl"),
              CS_ERR_PARSE, "no triangles");
  CHECK(cs_load_stl(NULL, NULL, NULL, NULL, NULL) == CS_ERR_ARG);

  /* a real mesh */
  const char* real = cs_test_shared("models/solo12/meshes/stl/with_foot/solo_foot.stl");
  if (!real) {
    printf("../shared absent: real STL mesh skipped\n");
  } else {
    int nv = 0, nf = 0;
    double* v = NULL;
    int* f = NULL;
    csStatus st = cs_load_stl(real, &nv, &v, &nf, &f);
    CHECK_MSG(st == CS_OK, "%s", cs_last_error());
    if (st == CS_OK) {
      CHECK(nv >= 4 && nf >= 4);
      CHECK(nv < 3 * nf); /* shared corners merged */
      int ok = 1;
      double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
      for (int i = 0; i < 3 * nf; i++) ok &= f[i] >= 0 && f[i] < nv;
      for (int i = 0; i < nv; i++)
        for (int k = 0; k < 3; k++) {
          ok &= isfinite(v[3 * i + k]);
          if (v[3 * i + k] < lo[k]) lo[k] = v[3 * i + k];
          if (v[3 * i + k] > hi[k]) hi[k] = v[3 * i + k];
        }
      CHECK(ok);
      double ext = 0;
      for (int k = 0; k < 3; k++) ext = hi[k] - lo[k] > ext ? hi[k] - lo[k] : ext;
      CHECK_MSG(ext > 0.005 && ext < 0.5, "solo foot extent %g m", ext);
      printf("solo_foot.stl: %d vertices, %d triangles, extent %g m, volume %g m^3\n", nv, nf, ext,
             mesh_volume(nv, v, nf, f));
      cs_free(v);
      cs_free(f);
    }
  }
  return cs_test_finish("test_io_stl");
}
