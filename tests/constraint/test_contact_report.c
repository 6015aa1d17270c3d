/* The NCP report and the contact frame: hand-computed single contacts (sticking, outside
   the cone, sliding with maximal dissipation, separating, complementarity violated,
   frictionless), the Siconos error against a straightforward re-implementation written
   differently (angles instead of the closed-form projection), and the tangent basis. */
#include <float.h>
#include <string.h>

#include "constraint/cs_contact_cone.h"
#include "contactsim/cs_contact.h"
#include "cs_test.h"

#define NCMAX 12

/* A problem of nc contacts with G = diag(d) (d = 0 gives G = 0) and v chosen: g = v - G l,
   all exact in floating point for the small integers and halves used here. */
typedef struct Prob {
  double G[9 * NCMAX * NCMAX], g[3 * NCMAX], mu[NCMAX], R[3 * NCMAX];
  csContactProblem p;
} Prob;

static void make_diag(Prob* P, int nc, double d, const double* lambda, const double* v,
                      const double* mu) {
  memset(P, 0, sizeof *P);
  int n = 3 * nc;
  for (int i = 0; i < n; i++) {
    P->G[i * n + i] = d;
    P->g[i] = v[i] - d * lambda[i];
  }
  for (int i = 0; i < nc; i++) P->mu[i] = mu[i];
  P->p.nc = nc;
  P->p.mu = P->mu;
  P->p.G = P->G;
  P->p.g = P->g;
}

static csNcpReport report1(const double lambda[3], const double v[3], double mu) {
  static Prob P;
  make_diag(&P, 1, 2.0, lambda, v, &mu);
  csNcpReport r;
  cs_ncp_report(&P.p, lambda, &r);
  return r;
}

static void check_all_zero(const csNcpReport* r, const char* what) {
  CHECK_MSG(r->eps_p == 0 && r->eps_d == 0 && r->eps_c == 0 && r->eps_abs == 0, "%s: eps %g %g %g",
            what, r->eps_p, r->eps_d, r->eps_c);
  CHECK_MSG(r->error == 0 && r->error_1pq == 0, "%s: error %g %g", what, r->error, r->error_1pq);
}

