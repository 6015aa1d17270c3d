/* Small dense math: 3-vectors, quaternions (w x y z), 3x3 row-major matrices, and spatial
   vectors [angular; linear]. All static inline so the step's hot loops see them whole. */
#ifndef CS_MATH_H
#define CS_MATH_H

#include <math.h>
#include <string.h>

/* The step's hot functions are compiled twice, for generic x86-64 and for AVX2,
   and the loader picks one for the CPU (GCC's target_clones, an ELF ifunc). Both clones do
   the same operations (no FMA: -ffp-contract=off; no reassociation), so results do not
   depend on the CPU (checked: 3,000 ANYmal steps bit for bit). CMakeLists.txt defines
   CS_HAVE_TARGET_CLONES (GCC on x86-64 with ifunc support); CS_CPU_DISPATCH=OFF turns it
   off. */
#if defined(CS_HAVE_TARGET_CLONES)
#define CSI_HOT __attribute__((target_clones("default", "avx2")))
#else
#define CSI_HOT
#endif
/* A helper of a CSI_HOT function that must be inlined into its clones: GCC inlines a function
   without target attributes into a target clone only when forced (always_inline); without
   the clones, plain inline (GCC inlined all of these by itself). */
#if defined(CS_HAVE_TARGET_CLONES)
#define CSI_INLINE inline __attribute__((always_inline))
#else
#define CSI_INLINE inline
#endif

/* max / min of two doubles without libm's fmax / fmin calls (a NaN in a gives b: callers
   that can see a NaN check isfinite on their results) */
static inline double csi_max(double a, double b) { return a > b ? a : b; }
static inline double csi_min(double a, double b) { return a < b ? a : b; }
static inline void csi_copy3(double* r, const double* a) { r[0] = a[0], r[1] = a[1], r[2] = a[2]; }
static inline void csi_zero(double* r, int n) { memset(r, 0, sizeof(double) * (size_t)n); }
static inline void csi_add3(double* r, const double* a, const double* b) {
  r[0] = a[0] + b[0], r[1] = a[1] + b[1], r[2] = a[2] + b[2];
}
static inline void csi_sub3(double* r, const double* a, const double* b) {
  r[0] = a[0] - b[0], r[1] = a[1] - b[1], r[2] = a[2] - b[2];
}
static inline void csi_scl3(double* r, const double* a, double s) {
  r[0] = a[0] * s, r[1] = a[1] * s, r[2] = a[2] * s;
}
static inline void csi_addscl3(double* r, const double* a, double s) {
  r[0] += a[0] * s, r[1] += a[1] * s, r[2] += a[2] * s;
}
static inline double csi_dot3(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline double csi_norm3(const double* a) { return sqrt(csi_dot3(a, a)); }
static inline void csi_cross3(double* r, const double* a, const double* b) {
  double t0 = a[1] * b[2] - a[2] * b[1];
  double t1 = a[2] * b[0] - a[0] * b[2];
  double t2 = a[0] * b[1] - a[1] * b[0];
  r[0] = t0, r[1] = t1, r[2] = t2;
}
static inline double csi_normalize3(double* a) {
  double n = csi_norm3(a);
  if (n > 0) csi_scl3(a, a, 1.0 / n);
  return n;
}
static inline double csi_dot(const double* a, const double* b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* ---- 3x3 row-major */
static inline void csi_mulmat3vec(double* r, const double* M, const double* v) {
  double t0 = M[0] * v[0] + M[1] * v[1] + M[2] * v[2];
  double t1 = M[3] * v[0] + M[4] * v[1] + M[5] * v[2];
  double t2 = M[6] * v[0] + M[7] * v[1] + M[8] * v[2];
  r[0] = t0, r[1] = t1, r[2] = t2;
}
static inline void csi_mulmat3tvec(double* r, const double* M, const double* v) {
  double t0 = M[0] * v[0] + M[3] * v[1] + M[6] * v[2];
  double t1 = M[1] * v[0] + M[4] * v[1] + M[7] * v[2];
  double t2 = M[2] * v[0] + M[5] * v[1] + M[8] * v[2];
  r[0] = t0, r[1] = t1, r[2] = t2;
}
static inline void csi_mulmat3(double* r, const double* A, const double* B) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
  memcpy(r, t, sizeof t);
}

/* ---- quaternions (w x y z) */
static inline void csi_quat_identity(double* q) { q[0] = 1, q[1] = q[2] = q[3] = 0; }
static inline double csi_quat_normalize(double* q) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n > 0) {
    double s = 1.0 / n;
    q[0] *= s, q[1] *= s, q[2] *= s, q[3] *= s;
  } else {
    csi_quat_identity(q);
  }
  return n;
}
static inline void csi_quat_mul(double* r, const double* a, const double* b) {
  double t0 = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double t1 = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double t2 = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double t3 = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
}
static inline void csi_quat2mat(double* R, const double* q) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
  double wx = w * x, wy = w * y, wz = w * z;
  R[0] = 1 - 2 * (yy + zz), R[1] = 2 * (xy - wz), R[2] = 2 * (xz + wy);
  R[3] = 2 * (xy + wz), R[4] = 1 - 2 * (xx + zz), R[5] = 2 * (yz - wx);
  R[6] = 2 * (xz - wy), R[7] = 2 * (yz + wx), R[8] = 1 - 2 * (xx + yy);
}
/* rotate v by unit quaternion q */
static inline void csi_quat_rotate(double* r, const double* q, const double* v) {
  double R[9];
  csi_quat2mat(R, q);
  csi_mulmat3vec(r, R, v);
}
/* quaternion of rotation by angle about unit axis */
static inline void csi_axisangle2quat(double* q, const double* axis, double angle) {
  double s = sin(0.5 * angle);
  q[0] = cos(0.5 * angle), q[1] = axis[0] * s, q[2] = axis[1] * s, q[3] = axis[2] * s;
}
/* exact exponential: quaternion of rotation vector w (angle |w|) */
static inline void csi_quat_exp(double* q, const double* w) {
  double th = csi_norm3(w);
  if (th < 1e-8) {
    /* series: cos(th/2) ~ 1 - th^2/8, sin(th/2)/th ~ 1/2 - th^2/48 */
    double c = 1 - th * th / 8, s = 0.5 - th * th / 48;
    q[0] = c, q[1] = w[0] * s, q[2] = w[1] * s, q[3] = w[2] * s;
  } else {
    double s = sin(0.5 * th) / th;
    q[0] = cos(0.5 * th), q[1] = w[0] * s, q[2] = w[1] * s, q[3] = w[2] * s;
  }
}
static inline void csi_mat2quat(double* q, const double* R) {
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
  csi_quat_normalize(q);
}

