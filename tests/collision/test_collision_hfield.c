/* Heightfield collision (cs_collision_hfield.c), the model and builder arrays, the MJCF
   loader's <hfield>, and simulations on terrain.

   References are independent of the code under test: a flat heightfield against the
   analytic plane pairs at the same height; spheres against a brute-force closest point over
   every triangle of the terrain (exact for a centre above the surface); surface points
   checked against the interpolated terrain and the geom's own surface. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collision/cs_collision.h"
#include "contactsim/contactsim.h"
#include "contactsim/cs_io.h"
#include "cs_test.h"
#include "math/cs_math.h"

#define PI 3.14159265358979323846

/* ------------------------------------------------------------------------ helpers */

static long n_alloc = 0;
static void* counting_malloc(size_t n) {
  n_alloc++;
  return malloc(n);
}

static void geom_set(csiCollGeom* g, int type, double s0, double s1, double s2, const double pos[3],
                     const double quat[4]) {
  double R[9];
  csi_quat2mat(R, quat);
  cs_test_geom(g, type, s0, s1, s2, pos, R);
}

/* A terrain: the heightfield geom and what the references need. */
typedef struct {
  csiCollGeom g;
  double data[64 * 64];
  int nrow, ncol;
  double size[4];
} Terrain;

static void terrain_init(Terrain* t, int nrow, int ncol, const double size[4], const double pos[3],
                         const double quat[4]) {
  memset(t, 0, sizeof *t);
  t->nrow = nrow, t->ncol = ncol;
  memcpy(t->size, size, sizeof t->size);
  geom_set(&t->g, CS_GEOM_HFIELD, size[0], size[1], size[2], pos, quat);
  t->g.hdata = t->data;
  t->g.nrow = nrow, t->g.ncol = ncol;
  memcpy(t->g.hsize, size, sizeof t->g.hsize);
  t->g.rbound = sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
}

/* local sample position */
static void sample_local(const Terrain* t, int r, int c, double p[3]) {
  p[0] = -t->size[0] + 2 * t->size[0] * c / (t->ncol - 1);
  p[1] = -t->size[1] + 2 * t->size[1] * r / (t->nrow - 1);
  p[2] = t->size[2] * t->data[r * t->ncol + c];
}

static void to_world(const csiCollGeom* g, const double l[3], double w[3]) {
  csi_mulmat3vec(w, g->mat, l);
  csi_add3(w, w, g->pos);
}
static void to_local(const csiCollGeom* g, const double w[3], double l[3]) {
  double d[3];
  csi_sub3(d, w, g->pos);
  csi_mulmat3tvec(l, g->mat, d);
}

/* Terrain height at local (x, y) on the triangulated surface (diagonal (r,c)-(r+1,c+1)). */
static double terrain_height(const Terrain* t, double x, double y) {
  double dx = 2 * t->size[0] / (t->ncol - 1), dy = 2 * t->size[1] / (t->nrow - 1);
  double fx = (x + t->size[0]) / dx, fy = (y + t->size[1]) / dy;
  int c = (int)floor(fx), r = (int)floor(fy);
  if (c > t->ncol - 2) c = t->ncol - 2;
  if (r > t->nrow - 2) r = t->nrow - 2;
  if (c < 0) c = 0;
  if (r < 0) r = 0;
  double u = fx - c, v = fy - r;
  double z00 = t->data[r * t->ncol + c], z10 = t->data[r * t->ncol + c + 1];
  double z11 = t->data[(r + 1) * t->ncol + c + 1], z01 = t->data[(r + 1) * t->ncol + c];
  double z = u >= v ? z00 + u * (z10 - z00) + v * (z11 - z10)  /* triangle 0 */
                    : z00 + v * (z01 - z00) + u * (z11 - z01); /* triangle 1 */
  return t->size[2] * z;
}

/* Closest point on triangle abc to p (Ericson, Real-Time Collision Detection 5.1.5). */
static void closest_tri(const double* p, const double* a, const double* b, const double* c,
                        double* q) {
  double ab[3], ac[3], ap[3], bp[3], cp[3];
  csi_sub3(ab, b, a), csi_sub3(ac, c, a), csi_sub3(ap, p, a);
  double d1 = csi_dot3(ab, ap), d2 = csi_dot3(ac, ap);
  if (d1 <= 0 && d2 <= 0) {
    csi_copy3(q, a);
    return;
  }
  csi_sub3(bp, p, b);
  double d3 = csi_dot3(ab, bp), d4 = csi_dot3(ac, bp);
  if (d3 >= 0 && d4 <= d3) {
    csi_copy3(q, b);
    return;
  }
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    double v = d1 / (d1 - d3);
    for (int k = 0; k < 3; k++) q[k] = a[k] + v * ab[k];
    return;
  }
  csi_sub3(cp, p, c);
  double d5 = csi_dot3(ab, cp), d6 = csi_dot3(ac, cp);
  if (d6 >= 0 && d5 <= d6) {
    csi_copy3(q, c);
    return;
  }
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    double w = d2 / (d2 - d6);
    for (int k = 0; k < 3; k++) q[k] = a[k] + w * ac[k];
    return;
  }
  double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    for (int k = 0; k < 3; k++) q[k] = b[k] + w * (c[k] - b[k]);
    return;
  }
  double den = 1 / (va + vb + vc), v = vb * den, w = vc * den;
  for (int k = 0; k < 3; k++) q[k] = a[k] + ab[k] * v + ac[k] * w;
}

/* Closest terrain point (local) to a local point above the surface: every triangle. */
static double terrain_closest(const Terrain* t, const double p[3], double q[3]) {
  double best = INFINITY;
  for (int r = 0; r < t->nrow - 1; r++)
    for (int c = 0; c < t->ncol - 1; c++)
      for (int k = 0; k < 2; k++) {
        double a[3], b[3], cc[3], x[3];
        sample_local(t, r, c, a);
        sample_local(t, k ? r + 1 : r, c + 1, b);
        sample_local(t, r + 1, k ? c : c + 1, cc);
        closest_tri(p, a, b, cc, x);
        double d[3];
        csi_sub3(d, p, x);
        double dd = csi_norm3(d);
        if (dd < best) best = dd, csi_copy3(q, x);
      }
  return best;
}

static int all_finite(const csContact* c, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(c[i].dist)) return 0;
    for (int k = 0; k < 3; k++)
      if (!isfinite(c[i].pos[k]) || !isfinite(c[i].frame[k])) return 0;
  }
  return 1;
}

static double ndiff(const double* a, const double* b) {
  double d[3];
  csi_sub3(d, a, b);
  return csi_norm3(d);
}

