/* Convex-convex collision (GJK/EPA + manifold), plane-mesh and the convex hull, checked
   against closed forms written here: sphere-sphere, sphere-box, box-box by separating
   axes, capsule-capsule by segment distance; resting manifolds; hull vertex sets. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collision/cs_collision.h"
#include "cs_test.h"
#include "math/cs_math.h"

/* ------------------------------------------------------------------------ helpers */

static void geom_set(csiCollGeom* g, int type, double s0, double s1, double s2, const double pos[3],
                     const double quat[4]) {
  double R[9];
  csi_quat2mat(R, quat);
  cs_test_geom(g, type, s0, s1, s2, pos, R);
}

/* Positions in [-s, s]^3 (drawn interleaved, a then b per axis) and random rotations. */
static void rand_pose_pair(double s, double pa[3], double pb[3], double qa[4], double qb[4]) {
  for (int k = 0; k < 3; k++) pa[k] = cs_test_uniform(-s, s), pb[k] = cs_test_uniform(-s, s);
  cs_test_random_quat(qa);
  cs_test_random_quat(qb);
}

/* the 8 corners of a box as mesh vertices, corner i has bit k set for +size[k] */
static void box_verts(const double h[3], double v[24]) {
  for (int i = 0; i < 8; i++)
    for (int k = 0; k < 3; k++) v[3 * i + k] = (i >> k) & 1 ? h[k] : -h[k];
}

static void mesh_set(csiCollGeom* g, const double* v, int nv, const double pos[3],
                     const double quat[4]) {
  geom_set(g, CS_GEOM_MESH, 1, 1, 1, pos, quat);
  g->vert = v;
  g->nvert = nv;
  double r = 0;
  for (int i = 0; i < nv; i++) r = fmax(r, csi_norm3(v + 3 * i));
  g->rbound = r;
}

static int deepest(const csContact* c, int n) {
  int k = 0;
  for (int i = 1; i < n; i++)
    if (c[i].dist < c[k].dist) k = i;
  return k;
}

static double ndiff(const double* a, const double* b) {
  double d[3];
  csi_sub3(d, a, b);
  return csi_norm3(d);
}

/* Box-box by separating axes: signed distance (penetration negative; for separated boxes
   a lower bound only, so callers use penetrating poses), normal from a into b, and the
   gap to the second-best distinct axis (to know whether the deepest feature is unique). */
static double proj_box(const csiCollGeom* g, const double u[3]) {
  double r = 0;
  for (int k = 0; k < 3; k++)
    r += fabs(g->mat[k] * u[0] + g->mat[3 + k] * u[1] + g->mat[6 + k] * u[2]) * g->size[k];
  return r;
}

static double sat_box_box(const csiCollGeom* a, const csiCollGeom* b, double n[3], double* gap) {
  double ax[15][3], d[3];
  int m = 0;
  csi_sub3(d, b->pos, a->pos);
  for (int k = 0; k < 3; k++, m++)
    ax[m][0] = a->mat[k], ax[m][1] = a->mat[3 + k], ax[m][2] = a->mat[6 + k];
  for (int k = 0; k < 3; k++, m++)
    ax[m][0] = b->mat[k], ax[m][1] = b->mat[3 + k], ax[m][2] = b->mat[6 + k];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      csi_cross3(ax[m], ax[i], ax[3 + j]);
      if (csi_normalize3(ax[m]) > 1e-6) m++;
    }
  double best = INFINITY, second = INFINITY;
  for (int i = 0; i < m; i++) {
    double dd = csi_dot3(ax[i], d);
    double over = proj_box(a, ax[i]) + proj_box(b, ax[i]) - fabs(dd);
    if (over < best) {
      /* the same axis again (parallel cross products) is not a second feature */
      if (best < INFINITY && fabs(fabs(csi_dot3(ax[i], n)) - 1) > 1e-9) second = best;
      best = over;
      csi_scl3(n, ax[i], dd >= 0 ? 1 : -1);
    } else if (over < second && fabs(fabs(csi_dot3(ax[i], n)) - 1) > 1e-9) {
      second = over;
    }
  }
  *gap = second - best;
  return -best;
}

/* closest points of segments p1 + s d1, p2 + t d2 (s, t in [0, 1]); Ericson 5.1.9 */
static double seg_seg(const double p1[3], const double d1[3], const double p2[3],
                      const double d2[3], double c1[3], double c2[3]) {
  double r[3];
  csi_sub3(r, p1, p2);
  double a = csi_dot3(d1, d1), e = csi_dot3(d2, d2), f = csi_dot3(d2, r);
  double c = csi_dot3(d1, r), b = csi_dot3(d1, d2), den = a * e - b * b;
  double s = den > 1e-14 * a * e ? (b * f - c * e) / den : 0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  double t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = -c / a;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
  } else if (t > 1) {
    t = 1;
    s = (b - c) / a;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
  }
  for (int k = 0; k < 3; k++) c1[k] = p1[k] + s * d1[k], c2[k] = p2[k] + t * d2[k];
  return ndiff(c1, c2);
}

/* ------------------------------------------------------------------------ hull */

static int cmp_int(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }

