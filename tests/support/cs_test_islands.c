/* Random problems of independent islands (cs_test_islands.h). */
#include "cs_test_islands.h"

#include <stdlib.h>
#include <string.h>

/* Round-robin ids: item j of part s gets the next id while any part has items left; id[s]
   receives part s's ids in increasing order. */
static void round_robin(int k, const int* count, int** id) {
  int next = 0, most = 0;
  for (int s = 0; s < k; s++) most = count[s] > most ? count[s] : most;
  for (int j = 0; j < most; j++)
    for (int s = 0; s < k; s++)
      if (j < count[s]) id[s][j] = next++;
}

/* The ids of every part (contacts then blocks of each in t->ids) and the island table. */
static void islands_ids(csTestIslands* t) {
  int* cnt = malloc(sizeof(int) * 2 * (size_t)t->k);
  int** cid = malloc(sizeof(int*) * 2 * (size_t)t->k);
  int** bid = cid + t->k;
  int at = 0;
  for (int s = 0; s < t->k; s++) {
    cnt[s] = t->part[s]->p.nc, cnt[t->k + s] = t->part[s]->p.nblock;
    cid[s] = t->ids + at, at += cnt[s];
    bid[s] = t->ids + at, at += cnt[t->k + s];
  }
  round_robin(t->k, cnt, cid);
  round_robin(t->k, cnt + t->k, bid);
  for (int s = 0; s < t->k; s++)
    t->table[s] = (csIsland){cnt[s], cid[s], cnt[t->k + s], bid[s], t->part[s]->G};
  free(cnt);
  free(cid);
}

/* Global row of island s's row r (its contacts' rows, then its blocks'). */
static int global_row(const csTestIslands* t, int s, int r) {
  const csIsland* I = t->table + s;
  if (r < 3 * I->nc) return 3 * I->contact[r / 3] + r % 3;
  r -= 3 * I->nc;
  for (int b = 0;; b++) {
    const csBlock* B = t->block + I->block[b];
    if (r < B->n) return B->row + r;
    r -= B->n;
  }
}

/* The whole problem's block table, mu, g and dense G from the parts. */
static void islands_fill(csTestIslands* t, int nc, int nb) {
  for (int s = 0; s < t->k; s++)
    for (int b = 0; b < t->table[s].nblock; b++)
      t->block[t->table[s].block[b]] = t->part[s]->block[b];
  int row = 3 * nc;
  for (int b = 0; b < nb; b++) t->block[b].row = row, row += t->block[b].n;
  t->nrow = row;
  t->G = calloc((size_t)row * (size_t)row, sizeof(double));
  t->g = malloc(sizeof(double) * (size_t)row);
  t->lambda = calloc((size_t)row, sizeof(double));
  for (int s = 0; s < t->k; s++) {
    const csTestMixed* q = t->part[s];
    for (int a = 0; a < q->p.nc; a++) t->mu[t->table[s].contact[a]] = q->mu[a];
    for (int r = 0; r < q->nrow; r++) {
      int gr = global_row(t, s, r);
      t->g[gr] = q->g[r];
      for (int c = 0; c < q->nrow; c++)
        t->G[(size_t)gr * (size_t)row + (size_t)global_row(t, s, c)] =
            q->G[(size_t)r * (size_t)q->nrow + (size_t)c];
    }
  }
}

csTestIslands* cs_test_islands_new(int k, const int (*size)[4]) {
  csTestIslands* t = calloc(1, sizeof *t);
  t->k = k;
  t->part = malloc(sizeof(csTestMixed*) * (size_t)k);
  t->table = malloc(sizeof(csIsland) * (size_t)k);
  int nc = 0, nb = 0;
  for (int s = 0; s < k; s++) {
    t->part[s] = cs_test_mixed_new(size[s][0], size[s][1], size[s][2], size[s][3]);
    nc += t->part[s]->p.nc, nb += t->part[s]->p.nblock;
  }
  t->ids = malloc(sizeof(int) * (size_t)(nc + nb + 1));
  t->mu = malloc(sizeof(double) * (size_t)(nc + 1));
  t->block = malloc(sizeof(csBlock) * (size_t)(nb + 1));
  islands_ids(t);
  islands_fill(t, nc, nb);
  csContactProblem p = {0};
  p.nc = nc, p.mu = t->mu, p.g = t->g, p.nblock = nb, p.block = nb ? t->block : NULL;
  t->dense = p, t->dense.G = t->G;
  t->island = p, t->island.nisland = k, t->island.island = t->table;
  return t;
}

void cs_test_islands_free(csTestIslands* t) {
  if (!t) return;
  for (int s = 0; s < t->k; s++) cs_test_mixed_free(t->part[s]);
  free(t->part);
  free(t->table);
  free(t->ids);
  free(t->mu);
  free(t->G);
  free(t->g);
  free(t->block);
  free(t->lambda);
  free(t);
}