/* signed distance of a world point to a box (exact) */
static double box_sdf(const csiCollGeom* g, const double* x) {
  double l[3], q[3];
  to_local(g, x, l);
  for (int k = 0; k < 3; k++) q[k] = fabs(l[k]) - g->size[k];
  double out[3] = {fmax(q[0], 0), fmax(q[1], 0), fmax(q[2], 0)};
  return csi_norm3(out) + fmin(fmax(q[0], fmax(q[1], q[2])), 0);
}

/* ------------------------------------------------------ flat heightfield = plane */

/* A flat heightfield (every sample 0.5, so the surface is z = 0.5 size[2] in its frame),
   posed at random, against the plane through that surface: spheres and boxes, many at
   cell edges and vertices. Normals are opposite (the heightfield is b, the plane a). */
static void flat_vs_plane(void) {
  cs_test_seed(11);
  double margin = 1e-3;
  double worst_d = 0, worst_n = 0, worst_p = 0;
  int nsph = 0, nbox = 0, bad_count = 0, corners = 0, corners_found = 0;
  for (int trial = 0; trial < 400; trial++) {
    double size[4] = {1.0, 0.8, 0.2, 0.3}, hp[3], hq[4];
    for (int k = 0; k < 3; k++) hp[k] = cs_test_uniform(-2, 2);
    if (trial % 4 == 0)
      csi_quat_identity(hq);
    else
      cs_test_random_quat(hq);
    static Terrain T;
    terrain_init(&T, 11, 9, size, hp, hq);
    for (int i = 0; i < T.nrow * T.ncol; i++) T.data[i] = 0.5;
    csiCollGeom pl;
    double zl[3] = {0, 0, 0.1}, ppos[3];
    to_world(&T.g, zl, ppos);
    geom_set(&pl, CS_GEOM_PLANE, 0, 0, 0, ppos, hq);
    double dx = 2 * size[0] / (T.ncol - 1), dy = 2 * size[1] / (T.nrow - 1);
    /* sphere */
    {
      double r = cs_test_uniform(0.03, 0.3), l[3];
      l[0] = cs_test_uniform(-size[0] + r, size[0] - r);
      l[1] = cs_test_uniform(-size[1] + r, size[1] - r);
      if (trial % 3 == 0) l[0] = -size[0] + dx * (1 + trial % (T.ncol - 2)); /* on a column line */
      if (trial % 5 == 0) l[1] = -size[1] + dy * (1 + trial % (T.nrow - 2)); /* on a row line */
      l[2] = 0.1 + r - cs_test_uniform(-0.5 * margin, 0.02);
      double w[3], q[4] = {1, 0, 0, 0};
      to_world(&T.g, l, w);
      csiCollGeom s;
      geom_set(&s, CS_GEOM_SPHERE, r, 0, 0, w, q);
      csContact cp[CSI_MAX_PAIR_CONTACTS], ch[CSI_MAX_PAIR_CONTACTS];
      int np = csi_collide_plane_sphere(&pl, &s, margin, cp);
      int nh = csi_collide_hfield(&s, &T.g, margin, ch);
      CHECK(all_finite(ch, nh));
      if (np != nh) {
        bad_count++;
        fprintf(stderr, "flat sphere: %d plane contacts, %d heightfield contacts\n", np, nh);
      } else if (np == 1) {
        nsph++;
        double mn[3] = {-cp[0].frame[0], -cp[0].frame[1], -cp[0].frame[2]};
        worst_d = fmax(worst_d, fabs(cp[0].dist - ch[0].dist));
        worst_n = fmax(worst_n, ndiff(mn, ch[0].frame));
        worst_p = fmax(worst_p, ndiff(cp[0].pos, ch[0].pos));
      }
    }
    /* box: flat (resting), slightly tilted, or at random */
    {
      double h[3], l[3], q[4], bq[4];
      for (int k = 0; k < 3; k++) h[k] = cs_test_uniform(0.05, 0.3);
      if (trial % 3 == 0) {
        csi_quat_identity(q);
      } else if (trial % 3 == 1) {
        double ax[3] = {cs_test_gauss(), cs_test_gauss(), cs_test_gauss()};
        csi_normalize3(ax);
        csi_axisangle2quat(q, ax, cs_test_uniform(-0.05, 0.05));
      } else {
        cs_test_random_quat(q);
      }
      csi_quat_mul(bq, hq, q); /* relative to the heightfield */
      double Rq[9];
      csi_quat2mat(Rq, q);
      double ext = 0; /* half extent along the field's z */
      for (int k = 0; k < 3; k++) ext += fabs(Rq[6 + k]) * h[k];
      double rx = 0, ry = 0;
      for (int k = 0; k < 3; k++) rx += fabs(Rq[k]) * h[k], ry += fabs(Rq[3 + k]) * h[k];
      if (rx >= size[0] || ry >= size[1]) continue;
      l[0] = cs_test_uniform(-size[0] + rx, size[0] - rx);
      l[1] = cs_test_uniform(-size[1] + ry, size[1] - ry);
      l[2] = 0.1 + ext - cs_test_uniform(-0.5 * margin, 0.01);
      double w[3];
      to_world(&T.g, l, w);
      csiCollGeom bx;
      geom_set(&bx, CS_GEOM_BOX, h[0], h[1], h[2], w, bq);
      csContact cp[CSI_MAX_PAIR_CONTACTS], ch[CSI_MAX_PAIR_CONTACTS];
      int np = csi_collide_plane_box(&pl, &bx, margin, cp);
      int nh = csi_collide_hfield(&bx, &T.g, margin, ch);
      CHECK(all_finite(ch, nh));
      CHECK(nh <= CSI_MAX_PAIR_CONTACTS);
      if ((np > 0) != (nh > 0)) {
        bad_count++;
        fprintf(stderr, "flat box: %d plane contacts, %d heightfield contacts\n", np, nh);
        continue;
      }
      if (np == 0) continue;
      nbox++;
      double pmin = INFINITY, hmin = INFINITY;
      for (int i = 0; i < np; i++) pmin = fmin(pmin, cp[i].dist);
      for (int i = 0; i < nh; i++) {
        hmin = fmin(hmin, ch[i].dist);
        double mn[3] = {-cp[0].frame[0], -cp[0].frame[1], -cp[0].frame[2]};
        worst_n = fmax(worst_n, ndiff(mn, ch[i].frame));
        /* its terrain point on the plane, its box point on the box */
        double pt[3], pb[3];
        csi_copy3(pt, ch[i].pos), csi_copy3(pb, ch[i].pos);
        csi_addscl3(pt, ch[i].frame, 0.5 * ch[i].dist);
        csi_addscl3(pb, ch[i].frame, -0.5 * ch[i].dist);
        double lt[3];
        to_local(&T.g, pt, lt);
        worst_p = fmax(worst_p, fabs(lt[2] - 0.1));
        worst_p = fmax(worst_p, fabs(box_sdf(&bx, pb)));
      }
      worst_d = fmax(worst_d, fabs(pmin - hmin));
      /* every plane contact (a box corner) is one of the heightfield's */
      for (int i = 0; i < np; i++) {
        double pb[3];
        csi_copy3(pb, cp[i].pos);
        csi_addscl3(pb, cp[i].frame, 0.5 * cp[i].dist); /* the plane is a: box point at +n */
        corners++;
        for (int j = 0; j < nh; j++) {
          double hb[3];
          csi_copy3(hb, ch[j].pos);
          csi_addscl3(hb, ch[j].frame, -0.5 * ch[j].dist);
          if (ndiff(hb, pb) < 1e-9 && fabs(ch[j].dist - cp[i].dist) < 1e-12) {
            corners_found++;
            break;
          }
        }
      }
    }
  }
  CHECK_MSG(bad_count == 0, "%d poses with a different contact count", bad_count);
  CHECK_MSG(worst_d <= 1e-12, "flat heightfield vs plane: depth differs by %g", worst_d);
  CHECK_MSG(worst_n <= 1e-12, "flat heightfield vs plane: normal differs by %g", worst_n);
  CHECK_MSG(worst_p <= 1e-12, "flat heightfield vs plane: point off by %g", worst_p);
  CHECK_MSG(corners_found == corners, "%d of %d plane box contacts found", corners_found, corners);
  printf(
      "flat heightfield vs plane: %d spheres, %d boxes; depth %.2g, normal %.2g, point "
      "%.2g; %d/%d plane box contacts matched\n",
      nsph, nbox, worst_d, worst_n, worst_p, corners_found, corners);
}

