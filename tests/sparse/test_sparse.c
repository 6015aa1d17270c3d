/* src/sparse: the triplet builder, products, the reverse Cuthill-McKee ordering and the
   envelope Cholesky factor, on random symmetric positive definite matrices (diagonally
   dominant) of four shapes, each under a random symmetric permutation: banded, block
   diagonal, arrowhead (one dense row and column), and several components:
   - the builder: duplicates summed (halves, so the sums are exact), rows sorted, every entry
     equal to the dense matrix;
   - the ordering is a permutation; it brings a permuted band back to a bandwidth of at
     most 2 b, and orders blocks and arrowheads without fill;
   - L L^T = P A P^T and L equal to a dense Cholesky of P A P^T, to 1e-12 relative;
   - M^-1 b against a dense Cholesky solve of A, to 1e-12 relative, in place too;
   - the sparse right-hand-side solve over the elimination-tree reach equal to the dense
     forward solve;
   - A x and A^T x against dense products, to 1e-14 relative;
   - an indefinite matrix is CS_ERR_NUMERIC. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cs_error.h"
#include "cs_test.h"
#include "sparse/cs_sparse.h"

enum { BAND, BLOCKS, ARROW, COMPONENTS, NSHAPE };
static const char* shape_name[NSHAPE] = {"banded", "block diagonal", "arrowhead", "components"};

/* Is (i, j) in the pattern of the shape (before the permutation)? */
static int in_pattern(int shape, int n, int i, int j, int b) {
  switch (shape) {
    case BAND:
      return abs(i - j) <= b;
    case BLOCKS:
      return i / b == j / b;
    case ARROW:
      return i == j || i == n - 1 || j == n - 1;
    default: /* bands of width b in three components: i mod 3 */
      return i % 3 == j % 3 && abs(i - j) <= 3 * b;
  }
}

/* A dense (n x n, row major) symmetric and diagonally dominant, of the shape under a random
   permutation */
static void random_spd(int shape, int n, int b, double* A) {
  int* p = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++) p[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int k = (int)cs_test_uniform(0, i + 1 - 1e-9), t = p[i];
    p[i] = p[k], p[k] = t;
  }
  memset(A, 0, sizeof(double) * (size_t)n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (in_pattern(shape, n, i, j, b))
        A[p[i] * n + p[j]] = A[p[j] * n + p[i]] = cs_test_uniform(-1, 1);
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += fabs(A[i * n + j]);
    A[i * n + i] = s + cs_test_uniform(0.5, 1.5);
  }
  free(p);
}

/* A's non-zeros as shuffled triplets, a random half of them split in two halves */
static csStatus dense_to_sparse(const double* A, int m, int n, csSparseMatrix* S) {
  size_t cnt = 0, cap = 2 * (size_t)m * n + 1;
  int* row = malloc(sizeof(int) * cap);
  int* col = malloc(sizeof(int) * cap);
  double* x = malloc(sizeof(double) * cap);
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double a = A[i * n + j];
      if (a == 0) continue;
      int split = cs_test_uniform(0, 1) < 0.5;
      row[cnt] = i, col[cnt] = j, x[cnt++] = split ? 0.5 * a : a;
      if (split) row[cnt] = i, col[cnt] = j, x[cnt++] = 0.5 * a;
    }
  for (size_t k = cnt; k > 1; k--) {
    size_t r = (size_t)cs_test_uniform(0, (double)k - 1e-9);
    int ti = row[k - 1], tj = col[k - 1];
    double tx = x[k - 1];
    row[k - 1] = row[r], col[k - 1] = col[r], x[k - 1] = x[r];
    row[r] = ti, col[r] = tj, x[r] = tx;
  }
  csStatus st = csi_sparse_from_triplets(m, n, cnt, row, col, x, S);
  free(row), free(col), free(x);
  return st;
}

/* Lower Cholesky factor of the dense A (n x n) in place; 0 if not positive definite */
static int dense_chol(int n, double* A) {
  for (int j = 0; j < n; j++) {
    double d = A[j * n + j];
    for (int k = 0; k < j; k++) d -= A[j * n + k] * A[j * n + k];
    if (!(d > 0)) return 0;
    A[j * n + j] = sqrt(d);
    for (int i = j + 1; i < n; i++) {
      double s = A[i * n + j];
      for (int k = 0; k < j; k++) s -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = s / A[j * n + j];
    }
    for (int k = j + 1; k < n; k++) A[j * n + k] = 0;
  }
  return 1;
}

