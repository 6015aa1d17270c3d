/* Analytic narrowphase pairs (src/collision/cs_collision_primitive.c), 10,000 poses or more per
   pair against an independent answer, to 1e-9:
   - plane pairs: the plane equation at the closed-form surface points (sphere centre,
     capsule ends, cylinder rim with depth n.(c - p) - h |n.a| - r sqrt(1 - (n.a)^2), the 8
     box corners sorted by depth); upright and lying cylinders by construction;
   - sphere pairs: centre distance, clamp onto the capsule axis, clamp into the box frame
     (inside: the least-penetrated face);
   - capsule pairs: ternary search of the convex segment-segment / segment-box distance;
     parallel capsules, a capsule poking into a face and one lying on a face by
     construction; intersecting capsule-box: depth = least overlap over the candidate axes;
   - box-box: a box resting on a face (rotated, offset; the polygon is the intersection of
     the two rectangles, computed here from corners and edge crossings), edge-edge crossings
     by construction, and on random poses depth = least overlap over the 15 axes;
   plus properties on every contact (unit normal, dist <= margin, distinct features, the
   two surface points pos -+ dist/2 n on the two surfaces), no contact beyond margin, and
   invariances (a/b swapped: normal flips; both translated: the same contacts). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "collision/cs_collision.h"
#include "cs_test.h"
#include "math/cs_math.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NPOSE 10000
#define TOL 1e-9

enum { P_PS, P_PC, P_PCY, P_PB, P_SS, P_SC, P_SB, P_CC, P_CB, P_BB, NPAIR };
static const char* pair_name[NPAIR] = {
    "plane-sphere",   "plane-capsule", "plane-cylinder",  "plane-box",   "sphere-sphere",
    "sphere-capsule", "sphere-box",    "capsule-capsule", "capsule-box", "box-box"};
static double err_closed[NPAIR]; /* largest error against a closed form */
static double err_prop[NPAIR];   /* largest violation of a property (surfaces, invariance) */
static int n_pose_contact[NPAIR];

static void note(double* e, double v) {
  if (!(v <= *e)) *e = v; /* NaN sticks */
}

static double dist3(const double* a, const double* b) {
  double d[3];
  csi_sub3(d, a, b);
  return csi_norm3(d);
}

/* ------------------------------------------------------------------------ random poses */

static void rand_vec(double* v, double lo, double hi) {
  for (int k = 0; k < 3; k++) v[k] = cs_test_uniform(lo, hi);
}

static void rand_dir(double* v) {
  for (int k = 0; k < 3; k++) v[k] = cs_test_gauss();
  if (csi_normalize3(v) == 0) v[0] = 1, v[1] = v[2] = 0;
}

static void col(double* r, const double* mat, int k) {
  r[0] = mat[k], r[1] = mat[3 + k], r[2] = mat[6 + k];
}

static void set_col(double* mat, int k, const double* v) {
  mat[k] = v[0], mat[3 + k] = v[1], mat[6 + k] = v[2];
}

/* --------------------------------------------------------- reference geometry (tests) */

static void to_local(double* r, const csiCollGeom* g, const double* x) {
  double d[3];
  csi_sub3(d, x, g->pos);
  csi_mulmat3tvec(r, g->mat, d);
}

/* distance from x to the segment c + s u, |s| <= h */
static double pt_seg(const double* x, const double* c, const double* u, double h) {
  double d[3], q[3];
  csi_sub3(d, x, c);
  double s = csi_dot3(d, u);
  s = s < -h ? -h : (s > h ? h : s);
  for (int k = 0; k < 3; k++) q[k] = c[k] + s * u[k];
  return dist3(x, q);
}

static double pt_capsule_axis(const double* x, const csiCollGeom* g) {
  double u[3];
  col(u, g->mat, 2);
  return pt_seg(x, g->pos, u, g->size[1]);
}

/* signed distance to a box: outside the Euclidean distance, inside minus the distance to
   the nearest face */
static double box_sdf(const double* x, const csiCollGeom* g) {
  double l[3], o = 0, in = -INFINITY;
  to_local(l, g, x);
  for (int k = 0; k < 3; k++) {
    double e = fabs(l[k]) - g->size[k];
    if (e > 0) o += e * e;
    if (e > in) in = e;
  }
  return o > 0 ? sqrt(o) : in;
}

/* Minimise a convex function of s on [lo, hi] by ternary search (200 rounds shrink the
   interval below rounding), the reference for every segment distance. */
typedef double (*fn1)(double s, const void* ctx);
static double ternary_min(fn1 f, const void* ctx, double lo, double hi) {
  for (int it = 0; it < 200 && hi > lo; it++) {
    double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1, ctx) <= f(m2, ctx))
      hi = m2;
    else
      lo = m1;
  }
  double v = f(0.5 * (lo + hi), ctx), e0 = f(lo, ctx), e1 = f(hi, ctx);
  return fmin(v, fmin(e0, e1));
}

typedef struct {
  const csiCollGeom *a, *b;
} pairctx;

static void capsule_point(double* x, const csiCollGeom* g, double s) {
  for (int k = 0; k < 3; k++) x[k] = g->pos[k] + s * g->mat[3 * k + 2];
}

static double f_segseg(double s, const void* ctx) {
  const pairctx* c = ctx;
  double x[3];
  capsule_point(x, c->a, s);
  return pt_capsule_axis(x, c->b);
}

static double f_segbox(double s, const void* ctx) {
  const pairctx* c = ctx;
  double x[3];
  capsule_point(x, c->a, s);
  double d = box_sdf(x, c->b);
  return d > 0 ? d : 0;
}

static double ref_segseg(const csiCollGeom* a, const csiCollGeom* b) {
  pairctx c = {a, b};
  return ternary_min(f_segseg, &c, -a->size[1], a->size[1]);
}

static double ref_segbox(const csiCollGeom* a, const csiCollGeom* b) {
  pairctx c = {a, b};
  return ternary_min(f_segbox, &c, -a->size[1], a->size[1]);
}

static void box_corner(double* x, const csiCollGeom* g, int i) {
  double l[3];
  for (int k = 0; k < 3; k++) l[k] = ((i >> k) & 1 ? -1.0 : 1.0) * g->size[k];
  csi_mulmat3vec(x, g->mat, l);
  csi_add3(x, x, g->pos);
}

/* support h(L) = max over the shape of L.x, by brute force over corners / ends */
static double support(const csiCollGeom* g, const double* L) {
  double m = -INFINITY, x[3];
  if (g->type == CS_GEOM_BOX) {
    for (int i = 0; i < 8; i++) {
      box_corner(x, g, i);
      m = fmax(m, csi_dot3(L, x));
    }
  } else { /* capsule */
    for (int i = -1; i <= 1; i += 2) {
      capsule_point(x, g, i * g->size[1]);
      m = fmax(m, csi_dot3(L, x) + g->size[0]);
    }
  }
  return m;
}

/* overlap of a and b along unit L: how far b must move along L to separate */
static double overlap(const csiCollGeom* a, const csiCollGeom* b, const double* L) {
  double mL[3] = {-L[0], -L[1], -L[2]};
  return support(a, L) + support(b, mL);
}

/* the candidate separating axes of a (box or capsule) and a box b: face normals and cross
   products of edge directions (nearly parallel pairs skipped) */
static int sat_axes(const csiCollGeom* a, const csiCollGeom* b, double ax[15][3]) {
  int n = 0;
  double da[3][3], db[3][3];
  int na = a->type == CS_GEOM_BOX ? 3 : 1;
  for (int k = 0; k < 3; k++) col(db[k], b->mat, k);
  if (na == 3)
    for (int k = 0; k < 3; k++) col(da[k], a->mat, k);
  else
    col(da[0], a->mat, 2);
  for (int k = 0; k < 3; k++) csi_copy3(ax[n++], db[k]);
  if (na == 3)
    for (int k = 0; k < 3; k++) csi_copy3(ax[n++], da[k]);
  for (int i = 0; i < na; i++)
    for (int j = 0; j < 3; j++) {
      csi_cross3(ax[n], da[i], db[j]);
      if (csi_normalize3(ax[n]) > 1e-6) n++;
    }
  return n;
}

/* ------------------------------------------------------------------ common contact checks */

static int n_normal_fail = 0;

static void check_common(int pair, const csContact* con, int nc, double margin) {
  CHECK_MSG(nc >= 0 && nc <= CSI_MAX_PAIR_CONTACTS, "%s: %d contacts", pair_name[pair], nc);
  for (int i = 0; i < nc; i++) {
    const csContact* c = con + i;
    int finite = isfinite(c->dist) && isfinite(c->pos[0]) && isfinite(c->pos[1]) &&
                 isfinite(c->pos[2]) && isfinite(c->frame[0]) && isfinite(c->frame[1]) &&
                 isfinite(c->frame[2]);
    CHECK_MSG(finite, "%s: non-finite contact", pair_name[pair]);
    double nn = csi_norm3(c->frame);
    note(&err_prop[pair], fabs(nn - 1));
    if (!(fabs(nn - 1) <= 1e-12) && n_normal_fail++ < 5)
      CHECK_MSG(0, "%s: |n| = %.17g", pair_name[pair], nn);
    CHECK_MSG(c->dist <= margin, "%s: dist %.17g > margin %.17g", pair_name[pair], c->dist, margin);
    CHECK(c->feature >= 0);
    for (int j = 0; j < i; j++)
      CHECK_MSG(con[j].feature != c->feature, "%s: feature %d twice", pair_name[pair], c->feature);
  }
  if (nc > 0) n_pose_contact[pair]++;
}

