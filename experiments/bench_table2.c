/* contactsim bench table2 [--task hang|drop|trot|random|all] [--steps N] [--diff-every K]
                          [--plot DIR] [--json]

   Paper 001's Table II and Figs. 4, 6, 7 (docs/bench-json.md, "bench table2"), on the
   ANYmal scenes of scenes/cs_scene.c (the same as `contactsim bench anymal`).

   Per task, two simulations of N steps (default 100,000) from the scene's start, each on its
   own scene (csModel, csData), interleaved (see Timing):
   - bisection  (paper's settings: alpha 1, decay 0.99, alpha_min 0.7, built into the solver)
   - pgs_raisim (paper's PGS, alpha 0.6 constant)
   both at tolerance 1e-6 on their own criterion with an iteration cap of 100,000, each with
   the pipeline's warm start. In hang, a third run of pgs_raisim at 1e-8 (the paper's Fig. 7
   also shows PGS at a tighter threshold).

   Timing (Table II): the simulations run in chunks of 1000 steps, interleaved: a bisection
   chunk, then a pgs_raisim chunk (in hang then a pgs_raisim 1e-8 chunk), and so on (the order
   rotating from round to round, so that no run always follows the same one), as
   `contactsim bench anymal --vs-mujoco` alternates with MuJoCo, so that a change of load on
   the machine falls on all runs alike. Each chunk is timed as a whole with CLOCK_MONOTONIC
   (scene controller + cs_step + the per-step statistics, a few ns); <solver>_s is the sum
   over that run's chunks: the total seconds of its N steps, and bisection_over_pgs =
   bisection_s / pgs_raisim_s a same-run ratio. Each run's odd chunks have d->profile = 1
   (about 4 clock reads per step, ~1 % of a step): <solver>_solver_s is the solve's share, the
   profiled chunks' mean solve time per step times N. Before timing starts, each run does one
   untimed chunk that warms the caches, and its scene is put back to its start.

   Statistics per run, over the steps with contacts: iterations (mean, max, and the Fig. 4
   histogram: bin k counts steps with 2^k <= iterations < 2^(k+1)), the fraction of steps
   whose solve met its own criterion within the cap (converged_fraction), the NCP report's
   eps_abs (max, mean), steps rolled back as non-finite (nan_steps); the penetration
   max(0, -dist) over the active contacts (lambda_N > 0): mean over (step, contact) pairs,
   and for Fig. 7 its mean per window of 100 steps.

   Fig. 6: in a second bisection run of the task (untimed, after the timed runs; the same
   trajectory, checked by its iteration count), every K-th step (--diff-every, default 10) with
   contacts, its problem (d->problem after the step: G, g, mu copied) is solved again by
   pgs_raisim from zero (cold: the paper compares the two solvers' answers) to 1e-12 on its
   own criterion or 100,000 iterations, and every contact with |lambda_p| > 0 gives a sample
   |lambda_b - lambda_p| / |lambda_p| (3-vectors of that contact). rel_diff_below_1pct is the
   fraction of those samples below 0.01; the same per step with the whole impulse vectors is
   an extra (rel_diff_step_below_1pct), and per step with the generalized impulses J^T lambda
   (rel_diff_generalized_below_1pct: what moves the robot, unique even where redundant
   contacts leave the impulses free). These solves are outside the timed chunks.
   The same problem is also solved by bisection_desaxce (the per-contact bisection on the
   Coulomb/de Saxce model, cold, to 1e-12 or 10,000 sweeps) and compared with pgs_raisim's
   answer the same ways (rel_diff_desaxce_below_1pct, _step_, _generalized_): where it agrees
   and the bisection does not, the difference is the model (least energy on the slip
   ellipse against Coulomb's maximal dissipation), not the solver. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"
#include "cs_cli.h"
#include "cs_scene.h"

#define T2_STEPS 100000L
#define T2_CHUNK 1000L
#define T2_CAP 100000
#define T2_TOL 1e-6
#define T2_REF_TOL 1e-12
#define T2_DS_CAP 10000
#define T2_WINDOW 100 /* steps per point of the penetration series (Fig. 7) */
#define T2_IBINS 18   /* iteration bins 2^0 .. 2^17 (> the cap) */
#define T2_DBINS 20   /* rel-diff bins: < 1e-16, [1e-16, 1e-15), ..., [1e1, inf), NaN */
#define T2_DLO (-16)

