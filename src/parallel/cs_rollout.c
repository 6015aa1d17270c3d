/* cs_rollout: K independent (model, data) rollouts stepped on a csPool, one index per
   rollout, so every rollout's steps run on one thread, in order, whatever the pool size. */
#include <stdio.h>

#include "core/cs_error.h"
#include "parallel/cs_pool.h"

enum { MAX_DUP_CHECK = 4096 };

typedef struct Job {
  const csModel* const* m;
  csData* const* d;
  int nstep;
  csRolloutControlFn control;
  void* ctx;
  csStatus* status;
} Job;

static csStatus run_one(void* arg, int k, int worker) {
  (void)worker;
  const Job* job = arg;
  const csModel* m = job->m[k];
  csData* d = job->d[k];
  csStatus st = CS_OK;
  for (int s = 0; s < job->nstep; s++) {
    if (job->control) job->control(job->ctx, k, m, d);
    st = cs_step(m, d);
    if (st != CS_OK) {
      char why[1024];
      snprintf(why, sizeof why, "%s", cs_last_error());
      st = csi_error(st, "step %d of %d (t = %.17g): %s", s, job->nstep, d->time, why);
      break;
    }
  }
  if (job->status) job->status[k] = st;
  return st;
}

csStatus cs_rollout(csPool* pool, int K, const csModel* const* m, csData* const* d, int nstep,
                    csRolloutControlFn control, void* ctx, csStatus* status) {
  if (!pool) return csi_error(CS_ERR_ARG, "cs_rollout: pool is NULL");
  if (K < 0) return csi_error(CS_ERR_ARG, "cs_rollout: K = %d is negative", K);
  if (nstep < 0) return csi_error(CS_ERR_ARG, "cs_rollout: nstep = %d is negative", nstep);
  if (K > 0 && (!m || !d))
    return csi_error(CS_ERR_ARG, "cs_rollout: the %s array is NULL (K = %d)", !m ? "model" : "data",
                     K);
  for (int k = 0; k < K; k++)
    if (!m[k] || !d[k])
      return csi_error(CS_ERR_ARG, "cs_rollout: %s[%d] is NULL", !m[k] ? "m" : "d", k);
  if (K <= MAX_DUP_CHECK)
    for (int k = 1; k < K; k++)
      for (int j = 0; j < k; j++)
        if (d[j] == d[k])
          return csi_error(CS_ERR_ARG,
                           "cs_rollout: d[%d] and d[%d] are the same csData (a csData is used "
                           "by one thread at a time: give each rollout its own)",
                           j, k);
  Job job = {m, d, nstep, control, ctx, status};
  char msg[512];
  int failed;
  csStatus st = csi_pool_run(pool, K, run_one, &job, &failed, msg, sizeof msg);
  if (st != CS_OK && failed >= 0) return csi_error(st, "cs_rollout: rollout %d: %s", failed, msg);
  return st;
}
