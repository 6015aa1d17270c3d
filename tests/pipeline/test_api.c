#define _DEFAULT_SOURCE /* mkdtemp */
/* The API of a controls or learning user (docs/api.md): cs_step1 + cs_step2 = cs_step bit for
   bit (trot, pile) and a control set between them acts; cs_forward_full gives the impulses the next
   step uses and leaves the state and warm start as they were; xfrc_applied = J^T wrench
   through qfrc_applied; contact forces in newtons (m g on a plane, m g sin(theta) on an
   incline); the full state continues bit for bit in a fresh csData; the runtime version; model
   fields changed between steps act; finite-difference A, B of a pendulum = the analytic
   linearisation of the step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_scene.h"
#include "cs_test.h"
#include "cs_test_models.h"

static char tmpdir[64];

static csModel* load_text(const char* name, const char* text) {
  return cs_test_load_text_fixed(tmpdir, name, text); /* a URDF's base welded to the world */
}

static int same_state(const csModel* m, const csData* a, const csData* b, double* s1, double* s2) {
  cs_get_state(m, a, s1);
  cs_get_state(m, b, s2);
  return !memcmp(s1, s2, sizeof(double) * (size_t)cs_state_size(m));
}

/* ---------------------------------------------------------------- step1/step2, forward */
static void split_and_forward(const char* scene, int steps) {
  csScene s[3];
  for (int k = 0; k < 3; k++)
    CHECK(cs_scene_load(scene, cs_test_source("models"), NAN, s + k) == CS_OK);
  if (!s[0].m || !s[1].m || !s[2].m) return;
  const csModel* m = s[0].m;
  int ns = cs_state_size(m), equal = 1, fwd_lambda = 1, fwd_twice = 1;
  double *s1 = malloc(sizeof(double) * ns), *s2 = malloc(sizeof(double) * ns);
  double* lam = malloc(sizeof(double) * 3 * m->ncon_max);
  long ncon = 0;
  for (int k = 0; k < steps; k++) {
    for (int j = 0; j < 3; j++) cs_scene_control(s + j, s[j].m, s[j].d);
    csData *a = s[0].d, *b = s[1].d, *c = s[2].d;
    CHECK(cs_forward_full(m, c) == CS_OK);
    for (int i = 0; i < c->ncon; i++) memcpy(lam + 3 * i, c->contact[i].lambda, 3 * sizeof(double));
    int nc = c->ncon;
    if (k % 50 == 7) { /* a second forward: the same contacts and impulses, the same state */
      cs_get_state(m, c, s1);
      CHECK(cs_forward_full(m, c) == CS_OK);
      cs_get_state(m, c, s2);
      fwd_twice &= !memcmp(s1, s2, sizeof(double) * ns) && c->ncon == nc;
      for (int i = 0; i < nc && i < c->ncon; i++)
        fwd_twice &= !memcmp(lam + 3 * i, c->contact[i].lambda, 3 * sizeof(double));
    }
    CHECK(cs_step(m, a) == CS_OK);
    CHECK(cs_step1(m, b) == CS_OK);
    CHECK(cs_step2(m, b) == CS_OK);
    CHECK(cs_step(m, c) == CS_OK);
    fwd_lambda &= a->ncon == nc;
    for (int i = 0; i < nc && i < a->ncon; i++)
      fwd_lambda &= !memcmp(lam + 3 * i, a->contact[i].lambda, 3 * sizeof(double));
    equal &= same_state(m, a, b, s1, s2) && same_state(m, a, c, s1, s2);
    ncon += a->ncon;
  }
  printf(
      "%s: %d steps, %ld contacts: step1+step2 and forward+step %s cs_step; forward's "
      "impulses %s the step's; forward twice %s\n",
      scene, steps, ncon,
      equal ? "=" : "!=", fwd_lambda ? "=" : "!=", fwd_twice ? "identical" : "differs");
  CHECK(ncon > 0);
  CHECK(equal);
  CHECK(fwd_lambda);
  CHECK(fwd_twice);
  /* a control set between the halves acts as if set before cs_step */
  csData *a = s[0].d, *b = s[1].d;
  int dof = m->nv - 1;
  CHECK(cs_step1(m, b) == CS_OK);
  b->qfrc_applied[dof] += 3.0;
  CHECK(cs_step2(m, b) == CS_OK);
  a->qfrc_applied[dof] += 3.0;
  CHECK(cs_step(m, a) == CS_OK);
  CHECK(same_state(m, a, b, s1, s2));
  CHECK(a->qvel[dof] != s[2].d->qvel[dof] || (cs_step(m, s[2].d), 1));
  free(s1), free(s2), free(lam);
  for (int k = 0; k < 3; k++) cs_scene_free(s + k);
}