static void test_hand_cases(void) {
  double mu = 0.5;
  { /* sticking strictly inside the cone, v = 0 */
    double l[3] = {2, 0.25, -0.5}, v[3] = {0, 0, 0};
    csNcpReport r = report1(l, v, mu);
    check_all_zero(&r, "sticking");
    CHECK(r.signorini == 0);
  }
  { /* outside the cone: |l_T| = 2 > mu l_N = 0.5, distance (2 - 0.5) / sqrt(1.25) */
    double l[3] = {1, 0, 2}, v[3] = {0, 0, 0};
    csNcpReport r = report1(l, v, mu);
    CHECK_NEAR(r.eps_p, 1.5 / sqrt(1.25), 1e-15);
    CHECK(r.eps_d == 0 && r.eps_c == 0);
    CHECK(r.eps_abs == r.eps_p);
    CHECK(r.error > 0);
  }
  { /* in the polar cone: the nearest cone point is the apex, distance |l| */
    double l[3] = {-4, 1, 0}, v[3] = {0, 0, 0};
    csNcpReport r = report1(l, v, mu);
    CHECK_NEAR(r.eps_p, sqrt(17.0), 1e-15);
  }
  { /* sliding: v = (0, 6, 8), l on the boundary opposite to v_T (maximal dissipation).
       Without de Saxce's term v would be outside K* (|v_T| > 0 = v_N / mu); with it
       v~ = (5, 6, 8) is on K*'s boundary and <l, v~> = 50 - 18 - 32 = 0. */
    double l[3] = {10, -3, -4}, v[3] = {0, 6, 8};
    csNcpReport r = report1(l, v, mu);
    check_all_zero(&r, "sliding MDP");
    CHECK(r.signorini == 0);
    /* the same slip with the force not opposite to it (rotated 90 degrees) is not */
    double l2[3] = {10, 4, -3};
    r = report1(l2, v, mu);
    CHECK_NEAR(r.eps_c, 50.0, 1e-12); /* <l2, v~> = 50 + 24 - 24 */
    CHECK(r.eps_p == 0 && r.eps_d == 0);
  }
  { /* separating, no force */
    double l[3] = {0, 0, 0}, v[3] = {1, 2, 3};
    csNcpReport r = report1(l, v, mu);
    check_all_zero(&r, "separating");
  }
  { /* complementarity violated: pushing while separating at v_N = 3 */
    double l[3] = {2, 0.5, 0}, v[3] = {3, 0, 0};
    csNcpReport r = report1(l, v, mu);
    CHECK(r.eps_p == 0 && r.eps_d == 0);
    CHECK(r.eps_c == 6 && r.eps_abs == 6 && r.signorini == 6);
    CHECK(r.error > 0 && r.error_1pq > 0);
  }
  { /* penetrating velocity with no force: dual infeasible by exactly 2 */
    double l[3] = {0, 0, 0}, v[3] = {-2, 0, 0};
    csNcpReport r = report1(l, v, mu);
    CHECK(r.eps_d == 2 && r.eps_p == 0 && r.eps_c == 0 && r.eps_abs == 2);
  }
  /* mu = 0: K_0 the ray, K*_0 the half-space v_N >= 0 */
  { /* frictionless sliding with a normal force: exact solution */
    double l[3] = {2, 0, 0}, v[3] = {0, 1, -3};
    csNcpReport r = report1(l, v, 0.0);
    check_all_zero(&r, "mu 0 sliding");
  }
  { /* a tangential force with mu = 0: distance = |l_T| */
    double l[3] = {2, 3, 4}, v[3] = {0, 0, 0};
    csNcpReport r = report1(l, v, 0.0);
    CHECK(r.eps_p == 5 && r.eps_d == 0 && r.eps_c == 0);
  }
  { /* mu = 0, K*_0 is a half-space: tangential velocity costs nothing, v_N = -2 costs 2 */
    double l[3] = {0, 0, 0}, v[3] = {-2, 5, 7};
    csNcpReport r = report1(l, v, 0.0);
    CHECK(r.eps_d == 2 && r.eps_p == 0 && r.eps_c == 0);
  }
  { /* mu = 0, negative normal force: distance |l_N| to the ray */
    double l[3] = {-3, 0, 4}, v[3] = {0, 0, 0};
    csNcpReport r = report1(l, v, 0.0);
    CHECK(r.eps_p == 5);
  }
  { /* max over contacts, and R: v = G l + g + R l */
    static Prob P;
    double l[6] = {2, 0.25, 0, 1, 0, 2}, v[6] = {0, 0, 0, 0, 0, 0}, mus[2] = {0.5, 0.5};
    make_diag(&P, 2, 0.0, l, v, mus);
    csNcpReport r;
    cs_ncp_report(&P.p, l, &r);
    CHECK_NEAR(r.eps_p, 1.5 / sqrt(1.25), 1e-15);
    for (int i = 0; i < 6; i++) P.R[i] = 0.5;
    P.p.R = P.R; /* v = 0.5 l: contact 0 now separates while pushing, <l, v~> */
    cs_ncp_report(&P.p, l, &r);
    double vt0 = hypot(0.125, 0), c0 = 2 * (1 + 0.5 * vt0) + 0.25 * 0.125;
    double vt1 = 1, c1 = 1 * (0.5 + 0.5 * vt1) + 2 * 1;
    CHECK_NEAR(r.eps_c, fmax(c0, c1), 1e-15);
    CHECK_NEAR(r.signorini, fmax(2 * 1.0, 1 * 0.5), 1e-15);
  }
  { /* nc = 0 and the zero problem */
    csContactProblem p0;
    memset(&p0, 0, sizeof p0);
    csNcpReport r;
    memset(&r, 0xff, sizeof r);
    cs_ncp_report(&p0, NULL, &r);
    check_all_zero(&r, "nc 0");
    CHECK(r.signorini == 0);
  }
}

/* ---------------------------------------------------------------- reference error */

/* Projection onto K_mu by angles in the (x_N, |x_T|) half-plane: the cone is the sector of
   half-angle a = atan(mu) around the normal. Deliberately unlike the closed form. */
