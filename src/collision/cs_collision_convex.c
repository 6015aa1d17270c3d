/* Convex-convex contacts (sphere, capsule, cylinder, box, mesh, ellipsoid in any pairing)
   and plane-mesh.

   Why not libccd alone: measured on 851 random penetrating box-box poses, libccd 2.1's
   ccdMPRPenetration returns the depth along the centre-to-centre ray, not the minimum
   translational distance, and disagrees with the separating-axis answer on 55% of them
   (errors up to 1.05 m for boxes of half-size 0.1-1 m); its EPA (ccdGJKPenetration) is
   wrong on about 5% even with a 1e-9 tolerance (errors up to 0.5 m), and it mallocs. libccd 2.1
   also has no distance query for separated shapes (ccdGJKSeparate is the EPA penetration vector).
   So the primary path is our own, stack-only:

   - Each shape is a core plus a rounding radius: sphere = point + r, capsule = segment + r,
     box, mesh (hull vertices), cylinder and ellipsoid (a smooth core, like the cylinder's
     rim) with radius 0. Core supports are exact, so
     points, segments, boxes and meshes are polytopes and GJK/EPA on them terminate exactly.
   - GJK distance between the cores. Cores apart: the signed distance is the core distance
     minus both radii (exact for every pair, so separations within the margin are real
     distances, not an inflated-shape estimate).
   - Cores overlapping: EPA on the cores' Minkowski difference (fixed-size polytope on the
     stack). For polytopes it stops on a true facet, so depth and normal are the minimum
     translational distance to round-off (the same answer as a separating-axis test). Two
     point/segment cores overlapping (a flat or degenerate difference) get the analytic
     normal (cross product of the segment directions).
   - libccd's MPR is the safety net: if EPA cannot start (degenerate simplex) or stops on
     its capacity before closing its bound gap, ccdMPRPenetration is run and its normal is
     kept if its exact overlap is smaller. Every candidate normal n is scored by the exact
     overlap h_A(n) + h_B(-n), an upper bound of the true depth, so taking the smallest is
     always safe.
   - Manifold: with the final normal n, each shape's support feature (its vertices within a
     small height band of the support plane: a face, an edge or a vertex; a cylinder cap is
     an inscribed octagon) is projected on the plane normal to n and the two convex
     polygons are clipped (Sutherland-Hodgman). At every clipped point the surface heights
     come from a plane (or line) fitted to each feature, giving the signed distance there;
     points within the margin are merged when closer than a small tolerance and reduced to
     at most 4 (the deepest, then the ones that maximise the contact polygon's area).

   Feature ids come from the shape vertices that generate each point (box corner, mesh
   vertex, capsule end, cylinder rim sample), so a contact keeps its id while the same
   corner or edge pair stays in contact. */
#include <ccd/ccd.h>
#include <math.h>
#include <string.h>

#include "collision/cs_collision.h"
#include "math/cs_math.h"

/* Manifold size: the resting-face case needs 4; CSI_MAX_PAIR_CONTACTS bounds the buffer. */
#define CV_MAX_OUT 4
/* Points kept per support feature, and clipped candidates. */
#define CV_MAX_FEAT 16
#define CV_MAX_CLIP 64
/* EPA capacity (vertices, faces) and iteration caps. */
#define EPA_MAXV 128
#define EPA_MAXF 256
#define GJK_MAXIT 128
/* Tilt tolerance (rad) of the support feature band: a face within this angle of the
   contact plane is taken whole, so a box resting slightly tilted still gets its 4
   corners as candidates; the signed distance of each is then exact. */
#define CV_FACE_TILT 1e-3
#define CV_CYL_SAMPLES 8

typedef struct cvShape {
  int type;
  const double* pos;
  const double* mat;
  double size[3];
  const double* vert;
  int nvert;
  double radius; /* rounding: sphere and capsule radius, 0 otherwise */
  double scale;  /* bounding radius of the whole shape about pos */
} cvShape;

typedef struct cvSV {
  double w[3], a[3], b[3]; /* w = a - b, a on core A, b on core B */
} cvSV;

/* ------------------------------------------------------------------ shapes and supports */

static void cv_axis(const double* mat, int k, double r[3]) {
  r[0] = mat[k], r[1] = mat[3 + k], r[2] = mat[6 + k];
}

static int cv_shape_init(cvShape* s, const csiCollGeom* g) {
  s->type = g->type;
  s->pos = g->pos;
  s->mat = g->mat;
  memcpy(s->size, g->size, sizeof s->size);
  s->vert = g->vert;
  s->nvert = g->nvert;
  s->radius = 0;
  switch (g->type) {
    case CS_GEOM_SPHERE:
      s->radius = g->size[0];
      s->scale = g->size[0];
      break;
    case CS_GEOM_CAPSULE:
      s->radius = g->size[0];
      s->scale = g->size[0] + g->size[1];
      break;
    case CS_GEOM_CYLINDER:
      s->scale = sqrt(g->size[0] * g->size[0] + g->size[1] * g->size[1]);
      break;
    case CS_GEOM_BOX:
      s->scale = csi_norm3(g->size);
      break;
    case CS_GEOM_ELLIPSOID:
      s->scale = fmax(g->size[0], fmax(g->size[1], g->size[2]));
      break;
    case CS_GEOM_MESH: {
      if (!g->vert || g->nvert < 1) return 0;
      double r2 = 0;
      for (int i = 0; i < g->nvert; i++) r2 = fmax(r2, csi_dot3(g->vert + 3 * i, g->vert + 3 * i));
      s->scale = sqrt(r2);
      break;
    }
    default:
      return 0;
  }
  return 1;
}

/* Support point of the core (no rounding) in world direction d (any length); returns the
   index of the sample point it is (box corner, capsule end, mesh vertex), -1 for smooth
   parts. */
static int cv_core_support(const cvShape* s, const double d[3], double out[3]) {
  double dl[3];
  csi_mulmat3tvec(dl, s->mat, d);
  double loc[3] = {0, 0, 0};
  int id = 0;
  switch (s->type) {
    case CS_GEOM_SPHERE:
      break;
    case CS_GEOM_CAPSULE:
      loc[2] = dl[2] >= 0 ? s->size[1] : -s->size[1];
      id = dl[2] >= 0 ? 1 : 0;
      break;
    case CS_GEOM_CYLINDER: {
      double rr = sqrt(dl[0] * dl[0] + dl[1] * dl[1]);
      if (rr > 0) loc[0] = s->size[0] * dl[0] / rr, loc[1] = s->size[0] * dl[1] / rr;
      loc[2] = dl[2] >= 0 ? s->size[1] : -s->size[1];
      id = -1;
      break;
    }
    case CS_GEOM_BOX:
      for (int k = 0; k < 3; k++) {
        loc[k] = dl[k] >= 0 ? s->size[k] : -s->size[k];
        if (dl[k] >= 0) id |= 1 << k;
      }
      break;
    case CS_GEOM_ELLIPSOID: { /* A^2 d / |A d|, A = diag(radii) */
      double ad[3] = {s->size[0] * dl[0], s->size[1] * dl[1], s->size[2] * dl[2]};
      double l = csi_norm3(ad);
      if (l > 0)
        for (int k = 0; k < 3; k++) loc[k] = s->size[k] * ad[k] / l;
      id = -1;
      break;
    }
    case CS_GEOM_MESH: {
      double best = -INFINITY;
      for (int i = 0; i < s->nvert; i++) {
        double h = csi_dot3(dl, s->vert + 3 * i);
        if (h > best) best = h, id = i;
      }
      csi_copy3(loc, s->vert + 3 * id);
      break;
    }
    default:
      break;
  }
  csi_mulmat3vec(out, s->mat, loc);
  csi_add3(out, out, s->pos);
  return id;
}

