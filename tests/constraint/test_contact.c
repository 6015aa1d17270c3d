/* The contact pipeline end to end: the contact problem against dense algebra and finite
   differences, and the simulation against analytic motions (box at rest, sphere drop,
   Coulomb sliding with its first-order convergence in dt), warm starting, zero allocation,
   bad input and overflow. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_scene.h"
#include "cs_test.h"
#include "cs_test_models.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static long n_alloc = 0;
static void* counting_malloc(size_t n) {
  n_alloc++;
  return malloc(n);
}

/* A plane and one free body carrying a geom of the given type and size. */
static csModel* one_body(int type, double sx, double sy, double sz, double mass, double mu,
                         double z0) {
  csBuilder* b = cs_builder_new();
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.type = CS_GEOM_PLANE, g.friction = mu, g.name = "floor";
  cs_builder_add_geom(b, &g);
  csBodySpec bs;
  cs_body_spec_default(&bs);
  bs.name = "body", bs.mass = mass, bs.pos[2] = z0;
  /* inertia of a solid box with these half sizes, or of a solid sphere */
  bs.inertia[0] = mass * (sy * sy + sz * sz) / 3;
  bs.inertia[1] = mass * (sx * sx + sz * sz) / 3;
  bs.inertia[2] = mass * (sx * sx + sy * sy) / 3;
  if (type == CS_GEOM_SPHERE) bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 0.4 * mass * sx * sx;
  int body = cs_test_add_free_body(b, &bs);
  cs_geom_spec_default(&g);
  g.body = body, g.type = type, g.friction = mu, g.name = "geom";
  g.size[0] = sx, g.size[1] = sy, g.size[2] = sz;
  cs_builder_add_geom(b, &g);
  csModel* m = NULL;
  csStatus st = cs_compile(b, &m);
  cs_builder_free(b);
  if (st != CS_OK) fprintf(stderr, "compile: %s\n", cs_last_error());
  return m;
}

/* G = J M^-1 J^T against a dense inverse of M, and J against finite differences of the
   contact points' velocities, on a random tree dropped onto the plane. */
