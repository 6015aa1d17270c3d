/* contactsim bench pile [--sizes N,N,..] [--solver S | --solvers S,S,..] [--seconds T]
                         [--max-memory MB] [--dump-fclib DIR] [--json]

   The pile of docs/scenes.md ("Pile"): N free boxes of 0.1 m dropped in a grid onto a plane,
   for T simulated seconds (default 5) from rest, per size N (default 100, 300, 1000) and
   solver (default: the model's). Per (N, solver) one line:
     created          whether the model's csData could be allocated; if not, error (the
                      library's message) and dense_G_bytes, the dense Delassus matrix
                      (3 ncon_max)^2 doubles that the storage of the time asks for at least
     model_bytes, data_bytes (csModel and csData buffers), arena_peak_bytes (the step's
                      scratch high-water mark)
     ns_per_step      median over the steps of the wall time of cs_step
     ns_smooth, ns_collision, ns_build, ns_solve: mean per step of each stage (d->profile)
     solve_share      the solve's time over the sum of the four stages
     settle_time_s    the first time from which the kinetic energy 0.5 v^T M v stays below
                      1e-3 J to the end (null if it is above at the end)
     contacts_end, contacts_mean, warnings per type, iterations_mean, fallback_steps,
                      column_drift_max_m (whether the columns still stand)
   After the sizes, one line per solver with the least-squares slope of log(ns_per_step)
   against log(N) over the sizes that ran (null with fewer than two).

   The csData of a size is allocated under an address-space limit of --max-memory MB
   (default 4096, setrlimit RLIMIT_AS, lifted after the allocation), so a size the storage
   cannot hold is reported instead of exhausting the machine. --dump-fclib DIR writes the
   contact problem of the last step (the settled pile) of the first solver to
   DIR/pile_N.hdf5, when the library has FCLIB. --scene bin runs the bin of docs/scenes.md
   ("Bin": the boxes packed into one island) instead; --bsr-min N sets the island size from
   which the step stores G block-sparse (docs/benchmarks/bin.md; the library's internal
   csi_bsr_set_min_contacts, the one call outside the public API). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"
#include "cs_bench_pile.h"
#include "cs_scene.h"

/* The library's internal knob (src/solvers/cs_solver_bsr.h), for --bsr-min: the one call
   outside the public API, as the threshold's benchmark needs it. */
int csi_bsr_set_min_contacts(int nc);

enum { MAXSIZES = 16, MAXSOLVERS = 16 };
#define DEFAULT_SECONDS 5.0
#define KE_STILL 1e-3

