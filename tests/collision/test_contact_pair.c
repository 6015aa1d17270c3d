/* condim per geom and explicit geom pairs (MJCF <contact><pair>), against independent values:
   - a condim-1 geom against a condim-3 geom: the contact has condim 3 and the larger
     friction (MuJoCo's rule at equal priorities), so a box of friction 0.2 on a 0.3 rad
     incline of friction 1 sticks (it would slide with 0.2 < tan 0.3 or with no friction);
   - an explicit pair makes two geoms with contype = conaffinity = 0 collide: a sphere rests
     on a plane at its radius (without the pair it falls through);
   - an explicit pair's friction replaces the geoms' (0.5, enough to stick): a box on a 0.3
     rad incline sticks with pair friction 1 and slides at a = g (sin th - mu cos th) with
     0.1, which also shows the filtered generation does not add the pair a second time;
     pair condim 1: a = g sin th;
   - defaults (<default><pair>), margin and condim 4/6 (loaded as 3 with a note);
   - bad input: a clear error naming file, line and element, or the pair and its source. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"
#include "cs_test_models.h"

static char tmpdir[64];
static const double th = 0.3, g = 9.81;

static csModel* load_text(const char* name, const char* text) {
  return cs_test_load_text(tmpdir, name, text, NULL);
}

/* The load fails with status want and a message naming name:line and containing also. */
static void expect_error(const char* name, const char* text, csStatus want, int line,
                         const char* also) {
  cs_test_expect_load_error(tmpdir, name, text, want, line, also);
}

/* Acceleration of the free body (qvel 0..2) down the incline tilted by th about x, measured
   over 0.4 s after 0.1 s of settling; *ncon: the contacts of the last step. */
static double incline_accel(const csModel* m, int* ncon) {
  csData* d = cs_data_new(m);
  CHECK(d != NULL);
  if (!d) return NAN;
  for (int n = 0; n < 100; n++) cs_step(m, d);
  double dir[3] = {0, -cos(th), -sin(th)};
  double v0 = d->qvel[1] * dir[1] + d->qvel[2] * dir[2], t0 = d->time;
  for (int n = 0; n < 400; n++) CHECK(cs_step(m, d) == CS_OK);
  double v1 = d->qvel[1] * dir[1] + d->qvel[2] * dir[2];
  double a = (v1 - v0) / (d->time - t0);
  *ncon = d->ncon;
  for (int i = 0; i < d->ncon; i++) CHECK(d->contact[i].mu >= 0);
  cs_data_free(d);
  return a;
}

/* ------------------------------------------------------------------ condim 1 against 3 */
static const char* incline_fmt =
    "<mujoco>\n"
    "  <compiler angle=\"radian\"/>\n"
    "  <option timestep=\"0.001\"/>\n"
    "  <worldbody>\n"
    "    <geom name=\"floor\" type=\"plane\" size=\"5 5 0.1\" euler=\"0.3 0 0\" %s/>\n"
    "    <body name=\"box\" pos=\"0 -0.0295520207 0.0955336489\" euler=\"0.3 0 0\"><freejoint/>\n"
    "      <geom name=\"b\" type=\"box\" size=\"0.1 0.1 0.1\" %s/></body>\n"
    "  </worldbody>\n"
    "%s"
    "</mujoco>\n";

