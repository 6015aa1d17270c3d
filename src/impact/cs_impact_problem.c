/* The impact problem at one state (cs_impact_new): planar kinematics of the model's links,
   the mass matrix, the active contacts' rows, and the LCP matrices of docs/impacts.md,
   formed once from the Cholesky factor of M. */
#include <math.h>
#include <string.h>

#include "core/cs_error.h"
#include "impact/cs_impact.h"

/* The chain of link l from the root: links into chain (returns its length). */
static int chain_of(const csImpactModel* m, int l, int* chain) {
  int n = 0;
  for (int k = l; k >= 0; k = m->link[k].parent) n++;
  int i = n;
  for (int k = l; k >= 0; k = m->link[k].parent) chain[--i] = k;
  return n;
}

/* Walks the chain of l: the world position of local point `at` and the Jacobian rows of
   that material point (Jx, Jy) and of the link's angle (Jt); any row may be NULL. */
static double walk(const csImpactModel* m, const double* q, int l, const double at[2], double p[2],
                   double* Jx, double* Jy, double* Jt) {
  int chain[CSI_IMP_MAXC], nj = 0, jtype[CSI_IMP_MAXC * CSI_IMP_MAXJ];
  int jdof[CSI_IMP_MAXC * CSI_IMP_MAXJ];
  double jvec[CSI_IMP_MAXC * CSI_IMP_MAXJ][2]; /* slide axis or rotation centre */
  int n = chain_of(m, l, chain);
  double th = 0, x = 0, y = 0;
  for (int c = 0; c < n; c++) {
    const csiImpLink* k = &m->link[chain[c]];
    double cs = cos(th), sn = sin(th);
    x += cs * k->off[0] - sn * k->off[1];
    y += sn * k->off[0] + cs * k->off[1];
    for (int j = 0; j < k->njoint; j++, nj++) {
      int d = k->jdof[j];
      cs = cos(th), sn = sin(th);
      jtype[nj] = k->jtype[j], jdof[nj] = d;
      if (k->jtype[j] == CSI_JOINT_RZ) {
        jvec[nj][0] = x, jvec[nj][1] = y;
        th += q[d];
        continue;
      }
      double ax = k->jtype[j] == CSI_JOINT_PX ? cs : -sn;
      double ay = k->jtype[j] == CSI_JOINT_PX ? sn : cs;
      jvec[nj][0] = ax, jvec[nj][1] = ay;
      x += q[d] * ax, y += q[d] * ay;
    }
  }
  p[0] = x + cos(th) * at[0] - sin(th) * at[1];
  p[1] = y + sin(th) * at[0] + cos(th) * at[1];
  size_t bytes = sizeof(double) * (size_t)m->nq;
  if (Jx) memset(Jx, 0, bytes);
  if (Jy) memset(Jy, 0, bytes);
  if (Jt) memset(Jt, 0, bytes);
  for (int j = 0; j < nj; j++) {
    int d = jdof[j];
    int rev = jtype[j] == CSI_JOINT_RZ;
    if (Jx) Jx[d] += rev ? -(p[1] - jvec[j][1]) : jvec[j][0];
    if (Jy) Jy[d] += rev ? p[0] - jvec[j][0] : jvec[j][1];
    if (Jt && rev) Jt[d] += 1;
  }
  return th;
}

void csi_imp_point(const csImpactModel* m, const double* q, int l, const double at[2], double p[2],
                   double* Jx, double* Jy) {
  walk(m, q, l, at, p, Jx, Jy, NULL);
}

double csi_imp_angle(const csImpactModel* m, const double* q, int l, double* Jt) {
  double at[2] = {0, 0}, p[2];
  return walk(m, q, l, at, p, NULL, NULL, Jt);
}

static void mass_matrix(const csImpactModel* m, const double* q, double* M) {
  int n = m->nq;
  double Jx[CSI_IMP_MAXNV], Jy[CSI_IMP_MAXNV], Jt[CSI_IMP_MAXNV], p[2];
  memset(M, 0, sizeof(double) * (size_t)(n * n));
  for (int k = 0; k < m->nmass; k++) {
    const csiImpMass* b = &m->mass[k];
    walk(m, q, b->link, b->at, p, Jx, Jy, Jt);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        M[i * n + j] += b->m * (Jx[i] * Jx[j] + Jy[i] * Jy[j]) + b->inertia * Jt[i] * Jt[j];
  }
}

/* Rows (Jx, Jy) of the material point of link l at world point P, from the link centre c. */
static void point_rows(const csImpactModel* m, const double* q, int l, const double at[2], double r,
                       const double n[2], double sign, double* Jx, double* Jy) {
  double c[2], Jt[CSI_IMP_MAXNV];
  walk(m, q, l, at, c, Jx, Jy, Jt);
  double dx = -sign * r * n[0], dy = -sign * r * n[1]; /* P - c */
  for (int i = 0; i < m->nq; i++) Jx[i] += -dy * Jt[i], Jy[i] += dx * Jt[i];
}

