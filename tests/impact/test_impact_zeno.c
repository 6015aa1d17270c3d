/* The Zeno rocking block (paper 004, section 4.3; models/impact/zeno_block.imp) and the
   impact model file:
   - 10 rocking cycles (20 corner impacts): each impact, resolved by Algorithm 1 with p = 1,
     multiplies the angular velocity by 0.7 (angular momentum about the new pivot: 14/12
     against 20/12) to 1e-9, leaves the new pivot at rest (sticking, mu = 1) and lifts the
     old one; between impacts the flight on the sticking pivot is conservative and
     time-reversible, so the block returns to the same configuration with v -> -v (exact);
   - at rest afterwards, the Anitescu-Potra LCP with one second of gravity gives
     lambda_n = m g / 2 at each corner;
   - the examples' geometry: every file's contacts active, box_wall's corner at the wall;
   - bad files: CS_ERR_PARSE or CS_ERR_MODEL naming the file and line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/cs_impact.h"
#include "cs_test.h"

static void zeno(void) {
  csImpactModel* mod = NULL;
  CHECK(cs_impact_model_load(cs_test_source("models/impact/zeno_block.imp"), &mod) == CS_OK);
  if (!mod) return;
  double q[3], v[3], vp[3], P[2 * 10];
  cs_impact_model_defaults(mod, q, v, NULL);
  for (int k = 0; k < 20; k++) P[k] = 1;
  double worst = 0, w0 = v[2];
  for (int impact = 0; impact < 20; impact++) {
    csImpact* imp = NULL;
    CHECK(cs_impact_new(mod, q, v, &imp) == CS_OK);
    if (!imp) break;
    const csImpactInfo* in = cs_impact_info(imp);
    void* ws = malloc(cs_impact_workspace_bytes(imp));
    csImpactSample s;
    CHECK(cs_impact_run(imp, P, 1.0, 10, vp, &s, ws) == CS_OK);
    CHECK(s.terminated && s.lcp_err < 1e-12);
    worst = fmax(worst, fabs(vp[2] / v[2] - 0.7));
    int pivot = impact % 2 ? 0 : 1; /* B (1) first, then A, B, ... */
    double vn = 0, vt = 0, vo = 0;
    for (int i = 0; i < 3; i++) {
      vn += in->Jn[pivot * 3 + i] * vp[i], vt += in->Jf[pivot * 3 + i] * vp[i];
      vo += in->Jn[(1 - pivot) * 3 + i] * vp[i];
    }
    CHECK_MSG(fabs(vn) < 1e-12 && fabs(vt) < 1e-12 && vo > 0,
              "impact %d: new pivot (%g, %g), old pivot lifts at %g", impact, vn, vt, vo);
    for (int i = 0; i < 3; i++) v[i] = -vp[i]; /* the flight */
    free(ws);
    cs_impact_free(imp);
  }
  printf(
      "zeno: largest |omega+/omega- - 0.7| %.3g over 20 impacts; omega after 10 cycles %.6g "
      "(0.49^10 = %.6g)\n",
      worst, v[2] / w0, pow(0.49, 10));
  CHECK(worst < 1e-9);
  CHECK_NEAR(fabs(v[2] / w0), pow(0.49, 10), 1e-12);
  /* at rest: one second of gravity against both corners */
  double zero[3] = {0, 0, 0}, g = cs_impact_model_gravity(mod), f[3] = {0, -1.0 * g, 0}, z[8];
  csImpact* imp = NULL;
  CHECK(cs_impact_new(mod, q, zero, &imp) == CS_OK);
  void* ws = malloc(cs_impact_workspace_bytes(imp));
  CHECK(cs_impact_simultaneous(imp, f, vp, z, ws) == CS_OK);
  printf("zeno: at rest lambda_n = %.12g, %.12g (m g / 2 = %.12g)\n", z[0], z[1], g / 2);
  CHECK_NEAR(z[0], g / 2, 1e-9 * g);
  CHECK_NEAR(z[1], g / 2, 1e-9 * g);
  CHECK(fabs(vp[0]) + fabs(vp[1]) + fabs(vp[2]) < 1e-12);
  free(ws);
  cs_impact_free(imp);
  cs_impact_model_free(mod);
}

