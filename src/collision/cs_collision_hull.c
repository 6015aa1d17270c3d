/* Convex hull of a point cloud (quickhull with outside sets), run at model compile time to
   turn a mesh into the vertex set the convex collision functions take as its support.

   Robustness choices: a point joins the hull only if it is more than tol outside the
   current hull, so duplicates and points on faces or edges never do; visibility of a face
   from the new point uses a small numerical threshold instead of tol so the hull stays
   convex to round-off and the visible region is found by a walk over face neighbours
   (the horizon is then a single loop). Points that were added before the hull grew around
   them and ended up in the middle of a flat face or a straight edge (a finely tessellated
   box) are pruned at the end: a true corner has at least three distinct face planes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collision/cs_collision.h"
#include "math/cs_math.h"

typedef struct chFace {
  int v[3], nb[3]; /* vertices CCW from outside; nb[i] across edge v[i] -> v[i+1] */
  double n[3], d;  /* outward unit normal and offset: n.x = d on the plane */
  int head;        /* first point of the outside set, -1 if empty */
  int alive;
} chFace;

typedef struct chHull {
  const double* p;
  int np;
  chFace* f;
  int nf, cap;
  int* next; /* outside-set links per point */
  double tol, eps;
  int *stack, *hz; /* the visible-region walk's stack and horizon, (face, edge) pairs */
  int scap, hcap;  /* their capacities (ints) */
} chHull;

static double ch_dist(const chHull* h, const chFace* f, int i) {
  return csi_dot3(f->n, h->p + 3 * i) - f->d;
}

static int ch_new_face(chHull* h, int a, int b, int c) {
  if (h->nf == h->cap) {
    int cap = h->cap ? 2 * h->cap : 64;
    chFace* nf = (chFace*)realloc(h->f, sizeof(chFace) * (size_t)cap);
    if (!nf) return -1;
    h->f = nf;
    h->cap = cap;
  }
  chFace* f = h->f + h->nf;
  f->v[0] = a, f->v[1] = b, f->v[2] = c;
  f->nb[0] = f->nb[1] = f->nb[2] = -1;
  f->head = -1;
  f->alive = 1;
  double e1[3], e2[3];
  csi_sub3(e1, h->p + 3 * b, h->p + 3 * a);
  csi_sub3(e2, h->p + 3 * c, h->p + 3 * a);
  csi_cross3(f->n, e1, e2);
  if (csi_normalize3(f->n) > 0) {
    /* offset from the centroid: less sensitive to which vertex is used */
    double m[3];
    for (int k = 0; k < 3; k++) m[k] = (h->p[3 * a + k] + h->p[3 * b + k] + h->p[3 * c + k]) / 3;
    f->d = csi_dot3(f->n, m);
  } else {
    f->n[0] = f->n[1] = f->n[2] = 0;
    f->d = 0; /* sliver: sees nothing, stays only for the topology */
  }
  return h->nf++;
}

/* Put point i in the outside set of the face among [f0, f1) it is farthest above, if it is
   more than tol above any; returns 1 if assigned. */
static int ch_assign(chHull* h, int i, int f0, int f1) {
  int best = -1;
  double bd = h->tol;
  for (int k = f0; k < f1; k++) {
    if (!h->f[k].alive) continue;
    double d = ch_dist(h, h->f + k, i);
    if (d > bd) bd = d, best = k;
  }
  if (best < 0) return 0;
  h->next[i] = h->f[best].head;
  h->f[best].head = i;
  return 1;
}

/* 1 if vertex v is a corner: the faces around it span at least three planes through v. */
static int ch_is_corner(const chHull* h, int v, const int* inc, int ninc) {
  double cn[2][3];
  int nc = 0;
  /* seed clusters from the largest faces: their normals are the best conditioned */
  int order[64], m = ninc < 64 ? ninc : 64;
  double area[64];
  for (int k = 0; k < m; k++) {
    const chFace* f = h->f + inc[k];
    double e1[3], e2[3], c[3];
    csi_sub3(e1, h->p + 3 * f->v[1], h->p + 3 * f->v[0]);
    csi_sub3(e2, h->p + 3 * f->v[2], h->p + 3 * f->v[0]);
    csi_cross3(c, e1, e2);
    area[k] = csi_norm3(c);
    order[k] = k;
  }
  for (int i = 1; i < m; i++) {
    int t = order[i], j = i - 1;
    while (j >= 0 && area[order[j]] < area[t]) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = t;
  }
  if (ninc > 64) return 1; /* a vertex with that many faces is no flat-face artefact */
  const double* pv = h->p + 3 * v;
  for (int kk = 0; kk < m; kk++) {
    const chFace* f = h->f + inc[order[kk]];
    int fits = -1;
    for (int c = 0; c < nc && fits < 0; c++) {
      int all = 1;
      for (int j = 0; j < 3; j++) {
        double r[3];
        csi_sub3(r, h->p + 3 * f->v[j], pv);
        if (fabs(csi_dot3(cn[c], r)) > h->tol + h->eps) all = 0;
      }
      if (all) fits = c;
    }
    if (fits >= 0) continue;
    if (nc == 2) return 1;
    if (csi_dot3(f->n, f->n) == 0) continue;
    csi_copy3(cn[nc++], f->n);
  }
  return 0;
}