/* The finite set of points a support feature is made of: box corners, mesh vertices,
   capsule ends, cylinder rim samples (CV_CYL_SAMPLES per cap, phased so that one sample is
   the exact support in direction d). Returns the number of samples; sample i written by
   cv_sample. Mesh samples are streamed from vert, the others computed. */
static int cv_nsamples(const cvShape* s) {
  switch (s->type) {
    case CS_GEOM_SPHERE:
    case CS_GEOM_ELLIPSOID:
      return 1;
    case CS_GEOM_CAPSULE:
      return 2;
    case CS_GEOM_CYLINDER:
      return 2 * CV_CYL_SAMPLES;
    case CS_GEOM_BOX:
      return 8;
    case CS_GEOM_MESH:
      return s->nvert;
    default:
      return 0;
  }
}

static void cv_sample(const cvShape* s, int i, double phase, double out[3]) {
  double loc[3] = {0, 0, 0};
  switch (s->type) {
    case CS_GEOM_CAPSULE:
      loc[2] = i ? s->size[1] : -s->size[1];
      break;
    case CS_GEOM_CYLINDER: {
      double ang = phase + (i % CV_CYL_SAMPLES) * (6.283185307179586 / CV_CYL_SAMPLES);
      loc[0] = s->size[0] * cos(ang), loc[1] = s->size[0] * sin(ang);
      loc[2] = i >= CV_CYL_SAMPLES ? s->size[1] : -s->size[1];
      break;
    }
    case CS_GEOM_BOX:
      for (int k = 0; k < 3; k++) loc[k] = (i >> k) & 1 ? s->size[k] : -s->size[k];
      break;
    case CS_GEOM_MESH:
      csi_copy3(loc, s->vert + 3 * i);
      break;
    default:
      break;
  }
  csi_mulmat3vec(out, s->mat, loc);
  csi_add3(out, out, s->pos);
}

static void cv_support(const cvShape* A, const cvShape* B, const double d[3], cvSV* sv) {
  double nd[3] = {-d[0], -d[1], -d[2]};
  cv_core_support(A, d, sv->a);
  cv_core_support(B, nd, sv->b);
  csi_sub3(sv->w, sv->a, sv->b);
}

/* ------------------------------------------------------------------------------ GJK */

/* Closest point to the origin on segment, triangle: barycentric weights in lam. */
static void cv_closest_seg(const double* a, const double* b, double lam[2]) {
  double ab[3];
  csi_sub3(ab, b, a);
  double den = csi_dot3(ab, ab), t = den > 0 ? -csi_dot3(a, ab) / den : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  lam[0] = 1 - t, lam[1] = t;
}

/* Ericson, Real-Time Collision Detection 5.1.5, with the query point at the origin. */
static void cv_closest_tri(const double* a, const double* b, const double* c, double lam[3]) {
  double ab[3], ac[3];
  csi_sub3(ab, b, a);
  csi_sub3(ac, c, a);
  double d1 = -csi_dot3(ab, a), d2 = -csi_dot3(ac, a);
  if (d1 <= 0 && d2 <= 0) {
    lam[0] = 1, lam[1] = lam[2] = 0;
    return;
  }
  double d3 = -csi_dot3(ab, b), d4 = -csi_dot3(ac, b);
  if (d3 >= 0 && d4 <= d3) {
    lam[1] = 1, lam[0] = lam[2] = 0;
    return;
  }
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    double v = d1 / (d1 - d3);
    lam[0] = 1 - v, lam[1] = v, lam[2] = 0;
    return;
  }
  double d5 = -csi_dot3(ab, c), d6 = -csi_dot3(ac, c);
  if (d6 >= 0 && d5 <= d6) {
    lam[2] = 1, lam[0] = lam[1] = 0;
    return;
  }
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    double w = d2 / (d2 - d6);
    lam[0] = 1 - w, lam[2] = w, lam[1] = 0;
    return;
  }
  double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    lam[1] = 1 - w, lam[2] = w, lam[0] = 0;
    return;
  }
  double den = va + vb + vc;
  if (!(den > 0)) { /* degenerate triangle: best of its edges */
    double best = INFINITY, l2[2], p[3];
    const double* v[3] = {a, b, c};
    for (int e = 0; e < 3; e++) {
      cv_closest_seg(v[e], v[(e + 1) % 3], l2);
      for (int k = 0; k < 3; k++) p[k] = l2[0] * v[e][k] + l2[1] * v[(e + 1) % 3][k];
      double dd = csi_dot3(p, p);
      if (dd < best) {
        best = dd;
        lam[0] = lam[1] = lam[2] = 0;
        lam[e] = l2[0], lam[(e + 1) % 3] = l2[1];
      }
    }
    return;
  }
  double v = vb / den, w = vc / den;
  lam[0] = 1 - v - w, lam[1] = v, lam[2] = w;
}

typedef struct cvSimplex {
  cvSV v[4];
  double lam[4];
  int n;
} cvSimplex;

/* Replace the simplex by the smallest face holding its closest point to the origin;
   returns 1 if the origin is inside a full tetrahedron. */
static int cv_simplex_reduce(cvSimplex* s) {
  double lam[4] = {0, 0, 0, 0};
  int inside = 0;
  if (s->n == 1) {
    lam[0] = 1;
  } else if (s->n == 2) {
    cv_closest_seg(s->v[0].w, s->v[1].w, lam);
  } else if (s->n == 3) {
    cv_closest_tri(s->v[0].w, s->v[1].w, s->v[2].w, lam);
  } else {
    /* Tetrahedron: test each face whose plane separates the origin from the opposite
       vertex; none means the origin is inside. */
    static const int fc[4][4] = {{1, 2, 3, 0}, {0, 2, 3, 1}, {0, 1, 3, 2}, {0, 1, 2, 3}};
    double best = INFINITY;
    int any = 0;
    for (int f = 0; f < 4; f++) {
      const double *p0 = s->v[fc[f][0]].w, *p1 = s->v[fc[f][1]].w, *p2 = s->v[fc[f][2]].w;
      const double* q = s->v[fc[f][3]].w;
      double e1[3], e2[3], nn[3], dq[3];
      csi_sub3(e1, p1, p0);
      csi_sub3(e2, p2, p0);
      csi_cross3(nn, e1, e2);
      csi_sub3(dq, q, p0);
      double sq = csi_dot3(nn, dq), so = -csi_dot3(nn, p0);
      /* origin on the far side of this face from q (or a flat tetrahedron) */
      if (sq * so < 0 || sq == 0) {
        double l3[3], p[3];
        cv_closest_tri(p0, p1, p2, l3);
        for (int k = 0; k < 3; k++) p[k] = l3[0] * p0[k] + l3[1] * p1[k] + l3[2] * p2[k];
        double dd = csi_dot3(p, p);
        any = 1;
        if (dd < best) {
          best = dd;
          lam[0] = lam[1] = lam[2] = lam[3] = 0;
          for (int k = 0; k < 3; k++) lam[fc[f][k]] = l3[k];
        }
      }
    }
    if (!any) {
      inside = 1;
      lam[0] = lam[1] = lam[2] = lam[3] = 0.25;
    }
  }
  if (inside) {
    for (int k = 0; k < 4; k++) s->lam[k] = lam[k];
    return 1;
  }
  int m = 0;
  for (int k = 0; k < s->n; k++)
    if (lam[k] > 0) {
      s->v[m] = s->v[k];
      s->lam[m] = lam[k];
      m++;
    }
  if (m == 0) { /* cannot happen with weights summing to 1; keep the first vertex */
    s->lam[0] = 1;
    m = 1;
  }
  s->n = m;
  return 0;
}