static void problem_vs_dense(void) {
  csModel* m = one_body(CS_GEOM_BOX, 0.1, 0.2, 0.15, 2.0, 0.7, 0.1);
  CHECK(m != NULL);
  if (!m) return;
  csData* d = cs_data_new(m);
  /* tilted and penetrating: 1 or 2 corners touch */
  double q[7] = {0.3, -0.2, 0.12, 0.95, 0.2, 0.1, 0.05};
  double nq = sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
  for (int k = 3; k < 7; k++) q[k] /= nq;
  double v[6] = {0.3, -0.1, -0.5, 0.4, -0.7, 0.2};
  cs_data_set_state(m, d, q, 7, v, 6);
  cs_forward(m, d);
  cs_geom_poses(m, d);
  int nc = cs_collide(m, d);
  CHECK_MSG(nc >= 1, "nc = %d", nc);
  double vfree[6];
  memcpy(vfree, d->qvel, sizeof vfree);
  cs_contact_problem_build(m, d, vfree);
  int nv = m->nv, n = 3 * nc;
  double M[36], Minv[36];
  cs_test_dense_m(m, d, M);
  /* dense inverse by Gauss-Jordan */
  double A[72];
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 12; j++) A[12 * i + j] = j < 6 ? M[6 * i + j] : (j - 6 == i);
  for (int c = 0; c < 6; c++) {
    double p = A[12 * c + c];
    for (int j = 0; j < 12; j++) A[12 * c + j] /= p;
    for (int r = 0; r < 6; r++)
      if (r != c) {
        double f = A[12 * r + c];
        for (int j = 0; j < 12; j++) A[12 * r + j] -= f * A[12 * c + j];
      }
  }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) Minv[6 * i + j] = A[12 * i + 6 + j];
  double maxerr = 0, scale = 0;
  for (int a = 0; a < n; a++)
    for (int c = 0; c < n; c++) {
      double s = 0;
      for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++)
          s += d->efc_J[a * nv + i] * Minv[6 * i + j] * d->efc_J[c * nv + j];
      maxerr = fmax(maxerr, fabs(s - d->problem.G[a * n + c]));
      scale = fmax(scale, fabs(s));
    }
  CHECK_MSG(maxerr <= 1e-12 * scale, "G vs dense: %g (scale %g)", maxerr, scale);
  /* J rows: velocity of the body point at the contact, relative to the world, in the frame.
     Finite difference of the point carried by the body. */
  double h = 1e-7;
  for (int c = 0; c < nc; c++) {
    const csContact* con = d->contact + c;
    double pl[3]; /* the contact point in the body frame */
    double rel[3] = {con->pos[0] - d->xpos[3], con->pos[1] - d->xpos[4], con->pos[2] - d->xpos[5]};
    const double* R = d->xmat + 9;
    for (int k = 0; k < 3; k++) pl[k] = R[k] * rel[0] + R[3 + k] * rel[1] + R[6 + k] * rel[2];
    double q2[7];
    cs_integrate_pos(m, q2, q, v, h);
    csData* d2 = cs_data_new(m);
    cs_data_set_state(m, d2, q2, 7, NULL, 0);
    cs_kinematics(m, d2);
    const double* R2 = d2->xmat + 9;
    double p2[3];
    for (int k = 0; k < 3; k++)
      p2[k] = d2->xpos[3 + k] + R2[3 * k] * pl[0] + R2[3 * k + 1] * pl[1] + R2[3 * k + 2] * pl[2];
    double vel[3] = {(p2[0] - con->pos[0]) / h, (p2[1] - con->pos[1]) / h,
                     (p2[2] - con->pos[2]) / h};
    for (int r = 0; r < 3; r++) {
      double fd = con->frame[3 * r] * vel[0] + con->frame[3 * r + 1] * vel[1] +
                  con->frame[3 * r + 2] * vel[2];
      double jv = 0;
      for (int i = 0; i < nv; i++) jv += d->efc_J[(3 * c + r) * nv + i] * v[i];
      CHECK_MSG(fabs(fd - jv) <= 1e-6, "contact %d row %d: J v = %.10g, finite difference %.10g", c,
                r, jv, fd);
    }
    cs_data_free(d2);
  }
  /* frames: orthonormal, right-handed, normal +z for the floor */
  for (int c = 0; c < nc; c++) {
    const double* F = d->contact[c].frame;
    CHECK_NEAR(F[2], 1.0, 1e-12);
    double cr[3] = {F[4] * F[8] - F[5] * F[7], F[5] * F[6] - F[3] * F[8],
                    F[3] * F[7] - F[4] * F[6]};
    CHECK_NEAR(cr[0] * F[0] + cr[1] * F[1] + cr[2] * F[2], 1.0, 1e-12);
  }
  cs_data_free(d);
  cs_model_free(m);
}

/* A box resting on the plane: 4 contacts, drift below 1e-6 m over 10 s. */
static void box_at_rest(void) {
  csModel* m = one_body(CS_GEOM_BOX, 0.1, 0.1, 0.1, 1.0, 0.8, 0.1);
  if (!m) return;
  m->opt.tolerance = 1e-10;
  csData* d = cs_data_new(m);
  int steps = 10000, ok4 = 1;
  double maxdrift = 0;
  for (int k = 0; k < steps; k++) {
    if (cs_step(m, d) != CS_OK) break;
    if (d->ncon != 4) ok4 = 0;
    double dx = d->qpos[0], dy = d->qpos[1], dz = d->qpos[2] - 0.1;
    maxdrift = fmax(maxdrift, sqrt(dx * dx + dy * dy + dz * dz));
  }
  CHECK_MSG(d->nstep == steps, "stopped at step %ld: %s", d->nstep, cs_last_error());
  CHECK_MSG(ok4, "the resting box did not keep 4 contacts");
  CHECK_MSG(maxdrift < 1e-6, "box drift %g m over 10 s", maxdrift);
  printf("box at rest: drift %.3g m over 10 s, %d contacts\n", maxdrift, d->ncon);
  cs_data_free(d);
  cs_model_free(m);
}