/* -------------------------------------------------- spheres against brute force */

/* bumpy terrain: sinusoid bumps plus a ridge, samples in [0, 1] */
static void bumpy(Terrain* T, double phase) {
  for (int r = 0; r < T->nrow; r++)
    for (int c = 0; c < T->ncol; c++) {
      double x = (double)c / (T->ncol - 1), y = (double)r / (T->nrow - 1);
      T->data[r * T->ncol + c] = 0.5 + 0.3 * sin(2 * PI * (2 * x + phase)) * cos(2 * PI * 1.5 * y) +
                                 0.2 * (1 - fabs(2 * x - 1)) * (r % 3 == 0 ? 1 : 0.6);
    }
}

/* Spheres with their centre above bumpy terrain (inside the x-y extent): the deepest
   contact is the closest terrain point over all triangles (distance and normal), and no
   contact is deeper than it. Includes a tilted planar field (one contact, the plane's
   normal) and the peak of a bump (a vertex contact along the line to the centre). */
static void spheres_brute_force(void) {
  cs_test_seed(5);
  double margin = 1e-3;
  double worst_d = 0, worst_n = 0, worst_deeper = 0;
  int n = 0, zero = 0;
  static Terrain T;
  for (int trial = 0; trial < 600; trial++) {
    double size[4] = {1.2, 1.0, cs_test_uniform(0.05, 0.4), 0.2}, hp[3], hq[4];
    for (int k = 0; k < 3; k++) hp[k] = cs_test_uniform(-1, 1);
    cs_test_random_quat(hq);
    int nrow = 7 + trial % 9, ncol = 5 + trial % 11;
    terrain_init(&T, nrow, ncol, size, hp, hq);
    bumpy(&T, 0.1 * trial);
    double r = cs_test_uniform(0.02, 0.4), l[3];
    l[0] = cs_test_uniform(-size[0] + r, size[0] - r);
    l[1] = cs_test_uniform(-size[1] + r, size[1] - r);
    if (trial % 4 == 1) l[0] = -size[0] + 2 * size[0] * (trial % ncol) / (ncol - 1);
    if (trial % 4 == 2) l[1] = -size[1] + 2 * size[1] * (trial % nrow) / (nrow - 1);
    if (fabs(l[0]) > size[0] - r || fabs(l[1]) > size[1] - r) continue;
    /* centre above the surface, the sphere penetrating or within the margin */
    double zs = terrain_height(&T, l[0], l[1]);
    l[2] = zs + 1e-3;
    double q[3], best = terrain_closest(&T, l, q);
    /* raise the centre until its clearance is r - depth */
    double depth = cs_test_uniform(-0.5 * margin, fmin(0.3 * r, 0.02));
    for (int it = 0; it < 60 && fabs(best - (r - depth)) > 1e-13; it++) {
      l[2] += (r - depth) - best;
      best = terrain_closest(&T, l, q);
    }
    if (l[2] <= terrain_height(&T, l[0], l[1])) continue;
    double w[3], qi[4] = {1, 0, 0, 0};
    to_world(&T.g, l, w);
    csiCollGeom s;
    geom_set(&s, CS_GEOM_SPHERE, r, 0, 0, w, qi);
    csContact ch[CSI_MAX_PAIR_CONTACTS];
    int nh = csi_collide_hfield(&s, &T.g, margin, ch);
    CHECK(all_finite(ch, nh));
    if (nh == 0) {
      zero++;
      fprintf(stderr, "sphere trial %d: no contact (clearance %g, r %g)\n", trial, best, r);
      continue;
    }
    n++;
    int k = 0;
    for (int i = 1; i < nh; i++)
      if (ch[i].dist < ch[k].dist) k = i;
    double ref = best - r;
    double qw[3], nref[3];
    to_world(&T.g, q, qw);
    csi_sub3(nref, qw, w);
    csi_normalize3(nref);
    worst_d = fmax(worst_d, fabs(ch[k].dist - ref));
    worst_n = fmax(worst_n, ndiff(ch[k].frame, nref));
    for (int i = 0; i < nh; i++) worst_deeper = fmax(worst_deeper, ref - ch[i].dist);
  }
  CHECK_MSG(zero == 0, "%d spheres without a contact", zero);
  CHECK_MSG(worst_d <= 1e-9, "sphere vs brute force: depth off by %g", worst_d);
  CHECK_MSG(worst_n <= 1e-9, "sphere vs brute force: normal off by %g", worst_n);
  CHECK_MSG(worst_deeper <= 1e-9, "a contact %g deeper than the closest point", worst_deeper);
  printf("spheres on bumpy terrain vs brute force: %d poses, depth %.2g, normal %.2g\n", n, worst_d,
         worst_n);

  /* tilted planar field: z = 0.3 (x + 1) / 2 over x in [-1, 1] */
  {
    double size[4] = {1, 1, 0.3, 0.2}, hp[3] = {0.2, -0.1, 0.4}, hq[4];
    cs_test_random_quat(hq);
    terrain_init(&T, 9, 7, size, hp, hq);
    for (int r2 = 0; r2 < 9; r2++)
      for (int c = 0; c < 7; c++) T.data[r2 * 7 + c] = c / 6.0;
    double nl[3] = {-0.3 / 2, 0, 1};
    csi_normalize3(nl);
    double nw[3];
    csi_mulmat3vec(nw, T.g.mat, nl);
    double worst = 0, worstd = 0;
    int ok1 = 1;
    for (int i = 0; i < 50; i++) {
      double rad = 0.1, xy[2] = {cs_test_uniform(-0.8, 0.8), cs_test_uniform(-0.8, 0.8)};
      if (i % 2) xy[0] = -1 + 2.0 * (1 + i % 5) / 6; /* on column lines */
      if (i % 3 == 0) xy[1] = -1 + 2.0 * (1 + i % 7) / 8;
      double foot[3] = {xy[0], xy[1], 0.3 * (xy[0] + 1) / 2}, c[3], w[3], qi[4] = {1, 0, 0, 0};
      for (int k = 0; k < 3; k++) c[k] = foot[k] + rad * nl[k]; /* resting: distance 0 */
      to_world(&T.g, c, w);
      csiCollGeom s;
      geom_set(&s, CS_GEOM_SPHERE, rad, 0, 0, w, qi);
      csContact ch[CSI_MAX_PAIR_CONTACTS];
      int nh = csi_collide_hfield(&s, &T.g, margin, ch);
      if (nh != 1) ok1 = 0;
      for (int j = 0; j < nh; j++) {
        double mn[3] = {-nw[0], -nw[1], -nw[2]};
        worst = fmax(worst, ndiff(ch[j].frame, mn));
        worstd = fmax(worstd, fabs(ch[j].dist));
      }
    }
    CHECK_MSG(ok1, "a sphere resting on a tilted planar field has more or less than 1 contact");
    CHECK_MSG(worst <= 1e-12, "tilted field: normal off by %g", worst);
    CHECK_MSG(worstd <= 1e-12, "tilted field: resting distance %g", worstd);
    printf("sphere on a tilted planar field: normal %.2g, distance %.2g\n", worst, worstd);
  }

  /* a bump's peak: one sample raised (a pyramid with a vertex at the top) */
  {
    double size[4] = {1, 1, 0.2, 0.1}, hp[3] = {0, 0, 0}, hq[4] = {1, 0, 0, 0};
    terrain_init(&T, 11, 11, size, hp, hq);
    for (int i = 0; i < 121; i++) T.data[i] = 0.2;
    T.data[5 * 11 + 5] = 1; /* the peak at (0, 0, 0.2) */
    double rad = 0.15;
    for (int i = 0; i < 3; i++) {
      /* straight above, and tilted off the peak within its normal cone */
      double off = i == 0 ? 0 : i == 1 ? 0.02 : 0.05, dep = 1e-4;
      double dir[3] = {off, 0.5 * off, 1};
      csi_normalize3(dir);
      double c[3] = {0, 0, 0.2};
      csi_addscl3(c, dir, rad - dep);
      csiCollGeom s;
      double qi[4] = {1, 0, 0, 0};
      geom_set(&s, CS_GEOM_SPHERE, rad, 0, 0, c, qi);
      csContact ch[CSI_MAX_PAIR_CONTACTS];
      int nh = csi_collide_hfield(&s, &T.g, 1e-3, ch);
      CHECK_MSG(nh == 1, "sphere on the peak (offset %g): %d contacts", off, nh);
      if (nh < 1) continue;
      double mn[3] = {-dir[0], -dir[1], -dir[2]}, peak[3] = {0, 0, 0.2}, pt[3];
      CHECK_NEAR(ch[0].dist, -dep, 1e-12);
      CHECK_MSG(ndiff(ch[0].frame, mn) <= 1e-12, "peak normal off by %g", ndiff(ch[0].frame, mn));
      csi_copy3(pt, ch[0].pos);
      csi_addscl3(pt, ch[0].frame, 0.5 * ch[0].dist);
      CHECK_MSG(ndiff(pt, peak) <= 1e-12, "peak contact point off by %g", ndiff(pt, peak));
    }
  }
}