static void cv_simplex_point(const cvSimplex* s, int which, double out[3]) {
  out[0] = out[1] = out[2] = 0;
  for (int k = 0; k < s->n; k++) {
    const double* p = which == 0 ? s->v[k].w : which == 1 ? s->v[k].a : s->v[k].b;
    csi_addscl3(out, p, s->lam[k]);
  }
}

/* GJK distance between the cores. Returns the distance (0 when the cores overlap or touch
   within tol_touch, with the final simplex left in s for EPA), and the witness points. */
static double cv_gjk(const cvShape* A, const cvShape* B, double tol_gap, double tol_touch,
                     cvSimplex* s, double pa[3], double pb[3]) {
  double d[3];
  csi_sub3(d, A->pos, B->pos);
  if (csi_dot3(d, d) == 0) d[0] = 1, d[1] = d[2] = 0;
  s->n = 1;
  cv_support(A, B, d, &s->v[0]);
  s->lam[0] = 1;
  double v[3];
  csi_copy3(v, s->v[0].w);
  double vv = csi_dot3(v, v);
  for (int it = 0; it < GJK_MAXIT; it++) {
    if (vv <= tol_touch * tol_touch) break;
    double nd[3] = {-v[0], -v[1], -v[2]};
    cvSV w;
    cv_support(A, B, nd, &w);
    /* the support plane bounds the distance from below: gap = |v| - v.w/|v| */
    double vn = sqrt(vv);
    if (vn - csi_dot3(v, w.w) / vn <= tol_gap) break;
    int dup = 0;
    for (int k = 0; k < s->n; k++) {
      double e[3];
      csi_sub3(e, s->v[k].w, w.w);
      if (csi_dot3(e, e) <= 1e-28 * (1 + vv)) dup = 1;
    }
    if (dup) break;
    s->v[s->n++] = w;
    if (cv_simplex_reduce(s)) {
      vv = 0;
      v[0] = v[1] = v[2] = 0;
      break;
    }
    double nv[3];
    cv_simplex_point(s, 0, nv);
    double nvv = csi_dot3(nv, nv);
    int stalled = nvv >= vv; /* no progress: the round-off floor */
    csi_copy3(v, nv);
    vv = nvv;
    if (stalled) break;
  }
  cv_simplex_point(s, 1, pa);
  cv_simplex_point(s, 2, pb);
  double dist = sqrt(vv);
  return dist <= tol_touch ? 0 : dist;
}

/* ------------------------------------------------------------------------------ EPA */

typedef struct cvFace {
  int v[3], nb[3]; /* vertices CCW seen from outside; nb[i] across edge v[i] -> v[i+1] */
  double n[3], d;  /* outward unit normal, distance of the plane from the origin */
  int alive;
} cvFace;

typedef struct cvEpa {
  cvSV v[EPA_MAXV];
  cvFace f[EPA_MAXF];
  int nv, nf;
} cvEpa;

static int cv_epa_face(cvEpa* e, int a, int b, int c) {
  if (e->nf >= EPA_MAXF) return -1;
  cvFace* f = e->f + e->nf;
  f->v[0] = a, f->v[1] = b, f->v[2] = c;
  f->nb[0] = f->nb[1] = f->nb[2] = -1;
  double e1[3], e2[3];
  csi_sub3(e1, e->v[b].w, e->v[a].w);
  csi_sub3(e2, e->v[c].w, e->v[a].w);
  csi_cross3(f->n, e1, e2);
  double len = csi_norm3(f->n);
  if (len > 0) {
    csi_scl3(f->n, f->n, 1 / len);
    /* plane distance from the vertex nearest to the origin: less cancellation */
    f->d = csi_dot3(f->n, e->v[a].w);
  } else {
    f->d = INFINITY; /* sliver: never chosen, kept for the topology */
  }
  f->alive = 1;
  return e->nf++;
}

/* Grow the GJK simplex to a tetrahedron that holds the origin (possibly on its boundary).
   Returns 0 if the Minkowski difference is flat (no full-dimensional tetrahedron). */
