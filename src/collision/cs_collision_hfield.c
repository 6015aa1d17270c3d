/* Heightfield contacts: a convex geom (sphere, capsule, cylinder, box, mesh) against a
   heightfield, the last geom type, so the heightfield is always b and every normal points
   from the geom into the terrain.

   The terrain (csModel.hfield_*): sample (r, c) at x = -sx + 2 sx c / (ncol - 1),
   y = -sy + 2 sy r / (nrow - 1), z = sz data[r ncol + c] in the geom frame; each cell is
   split along its diagonal (r, c)-(r + 1, c + 1) into triangle 0 = (r, c), (r, c + 1),
   (r + 1, c + 1) and triangle 1 = (r, c), (r + 1, c + 1), (r + 1, c) (MuJoCo's split); the
   solid is the surface extruded down to z = -base.

   1. The geom's bounding box in the heightfield frame (exact support extents) selects the
      cells under it; nothing is reported outside the field's x-y extent, above its
      highest sample or below its base.
   2. Each triangle of those cells whose top reaches the geom's lowest point is extruded to
      the base: a 6-vertex convex prism, collided with the geom by csi_collide_convex
      (GJK/EPA on exact supports, a manifold of up to 4 points). No new convex code.
   3. The prisms of one terrain share walls and edges, and a minimum-translation normal
      through a shared wall, or across an edge that is flat or concave (a valley), is an
      artefact: a sphere resting on flat terrain next to a cell boundary would also get a
      tilted contact from the neighbouring prism and be pushed sideways. A prism's normal
      is kept only if the prism's support feature along it (face, edge, vertex or a wall
      part) is also a support feature of the terrain around it: the opposite vertex of the
      triangle across an edge, or the one-ring of a vertex (top and base), may not reach
      farther along the normal. So convex ridges and peaks keep their exact edge and
      vertex normals, and the field's outer sides are real walls. A face contact gets the
      triangle's exact normal and its distance from the geom's point to the triangle's
      plane; for a geom with flat faces (box, mesh, cylinder) a normal within HF_FACE_TILT
      of the triangle's counts as a face contact (a box resting a little tilted).
   4. Plane-like face contacts at the geom's sample points (box corners, mesh hull
      vertices, cylinder rim samples; the core points of a sphere or capsule): each point
      over the triangle under it (or the neighbour its foot falls on, on a steep face),
      within the margin of that triangle's plane. For flat geoms they complete the convex
      manifold, which keeps only the deepest feature's points (a tilted box's other
      corners within the margin); for spheres and capsules, whose convex contacts are exact
      closest points, they only stand in when no convex contact survived (a geom pushed
      deep into the terrain, or a failed convex query).
   5. Candidates are merged (same point and normal: the deeper one, then the smaller
      feature id, is kept: a terrain vertex is shared by six prisms) and reduced to
      CSI_MAX_PAIR_CONTACTS: the deepest (a corner among equally deep ones), then
      repeatedly the candidate farthest from the convex hull of those kept (across the
      first normal) plus a weight for a normal none of them has, so a resting box keeps
      its 4 corners and a geom spanning a valley keeps both faces. The buffer is reduced
      the same way whenever it fills, so a large geom over many cells keeps its extreme
      points. Feature ids: 64 x (2 x cell + triangle) plus the convex pair's own id (or
      32 + the sample index), so they persist while the same corner touches the same
      triangle.

   Stack memory only: a prism, a candidate buffer of HF_MAX_CAND contacts. */
#include <math.h>
#include <string.h>

#include "collision/cs_collision.h"
#include "math/cs_math.h"

#define HF_MAX_CAND 64
/* For a geom with flat faces (box, mesh, cylinder), a prism normal within this angle (rad)
   of its triangle's normal is a face contact: the geom's face nearly parallel to the
   triangle (a box resting slightly tilted). As the convex manifold's CV_FACE_TILT. Spheres
   and capsules have no face: their normals are exact closest-point directions. */
#define HF_FACE_TILT 1e-3
/* Rim samples per cylinder cap for the sample contacts (as the convex manifold's). */
#define HF_CYL_SAMPLES 8
/* Feature id csi_collide_convex gives its primary point (cv_manifold). */
#define HF_CV_PRIMARY 0x40000000