/* A sphere dropped from gap h first carries load at t = sqrt(2h/g), to one step. */
static void sphere_drop(void) {
  double r = 0.05, h = 0.5;
  csModel* m = one_body(CS_GEOM_SPHERE, r, 0, 0, 1.0, 0.5, r + h);
  if (!m) return;
  csData* d = cs_data_new(m);
  double t_touch = -1;
  for (int k = 0; k < 1000 && t_touch < 0; k++) {
    cs_step(m, d);
    for (int c = 0; c < d->ncon; c++)
      if (d->contact[c].lambda[0] > 0) t_touch = d->time;
  }
  double dt = m->opt.timestep, ta = sqrt(2 * h / 9.81);
  CHECK_MSG(fabs(t_touch - ta) <= dt + 1e-12, "touch at %g, analytic %g", t_touch, ta);
  /* it then rests on the plane (no bounce with this inelastic model) */
  for (int k = 0; k < 500; k++) cs_step(m, d);
  CHECK_MSG(fabs(d->qpos[2] - r) < 1e-4 && fabs(d->qvel[2]) < 1e-6, "z %g vz %g", d->qpos[2],
            d->qvel[2]);
  cs_data_free(d);
  cs_model_free(m);
}

/* Stop distance of a cube sliding at 1 m/s with mu 0.4: v^2 / (2 mu g). */
static double slide_distance(double dt, double* err_rel) {
  csModel* m = one_body(CS_GEOM_BOX, 0.1, 0.1, 0.1, 1.0, 0.4, 0.1);
  if (!m) return NAN;
  m->opt.timestep = dt;
  m->opt.tolerance = 1e-8;
  m->opt.iterations = 1000;
  m->opt.solver = CS_SOLVER_NCP_PGS;
  csData* d = cs_data_new(m);
  double c = cos(M_PI / 6), s = sin(M_PI / 6);
  double v0[6] = {c, s, 0, 0, 0, 0};
  cs_data_set_state(m, d, NULL, 0, v0, 6);
  int nmax = (int)(1.0 / dt);
  for (int k = 0; k < nmax; k++) {
    cs_step(m, d);
    if (hypot(d->qvel[0], d->qvel[1]) < 1e-9) break;
  }
  double dist = hypot(d->qpos[0], d->qpos[1]);
  double lateral = fabs(-s * d->qpos[0] + c * d->qpos[1]);
  double exact = 1.0 / (2 * 0.4 * 9.81);
  *err_rel = (dist - exact) / exact;
  /* Coulomb friction opposes the sliding velocity exactly, so the cube keeps its line; what
     remains is the solver tolerance (eps_abs 1e-8 per step) */
  CHECK_MSG(lateral < 1e-6, "lateral drift %g m at dt %g", lateral, dt);
  cs_data_free(d);
  cs_model_free(m);
  return dist;
}

static void cube_slide(void) {
  double e1, e2, e4;
  slide_distance(1e-4, &e1);
  slide_distance(2e-4, &e2);
  slide_distance(4e-4, &e4);
  printf(
      "cube slide: relative error of the stop distance %.3g (dt 0.1 ms), %.3g (0.2), %.3g (0.4)\n",
      e1, e2, e4);
  CHECK_MSG(fabs(e1) <= 1e-3, "stop distance error %g at dt 0.1 ms", e1);
  /* first order: the error halves with dt */
  CHECK_MSG(fabs(e2 / e1 - 2) < 0.2 && fabs(e4 / e2 - 2) < 0.2, "ratios %g %g", e2 / e1, e4 / e2);
  /* semi-implicit Euler stops short by about v0 dt / 2 */
  double exact = 1.0 / (2 * 0.4 * 9.81);
  CHECK_MSG(fabs(e1 * exact + 0.5e-4) < 0.2e-4, "shortfall %g m, expected about %g", -e1 * exact,
            0.5e-4);
}

/* Warm start carries impulses of persistent contacts; zero heap allocation with contacts. */
static void warmstart_and_alloc(void) {
  csModel* m = one_body(CS_GEOM_BOX, 0.1, 0.1, 0.1, 1.0, 0.8, 0.1);
  if (!m) return;
  csData* d = cs_data_new(m);
  for (int k = 0; k < 50; k++) cs_step(m, d);
  int cold = d->solver_stats.iterations;
  m->opt.warmstart = 0;
  cs_step(m, d);
  int cold_it = d->solver_stats.iterations;
  m->opt.warmstart = 1;
  cs_step(m, d); /* previous step converged: warm */
  int warm_it = d->solver_stats.iterations;
  printf("box at rest: %d iterations cold, %d warm\n", cold_it, warm_it);
  CHECK_MSG(warm_it < cold_it, "warm %d cold %d", warm_it, cold_it);
  (void)cold;
  cs_set_allocator(counting_malloc, NULL);
  n_alloc = 0;
  for (int k = 0; k < 1000; k++) cs_step(m, d);
  cs_set_allocator(NULL, NULL);
  CHECK_MSG(n_alloc == 0, "%ld allocations in 1000 steps with contacts", n_alloc);
  cs_data_free(d);
  cs_model_free(m);
}