static int cv_epa_init(const cvShape* A, const cvShape* B, const cvSimplex* s, double eps,
                       cvEpa* e) {
  e->nv = 0;
  e->nf = 0;
  for (int k = 0; k < s->n; k++) e->v[e->nv++] = s->v[k];
  static const double ax[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                  {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  while (e->nv < 4) {
    int added = 0;
    if (e->nv == 1) {
      for (int k = 0; k < 6 && !added; k++) {
        cvSV w;
        cv_support(A, B, ax[k], &w);
        double dd[3];
        csi_sub3(dd, w.w, e->v[0].w);
        if (csi_norm3(dd) > eps) e->v[e->nv++] = w, added = 1;
      }
    } else if (e->nv == 2) {
      double dl[3], t[3], dirs[4][3];
      csi_sub3(dl, e->v[1].w, e->v[0].w);
      csi_normalize3(dl);
      int k0 = fabs(dl[0]) <= fabs(dl[1]) && fabs(dl[0]) <= fabs(dl[2]) ? 0
               : fabs(dl[1]) <= fabs(dl[2])                             ? 1
                                                                        : 2;
      double ek[3] = {0, 0, 0};
      ek[k0] = 1;
      csi_cross3(dirs[0], dl, ek);
      csi_normalize3(dirs[0]);
      csi_cross3(dirs[2], dl, dirs[0]);
      csi_scl3(dirs[1], dirs[0], -1);
      csi_scl3(dirs[3], dirs[2], -1);
      for (int k = 0; k < 4 && !added; k++) {
        cvSV w;
        cv_support(A, B, dirs[k], &w);
        csi_sub3(t, w.w, e->v[0].w);
        double c[3];
        csi_cross3(c, t, dl);
        if (csi_norm3(c) > eps) e->v[e->nv++] = w, added = 1;
      }
    } else {
      double e1[3], e2[3], nn[3];
      csi_sub3(e1, e->v[1].w, e->v[0].w);
      csi_sub3(e2, e->v[2].w, e->v[0].w);
      csi_cross3(nn, e1, e2);
      if (csi_normalize3(nn) == 0) return 0;
      for (int sg = 0; sg < 2 && !added; sg++) {
        double dir[3];
        csi_scl3(dir, nn, sg ? -1 : 1);
        cvSV w;
        cv_support(A, B, dir, &w);
        double t[3];
        csi_sub3(t, w.w, e->v[0].w);
        if (fabs(csi_dot3(t, nn)) > eps) e->v[e->nv++] = w, added = 1;
      }
    }
    if (!added) return 0;
  }
  /* orient the tetrahedron: vertex 3 must be behind face (0,1,2) */
  double e1[3], e2[3], nn[3], t[3];
  csi_sub3(e1, e->v[1].w, e->v[0].w);
  csi_sub3(e2, e->v[2].w, e->v[0].w);
  csi_cross3(nn, e1, e2);
  csi_sub3(t, e->v[3].w, e->v[0].w);
  double vol = csi_dot3(nn, t);
  if (vol == 0) return 0;
  if (vol > 0) {
    cvSV tmp = e->v[1];
    e->v[1] = e->v[2];
    e->v[2] = tmp;
  }
  /* faces (0,1,2), (0,3,1), (1,3,2), (0,2,3), outward, with their neighbours */
  cv_epa_face(e, 0, 1, 2);
  cv_epa_face(e, 0, 3, 1);
  cv_epa_face(e, 1, 3, 2);
  cv_epa_face(e, 0, 2, 3);
  /* link by shared directed edges */
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 3; k++) {
      int a = e->f[i].v[k], b = e->f[i].v[(k + 1) % 3];
      for (int j = 0; j < 4; j++)
        for (int l = 0; l < 3; l++)
          if (e->f[j].v[l] == b && e->f[j].v[(l + 1) % 3] == a) e->f[i].nb[k] = j;
    }
  return 1;
}

typedef struct cvEpaOut {
  double n[3];         /* best normal (smallest exact overlap) */
  double depth;        /* exact overlap h_A(n) + h_B(-n) along it */
  double lower;        /* EPA lower bound on the true depth */
  double pa[3], pb[3]; /* witness points on the cores (barycentric on the closest face) */
} cvEpaOut;

/* EPA on the cores; e holds the initial tetrahedron. Returns 1 if the bound gap closed to
   tol, 0 if it stopped on capacity (out still holds the best normal found). */
static int cv_epa(const cvShape* A, const cvShape* B, cvEpa* e, double tol, cvEpaOut* out) {
  out->depth = INFINITY;
  out->lower = 0;
  int closed = 0;
  for (int it = 0; it < 4 * EPA_MAXV; it++) {
    int fi = -1;
    for (int i = 0; i < e->nf; i++)
      if (e->f[i].alive && (fi < 0 || e->f[i].d < e->f[fi].d)) fi = i;
    if (fi < 0 || !isfinite(e->f[fi].d)) break;
    cvFace* f = e->f + fi;
    cvSV w;
    cv_support(A, B, f->n, &w);
    double up = csi_dot3(f->n, w.w);
    if (up < out->depth) {
      /* witness: barycentric of the origin's projection on the face */
      double pr[3], lam[3];
      csi_scl3(pr, f->n, f->d);
      const double *p0 = e->v[f->v[0]].w, *p1 = e->v[f->v[1]].w, *p2 = e->v[f->v[2]].w;
      double q0[3], q1[3], q2[3];
      csi_sub3(q0, p0, pr);
      csi_sub3(q1, p1, pr);
      csi_sub3(q2, p2, pr);
      cv_closest_tri(q0, q1, q2, lam);
      out->depth = up;
      csi_copy3(out->n, f->n);
      for (int k = 0; k < 3; k++) {
        out->pa[k] =
            lam[0] * e->v[f->v[0]].a[k] + lam[1] * e->v[f->v[1]].a[k] + lam[2] * e->v[f->v[2]].a[k];
        out->pb[k] =
            lam[0] * e->v[f->v[0]].b[k] + lam[1] * e->v[f->v[1]].b[k] + lam[2] * e->v[f->v[2]].b[k];
      }
    }
    out->lower = f->d;
    if (up - f->d <= tol) {
      closed = 1;
      break;
    }
    if (e->nv >= EPA_MAXV) break;
    int wi = e->nv;
    e->v[e->nv++] = w;
    /* visible region by depth-first search from f; horizon edges (face, edge) collected */
    int stack[EPA_MAXF][2], ns = 0, hz[EPA_MAXF][2], nh = 0;
    f->alive = 0;
    for (int k = 2; k >= 0; k--) {
      stack[ns][0] = f->nb[k];
      /* which edge of the neighbour leads back to f */
      stack[ns][1] = fi;
      ns++;
    }
    int ok = 1;
    while (ns > 0 && ok) {
      ns--;
      int g = stack[ns][0], from = stack[ns][1];
      if (g < 0) {
        ok = 0;
        break;
      }
      cvFace* fg = e->f + g;
      if (!fg->alive) continue;
      int j = -1;
      for (int k = 0; k < 3; k++)
        if (fg->nb[k] == from) j = k;
      double dv[3];
      csi_sub3(dv, w.w, e->v[fg->v[0]].w);
      if (csi_dot3(fg->n, dv) > 0 && isfinite(fg->d)) {
        fg->alive = 0;
        /* continue across the two other edges, in order so the horizon stays a loop */
        for (int k = 2; k >= 1; k--) {
          if (ns >= EPA_MAXF) {
            ok = 0;
            break;
          }
          stack[ns][0] = fg->nb[(j + k) % 3];
          stack[ns][1] = g;
          ns++;
        }
      } else {
        if (j < 0 || nh >= EPA_MAXF) {
          ok = 0;
          break;
        }
        hz[nh][0] = g, hz[nh][1] = j;
        nh++;
      }
    }
    if (!ok || nh < 3 || e->nf + nh > EPA_MAXF) break;
    int first = e->nf;
    for (int h = 0; h < nh; h++) {
      cvFace* fg = e->f + hz[h][0];
      int j = hz[h][1];
      int p = fg->v[(j + 1) % 3], q = fg->v[j];
      int nf = cv_epa_face(e, p, q, wi);
      e->f[nf].nb[0] = hz[h][0];
      fg->nb[j] = nf;
    }
    /* link the new faces with each other: edge (q, w) of one meets (w, q) of the next */
    for (int h = first; h < e->nf; h++)
      for (int k = first; k < e->nf; k++) {
        if (e->f[k].v[0] == e->f[h].v[1]) e->f[h].nb[1] = k;
        if (e->f[k].v[1] == e->f[h].v[0]) e->f[h].nb[2] = k;
      }
    for (int h = first; h < e->nf; h++)
      if (e->f[h].nb[1] < 0 || e->f[h].nb[2] < 0) ok = 0;
    if (!ok) break;
  }
  return closed;
}

/* ----------------------------------------------------------- libccd MPR (safety net) */

typedef struct cvCcdObj {
  const cvShape* s;
} cvCcdObj;

static void cv_ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* v) {
  const cvShape* s = ((const cvCcdObj*)obj)->s;
  double d[3] = {dir->v[0], dir->v[1], dir->v[2]}, p[3];
  cv_core_support(s, d, p);
  v->v[0] = p[0], v->v[1] = p[1], v->v[2] = p[2];
}

/* MPR needs a point inside each shape: the frame origin of the primitives, the vertex mean
   of a mesh (its frame origin may lie outside the hull). */
static void cv_ccd_center(const void* obj, ccd_vec3_t* c) {
  const cvShape* s = ((const cvCcdObj*)obj)->s;
  double m[3] = {0, 0, 0}, w[3];
  if (s->type == CS_GEOM_MESH) {
    for (int i = 0; i < s->nvert; i++) csi_addscl3(m, s->vert + 3 * i, 1.0 / s->nvert);
  }
  csi_mulmat3vec(w, s->mat, m);
  c->v[0] = s->pos[0] + w[0], c->v[1] = s->pos[1] + w[1], c->v[2] = s->pos[2] + w[2];
}

/* Exact overlap of the cores along unit n: h_A(n) + h_B(-n). */
static double cv_overlap(const cvShape* A, const cvShape* B, const double n[3]) {
  cvSV w;
  cv_support(A, B, n, &w);
  return csi_dot3(n, w.w);
}

