/* Sparse linear algebra on compressed columns (csSparseMatrix, include/contactsim/cs_contact.h):
   a matrix from triplets, products A x and A^T x, a reverse Cuthill-McKee ordering, and
   the envelope Cholesky factor M = P^T L L^T P of a symmetric positive definite M with its
   dense and sparse right-hand-side solves. Used by the global contact problem
   (src/constraint/cs_global_problem.c) and its readers; nothing here runs inside the step.

   The factor. L is stored by its envelope (row i holds columns first[i]..i), which is closed
   under fill, so no symbolic phase is needed: O(n b^2) work for bandwidth b after the
   ordering, nothing for a diagonal M. The elimination tree of the envelope
   (parent(j) = min { i > j : first[i] <= j }) gives the rows L^-1 b fills from a sparse b:
   the tree paths from b's non-zeros to the root. */
#ifndef CS_SPARSE_H
#define CS_SPARSE_H

#include <stddef.h>

#include "contactsim/cs_contact.h"

typedef struct csiSparseFactor {
  int n;
  int* perm;     /* new index -> old index */
  int* iperm;    /* old index -> new index */
  int* first;    /* first column of row i's envelope (new indices) */
  size_t* start; /* row i's entries L[i][first[i]..i] at L + start[i] */
  int* parent;   /* elimination tree of the envelope, -1 at roots */
  double* L;
} csiSparseFactor;

/* A (m x n) from cnt triplets (row[k], col[k], x[k]), all inside the matrix: rows sorted
   within each column, duplicates summed in storage order (a sum still zero takes the next
   value itself, so -0.0 stays -0.0). out's arrays are allocated; free with
   csi_sparse_free. */
csStatus csi_sparse_from_triplets(int m, int n, size_t cnt, const int* row, const int* col,
                                  const double* x, csSparseMatrix* out);
void csi_sparse_free(csSparseMatrix* A);
/* Entry (i, j) of A, 0 if not stored (binary search in column j). */
double csi_sparse_get(const csSparseMatrix* A, int i, int j);
/* y (A->m) += A x */
void csi_sparse_gaxpy(const csSparseMatrix* A, const double* x, double* y);
/* y (A->n) += A^T x */
void csi_sparse_tgaxpy(const csSparseMatrix* A, const double* x, double* y);

/* Reverse Cuthill-McKee ordering of the symmetric pattern of A (both triangles stored):
   perm[new] = old, each connected component from a pseudo-peripheral node. */
csStatus csi_sparse_rcm(const csSparseMatrix* A, int* perm);

/* The envelope Cholesky of M (symmetric positive definite, both triangles stored) under
   the RCM ordering; CS_ERR_NUMERIC naming the row if a pivot is not positive. */
csStatus csi_sparse_factor_make(const csSparseMatrix* M, csiSparseFactor** out);
void csi_sparse_factor_free(csiSparseFactor* F);
/* x (new order, dense) := L^-1 x */
void csi_sparse_lsolve(const csiSparseFactor* F, double* x);
/* x (new order, dense) := L^-T x */
void csi_sparse_ltsolve(const csiSparseFactor* F, double* x);
/* x (original order) = M^-1 b; z: scratch of n. x may be b. */
void csi_sparse_solve(const csiSparseFactor* F, const double* b, double* x, double* z);
/* Appends to reach (nr entries so far) the rows of the elimination-tree path from row i
   (new order) to the root not marked with stamp, marking them; returns the new count. */
int csi_sparse_reach(const csiSparseFactor* F, int i, int* mark, int stamp, int* reach, int nr);
/* x := L^-1 x for an x (new order) that is zero outside the nr rows of reach, sorted
   increasing (the rows csi_sparse_reach found from x's non-zeros). */
void csi_sparse_lsolve_reach(const csiSparseFactor* F, const int* reach, int nr, double* x);

#endif
