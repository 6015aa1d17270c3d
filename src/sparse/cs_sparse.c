/* Sparse matrices on compressed columns: the triplet builder, products and the reverse
   Cuthill-McKee ordering (cs_sparse.h). The factor is in cs_sparse_chol.c. */
#include "sparse/cs_sparse.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/cs_error.h"

/* ---------------------------------------------------------------- matrices */

typedef struct Trip {
  int row;
  int seq; /* storage order, so duplicates are summed in that order */
  double x;
} Trip;

static int cmp_trip(const void* a, const void* b) {
  const Trip* s = a;
  const Trip* t = b;
  if (s->row != t->row) return (s->row > t->row) - (s->row < t->row);
  return (s->seq > t->seq) - (s->seq < t->seq);
}

/* The triplets bucketed by column (stable) into s, column pointers in colptr */
static csStatus bucket_columns(int n, size_t cnt, const int* row, const int* col, const double* x,
                               int* colptr, Trip* s) {
  int* fill = csi_malloc(((size_t)n + 1) * sizeof(int));
  if (!fill) return csi_error(CS_ERR_MEMORY, "out of memory for a sparse matrix of %d columns", n);
  for (size_t k = 0; k < cnt; k++) colptr[col[k] + 1]++;
  for (int j = 0; j < n; j++) colptr[j + 1] += colptr[j];
  memcpy(fill, colptr, (size_t)n * sizeof(int));
  for (size_t k = 0; k < cnt; k++) {
    Trip* t = s + fill[col[k]]++;
    t->row = row[k], t->seq = (int)k, t->x = x[k];
  }
  cs_free(fill);
  return CS_OK;
}

csStatus csi_sparse_from_triplets(int m, int n, size_t cnt, const int* row, const int* col,
                                  const double* x, csSparseMatrix* out) {
  out->m = m, out->n = n;
  out->rowind = NULL, out->val = NULL;
  if (cnt > (size_t)INT_MAX)
    return csi_error(CS_ERR_MEMORY, "a %d x %d sparse matrix with %zu entries is too large", m, n,
                     cnt);
  out->colptr = csi_calloc((size_t)n + 1, sizeof(int));
  Trip* s = csi_malloc((cnt ? cnt : 1) * sizeof(Trip));
  csStatus st = out->colptr && s ? bucket_columns(n, cnt, row, col, x, out->colptr, s)
                                 : csi_error(CS_ERR_MEMORY,
                                             "out of memory for a %d x %d sparse matrix "
                                             "(%zu entries)",
                                             m, n, cnt);
  if (st) {
    cs_free(s);
    return st;
  }
  /* sort each column by (row, storage order), summing duplicates */
  int nnz = 0;
  for (int j = 0; j < n; j++) {
    int a = out->colptr[j], b = out->colptr[j + 1];
    qsort(s + a, (size_t)(b - a), sizeof(Trip), cmp_trip);
    out->colptr[j] = nnz;
    for (int q = a; q < b; q++) {
      if (nnz > out->colptr[j] && s[nnz - 1].row == s[q].row) {
        /* a still-zero sum takes x itself: 0.0 + (-0.0) would give +0.0 */
        s[nnz - 1].x = s[nnz - 1].x == 0 ? s[q].x : s[nnz - 1].x + s[q].x;
      } else {
        s[nnz++] = s[q];
      }
    }
  }
  out->colptr[n] = nnz;
  out->rowind = csi_malloc((size_t)(nnz ? nnz : 1) * sizeof(int));
  out->val = csi_malloc((size_t)(nnz ? nnz : 1) * sizeof(double));
  if (!out->rowind || !out->val) {
    cs_free(s);
    return csi_error(CS_ERR_MEMORY, "out of memory for a %d x %d sparse matrix (%d entries)", m, n,
                     nnz);
  }
  for (int q = 0; q < nnz; q++) out->rowind[q] = s[q].row, out->val[q] = s[q].x;
  cs_free(s);
  return CS_OK;
}

void csi_sparse_free(csSparseMatrix* A) {
  cs_free(A->colptr);
  cs_free(A->rowind);
  cs_free(A->val);
  A->colptr = A->rowind = NULL;
  A->val = NULL;
}

double csi_sparse_get(const csSparseMatrix* A, int i, int j) {
  int lo = A->colptr[j], hi = A->colptr[j + 1] - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (A->rowind[mid] == i) return A->val[mid];
    if (A->rowind[mid] < i)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return 0;
}