/* ---- symmetric 3x3 stored as xx yy zz xy xz yz */
static inline void csi_sym_mulvec(double* r, const double* I, const double* v) {
  double t0 = I[0] * v[0] + I[3] * v[1] + I[4] * v[2];
  double t1 = I[3] * v[0] + I[1] * v[1] + I[5] * v[2];
  double t2 = I[4] * v[0] + I[5] * v[1] + I[2] * v[2];
  r[0] = t0, r[1] = t1, r[2] = t2;
}
/* I_world = R I R^T */
static inline void csi_sym_rotate(double* out, const double* R, const double* I) {
  double F[9] = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]}, T[9], W[9];
  csi_mulmat3(T, R, F);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      W[3 * i + j] =
          T[3 * i] * R[3 * j] + T[3 * i + 1] * R[3 * j + 1] + T[3 * i + 2] * R[3 * j + 2];
  out[0] = W[0], out[1] = W[4], out[2] = W[8];
  out[3] = 0.5 * (W[1] + W[3]), out[4] = 0.5 * (W[2] + W[6]), out[5] = 0.5 * (W[5] + W[7]);
}

/* I_world = R I R^T, computing only the 6 distinct entries (no symmetrisation needed). */
static inline void csi_sym_rotate_fast(double* out, const double* R, const double* I) {
  /* T = R I (I symmetric) */
  double T[9];
  for (int i = 0; i < 3; i++) {
    const double* r = R + 3 * i;
    T[3 * i + 0] = r[0] * I[0] + r[1] * I[3] + r[2] * I[4];
    T[3 * i + 1] = r[0] * I[3] + r[1] * I[1] + r[2] * I[5];
    T[3 * i + 2] = r[0] * I[4] + r[1] * I[5] + r[2] * I[2];
  }
  out[0] = T[0] * R[0] + T[1] * R[1] + T[2] * R[2];
  out[1] = T[3] * R[3] + T[4] * R[4] + T[5] * R[5];
  out[2] = T[6] * R[6] + T[7] * R[7] + T[8] * R[8];
  out[3] = T[0] * R[3] + T[1] * R[4] + T[2] * R[5];
  out[4] = T[0] * R[6] + T[1] * R[7] + T[2] * R[8];
  out[5] = T[3] * R[6] + T[4] * R[7] + T[5] * R[8];
}

/* Two doubles in the lanes of one vector (GCC/Clang vector extension: an SSE2 register on
   x86-64, NEON on arm64, a pair of scalars elsewhere). Element-wise IEEE operations, so a
   lane computes exactly what the same scalar expression would. */
