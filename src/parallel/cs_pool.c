/* The thread pool (include/contactsim/cs_parallel.h, docs/threading.md): nthread - 1 POSIX
   threads started once, woken per cs_pool_for by a generation counter under one mutex; the
   caller is worker 0. Each worker runs a fixed contiguous block of the indices, so which
   worker runs which index depends only on (n, nthread). Everything is allocated in
   cs_pool_new; a run takes the mutex and waits on condition variables, nothing else. */
#define _POSIX_C_SOURCE 200809L /* pthreads, sysconf, pthread_sigmask */

#include "parallel/cs_pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/cs_error.h"

enum { ERRMSG_LEN = 512 };

/* One worker's record of its first (so lowest) failing index in the current run. Written by
   its worker only (once per run, and on a failure), read by the caller after the run. */
typedef struct Slot {
  int index; /* -1: none failed */
  csStatus status;
  char msg[ERRMSG_LEN];
} Slot;

typedef struct Worker {
  csPool* pool;
  int id;
} Worker;

struct csPool {
  int nthread;
  pthread_mutex_t mu;
  pthread_cond_t start; /* workers wait here for a new generation (or shutdown) */
  pthread_cond_t done;  /* the caller waits here for pending == 0 */
  unsigned long generation;
  int shutdown;
  int busy;    /* a run is under way: a second (nested or concurrent) one is refused */
  int pending; /* threads still running the current generation */
  /* the current job */
  csPoolFn fn;
  void* ctx;
  int n;
  pthread_t* thread; /* (nthread - 1) */
  Worker* worker;    /* (nthread - 1), thread t runs worker t + 1 */
  int nstarted;
  Slot* slot; /* (nthread) */
  int mu_init, start_init, done_init;
};

/* The block of worker w: [lo, hi). */
static void block(int n, int nthread, int w, int* lo, int* hi) {
  *lo = (int)((long long)n * w / nthread);
  *hi = (int)((long long)n * (w + 1) / nthread);
}

static void run_block(csPool* p, int w, csPoolFn fn, void* ctx, int n) {
  Slot* s = &p->slot[w];
  s->index = -1;
  s->status = CS_OK;
  int lo, hi;
  block(n, p->nthread, w, &lo, &hi);
  for (int i = lo; i < hi; i++) {
    csStatus st = fn(ctx, i, w);
    if (st != CS_OK && s->index < 0) {
      s->index = i;
      s->status = st;
      snprintf(s->msg, sizeof s->msg, "%s", cs_last_error()); /* this thread's text */
    }
  }
}