/* Overflow is a counted warning; a bad solver option is an error that leaves the state. */
static void overflow_and_options(void) {
  csModel* m = one_body(CS_GEOM_BOX, 0.1, 0.1, 0.1, 1.0, 0.8, 0.1);
  if (!m) return;
  m->ncon_max = 2; /* before cs_data_new: the data is sized from it */
  csData* d = cs_data_new(m);
  CHECK(cs_step(m, d) == CS_OK);
  CHECK(d->ncon == 2);
  CHECK(d->warning[CS_WARN_CONTACTFULL].count == 1);
  double q[7];
  memcpy(q, d->qpos, sizeof q);
  m->opt.solver = CS_SOLVER_LEMKE + 5;
  CHECK(cs_step(m, d) == CS_ERR_ARG);
  m->opt.solver = CS_SOLVER_NCP_PGS;
  m->opt.tolerance = -1;
  CHECK(cs_step(m, d) == CS_ERR_ARG);
  m->opt.tolerance = 1e-6;
  m->opt.iterations = 0;
  CHECK(cs_step(m, d) == CS_ERR_ARG);
  CHECK(strstr(cs_last_error(), "iterations") != NULL);
  m->opt.iterations = 100;
  CHECK(!memcmp(q, d->qpos, sizeof q));
  cs_data_free(d);
  cs_model_free(m);
}

/* Degenerate geometry is refused where it is given, naming the geom. */
static void degenerate_geometry(void) {
  csBuilder* b = cs_builder_new();
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.type = CS_GEOM_BOX, g.name = "flat_box";
  g.size[0] = 0.1, g.size[1] = 0, g.size[2] = 0.1;
  CHECK(cs_builder_add_geom(b, &g) < 0);
  CHECK_MSG(strstr(cs_last_error(), "flat_box") && strstr(cs_last_error(), "size[1]"), "%s",
            cs_last_error());
  g.size[1] = 0.1;
  g.pos[0] = NAN;
  g.name = "nan_box";
  CHECK(cs_builder_add_geom(b, &g) < 0);
  CHECK_MSG(strstr(cs_last_error(), "nan_box") != NULL, "%s", cs_last_error());
  g.pos[0] = 0;
  g.type = CS_GEOM_SPHERE, g.name = "neg_sphere", g.size[0] = -1;
  CHECK(cs_builder_add_geom(b, &g) < 0);
  cs_builder_free(b);
}

/* A step's contact problem written to FCLIB and read back: the same G, g, mu bit for bit. */
static void fclib_round_trip(void) {
  if (!cs_have_fclib()) {
    printf("FCLIB round trip: built without libfclib, not run\n");
    return;
  }
  csModel* m = one_body(CS_GEOM_BOX, 0.1, 0.1, 0.1, 1.0, 0.8, 0.1);
  if (!m) return;
  csData* d = cs_data_new(m);
  double v0[6] = {0.5, 0.2, -0.3, 0.1, 0.4, -0.2};
  cs_data_set_state(m, d, NULL, 0, v0, 6);
  cs_step(m, d);
  CHECK(d->ncon == 4);
  char path[] = "/tmp/cs_test_contact_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd >= 0) close(fd);
  CHECK(cs_fclib_write_local(path, &d->problem, d->efc_lambda, "test_contact") == CS_OK);
  csOwnedProblem* q = NULL;
  CHECK(cs_fclib_read_local(path, &q) == CS_OK);
  if (q) {
    int n = 3 * d->ncon;
    CHECK(q->p.nc == d->ncon);
    CHECK(!memcmp(q->p.G, d->problem.G, sizeof(double) * (size_t)n * n));
    CHECK(!memcmp(q->p.g, d->problem.g, sizeof(double) * (size_t)n));
    CHECK(!memcmp(q->p.mu, d->problem.mu, sizeof(double) * (size_t)d->ncon));
    CHECK(q->lambda && !memcmp(q->lambda, d->efc_lambda, sizeof(double) * (size_t)n));
    cs_problem_free(q);
  }
  remove(path);
  cs_data_free(d);
  cs_model_free(m);
}

