/* The per-csData arena (internal; docs/memory.md). No heap allocation inside the step.
   The step's constraint arrays sit at the arena's bottom (csi_efc_layout, bytes
   [0, pefc_)), the scratch stack grows down from its top (bytes [pstack_, narena_)). */
#ifndef CS_MEMORY_H
#define CS_MEMORY_H

#include <stddef.h>

#include "contactsim/cs_data.h"

/* Current stack top, to restore with csi_stack_free. */
static inline size_t csi_stack_mark(const csData* d) { return d->pstack_; }
static inline void csi_stack_free(csData* d, size_t mark) { d->pstack_ = mark; }
/* Bytes from the stack (64-byte aligned), or NULL if they do not fit above the constraint
   arrays. Inline: a step takes about fifteen. pefc_ is a multiple of 64 (the layouts round
   it up), so an aligned start at or above pstack_ - bytes >= pefc_ stays above it. */
static inline void* csi_stack_alloc(csData* d, size_t bytes) {
  size_t top = d->pstack_;
  if (bytes > top - d->pefc_) return NULL;
  size_t o = (top - bytes) & ~(size_t)63;
  d->pstack_ = o;
  size_t used = d->narena_ - o;
  d->maxstack_ = used > d->maxstack_ ? used : d->maxstack_;
  return d->arena_ + o;
}
#define CSI_STACK_ALLOC(d, type, count) \
  ((type*)csi_stack_alloc((d), sizeof(type) * (size_t)(count)))

/* Lays out the constraint arrays (efc_J, efc_Y, efc_G, efc_g, efc_lambda, efc_mu; nefc_max)
   for nc contacts and the model's room for block rows at the arena's bottom. CS_ERR_MEMORY
   if they do not fit under the stack (nothing changed then). */
csStatus csi_efc_layout(const csModel* m, csData* d, int nc);
/* Before the problem build: drops the contacts beyond the arena's room for the model's
   current options (a counted CS_WARN_CONTACTFULL with the figures) and lays out the
   constraint arrays for the rest. CS_ERR_MEMORY if not even the block rows fit. */
csStatus csi_efc_fit(const csModel* m, csData* d);

/* The sizes of a step's constraint arrays stored by islands (docs/memory.md, "Islands"). */
typedef struct csiIslandSizes {
  int nc;       /* contacts */
  int nisland;  /* islands */
  size_t ngram; /* doubles of the islands' G: (3 nc_k)^2 for a dense one; for a
                   block-sparse one 9 ncouple_k (its 3 x 3 blocks: the pairs of its
                   contacts that share a tree, both orders and each contact with itself)
                   and its block table (nc_k + 1 + ncouple_k ints, two to a double) */
  size_t nnz;   /* entries of the contacts' dof lists: the sum of their lengths */
} csiIslandSizes;
/* Lays out the constraint arrays by islands (efc_g, efc_lambda, efc_mu, efc_island*,
   efc_Jadr, efc_Jcol, efc_Jval; efc_J, efc_Y and efc_G NULL) at the arena's bottom;
   CS_ERR_MEMORY if they do not fit under the stack (nothing changed then). */
csStatus csi_efc_layout_islands(csData* d, const csiIslandSizes* s);
/* The arena a step needs with contacts by islands of sizes s: the layout above, the build's
   and the warm start's scratch, the solve's workspace (solver bytes) and the dynamics'. */
size_t csi_need_islands(const csModel* m, const csiIslandSizes* s, size_t solver);

#endif