/* ------------------------------------------------ boxes and others on bumpy terrain */

/* Boxes spanning several cells, capsules, cylinders, in two regimes. Deep (up to 70% of
   the geom's height pushed under the terrain): at most 8 contacts, finite, every normal
   pointing into the terrain (downwards in its frame), and a contact whenever a box corner
   is below the surface. Shallow (lowered until the deepest contact is 0.01-2 mm deep, as
   when resting): also each contact's terrain point on the triangulated surface and each
   box contact's geom point on the box. A face contact snapped to its triangle's normal
   (the geom's face within 1e-3 rad of parallel) may have its terrain point up to
   1e-3 |dist| past the triangle's edge, on its plane: that much is allowed. Cylinders are
   held to 1e-5 m: their convex manifold clips an octagon of rim samples (the convex
   pairs' own approximation), so points near a triangle's edge can land just past it. */
static void boxes_on_bumps(void) {
  cs_test_seed(7);
  static Terrain T;
  double size[4] = {1, 1, 0.15, 0.2}, hp[3] = {0.3, -0.2, 0.1}, hq[4];
  cs_test_random_quat(hq);
  terrain_init(&T, 21, 21, size, hp, hq); /* cells of 0.1 m */
  bumpy(&T, 0.3);
  for (int shallow = 0; shallow < 2; shallow++) {
    double worst_t = 0, worst_b = 0, minz = 1, worst_cyl = 0;
    int nmax = 0, ntot = 0, missed = 0, posed = 0;
    for (int trial = 0; trial < 300; trial++) {
      int type = trial % 4 == 3 ? CS_GEOM_CAPSULE : trial % 4 == 2 ? CS_GEOM_CYLINDER : CS_GEOM_BOX;
      /* inside the field: |centre| <= 0.5, reach <= 0.25 sqrt(3) < 0.5 */
      double h[3] = {cs_test_uniform(0.05, 0.25), cs_test_uniform(0.05, 0.25),
                     cs_test_uniform(0.03, 0.2)};
      double q[4], bq[4], l[3], w[3];
      if (trial % 2) {
        cs_test_random_quat(q);
      } else {
        double ax[3] = {cs_test_gauss(), cs_test_gauss(), cs_test_gauss()};
        csi_normalize3(ax);
        csi_axisangle2quat(q, ax, cs_test_uniform(-0.2, 0.2));
      }
      csi_quat_mul(bq, hq, q);
      l[0] = cs_test_uniform(-0.5, 0.5), l[1] = cs_test_uniform(-0.5, 0.5);
      double Rq[9];
      csi_quat2mat(Rq, q);
      double ext = 0;
      for (int k = 0; k < 3; k++) ext += fabs(Rq[6 + k]) * h[k];
      l[2] = terrain_height(&T, l[0], l[1]) + ext * cs_test_uniform(0.3, 1.0);
      csiCollGeom g;
      csContact ch[CSI_MAX_PAIR_CONTACTS];
      int nh = 0;
      for (int it = 0; it < (shallow ? 40 : 1); it++) {
        to_world(&T.g, l, w);
        geom_set(&g, type, h[0], type == CS_GEOM_BOX ? h[1] : h[2], h[2], w, bq);
        nh = csi_collide_hfield(&g, &T.g, 1e-3, ch);
        if (!shallow) break;
        double dmin = 0.01; /* no contact: lower by 1 cm */
        for (int i = 0; i < nh; i++) dmin = fmin(dmin, ch[i].dist);
        if (nh > 0 && dmin <= -1e-5 && dmin >= -2e-3) break;
        l[2] -= dmin + 1e-3;
      }
      posed++;
      CHECK(all_finite(ch, nh));
      nmax = nh > nmax ? nh : nmax;
      ntot += nh;
      for (int i = 0; i < nh; i++) {
        double pt[3], pb[3], lt[3], nl[3];
        csi_copy3(pt, ch[i].pos), csi_copy3(pb, ch[i].pos);
        csi_addscl3(pt, ch[i].frame, 0.5 * ch[i].dist);
        csi_addscl3(pb, ch[i].frame, -0.5 * ch[i].dist);
        to_local(&T.g, pt, lt);
        if (shallow) {
          double off = fabs(lt[2] - terrain_height(&T, lt[0], lt[1]));
          if (type == CS_GEOM_CYLINDER)
            worst_cyl = fmax(worst_cyl, off);
          else
            worst_t = fmax(worst_t, off - 1e-3 * fabs(ch[i].dist));
          if (type == CS_GEOM_BOX) worst_b = fmax(worst_b, fabs(box_sdf(&g, pb)));
        }
        csi_mulmat3tvec(nl, T.g.mat, ch[i].frame);
        minz = fmin(minz, -nl[2]);
      }
      if (type == CS_GEOM_BOX) {
        int below = 0;
        for (int cidx = 0; cidx < 8; cidx++) {
          double cl[3], cw[3], ct[3];
          for (int k = 0; k < 3; k++) cl[k] = (cidx >> k) & 1 ? h[k] : -h[k];
          to_world(&g, cl, cw);
          to_local(&T.g, cw, ct);
          if (fabs(ct[0]) < 1 && fabs(ct[1]) < 1 && ct[2] < terrain_height(&T, ct[0], ct[1]))
            below = 1;
        }
        if (below && nh == 0) missed++;
      }
    }
    const char* what = shallow ? "shallow" : "deep";
    CHECK(nmax <= CSI_MAX_PAIR_CONTACTS);
    CHECK_MSG(missed == 0, "%s: %d boxes with a corner under the surface but no contact", what,
              missed);
    CHECK_MSG(minz > 0, "%s: a normal points out of the terrain (z %g)", what, minz);
    if (shallow) {
      CHECK_MSG(worst_t <= 1e-9, "terrain point off the surface by %g", worst_t);
      CHECK_MSG(worst_cyl <= 1e-5, "cylinder: terrain point off the surface by %g", worst_cyl);
      CHECK_MSG(worst_b <= 1e-9, "box point off the box by %g", worst_b);
    }
    printf(
        "geoms on bumpy terrain, %s: %d poses, %.2f contacts each (max %d), terrain point "
        "%.2g (cylinders %.2g), box point %.2g, min normal z %.3f\n",
        what, posed, (double)ntot / posed, nmax, fmax(worst_t, 0), worst_cyl, worst_b, minz);
  }
}