static void test_condim_mixed(void) {
  /* box condim 1 friction 0.2, floor condim 3 friction 1, and the other way round */
  const char* attr[2][2] = {{"friction=\"1\"", "condim=\"1\" friction=\"0.2\""},
                            {"condim=\"1\" friction=\"0.2\"", "friction=\"1\""}};
  for (int k = 0; k < 2; k++) {
    char text[2048], name[32];
    snprintf(text, sizeof text, incline_fmt, attr[k][0], attr[k][1], "");
    snprintf(name, sizeof name, "mixed%d.xml", k);
    csModel* m = load_text(name, text);
    if (!m) continue;
    CHECK(m->geom_condim[0] == (k ? 1 : 3) && m->geom_condim[1] == (k ? 3 : 1));
    csData* d = cs_data_new(m);
    CHECK(d != NULL && cs_step(m, d) == CS_OK && d->ncon >= 1);
    for (int i = 0; d && i < d->ncon; i++) CHECK_NEAR(d->contact[i].mu, 1, 0);
    cs_data_free(d);
    int ncon = 0;
    double a = incline_accel(m, &ncon);
    printf("condim 1 %s against condim 3: acceleration down the incline %.3g, contacts %d\n",
           k ? "floor" : "box", a, ncon);
    CHECK_MSG(fabs(a) < 1e-6, "a %.12g (sticks: condim 3, friction 1)", a);
    CHECK(ncon == 4);
    cs_model_free(m);
  }
}

/* ------------------------------------------------------------------ explicit pairs */
static const char* sphere_fmt =
    "<mujoco>\n"
    "  <option timestep=\"0.001\"/>\n"
    "  <default><geom contype=\"0\" conaffinity=\"0\"/></default>\n"
    "  <worldbody>\n"
    "    <geom name=\"floor\" type=\"plane\" size=\"5 5 0.1\"/>\n"
    "    <body name=\"ball\" pos=\"0 0 0.1\"><freejoint/>\n"
    "      <geom name=\"s\" type=\"sphere\" size=\"0.1\"/></body>\n"
    "  </worldbody>\n"
    "%s"
    "</mujoco>\n";

/* A sphere of radius 0.1 with masks 0 released at rest on a plane with masks 0: after 0.5 s
   it rests at z = 0.1 with the pair, and has fallen by g t^2 / 2 without it. */
static void test_pair_masks_zero(void) {
  for (int k = 0; k < 2; k++) {
    char text[2048];
    snprintf(text, sizeof text, sphere_fmt,
             k ? "  <contact><pair geom1=\"s\" geom2=\"floor\"/></contact>\n" : "");
    csModel* m = load_text(k ? "sphere_pair.xml" : "sphere_none.xml", text);
    csData* d = m ? cs_data_new(m) : NULL;
    CHECK(d != NULL);
    if (!d) {
      cs_model_free(m);
      continue;
    }
    CHECK(m->npair == k && m->geom_contype[1] == 0 && m->geom_conaffinity[1] == 0);
    /* masks 0 make a geom visual unless a pair collides it */
    CHECK(m->geom_visual[0] == !k && m->geom_visual[1] == !k && m->ngeomvisual == 2 * !k);
    for (int n = 0; n < 500; n++) CHECK(cs_step(m, d) == CS_OK);
    double z = d->qpos[2];
    printf("sphere on a plane, masks 0, %s pair: z after 0.5 s %.12g, contacts %d\n",
           k ? "with a" : "no", z, d->ncon);
    if (k) {
      CHECK_MSG(fabs(z - 0.1) < 1e-6, "z %.12g", z);
      CHECK(d->ncon == 1);
      if (d->ncon == 1) CHECK(d->contact[0].geom[0] == 0 && d->contact[0].geom[1] == 1);
      CHECK_NEAR(d->contact[0].mu, 1, 0); /* the pair's default friction */
    } else {
      /* semi-implicit Euler from rest: z = z0 - g dt^2 n (n + 1) / 2 */
      double dt = m->opt.timestep, want = 0.1 - g * dt * dt * 500 * 501 / 2;
      CHECK_MSG(fabs(z - want) < 1e-9, "z %.12g, want %.12g", z, want);
      CHECK(d->ncon == 0);
    }
    cs_data_free(d);
    cs_model_free(m);
  }
}

/* A box on a 0.3 rad incline whose geoms have friction 0.5 (> tan 0.3: they alone would
   stick) and an explicit pair of friction mu (condim cd): mu 1 sticks, mu 0.1 slides at
   g (sin th - mu cos th), condim 1 at g sin th. */
