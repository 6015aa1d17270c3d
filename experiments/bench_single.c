/* contactsim bench single-contact [--samples N] [--repeats R] [--json]

   Paper 001's Table I (docs/bench-json.md, "bench single-contact"): the cost of one slipping
   single-contact solve by the bisection method, Preclik's golden-section search and the
   analytical (quartic) method, all to the paper's 1e-6 N s impulse interval.

   Samples. The four ANYmal tasks of scenes/cs_scene.c (hang, drop, trot, random) run with the
   bisection solver; after each step, every contact i of the step's problem gives
   G_ii (3x3 block of d->problem.G) and c_i = g_i + sum_{j != i} G_ij lambda_j with lambda the
   step's solution (d->efc_lambda): the contact's own problem at the solution. The ones that
   slip (csi_bisection_single's case, the same test for all three methods) are kept, a
   quarter of the samples from each task; a task that stops giving slips (50,000 steps
   without one: hang, whose feet stick once it has landed) or reaches its cap of
   40 x samples / 4 steps leaves the rest of its share to the next ones. Not timed.

   Timing. Each method solves every sample once per repeat, the three methods alternating
   within a repeat (bisection, golden, analytic, then again); a repeat is timed as a whole
   with CLOCK_MONOTONIC and divided by the sample count; the figure is the median over the
   repeats (one untimed warm-up repeat first); the same medians of the thread's CPU time
   (CLOCK_THREAD_CPUTIME_ID) are extras (*_cpu_ns), steadier than wall time on a shared
   machine. The solvers are called through the library
   (no inlining into this loop), as the multi-contact solver calls the bisection.

   Agreement: max over samples of |lambda_m - lambda_b| / |lambda_b| for m = golden,
   analytic (max_rel_disagreement), and the same in N s (max_abs_disagreement_Ns).

   bisection is csi_bisection_single (bracket sought where Newton steps on the sign function
   predict the root, the paper's stepping as fallback); bisection_paper_* times
   csi_bisection_single_paper, the paper's stepping only (beta1 1e-2, beta3 1.3 from the
   atan2 guess), in the same repeats, and max_abs_paper_vs_newton_Ns compares their
   answers. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"
#include "cs_cli.h"
#include "cs_scene.h"
#include "solvers/cs_solver_bisection.h"

#define DEFAULT_SAMPLES 100000L
#define DEFAULT_REPEATS 15

typedef struct {
  double G[9], c[3], mu;
} Sample;

typedef int (*SingleFn)(const double*, const double*, double, double, double*, int*);

static void usage(FILE* f) {
  fprintf(f,
          "usage: contactsim bench single-contact [--samples N] [--repeats R] [--json]\n"
          "\n"
          "Paper 001's Table I: the cost of one slipping single-contact solve by the\n"
          "bisection method, the golden-section search and the analytical method, each to the\n"
          "paper's 1e-6 N s impulse interval, on slip problems (G_ii, c_i, mu) recorded from\n"
          "the four ANYmal tasks (hang, drop, trot, random; a quarter from each).\n"
          "\n"
          "  --samples N   slip problems to record (default %ld; the paper used 100,000 per\n"
          "                task, the spec asks for at least 100,000)\n"
          "  --repeats R   timed passes over all samples per method (default %d); the\n"
          "                figure is the median pass, after one untimed pass\n"
          "  --json        one JSON object on stdout, nothing else:\n"
          "                {\"bench\":\"single-contact\",\"samples\":N,\"bisection_ns\":..,\n"
          "                \"golden_ns\":..,\"analytic_ns\":..,\"max_rel_disagreement\":..,\n"
          "                extras}\n"
          "  --help        this text\n"
          "\n"
          "Definitions. *_ns: median over the repeats of (pass time / samples), ns per solve,\n"
          "one thread, CLOCK_MONOTONIC; the three methods alternate within each repeat.\n"
          "max_rel_disagreement: max over samples of |lambda_m - lambda_bisection| /\n"
          "|lambda_bisection| for m = golden, analytic. Extras: max_abs_disagreement_Ns,\n"
          "per-task sample counts (samples_<task>) and steps run (steps_<task>), the mean\n"
          "evaluations per solve (bisection_evals_mean: sign evaluations; golden_evals_mean:\n"
          "energy evaluations; analytic_roots_mean: real roots checked), and the speed-ups\n"
          "golden_ns / bisection_ns and analytic_ns / bisection_ns, and *_cpu_ns: the medians of\n"
          "the thread's CPU time per solve (steadier than wall time on a shared machine);\n"
          "bisection_paper_ns, _cpu_ns, _evals_mean: the bisection with the paper's stepping\n"
          "only (no Newton-predicted bracket), max_abs_paper_vs_newton_Ns: the largest\n"
          "difference of the two bisections' answers; max_abs_vs_analytic_Ns: the largest\n"
          "difference from the analytical method (exact up to rounding).\n",
          DEFAULT_SAMPLES, DEFAULT_REPEATS);
}

/* Run task until `want` slip samples are added to out[*n..] or `cap` steps are done. */
static int record_task(const char* task, long want, long cap, Sample* out, long* n, long* steps_run,
                       long* got) {
  csScene s;
  csStatus st = cs_scene_load(task, cs_cli_models_dir(), NAN, &s);
  if (st != CS_OK) {
    fprintf(stderr, "contactsim bench single-contact: cannot load scene '%s' (%s)\n", task,
            cs_status_name(st));
    return 0;
  }
  csModel* m = s.m;
  csData* d = s.d;
  m->opt.solver = CS_SOLVER_BISECTION;
  cs_scene_reset(&s);
  long k = 0, before = *n, last = 0;
  int tty = isatty(2);
  /* A task whose contacts have settled into sticking (hang, after its landing) gives no
     more: stop it after 50,000 steps without a slip. */
  for (; k < cap && *n - before < want && k - last < 50000; k++) {
    cs_scene_control(&s, m, d);
    st = cs_step(m, d);
    if (st != CS_OK) {
      if (st != CS_ERR_NUMERIC) break;
      cs_data_set_state(m, d, s.qpos0, m->nq, s.qvel0, m->nv);
      d->time += m->opt.timestep;
      continue;
    }
    const csContactProblem* p = &d->problem;
    int nc = p->nc, nn = 3 * nc;
    for (int i = 0; i < nc && *n - before < want; i++) {
      Sample* x = out + *n;
      for (int a = 0; a < 3; a++) {
        const double* row = p->G + (size_t)(3 * i + a) * (size_t)nn;
        double c = p->g[3 * i + a];
        for (int j = 0; j < nn; j++)
          if (j / 3 != i) c += row[j] * d->efc_lambda[j];
        x->c[a] = c;
        for (int b = 0; b < 3; b++) x->G[3 * a + b] = row[3 * i + b];
        if (p->R) x->G[4 * a] += p->R[3 * i + a];
      }
      x->mu = p->mu[i];
      double l[3];
      if (csi_bisection_single(x->G, x->c, x->mu, CSI_BISECTION_TOL, l, NULL) == CSI_CASE_SLIP) {
        (*n)++;
        last = k;
      }
    }
    if (tty && (k & 8191) == 0)
      fprintf(stderr, "\rrecording %-6s step %8ld, samples %8ld", task, k, *n - before);
  }
  if (tty) fprintf(stderr, "\r%60s\r", "");
  *steps_run = k;
  *got = *n - before;
  cs_scene_free(&s);
  return 1;
}

