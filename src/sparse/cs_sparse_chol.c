/* The envelope Cholesky factor M = P^T L L^T P and its solves (cs_sparse.h). */
#include <math.h>
#include <string.h>

#include "core/cs_error.h"
#include "sparse/cs_sparse.h"

void csi_sparse_factor_free(csiSparseFactor* F) {
  if (!F) return;
  cs_free(F->perm);
  cs_free(F->iperm);
  cs_free(F->first);
  cs_free(F->start);
  cs_free(F->parent);
  cs_free(F->L);
  cs_free(F);
}

/* The ordering, the envelope (first, start) of P M P^T and L holding its lower triangle */
static csStatus factor_envelope(const csSparseMatrix* M, csiSparseFactor* F) {
  const int n = M->n;
  csStatus st = csi_sparse_rcm(M, F->perm);
  if (st) return st;
  for (int i = 0; i < n; i++) F->iperm[F->perm[i]] = i;
  /* first[i] = smallest new column index j <= i with M(i, j) != 0 */
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    int old = F->perm[i], f = i;
    for (int k = M->colptr[old]; k < M->colptr[old + 1]; k++) {
      int j = F->iperm[M->rowind[k]];
      if (j < f) f = j;
    }
    F->first[i] = f;
    F->start[i] = total;
    total += (size_t)(i - f + 1);
  }
  F->start[n] = total;
  if (total > ((size_t)1 << 31))
    return csi_error(CS_ERR_MEMORY,
                     "M (n = %d) needs %zu factor entries even after "
                     "reordering; too large for the envelope Cholesky",
                     n, total);
  F->L = csi_calloc(total, sizeof(double));
  if (!F->L) return csi_error(CS_ERR_MEMORY, "out of memory for M's factor (%zu entries)", total);
  for (int i = 0; i < n; i++) {
    int old = F->perm[i];
    double* Li = F->L + F->start[i] - (size_t)F->first[i]; /* Li[j] = L(i, j) */
    for (int k = M->colptr[old]; k < M->colptr[old + 1]; k++) {
      int j = F->iperm[M->rowind[k]];
      if (j <= i) Li[j] = M->val[k];
    }
  }
  return CS_OK;
}

/* Row-by-row (bordering) Cholesky within the envelope, then its elimination tree:
   parent(j) = min { i > j : first[i] <= j } */
static csStatus factor_numeric(csiSparseFactor* F) {
  const int n = F->n;
  for (int i = 0; i < n; i++) {
    const int fi = F->first[i];
    double* Li = F->L + F->start[i] - (size_t)fi;
    const double aii = Li[i];
    for (int j = fi; j < i; j++) {
      const int fj = F->first[j];
      const double* Lj = F->L + F->start[j] - (size_t)fj;
      double s = Li[j];
      for (int k = fi > fj ? fi : fj; k < j; k++) s -= Li[k] * Lj[k];
      Li[j] = s / Lj[j];
    }
    double d = aii;
    for (int k = fi; k < i; k++) d -= Li[k] * Li[k];
    if (!(d > 0) || !isfinite(d))
      return csi_error(CS_ERR_NUMERIC,
                       "M is not positive definite (pivot %g at row %d, "
                       "diagonal %g)",
                       d, F->perm[i], aii);
    Li[i] = sqrt(d);
  }
  for (int j = 0; j < n; j++) F->parent[j] = -1;
  for (int i = 0; i < n; i++)
    for (int j = F->first[i]; j < i; j++)
      if (F->parent[j] < 0) F->parent[j] = i;
  return CS_OK;
}

csStatus csi_sparse_factor_make(const csSparseMatrix* M, csiSparseFactor** out) {
  *out = NULL;
  const int n = M->n;
  csiSparseFactor* F = csi_calloc(1, sizeof *F);
  if (!F) return csi_error(CS_ERR_MEMORY, "out of memory factoring M (n = %d)", n);
  F->n = n;
  F->perm = csi_malloc((size_t)n * sizeof(int));
  F->iperm = csi_malloc((size_t)n * sizeof(int));
  F->first = csi_malloc((size_t)n * sizeof(int));
  F->start = csi_malloc(((size_t)n + 1) * sizeof(size_t));
  F->parent = csi_malloc((size_t)n * sizeof(int));
  csStatus st = CS_OK;
  if (!F->perm || !F->iperm || !F->first || !F->start || !F->parent)
    st = csi_error(CS_ERR_MEMORY, "out of memory factoring M (n = %d)", n);
  if (!st) st = factor_envelope(M, F);
  if (!st) st = factor_numeric(F);
  if (st) {
    csi_sparse_factor_free(F);
    return st;
  }
  *out = F;
  return CS_OK;
}

void csi_sparse_lsolve(const csiSparseFactor* F, double* x) {
  for (int i = 0; i < F->n; i++) {
    const int fi = F->first[i];
    const double* Li = F->L + F->start[i] - (size_t)fi;
    double s = x[i];
    for (int k = fi; k < i; k++) s -= Li[k] * x[k];
    x[i] = s / Li[i];
  }
}

void csi_sparse_ltsolve(const csiSparseFactor* F, double* x) {
  for (int i = F->n - 1; i >= 0; i--) {
    const int fi = F->first[i];
    const double* Li = F->L + F->start[i] - (size_t)fi;
    x[i] /= Li[i];
    const double xi = x[i];
    for (int k = fi; k < i; k++) x[k] -= Li[k] * xi;
  }
}

void csi_sparse_solve(const csiSparseFactor* F, const double* b, double* x, double* z) {
  const int n = F->n;
  for (int i = 0; i < n; i++) z[i] = b[F->perm[i]];
  csi_sparse_lsolve(F, z);
  csi_sparse_ltsolve(F, z);
  for (int i = 0; i < n; i++) x[F->perm[i]] = z[i];
}

int csi_sparse_reach(const csiSparseFactor* F, int i, int* mark, int stamp, int* reach, int nr) {
  for (int j = i; j >= 0 && mark[j] != stamp; j = F->parent[j]) {
    mark[j] = stamp;
    reach[nr++] = j;
  }
  return nr;
}

void csi_sparse_lsolve_reach(const csiSparseFactor* F, const int* reach, int nr, double* x) {
  for (int t = 0; t < nr; t++) {
    const int i = reach[t], fi = F->first[i];
    const double* Li = F->L + F->start[i] - (size_t)fi;
    double s = x[i];
    for (int k = fi; k < i; k++) s -= Li[k] * x[k];
    x[i] = s / Li[i];
  }
}
