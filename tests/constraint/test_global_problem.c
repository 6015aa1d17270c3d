/* The global form of a step's contact problem (cs_global_from_data): M = A the matrix the
   step factors (M + dt D with implicit damping), H = J^T, f = A v_free, w = g - J v_free.
   On a box resting on the plane (builder API), ANYmal C at rest and trotting in the drop
   and trot scenes (a floating base with joint damping: the paths of the contact problem),
   and a cube on a cube (stack_ratio: a contact between two bodies, the general path):
   - cs_global_condense reproduces the step's G and g to 1e-10 relative;
   - cs_global_velocity of the step's lambda is the step's new velocity to 1e-10 (relative
     to the larger of |v+| and |v_free|, the velocities the update sums);
   - the stored solution: r = lambda, v = qvel, u = H^T v + w = G lambda + g;
   - the FCLIB round trip (with libfclib) gives back M, H, f, w, mu, r, v bit for bit;
   - a step with blocks besides contacts (friction loss) is CS_ERR_UNSUPPORTED naming
     them, a step without contacts CS_ERR_ARG. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_scene.h"
#include "cs_test.h"

static double amax(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s = fmax(s, fabs(x[i]));
  return s;
}

static int same_doubles(const double* a, const double* b, size_t n) {
  return (!a && !b) || (a && b && memcmp(a, b, n * sizeof(double)) == 0);
}

static int same_sparse(const csSparseMatrix* A, const csSparseMatrix* B) {
  if (A->m != B->m || A->n != B->n || memcmp(A->colptr, B->colptr, (A->n + 1) * sizeof(int)))
    return 0;
  int nnz = A->colptr[A->n];
  return !memcmp(A->rowind, B->rowind, nnz * sizeof(int)) && same_doubles(A->val, B->val, nnz);
}

/* Write g with its solution and read it back: every array bit for bit */
static void round_trip(const csGlobalProblem* g, const char* what) {
  if (!cs_have_fclib()) return;
  char dir[] = "/tmp/cs_global_problem_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK_MSG(0, "mkdtemp failed");
    return;
  }
  char path[64];
  snprintf(path, sizeof path, "%s/step.hdf5", dir);
  csGlobalProblem* b = NULL;
  csStatus st = cs_fclib_write_global(path, g, g->r, g->v, what);
  CHECK_MSG(st == CS_OK, "%s: write: %s", what, cs_last_error());
  if (!st) st = cs_fclib_read_global(path, &b);
  CHECK_MSG(st == CS_OK, "%s: read back: %s", what, cs_last_error());
  if (b) {
    const size_t n = (size_t)g->n, m = 3 * (size_t)g->nc;
    CHECK_MSG(b->n == g->n && b->nc == g->nc, "%s: sizes read back", what);
    CHECK_MSG(same_sparse(&b->M, &g->M) && same_sparse(&b->H, &g->H), "%s: M, H read back", what);
    CHECK_MSG(same_doubles(b->f, g->f, n) && same_doubles(b->w, g->w, m) &&
                  same_doubles(b->mu, g->mu, (size_t)g->nc),
              "%s: f, w, mu read back", what);
    CHECK_MSG(
        same_doubles(b->r, g->r, m) && same_doubles(b->v, g->v, n) && same_doubles(b->u, g->u, m),
        "%s: r, v, u read back", what);
  }
  cs_global_problem_free(b);
  unlink(path);
  rmdir(dir);
}

/* The global form of (m, d)'s last step against the step's own G, g and v+ */
static void check_step(const csModel* m, const csData* d, const char* what) {
  csGlobalProblem* g = NULL;
  csStatus st = cs_global_from_data(m, d, &g);
  CHECK_MSG(st == CS_OK, "%s: cs_global_from_data: %s", what, cs_last_error());
  if (!g) return;
  const int nv = m->nv, nc = d->problem.nc, nr = 3 * nc;
  int jnz = 0;
  if (d->efc_J) {
    for (int e = 0; e < nr * nv; e++) jnz += d->efc_J[e] != 0;
  } else { /* stored by islands: the contacts' sparse rows */
    for (int e = 0; e < 3 * d->efc_Jadr[nc]; e++) jnz += d->efc_Jval[e] != 0;
  }
  CHECK_MSG(g->n == nv && g->nc == nc && g->H.colptr[nr] == jnz, "%s: sizes", what);
  double* G = malloc(sizeof(double) * (size_t)nr * (size_t)nr);
  if (!G) {
    cs_global_problem_free(g);
    return;
  }
  cs_problem_dense_G(&d->problem, G);
  csOwnedProblem* o = NULL;
  st = cs_global_condense(g, &o);
  CHECK_MSG(st == CS_OK, "%s: condense: %s", what, cs_last_error());
  double eG = INFINITY, eg = INFINITY, ev = INFINITY, eu = INFINITY;
  if (o) {
    eG = cs_test_relerr(o->G, G, nr * nr, 0);
    eg = cs_test_relerr(o->g, d->problem.g, nr, 0);
    CHECK_MSG(eG <= 1e-10 && eg <= 1e-10, "%s: condensed G, g off by %.3g, %.3g relative", what, eG,
              eg);
    CHECK_MSG(!o->p.asym && same_doubles(o->lambda, d->efc_lambda, (size_t)nr),
              "%s: W symmetric, lambda the step's", what);
  }
  double* v = malloc(sizeof(double) * (size_t)nv);
  double* u = malloc(sizeof(double) * (size_t)nr);
  st = cs_global_velocity(g, d->efc_lambda, v);
  CHECK_MSG(st == CS_OK, "%s: velocity: %s", what, cs_last_error());
  double vs = fmax(amax(d->qvel, nv), amax(d->qvel_free, nv));
  ev = cs_test_relerr(v, d->qvel, nv, vs);
  CHECK_MSG(ev <= 1e-10, "%s: v = M^-1 (H lambda + f) off the step's v+ by %.3g relative", what,
            ev);
  /* u = H^T v+ + w against G lambda + g */
  for (int a = 0; a < nr; a++) {
    double s = d->problem.g[a];
    for (int b = 0; b < nr; b++) s += G[a * nr + b] * d->efc_lambda[b];
    u[a] = s;
  }
  eu = cs_test_relerr(g->u, u, nr, amax(d->problem.g, nr));
  CHECK_MSG(eu <= 1e-10, "%s: u = H^T v + w off G lambda + g by %.3g relative", what, eu);
  CHECK_MSG(same_doubles(g->v, d->qvel, (size_t)nv) && same_doubles(g->r, d->efc_lambda, nr),
            "%s: stored solution", what);
  printf(
      "%-22s nv %2d nc %2d  nnz M %4d H %4d  G %.2e g %.2e v %.2e u %.2e  its global error %.2e\n",
      what, nv, nc, g->M.colptr[nv], jnz, eG, eg, ev, eu, cs_global_error(g, g->r, g->v, NULL));
  round_trip(g, what);
  free(v), free(u), free(G);
  cs_problem_free(o);
  cs_global_problem_free(g);
}

