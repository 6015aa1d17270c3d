/* The impact LCPs through the library's Lemke method (src/solvers/cs_lemke.h): the
   Anitescu-Potra simultaneous LCP, one discrete Routh step, and the sequential baseline
   (docs/impacts.md). The workspace: Lemke's for 5m unknowns, then vectors. */
#include <math.h>
#include <string.h>

#include "core/cs_error.h"
#include "impact/cs_impact.h"
#include "solvers/cs_lemke.h"

/* Vectors after Lemke's part: z, q, y (5m each), x (3m), v0, v1 (nv each). */
typedef struct ImpWs {
  void* lemke;
  double *z, *q, *y, *x, *v0, *v1;
} ImpWs;

static size_t lemke_part(const csImpact* p) {
  size_t b = csi_lemke_workspace(5 * (p->m > 0 ? p->m : 1));
  return (b + 15) / 16 * 16;
}

size_t cs_impact_workspace_bytes(const csImpact* p) {
  if (!p) return 0;
  size_t nd = 18 * (size_t)p->m + 2 * (size_t)p->nv + 8;
  return lemke_part(p) + nd * sizeof(double);
}

static ImpWs ws_layout(const csImpact* p, void* ws) {
  ImpWs w;
  int m = p->m;
  w.lemke = ws;
  w.z = (double*)((char*)ws + lemke_part(p));
  w.q = w.z + 5 * m, w.y = w.q + 5 * m, w.x = w.y + 5 * m;
  w.v0 = w.x + 3 * m, w.v1 = w.v0 + p->nv;
  return w;
}

void csi_imp_ws_vectors(const csImpact* p, void* ws, double** v0, double** v1, double** x) {
  ImpWs w = ws_layout(p, ws);
  *v0 = w.v0, *v1 = w.v1, *x = w.x;
}

csStatus csi_imp_lemke(int n, const double* W, const double* q, double* z, void* ws,
                       const char* what) {
  int st = csi_lemke(n, W, q, z, ws, 100 * n + 50);
  if (st == CSI_LEMKE_OK) return CS_OK;
  return csi_error(CS_ERR_NUMERIC, "%s: Lemke's method failed (%s) on an LCP of size %d", what,
                   st == CSI_LEMKE_RAY   ? "ray termination"
                   : st == CSI_LEMKE_CAP ? "pivot cap"
                                         : "bad data or a singular basis",
                   n);
}

double csi_imp_lcp_err(int n, const double* W, const double* q, const double* z, double* y) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    double s = q[i];
    for (int j = 0; j < n; j++) s += W[i * n + j] * z[j];
    y[i] = s;
    e = fmax(e, fmax(fmax(-s, -z[i]), fabs(z[i] * s)));
  }
  return e;
}

void csi_imp_apply(const csImpact* p, const double* v, const double* x, double* vplus) {
  int r = 3 * p->m;
  for (int k = 0; k < p->nv; k++) {
    double s = v[k];
    for (int j = 0; j < r; j++) s += p->MinvJT[k * r + j] * x[j];
    vplus[k] = s;
  }
}