void csi_sparse_gaxpy(const csSparseMatrix* A, const double* x, double* y) {
  for (int j = 0; j < A->n; j++) {
    const double xj = x[j];
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; k++) y[A->rowind[k]] += A->val[k] * xj;
  }
}

void csi_sparse_tgaxpy(const csSparseMatrix* A, const double* x, double* y) {
  for (int j = 0; j < A->n; j++) {
    double s = 0;
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; k++) s += A->val[k] * x[A->rowind[k]];
    y[j] += s;
  }
}

/* ---------------------------------------------------------------- ordering */

/* Breadth-first search from s over unvisited nodes (mark != stamp), recording levels in
   order[]; returns the count, *last_level_start the index where the last level begins. */
static int bfs_levels(const csSparseMatrix* A, int s, int* mark, int stamp, int* order,
                      int* last_level_start, int* depth) {
  int head = 0, tail = 0, level_start = 0, level_end = 1, d = 0;
  order[tail++] = s;
  mark[s] = stamp;
  *last_level_start = 0;
  while (head < tail) {
    if (head == level_end) {
      level_start = head;
      level_end = tail;
      d++;
    }
    int x = order[head++];
    for (int k = A->colptr[x]; k < A->colptr[x + 1]; k++) {
      int y = A->rowind[k];
      if (mark[y] != stamp) {
        mark[y] = stamp;
        order[tail++] = y;
      }
    }
  }
  *last_level_start = level_start;
  *depth = d;
  return tail;
}

static int degree(const csSparseMatrix* A, int x) { return A->colptr[x + 1] - A->colptr[x]; }

/* A pseudo-peripheral node of s0's connected component: BFS again from a least-degree
   node of the last level while the depth grows (George and Liu) */
static int peripheral(const csSparseMatrix* A, int s0, int* mark, int* stamp, int* order) {
  int s = s0, depth = -1;
  for (int it = 0; it < 8; it++) {
    int lls = 0, d = 0;
    (*stamp)++;
    int cnt = bfs_levels(A, s, mark, *stamp, order, &lls, &d);
    if (d <= depth) break;
    depth = d;
    int best = order[lls];
    for (int k = lls + 1; k < cnt; k++)
      if (degree(A, order[k]) < degree(A, best)) best = order[k];
    if (best == s) break;
    s = best;
  }
  return s;
}

/* Cuthill-McKee from s: appended to perm from count, neighbours in increasing degree
   (insertion sort per node); returns the new count */
static int cuthill_mckee(const csSparseMatrix* A, int s, int* visited, int* perm, int count) {
  int head = count;
  perm[count++] = s;
  visited[s] = 1;
  while (head < count) {
    int x = perm[head++];
    int begin = count;
    for (int k = A->colptr[x]; k < A->colptr[x + 1]; k++) {
      int y = A->rowind[k];
      if (visited[y]) continue;
      visited[y] = 1;
      int at = count++;
      while (at > begin && degree(A, perm[at - 1]) > degree(A, y)) {
        perm[at] = perm[at - 1];
        at--;
      }
      perm[at] = y;
    }
  }
  return count;
}

csStatus csi_sparse_rcm(const csSparseMatrix* A, int* perm) {
  const int n = A->n;
  int* mark = csi_calloc((size_t)n, sizeof(int));
  int* visited = csi_calloc((size_t)n, sizeof(int));
  int* order = csi_malloc((size_t)n * sizeof(int));
  if (!mark || !visited || !order) {
    cs_free(mark), cs_free(visited), cs_free(order);
    return csi_error(CS_ERR_MEMORY, "out of memory ordering a %d x %d matrix", n, n);
  }
  int stamp = 0, count = 0;
  for (int s0 = 0; s0 < n; s0++) {
    if (visited[s0]) continue;
    /* the search stays in s0's component, which holds no ordered node yet */
    int s = peripheral(A, s0, mark, &stamp, order);
    count = cuthill_mckee(A, s, visited, perm, count);
  }
  for (int a = 0, b = n - 1; a < b; a++, b--) {
    int t = perm[a];
    perm[a] = perm[b];
    perm[b] = t;
  }
  cs_free(mark), cs_free(visited), cs_free(order);
  return CS_OK;
}
