/* Every solution of the Anitescu-Potra impact LCP 0 <= z _|_ WA z + w >= 0 by its index
   sets (docs/impacts.md): for each set a of basic variables with a nonsingular principal
   block, z_a = -WA_aa^-1 w_a and z = 0 elsewhere; kept when z and y = WA z + w are
   >= -1e-8; solutions giving the same velocity change (to 2e-10) are counted once. 2^(4m)
   sets, so m <= 5. The workspace of cs_impact_workspace_bytes is not enough for the dense
   blocks: this function takes its own scratch on the stack (at most 20 x 20). */
#include <math.h>
#include <string.h>

#include "core/cs_error.h"
#include "impact/cs_impact.h"

enum { NMAX = 20 };

/* Solves B x = r (n x n, destroyed) with partial pivoting; 0 if a pivot is below 1e-12
   times the largest entry (a singular principal block). */
static int solve(int n, double* B, double* r) {
  double big = 0;
  for (int k = 0; k < n * n; k++) big = fmax(big, fabs(B[k]));
  for (int c = 0; c < n; c++) {
    int piv = c;
    for (int i = c + 1; i < n; i++)
      if (fabs(B[i * n + c]) > fabs(B[piv * n + c])) piv = i;
    if (!(fabs(B[piv * n + c]) > 1e-12 * big)) return 0;
    for (int k = 0; k < n; k++) {
      double t = B[c * n + k];
      B[c * n + k] = B[piv * n + k], B[piv * n + k] = t;
    }
    double t = r[c];
    r[c] = r[piv], r[piv] = t;
    for (int i = c + 1; i < n; i++) {
      double f = B[i * n + c] / B[c * n + c];
      for (int k = c; k < n; k++) B[i * n + k] -= f * B[c * n + k];
      r[i] -= f * r[c];
    }
  }
  for (int c = n - 1; c >= 0; c--) {
    for (int k = c + 1; k < n; k++) r[c] -= B[c * n + k] * r[k];
    r[c] /= B[c * n + c];
  }
  return 1;
}

/* The solution of index set `set` into z (n), or 0 if none. */
static int candidate(const double* W, const double* w, int n, unsigned set, double* z) {
  int idx[NMAX], k = 0;
  double B[NMAX * NMAX], r[NMAX];
  for (int i = 0; i < n; i++)
    if (set >> i & 1u) idx[k++] = i;
  for (int a = 0; a < k; a++) {
    r[a] = -w[idx[a]];
    for (int b = 0; b < k; b++) B[a * k + b] = W[idx[a] * n + idx[b]];
  }
  if (k && !solve(k, B, r)) return 0;
  memset(z, 0, sizeof(double) * (size_t)n);
  for (int a = 0; a < k; a++) {
    if (r[a] < -1e-8) return 0;
    z[idx[a]] = r[a];
  }
  for (int i = 0; i < n; i++) {
    double y = w[i];
    for (int j = 0; j < n; j++) y += W[i * n + j] * z[j];
    if (y < -1e-8) return 0;
  }
  return 1;
}

csStatus cs_impact_enumerate(const csImpact* p, int maxsol, double* vplus, int* nsol, void* ws) {
  (void)ws;
  if (!p || !nsol || maxsol < 0 || (maxsol > 0 && !vplus))
    return csi_error(CS_ERR_ARG, "cs_impact_enumerate: NULL argument or maxsol < 0");
  if (p->m > NMAX / 4)
    return csi_error(CS_ERR_UNSUPPORTED, "cs_impact_enumerate: %d contacts, at most %d", p->m,
                     NMAX / 4);
  int n = 4 * p->m, nv = p->nv, found = 0;
  double w[NMAX], z[NMAX], v[CSI_IMP_MAXNV];
  for (int i = 0; i < 3 * p->m; i++) {
    w[i] = 0;
    for (int k = 0; k < nv; k++) w[i] += p->J[i * nv + k] * p->v[k];
  }
  for (int i = 3 * p->m; i < n; i++) w[i] = 0;
  for (unsigned set = 0; set < 1u << n; set++) {
    if (!candidate(p->WA, w, n, set, z)) continue;
    csi_imp_apply(p, p->v, z, v);
    int dup = 0;
    for (int s = 0; s < found && s < maxsol && !dup; s++) {
      double d = 0;
      for (int k = 0; k < nv; k++) d = fmax(d, fabs(vplus[s * nv + k] - v[k]));
      dup = d <= 2e-10;
    }
    if (dup) continue;
    if (found < maxsol) memcpy(vplus + (size_t)found * nv, v, sizeof(double) * (size_t)nv);
    found++;
  }
  *nsol = found;
  return CS_OK;
}