/* The extreme points along the axes (min x, max x, min y, ...) into ext, from the finite points
   only, and the largest extent; returns 0 if no point is finite. */
static int ch_extremes(const double* pts, int n, int ext[6], double* extent) {
  int first = -1;
  for (int i = 0; i < n && first < 0; i++)
    if (isfinite(pts[3 * i]) && isfinite(pts[3 * i + 1]) && isfinite(pts[3 * i + 2])) first = i;
  if (first < 0) return 0;
  for (int k = 0; k < 6; k++) ext[k] = first;
  for (int i = 0; i < n; i++) {
    const double* p = pts + 3 * i;
    if (!(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]))) continue;
    for (int k = 0; k < 3; k++) {
      if (p[k] < pts[3 * ext[2 * k] + k]) ext[2 * k] = i;
      if (p[k] > pts[3 * ext[2 * k + 1] + k]) ext[2 * k + 1] = i;
    }
  }
  double e = 0;
  for (int k = 0; k < 3; k++) e = fmax(e, pts[3 * ext[2 * k + 1] + k] - pts[3 * ext[2 * k] + k]);
  *extent = e;
  return 1;
}

/* The initial tetrahedron tv: the farthest pair of extremes, the point farthest from their
   line, the point farthest from their plane, ordered so that tv[3] is behind the face (tv[0],
   tv[1], tv[2]). Returns 0 if a point is not more than tol away: the cloud is a point, a line
   or a plane, no volume. */
static int ch_initial_tetra(const chHull* h, const int ext[6], int tv[4]) {
  const double* pts = h->p;
  int n = h->np;
  int i0 = ext[0], i1 = ext[1];
  double best = -1;
  for (int a = 0; a < 6; a++)
    for (int b = a + 1; b < 6; b++) {
      double d[3];
      csi_sub3(d, pts + 3 * ext[b], pts + 3 * ext[a]);
      if (csi_dot3(d, d) > best) best = csi_dot3(d, d), i0 = ext[a], i1 = ext[b];
    }
  if (sqrt(best) <= h->tol) return 0;
  double u[3];
  csi_sub3(u, pts + 3 * i1, pts + 3 * i0);
  csi_normalize3(u);
  int i2 = -1;
  best = h->tol;
  for (int i = 0; i < n; i++) {
    double r[3], c[3];
    csi_sub3(r, pts + 3 * i, pts + 3 * i0);
    csi_cross3(c, r, u);
    double d = csi_norm3(c);
    if (d > best) best = d, i2 = i;
  }
  if (i2 < 0) return 0;
  double nrm[3], e2[3];
  csi_sub3(e2, pts + 3 * i2, pts + 3 * i0);
  csi_cross3(nrm, u, e2);
  csi_normalize3(nrm);
  int i3 = -1;
  best = h->tol;
  for (int i = 0; i < n; i++) {
    double r[3];
    csi_sub3(r, pts + 3 * i, pts + 3 * i0);
    double d = fabs(csi_dot3(nrm, r));
    if (d > best) best = d, i3 = i;
  }
  if (i3 < 0) return 0;
  double r[3];
  csi_sub3(r, pts + 3 * i3, pts + 3 * i0);
  if (csi_dot3(nrm, r) > 0) { /* i3 must be behind face (i0, i1, i2) */
    int t = i1;
    i1 = i2, i2 = t;
  }
  tv[0] = i0, tv[1] = i1, tv[2] = i2, tv[3] = i3;
  return 1;
}

