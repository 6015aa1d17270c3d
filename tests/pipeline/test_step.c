/* The step: zero heap allocation over 1000 steps, input validation that leaves the state
   untouched, a NaN produced inside a step rolled back and counted, a free body falling
   exactly as semi-implicit Euler says, determinism. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"
#include "cs_test_models.h"

static long n_alloc = 0;
static void* counting_malloc(size_t n) {
  n_alloc++;
  return malloc(n);
}

static int state_equal(const csModel* m, const csData* a, const double* q, const double* v,
                       double t) {
  return !memcmp(a->qpos, q, sizeof(double) * m->nq) &&
         !memcmp(a->qvel, v, sizeof(double) * m->nv) && a->time == t;
}

static void bad_state(csModel* m) {
  csData* d = cs_data_new(m);
  cs_test_random_state(m, d, 1.0);
  double* q = malloc(sizeof(double) * m->nq);
  double* v = malloc(sizeof(double) * m->nv);
  memcpy(q, d->qpos, sizeof(double) * m->nq);
  memcpy(v, d->qvel, sizeof(double) * m->nv);
  /* NaN in qpos */
  double keep = d->qpos[2];
  d->qpos[2] = NAN;
  CHECK(cs_step(m, d) == CS_ERR_STATE);
  CHECK(strstr(cs_last_error(), "qpos[2]") != NULL);
  d->qpos[2] = keep;
  CHECK(state_equal(m, d, q, v, 0));
  /* Inf in qvel */
  d->qvel[1] = INFINITY;
  CHECK(cs_step(m, d) == CS_ERR_STATE);
  CHECK(strstr(cs_last_error(), "qvel[1]") != NULL);
  d->qvel[1] = v[1];
  /* NaN in qfrc_applied */
  d->qfrc_applied[0] = NAN;
  CHECK(cs_step(m, d) == CS_ERR_STATE);
  CHECK(strstr(cs_last_error(), "qfrc_applied[0]") != NULL);
  d->qfrc_applied[0] = 0;
  CHECK(state_equal(m, d, q, v, 0));
  /* dt <= 0 */
  double dt = m->opt.timestep;
  m->opt.timestep = 0;
  CHECK(cs_step(m, d) == CS_ERR_ARG);
  CHECK(strstr(cs_last_error(), "timestep") != NULL);
  m->opt.timestep = -1e-3;
  CHECK(cs_step(m, d) == CS_ERR_ARG);
  m->opt.timestep = NAN;
  CHECK(cs_step(m, d) == CS_ERR_ARG);
  m->opt.timestep = dt;
  CHECK(state_equal(m, d, q, v, 0));
  /* zero quaternion of the free joint */
  double qq[4];
  memcpy(qq, d->qpos + 3, sizeof qq);
  memset(d->qpos + 3, 0, sizeof qq);
  CHECK(cs_step(m, d) == CS_ERR_STATE);
  memcpy(d->qpos + 3, qq, sizeof qq);
  /* nv mismatch when setting a state */
  CHECK(cs_data_set_state(m, d, q, m->nq - 1, NULL, 0) == CS_ERR_ARG);
  CHECK(strstr(cs_last_error(), "nq") != NULL);
  CHECK(cs_data_set_state(m, d, NULL, 0, v, m->nv + 1) == CS_ERR_ARG);
  CHECK(strstr(cs_last_error(), "nv") != NULL);
  CHECK(state_equal(m, d, q, v, 0));
  CHECK(cs_data_set_state(m, d, q, m->nq, v, m->nv) == CS_OK);
  /* a NaN produced inside the step: huge (finite) velocities overflow the bias forces */
  for (int i = 0; i < m->nv; i++) d->qvel[i] = 1e200;
  memcpy(v, d->qvel, sizeof(double) * m->nv);
  CHECK(cs_step(m, d) == CS_ERR_NUMERIC);
  CHECK(d->warning[CS_WARN_NAN_STEP].count == 1);
  CHECK(state_equal(m, d, q, v, 0));
  CHECK(d->nstep == 0);
  /* and a good step goes through */
  memset(d->qvel, 0, sizeof(double) * m->nv);
  CHECK(cs_step(m, d) == CS_OK);
  CHECK(d->nstep == 1);
  free(q), free(v);
  cs_data_free(d);
}