static void usage(FILE* f) {
  fprintf(f,
          "usage: contactsim bench table2 [--task hang|drop|trot|random|all] [--steps N]\n"
          "                               [--diff-every K] [--plot DIR] [--json]\n"
          "\n"
          "Paper 001's Table II and Figs. 4, 6, 7 on the ANYmal scenes: per task, N steps\n"
          "with the bisection solver and N with pgs_raisim, both at tolerance 1e-6 on their\n"
          "own criterion and an iteration cap of 100,000 (in hang also pgs_raisim at 1e-8),\n"
          "each on its own scene, the runs interleaved in chunks of 1000 steps.\n"
          "\n"
          "  --task T        hang, drop, trot, random, or all (default all)\n"
          "  --steps N       steps of 1 ms per run (default %ld)\n"
          "  --diff-every K  Fig. 6: in a second, untimed bisection run (the same\n"
          "                  trajectory), every K-th step with contacts is solved again by\n"
          "                  pgs_raisim (cold, to 1e-12 or 100,000 iterations) and compared\n"
          "                  per contact (default 10; 0: never)\n"
          "  --plot DIR      write PNG plots (gnuplot) and their data into DIR:\n"
          "                  table2_iterations_<task>.png (Fig. 4), table2_reldiff.png\n"
          "                  (Fig. 6), table2_penetration_hang.png (Fig. 7),\n"
          "                  table2_time.png (Table II)\n"
          "  --json          one JSON object per task and line on stdout:\n"
          "                  {\"bench\":\"table2\",\"task\":..,\"bisection_s\":..,\n"
          "                  \"pgs_raisim_s\":..,\"bisection_over_pgs\":..,\n"
          "                  \"bisection_iter_mean\":..,\"pgs_raisim_iter_mean\":..,\n"
          "                  \"pgs_raisim_iter_max\":..,\"rel_diff_below_1pct\":..,\n"
          "                  \"penetration_mean_m\":.., extras}\n"
          "  --help          this text\n"
          "\n"
          "Definitions. <solver>_s: total wall seconds of the N steps (chunks of 1000 timed\n"
          "as a whole, the runs' chunks interleaved, their order rotating each round;\n"
          "one untimed warm-up chunk each; odd chunks profiled, ~1 %% overhead);\n"
          "bisection_over_pgs: bisection_s / pgs_raisim_s (same run); <solver>_solver_s:\n"
          "the solve's share. iter: solver iterations over steps with contacts;\n"
          "iter_hist[k]: steps with 2^k <= iterations < 2^(k+1). converged_fraction: steps\n"
          "whose solve met its own criterion within the cap. eps_abs: the NCP report of each\n"
          "solve (max, mean).\n"
          "fallback_steps: [n1, n2] solves that left the solver's model after its sweeps\n"
          "stalled (csSolverStats.fallback: 1 de Saxce's variant, 2 ncp_admm).\n"
          "rel_diff_below_1pct: fraction of per-contact samples |lambda_b - lambda_p| /\n"
          "|lambda_p| < 0.01 (contacts with lambda_p != 0); _step_: per step, all impulses;\n"
          "_generalized_: per step, J^T lambda; rel_diff_desaxce_*: the same for\n"
          "bisection_desaxce (Coulomb's model, cold, 1e-12) against pgs_raisim: the model's\n"
          "share of the difference. rel_diff_slip_share: the samples where the bisection's\n"
          "impulse is on its cone's boundary (sliding); rel_diff_stick_below_1pct,\n"
          "rel_diff_slip_below_1pct: rel_diff_below_1pct over the sticking and the sliding\n"
          "ones. penetration_mean_m: bisection\n"
          "run, mean of max(0, -dist) over (step, contact) pairs with lambda_N > 0\n"
          "(pgs_raisim_penetration_mean_m likewise).\n",
          T2_STEPS);
}

/* ------------------------------------------------------------------ helpers */
static void json_hist(const char* key, const long* h, int n) {
  printf(",\"%s\":[", key);
  for (int i = 0; i < n; i++) printf("%s%ld", i ? "," : "", h[i]);
  printf("]");
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }
/* the fraction a / b of b samples, NaN (JSON null) without any */
static double frac(long a, long b) { return b ? (double)a / (double)b : NAN; }

static int ibin(long it) {
  int k = 0;
  while (k < T2_IBINS - 1 && it >= (2L << k)) k++;
  return k;
}

/* Bin of a relative difference: 0 below 1e-16, then one per decade, T2_DBINS - 1 for NaN. */
static int dbin(double x) {
  if (isnan(x)) return T2_DBINS - 1;
  if (!(x >= 1e-16)) return 0;
  int k = (int)floor(log10(x)) - T2_DLO + 1;
  if (k < 1) k = 1;
  if (k > T2_DBINS - 2) k = T2_DBINS - 2;
  return k;
}

/* ------------------------------------------------------------------ one run */
typedef struct {
  const char* solver; /* name */
  double tol;
  long steps, steps_contact, converged, nan_steps, iter_max, nactive;
  long fallback[3]; /* steps by csSolverStats.fallback (0 own model, 1 de Saxce, 2 ADMM) */
  double iter_sum, eps_max, eps_sum, pen_sum, pen_max, total_s, solver_s;
  long ihist[T2_IBINS];
  double* pen_series; /* (steps / T2_WINDOW) mean penetration per window, or NULL */
  long nseries;
  int ok;
} Run;

typedef struct {
  long samples, below, step_samples, step_below, ref_solves, ref_converged, ref_iter_max;
  long gen_samples, gen_below; /* J^T lambda per step (the generalized impulse) */
  /* per contact by the bisection answer's case: sticking (strictly inside its cone) or
     sliding (on its boundary) */
  long stick_samples, stick_below, slip_samples, slip_below;
  /* the same for bisection_desaxce against pgs_raisim */
  long ds_samples, ds_below, ds_step_samples, ds_step_below, ds_gen_samples, ds_gen_below;
  double ref_iter_sum, max_rel;
  long hist[T2_DBINS];
  /* scratch */
  int cap_nc;
  double *G, *g, *mu, *lp, *lb, *ld;
  const csSolver* ds; /* bisection_desaxce, or NULL */
  void* ws;
  size_t nws;
} Diff;

static void diff_free(Diff* x) {
  free(x->G), free(x->g), free(x->mu), free(x->lp), free(x->lb), free(x->ld), free(x->ws);
}