/* surface points of a contact: pa on a, pb on b, pb - pa = dist n */
static void surf_points(const csContact* c, double* pa, double* pb) {
  for (int k = 0; k < 3; k++) {
    pa[k] = c->pos[k] - 0.5 * c->dist * c->frame[k];
    pb[k] = c->pos[k] + 0.5 * c->dist * c->frame[k];
  }
}

static int deepest(const csContact* con, int nc) {
  int m = 0;
  for (int i = 1; i < nc; i++)
    if (con[i].dist < con[m].dist) m = i;
  return m;
}

/* Translating both geoms moves every contact with them and changes nothing else. Checked
   exactly: both positions are first snapped to a grid of 2^-20 (a nearby pose) and moved
   by a grid vector, so that the translated inputs are the same numbers up to the shift
   and the comparison is not blurred by rounding the sums (which near-coincident centres
   would amplify into the normal). */
static void check_translate(int pair, csiCollideFn fn, const csiCollGeom* a, const csiCollGeom* b,
                            double margin) {
  csiCollGeom a1 = *a, b1 = *b, a2, b2;
  double T[3], grid = 1.0 / 1048576.0;
  for (int k = 0; k < 3; k++) {
    a1.pos[k] = round(a1.pos[k] / grid) * grid;
    b1.pos[k] = round(b1.pos[k] / grid) * grid;
    T[k] = round(cs_test_uniform(-10, 10) / grid) * grid;
  }
  a2 = a1, b2 = b1;
  csi_add3(a2.pos, a2.pos, T);
  csi_add3(b2.pos, b2.pos, T);
  csContact c1[CSI_MAX_PAIR_CONTACTS], c2[CSI_MAX_PAIR_CONTACTS];
  int n1 = fn(&a1, &b1, margin, c1);
  int n2 = fn(&a2, &b2, margin, c2);
  CHECK_MSG(n2 == n1, "%s translated: %d contacts, %d before", pair_name[pair], n2, n1);
  if (n2 != n1) return;
  for (int i = 0; i < n1; i++) {
    double p[3], e = fabs(c2[i].dist - c1[i].dist);
    csi_sub3(p, c2[i].pos, T);
    e = fmax(e, dist3(p, c1[i].pos));
    e = fmax(e, dist3(c2[i].frame, c1[i].frame));
    note(&err_prop[pair], e);
    CHECK_MSG(e <= TOL, "%s translated: contact %d moved by %g", pair_name[pair], i, e);
    CHECK_MSG(c2[i].feature == c1[i].feature, "%s translated: feature %d, %d before",
              pair_name[pair], c2[i].feature, c1[i].feature);
  }
}

/* Swapping a and b (same type) flips every normal and keeps the points and distances; the
   contacts are compared as sets. */
static void check_swap(int pair, csiCollideFn fn, const csiCollGeom* a, const csiCollGeom* b,
                       double margin, const csContact* con, int nc) {
  csContact c2[CSI_MAX_PAIR_CONTACTS];
  int n2 = fn(b, a, margin, c2);
  CHECK_MSG(n2 == nc, "%s swapped: %d contacts, %d before", pair_name[pair], n2, nc);
  if (n2 != nc) return;
  for (int i = 0; i < nc; i++) {
    double best = INFINITY;
    for (int j = 0; j < n2; j++) {
      double fl[3];
      csi_add3(fl, c2[j].frame, con[i].frame);
      double e =
          fmax(fabs(c2[j].dist - con[i].dist), fmax(dist3(c2[j].pos, con[i].pos), csi_norm3(fl)));
      best = fmin(best, e);
    }
    note(&err_prop[pair], best);
    CHECK_MSG(best <= TOL, "%s swapped: contact %d unmatched by %g", pair_name[pair], i, best);
  }
}

/* --------------------------------------------------------------------------- plane-* */

/* A plane at a random pose and a point c placed at height hgt above it. */
static void plane_and_height(csiCollGeom* pl, double* c, double hgt) {
  double P[3], R[9], n[3], d[3];
  rand_vec(P, -1, 1);
  cs_test_random_rot(R);
  cs_test_geom(pl, CS_GEOM_PLANE, 0, 0, 0, P, R);
  col(n, R, 2);
  rand_vec(c, -2, 2);
  csi_sub3(d, c, P);
  double z = csi_dot3(n, d);
  for (int k = 0; k < 3; k++) c[k] += (hgt - z) * n[k];
}

static void test_plane_sphere(void) {
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom pl, sp;
    double c[3], R[9], n[3], d[3];
    double r = cs_test_uniform(0.05, 1), margin = cs_test_uniform(0, 0.1);
    plane_and_height(&pl, c, cs_test_uniform(-r, r + 0.3));
    cs_test_random_rot(R);
    cs_test_geom(&sp, CS_GEOM_SPHERE, r, 0, 0, c, R);
    col(n, pl.mat, 2);
    csi_sub3(d, c, pl.pos);
    double ex = csi_dot3(n, d) - r; /* closed form */
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_plane_sphere(&pl, &sp, margin, con);
    check_common(P_PS, con, nc, margin);
    if (ex > margin) {
      CHECK(nc == 0);
      continue;
    }
    CHECK(nc == 1);
    if (nc != 1) continue;
    double pos[3];
    for (int k = 0; k < 3; k++) pos[k] = c[k] - (r + 0.5 * ex) * n[k];
    double e = fmax(fabs(con[0].dist - ex), fmax(dist3(con[0].frame, n), dist3(con[0].pos, pos)));
    note(&err_closed[P_PS], e);
    CHECK_MSG(e <= TOL, "plane-sphere pose %d: error %g", it, e);
    check_translate(P_PS, csi_collide_plane_sphere, &pl, &sp, margin);
  }
}

static void test_plane_capsule(void) {
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom pl, cp;
    double c[3], R[9], n[3], u[3];
    double r = cs_test_uniform(0.05, 0.5), margin = cs_test_uniform(0, 0.1);
    double h = it % 20 == 0 ? 0 : cs_test_uniform(0.01, 1);
    plane_and_height(&pl, c, cs_test_uniform(-r, r + h + 0.3));
    cs_test_random_rot(R);
    cs_test_geom(&cp, CS_GEOM_CAPSULE, r, h, 0, c, R);
    col(n, pl.mat, 2);
    col(u, R, 2);
    /* closed form: each end a sphere against the plane */
    double ends[2][3], ex[2], epos[2][3];
    int nex = 0;
    for (int i = 0; i < (h > 0 ? 2 : 1); i++) {
      double d[3];
      for (int k = 0; k < 3; k++) ends[i][k] = c[k] + (i ? -h : h) * u[k];
      csi_sub3(d, ends[i], pl.pos);
      double z = csi_dot3(n, d) - r;
      if (z > margin) continue;
      ex[nex] = z;
      for (int k = 0; k < 3; k++) epos[nex][k] = ends[i][k] - (r + 0.5 * z) * n[k];
      nex++;
    }
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_plane_capsule(&pl, &cp, margin, con);
    check_common(P_PC, con, nc, margin);
    CHECK_MSG(nc == nex, "plane-capsule pose %d: %d contacts, expected %d", it, nc, nex);
    if (nc != nex) continue;
    for (int i = 0; i < nc; i++) {
      double best = INFINITY;
      for (int j = 0; j < nex; j++)
        best = fmin(best, fmax(fabs(con[i].dist - ex[j]), dist3(con[i].pos, epos[j])));
      best = fmax(best, dist3(con[i].frame, n));
      note(&err_closed[P_PC], best);
      CHECK_MSG(best <= TOL, "plane-capsule pose %d: error %g", it, best);
    }
    if (nc > 0) {
      /* the deepest is the closed form n.(c - p) - h |n.u| - r */
      double d[3];
      csi_sub3(d, c, pl.pos);
      double dz = csi_dot3(n, d) - h * fabs(csi_dot3(n, u)) - r;
      CHECK_NEAR(con[deepest(con, nc)].dist, dz, TOL);
    }
    check_translate(P_PC, csi_collide_plane_capsule, &pl, &cp, margin);
  }
}

/* every contact's b point on the rim of the cylinder, a point on the plane */
static void check_cyl_points(const csiCollGeom* pl, const csiCollGeom* cy, const csContact* con,
                             int nc) {
  double n[3];
  col(n, pl->mat, 2);
  for (int i = 0; i < nc; i++) {
    double pa[3], pb[3], l[3], d[3];
    surf_points(con + i, pa, pb);
    to_local(l, cy, pb);
    csi_sub3(d, pa, pl->pos);
    double e = fmax(fabs(fabs(l[2]) - cy->size[1]), fabs(hypot(l[0], l[1]) - cy->size[0]));
    e = fmax(e, fabs(csi_dot3(n, d)));
    e = fmax(e, dist3(con[i].frame, n));
    note(&err_prop[P_PCY], e);
    CHECK_MSG(e <= TOL, "plane-cylinder: contact off the rim / plane by %g", e);
  }
}