/* Core penetration normal through libccd MPR (cores only; no allocation). */
static int cv_mpr(const cvShape* A, const cvShape* B, double n[3]) {
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = cv_ccd_support;
  ccd.support2 = cv_ccd_support;
  ccd.center1 = cv_ccd_center;
  ccd.center2 = cv_ccd_center;
  ccd.max_iterations = 200;
  ccd.mpr_tolerance = 1e-12 * (A->scale + B->scale);
  cvCcdObj oa = {A}, ob = {B};
  ccd_real_t depth;
  ccd_vec3_t dir, pos;
  /* libccd: dir is the direction to move obj2 to separate, i.e. from A into B */
  if (ccdMPRPenetration(&oa, &ob, &ccd, &depth, &dir, &pos) != 0) return 0;
  n[0] = dir.v[0], n[1] = dir.v[1], n[2] = dir.v[2];
  return csi_normalize3(n) > 0;
}

/* ------------------------------------------------------------------------ manifold */

typedef struct cvFeat {
  int n;
  double p[CV_MAX_FEAT][3]; /* x, y (tangent plane), z (height along the normal) */
  int id[CV_MAX_FEAT];      /* sample index on the shape */
  /* height model: 0 const, 1 line, 2 plane */
  int model;
  double c[3], o[2], dir[2], len;
} cvFeat;

/* Support feature of shape s in direction sg*n: its samples whose height along sg*n is
   within band of the maximum, at most CV_MAX_FEAT of them (the extreme ones in 16
   tangent directions when there are more). Coordinates relative to origin o in the frame
   (t1, t2, n); heights are along +n in both cases, including the rounding radius. */
static void cv_feature(const cvShape* s, double sg, const double n[3], const double t1[3],
                       const double t2[3], const double o[3], double band, cvFeat* F) {
  double d[3];
  csi_scl3(d, n, sg);
  /* cylinder rim phase: one sample at the support direction's azimuth */
  double phase = 0;
  if (s->type == CS_GEOM_CYLINDER) {
    double dl[3];
    csi_mulmat3tvec(dl, s->mat, d);
    if (dl[0] * dl[0] + dl[1] * dl[1] > 1e-24) phase = atan2(dl[1], dl[0]);
  }
  int ns = cv_nsamples(s);
  double hmax = -INFINITY, p[3];
  if (s->type == CS_GEOM_ELLIPSOID) { /* smooth: the one sample is the support point */
    cv_core_support(s, d, p);
    double r[3];
    csi_sub3(r, p, o);
    F->n = 1;
    F->p[0][0] = csi_dot3(t1, r), F->p[0][1] = csi_dot3(t2, r), F->p[0][2] = csi_dot3(n, r);
    F->id[0] = 0;
    F->model = 0;
    F->o[0] = F->p[0][0], F->o[1] = F->p[0][1];
    F->c[0] = F->p[0][2];
    return;
  }
  for (int i = 0; i < ns; i++) {
    cv_sample(s, i, phase, p);
    hmax = fmax(hmax, csi_dot3(d, p));
  }
  F->n = 0;
  int over = 0;
  for (int i = 0; i < ns; i++) {
    cv_sample(s, i, phase, p);
    if (csi_dot3(d, p) < hmax - band) continue;
    if (F->n == CV_MAX_FEAT) {
      over = 1;
      break;
    }
    double r[3];
    csi_sub3(r, p, o);
    F->p[F->n][0] = csi_dot3(t1, r), F->p[F->n][1] = csi_dot3(t2, r);
    F->p[F->n][2] = csi_dot3(n, r) + sg * s->radius;
    F->id[F->n] = i;
    F->n++;
  }
  if (over) { /* too many coplanar samples (fine mesh): keep the extreme ones */
    F->n = 0;
    double bestv[16];
    int besti[16];
    for (int k = 0; k < 16; k++) bestv[k] = -INFINITY, besti[k] = -1;
    for (int i = 0; i < ns; i++) {
      cv_sample(s, i, phase, p);
      if (csi_dot3(d, p) < hmax - band) continue;
      double r[3];
      csi_sub3(r, p, o);
      double x = csi_dot3(t1, r), y = csi_dot3(t2, r);
      for (int k = 0; k < 16; k++) {
        double a = k * (6.283185307179586 / 16), v = x * cos(a) + y * sin(a);
        if (v > bestv[k]) bestv[k] = v, besti[k] = i;
      }
    }
    for (int k = 0; k < 16; k++) {
      int i = besti[k], dup = 0;
      if (i < 0) continue;
      for (int j = 0; j < F->n; j++) dup |= F->id[j] == i;
      if (dup) continue;
      cv_sample(s, i, phase, p);
      double r[3];
      csi_sub3(r, p, o);
      F->p[F->n][0] = csi_dot3(t1, r), F->p[F->n][1] = csi_dot3(t2, r);
      F->p[F->n][2] = csi_dot3(n, r) + sg * s->radius;
      F->id[F->n] = i;
      F->n++;
    }
  }
  /* height model: plane fitted through the feature (exact for a planar face), a line for
     an edge, a constant for a vertex */
  double mx = 0, my = 0, mz = 0;
  for (int i = 0; i < F->n; i++) mx += F->p[i][0], my += F->p[i][1], mz += F->p[i][2];
  mx /= F->n, my /= F->n, mz /= F->n;
  double sxx = 0, sxy = 0, syy = 0, sxz = 0, syz = 0;
  for (int i = 0; i < F->n; i++) {
    double x = F->p[i][0] - mx, y = F->p[i][1] - my, z = F->p[i][2] - mz;
    sxx += x * x, sxy += x * y, syy += y * y, sxz += x * z, syz += y * z;
  }
  double det = sxx * syy - sxy * sxy, tr = sxx + syy;
  F->o[0] = mx, F->o[1] = my;
  if (F->n >= 3 && det > 1e-10 * tr * tr && tr > 0) {
    F->model = 2;
    F->c[0] = mz;
    F->c[1] = (syy * sxz - sxy * syz) / det;
    F->c[2] = (sxx * syz - sxy * sxz) / det;
  } else if (F->n >= 2 && tr > 1e-24 * (1 + s->scale * s->scale)) {
    /* the two samples farthest apart */
    int i0 = 0, i1 = 1;
    double best = -1;
    for (int i = 0; i < F->n; i++)
      for (int j = i + 1; j < F->n; j++) {
        double dx = F->p[j][0] - F->p[i][0], dy = F->p[j][1] - F->p[i][1];
        if (dx * dx + dy * dy > best) best = dx * dx + dy * dy, i0 = i, i1 = j;
      }
    F->model = 1;
    F->o[0] = F->p[i0][0], F->o[1] = F->p[i0][1];
    F->len = sqrt(best);
    F->dir[0] = (F->p[i1][0] - F->p[i0][0]) / F->len;
    F->dir[1] = (F->p[i1][1] - F->p[i0][1]) / F->len;
    F->c[0] = F->p[i0][2];
    F->c[1] = F->p[i1][2] - F->p[i0][2];
  } else {
    F->model = 0;
    F->c[0] = mz;
  }
}

static double cv_height(const cvFeat* F, double x, double y) {
  if (F->model == 2) return F->c[0] + F->c[1] * (x - F->o[0]) + F->c[2] * (y - F->o[1]);
  if (F->model == 1) {
    double t = ((x - F->o[0]) * F->dir[0] + (y - F->o[1]) * F->dir[1]) / F->len;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return F->c[0] + t * F->c[1];
  }
  return F->c[0];
}

/* 2D convex hull (monotone chain) of the feature's points, CCW; writes point indices.
   Collinear and duplicate points are dropped. */