static void check_builder(const double* A, int n, const csSparseMatrix* S, const char* what) {
  int sorted = 1, equal = 1, nnz = 0;
  for (int j = 0; j < n; j++)
    for (int k = S->colptr[j]; k < S->colptr[j + 1]; k++)
      if (k > S->colptr[j] && S->rowind[k] <= S->rowind[k - 1]) sorted = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      nnz += A[i * n + j] != 0;
      if (csi_sparse_get(S, i, j) != A[i * n + j]) equal = 0;
    }
  CHECK_MSG(sorted && equal && S->colptr[n] == nnz, "%s: builder (sorted %d, equal %d)", what,
            sorted, equal);
}

/* perm a permutation; returns the bandwidth of P A P^T */
static int check_ordering(const double* A, int n, const csiSparseFactor* F, const char* what) {
  int* seen = calloc((size_t)n, sizeof(int));
  int ok = 1, bw = 0;
  for (int i = 0; i < n; i++) {
    int p = F->perm[i];
    if (p < 0 || p >= n || seen[p]++ || F->iperm[p] != i) ok = 0;
  }
  CHECK_MSG(ok, "%s: the ordering is not a permutation", what);
  for (int i = 0; ok && i < n; i++)
    for (int j = 0; j < i; j++)
      if (A[F->perm[i] * n + F->perm[j]] != 0 && i - j > bw) bw = i - j;
  free(seen);
  return bw;
}

/* L against a dense Cholesky of P A P^T, and L L^T against P A P^T */
static void check_factor(const double* A, int n, const csiSparseFactor* F, const char* what) {
  double* B = calloc((size_t)n * n, sizeof(double));
  double* L = calloc((size_t)n * n, sizeof(double));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) B[i * n + j] = A[F->perm[i] * n + F->perm[j]];
  for (int i = 0; i < n; i++)
    for (int j = F->first[i]; j <= i; j++)
      L[i * n + j] = F->L[F->start[i] + (size_t)(j - F->first[i])];
  double e = 0, s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double t = 0;
      for (int k = 0; k <= j; k++) t += L[i * n + k] * L[j * n + k];
      e = fmax(e, fabs(t - B[i * n + j])), s = fmax(s, fabs(B[i * n + j]));
    }
  CHECK_MSG(e <= 1e-12 * s, "%s: L L^T off P A P^T by %.3g relative", what, e / s);
  CHECK(dense_chol(n, B));
  double el = cs_test_relerr(L, B, n * n, 0);
  CHECK_MSG(el <= 1e-12, "%s: L off the dense Cholesky by %.3g relative", what, el);
  free(B), free(L);
}

/* M^-1 b (also in place) against a dense solve; the reach solve against the dense one */
static void check_solves(const double* A, int n, const csiSparseFactor* F, const char* what) {
  double* C = malloc(sizeof(double) * (size_t)n * n);
  double *b = malloc(sizeof(double) * n), *x = malloc(sizeof(double) * n);
  double *y = malloc(sizeof(double) * n), *z = malloc(sizeof(double) * n);
  memcpy(C, A, sizeof(double) * (size_t)n * n);
  CHECK(dense_chol(n, C));
  for (int i = 0; i < n; i++) b[i] = y[i] = cs_test_uniform(-1, 1);
  for (int i = 0; i < n; i++) { /* y = C^-T C^-1 b */
    for (int k = 0; k < i; k++) y[i] -= C[i * n + k] * y[k];
    y[i] /= C[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int k = i + 1; k < n; k++) y[i] -= C[k * n + i] * y[k];
    y[i] /= C[i * n + i];
  }
  csi_sparse_solve(F, b, x, z);
  double e = cs_test_relerr(x, y, n, 0);
  csi_sparse_solve(F, b, b, z);
  CHECK_MSG(e <= 1e-12 && !memcmp(b, x, sizeof(double) * n), "%s: M^-1 b off by %.3g relative",
            what, e);
  /* a right-hand side with 1 or 2 non-zeros (new order) */
  int *mark = calloc((size_t)n, sizeof(int)), *reach = malloc(sizeof(int) * n), nr = 0;
  memset(x, 0, sizeof(double) * n);
  for (int t = 0; t < 2; t++) {
    int i = (int)cs_test_uniform(0, n - 1e-9);
    x[i] = cs_test_uniform(0.5, 1);
    nr = csi_sparse_reach(F, i, mark, 1, reach, nr);
  }
  for (int s = 1; s < nr; s++) /* sorted increasing: parents after children */
    for (int t = s; t > 0 && reach[t - 1] > reach[t]; t--) {
      int u = reach[t];
      reach[t] = reach[t - 1], reach[t - 1] = u;
    }
  memcpy(y, x, sizeof(double) * n);
  csi_sparse_lsolve_reach(F, reach, nr, x);
  csi_sparse_lsolve(F, y);
  int same = 1;
  for (int i = 0; i < n; i++) same &= x[i] == y[i];
  CHECK_MSG(same, "%s: the reach solve differs from the dense forward solve", what);
  free(C), free(b), free(x), free(y), free(z), free(mark), free(reach);
}