/* ---------------------------------------------------------------- state save / restore */
static void state_restore(void) {
  csScene s;
  CHECK(cs_scene_load("trot", cs_test_source("models"), NAN, &s) == CS_OK);
  if (!s.m) return;
  const csModel* m = s.m;
  int ns = cs_state_size(m);
  double *x300 = malloc(sizeof(double) * ns), *x500 = malloc(sizeof(double) * ns);
  double* y500 = malloc(sizeof(double) * ns);
  for (int k = 0; k < 300; k++) cs_scene_control(&s, m, s.d), cs_step(m, s.d);
  cs_get_state(m, s.d, x300);
  csSceneCtl ctl = s.ctl;
  for (int k = 0; k < 200; k++) cs_scene_control(&s, m, s.d), cs_step(m, s.d);
  cs_get_state(m, s.d, x500);
  csData* f = cs_data_new(m);
  CHECK(cs_set_state(m, f, x300) == CS_OK);
  s.ctl = ctl;
  for (int k = 0; k < 200; k++) cs_scene_control(&s, m, f), cs_step(m, f);
  cs_get_state(m, f, y500);
  CHECK(!memcmp(x500, y500, sizeof(double) * ns));
  CHECK(!memcmp(f->qpos, s.d->qpos, sizeof(double) * m->nq));
  printf("state: %d doubles; restored at step 300 of trot, 200 steps: %s\n", ns,
         memcmp(x500, y500, sizeof(double) * ns) ? "differs" : "bit-identical");
  /* bad input names what and where, d unchanged */
  x300[1 + m->nq + 2] = NAN;
  CHECK(cs_set_state(m, f, x300) == CS_ERR_STATE);
  CHECK(strstr(cs_last_error(), "qvel[2]") != NULL);
  cs_get_state(m, f, x300);
  CHECK(!memcmp(x300, y500, sizeof(double) * ns));
  cs_data_free(f);
  free(x300), free(x500), free(y500);
  cs_scene_free(&s);
}

/* ---------------------------------------------------------------- xfrc_applied */
static void xfrc_one(csModel* m, int body, const char* what) {
  csData *a = cs_data_new(m), *b = cs_data_new(m);
  cs_test_seed(3);
  cs_test_random_state(m, a, 1.0);
  cs_data_set_state(m, b, a->qpos, m->nq, a->qvel, m->nv);
  double w[6] = {1.5, -2.0, 0.7, 0.3, -0.4, 0.9};
  memcpy(a->xfrc_applied + 6 * body, w, sizeof w);
  cs_kinematics(m, b);
  int nv = m->nv;
  double *jp = malloc(sizeof(double) * 3 * nv), *jr = malloc(sizeof(double) * 3 * nv);
  cs_jac(m, b, jp, jr, b->xipos + 3 * body, body);
  for (int i = 0; i < nv; i++)
    for (int k = 0; k < 3; k++)
      b->qfrc_applied[i] += jp[k * nv + i] * w[k] + jr[k * nv + i] * w[3 + k];
  CHECK(cs_step(m, a) == CS_OK && cs_step(m, b) == CS_OK);
  double err = 0;
  for (int i = 0; i < nv; i++) err = fmax(err, fabs(a->qvel[i] - b->qvel[i]));
  printf("xfrc_applied on %s: max |qvel - qvel(J^T wrench)| = %.2e\n", what, err);
  CHECK(err <= 1e-12);
  a->xfrc_applied[6 * body + 2] = INFINITY;
  CHECK(cs_step(m, a) == CS_ERR_STATE && strstr(cs_last_error(), "xfrc_applied") != NULL);
  free(jp), free(jr);
  cs_data_free(a), cs_data_free(b);
}

static void xfrc(void) {
  csModel* m = load_text("free.xml",
                         "<mujoco><worldbody><body name=\"b\" pos=\"0 0 1\"><freejoint/>"
                         "<geom type=\"box\" size=\"0.1 0.2 0.3\" pos=\"0.05 0 0\" "
                         "contype=\"0\" conaffinity=\"0\"/></body></worldbody></mujoco>");
  if (m) xfrc_one(m, 1, "a free body"), cs_model_free(m);
  m = cs_test_pendulum(4);
  if (m) xfrc_one(m, 3, "link 3 of a 4-link chain"), cs_model_free(m);
}