static int cv_hull2(const cvFeat* F, double eps, int* out) {
  int idx[CV_MAX_FEAT], n = F->n;
  for (int i = 0; i < n; i++) idx[i] = i;
  for (int i = 1; i < n; i++) { /* insertion sort by x, then y */
    int v = idx[i], j = i - 1;
    while (j >= 0 && (F->p[idx[j]][0] > F->p[v][0] ||
                      (F->p[idx[j]][0] == F->p[v][0] && F->p[idx[j]][1] > F->p[v][1]))) {
      idx[j + 1] = idx[j];
      j--;
    }
    idx[j + 1] = v;
  }
  if (n == 1) {
    out[0] = idx[0];
    return 1;
  }
  int h[2 * CV_MAX_FEAT + 2], k = 0;
  for (int pass = 0; pass < 2; pass++) {
    int start = k;
    for (int ii = 0; ii < n; ii++) {
      int i = pass ? idx[n - 1 - ii] : idx[ii];
      while (k >= start + 2) {
        const double *a = F->p[h[k - 2]], *b = F->p[h[k - 1]], *c = F->p[i];
        double cr = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        if (cr >
            eps * (fabs(b[0] - a[0]) + fabs(b[1] - a[1]) + fabs(c[0] - a[0]) + fabs(c[1] - a[1])))
          break;
        k--;
      }
      h[k++] = i;
    }
    k--; /* last point repeats the first of the other chain */
  }
  /* drop duplicates (a set of coincident points collapses to one) */
  int m = 0;
  for (int i = 0; i < k; i++) {
    int dup = 0;
    for (int j = 0; j < m; j++) {
      double dx = F->p[out[j]][0] - F->p[h[i]][0], dy = F->p[out[j]][1] - F->p[h[i]][1];
      if (dx * dx + dy * dy <= eps * eps) dup = 1;
    }
    if (!dup) out[m++] = h[i];
  }
  return m;
}

typedef struct cvPt {
  double x, y;
  int ia, ib; /* generating samples on A and B (-1: none) */
} cvPt;

/* Clip the subject polygon (points with ids) against the convex CCW clip polygon. */
static int cv_clip(const cvPt* subj, int ns, const double (*cp)[2], const int* cid, int nc,
                   double eps, int clip_is_a, cvPt* out) {
  cvPt buf[2][CV_MAX_CLIP];
  int n = ns < CV_MAX_CLIP ? ns : CV_MAX_CLIP;
  memcpy(buf[0], subj, sizeof(cvPt) * (size_t)n);
  int cur = 0;
  for (int j = 0; j < nc && n > 0; j++) {
    const double *c0 = cp[j], *c1 = cp[(j + 1) % nc];
    double ex = c1[0] - c0[0], ey = c1[1] - c0[1], el = sqrt(ex * ex + ey * ey);
    if (!(el > 0)) continue;
    cvPt* in = buf[cur];
    cvPt* o = buf[1 - cur];
    int m = 0;
    for (int i = 0; i < n; i++) {
      const cvPt *p = in + i, *q = in + (i + n - 1) % n; /* edge q -> p */
      double sp = (ex * (p->y - c0[1]) - ey * (p->x - c0[0])) / el;
      double sq = (ex * (q->y - c0[1]) - ey * (q->x - c0[0])) / el;
      int pin = sp >= -eps, qin = sq >= -eps;
      if (pin != qin && m < CV_MAX_CLIP) {
        double t = sq / (sq - sp);
        cvPt r;
        r.x = q->x + t * (p->x - q->x), r.y = q->y + t * (p->y - q->y);
        if (clip_is_a)
          r.ia = cid[j], r.ib = q->ib;
        else
          r.ib = cid[j], r.ia = q->ia;
        o[m++] = r;
      }
      if (pin && m < CV_MAX_CLIP) o[m++] = *p;
    }
    n = m;
    cur = 1 - cur;
  }
  memcpy(out, buf[cur], sizeof(cvPt) * (size_t)n);
  return n;
}

/* Candidate points where the two projected features overlap. */
static int cv_overlap2d(const cvFeat* FA, const cvFeat* FB, double eps, cvPt* out) {
  int ha[CV_MAX_FEAT], hb[CV_MAX_FEAT];
  int na = cv_hull2(FA, eps, ha), nb = cv_hull2(FB, eps, hb);
  cvPt sa[CV_MAX_FEAT], sb[CV_MAX_FEAT];
  for (int i = 0; i < na; i++)
    sa[i].x = FA->p[ha[i]][0], sa[i].y = FA->p[ha[i]][1], sa[i].ia = FA->id[ha[i]], sa[i].ib = -1;
  for (int i = 0; i < nb; i++)
    sb[i].x = FB->p[hb[i]][0], sb[i].y = FB->p[hb[i]][1], sb[i].ib = FB->id[hb[i]], sb[i].ia = -1;
  if (na >= 3 || nb >= 3) {
    int a_clips = na >= nb; /* clip the smaller feature by the larger polygon */
    const cvPt* cl = a_clips ? sa : sb;
    int ncl = a_clips ? na : nb;
    double cp[CV_MAX_FEAT][2];
    int cid[CV_MAX_FEAT];
    for (int i = 0; i < ncl; i++)
      cp[i][0] = cl[i].x, cp[i][1] = cl[i].y, cid[i] = a_clips ? cl[i].ia : cl[i].ib;
    return cv_clip(a_clips ? sb : sa, a_clips ? nb : na, (const double(*)[2])cp, cid, ncl, eps,
                   a_clips, out);
  }
  if (na == 1 || nb == 1) { /* a vertex: the point itself */
    if (na == 1 && nb == 1) {
      out[0].x = 0.5 * (sa[0].x + sb[0].x), out[0].y = 0.5 * (sa[0].y + sb[0].y);
      out[0].ia = sa[0].ia, out[0].ib = sb[0].ib;
    } else {
      out[0] = na == 1 ? sa[0] : sb[0];
    }
    return 1;
  }
  /* two segments */
  double ax = sa[1].x - sa[0].x, ay = sa[1].y - sa[0].y;
  double bx = sb[1].x - sb[0].x, by = sb[1].y - sb[0].y;
  double la = sqrt(ax * ax + ay * ay), lb = sqrt(bx * bx + by * by);
  double cr = ax * by - ay * bx;
  if (fabs(cr) > 1e-6 * la * lb) { /* crossing: intersection, clamped to both */
    double dx = sb[0].x - sa[0].x, dy = sb[0].y - sa[0].y;
    double s = (dx * by - dy * bx) / cr, t = (dx * ay - dy * ax) / cr;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    out[0].x = 0.5 * (sa[0].x + s * ax + sb[0].x + t * bx);
    out[0].y = 0.5 * (sa[0].y + s * ay + sb[0].y + t * by);
    out[0].ia = sa[0].ia, out[0].ib = sb[0].ib;
    return 1;
  }
  /* parallel: the overlap of the two intervals along A's direction */
  double ux = ax / la, uy = ay / la;
  double b0 = (sb[0].x - sa[0].x) * ux + (sb[0].y - sa[0].y) * uy;
  double b1 = (sb[1].x - sa[0].x) * ux + (sb[1].y - sa[0].y) * uy;
  double lo = fmax(0, fmin(b0, b1)), hi = fmin(la, fmax(b0, b1));
  if (hi < lo) lo = hi = 0.5 * (lo + hi);
  /* offset across: halfway to B's line */
  double off = ((sb[0].x - sa[0].x) * -uy + (sb[0].y - sa[0].y) * ux) * 0.5;
  double t[2] = {lo, hi};
  for (int k = 0; k < 2; k++) {
    out[k].x = sa[0].x + t[k] * ux - off * uy;
    out[k].y = sa[0].y + t[k] * uy + off * ux;
    out[k].ia = t[k] <= 0 ? sa[0].ia : t[k] >= la ? sa[1].ia : sa[0].ia;
    out[k].ib = (fabs(t[k] - b0) < fabs(t[k] - b1)) ? sb[0].ib : sb[1].ib;
  }
  return 2;
}