static void ref_project(const double* x, double mu, double* out) {
  double r = sqrt(x[1] * x[1] + x[2] * x[2]);
  double phi = atan2(r, x[0]), a = atan(mu);
  if (phi <= a) {
    out[0] = x[0], out[1] = x[1], out[2] = x[2];
  } else if (phi >= a + 2 * atan(1.0)) {
    out[0] = out[1] = out[2] = 0;
  } else {
    double len = x[0] * cos(a) + r * sin(a); /* component along the boundary ray */
    out[0] = len * cos(a);
    double t = r > 0 ? len * sin(a) / r : 0;
    out[1] = t * x[1], out[2] = t * x[2];
  }
}

static double ref_dist(const double* x, double mu, int dual) {
  /* K*_mu is the sector of half-angle atan(1/mu) */
  double r = sqrt(x[1] * x[1] + x[2] * x[2]);
  double phi = atan2(r, x[0]);
  double a = dual ? (mu > 0 ? atan(1 / mu) : 2 * atan(1.0)) : atan(mu);
  if (phi <= a) return 0;
  if (phi >= a + 2 * atan(1.0)) return sqrt(x[0] * x[0] + r * r);
  return sqrt(x[0] * x[0] + r * r) * sin(phi - a);
}

typedef struct RefReport {
  double err_abs, error, error_1pq, eps_p, eps_d, eps_c;
} RefReport;

static RefReport reference(const csContactProblem* p, const double* l) {
  int n = 3 * p->nc;
  double v[3 * NCMAX];
  for (int a = 0; a < n; a++) {
    v[a] = p->g[a];
    for (int b = 0; b < n; b++) v[a] += p->G[a * n + b] * l[b];
    if (p->R) v[a] += p->R[a] * l[a];
  }
  RefReport R = {0, 0, 0, 0, 0, 0};
  double s = 0, nq = 0, nl = 0, nv = 0;
  for (int a = 0; a < n; a++) nq += p->g[a] * p->g[a], nl += l[a] * l[a], nv += v[a] * v[a];
  for (int i = 0; i < p->nc; i++) {
    const double* li = l + 3 * i;
    const double* vi = v + 3 * i;
    double mu = p->mu[i];
    double vs[3] = {vi[0] + mu * sqrt(vi[1] * vi[1] + vi[2] * vi[2]), vi[1], vi[2]};
    double w[3] = {li[0] - vs[0], li[1] - vs[1], li[2] - vs[2]}, pw[3];
    ref_project(w, mu, pw);
    for (int k = 0; k < 3; k++) s += (li[k] - pw[k]) * (li[k] - pw[k]);
    R.eps_p = fmax(R.eps_p, ref_dist(li, mu, 0));
    R.eps_d = fmax(R.eps_d, ref_dist(vs, mu, 1));
    R.eps_c = fmax(R.eps_c, fabs(li[0] * vs[0] + li[1] * vs[1] + li[2] * vs[2]));
  }
  R.err_abs = sqrt(s);
  R.error = R.err_abs / fmax(sqrt(nq), fmax(sqrt(nl), sqrt(nv)));
  R.error_1pq = R.err_abs / (1 + sqrt(nq));
  return R;
}

static double rel(double a, double b) { return fabs(a - b) / fmax(fabs(b), 1e-300); }

