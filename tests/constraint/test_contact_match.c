/* Matching this step's contacts to the last step's (src/constraint/cs_contact_match.c): the
   hash table gives every contact the same match as a search in order (the first contact of
   the last step with its geom pair and feature id), with repeated keys, keys that differ in
   one field only, and sizes from a few to thousands of contacts; and a step with many
   contacts (a grid of boxes on the ground) runs the hashed path and warm starts as before. */
#include <stdlib.h>
#include <string.h>

#include "constraint/cs_contact_match.h"
#include "contactsim/contactsim.h"
#include "cs_test.h"

static void random_key(csContact* c, int range) {
  c->geom[0] = (int)cs_test_uniform(0, range);
  c->geom[1] = c->geom[0] + (int)cs_test_uniform(0, 3);
  c->feature = (int)cs_test_uniform(0, 4);
}

static void test_equivalence(int nprev, int ncur, int range) {
  csContact* prev = calloc((size_t)nprev + 1, sizeof(csContact));
  csContact* cur = calloc((size_t)ncur + 1, sizeof(csContact));
  for (int j = 0; j < nprev; j++) random_key(prev + j, range);
  for (int i = 0; i < ncur; i++) {
    if (i % 2 && nprev > 0) { /* half of them present in the last step */
      cur[i] = prev[(int)cs_test_uniform(0, nprev)];
    } else {
      random_key(cur + i, range);
    }
  }
  csData d;
  memset(&d, 0, sizeof d);
  d.ncon = ncur, d.contact = cur, d.ncon_prev = nprev, d.contact_prev = prev;
  int* a = malloc(sizeof(int) * ((size_t)ncur + 1));
  int* b = malloc(sizeof(int) * ((size_t)ncur + 1));
  size_t sb = csi_contact_match_bytes(nprev);
  void* scratch = sb ? malloc(sb) : NULL;
  csi_contact_match(&d, a, scratch); /* hashed where nprev is large enough */
  csi_contact_match(&d, b, NULL);    /* in order */
  int same = 1, found = 0;
  for (int i = 0; i < ncur; i++) same &= a[i] == b[i], found += a[i] >= 0;
  CHECK_MSG(same, "%d previous, %d current: the hashed and the ordered matches differ", nprev,
            ncur);
  CHECK(nprev == 0 || found >= ncur / 2);
  free(a), free(b), free(scratch), free(prev), free(cur);
}

/* 64 boxes in a grid on the ground: 256 contacts, the hashed path every step */
static void test_grid(void) {
  csBuilder* b = cs_builder_new();
  cs_test_box_grid(b, 64);
  CHECK(cs_builder_set_memory(b, (size_t)64 << 20) == 0); /* 256 contacts: about 20 MB */
  csModel* m = NULL;
  CHECK_MSG(cs_compile(b, &m) == CS_OK, "%s", cs_last_error());
  cs_builder_free(b);
  if (!m) return;
  csData* d = cs_data_new(m);
  CHECK(cs_data_room(m, d) >= 256);
  int bad = 0, iters = 0;
  for (int k = 0; k < 200; k++) {
    bad += cs_step(m, d) != CS_OK;
    if (k >= 100) iters += d->solver_stats.iterations;
  }
  printf("grid of 64 boxes: %d contacts, %.2f iterations per step at rest (warm started)\n",
         d->ncon, iters / 100.0);
  CHECK(bad == 0 && d->ncon == 256);
  CHECK_MSG(iters <= 2 * 100, "%d iterations in 100 resting steps: the warm start is lost", iters);
  cs_data_free(d);
  cs_model_free(m);
}

int main(void) {
  cs_test_seed(3);
  const int sizes[][3] = {{0, 5, 4},    {5, 5, 4},      {23, 30, 8},       {24, 24, 8},
                          {60, 70, 10}, {300, 280, 50}, {2000, 2100, 400}, {5000, 5000, 20}};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    test_equivalence(sizes[k][0], sizes[k][1], sizes[k][2]);
  test_grid();
  return cs_test_finish("test_contact_match");
}