static void usage(FILE* f) {
  fprintf(f,
          "usage: contactsim bench pile [--sizes N,N,..] [--solver S | --solvers S,S,..]\n"
          "                             [--seconds T] [--max-memory MB] [--dump-fclib DIR]\n"
          "                             [--scene pile|bin] [--bsr-min N] [--json]\n"
          "\n"
          "The pile scene (docs/scenes.md): N free boxes of 0.1 m and 1 kg, mu 0.5, dropped\n"
          "in a grid onto a plane, T simulated seconds from rest, per size and solver:\n"
          "memory, time per step and the solver's share, settling, and the log-log slope\n"
          "of the time per step against N.\n"
          "\n"
          "  --sizes LIST     box counts, comma-separated, 1 to %d each (default\n"
          "                   100,300,1000; at most %d)\n"
          "  --solver S       one contact solver (default: the model's, bisection)\n"
          "  --solvers LIST   several, comma-separated\n"
          "  --seconds T      simulated seconds per run, in (0, 1000] (default %g)\n"
          "  --max-memory MB  address-space limit while a size's csData is allocated: a\n"
          "                   larger one is reported as not created (default 4096)\n"
          "  --dump-fclib DIR write the last step's contact problem of the first solver to\n"
          "                   DIR/pile_N.hdf5 (FCLIB local problem; needs FCLIB)\n"
          "  --scene bin      the bin instead: the boxes packed between four walls (one\n"
          "                   island; docs/scenes.md)\n"
          "  --bsr-min N      islands of N contacts or more store G block-sparse (default:\n"
          "                   the library's threshold, docs/benchmarks/bin.md)\n"
          "  --json           one JSON object per size and solver and line:\n"
          "                   {\"bench\":\"pile\",\"n\":..,\"solver\":..,\"created\":..,\n"
          "                   \"ns_per_step\":..,\"solve_share\":..,\"settle_time_s\":..,\n"
          "                   \"data_bytes\":.., extras}, then per solver\n"
          "                   {\"bench\":\"pile\",\"solver\":..,\"slope\":..,\"sizes\":[..]}\n"
          "  --help           this text\n"
          "\n"
          "Extras: error and dense_G_bytes (not created), seconds, steps, dt, layers, columns,\n"
          "ncon_max, model_bytes, arena_peak_bytes, ns_per_step_mean, ns_smooth, ns_collision,\n"
          "ns_build, ns_solve (means per step), kinetic_end_j, column_drift_max_m (at the\n"
          "end, the largest horizontal distance of a box from its column's start axis),\n"
          "contacts_end, contacts_mean, iterations_mean, fallback_steps ([n1, n2]: solves\n"
          "that ended in the solver's fall-back 1 or 2), warnings_nan, warnings_contactfull,\n"
          "warnings_solver, warnings_singular, failed (a step failed: the run stopped there),\n"
          "fclib_file.\n"
          "Progress goes to stderr.\n",
          CS_SCENE_PILE_MAX, MAXSIZES, DEFAULT_SECONDS);
}

/* ------------------------------------------------------------------ one run */
typedef struct PileRun {
  int n, solver;
  int created, failed;
  char error[256];
  double dense_G_bytes;
  size_t model_bytes, data_bytes, arena_peak;
  csScenePile layout;
  long steps;
  double dt, ns_median, ns_mean, stage[4]; /* stage: mean ns per step */
  double settle, ke_end, ncon_sum, iter_sum;
  double drift; /* the largest horizontal distance of a box from its column's start axis */
  int ncon_end;
  long fallback[2]; /* solves that ended in the solver's fall-back 1 and 2 (csSolverStats) */
  int warn[CS_WARN_COUNT];
  char fclib[1100];
} PileRun;

/* The csData under an address-space limit of max_mb (the old limit restored). */
static csData* data_limited(const csModel* m, double max_mb) {
  struct rlimit old, lim;
  int have = getrlimit(RLIMIT_AS, &old) == 0;
  if (have) {
    lim = old;
    rlim_t want = (rlim_t)(max_mb * 1048576.0);
    if (old.rlim_max == RLIM_INFINITY || want < old.rlim_max) lim.rlim_cur = want;
    have = setrlimit(RLIMIT_AS, &lim) == 0;
  }
  csData* d = cs_data_new(m);
  if (have) setrlimit(RLIMIT_AS, &old);
  return d;
}

/* Progress on stderr about every 10 s of wall time. */
static void progress(const PileRun* r, const csData* d, double t0, double* last) {
  double now = cs_cli_now_ns();
  if (now - *last < 10e9) return;
  *last = now;
  fprintf(stderr, "bench pile: n %d %s: %.2f of %.2f s simulated, %.0f s wall, %d contacts\n", r->n,
          cs_solver_name((csSolverType)r->solver), d->time, r->dt * (double)r->steps,
          1e-9 * (now - t0), d->ncon);
}

/* The largest horizontal distance at the end of a box from the start position of its
   column's bottom box (box k's free joint is the k-th, in the column k % columns). */
static double column_drift(const csModel* m, const csData* d, const csScenePile* p) {
  double worst = 0;
  for (int k = 0; k < p->n && 7 * k + 1 < m->nq; k++) {
    const double *x = d->qpos + 7 * k, *x0 = m->qpos0 + 7 * (k % p->columns);
    worst = fmax(worst, hypot(x[0] - x0[0], x[1] - x0[1]));
  }
  return worst;
}

