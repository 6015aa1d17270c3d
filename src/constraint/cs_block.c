/* The constraint problem's block table: its rows, its checks, and the blocks' shared
   Gauss-Seidel pass and residual (src/constraint/cs_block.h). */
#include "constraint/cs_block.h"

#include <math.h>
#include <string.h>

#include "core/cs_error.h"

static const char* const cone_names[CS_CONE_COUNT] = {"contact", "unilateral", "box", "free"};

int cs_problem_rows(const csContactProblem* p) {
  if (!p) return 0;
  int n = 3 * p->nc;
  for (int k = 0; k < p->nblock; k++) n += p->block[k].n;
  return n;
}

static csStatus check_block(const csContactProblem* p, int k, int row) {
  const csBlock* b = p->block + k;
  if (b->type <= CS_CONE_CONTACT || b->type >= CS_CONE_COUNT)
    return csi_error(CS_ERR_ARG,
                     "problem block %d: type %d is not a block cone (unilateral, box, free)", k,
                     b->type);
  int nmax = b->type == CS_CONE_FREE ? 6 : 1;
  if (b->n < 1 || b->n > nmax)
    return csi_error(CS_ERR_ARG, "problem block %d (%s): %d rows, must be 1..%d", k,
                     cone_names[b->type], b->n, nmax);
  if (b->row != row)
    return csi_error(CS_ERR_ARG,
                     "problem block %d: first row %d, expected %d (blocks tile the rows after the "
                     "contacts in order)",
                     k, b->row, row);
  if (b->type == CS_CONE_BOX && !(b->bound >= 0 && isfinite(b->bound)))
    return csi_error(CS_ERR_ARG, "problem block %d (box): bound %g must be finite and >= 0", k,
                     b->bound);
  return CS_OK;
}

csStatus cs_problem_check(const csContactProblem* p) {
  if (!p) return csi_error(CS_ERR_ARG, "problem is NULL");
  if (p->nc < 0 || p->nblock < 0)
    return csi_error(CS_ERR_ARG, "problem: nc = %d, nblock = %d must be >= 0", p->nc, p->nblock);
  if (p->nblock > 0 && !p->block)
    return csi_error(CS_ERR_ARG, "problem: %d blocks but no block table", p->nblock);
  int row = 3 * p->nc;
  for (int k = 0; k < p->nblock; k++) {
    csStatus st = check_block(p, k, row);
    if (st != CS_OK) return st;
    row += p->block[k].n;
  }
  if (p->mu2)
    for (int i = 0; i < p->nc; i++)
      if (!(p->mu2[i] >= 0 && isfinite(p->mu2[i])))
        return csi_error(CS_ERR_ARG, "problem contact %d: mu2 = %g must be finite and >= 0", i,
                         p->mu2[i]);
  return CS_OK;
}

csStatus csi_blocks_supported(const csContactProblem* p, const char* solver, unsigned mask) {
  if (p->nisland != 0)
    return csi_error(CS_ERR_UNSUPPORTED,
                     "%s: a problem stored by islands (nisland = %d) is solved through cs_solve, "
                     "not the solver entry",
                     solver, p->nisland);
  if (p->mu2)
    return csi_error(
        CS_ERR_UNSUPPORTED,
        "%s: elliptic contacts (mu2) are solved through cs_solve, not the solver entry", solver);
  for (int k = 0; k < p->nblock; k++) {
    int t = p->block[k].type;
    if (t <= CS_CONE_CONTACT || t >= CS_CONE_COUNT)
      return csi_error(CS_ERR_ARG, "%s: problem block %d has type %d", solver, k, t);
    if (!(mask & (1u << t)))
      return csi_error(CS_ERR_UNSUPPORTED, "%s: does not take %s blocks (block %d, rows %d..%d)",
                       solver, cone_names[t], k, p->block[k].row,
                       p->block[k].row + p->block[k].n - 1);
  }
  return CS_OK;
}

