#include "constraint/cs_contact_cone.h"

#include <math.h>

void csi_project_dual_cone(const double* x, double mu, double* out) {
  if (mu < 0) mu = 0;
  double xn = x[0], x1 = x[1], x2 = x[2];
  double r = csi_norm2(x1, x2);
  if (mu * r <= xn) { /* inside (mu = 0: the half-space x_N >= 0) */
    out[0] = xn, out[1] = x1, out[2] = x2;
  } else if (r <= -mu * xn) { /* in the polar cone -K_mu */
    out[0] = out[1] = out[2] = 0;
  } else {
    /* The boundary generator is (mu, t) with t = x_T / r, |t| = 1; r > 0 as above. With
       mu = 0 this is the half-space projection (0, x_T) exactly. */
    double s = (mu * xn + r) / (mu * mu + 1.0);
    out[0] = mu * s;
    out[1] = s * x1 / r;
    out[2] = s * x2 / r;
  }
}

double csi_natural_map_sq(const double* lambda, const double* v, double mu) {
  return csi_natural_map_sq_vt(lambda, v, csi_norm2(v[1], v[2]), mu);
}

double csi_natural_map_sq_vt(const double* lambda, const double* v, double vt, double mu) {
  /* Same operations in the same order as Siconos' fc3d_unitary_compute_and_add_error. */
  double w[3] = {lambda[0] - (v[0] + mu * vt), lambda[1] - v[1], lambda[2] - v[2]};
  csi_project_cone(w, mu, w);
  double d0 = lambda[0] - w[0], d1 = lambda[1] - w[1], d2 = lambda[2] - w[2];
  return d0 * d0 + d1 * d1 + d2 * d2;
}