/* Contact k at q: its gap and rows Jn, Jf (normal n, tangent t = (n_y, -n_x), or the
   reference's row (n_y, n_x) with `tangent reference`). */
static double contact_rows(const csImpactModel* m, const double* q, int k, double* Jn, double* Jf) {
  const csiImpContact* c = &m->contact[k];
  double Ja[2][CSI_IMP_MAXNV], Jb[2][CSI_IMP_MAXNV], n[2], gap, ca[2], cb[2];
  walk(m, q, c->a, c->at_a, ca, NULL, NULL, NULL);
  if (c->pair) {
    walk(m, q, c->b, c->at_b, cb, NULL, NULL, NULL);
    double d = hypot(ca[0] - cb[0], ca[1] - cb[1]);
    n[0] = d > 0 ? (ca[0] - cb[0]) / d : 0, n[1] = d > 0 ? (ca[1] - cb[1]) / d : 1;
    gap = d - c->r_a - c->r_b;
    point_rows(m, q, c->b, c->at_b, c->r_b, n, -1, Jb[0], Jb[1]);
  } else {
    n[0] = c->n[0], n[1] = c->n[1];
    gap = n[0] * (ca[0] - c->o[0]) + n[1] * (ca[1] - c->o[1]) - c->r_a;
    memset(Jb, 0, sizeof Jb);
  }
  point_rows(m, q, c->a, c->at_a, c->r_a, n, 1, Ja[0], Ja[1]);
  double tx = n[1], ty = m->tangent_ref ? n[0] : -n[0];
  for (int i = 0; i < m->nq; i++) {
    double vx = Ja[0][i] - Jb[0][i], vy = Ja[1][i] - Jb[1][i];
    Jn[i] = n[0] * vx + n[1] * vy;
    Jf[i] = tx * vx + ty * vy;
  }
  return gap;
}

/* In-place Cholesky M = L L^T (lower part); 0 if not positive definite. */
static int cholesky(int n, double* L) {
  for (int j = 0; j < n; j++) {
    double d = L[j * n + j];
    for (int k = 0; k < j; k++) d -= L[j * n + k] * L[j * n + k];
    if (!(d > 1e-12 * fabs(L[j * n + j])) || !(d > 0)) return 0;
    L[j * n + j] = sqrt(d);
    for (int i = j + 1; i < n; i++) {
      double s = L[i * n + j];
      for (int k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / L[j * n + j];
    }
  }
  return 1;
}

static void chol_solve(int n, const double* L, double* x) {
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < i; k++) x[i] -= L[i * n + k] * x[k];
    x[i] /= L[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int k = i + 1; k < n; k++) x[i] -= L[k * n + i] * x[k];
    x[i] /= L[i * n + i];
  }
}

/* WA (4m) and WR (5m) from A (docs/impacts.md). */
static void lcp_matrices(csImpact* p) {
  int m = p->m, na = 4 * m, nr = 5 * m;
  memset(p->WA, 0, sizeof(double) * (size_t)(na * na));
  memset(p->WR, 0, sizeof(double) * (size_t)(nr * nr));
  for (int i = 0; i < 3 * m; i++)
    for (int j = 0; j < 3 * m; j++) p->WA[i * na + j] = p->A[i * 3 * m + j];
  for (int i = 0; i < m; i++) {
    for (int s = 0; s < 2; s++) {
      p->WA[(m + 2 * i + s) * na + 3 * m + i] = 1;  /* E gamma */
      p->WA[(3 * m + i) * na + m + 2 * i + s] = -1; /* -E^T lambda_D */
    }
    p->WA[(3 * m + i) * na + i] = p->mu[i];
  }
  for (int i = 0; i < na; i++)
    for (int j = 0; j < na; j++) p->WR[(m + i) * nr + m + j] = p->WA[i * na + j];
  for (int i = 0; i < m; i++) {
    p->WR[i * nr + m + i] = -1;
    p->WR[(m + i) * nr + i] = 1;
  }
}

/* The arrays of p in one block (p->M points at its start). */
static csStatus layout(csImpact* p, int nv, int m) {
  size_t nd = 2 * (size_t)nv * nv + 2 * (size_t)m * nv + 2 * (size_t)m + nv + 3 * (size_t)m * nv +
              (size_t)nv * 3 * m + 9 * (size_t)m * m + 16 * (size_t)m * m + 25 * (size_t)m * m;
  double* b = csi_calloc(nd * sizeof(double) + (size_t)(m + 1) * sizeof(int), 1);
  if (!b) return csi_error(CS_ERR_MEMORY, "cs_impact_new: out of memory");
  p->M = b, b += nv * nv;
  p->Minv = b, b += nv * nv;
  p->Jn = b, b += m * nv;
  p->Jf = b, b += m * nv;
  p->mu = b, b += m;
  p->gap = b, b += m;
  p->v = b, b += nv;
  p->J = b, b += 3 * m * nv;
  p->MinvJT = b, b += nv * 3 * m;
  p->A = b, b += 9 * m * m;
  p->WA = b, b += 16 * m * m;
  p->WR = b, b += 25 * m * m;
  p->index = (int*)b;
  return CS_OK;
}