/* ---------------------------------------------------------------- contact forces */
/* A 2 kg box of 0.2 m resting on a plane tilted by th about x (friction 1, dt 1 ms) */
static csModel* incline_box(const char* name, double th) {
  char text[1024];
  snprintf(text, sizeof text,
           "<mujoco><compiler angle=\"radian\"/><option timestep=\"0.001\"/><worldbody>"
           "<geom type=\"plane\" size=\"5 5 0.1\" euler=\"%.17g 0 0\"/>"
           "<body name=\"box\" pos=\"0 %.17g %.17g\" euler=\"%.17g 0 0\"><freejoint/>"
           "<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"2\"/></body></worldbody></mujoco>",
           th, -0.1 * sin(th), 0.1 * cos(th), th);
  return load_text(name, text);
}

/* A 2 kg box on a plane tilted by th about x (mu = 1 > tan th), settled: the summed contact
   force is m g (its normal part m g cos th, tangential m g sin th) */
static void contact_forces(double th) {
  csModel* m = incline_box("incline.xml", th);
  if (!m) return;
  m->opt.tolerance = 1e-12;
  csData* d = cs_data_new(m);
  for (int k = 0; k < 3000; k++) cs_step(m, d);
  double F[3] = {0, 0, 0}, f[6], mg = 2 * 9.81;
  int body[2], ok = d->ncon == 4;
  for (int i = 0; i < d->ncon; i++) {
    CHECK(cs_contact_force(m, d, i, f, body) == CS_OK);
    ok &= body[0] == 0 && body[1] == 1 && f[3] == 0;
    for (int k = 0; k < 3; k++) F[k] += f[k];
  }
  CHECK(ok);
  CHECK(cs_contact_force(m, d, d->ncon, f, NULL) == CS_ERR_ARG);
  double n[3] = {0, -sin(th), cos(th)}, fn = F[0] * n[0] + F[1] * n[1] + F[2] * n[2];
  double ft = sqrt(fmax(0, F[0] * F[0] + F[1] * F[1] + F[2] * F[2] - fn * fn));
  /* the momentum balance of the step: m qacc = F - m g e_z, exact up to rounding */
  CHECK_NEAR(F[2], 2 * (d->qacc[2] + 9.81), 1e-12 * mg);
  printf(
      "box on a plane at %.2f rad: %d contacts, normal %.12g N (m g cos = %.12g), "
      "friction %.12g N (m g sin = %.12g), |v| = %.1e\n",
      th, d->ncon, fn, mg * cos(th), ft, mg * sin(th), fabs(d->qvel[1]) + fabs(d->qvel[2]));
  CHECK_NEAR(fn, mg * cos(th), 1e-9 * mg);
  CHECK_NEAR(ft, mg * sin(th), 1e-9 * mg);
  cs_data_free(d);
  cs_model_free(m);
}

/* ---------------------------------------------------------------- version */
static void version(void) {
  const char* v = cs_version_string();
  int a = -1, b = -1, c = -1;
  CHECK(sscanf(v, "%d.%d.%d", &a, &b, &c) == 3);
  CHECK(cs_version() == 10000 * a + 100 * b + c);
  CHECK(!strcmp(v, CS_VERSION_STRING));
  FILE* f = fopen(cs_test_source("CMakeLists.txt"), "r");
  char line[256], want[64] = "";
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "project(contactsim VERSION %63s", want) == 1) break;
  if (f) fclose(f);
  CHECK_MSG(!strcmp(v, want), "cs_version_string %s, CMakeLists.txt %s", v, want);
  printf("version %s = %d\n", v, cs_version());
}

