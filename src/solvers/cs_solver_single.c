/* The single-contact baselines of paper 001's Table I (docs/solvers/bisection.md): Preclik's
   golden-section search and the analytical (quartic) method, for the same contact model as
   csi_bisection_single (cs_solver_bisection.h). Opening, sticking and rank-deficient
   contacts go through the same csi_single_classify; only the slip search differs.

   Golden section (Preclik [7]): first the bracket, the line-of-sight arc of the slip
   ellipse seen from lambda^{v=0}, |t - t0| <= acos(mu lambda^{v=0}_N / |lambda^{v=0}_T|)
   about the atan2 direction t0, cut to the arc where r > 0 (D(t) = G_NN/mu + a_T . u > 0,
   an arc about the direction of a_T); the energy is unimodal there (paper 001 Sec. III-A).
   Then golden-section steps on the energy of eq. (12) along the ellipse, each needing cos
   and sin of a new angle, until the impulse interval between the bracket's ends is below
   tol; the answer is the better inner point.

   Analytical method (Preclik, Eibl, Ruede [19]): the stationarity condition dE/dt = 0 on the
   ellipse, multiplied by the positive D (the same quadratic form in (cos t, sin t) as the
   bisection's sign; coefficients computed here again, as the method must), is a quartic in
   x = tan((t - t0)/2) (angles measured from the atan2 direction t0, so that the search arc
   stays away from x = +-inf). Its real roots come from Ferrari's resolvent cubic (Cardano or
   Viete), each polished by Newton steps (Ferrari's roots can lose half their digits); the
   checks keep the roots with r > 0 and in line of sight and pick the one of least energy.
   tol is not used: the roots are exact up to rounding. */
#include <math.h>
#include <stddef.h>

#include "solvers/cs_solver_bisection.h"

#define GOLD 0.61803398874989484820 /* (sqrt 5 - 1) / 2 */
#define PI 3.14159265358979323846

/* The ellipse of the paper's model in hybrid form (eq. 16). */
typedef struct Ellipse {
  double mu, imu, dn, a1, a2, mcn;                    /* r = mcn / (dn + a1 cos t + a2 sin t) */
  double gb11, gb12, gb22, cb1, cb2;                  /* v_T = Gbar lambda_T + cbar */
  double g00, g01, g02, g11, g12, g22, l0n, l0x, l0y; /* G and lambda^{v=0} for eq. (12) */
} Ellipse;

static void ellipse_init(Ellipse* e, const csiSlip* s) {
  double a0 = s->g00, a1 = s->g01, a2 = s->g02, ia0 = 1.0 / a0;
  e->mu = s->mu, e->imu = 1.0 / s->mu;
  e->dn = a0 / s->mu, e->a1 = a1, e->a2 = a2, e->mcn = -s->c0;
  e->gb11 = s->g11 - a1 * a1 * ia0, e->gb12 = s->g12 - a1 * a2 * ia0;
  e->gb22 = s->g22 - a2 * a2 * ia0;
  e->cb1 = s->c1 - a1 * s->c0 * ia0, e->cb2 = s->c2 - a2 * s->c0 * ia0;
  e->g00 = s->g00, e->g01 = s->g01, e->g02 = s->g02, e->g11 = s->g11, e->g12 = s->g12;
  e->g22 = s->g22, e->l0n = s->l0n, e->l0x = s->l0x, e->l0y = s->l0y;
}

/* The energy of eq. (12), 1/2 (lambda - lambda^{v=0})^T G (lambda - lambda^{v=0}), at
   direction (ux, uy), and r; +inf where r <= 0. This form, a sum of positive terms, keeps
   its relative precision near the minimum, where 1/2 lambda^T G lambda + c^T lambda loses
   digits to cancellation (and a golden-section search compares nothing but values). */