static void check_products(void) {
  for (int trial = 0; trial < 20; trial++) {
    int m = 1 + (int)cs_test_uniform(0, 30), n = 1 + (int)cs_test_uniform(0, 30);
    double* A = malloc(sizeof(double) * (size_t)m * n);
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * m);
    double *u = malloc(sizeof(double) * m), *v = malloc(sizeof(double) * n);
    double *yd = malloc(sizeof(double) * m), *vd = malloc(sizeof(double) * n);
    for (int k = 0; k < m * n; k++) A[k] = cs_test_uniform(0, 1) < 0.3 ? cs_test_uniform(-1, 1) : 0;
    for (int j = 0; j < n; j++) x[j] = cs_test_uniform(-1, 1), v[j] = vd[j] = 1;
    for (int i = 0; i < m; i++) u[i] = cs_test_uniform(-1, 1), y[i] = yd[i] = 1;
    csSparseMatrix S;
    CHECK(dense_to_sparse(A, m, n, &S) == CS_OK);
    csi_sparse_gaxpy(&S, x, y);
    csi_sparse_tgaxpy(&S, u, v);
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) yd[i] += A[i * n + j] * x[j], vd[j] += A[i * n + j] * u[i];
    double ey = cs_test_relerr(y, yd, m, 1), ev = cs_test_relerr(v, vd, n, 1);
    CHECK_MSG(ey <= 1e-14 && ev <= 1e-14, "%d x %d: A x off by %.3g, A^T x by %.3g", m, n, ey, ev);
    csi_sparse_free(&S);
    free(A), free(x), free(y), free(u), free(v), free(yd), free(vd);
  }
}

static void check_shape(int shape, int n, int b) {
  char what[64];
  snprintf(what, sizeof what, "%s n %d b %d", shape_name[shape], n, b);
  double* A = malloc(sizeof(double) * (size_t)n * n);
  random_spd(shape, n, b, A);
  csSparseMatrix S;
  CHECK(dense_to_sparse(A, n, n, &S) == CS_OK);
  check_builder(A, n, &S, what);
  csiSparseFactor* F = NULL;
  csStatus st = csi_sparse_factor_make(&S, &F);
  CHECK_MSG(st == CS_OK, "%s: %s", what, cs_last_error());
  if (F) {
    int bw = check_ordering(A, n, F, what);
    if (shape == BAND) CHECK_MSG(bw <= 2 * b, "%s: bandwidth %d after RCM", what, bw);
    /* no fill: the blocks contiguous, the arrow's hub ordered last */
    if (shape == BLOCKS || shape == ARROW)
      CHECK_MSG(F->start[n] == (size_t)(S.colptr[n] + n) / 2, "%s: %zu factor entries", what,
                F->start[n]);
    check_factor(A, n, F, what);
    check_solves(A, n, F, what);
    printf("%-36s nnz %5d  factor entries %6zu  bandwidth %d\n", what, S.colptr[n], F->start[n],
           bw);
  }
  csi_sparse_factor_free(F);
  csi_sparse_free(&S);
  free(A);
}

static void check_indefinite(void) {
  double A[9] = {2, 1, 0, 1, -1, 0, 0, 0, 3};
  csSparseMatrix S;
  CHECK(dense_to_sparse(A, 3, 3, &S) == CS_OK);
  csiSparseFactor* F = NULL;
  CHECK(csi_sparse_factor_make(&S, &F) == CS_ERR_NUMERIC && !F);
  CHECK_MSG(strstr(cs_last_error(), "not positive definite"), "%s", cs_last_error());
  csi_sparse_free(&S);
}

int main(void) {
  cs_test_seed(16);
  const int sizes[4] = {1, 7, 40, 150};
  for (int shape = 0; shape < NSHAPE; shape++)
    for (int k = 0; k < 4; k++)
      for (int b = 1; b <= 3; b += 2) check_shape(shape, sizes[k], b + (shape == BLOCKS) * 3);
  check_products();
  check_indefinite();
  return cs_test_finish("test_sparse");
}