static double dot(const double* a, const double* b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

double csi_imp_min_vn(const csImpact* p, const double* v) {
  double e = INFINITY;
  for (int i = 0; i < p->m; i++) e = fmin(e, dot(p->Jn + (size_t)i * p->nv, v, p->nv));
  return e;
}

double csi_imp_ke(const csImpact* p, const double* v) {
  double s = 0;
  for (int i = 0; i < p->nv; i++) s += v[i] * dot(p->M + (size_t)i * p->nv, v, p->nv);
  return 0.5 * s;
}

/* w = [J v; 0] of the Anitescu-Potra LCP into q (4m). */
static void ap_rhs(const csImpact* p, const double* v, double* q) {
  for (int i = 0; i < 3 * p->m; i++) q[i] = dot(p->J + (size_t)i * p->nv, v, p->nv);
  for (int i = 0; i < p->m; i++) q[3 * p->m + i] = 0;
}

csStatus cs_impact_simultaneous(const csImpact* p, const double* impulse, double* vplus, double* z,
                                void* ws) {
  if (!p || !vplus || !ws) return csi_error(CS_ERR_ARG, "cs_impact_simultaneous: NULL argument");
  ImpWs w = ws_layout(p, ws);
  memcpy(w.v0, p->v, sizeof(double) * (size_t)p->nv);
  if (impulse) /* v- + M^-1 impulse */
    for (int k = 0; k < p->nv; k++) w.v0[k] += dot(p->Minv + (size_t)k * p->nv, impulse, p->nv);
  if (p->m == 0) {
    memcpy(vplus, w.v0, sizeof(double) * (size_t)p->nv);
    return CS_OK;
  }
  int n = 4 * p->m;
  ap_rhs(p, w.v0, w.q);
  csStatus s = csi_imp_lemke(n, p->WA, w.q, w.z, w.lemke, "cs_impact_simultaneous");
  if (s) return s;
  csi_imp_apply(p, w.v0, w.z, vplus);
  if (z) memcpy(z, w.z, sizeof(double) * (size_t)n);
  return CS_OK;
}

csStatus cs_impact_routh_step(const csImpact* p, const double* v, const double* lmax, double* vplus,
                              double* z, double* err, void* ws) {
  if (!p || !v || !lmax || !vplus || !ws)
    return csi_error(CS_ERR_ARG, "cs_impact_routh_step: NULL argument");
  int m = p->m, n = 5 * m;
  if (m == 0) {
    memcpy(vplus, v, sizeof(double) * (size_t)p->nv);
    if (err) *err = 0;
    return CS_OK;
  }
  ImpWs w = ws_layout(p, ws);
  memcpy(w.q, lmax, sizeof(double) * (size_t)m);
  ap_rhs(p, v, w.q + m);
  csStatus s = csi_imp_lemke(n, p->WR, w.q, w.z, w.lemke, "Routh step LCP");
  if (s) return s;
  double e = csi_imp_lcp_err(n, p->WR, w.q, w.z, w.y);
  csi_imp_apply(p, v, w.z + m, vplus);
  if (z) memcpy(z, w.z, sizeof(double) * (size_t)n);
  if (err) *err = e;
  return CS_OK;
}

/* One contact's Anitescu-Potra LCP (4 unknowns) at v0; its impulse added into v1. */
static csStatus single_contact(const csImpact* p, int i, ImpWs* w) {
  int m = p->m, na = 4 * m, idx[4] = {i, m + 2 * i, m + 2 * i + 1, 3 * m + i};
  double W[16], q[4], full[CSI_IMP_MAXC * 4];
  ap_rhs(p, w->v0, full);
  for (int a = 0; a < 4; a++) {
    q[a] = full[idx[a]];
    for (int b = 0; b < 4; b++) W[a * 4 + b] = p->WA[idx[a] * na + idx[b]];
  }
  csStatus s = csi_imp_lemke(4, W, q, w->z, w->lemke, "cs_impact_sequential");
  if (s) return s;
  memset(w->x, 0, sizeof(double) * (size_t)(3 * m));
  for (int a = 0; a < 3; a++) w->x[idx[a]] = w->z[a];
  csi_imp_apply(p, w->v0, w->x, w->v1);
  memcpy(w->v0, w->v1, sizeof(double) * (size_t)p->nv);
  return CS_OK;
}

csStatus cs_impact_sequential(const csImpact* p, int start, double* vplus, int* nlcp, void* ws) {
  if (!p || !vplus || !ws) return csi_error(CS_ERR_ARG, "cs_impact_sequential: NULL argument");
  if (nlcp) *nlcp = 0;
  if (p->m > 0 && (start < 0 || start >= p->m))
    return csi_error(CS_ERR_ARG, "cs_impact_sequential: start %d not in [0, %d)", start, p->m);
  ImpWs w = ws_layout(p, ws);
  memcpy(w.v0, p->v, sizeof(double) * (size_t)p->nv);
  int count = 0;
  for (int round = 0; round < 10 && csi_imp_min_vn(p, w.v0) < -2.2e-6; round++)
    for (int j = 0; j < p->m && csi_imp_min_vn(p, w.v0) < -2.2e-6; j++) {
      csStatus s = single_contact(p, (start + j) % p->m, &w);
      if (s) return s;
      count++;
    }
  if (nlcp) *nlcp = count;
  memcpy(vplus, w.v0, sizeof(double) * (size_t)p->nv);
  if (csi_imp_min_vn(p, w.v0) < -2.2e-6)
    return csi_error(CS_ERR_NUMERIC, "cs_impact_sequential: still approaching after 10 rounds");
  return CS_OK;
}