static inline double ellipse_energy(const Ellipse* e, double ux, double uy, double* r) {
  double d = e->dn + e->a1 * ux + e->a2 * uy;
  if (!(d > 0)) {
    *r = INFINITY;
    return INFINITY;
  }
  double rr = e->mcn / d;
  double dn = rr * e->imu - e->l0n, dx = rr * ux - e->l0x, dy = rr * uy - e->l0y;
  *r = rr;
  return 0.5 * (dn * (e->g00 * dn + 2 * (e->g01 * dx + e->g02 * dy)) +
                dx * (e->g11 * dx + 2 * e->g12 * dy) + e->g22 * dy * dy);
}

/* ------------------------------------------------------------------ golden section */
typedef struct {
  double t, e, r, ux, uy;
} GoldPt;

static inline void gold_eval(const Ellipse* el, double t, GoldPt* p) {
  p->t = t;
  p->ux = cos(t), p->uy = sin(t);
  p->e = ellipse_energy(el, p->ux, p->uy, &p->r);
}

int csi_golden_single(const double G[9], const double c[3], double mu, double tol, double lambda[3],
                      int* steps) {
  csiSlip s = {0};
  int k = csi_single_setup(G, c, mu, NULL, &s, lambda, steps);
  if (k != CSI_CASE_SLIP) return k;
  Ellipse el;
  ellipse_init(&el, &s);
  /* The initial bracketing: the line-of-sight arc about t0, cut to r > 0. */
  double t0 = atan2(s.l0y, s.l0x), l0t = sqrt(s.l0x * s.l0x + s.l0y * s.l0y);
  double ratio = l0t > 0 ? mu * s.l0n / l0t : -1;
  double beta = ratio >= 1 ? 0 : ratio <= -1 ? PI : acos(ratio);
  double lo = t0 - beta, hi = t0 + beta;
  double at = sqrt(el.a1 * el.a1 + el.a2 * el.a2);
  if (at > el.dn) {
    double ta = atan2(el.a2, el.a1), del = acos(-el.dn / at);
    double pa = ta - t0;
    while (pa > PI) pa -= 2 * PI;
    while (pa < -PI) pa += 2 * PI;
    if (t0 + pa - del > lo) lo = t0 + pa - del;
    if (t0 + pa + del < hi) hi = t0 + pa + del;
  }
  /* Golden-section steps. The ends are evaluated too, for the interval test; an end where
     r = inf (D = 0) passes it only once it has moved, which it does: E grows without bound
     there. */
  GoldPt a, b, x1, x2;
  gold_eval(&el, lo, &a);
  gold_eval(&el, hi, &b);
  gold_eval(&el, hi - GOLD * (hi - lo), &x1);
  gold_eval(&el, lo + GOLD * (hi - lo), &x2);
  int nev = 4;
  double tol2 = tol * tol;
  while (nev < 400) {
    if (a.r < INFINITY && b.r < INFINITY) {
      double dn = (a.r - b.r) * el.imu, dx = a.r * a.ux - b.r * b.ux;
      double dy = a.r * a.uy - b.r * b.uy;
      if (dn * dn + dx * dx + dy * dy < tol2) break;
    }
    if (b.t - a.t < 1e-15) break;
    if (x1.e < x2.e) {
      b = x2, x2 = x1;
      gold_eval(&el, b.t - GOLD * (b.t - a.t), &x1);
    } else {
      a = x1, x1 = x2;
      gold_eval(&el, a.t + GOLD * (b.t - a.t), &x2);
    }
    nev++;
  }
  const GoldPt* best = x1.e < x2.e ? &x1 : &x2;
  double r = best->r < INFINITY ? best->r : 0;
  lambda[0] = r * el.imu, lambda[1] = r * best->ux, lambda[2] = r * best->uy;
  if (steps) *steps = nev;
  return k;
}

/* ------------------------------------------------------------------ closed-form roots */
/* Real roots of x^2 + b x + c (0 or 2, a double root counted twice). */
static int quadratic(double b, double c, double* x) {
  double disc = b * b - 4 * c;
  if (disc < 0) return 0;
  double q = -0.5 * (b + (b >= 0 ? sqrt(disc) : -sqrt(disc)));
  if (q == 0) {
    x[0] = x[1] = 0;
    return 2;
  }
  x[0] = q, x[1] = c / q;
  return 2;
}