/* A convex mesh (a cube given as 12 triangles) rests on the plane on its 4 hull corners; a
   flat mesh that could collide is refused at compile, naming the geom and the mesh. */
static void mesh_geoms(void) {
  const double V[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                          {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  const int F[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                        {2, 3, 7}, {2, 7, 6}, {1, 2, 6}, {1, 6, 5}, {0, 4, 7}, {0, 7, 3}};
  for (int flat = 0; flat < 2; flat++) {
    double v[8][3];
    memcpy(v, V, sizeof v);
    if (flat)
      for (int i = 0; i < 8; i++) v[i][2] = 0; /* all in one plane */
    csBuilder* b = cs_builder_new();
    int mesh = cs_builder_add_mesh(b, "cube_mesh", 8, &v[0][0], 12, &F[0][0]);
    csGeomSpec g;
    cs_geom_spec_default(&g);
    g.type = CS_GEOM_PLANE, g.name = "floor";
    cs_builder_add_geom(b, &g);
    csBodySpec bs;
    cs_body_spec_default(&bs);
    bs.name = "cube", bs.mass = 1, bs.pos[2] = 0.1;
    bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 1.0 / 150;
    int body = cs_test_add_free_body(b, &bs);
    cs_geom_spec_default(&g);
    g.type = CS_GEOM_MESH, g.mesh = mesh, g.body = body, g.name = "cube_geom";
    g.size[0] = g.size[1] = g.size[2] = 0.1; /* scale */
    cs_builder_add_geom(b, &g);
    csModel* m = NULL;
    csStatus st = cs_compile(b, &m);
    cs_builder_free(b);
    if (flat) {
      CHECK(st == CS_ERR_MODEL);
      CHECK_MSG(strstr(cs_last_error(), "cube_geom") && strstr(cs_last_error(), "cube_mesh"), "%s",
                cs_last_error());
      continue;
    }
    CHECK(st == CS_OK);
    if (!m) continue;
    CHECK(m->geom_vertnum[1] == 8);
    csData* d = cs_data_new(m);
    double drift = 0;
    for (int k = 0; k < 2000; k++) {
      cs_step(m, d);
      drift = fmax(drift, fabs(d->qpos[2] - 0.1) + hypot(d->qpos[0], d->qpos[1]));
    }
    CHECK_MSG(d->ncon == 4, "mesh cube on the plane: %d contacts", d->ncon);
    CHECK_MSG(drift < 1e-6, "mesh cube drift %g m", drift);
    cs_data_free(d);
    cs_model_free(m);
  }
}

/* Self-collision: two overlapping spheres on a grandparent and a grandchild of one tree
   touch unless CS_DISABLE_SELFCOLLISION (the URDF loader's default) is set. */
static void self_collision(void) {
  csBuilder* b = cs_builder_new();
  int parent = 0;
  int body[3];
  for (int k = 0; k < 3; k++) {
    csBodySpec bs;
    cs_body_spec_default(&bs);
    bs.parent = parent, bs.mass = 1, bs.pos[0] = k ? 0.05 : 0;
    bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 0.01;
    body[k] = parent = cs_builder_add_body(b, &bs);
    csJointSpec js;
    cs_joint_spec_default(&js);
    js.body = body[k], js.type = k ? CS_JNT_REVOLUTE : CS_JNT_FREE;
    cs_builder_add_joint(b, &js);
  }
  for (int k = 0; k < 3; k += 2) {
    csGeomSpec g;
    cs_geom_spec_default(&g);
    g.type = CS_GEOM_SPHERE, g.body = body[k], g.size[0] = 0.1;
    cs_builder_add_geom(b, &g);
  }
  csModel* m = NULL;
  CHECK(cs_compile(b, &m) == CS_OK);
  cs_builder_free(b);
  if (!m) return;
  csData* d = cs_data_new(m);
  cs_forward(m, d);
  cs_geom_poses(m, d);
  CHECK_MSG(cs_collide(m, d) == 1, "self-collision on: %d contacts", d->ncon);
  m->opt.disable |= CS_DISABLE_SELFCOLLISION;
  CHECK_MSG(cs_collide(m, d) == 0, "self-collision off: %d contacts", d->ncon);
  cs_data_free(d);
  cs_model_free(m);
}

/* The built problem (J, G, g) of the current contacts of d against a dense
   reference: J from cs_jac of both bodies in the contact frame, G = J M^-1 J^T
   with M^-1 by Gauss-Jordan on the dense M, g = J vfree + the stabilisation
   rule. Relative to each quantity's largest entry. Returns 1 if all agree to
   tol. */
static int problem_matches_dense(const csModel* m, csData* d, const double* vfree, double tol,
                                 const char* what) {
  int nv = m->nv, nc = d->ncon, n = 3 * nc;
  double* M = malloc(sizeof(double) * (size_t)nv * nv);
  double* A = malloc(sizeof(double) * (size_t)nv * 2 * nv);
  double* J = malloc(sizeof(double) * (size_t)n * nv);
  double* X = malloc(sizeof(double) * (size_t)nv * n); /* M^-1 J^T */
  double* jp = malloc(sizeof(double) * 3 * (size_t)nv);
  double* jq = malloc(sizeof(double) * 3 * (size_t)nv);
  int ok = M && A && J && X && jp && jq;
  CHECK(ok);
  if (ok) {
    cs_test_dense_m(m, d, M);
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < 2 * nv; j++) A[2 * nv * i + j] = j < nv ? M[nv * i + j] : (j - nv == i);
    for (int c = 0; c < nv; c++) {
      double piv = A[2 * nv * c + c];
      for (int j = 0; j < 2 * nv; j++) A[2 * nv * c + j] /= piv;
      for (int r = 0; r < nv; r++)
        if (r != c) {
          double f = A[2 * nv * r + c];
          for (int j = 0; j < 2 * nv; j++) A[2 * nv * r + j] -= f * A[2 * nv * c + j];
        }
    }
    for (int c = 0; c < nc; c++) {
      const csContact* con = d->contact + c;
      int b0 = m->geom_body[con->geom[0]], b1 = m->geom_body[con->geom[1]];
      cs_jac(m, d, jp, NULL, con->pos, b1);
      if (b0 > 0) {
        cs_jac(m, d, jq, NULL, con->pos, b0);
        for (int k = 0; k < 3 * nv; k++) jp[k] -= jq[k];
      }
      for (int r = 0; r < 3; r++)
        for (int k = 0; k < nv; k++)
          J[(3 * c + r) * nv + k] = con->frame[3 * r] * jp[k] + con->frame[3 * r + 1] * jp[nv + k] +
                                    con->frame[3 * r + 2] * jp[2 * nv + k];
    }
    for (int k = 0; k < nv; k++)
      for (int a = 0; a < n; a++) {
        double s = 0;
        for (int j = 0; j < nv; j++) s += A[2 * nv * k + nv + j] * J[a * nv + j];
        X[k * n + a] = s;
      }
    double ej = 0, sj = 0, eg = 0, sg = 0, ev = 0, sv = 0, asym = 0;
    for (int a = 0; a < n * nv; a++) {
      ej = fmax(ej, fabs(J[a] - d->efc_J[a]));
      sj = fmax(sj, fabs(J[a]));
    }
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        double s = 0;
        for (int k = 0; k < nv; k++) s += J[a * nv + k] * X[k * n + b];
        eg = fmax(eg, fabs(s - d->problem.G[a * n + b]));
        sg = fmax(sg, fabs(s));
        asym = fmax(asym, fabs(d->problem.G[a * n + b] - d->problem.G[b * n + a]));
      }
      double s = 0;
      for (int k = 0; k < nv; k++) s += J[a * nv + k] * vfree[k];
      const csContact* ca = d->contact + a / 3;
      double dt = m->opt.timestep;
      if (a % 3 == 0) {
        s += ca->dist > 0 ? ca->dist / dt : m->opt.baumgarte * ca->dist / dt;
      } else { /* the stiction anchor along this tangent (docs/physics.md) */
        const double* t = ca->frame + 3 * (a % 3);
        double st = t[0] * ca->slip[0] + t[1] * ca->slip[1] + t[2] * ca->slip[2];
        if (st != 0) s += m->opt.baumgarte * st / dt;
      }
      ev = fmax(ev, fabs(s - d->problem.g[a]));
      sv = fmax(sv, fabs(s));
    }
    ok = ej <= tol * sj && eg <= tol * sg && ev <= tol * sv && asym == 0;
    CHECK_MSG(ok,
              "%s (%d contacts): J %g (scale %g), G %g (scale %g), g %g (scale "
              "%g), G asymmetry %g",
              what, nc, ej, sj, eg, sg, ev, sv, asym);
  }
  free(M), free(A), free(J), free(X), free(jp), free(jq);
  return ok;
}

