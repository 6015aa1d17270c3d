/* Bounded recovery (internal; docs/physics.md, "Starting in penetration"): the Baumgarte
   term's push-out speed for a crossed constraint, capped at csOption.recovery_speed. */
#ifndef CS_RECOVERY_H
#define CS_RECOVERY_H

#include <math.h>

#include "math/cs_math.h"

/* The free velocity's stabilisation of a crossed unilateral row (phi <= 0): beta phi / dt,
   not below -vmax when vmax > 0 (the row then asks for a push-out of at most vmax) */
static CSI_INLINE double csi_recovery_crossed(double beta, double phi, double dt, double vmax) {
  double v = beta * phi / dt;
  return vmax > 0 && v < -vmax ? -vmax : v;
}

/* An equality's stabilisation (n rows, err its error): beta err / dt into g; when vmax > 0
   and that is faster, err scaled to the speed vmax (the direction kept) */
static CSI_INLINE void csi_recovery_equality(double beta, const double* err, int n, double dt,
                                             double vmax, double* g) {
  if (vmax > 0) {
    double e2 = 0;
    for (int k = 0; k < n; k++) e2 += err[k] * err[k];
    if (beta * beta * e2 > vmax * vmax * dt * dt) {
      double s = vmax / sqrt(e2);
      for (int k = 0; k < n; k++) g[k] += s * err[k];
      return;
    }
  }
  for (int k = 0; k < n; k++) g[k] += beta * err[k] / dt;
}

#endif