static void test_hull(void) {
  cs_test_seed(11);
  /* cube corners mixed among interior points */
  enum { NI = 300 };
  static double pts[3 * (NI + 8)];
  int corner_at[8], idx[NI + 8];
  for (int i = 0; i < NI + 8; i++)
    for (int k = 0; k < 3; k++) pts[3 * i + k] = cs_test_uniform(-0.95, 0.95);
  for (int c = 0; c < 8; c++) {
    corner_at[c] = 37 * c + 5;
    for (int k = 0; k < 3; k++) pts[3 * corner_at[c] + k] = (c >> k) & 1 ? 1.0 : -1.0;
  }
  int m = csi_convex_hull(pts, NI + 8, 1e-9, idx);
  CHECK_MSG(m == 8, "cube + interior: %d hull vertices", m);
  if (m == 8) {
    qsort(idx, 8, sizeof(int), cmp_int);
    for (int c = 0; c < 8; c++) CHECK(idx[c] == corner_at[c]);
  }

  /* points on a sphere: every one is a hull vertex */
  enum { NS = 400 };
  static double sp[3 * NS];
  int sidx[NS];
  for (int i = 0; i < NS; i++) {
    double v[3] = {cs_test_gauss(), cs_test_gauss(), cs_test_gauss()};
    csi_normalize3(v);
    csi_copy3(sp + 3 * i, v);
  }
  m = csi_convex_hull(sp, NS, 1e-9, sidx);
  CHECK_MSG(m == NS, "sphere: %d of %d kept", m, NS);

  /* a cube as 12 triangles: 36 vertices, each corner repeated */
  static const int tri[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                                 {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
  double cube[24], soup[108];
  double h[3] = {0.5, 0.25, 1.5};
  box_verts(h, cube);
  for (int t = 0; t < 12; t++)
    for (int j = 0; j < 3; j++) csi_copy3(soup + 9 * t + 3 * j, cube + 3 * tri[t][j]);
  int tidx[36];
  m = csi_convex_hull(soup, 36, 1e-9, tidx);
  CHECK_MSG(m == 8, "triangle soup cube: %d", m);
  if (m == 8) { /* 8 distinct corners */
    int seen = 0;
    for (int i = 0; i < 8; i++)
      for (int c = 0; c < 8; c++)
        if (ndiff(soup + 3 * tidx[i], cube + 3 * c) == 0) seen |= 1 << c;
    CHECK(seen == 255);
  }

  /* a finely tessellated box: a 9 x 9 grid on every face (edges and corners repeated) */
  enum { G = 9 };
  static double tess[6 * G * G * 3];
  int ntess = 0;
  for (int ax = 0; ax < 3; ax++)
    for (int sg = -1; sg <= 1; sg += 2)
      for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++) {
          double p[3];
          p[ax] = sg * h[ax];
          p[(ax + 1) % 3] = h[(ax + 1) % 3] * (-1 + 2.0 * i / (G - 1));
          p[(ax + 2) % 3] = h[(ax + 2) % 3] * (-1 + 2.0 * j / (G - 1));
          csi_copy3(tess + 3 * ntess++, p);
        }
  int* tsi = (int*)malloc(sizeof(int) * (size_t)ntess);
  m = csi_convex_hull(tess, ntess, 1e-9, tsi);
  CHECK_MSG(m == 8, "tessellated box: %d", m);
  for (int i = 0; i < (m > 0 ? m : 0); i++) {
    const double* p = tess + 3 * tsi[i];
    CHECK(fabs(fabs(p[0]) - h[0]) + fabs(fabs(p[1]) - h[1]) + fabs(fabs(p[2]) - h[2]) == 0);
  }
  /* the same, rotated and shuffled: still the 8 corners */
  {
    double q[4], R[9];
    cs_test_random_quat(q);
    csi_quat2mat(R, q);
    for (int i = 0; i < ntess; i++) {
      double r[3];
      csi_mulmat3vec(r, R, tess + 3 * i);
      csi_copy3(tess + 3 * i, r);
    }
    for (int i = ntess - 1; i > 0; i--) {
      int j = (int)cs_test_uniform(0, i + 1);
      if (j > i) j = i;
      for (int k = 0; k < 3; k++) {
        double t = tess[3 * i + k];
        tess[3 * i + k] = tess[3 * j + k], tess[3 * j + k] = t;
      }
    }
    m = csi_convex_hull(tess, ntess, 1e-9, tsi);
    CHECK_MSG(m == 8, "rotated tessellated box: %d", m);
  }
  free(tsi);

  /* degenerate inputs: fewer than 4, a point, a line, a plane (with noise below tol) */
  int di[64];
  double few[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  CHECK(csi_convex_hull(few, 3, 1e-9, di) == -1);
  double flat[3 * 64], line[3 * 64], same[3 * 64];
  double e1[3] = {0.3, -0.4, 0.2}, e2[3] = {0.1, 0.7, 0.5}, nn[3];
  csi_cross3(nn, e1, e2);
  csi_normalize3(nn);
  for (int i = 0; i < 64; i++) {
    double s = cs_test_uniform(-2, 2), t = cs_test_uniform(-2, 2), z = cs_test_uniform(-1, 1);
    for (int k = 0; k < 3; k++) {
      flat[3 * i + k] = 1 + s * e1[k] + t * e2[k] + 1e-11 * z * nn[k];
      line[3 * i + k] = -2 + s * e1[k] + 1e-11 * z * nn[k];
      same[3 * i + k] = 0.5 + 1e-11 * z;
    }
  }
  CHECK(csi_convex_hull(flat, 64, 1e-9, di) == -1);
  CHECK(csi_convex_hull(line, 64, 1e-9, di) == -1);
  CHECK(csi_convex_hull(same, 64, 1e-9, di) == -1);
  /* but the flat set with one point lifted above tol has volume */
  flat[3 * 10 + 2] += 1e-3;
  CHECK(csi_convex_hull(flat, 64, 1e-9, di) >= 4);
}

/* ------------------------------------------------------------------------ closed forms */

static void test_sphere_sphere(void) {
  cs_test_seed(21);
  int checked = 0;
  double emax = 0, enmax = 0;
  for (int it = 0; it < 500; it++) {
    double pa[3], pb[3], qa[4], qb[4];
    rand_pose_pair(0.7, pa, pb, qa, qb);
    double ra = cs_test_uniform(0.1, 1), rb = cs_test_uniform(0.1, 1), margin = 0.05;
    csiCollGeom a, b;
    geom_set(&a, CS_GEOM_SPHERE, ra, 0, 0, pa, qa);
    geom_set(&b, CS_GEOM_SPHERE, rb, 0, 0, pb, qb);
    double d = ndiff(pb, pa), dist = d - ra - rb, n[3];
    csi_sub3(n, pb, pa);
    csi_scl3(n, n, 1 / d);
    csContact c[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_convex(&a, &b, margin, c);
    if (dist > margin + 1e-9 || d < 1e-6) {
      if (dist > margin + 1e-9) CHECK(nc == 0);
      continue;
    }
    CHECK_MSG(nc == 1, "sphere-sphere: %d contacts", nc);
    if (nc < 1) continue;
    checked++;
    emax = fmax(emax, fabs(c[0].dist - dist));
    enmax = fmax(enmax, ndiff(c[0].frame, n));
    /* midway between the surfaces */
    double mid[3];
    for (int k = 0; k < 3; k++) mid[k] = 0.5 * (pa[k] + ra * n[k] + pb[k] - rb * n[k]);
    CHECK_NEAR(ndiff(c[0].pos, mid), 0, 1e-9);
  }
  CHECK(checked > 200);
  CHECK_NEAR(emax, 0, 1e-12);
  CHECK_NEAR(enmax, 0, 1e-12);
  printf("sphere-sphere: %d poses, max |dist err| %.3g, max |n err| %.3g\n", checked, emax, enmax);
}

/* sphere (a) vs box (b): signed distance, normal from the sphere into the box, and
   whether the normal is unique (inside: the nearest face clearly nearest) */
static double ref_sphere_box(const csiCollGeom* s, const csiCollGeom* b, double n[3], int* unique) {
  double r[3], c[3];
  csi_sub3(r, s->pos, b->pos);
  csi_mulmat3tvec(c, b->mat, r);
  double q[3];
  int inside = 1;
  for (int k = 0; k < 3; k++) {
    q[k] = fmax(-b->size[k], fmin(b->size[k], c[k]));
    if (fabs(c[k]) > b->size[k]) inside = 0;
  }
  *unique = 1;
  if (!inside) {
    double dl[3];
    csi_sub3(dl, q, c);
    double d = csi_norm3(dl);
    csi_scl3(dl, dl, 1 / d);
    csi_mulmat3vec(n, b->mat, dl);
    *unique = d > 1e-6;
    return d - s->size[0];
  }
  int kb = 0;
  double best = INFINITY, second = INFINITY;
  for (int k = 0; k < 3; k++) {
    double g = b->size[k] - fabs(c[k]);
    if (g < best)
      second = best, best = g, kb = k;
    else if (g < second)
      second = g;
  }
  *unique = second - best > 1e-6;
  double e[3] = {0, 0, 0};
  e[kb] = c[kb] >= 0 ? -1 : 1; /* the box leaves through its face nearest the centre */
  csi_mulmat3vec(n, b->mat, e);
  return -(best + s->size[0]);
}

static void test_sphere_box(void) {
  cs_test_seed(22);
  int checked = 0;
  double emax = 0, enmax = 0;
  for (int it = 0; it < 1000; it++) {
    double ps[3], pb[3], qa[4], qb[4];
    for (int k = 0; k < 3; k++) ps[k] = cs_test_uniform(-1.2, 1.2), pb[k] = 0;
    cs_test_random_quat(qa);
    cs_test_random_quat(qb);
    csiCollGeom a, b;
    geom_set(&a, CS_GEOM_SPHERE, cs_test_uniform(0.05, 0.5), 0, 0, ps, qa);
    geom_set(&b, CS_GEOM_BOX, cs_test_uniform(0.1, 1), cs_test_uniform(0.1, 1),
             cs_test_uniform(0.1, 1), pb, qb);
    double n[3];
    int unique;
    double dist = ref_sphere_box(&a, &b, n, &unique), margin = 0.02;
    csContact c[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_convex(&a, &b, margin, c);
    if (dist > margin + 1e-9) {
      CHECK(nc == 0);
      continue;
    }
    CHECK_MSG(nc == 1, "sphere-box: %d contacts", nc);
    if (nc < 1) continue;
    checked++;
    emax = fmax(emax, fabs(c[0].dist - dist));
    if (unique) enmax = fmax(enmax, ndiff(c[0].frame, n));
  }
  CHECK(checked > 300);
  CHECK_NEAR(emax, 0, 1e-10);
  CHECK_NEAR(enmax, 0, 1e-9);
  printf("sphere-box: %d poses, max |dist err| %.3g, max |n err| %.3g\n", checked, emax, enmax);
}

/* random penetrating box pair */
static void rand_box_pair(csiCollGeom* a, csiCollGeom* b, double rmax) {
  double p0[3] = {0, 0, 0}, p1[3], qa[4], qb[4], dir[3];
  for (int k = 0; k < 3; k++) dir[k] = cs_test_gauss();
  csi_normalize3(dir);
  csi_scl3(p1, dir, cs_test_uniform(0, rmax));
  for (int k = 0; k < 3; k++) p0[k] = cs_test_uniform(-0.1, 0.1), p1[k] += p0[k];
  cs_test_random_quat(qa);
  cs_test_random_quat(qb);
  geom_set(a, CS_GEOM_BOX, cs_test_uniform(0.1, 1), cs_test_uniform(0.1, 1),
           cs_test_uniform(0.1, 1), p0, qa);
  geom_set(b, CS_GEOM_BOX, cs_test_uniform(0.1, 1), cs_test_uniform(0.1, 1),
           cs_test_uniform(0.1, 1), p1, qb);
}

static void test_box_box(void) {
  cs_test_seed(23);
  int checked = 0, nchecked = 0;
  double e_ref = 0, en_ref = 0, e_mesh = 0, en_mesh = 0;
  for (int it = 0; it < 1000; it++) {
    csiCollGeom a, b, bm;
    rand_box_pair(&a, &b, 1.6);
    double n[3], gap;
    double dist = sat_box_box(&a, &b, n, &gap);
    if (dist >= -1e-6) continue;
    double qb[4], v[24];
    csi_mat2quat(qb, b.mat);
    box_verts(b.size, v);
    mesh_set(&bm, v, 8, b.pos, qb);
    csi_copy3(bm.pos, b.pos);
    memcpy(bm.mat, b.mat, sizeof b.mat); /* exactly the same rotation as the box */
    csContact c[CSI_MAX_PAIR_CONTACTS], cm[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_convex(&a, &b, 0, c);
    int nm = csi_collide_convex(&a, &bm, 0, cm);
    CHECK(nc >= 1 && nc <= 4);
    CHECK(nm >= 1 && nm <= 4);
    if (nc < 1 || nm < 1) continue;
    checked++;
    int kc = deepest(c, nc), km = deepest(cm, nm);
    e_ref = fmax(e_ref, fabs(c[kc].dist - dist));
    e_mesh = fmax(e_mesh, fabs(c[kc].dist - cm[km].dist));
    /* every contact shares the normal; no contact deeper than the boxes overlap */
    for (int i = 0; i < nc; i++) {
      CHECK(ndiff(c[i].frame, c[kc].frame) == 0);
      CHECK(c[i].dist >= dist - 1e-9);
    }
    if (gap > 1e-6) {
      nchecked++;
      en_ref = fmax(en_ref, ndiff(c[kc].frame, n));
      en_mesh = fmax(en_mesh, ndiff(c[kc].frame, cm[km].frame));
    }
  }
  CHECK(checked > 500);
  CHECK_NEAR(e_ref, 0, 1e-9);
  CHECK_NEAR(en_ref, 0, 1e-9);
  CHECK_NEAR(e_mesh, 0, 1e-9);
  CHECK_NEAR(en_mesh, 0, 1e-9);
  printf("box-box vs SAT: %d poses (%d unique normal): max |depth err| %.3g, |n err| %.3g\n",
         checked, nchecked, e_ref, en_ref);
  printf("box-as-mesh vs box: max |depth diff| %.3g, |n diff| %.3g\n", e_mesh, en_mesh);
}

/* separated boxes within the margin: the signed distance is the true distance */
static void test_separation(void) {
  double q0[4] = {1, 0, 0, 0}, q1[4], ax[3] = {0.3, -0.2, 0.9};
  csi_normalize3(ax);
  csi_axisangle2quat(q1, ax, 0.7);
  double p0[3] = {0, 0, 0}, p1[3] = {0, 0, 0};
  csiCollGeom a, b;
  geom_set(&a, CS_GEOM_BOX, 1, 1, 0.5, p0, q0);
  geom_set(&b, CS_GEOM_BOX, 0.3, 0.2, 0.4, p1, q1);
  /* lowest point of b: its support along -z */
  double lo = 0;
  for (int k = 0; k < 3; k++) lo += fabs(b.mat[6 + k]) * b.size[k];
  for (int s = 0; s < 3; s++) {
    double gap = s == 0 ? 0.004 : s == 1 ? 0.009 : 0.011;
    b.pos[2] = 0.5 + lo + gap;
    csContact c[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_convex(&a, &b, 0.01, c);
    if (gap > 0.01) {
      CHECK(nc == 0);
      continue;
    }
    CHECK(nc == 1);
    if (nc < 1) continue;
    CHECK_NEAR(c[0].dist, gap, 1e-12);
    CHECK_NEAR(c[0].frame[2], 1, 1e-12);
    CHECK_NEAR(c[0].pos[2], 0.5 + 0.5 * gap, 1e-12);
  }
}

static void test_capsule_capsule(void) {
  cs_test_seed(24);
  int checked = 0;
  double emax = 0, enmax = 0;
  for (int it = 0; it < 1000; it++) {
    double pa[3], pb[3], qa[4], qb[4];
    rand_pose_pair(0.5, pa, pb, qa, qb);
    csiCollGeom a, b;
    geom_set(&a, CS_GEOM_CAPSULE, cs_test_uniform(0.05, 0.3), cs_test_uniform(0.1, 0.6), 0, pa, qa);
    geom_set(&b, CS_GEOM_CAPSULE, cs_test_uniform(0.05, 0.3), cs_test_uniform(0.1, 0.6), 0, pb, qb);
    double s1[3], d1[3], s2[3], d2[3], za[3], zb[3];
    za[0] = a.mat[2], za[1] = a.mat[5], za[2] = a.mat[8];
    zb[0] = b.mat[2], zb[1] = b.mat[5], zb[2] = b.mat[8];
    for (int k = 0; k < 3; k++) {
      s1[k] = pa[k] - a.size[1] * za[k], d1[k] = 2 * a.size[1] * za[k];
      s2[k] = pb[k] - b.size[1] * zb[k], d2[k] = 2 * b.size[1] * zb[k];
    }
    double c1[3], c2[3];
    double d = seg_seg(s1, d1, s2, d2, c1, c2);
    double dist = d - a.size[0] - b.size[0], margin = 0.03;
    csContact c[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_convex(&a, &b, margin, c);
    if (dist > margin + 1e-9) {
      CHECK(nc == 0);
      continue;
    }
    if (d < 1e-6) continue; /* crossing axes: normal not defined by the distance */
    CHECK(nc >= 1 && nc <= 2);
    if (nc < 1) continue;
    checked++;
    int k = deepest(c, nc);
    double n[3];
    csi_sub3(n, c2, c1);
    csi_scl3(n, n, 1 / d);
    emax = fmax(emax, fabs(c[k].dist - dist));
    enmax = fmax(enmax, ndiff(c[k].frame, n));
  }
  CHECK(checked > 200);
  CHECK_NEAR(emax, 0, 1e-10);
  CHECK_NEAR(enmax, 0, 1e-8);
  printf("capsule-capsule: %d poses, max |dist err| %.3g, max |n err| %.3g\n", checked, emax,
         enmax);
}

/* Acceptance: convex-convex (GJK/EPA) agrees with the analytic box-box and sphere-box of
   cs_collision_primitive.c on 1,000 random penetrating poses each: depth always, normal
   where the deepest feature is unique (by the reference's own second-best margin). */
static void test_vs_primitive(void) {
  cs_test_seed(25);
  int nbb = 0, nbn = 0, nsb = 0, nsn = 0, tries = 0;
  double ebd = 0, ebn = 0, esd = 0, esn = 0;
  while (nbb < 1000 && tries++ < 100000) {
    csiCollGeom a, b;
    rand_box_pair(&a, &b, 1.6);
    double n[3], gap;
    if (sat_box_box(&a, &b, n, &gap) >= -1e-6) continue;
    csContact cv[CSI_MAX_PAIR_CONTACTS], ca[CSI_MAX_PAIR_CONTACTS];
    int nv = csi_collide_convex(&a, &b, 0, cv), na = csi_collide_box_box(&a, &b, 0, ca);
    CHECK(nv >= 1 && na >= 1);
    if (nv < 1 || na < 1) continue;
    nbb++;
    int kv = deepest(cv, nv), ka = deepest(ca, na);
    ebd = fmax(ebd, fabs(cv[kv].dist - ca[ka].dist));
    if (gap > 1e-6) {
      nbn++;
      ebn = fmax(ebn, ndiff(cv[kv].frame, ca[ka].frame));
    }
  }
  tries = 0;
  while (nsb < 1000 && tries++ < 100000) {
    double ps[3], pb[3] = {0, 0, 0}, qa[4], qb[4];
    for (int k = 0; k < 3; k++) ps[k] = cs_test_uniform(-1, 1);
    cs_test_random_quat(qa);
    cs_test_random_quat(qb);
    csiCollGeom a, b;
    geom_set(&a, CS_GEOM_SPHERE, cs_test_uniform(0.05, 0.5), 0, 0, ps, qa);
    geom_set(&b, CS_GEOM_BOX, cs_test_uniform(0.1, 1), cs_test_uniform(0.1, 1),
             cs_test_uniform(0.1, 1), pb, qb);
    double n[3];
    int unique;
    if (ref_sphere_box(&a, &b, n, &unique) >= -1e-6) continue;
    csContact cv[CSI_MAX_PAIR_CONTACTS], ca[CSI_MAX_PAIR_CONTACTS];
    int nv = csi_collide_convex(&a, &b, 0, cv), na = csi_collide_sphere_box(&a, &b, 0, ca);
    CHECK(nv == 1 && na >= 1);
    if (nv < 1 || na < 1) continue;
    nsb++;
    int ka = deepest(ca, na);
    esd = fmax(esd, fabs(cv[0].dist - ca[ka].dist));
    if (unique) {
      nsn++;
      esn = fmax(esn, ndiff(cv[0].frame, ca[ka].frame));
    }
  }
  CHECK(nbb == 1000 && nsb == 1000);
  CHECK_NEAR(ebd, 0, 1e-9);
  CHECK_NEAR(ebn, 0, 1e-9);
  CHECK_NEAR(esd, 0, 1e-9);
  CHECK_NEAR(esn, 0, 1e-9);
  printf(
      "convex vs csi_collide_box_box: %d poses, max |depth diff| %.3g; %d unique: max |n diff| "
      "%.3g\n",
      nbb, ebd, nbn, ebn);
  printf(
      "convex vs csi_collide_sphere_box: %d poses, max |depth diff| %.3g; %d unique: max |n "
      "diff| %.3g\n",
      nsb, esd, nsn, esn);
}

/* ------------------------------------------------------------------------ manifolds */

/* A cube (box or mesh, b) resting with `pen` penetration on the top face of a larger box
   (a); the whole scene rotated by R and the cube yawed; expects 4 contacts at the cube's
   bottom corners. */
static void resting_case(int cube_is_mesh, int ground_is_mesh, double pen) {
  double q[4], R[9];
  cs_test_random_quat(q);
  csi_quat2mat(R, q);
  double hg[3] = {2, 1.5, 0.5}, hc[3] = {0.3, 0.25, 0.2};
  double pg_l[3] = {0, 0, 0};
  double pc_l[3] = {cs_test_uniform(-1, 1), cs_test_uniform(-0.8, 0.8), hg[2] + hc[2] - pen};
  double yaw = cs_test_uniform(-3.14159, 3.14159), zax[3] = {0, 0, 1}, qy[4], qc[4];
  csi_axisangle2quat(qy, zax, yaw);
  csi_quat_mul(qc, q, qy);
  double pg[3], pc[3];
  csi_mulmat3vec(pg, R, pg_l);
  csi_mulmat3vec(pc, R, pc_l);
  double vg[24], vc[24];
  box_verts(hg, vg);
  box_verts(hc, vc);
  csiCollGeom a, b;
  if (ground_is_mesh)
    mesh_set(&a, vg, 8, pg, q);
  else
    geom_set(&a, CS_GEOM_BOX, hg[0], hg[1], hg[2], pg, q);
  if (cube_is_mesh)
    mesh_set(&b, vc, 8, pc, qc);
  else
    geom_set(&b, CS_GEOM_BOX, hc[0], hc[1], hc[2], pc, qc);
  csContact c[CSI_MAX_PAIR_CONTACTS];
  int nc = csi_collide_convex(&a, &b, 0, c);
  CHECK_MSG(nc == 4, "resting (mesh %d/%d): %d contacts", cube_is_mesh, ground_is_mesh, nc);
  double up[3] = {R[2], R[5], R[8]};
  int corners = 0;
  for (int i = 0; i < nc; i++) {
    CHECK_NEAR(c[i].dist, -pen, 1e-8);
    CHECK_NEAR(ndiff(c[i].frame, up), 0, 1e-9);
    /* the nearest bottom corner of the cube, and the midway point above it */
    double bestd = INFINITY;
    int bestc = -1;
    for (int k = 0; k < 8; k++) {
      if (k & 4) continue;
      double p[3];
      csi_mulmat3vec(p, b.mat, vc + 3 * k);
      csi_add3(p, p, b.pos);
      csi_addscl3(p, up, 0.5 * pen);
      double d = ndiff(p, c[i].pos);
      if (d < bestd) bestd = d, bestc = k;
    }
    CHECK_NEAR(bestd, 0, 1e-8);
    if (bestd < 1e-8) corners |= 1 << bestc;
    for (int j = 0; j < i; j++) CHECK(c[i].feature != c[j].feature);
  }
  CHECK(corners == 0x0f);
}

static void test_resting(void) {
  cs_test_seed(31);
  for (int it = 0; it < 50; it++) {
    resting_case(0, 0, 1e-4);
    resting_case(1, 0, 1e-4);
    resting_case(1, 1, 1e-4);
  }
  /* the feature ids stay put while the cube slides a little */
  double q[4] = {1, 0, 0, 0}, zax[3] = {0, 0, 1}, qc[4];
  csi_axisangle2quat(qc, zax, 0.3);
  double pg[3] = {0, 0, 0}, pc[3] = {0.1, 0, 0.5 + 0.2 - 1e-4};
  csiCollGeom a, b;
  geom_set(&a, CS_GEOM_BOX, 2, 2, 0.5, pg, q);
  geom_set(&b, CS_GEOM_BOX, 0.2, 0.2, 0.2, pc, qc);
  csContact c0[CSI_MAX_PAIR_CONTACTS], c1[CSI_MAX_PAIR_CONTACTS];
  int n0 = csi_collide_convex(&a, &b, 0, c0);
  b.pos[0] += 0.01, b.pos[1] -= 0.02;
  int n1 = csi_collide_convex(&a, &b, 0, c1);
  CHECK(n0 == 4 && n1 == 4);
  for (int i = 0; i < n0 && i < n1; i++) {
    int found = 0;
    for (int j = 0; j < n1; j++)
      if (c1[j].feature == c0[i].feature) {
        found = 1;
        CHECK_NEAR(c1[j].pos[0] - c0[i].pos[0], 0.01, 1e-9);
      }
    CHECK(found);
  }
}

/* Small tilt: the cube's bottom face is within the feature band, so all 4 corners come out
   (margin 1 mm), each with its own exact signed height above the ground face. */
static void test_tilted(void) {
  cs_test_seed(32);
  for (int it = 0; it < 20; it++) {
    double q[4] = {1, 0, 0, 0}, ax[3] = {cs_test_gauss(), cs_test_gauss(), 0}, qc[4], qy[4];
    double zax[3] = {0, 0, 1};
    csi_normalize3(ax);
    csi_axisangle2quat(qc, ax, 2e-4);
    csi_axisangle2quat(qy, zax, cs_test_uniform(-3, 3));
    csi_quat_mul(qc, qc, qy);
    double pg[3] = {0, 0, 0}, hc[3] = {0.3, 0.25, 0.2}, pc[3] = {0.2, -0.1, 0};
    csiCollGeom a, b;
    geom_set(&a, CS_GEOM_BOX, 2, 2, 0.5, pg, q);
    geom_set(&b, CS_GEOM_BOX, hc[0], hc[1], hc[2], pc, qc);
    double v[24], low = INFINITY, z[8];
    box_verts(hc, v);
    for (int k = 0; k < 8; k++) {
      double p[3];
      csi_mulmat3vec(p, b.mat, v + 3 * k);
      z[k] = p[2];
      low = fmin(low, p[2]);
    }
    b.pos[2] = 0.5 - low - 1e-4; /* deepest corner 1e-4 into the ground */
    csContact c[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_convex(&a, &b, 1e-3, c);
    CHECK_MSG(nc == 4, "tilted cube: %d", nc);
    double dmin = INFINITY;
    for (int i = 0; i < nc; i++) {
      double best = INFINITY, want = 0;
      for (int k = 0; k < 8; k++) {
        double p[3];
        csi_mulmat3vec(p, b.mat, v + 3 * k);
        csi_add3(p, p, b.pos);
        double dxy = hypot(p[0] - c[i].pos[0], p[1] - c[i].pos[1]);
        if (dxy < best) best = dxy, want = z[k] + b.pos[2] - 0.5;
      }
      CHECK_NEAR(best, 0, 1e-9);
      CHECK_NEAR(c[i].dist, want, 1e-12);
      CHECK_NEAR(c[i].frame[2], 1, 1e-12);
      dmin = fmin(dmin, c[i].dist);
    }
    CHECK_NEAR(dmin, -1e-4, 1e-12);
  }
}

/* A 64-gon prism mesh standing on a box: more coplanar vertices than a feature keeps, so
   the extreme ones are taken; 4 well spread contacts. A cube on one edge: 2 contacts. */
static void test_many_vertex_face(void) {
  enum { NG = 64 };
  static double v[2 * NG * 3];
  double r = 0.3, hh = 0.2, pen = 1e-4;
  for (int i = 0; i < NG; i++)
    for (int s = 0; s < 2; s++) {
      double an = 6.283185307179586 * (i + 0.37) / NG;
      double* p = v + 3 * (2 * i + s);
      p[0] = r * cos(an), p[1] = r * sin(an), p[2] = s ? hh : -hh;
    }
  double q[4] = {1, 0, 0, 0}, pg[3] = {0, 0, 0}, pm[3] = {0.1, 0.2, 0.5 + hh - pen};
  csiCollGeom a, b;
  geom_set(&a, CS_GEOM_BOX, 2, 2, 0.5, pg, q);
  mesh_set(&b, v, 2 * NG, pm, q);
  csContact c[CSI_MAX_PAIR_CONTACTS];
  int nc = csi_collide_convex(&a, &b, 0, c);
  CHECK_MSG(nc == 4, "prism: %d", nc);
  for (int i = 0; i < nc; i++) {
    CHECK_NEAR(c[i].dist, -pen, 1e-12);
    CHECK_NEAR(hypot(c[i].pos[0] - pm[0], c[i].pos[1] - pm[1]), r, 1e-9);
  }
  if (nc == 4) { /* quadrilateral area (shoelace on the angular order) vs the square 2 r^2 */
    double ang[4];
    int o[4] = {0, 1, 2, 3};
    for (int i = 0; i < 4; i++) ang[i] = atan2(c[i].pos[1] - pm[1], c[i].pos[0] - pm[0]);
    for (int i = 1; i < 4; i++)
      for (int j = i; j > 0 && ang[o[j - 1]] > ang[o[j]]; j--) {
        int t = o[j];
        o[j] = o[j - 1], o[j - 1] = t;
      }
    double area = 0;
    for (int i = 0; i < 4; i++) {
      const double *p = c[o[i]].pos, *s = c[o[(i + 1) % 4]].pos;
      area += 0.5 * (p[0] * s[1] - p[1] * s[0]);
    }
    CHECK_MSG(area > 0.9 * 2 * r * r, "prism contact area %g", area);
  }
  /* cube resting on an edge */
  double xax[3] = {1, 0, 0}, qe[4], h = 0.2;
  csi_axisangle2quat(qe, xax, 0.7853981633974483);
  double pe[3] = {0, 0, 0.5 + h * sqrt(2.0) - pen};
  geom_set(&b, CS_GEOM_BOX, h, h, h, pe, qe);
  nc = csi_collide_convex(&a, &b, 0, c);
  CHECK_MSG(nc == 2, "edge-down cube: %d", nc);
  for (int i = 0; i < nc; i++) {
    CHECK_NEAR(c[i].dist, -pen, 1e-12);
    CHECK_NEAR(fabs(c[i].pos[0]), h, 1e-9);
    CHECK_NEAR(c[i].pos[1], 0, 1e-9);
  }
}

/* Random convex meshes (hulls of random points) against a brute-force separating-axis
   depth over every vertex-triple normal and edge-pair cross product. */
static double hsup(const double* w, int n, const double u[3]) {
  double m = -INFINITY;
  for (int i = 0; i < n; i++) m = fmax(m, csi_dot3(u, w + 3 * i));
  return m;
}

static double brute_depth(const double* wa, int na, const double* wb, int nb) {
  double best = INFINITY, u[3], nu[3], e1[3], e2[3];
  for (int pass = 0; pass < 3; pass++) {
    int n1 = pass == 1 ? nb : na, n2 = pass == 0 ? na : nb;
    const double *w1 = pass == 1 ? wb : wa, *w2 = pass == 0 ? wa : wb;
    for (int i = 0; i < n1; i++)
      for (int j = pass == 2 ? i + 1 : i + 1; j < n1; j++)
        for (int k = pass == 2 ? 0 : j + 1; k < n2; k++)
          for (int l = pass == 2 ? k + 1 : n2 - 1; l < n2; l++) {
            csi_sub3(e1, w1 + 3 * j, w1 + 3 * i);
            if (pass == 2)
              csi_sub3(e2, w2 + 3 * l, w2 + 3 * k);
            else
              csi_sub3(e2, w2 + 3 * k, w1 + 3 * i);
            csi_cross3(u, e1, e2);
            if (csi_normalize3(u) < 1e-9) continue;
            for (int sg = 0; sg < 2; sg++) {
              csi_scl3(nu, u, -1);
              best = fmin(best, hsup(wa, na, u) + hsup(wb, nb, nu));
              csi_copy3(u, nu);
            }
          }
  }
  return best;
}

static void test_mesh_mesh(void) {
  cs_test_seed(33);
  int checked = 0;
  double emax = 0;
  for (int it = 0; it < 400; it++) {
    double pa_[30], pb_[30], va[30], vb[30], wa[30], wb[30];
    int ia[10], ib[10], n1 = 5 + it % 6, n2 = 5 + (it / 6) % 6;
    for (int i = 0; i < 3 * n1; i++) pa_[i] = 0.5 * cs_test_gauss();
    for (int i = 0; i < 3 * n2; i++) pb_[i] = 0.3 * cs_test_gauss();
    int ha = csi_convex_hull(pa_, n1, 1e-9, ia), hb = csi_convex_hull(pb_, n2, 1e-9, ib);
    if (ha < 4 || hb < 4) continue;
    for (int i = 0; i < ha; i++) csi_copy3(va + 3 * i, pa_ + 3 * ia[i]);
    for (int i = 0; i < hb; i++) csi_copy3(vb + 3 * i, pb_ + 3 * ib[i]);
    double qa[4], qb[4], p0[3] = {0, 0, 0}, p1[3];
    cs_test_random_quat(qa);
    cs_test_random_quat(qb);
    for (int k = 0; k < 3; k++) p1[k] = cs_test_uniform(-0.8, 0.8);
    csiCollGeom a, b;
    mesh_set(&a, va, ha, p0, qa);
    mesh_set(&b, vb, hb, p1, qb);
    for (int i = 0; i < ha; i++) {
      csi_mulmat3vec(wa + 3 * i, a.mat, va + 3 * i);
      csi_add3(wa + 3 * i, wa + 3 * i, a.pos);
    }
    for (int i = 0; i < hb; i++) {
      csi_mulmat3vec(wb + 3 * i, b.mat, vb + 3 * i);
      csi_add3(wb + 3 * i, wb + 3 * i, b.pos);
    }
    double ref = brute_depth(wa, ha, wb, hb);
    if (ref < 1e-6) continue;
    csContact c[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_convex(&a, &b, 0, c);
    CHECK(nc >= 1);
    if (nc < 1) continue;
    checked++;
    emax = fmax(emax, fabs(c[deepest(c, nc)].dist + ref));
  }
  CHECK(checked > 150);
  CHECK_NEAR(emax, 0, 1e-9);
  printf("mesh-mesh vs brute-force SAT: %d poses, max |depth err| %.3g\n", checked, emax);
}

/* curved cores: a cylinder standing and lying on a box; a capsule lying on a box */
static void test_curved_resting(void) {
  double q[4] = {1, 0, 0, 0}, pg[3] = {0, 0, 0};
  csiCollGeom a, b;
  geom_set(&a, CS_GEOM_BOX, 2, 2, 0.5, pg, q);
  double pen = 1e-4;
  csContact c[CSI_MAX_PAIR_CONTACTS];
  /* standing cylinder: its cap rim on the face */
  double pc[3] = {0.2, -0.1, 0.5 + 0.3 - pen};
  geom_set(&b, CS_GEOM_CYLINDER, 0.15, 0.3, 0, pc, q);
  /* type order puts the cylinder first */
  int nc = csi_collide_convex(&b, &a, 0, c);
  CHECK_MSG(nc >= 3 && nc <= 4, "standing cylinder: %d", nc);
  for (int i = 0; i < nc; i++) {
    CHECK_NEAR(c[i].dist, -pen, 1e-8);
    CHECK_NEAR(c[i].frame[2], -1, 1e-9);
    double rr = hypot(c[i].pos[0] - pc[0], c[i].pos[1] - pc[1]);
    CHECK(rr <= 0.15 + 1e-9 && rr >= 0.15 * cos(3.14159265 / 8) - 1e-9);
  }
  /* lying cylinder: a line contact, two points at its ends */
  double ql[4], xax[3] = {1, 0, 0};
  csi_axisangle2quat(ql, xax, 1.5707963267948966);
  double pl[3] = {0.1, 0.3, 0.5 + 0.15 - pen};
  geom_set(&b, CS_GEOM_CYLINDER, 0.15, 0.3, 0, pl, ql);
  nc = csi_collide_convex(&b, &a, 0, c);
  CHECK_MSG(nc == 2, "lying cylinder: %d", nc);
  for (int i = 0; i < nc; i++) {
    CHECK_NEAR(c[i].dist, -pen, 1e-7);
    CHECK_NEAR(fabs(c[i].pos[1] - pl[1]), 0.3, 1e-9);
  }
  /* lying capsule */
  double pk[3] = {-0.3, 0.2, 0.5 + 0.1 - pen};
  geom_set(&b, CS_GEOM_CAPSULE, 0.1, 0.4, 0, pk, ql);
  nc = csi_collide_convex(&b, &a, 0, c);
  CHECK_MSG(nc == 2, "lying capsule: %d", nc);
  for (int i = 0; i < nc; i++) {
    CHECK_NEAR(c[i].dist, -pen, 1e-10);
    CHECK_NEAR(fabs(c[i].pos[1] - pk[1]), 0.4, 1e-9);
    CHECK_NEAR(c[i].pos[2], 0.5 - 0.5 * pen, 1e-10);
  }
}

static void test_plane_mesh(void) {
  cs_test_seed(41);
  for (int it = 0; it < 50; it++) {
    double qp[4], R[9];
    cs_test_random_quat(qp);
    csi_quat2mat(R, qp);
    double pp[3] = {cs_test_uniform(-1, 1), cs_test_uniform(-1, 1), cs_test_uniform(-1, 1)};
    double up[3] = {R[2], R[5], R[8]}, pen = 1e-4, hc[3] = {0.3, 0.2, 0.25};
    double v[24];
    box_verts(hc, v);
    double yaw = cs_test_uniform(-3, 3), zax[3] = {0, 0, 1}, qy[4], qc[4];
    csi_axisangle2quat(qy, zax, yaw);
    csi_quat_mul(qc, qp, qy);
    double pc_l[3] = {cs_test_uniform(-2, 2), cs_test_uniform(-2, 2), hc[2] - pen}, pc[3];
    csi_mulmat3vec(pc, R, pc_l);
    csi_add3(pc, pc, pp);
    csiCollGeom a, b;
    geom_set(&a, CS_GEOM_PLANE, 0, 0, 0, pp, qp);
    mesh_set(&b, v, 8, pc, qc);
    csContact c[CSI_MAX_PAIR_CONTACTS];
    int nc = csi_collide_plane_mesh(&a, &b, 0, c);
    CHECK_MSG(nc == 4, "plane-mesh: %d", nc);
    int feats = 0;
    for (int i = 0; i < nc; i++) {
      CHECK_NEAR(c[i].dist, -pen, 1e-12);
      CHECK_NEAR(ndiff(c[i].frame, up), 0, 1e-15);
      CHECK(c[i].feature >= 0 && c[i].feature < 4); /* the bottom corners: bit 2 clear */
      if (c[i].feature >= 0 && c[i].feature < 8) feats |= 1 << c[i].feature;
      double p[3];
      csi_mulmat3vec(p, b.mat, v + 3 * c[i].feature);
      csi_add3(p, p, b.pos);
      csi_addscl3(p, up, 0.5 * pen);
      CHECK_NEAR(ndiff(p, c[i].pos), 0, 1e-12);
    }
    CHECK(feats == 0x0f);
    /* tilted 0.1 rad about a horizontal axis: one or two corners within a 1 cm margin */
    double xl[3] = {1, 0, 0}, qt[4], qn[4];
    csi_axisangle2quat(qt, xl, 0.1);
    csi_quat_mul(qn, qc, qt);
    csi_quat2mat(b.mat, qn);
    nc = csi_collide_plane_mesh(&a, &b, 0.01, c);
    CHECK(nc == 2);
  }
  /* a finely sampled sphere-ish mesh: many vertices within the margin, 4 kept, deepest
     first and spread out */
  enum { NV = 500 };
  static double sv[3 * NV];
  cs_test_seed(42);
  for (int i = 0; i < NV; i++) {
    double d[3] = {cs_test_gauss(), cs_test_gauss(), cs_test_gauss()};
    csi_normalize3(d);
    csi_scl3(sv + 3 * i, d, 0.5);
  }
  double q0[4] = {1, 0, 0, 0}, p0[3] = {0, 0, 0}, pb[3] = {0, 0, 0.45};
  csiCollGeom a, b;
  geom_set(&a, CS_GEOM_PLANE, 0, 0, 0, p0, q0);
  mesh_set(&b, sv, NV, pb, q0);
  csContact c[CSI_MAX_PAIR_CONTACTS];
  int nc = csi_collide_plane_mesh(&a, &b, 0, c);
  CHECK(nc == 4);
  double zmin = INFINITY;
  for (int i = 0; i < NV; i++) zmin = fmin(zmin, sv[3 * i + 2] + 0.45);
  if (nc > 0) CHECK_NEAR(c[0].dist, zmin, 1e-15);
}

/* no contact beyond the margin, contact within it; mesh without vertices is ignored */
static void test_misc(void) {
  double q[4] = {1, 0, 0, 0}, p0[3] = {0, 0, 0}, p1[3] = {0, 0, 1.0};
  csiCollGeom a, b;
  geom_set(&a, CS_GEOM_SPHERE, 0.5, 0, 0, p0, q);
  geom_set(&b, CS_GEOM_CYLINDER, 0.3, 0.4, 0, p1, q);
  csContact c[CSI_MAX_PAIR_CONTACTS];
  CHECK(csi_collide_convex(&a, &b, 0.05, c) == 0);
  int nc = csi_collide_convex(&a, &b, 0.2, c);
  CHECK(nc == 1);
  if (nc == 1) {
    CHECK_NEAR(c[0].dist, 0.1, 1e-9);
    CHECK_NEAR(c[0].frame[2], 1, 1e-9);
  }
  /* sphere sinking into the cylinder's cap and its side */
  b.pos[2] = 0.85;
  nc = csi_collide_convex(&a, &b, 0, c);
  CHECK(nc == 1);
  if (nc == 1) CHECK_NEAR(c[0].dist, -0.05, 1e-8);
  b.pos[2] = 0, b.pos[0] = 0.75;
  nc = csi_collide_convex(&a, &b, 0, c);
  CHECK(nc == 1);
  if (nc == 1) {
    CHECK_NEAR(c[0].dist, -0.05, 1e-8);
    CHECK_NEAR(c[0].frame[0], 1, 1e-8);
  }
  csiCollGeom m;
  mesh_set(&m, NULL, 0, p0, q);
  CHECK(csi_collide_convex(&a, &m, 1, c) == 0);
  csiCollGeom pl;
  geom_set(&pl, CS_GEOM_PLANE, 0, 0, 0, p0, q);
  CHECK(csi_collide_plane_mesh(&pl, &m, 1, c) == 0);
}

int main(void) {
  test_hull();
  test_sphere_sphere();
  test_sphere_box();
  test_box_box();
  test_separation();
  test_capsule_capsule();
  test_vs_primitive();
  test_resting();
  test_tilted();
  test_many_vertex_face();
  test_mesh_mesh();
  test_curved_resting();
  test_plane_mesh();
  test_misc();
  return cs_test_finish("test_collision_convex");
}