static void test_random_vs_reference(void) {
  static Prob P;
  double worst = 0, worst_eps = 0;
  for (int trial = 0; trial < 200; trial++) {
    int nc = 1 + trial % NCMAX, n = 3 * nc, nv = n + 4;
    memset(&P, 0, sizeof P);
    /* G = J J^T / m, J random: symmetric positive semi-definite like a Delassus matrix */
    static double J[3 * NCMAX * (3 * NCMAX + 4)];
    for (int a = 0; a < n * nv; a++) J[a] = cs_test_gauss();
    for (int a = 0; a < n; a++)
      for (int b = 0; b < n; b++) {
        double s = 0;
        for (int k = 0; k < nv; k++) s += J[a * nv + k] * J[b * nv + k];
        P.G[a * n + b] = s / 3.0;
      }
    double l[3 * NCMAX];
    for (int a = 0; a < n; a++) {
      P.g[a] = cs_test_uniform(-2, 2);
      l[a] = cs_test_uniform(-1, 1);
    }
    for (int i = 0; i < nc; i++) {
      P.mu[i] = (trial % 7 == 0) ? 0.0 : cs_test_uniform(0.05, 1.5);
      l[3 * i] = cs_test_uniform(-0.2, 2); /* mostly pushing, some pulling */
    }
    if (trial % 3 == 0) {
      for (int a = 0; a < n; a++) P.R[a] = cs_test_uniform(0, 0.1);
      P.p.R = P.R;
    }
    P.p.nc = nc, P.p.mu = P.mu, P.p.G = P.G, P.p.g = P.g;
    csNcpReport r;
    cs_ncp_report(&P.p, l, &r);
    RefReport ref = reference(&P.p, l);
    double e = fmax(rel(r.error, ref.error), rel(r.error_1pq, ref.error_1pq));
    if (e > worst) worst = e;
    CHECK_MSG(e <= 1e-14, "trial %d: error %.17g vs %.17g, 1pq %.17g vs %.17g", trial, r.error,
              ref.error, r.error_1pq, ref.error_1pq);
    /* eps by angles carry atan/sin rounding: compare relative to the problem's scale */
    double sc = 1 + ref.eps_c;
    double ee = fmax(fabs(r.eps_p - ref.eps_p), fabs(r.eps_d - ref.eps_d));
    ee = fmax(ee, fabs(r.eps_c - ref.eps_c)) / sc;
    if (ee > worst_eps) worst_eps = ee;
    CHECK_MSG(ee <= 1e-12, "trial %d: eps %g %g %g vs %g %g %g", trial, r.eps_p, r.eps_d, r.eps_c,
              ref.eps_p, ref.eps_d, ref.eps_c);
    CHECK(r.eps_abs == fmax(r.eps_p, fmax(r.eps_d, r.eps_c)));
  }
  printf(
      "Siconos error vs reference: worst relative difference %.3g (tolerance 1e-14); "
      "eps %.3g\n",
      worst, worst_eps);
}

/* The projections themselves: idempotent, the residual in the polar cone (Moreau), and the
   distances equal |x - P(x)|. */
static void test_projections(void) {
  double worst = 0;
  for (int t = 0; t < 2000; t++) {
    double mu = (t % 5 == 0) ? 0.0 : cs_test_uniform(0.01, 3);
    double x[3] = {cs_test_gauss(), cs_test_gauss(), cs_test_gauss()};
    for (int dual = 0; dual < 2; dual++) {
      double px[3], ppx[3];
      if (dual) {
        csi_project_dual_cone(x, mu, px);
        csi_project_dual_cone(px, mu, ppx);
      } else {
        csi_project_cone(x, mu, px);
        csi_project_cone(px, mu, ppx);
      }
      double d = csi_dist_cone(px, mu);
      if (dual) d = csi_dist_dual_cone(px, mu);
      double xn = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
      CHECK_MSG(d <= 1e-15 * (1 + mu) * xn, "P(x) not in the cone: %g", d);
      double q[3] = {x[0] - px[0], x[1] - px[1], x[2] - px[2]};
      /* Moreau: x - P_K(x) lies in the polar cone -K* and is orthogonal to P_K(x) */
      double mq[3] = {-q[0], -q[1], -q[2]};
      double dpolar = dual ? csi_dist_cone(mq, mu) : csi_dist_dual_cone(mq, mu);
      double orth = fabs(q[0] * px[0] + q[1] * px[1] + q[2] * px[2]);
      double dist = dual ? csi_dist_dual_cone(x, mu) : csi_dist_cone(x, mu);
      double qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
      double e = fmax(fmax(dpolar, orth), fabs(dist - qn));
      for (int k = 0; k < 3; k++) e = fmax(e, fabs(ppx[k] - px[k]));
      if (e > worst) worst = e;
      CHECK_MSG(e <= 1e-14 * (1 + xn), "mu %g dual %d x (%g %g %g): %g", mu, dual, x[0], x[1], x[2],
                e);
    }
  }
  printf("projections: worst Moreau/idempotence/distance defect %.3g\n", worst);
  /* mu = 0 exactly: the ray and the half-space */
  double x[3] = {-1, 2, 3}, y[3];
  csi_project_cone(x, 0, y);
  CHECK(y[0] == 0 && y[1] == 0 && y[2] == 0);
  csi_project_dual_cone(x, 0, y);
  CHECK(y[0] == 0 && y[1] == 2 && y[2] == 3);
  double z[3] = {4, 2, 3};
  csi_project_cone(z, 0, y);
  CHECK(y[0] == 4 && y[1] == 0 && y[2] == 0);
  CHECK(csi_dist_cone(z, 0) == hypot(2, 3) && csi_dist_dual_cone(x, 0) == 1);
}