static void examples(void) {
  static const char* names[5] = {"box_wall", "rocking_block", "compass_gait", "disk_stack",
                                 "zeno_block"};
  static const int ncontact[5] = {2, 2, 2, 5, 2};
  for (int e = 0; e < 5; e++) {
    char rel[128];
    snprintf(rel, sizeof rel, "models/impact/%s.imp", names[e]);
    csImpactModel* mod = NULL;
    csImpact* imp = NULL;
    CHECK_MSG(cs_impact_model_load(cs_test_source(rel), &mod) == CS_OK, "%s", cs_last_error());
    CHECK(cs_impact_new(mod, NULL, NULL, &imp) == CS_OK);
    if (!imp) continue;
    const csImpactInfo* in = cs_impact_info(imp);
    CHECK_MSG(in->m == ncontact[e], "%s: %d active contacts", names[e], in->m);
    for (int i = 0; i < in->m; i++)
      CHECK_MSG(fabs(in->gap[i]) < 1e-12, "%s gap %g", names[e], in->gap[i]);
    cs_impact_free(imp);
    cs_impact_model_free(mod);
  }
}

static void bad_file(const char* text, csStatus want, const char* where) {
  const char* path = cs_test_write_file("/tmp", "cs_test_impact_bad.imp", text);
  csImpactModel* mod = NULL;
  csStatus s = cs_impact_model_load(path, &mod);
  CHECK_MSG(s == want && !mod && strstr(cs_last_error(), where), "got %d '%s', want %d at '%s'",
            (int)s, cs_last_error(), (int)want, where);
}

static void bad_files(void) {
  const char* ok =
      "link b world 0 0 px py rz\nmass b 1 0.1 0 0\n"
      "contact plane b 0 0 0.5 0 1 0 0 1\n";
  char buf[512];
  snprintf(buf, sizeof buf, "%sq 0 1\nv 0 0 0\n", ok);
  bad_file(buf, CS_ERR_MODEL, "bad.imp:4: q needs 3");
  snprintf(buf, sizeof buf, "%sq 0 1 x\nv 0 0 0\n", ok);
  bad_file(buf, CS_ERR_PARSE, "bad.imp:4: 'x' is not a number");
  snprintf(buf, sizeof buf, "%sfoo 1\n", ok);
  bad_file(buf, CS_ERR_PARSE, "bad.imp:4: unknown statement 'foo'");
  bad_file("link b world 0 0 px py rz\nmass c 1 0.1 0 0\n", CS_ERR_MODEL,
           "bad.imp:2: unknown link 'c'");
  bad_file("link b world 0 0 px qq\n", CS_ERR_PARSE, "bad.imp:1: joint 'qq'");
  bad_file("link b world 0 0 px\nmass b -1 0 0 0\n", CS_ERR_MODEL, "bad.imp:2: mass must be");
  bad_file(ok, CS_ERR_MODEL, "bad.imp:4: end of file: no 'q'");
  snprintf(buf, sizeof buf, "%sq 0 1 0\nv 0 0 0\nh 0\n", ok);
  bad_file(buf, CS_ERR_MODEL, "bad.imp:6: h must be > 0");
  csImpactModel* mod = NULL;
  CHECK(cs_impact_model_load("/nonexistent/x.imp", &mod) == CS_ERR_IO && !mod);
  /* a coordinate that moves no mass: M singular */
  const char* path = cs_test_write_file("/tmp", "cs_test_impact_bad.imp",
                                        "link b world 0 0 px py rz\nmass b 1 0 0 0\n"
                                        "contact plane b 0 0 0 0 1 0 0 1\nq 0 0 0\nv 0 0 0\n");
  CHECK(cs_impact_model_load(path, &mod) == CS_OK);
  csImpact* imp = NULL;
  CHECK(cs_impact_new(mod, NULL, NULL, &imp) == CS_ERR_NUMERIC && !imp);
  cs_impact_model_free(mod);
}

int main(void) {
  zeno();
  examples();
  bad_files();
  return cs_test_finish("test_impact_zeno");
}