/* The steps: each timed, the stages summed, the kinetic energy tracked. */
static void run_steps(PileRun* r, const csModel* m, csData* d, double* t, double* work) {
  double t0 = cs_cli_now_ns(), last = t0, sum = 0;
  d->profile = 1;
  r->settle = -1;
  long k = 0;
  for (; k < r->steps; k++) {
    double a = cs_cli_now_ns();
    csStatus st = cs_step(m, d);
    t[k] = cs_cli_now_ns() - a;
    if (st != CS_OK) {
      snprintf(r->error, sizeof r->error, "step %ld: %s", k, cs_last_error());
      r->failed = 1;
      break;
    }
    sum += t[k];
    for (int s = 0; s < 4; s++) r->stage[s] += d->time_ns[s];
    r->ncon_sum += d->ncon;
    r->iter_sum += d->ncon ? d->solver_stats.iterations : 0;
    int fb = d->ncon ? d->solver_stats.fallback : 0;
    if (fb == 1 || fb == 2) r->fallback[fb - 1]++;
    r->ke_end = cs_scene_kinetic(m, d, work);
    if (r->ke_end >= KE_STILL)
      r->settle = -1;
    else if (r->settle < 0)
      r->settle = d->time;
    progress(r, d, t0, &last);
  }
  r->steps = k;
  double n = k > 0 ? (double)k : 1;
  r->ns_median = cs_cli_median(t, k);
  r->ns_mean = sum / n;
  for (int s = 0; s < 4; s++) r->stage[s] /= n;
  r->ncon_end = d->ncon;
  for (int w = 0; w < CS_WARN_COUNT; w++) r->warn[w] = d->warning[w].count;
  r->arena_peak = d->maxstack_;
  r->drift = column_drift(m, d, &r->layout);
}

/* The settled problem to dir/pile_N.hdf5 (fclib: the file, or why not). */
static void dump_fclib(PileRun* r, const csData* d, const char* dir) {
  if (!cs_have_fclib()) {
    snprintf(r->fclib, sizeof r->fclib, "(not written: built without FCLIB)");
    return;
  }
  char path[1024], title[128];
  snprintf(path, sizeof path, "%s/pile_%d.hdf5", dir, r->n);
  snprintf(title, sizeof title, "contactsim pile %d, %s, t = %g s", r->n,
           cs_solver_name((csSolverType)r->solver), d->time);
  if (cs_fclib_write_local(path, &d->problem, d->efc_lambda, title) == CS_OK)
    snprintf(r->fclib, sizeof r->fclib, "%s", path);
  else
    snprintf(r->fclib, sizeof r->fclib, "(not written: %s)", cs_last_error());
}

/* One size with one solver: 0, or 1 if the model could not be built. */
static int run_one(PileRun* r, double seconds, double max_mb, const char* dump, int bin) {
  csModel* m = NULL;
  csStatus st = bin ? cs_scene_bin_model(r->n, &m) : cs_scene_pile_model(r->n, &m);
  if (bin)
    cs_scene_bin_layout(r->n, &r->layout);
  else
    cs_scene_pile_layout(r->n, &r->layout);
  if (st != CS_OK) {
    snprintf(r->error, sizeof r->error, "model: %s", cs_last_error());
    return 1;
  }
  if (r->solver > 0) m->opt.solver = r->solver;
  r->solver = m->opt.solver;
  r->dt = m->opt.timestep;
  r->steps = lround(seconds / r->dt);
  r->model_bytes = m->nbuffer_;
  double nrow = 3.0 * m->ncon_max;
  r->dense_G_bytes = 8.0 * nrow * nrow;
  csData* d = data_limited(m, max_mb);
  double* t = malloc(sizeof(double) * (size_t)(r->steps > 0 ? r->steps : 1));
  double* work = malloc(sizeof(double) * (size_t)m->nv);
  if (!d) snprintf(r->error, sizeof r->error, "%s", cs_last_error());
  r->created = d != NULL;
  if (d && t && work) {
    r->data_bytes = d->nbuffer_;
    run_steps(r, m, d, t, work);
    if (dump && !r->failed) dump_fclib(r, d, dump);
  }
  free(t);
  free(work);
  cs_data_free(d);
  cs_model_free(m);
  return 0;
}