static void test_pair_friction(void) {
  struct {
    double mu;
    int condim;
  } cases[3] = {{1, 3}, {0.1, 3}, {0.1, 1}};
  for (int k = 0; k < 3; k++) {
    char pair[256], text[2048], name[32];
    snprintf(pair, sizeof pair,
             "  <contact><pair geom1=\"floor\" geom2=\"b\" friction=\"%g %g\" condim=\"%d\"/>"
             "</contact>\n",
             cases[k].mu, cases[k].mu, cases[k].condim);
    snprintf(text, sizeof text, incline_fmt, "friction=\"0.5\"", "friction=\"0.5\"", pair);
    snprintf(name, sizeof name, "pair_incline%d.xml", k);
    csModel* m = load_text(name, text);
    if (!m) continue;
    CHECK(m->npair == 1 && m->pair_geom[0] == 0 && m->pair_geom[1] == 1);
    CHECK_NEAR(m->pair_friction[0], cases[k].mu, 0);
    CHECK(m->pair_condim[0] == cases[k].condim);
    int ncon = 0;
    double mu = cases[k].condim == 1 ? 0 : cases[k].mu;
    double want = mu > tan(th) ? 0 : g * (sin(th) - mu * cos(th));
    /* Lemke solves the Coulomb problem exactly; the default bisection solver is shown too
       (its sliding friction is within 1e-3 of Coulomb's) */
    double a_bis = incline_accel(m, &ncon);
    m->opt.solver = CS_SOLVER_LEMKE;
    double a = incline_accel(m, &ncon);
    printf(
        "pair friction %g condim %d: acceleration down the incline %.12g (lemke; bisection "
        "%.12g; want %.12g, difference %.2g), contacts %d\n",
        cases[k].mu, cases[k].condim, a, a_bis, want, a - want, ncon);
    CHECK_MSG(fabs(a - want) < 1e-6 * g, "a %.12g want %.12g", a, want);
    CHECK_MSG(fabs(a_bis - want) < 1e-3 * g, "a %.12g want %.12g", a_bis, want);
    CHECK(ncon == 4); /* the pair once: not also from contype/conaffinity */
    cs_model_free(m);
  }
}

/* <default><pair>, margin, and condim 6 loaded as 3 with a note */
static void test_pair_attributes(void) {
  char text[2048];
  snprintf(text, sizeof text, sphere_fmt,
           "  <default><pair friction=\"0.25 0.25\" margin=\"0.01\"/></default>\n"
           "  <contact><pair name=\"p\" geom1=\"floor\" geom2=\"s\" condim=\"6\"/></contact>\n");
  csModel* m = load_text("pair_defaults.xml", text);
  if (!m) return;
  CHECK(m->npair == 1);
  CHECK_NEAR(m->pair_friction[0], 0.25, 0);
  CHECK_NEAR(m->pair_margin[0], 0.01, 0);
  CHECK(m->pair_condim[0] == 3);
  CHECK_MSG(strstr(m->notes, "pair_defaults.xml:10: <pair> attribute 'condim'") != NULL, "%s",
            m->notes);
  cs_model_free(m);
}