/* ------------------------------------------------------------------ geometry helpers */

typedef struct hfGrid {
  const double* data;
  int nrow, ncol;
  double sx, sy, sz, base;
  double dx, dy;
  double tol; /* support-value tolerance (length) */
} hfGrid;

/* Local (heightfield frame) top position of sample (r, c). */
static void hf_top(const hfGrid* G, int r, int c, double p[3]) {
  p[0] = c == G->ncol - 1 ? G->sx : -G->sx + G->dx * c;
  p[1] = r == G->nrow - 1 ? G->sy : -G->sy + G->dy * r;
  p[2] = G->sz * G->data[r * G->ncol + c];
}

/* Grid samples of triangle k of cell (r, c), counter-clockwise seen from +z. */
static void hf_tri(int r, int c, int k, int vr[3], int vc[3]) {
  vr[0] = r, vc[0] = c;
  if (k == 0) {
    vr[1] = r, vc[1] = c + 1;
    vr[2] = r + 1, vc[2] = c + 1;
  } else {
    vr[1] = r + 1, vc[1] = c + 1;
    vr[2] = r + 1, vc[2] = c;
  }
}

/* Opposite sample of the triangle across edge e (vertex e to e + 1) of triangle k of cell
   (r, c); 0 if the edge is on the field's boundary. */
static int hf_across(const hfGrid* G, int r, int c, int k, int e, int* orow, int* ocol) {
  static const int off[2][3][2] = {{{-1, 0}, {1, 2}, {1, 0}}, {{0, 1}, {2, 1}, {0, -1}}};
  int rr = r + off[k][e][0], cc = c + off[k][e][1];
  if (rr < 0 || rr >= G->nrow || cc < 0 || cc >= G->ncol) return 0;
  *orow = rr, *ocol = cc;
  return 1;
}

/* The one-ring of a sample in this triangulation: the six samples joined to it by edges. */
static const int hf_ring[6][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, -1}};

/* Is the prism's support feature along u (local, unit) a support feature of the terrain
   around it? V: the prism (top 0..2, base 3..5), samples vr, vc; nl: the top face's unit
   normal; flat: the geom has flat faces. 0: no, 1: yes, 2: yes and it is the top face (u
   is nl to round-off, or within HF_FACE_TILT of it for a flat geom). For a top edge or
   vertex, its prism vertices are written to fv (nf = 2 or 1; else nf = 0). */
static int hf_admissible(const hfGrid* G, int r, int c, int k, const int vr[3], const int vc[3],
                         const double V[6][3], const double nl[3], int flat, const double u[3],
                         int fv[2], int* nf) {
  *nf = 0;
  if (flat && csi_dot3(u, nl) >= cos(HF_FACE_TILT)) return 2;
  double h[6], hmax = -INFINITY;
  for (int i = 0; i < 6; i++) {
    h[i] = csi_dot3(u, V[i]);
    hmax = fmax(hmax, h[i]);
  }
  double lim = hmax + G->tol;
  int in[6], ntop = 0, nbase = 0;
  for (int i = 0; i < 6; i++) {
    in[i] = h[i] >= hmax - G->tol;
    if (in[i] && i < 3) ntop++;
    if (in[i] && i >= 3) nbase++;
  }
  if (nbase == 0) {
    if (ntop == 3) return 2; /* the face (a tilt below the tolerance) */
    if (ntop == 2) {         /* an edge: the triangle across it must not reach farther */
      int e = !in[0] ? 1 : !in[1] ? 2 : 0, orow, ocol;
      fv[0] = e, fv[1] = (e + 1) % 3, *nf = 2;
      if (!hf_across(G, r, c, k, e, &orow, &ocol)) return 1; /* boundary edge */
      double w[3];
      hf_top(G, orow, ocol, w);
      return csi_dot3(u, w) <= lim;
    }
    /* a vertex: its one-ring must not reach farther */
    int i = in[0] ? 0 : in[1] ? 1 : 2;
    fv[0] = i, *nf = 1;
    for (int j = 0; j < 6; j++) {
      int rr = vr[i] + hf_ring[j][0], cc = vc[i] + hf_ring[j][1];
      if (rr < 0 || rr >= G->nrow || cc < 0 || cc >= G->ncol) continue;
      double w[3];
      hf_top(G, rr, cc, w);
      if (csi_dot3(u, w) > lim) return 0;
    }
    return 1;
  }
  /* a wall or the bottom: exposed only where no neighbouring prism (top or base) reaches
     farther, i.e. on the field's outer sides and its underside */
  for (int i = 0; i < 6; i++) {
    if (!in[i]) continue;
    int s = i % 3;
    for (int j = 0; j < 6; j++) {
      int rr = vr[s] + hf_ring[j][0], cc = vc[s] + hf_ring[j][1];
      if (rr < 0 || rr >= G->nrow || cc < 0 || cc >= G->ncol) continue;
      double w[3];
      hf_top(G, rr, cc, w);
      if (csi_dot3(u, w) > lim) return 0;
      w[2] = -G->base;
      if (csi_dot3(u, w) > lim) return 0;
    }
  }
  return 1;
}

