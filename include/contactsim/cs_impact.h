/* Set-valued simultaneous frictional impacts of planar systems (paper 004, docs/impacts.md).

   A csImpactModel is a planar model file (the files models/impact/NAME.imp: links on prismatic and
   revolute joints, masses, contact points against half-planes or between discs, a state and
   the sampling settings). cs_impact_new freezes it at a state (q, v-) into a csImpact: the
   generalized mass matrix M, the active contacts' normal and tangent rows Jn, Jf (one each
   per contact), their gaps and friction coefficients, and the matrices of the impact LCPs,
   factored once. On it:
   - cs_impact_simultaneous: the Anitescu-Potra impact LCP (one solution, Lemke's method);
   - cs_impact_enumerate: every solution of that LCP (small contact counts);
   - cs_impact_sequential: the sequential baseline, one contact at a time;
   - cs_impact_run: Algorithm 1, the discrete Routh process for one sample sequence p;
   - cs_impact_sample: Algorithm 2, M sample sequences (Sobol or uniform) on a thread pool.
   Every LCP is solved by the library's Lemke method; a Lemke failure is a CS_ERR_NUMERIC
   naming the LCP, never a silent result. Functions taking a workspace allocate nothing. */
#ifndef CONTACTSIM_CS_IMPACT_H
#define CONTACTSIM_CS_IMPACT_H

#include <stddef.h>

#include "cs_export.h"
#include "cs_model.h"
#include "cs_parallel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct csImpactModel csImpactModel;
typedef struct csImpact csImpact;

typedef enum csImpactSampler {
  CS_IMPACT_SOBOL = 0,  /* Sobol points (Joe-Kuo direction numbers), point i + 1 for sample i */
  CS_IMPACT_UNIFORM = 1 /* counter-based pseudo-random numbers of (seed, sample, dimension) */
} csImpactSampler;

/* Algorithm 2's settings. */
typedef struct csImpactOptions {
  double h;                /* step size: the largest normal impulse of a step is h p_i */
  int nstep;               /* N, the most Routh steps of one sample */
  int nsample;             /* M, the number of sample sequences */
  csImpactSampler sampler; /* how p is drawn */
  unsigned long long seed; /* CS_IMPACT_UNIFORM only */
} csImpactOptions;

/* One sample's outcome (Algorithm 1). */
typedef struct csImpactSample {
  int terminated;  /* min(Jn v+) >= -1e-8 within nstep steps */
  int kept;        /* terminated and lcp_err <= 1e-6: part of the set */
  int nlcp;        /* Routh step LCPs solved */
  double lcp_err;  /* max over steps of max(-(Wz+w), -z, |z o (Wz+w)|) */
  double ke_rise;  /* max over steps of KE(v+) - KE(v) (<= 0 up to rounding) */
  double ke_final; /* 0.5 v+^T M v+ */
} csImpactSample;

/* What cs_impact_new built (pointers into the csImpact, valid while it lives). Matrices are
   row-major: M nv x nv, Jn and Jf m x nv. */
typedef struct csImpactInfo {
  int nv;            /* generalized velocities */
  int m;             /* active contacts (gap <= 1e-6) */
  const double* M;   /* generalized mass matrix */
  const double* Jn;  /* normal rows */
  const double* Jf;  /* tangent rows */
  const double* mu;  /* (m) friction coefficients */
  const double* gap; /* (m) gaps */
  const double* v;   /* (nv) v-, the pre-impact velocity */
  const int* index;  /* (m) each active contact's index among the file's contacts */
} csImpactInfo;

/* Loads a planar impact model file (docs/impacts.md, "File format"). Errors: CS_ERR_IO (file
   unreadable), CS_ERR_PARSE and CS_ERR_MODEL with the file and line in cs_last_error(). */