/* A plane and a 0.2 m box (1 kg, mu 0.8) on a free joint with the given friction loss */
static csModel* box_on_plane(double frictionloss) {
  csBuilder* b = cs_builder_new();
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.type = CS_GEOM_PLANE, g.friction = 0.8, g.name = "floor";
  cs_builder_add_geom(b, &g);
  csBodySpec bs;
  cs_body_spec_default(&bs);
  bs.name = "box", bs.mass = 1, bs.pos[2] = 0.1;
  bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 0.02 / 3;
  int body = cs_builder_add_body(b, &bs);
  csJointSpec js;
  cs_joint_spec_default(&js);
  js.body = body, js.type = CS_JNT_FREE, js.name = "free", js.frictionloss = frictionloss;
  cs_builder_add_joint(b, &js);
  cs_geom_spec_default(&g);
  g.body = body, g.type = CS_GEOM_BOX, g.friction = 0.8, g.name = "box";
  g.size[0] = g.size[1] = g.size[2] = 0.1;
  cs_builder_add_geom(b, &g);
  csModel* m = NULL;
  if (cs_compile(b, &m) != CS_OK) fprintf(stderr, "compile: %s\n", cs_last_error());
  cs_builder_free(b);
  return m;
}

static void box_resting(void) {
  csModel* m = box_on_plane(0);
  if (!m) return;
  csData* d = cs_data_new(m);
  for (int k = 0; k < 200; k++) cs_step(m, d);
  CHECK_MSG(d->problem.nc == 4, "box: %d contacts at rest", d->problem.nc);
  check_step(m, d, "box on the plane");
  d->qvel[0] = 0.5, d->qvel[5] = 1.0; /* sliding and spinning */
  cs_step(m, d);
  check_step(m, d, "box sliding");
  cs_data_free(d);
  cs_model_free(m);
}

/* Blocks besides the contacts: CS_ERR_UNSUPPORTED naming them; no contact: CS_ERR_ARG */
static void refused(void) {
  csModel* m = box_on_plane(0.1);
  if (!m) return;
  csData* d = cs_data_new(m);
  csGlobalProblem* g = NULL;
  for (int k = 0; k < 50; k++) cs_step(m, d);
  CHECK_MSG(d->problem.nblock > 0, "friction loss: no blocks");
  csStatus st = cs_global_from_data(m, d, &g);
  CHECK_MSG(st == CS_ERR_UNSUPPORTED && !g && strstr(cs_last_error(), "friction loss of dof 0"),
            "blocks: %s", cs_last_error());
  cs_model_free(m);
  cs_data_free(d);
  m = box_on_plane(0);
  d = cs_data_new(m);
  d->qpos[2] = 1; /* in the air */
  cs_step(m, d);
  st = cs_global_from_data(m, d, &g);
  CHECK_MSG(st == CS_ERR_ARG && !g && strstr(cs_last_error(), "no contacts"), "no contact: %s",
            cs_last_error());
  CHECK(cs_global_from_data(NULL, d, &g) == CS_ERR_ARG);
  cs_data_free(d);
  cs_model_free(m);
}

/* A scene run for steps steps (its controller before each), then checked; min_nc: the
   contacts the last step must have */
static void scene(const char* name, double param, int steps, int min_nc, const char* what) {
  csScene s;
  if (cs_scene_load(name, cs_test_source("models"), param, &s) != CS_OK) {
    CHECK_MSG(0, "%s: %s", name, cs_last_error());
    return;
  }
  for (int k = 0; k < steps; k++) {
    cs_scene_control(&s, s.m, s.d);
    cs_step(s.m, s.d);
  }
  CHECK_MSG(s.d->problem.nc >= min_nc, "%s: %d contacts", what, s.d->problem.nc);
  check_step(s.m, s.d, what);
  cs_scene_free(&s);
}

int main(void) {
  cs_set_log(NULL);
  box_resting();
  refused();
  scene("drop", NAN, 2000, 4, "anymal drop (rest)");
  scene("trot", NAN, 1500, 1, "anymal trot");
  scene("stack_ratio", 100, 200, 8, "cube on a cube");
  scene("pile", 16, 300, 60, "16-box pile (by islands)");
  return cs_test_finish("test_global_problem");
}