/* The tetrahedron's four faces with their neighbours, and every other finite point in the
   outside set of the face it is farthest above. Returns 0 if out of memory. */
static int ch_seed(chHull* h, const int tv[4]) {
  static const int tf[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {0, 2, 3}};
  for (int k = 0; k < 4; k++)
    if (ch_new_face(h, tv[tf[k][0]], tv[tf[k][1]], tv[tf[k][2]]) < 0) return 0;
  for (int a = 0; a < 4; a++)
    for (int k = 0; k < 3; k++)
      for (int b = 0; b < 4; b++)
        for (int l = 0; l < 3; l++)
          if (h->f[b].v[l] == h->f[a].v[(k + 1) % 3] && h->f[b].v[(l + 1) % 3] == h->f[a].v[k])
            h->f[a].nb[k] = b;
  for (int i = 0; i < h->np; i++) {
    h->next[i] = -1;
    if (i == tv[0] || i == tv[1] || i == tv[2] || i == tv[3]) continue;
    const double* p = h->p + 3 * i;
    if (!(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]))) continue;
    ch_assign(h, i, 0, 4);
  }
  return 1;
}

/* The next point to add: a face with a non-empty outside set (searched from *cursor on, where
   the last search stopped) into *fi, and its farthest outside point into *pi. Returns 0 if no
   point is left outside. */
static int ch_next_apex(const chHull* h, int* cursor, int* fi, int* pi) {
  int f = -1;
  for (int k = 0; k < h->nf && f < 0; k++) {
    int kk = (*cursor + k) % h->nf; /* resume where the last search stopped */
    if (h->f[kk].alive && h->f[kk].head >= 0) f = kk;
  }
  if (f < 0) return 0;
  *cursor = f;
  int p = -1;
  double bd = -INFINITY;
  for (int i = h->f[f].head; i >= 0; i = h->next[i]) {
    double d = ch_dist(h, h->f + f, i);
    if (d > bd) bd = d, p = i;
  }
  *fi = f, *pi = p;
  return 1;
}

/* The faces visible from point pi, found by a walk over the neighbours from face fi, are
   killed; the horizon's edges go into h->hz as (face, edge) pairs (*nhz ints), and the dead
   faces' outside points into the list *orphans. Returns 0 if out of memory or the topology is
   broken. */
static int ch_visible(chHull* h, int fi, int pi, int* orphans, int* nhz_out) {
  if (h->scap < 2 * h->nf + 8) {
    h->scap = 2 * (2 * h->nf + 8);
    int* ns = (int*)realloc(h->stack, sizeof(int) * (size_t)h->scap);
    int* nh = (int*)realloc(h->hz, sizeof(int) * (size_t)h->scap);
    if (ns) h->stack = ns;
    if (nh) h->hz = nh;
    if (!ns || !nh) return 0;
    h->hcap = h->scap;
  }
  int* stack = h->stack;
  int* hz = h->hz;
  int nst = 0, nhz = 0;
  h->f[fi].alive = 0;
  for (int k = 0; k < 3; k++) stack[nst++] = h->f[fi].nb[k], stack[nst++] = fi;
  /* collect the outside points of the dead faces to re-assign */
  *orphans = h->f[fi].head;
  h->f[fi].head = -1;
  while (nst > 0) {
    int from = stack[--nst];
    int g = stack[--nst];
    if (g < 0) return 0;
    chFace* fg = h->f + g;
    if (!fg->alive) continue;
    int j = -1;
    for (int k = 0; k < 3; k++)
      if (fg->nb[k] == from) j = k;
    if (j < 0) return 0;
    if (ch_dist(h, fg, pi) > h->eps) {
      fg->alive = 0;
      /* splice its outside set into the orphans */
      for (int i = fg->head; i >= 0;) {
        int nx = h->next[i];
        h->next[i] = *orphans;
        *orphans = i;
        i = nx;
      }
      fg->head = -1;
      for (int k = 1; k <= 2; k++) {
        if (nst + 2 > h->scap) return 0;
        stack[nst++] = fg->nb[(j + k) % 3];
        stack[nst++] = g;
      }
    } else {
      if (nhz + 2 > h->hcap) return 0;
      hz[nhz++] = g;
      hz[nhz++] = j;
    }
  }
  *nhz_out = nhz;
  return 1;
}

/* A cone of new faces from the horizon (h->hz, nhz ints) to point pi, linked to the horizon's
   faces and to each other. Returns the first new face, or -1 if out of memory or a new face
   is left without a neighbour. */
