/* Small dense math: 3-vectors, quaternions (w x y z), 3x3 row-major matrices, and spatial
   vectors [angular; linear]. All static inline so the step's hot loops see them whole. */
#ifndef CS_MATH_H
#define CS_MATH_H

#include <math.h>
#include <string.h>

static inline void cs_copy3(double* r, const double* a) { r[0] = a[0], r[1] = a[1], r[2] = a[2]; }
static inline void cs_zero(double* r, int n) { memset(r, 0, sizeof(double) * (size_t)n); }
static inline void cs_add3(double* r, const double* a, const double* b) {
  r[0] = a[0] + b[0], r[1] = a[1] + b[1], r[2] = a[2] + b[2];
}
static inline void cs_sub3(double* r, const double* a, const double* b) {
  r[0] = a[0] - b[0], r[1] = a[1] - b[1], r[2] = a[2] - b[2];
}
static inline void cs_scl3(double* r, const double* a, double s) {
  r[0] = a[0] * s, r[1] = a[1] * s, r[2] = a[2] * s;
}
static inline void cs_addscl3(double* r, const double* a, double s) {
  r[0] += a[0] * s, r[1] += a[1] * s, r[2] += a[2] * s;
}
static inline double cs_dot3(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline double cs_norm3(const double* a) { return sqrt(cs_dot3(a, a)); }
static inline void cs_cross3(double* r, const double* a, const double* b) {
  double t0 = a[1] * b[2] - a[2] * b[1];
  double t1 = a[2] * b[0] - a[0] * b[2];
  double t2 = a[0] * b[1] - a[1] * b[0];
  r[0] = t0, r[1] = t1, r[2] = t2;
}
static inline double cs_normalize3(double* a) {
  double n = cs_norm3(a);
  if (n > 0) cs_scl3(a, a, 1.0 / n);
  return n;
}
static inline double cs_dot(const double* a, const double* b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* ---- 3x3 row-major */
static inline void cs_mulmat3vec(double* r, const double* M, const double* v) {
  double t0 = M[0] * v[0] + M[1] * v[1] + M[2] * v[2];
  double t1 = M[3] * v[0] + M[4] * v[1] + M[5] * v[2];
  double t2 = M[6] * v[0] + M[7] * v[1] + M[8] * v[2];
  r[0] = t0, r[1] = t1, r[2] = t2;
}
static inline void cs_mulmat3tvec(double* r, const double* M, const double* v) {
  double t0 = M[0] * v[0] + M[3] * v[1] + M[6] * v[2];
  double t1 = M[1] * v[0] + M[4] * v[1] + M[7] * v[2];
  double t2 = M[2] * v[0] + M[5] * v[1] + M[8] * v[2];
  r[0] = t0, r[1] = t1, r[2] = t2;
}
static inline void cs_mulmat3(double* r, const double* A, const double* B) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
  memcpy(r, t, sizeof t);
}

/* ---- quaternions (w x y z) */
static inline void cs_quat_identity(double* q) { q[0] = 1, q[1] = q[2] = q[3] = 0; }
static inline double cs_quat_normalize(double* q) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n > 0) {
    double s = 1.0 / n;
    q[0] *= s, q[1] *= s, q[2] *= s, q[3] *= s;
  } else {
    cs_quat_identity(q);
  }
  return n;
}
static inline void cs_quat_mul(double* r, const double* a, const double* b) {
  double t0 = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double t1 = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double t2 = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double t3 = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
}
static inline void cs_quat2mat(double* R, const double* q) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
  double wx = w * x, wy = w * y, wz = w * z;
  R[0] = 1 - 2 * (yy + zz), R[1] = 2 * (xy - wz), R[2] = 2 * (xz + wy);
  R[3] = 2 * (xy + wz), R[4] = 1 - 2 * (xx + zz), R[5] = 2 * (yz - wx);
  R[6] = 2 * (xz - wy), R[7] = 2 * (yz + wx), R[8] = 1 - 2 * (xx + yy);
}
/* rotate v by unit quaternion q */
static inline void cs_quat_rotate(double* r, const double* q, const double* v) {
  double R[9];
  cs_quat2mat(R, q);
  cs_mulmat3vec(r, R, v);
}
/* quaternion of rotation by angle about unit axis */
static inline void cs_axisangle2quat(double* q, const double* axis, double angle) {
  double s = sin(0.5 * angle);
  q[0] = cos(0.5 * angle), q[1] = axis[0] * s, q[2] = axis[1] * s, q[3] = axis[2] * s;
}
/* exact exponential: quaternion of rotation vector w (angle |w|) */
static inline void cs_quat_exp(double* q, const double* w) {
  double th = cs_norm3(w);
  if (th < 1e-8) {
    /* series: cos(th/2) ~ 1 - th^2/8, sin(th/2)/th ~ 1/2 - th^2/48 */
    double c = 1 - th * th / 8, s = 0.5 - th * th / 48;
    q[0] = c, q[1] = w[0] * s, q[2] = w[1] * s, q[3] = w[2] * s;
  } else {
    double s = sin(0.5 * th) / th;
    q[0] = cos(0.5 * th), q[1] = w[0] * s, q[2] = w[1] * s, q[3] = w[2] * s;
  }
}
static inline void cs_mat2quat(double* q, const double* R) {
  double tr = R[0] + R[4] + R[8];
  if (tr > 0) {
    double s = sqrt(tr + 1.0) * 2;
    q[0] = 0.25 * s, q[1] = (R[7] - R[5]) / s, q[2] = (R[2] - R[6]) / s, q[3] = (R[3] - R[1]) / s;
  } else if (R[0] > R[4] && R[0] > R[8]) {
    double s = sqrt(1.0 + R[0] - R[4] - R[8]) * 2;
    q[0] = (R[7] - R[5]) / s, q[1] = 0.25 * s, q[2] = (R[1] + R[3]) / s, q[3] = (R[2] + R[6]) / s;
  } else if (R[4] > R[8]) {
    double s = sqrt(1.0 + R[4] - R[0] - R[8]) * 2;
    q[0] = (R[2] - R[6]) / s, q[1] = (R[1] + R[3]) / s, q[2] = 0.25 * s, q[3] = (R[5] + R[7]) / s;
  } else {
    double s = sqrt(1.0 + R[8] - R[0] - R[4]) * 2;
    q[0] = (R[3] - R[1]) / s, q[1] = (R[2] + R[6]) / s, q[2] = (R[5] + R[7]) / s, q[3] = 0.25 * s;
  }
  if (q[0] < 0) q[0] = -q[0], q[1] = -q[1], q[2] = -q[2], q[3] = -q[3];
  cs_quat_normalize(q);
}

