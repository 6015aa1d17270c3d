/* External wrenches on bodies (csData.xfrc_applied, as MuJoCo's): a world-frame force at the
   body's centre of mass and a world-frame torque, mapped to generalized forces J^T (f, t). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "math/cs_math.h"
#include "pipeline/cs_pipeline.h"

typedef unsigned long long bits4 __attribute__((vector_size(32)));

/* The bits of x[0..n) or-ed: 0 iff every x[i] is +0 or -0. Vectors of four, six at a time,
   so that it costs about one instruction per two values (AVX2): every step reads it.
   The last one to three values are read with the three before them (or-ed twice, which
   changes nothing). */
CSI_HOT static uint64_t or_bits(const double* restrict x, int n) {
  uint64_t r = 0;
  if (n < 4) {
    for (int i = 0; i < n; i++) {
      uint64_t u;
      memcpy(&u, x + i, sizeof u);
      r |= u;
    }
    return r;
  }
  bits4 a = {0, 0, 0, 0}, b = a, c = a;
  int i = 0;
  for (; i + 24 <= n; i += 24) {
    bits4 u, v, w, p, q, t;
    memcpy(&u, x + i, sizeof u);
    memcpy(&v, x + i + 4, sizeof v);
    memcpy(&w, x + i + 8, sizeof w);
    memcpy(&p, x + i + 12, sizeof p);
    memcpy(&q, x + i + 16, sizeof q);
    memcpy(&t, x + i + 20, sizeof t);
    a |= u | p, b |= v | q, c |= w | t;
  }
  for (; i + 4 <= n; i += 4) {
    bits4 u;
    memcpy(&u, x + i, sizeof u);
    a |= u;
  }
  if (i < n) {
    bits4 u;
    memcpy(&u, x + n - 4, sizeof u);
    b |= u;
  }
  a |= b | c;
  return a[0] | a[1] | a[2] | a[3];
}

int csi_xfrc_scan(const csModel* m, const csData* d, int* bad) {
  const double* x = d->xfrc_applied + 6; /* the world body's is not applied */
  int n = 6 * (m->nbody - 1);
  if (!(or_bits(x, n) << 1)) return 0; /* the sign bits shifted out */
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) {
      *bad = i + 6;
      return -1;
    }
  return 1;
}

void csi_xfrc_accumulate(const csModel* m, const csData* d, double* f) {
  for (int b = 1; b < m->nbody; b++) {
    const double* w = d->xfrc_applied + 6 * b;
    if (!w[0] && !w[1] && !w[2] && !w[3] && !w[4] && !w[5]) continue;
    const double* p = d->xipos + 3 * b;
    for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i]) {
      const double* S = d->cdof + 6 * i; /* (w, v_O): the point p moves at v_O + w x p */
      double t[3];
      csi_cross3(t, S, p);
      f[i] += (S[3] + t[0]) * w[0] + (S[4] + t[1]) * w[1] + (S[5] + t[2]) * w[2] + S[0] * w[3] +
              S[1] * w[4] + S[2] * w[5];
    }
  }
}