/* ANYmal C in the drop scene at random states near its rest on the plane with 8
   contacts (4 feet, 4 torso corners): J, G, g against the dense reference. */
static void anymal_problem_vs_dense(void) {
  csScene s;
  CHECK(cs_scene_load("drop", cs_test_source("models"), NAN, &s) == CS_OK);
  if (!s.m) return;
  csModel* m = s.m;
  csData* d = s.d;
  int nv = m->nv, nq = m->nq;
  cs_set_log(NULL);
  int held = 0;
  for (int k = 0; k < 5000 && held < 20; k++) {
    cs_scene_control(&s, m, d);
    cs_step(m, d);
    held = d->ncon == 8 ? held + 1 : 0;
  }
  CHECK_MSG(held == 20, "drop: no rest with 8 contacts");
  int torso = cs_name2id(m, "geom", "torso");
  double* q0 = malloc(sizeof(double) * (size_t)nq);
  double* q = malloc(sizeof(double) * (size_t)nq);
  double* v = malloc(sizeof(double) * (size_t)nv);
  double* vfree = malloc(sizeof(double) * (size_t)nv);
  memcpy(q0, d->qpos, sizeof(double) * (size_t)nq);
  cs_test_seed(7);
  int tested8 = 0, tested = 0;
  for (int trial = 0; trial < 40; trial++) {
    memcpy(q, q0, sizeof(double) * (size_t)nq);
    q[2] -= cs_test_uniform(0.001, 0.004);
    for (int k = 3; k < 7; k++) q[k] += cs_test_uniform(-0.001, 0.001);
    for (int k = 7; k < nq; k++) q[k] += cs_test_uniform(-0.01, 0.01);
    for (int k = 0; k < nv; k++) v[k] = cs_test_gauss(), vfree[k] = cs_test_gauss();
    cs_data_set_state(m, d, q, nq, v, nv); /* normalises the quaternion */
    cs_forward(m, d);
    cs_geom_poses(m, d);
    int nc = cs_collide(m, d);
    if (nc == 0) continue;
    int ntorso = 0;
    for (int c = 0; c < nc; c++)
      ntorso += d->contact[c].geom[0] == torso || d->contact[c].geom[1] == torso;
    cs_contact_problem_build(m, d, vfree);
    char what[64];
    snprintf(what, sizeof what, "anymal trial %d (%d torso contacts)", trial, ntorso);
    problem_matches_dense(m, d, vfree, 1e-12, what);
    tested++;
    tested8 += nc == 8 && ntorso == 4;
  }
  CHECK_MSG(tested8 >= 10, "anymal: %d of %d states with 8 contacts incl. 4 torso corners", tested8,
            tested);
  free(q0), free(q), free(v), free(vfree);
  cs_scene_free(&s);
}

