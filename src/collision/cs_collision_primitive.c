/* Analytic narrowphase: closed-form contacts between planes, spheres, capsules, cylinders
   and boxes. The contract (type order, normal from a into b, dist <= margin, pos midway
   between the surfaces, stable feature ids) is in cs_collision.h.

   Every contact is written from a point pa of a's surface, the normal n and dist, so the
   point of b's surface is pa + dist n and pos = pa + dist/2 n; where the two surface points
   come from separate closest-point computations (edge-edge) pos is their midpoint.

   Degenerate inputs (coincident centres, parallel segments, zero-length capsules, exactly
   aligned boxes) take explicit branches: no division by a length that can be zero. */
#include <math.h>
#include <string.h>

#include "collision/cs_collision.h"
#include "math/cs_math.h"

/* Edge axes (box-box, capsule-box) whose cross product is shorter than this are skipped:
   the edges are parallel to within 1e-6 rad, the face axes already bound the overlap there
   (to O(1e-6 size)), and the normalised cross product of nearly parallel directions is
   dominated by rounding. */
#define EDGE_PARALLEL 1e-6

/* Relative tolerance by which an edge axis must beat the best face axis (and b's face must
   beat a's) to be chosen: exact ties (an edge lying on a face, two parallel faces) then
   resolve the same way every step, which keeps the feature ids and the contact count
   stable. Scaled by the summed sizes of the pair. */
#define AXIS_PREFER 1e-10

/* ------------------------------------------------------------------------------ helpers */