static void test_plane_cylinder(void) {
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom pl, cy;
    double c[3], R[9], n[3], u[3], d[3];
    double r = cs_test_uniform(0.05, 0.5), h = cs_test_uniform(0.02, 1);
    double margin = cs_test_uniform(0, 0.1);
    plane_and_height(&pl, c, cs_test_uniform(-0.2, r + h + 0.3));
    cs_test_random_rot(R);
    cs_test_geom(&cy, CS_GEOM_CYLINDER, r, h, 0, c, R);
    col(n, pl.mat, 2);
    col(u, R, 2);
    csi_sub3(d, c, pl.pos);
    double na = csi_dot3(n, u);
    double ex = csi_dot3(n, d) - h * fabs(na) - r * sqrt(fmax(0, 1 - na * na));
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_plane_cylinder(&pl, &cy, margin, con);
    check_common(P_PCY, con, nc, margin);
    CHECK(nc <= 4);
    if (ex > margin) {
      CHECK(nc == 0);
      continue;
    }
    CHECK(nc >= 1);
    if (nc < 1) continue;
    double e = fabs(con[deepest(con, nc)].dist - ex);
    note(&err_closed[P_PCY], e);
    CHECK_MSG(e <= TOL, "plane-cylinder pose %d: deepest %.17g, closed form %.17g", it,
              con[deepest(con, nc)].dist, ex);
    check_cyl_points(&pl, &cy, con, nc);
    check_translate(P_PCY, csi_collide_plane_cylinder, &pl, &cy, margin);
  }

  /* standing on a cap (upright, either way up, any spin): a square of 4 rim points */
  for (int it = 0; it < 1000; it++) {
    csiCollGeom pl, cy;
    double c[3], R[9], Rz[9], q[4], z[3] = {0, 0, 1}, x[3] = {1, 0, 0}, n[3];
    double r = cs_test_uniform(0.05, 0.5), h = cs_test_uniform(0.02, 1);
    double margin = cs_test_uniform(0, 0.1), g = cs_test_uniform(-0.05, margin);
    plane_and_height(&pl, c, h + g);
    csi_axisangle2quat(q, z, cs_test_uniform(-M_PI, M_PI));
    csi_quat2mat(Rz, q);
    csi_mulmat3(R, pl.mat, Rz);
    if (it % 2) { /* upside down: the -z cap rests */
      double Rx[9], R2[9];
      csi_axisangle2quat(q, x, M_PI);
      csi_quat2mat(Rx, q);
      csi_mulmat3(R2, R, Rx);
      memcpy(R, R2, sizeof R);
    }
    cs_test_geom(&cy, CS_GEOM_CYLINDER, r, h, 0, c, R);
    col(n, pl.mat, 2);
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_plane_cylinder(&pl, &cy, margin, con);
    check_common(P_PCY, con, nc, margin);
    CHECK_MSG(nc == 4, "plane-cylinder upright: %d contacts", nc);
    if (nc != 4) continue;
    check_cyl_points(&pl, &cy, con, nc);
    double cen[3] = {0, 0, 0}, bottom[3], pb[4][3], pa[3];
    for (int k = 0; k < 3; k++) bottom[k] = c[k] - h * n[k];
    for (int i = 0; i < 4; i++) {
      surf_points(con + i, pa, pb[i]);
      csi_addscl3(cen, pb[i], 0.25);
      note(&err_closed[P_PCY], fabs(con[i].dist - g));
      CHECK_NEAR(con[i].dist, g, TOL);
    }
    /* a square: centred on the cap, the closest two corners r sqrt 2 apart */
    double dmin = INFINITY;
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < i; j++) dmin = fmin(dmin, dist3(pb[i], pb[j]));
    CHECK_NEAR(dist3(cen, bottom), 0, TOL);
    CHECK_NEAR(dmin, r * sqrt(2.0), TOL);
  }

  /* lying on its side: the two ends of the contact line */
  for (int it = 0; it < 1000; it++) {
    csiCollGeom pl, cy;
    double c[3], R[9], n[3], t0[3], t1[3], a[3], y[3];
    double r = cs_test_uniform(0.15, 0.5), h = cs_test_uniform(0.02, 1);
    double margin = cs_test_uniform(0, 0.1), g = cs_test_uniform(-0.05, margin);
    plane_and_height(&pl, c, r + g);
    col(n, pl.mat, 2);
    col(t0, pl.mat, 0);
    col(t1, pl.mat, 1);
    double ph = cs_test_uniform(-M_PI, M_PI);
    for (int k = 0; k < 3; k++) a[k] = cos(ph) * t0[k] + sin(ph) * t1[k];
    csi_cross3(y, a, n);
    set_col(R, 0, n), set_col(R, 1, y), set_col(R, 2, a); /* n x y = a */
    cs_test_geom(&cy, CS_GEOM_CYLINDER, r, h, 0, c, R);
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_plane_cylinder(&pl, &cy, margin, con);
    check_common(P_PCY, con, nc, margin);
    CHECK_MSG(nc == 2, "plane-cylinder lying: %d contacts", nc);
    if (nc != 2) continue;
    check_cyl_points(&pl, &cy, con, nc);
    for (int i = 0; i < 2; i++) {
      note(&err_closed[P_PCY], fabs(con[i].dist - g));
      CHECK_NEAR(con[i].dist, g, TOL);
    }
    CHECK_NEAR(dist3(con[0].pos, con[1].pos), 2 * h, TOL);
  }
}

static void test_plane_box(void) {
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom pl, bx;
    double c[3], R[9], n[3], e[3];
    rand_vec(e, 0.05, 1);
    double margin = cs_test_uniform(0, 0.1);
    cs_test_random_rot(R);
    plane_and_height(&pl, c, 0);
    col(n, pl.mat, 2);
    /* lift the box so that its lowest corner is at a random height */
    cs_test_geom(&bx, CS_GEOM_BOX, e[0], e[1], e[2], c, R);
    double zc[8], zmin = INFINITY, x[3], d[3];
    for (int i = 0; i < 8; i++) {
      box_corner(x, &bx, i);
      csi_sub3(d, x, pl.pos);
      zmin = fmin(zmin, csi_dot3(n, d));
    }
    double lift = cs_test_uniform(-0.3, 0.3) - zmin;
    for (int k = 0; k < 3; k++) bx.pos[k] += lift * n[k];
    /* closed form: the corners within margin, sorted by depth */
    int nin = 0;
    for (int i = 0; i < 8; i++) {
      box_corner(x, &bx, i);
      csi_sub3(d, x, pl.pos);
      double z = csi_dot3(n, d);
      if (z > margin) continue;
      int j = nin++;
      while (j > 0 && zc[j - 1] > z) zc[j] = zc[j - 1], j--;
      zc[j] = z;
    }
    int nex = nin > 4 ? 4 : nin;
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_plane_box(&pl, &bx, margin, con);
    check_common(P_PB, con, nc, margin);
    CHECK_MSG(nc == nex, "plane-box pose %d: %d contacts, expected %d", it, nc, nex);
    if (nc != nex) continue;
    double got[8];
    for (int i = 0; i < nc; i++) {
      /* b's point is a corner at the reported depth; a's point its foot on the plane */
      double pa[3], pb[3], best = INFINITY;
      surf_points(con + i, pa, pb);
      for (int j = 0; j < 8; j++) {
        box_corner(x, &bx, j);
        best = fmin(best, dist3(x, pb));
      }
      csi_sub3(d, pa, pl.pos);
      double e2 = fmax(best, fmax(fabs(csi_dot3(n, d)), dist3(con[i].frame, n)));
      note(&err_closed[P_PB], e2);
      CHECK_MSG(e2 <= TOL, "plane-box pose %d contact %d: error %g", it, i, e2);
      int j = i;
      while (j > 0 && got[j - 1] > con[i].dist) got[j] = got[j - 1], j--;
      got[j] = con[i].dist;
    }
    for (int i = 0; i < nc; i++) {
      note(&err_closed[P_PB], fabs(got[i] - zc[i]));
      CHECK_NEAR(got[i], zc[i], TOL);
    }
    check_translate(P_PB, csi_collide_plane_box, &pl, &bx, margin);
  }
}

/* ---------------------------------------------------------------------------- sphere-* */

/* error of the contact of two spheres: centre ca radius ra, centre ca + d radius rb (d
   formed from differences of the inputs, as exact as they allow) */
static double check_spheres(const csContact* con, const double* ca, double ra, const double* d,
                            double rb) {
  double n[3], pos[3];
  double len = csi_norm3(d), ex = len - ra - rb;
  csi_scl3(n, d, 1.0 / len);
  for (int k = 0; k < 3; k++) pos[k] = ca[k] + (ra + 0.5 * ex) * n[k];
  return fmax(fabs(con->dist - ex), fmax(dist3(con->frame, n), dist3(con->pos, pos)));
}

static void test_sphere_sphere(void) {
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom a, b;
    double ca[3], cb[3], R[9], u[3];
    double ra = cs_test_uniform(0.05, 1), rb = cs_test_uniform(0.05, 1);
    double margin = cs_test_uniform(0, 0.1);
    rand_vec(ca, -1, 1);
    rand_dir(u);
    double L = cs_test_uniform(0, ra + rb + 0.3);
    for (int k = 0; k < 3; k++) cb[k] = ca[k] + L * u[k];
    cs_test_random_rot(R);
    cs_test_geom(&a, CS_GEOM_SPHERE, ra, 0, 0, ca, R);
    cs_test_random_rot(R);
    cs_test_geom(&b, CS_GEOM_SPHERE, rb, 0, 0, cb, R);
    double ex = dist3(ca, cb) - ra - rb;
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_sphere_sphere(&a, &b, margin, con);
    check_common(P_SS, con, nc, margin);
    if (ex > margin) {
      CHECK(nc == 0);
      continue;
    }
    CHECK(nc == 1);
    if (nc != 1) continue;
    double dab[3];
    csi_sub3(dab, cb, ca);
    double e = check_spheres(con, ca, ra, dab, rb);
    note(&err_closed[P_SS], e);
    CHECK_MSG(e <= TOL, "sphere-sphere pose %d: error %g", it, e);
    check_translate(P_SS, csi_collide_sphere_sphere, &a, &b, margin);
    check_swap(P_SS, csi_collide_sphere_sphere, &a, &b, margin, con, nc);
  }
  /* coincident centres: some unit normal, full depth */
  csiCollGeom a, b;
  double c[3] = {0.3, -0.2, 0.1}, R[9];
  cs_test_random_rot(R);
  cs_test_geom(&a, CS_GEOM_SPHERE, 0.4, 0, 0, c, R);
  cs_test_geom(&b, CS_GEOM_SPHERE, 0.25, 0, 0, c, R);
  csContact con[CSI_MAX_PAIR_CONTACTS];
  int nc = csi_collide_sphere_sphere(&a, &b, 0, con);
  check_common(P_SS, con, nc, 0);
  CHECK(nc == 1);
  CHECK_NEAR(con[0].dist, -0.65, TOL);
  CHECK_NEAR(csi_norm3(con[0].frame), 1, 1e-15);
}