/* ---------------------------------------------------------------- model fields between steps */
static void domain_randomisation(void) {
  /* a box on a 0.3 rad incline sticks with mu = 1; with mu = 0.1 set between steps it slides
     with a = g (sin th - 0.1 cos th); its mass doubled: the same acceleration, twice the force */
  double th = 0.3, g = 9.81;
  csModel* m = incline_box("dr.xml", th);
  if (!m) return;
  m->opt.tolerance = 1e-12;
  csData* d = cs_data_new(m);
  for (int k = 0; k < 500; k++) cs_step(m, d);
  double v0 = sqrt(d->qvel[1] * d->qvel[1] + d->qvel[2] * d->qvel[2]);
  CHECK(v0 < 1e-6);
  for (int i = 0; i < m->ngeom; i++) m->geom_friction[i] = 0.1;
  for (int k = 0; k < 500; k++) cs_step(m, d);
  double v1 = sqrt(d->qvel[1] * d->qvel[1] + d->qvel[2] * d->qvel[2]);
  double a = g * (sin(th) - 0.1 * cos(th));
  printf("friction 1 -> 0.1: speed after 0.5 s %.6g m/s (a t = %.6g)\n", v1, a * 0.5);
  CHECK(fabs(v1 - a * 0.5) < 1e-2 * a * 0.5);
  /* a free body pushed up by 30 N: a = 30 / m - g, m changed between steps */
  csModel* f = load_text("mass.xml",
                         "<mujoco><worldbody><body name=\"b\" pos=\"0 0 1\"><freejoint/>"
                         "<geom type=\"sphere\" size=\"0.1\" mass=\"2\" contype=\"0\" "
                         "conaffinity=\"0\"/></body></worldbody></mujoco>");
  if (f) {
    csData* e = cs_data_new(f);
    e->qfrc_applied[2] = 30;
    cs_step(f, e);
    CHECK_NEAR(e->qacc[2], 30 / 2.0 - g, 1e-9);
    f->body_mass[1] = 3;
    cs_step(f, e);
    CHECK_NEAR(e->qacc[2], 30 / 3.0 - g, 1e-9);
    cs_data_free(e);
    cs_model_free(f);
  }
  cs_data_free(d);
  cs_model_free(m);
}

/* ---------------------------------------------------------------- derivatives */
static void derivatives(void) {
  csModel* m = load_text("pend.xml",
                         "<mujoco><option timestep=\"0.01\"/><worldbody><body name=\"p\">"
                         "<joint name=\"j\" type=\"hinge\" axis=\"0 1 0\"/>"
                         "<inertial pos=\"0 0 -0.5\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/>"
                         "</body></worldbody><actuator><motor joint=\"j\" gear=\"1\"/></actuator>"
                         "</mujoco>");
  if (!m) return;
  csData* d = cs_data_new(m);
  d->qpos[0] = 0.3, d->qvel[0] = 0.2, d->ctrl[0] = 0.1;
  double dt = 0.01, M = 0.01 + 0.25, mgl = 9.81 * 0.5, c = cos(0.3);
  double Aw[4] = {1 - dt * dt * mgl * c / M, dt, -dt * mgl * c / M, 1},
         Bw[2] = {dt * dt / M, dt / M};
  double A[4], B[2], Af[4], Bf[2];
  CHECK(cs_transition_fd(m, d, 1e-6, 1, A, B) == CS_OK);
  CHECK(cs_transition_fd(m, d, 1e-6, 0, Af, Bf) == CS_OK);
  double e = 0, ef = 0;
  for (int i = 0; i < 4; i++) e = fmax(e, fabs(A[i] - Aw[i])), ef = fmax(ef, fabs(Af[i] - A[i]));
  for (int i = 0; i < 2; i++) e = fmax(e, fabs(B[i] - Bw[i])), ef = fmax(ef, fabs(Bf[i] - B[i]));
  printf("pendulum: |A, B - analytic| = %.2e (centered), |forward - centered| = %.2e\n", e, ef);
  CHECK(e <= 1e-6);
  CHECK(ef <= 1e-5);
  CHECK(d->qpos[0] == 0.3 && d->qvel[0] == 0.2 && d->nstep == 0);
  CHECK(cs_transition_fd(m, d, 0, 1, A, B) == CS_ERR_ARG);
  cs_data_free(d);
  cs_model_free(m);
  /* a free body at rest in gravity: A = [I dt I; 0 I] in the tangent space */
  m = load_text("fb.xml",
                "<mujoco><option timestep=\"0.01\"/><worldbody><body name=\"b\" "
                "quat=\"0.8 0.36 0.48 0\"><freejoint/><geom type=\"box\" "
                "size=\"0.1 0.2 0.3\" contype=\"0\" conaffinity=\"0\"/></body>"
                "</worldbody></mujoco>");
  if (!m) return;
  d = cs_data_new(m);
  double A12[144];
  CHECK(cs_transition_fd(m, d, 1e-6, 1, A12, NULL) == CS_OK);
  e = 0;
  for (int r = 0; r < 12; r++)
    for (int k = 0; k < 12; k++)
      e = fmax(e, fabs(A12[12 * r + k] - (r == k ? 1 : (k == r + 6 ? 0.01 : 0))));
  printf("free body: |A - [I dt I; 0 I]| = %.2e\n", e);
  CHECK(e <= 1e-6);
  cs_data_free(d);
  cs_model_free(m);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cs_test_api_XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  split_and_forward("trot", 500);
  split_and_forward("pile", 500);
  state_restore();
  xfrc();
  contact_forces(0);
  contact_forces(0.2);
  version();
  domain_randomisation();
  derivatives();
  return cs_test_finish("test_api");
}