/* Is local point p over the triangle V[0..2] (counter-clockwise from +z), up to tol? */
static int hf_over(const double V[6][3], const double p[3], double tol) {
  for (int e = 0; e < 3; e++) {
    const double *v = V[e], *w = V[(e + 1) % 3];
    double ex = w[0] - v[0], ey = w[1] - v[1];
    if (ex * (p[1] - v[1]) - ey * (p[0] - v[0]) < -tol * sqrt(ex * ex + ey * ey)) return 0;
  }
  return 1;
}

/* The points of the geom that can be its deepest along world direction d (unit), for
   face contacts: the support point of a sphere, the two end spheres' support points of a
   capsule, the exact support point and rim samples of a cylinder, the corners of a box,
   the hull vertices of a mesh. */
static int hf_nsamples(const csiCollGeom* g) {
  switch (g->type) {
    case CS_GEOM_SPHERE:
      return 1;
    case CS_GEOM_CAPSULE:
      return 2;
    case CS_GEOM_CYLINDER:
      return 1 + 2 * HF_CYL_SAMPLES;
    case CS_GEOM_BOX:
      return 8;
    case CS_GEOM_MESH:
      return g->nvert;
    default:
      return 0;
  }
}

static void hf_sample(const csiCollGeom* g, int i, const double d[3], double out[3]) {
  double dl[3], loc[3] = {0, 0, 0}, rad = 0;
  csi_mulmat3tvec(dl, g->mat, d);
  switch (g->type) {
    case CS_GEOM_SPHERE:
      rad = g->size[0];
      break;
    case CS_GEOM_CAPSULE:
      rad = g->size[0];
      loc[2] = i ? g->size[1] : -g->size[1];
      break;
    case CS_GEOM_CYLINDER: {
      double rr = sqrt(dl[0] * dl[0] + dl[1] * dl[1]);
      double phase = rr > 0 ? atan2(dl[1], dl[0]) : 0;
      int cap = i == 0 ? dl[2] >= 0 : (i - 1) / HF_CYL_SAMPLES;
      double step = 2 * 3.14159265358979323846 / HF_CYL_SAMPLES;
      double ang = i == 0 ? phase : phase + ((i - 1) % HF_CYL_SAMPLES) * step;
      if (i > 0 || rr > 0) loc[0] = g->size[0] * cos(ang), loc[1] = g->size[0] * sin(ang);
      loc[2] = cap ? g->size[1] : -g->size[1];
      break;
    }
    case CS_GEOM_BOX:
      for (int k = 0; k < 3; k++) loc[k] = (i >> k) & 1 ? g->size[k] : -g->size[k];
      break;
    case CS_GEOM_MESH:
      csi_copy3(loc, g->vert + 3 * i);
      break;
    default:
      break;
  }
  csi_geom_to_world(out, g, loc);
  csi_addscl3(out, d, rad);
}

