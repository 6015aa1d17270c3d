/* Threads: the project's one mechanism for parallel work (docs/threading.md).

   A csPool is a fixed set of POSIX threads made once. cs_pool_for(pool, n, fn, ctx) runs
   fn(ctx, i, worker) for every i in [0, n) and returns when all are done. The partition is
   static: with N threads, worker w runs the contiguous block of indices
   [floor(n w / N), floor(n (w + 1) / N)) in increasing order, and the calling thread is
   worker 0. Work of one index must be independent of the others (or write only to its own
   slot): then the results are bit for bit the same for any thread count.

   All memory (the pool, its threads) is taken by cs_pool_new; cs_pool_for and cs_rollout
   allocate nothing and never exit the process. Errors are returned as csStatus with
   cs_last_error() (thread-local) set on the calling thread.

   Thread safety of the rest of the API: a csModel is read-only once compiled and may be
   shared by any number of threads; a csData must be used by one thread at a time.
   cs_set_allocator and cs_set_log must not be called while other threads use the library. */
#ifndef CONTACTSIM_CS_PARALLEL_H
#define CONTACTSIM_CS_PARALLEL_H

#include "cs_data.h"
#include "cs_export.h"
#include "cs_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct csPool csPool;

/* The most threads a pool may have. */
#define CS_POOL_MAX_THREADS 1024

/* Work of index i, run by worker `worker` (0 = the thread that called cs_pool_for). Return
   CS_OK, or an error status after setting the error text (any library call that failed
   has set it already). */
typedef csStatus (*csPoolFn)(void* ctx, int i, int worker);

/* A pool of nthread workers: the caller of cs_pool_for and nthread - 1 threads started here.
   nthread = 0 takes the number of online CPUs; nthread = 1 starts no thread (cs_pool_for
   runs inline in the caller). nthread < 0 or > CS_POOL_MAX_THREADS: CS_ERR_ARG. On error
   *out is NULL. */
CS_API csStatus cs_pool_new(int nthread, csPool** out);
/* Stops and joins the threads and frees the pool. NULL is allowed. Not while a
   cs_pool_for of this pool runs. */
CS_API void cs_pool_free(csPool* pool);
/* Number of workers (>= 1), worker indices being 0 .. size - 1; 0 for NULL. */
CS_API int cs_pool_size(const csPool* pool);

/* Runs fn(ctx, i, worker) for i in [0, n) on the static partition above and blocks until
   all are done. Every index runs even if some fail; the result is CS_OK or the status of the
   lowest failing index, with cs_last_error() = "cs_pool_for: index i: <its text>".
   n = 0 does nothing. Rejected (CS_ERR_ARG): pool or fn NULL, n < 0. Rejected
   (CS_ERR_STATE): a call on a pool that is already running a cs_pool_for (from inside fn,
   or from another thread at the same time). */
CS_API csStatus cs_pool_for(csPool* pool, int n, csPoolFn fn, void* ctx);

/* Called before each step of rollout k with its model and data (as a scene's controller
   sets ctrl or qfrc_applied). Runs on a worker thread: it must touch only rollout k's
   state (its own data, its own part of ctx). */
typedef void (*csRolloutControlFn)(void* ctx, int k, const csModel* m, csData* d);

/* Steps K independent rollouts in parallel on pool: rollout k takes nstep steps of
   cs_step(m[k], d[k]), each preceded by control(ctx, k, m[k], d[k]) when control is not
   NULL. One model for all rollouts: pass the same pointer K times (a csModel is read-only
   and shared); the K datas must be distinct (a csData is used by one thread at a time;
   checked when K <= 4096). The final states are bit for bit those of a serial loop
   over k, for any pool size.
   A rollout stops at its first failing step (d[k] is then as cs_step leaves it on
   failure: unchanged by that step); the others go on. status (K entries, may be NULL)
   receives each rollout's result. Returns CS_OK, or the status of the lowest failing
   rollout with cs_last_error() = "cs_rollout: rollout k: step s (t = ...): <cs_step's
   text>". Bad arguments (CS_ERR_ARG, nothing stepped): pool NULL, K < 0, nstep < 0, m or d
   NULL when K > 0, a NULL entry, a csData given twice. */
CS_API csStatus cs_rollout(csPool* pool, int K, const csModel* const* m, csData* const* d,
                           int nstep, csRolloutControlFn control, void* ctx, csStatus* status);

#ifdef __cplusplus
}
#endif
#endif