/* ---- symmetric 3x3 stored as xx yy zz xy xz yz */
static inline void cs_sym_mulvec(double* r, const double* I, const double* v) {
  double t0 = I[0] * v[0] + I[3] * v[1] + I[4] * v[2];
  double t1 = I[3] * v[0] + I[1] * v[1] + I[5] * v[2];
  double t2 = I[4] * v[0] + I[5] * v[1] + I[2] * v[2];
  r[0] = t0, r[1] = t1, r[2] = t2;
}
/* I_world = R I R^T */
static inline void cs_sym_rotate(double* out, const double* R, const double* I) {
  double F[9] = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]}, T[9], W[9];
  cs_mulmat3(T, R, F);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      W[3 * i + j] = T[3 * i] * R[3 * j] + T[3 * i + 1] * R[3 * j + 1] + T[3 * i + 2] * R[3 * j + 2];
  out[0] = W[0], out[1] = W[4], out[2] = W[8];
  out[3] = 0.5 * (W[1] + W[3]), out[4] = 0.5 * (W[2] + W[6]), out[5] = 0.5 * (W[5] + W[7]);
}

/* ---- spatial algebra, [angular; linear] about a common point (the world origin)
   Body inertia about the origin stored in 10 numbers: m, h = m c (3), I_O (6 sym). */
/* motion x motion: r = v x u */
static inline void cs_cross_motion(double* r, const double* v, const double* u) {
  double a[3], b[3], c[3];
  cs_cross3(a, v, u);
  cs_cross3(b, v, u + 3);
  cs_cross3(c, v + 3, u);
  r[0] = a[0], r[1] = a[1], r[2] = a[2];
  r[3] = b[0] + c[0], r[4] = b[1] + c[1], r[5] = b[2] + c[2];
}
/* motion x force: r = v x* f */
static inline void cs_cross_force(double* r, const double* v, const double* f) {
  double a[3], b[3], c[3];
  cs_cross3(a, v, f);
  cs_cross3(b, v + 3, f + 3);
  cs_cross3(c, v, f + 3);
  r[0] = a[0] + b[0], r[1] = a[1] + b[1], r[2] = a[2] + b[2];
  r[3] = c[0], r[4] = c[1], r[5] = c[2];
}
/* f = I v for the 10-number inertia */
static inline void cs_inert_mul(double* f, const double* I, const double* v) {
  const double m = I[0], *h = I + 1, *Io = I + 4;
  double t[3], s[3];
  cs_sym_mulvec(t, Io, v);
  cs_cross3(s, h, v + 3); /* h x v_lin */
  f[0] = t[0] + s[0], f[1] = t[1] + s[1], f[2] = t[2] + s[2];
  cs_cross3(s, v, h); /* w x h: momentum of the com velocity v_O + w x c */
  f[3] = m * v[3] + s[0], f[4] = m * v[4] + s[1], f[5] = m * v[5] + s[2];
}

#endif
