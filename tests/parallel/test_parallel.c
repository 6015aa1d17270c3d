/* The thread pool and cs_rollout (docs/threading.md):
   - coverage: every index in [0, n) runs exactly once, on the worker the static partition
     names (worker w: [n w / N, n (w + 1) / N)), worker 0 being the calling thread, for n
     smaller and larger than the thread count, with 1, 2, 3 and 8 threads;
   - K = 8 rollouts of the built-in scenes (all seven, and `trot` again from a perturbed
     start) stepped 300 steps with the scenes' controllers by cs_rollout on 1, 2, 3 and 8
     threads: time, qpos and qvel bit for bit (memcmp) those of a serial loop of cs_step;
   - errors: a failing index reports the lowest failing one with its worker's text (every
     index still runs); a rollout whose state is bad fails alone, the others match the
     serial loop; a nested cs_pool_for is refused; bad arguments are refused with a text
     naming them, nothing stepped;
   - no allocation after creation: the library's allocator (cs_set_allocator) is counted
     around cs_pool_for and cs_rollout, and, outside the sanitizer builds, every malloc of
     the process too (this executable replaces malloc, forwarding to glibc's). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "core/cs_error.h"
#include "cs_scene.h"
#include "cs_test.h"

/* ------------------------------------------------------------------ allocation counting */
static long lib_allocs; /* through cs_set_allocator: the library's own */
static void* lib_malloc(size_t n) {
  __atomic_fetch_add(&lib_allocs, 1, __ATOMIC_RELAXED);
  return malloc(n);
}

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define COUNT_PROCESS_MALLOC 1
/* glibc's allocator under its own names; this executable's malloc family counts and forwards
   (glibc supports replacing malloc this way; memalign and friends stay glibc's, and their
   blocks are freed through the same allocator). */
