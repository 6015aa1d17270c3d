/* Algorithm 1 (one sample sequence through discrete Routh steps) and Algorithm 2 (M
   sequences, Sobol or uniform, on the thread pool), docs/impacts.md. Sample k's sequence is
   a function of k alone, and each sample writes only its own slots, so the results are
   bit-identical for any thread count (docs/threading.md). Workspaces are allocated once per
   worker before the loop; the loop allocates nothing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/cs_error.h"
#include "impact/cs_impact.h"
#include "parallel/cs_pool.h"

csStatus cs_impact_run(const csImpact* p, const double* P, double h, int nstep, double* vplus,
                       csImpactSample* info, void* ws) {
  if (!p || !P || !vplus || !info || !ws || nstep < 0 || !(h > 0))
    return csi_error(CS_ERR_ARG, "cs_impact_run: NULL argument, nstep < 0 or h <= 0");
  double *v0, *v1, *lmax;
  csi_imp_ws_vectors(p, ws, &v0, &v1, &lmax);
  memset(info, 0, sizeof *info);
  memcpy(v0, p->v, sizeof(double) * (size_t)p->nv);
  double ke = csi_imp_ke(p, v0);
  info->ke_rise = -INFINITY;
  for (int i = 0; csi_imp_min_vn(p, v0) < -1e-8 && i < nstep; i++) {
    for (int c = 0; c < p->m; c++) lmax[c] = h * P[i * p->m + c];
    double err = 0;
    csStatus s = cs_impact_routh_step(p, v0, lmax, v1, NULL, &err, ws);
    if (s) return s;
    double ke1 = csi_imp_ke(p, v1);
    info->nlcp++;
    info->lcp_err = fmax(info->lcp_err, err);
    info->ke_rise = fmax(info->ke_rise, ke1 - ke);
    ke = ke1;
    double* t = v0;
    v0 = v1, v1 = t;
  }
  if (info->nlcp == 0) info->ke_rise = 0;
  info->terminated = csi_imp_min_vn(p, v0) >= -1e-8;
  info->kept = info->terminated && info->lcp_err <= 1e-6;
  info->ke_final = ke;
  memcpy(vplus, v0, sizeof(double) * (size_t)p->nv);
  return CS_OK;
}

enum { SOBOL_BITS = 32 };

typedef struct SampleCtx {
  const csImpact* p;
  const csImpactOptions* o;
  const unsigned* dirs; /* Sobol direction numbers, or NULL */
  unsigned char* ws;    /* per worker: cs_impact_workspace_bytes, then P */
  size_t ws_stride, ws_bytes;
  double* vplus;
  csImpactSample* info;
} SampleCtx;

static unsigned long long splitmix(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* Sample k's sequence P (m x nstep, dimension d = i m + c). */
static void sequence(const SampleCtx* c, int k, double* P) {
  int nd = c->p->m * c->o->nstep;
  if (c->dirs) {
    unsigned index = (unsigned)k + 1u; /* point 0 is the origin: no impulse at all */
    for (int d = 0; d < nd; d++) {
      unsigned x = 0, i = index;
      for (int j = 0; i; j++, i >>= 1)
        if (i & 1u) x ^= c->dirs[d * SOBOL_BITS + j];
      P[d] = x / 4294967296.0;
    }
    return;
  }
  unsigned long long base = splitmix(c->o->seed) ^ (unsigned long long)k * 0xD1B54A32D192ED03ull;
  for (int d = 0; d < nd; d++)
    P[d] = (double)(splitmix(base + (unsigned long long)d) >> 11) * 0x1.0p-53;
}

static csStatus sample_one(void* ctx, int k, int worker) {
  const SampleCtx* c = ctx;
  unsigned char* ws = c->ws + (size_t)worker * c->ws_stride;
  double* P = (double*)(ws + c->ws_bytes);
  sequence(c, k, P);
  double* vplus = c->vplus + (size_t)k * c->p->nv;
  csStatus s = cs_impact_run(c->p, P, c->o->h, c->o->nstep, vplus, &c->info[k], ws);
  if (s) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", cs_last_error());
    return csi_error(s, "impact sample %d: %s", k, msg);
  }
  return CS_OK;
}

static csStatus check_options(const csImpact* p, const csImpactOptions* o) {
  if (!(o->h > 0) || !isfinite(o->h) || o->nstep < 1 || o->nsample < 0)
    return csi_error(CS_ERR_ARG, "cs_impact_sample: h must be > 0, nstep >= 1, nsample >= 0");
  if (o->sampler != CS_IMPACT_SOBOL && o->sampler != CS_IMPACT_UNIFORM)
    return csi_error(CS_ERR_ARG, "cs_impact_sample: unknown sampler %d", (int)o->sampler);
  if (o->sampler == CS_IMPACT_SOBOL && p->m * o->nstep > cs_impact_sobol_dims())
    return csi_error(CS_ERR_UNSUPPORTED,
                     "cs_impact_sample: Sobol needs m x nstep = %d dimensions, the table has %d",
                     p->m * o->nstep, cs_impact_sobol_dims());
  if (o->sampler == CS_IMPACT_SOBOL && o->nsample >= 2147483647)
    return csi_error(CS_ERR_ARG, "cs_impact_sample: too many Sobol samples");
  return CS_OK;
}

csStatus cs_impact_sample(const csImpact* p, const csImpactOptions* o, csPool* pool, double* vplus,
                          csImpactSample* info) {
  if (!p || !o || (o->nsample > 0 && (!vplus || !info)))
    return csi_error(CS_ERR_ARG, "cs_impact_sample: NULL argument");
  csStatus s = check_options(p, o);
  if (s) return s;
  int nworker = pool ? cs_pool_size(pool) : 1;
  size_t wsb = (cs_impact_workspace_bytes(p) + 15) / 16 * 16;
  size_t stride = wsb + sizeof(double) * (size_t)(p->m * o->nstep + 2);
  stride = (stride + 63) / 64 * 64;
  unsigned dirs[64 * SOBOL_BITS];
  if (o->sampler == CS_IMPACT_SOBOL) csi_imp_sobol_table(dirs);
  SampleCtx c = {p, o, o->sampler == CS_IMPACT_SOBOL ? dirs : NULL, NULL, stride, wsb, vplus, info};
  c.ws = csi_calloc((size_t)nworker, stride);
  if (!c.ws) return csi_error(CS_ERR_MEMORY, "cs_impact_sample: out of memory");
  if (pool) {
    s = cs_pool_for(pool, o->nsample, sample_one, &c);
  } else {
    for (int k = 0; k < o->nsample && !s; k++) s = sample_one(&c, k, 0);
  }
  cs_free(c.ws);
  return s;
}