typedef double cs_v2 __attribute__((vector_size(16)));

/* Two doubles from / to memory that need not be 16-byte aligned. */
static inline cs_v2 csi_v2_load(const double* p) {
  cs_v2 x;
  memcpy(&x, p, sizeof x);
  return x;
}
static inline void csi_v2_store(double* p, cs_v2 x) { memcpy(p, &x, sizeof x); }

/* a[0..n) += b[0..n), two at a time (n even); the same sums as the scalar loop. */
static inline void csi_add_v2(double* a, const double* b, int n) {
  for (int r = 0; r < n; r += 2) csi_v2_store(a + r, csi_v2_load(a + r) + csi_v2_load(b + r));
}

/* s = sin(x / 2), c = cos(x / 2), inline and branch-free for |x| < 2^17 (within about one
   ulp of libm): Cody-Waite reduction by pi/2 in three parts, then the minimax polynomials
   of fdlibm's k_sin.c and k_cos.c on [-pi/4, pi/4], evaluated side by side in the two lanes
   of a vector. libm beyond, and for NaN/Inf. */
static inline void csi_sincos_half(double x, double* s, double* c) {
  double y = 0.5 * x;
  if (!(fabs(y) < 65536.0)) {
    *s = sin(y);
    *c = cos(y);
    return;
  }
  static const double A[4] = {1, 0, -1, 0}, B[4] = {0, 1, 0, -1};
  const double shift = 6755399441055744.0; /* 1.5 * 2^52: rounds to an integer */
  double n = (y * 0.63661977236758134308 + shift) - shift;
  int q = (int)n & 3;
  /* pi/2 = P1 + P2 + P3; P1, P2 have 33 significant bits, so n P1 and n P2 are exact */
  double r = (y - n * 1.57079632673412561417e+00) - n * 6.07710050630396597660e-11;
  r = r - n * 2.02226624879595063154e-21;
  double z = r * r;
  /* P(z) = c1 + c2 z + ... + c6 z^5 as (c1 + c2 z) + z^2 ((c3 + c4 z) + z^2 (c5 + c6 z)):
     shorter dependency chains than Horner */
  cs_v2 zz = {z, z}, z2 = zz * zz;
  cs_v2 p45 = (cs_v2){1.58969099521155010221e-10, -1.13596475577881948265e-11} * zz +
              (cs_v2){-2.50507602534068634195e-08, 2.08757232129817482790e-09};
  cs_v2 p23 = (cs_v2){2.75573137070700676789e-06, -2.75573143513906633035e-07} * zz +
              (cs_v2){-1.98412698298579493134e-04, 2.48015872894767294178e-05};
  cs_v2 p01 = (cs_v2){8.33333333332248946124e-03, -1.38888888888741095749e-03} * zz +
              (cs_v2){-1.66666666666666324348e-01, 4.16666666666666019037e-02};
  cs_v2 h = p01 + z2 * (p23 + z2 * p45);
  double sr = r + (z * r) * h[0];
  double hz = 0.5 * z, cw = 1.0 - hz;
  double cr = cw + (((1.0 - cw) - hz) + z2[0] * h[1]);
  *s = A[q] * sr + B[q] * cr;
  *c = A[q] * cr - B[q] * sr;
}

/* csi_sincos_half for two angles at once, one in each lane (same operations as the scalar
   version with its lanes side by side; libm for a lane outside |x| < 2^17). */