typedef struct cvCand {
  double x, y, dist, za, zb;
  int feature;
} cvCand;

/* Indices of up to CV_MAX_OUT candidates: the deepest, the farthest from it, then the
   ones adding the most contact-polygon area. */
static int cv_reduce(const cvCand* c, int n, double eps, int* sel) {
  if (n <= 0) return 0;
  int k = 0;
  sel[k] = 0;
  for (int i = 1; i < n; i++)
    if (c[i].dist < c[sel[0]].dist) sel[0] = i;
  k = 1;
  if (n == 1) return 1;
  double best = eps * eps;
  int bi = -1;
  for (int i = 0; i < n; i++) {
    double dx = c[i].x - c[sel[0]].x, dy = c[i].y - c[sel[0]].y;
    if (dx * dx + dy * dy > best) best = dx * dx + dy * dy, bi = i;
  }
  if (bi < 0) return 1;
  sel[k++] = bi;
  /* third: largest triangle area */
  const cvCand *p0 = c + sel[0], *p1 = c + sel[1];
  double ex = p1->x - p0->x, ey = p1->y - p0->y, el = sqrt(ex * ex + ey * ey);
  best = eps * el;
  bi = -1;
  int side = 0;
  for (int i = 0; i < n; i++) {
    double a = ex * (c[i].y - p0->y) - ey * (c[i].x - p0->x);
    if (fabs(a) > best) best = fabs(a), bi = i, side = a > 0 ? 1 : -1;
  }
  if (bi < 0) return k;
  sel[k++] = bi;
  /* fourth: the point farthest outside the triangle (largest area added) */
  const cvCand* p2 = c + sel[2];
  const cvCand* tri[3] = {p0, side > 0 ? p1 : p2, side > 0 ? p2 : p1}; /* CCW */
  best = eps * el;
  bi = -1;
  for (int i = 0; i < n; i++) {
    double add = 0;
    for (int e = 0; e < 3; e++) {
      const cvCand *u = tri[e], *v = tri[(e + 1) % 3];
      double a = (v->x - u->x) * (c[i].y - u->y) - (v->y - u->y) * (c[i].x - u->x);
      if (-a > add) add = -a;
    }
    if (add > best) best = add, bi = i;
  }
  if (bi >= 0 && k < CV_MAX_OUT) sel[k++] = bi;
  return k;
}

static void cv_tangents(const double n[3], double t1[3], double t2[3]) {
  double e[3] = {0, 0, 0};
  int k = fabs(n[0]) <= fabs(n[1]) && fabs(n[0]) <= fabs(n[2]) ? 0
          : fabs(n[1]) <= fabs(n[2])                           ? 1
                                                               : 2;
  e[k] = 1;
  csi_cross3(t1, n, e);
  csi_normalize3(t1);
  csi_cross3(t2, n, t1);
}

static void cv_write(csContact* c, const double n[3], const double t1[3], const double t2[3],
                     const double pos[3], double dist, int feature) {
  memset(c, 0, sizeof *c);
  csi_copy3(c->pos, pos);
  csi_copy3(c->frame, n);
  csi_copy3(c->frame + 3, t1);
  csi_copy3(c->frame + 6, t2);
  c->dist = dist;
  c->feature = feature;
  c->geom[0] = c->geom[1] = -1;
}

/* Contacts for normal n (from A into B) with exact overlap `overlap` (>0 penetrating, of
   the whole shapes) and primary point p0 (midway between the witness points). */
static int cv_manifold(const cvShape* A, const cvShape* B, const double n[3], double overlap,
                       const double p0[3], double margin, csContact* con) {
  double t1[3], t2[3];
  cv_tangents(n, t1, t2);
  double scale = A->scale + B->scale;
  double eps = 1e-9 * scale;
  cvFeat FA, FB;
  cv_feature(A, 1, n, t1, t2, p0, margin + CV_FACE_TILT * 2 * A->scale + eps, &FA);
  cv_feature(B, -1, n, t1, t2, p0, margin + CV_FACE_TILT * 2 * B->scale + eps, &FB);
  cvPt pts[CV_MAX_CLIP];
  int np = cv_overlap2d(&FA, &FB, eps, pts);
  unsigned na1 = (unsigned)cv_nsamples(A) + 1u;
  cvCand cand[CV_MAX_CLIP + 1];
  int nc = 0;
  double mind = INFINITY;
  double merge = 1e-6 * scale;
  for (int i = 0; i < np; i++) {
    double za = cv_height(&FA, pts[i].x, pts[i].y), zb = cv_height(&FB, pts[i].x, pts[i].y);
    double dist = zb - za;
    /* no point can overlap more than the whole shapes do along n */
    if (dist < -overlap) dist = -overlap;
    if (dist > margin) continue;
    int dup = -1;
    for (int j = 0; j < nc; j++) {
      double dx = cand[j].x - pts[i].x, dy = cand[j].y - pts[i].y;
      if (dx * dx + dy * dy <= merge * merge) dup = j;
    }
    cvCand c;
    c.x = pts[i].x, c.y = pts[i].y, c.dist = dist, c.za = za, c.zb = zb;
    c.feature = (int)(((unsigned)(pts[i].ia + 1) + na1 * (unsigned)(pts[i].ib + 1)) & 0x7fffffffu);
    if (dup >= 0) {
      if (dist < cand[dup].dist) cand[dup] = c;
    } else {
      cand[nc++] = c;
    }
    mind = fmin(mind, dist);
  }
  /* the primary point when clipping missed the deepest spot (round-off at a boundary) */
  if (nc == 0 || mind > -overlap + 1e-7 * scale) {
    if (-overlap <= margin) {
      cvCand c;
      c.x = 0, c.y = 0, c.dist = -overlap, c.za = overlap * 0.5, c.zb = -overlap * 0.5;
      c.feature = 0x40000000;
      int dup = -1;
      for (int j = 0; j < nc; j++)
        if (cand[j].x * cand[j].x + cand[j].y * cand[j].y <= merge * merge) dup = j;
      if (dup >= 0)
        cand[dup] = c;
      else if (nc < CV_MAX_CLIP + 1)
        cand[nc++] = c;
    }
  }
  int sel[CV_MAX_OUT];
  int k = cv_reduce(cand, nc, merge, sel);
  for (int i = 0; i < k; i++) {
    const cvCand* c = cand + sel[i];
    double pos[3];
    csi_copy3(pos, p0);
    csi_addscl3(pos, t1, c->x);
    csi_addscl3(pos, t2, c->y);
    csi_addscl3(pos, n, 0.5 * (c->za + c->zb));
    cv_write(con + i, n, t1, t2, pos, c->dist, c->feature);
  }
  return k;
}

/* ------------------------------------------------------------------------ entry points */

/* Both cores are points or segments: their difference is flat, so any normal orthogonal
   to it has zero core overlap; pick the one orthogonal to both segment directions. */
static void cv_flat_normal(const cvShape* A, const cvShape* B, double n[3]) {
  double da[3] = {0, 0, 0}, db[3] = {0, 0, 0};
  if (A->type == CS_GEOM_CAPSULE) cv_axis(A->mat, 2, da);
  if (B->type == CS_GEOM_CAPSULE) cv_axis(B->mat, 2, db);
  csi_cross3(n, da, db);
  if (csi_normalize3(n) < 1e-9) {
    const double* d = A->type == CS_GEOM_CAPSULE ? da : db;
    double t2[3];
    if (csi_dot3(d, d) > 0) {
      cv_tangents(d, n, t2);
    } else {
      n[0] = 0, n[1] = 0, n[2] = 1;
    }
  }
  double c[3];
  csi_sub3(c, B->pos, A->pos);
  if (csi_dot3(c, n) < 0) csi_scl3(n, n, -1);
}