extern void* __libc_malloc(size_t n);
extern void* __libc_calloc(size_t c, size_t n);
extern void* __libc_realloc(void* p, size_t n);
extern void __libc_free(void* p);
static long process_allocs;
void* malloc(size_t n) {
  __atomic_fetch_add(&process_allocs, 1, __ATOMIC_RELAXED);
  return __libc_malloc(n);
}
void* calloc(size_t c, size_t n) {
  __atomic_fetch_add(&process_allocs, 1, __ATOMIC_RELAXED);
  return __libc_calloc(c, n);
}
void* realloc(void* p, size_t n) {
  __atomic_fetch_add(&process_allocs, 1, __ATOMIC_RELAXED);
  return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
static long process_count(void) { return __atomic_load_n(&process_allocs, __ATOMIC_RELAXED); }
#else
#define COUNT_PROCESS_MALLOC 0
static long process_count(void) { return 0; }
#endif

static long lib_count(void) { return __atomic_load_n(&lib_allocs, __ATOMIC_RELAXED); }

/* ------------------------------------------------------------------ coverage */
enum { MAXN = 1000 };

typedef struct Cover {
  int count[MAXN];
  int worker[MAXN];
  int on_caller[MAXN];
  pthread_t caller;
} Cover;

static csStatus cover_fn(void* ctx, int i, int worker) {
  Cover* c = ctx;
  __atomic_fetch_add(&c->count[i], 1, __ATOMIC_RELAXED); /* atomic: a double run must show */
  c->worker[i] = worker;
  c->on_caller[i] = pthread_equal(pthread_self(), c->caller) != 0;
  return CS_OK;
}

static void check_coverage(csPool* pool, int n) {
  static Cover c;
  memset(&c, 0, sizeof c);
  c.caller = pthread_self();
  int nt = cs_pool_size(pool);
  csStatus st = cs_pool_for(pool, n, cover_fn, &c);
  CHECK_MSG(st == CS_OK, "nthread %d n %d: %s", nt, n, cs_last_error());
  int bad_count = 0, bad_worker = 0, bad_thread = 0;
  for (int i = 0; i < n; i++) {
    bad_count += c.count[i] != 1;
    int expect = -1; /* the worker whose block [n w / N, n (w + 1) / N) holds i */
    for (int w = 0; w < nt; w++)
      if ((long long)n * w / nt <= i && i < (long long)n * (w + 1) / nt) expect = w;
    bad_worker += c.worker[i] != expect;
    bad_thread += c.on_caller[i] != (c.worker[i] == 0);
  }
  for (int i = n; i < MAXN; i++) bad_count += c.count[i] != 0;
  CHECK_MSG(bad_count == 0, "nthread %d n %d: %d indices not run exactly once", nt, n, bad_count);
  CHECK_MSG(bad_worker == 0, "nthread %d n %d: %d indices off the static partition", nt, n,
            bad_worker);
  CHECK_MSG(bad_thread == 0, "nthread %d n %d: worker 0 is not the caller for %d indices", nt, n,
            bad_thread);
}

/* ------------------------------------------------------------------ errors in fn */
typedef struct Fail {
  int count[MAXN];
  csPool* pool;
  csStatus nested; /* what a nested cs_pool_for returned */
} Fail;

static csStatus fail_fn(void* ctx, int i, int worker) {
  (void)worker;
  Fail* f = ctx;
  __atomic_fetch_add(&f->count[i], 1, __ATOMIC_RELAXED);
  if (i == 5 || i == 17 || i == 40)
    return csi_error(i == 5 ? CS_ERR_NUMERIC : CS_ERR_MODEL, "made to fail at %d", i);
  return CS_OK;
}

static csStatus nested_fn(void* ctx, int i, int worker) {
  (void)worker;
  Fail* f = ctx;
  if (i == 0) {
    csStatus st = cs_pool_for(f->pool, 4, fail_fn, f);
    f->nested = st;
    return st;
  }
  return CS_OK;
}

static void check_errors(csPool* pool) {
  int nt = cs_pool_size(pool);
  static Fail f;
  memset(&f, 0, sizeof f);
  csStatus st = cs_pool_for(pool, 50, fail_fn, &f);
  CHECK_MSG(st == CS_ERR_NUMERIC, "nthread %d: status %d, expected the lowest failing (5)", nt,
            (int)st);
  CHECK_MSG(strstr(cs_last_error(), "index 5: made to fail at 5") != NULL,
            "nthread %d: error text '%s'", nt, cs_last_error());
  int once = 1;
  for (int i = 0; i < 50; i++) once &= f.count[i] == 1;
  CHECK_MSG(once, "nthread %d: not every index ran once after failures", nt);
  /* nested: refused, no deadlock */
  memset(&f, 0, sizeof f);
  f.pool = pool;
  f.nested = CS_OK;
  st = cs_pool_for(pool, 2 * nt, nested_fn, &f);
  CHECK_MSG(f.nested == CS_ERR_STATE, "nthread %d: nested cs_pool_for gave %d", nt, (int)f.nested);
  CHECK(st == CS_ERR_STATE);
  CHECK_MSG(strstr(cs_last_error(), "already running") != NULL, "nested: '%s'", cs_last_error());
  /* the pool works after errors */
  check_coverage(pool, 37);
}

/* ------------------------------------------------------------------ rollouts */
enum { K = 8, NSTEP = 300 };

typedef struct Final {
  double time;
  long nstep;
  double* qpos;
  double* qvel;
} Final;

static void scene_ctl(void* ctx, int k, const csModel* m, csData* d) {
  csScene* sc = ctx;
  cs_scene_control(&sc[k], m, d);
}

/* Rollout k's start: the scene's own, rollout 7 (trot again) perturbed. */
static void start(csScene* s, int k) {
  cs_scene_reset(s);
  if (k == 7) {
    const csModel* m = s->m;
    double q[64], v[64];
    memcpy(q, s->d->qpos, sizeof(double) * (size_t)m->nq);
    memcpy(v, s->d->qvel, sizeof(double) * (size_t)m->nv);
    q[2] += 0.03;
    v[0] = 0.2, v[4] = -0.5;
    CHECK(cs_data_set_state(m, s->d, q, m->nq, v, m->nv) == CS_OK);
  }
}

static int same_as(const csScene* s, const Final* f) {
  const csModel* m = s->m;
  const csData* d = s->d;
  return memcmp(&d->time, &f->time, sizeof(double)) == 0 && d->nstep == f->nstep &&
         memcmp(d->qpos, f->qpos, sizeof(double) * (size_t)m->nq) == 0 &&
         memcmp(d->qvel, f->qvel, sizeof(double) * (size_t)m->nv) == 0;
}

int main(void) {
  cs_set_allocator(lib_malloc, free);
  const char* dir = cs_test_source("models");
  const char* const* names = cs_scene_names();
  int nscene = 0;
  while (names[nscene]) nscene++;
  CHECK(nscene == 7);

  /* ---- bad arguments */
  csPool* pool = (csPool*)&pool; /* not NULL: must be set to NULL on error */
  CHECK(cs_pool_new(-1, &pool) == CS_ERR_ARG && pool == NULL);
  CHECK_MSG(strstr(cs_last_error(), "nthread = -1") != NULL, "'%s'", cs_last_error());
  CHECK(cs_pool_new(CS_POOL_MAX_THREADS + 1, &pool) == CS_ERR_ARG && pool == NULL);
  CHECK(cs_pool_new(2, NULL) == CS_ERR_ARG);
  CHECK_MSG(strstr(cs_last_error(), "out is NULL") != NULL, "'%s'", cs_last_error());
  CHECK(cs_pool_for(NULL, 4, cover_fn, NULL) == CS_ERR_ARG);
  CHECK_MSG(strstr(cs_last_error(), "pool is NULL") != NULL, "'%s'", cs_last_error());
  CHECK(cs_pool_size(NULL) == 0);
  cs_pool_free(NULL);

  CHECK(cs_pool_new(0, &pool) == CS_OK);
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  CHECK_MSG(cs_pool_size(pool) == (ncpu < 1 ? 1 : ncpu), "pool of 0 threads: %d, %ld CPUs",
            cs_pool_size(pool), ncpu);
  CHECK(cs_pool_for(pool, 4, NULL, NULL) == CS_ERR_ARG);
  CHECK_MSG(strstr(cs_last_error(), "fn is NULL") != NULL, "'%s'", cs_last_error());
  CHECK(cs_pool_for(pool, -3, cover_fn, NULL) == CS_ERR_ARG);
  CHECK_MSG(strstr(cs_last_error(), "n = -3") != NULL, "'%s'", cs_last_error());
  CHECK(cs_pool_for(pool, 0, cover_fn, NULL) == CS_OK); /* nothing to do: fn not called */
  cs_pool_free(pool);

  /* ---- the scenes and the serial reference */
  csScene sc[K];
  Final ref[K];
  const csModel* ms[K];
  csData* ds[K];
  int loaded = 1;
  long proc0 = process_count();
  for (int k = 0; k < K; k++) {
    const char* name = k < nscene ? names[k] : "trot";
    csStatus st = cs_scene_load(name, dir, NAN, &sc[k]);
    CHECK_MSG(st == CS_OK, "load %s: %s", name, cs_last_error());
    if (st != CS_OK) {
      loaded = 0;
      break;
    }
    ms[k] = sc[k].m;
    ds[k] = sc[k].d;
    start(&sc[k], k);
    for (int s = 0; s < NSTEP; s++) {
      cs_scene_control(&sc[k], sc[k].m, sc[k].d);
      st = cs_step(sc[k].m, sc[k].d);
      if (st != CS_OK) {
        CHECK_MSG(0, "%s step %d: %s", name, s, cs_last_error());
        break;
      }
    }
    ref[k].time = sc[k].d->time;
    ref[k].nstep = sc[k].d->nstep;
    ref[k].qpos = malloc(sizeof(double) * (size_t)sc[k].m->nq);
    ref[k].qvel = malloc(sizeof(double) * (size_t)sc[k].m->nv);
    memcpy(ref[k].qpos, sc[k].d->qpos, sizeof(double) * (size_t)sc[k].m->nq);
    memcpy(ref[k].qvel, sc[k].d->qvel, sizeof(double) * (size_t)sc[k].m->nv);
  }
  if (!loaded) return cs_test_finish("test_parallel");
  /* the counter counts (loading the scenes' XML allocates) */
  CHECK(!COUNT_PROCESS_MALLOC || process_count() > proc0);
  CHECK_MSG(!same_as(&sc[7], &ref[2]) && ref[7].qpos[2] != ref[2].qpos[2],
            "the perturbed trot ends where trot does");

  /* ---- rollout argument errors: nothing stepped */
  {
    csPool* p1 = NULL;
    CHECK(cs_pool_new(2, &p1) == CS_OK);
    for (int k = 0; k < K; k++) start(&sc[k], k);
    csData* dup[K];
    memcpy(dup, ds, sizeof dup);
    dup[6] = dup[2];
    CHECK(cs_rollout(p1, K, ms, dup, 10, scene_ctl, sc, NULL) == CS_ERR_ARG);
    CHECK_MSG(strstr(cs_last_error(), "d[2] and d[6] are the same csData") != NULL, "'%s'",
              cs_last_error());
    dup[6] = NULL;
    CHECK(cs_rollout(p1, K, ms, dup, 10, scene_ctl, sc, NULL) == CS_ERR_ARG);
    CHECK_MSG(strstr(cs_last_error(), "d[6] is NULL") != NULL, "'%s'", cs_last_error());
    CHECK(cs_rollout(NULL, K, ms, ds, 10, NULL, NULL, NULL) == CS_ERR_ARG);
    CHECK_MSG(strstr(cs_last_error(), "pool is NULL") != NULL, "'%s'", cs_last_error());
    CHECK(cs_rollout(p1, -1, ms, ds, 10, NULL, NULL, NULL) == CS_ERR_ARG);
    CHECK_MSG(strstr(cs_last_error(), "K = -1") != NULL, "'%s'", cs_last_error());
    CHECK(cs_rollout(p1, K, ms, ds, -5, NULL, NULL, NULL) == CS_ERR_ARG);
    CHECK_MSG(strstr(cs_last_error(), "nstep = -5") != NULL, "'%s'", cs_last_error());
    CHECK(cs_rollout(p1, K, NULL, ds, 10, NULL, NULL, NULL) == CS_ERR_ARG);
    CHECK_MSG(strstr(cs_last_error(), "model array is NULL") != NULL, "'%s'", cs_last_error());
    long stepped = 0;
    for (int k = 0; k < K; k++) stepped += ds[k]->nstep;
    CHECK_MSG(stepped == 0, "refused rollouts stepped %ld times", stepped);
    CHECK(cs_rollout(p1, 0, NULL, NULL, 10, NULL, NULL, NULL) == CS_OK);
    cs_pool_free(p1);
  }

  /* ---- per thread count: coverage, errors, rollouts equal to the serial loop */
  const int nthreads[4] = {1, 2, 3, 8};
  const int sizes[9] = {1, 2, 3, 5, 7, 8, 9, 100, MAXN};
  for (int t = 0; t < 4; t++) {
    int nt = nthreads[t];
    long lib0 = lib_count();
    CHECK(cs_pool_new(nt, &pool) == CS_OK);
    if (!pool) continue;
    CHECK(cs_pool_size(pool) == nt);
    CHECK_MSG(lib_count() > lib0, "cs_pool_new allocated nothing through the allocator");
    for (int j = 0; j < 9; j++) check_coverage(pool, sizes[j]);
    check_errors(pool);

    for (int k = 0; k < K; k++) start(&sc[k], k);
    csStatus status[K];
    for (int k = 0; k < K; k++) status[k] = CS_ERR_STATE;
    long lib1 = lib_count(), proc1 = process_count();
    csStatus st = cs_rollout(pool, K, ms, ds, NSTEP, scene_ctl, sc, status);
    long lib2 = lib_count(), proc2 = process_count();
    CHECK_MSG(st == CS_OK, "nthread %d: %s", nt, cs_last_error());
    CHECK_MSG(lib2 == lib1, "nthread %d: cs_rollout allocated %ld times (library)", nt,
              lib2 - lib1);
    CHECK_MSG(proc2 == proc1, "nthread %d: cs_rollout allocated %ld times (process)", nt,
              proc2 - proc1);
    int equal = 0;
    for (int k = 0; k < K; k++) {
      CHECK(status[k] == CS_OK);
      int same = same_as(&sc[k], &ref[k]);
      CHECK_MSG(same, "nthread %d: rollout %d (%s) differs from the serial loop", nt, k,
                sc[k].name);
      equal += same;
    }
    /* a bad state fails that rollout alone; the others still match the serial loop */
    for (int k = 0; k < K; k++) start(&sc[k], k);
    sc[3].d->qvel[1] = NAN;
    st = cs_rollout(pool, K, ms, ds, NSTEP, scene_ctl, sc, status);
    CHECK_MSG(st != CS_OK && st == status[3], "nthread %d: bad rollout gave %d / %d", nt, (int)st,
              (int)status[3]);
    CHECK_MSG(strstr(cs_last_error(), "cs_rollout: rollout 3: step 0 of 300") != NULL &&
                  strstr(cs_last_error(), "qvel") != NULL,
              "nthread %d: '%s'", nt, cs_last_error());
    CHECK(sc[3].d->nstep == 0);
    int others = 0;
    for (int k = 0; k < K; k++)
      if (k != 3) others += status[k] == CS_OK && same_as(&sc[k], &ref[k]);
    CHECK_MSG(others == K - 1, "nthread %d: %d of %d good rollouts match beside a bad one", nt,
              others, K - 1);
    /* cs_pool_for allocates nothing either */
    static Cover c;
    long lib3 = lib_count(), proc3 = process_count();
    for (int rep = 0; rep < 20; rep++) cs_pool_for(pool, MAXN, cover_fn, &c);
    CHECK(lib_count() == lib3 && process_count() == proc3);
    printf(
        "nthread %d: coverage n in {1 .. %d}, %d of %d rollouts (%d steps) bit for bit the "
        "serial loop's; allocations in cs_rollout: %ld (library), %s\n",
        nt, MAXN, equal, K, NSTEP, lib2 - lib1,
        COUNT_PROCESS_MALLOC ? (proc2 == proc1 ? "0 (process)" : "some (process)")
                             : "process not counted (sanitizer build)");
    cs_pool_free(pool);
    pool = NULL;
  }
  for (int k = 0; k < K; k++) {
    cs_scene_free(&sc[k]);
    free(ref[k].qpos);
    free(ref[k].qvel);
  }
  cs_set_allocator(NULL, NULL);
  return cs_test_finish("test_parallel");
}