static void zero_alloc(csModel* m, const char* name) {
  m->memory = cs_data_need(m, m->ncon_max); /* random states make many contacts: room for all */
  csData* d = cs_data_new(m);
  m->memory = 0;
  cs_test_random_state(m, d, 0.5);
  for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.1;
  CHECK(cs_step(m, d) == CS_OK);
  cs_set_allocator(counting_malloc, free);
  n_alloc = 0;
  int ok = 1;
  for (int k = 0; k < 1000; k++) ok &= cs_step(m, d) == CS_OK;
  cs_set_allocator(NULL, NULL);
  CHECK(ok);
  CHECK_MSG(n_alloc == 0, "%s: %ld heap allocations in 1000 steps", name, n_alloc);
  printf("%s: %ld allocations in 1000 steps, arena high-water %zu of %zu bytes\n", name, n_alloc,
         d->maxstack_, d->narena_);
  cs_data_free(d);
}

/* a free body in gravity: semi-implicit Euler gives z_n = z0 - g dt^2 n(n+1)/2 exactly */
static void free_fall(void) {
  csBuilder* b = cs_builder_new();
  csBodySpec s;
  cs_body_spec_default(&s);
  s.name = "ball";
  s.pos[2] = 10;
  s.mass = 2;
  s.inertia[0] = s.inertia[1] = s.inertia[2] = 0.1;
  int id = cs_builder_add_body(b, &s);
  csJointSpec j;
  cs_joint_spec_default(&j);
  j.type = CS_JNT_FREE;
  j.body = id;
  CHECK(cs_builder_add_joint(b, &j) == 0);
  csModel* m = NULL;
  CHECK(cs_compile(b, &m) == CS_OK);
  cs_builder_free(b);
  if (!m) return;
  CHECK(m->nq == 7 && m->nv == 6);
  CHECK(m->qpos0[2] == 10);
  csData* d = cs_data_new(m);
  double dt = m->opt.timestep, g = 9.81;
  for (int n = 1; n <= 500; n++) {
    CHECK(cs_step(m, d) == CS_OK);
    CHECK_NEAR(d->qpos[2], 10 - g * dt * dt * n * (n + 1) / 2.0, 1e-12);
  }
  CHECK_NEAR(d->qvel[2], -g * 500 * dt, 1e-12);
  /* a spinning body keeps |quaternion| = 1 and rotates exactly at the body rate */
  cs_data_reset(m, d);
  m->opt.gravity[2] = 0;
  d->qvel[5] = 2.0; /* about body z: principal axis, constant rate */
  for (int n = 0; n < 1000; n++) cs_step(m, d);
  double ang = 2 * atan2(d->qpos[6], d->qpos[3]);
  CHECK_NEAR(remainder(ang - 2.0, 2 * 3.141592653589793), 0, 1e-12);
  cs_data_free(d);
  cs_model_free(m);
}

static void determinism(csModel* m) {
  csData* a = cs_data_new(m);
  csData* b = cs_data_new(m);
  cs_test_seed(9);
  cs_test_random_state(m, a, 1.0);
  cs_data_set_state(m, b, a->qpos, m->nq, a->qvel, m->nv);
  for (int k = 0; k < 200; k++) {
    cs_step(m, a);
    cs_step(m, b);
  }
  CHECK(!memcmp(a->qpos, b->qpos, sizeof(double) * m->nq));
  cs_data_free(a);
  cs_data_free(b);
}

int main(void) {
  csModel* m = cs_test_random_tree(20, 3);
  CHECK(m != NULL);
  if (!m) return cs_test_finish("test_step");
  bad_state(m);
  zero_alloc(m, "random-tree-20");
  determinism(m);
  cs_model_free(m);
  csModel* p = cs_test_pendulum(5);
  zero_alloc(p, "pendulum-5");
  cs_model_free(p);
  csModel* a = cs_test_load_shared("models/anymal_c/mjcf/scene_collision_only.xml", 1);
  if (a) {
    zero_alloc(a, "anymal_c");
    cs_model_free(a);
  }
  free_fall();
  return cs_test_finish("test_step");
}