/* ----------------------------------------- boundaries, outside, NaN, bad input */

static void edges_and_outside(void) {
  static Terrain T;
  double size[4] = {1, 1, 0.2, 0.1}, hp[3] = {0, 0, 0}, hq[4] = {1, 0, 0, 0};
  terrain_init(&T, 5, 5, size, hp, hq);
  bumpy(&T, 0.2);
  double qi[4] = {1, 0, 0, 0};
  int nonfinite = 0, outside_contacts = 0;
  /* sphere centres exactly on every grid line crossing and edge midpoint, resting */
  for (int i = 0; i <= 8; i++)
    for (int j = 0; j <= 8; j++) {
      double l[3] = {-1 + 0.25 * i, -1 + 0.25 * j, 0};
      l[2] = terrain_height(&T, l[0], l[1]) + 0.05;
      csiCollGeom s;
      geom_set(&s, CS_GEOM_SPHERE, 0.06, 0, 0, l, qi);
      csContact ch[CSI_MAX_PAIR_CONTACTS];
      int nh = csi_collide_hfield(&s, &T.g, 1e-3, ch);
      if (!all_finite(ch, nh)) nonfinite++;
      CHECK(nh >= 1 && nh <= CSI_MAX_PAIR_CONTACTS);
      double qb[4];
      cs_test_random_quat(qb);
      csiCollGeom b;
      geom_set(&b, CS_GEOM_BOX, 0.1, 0.05, 0.08, l, qb);
      nh = csi_collide_hfield(&b, &T.g, 1e-3, ch);
      if (!all_finite(ch, nh)) nonfinite++;
    }
  /* outside the x-y extent (beyond the radius and margin), above the top, below the base */
  const double out[][3] = {{1.2, 0, 0.1}, {-1.2, 0.3, 0.1}, {0, 1.11, 0.1}, {0.5, -1.2, 0},
                           {0, 0, 0.5},   {0.3, 0.3, -0.3}, {3, 3, 3},      {-1.2, -1.2, 0.1}};
  for (int i = 0; i < 8; i++) {
    csiCollGeom s;
    geom_set(&s, CS_GEOM_SPHERE, 0.1, 0, 0, out[i], qi);
    csContact ch[CSI_MAX_PAIR_CONTACTS];
    outside_contacts += csi_collide_hfield(&s, &T.g, 1e-3, ch);
  }
  /* touching the outer side wall: a side contact, normal along +x into the terrain */
  {
    double l[3] = {1.09, 0.1, 0.01};
    csiCollGeom s;
    geom_set(&s, CS_GEOM_SPHERE, 0.1, 0, 0, l, qi);
    csContact ch[CSI_MAX_PAIR_CONTACTS];
    int nh = csi_collide_hfield(&s, &T.g, 1e-3, ch);
    CHECK_MSG(nh >= 1, "no contact with the side wall");
    if (nh >= 1) {
      CHECK_NEAR(ch[0].frame[0], -1, 1e-12);
      CHECK_NEAR(ch[0].dist, -0.01, 1e-12);
    }
  }
  /* NaN and Inf poses: no contact, nothing non-finite */
  double bad[3] = {NAN, 0, 0}, inf[3] = {0, INFINITY, 0};
  csiCollGeom s;
  csContact ch[CSI_MAX_PAIR_CONTACTS];
  geom_set(&s, CS_GEOM_SPHERE, 0.1, 0, 0, bad, qi);
  CHECK(csi_collide_hfield(&s, &T.g, 1e-3, ch) == 0);
  geom_set(&s, CS_GEOM_BOX, 0.1, 0.1, 0.1, inf, qi);
  CHECK(csi_collide_hfield(&s, &T.g, 1e-3, ch) == 0);
  CHECK_MSG(nonfinite == 0, "%d non-finite contact sets at cell boundaries", nonfinite);
  CHECK_MSG(outside_contacts == 0, "%d contacts outside the field", outside_contacts);
}

