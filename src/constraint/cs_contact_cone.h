/* Friction cones of the contact problem (internal): projections and distances, shared by
   the NCP report and the solvers.

   A contact vector is x = (x_N, x_T1, x_T2), normal first. The friction cone is
   K_mu = { |x_T| <= mu x_N } and its dual K*_mu = { mu |x_T| <= x_N } (aperture 1/mu).
   mu = 0 is exact, not a limit: K_0 is the ray x_T = 0, x_N >= 0 and K*_0 the half-space
   x_N >= 0. A negative mu is treated as 0. Every function allows out == x. */
#ifndef CS_CONTACT_CONE_H
#define CS_CONTACT_CONE_H

#include <math.h>

/* sqrt(a^2 + b^2) without hypot's overflow guards (several times faster; impulses and
   velocities never come near 1e154). */
static inline double csi_norm2(double a, double b) { return sqrt(a * a + b * b); }

/* Euclidean projection of x onto K_mu, with the branch order and arithmetic of Siconos'
   projectionOnCone (polar cone first), so the natural-map residual matches Siconos. Inline:
   ncp_admm projects every contact in every iteration (13 % of its time on the ANYmal replay
   as a call). */
static inline void csi_project_cone(const double* x, double mu, double* out) {
  if (mu < 0) mu = 0;
  double xn = x[0], x1 = x[1], x2 = x[2];
  double r = csi_norm2(x1, x2);
  if (mu * r <= -xn) { /* in the polar cone -K*_mu: the nearest point is the apex */
    out[0] = out[1] = out[2] = 0;
  } else if (r <= mu * xn) { /* inside */
    out[0] = xn, out[1] = x1, out[2] = x2;
  } else if (mu == 0) { /* K_0 is the ray: drop the tangential part (here xn > 0) */
    out[0] = xn, out[1] = 0, out[2] = 0;
  } else {
    /* Onto the boundary generator through x's tangential direction; r > 0 here since
       r = 0 would have put x in one of the two branches above. */
    double n = (mu * r + xn) / (mu * mu + 1.0);
    out[0] = n;
    out[1] = mu * n * x1 / r;
    out[2] = mu * n * x2 / r;
  }
}
/* Euclidean projection of x onto K*_mu. */
void csi_project_dual_cone(const double* x, double mu, double* out);
/* Euclidean distances dist(x, K_mu) and dist(x, K*_mu), in closed form (not |x - P(x)|,
   which loses digits when x is far from the cone); inline: the solvers' residuals call them
   for every contact in every iteration. */
static inline double csi_dist_cone(const double* x, double mu) {
  if (mu < 0) mu = 0;
  double xn = x[0], r = csi_norm2(x[1], x[2]);
  if (r <= mu * xn) return 0;
  if (mu * r <= -xn) return csi_norm2(xn, r);
  /* Distance to the boundary line in the (x_N, |x_T|) half-plane; mu = 0 gives r. */
  return (r - mu * xn) / sqrt(1.0 + mu * mu);
}
/* dist(x, K*_mu) from x_N and r = |x_T| (a caller that has r already). */
static inline double csi_dist_dual_cone_r(double xn, double r, double mu) {
  if (mu < 0) mu = 0;
  if (mu * r <= xn) return 0;
  if (r <= -mu * xn) return csi_norm2(xn, r);
  /* mu = 0 gives -x_N, the distance to the half-space. */
  return (mu * r - xn) / sqrt(1.0 + mu * mu);
}

/* One contact's NCP terms (paper 002 eq. 14) with de Saxce's v~ = v + (mu |v_T|, 0, 0), vt =
   |v_T| given: dist(l, K_mu), dist(v~, K*_mu) and |<l, v~>|. Shared by the NCP report and the
   solvers' stop tests (csi_ncp_contact_residual). */
static inline void csi_ncp_terms(const double* l, const double* v, double vt, double mu, double* dp,
                                 double* dd, double* dc) {
  double vs0 = v[0] + mu * vt;
  *dp = csi_dist_cone(l, mu);
  *dd = csi_dist_dual_cone_r(vs0, vt, mu);
  *dc = fabs(l[0] * vs0 + l[1] * v[1] + l[2] * v[2]);
}
static inline double csi_dist_dual_cone(const double* x, double mu) {
  return csi_dist_dual_cone_r(x[0], csi_norm2(x[1], x[2]), mu);
}
/* |lambda - P_K(lambda - v~)|^2 with v~ = v + (mu |v_T|, 0, 0): one contact's term of the
   Siconos natural-map residual (rho = 1). */
double csi_natural_map_sq(const double* lambda, const double* v, double mu);
/* The same with |v_T| given (vt = csi_norm2(v[1], v[2])). */
double csi_natural_map_sq_vt(const double* lambda, const double* v, double vt, double mu);

#endif