/* Three free spheres on the plane: apart (every contact against the world:
   paths sharing no dof, 3 contacts, an odd 9 rows), then the first two touching
   (a contact between two branches: the general path). */
static void spheres_problem_vs_dense(void) {
  for (int touch = 0; touch < 2; touch++) {
    csBuilder* b = cs_builder_new();
    csGeomSpec g;
    cs_geom_spec_default(&g);
    g.type = CS_GEOM_PLANE, g.name = "floor";
    cs_builder_add_geom(b, &g);
    for (int k = 0; k < 3; k++) {
      csBodySpec bs;
      cs_body_spec_default(&bs);
      bs.mass = 1 + k, bs.pos[0] = k * (touch ? 0.19 : 0.3), bs.pos[2] = 0.0995;
      bs.inertia[0] = 0.01, bs.inertia[1] = 0.02, bs.inertia[2] = 0.015;
      int body = cs_test_add_free_body(b, &bs);
      cs_geom_spec_default(&g);
      g.body = body, g.type = CS_GEOM_SPHERE, g.size[0] = 0.1;
      cs_builder_add_geom(b, &g);
    }
    csModel* m = NULL;
    CHECK(cs_compile(b, &m) == CS_OK);
    cs_builder_free(b);
    if (!m) return;
    csData* d = cs_data_new(m);
    cs_test_seed(11 + touch);
    double v[18], vfree[18];
    for (int k = 0; k < 18; k++) v[k] = cs_test_gauss(), vfree[k] = cs_test_gauss();
    cs_data_set_state(m, d, NULL, 0, v, 18);
    cs_forward(m, d);
    cs_geom_poses(m, d);
    int nc = cs_collide(m, d);
    CHECK_MSG(nc == 3 + 2 * touch, "spheres (touch %d): %d contacts", touch, nc);
    cs_contact_problem_build(m, d, vfree);
    problem_matches_dense(m, d, vfree, 1e-12, touch ? "spheres touching" : "spheres apart");
    cs_data_free(d);
    cs_model_free(m);
  }
}