/* ------------------------------------------------------- builder, model, loader */

static csBuilder* terrain_builder(int nrow, int ncol, const double* data, const double size[4],
                                  int body_type, double hx, double hy, double hz,
                                  const double pos[3], const double quat[4], double mu) {
  csBuilder* b = cs_builder_new();
  int hf = cs_builder_add_hfield(b, "ground", nrow, ncol, size, data);
  CHECK(hf == 0);
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.type = CS_GEOM_HFIELD, g.hfield = hf, g.name = "terrain", g.friction = mu;
  CHECK(cs_builder_add_geom(b, &g) >= 0);
  csBodySpec bs;
  cs_body_spec_default(&bs);
  bs.name = "body", bs.mass = 1;
  csi_copy3(bs.pos, pos);
  memcpy(bs.quat, quat, sizeof bs.quat);
  bs.inertia[0] = (hy * hy + hz * hz) / 3;
  bs.inertia[1] = (hx * hx + hz * hz) / 3;
  bs.inertia[2] = (hx * hx + hy * hy) / 3;
  if (body_type == CS_GEOM_SPHERE) bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 0.4 * hx * hx;
  int body = cs_test_add_free_body(b, &bs);
  cs_geom_spec_default(&g);
  g.body = body, g.type = body_type, g.name = "geom", g.friction = mu;
  g.size[0] = hx, g.size[1] = hy, g.size[2] = hz;
  cs_builder_add_geom(b, &g);
  return b;
}

static void builder_and_model(void) {
  double data[12] = {0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 0.5};
  double size[4] = {1, 2, 0.5, 0.1};
  csBuilder* b = cs_builder_new();
  /* validation */
  CHECK(cs_builder_add_hfield(b, "a", 1, 12, size, data) < 0);
  CHECK(strstr(cs_last_error(), "nrow") != NULL);
  double bad_size[4] = {1, 0, 0.5, 0.1};
  CHECK(cs_builder_add_hfield(b, "a", 3, 4, bad_size, data) < 0);
  CHECK(strstr(cs_last_error(), "size[1]") != NULL);
  double bad[12];
  memcpy(bad, data, sizeof bad);
  bad[5] = NAN;
  CHECK(cs_builder_add_hfield(b, "a", 3, 4, size, bad) < 0);
  bad[5] = 1.5;
  CHECK(cs_builder_add_hfield(b, "a", 3, 4, size, bad) < 0);
  CHECK(strstr(cs_last_error(), "[0, 1]") != NULL);
  CHECK(cs_builder_add_hfield(b, "ground", 3, 4, size, data) == 0);
  csGeomSpec g;
  cs_geom_spec_default(&g);
  CHECK(g.hfield == -1);
  g.type = CS_GEOM_HFIELD, g.hfield = 3, g.name = "terrain";
  CHECK(cs_builder_add_geom(b, &g) < 0); /* no such heightfield */
  g.hfield = 0;
  CHECK(cs_builder_add_geom(b, &g) == 0);
  /* a static child of the world may carry one too */
  csBodySpec bs;
  cs_body_spec_default(&bs);
  bs.name = "rock", bs.pos[0] = 3, bs.quat[0] = 0.9, bs.quat[3] = 0.1;
  int rock = cs_builder_add_body(b, &bs);
  g.body = rock, g.name = "terrain2";
  CHECK(cs_builder_add_geom(b, &g) == 1);
  csModel* m = NULL;
  CHECK(cs_compile(b, &m) == CS_OK);
  if (m) {
    CHECK(m->nhfield == 1 && m->nhfielddata == 12);
    CHECK(m->hfield_nrow[0] == 3 && m->hfield_ncol[0] == 4 && m->hfield_adr[0] == 0);
    CHECK(!memcmp(m->hfield_data, data, sizeof data));
    CHECK(!memcmp(m->hfield_size, size, sizeof size));
    CHECK(m->geom_hfield[0] == 0 && m->geom_hfield[1] == 0);
    CHECK(m->geom_body[0] == 0 && m->geom_body[1] == 0);
    CHECK(cs_name2id(m, "hfield", "ground") == 0);
    CHECK(!strcmp(cs_id2name(m, "hfield", 0), "ground"));
    CHECK_NEAR(m->geom_rbound[0], sqrt(1 + 4 + 0.25), 1e-15);
    csModel* m2 = cs_model_copy(m);
    CHECK(m2 && m2->hfield_data != m->hfield_data &&
          !memcmp(m2->hfield_data, m->hfield_data, sizeof data) && m2->geom_hfield[1] == 0);
    cs_model_free(m2);
    cs_model_free(m);
  }
  cs_builder_free(b);

  /* on a moving body: refused at compile, naming the geom and the body */
  b = cs_builder_new();
  cs_builder_add_hfield(b, "ground", 3, 4, size, data);
  cs_body_spec_default(&bs);
  bs.name = "cart", bs.mass = 1, bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 0.1;
  int cart = cs_builder_add_body(b, &bs);
  csJointSpec js;
  cs_joint_spec_default(&js);
  js.body = cart, js.type = CS_JNT_PRISMATIC, js.name = "rail";
  cs_builder_add_joint(b, &js);
  cs_geom_spec_default(&g);
  g.type = CS_GEOM_HFIELD, g.hfield = 0, g.body = cart, g.name = "moving_terrain";
  CHECK(cs_builder_add_geom(b, &g) == 0);
  m = NULL;
  CHECK(cs_compile(b, &m) == CS_ERR_MODEL && m == NULL);
  CHECK_MSG(strstr(cs_last_error(), "moving_terrain") && strstr(cs_last_error(), "cart"), "%s",
            cs_last_error());
  cs_builder_free(b);
}

/* ------------------------------------------------------------------ simulation */

/* Simulate; returns the largest displacement of the body from its start over `steps`
   after `settle` steps, and the last contact count. */
