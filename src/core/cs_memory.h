/* The per-csData scratch stack (internal). No heap allocation inside the step. */
#ifndef CS_MEMORY_H
#define CS_MEMORY_H

#include <stddef.h>

#include "contactsim/cs_data.h"

/* Current stack top, to restore with csi_stack_free. */
static inline size_t csi_stack_mark(const csData* d) { return d->pstack_; }
static inline void csi_stack_free(csData* d, size_t mark) { d->pstack_ = mark; }
/* Bytes from the stack (64-byte aligned), or NULL if the arena is full. */
void* csi_stack_alloc(csData* d, size_t bytes);
#define CSI_STACK_ALLOC(d, type, count) \
  ((type*)csi_stack_alloc((d), sizeof(type) * (size_t)(count)))

#endif