static void* worker_main(void* arg) {
  Worker* wk = arg;
  csPool* p = wk->pool;
  unsigned long seen = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (p->generation == seen && !p->shutdown) pthread_cond_wait(&p->start, &p->mu);
    if (p->shutdown) break;
    seen = p->generation;
    csPoolFn fn = p->fn;
    void* ctx = p->ctx;
    int n = p->n;
    pthread_mutex_unlock(&p->mu);
    run_block(p, wk->id, fn, ctx, n);
    pthread_mutex_lock(&p->mu);
    if (--p->pending == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

void cs_pool_free(csPool* p) {
  if (!p) return;
  if (p->nstarted > 0) {
    pthread_mutex_lock(&p->mu);
    p->shutdown = 1;
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->mu);
    for (int t = 0; t < p->nstarted; t++) pthread_join(p->thread[t], NULL);
  }
  if (p->done_init) pthread_cond_destroy(&p->done);
  if (p->start_init) pthread_cond_destroy(&p->start);
  if (p->mu_init) pthread_mutex_destroy(&p->mu);
  cs_free(p->slot);
  cs_free(p->worker);
  cs_free(p->thread);
  cs_free(p);
}

csStatus cs_pool_new(int nthread, csPool** out) {
  if (!out) return csi_error(CS_ERR_ARG, "cs_pool_new: out is NULL");
  *out = NULL;
  if (nthread < 0 || nthread > CS_POOL_MAX_THREADS)
    return csi_error(CS_ERR_ARG, "cs_pool_new: nthread = %d, expected 0 (online CPUs) to %d",
                     nthread, CS_POOL_MAX_THREADS);
  if (nthread == 0) {
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    nthread = ncpu < 1 ? 1 : ncpu > CS_POOL_MAX_THREADS ? CS_POOL_MAX_THREADS : (int)ncpu;
  }
  csPool* p = csi_calloc(1, sizeof *p);
  if (!p) return csi_error(CS_ERR_MEMORY, "cs_pool_new: out of memory");
  p->nthread = nthread;
  p->slot = csi_calloc((size_t)nthread, sizeof *p->slot);
  if (nthread > 1) {
    p->thread = csi_calloc((size_t)nthread - 1, sizeof *p->thread);
    p->worker = csi_calloc((size_t)nthread - 1, sizeof *p->worker);
  }
  if (!p->slot || (nthread > 1 && (!p->thread || !p->worker))) {
    cs_pool_free(p);
    return csi_error(CS_ERR_MEMORY, "cs_pool_new: out of memory for %d threads", nthread);
  }
  int rc = pthread_mutex_init(&p->mu, NULL);
  p->mu_init = rc == 0;
  if (rc == 0) rc = pthread_cond_init(&p->start, NULL), p->start_init = rc == 0;
  if (rc == 0) rc = pthread_cond_init(&p->done, NULL), p->done_init = rc == 0;
  if (rc != 0) {
    cs_pool_free(p);
    return csi_error(CS_ERR_MEMORY, "cs_pool_new: mutex or condition variable init failed (%d)",
                     rc);
  }
  /* The workers block every asynchronous signal: their handlers run on the application's
     threads. */
  sigset_t all, old;
  sigfillset(&all);
  /* except the ones a fault raises on the thread itself: blocked, they would kill the process
     without the application's handler (a crash reporter, a sanitizer's report) */
  static const int sync_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
  for (size_t i = 0; i < sizeof sync_signals / sizeof sync_signals[0]; i++)
    sigdelset(&all, sync_signals[i]);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  for (int t = 0; t < nthread - 1 && rc == 0; t++) {
    p->worker[t].pool = p;
    p->worker[t].id = t + 1;
    rc = pthread_create(&p->thread[t], NULL, worker_main, &p->worker[t]);
    if (rc == 0) p->nstarted++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    int started = p->nstarted;
    cs_pool_free(p);
    return csi_error(
        CS_ERR_MEMORY,
        "cs_pool_new: could not start worker %d (workers 0 to %d; pthread_create error %d)",
        started + 1, nthread - 1, rc);
  }
  *out = p;
  return CS_OK;
}

int cs_pool_size(const csPool* p) { return p ? p->nthread : 0; }

csStatus csi_pool_run(csPool* p, int n, csPoolFn fn, void* ctx, int* failed, char* msg,
                      size_t nmsg) {
  *failed = -1;
  if (nmsg) msg[0] = 0;
  csStatus st = CS_OK;
  if (!p)
    st = csi_error(CS_ERR_ARG, "cs_pool_for: pool is NULL");
  else if (!fn)
    st = csi_error(CS_ERR_ARG, "cs_pool_for: fn is NULL");
  else if (n < 0)
    st = csi_error(CS_ERR_ARG, "cs_pool_for: n = %d is negative", n);
  if (st != CS_OK) {
    if (nmsg) snprintf(msg, nmsg, "%s", cs_last_error());
    return st;
  }
  if (n == 0) return CS_OK;
  int nt = p->nthread;
  pthread_mutex_lock(&p->mu);
  if (p->busy) {
    pthread_mutex_unlock(&p->mu);
    st = csi_error(CS_ERR_STATE,
                   "cs_pool_for: the pool is already running a loop (a nested call from a "
                   "worker, or a concurrent call from another thread)");
    if (nmsg) snprintf(msg, nmsg, "%s", cs_last_error());
    return st;
  }
  p->busy = 1;
  if (nt > 1) {
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    p->pending = nt - 1;
    p->generation++;
    pthread_cond_broadcast(&p->start);
  }
  pthread_mutex_unlock(&p->mu);
  run_block(p, 0, fn, ctx, n);
  pthread_mutex_lock(&p->mu);
  while (p->pending > 0) pthread_cond_wait(&p->done, &p->mu);
  /* the workers' slots are visible here: each wrote its own before its last unlock */
  const Slot* first = NULL;
  for (int w = 0; w < nt; w++) /* blocks in index order: the first failing worker wins */
    if (p->slot[w].index >= 0) {
      first = &p->slot[w];
      break;
    }
  if (first) {
    *failed = first->index;
    st = first->status;
    if (nmsg) snprintf(msg, nmsg, "%s", first->msg);
  }
  p->busy = 0;
  pthread_mutex_unlock(&p->mu);
  return st;
}

csStatus cs_pool_for(csPool* p, int n, csPoolFn fn, void* ctx) {
  char msg[ERRMSG_LEN];
  int failed;
  csStatus st = csi_pool_run(p, n, fn, ctx, &failed, msg, sizeof msg);
  if (st != CS_OK && failed >= 0) return csi_error(st, "cs_pool_for: index %d: %s", failed, msg);
  return st; /* argument errors: cs_last_error() already says so */
}