/* ------------------------------------------------------------------ bad input */
static void test_bad_input(void) {
  static const struct {
    const char* pair;
    csStatus st;
    int line;
    const char* also;
  } bad[] = {
      {"<pair geom1=\"s\" geom2=\"nope\"/>", CS_ERR_MODEL, 9, "geom2=\"nope\">: unknown geom"},
      {"<pair geom1=\"s\"/>", CS_ERR_PARSE, 9, "missing attribute 'geom2'"},
      {"<pair geom1=\"s\" geom2=\"s\"/>", CS_ERR_MODEL, 9, "same geom"},
      {"<pair geom1=\"s\" geom2=\"floor\" friction=\"-1\"/>", CS_ERR_MODEL, 9, "friction"},
      {"<pair geom1=\"s\" geom2=\"floor\" margin=\"-0.1\"/>", CS_ERR_MODEL, 9, "margin"},
      {"<pair geom1=\"s\" geom2=\"floor\" condim=\"2\"/>", CS_ERR_PARSE, 9, "condim must be"},
      {"<pair geom1=\"s\" geom2=\"floor\" condim=\"5\"/>", CS_ERR_PARSE, 9, "condim must be"},
      {"<pair geom1=\"s\" geom2=\"floor\"/><pair geom1=\"floor\" geom2=\"s\"/>", CS_ERR_MODEL, 9,
       "paired twice"},
      {"<pair geom1=\"s\" geom2=\"s2\"/>", CS_ERR_MODEL, 9, "one body 'ball'"},
      {"<pair geom1=\"floor\" geom2=\"wall\"/>", CS_ERR_MODEL, 9, "one body 'world'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[2048], name[32];
    snprintf(text, sizeof text,
             "<mujoco>\n"
             "  <worldbody>\n"
             "    <geom name=\"floor\" type=\"plane\" size=\"5 5 0.1\"/>\n"
             "    <geom name=\"wall\" type=\"box\" size=\"0.1 0.1 0.1\" pos=\"3 0 0\"/>\n"
             "    <body name=\"ball\" pos=\"0 0 0.1\"><freejoint/>\n"
             "      <geom name=\"s\" type=\"sphere\" size=\"0.1\"/>\n"
             "      <geom name=\"s2\" type=\"sphere\" size=\"0.1\" pos=\"0.1 0 0\"/></body>\n"
             "  </worldbody>\n"
             "  <contact>%s</contact>\n"
             "</mujoco>\n",
             bad[i].pair);
    snprintf(name, sizeof name, "bad_pair%zu.xml", i);
    expect_error(name, text, bad[i].st, bad[i].line, bad[i].also);
  }
  /* the builder: numbers and names checked when added, geoms when compiled */
  csBuilder* b = cs_builder_new();
  csPairSpec p;
  cs_pair_spec_default(&p);
  CHECK(p.friction == 1 && p.condim == 3 && p.margin == 0);
  p.geom1 = "a", p.geom2 = "b", p.source = "here.xml:3", p.condim = 4;
  CHECK(cs_builder_add_pair(b, &p) == -1);
  CHECK_MSG(strstr(cs_last_error(), "here.xml:3") && strstr(cs_last_error(), "condim 4"), "%s",
            cs_last_error());
  p.condim = 3, p.friction = NAN;
  CHECK(cs_builder_add_pair(b, &p) == -1);
  p.friction = 1, p.geom2 = NULL;
  CHECK(cs_builder_add_pair(b, &p) == -1);
  p.geom2 = "b";
  CHECK(cs_builder_add_pair(b, &p) == 0);
  csGeomSpec gs;
  cs_geom_spec_default(&gs);
  CHECK(gs.condim == 3);
  gs.type = CS_GEOM_PLANE, gs.name = "a", gs.condim = 2;
  CHECK(cs_builder_add_geom(b, &gs) == -1);
  CHECK_MSG(strstr(cs_last_error(), "condim 2"), "%s", cs_last_error());
  gs.condim = 0; /* 0: the default, 3 */
  CHECK(cs_builder_add_geom(b, &gs) == 0);
  csModel* m = NULL;
  CHECK(cs_compile(b, &m) == CS_ERR_MODEL && m == NULL);
  CHECK_MSG(strstr(cs_last_error(), "here.xml:3") && strstr(cs_last_error(), "unknown geom 'b'"),
            "%s", cs_last_error());
  cs_builder_free(b);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cs_test_pair_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    fprintf(stderr, "mkdtemp failed\n");
    return 1;
  }
  test_condim_mixed();
  test_pair_masks_zero();
  test_pair_friction();
  test_pair_attributes();
  test_bad_input();
  return cs_test_finish("test_contact_pair");
}