/* The largest real root of x^3 + a x^2 + b x + c (Cardano with one real root, Viete's
   trigonometric form with three), with one Newton step. */
static double cubic_max(double a, double b, double c) {
  double a3 = a / 3, p = b - a * a3, q = 2 * a3 * a3 * a3 - a3 * b + c;
  double h = 0.25 * q * q + p * p * p / 27, z;
  if (h > 0) {
    double sh = sqrt(h);
    z = cbrt(-0.5 * q + sh) + cbrt(-0.5 * q - sh);
  } else if (p < 0) {
    double m = 2 * sqrt(-p / 3), arg = 3 * q / (p * m);
    if (arg > 1) arg = 1;
    if (arg < -1) arg = -1;
    z = m * cos(acos(arg) / 3);
  } else {
    z = 0;
  }
  double x = z - a3;
  double f = ((x + a) * x + b) * x + c, df = (3 * x + 2 * a) * x + b;
  if (df != 0) x -= f / df;
  return x;
}

/* Real roots of x^4 + b x^3 + c x^2 + d x + e by Ferrari's method. */
static int quartic(double b, double c, double d, double e, double* x) {
  double b4 = 0.25 * b, bb = b * b;
  double p = c - 0.375 * bb;
  double q = d - 0.5 * b * c + 0.125 * bb * b;
  double r = e - 0.25 * b * d + 0.0625 * bb * c - 3.0 / 256 * bb * bb;
  int n = 0;
  double y[4];
  double scale = fabs(p) * fabs(p) + fabs(r) + 1e-300;
  /* y^4 + p y^2 + q y + r = (y^2 + p/2 + m)^2 - (s y - q / (2 s))^2 with s = sqrt(2 m)
     and m a root of m^3 + p m^2 + (p^2/4 - r) m - q^2/8 (the resolvent cubic; its largest
     root is positive since the product of its roots is q^2/8 > 0) */
  double m = q * q <= 1e-28 * scale * fabs(p) + 1e-300
                 ? 0
                 : cubic_max(p, 0.25 * p * p - r, -0.125 * q * q);
  if (m > 0) {
    double sq = sqrt(2 * m), t = q / (2 * sq), z[2];
    if (quadratic(-sq, 0.5 * p + m + t, z)) y[n++] = z[0], y[n++] = z[1];
    if (quadratic(sq, 0.5 * p + m - t, z)) y[n++] = z[0], y[n++] = z[1];
  } else {
    /* q ~ 0: the biquadratic y^4 + p y^2 + r */
    double z[2];
    if (quadratic(p, r, z))
      for (int i = 0; i < 2; i++)
        if (z[i] >= 0) y[n++] = sqrt(z[i]), y[n++] = -sqrt(z[i]);
  }
  for (int i = 0; i < n; i++) x[i] = y[i] - b4;
  return n;
}