int csi_collide_convex(const csiCollGeom* a, const csiCollGeom* b, double margin, csContact* con) {
  cvShape A, B;
  if (!cv_shape_init(&A, a) || !cv_shape_init(&B, b)) return 0;
  double scale = A.scale + B.scale;
  if (!(scale > 0)) return 0;
  /* bounding-sphere early out */
  double dc[3];
  csi_sub3(dc, b->pos, a->pos);
  if (csi_norm3(dc) > A.scale + B.scale + margin) return 0;
  int curved = A.type == CS_GEOM_CYLINDER || B.type == CS_GEOM_CYLINDER ||
               A.type == CS_GEOM_ELLIPSOID || B.type == CS_GEOM_ELLIPSOID;
  double tol_gap = (curved ? 1e-10 : 1e-13) * scale, tol_touch = 1e-10 * scale;
  double rsum = A.radius + B.radius;
  cvSimplex s;
  double pa[3], pb[3];
  double dist = cv_gjk(&A, &B, tol_gap, tol_touch, &s, pa, pb);
  if (!isfinite(dist)) return 0; /* non-finite pose or size */
  double n[3], p0[3], overlap;
  if (dist > 0) {
    /* cores apart: exact signed distance of the rounded shapes */
    if (dist - rsum > margin) return 0;
    csi_sub3(n, pb, pa);
    csi_scl3(n, n, 1 / dist);
    overlap = rsum - dist;
    for (int k = 0; k < 3; k++) p0[k] = 0.5 * (pa[k] + A.radius * n[k] + pb[k] - B.radius * n[k]);
  } else {
    int flat = (A.type == CS_GEOM_SPHERE || A.type == CS_GEOM_CAPSULE) &&
               (B.type == CS_GEOM_SPHERE || B.type == CS_GEOM_CAPSULE);
    double core;
    if (flat) {
      cv_flat_normal(&A, &B, n);
      core = cv_overlap(&A, &B, n);
      for (int k = 0; k < 3; k++) p0[k] = 0.5 * (pa[k] + pb[k]);
    } else {
      cvEpa e;
      cvEpaOut eo;
      int have = 0, closed = 0;
      if (cv_epa_init(&A, &B, &s, 1e-12 * scale, &e)) {
        closed = cv_epa(&A, &B, &e, (curved ? 1e-9 : 1e-11) * scale, &eo);
        have = isfinite(eo.depth);
      }
      if (!closed) {
        double nm[3];
        if (cv_mpr(&A, &B, nm)) {
          double om = cv_overlap(&A, &B, nm);
          if (!have || om < eo.depth) {
            csi_copy3(eo.n, nm);
            eo.depth = om;
            double nd[3] = {-nm[0], -nm[1], -nm[2]};
            cv_core_support(&A, nm, eo.pa);
            cv_core_support(&B, nd, eo.pb);
            have = 1;
          }
        }
      }
      if (!have) return 0;
      csi_copy3(n, eo.n);
      core = eo.depth;
      for (int k = 0; k < 3; k++) p0[k] = 0.5 * (eo.pa[k] + eo.pb[k]);
    }
    overlap = core + rsum;
    if (-overlap > margin) return 0;
    /* midway between the rounded surfaces */
    csi_addscl3(p0, n, 0.5 * (A.radius - B.radius));
  }
  return cv_manifold(&A, &B, n, overlap, p0, margin, con);
}

/* ------------------------------------------------------------------------ plane-mesh */

int csi_collide_plane_mesh(const csiCollGeom* a, const csiCollGeom* b, double margin,
                           csContact* con) {
  if (!b->vert || b->nvert < 1) return 0;
  double n[3], t1[3], t2[3];
  cv_axis(a->mat, 2, n);
  cv_tangents(n, t1, t2);
  double off = csi_dot3(n, a->pos);
  /* Stream the vertices with a running selection so nothing is stored per vertex:
     deepest first, then (second pass) farthest from it, then the largest triangle, then
     the largest area added: the same rule as the convex manifold. */
  int sel[4] = {-1, -1, -1, -1}, k = 0;
  double best = INFINITY, p[3], sel_xy[4][2];
  for (int i = 0; i < b->nvert; i++) {
    csi_geom_to_world(p, b, b->vert + 3 * i);
    double d = csi_dot3(n, p) - off;
    if (d <= margin && d < best) best = d, sel[0] = i;
  }
  if (sel[0] < 0) return 0;
  k = 1;
  double scale = b->rbound > 0 ? b->rbound : 1;
  double eps = 1e-9 * scale;
  for (int stage = 1; stage < 4; stage++) {
    for (int j = 0; j < k; j++) {
      csi_mulmat3vec(p, b->mat, b->vert + 3 * sel[j]);
      sel_xy[j][0] = csi_dot3(t1, p), sel_xy[j][1] = csi_dot3(t2, p);
    }
    double bv = 0;
    int bi = -1;
    double ex = 0, ey = 0, el = 0;
    if (stage >= 2) {
      ex = sel_xy[1][0] - sel_xy[0][0], ey = sel_xy[1][1] - sel_xy[0][1];
      el = sqrt(ex * ex + ey * ey);
    }
    /* CCW orientation of the triangle for stage 3 */
    int ccw = 1;
    if (stage == 3) {
      double a3 = ex * (sel_xy[2][1] - sel_xy[0][1]) - ey * (sel_xy[2][0] - sel_xy[0][0]);
      ccw = a3 > 0;
    }
    for (int i = 0; i < b->nvert; i++) {
      int used = 0;
      for (int j = 0; j < k; j++) used |= sel[j] == i;
      if (used) continue;
      csi_mulmat3vec(p, b->mat, b->vert + 3 * i);
      double d = csi_dot3(n, p) + csi_dot3(n, b->pos) - off;
      if (d > margin) continue;
      double x = csi_dot3(t1, p), y = csi_dot3(t2, p), v;
      if (stage == 1) {
        double dx = x - sel_xy[0][0], dy = y - sel_xy[0][1];
        v = sqrt(dx * dx + dy * dy);
        if (v <= eps) continue;
      } else if (stage == 2) {
        v = fabs(ex * (y - sel_xy[0][1]) - ey * (x - sel_xy[0][0]));
        if (v <= eps * el) continue;
      } else {
        int o[3] = {0, ccw ? 1 : 2, ccw ? 2 : 1};
        v = 0;
        for (int e = 0; e < 3; e++) {
          const double *u = sel_xy[o[e]], *w = sel_xy[o[(e + 1) % 3]];
          double ar = (w[0] - u[0]) * (y - u[1]) - (w[1] - u[1]) * (x - u[0]);
          if (-ar > v) v = -ar;
        }
        if (v <= eps * el) continue;
      }
      if (v > bv) bv = v, bi = i;
    }
    if (bi < 0) break;
    sel[k++] = bi;
  }
  for (int j = 0; j < k; j++) {
    csi_geom_to_world(p, b, b->vert + 3 * sel[j]);
    double d = csi_dot3(n, p) - off, pos[3];
    csi_copy3(pos, p);
    csi_addscl3(pos, n, -0.5 * d);
    cv_write(con + j, n, t1, t2, pos, d, sel[j]);
  }
  return k;
}