static void test_sphere_capsule(void) {
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom a, b;
    double ca[3], cb[3], R[9], u[3], v[3];
    double ra = cs_test_uniform(0.05, 1), rb = cs_test_uniform(0.05, 0.5);
    double h = it % 20 == 0 ? 0 : cs_test_uniform(0.01, 1);
    double margin = cs_test_uniform(0, 0.1);
    rand_vec(cb, -1, 1);
    cs_test_random_rot(R);
    cs_test_geom(&b, CS_GEOM_CAPSULE, rb, h, 0, cb, R);
    rand_dir(v);
    double L = cs_test_uniform(0, ra + rb + h + 0.3);
    for (int k = 0; k < 3; k++) ca[k] = cb[k] + L * v[k];
    cs_test_random_rot(R);
    cs_test_geom(&a, CS_GEOM_SPHERE, ra, 0, 0, ca, R);
    /* closed form: the clamp of the centre onto the axis */
    double dq[3], d[3];
    col(u, b.mat, 2);
    csi_sub3(d, ca, cb);
    double t = csi_dot3(d, u);
    t = t < -h ? -h : (t > h ? h : t);
    for (int k = 0; k < 3; k++) dq[k] = t * u[k] - d[k]; /* from the centre to its clamp */
    double ex = csi_norm3(dq) - ra - rb;
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_sphere_capsule(&a, &b, margin, con);
    check_common(P_SC, con, nc, margin);
    if (ex > margin) {
      CHECK(nc == 0);
      continue;
    }
    CHECK(nc == 1);
    if (nc != 1) continue;
    double e = check_spheres(con, ca, ra, dq, rb);
    note(&err_closed[P_SC], e);
    CHECK_MSG(e <= TOL, "sphere-capsule pose %d: error %g", it, e);
    check_translate(P_SC, csi_collide_sphere_capsule, &a, &b, margin);
  }
  /* centre on the axis: a normal across the axis, full depth */
  csiCollGeom a, b;
  double c[3] = {0.1, 0.2, 0.3}, R[9], u[3], x[3];
  cs_test_random_rot(R);
  cs_test_geom(&b, CS_GEOM_CAPSULE, 0.2, 0.5, 0, c, R);
  col(u, R, 2);
  for (int k = 0; k < 3; k++) x[k] = c[k] + 0.3 * u[k];
  cs_test_geom(&a, CS_GEOM_SPHERE, 0.1, 0, 0, x, R);
  csContact con[CSI_MAX_PAIR_CONTACTS];
  int nc = csi_collide_sphere_capsule(&a, &b, 0, con);
  check_common(P_SC, con, nc, 0);
  CHECK(nc == 1);
  CHECK_NEAR(con[0].dist, -0.3, TOL);
  CHECK_NEAR(csi_dot3(con[0].frame, u), 0, 1e-15);
}

static void test_sphere_box(void) {
  int ninside = 0;
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom a, b;
    double ca[3], cb[3], R[9], e[3], v[3];
    double r = cs_test_uniform(0.05, 1), margin = cs_test_uniform(0, 0.1);
    rand_vec(e, 0.05, 1);
    rand_vec(cb, -1, 1);
    cs_test_random_rot(R);
    cs_test_geom(&b, CS_GEOM_BOX, e[0], e[1], e[2], cb, R);
    rand_dir(v);
    double L = cs_test_uniform(0, csi_norm3(e) + r + 0.3);
    for (int k = 0; k < 3; k++) ca[k] = cb[k] + L * v[k];
    cs_test_geom(&a, CS_GEOM_SPHERE, r, 0, 0, ca, R);
    /* closed form in the box frame */
    double l[3], q[3], nl[3], n[3], pos[3], ex;
    to_local(l, &b, ca);
    int in = 1;
    for (int k = 0; k < 3; k++) {
      q[k] = fmax(-e[k], fmin(e[k], l[k]));
      if (fabs(l[k]) > e[k]) in = 0;
    }
    if (!in) {
      double dq[3];
      csi_sub3(dq, q, l);
      double len = csi_norm3(dq);
      ex = len - r;
      csi_scl3(nl, dq, 1 / len);
    } else {
      ninside++;
      int km = 0;
      for (int k = 1; k < 3; k++)
        if (e[k] - fabs(l[k]) < e[km] - fabs(l[km])) km = k;
      ex = fabs(l[km]) - e[km] - r;
      nl[0] = nl[1] = nl[2] = 0;
      nl[km] = l[km] > 0 ? -1 : 1;
    }
    csi_mulmat3vec(n, R, nl);
    for (int k = 0; k < 3; k++) pos[k] = ca[k] + (r + 0.5 * ex) * n[k];
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_sphere_box(&a, &b, margin, con);
    check_common(P_SB, con, nc, margin);
    if (ex > margin) {
      CHECK(nc == 0);
      continue;
    }
    CHECK(nc == 1);
    if (nc != 1) continue;
    double err = fmax(fabs(con[0].dist - ex), fmax(dist3(con[0].frame, n), dist3(con[0].pos, pos)));
    note(&err_closed[P_SB], err);
    CHECK_MSG(err <= TOL, "sphere-box pose %d (%s): error %g", it, in ? "inside" : "outside", err);
    check_translate(P_SB, csi_collide_sphere_box, &a, &b, margin);
  }
  CHECK(ninside > 500); /* the inside branch was exercised */
}

/* --------------------------------------------------------------------------- capsule-* */

/* pa on a's capsule surface, pb on b's (capsule or box); returns the worst violation */
static double capsule_surface_err(const csContact* c, const csiCollGeom* a, const csiCollGeom* b) {
  double pa[3], pb[3];
  surf_points(c, pa, pb);
  double e = fabs(pt_capsule_axis(pa, a) - a->size[0]);
  if (b->type == CS_GEOM_CAPSULE)
    e = fmax(e, fabs(pt_capsule_axis(pb, b) - b->size[0]));
  else
    e = fmax(e, fabs(box_sdf(pb, b)));
  return e;
}

