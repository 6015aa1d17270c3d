#include "cs_test_models.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cs_test.h"

static void rand_quat(double* q) {
  double n = 0;
  for (int i = 0; i < 4; i++) {
    q[i] = cs_test_gauss();
    n += q[i] * q[i];
  }
  n = sqrt(n);
  for (int i = 0; i < 4; i++) q[i] /= n;
}

static void rand_unit(double* a) {
  double n = 0;
  for (int i = 0; i < 3; i++) {
    a[i] = cs_test_gauss();
    n += a[i] * a[i];
  }
  n = sqrt(n);
  for (int i = 0; i < 3; i++) a[i] /= n;
}

/* physically valid inertia: principal moments from a random mass distribution, rotated */
static void rand_inertia(double mass, double* I) {
  double a = cs_test_uniform(0.01, 0.1), b = cs_test_uniform(0.01, 0.1),
         c = cs_test_uniform(0.01, 0.1);
  double P[3] = {mass * (b + c), mass * (a + c), mass * (a + b)};
  double q[4], R[9];
  rand_quat(q);
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
  double F[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double s = 0;
      for (int k = 0; k < 3; k++) s += R[3 * i + k] * P[k] * R[3 * j + k];
      F[3 * i + j] = s;
    }
  I[0] = F[0], I[1] = F[4], I[2] = F[8], I[3] = F[1], I[4] = F[2], I[5] = F[5];
}

csModel* cs_test_random_tree(int nbody, unsigned long long seed) {
  cs_test_seed(seed);
  csBuilder* b = cs_builder_new();
  int kinds[] = {CS_JNT_BALL, CS_JNT_REVOLUTE, CS_JNT_PRISMATIC, CS_JNT_FIXED, -1, CS_JNT_REVOLUTE};
  for (int i = 1; i <= nbody; i++) {
    csBodySpec s;
    cs_body_spec_default(&s);
    char name[32];
    snprintf(name, sizeof name, "b%d", i);
    s.name = name;
    s.parent = i <= 2 ? 0 : (int)cs_test_uniform(1, i - 0.001);
    for (int k = 0; k < 3; k++) s.pos[k] = cs_test_uniform(-0.5, 0.5);
    rand_quat(s.quat);
    s.mass = cs_test_uniform(0.5, 3);
    for (int k = 0; k < 3; k++) s.ipos[k] = cs_test_uniform(-0.2, 0.2);
    rand_inertia(s.mass, s.inertia);
    int id = cs_builder_add_body(b, &s);
    csJointSpec j;
    cs_joint_spec_default(&j);
    j.body = id;
    for (int k = 0; k < 3; k++) j.pos[k] = cs_test_uniform(-0.2, 0.2);
    rand_unit(j.axis);
    j.damping = cs_test_uniform(0, 0.5);
    j.armature = cs_test_uniform(0, 0.05);
    if (s.parent == 0) {
      j.type = CS_JNT_FREE;
      j.pos[0] = j.pos[1] = j.pos[2] = 0;
      j.armature = 0;
      cs_builder_add_joint(b, &j);
      continue;
    }
    int kind = kinds[i % 6];
    if (kind == -1) { /* two joints on one body: revolute then prismatic */
      j.type = CS_JNT_REVOLUTE;
      cs_builder_add_joint(b, &j);
      rand_unit(j.axis);
      j.type = CS_JNT_PRISMATIC;
      cs_builder_add_joint(b, &j);
    } else {
      j.type = kind;
      cs_builder_add_joint(b, &j);
    }
  }
  csModel* m = NULL;
  if (cs_compile(b, &m) != CS_OK) fprintf(stderr, "random tree: %s\n", cs_last_error());
  cs_builder_free(b);
  return m;
}

csModel* cs_test_pendulum(int nlink) {
  csBuilder* b = cs_builder_new();
  int parent = 0;
  for (int i = 0; i < nlink; i++) {
    csBodySpec s;
    cs_body_spec_default(&s);
    char name[32];
    snprintf(name, sizeof name, "link%d", i);
    s.name = name;
    s.parent = parent;
    s.pos[2] = i == 0 ? 0 : -1.0;
    s.mass = 1;
    s.ipos[2] = -0.5;
    s.inertia[0] = s.inertia[1] = 1.0 / 12;
    s.inertia[2] = 1e-3;
    parent = cs_builder_add_body(b, &s);
    csJointSpec j;
    cs_joint_spec_default(&j);
    j.body = parent;
    j.type = CS_JNT_REVOLUTE;
    j.axis[0] = 0, j.axis[1] = 1, j.axis[2] = 0;
    cs_builder_add_joint(b, &j);
  }
  csModel* m = NULL;
  if (cs_compile(b, &m) != CS_OK) fprintf(stderr, "pendulum: %s\n", cs_last_error());
  cs_builder_free(b);
  return m;
}

void cs_test_random_state(const csModel* m, csData* d, double vel_scale) {
  for (int j = 0; j < m->njnt; j++) {
    double* q = d->qpos + m->jnt_qposadr[j];
    switch (m->jnt_type[j]) {
      case CS_JNT_FREE:
        for (int k = 0; k < 3; k++) q[k] = cs_test_uniform(-1, 1);
        rand_quat(q + 3);
        break;
      case CS_JNT_BALL:
        rand_quat(q);
        break;
      case CS_JNT_PRISMATIC:
        q[0] = cs_test_uniform(-0.3, 0.3);
        break;
      default:
        q[0] = cs_test_uniform(-3.14159, 3.14159);
        break;
    }
  }
  for (int i = 0; i < m->nv; i++) d->qvel[i] = vel_scale * cs_test_gauss();
}

void cs_test_dense_m(const csModel* m, const csData* d, double* M) {
  int nv = m->nv;
  memset(M, 0, sizeof(double) * (size_t)nv * (size_t)nv);
  for (int i = 0; i < nv; i++) {
    const double* row = d->qM + m->dof_Madr[i];
    M[nv * i + i] = row[0];
    int t = 1;
    for (int j = m->dof_parent[i]; j >= 0; j = m->dof_parent[j], t++)
      M[nv * i + j] = M[nv * j + i] = row[t];
  }
}