static int ch_stitch(chHull* h, int nhz, int pi) {
  int nfirst = h->nf;
  for (int e = 0; e < nhz; e += 2) {
    int g = h->hz[e], j = h->hz[e + 1];
    int a = h->f[g].v[(j + 1) % 3], b = h->f[g].v[j];
    int nf = ch_new_face(h, a, b, pi);
    if (nf < 0) return -1;
    h->f[nf].nb[0] = g;
    h->f[g].nb[j] = nf;
  }
  for (int a = nfirst; a < h->nf; a++)
    for (int b = nfirst; b < h->nf; b++) {
      if (h->f[b].v[0] == h->f[a].v[1]) h->f[a].nb[1] = b;
      if (h->f[b].v[1] == h->f[a].v[0]) h->f[a].nb[2] = b;
    }
  for (int a = nfirst; a < h->nf; a++)
    if (h->f[a].nb[1] < 0 || h->f[a].nb[2] < 0) return -1;
  return nfirst;
}

/* The hull's vertices that are corners (ch_is_corner, over their incident faces) into idx, in
   index order. Returns their number if at least 4, else (or out of memory) -1. */
static int ch_corners(const chHull* h, int* idx) {
  int n = h->np;
  int* cnt = (int*)calloc((size_t)n + 1, sizeof(int));
  if (!cnt) return -1;
  int nalive = 0;
  for (int k = 0; k < h->nf; k++)
    if (h->f[k].alive) {
      nalive++;
      for (int j = 0; j < 3; j++) cnt[h->f[k].v[j] + 1]++;
    }
  for (int i = 0; i < n; i++) cnt[i + 1] += cnt[i];
  int* inc = (int*)malloc(sizeof(int) * (size_t)(3 * nalive + 1));
  int* fill = (int*)calloc((size_t)n, sizeof(int));
  if (!inc || !fill) {
    free(cnt);
    free(inc);
    free(fill);
    return -1;
  }
  for (int k = 0; k < h->nf; k++)
    if (h->f[k].alive)
      for (int j = 0; j < 3; j++) {
        int v = h->f[k].v[j];
        inc[cnt[v] + fill[v]++] = k;
      }
  int m = 0;
  for (int i = 0; i < n; i++) {
    int ni = cnt[i + 1] - cnt[i];
    if (ni == 0) continue;
    if (ch_is_corner(h, i, inc + cnt[i], ni)) idx[m++] = i;
  }
  free(cnt);
  free(inc);
  free(fill);
  return m >= 4 ? m : -1;
}

/* Quickhull: the initial tetrahedron, then, while a point is outside, the farthest point of a
   face's outside set is added (its visible faces replaced by a cone to their horizon, their
   outside points re-assigned), and finally the corners are kept. */
int csi_convex_hull(const double* pts, int n, double tol, int* idx) {
  if (!pts || !idx || n < 4) return -1;
  int ext[6];
  double extent;
  if (!ch_extremes(pts, n, ext, &extent)) return -1;
  chHull h;
  memset(&h, 0, sizeof h);
  h.p = pts;
  h.np = n;
  h.eps = 1e-12 * extent;
  h.tol = fmax(tol, 0) + h.eps;
  int tv[4];
  if (!ch_initial_tetra(&h, ext, tv)) return -1;

  int result = -1;
  h.next = (int*)malloc(sizeof(int) * (size_t)n);
  if (!h.next || !ch_seed(&h, tv)) goto done;
  int cursor = 0, fi, pi;
  while (ch_next_apex(&h, &cursor, &fi, &pi)) {
    int orphans, nhz;
    /* broken topology: give up rather than loop */
    if (!ch_visible(&h, fi, pi, &orphans, &nhz) || nhz < 6) goto done;
    int nfirst = ch_stitch(&h, nhz, pi);
    if (nfirst < 0) goto done;
    /* re-assign: above a new face, or now inside */
    for (int i = orphans; i >= 0;) {
      int nx = h.next[i];
      h.next[i] = -1;
      if (i != pi) ch_assign(&h, i, nfirst, h.nf);
      i = nx;
    }
    /* runaway guard (never reached on sane input): give up instead of looping */
    if (h.nf > 64 * n + 1024) goto done;
  }
  result = ch_corners(&h, idx);

done:
  free(h.f);
  free(h.next);
  free(h.stack);
  free(h.hz);
  return result;
}