static double cpu_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* One pass of fn over all samples: wall and thread-CPU ns per solve. lambda receives the
   answers (3 n). */
static double timed_pass(SingleFn fn, const Sample* x, long n, double* lambda, long* evals,
                         double* cpu_ns) {
  long ev = 0;
  double c0 = cpu_now_ns(), t0 = cs_cli_now_ns();
  for (long i = 0; i < n; i++) {
    int e = 0;
    fn(x[i].G, x[i].c, x[i].mu, CSI_BISECTION_TOL, lambda + 3 * i, &e);
    ev += e;
  }
  double t1 = cs_cli_now_ns(), c1 = cpu_now_ns();
  if (evals) *evals = ev;
  if (cpu_ns) *cpu_ns = (c1 - c0) / (double)n;
  return (t1 - t0) / (double)n;
}

int cs_bench_single_main(int argc, char** argv) {
  long samples = DEFAULT_SAMPLES, repeats = DEFAULT_REPEATS;
  int json = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
      if (!cs_cli_parse_long(argv[++i], 4, 100000000L, &samples)) {
        fprintf(stderr, "contactsim bench single-contact: bad --samples '%s'\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(argv[i], "--repeats") && i + 1 < argc) {
      if (!cs_cli_parse_long(argv[++i], 1, 10000, &repeats)) {
        fprintf(stderr, "contactsim bench single-contact: bad --repeats '%s'\n", argv[i]);
        return 2;
      }
    } else {
      fprintf(stderr, "contactsim bench single-contact: unknown option '%s' (try --help)\n",
              argv[i]);
      return 2;
    }
  }
  Sample* x = malloc(sizeof(Sample) * (size_t)samples);
  double* lb = malloc(sizeof(double) * 3 * (size_t)samples);
  double* lg = malloc(sizeof(double) * 3 * (size_t)samples);
  double* la = malloc(sizeof(double) * 3 * (size_t)samples);
  double* tb = malloc(sizeof(double) * (size_t)repeats);
  double* tg = malloc(sizeof(double) * (size_t)repeats);
  double* ta = malloc(sizeof(double) * (size_t)repeats);
  double* cb = malloc(sizeof(double) * 5 * (size_t)repeats);
  double *cg = cb ? cb + repeats : NULL, *ca = cb ? cb + 2 * repeats : NULL;
  double *tp = cb ? cb + 3 * repeats : NULL, *cp = cb ? cb + 4 * repeats : NULL;
  if (!x || !lb || !lg || !la || !tb || !tg || !ta || !cb) {
    fprintf(stderr, "contactsim bench single-contact: out of memory\n");
    free(x), free(lb), free(lg), free(la), free(tb), free(tg), free(ta), free(cb);
    return 1;
  }
  /* Record: a quarter per task, the remainder carried to the next task. */
  long n = 0, steps[4] = {0, 0, 0, 0}, got[4] = {0, 0, 0, 0};
  int ntasks = 4;
  for (int t = 0; t < ntasks; t++) {
    long want = (samples - n) / (ntasks - t);
    long cap = 40 * (samples / 4 > 1000 ? samples / 4 : 1000);
    if (!record_task(cs_bench_anymal_tasks[t], want, cap, x, &n, &steps[t], &got[t])) {
      free(x), free(lb), free(lg), free(la), free(tb), free(tg), free(ta), free(cb);
      return 1;
    }
  }
  if (n < samples) {
    /* a second round over the tasks (from their start) for what is missing */
    for (int t = 0; t < ntasks && n < samples; t++) {
      long s2 = 0, g2 = 0;
      if (!record_task(cs_bench_anymal_tasks[t], samples - n, 40 * samples, x, &n, &s2, &g2)) break;
      steps[t] += s2, got[t] += g2;
    }
  }
  if (n == 0) {
    fprintf(stderr, "contactsim bench single-contact: no slipping contact recorded\n");
    free(x), free(lb), free(lg), free(la), free(tb), free(tg), free(ta), free(cb);
    return 1;
  }
  /* Time. */
  long eb = 0, eg = 0, ea = 0, ep = 0;
  double* lpp = malloc(sizeof(double) * 3 * (size_t)n);
  if (!lpp) {
    fprintf(stderr, "contactsim bench single-contact: out of memory\n");
    free(x), free(lb), free(lg), free(la), free(tb), free(tg), free(ta), free(cb);
    return 1;
  }
  timed_pass(csi_bisection_single_paper, x, n, lpp, NULL, NULL);
  timed_pass(csi_bisection_single, x, n, lb, NULL, NULL);
  timed_pass(csi_golden_single, x, n, lg, NULL, NULL);
  timed_pass(csi_analytic_single, x, n, la, NULL, NULL);
  for (long r = 0; r < repeats; r++) {
    tb[r] = timed_pass(csi_bisection_single, x, n, lb, &eb, &cb[r]);
    tg[r] = timed_pass(csi_golden_single, x, n, lg, &eg, &cg[r]);
    ta[r] = timed_pass(csi_analytic_single, x, n, la, &ea, &ca[r]);
    tp[r] = timed_pass(csi_bisection_single_paper, x, n, lpp, &ep, &cp[r]);
  }
  double nsb = cs_cli_median(tb, repeats), nsg = cs_cli_median(tg, repeats);
  double nsa = cs_cli_median(ta, repeats);
  double cpub = cs_cli_median(cb, repeats), cpug = cs_cli_median(cg, repeats);
  double cpua = cs_cli_median(ca, repeats);
  double nsp = cs_cli_median(tp, repeats), cpup = cs_cli_median(cp, repeats);
  /* the paper's stepping against the Newton-predicted bracket: the same roots to tol */
  double absp = 0;
  for (long i = 0; i < n; i++) {
    double d0 = lpp[3 * i] - lb[3 * i], d1 = lpp[3 * i + 1] - lb[3 * i + 1];
    double d2 = lpp[3 * i + 2] - lb[3 * i + 2];
    double dd = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
    if (dd > absp) absp = dd;
  }
  free(lpp);
  /* Agreement. */
  double rel = 0, absd = 0, absa = 0; /* absa: against the analytical method alone */
  for (long i = 0; i < n; i++) {
    const double* b = lb + 3 * i;
    double nb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    for (int m = 0; m < 2; m++) {
      const double* o = (m ? la : lg) + 3 * i;
      double d0 = o[0] - b[0], d1 = o[1] - b[1], d2 = o[2] - b[2];
      double dd = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
      if (dd > absd) absd = dd;
      if (m && dd > absa) absa = dd;
      if (nb > 0 && dd / nb > rel) rel = dd / nb;
    }
  }
  if (json) {
    printf(
        "{\"bench\":\"single-contact\",\"samples\":%ld,\"bisection_ns\":%.4g,"
        "\"golden_ns\":%.4g,\"analytic_ns\":%.4g,\"max_rel_disagreement\":%.3g,"
        "\"max_abs_disagreement_Ns\":%.3g,\"tolerance_Ns\":%g,\"repeats\":%ld,"
        "\"speedup_golden\":%.3g,\"speedup_analytic\":%.3g,\"bisection_evals_mean\":%.3g,"
        "\"golden_evals_mean\":%.3g,\"analytic_roots_mean\":%.3g,\"bisection_cpu_ns\":%.4g,"
        "\"golden_cpu_ns\":%.4g,\"analytic_cpu_ns\":%.4g",
        n, nsb, nsg, nsa, rel, absd, CSI_BISECTION_TOL, repeats, nsg / nsb, nsa / nsb,
        (double)eb / (double)n, (double)eg / (double)n, (double)ea / (double)n, cpub, cpug, cpua);
    printf(
        ",\"bisection_paper_ns\":%.4g,\"bisection_paper_cpu_ns\":%.4g,"
        "\"bisection_paper_evals_mean\":%.3g,\"max_abs_paper_vs_newton_Ns\":%.3g,"
        "\"max_abs_vs_analytic_Ns\":%.3g",
        nsp, cpup, (double)ep / (double)n, absp, absa);
    for (int t = 0; t < ntasks; t++)
      printf(",\"samples_%s\":%ld,\"steps_%s\":%ld", cs_bench_anymal_tasks[t], got[t],
             cs_bench_anymal_tasks[t], steps[t]);
    printf("}\n");
  } else {
    printf("single-contact solve (paper 001, Table I): %ld slip samples", n);
    for (int t = 0; t < ntasks; t++)
      printf("%s %s %ld (%ld steps)", t ? "," : ":", cs_bench_anymal_tasks[t], got[t], steps[t]);
    printf("\nimpulse interval %g N s, median of %ld passes\n\n", CSI_BISECTION_TOL, repeats);
    printf("  %-15s %10s %10s %10s %14s\n", "method", "ns/solve", "cpu ns", "x bisect.",
           "evals/solve");
    printf("  %-15s %10.1f %10.1f %10.2f %14.2f\n", "bisection", nsb, cpub, 1.0,
           (double)eb / (double)n);
    printf("  %-15s %10.1f %10.1f %10.2f %14.2f\n", "golden section", nsg, cpug, nsg / nsb,
           (double)eg / (double)n);
    printf("  %-15s %10.1f %10.1f %10.2f %14.2f  (real roots)\n", "analytical", nsa, cpua,
           nsa / nsb, (double)ea / (double)n);
    printf("  %-15s %10.1f %10.1f %10.2f %14.2f  (paper's stepping, no Newton)\n",
           "bisection/paper", nsp, cpup, nsp / nsb, (double)ep / (double)n);
    printf("\nlargest disagreement with bisection: %.3g relative, %.3g N s\n", rel, absd);
  }
  free(x), free(lb), free(lg), free(la), free(tb), free(tg), free(ta), free(cb);
  return 0;
}
