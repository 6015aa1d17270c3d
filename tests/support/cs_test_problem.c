/* Random mixed constraint problems (cs_test_problem.h). */
#include "cs_test_problem.h"

#include <stdlib.h>
#include <string.h>

#include "cs_test.h"

/* The block table: unilateral, box, free in turn while any are left */
static int mixed_blocks(csTestMixed* t, int nc, int nuni, int nbox, int nfree) {
  static const int free_rows[3] = {1, 3, 6};
  int row = 3 * nc, k = 0, kf = 0;
  while (nuni > 0 || nbox > 0 || nfree > 0) {
    if (nuni > 0) {
      t->block[k++] = (csBlock){CS_CONE_UNILATERAL, row++, 1, 0};
      nuni--;
    }
    if (nbox > 0) {
      t->block[k++] = (csBlock){CS_CONE_BOX, row++, 1, cs_test_uniform(0.05, 1.0)};
      nbox--;
    }
    if (nfree > 0) {
      int n = free_rows[kf++ % 3];
      t->block[k++] = (csBlock){CS_CONE_FREE, row, n, 0};
      row += n;
      nfree--;
    }
  }
  return k;
}

/* G = J W J^T from a random J (nrow x nv, nv = nrow + 4) and W = diag(0.5..2) */
static void mixed_delassus(csTestMixed* t) {
  int n = t->nrow, nv = n + 4;
  double* J = malloc(sizeof(double) * (size_t)n * (size_t)nv);
  double* W = malloc(sizeof(double) * (size_t)nv);
  for (int c = 0; c < nv; c++) W[c] = cs_test_uniform(0.5, 2.0);
  for (size_t e = 0; e < (size_t)n * (size_t)nv; e++) J[e] = cs_test_gauss() / (double)nv;
  for (int r = 0; r < n; r++)
    for (int c = 0; c <= r; c++) {
      double s = 0;
      for (int k = 0; k < nv; k++) s += J[(size_t)r * nv + k] * W[k] * J[(size_t)c * nv + k];
      t->G[(size_t)r * n + c] = t->G[(size_t)c * n + r] = s;
    }
  free(J);
  free(W);
}

csTestMixed* cs_test_mixed_new(int nc, int nuni, int nbox, int nfree) {
  csTestMixed* t = calloc(1, sizeof *t);
  int nb = nuni + nbox + nfree;
  int nrow = 3 * nc + nuni + nbox;
  for (int k = 0; k < nfree; k++) nrow += k % 3 == 0 ? 1 : k % 3 == 1 ? 3 : 6;
  t->nrow = nrow;
  t->mu = malloc(sizeof(double) * (size_t)(nc > 0 ? nc : 1));
  t->G = malloc(sizeof(double) * (size_t)nrow * (size_t)nrow);
  t->g = malloc(sizeof(double) * (size_t)nrow);
  t->lambda = calloc((size_t)nrow, sizeof(double));
  t->block = malloc(sizeof(csBlock) * (size_t)(nb > 0 ? nb : 1));
  for (int i = 0; i < nc; i++) t->mu[i] = cs_test_uniform(0.1, 1.0);
  int k = mixed_blocks(t, nc, nuni, nbox, nfree);
  mixed_delassus(t);
  /* free velocities of the size G lambda takes for impulses of order 1: contacts mostly
     approaching, some sliding, some separating */
  double scale = 0;
  for (int r = 0; r < nrow; r++) scale += t->G[(size_t)r * nrow + r] / nrow;
  for (int r = 0; r < nrow; r++) t->g[r] = scale * cs_test_gauss();
  for (int i = 0; i < nc; i++)
    if (cs_test_uniform(0, 1) < 0.8) t->g[3 * i] = -fabs(t->g[3 * i]) - 0.2 * scale;
  t->p.nc = nc;
  t->p.mu = t->mu;
  t->p.G = t->G;
  t->p.g = t->g;
  t->p.nblock = k;
  t->p.block = k > 0 ? t->block : NULL;
  return t;
}

void cs_test_mixed_free(csTestMixed* t) {
  if (!t) return;
  free(t->mu);
  free(t->G);
  free(t->g);
  free(t->lambda);
  free(t->block);
  free(t);
}