static void test_capsule_capsule(void) {
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom a, b;
    double ca[3], cb[3], R[9], v[3];
    double ra = cs_test_uniform(0.05, 0.5), rb = cs_test_uniform(0.05, 0.5);
    double ha = it % 20 == 0 ? 0 : cs_test_uniform(0.01, 1);
    double hb = it % 30 == 0 ? 0 : cs_test_uniform(0.01, 1);
    double margin = cs_test_uniform(0, 0.1);
    rand_vec(ca, -1, 1);
    cs_test_random_rot(R);
    cs_test_geom(&a, CS_GEOM_CAPSULE, ra, ha, 0, ca, R);
    rand_dir(v);
    double L = cs_test_uniform(0, ra + rb + ha + hb + 0.3);
    for (int k = 0; k < 3; k++) cb[k] = ca[k] + L * v[k];
    cs_test_random_rot(R);
    cs_test_geom(&b, CS_GEOM_CAPSULE, rb, hb, 0, cb, R);
    double ex = ref_segseg(&a, &b) - ra - rb;
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_capsule_capsule(&a, &b, margin, con);
    check_common(P_CC, con, nc, margin);
    if (ex > margin) {
      CHECK_MSG(nc == 0, "capsule-capsule pose %d: %d contacts at distance %g", it, nc, ex);
      continue;
    }
    CHECK(nc >= 1);
    if (nc < 1) continue;
    double e = fabs(con[deepest(con, nc)].dist - ex);
    note(&err_closed[P_CC], e);
    CHECK_MSG(e <= TOL, "capsule-capsule pose %d: deepest %.17g, reference %.17g", it,
              con[deepest(con, nc)].dist, ex);
    for (int i = 0; i < nc; i++) {
      double es = capsule_surface_err(con + i, &a, &b);
      note(&err_prop[P_CC], es);
      CHECK_MSG(es <= TOL, "capsule-capsule pose %d: point off the surfaces by %g", it, es);
    }
    check_translate(P_CC, csi_collide_capsule_capsule, &a, &b, margin);
    check_swap(P_CC, csi_collide_capsule_capsule, &a, &b, margin, con, nc);
  }

  /* parallel (either way round) or collinear: two points over the axial overlap */
  for (int it = 0; it < 2000; it++) {
    csiCollGeom a, b;
    double ca[3], cb[3], R[9], Rb[9], u[3], x[3], y[3], w[3];
    double ra = cs_test_uniform(0.05, 0.5), rb = cs_test_uniform(0.05, 0.5);
    double ha = cs_test_uniform(0.05, 1), hb = cs_test_uniform(0.05, 1);
    double margin = cs_test_uniform(0, 0.1);
    rand_vec(ca, -1, 1);
    cs_test_random_rot(R);
    cs_test_geom(&a, CS_GEOM_CAPSULE, ra, ha, 0, ca, R);
    col(u, R, 2), col(x, R, 0), col(y, R, 1);
    double ph = cs_test_uniform(-M_PI, M_PI);
    for (int k = 0; k < 3; k++) w[k] = cos(ph) * x[k] + sin(ph) * y[k];
    /* D = 0: collinear. Otherwise not below 1e-3: the normal is the direction of an offset
       of length D rounded to ~1e-16 in building cb, so its error grows like 1e-16 / D in
       the input itself, not in the function */
    double D = it % 10 == 0 ? 0 : cs_test_uniform(1e-3, ra + rb + margin);
    double off = cs_test_uniform(-(ha + hb) * 0.9, (ha + hb) * 0.9);
    for (int k = 0; k < 3; k++) cb[k] = ca[k] + off * u[k] + D * w[k];
    memcpy(Rb, R, sizeof Rb);
    if (it % 2) /* flipped end for end: rotation by pi about the x axis */
      for (int k = 0; k < 3; k++) Rb[3 * k + 1] = -R[3 * k + 1], Rb[3 * k + 2] = -R[3 * k + 2];
    cs_test_geom(&b, CS_GEOM_CAPSULE, rb, hb, 0, cb, Rb);
    double lo = fmax(-ha, off - hb), hi = fmin(ha, off + hb), ex = D - ra - rb;
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_capsule_capsule(&a, &b, margin, con);
    check_common(P_CC, con, nc, margin);
    if (hi - lo < 1e-6) continue; /* touching end to end: not this case */
    CHECK_MSG(nc == 2, "capsule-capsule parallel: %d contacts", nc);
    if (nc != 2) continue;
    for (int i = 0; i < 2; i++) {
      double best = INFINITY;
      for (int j = 0; j < 2; j++) {
        double pe[3], s = j ? hi : lo;
        double pa[3], pb[3];
        surf_points(con + i, pa, pb);
        for (int k = 0; k < 3; k++) pe[k] = ca[k] + s * u[k];
        /* the point on a's axis under the contact */
        double da[3];
        csi_sub3(da, pa, pe);
        best = fmin(best, fabs(csi_norm3(da) - ra) + fabs(csi_dot3(da, u)));
      }
      double e = fmax(best, fabs(con[i].dist - ex));
      if (D > 0) {
        double dn[3];
        csi_sub3(dn, con[i].frame, w);
        e = fmax(e, csi_norm3(dn));
      } else {
        e = fmax(e, fabs(csi_dot3(con[i].frame, u)));
      }
      e = fmax(e, capsule_surface_err(con + i, &a, &b));
      note(&err_closed[P_CC], e);
      CHECK_MSG(e <= TOL, "capsule-capsule parallel %d contact %d: error %g", it, i, e);
    }
    /* collinear axes: the normal is any direction across them, chosen from the first geom */
    if (D > 0) check_swap(P_CC, csi_collide_capsule_capsule, &a, &b, margin, con, nc);
  }
}

static void capsule_frame(double* R, const double* axis) {
  /* any rotation whose z column is axis */
  double x[3], y[3], t[3] = {1, 0, 0};
  if (fabs(axis[0]) > 0.6) t[0] = 0, t[1] = 1;
  csi_cross3(x, t, axis);
  csi_normalize3(x);
  csi_cross3(y, axis, x);
  set_col(R, 0, x), set_col(R, 1, y), set_col(R, 2, axis);
}

static void test_capsule_box(void) {
  int nsep = 0, npen = 0;
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom a, b;
    double ca[3], cb[3], R[9], e[3], v[3];
    double r = cs_test_uniform(0.05, 0.5), h = it % 20 == 0 ? 0 : cs_test_uniform(0.01, 1);
    double margin = cs_test_uniform(0, 0.1);
    rand_vec(e, 0.05, 1);
    rand_vec(cb, -1, 1);
    cs_test_random_rot(R);
    cs_test_geom(&b, CS_GEOM_BOX, e[0], e[1], e[2], cb, R);
    rand_dir(v);
    double L = cs_test_uniform(0, csi_norm3(e) + r + h + 0.3);
    for (int k = 0; k < 3; k++) ca[k] = cb[k] + L * v[k];
    cs_test_random_rot(R);
    cs_test_geom(&a, CS_GEOM_CAPSULE, r, h, 0, ca, R);
    double D = ref_segbox(&a, &b);
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_capsule_box(&a, &b, margin, con);
    check_common(P_CB, con, nc, margin);
    for (int i = 0; i < nc; i++) {
      /* pa inside the capsule (on its surface for the deepest), pb on the box surface */
      double pa[3], pb[3];
      surf_points(con + i, pa, pb);
      double es = fmax(fmax(pt_capsule_axis(pa, &a) - r, 0), fabs(box_sdf(pb, &b)));
      note(&err_prop[P_CB], es);
      CHECK_MSG(es <= TOL, "capsule-box pose %d: point off the surfaces by %g", it, es);
    }
    if (D > 1e-6) {
      /* separated segment: the exact distance minus the radius */
      double ex = D - r;
      if (ex > margin) {
        CHECK(nc == 0);
        continue;
      }
      nsep++;
      CHECK(nc >= 1);
      if (nc < 1) continue;
      int m = deepest(con, nc);
      double err = fmax(fabs(con[m].dist - ex), capsule_surface_err(con + m, &a, &b));
      note(&err_closed[P_CB], err);
      CHECK_MSG(err <= TOL, "capsule-box pose %d: deepest %.17g, reference %.17g", it, con[m].dist,
                ex);
    } else {
      /* the segment meets the box: the penetration depth is the least overlap over all
         directions, attained at one of the candidate axes (faces of the Minkowski
         difference of a box and a segment), here by corner/end projections. The deepest
         contact must have that depth, along a normal whose own overlap is that least one
         (also against random directions), and no contact may be deeper. */
      npen++;
      CHECK(nc >= 1);
      if (nc < 1) continue;
      int m = deepest(con, nc);
      double ovn = overlap(&a, &b, con[m].frame), ax[15][3], pd = INFINITY;
      int nax = sat_axes(&a, &b, ax);
      for (int i = 0; i < nax; i++) {
        double mL[3] = {-ax[i][0], -ax[i][1], -ax[i][2]};
        pd = fmin(pd, fmin(overlap(&a, &b, ax[i]), overlap(&a, &b, mL)));
      }
      double worst = ovn - pd;
      for (int i = 0; i < 20; i++) {
        double L2[3];
        rand_dir(L2);
        worst = fmax(worst, ovn - overlap(&a, &b, L2));
      }
      note(&err_prop[P_CB], worst);
      CHECK_MSG(worst <= TOL, "capsule-box pose %d: normal overlap %.17g exceeds another by %g", it,
                ovn, worst);
      double err = fabs(con[m].dist + pd);
      note(&err_closed[P_CB], err);
      CHECK_MSG(err <= TOL, "capsule-box pose %d: depth %.17g, least overlap %.17g", it,
                con[m].dist, pd);
      for (int i = 0; i < nc; i++) {
        double lack = -ovn - con[i].dist;
        note(&err_prop[P_CB], lack);
        CHECK_MSG(lack <= TOL, "capsule-box pose %d: contact deeper than the overlap", it);
      }
    }
    check_translate(P_CB, csi_collide_capsule_box, &a, &b, margin);
  }
  printf("capsule-box random: %d separated within margin, %d intersecting\n", nsep, npen);
  CHECK(nsep > 500 && npen > 500);

  /* poking into a face: the deep end at depth delta under a face, the axis within 60 deg
     of the face normal. Depth delta + r, normal the face normal, point over the end. */
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom a, b;
    double cb[3], R[9], e[3], nf[3], t1[3], t2[3], q[3], w[3], ca[3], Ra[9];
    double r = cs_test_uniform(0.05, 0.5), h = cs_test_uniform(0, 1);
    double margin = cs_test_uniform(0, 0.1);
    rand_vec(e, 0.05, 1);
    rand_vec(cb, -1, 1);
    cs_test_random_rot(R);
    cs_test_geom(&b, CS_GEOM_BOX, e[0], e[1], e[2], cb, R);
    int k = it % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    double sg = (it / 3) % 2 ? -1 : 1, emin = fmin(e[0], fmin(e[1], e[2]));
    double delta = cs_test_uniform(0, 0.1 * emin);
    double lu = cs_test_uniform(-0.6, 0.6) * e[k1], lv = cs_test_uniform(-0.6, 0.6) * e[k2];
    col(nf, R, k), col(t1, R, k1), col(t2, R, k2);
    csi_scl3(nf, nf, sg);
    for (int m = 0; m < 3; m++) q[m] = cb[m] + (e[k] - delta) * nf[m] + lu * t1[m] + lv * t2[m];
    double tu = cs_test_uniform(-1, 1), tv = cs_test_uniform(-1, 1), tn = hypot(tu, tv);
    if (tn > 1) tu /= tn, tv /= tn;
    tn = cs_test_uniform(0, 1.5);
    for (int m = 0; m < 3; m++) w[m] = nf[m] + tn * (tu * t1[m] + tv * t2[m]);
    csi_normalize3(w);
    for (int m = 0; m < 3; m++) ca[m] = q[m] + h * w[m];
    capsule_frame(Ra, w);
    cs_test_geom(&a, CS_GEOM_CAPSULE, r, h, 0, ca, Ra);
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_capsule_box(&a, &b, margin, con);
    check_common(P_CB, con, nc, margin);
    CHECK(nc >= 1);
    if (nc < 1) continue;
    int m = deepest(con, nc);
    double ex = -delta - r, n[3], pos[3];
    csi_scl3(n, nf, -1);
    for (int j = 0; j < 3; j++) pos[j] = q[j] + (r + 0.5 * ex) * n[j];
    double err = fmax(fabs(con[m].dist - ex), fmax(dist3(con[m].frame, n), dist3(con[m].pos, pos)));
    note(&err_closed[P_CB], err);
    CHECK_MSG(err <= TOL, "capsule-box poke %d: error %g (dist %.17g, expected %.17g)", it, err,
              con[m].dist, ex);
    check_translate(P_CB, csi_collide_capsule_box, &a, &b, margin);
  }

  /* lying on a face (axis parallel to it, above or sunk into it): both ends */
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom a, b;
    double cb[3], R[9], e[3], nf[3], t1[3], t2[3], w[3], ca[3], Ra[9];
    double r = cs_test_uniform(0.05, 0.5), margin = cs_test_uniform(0, 0.1);
    rand_vec(e, 0.05, 1);
    rand_vec(cb, -1, 1);
    cs_test_random_rot(R);
    cs_test_geom(&b, CS_GEOM_BOX, e[0], e[1], e[2], cb, R);
    int k = it % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    double sg = (it / 3) % 2 ? -1 : 1, emin = fmin(e[0], fmin(e[1], e[2]));
    double h = cs_test_uniform(0.01, 0.4) * fmin(e[k1], e[k2]);
    double g = cs_test_uniform(-r - 0.05 * emin, margin); /* gap under the capsule */
    double lu = cs_test_uniform(-0.5, 0.5) * e[k1], lv = cs_test_uniform(-0.5, 0.5) * e[k2];
    col(nf, R, k), col(t1, R, k1), col(t2, R, k2);
    csi_scl3(nf, nf, sg);
    double ph = cs_test_uniform(-M_PI, M_PI);
    for (int m = 0; m < 3; m++) {
      w[m] = cos(ph) * t1[m] + sin(ph) * t2[m];
      ca[m] = cb[m] + (e[k] + r + g) * nf[m] + lu * t1[m] + lv * t2[m];
    }
    capsule_frame(Ra, w);
    cs_test_geom(&a, CS_GEOM_CAPSULE, r, h, 0, ca, Ra);
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_capsule_box(&a, &b, margin, con);
    check_common(P_CB, con, nc, margin);
    CHECK_MSG(nc == 2, "capsule-box lying %d: %d contacts", it, nc);
    if (nc != 2) continue;
    for (int i = 0; i < 2; i++) {
      double best = INFINITY;
      for (int j = 0; j < 2; j++) {
        double pos[3];
        for (int m = 0; m < 3; m++) pos[m] = ca[m] + (j ? -h : h) * w[m] - (r + 0.5 * g) * nf[m];
        best = fmin(best, dist3(con[i].pos, pos));
      }
      double n[3];
      csi_scl3(n, nf, -1);
      double err = fmax(best, fmax(fabs(con[i].dist - g), dist3(con[i].frame, n)));
      note(&err_closed[P_CB], err);
      CHECK_MSG(err <= TOL, "capsule-box lying %d contact %d: error %g", it, i, err);
    }
    check_translate(P_CB, csi_collide_capsule_box, &a, &b, margin);
  }
}