/* Per contact, per step and generalized comparisons of lambda a against the reference b. */
static void diff_compare(const csContactProblem* p, const double* a, const double* b, long* samples,
                         long* below, long* step_samples, long* step_below, long* gen_samples,
                         long* gen_below, long* hist, double* max_rel, long* bycase) {
  int nc = p->nc, n = 3 * nc;
  double dn = 0, pn = 0;
  for (int i = 0; i < nc; i++) {
    const double* ai = a + 3 * i;
    const double* bi = b + 3 * i;
    double d0 = ai[0] - bi[0], d1 = ai[1] - bi[1], d2 = ai[2] - bi[2];
    double dd = d0 * d0 + d1 * d1 + d2 * d2, pp = bi[0] * bi[0] + bi[1] * bi[1] + bi[2] * bi[2];
    dn += dd, pn += pp;
    if (!(pp > 0)) continue;
    double r = sqrt(dd / pp);
    (*samples)++;
    *below += r < 0.01;
    if (bycase) { /* [stick samples, stick below, slip samples, slip below] by a's case */
      double at = sqrt(ai[1] * ai[1] + ai[2] * ai[2]);
      int sl = !(at < (1 - 1e-6) * p->mu[i] * ai[0]);
      bycase[2 * sl]++, bycase[2 * sl + 1] += r < 0.01;
    }
    if (hist) hist[dbin(r)]++;
    if (max_rel && (r > *max_rel || isnan(r))) *max_rel = r;
  }
  if (pn > 0) {
    (*step_samples)++;
    *step_below += sqrt(dn / pn) < 0.01;
  }
  /* the generalized impulses J^T lambda, which alone move the system: unique when the
     impulses are not (redundant contacts) */
  if (p->J && p->nv > 0) {
    double gd = 0, gp = 0;
    for (int k = 0; k < p->nv; k++) {
      double ga = 0, gb = 0;
      for (int r = 0; r < n; r++) {
        double jr = p->J[(size_t)r * (size_t)p->nv + (size_t)k];
        ga += jr * a[r], gb += jr * b[r];
      }
      gd += (ga - gb) * (ga - gb), gp += gb * gb;
    }
    if (gp > 0) {
      (*gen_samples)++;
      *gen_below += sqrt(gd / gp) < 0.01;
    }
  }
}

/* Fig. 6 sample of the problem just solved by the bisection (d->problem, d->efc_lambda). */
static int diff_sample(Diff* x, const csData* d, const csSolver* ref) {
  const csContactProblem* p = &d->problem;
  int nc = p->nc, n = 3 * nc;
  if (nc <= 0) return 1;
  if (nc > x->cap_nc) {
    free(x->G), free(x->g), free(x->mu), free(x->lp), free(x->lb), free(x->ld);
    x->ld = malloc(sizeof(double) * (size_t)n);
    x->G = malloc(sizeof(double) * (size_t)n * (size_t)n);
    x->g = malloc(sizeof(double) * (size_t)n);
    x->mu = malloc(sizeof(double) * (size_t)nc);
    x->lp = malloc(sizeof(double) * (size_t)n);
    x->lb = malloc(sizeof(double) * (size_t)n);
    if (!x->G || !x->g || !x->mu || !x->lp || !x->lb || !x->ld) return 0;
    x->cap_nc = nc;
  }
  memcpy(x->G, p->G, sizeof(double) * (size_t)n * (size_t)n);
  memcpy(x->g, p->g, sizeof(double) * (size_t)n);
  memcpy(x->mu, p->mu, sizeof(double) * (size_t)nc);
  memcpy(x->lb, d->efc_lambda, sizeof(double) * (size_t)n);
  csContactProblem q = {.nc = nc, .mu = x->mu, .G = x->G, .g = x->g, .R = p->R};
  csSolverOptions o = {T2_CAP, T2_REF_TOL, 1.0, 0, 0};
  size_t need = ref->workspace_bytes(&q, &o) + 64;
  if (x->ds) {
    size_t nd = x->ds->workspace_bytes(&q, &o) + 64;
    if (nd > need) need = nd;
  }
  if (need > x->nws) {
    free(x->ws);
    x->ws = NULL;
    if (posix_memalign(&x->ws, 64, need)) return 0;
    x->nws = need;
  }
  memset(x->lp, 0, sizeof(double) * (size_t)n);
  csSolverStats st;
  ref->solve(&q, &o, x->ws, x->lp, &st);
  csContactProblem q0 = *p; /* J and nv for the generalized impulses */
  x->ref_solves++;
  x->ref_converged += st.converged != 0;
  x->ref_iter_sum += st.iterations;
  if (st.iterations > x->ref_iter_max) x->ref_iter_max = st.iterations;
  long bc[4] = {0, 0, 0, 0};
  diff_compare(&q0, x->lb, x->lp, &x->samples, &x->below, &x->step_samples, &x->step_below,
               &x->gen_samples, &x->gen_below, x->hist, &x->max_rel, bc);
  x->stick_samples += bc[0], x->stick_below += bc[1];
  x->slip_samples += bc[2], x->slip_below += bc[3];
  if (x->ds) {
    csSolverOptions od = {T2_DS_CAP, T2_REF_TOL, 1.0, 0, 0};
    memset(x->ld, 0, sizeof(double) * (size_t)n);
    x->ds->solve(&q, &od, x->ws, x->ld, &st);
    diff_compare(&q0, x->ld, x->lp, &x->ds_samples, &x->ds_below, &x->ds_step_samples,
                 &x->ds_step_below, &x->ds_gen_samples, &x->ds_gen_below, NULL, NULL, NULL);
  }
  return 1;
}

static int tty_progress = 0;

static void progress(const char* task, long done, long total) {
  if (!tty_progress) return;
  fprintf(stderr, "\rbench table2 %-6s %3ld%%", task, total ? 100 * done / total : 100);
  fflush(stderr);
}

/* One run (a task with one solver) on its own scene, advanced chunk by chunk (sim_chunk) so
   that a task's runs interleave. */