/* ------------------------------------------------------------------ analytical method */
int csi_analytic_single(const double G[9], const double c[3], double mu, double tol,
                        double lambda[3], int* steps) {
  (void)tol;
  csiSlip s = {0};
  int k = csi_single_setup(G, c, mu, NULL, &s, lambda, steps);
  if (k != CSI_CASE_SLIP) return k;
  Ellipse el;
  ellipse_init(&el, &s);
  /* The coefficients: D (dE/dt) / (r mu) = u^T A u + l . u + k0 in u = (cos t, sin t)
     (derivation in cs_solver_bisection.c), then rotated to w = (cos f, sin f) with
     f = t - t0, u = R(t0) w. */
  double a0 = s.g00, a1 = s.g01, a2 = s.g02, mcn = el.mcn, dn = el.dn;
  double p11 = mcn * el.gb11 + el.cb1 * a1, p12 = mcn * el.gb12 + el.cb1 * a2;
  double p21 = mcn * el.gb12 + el.cb2 * a1, p22 = mcn * el.gb22 + el.cb2 * a2;
  double q1 = dn * el.cb1, q2 = dn * el.cb2, h1 = -mu * a2, h2 = mu * a1;
  double axx = a0 * p21, ayy = -a0 * p12, axy = a0 * (p22 - p11);
  double lx = p11 * h1 + p21 * h2 + q2 * a0, ly = p12 * h1 + p22 * h2 - q1 * a0;
  double k0 = q1 * h1 + q2 * h2;
  double cs = s.ux, sn = s.uy; /* (cos t0, sin t0) */
  /* u = (cs wx - sn wy, sn wx + cs wy) */
  double bxx = axx * cs * cs + axy * cs * sn + ayy * sn * sn;
  double byy = axx * sn * sn - axy * cs * sn + ayy * cs * cs;
  double bxy = -2 * axx * cs * sn + axy * (cs * cs - sn * sn) + 2 * ayy * cs * sn;
  double mx = lx * cs + ly * sn, my = -lx * sn + ly * cs;
  /* wx = (1 - x^2) / (1 + x^2), wy = 2 x / (1 + x^2), times (1 + x^2)^2 */
  double c4 = bxx - mx + k0, c3 = 2 * (my - bxy), c2 = 4 * byy - 2 * bxx + 2 * k0;
  double c1 = 2 * (bxy + my), cc0 = bxx + mx + k0;
  double big = fabs(c4) + fabs(c3) + fabs(c2) + fabs(c1) + fabs(cc0);
  double roots[5];
  int n = 0;
  if (fabs(c4) > 1e-13 * big) {
    double ia = 1.0 / c4;
    n = quartic(c3 * ia, c2 * ia, c1 * ia, cc0 * ia, roots);
  } else if (fabs(c3) > 1e-13 * big) {
    /* a root went to x = inf (f = pi): the cubic c3 x^3 + c2 x^2 + c1 x + c0 */
    double ia = 1.0 / c3, b2 = c2 * ia, b1 = c1 * ia, b0 = cc0 * ia;
    double r0 = cubic_max(b2, b1, b0);
    roots[n++] = r0;
    /* deflate to the quadratic x^2 + (b2 + r0) x + (b1 + r0 (b2 + r0)) */
    double z[2];
    if (quadratic(b2 + r0, b1 + r0 * (b2 + r0), z)) roots[n++] = z[0], roots[n++] = z[1];
  }
  /* the checks: r > 0, line of sight, least energy */
  double best = INFINITY, bux = s.ux, buy = s.uy, br = 0;
  for (int i = 0; i < n; i++) {
    double x = roots[i];
    /* Newton on the quartic: Ferrari's roots can lose half their digits */
    for (int it = 0; it < 8; it++) {
      double f = (((c4 * x + c3) * x + c2) * x + c1) * x + cc0;
      double df = ((4 * c4 * x + 3 * c3) * x + 2 * c2) * x + c1;
      if (df == 0) break;
      double dx = f / df;
      x -= dx;
      if (fabs(dx) <= 1e-15 * (1 + fabs(x))) break;
    }
    double ix = 1.0 / (1 + x * x), wx = (1 - x * x) * ix, wy = 2 * x * ix;
    double ux = cs * wx - sn * wy, uy = sn * wx + cs * wy;
    if (ux * s.l0x + uy * s.l0y < mu * s.l0n) continue;
    double r, e = ellipse_energy(&el, ux, uy, &r);
    if (e < best) best = e, bux = ux, buy = uy, br = r;
  }
  if (n == 0 || best == INFINITY) {
    /* no admissible root (rounding at a degenerate ellipse): the atan2 guess */
    ellipse_energy(&el, s.ux, s.uy, &br);
    if (!(br < INFINITY)) br = 0;
  }
  lambda[0] = br * el.imu, lambda[1] = br * bux, lambda[2] = br * buy;
  if (steps) *steps = n;
  return k;
}