/* ---------------------------------------------------------------- contact frame */

static void check_frame(const double n[3], const char* what) {
  double f[9];
  cs_contact_frame(n, f);
  const double *a = f, *b = f + 3, *c = f + 6;
  CHECK_MSG(a[0] == n[0] && a[1] == n[1] && a[2] == n[2], "%s: row 0 is not n", what);
  double e = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double d = f[3 * i] * f[3 * j] + f[3 * i + 1] * f[3 * j + 1] + f[3 * i + 2] * f[3 * j + 2];
      e = fmax(e, fabs(d - (i == j)));
    }
  CHECK_MSG(e <= 4 * DBL_EPSILON, "%s: not orthonormal (%g)", what, e);
  double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0]);
  CHECK_MSG(fabs(det - 1) <= 4 * DBL_EPSILON, "%s: det %g (not right-handed)", what, det);
}

static void expect_t1(const double n[3], double x, double y, double z, const char* what) {
  double f[9];
  cs_contact_frame(n, f);
  CHECK_MSG(fabs(f[3] - x) <= 1e-15 && fabs(f[4] - y) <= 1e-15 && fabs(f[5] - z) <= 1e-15,
            "%s: t1 = (%g %g %g), expected (%g %g %g)", what, f[3], f[4], f[5], x, y, z);
}

static void test_frame(void) {
  double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1}, mz[3] = {0, 0, -1};
  double s = 1 / sqrt(3.0), d[3] = {s, s, s};
  /* n = z: |n_x| = |n_y| tie, x first: t1 = z x x = y, t2 = z x y = -x */
  expect_t1(ez, 0, 1, 0, "n = z");
  double f[9];
  cs_contact_frame(ez, f);
  CHECK(f[6] == -1 && f[7] == 0 && f[8] == 0);
  CHECK(f[3] == 0 && f[4] == 1 && f[5] == 0 && !signbit(f[5]));
  /* n = x: y, z tie, y first: t1 = x x y = z; n = y: x, z tie, x first: t1 = y x x = -z */
  expect_t1(ex, 0, 0, 1, "n = x");
  expect_t1(ey, 0, 0, -1, "n = y");
  expect_t1(mz, 0, -1, 0, "n = -z"); /* -z x x = -y */
  /* all three tie: e = x, t1 = normalize(n x x) = (0, 1, -1) / sqrt 2 */
  expect_t1(d, 0, 1 / sqrt(2.0), -1 / sqrt(2.0), "n = (1,1,1)/sqrt3");
  /* least aligned axis strictly smallest: n mostly along x with y < z -> e = y */
  double m[3] = {0.8, 0.36, 0.48};           /* unit: 0.64 + 0.1296 + 0.2304 */
  double lm = sqrt(0.48 * 0.48 + 0.8 * 0.8); /* t1 = n x y = (-n_z, 0, n_x) / |.| */
  expect_t1(m, -0.48 / lm, 0, 0.8 / lm, "n = (0.8, 0.36, 0.48)");
  check_frame(ex, "x");
  check_frame(ey, "y");
  check_frame(ez, "z");
  check_frame(mz, "-z");
  check_frame(d, "diagonal");
  check_frame(m, "m");
  for (int t = 0; t < 1000; t++) {
    double n[3] = {cs_test_gauss(), cs_test_gauss(), cs_test_gauss()};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++) n[k] /= len;
    check_frame(n, "random");
    /* e is the axis of smallest |n_k|, so t1 has no component along it */
    int e = 0;
    for (int k = 1; k < 3; k++)
      if (fabs(n[k]) < fabs(n[e])) e = k;
    cs_contact_frame(n, f);
    CHECK(f[3 + e] == 0);
  }
}

int main(void) {
  cs_test_seed(1);
  test_hand_cases();
  test_projections();
  test_random_vs_reference();
  test_frame();
  return cs_test_finish("test_contact_report");
}