/* M^-1 J^T and A = J M^-1 J^T through the factor L of M (in Lbuf). */
static void delassus(csImpact* p, const double* L) {
  int nv = p->nv, r = 3 * p->m;
  double x[CSI_IMP_MAXNV];
  for (int i = 0; i < p->m; i++) {
    memcpy(p->J + (size_t)i * nv, p->Jn + (size_t)i * nv, sizeof(double) * (size_t)nv);
    for (int k = 0; k < nv; k++) {
      p->J[(size_t)(p->m + 2 * i) * nv + k] = p->Jf[(size_t)i * nv + k];
      p->J[(size_t)(p->m + 2 * i + 1) * nv + k] = -p->Jf[(size_t)i * nv + k];
    }
  }
  for (int j = 0; j < r; j++) {
    memcpy(x, p->J + (size_t)j * nv, sizeof(double) * (size_t)nv);
    chol_solve(nv, L, x);
    for (int k = 0; k < nv; k++) p->MinvJT[k * r + j] = x[k];
  }
  for (int i = 0; i < r; i++)
    for (int j = 0; j < r; j++) {
      double s = 0;
      for (int k = 0; k < nv; k++) s += p->J[(size_t)i * nv + k] * p->MinvJT[k * r + j];
      p->A[i * r + j] = s;
    }
}

static csStatus build(csImpact* p, const csImpactModel* mod, const double* q, const double* v) {
  int nv = mod->nq, act[CSI_IMP_MAXC], m = 0;
  double Jn[CSI_IMP_MAXC][CSI_IMP_MAXNV], Jf[CSI_IMP_MAXC][CSI_IMP_MAXNV], gap[CSI_IMP_MAXC];
  for (int k = 0; k < mod->ncontact; k++) {
    gap[k] = contact_rows(mod, q, k, Jn[k], Jf[k]);
    if (gap[k] <= 1e-6) act[m++] = k;
  }
  csStatus s = layout(p, nv, m);
  if (s) return s;
  p->nv = nv, p->m = m;
  for (int i = 0; i < m; i++) {
    int k = act[i];
    memcpy(p->Jn + (size_t)i * nv, Jn[k], sizeof(double) * (size_t)nv);
    memcpy(p->Jf + (size_t)i * nv, Jf[k], sizeof(double) * (size_t)nv);
    p->gap[i] = gap[k], p->mu[i] = mod->contact[k].mu, p->index[i] = k;
  }
  memcpy(p->v, v, sizeof(double) * (size_t)nv);
  mass_matrix(mod, q, p->M);
  double L[CSI_IMP_MAXNV * CSI_IMP_MAXNV];
  memcpy(L, p->M, sizeof(double) * (size_t)(nv * nv));
  if (!cholesky(nv, L))
    return csi_error(CS_ERR_NUMERIC,
                     "cs_impact_new: the mass matrix is not positive definite "
                     "(a coordinate moves no mass)");
  for (int j = 0; j < nv; j++) {
    double x[CSI_IMP_MAXNV] = {0};
    x[j] = 1;
    chol_solve(nv, L, x);
    for (int k = 0; k < nv; k++) p->Minv[k * nv + j] = x[k];
  }
  delassus(p, L);
  lcp_matrices(p);
  p->info = (csImpactInfo){nv, m, p->M, p->Jn, p->Jf, p->mu, p->gap, p->v, p->index};
  return CS_OK;
}

csStatus cs_impact_new(const csImpactModel* mod, const double* q, const double* v, csImpact** out) {
  if (!out) return csi_error(CS_ERR_ARG, "cs_impact_new: out is NULL");
  *out = NULL;
  if (!mod) return csi_error(CS_ERR_ARG, "cs_impact_new: model is NULL");
  q = q ? q : mod->q, v = v ? v : mod->v;
  for (int i = 0; i < mod->nq; i++)
    if (!isfinite(q[i]) || !isfinite(v[i]))
      return csi_error(CS_ERR_STATE, "cs_impact_new: q[%d] or v[%d] is not finite", i, i);
  csImpact* p = csi_calloc(1, sizeof *p);
  if (!p) return csi_error(CS_ERR_MEMORY, "cs_impact_new: out of memory");
  csStatus s = build(p, mod, q, v);
  if (s) {
    cs_impact_free(p);
    return s;
  }
  *out = p;
  return CS_OK;
}

void cs_impact_free(csImpact* p) {
  if (!p) return;
  cs_free(p->M);
  cs_free(p);
}

const csImpactInfo* cs_impact_info(const csImpact* p) { return p ? &p->info : NULL; }