/* Bounding box of geom g in the frame (O, H): exact extents along the frame's axes. */
static int hf_bounds(const csiCollGeom* g, const double O[3], const double* H, double lo[3],
                     double hi[3]) {
  double off[3], p[3], Rl[9];
  csi_sub3(off, g->pos, O);
  csi_mulmat3tvec(p, H, off);
  /* Rl = H^T A: row k is frame axis k in the geom's frame */
  for (int k = 0; k < 3; k++)
    for (int j = 0; j < 3; j++)
      Rl[3 * k + j] = H[k] * g->mat[j] + H[3 + k] * g->mat[3 + j] + H[6 + k] * g->mat[6 + j];
  const double* s = g->size;
  for (int k = 0; k < 3; k++) {
    const double* a = Rl + 3 * k;
    double e = 0, l = 0, h = 0;
    switch (g->type) {
      case CS_GEOM_SPHERE:
        e = s[0];
        break;
      case CS_GEOM_CAPSULE:
        e = fabs(a[2]) * s[1] + s[0];
        break;
      case CS_GEOM_CYLINDER:
        e = fabs(a[2]) * s[1] + s[0] * sqrt(fmax(0, 1 - a[2] * a[2]));
        break;
      case CS_GEOM_BOX:
        e = fabs(a[0]) * s[0] + fabs(a[1]) * s[1] + fabs(a[2]) * s[2];
        break;
      case CS_GEOM_MESH:
        if (!g->vert || g->nvert < 1) return 0;
        l = INFINITY, h = -INFINITY;
        for (int i = 0; i < g->nvert; i++) {
          double v = csi_dot3(a, g->vert + 3 * i);
          l = fmin(l, v), h = fmax(h, v);
        }
        break;
      default:
        return 0;
    }
    if (g->type == CS_GEOM_MESH)
      lo[k] = p[k] + l, hi[k] = p[k] + h;
    else
      lo[k] = p[k] - e, hi[k] = p[k] + e;
    if (!isfinite(lo[k]) || !isfinite(hi[k])) return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------ candidates */

typedef struct hfCand {
  csContact c[HF_MAX_CAND];
  int n;
  double merge; /* positions closer than this (and equal normals) are one contact */
  double scale; /* length that weighs normal differences in the reduction */
} hfCand;

/* Distance in the plane (t1, t2) from candidate i to the convex hull of the candidates in
   sel[0..k-1]. */
static double hf_hull_dist(const hfCand* C, const int* sel, int k, int i, const double t1[3],
                           const double t2[3]) {
  double p[CSI_MAX_PAIR_CONTACTS][2], x = csi_dot3(t1, C->c[i].pos), y = csi_dot3(t2, C->c[i].pos);
  int idx[CSI_MAX_PAIR_CONTACTS], h[2 * CSI_MAX_PAIR_CONTACTS + 2], m = 0;
  for (int j = 0; j < k; j++) {
    p[j][0] = csi_dot3(t1, C->c[sel[j]].pos), p[j][1] = csi_dot3(t2, C->c[sel[j]].pos);
    idx[j] = j;
  }
  for (int a = 1; a < k; a++) { /* sort by x, then y */
    int v = idx[a], b = a - 1;
    while (b >= 0 &&
           (p[idx[b]][0] > p[v][0] || (p[idx[b]][0] == p[v][0] && p[idx[b]][1] > p[v][1])))
      idx[b + 1] = idx[b], b--;
    idx[b + 1] = v;
  }
  if (k >= 3) { /* monotone chain, counter-clockwise */
    for (int pass = 0; pass < 2; pass++) {
      int start = m;
      for (int a = 0; a < k; a++) {
        int v = pass ? idx[k - 1 - a] : idx[a];
        while (m >= start + 2) {
          const double *o = p[h[m - 2]], *q = p[h[m - 1]];
          if ((q[0] - o[0]) * (p[v][1] - o[1]) - (q[1] - o[1]) * (p[v][0] - o[0]) > 0) break;
          m--;
        }
        h[m++] = v;
      }
      m--;
    }
  } else {
    for (int a = 0; a < k; a++) h[m++] = idx[a];
  }
  int inside = m >= 3;
  double best = INFINITY;
  for (int a = 0; a < m; a++) {
    const double *u = p[h[a]], *v = p[h[(a + 1) % m]];
    double ex = v[0] - u[0], ey = v[1] - u[1], len2 = ex * ex + ey * ey;
    double cr = ex * (y - u[1]) - ey * (x - u[0]);
    if (cr < 0) inside = 0;
    double t = len2 > 0 ? ((x - u[0]) * ex + (y - u[1]) * ey) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double dx = x - u[0] - t * ex, dy = y - u[1] - t * ey;
    best = fmin(best, sqrt(dx * dx + dy * dy));
  }
  return inside ? 0 : best;
}

/* Keep at most `keep` candidates: the deepest (among those within a round-off tie of it,
   the one farthest from their centre: a corner of a resting face), then repeatedly the one
   farthest from the convex hull of those kept (in the plane across the first normal; a
   maximum of a convex function, so an extreme point) plus a weight for a normal none of
   them has. Stops early when every candidate is covered (a resting box keeps its 4
   corners). */
static void hf_reduce(hfCand* C, int keep) {
  if (C->n <= 1) return;
  int sel[CSI_MAX_PAIR_CONTACTS], k = 0, used[HF_MAX_CAND];
  double dmin = INFINITY, ctr[3] = {0, 0, 0};
  for (int i = 0; i < C->n; i++) dmin = fmin(dmin, C->c[i].dist), used[i] = 0;
  double tie = 1e-9 * C->scale;
  int nt = 0;
  for (int i = 0; i < C->n; i++)
    if (C->c[i].dist <= dmin + tie) csi_add3(ctr, ctr, C->c[i].pos), nt++;
  csi_scl3(ctr, ctr, 1.0 / nt);
  int first = -1;
  double far = -1;
  for (int i = 0; i < C->n; i++)
    if (C->c[i].dist <= dmin + tie) {
      double d[3];
      csi_sub3(d, C->c[i].pos, ctr);
      if (csi_dot3(d, d) > far + tie * tie) far = csi_dot3(d, d), first = i;
    }
  sel[k++] = first;
  used[first] = 1;
  double t1[3], t2[3], e[3] = {0, 0, 0};
  const double* n0 = C->c[first].frame;
  int ax = fabs(n0[0]) <= fabs(n0[1]) && fabs(n0[0]) <= fabs(n0[2]) ? 0
           : fabs(n0[1]) <= fabs(n0[2])                             ? 1
                                                                    : 2;
  e[ax] = 1;
  csi_cross3(t1, n0, e);
  csi_normalize3(t1);
  csi_cross3(t2, n0, t1);
  while (k < keep) {
    int bi = -1;
    double bv = C->merge;
    for (int i = 0; i < C->n; i++) {
      if (used[i]) continue;
      double nd = 2;
      for (int j = 0; j < k; j++) nd = fmin(nd, 1 - csi_dot3(C->c[i].frame, C->c[sel[j]].frame));
      double v = hf_hull_dist(C, sel, k, i, t1, t2) + C->scale * nd;
      if (v > bv) bv = v, bi = i;
    }
    if (bi < 0) break;
    sel[k++] = bi;
    used[bi] = 1;
  }
  csContact tmp[CSI_MAX_PAIR_CONTACTS];
  for (int i = 0; i < k; i++) tmp[i] = C->c[sel[i]];
  memcpy(C->c, tmp, sizeof(csContact) * (size_t)k);
  C->n = k;
}

static void hf_add(hfCand* C, const csContact* c) {
  for (int i = 0; i < C->n; i++) {
    csContact* q = C->c + i;
    double d[3];
    csi_sub3(d, q->pos, c->pos);
    if (csi_dot3(d, d) > C->merge * C->merge || csi_dot3(q->frame, c->frame) < 1 - 1e-12) continue;
    double tie = 1e-12 * C->scale;
    if (c->dist < q->dist - tie || (c->dist <= q->dist + tie && c->feature < q->feature)) *q = *c;
    return;
  }
  if (C->n == HF_MAX_CAND) hf_reduce(C, CSI_MAX_PAIR_CONTACTS);
  C->c[C->n++] = *c;
}

static int hf_feature(int tri, int local) {
  return (int)(((unsigned)tri * 64u + (unsigned)local % 64u) & 0x7fffffffu);
}

/* Triangle (cell r, c, triangle k) whose footprint holds local (x, y); 0 if outside. */
static int hf_locate(const hfGrid* G, double x, double y, int* r, int* c, int* k) {
  double fx = (x + G->sx) / G->dx, fy = (y + G->sy) / G->dy;
  if (!(fx >= 0 && fx <= G->ncol - 1 && fy >= 0 && fy <= G->nrow - 1)) return 0;
  int cc = (int)fmin(floor(fx), G->ncol - 2), rr = (int)fmin(floor(fy), G->nrow - 2);
  *r = rr, *c = cc;
  *k = fx - cc >= fy - rr ? 0 : 1; /* triangle 0 is below the diagonal */
  return 1;
}

/* Plane of triangle k of cell (r, c): unit normal nl (local, upwards) and offset. */
static void hf_plane(const hfGrid* G, int r, int c, int k, double nl[3], double* off) {
  int vr[3], vc[3];
  double V[3][3], e1[3], e2[3];
  hf_tri(r, c, k, vr, vc);
  for (int i = 0; i < 3; i++) hf_top(G, vr[i], vc[i], V[i]);
  csi_sub3(e1, V[1], V[0]);
  csi_sub3(e2, V[2], V[0]);
  csi_cross3(nl, e1, e2);
  csi_normalize3(nl);
  *off = csi_dot3(nl, V[0]);
}

/* Face contacts at the geom's sample points (see the end of csi_collide_hfield). A point is
   assigned the triangle under it, or the neighbouring one if its foot on that triangle's
   plane falls there (a steep face); at most one contact per point. */
static void hf_sample_contacts(const csiCollGeom* a, const csiCollGeom* b, const hfGrid* G,
                               double margin, hfCand* C) {
  const double* H = b->mat;
  int ns = hf_nsamples(a);
  for (int i = 0; i < ns; i++) {
    /* where the point is: for a sphere or capsule, its core point (the rounding is added
       along the triangle's normal below) */
    double p[3], pl[3], down[3] = {-H[2], -H[5], -H[8]};
    hf_sample(a, i, down, p);
    csi_geom_to_local(pl, b, p);
    if (a->type == CS_GEOM_SPHERE || a->type == CS_GEOM_CAPSULE)
      pl[2] += a->size[0]; /* hf_sample added the radius straight down */
    int r, c, k;
    if (!hf_locate(G, pl[0], pl[1], &r, &c, &k)) continue;
    double nl[3], off, rad = 0;
    if (a->type == CS_GEOM_SPHERE || a->type == CS_GEOM_CAPSULE) rad = a->size[0];
    hf_plane(G, r, c, k, nl, &off);
    double dist = csi_dot3(nl, pl) - off - rad;
    /* the foot past a steep face's edge: that neighbour, if the foot is on it */
    double foot[3];
    csi_copy3(foot, pl);
    csi_addscl3(foot, nl, -(dist + rad));
    int r2, c2, k2;
    if (hf_locate(G, foot[0], foot[1], &r2, &c2, &k2) && (r2 != r || c2 != c || k2 != k)) {
      double nl2[3], off2, f2[3];
      hf_plane(G, r2, c2, k2, nl2, &off2);
      double d2 = csi_dot3(nl2, pl) - off2 - rad;
      csi_copy3(f2, pl);
      csi_addscl3(f2, nl2, -(d2 + rad));
      int r3, c3, k3;
      if (hf_locate(G, f2[0], f2[1], &r3, &c3, &k3) && r3 == r2 && c3 == c2 && k3 == k2) {
        r = r2, c = c2, k = k2, dist = d2;
        csi_copy3(nl, nl2);
      }
    }
    if (dist > margin) continue;
    double nt[3], gl[3], g[3];
    csi_mulmat3vec(nt, H, nl);
    csi_copy3(gl, pl);
    csi_addscl3(gl, nl, -rad); /* the geom's point, deepest along -nl */
    csi_geom_to_world(g, b, gl);
    csContact f;
    memset(&f, 0, sizeof f);
    csi_scl3(f.frame, nt, -1);
    csi_copy3(f.pos, g);
    csi_addscl3(f.pos, nt, -0.5 * dist);
    f.dist = dist;
    f.feature = hf_feature(2 * (r * (G->ncol - 1) + c) + k, 32 + i % 32);
    f.geom[0] = f.geom[1] = -1;
    hf_add(C, &f);
  }
}

/* ------------------------------------------------------------------ entry point */

int csi_collide_hfield(const csiCollGeom* a, const csiCollGeom* b, double margin, csContact* con) {
  if (b->type != CS_GEOM_HFIELD || !b->hdata || b->nrow < 2 || b->ncol < 2) return 0;
  hfGrid G;
  G.data = b->hdata;
  G.nrow = b->nrow, G.ncol = b->ncol;
  G.sx = b->hsize[0], G.sy = b->hsize[1], G.sz = b->hsize[2], G.base = b->hsize[3];
  G.dx = 2 * G.sx / (G.ncol - 1), G.dy = 2 * G.sy / (G.nrow - 1);
  G.tol = 1e-9 * (sqrt(G.dx * G.dx + G.dy * G.dy) + G.sz + G.base);
  const double* H = b->mat;
  double lo[3], hi[3];
  if (!hf_bounds(a, b->pos, H, lo, hi)) return 0;
  if (!(margin >= 0)) margin = 0;
  /* the field's box: x-y extent, base to the highest possible sample */
  if (hi[0] + margin < -G.sx || lo[0] - margin > G.sx || hi[1] + margin < -G.sy ||
      lo[1] - margin > G.sy || lo[2] - margin > G.sz || hi[2] + margin < -G.base)
    return 0;
  /* cells under the box (clamped in floating point before the conversion) */
  double cl = floor((lo[0] - margin + G.sx) / G.dx), ch = floor((hi[0] + margin + G.sx) / G.dx);
  double rl = floor((lo[1] - margin + G.sy) / G.dy), rh = floor((hi[1] + margin + G.sy) / G.dy);
  int c0 = (int)fmax(0, fmin(G.ncol - 2, cl)), c1 = (int)fmax(0, fmin(G.ncol - 2, ch));
  int r0 = (int)fmax(0, fmin(G.nrow - 2, rl)), r1 = (int)fmax(0, fmin(G.nrow - 2, rh));
  double zlow = lo[2] - margin;
  int flat = a->type == CS_GEOM_BOX || a->type == CS_GEOM_MESH || a->type == CS_GEOM_CYLINDER;

  hfCand C;
  C.n = 0;
  C.scale = a->rbound > 0 ? a->rbound : hi[0] - lo[0] + hi[1] - lo[1] + hi[2] - lo[2];
  C.merge = 1e-6 * (C.scale + G.dx + G.dy);

  csiCollGeom P; /* the prism: a 6-vertex mesh about its centroid, in the field's frame */
  memset(&P, 0, sizeof P);
  P.type = CS_GEOM_MESH;
  P.size[0] = P.size[1] = P.size[2] = 1;
  memcpy(P.mat, H, sizeof P.mat);
  double pv[18];
  P.vert = pv;
  P.nvert = 6;
  for (int r = r0; r <= r1; r++)
    for (int c = c0; c <= c1; c++)
      for (int k = 0; k < 2; k++) {
        int vr[3], vc[3];
        hf_tri(r, c, k, vr, vc);
        double V[6][3], ztop = -INFINITY, ctr[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++) {
          hf_top(&G, vr[i], vc[i], V[i]);
          csi_copy3(V[i + 3], V[i]);
          V[i + 3][2] = -G.base;
          ztop = fmax(ztop, V[i][2]);
        }
        if (ztop < zlow) continue; /* the geom is above this prism */
        for (int i = 0; i < 6; i++) csi_addscl3(ctr, V[i], 1.0 / 6);
        double rb = 0;
        for (int i = 0; i < 6; i++) {
          csi_sub3(pv + 3 * i, V[i], ctr);
          rb = fmax(rb, csi_norm3(pv + 3 * i));
        }
        P.rbound = rb;
        csi_geom_to_world(P.pos, b, ctr);
        int tri = 2 * (r * (G.ncol - 1) + c) + k;
        csContact tmp[CSI_MAX_PAIR_CONTACTS];
        int n = csi_collide_convex(a, &P, margin, tmp);
        if (n <= 0) continue;
        /* the triangle's normal nt (world, upwards), and its plane nt.x = off */
        double e1[3], e2[3], nl[3], nt[3], d[3], v0[3];
        csi_sub3(e1, V[1], V[0]);
        csi_sub3(e2, V[2], V[0]);
        csi_cross3(nl, e1, e2);
        if (csi_normalize3(nl) == 0) continue;
        /* u: outward normal of the terrain (from the prism towards the geom), local */
        double nw[3] = {-tmp[0].frame[0], -tmp[0].frame[1], -tmp[0].frame[2]}, u[3];
        csi_mulmat3tvec(u, H, nw);
        int fv[2] = {0, 0}, nf = 0;
        int adm = hf_admissible(&G, r, c, k, vr, vc, (const double(*)[3])V, nl, flat, u, fv, &nf);
        if (!adm) continue; /* the sample contacts below stand in if needed */
        csi_mulmat3vec(nt, H, nl);
        csi_scl3(d, nt, -1);
        csi_geom_to_world(v0, b, V[0]);
        double off = csi_dot3(nt, v0);
        for (int i = 0; i < n; i++) {
          if (adm == 2) {
            /* a face contact: the exact face normal, the distance of the geom's point
               from the face's plane; kept if its foot on the plane is on the triangle,
               up to the shift the snap itself makes (a curved geom's manifold point can
               be off: its samples below stand in) */
            double gp[3], q[3], ql[3];
            csi_copy3(gp, tmp[i].pos);
            csi_addscl3(gp, tmp[i].frame, -0.5 * tmp[i].dist);
            double dist = csi_dot3(nt, gp) - off;
            csi_sub3(q, gp, b->pos);
            csi_addscl3(q, nt, -dist);
            csi_mulmat3tvec(ql, H, q);
            if (!hf_over((const double(*)[3])V, ql, HF_FACE_TILT * fabs(dist) + G.tol)) continue;
            csi_copy3(tmp[i].frame, d);
            csi_copy3(tmp[i].pos, gp);
            csi_addscl3(tmp[i].pos, nt, -0.5 * dist);
            tmp[i].dist = dist;
            if (dist > margin) continue;
          } else if (nf > 0 && tmp[i].feature == HF_CV_PRIMARY) {
            /* the convex manifold's primary point (its EPA witnesses, approximate for a
               curved core) at an edge or vertex: its terrain point on that feature */
            double q[3], ql[3], f[3];
            csi_copy3(q, tmp[i].pos);
            csi_addscl3(q, tmp[i].frame, 0.5 * tmp[i].dist);
            csi_geom_to_local(ql, b, q);
            csi_copy3(f, V[fv[0]]);
            if (nf == 2) {
              double e[3], w[3];
              csi_sub3(e, V[fv[1]], V[fv[0]]);
              csi_sub3(w, ql, V[fv[0]]);
              double t = csi_dot3(w, e) / csi_dot3(e, e);
              csi_addscl3(f, e, t < 0 ? 0 : t > 1 ? 1 : t);
            }
            csi_geom_to_world(q, b, f);
            csi_copy3(tmp[i].pos, q);
            csi_addscl3(tmp[i].pos, tmp[i].frame, -0.5 * tmp[i].dist);
          }
          tmp[i].feature = hf_feature(tri, tmp[i].feature % 32);
          hf_add(&C, tmp + i);
        }
      }
  /* face contacts at the geom's sample points: each over the triangle under it, with that
     triangle's normal; what a plane would give. For a geom with flat faces they complete
     the convex manifold, which keeps only the deepest feature's points (a tilted box's
     other corners); for a sphere or capsule, whose convex contacts are exact, they only
     stand in when no convex contact survived (a geom pushed deep into the terrain, a
     rejected normal or a failed convex query) */
  if (flat || C.n == 0) hf_sample_contacts(a, b, &G, margin, &C);
  hf_reduce(&C, CSI_MAX_PAIR_CONTACTS);
  /* feature ids unique within the pair (warm starting matches on them) */
  for (int i = 1; i < C.n; i++)
    for (int j = 0; j < i; j++)
      if (C.c[i].feature == C.c[j].feature) {
        C.c[i].feature = (int)(((unsigned)C.c[i].feature + 1u) & 0x7fffffffu);
        j = -1;
      }
  memcpy(con, C.c, sizeof(csContact) * (size_t)C.n);
  return C.n;
}
