/* Point and frame Jacobians against finite differences of positions and orientations
   (<= 1e-7), on the random tree (every joint type) and the pendulum. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"
#include "cs_test_models.h"

/* rotation vector of R = Rb Ra^T (small), world frame */
static void rotdiff(const double* Rb, const double* Ra, double* w) {
  double D[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      D[3 * i + j] =
          Rb[3 * i] * Ra[3 * j] + Rb[3 * i + 1] * Ra[3 * j + 1] + Rb[3 * i + 2] * Ra[3 * j + 2];
  w[0] = 0.5 * (D[7] - D[5]);
  w[1] = 0.5 * (D[2] - D[6]);
  w[2] = 0.5 * (D[3] - D[1]);
}

static void check(csModel* m, const char* name) {
  csData* d = cs_data_new(m);
  csData* dp = cs_data_new(m);
  csData* dm = cs_data_new(m);
  int nv = m->nv;
  double* jp = malloc(sizeof(double) * 3 * nv);
  double* jr = malloc(sizeof(double) * 3 * nv);
  double* e = calloc(nv, sizeof(double));
  double worst_p = 0, worst_r = 0;
  const double eps = 1e-6;
  for (int s = 0; s < 20; s++) {
    cs_test_random_state(m, d, 1.0);
    cs_kinematics(m, d);
    cs_site_poses(m, d);
    for (int b = 1; b < m->nbody; b++) {
      /* a point fixed on body b, given in body coordinates */
      double loc[3] = {cs_test_uniform(-0.3, 0.3), cs_test_uniform(-0.3, 0.3),
                       cs_test_uniform(-0.3, 0.3)};
      const double* R = d->xmat + 9 * b;
      double p[3];
      for (int r = 0; r < 3; r++)
        p[r] =
            d->xpos[3 * b + r] + R[3 * r] * loc[0] + R[3 * r + 1] * loc[1] + R[3 * r + 2] * loc[2];
      cs_jac(m, d, jp, jr, p, b);
      for (int i = 0; i < nv; i++) {
        memset(e, 0, sizeof(double) * nv);
        e[i] = 1;
        cs_integrate_pos(m, dp->qpos, d->qpos, e, eps);
        cs_integrate_pos(m, dm->qpos, d->qpos, e, -eps);
        cs_kinematics(m, dp);
        cs_kinematics(m, dm);
        double pp[3], pm[3];
        const double* Rp = dp->xmat + 9 * b;
        const double* Rm = dm->xmat + 9 * b;
        for (int r = 0; r < 3; r++) {
          pp[r] = dp->xpos[3 * b + r] + Rp[3 * r] * loc[0] + Rp[3 * r + 1] * loc[1] +
                  Rp[3 * r + 2] * loc[2];
          pm[r] = dm->xpos[3 * b + r] + Rm[3 * r] * loc[0] + Rm[3 * r + 1] * loc[1] +
                  Rm[3 * r + 2] * loc[2];
        }
        double w[3];
        rotdiff(Rp, Rm, w);
        for (int r = 0; r < 3; r++) {
          double fd = (pp[r] - pm[r]) / (2 * eps);
          worst_p = fmax(worst_p, fabs(fd - jp[r * nv + i]));
          worst_r = fmax(worst_r, fabs(w[r] / (2 * eps) - jr[r * nv + i]));
        }
      }
    }
    /* site (frame) Jacobian = point Jacobian at the site origin */
    for (int si = 0; si < m->nsite; si++) {
      double jp2[3 * 256], jr2[3 * 256];
      if (nv > 256) break;
      cs_jac_site(m, d, jp2, jr2, si);
      cs_jac(m, d, jp, jr, d->site_xpos + 3 * si, m->site_body[si]);
      for (int k = 0; k < 3 * nv; k++) CHECK(jp2[k] == jp[k] && jr2[k] == jr[k]);
    }
  }
  printf("%-16s nv %3d: point Jacobian vs FD %.2e, rotational %.2e\n", name, nv, worst_p, worst_r);
  CHECK_MSG(worst_p <= 1e-7, "%s point jac %g", name, worst_p);
  CHECK_MSG(worst_r <= 1e-7, "%s rot jac %g", name, worst_r);
  free(jp), free(jr), free(e);
  cs_data_free(d), cs_data_free(dp), cs_data_free(dm);
}

int main(void) {
  csModel* tree = cs_test_random_tree(50, 11);
  CHECK(tree && tree->nsite > 0);
  if (tree) check(tree, "random-tree-50");
  cs_model_free(tree);
  csModel* pend = cs_test_pendulum(5);
  if (pend) check(pend, "pendulum-5");
  cs_model_free(pend);
  return cs_test_finish("test_jacobian");
}