/* A floating chain of 6 links (free base, 5 revolute joints about alternating axes) with
   spheres on the last two links resting on the plane: their paths share 10 dofs (more than
   one pass of the shared Gram part), one has an own part, the other none. with_base: a
   sphere on the base too, so the paths share the base's 6 dofs, the two links' own parts
   meet on 4 (an off-diagonal own block), and there are 9 rows (odd). */
static void chain_problem_vs_dense(int with_base) {
  csBuilder* b = cs_builder_new();
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.type = CS_GEOM_PLANE, g.name = "floor";
  cs_builder_add_geom(b, &g);
  int parent = 0;
  for (int k = 0; k < 6; k++) {
    csBodySpec bs;
    cs_body_spec_default(&bs);
    bs.parent = parent, bs.mass = 1 + 0.1 * k;
    bs.pos[0] = k ? 0.25 : 0, bs.pos[2] = k ? 0 : 0.0995;
    bs.inertia[0] = 0.01, bs.inertia[1] = 0.02, bs.inertia[2] = 0.015;
    int body = k ? cs_builder_add_body(b, &bs) : cs_test_add_free_body(b, &bs);
    if (k) {
      csJointSpec js;
      cs_joint_spec_default(&js);
      js.body = body, js.type = CS_JNT_REVOLUTE;
      js.axis[0] = 0, js.axis[1] = k % 2, js.axis[2] = 1 - k % 2;
      cs_builder_add_joint(b, &js);
    }
    if (k >= 4 || (with_base && k == 0)) {
      cs_geom_spec_default(&g);
      g.body = body, g.type = CS_GEOM_SPHERE, g.size[0] = 0.1;
      cs_builder_add_geom(b, &g);
    }
    parent = body;
  }
  csModel* m = NULL;
  CHECK(cs_compile(b, &m) == CS_OK);
  cs_builder_free(b);
  if (!m) return;
  csData* d = cs_data_new(m);
  int nv = m->nv;
  CHECK(nv == 11);
  double v[11], vfree[11];
  cs_test_seed(5);
  for (int k = 0; k < nv; k++) v[k] = cs_test_gauss(), vfree[k] = cs_test_gauss();
  cs_data_set_state(m, d, NULL, 0, v, nv);
  cs_forward(m, d);
  cs_geom_poses(m, d);
  int nc = cs_collide(m, d);
  CHECK_MSG(nc == 2 + with_base, "chain: %d contacts", nc);
  cs_contact_problem_build(m, d, vfree);
  problem_matches_dense(m, d, vfree, 1e-12, with_base ? "chain and base" : "chain");
  d->ncon = 0; /* nothing to build */
  CHECK(cs_contact_problem_build(m, d, vfree) == CS_OK && d->problem.nc == 0);
  cs_data_free(d);
  cs_model_free(m);
}

int main(void) {
  problem_vs_dense();
  anymal_problem_vs_dense();
  spheres_problem_vs_dense();
  chain_problem_vs_dense(0);
  chain_problem_vs_dense(1);
  box_at_rest();
  sphere_drop();
  cube_slide();
  warmstart_and_alloc();
  overflow_and_options();
  degenerate_geometry();
  fclib_round_trip();
  mesh_geoms();
  self_collision();
  return cs_test_finish("test_contact");
}