/* ------------------------------------------------------------------ output */
static void json_size(FILE* f, const char* key, size_t v) { fprintf(f, ",\"%s\":%zu", key, v); }

static void print_json(const PileRun* r, double seconds) {
  FILE* f = stdout;
  fprintf(f, "{\"bench\":\"pile\",\"n\":%d,\"solver\":\"%s\",\"created\":%s", r->n,
          cs_solver_name((csSolverType)r->solver), r->created ? "true" : "false");
  fprintf(f, ",\"error\":");
  if (r->error[0])
    cs_cli_json_str(f, r->error);
  else
    fprintf(f, "null");
  cs_cli_json_num(f, "seconds", seconds);
  fprintf(f, ",\"steps\":%ld,\"layers\":%d,\"columns\":%d,\"ncon_max\":%d", r->steps,
          r->layout.layers, r->layout.columns, r->layout.ncon_max);
  cs_cli_json_num(f, "dt", r->dt);
  cs_cli_json_num(f, "dense_G_bytes", r->dense_G_bytes);
  json_size(f, "model_bytes", r->model_bytes);
  json_size(f, "data_bytes", r->data_bytes);
  json_size(f, "arena_peak_bytes", r->arena_peak);
  int ran = r->created && r->steps > 0;
  double n = r->steps > 0 ? (double)r->steps : 1, total = 0;
  for (int s = 0; s < 4; s++) total += r->stage[s];
  static const char* const stage[4] = {"ns_smooth", "ns_collision", "ns_build", "ns_solve"};
  cs_cli_json_num(f, "ns_per_step", ran ? r->ns_median : NAN);
  cs_cli_json_num(f, "ns_per_step_mean", ran ? r->ns_mean : NAN);
  for (int s = 0; s < 4; s++) cs_cli_json_num(f, stage[s], ran ? r->stage[s] : NAN);
  cs_cli_json_num(f, "solve_share", ran && total > 0 ? r->stage[3] / total : NAN);
  cs_cli_json_num(f, "settle_time_s", ran && r->settle >= 0 ? r->settle : NAN);
  cs_cli_json_num(f, "kinetic_end_j", ran ? r->ke_end : NAN);
  cs_cli_json_num(f, "column_drift_max_m", ran ? r->drift : NAN);
  fprintf(f, ",\"contacts_end\":%d", r->ncon_end);
  cs_cli_json_num(f, "contacts_mean", ran ? r->ncon_sum / n : NAN);
  cs_cli_json_num(f, "iterations_mean", ran ? r->iter_sum / n : NAN);
  fprintf(f, ",\"fallback_steps\":[%ld,%ld]", r->fallback[0], r->fallback[1]);
  fprintf(f,
          ",\"warnings_nan\":%d,\"warnings_contactfull\":%d,\"warnings_solver\":%d,"
          "\"warnings_singular\":%d,\"failed\":%s",
          r->warn[CS_WARN_NAN_STEP], r->warn[CS_WARN_CONTACTFULL], r->warn[CS_WARN_SOLVER],
          r->warn[CS_WARN_SINGULAR], r->failed ? "true" : "false");
  if (r->fclib[0]) {
    fprintf(f, ",\"fclib_file\":");
    cs_cli_json_str(f, r->fclib);
  }
  fprintf(f, "}\n");
  fflush(f);
}