static inline void csi_sincos_half2(cs_v2 x, cs_v2* s, cs_v2* c) {
  cs_v2 y = x * (cs_v2){0.5, 0.5};
  if (!(fabs(y[0]) < 65536.0) || !(fabs(y[1]) < 65536.0)) {
    double s0, c0, s1, c1;
    csi_sincos_half(x[0], &s0, &c0);
    csi_sincos_half(x[1], &s1, &c1);
    *s = (cs_v2){s0, s1}, *c = (cs_v2){c0, c1};
    return;
  }
  static const double A[4] = {1, 0, -1, 0}, B[4] = {0, 1, 0, -1};
  const cs_v2 shift = {6755399441055744.0, 6755399441055744.0};
  cs_v2 n = (y * (cs_v2){0.63661977236758134308, 0.63661977236758134308} + shift) - shift;
  int q0 = (int)n[0] & 3, q1 = (int)n[1] & 3;
  cs_v2 r = (y - n * (cs_v2){1.57079632673412561417e+00, 1.57079632673412561417e+00}) -
            n * (cs_v2){6.07710050630396597660e-11, 6.07710050630396597660e-11};
  r = r - n * (cs_v2){2.02226624879595063154e-21, 2.02226624879595063154e-21};
  cs_v2 z = r * r;
  /* the scalar version's Estrin scheme, lanes = angles */
  cs_v2 z2 = z * z;
#define CSI_C2(v) ((cs_v2){(v), (v)})
  cs_v2 s45 = CSI_C2(1.58969099521155010221e-10) * z + CSI_C2(-2.50507602534068634195e-08);
  cs_v2 c45 = CSI_C2(-1.13596475577881948265e-11) * z + CSI_C2(2.08757232129817482790e-09);
  cs_v2 s23 = CSI_C2(2.75573137070700676789e-06) * z + CSI_C2(-1.98412698298579493134e-04);
  cs_v2 c23 = CSI_C2(-2.75573143513906633035e-07) * z + CSI_C2(2.48015872894767294178e-05);
  cs_v2 s01 = CSI_C2(8.33333333332248946124e-03) * z + CSI_C2(-1.66666666666666324348e-01);
  cs_v2 c01 = CSI_C2(-1.38888888888741095749e-03) * z + CSI_C2(4.16666666666666019037e-02);
#undef CSI_C2
  cs_v2 hs = s01 + z2 * (s23 + z2 * s45);
  cs_v2 hc = c01 + z2 * (c23 + z2 * c45);
  cs_v2 sr = r + (z * r) * hs;
  cs_v2 one = {1.0, 1.0};
  cs_v2 hz = (cs_v2){0.5, 0.5} * z, cw = one - hz;
  cs_v2 cr = cw + (((one - cw) - hz) + z2 * hc);
  cs_v2 a = {A[q0], A[q1]}, b = {B[q0], B[q1]};
  *s = a * sr + b * cr;
  *c = a * cr - b * sr;
}

/* ---- spatial algebra, [angular; linear] about a common point (the world origin)
   Body inertia about the origin stored in 10 numbers: m, h = m c (3), I_O (6 sym). */
/* motion x motion: r = v x u */
static inline void csi_cross_motion(double* r, const double* v, const double* u) {
  double a[3], b[3], c[3];
  csi_cross3(a, v, u);
  csi_cross3(b, v, u + 3);
  csi_cross3(c, v + 3, u);
  r[0] = a[0], r[1] = a[1], r[2] = a[2];
  r[3] = b[0] + c[0], r[4] = b[1] + c[1], r[5] = b[2] + c[2];
}
/* motion x force: r = v x* f */
static inline void csi_cross_force(double* r, const double* v, const double* f) {
  double a[3], b[3], c[3];
  csi_cross3(a, v, f);
  csi_cross3(b, v + 3, f + 3);
  csi_cross3(c, v, f + 3);
  r[0] = a[0] + b[0], r[1] = a[1] + b[1], r[2] = a[2] + b[2];
  r[3] = c[0], r[4] = c[1], r[5] = c[2];
}
/* f = I v for the 10-number inertia */
static inline void csi_inert_mul(double* f, const double* I, const double* v) {
  const double m = I[0], *h = I + 1, *Io = I + 4;
  double t[3], s[3];
  csi_sym_mulvec(t, Io, v);
  csi_cross3(s, h, v + 3); /* h x v_lin */
  f[0] = t[0] + s[0], f[1] = t[1] + s[1], f[2] = t[2] + s[2];
  csi_cross3(s, v, h); /* w x h: momentum of the com velocity v_O + w x c */
  f[3] = m * v[3] + s[0], f[4] = m * v[4] + s[1], f[5] = m * v[5] + s[2];
}

/* f = I v for two 10-number inertias and two vectors at once (one in each lane); the same
   operations as csi_inert_mul. */
static inline void csi_inert_mul_v2(cs_v2* restrict f, const cs_v2* I, const cs_v2* v) {
  f[0] = (I[4] * v[0] + I[7] * v[1] + I[8] * v[2]) + (I[2] * v[5] - I[3] * v[4]);
  f[1] = (I[7] * v[0] + I[5] * v[1] + I[9] * v[2]) + (I[3] * v[3] - I[1] * v[5]);
  f[2] = (I[8] * v[0] + I[9] * v[1] + I[6] * v[2]) + (I[1] * v[4] - I[2] * v[3]);
  f[3] = I[0] * v[3] + (v[1] * I[3] - v[2] * I[2]);
  f[4] = I[0] * v[4] + (v[2] * I[1] - v[0] * I[3]);
  f[5] = I[0] * v[5] + (v[0] * I[2] - v[1] * I[1]);
}

#endif
