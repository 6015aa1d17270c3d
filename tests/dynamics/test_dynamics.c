/* Exact multibody dynamics: cross-checks between algorithms on random states.
   - CRBA against RNEA columns, ABA against M \ (tau - h), sparse L^T D L against a dense
     Cholesky (relative error <= 1e-10);
   - on a random 50-body tree with every joint type, ANYmal C (MJCF, floating) and Talos
     (URDF, 44 joints + floating base = nv 50) when ../shared is present. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"
#include "cs_test_models.h"

static double maxabs(const double* a, int n) {
  double r = 0;
  for (int i = 0; i < n; i++)
    if (fabs(a[i]) > r) r = fabs(a[i]);
  return r;
}

/* dense Cholesky solve, A (n x n) overwritten */
static int dense_chol_solve(double* A, int n, double* x) {
  for (int j = 0; j < n; j++) {
    double s = A[n * j + j];
    for (int k = 0; k < j; k++) s -= A[n * j + k] * A[n * j + k];
    if (!(s > 0)) return 0;
    s = sqrt(s);
    A[n * j + j] = s;
    for (int i = j + 1; i < n; i++) {
      double t = A[n * i + j];
      for (int k = 0; k < j; k++) t -= A[n * i + k] * A[n * j + k];
      A[n * i + j] = t / s;
    }
  }
  for (int i = 0; i < n; i++) {
    double s = x[i];
    for (int k = 0; k < i; k++) s -= A[n * i + k] * x[k];
    x[i] = s / A[n * i + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = x[i];
    for (int k = i + 1; k < n; k++) s -= A[n * k + i] * x[k];
    x[i] = s / A[n * i + i];
  }
  return 1;
}

static void check_model(csModel* m, const char* name, int nstates) {
  csData* d = cs_data_new(m);
  int nv = m->nv;
  double* M = malloc(sizeof(double) * nv * nv);
  double* Md = malloc(sizeof(double) * nv * nv);
  double* col = malloc(sizeof(double) * nv);
  double* e = malloc(sizeof(double) * nv);
  double* tau = malloc(sizeof(double) * nv);
  double* h = malloc(sizeof(double) * nv);
  double* x1 = malloc(sizeof(double) * nv);
  double* x2 = malloc(sizeof(double) * nv);
  double* y = malloc(sizeof(double) * nv);
  double worst_crba = 0, worst_aba = 0, worst_fact = 0, worst_mul = 0;
  for (int s = 0; s < nstates; s++) {
    cs_test_random_state(m, d, 1.0);
    cs_kinematics(m, d);
    cs_com_pos(m, d);
    cs_crba(m, d);
    cs_com_vel(m, d);
    cs_test_dense_m(m, d, M);
    double Mscale = maxabs(M, nv * nv);
    /* CRBA vs RNEA columns (no gravity, no velocity): RNEA(e_i) = M e_i (armature incl.) */
    for (int i = 0; i < nv; i++) {
      memset(e, 0, sizeof(double) * nv);
      e[i] = 1;
      cs_rnea(m, d, e, 0, col);
      for (int r = 0; r < nv; r++) {
        double err = fabs(col[r] - M[nv * r + i]) / Mscale;
        if (err > worst_crba) worst_crba = err;
      }
    }
    /* sparse M*x vs dense */
    for (int i = 0; i < nv; i++) x1[i] = cs_test_gauss();
    cs_mul_m(m, d, y, x1);
    for (int r = 0; r < nv; r++) {
      double t = 0;
      for (int c = 0; c < nv; c++) t += M[nv * r + c] * x1[c];
      double err = fabs(t - y[r]) / (Mscale * maxabs(x1, nv));
      if (err > worst_mul) worst_mul = err;
    }
    /* sparse factorisation vs dense Cholesky */
    CHECK(cs_factor_m(m, d, NULL) == CS_OK);
    for (int i = 0; i < nv; i++) tau[i] = 10 * cs_test_gauss();
    cs_rnea(m, d, NULL, CS_RNE_ALL, h);
    for (int i = 0; i < nv; i++) x1[i] = x2[i] = tau[i] - h[i];
    cs_solve_m(m, d, x1, x1, 1);
    memcpy(Md, M, sizeof(double) * nv * nv);
    CHECK(dense_chol_solve(Md, nv, x2));
    double err = 0, sc = maxabs(x2, nv);
    for (int i = 0; i < nv; i++) err = fmax(err, fabs(x1[i] - x2[i]) / sc);
    if (err > worst_fact) worst_fact = err;
    /* ABA vs M \ (tau - h) */
    CHECK(cs_aba(m, d, tau, CS_RNE_ALL, y) == CS_OK);
    err = 0;
    for (int i = 0; i < nv; i++) err = fmax(err, fabs(y[i] - x2[i]) / sc);
    if (err > worst_aba) worst_aba = err;
  }
  /* Velocity terms, independently of the shared cdof_dot: the power of the Coriolis and
     centrifugal forces equals 1/2 v^T (dM/dt) v (C - Mdot/2 skew), with dM/dt by central
     differences along v. */
  double worst_pow = 0;
  {
    csData* d2 = cs_data_new(m);
    double* Mp = malloc(sizeof(double) * nv * nv);
    double* Mm = malloc(sizeof(double) * nv * nv);
    for (int s = 0; s < 20; s++) {
      cs_test_random_state(m, d, 1.0);
      cs_kinematics(m, d);
      cs_com_pos(m, d);
      cs_com_vel(m, d);
      cs_rnea(m, d, NULL, CS_RNE_VELOCITY, h);
      double power = 0;
      for (int i = 0; i < nv; i++) power += d->qvel[i] * h[i];
      double eps = 1e-6;
      memcpy(d2->qvel, d->qvel, sizeof(double) * nv);
      cs_integrate_pos(m, d2->qpos, d->qpos, d->qvel, eps);
      cs_kinematics(m, d2), cs_com_pos(m, d2), cs_crba(m, d2);
      cs_test_dense_m(m, d2, Mp);
      cs_integrate_pos(m, d2->qpos, d->qpos, d->qvel, -eps);
      cs_kinematics(m, d2), cs_com_pos(m, d2), cs_crba(m, d2);
      cs_test_dense_m(m, d2, Mm);
      double q = 0, scale = 0;
      for (int r = 0; r < nv; r++)
        for (int c = 0; c < nv; c++) {
          double md = (Mp[nv * r + c] - Mm[nv * r + c]) / (2 * eps);
          q += 0.5 * d->qvel[r] * md * d->qvel[c];
          scale += fabs(0.5 * d->qvel[r] * md * d->qvel[c]);
        }
      double err = fabs(power - q) / fmax(scale, 1e-12);
      if (err > worst_pow) worst_pow = err;
    }
    free(Mp), free(Mm);
    cs_data_free(d2);
  }
  CHECK_MSG(worst_pow <= 1e-6, "%s Coriolis power vs dM/dt: %g", name, worst_pow);
  printf("%-16s nv %3d: Coriolis power vs FD dM/dt %.2e\n", name, nv, worst_pow);
  printf("%-16s nv %3d: crba-vs-rnea %.2e  mulM %.2e  factor-vs-dense %.2e  aba %.2e\n", name, nv,
         worst_crba, worst_mul, worst_fact, worst_aba);
  CHECK_MSG(worst_crba <= 1e-10, "%s crba %g", name, worst_crba);
  CHECK_MSG(worst_mul <= 1e-12, "%s mulM %g", name, worst_mul);
  CHECK_MSG(worst_fact <= 1e-10, "%s factor %g", name, worst_fact);
  CHECK_MSG(worst_aba <= 1e-10, "%s aba %g", name, worst_aba);
  free(M), free(Md), free(col), free(e), free(tau), free(h), free(x1), free(x2), free(y);
  cs_data_free(d);
}

/* The structure of the random tree: every joint type is there and fixed joints merged. */
static void check_tree_structure(const csModel* m) {
  int count[5] = {0};
  for (int j = 0; j < m->njnt; j++) count[m->jnt_type[j]]++;
  CHECK(count[CS_JNT_FREE] > 0);
  CHECK(count[CS_JNT_BALL] > 0);
  CHECK(count[CS_JNT_REVOLUTE] > 0);
  CHECK(count[CS_JNT_PRISMATIC] > 0);
  CHECK(count[CS_JNT_FIXED] == 0);
  CHECK(m->nbody < 51); /* fixed-joint bodies merged */
  int multi = 0;
  for (int b = 1; b < m->nbody; b++) multi |= m->body_jntnum[b] > 1;
  CHECK(multi);
  for (int i = 0; i < m->nv; i++) CHECK(m->dof_parent[i] < i);
  for (int b = 1; b < m->nbody; b++) CHECK(m->body_parent[b] < b);
}

int main(void) {
  csModel* tree = cs_test_random_tree(50, 7);
  CHECK(tree != NULL);
  if (tree) {
    check_tree_structure(tree);
    check_model(tree, "random-tree-50", 100);
    cs_model_free(tree);
  }
  csModel* pend = cs_test_pendulum(5);
  CHECK(pend != NULL);
  if (pend) {
    check_model(pend, "pendulum-5", 100);
    cs_model_free(pend);
  }
#ifndef CS_TEST_NO_SHARED
  if (cs_test_shared("models")) {
    csModel* anymal = cs_test_load_shared("models/anymal_c/mjcf/scene_collision_only.xml", 1);
    CHECK(anymal != NULL);
    if (anymal) {
      CHECK(anymal->nv == 18);
      check_model(anymal, "anymal_c-mjcf", 100);
      cs_model_free(anymal);
    }
    csModel* talos = cs_test_load_shared("models/talos/robots/talos_full_v2.urdf", 1);
    CHECK(talos != NULL);
    if (talos) {
      CHECK_MSG(talos->nv == 50, "talos nv %d", talos->nv);
      check_model(talos, "talos-44+free", 100);
      cs_model_free(talos);
    }
  } else {
    printf("../shared absent: robot models skipped (random tree and pendulum checked)\n");
  }
#endif
  return cs_test_finish("test_dynamics");
}
