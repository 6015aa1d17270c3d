#include <string.h>
#include <unistd.h>

#include "collision/cs_collision.h"
#include "contactsim/contactsim.h"
#include "cs_test.h"
#include "math/cs_math.h"

int cs_test_failures = 0;
int cs_test_checks = 0;

int cs_test_finish(const char* name) {
  printf("%s: %d checks, %d failed\n", name, cs_test_checks, cs_test_failures);
  if (cs_test_checks == 0) {
    fprintf(stderr, "%s: no checks ran: that is a defect\n", name);
    return 1;
  }
  return cs_test_failures ? 1 : 0;
}

static char cs_path_buf[4][4096];
static int cs_path_slot = 0;

const char* cs_test_shared(const char* rel) {
  const char* dir = getenv("CS_SHARED_DIR");
  if (!dir) return NULL;
  char* buf = cs_path_buf[cs_path_slot++ & 3];
  snprintf(buf, 4096, "%s/%s", dir, rel);
  if (access(buf, R_OK) != 0) return NULL;
  return buf;
}

const char* cs_test_source(const char* rel) {
  const char* dir = getenv("CS_SOURCE_DIR");
  char* buf = cs_path_buf[cs_path_slot++ & 3];
  snprintf(buf, 4096, "%s/%s", dir ? dir : ".", rel);
  return buf;
}

static unsigned long long cs_rng = 88172645463325252ULL;

void cs_test_seed(unsigned long long seed) { cs_rng = seed * 2685821657736338717ULL + 1; }

static unsigned long long next_u64(void) {
  cs_rng ^= cs_rng << 13;
  cs_rng ^= cs_rng >> 7;
  cs_rng ^= cs_rng << 17;
  return cs_rng;
}

double cs_test_uniform(double lo, double hi) {
  return lo + (hi - lo) * ((double)(next_u64() >> 11) * (1.0 / 9007199254740992.0));
}

double cs_test_gauss(void) {
  double u1 = cs_test_uniform(1e-300, 1.0), u2 = cs_test_uniform(0.0, 1.0);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

double cs_test_relerr(const double* a, const double* b, int n, double floor) {
  double scale = floor, err = 0;
  for (int i = 0; i < n; i++) {
    if (fabs(b[i]) > scale) scale = fabs(b[i]);
    if (fabs(a[i] - b[i]) > err) err = fabs(a[i] - b[i]);
    if (a[i] != a[i]) return INFINITY;
  }
  return err / scale;
}

void cs_test_random_quat(double q[4]) {
  for (int k = 0; k < 4; k++) q[k] = cs_test_gauss();
  csi_quat_normalize(q);
}

void cs_test_random_rot(double R[9]) {
  double q[4];
  cs_test_random_quat(q);
  csi_quat2mat(R, q);
}

void cs_test_geom(csiCollGeom* g, int type, double s0, double s1, double s2, const double pos[3],
                  const double mat[9]) {
  memset(g, 0, sizeof *g);
  g->type = type;
  g->size[0] = s0, g->size[1] = s1, g->size[2] = s2;
  csi_copy3(g->pos, pos);
  memcpy(g->mat, mat, sizeof g->mat);
  switch (type) {
    case CS_GEOM_SPHERE:
      g->rbound = s0;
      break;
    case CS_GEOM_CAPSULE:
      g->rbound = s0 + s1;
      break;
    case CS_GEOM_CYLINDER:
      g->rbound = sqrt(s0 * s0 + s1 * s1);
      break;
    case CS_GEOM_BOX:
      g->rbound = sqrt(s0 * s0 + s1 * s1 + s2 * s2);
      break;
    default:
      break;
  }
}

int cs_test_add_free_body(csBuilder* b, const csBodySpec* bs) {
  int body = cs_builder_add_body(b, bs);
  csJointSpec js;
  cs_joint_spec_default(&js);
  js.body = body, js.type = CS_JNT_FREE, js.name = "free";
  cs_builder_add_joint(b, &js);
  return body;
}

void cs_test_box_grid(csBuilder* b, int n) {
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.type = CS_GEOM_PLANE;
  cs_builder_add_geom(b, &g);
  for (int k = 0; k < n; k++) {
    csBodySpec bs;
    cs_body_spec_default(&bs);
    bs.mass = 1, bs.pos[0] = 0.3 * (k % 8), bs.pos[1] = 0.3 * (k / 8), bs.pos[2] = 0.0499;
    bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 1.0 / 600;
    int body = cs_test_add_free_body(b, &bs);
    cs_geom_spec_default(&g);
    g.body = body, g.type = CS_GEOM_BOX, g.size[0] = g.size[1] = g.size[2] = 0.05;
    cs_builder_add_geom(b, &g);
  }
}

const char* cs_test_write_file(const char* dir, const char* name, const char* text) {
  static char path[4][4200];
  static int slot = 0;
  char* p = path[slot++ & 3];
  snprintf(p, sizeof path[0], "%s/%s", dir, name);
  FILE* f = fopen(p, "w");
  if (!f) return NULL;
  fputs(text, f);
  fclose(f);
  return p;
}