/* ------------------------------------------------------------------------------ box-box */

static void test_box_box_random(void) {
  int nsep = 0, npen = 0, nshallow = 0;
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom a, b;
    double ca[3], cb[3], R[9], ea[3], eb[3], v[3];
    double margin = cs_test_uniform(0, 0.1);
    rand_vec(ea, 0.05, 1);
    rand_vec(eb, 0.05, 1);
    rand_vec(ca, -1, 1);
    cs_test_random_rot(R);
    cs_test_geom(&a, CS_GEOM_BOX, ea[0], ea[1], ea[2], ca, R);
    rand_dir(v);
    double L = cs_test_uniform(0, csi_norm3(ea) + csi_norm3(eb) + 0.2);
    for (int k = 0; k < 3; k++) cb[k] = ca[k] + L * v[k];
    cs_test_random_rot(R);
    cs_test_geom(&b, CS_GEOM_BOX, eb[0], eb[1], eb[2], cb, R);
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_box_box(&a, &b, margin, con);
    check_common(P_BB, con, nc, margin);
    /* the test's own separating axis test, by corner projections */
    double ax[15][3], maxsep = -INFINITY;
    int nax = sat_axes(&a, &b, ax);
    for (int i = 0; i < nax; i++) {
      double mL[3] = {-ax[i][0], -ax[i][1], -ax[i][2]};
      maxsep = fmax(maxsep, -fmin(overlap(&a, &b, ax[i]), overlap(&a, &b, mL)));
    }
    if (maxsep > margin + TOL) {
      CHECK_MSG(nc == 0, "box-box pose %d: %d contacts, separated by %g", it, nc, maxsep);
      continue;
    }
    if (maxsep < -TOL) {
      npen++;
      CHECK_MSG(nc >= 1, "box-box pose %d: intersecting (%g) but no contact", it, maxsep);
    }
    if (nc < 1) continue;
    if (maxsep >= 0) nsep++;
    for (int i = 0; i < nc; i++) {
      double pa[3], pb[3];
      surf_points(con + i, pa, pb);
      double es = fmax(fabs(box_sdf(pa, &a)), fabs(box_sdf(pb, &b)));
      note(&err_prop[P_BB], es);
      CHECK_MSG(es <= TOL, "box-box pose %d: point off the surfaces by %g (feature %d)", it, es,
                con[i].feature);
    }
    /* The normal's own overlap is the least over the 15 axes (and, intersecting, over
       random directions too: the penetration depth is the least overlap over all
       directions, attained at one of the 15). No contact is deeper than that overlap, and
       intersecting boxes have a contact exactly that deep. Separated boxes within margin
       may have only shallower ones (the axis gap is a lower bound of their distance). */
    int m = deepest(con, nc);
    double ovn = overlap(&a, &b, con[m].frame), worst = ovn + maxsep;
    if (maxsep < 0)
      for (int i = 0; i < 20; i++) {
        double L2[3];
        rand_dir(L2);
        worst = fmax(worst, ovn - overlap(&a, &b, L2));
      }
    note(&err_prop[P_BB], worst);
    CHECK_MSG(worst <= TOL, "box-box pose %d: normal overlap %.17g exceeds the least by %g", it,
              ovn, worst);
    for (int i = 0; i < nc; i++) {
      double lack = -ovn - con[i].dist;
      note(&err_prop[P_BB], lack);
      CHECK_MSG(lack <= TOL, "box-box pose %d: contact deeper than the overlap", it);
    }
    if (maxsep < -TOL) {
      double err = fabs(con[m].dist - maxsep);
      note(&err_closed[P_BB], err);
      CHECK_MSG(err <= TOL, "box-box pose %d: depth %.17g, least overlap %.17g", it, con[m].dist,
                -maxsep);
    } else if (con[m].dist > -ovn + TOL) {
      nshallow++;
    }
    check_translate(P_BB, csi_collide_box_box, &a, &b, margin);
    check_swap(P_BB, csi_collide_box_box, &a, &b, margin, con, nc);
  }
  printf(
      "box-box random: %d intersecting, %d separated within margin (%d of them with the "
      "deepest point shallower than the axis gap)\n",
      npen, nsep, nshallow);
  CHECK(npen > 1000);
}

/* 2-D helpers for the face construction */
static int in_rect(const double* p, const double* c, const double* du, const double* dv, double hu,
                   double hv, double tol) {
  double d[2] = {p[0] - c[0], p[1] - c[1]};
  return fabs(d[0] * du[0] + d[1] * du[1]) <= hu + tol &&
         fabs(d[0] * dv[0] + d[1] * dv[1]) <= hv + tol;
}

static int seg_cross(const double* p0, const double* p1, const double* q0, const double* q1,
                     double* x) {
  double r[2] = {p1[0] - p0[0], p1[1] - p0[1]}, s[2] = {q1[0] - q0[0], q1[1] - q0[1]};
  double den = r[0] * s[1] - r[1] * s[0];
  if (fabs(den) < 1e-12) return 0;
  double w[2] = {q0[0] - p0[0], q0[1] - p0[1]};
  double t = (w[0] * s[1] - w[1] * s[0]) / den, u = (w[0] * r[1] - w[1] * r[0]) / den;
  if (t < 0 || t > 1 || u < 0 || u > 1) return 0;
  x[0] = p0[0] + t * r[0], x[1] = p0[1] + t * r[1];
  return 1;
}

/* b resting on a face of a (gap delta, rotated about the normal, offset in the face):
   the contact polygon is the intersection of the two rectangles, at depth delta. */