double csi_blocks_residual(const csContactProblem* p, const double* lambda, const double* v) {
  double worst = 0;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    double e = csi_block_residual(b, lambda + b->row, v + b->row);
    if (!(e <= worst)) worst = e; /* a NaN propagates */
  }
  return worst;
}

void csi_blocks_project(const csContactProblem* p, double* lambda) {
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    for (int r = 0; r < b->n; r++)
      lambda[b->row + r] = csi_block_project1(b->type, b->bound, lambda[b->row + r]);
  }
}

/* v += G[:, r] d for one row r's change d (G's row r when G is symmetric) */
static void add_column(const csContactProblem* p, int nrow, int r, double d, double* v) {
  if (!p->asym) {
    const double* Gr = p->G + (size_t)r * (size_t)nrow;
    for (int i = 0; i < nrow; i++) v[i] += Gr[i] * d;
  } else {
    for (int i = 0; i < nrow; i++) v[i] += p->G[(size_t)i * (size_t)nrow + (size_t)r] * d;
  }
  if (p->R) v[r] += p->R[r] * d;
}

/* x = -A^-1 v_B for a free block's A = G_BB (+R): Gaussian elimination with symmetric
   (diagonal) pivoting, largest pivot first; once the pivot falls below 1e-12 of the largest
   diagonal entry (redundant equalities) the remaining unknowns stay 0 */
static void free_block_step(const csContactProblem* p, int nrow, const csBlock* b, const double* v,
                            double* x) {
  int n = b->n, perm[6], rank = n;
  double A[6][6], y[6], z[6], dmax = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) A[i][j] = p->G[(size_t)(b->row + i) * nrow + b->row + j];
    if (p->R) A[i][i] += p->R[b->row + i];
    if (A[i][i] > dmax) dmax = A[i][i];
    y[i] = -v[b->row + i], perm[i] = i, z[i] = 0;
  }
  for (int k = 0; k < n; k++) {
    int q = k;
    for (int i = k + 1; i < n; i++)
      if (A[i][i] > A[q][q]) q = i;
    if (q != k) { /* swap unknowns k and q: rows, columns, right side */
      for (int j = 0; j < n; j++) {
        double t = A[k][j];
        A[k][j] = A[q][j], A[q][j] = t;
      }
      for (int i = 0; i < n; i++) {
        double t = A[i][k];
        A[i][k] = A[i][q], A[i][q] = t;
      }
      double t = y[k];
      y[k] = y[q], y[q] = t;
      int tp = perm[k];
      perm[k] = perm[q], perm[q] = tp;
    }
    if (!(A[k][k] > 1e-12 * dmax)) {
      rank = k;
      break;
    }
    for (int i = k + 1; i < n; i++) {
      double l = A[i][k] / A[k][k];
      for (int j = k + 1; j < n; j++) A[i][j] -= l * A[k][j];
      y[i] -= l * y[k];
    }
  }
  for (int k = rank - 1; k >= 0; k--) {
    double s = y[k];
    for (int j = k + 1; j < rank; j++) s -= A[k][j] * z[j];
    z[k] = s / A[k][k];
  }
  for (int k = 0; k < n; k++) x[perm[k]] = z[k];
}

double csi_blocks_gs(const csContactProblem* p, double* lambda, double* v, double omega) {
  int nrow = cs_problem_rows(p);
  double moved = 0;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    if (b->type != CS_CONE_FREE) {
      int r = b->row;
      double gkk = p->G[(size_t)r * nrow + r] + (p->R ? p->R[r] : 0);
      if (!(gkk > 0)) continue;
      double l = csi_block_project1(b->type, b->bound, lambda[r] - omega * v[r] / gkk);
      double d = l - lambda[r];
      if (d == 0) continue;
      lambda[r] = l;
      add_column(p, nrow, r, d, v);
      moved += fabs(d);
      continue;
    }
    double x[6];
    free_block_step(p, nrow, b, v, x);
    for (int i = 0; i < b->n; i++) {
      double d = omega * x[i];
      if (d == 0) continue;
      lambda[b->row + i] += d;
      add_column(p, nrow, b->row + i, d, v);
      moved += fabs(d);
    }
  }
  return moved;
}