typedef struct {
  const char* task;
  csScene s;
  int loaded;
  long diff_every;
  Diff* diff;          /* Fig. 6 samples, or NULL */
  const csSolver* ref; /* pgs_raisim, when diff */
  int series;
  Run* r;
  long done, prof_steps, win_n;
  double prof_ns, win_sum;
} Sim;

/* Loads the scene of task for solver at tol; Fig. 6 samples into diff when diff != NULL.
   Returns 0 or an exit code (message printed); sim_free in either case. */
static int sim_init(Sim* x, const char* task, const char* solver, double tol, long steps,
                    long diff_every, Diff* diff, int series, Run* r) {
  memset(x, 0, sizeof *x);
  memset(r, 0, sizeof *r);
  x->task = task;
  x->diff_every = diff_every;
  x->diff = diff;
  x->series = series;
  x->r = r;
  r->solver = solver;
  r->tol = tol;
  int type = cs_solver_from_name(solver);
  if (type < 0 || !cs_solver_get((csSolverType)type)) {
    fprintf(stderr, "bench table2: solver %s is not available\n", solver);
    return 1;
  }
  if (diff) {
    int rt = cs_solver_from_name("pgs_raisim");
    x->ref = rt >= 0 ? cs_solver_get((csSolverType)rt) : NULL;
    if (!x->ref) {
      fprintf(stderr, "bench table2: pgs_raisim is not available for Fig. 6\n");
      return 1;
    }
    int dt = cs_solver_from_name("bisection_desaxce");
    diff->ds = dt >= 0 ? cs_solver_get((csSolverType)dt) : NULL;
  }
  if (cs_scene_load(task, cs_cli_models_dir(), NAN, &x->s) != CS_OK) {
    fprintf(stderr, "bench table2: scene %s: %s\n", task, cs_last_error());
    return 1;
  }
  x->loaded = 1;
  csModel* m = x->s.m;
  m->opt.solver = type;
  m->opt.tolerance = tol;
  m->opt.iterations = T2_CAP;
  if (series) {
    r->nseries = steps / T2_WINDOW;
    r->pen_series = calloc((size_t)(r->nseries > 0 ? r->nseries : 1), sizeof(double));
    if (!r->pen_series) {
      fprintf(stderr, "bench table2: out of memory\n");
      return 1;
    }
  }
  return 0;
}

/* The warm-up: one untimed chunk, then back to the start. */
static void sim_warmup(Sim* x, long steps) {
  csModel* m = x->s.m;
  csData* d = x->s.d;
  cs_scene_reset(&x->s);
  d->profile = 0;
  for (long k = 0; k < T2_CHUNK && k < steps; k++) {
    cs_scene_control(&x->s, m, d);
    cs_step(m, d);
  }
  cs_scene_reset(&x->s);
}

/* The run's next n steps, timed as a whole (less the Fig. 6 reference solves) into
   r->total_s; odd chunks profiled. Returns 0 or an exit code (message printed). */
static int sim_chunk(Sim* x, long n) {
  csModel* m = x->s.m;
  csData* d = x->s.d;
  Run* r = x->r;
  double prof_ns = x->prof_ns, win_sum = x->win_sum;
  long prof_steps = x->prof_steps, win_n = x->win_n, done = x->done;
  int rc = 0;
  int prof = (int)((done / T2_CHUNK) % 2);
  d->profile = prof;
  double t0 = cs_cli_now_ns(), tdiff = 0;
  for (long k = 0; k < n; k++) {
    cs_scene_control(&x->s, m, d);
    csStatus st = cs_step(m, d);
    long step = done + k;
    if (st != CS_OK) {
      if (st != CS_ERR_NUMERIC) {
        fprintf(stderr, "bench table2 %s %s: step %ld failed: %s\n", x->task, r->solver, step,
                cs_last_error());
        rc = 1;
        break;
      }
      r->nan_steps++;
      cs_data_set_state(m, d, x->s.qpos0, m->nq, x->s.qvel0, m->nv);
      d->time += m->opt.timestep;
      r->steps++;
      continue;
    }
    r->steps++;
    if (prof) prof_ns += d->time_ns[3], prof_steps++;
    const csSolverStats* ss = &d->solver_stats;
    if (d->ncon > 0) {
      r->steps_contact++;
      r->iter_sum += ss->iterations;
      if (ss->iterations > r->iter_max) r->iter_max = ss->iterations;
      r->ihist[ibin(ss->iterations)]++;
      r->converged += ss->converged != 0;
      r->fallback[ss->fallback >= 0 && ss->fallback <= 2 ? ss->fallback : 0]++;
      double e = ss->ncp.eps_abs;
      if (!isfinite(e)) e = INFINITY;
      r->eps_sum += e;
      if (e > r->eps_max) r->eps_max = e;
    }
    for (int i = 0; i < d->ncon; i++) {
      if (!(d->contact[i].lambda[0] > 0)) continue;
      double pen = d->contact[i].dist < 0 ? -d->contact[i].dist : 0;
      r->nactive++;
      r->pen_sum += pen;
      if (pen > r->pen_max) r->pen_max = pen;
      win_sum += pen, win_n++;
    }
    if (x->series && (step + 1) % T2_WINDOW == 0 && (step + 1) / T2_WINDOW <= r->nseries) {
      r->pen_series[(step + 1) / T2_WINDOW - 1] = win_n ? win_sum / (double)win_n : NAN;
      win_sum = 0, win_n = 0;
    }
    if (x->diff && x->diff_every > 0 && d->ncon > 0 && step % x->diff_every == 0) {
      double a = cs_cli_now_ns();
      if (!diff_sample(x->diff, d, x->ref)) {
        fprintf(stderr, "bench table2: out of memory\n");
        rc = 1;
        break;
      }
      tdiff += cs_cli_now_ns() - a;
    }
  }
  double t1 = cs_cli_now_ns();
  r->total_s += 1e-9 * (t1 - t0 - tdiff);
  x->done = done + n;
  x->prof_ns = prof_ns, x->prof_steps = prof_steps, x->win_sum = win_sum, x->win_n = win_n;
  return rc;
}