static void test_box_box_face(void) {
  int nvert_total = 0;
  for (int it = 0; it < NPOSE + 200; it++) {
    int aligned = it >= NPOSE; /* the last 200: identical boxes stacked exactly */
    csiCollGeom a, b;
    double ca[3], Ra[9], Rb[9], ea[3], eb[3];
    double margin = cs_test_uniform(0, 0.1);
    rand_vec(ea, 0.1, 1);
    rand_vec(ca, -1, 1);
    cs_test_random_rot(Ra);
    cs_test_geom(&a, CS_GEOM_BOX, ea[0], ea[1], ea[2], ca, Ra);
    int i = it % 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    double sg = (it / 3) % 2 ? -1 : 1;
    int j = aligned ? i : (it / 6) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    double tau = aligned ? -sg : ((it / 18) % 2 ? -1 : 1);
    double n[3], u[3], w[3], bj[3], bj1[3], bj2[3];
    col(n, Ra, i), col(u, Ra, i1), col(w, Ra, i2);
    csi_scl3(n, n, sg);
    if (it % 2 == 0 && !aligned) { /* b's face inside a's */
      rand_vec(eb, 0.1, 1);
      eb[j1] = cs_test_uniform(0.1, 0.45) * fmin(ea[i1], ea[i2]);
      eb[j2] = cs_test_uniform(0.1, 0.45) * fmin(ea[i1], ea[i2]);
    } else {
      rand_vec(eb, 0.1, 1);
    }
    if (aligned) csi_copy3(eb, ea);
    double th = aligned ? 0 : cs_test_uniform(-M_PI, M_PI);
    double ou = aligned ? 0 : cs_test_uniform(-0.95, 0.95) * ea[i1];
    double ov = aligned ? 0 : cs_test_uniform(-0.95, 0.95) * ea[i2];
    if (it % 2 == 0 && !aligned) ou *= 0.4, ov *= 0.4;
    double emin = fmin(fmin(fmin(ea[0], ea[1]), ea[2]), fmin(fmin(eb[0], eb[1]), eb[2]));
    double delta = cs_test_uniform(-0.05 * emin, margin);
    csi_scl3(bj, n, -tau);
    for (int k = 0; k < 3; k++) bj1[k] = cos(th) * u[k] + sin(th) * w[k];
    csi_cross3(bj2, bj, bj1);
    set_col(Rb, j, bj), set_col(Rb, j1, bj1), set_col(Rb, j2, bj2);
    if (aligned) memcpy(Rb, Ra, sizeof Rb);
    double fa[3], cb[3];
    for (int k = 0; k < 3; k++) {
      fa[k] = ca[k] + sg * ea[i] * Ra[3 * k + i]; /* centre of a's face */
      cb[k] = fa[k] + ou * u[k] + ov * w[k] + (delta + eb[j]) * n[k];
    }
    cs_test_geom(&b, CS_GEOM_BOX, eb[0], eb[1], eb[2], cb, Rb);

    /* the expected polygon in face coordinates (u, w) about fa */
    double Ac[4][2], Bc[4][2], bc[2] = {ou, ov};
    double du[2] = {1, 0}, dv[2] = {0, 1};
    double bu[2] = {csi_dot3(bj1, u), csi_dot3(bj1, w)},
           bv[2] = {csi_dot3(bj2, u), csi_dot3(bj2, w)};
    static const double s1[4] = {1, -1, -1, 1}, s2[4] = {1, 1, -1, -1};
    for (int c = 0; c < 4; c++) {
      Ac[c][0] = s1[c] * ea[i1], Ac[c][1] = s2[c] * ea[i2];
      for (int k = 0; k < 2; k++)
        Bc[c][k] = bc[k] + s1[c] * eb[j1] * bu[k] + s2[c] * eb[j2] * bv[k];
    }
    double zero[2] = {0, 0}, V[32][2];
    int nv = 0;
    for (int c = 0; c < 4; c++) {
      if (in_rect(Ac[c], bc, bu, bv, eb[j1], eb[j2], 1e-12))
        V[nv][0] = Ac[c][0], V[nv++][1] = Ac[c][1];
      if (in_rect(Bc[c], zero, du, dv, ea[i1], ea[i2], 1e-12))
        V[nv][0] = Bc[c][0], V[nv++][1] = Bc[c][1];
    }
    for (int c = 0; c < 4; c++)
      for (int d = 0; d < 4; d++)
        if (seg_cross(Ac[c], Ac[(c + 1) % 4], Bc[d], Bc[(d + 1) % 4], V[nv])) nv++;
    int ndistinct = 0;
    for (int p = 0; p < nv; p++) {
      int dup = 0;
      for (int q = 0; q < p; q++)
        if (hypot(V[p][0] - V[q][0], V[p][1] - V[q][1]) < 1e-9) dup = 1;
      ndistinct += !dup;
    }
    nvert_total += ndistinct;

    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_box_box(&a, &b, margin, con);
    check_common(P_BB, con, nc, margin);
    CHECK_MSG(nc == ndistinct, "box-box face %d: %d contacts, polygon has %d vertices", it, nc,
              ndistinct);
    double err = 0;
    for (int c = 0; c < nc; c++) {
      /* on both faces, at depth delta, halfway */
      double d[3], p2[2];
      csi_sub3(d, con[c].pos, fa);
      p2[0] = csi_dot3(d, u), p2[1] = csi_dot3(d, w);
      double e = fabs(csi_dot3(d, n) - 0.5 * delta);
      e = fmax(e, fabs(con[c].dist - delta));
      e = fmax(e, dist3(con[c].frame, n));
      if (!in_rect(p2, zero, du, dv, ea[i1], ea[i2], TOL)) e = fmax(e, 1);
      if (!in_rect(p2, bc, bu, bv, eb[j1], eb[j2], TOL)) e = fmax(e, 1);
      err = fmax(err, e);
    }
    for (int p = 0; p < nv; p++) {
      /* every vertex of the polygon is a contact */
      double best = INFINITY;
      for (int c = 0; c < nc; c++) {
        double d[3];
        csi_sub3(d, con[c].pos, fa);
        best = fmin(best, hypot(csi_dot3(d, u) - V[p][0], csi_dot3(d, w) - V[p][1]));
      }
      err = fmax(err, best);
    }
    note(&err_closed[P_BB], err);
    CHECK_MSG(err <= TOL, "box-box face %d%s: error %g", it, aligned ? " (aligned)" : "", err);
    if (aligned) CHECK(nc == 4);
    check_translate(P_BB, csi_collide_box_box, &a, &b, margin);
    check_swap(P_BB, csi_collide_box_box, &a, &b, margin, con, nc);
  }
  printf("box-box face: %.2f polygon vertices per pose\n", (double)nvert_total / (NPOSE + 200));
}

/* An edge of b crossing an edge of a at depth delta along n, n strictly inside the wedges
   of both edges (between their two faces' normals). */