static double rest_drift(csModel* m, int settle, int steps, int* ncon, int* ok) {
  csData* d = cs_data_new(m);
  double drift = 0, q0[7];
  *ok = 1;
  for (int k = 0; k < settle + steps; k++) {
    if (k == settle) memcpy(q0, d->qpos, sizeof q0);
    if (cs_step(m, d) != CS_OK) {
      *ok = 0;
      break;
    }
    if (k >= settle) {
      double dd = 0;
      for (int i = 0; i < 3; i++) dd += (d->qpos[i] - q0[i]) * (d->qpos[i] - q0[i]);
      drift = fmax(drift, sqrt(dd));
    }
    for (int i = 0; i < m->nq; i++)
      if (!isfinite(d->qpos[i])) *ok = 0;
  }
  *ncon = d->ncon;
  cs_data_free(d);
  return drift;
}

/* Bodies at rest on terrain stay at rest with the default solver: a box spanning several
   cells of a flat field (on cell lines), a sphere on a cell vertex of a flat field, a box
   on a tilted planar field (friction holds it), and a box settled on bumpy terrain. Drift
   < 1e-6 m over 2 s. Then no allocation in the step. */
static void at_rest(void) {
  static double data[21 * 21];
  double size[4] = {1, 1, 0.2, 0.1}, qi[4] = {1, 0, 0, 0};
  struct {
    const char* what;
    int type, field, settle;
    double h[3], pos[3];
  } cases[] = {
      {"box on a flat field, across cell lines",
       CS_GEOM_BOX,
       0,
       0,
       {0.25, 0.15, 0.1},
       {0.1, -0.2, 0.1 + 0.1}},
      {"sphere on a flat field, on a vertex", CS_GEOM_SPHERE, 0, 0, {0.1, 0, 0}, {0.2, 0.3, 0.2}},
      {"sphere on a flat field, on an edge", CS_GEOM_SPHERE, 0, 0, {0.1, 0, 0}, {0.25, 0.3, 0.2}},
      {"box on a tilted planar field", CS_GEOM_BOX, 1, 0, {0.2, 0.2, 0.1}, {0, 0.05, 0}},
      {"box settled on bumpy terrain", CS_GEOM_BOX, 2, 1500, {0.25, 0.2, 0.08}, {0.05, 0.1, 0.45}},
  };
  for (int ci = 0; ci < 5; ci++) {
    for (int r = 0; r < 21; r++)
      for (int c = 0; c < 21; c++) {
        double x = c / 20.0, y = r / 20.0;
        data[r * 21 + c] =
            cases[ci].field == 0 ? 0.5
            : cases[ci].field == 1
                ? x
                : 0.5 + 0.25 * sin(2 * PI * (2 * x + 0.1)) * cos(2 * PI * 1.5 * y) + 0.2 * (r % 2);
      }
    double q[4];
    memcpy(q, qi, sizeof q);
    double pos[3];
    csi_copy3(pos, cases[ci].pos);
    if (cases[ci].field == 1) {
      /* slope 0.2 / 2 = 0.1: the box resting on it, rotated to match */
      double ang = atan(0.1), ax[3] = {0, 1, 0};
      csi_axisangle2quat(q, ax, -ang);
      double n[3] = {-sin(ang), 0, cos(ang)};
      double foot = 0.2 * (pos[0] + 1) / 2;
      pos[2] = foot;
      for (int k = 0; k < 3; k++) pos[k] += cases[ci].h[2] * n[k];
    }
    csBuilder* b = terrain_builder(21, 21, data, size, cases[ci].type, cases[ci].h[0],
                                   cases[ci].h[1], cases[ci].h[2], pos, q, 0.8);
    csModel* m = NULL;
    csStatus st = cs_compile(b, &m);
    cs_builder_free(b);
    CHECK_MSG(st == CS_OK, "%s", cs_last_error());
    if (!m) continue;
    int ncon, ok;
    double drift = rest_drift(m, cases[ci].settle, 2000, &ncon, &ok);
    CHECK_MSG(ok, "%s: step failed or non-finite state", cases[ci].what);
    CHECK_MSG(ncon >= 1, "%s: no contact at the end", cases[ci].what);
    CHECK_MSG(drift < 1e-6, "%s: drift %g m over 2 s", cases[ci].what, drift);
    printf("%s: drift %.3g m over 2 s, %d contacts\n", cases[ci].what, drift, ncon);
    if (ci == 4) {
      /* no allocation in the step */
      csData* d = cs_data_new(m);
      for (int k = 0; k < 50; k++) cs_step(m, d);
      long before = n_alloc;
      cs_set_allocator(counting_malloc, free);
      for (int k = 0; k < 200; k++) cs_step(m, d);
      cs_set_allocator(NULL, NULL);
      CHECK_MSG(n_alloc == before, "%ld allocations in 200 steps on terrain", n_alloc - before);
      cs_data_free(d);
    }
    cs_model_free(m);
  }
}

/* --------------------------------------------------------------------- MJCF */

static char tmpdir[256];

static const char* write_file(const char* name, const char* text) {
  const char* p = cs_test_write_file(tmpdir, name, text);
  CHECK(p != NULL);
  return p;
}

/* Error text names the file and the line: "<name>:<line>:" */
static int names_file_line(const char* msg, const char* file, int line) {
  char want[600];
  snprintf(want, sizeof want, "%s:%d:", file, line);
  return strstr(msg, want) != NULL;
}

