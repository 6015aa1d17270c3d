/* Matching this step's contacts to the last step's by geom pair and feature id
   (src/constraint/cs_contact_match.h). */
#include "constraint/cs_contact_match.h"

#include <string.h>

static size_t table_size(int n) {
  size_t s = 64;
  while (s < 2 * (size_t)n) s *= 2;
  return s;
}

size_t csi_contact_match_bytes(int ncon_prev) {
  return ncon_prev < CSI_MATCH_HASH_MIN ? 0 : sizeof(int) * table_size(ncon_prev);
}

static size_t key_hash(const csContact* c, size_t mask) {
  unsigned long long h = (unsigned long long)(unsigned)c->geom[0] * 0x9E3779B97F4A7C15ull;
  h ^= (unsigned long long)(unsigned)c->geom[1] * 0xC2B2AE3D27D4EB4Full;
  h ^= (unsigned long long)(unsigned)c->feature * 0x165667B19E3779F9ull;
  h ^= h >> 29;
  return (size_t)h & mask;
}

/* The table: slot = 1 + the index of the first last-step contact with a key (0: empty) */
static void match_hashed(const csData* d, int* prev, int* table) {
  size_t size = table_size(d->ncon_prev), mask = size - 1;
  memset(table, 0, sizeof(int) * size);
  for (int j = 0; j < d->ncon_prev; j++) {
    const csContact* q = d->contact_prev + j;
    size_t h = key_hash(q, mask);
    while (table[h] && !csi_contact_same_key(d->contact_prev + table[h] - 1, q)) h = (h + 1) & mask;
    if (!table[h]) table[h] = j + 1; /* a repeated key keeps its first contact */
  }
  for (int i = 0; i < d->ncon; i++) {
    const csContact* c = d->contact + i;
    size_t h = key_hash(c, mask);
    prev[i] = -1;
    for (; table[h]; h = (h + 1) & mask)
      if (csi_contact_same_key(d->contact_prev + table[h] - 1, c)) {
        prev[i] = table[h] - 1;
        break;
      }
  }
}

void csi_contact_match(const csData* d, int* prev, void* scratch) {
  if (d->ncon_prev >= CSI_MATCH_HASH_MIN && scratch) {
    match_hashed(d, prev, scratch);
    return;
  }
  for (int i = 0; i < d->ncon; i++) prev[i] = csi_contact_previous(d, d->contact + i);
}