static void test_box_box_edge(void) {
  for (int it = 0; it < NPOSE; it++) {
    csiCollGeom a, b;
    double ca[3], Ra[9], Rb[9], ea[3], eb[3];
    rand_vec(ea, 0.2, 1);
    rand_vec(eb, 0.2, 1);
    rand_vec(ca, -1, 1);
    cs_test_random_rot(Ra);
    cs_test_geom(&a, CS_GEOM_BOX, ea[0], ea[1], ea[2], ca, Ra);
    int i = it % 3, k1 = (i + 1) % 3, k2 = (i + 2) % 3;
    double s1 = it & 8 ? -1 : 1, s2 = it & 16 ? -1 : 1;
    double ai[3], N1[3], N2[3], n[3], pA[3];
    col(ai, Ra, i), col(N1, Ra, k1), col(N2, Ra, k2);
    csi_scl3(N1, N1, s1), csi_scl3(N2, N2, s2);
    double phi = cs_test_uniform(0.25, M_PI / 2 - 0.25), lam = cs_test_uniform(-0.5, 0.5);
    for (int k = 0; k < 3; k++) {
      n[k] = cos(phi) * N1[k] + sin(phi) * N2[k];
      pA[k] =
          ca[k] + s1 * ea[k1] * Ra[3 * k + k1] + s2 * ea[k2] * Ra[3 * k + k2] + lam * ea[i] * ai[k];
    }
    /* b's edge: a's edge direction turned about n by psi; its faces' normals M1, M2 with
       -n between them */
    double psi = cs_test_uniform(0.3, M_PI - 0.3), chi = cs_test_uniform(0.25, M_PI / 2 - 0.25);
    double nxa[3], eB[3], wv[3], M1[3], M2[3];
    csi_cross3(nxa, n, ai);
    for (int k = 0; k < 3; k++) eB[k] = cos(psi) * ai[k] + sin(psi) * nxa[k];
    csi_cross3(wv, eB, n);
    for (int k = 0; k < 3; k++) {
      M1[k] = -cos(chi) * n[k] + sin(chi) * wv[k];
      M2[k] = -sin(chi) * n[k] - cos(chi) * wv[k];
    }
    int j = (it / 3) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    set_col(Rb, j, eB), set_col(Rb, j1, M1), set_col(Rb, j2, M2);
    /* every 50th just touching: 1e-12 apart or into each other, where a normal taken from
       the closest points' difference would be rounding noise */
    double delta = it % 50 == 0 ? (it % 100 ? 1e-12 : -1e-12) : cs_test_uniform(-0.005, 0.005);
    double margin = cs_test_uniform(0.005, 0.1);
    double mu = cs_test_uniform(-0.5, 0.5), cb[3];
    for (int k = 0; k < 3; k++)
      cb[k] = pA[k] + delta * n[k] - mu * eb[j] * eB[k] - eb[j1] * M1[k] - eb[j2] * M2[k];
    cs_test_geom(&b, CS_GEOM_BOX, eb[0], eb[1], eb[2], cb, Rb);
    csContact con[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_box_box(&a, &b, margin, con);
    check_common(P_BB, con, nc, margin);
    CHECK_MSG(nc == 1, "box-box edge %d: %d contacts", it, nc);
    if (nc != 1) continue;
    double pos[3];
    for (int k = 0; k < 3; k++) pos[k] = pA[k] + 0.5 * delta * n[k];
    double err =
        fmax(fabs(con[0].dist - delta), fmax(dist3(con[0].frame, n), dist3(con[0].pos, pos)));
    note(&err_closed[P_BB], err);
    CHECK_MSG(err <= TOL, "box-box edge %d: error %g", it, err);
    check_translate(P_BB, csi_collide_box_box, &a, &b, margin);
    check_swap(P_BB, csi_collide_box_box, &a, &b, margin, con, nc);
  }
}

/* ---------------------------------------------------------------------- degenerate poses */

/* Exact coincidences and exact zeros in the rotations, where a careless division gives NaN
   or a noise direction: each must give finite, unit-normal contacts with the known depth. */
static void test_degenerate(void) {
  double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, o[3] = {0, 0, 0}, R[9];
  csContact con[CSI_MAX_PAIR_CONTACTS];
  csiCollGeom a, b;
  int nc;

  /* sphere centre at the box centre: pushed out along the thinnest axis */
  cs_test_geom(&a, CS_GEOM_SPHERE, 0.1, 0, 0, o, I);
  cs_test_geom(&b, CS_GEOM_BOX, 0.5, 0.3, 0.4, o, I);
  nc = csi_collide_sphere_box(&a, &b, 0, con);
  check_common(P_SB, con, nc, 0);
  CHECK(nc == 1);
  CHECK_NEAR(con[0].dist, -0.4, 1e-15);
  CHECK_NEAR(fabs(con[0].frame[1]), 1, 1e-15);

  /* two capsules crossing at their centres: normal across both axes */
  double x[3] = {0, 0, 0};
  cs_test_random_rot(R);
  cs_test_geom(&a, CS_GEOM_CAPSULE, 0.1, 0.5, 0, x, R);
  double q[4] = {cos(0.4), sin(0.4), 0, 0}, Q[9], R2[9], u[3], v[3], c[3];
  csi_quat2mat(Q, q);
  csi_mulmat3(R2, R, Q);
  cs_test_geom(&b, CS_GEOM_CAPSULE, 0.2, 0.7, 0, x, R2);
  nc = csi_collide_capsule_capsule(&a, &b, 0, con);
  check_common(P_CC, con, nc, 0);
  CHECK(nc == 1);
  CHECK_NEAR(con[0].dist, -0.3, 1e-15);
  col(u, R, 2), col(v, R2, 2);
  csi_cross3(c, u, v);
  csi_normalize3(c);
  CHECK_NEAR(fabs(csi_dot3(con[0].frame, c)), 1, 1e-12);

  /* the same axes crossing off-centre (s = 0.3 on a, t = -0.4 on b), 1e-12 apart along c:
     the normal is still exactly c (the closest points' difference would give it only to
     about 1e-16 / 1e-12), the distance c.(cb - ca) */
  a.pos[0] = a.pos[1] = a.pos[2] = 0.3;
  for (int k = 0; k < 3; k++) x[k] = a.pos[k] + 0.3 * u[k] + 0.4 * v[k] + 1e-12 * c[k];
  cs_test_geom(&b, CS_GEOM_CAPSULE, 0.2, 0.7, 0, x, R2);
  nc = csi_collide_capsule_capsule(&a, &b, 0, con);
  check_common(P_CC, con, nc, 0);
  CHECK(nc == 1);
  double dab[3];
  csi_sub3(dab, b.pos, a.pos);
  CHECK_NEAR(con[0].dist, csi_dot3(c, dab) - 0.3, 1e-15);
  CHECK_NEAR(dist3(con[0].frame, c), 0, 1e-12);
  x[0] = x[1] = x[2] = 0;

  /* two zero-length capsules at one point */
  cs_test_geom(&a, CS_GEOM_CAPSULE, 0.1, 0, 0, x, R);
  cs_test_geom(&b, CS_GEOM_CAPSULE, 0.2, 0, 0, x, R2);
  nc = csi_collide_capsule_capsule(&a, &b, 0, con);
  check_common(P_CC, con, nc, 0);
  CHECK(nc == 1);
  CHECK_NEAR(con[0].dist, -0.3, 1e-15);

  /* axis-aligned capsule lying on a box's top face, and standing on it */
  double cp[3] = {0.1, -0.05, 0.4 + 0.1 + 0.01}, Rx[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
  cs_test_geom(&b, CS_GEOM_BOX, 0.5, 0.3, 0.4, o, I);
  cs_test_geom(&a, CS_GEOM_CAPSULE, 0.1, 0.2, 0, cp, Rx); /* axis along world x */
  nc = csi_collide_capsule_box(&a, &b, 0.02, con);
  check_common(P_CB, con, nc, 0.02);
  CHECK(nc == 2);
  for (int i = 0; i < nc; i++) {
    CHECK_NEAR(con[i].dist, 0.01, 1e-15);
    CHECK_NEAR(con[i].frame[2], -1, 1e-15);
  }
  cp[2] = 0.4 + 0.2 + 0.1 - 0.03; /* standing, sunk 0.03 */
  cs_test_geom(&a, CS_GEOM_CAPSULE, 0.1, 0.2, 0, cp, I);
  nc = csi_collide_capsule_box(&a, &b, 0.02, con);
  check_common(P_CB, con, nc, 0.02);
  CHECK(nc == 1);
  CHECK_NEAR(con[0].dist, -0.03, 1e-15);
  CHECK_NEAR(con[0].frame[2], -1, 1e-15);
  /* zero-length capsule inside the box, nearest the -y face: 0.3 - 0.05 deep plus r */
  cp[2] = 0;
  cs_test_geom(&a, CS_GEOM_CAPSULE, 0.1, 0, 0, cp, I);
  nc = csi_collide_capsule_box(&a, &b, 0, con);
  check_common(P_CB, con, nc, 0);
  CHECK(nc == 1);
  CHECK_NEAR(con[0].dist, -0.35, 1e-15);
  CHECK_NEAR(con[0].frame[1], 1, 1e-15);

  /* capsule across a box edge, 1e-11 from it, everything at a random pose: the normal
     exactly across the edge (from the closest points' difference it would be good to about
     1e-16 / 1e-11 only) */
  {
    double s2 = sqrt(0.5), ne[3] = {s2, 0, s2}, dcap[3] = {1, 1, -1}, Rc[9], R0[9], Rw[9];
    double edge[3] = {0.5, 0.1, 0.4}, cl[3], cw[3], bp[3] = {0.3, -0.7, 0.2}, nx[3];
    csi_normalize3(dcap);
    capsule_frame(Rc, dcap);
    cs_test_random_rot(R0);
    csi_mulmat3(Rw, R0, Rc);
    for (int k = 0; k < 3; k++) cl[k] = edge[k] + (0.1 + 1e-11) * ne[k];
    csi_mulmat3vec(cw, R0, cl);
    csi_add3(cw, cw, bp);
    cs_test_geom(&b, CS_GEOM_BOX, 0.5, 0.3, 0.4, bp, R0);
    cs_test_geom(&a, CS_GEOM_CAPSULE, 0.1, 0.2, 0, cw, Rw);
    nc = csi_collide_capsule_box(&a, &b, 1e-10, con);
    check_common(P_CB, con, nc, 1e-10);
    CHECK(nc == 1);
    CHECK_NEAR(con[0].dist, 1e-11, 1e-14); /* the construction's own rounding */
    csi_mulmat3vec(nx, R0, ne);
    csi_scl3(nx, nx, -1);
    CHECK_NEAR(dist3(con[0].frame, nx), 0, 1e-12);
    cs_test_geom(&b, CS_GEOM_BOX, 0.5, 0.3, 0.4, o, I);
  }

  /* two identical boxes at the same pose: pushed apart along the thinnest axis */
  cs_test_random_rot(R);
  cs_test_geom(&a, CS_GEOM_BOX, 0.5, 0.3, 0.4, c, R);
  cs_test_geom(&b, CS_GEOM_BOX, 0.5, 0.3, 0.4, c, R);
  nc = csi_collide_box_box(&a, &b, 0, con);
  check_common(P_BB, con, nc, 0);
  CHECK(nc == 4);
  for (int i = 0; i < nc; i++) CHECK_NEAR(con[i].dist, -0.6, 1e-14);

  /* a box standing exactly upright on a plane: its 4 bottom corners */
  cs_test_geom(&a, CS_GEOM_PLANE, 0, 0, 0, o, I);
  double cb[3] = {0.3, 0.2, 0.4};
  cs_test_geom(&b, CS_GEOM_BOX, 0.5, 0.3, 0.4, cb, I);
  nc = csi_collide_plane_box(&a, &b, 0.1, con);
  check_common(P_PB, con, nc, 0.1);
  CHECK(nc == 4);
  for (int i = 0; i < nc; i++) CHECK(con[i].dist == 0 && con[i].pos[2] == 0);
}

/* --------------------------------------------------------------------------------- main */

int main(void) {
  cs_test_seed(20261122);
  test_plane_sphere();
  test_plane_capsule();
  test_plane_cylinder();
  test_plane_box();
  test_sphere_sphere();
  test_sphere_capsule();
  test_sphere_box();
  test_capsule_capsule();
  test_capsule_box();
  test_box_box_random();
  test_box_box_face();
  test_box_box_edge();
  test_degenerate();
  printf("%-16s %12s %12s %8s\n", "pair", "closed form", "property", "calls with contacts");
  for (int p = 0; p < NPAIR; p++)
    printf("%-16s %12.3g %12.3g %8d\n", pair_name[p], err_closed[p], err_prop[p],
           n_pose_contact[p]);
  return cs_test_finish("test_collision_primitive");
}
