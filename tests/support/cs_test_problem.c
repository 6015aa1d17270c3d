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

const double cs_test_stall_G[81] = {
    1.0390272357486083,     1.0136156337105446,     -0.44619273186949793,  -0.0025935494454883182,
    -0.0013992767803577607, -0.0062175817589918301, 0.037910600628358944,  0.98682655656933715,
    0.99110075404222031,    1.0136156337105446,     4.5541445400674272,    -2.4727781060936422,
    0.0015338046686605312,  0.0027851869562247585,  0.0012147562014148407, -0.13866675374567528,
    4.73603506724809,       0.91237145090442362,    -0.44619273186949793,  -2.4727781060936422,
    1.7244170250587183,     0.0035664715274257514,  0.0051848637626465931, 0.0022317042094835171,
    0.40438593978271004,    -2.7526699334135802,    -0.39922849103966518,  -0.0025935494454883182,
    0.0015338046686605312,  0.0035664715274257514,  2.8770173126798908,    -1.6994342335230734,
    2.5700324219808208,     -1.2119916367286125,    2.6978104957189206,    -3.1307079460847209,
    -0.0013992767803577607, 0.0027851869562247585,  0.0051848637626465931, -1.6994342335230734,
    2.407103617659732,      -2.0847634736444038,    0.53285630749191404,   -3.0304005477043714,
    1.8769600882764175,     -0.0062175817589918301, 0.0012147562014148407, 0.0022317042094835171,
    2.5700324219808208,     -2.0847634736444038,    3.0137280831338766,    -1.4197942043588949,
    3.223155039611584,      -2.8302698759204925,    0.037910600628358944,  -0.13866675374567528,
    0.40438593978271004,    -1.2119916367286125,    0.53285630749191404,   -1.4197942043588949,
    1.1784293458056303,     -1.4415068799715329,    1.3671927318032639,    0.98682655656933715,
    4.73603506724809,       -2.7526699334135802,    2.6978104957189206,    -3.0304005477043714,
    3.223155039611584,      -1.4415068799715329,    9.1238419096991237,    -2.0873231758445385,
    0.99110075404222031,    0.91237145090442362,    -0.39922849103966518,  -3.1307079460847209,
    1.8769600882764175,     -2.8302698759204925,    1.3671927318032639,    -2.0873231758445385,
    4.3490712642809202};
const double cs_test_stall_g[9] = {-0.20836346862514293, -0.45744527041637006, 0.23958276330704262,
                                   -0.75940669584896536, 1.5568641744679095,   -1.2713381787642111,
                                   0.27755382100001702,  -2.3341469483805848,  0.69730166654218273};