/* The solve's share from the profiled chunks; frees the scene. */
static void sim_free(Sim* x, int ok) {
  Run* r = x->r;
  if (!r) return;
  r->solver_s = x->prof_steps ? 1e-9 * x->prof_ns / (double)x->prof_steps * (double)r->steps : NAN;
  r->ok = ok;
  if (x->loaded) {
    x->s.d->profile = 0;
    cs_scene_free(&x->s);
    x->loaded = 0;
  }
}

/* ------------------------------------------------------------------ plots */
typedef struct {
  const char* task;
  Run bis, pgs, pgs8;
  int have_pgs8;
  Diff diff;
} Task;

static int plot_all(const char* dir, Task* t, int nt) {
  if (mkdir(dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "bench table2: cannot create %s: %s\n", dir, strerror(errno));
    return 0;
  }
  char path[2048];
  snprintf(path, sizeof path, "%s/table2.gp", dir);
  FILE* gp = fopen(path, "w");
  if (!gp) {
    fprintf(stderr, "bench table2: cannot write %s\n", path);
    return 0;
  }
  fprintf(gp,
          "set terminal pngcairo size 900,560 font 'sans,11'\nset grid ytics\n"
          "set style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid 0.8 border -1\nset key top right\n");
  /* Fig. 4: iterations per task */
  for (int i = 0; i < nt; i++) {
    snprintf(path, sizeof path, "%s/table2_iterations_%s.dat", dir, t[i].task);
    FILE* f = fopen(path, "w");
    if (!f) return fclose(gp), 0;
    fprintf(f,
            "# bin (2^k <= iterations < 2^(k+1)), %% of steps with contacts: bisection "
            "pgs_raisim\n");
    for (int k = 0; k < T2_IBINS; k++)
      fprintf(f, "\"%ld\" %.6g %.6g\n", 1L << k,
              100 * ratio((double)t[i].bis.ihist[k], (double)t[i].bis.steps_contact),
              100 * ratio((double)t[i].pgs.ihist[k], (double)t[i].pgs.steps_contact));
    fclose(f);
    fprintf(gp,
            "set output '%s/table2_iterations_%s.png'\n"
            "set title 'Iterations per step, %s (%ld steps; bins 2^k .. 2^{k+1}-1)'\n"
            "set xlabel 'iterations (bin start)'\nset ylabel '%% of steps with contacts'\n"
            "set yrange [0:*]\nset xtics rotate by -45\n"
            "plot '%s' using 2:xtic(1) title 'bisection (mean %.3g)', '' using 3 title "
            "'pgs\\_raisim (mean %.3g)'\n",
            dir, t[i].task, t[i].task, t[i].bis.steps, path,
            ratio(t[i].bis.iter_sum, (double)t[i].bis.steps_contact),
            ratio(t[i].pgs.iter_sum, (double)t[i].pgs.steps_contact));
  }
  /* Fig. 6: relative difference, one series per task */
  snprintf(path, sizeof path, "%s/table2_reldiff.dat", dir);
  FILE* f = fopen(path, "w");
  if (!f) return fclose(gp), 0;
  fprintf(f, "# bin (decade of |lambda_b - lambda_p| / |lambda_p|), %% of samples:");
  for (int i = 0; i < nt; i++) fprintf(f, " %s", t[i].task);
  fprintf(f, "\n");
  for (int k = 0; k < T2_DBINS; k++) {
    char lab[32];
    if (k == 0)
      snprintf(lab, sizeof lab, "<1e%d", T2_DLO);
    else if (k == T2_DBINS - 1)
      snprintf(lab, sizeof lab, "NaN");
    else
      snprintf(lab, sizeof lab, "1e%d", T2_DLO + k - 1);
    fprintf(f, "\"%s\"", lab);
    for (int i = 0; i < nt; i++)
      fprintf(f, " %.6g", 100 * ratio((double)t[i].diff.hist[k], (double)t[i].diff.samples));
    fprintf(f, "\n");
  }
  fclose(f);
  fprintf(gp,
          "set output '%s/table2_reldiff.png'\n"
          "set title 'Bisection vs pgs\\_raisim (1e-12, cold): |l_b - l_p| / |l_p| per "
          "contact'\n"
          "set xlabel 'relative difference (decade start)'\nset ylabel '%% of samples'\n"
          "set yrange [0:*]\nset xtics rotate by -45\nset arrow 1 from 13.5, graph 0 to 13.5, "
          "graph 1 nohead dt 2\nset label 1 '1%%' at 13.6, graph 0.95\nplot ",
          dir);
  for (int i = 0; i < nt; i++)
    fprintf(gp, "%s'%s' using %d%s title '%s (%.2f%% < 1%%)'", i ? ", " : "", path, i + 2,
            i ? "" : ":xtic(1)", t[i].task,
            100 * ratio((double)t[i].diff.below, (double)t[i].diff.samples));
  fprintf(gp, "\nunset arrow 1\nunset label 1\n");
  /* Fig. 7: penetration in hang */
  for (int i = 0; i < nt; i++) {
    if (strcmp(t[i].task, "hang") || !t[i].bis.pen_series) continue;
    snprintf(path, sizeof path, "%s/table2_penetration_hang.dat", dir);
    FILE* g = fopen(path, "w");
    if (!g) return fclose(gp), 0;
    fprintf(g,
            "# time (s), mean penetration of active contacts per %d steps (m): bisection "
            "pgs_raisim_1e-6%s\n",
            T2_WINDOW, t[i].have_pgs8 ? " pgs_raisim_1e-8" : "");
    for (long k = 0; k < t[i].bis.nseries; k++) {
      fprintf(g, "%.4f %.6g %.6g", (double)(k + 1) * T2_WINDOW * 1e-3, t[i].bis.pen_series[k],
              k < t[i].pgs.nseries && t[i].pgs.pen_series ? t[i].pgs.pen_series[k] : NAN);
      if (t[i].have_pgs8)
        fprintf(g, " %.6g", k < t[i].pgs8.nseries ? t[i].pgs8.pen_series[k] : NAN);
      fprintf(g, "\n");
    }
    fclose(g);
    fprintf(gp,
            "set output '%s/table2_penetration_hang.png'\nset style data lines\n"
            "set title 'hang: mean foot penetration (active contacts, per %d steps)'\n"
            "set xlabel 'time (s)'\nset ylabel 'penetration (m)'\nset logscale y\n"
            "set yrange [*:*]\nset xtics norotate\nset format y '%%.0e'\n"
            "plot '%s' using 1:2 title 'bisection 1e-6 (mean %.3g m)' lw 2, '' using 1:3 "
            "title 'pgs\\_raisim 1e-6 (mean %.3g m)' lw 2",
            dir, T2_WINDOW, path, ratio(t[i].bis.pen_sum, (double)t[i].bis.nactive),
            ratio(t[i].pgs.pen_sum, (double)t[i].pgs.nactive));
    if (t[i].have_pgs8)
      fprintf(gp, ", '' using 1:4 title 'pgs\\_raisim 1e-8 (mean %.3g m)' lw 2",
              ratio(t[i].pgs8.pen_sum, (double)t[i].pgs8.nactive));
    fprintf(gp, "\nunset logscale y\nset format y '%%g'\nset style data histograms\n");
  }
  /* Table II as bars */
  snprintf(path, sizeof path, "%s/table2_time.dat", dir);
  f = fopen(path, "w");
  if (!f) return fclose(gp), 0;
  fprintf(f, "# task, total seconds: bisection pgs_raisim; solve only: bisection pgs_raisim\n");
  for (int i = 0; i < nt; i++)
    fprintf(f, "\"%s\" %.6g %.6g %.6g %.6g\n", t[i].task, t[i].bis.total_s, t[i].pgs.total_s,
            t[i].bis.solver_s, t[i].pgs.solver_s);
  fclose(f);
  fprintf(gp,
          "set output '%s/table2_time.png'\nset title 'Table II: seconds per %ld steps "
          "(whole step; hatched: solve only)'\nset xlabel 'task'\nset ylabel 's'\n"
          "set yrange [0:*]\nset xtics norotate\n"
          "plot '%s' using 2:xtic(1) title 'bisection', '' using 3 title 'pgs\\_raisim', "
          "'' using 4 title 'bisection solve' fs pattern 4, '' using 5 title 'pgs\\_raisim "
          "solve' fs pattern 5\n",
          dir, nt ? t[0].bis.steps : 0L, path);
  fclose(gp);
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "gnuplot '%s/table2.gp'", dir);
  int st = system(cmd);
  if (st != 0) {
    fprintf(stderr, "bench table2: gnuplot failed (%d); data and script are in %s\n", st, dir);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------ output */
static void print_json(const Task* t, long diff_every) {
  const Run* b = &t->bis;
  const Run* p = &t->pgs;
  const Diff* x = &t->diff;
  FILE* f = stdout;
  printf("{\"bench\":\"table2\",\"task\":\"%s\",\"steps\":%ld", t->task, b->steps);
  cs_cli_json_num(f, "bisection_s", b->total_s);
  cs_cli_json_num(f, "pgs_raisim_s", p->total_s);
  cs_cli_json_num(f, "bisection_over_pgs", p->total_s > 0 ? b->total_s / p->total_s : NAN);
  cs_cli_json_num(f, "bisection_iter_mean", ratio(b->iter_sum, (double)b->steps_contact));
  cs_cli_json_num(f, "pgs_raisim_iter_mean", ratio(p->iter_sum, (double)p->steps_contact));
  printf(",\"pgs_raisim_iter_max\":%ld", p->iter_max);
  cs_cli_json_num(f, "rel_diff_below_1pct", frac(x->below, x->samples));
  cs_cli_json_num(f, "penetration_mean_m", ratio(b->pen_sum, (double)b->nactive));
  cs_cli_json_num(f, "tolerance", T2_TOL);
  printf(",\"iterations_cap\":%d", T2_CAP);
  const Run* runs[3] = {b, p, t->have_pgs8 ? &t->pgs8 : NULL};
  const char* pre[3] = {"bisection", "pgs_raisim", "pgs_raisim_1e-8"};
  char key[96];
  for (int k = 0; k < 3; k++) {
    const Run* r = runs[k];
    if (!r) continue;
    if (k == 2) {
      snprintf(key, sizeof key, "%s_s", pre[k]);
      cs_cli_json_num(f, key, r->total_s);
      snprintf(key, sizeof key, "%s_iter_mean", pre[k]);
      cs_cli_json_num(f, key, ratio(r->iter_sum, (double)r->steps_contact));
    }
    snprintf(key, sizeof key, "%s_solver_s", pre[k]);
    cs_cli_json_num(f, key, r->solver_s);
    if (k == 0) {
      snprintf(key, sizeof key, "%s_iter_max", pre[k]);
      printf(",\"%s\":%ld", key, r->iter_max);
    }
    snprintf(key, sizeof key, "%s_converged_fraction", pre[k]);
    cs_cli_json_num(f, key,
                    r->steps_contact ? (double)r->converged / (double)r->steps_contact : 1.0);
    snprintf(key, sizeof key, "%s_eps_abs_max", pre[k]);
    cs_cli_json_num(f, key, r->eps_max);
    snprintf(key, sizeof key, "%s_eps_abs_mean", pre[k]);
    cs_cli_json_num(f, key, ratio(r->eps_sum, (double)r->steps_contact));
    snprintf(key, sizeof key, "%s_nan_steps", pre[k]);
    printf(",\"%s\":%ld", key, r->nan_steps);
    snprintf(key, sizeof key, "%s_fallback_steps", pre[k]);
    printf(",\"%s\":[%ld,%ld]", key, r->fallback[1], r->fallback[2]);
    if (k > 0) {
      snprintf(key, sizeof key, "%s_penetration_mean_m", pre[k]);
      cs_cli_json_num(f, key, ratio(r->pen_sum, (double)r->nactive));
    }
    snprintf(key, sizeof key, "%s_penetration_max_m", pre[k]);
    cs_cli_json_num(f, key, r->pen_max);
    snprintf(key, sizeof key, "%s_steps_contact", pre[k]);
    printf(",\"%s\":%ld", key, r->steps_contact);
    if (k < 2) {
      snprintf(key, sizeof key, "%s_iter_hist", pre[k]);
      json_hist(key, r->ihist, T2_IBINS);
    }
  }
  printf(",\"rel_diff_every\":%ld,\"rel_diff_samples\":%ld", diff_every, x->samples);
  cs_cli_json_num(f, "rel_diff_max", x->max_rel);
  cs_cli_json_num(f, "rel_diff_desaxce_below_1pct", frac(x->ds_below, x->ds_samples));
  cs_cli_json_num(f, "rel_diff_desaxce_step_below_1pct",
                  frac(x->ds_step_below, x->ds_step_samples));
  cs_cli_json_num(f, "rel_diff_desaxce_generalized_below_1pct",
                  frac(x->ds_gen_below, x->ds_gen_samples));
  cs_cli_json_num(f, "rel_diff_slip_share", frac(x->slip_samples, x->samples));
  cs_cli_json_num(f, "rel_diff_stick_below_1pct", frac(x->stick_below, x->stick_samples));
  cs_cli_json_num(f, "rel_diff_slip_below_1pct", frac(x->slip_below, x->slip_samples));
  cs_cli_json_num(f, "rel_diff_step_below_1pct", frac(x->step_below, x->step_samples));
  cs_cli_json_num(f, "rel_diff_generalized_below_1pct", frac(x->gen_below, x->gen_samples));
  printf(",\"rel_diff_ref_solves\":%ld", x->ref_solves);
  cs_cli_json_num(f, "rel_diff_ref_converged_fraction", frac(x->ref_converged, x->ref_solves));
  cs_cli_json_num(f, "rel_diff_ref_iter_mean", ratio(x->ref_iter_sum, (double)x->ref_solves));
  printf(",\"rel_diff_ref_iter_max\":%ld", x->ref_iter_max);
  json_hist("rel_diff_hist", x->hist, T2_DBINS);
  printf("}\n");
  fflush(stdout);
}

static void print_table(const Task* t) {
  const Run* b = &t->bis;
  const Run* p = &t->pgs;
  const Diff* x = &t->diff;
  printf("table2 %s: %ld steps, tolerance %g, cap %d\n", t->task, b->steps, T2_TOL, T2_CAP);
  printf("  %-34s %12s %12s\n", "", "bisection", "pgs_raisim");
  printf("  %-34s %12.3f %12.3f\n", "total s (Table II)", b->total_s, p->total_s);
  printf("  %-34s %12.3f %12.3f\n", "  of which solve s", b->solver_s, p->solver_s);
  printf("  %-34s %12.3f\n", "bisection / pgs_raisim (total s)",
         p->total_s > 0 ? b->total_s / p->total_s : NAN);
  printf("  %-34s %12.2f %12.2f\n", "iterations mean", ratio(b->iter_sum, (double)b->steps_contact),
         ratio(p->iter_sum, (double)p->steps_contact));
  printf("  %-34s %12ld %12ld\n", "iterations max", b->iter_max, p->iter_max);
  printf("  %-34s %12.5f %12.5f\n", "converged fraction",
         b->steps_contact ? (double)b->converged / (double)b->steps_contact : 1.0,
         p->steps_contact ? (double)p->converged / (double)p->steps_contact : 1.0);
  printf("  %-34s %12.3g %12.3g\n", "eps_abs max", b->eps_max, p->eps_max);
  printf("  %-34s %12ld %12ld\n", "non-finite steps", b->nan_steps, p->nan_steps);
  printf("  %-34s %12.3g %12.3g\n", "penetration mean (m)", ratio(b->pen_sum, (double)b->nactive),
         ratio(p->pen_sum, (double)p->nactive));
  if (t->have_pgs8)
    printf("  pgs_raisim at 1e-8: %.3f s, penetration mean %.3g m\n", t->pgs8.total_s,
           ratio(t->pgs8.pen_sum, (double)t->pgs8.nactive));
  printf(
      "  Fig. 6: %ld per-contact samples, %.4f below 1%% (per step %.4f); reference "
      "converged %.4f\n",
      x->samples, ratio((double)x->below, (double)x->samples),
      ratio((double)x->step_below, (double)x->step_samples),
      ratio((double)x->ref_converged, (double)x->ref_solves));
  printf("  Fig. 6 by case: sticking %ld samples, %.4f below 1%%; sliding %ld, %.4f\n",
         x->stick_samples, ratio((double)x->stick_below, (double)x->stick_samples), x->slip_samples,
         ratio((double)x->slip_below, (double)x->slip_samples));
  fflush(stdout);
}

/* ------------------------------------------------------------------ main */
/* The task's runs (bisection, pgs_raisim, in hang also pgs_raisim at 1e-8), each on its own
   scene: one warm-up chunk each, then their chunks interleaved (bisection, pgs_raisim[, 1e-8],
   bisection, ...). Returns 0 or an exit code (message printed). */
static int run_task(Task* t, long steps, long diff_every) {
  int hang = !strcmp(t->task, "hang");
  int ns = hang ? 3 : 2;
  Sim sim[3];
  memset(sim, 0, sizeof sim);
  int rc = sim_init(&sim[0], t->task, "bisection", T2_TOL, steps, 0, NULL, hang, &t->bis);
  if (!rc) rc = sim_init(&sim[1], t->task, "pgs_raisim", T2_TOL, steps, 0, NULL, hang, &t->pgs);
  if (!rc && hang)
    rc = sim_init(&sim[2], t->task, "pgs_raisim", 1e-8, steps, 0, NULL, hang, &t->pgs8);
  if (!rc) {
    cs_set_log(NULL);
    for (int i = 0; i < ns; i++) sim_warmup(&sim[i], steps);
    long done = 0;
    for (int round = 0; done < steps && !rc; round++) {
      long n = steps - done < T2_CHUNK ? steps - done : T2_CHUNK;
      /* the runs take turns in a rotating order, so that none always follows the same one */
      for (int i = 0; i < ns && !rc; i++) rc = sim_chunk(&sim[(i + round) % ns], n);
      done += n;
      progress(t->task, done, steps);
    }
  }
  for (int i = 0; i < ns; i++) sim_free(&sim[i], !rc);
  /* Fig. 6's samples come from a bisection run of their own, after the timed runs and not
     timed: the trajectory is the same (the step is deterministic), and the reference solves
     (PGS to 1e-12, up to 100,000 sweeps each) stay out of the bisection's timed chunks,
     whose caches they would flush even with their own time subtracted. */
  if (!rc && diff_every > 0) {
    Sim ds;
    Run scratch;
    rc = sim_init(&ds, t->task, "bisection", T2_TOL, steps, diff_every, &t->diff, 0, &scratch);
    for (long done = 0; done < steps && !rc; done += T2_CHUNK)
      rc = sim_chunk(&ds, steps - done < T2_CHUNK ? steps - done : T2_CHUNK);
    sim_free(&ds, !rc);
    if (!rc && (scratch.steps != t->bis.steps || scratch.iter_sum != t->bis.iter_sum)) {
      fprintf(stderr, "bench table2 %s: the Fig. 6 run left the timed run's trajectory\n", t->task);
      rc = 1;
    }
  }
  t->have_pgs8 = hang && !rc;
  return rc;
}

int cs_bench_table2_main(int argc, char** argv) {
  const char* task = "all";
  const char* plot = NULL;
  int json = 0;
  long steps = T2_STEPS, diff_every = 10;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--task")) {
      if (!cs_bench_anymal_task_ok(v)) {
        fprintf(stderr, "bench table2: --task needs hang, drop, trot, random or all\n");
        return 2;
      }
      task = v, i++;
    } else if (!strcmp(a, "--steps")) {
      if (!cs_cli_parse_long(v, 1, 2000000000L, &steps)) {
        fprintf(stderr, "bench table2: --steps needs an integer in [1, 2e9]\n");
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--diff-every")) {
      if (!cs_cli_parse_long(v, 0, 2000000000L, &diff_every)) {
        fprintf(stderr, "bench table2: --diff-every needs an integer >= 0\n");
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--plot")) {
      if (!v) {
        fprintf(stderr, "bench table2: --plot needs a directory\n");
        return 2;
      }
      plot = v, i++;
    } else {
      fprintf(stderr, "bench table2: unknown argument '%s' (try --help)\n", a);
      return 2;
    }
  }
  tty_progress = isatty(2);
  Task tasks[4];
  memset(tasks, 0, sizeof tasks);
  int nt = 0, status = 0;
  for (int k = 0; cs_bench_anymal_tasks[k]; k++) {
    if (strcmp(task, "all") && strcmp(task, cs_bench_anymal_tasks[k])) continue;
    Task* t = tasks + nt;
    t->task = cs_bench_anymal_tasks[k];
    int rc = run_task(t, steps, diff_every);
    if (tty_progress) fprintf(stderr, "\r%60s\r", "");
    nt++;
    if (rc) {
      status = rc;
      continue;
    }
    if (json)
      print_json(t, diff_every);
    else
      print_table(t);
  }
  if (plot && nt > 0 && !status && !plot_all(plot, tasks, nt)) status = 1;
  for (int i = 0; i < nt; i++) {
    free(tasks[i].bis.pen_series), free(tasks[i].pgs.pen_series), free(tasks[i].pgs8.pen_series);
    diff_free(&tasks[i].diff);
  }
  return status;
}
