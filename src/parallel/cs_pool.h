/* The thread pool's internal entry (docs/threading.md): the library's own parallel loops
   (cs_rollout, and later ones) call csi_pool_run to get the failing index and its text. */
#ifndef CS_POOL_H
#define CS_POOL_H

#include <stddef.h>

#include "contactsim/cs_parallel.h"

/* cs_pool_for without formatting the error: runs fn over [0, n) on the static partition.
   Returns CS_OK, or the status of the lowest failing index, whose index goes to *failed and
   whose error text (as fn left it on its thread) to msg (nmsg bytes, always terminated).
   Argument errors as cs_pool_for (*failed = -1, the text in cs_last_error() and msg). */
csStatus csi_pool_run(csPool* pool, int n, csPoolFn fn, void* ctx, int* failed, char* msg,
                      size_t nmsg);

#endif