static void col3(double* r, const double* mat, int k) {
  r[0] = mat[k], r[1] = mat[3 + k], r[2] = mat[6 + k];
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

static double dist_pts(const double* a, const double* b) {
  double d[3];
  csi_sub3(d, a, b);
  return csi_norm3(d);
}

static double sgn1(double x) { return x < 0 ? -1.0 : 1.0; }

/* Of the m candidates idx[] (in candidate order) keep the 4 deepest, still in candidate
   order, so that the output order does not hang on rounding between equal depths. */
static int keep_deepest4(int* idx, int m, const double* depth) {
  while (m > 4) {
    int w = 0;
    for (int i = 1; i < m; i++)
      if (depth[idx[i]] >= depth[idx[w]]) w = i;
    for (int i = w; i + 1 < m; i++) idx[i] = idx[i + 1];
    m--;
  }
  return m;
}

/* One contact from a's surface point pa (world), unit normal n (a into b) and dist. */
static void put_contact(csContact* c, const double* pa, const double* n, double dist, int feature) {
  memset(c, 0, sizeof *c);
  for (int k = 0; k < 3; k++) c->pos[k] = pa[k] + 0.5 * dist * n[k];
  csi_copy3(c->frame, n);
  c->dist = dist;
  c->feature = feature;
}

/* One contact whose two surface points pa, pb (world) were found separately. */
static void put_contact_mid(csContact* c, const double* pa, const double* pb, const double* n,
                            double dist, int feature) {
  memset(c, 0, sizeof *c);
  for (int k = 0; k < 3; k++) c->pos[k] = 0.5 * (pa[k] + pb[k]);
  csi_copy3(c->frame, n);
  c->dist = dist;
  c->feature = feature;
}

/* Two spheres: centre ca radius ra against the centre ca + d radius rb. d is passed rather
   than the second centre so that callers form it from differences of the inputs (no
   cancellation between large world coordinates). fallback is the unit normal used when the
   centres coincide (any direction is a minimum-distance direction then); they count as
   coincident below 1e-12 of the radii, where the direction of d is rounding noise (a
   centre computed on a segment that passes through the other) and the distance is off by
   less than that whichever normal is used. */
static int sphere_pair(const double* ca, double ra, const double* d, double rb,
                       const double* fallback, double margin, int feature, csContact* con) {
  double n[3], pa[3];
  double len = csi_norm3(d);
  double dist = len - ra - rb;
  if (dist > margin) return 0;
  if (len > 1e-12 * (ra + rb))
    csi_scl3(n, d, 1.0 / len);
  else
    csi_copy3(n, fallback);
  for (int k = 0; k < 3; k++) pa[k] = ca[k] + ra * n[k];
  put_contact(con, pa, n, dist, feature);
  return 1;
}

/* cb - ca for ca = pa + s ua and cb = pb + t ub, from the difference of the origins */
static void seg_points_diff(double* d, const double* pa, const double* ua, double s,
                            const double* pb, const double* ub, double t) {
  for (int k = 0; k < 3; k++) d[k] = (pb[k] - pa[k]) + (t * ub[k] - s * ua[k]);
}

/* Closest points of the segments p + s u (|s| <= hu) and q + t v (|t| <= hv), u and v unit.
   The squared distance is a convex quadratic on a rectangle: minimise over the lines, clamp
   s, solve t for it, and if t had to be clamped solve s again for the clamped t (Ericson,
   Real-Time Collision Detection 5.1.9). Parallel lines (denominator 0) start from s = 0. */
static void seg_seg(const double* p, const double* u, double hu, const double* q, const double* v,
                    double hv, double* s_out, double* t_out) {
  double r[3];
  csi_sub3(r, p, q);
  double b = csi_dot3(u, v), c = csi_dot3(u, r), f = csi_dot3(v, r);
  double denom = 1.0 - b * b;
  double s = denom > 0 ? clampd((b * f - c) / denom, -hu, hu) : 0.0;
  double t = b * s + f;
  if (t < -hv || t > hv) {
    t = clampd(t, -hv, hv);
    s = clampd(b * t - c, -hu, hu);
  }
  *s_out = s, *t_out = t;
}

/* The unit normal along dx (a short difference of two computed closest points), snapped
   to the candidate direction (unit) best aligned with it when dx deviates from that by no
   more than tol, the rounding in the points: for a vertex on a face or crossing edges the
   exact direction is known, and the direction of a dx a few orders above the rounding is
   not. Returns the distance along the normal. */
static double snap_normal(double* n, const double* dx, const double (*cand)[3], int ncand,
                          double tol) {
  double len = csi_norm3(dx), pbest = tol;
  int cbest = -1;
  for (int c = 0; c < ncand; c++) {
    double pr = csi_dot3(cand[c], dx), perp[3];
    for (int m = 0; m < 3; m++) perp[m] = dx[m] - pr * cand[c][m];
    double pn = csi_norm3(perp);
    if (pr != 0 && pn <= pbest) pbest = pn, cbest = c;
  }
  if (cbest < 0) {
    csi_scl3(n, dx, 1.0 / len);
    return len;
  }
  double pr = csi_dot3(cand[cbest], dx);
  csi_scl3(n, cand[cbest], sgn1(pr));
  return fabs(pr);
}

/* ---------------------------------------------------------------------------- plane-* */

int csi_collide_plane_sphere(const csiCollGeom* a, const csiCollGeom* b, double margin,
                             csContact* con) {
  double n[3], d[3], pa[3];
  col3(n, a->mat, 2);
  csi_sub3(d, b->pos, a->pos);
  double r = b->size[0];
  double dist = csi_dot3(n, d) - r;
  if (dist > margin) return 0;
  /* a's surface point: the sphere centre projected onto the plane */
  for (int k = 0; k < 3; k++) pa[k] = b->pos[k] - (dist + r) * n[k];
  put_contact(con, pa, n, dist, 0);
  return 1;
}

/* The ellipsoid's support point along -n: with the plane normal n in the ellipsoid frame
   and A = diag(radii), the point -A^2 n / |A n|, whose height above its centre along n is
   -|A n|. One contact there. */
int csi_collide_plane_ellipsoid(const csiCollGeom* a, const csiCollGeom* b, double margin,
                                csContact* con) {
  double n[3], d[3], nl[3], an[3], loc[3], p[3], pa[3];
  col3(n, a->mat, 2);
  csi_mulmat3tvec(nl, b->mat, n);
  for (int k = 0; k < 3; k++) an[k] = b->size[k] * nl[k];
  double h = csi_norm3(an); /* support height of the ellipsoid along n */
  csi_sub3(d, b->pos, a->pos);
  double dist = csi_dot3(n, d) - h;
  if (dist > margin || !(h > 0)) return 0;
  for (int k = 0; k < 3; k++) loc[k] = -b->size[k] * an[k] / h;
  csi_geom_to_world(p, b, loc);
  for (int k = 0; k < 3; k++) pa[k] = p[k] - dist * n[k]; /* on the plane */
  put_contact(con, pa, n, dist, 0);
  return 1;
}

/* The two segment ends, each a sphere of the capsule radius against the plane: a capsule
   lying flat gets a two-point support, a tilted one the lower end only (within margin). */
int csi_collide_plane_capsule(const csiCollGeom* a, const csiCollGeom* b, double margin,
                              csContact* con) {
  double n[3], ax[3];
  col3(n, a->mat, 2);
  col3(ax, b->mat, 2);
  double r = b->size[0], h = b->size[1];
  int nend = h > 0 ? 2 : 1, nc = 0;
  for (int i = 0; i < nend; i++) {
    double e[3], d[3], pa[3];
    double s = i == 0 ? h : -h;
    for (int k = 0; k < 3; k++) e[k] = b->pos[k] + s * ax[k];
    csi_sub3(d, e, a->pos);
    double dist = csi_dot3(n, d) - r;
    if (dist > margin) continue;
    for (int k = 0; k < 3; k++) pa[k] = e[k] - (dist + r) * n[k];
    put_contact(con + nc++, pa, n, dist, i);
  }
  return nc;
}

/* Candidates on the rim: the deepest point of the lower cap (direction v in the cap plane,
   most against the plane normal), the points a quarter, half and three quarters round from
   it (a cylinder standing on its face gets a square support), and the deepest point of
   the upper cap (a cylinder lying on its side gets the two ends of its contact line). Those
   within margin are kept, at most the 4 deepest. */
int csi_collide_plane_cylinder(const csiCollGeom* a, const csiCollGeom* b, double margin,
                               csContact* con) {
  double n[3], ax[3], v[3], w[3];
  col3(n, a->mat, 2);
  col3(ax, b->mat, 2);
  double r = b->size[0], h = b->size[1];
  double na = csi_dot3(n, ax);
  for (int k = 0; k < 3; k++) v[k] = na * ax[k] - n[k];
  /* standing exactly upright the deepest direction is undefined: any rim direction is
     deepest, take the cylinder's own x axis so the points do not depend on rounding */
  if (csi_normalize3(v) < 1e-12) col3(v, b->mat, 0);
  csi_cross3(w, ax, v);
  double s = na > 0 ? -1.0 : 1.0; /* the lower cap is at s h along the axis */
  double cb[3], ct[3], pts[5][3], depth[5];
  for (int k = 0; k < 3; k++) cb[k] = b->pos[k] + s * h * ax[k], ct[k] = b->pos[k] - s * h * ax[k];
  for (int k = 0; k < 3; k++) {
    pts[0][k] = cb[k] + r * v[k];
    pts[1][k] = cb[k] + r * w[k];
    pts[2][k] = cb[k] - r * v[k];
    pts[3][k] = cb[k] - r * w[k];
    pts[4][k] = ct[k] + r * v[k];
  }
  int ncand = h > 0 ? 5 : 4; /* a flat disc's upper cap is its lower cap */
  int idx[5], m = 0;
  for (int i = 0; i < ncand; i++) {
    double d[3];
    csi_sub3(d, pts[i], a->pos);
    depth[i] = csi_dot3(n, d);
    if (depth[i] <= margin) idx[m++] = i;
  }
  m = keep_deepest4(idx, m, depth);
  int base = s > 0 ? 0 : 5; /* which physical cap is lower is part of the feature */
  for (int c = 0; c < m; c++) {
    int i = idx[c];
    double pa[3];
    for (int k = 0; k < 3; k++) pa[k] = pts[i][k] - depth[i] * n[k];
    put_contact(con + c, pa, n, depth[i], base + i);
  }
  return m;
}

/* The 8 corners; those within margin, at most the 4 deepest. Corner i has local coordinate
   k at -size[k] when bit k of i is set. */
int csi_collide_plane_box(const csiCollGeom* a, const csiCollGeom* b, double margin,
                          csContact* con) {
  double n[3], nl[3], d[3];
  col3(n, a->mat, 2);
  csi_mulmat3tvec(nl, b->mat, n); /* plane normal in the box frame */
  csi_sub3(d, b->pos, a->pos);
  double h0 = csi_dot3(n, d), depth[8];
  int idx[8], m = 0;
  for (int i = 0; i < 8; i++) {
    double hz = h0;
    for (int k = 0; k < 3; k++) hz += ((i >> k) & 1 ? -1.0 : 1.0) * b->size[k] * nl[k];
    depth[i] = hz;
    if (hz <= margin) idx[m++] = i;
  }
  m = keep_deepest4(idx, m, depth);
  for (int c = 0; c < m; c++) {
    int i = idx[c];
    double x[3], pb[3], pa[3];
    for (int k = 0; k < 3; k++) x[k] = ((i >> k) & 1 ? -1.0 : 1.0) * b->size[k];
    csi_geom_to_world(pb, b, x);
    for (int k = 0; k < 3; k++) pa[k] = pb[k] - depth[i] * n[k];
    put_contact(con + c, pa, n, depth[i], i);
  }
  return m;
}

/* --------------------------------------------------------------------------- sphere-* */

int csi_collide_sphere_sphere(const csiCollGeom* a, const csiCollGeom* b, double margin,
                              csContact* con) {
  static const double up[3] = {0, 0, 1};
  double d[3];
  csi_sub3(d, b->pos, a->pos);
  return sphere_pair(a->pos, a->size[0], d, b->size[0], up, margin, 0, con);
}

int csi_collide_sphere_capsule(const csiCollGeom* a, const csiCollGeom* b, double margin,
                               csContact* con) {
  static const double zero[3] = {0, 0, 0};
  double ax[3], d[3], dq[3], perp[3];
  col3(ax, b->mat, 2);
  csi_sub3(d, a->pos, b->pos);
  double t = clampd(csi_dot3(ax, d), -b->size[1], b->size[1]);
  seg_points_diff(dq, a->pos, zero, 0, b->pos, ax, t); /* centre to its clamp on the axis */
  /* centre on the axis: every direction across the axis separates fastest */
  col3(perp, b->mat, 0);
  return sphere_pair(a->pos, a->size[0], dq, b->size[0], perp, margin, 0, con);
}

/* In the box frame: the clamp of the centre is the closest box point when the centre is
   outside; inside, the box is pushed off along the least-penetrated face. */
int csi_collide_sphere_box(const csiCollGeom* a, const csiCollGeom* b, double margin,
                           csContact* con) {
  const double* e = b->size;
  double r = a->size[0], l[3], q[3], nl[3], dist;
  csi_geom_to_local(l, b, a->pos);
  int outside = 0;
  for (int k = 0; k < 3; k++) {
    q[k] = clampd(l[k], -e[k], e[k]);
    if (q[k] != l[k]) outside = 1;
  }
  double dq[3];
  csi_sub3(dq, q, l);
  double len = csi_norm3(dq);
  if (outside && len > 0) {
    dist = len - r;
    if (dist > margin) return 0;
    csi_scl3(nl, dq, 1.0 / len);
  } else {
    int kmin = 0;
    double pen = e[0] - fabs(l[0]);
    for (int k = 1; k < 3; k++)
      if (e[k] - fabs(l[k]) < pen) pen = e[k] - fabs(l[k]), kmin = k;
    dist = -pen - r;
    if (dist > margin) return 0;
    /* the face at sign(l) e_k is nearest; moving the box along -sign(l) e_k pushes it off */
    nl[0] = nl[1] = nl[2] = 0;
    nl[kmin] = -sgn1(l[kmin]);
  }
  double pl[3], pa[3], n[3];
  for (int k = 0; k < 3; k++) pl[k] = l[k] + r * nl[k];
  csi_geom_to_world(pa, b, pl);
  csi_mulmat3vec(n, b->mat, nl);
  put_contact(con, pa, n, dist, 0);
  return 1;
}

/* -------------------------------------------------------------------------- capsule-* */

/* Closest points of the two segments, as two spheres. Parallel axes have a whole interval
   of closest points: the two ends of the axial overlap are reported instead (a capsule
   lying along another gets a line support), plus the closest pair when that is deeper
   (axes only nearly parallel). */
int csi_collide_capsule_capsule(const csiCollGeom* a, const csiCollGeom* b, double margin,
                                csContact* con) {
  double ua[3], ub[3], perp[3], fb[3], pa[3];
  col3(ua, a->mat, 2);
  col3(ub, b->mat, 2);
  double ra = a->size[0], ha = a->size[1], rb = b->size[0], hb = b->size[1];
  /* when the segments meet, the normal is across both; when they are also parallel, any
     direction across a's axis */
  col3(perp, a->mat, 0);
  csi_cross3(fb, ua, ub);
  double sin_ab = csi_normalize3(fb);
  if (sin_ab < EDGE_PARALLEL) csi_copy3(fb, perp);

  double s, t;
  seg_seg(a->pos, ua, ha, b->pos, ub, hb, &s, &t);
  for (int k = 0; k < 3; k++) pa[k] = a->pos[k] + s * ua[k];
  csContact best;
  int have_best;
  if (sin_ab > 1e-3 && fabs(s) < ha && fabs(t) < hb) {
    /* closest points inside both segments of crossing axes: they differ along ua x ub,
       whose direction stays exact when the axes nearly meet and their difference is
       rounding, and the distance fb.(cb - ca) does not depend on the computed s, t */
    double d[3], n[3], x[3];
    csi_sub3(d, b->pos, a->pos);
    double pr = csi_dot3(fb, d), dist = fabs(pr) - ra - rb;
    have_best = dist <= margin;
    csi_scl3(n, fb, sgn1(pr));
    for (int k = 0; k < 3; k++) x[k] = pa[k] + ra * n[k];
    if (have_best) put_contact(&best, x, n, dist, 0);
  } else {
    double d[3];
    seg_points_diff(d, a->pos, ua, s, b->pos, ub, t);
    have_best = sphere_pair(pa, ra, d, rb, fb, margin, 0, &best);
  }

  double tol = 1e-10 * (1.0 + ha + hb + ra + rb);
  if (sin_ab < 1e-4) {
    /* b's ends along a's axis; the overlap [lo, hi] of the two axial ranges */
    double d[3];
    csi_sub3(d, b->pos, a->pos);
    double c0 = csi_dot3(ua, d), c1 = hb * csi_dot3(ua, ub);
    double lo = fmax(-ha, fmin(c0 - c1, c0 + c1)), hi = fmin(ha, fmax(c0 - c1, c0 + c1));
    if (hi - lo > tol) {
      int nc = 0;
      double dmin = INFINITY;
      for (int i = 0; i < 2; i++) {
        double x[3], dxy[3];
        double se = i == 0 ? lo : hi;
        for (int k = 0; k < 3; k++) x[k] = a->pos[k] + se * ua[k];
        /* b's axis point nearest x: x - b->pos = -d + se ua */
        double te = clampd(se * csi_dot3(ub, ua) - csi_dot3(ub, d), -hb, hb);
        seg_points_diff(dxy, a->pos, ua, se, b->pos, ub, te);
        csContact c;
        if (sphere_pair(x, ra, dxy, rb, perp, INFINITY, i + 1, &c)) {
          if (c.dist < dmin) dmin = c.dist;
          if (c.dist <= margin) con[nc++] = c;
        }
      }
      if (have_best && best.dist < dmin - tol) con[nc++] = best;
      return nc;
    }
  }
  if (have_best) con[0] = best;
  return have_best;
}

/* Squared distance from the point x to the box |x_k| <= e_k (box frame). */
static double point_box_dist2(const double* x, const double* e) {
  double g = 0;
  for (int k = 0; k < 3; k++) {
    double o = fabs(x[k]) - e[k];
    if (o > 0) g += o * o;
  }
  return g;
}

/* Squared distance from the segment x(s) = p + s d, |s| <= h, to the box |x_k| <= e_k (box
   frame), and the minimising s. It is a convex piecewise quadratic in s with kinks where a
   coordinate crosses a face plane, so each piece is minimised in closed form. */
static double seg_box_dist2(const double* p, const double* d, double h, const double* e,
                            double* s_out) {
  double br[8];
  int nb = 0;
  br[nb++] = -h;
  for (int k = 0; k < 3; k++) {
    if (d[k] == 0) continue;
    for (int sg = -1; sg <= 1; sg += 2) {
      double s = (sg * e[k] - p[k]) / d[k];
      if (s > -h && s < h) br[nb++] = s;
    }
  }
  br[nb++] = h;
  for (int i = 1; i < nb; i++) /* insertion sort of at most 8 */
    for (int j = i; j > 0 && br[j - 1] > br[j]; j--) {
      double t = br[j];
      br[j] = br[j - 1], br[j - 1] = t;
    }
  double best = INFINITY, sbest = -h;
  for (int i = 0; i + 1 < nb; i++) {
    double s0 = br[i], s1 = br[i + 1], sm = 0.5 * (s0 + s1), A = 0, B = 0;
    for (int k = 0; k < 3; k++) {
      double x = p[k] + sm * d[k], off;
      if (x > e[k])
        off = p[k] - e[k];
      else if (x < -e[k])
        off = p[k] + e[k];
      else
        continue;
      A += d[k] * d[k], B += 2 * d[k] * off;
    }
    double s = A > 0 ? clampd(-B / (2 * A), s0, s1) : s0, x[3];
    for (int k = 0; k < 3; k++) x[k] = p[k] + s * d[k];
    double g = point_box_dist2(x, e);
    if (g < best) best = g, sbest = s;
  }
  *s_out = sbest;
  return best;
}

/* Capsule against box face k with outward normal sg e_k (box frame): the segment clipped
   to the face's side slabs, each clipped end a contact at its height above the face minus
   the radius. On a face the height is linear along the segment, so the deepest point of
   the clipped segment is one of its ends; a capsule lying on the face gets both. Clipped
   ends are ids 0/1 (segment ends) or 2 + side plane. */
static int capsule_box_face(const csiCollGeom* b, const double* p, const double* d, double h,
                            double r, int k, double sg, double margin, csContact* con) {
  const double* e = b->size;
  double tol = 1e-12 * (1.0 + h + e[0] + e[1] + e[2]);
  double lo = -h, hi = h;
  int idlo = 0, idhi = 1;
  for (int m = 0; m < 3; m++) {
    if (m == k) continue;
    int pm = 2 * (m == (k + 1) % 3 ? 0 : 1); /* side planes: +u 0, -u 1, +v 2, -v 3 */
    if (fabs(d[m]) > 1e-15) {
      double sp = (e[m] - p[m]) / d[m], sn = (-e[m] - p[m]) / d[m];
      int ip = pm, in = pm + 1;
      if (sp > sn) { /* sn enters, sp leaves */
        if (sn > lo) lo = sn, idlo = 2 + in;
        if (sp < hi) hi = sp, idhi = 2 + ip;
      } else {
        if (sp > lo) lo = sp, idlo = 2 + ip;
        if (sn < hi) hi = sn, idhi = 2 + in;
      }
    } else if (fabs(p[m]) > e[m] + tol) {
      lo = 1, hi = -1; /* parallel to the slab and outside it */
    }
  }
  if (lo > hi) {
    /* the segment only grazes the slab (touching along a box edge, within rounding): the
       point nearest the box */
    double s;
    seg_box_dist2(p, d, h, e, &s);
    lo = hi = s, idlo = idhi = 0;
  }
  int nend = hi - lo > tol ? 2 : 1;
  if (nend == 1) lo = hi = 0.5 * (lo + hi);
  double nl[3] = {0, 0, 0}, n[3];
  nl[k] = -sg;
  csi_mulmat3vec(n, b->mat, nl);
  int face = 2 * k + (sg > 0 ? 0 : 1), nc = 0;
  for (int i = 0; i < nend; i++) {
    double s = i == 0 ? lo : hi, x[3], pl[3], pa[3];
    for (int m = 0; m < 3; m++) x[m] = p[m] + s * d[m];
    double dist = sg * x[k] - e[k] - r;
    if (dist > margin) continue;
    for (int m = 0; m < 3; m++) pl[m] = x[m] + r * nl[m];
    csi_geom_to_world(pa, b, pl);
    put_contact(con + nc++, pa, n, dist, 8 * face + (i == 0 ? idlo : idhi));
  }
  return nc;
}

/* Separated: the exact segment-box distance; when the closest box point is on a face the
   segment is clipped to that face (two points for a capsule lying on it), otherwise one
   contact at the closest points (edge or corner). Intersecting: separating axis test for
   a segment against a box (3 face axes, 3 axes across the segment and a box edge), which
   gives the exact penetration depth, then the face clip or the edge-segment closest
   points. */
int csi_collide_capsule_box(const csiCollGeom* a, const csiCollGeom* b, double margin,
                            csContact* con) {
  const double* e = b->size;
  double r = a->size[0], h = a->size[1];
  double p[3], ua[3], d[3];
  csi_geom_to_local(p, b, a->pos);
  col3(ua, a->mat, 2);
  csi_mulmat3tvec(d, b->mat, ua);
  double scale = 1.0 + h + e[0] + e[1] + e[2];

  double s;
  double dd = sqrt(seg_box_dist2(p, d, h, e, &s));
  if (dd > 1e-12 * scale) {
    if (dd - r > margin) return 0;
    double x[3], q[3];
    int nout = 0, kout = 0;
    for (int k = 0; k < 3; k++) {
      x[k] = p[k] + s * d[k];
      q[k] = clampd(x[k], -e[k], e[k]);
      if (q[k] != x[k]) nout++, kout = k;
    }
    if (nout == 1) return capsule_box_face(b, p, d, h, r, kout, sgn1(x[kout]), margin, con);
    /* nearest an edge or a corner: along q - x */
    double nl[3], pl[3], pa[3], n[3];
    for (int k = 0; k < 3; k++) nl[k] = (q[k] - x[k]) / dd, pl[k] = x[k] + r * nl[k];
    csi_geom_to_world(pa, b, pl);
    csi_mulmat3vec(n, b->mat, nl);
    put_contact(con, pa, n, dd - r, 48);
    return 1;
  }

  /* face axes: the segment spans p_k +- h |d_k| */
  int kface = 0;
  double sface = -INFINITY;
  for (int k = 0; k < 3; k++) {
    double sep = fabs(p[k]) - h * fabs(d[k]) - e[k];
    if (sep > sface) sface = sep, kface = k;
  }
  /* edge axes d x e_k: the segment projects to a point */
  int kedge = -1;
  double sedge = -INFINITY, ledge[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    double ek[3] = {0, 0, 0}, L[3];
    ek[k] = 1;
    csi_cross3(L, d, ek);
    double len = csi_norm3(L);
    if (len < EDGE_PARALLEL) continue;
    csi_scl3(L, L, 1.0 / len);
    double rb = e[0] * fabs(L[0]) + e[1] * fabs(L[1]) + e[2] * fabs(L[2]);
    double sep = fabs(csi_dot3(L, p)) - rb;
    if (sep > sedge) sedge = sep, kedge = k, csi_copy3(ledge, L);
  }
  if (kedge < 0 || sedge <= sface + AXIS_PREFER * scale) {
    if (sface - r > margin) return 0;
    return capsule_box_face(b, p, d, h, r, kface, sgn1(p[kface]), margin, con);
  }
  if (sedge - r > margin) return 0;
  /* n from the capsule into the box; the box edge along e_kedge nearest the capsule */
  double nl[3], c[3] = {0, 0, 0}, ek[3] = {0, 0, 0};
  csi_scl3(nl, ledge, -sgn1(csi_dot3(ledge, p)));
  int bits = 0, bit = 0;
  for (int m = 0; m < 3; m++) {
    if (m == kedge) continue;
    double sm = -sgn1(nl[m]);
    c[m] = sm * e[m];
    if (sm < 0) bits |= 1 << bit;
    bit++;
  }
  ek[kedge] = 1;
  double ss, tt, xs[3], xe[3], pal[3], pa[3], pb[3], n[3];
  seg_seg(p, d, h, c, ek, e[kedge], &ss, &tt);
  for (int m = 0; m < 3; m++) {
    xs[m] = p[m] + ss * d[m];
    xe[m] = c[m] + tt * ek[m];
    pal[m] = xs[m] + r * nl[m];
  }
  double dx[3];
  csi_sub3(dx, xe, xs);
  double dist = csi_dot3(nl, dx) - r;
  if (dist > margin) return 0;
  csi_geom_to_world(pa, b, pal);
  csi_geom_to_world(pb, b, xe);
  csi_mulmat3vec(n, b->mat, nl);
  put_contact_mid(con, pa, pb, n, dist, 49 + 4 * kedge + bits);
  return 1;
}

/* ------------------------------------------------------------------------------ box-box */

/* Face contact: the incident box's face most opposed to the reference face (axis i,
   outward sign sg, reference-box frame) clipped against the reference face's four side
   planes (Sutherland-Hodgman), each clipped vertex a contact at its height above the
   reference face. ref_is_a says which of the pair the reference box is, refid (0..11)
   names the reference face in the feature. A clipped vertex keeps an id: an incident
   corner (0..3), an incident edge cut by a side plane (4 + 4 edge + plane) or a reference
   corner (20..23); the id of the edge leaving each vertex is carried along (incident edge
   0..3, side plane 4..7) to name the cuts. */
static int box_face(const csiCollGeom* ref, const csiCollGeom* inc, int i, double sg, int ref_is_a,
                    int refid, double margin, csContact* con) {
  const double *er = ref->size, *ei = inc->size;
  double c[3], M[9];
  csi_geom_to_local(c, ref, inc->pos);
  /* M = Rref^T Rinc: column j is the incident box's axis j in the reference frame */
  for (int r = 0; r < 3; r++)
    for (int q = 0; q < 3; q++)
      M[3 * r + q] = ref->mat[r] * inc->mat[q] + ref->mat[3 + r] * inc->mat[3 + q] +
                     ref->mat[6 + r] * inc->mat[6 + q];
  int j = 0;
  for (int q = 1; q < 3; q++)
    if (fabs(M[3 * i + q]) > fabs(M[3 * i + j])) j = q;
  double tau = -sgn1(sg * M[3 * i + j]); /* incident face's outward normal opposes sg e_i */
  int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
  static const double cs1[4] = {1, -1, -1, 1}, cs2[4] = {1, 1, -1, -1};

  double poly[2][16][3];
  int vid[2][16], lab[2][16], np = 4, cur = 0;
  for (int v = 0; v < 4; v++) {
    for (int m = 0; m < 3; m++)
      poly[0][v][m] = c[m] + tau * ei[j] * M[3 * m + j] + cs1[v] * ei[j1] * M[3 * m + j1] +
                      cs2[v] * ei[j2] * M[3 * m + j2];
    vid[0][v] = v, lab[0][v] = v;
  }
  int u = (i + 1) % 3, w = (i + 2) % 3;
  /* A vertex within tol outside a side plane counts as inside, and cuts are made on the
     exact plane: exactly aligned faces then keep their corners rather than gaining
     near-duplicate cut points from rounding, and a cut along an edge nearly parallel to
     the plane does not move by tol over the sine of their angle. */
  double tol = 1e-12 * (1.0 + er[0] + er[1] + er[2]);
  for (int pl = 0; pl < 4 && np > 0; pl++) {
    int ax = pl < 2 ? u : w, nn = 0, nx = 1 - cur, in[16];
    double ps = pl % 2 == 0 ? 1.0 : -1.0, f[16];
    for (int v = 0; v < np; v++) {
      f[v] = ps * poly[cur][v][ax] - er[ax];
      in[v] = f[v] <= tol;
    }
    for (int v = 0; v < np; v++) {
      int vE = (v + 1) % np, vF = (v + 2) % np;
      const double* S = poly[cur][v];
      const double* E = poly[cur][vE];
      if (in[v] != in[vE]) {
        /* the crossing of S->E, unless the inside end is itself at the plane */
        double tc = f[v] / (f[v] - f[vE]);
        if (tc > 0 && tc < 1) {
          for (int m = 0; m < 3; m++) poly[nx][nn][m] = S[m] + tc * (E[m] - S[m]);
          int L = lab[cur][v];
          if (L < 4) {
            vid[nx][nn] = 4 + 4 * L + pl;
          } else {
            int q = L - 4, pu = pl < 2 ? pl : q, pw = pl < 2 ? q : pl;
            vid[nx][nn] = 20 + 2 * (pu & 1) + (pw & 1);
          }
          /* leaving: the next edge runs along this side plane; entering: along S->E */
          lab[nx][nn] = in[v] ? 4 + pl : L;
          nn++;
        }
      }
      if (in[vE]) {
        csi_copy3(poly[nx][nn], E);
        vid[nx][nn] = vid[cur][vE];
        /* E at the plane with the next vertex outside: E is the leaving point itself */
        lab[nx][nn] = !in[vF] && f[vE] >= 0 ? 4 + pl : lab[cur][vE];
        nn++;
      }
    }
    np = nn, cur = nx;
  }

  double nr[3] = {0, 0, 0}, n[3];
  nr[i] = sg;
  csi_mulmat3vec(n, ref->mat, nr);
  if (!ref_is_a) csi_scl3(n, n, -1.0);
  int nc = 0;
  for (int v = 0; v < np && nc < CSI_MAX_PAIR_CONTACTS; v++) {
    const double* x = poly[cur][v];
    double dist = sg * x[i] - er[i];
    if (dist > margin) continue;
    double xa[3], pa[3];
    csi_copy3(xa, x);
    if (ref_is_a) xa[i] = sg * er[i]; /* a's surface point: the foot on the reference face */
    csi_geom_to_world(pa, ref, xa);
    put_contact(con + nc++, pa, n, dist, 32 * refid + vid[cur][v]);
  }
  return nc;
}

/* An edge of a box with half sizes e: along axis k, the other two coordinates at the signs
   of the 2 bits of bits (lower axis first); centre c and direction d in the box frame. */
static void box_edge(double* c, double* d, const double* e, int k, int bits) {
  int bit = 0;
  for (int m = 0; m < 3; m++) {
    d[m] = m == k ? 1.0 : 0.0;
    c[m] = 0;
    if (m == k) continue;
    c[m] = (bits >> bit & 1 ? -1.0 : 1.0) * e[m];
    bit++;
  }
}

/* Closest points of two disjoint boxes, in a's frame (b centred at t, its axes the columns
   of R): the least of a's corners against b, b's corners against a and the 144 edge pairs,
   which covers every pair of closest features (vertex-face, edge-edge and the degenerate
   ones between). Used where the separating axis test has no exact answer: separated boxes
   whose best axis is an edge pair that does not face itself, or a face that clips to
   nothing. Returns the distance; xa, xb the points, *feature their feature pair. Pairs
   that tie (a corner against an edge is also an edge against an edge) go to the first
   found, within a rounding tolerance, so the feature does not flicker. */
static double box_box_closest(const double* ea, const double* eb, const double* t, const double* R,
                              double* xa, double* xb, int* feature) {
  double best = INFINITY;
  double tol = 1e-12 * (ea[0] + ea[1] + ea[2] + eb[0] + eb[1] + eb[2]);
  for (int i = 0; i < 8; i++) {
    double la[3], lb[3], pa[3], pb[3], cb[3];
    for (int m = 0; m < 3; m++) la[m] = ((i >> m) & 1 ? -1.0 : 1.0) * ea[m];
    /* a's corner i against b */
    double d0[3];
    csi_sub3(d0, la, t);
    csi_mulmat3tvec(lb, R, d0);
    for (int m = 0; m < 3; m++) lb[m] = clampd(lb[m], -eb[m], eb[m]);
    csi_mulmat3vec(pb, R, lb);
    csi_add3(pb, pb, t);
    double da = dist_pts(la, pb);
    if (da < best - tol) best = da, csi_copy3(xa, la), csi_copy3(xb, pb), *feature = 528 + i;
    /* b's corner i against a */
    for (int m = 0; m < 3; m++) cb[m] = ((i >> m) & 1 ? -1.0 : 1.0) * eb[m];
    csi_mulmat3vec(pb, R, cb);
    csi_add3(pb, pb, t);
    for (int m = 0; m < 3; m++) pa[m] = clampd(pb[m], -ea[m], ea[m]);
    double db = dist_pts(pa, pb);
    if (db < best - tol) best = db, csi_copy3(xa, pa), csi_copy3(xb, pb), *feature = 536 + i;
  }
  for (int ka = 0; ka < 3; ka++)
    for (int ba = 0; ba < 4; ba++) {
      double ca[3], da[3];
      box_edge(ca, da, ea, ka, ba);
      for (int kb = 0; kb < 3; kb++)
        for (int bb = 0; bb < 4; bb++) {
          double cl[3], dl[3], cb[3], db[3], s, u, pa[3], pb[3];
          box_edge(cl, dl, eb, kb, bb);
          csi_mulmat3vec(cb, R, cl);
          csi_add3(cb, cb, t);
          csi_mulmat3vec(db, R, dl);
          seg_seg(ca, da, ea[ka], cb, db, eb[kb], &s, &u);
          for (int m = 0; m < 3; m++) pa[m] = ca[m] + s * da[m], pb[m] = cb[m] + u * db[m];
          double d = dist_pts(pa, pb);
          if (d < best - tol) {
            best = d, csi_copy3(xa, pa), csi_copy3(xb, pb);
            *feature = 384 + 16 * (3 * ka + kb) + 4 * ba + bb;
          }
        }
    }
  return best;
}

/* The single contact of two disjoint boxes at their closest points. When the boxes nearly
   touch, the direction of xb - xa is rounding noise over a tiny length; if it lies along
   a face normal or the edge-pair axis to within rounding (vertex-face, crossing edges),
   that exact direction is used instead. */
static int box_box_separated(const csiCollGeom* a, const double* ea, const double* eb,
                             const double* t, const double* R, double margin, csContact* con) {
  double xa[3] = {0, 0, 0}, xb[3] = {0, 0, 0}, dx[3], nl[3], pa[3], n[3], cand[7][3];
  int feature = 0;
  double d = box_box_closest(ea, eb, t, R, xa, xb, &feature);
  if (d > margin || !(d > 0)) return 0;
  csi_sub3(dx, xb, xa);
  int ncand = 0;
  for (int k = 0; k < 3; k++) {
    cand[ncand][0] = cand[ncand][1] = cand[ncand][2] = 0;
    cand[ncand++][k] = 1;
    cand[ncand][0] = R[k], cand[ncand][1] = R[3 + k], cand[ncand++][2] = R[6 + k];
  }
  if (feature >= 384 && feature < 528) {
    int pair = (feature - 384) / 16, ka = pair / 3, kb = pair % 3;
    double ek[3] = {0, 0, 0}, bk[3] = {R[kb], R[3 + kb], R[6 + kb]};
    ek[ka] = 1;
    csi_cross3(cand[ncand], ek, bk);
    if (csi_normalize3(cand[ncand]) > EDGE_PARALLEL) ncand++;
  }
  /* the rounding in xa, xb: a few ulps of the box sizes */
  d = snap_normal(nl, dx, (const double(*)[3])cand, ncand,
                  1e-14 * (1.0 + ea[0] + ea[1] + ea[2] + eb[0] + eb[1] + eb[2]));
  csi_geom_to_world(pa, a, xa);
  csi_mulmat3vec(n, a->mat, nl);
  put_contact(con, pa, n, d, feature);
  return 1;
}

/* Separating axis test over a's 3 face normals, b's 3 and the 9 edge cross products, in
   a's frame. Beyond margin on any axis: no contact. Otherwise the axis of least overlap
   (faces preferred on ties): a face gives the clipped incident face, up to 8 points; an
   edge pair gives the closest points of the two supporting edges. */
int csi_collide_box_box(const csiCollGeom* a, const csiCollGeom* b, double margin, csContact* con) {
  const double *ea = a->size, *eb = b->size;
  double t[3], R[9], AR[9];
  csi_geom_to_local(t, a, b->pos);
  for (int r = 0; r < 3; r++)
    for (int q = 0; q < 3; q++) {
      R[3 * r + q] =
          a->mat[r] * b->mat[q] + a->mat[3 + r] * b->mat[3 + q] + a->mat[6 + r] * b->mat[6 + q];
      AR[3 * r + q] = fabs(R[3 * r + q]);
    }
  double scale = ea[0] + ea[1] + ea[2] + eb[0] + eb[1] + eb[2];
  double prefer = AXIS_PREFER * scale;

  int ia = 0, ib = 0;
  double sa = -INFINITY, sb = -INFINITY;
  for (int i = 0; i < 3; i++) {
    double sep =
        fabs(t[i]) - (ea[i] + eb[0] * AR[3 * i] + eb[1] * AR[3 * i + 1] + eb[2] * AR[3 * i + 2]);
    if (sep > margin) return 0;
    if (sep > sa) sa = sep, ia = i;
  }
  for (int j = 0; j < 3; j++) {
    double tj = t[0] * R[j] + t[1] * R[3 + j] + t[2] * R[6 + j];
    double sep = fabs(tj) - (ea[0] * AR[j] + ea[1] * AR[3 + j] + ea[2] * AR[6 + j] + eb[j]);
    if (sep > margin) return 0;
    if (sep > sb) sb = sep, ib = j;
  }
  int ie = -1, je = -1;
  double se = -INFINITY, Le[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double ei[3] = {0, 0, 0}, bj[3] = {R[j], R[3 + j], R[6 + j]}, L[3];
      ei[i] = 1;
      csi_cross3(L, ei, bj);
      double len = csi_norm3(L);
      if (len < EDGE_PARALLEL) continue;
      csi_scl3(L, L, 1.0 / len);
      double ra = ea[0] * fabs(L[0]) + ea[1] * fabs(L[1]) + ea[2] * fabs(L[2]), rb = 0;
      for (int m = 0; m < 3; m++)
        rb += eb[m] * fabs(L[0] * R[m] + L[1] * R[3 + m] + L[2] * R[6 + m]);
      double sep = fabs(csi_dot3(L, t)) - ra - rb;
      if (sep > margin) return 0;
      if (sep > se) se = sep, ie = i, je = j, csi_copy3(Le, L);
    }

  double sface = sb > sa + prefer ? sb : sa;
  if (ie < 0 || se <= sface + prefer) {
    int nc;
    if (sb > sa + prefer) {
      /* b's face toward a: outward normal along -(a->b) */
      double tb = t[0] * R[ib] + t[1] * R[3 + ib] + t[2] * R[6 + ib];
      double sg = -sgn1(tb);
      nc = box_face(b, a, ib, sg, 0, 6 + 2 * ib + (sg > 0 ? 0 : 1), margin, con);
    } else {
      double sg = sgn1(t[ia]);
      nc = box_face(a, b, ia, sg, 1, 2 * ia + (sg > 0 ? 0 : 1), margin, con);
    }
    /* separated boxes whose faces do not face each other (offset corner to corner) */
    if (nc == 0 && sface > 0) nc = box_box_separated(a, ea, eb, t, R, margin, con);
    return nc;
  }
  /* separated: the edge pair of the best axis need not be the closest features */
  if (se > 0) return box_box_separated(a, ea, eb, t, R, margin, con);

  /* edge-edge: n (a's frame) from a to b; a's edge along e_ie supporting +n, b's edge along
     b's axis je supporting -n */
  double nl[3], ca[3] = {0, 0, 0}, da[3] = {0, 0, 0}, cb[3], db[3];
  csi_scl3(nl, Le, sgn1(csi_dot3(Le, t)));
  int bitsa = 0, bitsb = 0, bit = 0;
  for (int m = 0; m < 3; m++) {
    if (m == ie) continue;
    double sm = sgn1(nl[m]);
    ca[m] = sm * ea[m];
    if (sm < 0) bitsa |= 1 << bit;
    bit++;
  }
  da[ie] = 1;
  csi_copy3(cb, t);
  bit = 0;
  for (int m = 0; m < 3; m++) {
    double bm[3] = {R[m], R[3 + m], R[6 + m]};
    if (m == je) {
      csi_copy3(db, bm);
      continue;
    }
    double sm = -sgn1(csi_dot3(nl, bm));
    csi_addscl3(cb, bm, sm * eb[m]);
    if (sm < 0) bitsb |= 1 << bit;
    bit++;
  }
  double s, u, xa[3], xb[3], dx[3], pa[3], pb[3], n[3];
  seg_seg(ca, da, ea[ie], cb, db, eb[je], &s, &u);
  for (int m = 0; m < 3; m++) xa[m] = ca[m] + s * da[m], xb[m] = cb[m] + u * db[m];
  csi_sub3(dx, xb, xa);
  double dist = csi_dot3(nl, dx);
  if (dist > margin) return 0;
  csi_geom_to_world(pa, a, xa);
  csi_geom_to_world(pb, a, xb);
  csi_mulmat3vec(n, a->mat, nl);
  put_contact_mid(con, pa, pb, n, dist, 384 + 16 * (3 * ie + je) + 4 * bitsa + bitsb);
  return 1;
}