static void mjcf_good(void) {
  /* 3 rows x 4 columns; the first row of the list is +y (MuJoCo), values rescaled */
  const char* xml =
      "<mujoco>\n"
      "  <asset>\n"
      "    <hfield name=\"h\" nrow=\"3\" ncol=\"4\" size=\"2 1 0.5 0.2\"\n"
      "            elevation=\"8 9 10 11\n 4 5 6 7\n 0 1 2 3\"/>\n"
      "  </asset>\n"
      "  <worldbody>\n"
      "    <geom name=\"ground\" type=\"hfield\" hfield=\"h\" pos=\"0 0 -0.1\"/>\n"
      "    <body name=\"ball\" pos=\"0 0 1\">\n"
      "      <freejoint/>\n"
      "      <geom type=\"sphere\" size=\"0.1\"/>\n"
      "    </body>\n"
      "  </worldbody>\n"
      "</mujoco>\n";
  const char* path = write_file("good.xml", xml);
  csModel* m = NULL;
  csStatus st = cs_load_model(path, NULL, &m);
  CHECK_MSG(st == CS_OK, "%s", cs_last_error());
  if (!m) return;
  CHECK(m->nhfield == 1 && m->hfield_nrow[0] == 3 && m->hfield_ncol[0] == 4);
  for (int i = 0; i < 12; i++) CHECK_NEAR(m->hfield_data[i], i / 11.0, 1e-15);
  CHECK_NEAR(m->hfield_size[2], 0.5, 0);
  CHECK_NEAR(m->hfield_size[3], 0.2, 0);
  int g = cs_name2id(m, "geom", "ground");
  CHECK(g >= 0 && m->geom_type[g] == CS_GEOM_HFIELD && m->geom_hfield[g] == 0);
  CHECK(strstr(m->notes, "hfield") == NULL); /* nothing ignored */
  /* the elevations are 4 r + c (row r at y = -1 + r, column c at x = -2 + 4 c / 3) scaled
     by 0.5 / 11: the plane z = a (x + 2) + b (y + 1) - 0.1 with a = 0.5 0.75 / 11,
     b = 0.5 4 / 11. The ball lands on it: contact point on that plane, normal into it. */
  csData* d = cs_data_new(m);
  int k = 0;
  while (k < 2000 && d->ncon == 0) cs_step(m, d), k++;
  CHECK_MSG(d->ncon >= 1, "the ball never touched the heightfield");
  if (d->ncon >= 1) {
    const csContact* c = d->contact;
    double a = 0.5 * 0.75 / 11, bb = 0.5 * 4 / 11, nrm[3] = {a, bb, -1}, p[3];
    csi_normalize3(nrm);
    csi_copy3(p, c->pos);
    csi_addscl3(p, c->frame, 0.5 * c->dist);
    CHECK(c->geom[1] == g);
    CHECK_NEAR(p[2], a * (p[0] + 2) + bb * (p[1] + 1) - 0.1, 1e-12);
    CHECK_MSG(ndiff(c->frame, nrm) < 1e-12, "normal off by %g", ndiff(c->frame, nrm));
  }
  cs_data_free(d);
  cs_model_free(m);
}

static void expect_error(const char* name, const char* xml, int line, const char* also,
                         int at_compile) {
  const char* path = write_file(name, xml);
  csModel* m = NULL;
  csStatus st = cs_load_model(path, NULL, &m);
  const char* e = cs_last_error();
  CHECK_MSG(st != CS_OK && m == NULL, "%s: loaded", name);
  CHECK_MSG(names_file_line(e, path, line), "%s: error does not name %s:%d: %s", name, path, line,
            e);
  CHECK_MSG(strstr(e, also) != NULL, "%s: error lacks '%s': %s", name, also, e);
  if (at_compile) {
    csBuilder* b = cs_builder_new();
    CHECK_MSG(cs_load_mjcf(b, path, NULL) == CS_OK, "%s: %s", name, cs_last_error());
    cs_builder_free(b);
  }
  printf("  %s: %s\n", name, e);
}

static void mjcf_errors(void) {
  expect_error("bad_nrow.xml",
               "<mujoco>\n<asset>\n"
               "  <hfield name=\"h\" nrow=\"1\" ncol=\"3\" size=\"1 1 1 1\"/>\n"
               "</asset>\n</mujoco>\n",
               3, "nrow", 0);
  expect_error("bad_count.xml",
               "<mujoco>\n<asset>\n\n"
               "  <hfield name=\"h\" nrow=\"2\" ncol=\"3\" size=\"1 1 1 1\"\n"
               "          elevation=\"1 2 3 4 5\"/>\n"
               "</asset>\n</mujoco>\n",
               5, "elevation has 5 numbers", 0); /* libxml2: the start tag's last line */
  expect_error("bad_file.xml",
               "<mujoco>\n<asset>\n"
               "  <hfield name=\"h\" file=\"terrain.png\" size=\"1 1 1 1\"/>\n"
               "</asset>\n</mujoco>\n",
               3, "terrain.png", 0);
  expect_error("bad_size.xml",
               "<mujoco>\n<asset>\n"
               "  <hfield name=\"h\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 0\"/>\n"
               "</asset>\n</mujoco>\n",
               3, "size", 0);
  expect_error("bad_ref.xml",
               "<mujoco>\n<asset>\n"
               "  <hfield name=\"h\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\"/>\n"
               "</asset>\n<worldbody>\n"
               "  <geom type=\"hfield\" hfield=\"nope\"/>\n"
               "</worldbody>\n</mujoco>\n",
               6, "nope", 0);
  expect_error("bad_body.xml",
               "<mujoco>\n<asset>\n"
               "  <hfield name=\"h\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\"/>\n"
               "</asset>\n<worldbody>\n"
               "  <body name=\"cart\">\n"
               "    <joint type=\"slide\"/>\n"
               "    <geom name=\"mat\" type=\"hfield\" hfield=\"h\"/>\n"
               "    <geom type=\"box\" size=\"0.1 0.1 0.1\"/>\n"
               "  </body>\n"
               "</worldbody>\n</mujoco>\n",
               8, "'mat'", 1);
}

/* The shipped scene loads and 3 s of it run: finite, every body above the base. */
static void terrain_scene(void) {
  csModel* m = NULL;
  csStatus st = cs_load_model(cs_test_source("models/terrain.xml"), NULL, &m);
  CHECK_MSG(st == CS_OK, "models/terrain.xml: %s", cs_last_error());
  if (!m) return;
  CHECK(m->nhfield == 1 && m->hfield_nrow[0] == 41 && m->hfield_ncol[0] == 41);
  csData* d = cs_data_new(m);
  int ok = 1;
  double maxcon = 0;
  for (int k = 0; k < 3000 && ok; k++) {
    if (cs_step(m, d) != CS_OK) ok = 0;
    for (int i = 0; i < m->nq; i++)
      if (!isfinite(d->qpos[i])) ok = 0;
    maxcon = fmax(maxcon, d->ncon);
  }
  CHECK_MSG(ok, "terrain.xml: failed at t = %g", d->time);
  int above = 1;
  for (int j = 0; j < m->njnt; j++) {
    double z = d->qpos[m->jnt_qposadr[j] + 2];
    if (!(z > 0)) above = 0; /* every body rests on the terrain, none fell through */
  }
  CHECK(above);
  printf("models/terrain.xml: 3 s, up to %.0f contacts, final heights", maxcon);
  for (int j = 0; j < m->njnt; j++) printf(" %.3f", d->qpos[m->jnt_qposadr[j] + 2]);
  printf("\n");
  cs_data_free(d);
  cs_model_free(m);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cs_test_hfield_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  flat_vs_plane();
  spheres_brute_force();
  boxes_on_bumps();
  edges_and_outside();
  builder_and_model();
  at_rest();
  mjcf_good();
  mjcf_errors();
  terrain_scene();
  const char* names[] = {"good.xml",     "bad_nrow.xml", "bad_count.xml", "bad_file.xml",
                         "bad_size.xml", "bad_ref.xml",  "bad_body.xml"};
  for (int i = 0; i < 7; i++) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
    remove(p);
  }
  rmdir(tmpdir);
  return cs_test_finish("test_collision_hfield");
}