CS_API csStatus cs_impact_model_load(const char* path, csImpactModel** out);
CS_API void cs_impact_model_free(csImpactModel* model);
/* Generalized coordinates (= velocities) of the model. */
CS_API int cs_impact_model_nq(const csImpactModel* model);
/* The file's state (q, v each nq, either may be NULL) and settings (o may be NULL; sampler
   Sobol, seed 0). */
CS_API void cs_impact_model_defaults(const csImpactModel* model, double* q, double* v,
                                     csImpactOptions* o);
/* The file's gravity (m/s^2, along -y; 9.81 unless the file says otherwise). */
CS_API double cs_impact_model_gravity(const csImpactModel* model);

/* The impact problem at state (q, v); NULL takes the file's. CS_ERR_STATE for a non-finite
   state, CS_ERR_NUMERIC for a mass matrix that is not positive definite at q. */
CS_API csStatus cs_impact_new(const csImpactModel* model, const double* q, const double* v,
                              csImpact** out);
CS_API void cs_impact_free(csImpact* imp);
CS_API const csImpactInfo* cs_impact_info(const csImpact* imp);

/* Bytes of the workspace every function below taking `ws` needs (aligned to 16 bytes). */
CS_API size_t cs_impact_workspace_bytes(const csImpact* imp);

/* Anitescu-Potra's impact LCP at v- + M^-1 impulse (impulse: nv generalized impulse added
   before the impact, NULL for none). vplus (nv) receives v+; z (4m, may be NULL) the
   solution (lambda_n, lambda_D, gamma). */
CS_API csStatus cs_impact_simultaneous(const csImpact* imp, const double* impulse, double* vplus,
                                       double* z, void* ws);
/* Every solution of the Anitescu-Potra LCP by its index sets (m <= 5), deduplicated by the
   velocity change (2e-10). Writes up to maxsol post-impact velocities into vplus (maxsol x nv)
   and their number into *nsol (the count found, which may exceed maxsol). */
CS_API csStatus cs_impact_enumerate(const csImpact* imp, int maxsol, double* vplus, int* nsol,
                                    void* ws);
/* The sequential baseline: single-contact Anitescu-Potra LCPs, cycling through the contacts
   from contact `start` (0 <= start < m), up to 10 rounds, until min(Jn v) >= -2.2e-6.
   *nlcp (may be NULL) receives the LCPs solved. CS_ERR_NUMERIC if 10 rounds do not end it. */
CS_API csStatus cs_impact_sequential(const csImpact* imp, int start, double* vplus, int* nlcp,
                                     void* ws);
/* One discrete Routh step from v with the largest normal impulses lmax (m): vplus (nv),
   z (5m, may be NULL) = (s, dlambda_n, dlambda_D, gamma), *err (may be NULL) its LCP error. */
CS_API csStatus cs_impact_routh_step(const csImpact* imp, const double* v, const double* lmax,
                                     double* vplus, double* z, double* err, void* ws);
/* Algorithm 1: from v-, Routh steps with lmax = h p(:, i) (p: m x nstep, column i the m
   entries p[i m .. i m + m)) while min(Jn v) < -1e-8 and i < nstep. */
CS_API csStatus cs_impact_run(const csImpact* imp, const double* p, double h, int nstep,
                              double* vplus, csImpactSample* info, void* ws);
/* Algorithm 2: o->nsample runs of cs_impact_run, sample k with its own sequence (a function
   of k alone), split over pool (NULL: this thread) by docs/threading.md, so the results are
   bit-identical for any thread count. vplus: nsample x nv; info: nsample. */
CS_API csStatus cs_impact_sample(const csImpact* imp, const csImpactOptions* o, csPool* pool,
                                 double* vplus, csImpactSample* info);
/* Coordinate `dim` (0-based, < cs_impact_sobol_dims()) of Sobol point `index`, in [0, 1). */
CS_API double cs_impact_sobol(unsigned index, int dim);
CS_API int cs_impact_sobol_dims(void);

#ifdef __cplusplus
}
#endif
#endif