static void print_row(const PileRun* r) {
  const char* sn = cs_solver_name((csSolverType)r->solver);
  if (!r->created) {
    printf("%6d %-18s not created: %s (dense G alone: %.3g MB)\n", r->n, sn, r->error,
           r->dense_G_bytes / 1048576.0);
    return;
  }
  double total = r->stage[0] + r->stage[1] + r->stage[2] + r->stage[3];
  char settle[32] = "no";
  if (r->settle >= 0) snprintf(settle, sizeof settle, "%.3f", r->settle);
  printf("%6d %-18s %9.3f %11.1f %8.1f %6.1f%% %9s %9.2g %8d %6d %6d%s%s\n", r->n, sn,
         r->data_bytes / 1048576.0, 1e-3 * r->ns_median, 1e-3 * r->stage[3],
         total > 0 ? 100 * r->stage[3] / total : 0.0, settle, r->ke_end, r->ncon_end,
         r->warn[CS_WARN_CONTACTFULL], r->warn[CS_WARN_SOLVER], r->failed ? "  failed: " : "",
         r->failed ? r->error : "");
  if (r->fclib[0]) printf("       fclib: %s\n", r->fclib);
  fflush(stdout);
}

/* Least-squares slope of log(ns_per_step) against log(n) over the runs of solver that ran
   (NaN with fewer than two sizes). */
static double loglog_slope(const PileRun* runs, int nrun, int solver, int* used, int* nused) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int k = 0;
  for (int i = 0; i < nrun; i++) {
    const PileRun* r = &runs[i];
    if (r->solver != solver || !r->created || r->failed || !(r->ns_median > 0)) continue;
    double x = log((double)r->n), y = log(r->ns_median);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
    used[k++] = r->n;
  }
  *nused = k;
  double den = k * sxx - sx * sx;
  return k >= 2 && den > 0 ? (k * sxy - sx * sy) / den : NAN;
}

static void print_slope(const PileRun* runs, int nrun, int solver, int json) {
  int used[MAXSIZES], nused;
  double slope = loglog_slope(runs, nrun, solver, used, &nused);
  const char* sn = cs_solver_name((csSolverType)solver);
  if (json) {
    printf("{\"bench\":\"pile\",\"solver\":\"%s\"", sn);
    cs_cli_json_num(stdout, "slope", slope);
    printf(",\"sizes\":[");
    for (int i = 0; i < nused; i++) printf("%s%d", i ? "," : "", used[i]);
    printf("]}\n");
  } else {
    printf("%s: log-log slope of time per step against N: ", sn);
    if (isfinite(slope))
      printf("%.3f over N =", slope);
    else
      printf("- (fewer than two sizes ran; N =");
    for (int i = 0; i < nused; i++) printf(" %d", used[i]);
    printf("%s\n", isfinite(slope) ? "" : ")");
  }
  fflush(stdout);
}

/* ------------------------------------------------------------------ options */
typedef struct PileOpts {
  int sizes[MAXSIZES], nsize;
  int solvers[MAXSOLVERS], nsolver;
  double seconds, max_mb;
  const char* dump;
  int json;
  int bin;     /* --scene bin */
  int bsr_min; /* --bsr-min: csi_bsr_set_min_contacts, 0: the library's */
} PileOpts;

/* A comma-separated list: box counts (solvers 0) or solver names (solvers 1) into out;
   the count, or -1 with a message. */
static int parse_list(const char* v, int solvers, int* out, int max) {
  int n = 0;
  char buf[1024];
  if (!v || strlen(v) >= sizeof buf) return -1;
  snprintf(buf, sizeof buf, "%s", v);
  for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int x;
    if (n == max) {
      fprintf(stderr, "bench pile: at most %d %s\n", max, solvers ? "solvers" : "sizes");
      return -1;
    }
    if (solvers) {
      x = cs_solver_from_name(tok);
      if (x <= 0 || !cs_solver_get((csSolverType)x)) {
        fprintf(stderr, "bench pile: '%s' is not an implemented solver\n", tok);
        return -1;
      }
    } else if (!cs_cli_parse_int(tok, 1, CS_SCENE_PILE_MAX, &x)) {
      fprintf(stderr, "bench pile: --sizes: '%s' is not a whole number from 1 to %d\n", tok,
              CS_SCENE_PILE_MAX);
      return -1;
    }
    out[n++] = x;
  }
  return n > 0 ? n : -1;
}

/* -1 when the options were read, else the exit code. */
static int parse_options(int argc, char** argv, PileOpts* o) {
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      o->json = 1;
      continue;
    } else if (!strcmp(a, "--sizes")) {
      if ((o->nsize = parse_list(v, 0, o->sizes, MAXSIZES)) < 0) return 2;
    } else if (!strcmp(a, "--solver") || !strcmp(a, "--solvers")) {
      if ((o->nsolver = parse_list(v, 1, o->solvers, MAXSOLVERS)) < 0) return 2;
    } else if (!strcmp(a, "--seconds")) {
      if (!cs_cli_parse_double(v, &o->seconds) || !(o->seconds > 0 && o->seconds <= 1000)) {
        fprintf(stderr, "bench pile: --seconds needs a number in (0, 1000]\n");
        return 2;
      }
    } else if (!strcmp(a, "--max-memory")) {
      if (!cs_cli_parse_double(v, &o->max_mb) || !(o->max_mb >= 64)) {
        fprintf(stderr, "bench pile: --max-memory needs a number of MB, at least 64\n");
        return 2;
      }
    } else if (!strcmp(a, "--dump-fclib") && v) {
      o->dump = v;
    } else if (!strcmp(a, "--scene") && v && (!strcmp(v, "pile") || !strcmp(v, "bin"))) {
      o->bin = !strcmp(v, "bin");
    } else if (!strcmp(a, "--bsr-min")) {
      if (!cs_cli_parse_int(v, 2, 2000000000, &o->bsr_min)) {
        fprintf(stderr, "bench pile: --bsr-min needs a whole number of contacts, at least 2\n");
        return 2;
      }
    } else {
      fprintf(stderr, "bench pile: unknown or incomplete argument '%s' (try --help)\n", a);
      return 2;
    }
    i++;
  }
  return -1;
}

int cs_bench_pile_main(int argc, char** argv) {
  PileOpts o = {.sizes = {100, 300, 1000}, .nsize = 3, .solvers = {0}, .nsolver = 1};
  o.seconds = DEFAULT_SECONDS, o.max_mb = 4096;
  int rc = parse_options(argc, argv, &o);
  if (rc >= 0) return rc;
  if (o.bsr_min > 0) csi_bsr_set_min_contacts(o.bsr_min);
  PileRun* runs = calloc((size_t)(o.nsize * o.nsolver), sizeof *runs);
  if (!runs) return 1;
  if (!o.json)
    printf(
        "pile: %g s simulated per run; time per step is the median, solve the mean\n"
        "%6s %-18s %9s %11s %8s %7s %9s %9s %8s %6s %6s\n",
        o.seconds, "N", "solver", "data MB", "us/step", "solve us", "solve", "settle s", "KE end J",
        "contacts", "full", "unconv");
  int nrun = 0, status = 0;
  for (int s = 0; s < o.nsolver; s++)
    for (int i = 0; i < o.nsize; i++) {
      PileRun* r = &runs[nrun++];
      r->n = o.sizes[i], r->solver = o.solvers[s];
      if (run_one(r, o.seconds, o.max_mb, s == 0 ? o.dump : NULL, o.bin)) status = 1;
      if (r->failed) status = 1;
      if (o.json)
        print_json(r, o.seconds);
      else
        print_row(r);
    }
  for (int s = 0; s < o.nsolver; s++) print_slope(runs, nrun, runs[s * o.nsize].solver, o.json);
  free(runs);
  return status;
}
