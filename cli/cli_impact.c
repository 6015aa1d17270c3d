/* contactsim impact EXAMPLE: Algorithm 2 of paper 004 on a planar impact model
   (models/impact/EXAMPLE.imp or a file path), with the set's statistics as a table or one
   JSON line (docs/impacts.md, docs/bench-json.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/cs_impact.h"
#include "cs_cli.h"
#include "cs_util.h"

typedef struct {
  const char* example;
  long samples; /* -1: the file's */
  int sampler, threads, json, steps;
  double h; /* 0: the file's */
  long seed;
} impactOpts;

static void impact_usage(FILE* f) {
  fprintf(f,
          "usage: contactsim impact EXAMPLE [--samples N] [--sampler sobol|uniform] [--seed S]\n"
          "                         [--threads T] [--h H] [--steps N] [--json]\n"
          "Approximates the set of post-impact velocities of a planar simultaneous impact by\n"
          "M sampled discrete Routh processes (paper 004, Algorithm 2; docs/impacts.md).\n"
          "EXAMPLE is box_wall, rocking_block, compass_gait, disk_stack, disk_stack_ref,\n"
          "zeno_block (files models/impact/EXAMPLE.imp) or the path of a .imp file.\n"
          "  --samples N      samples M, 1 to 2^30 (default: the file's)\n"
          "  --sampler S      sobol or uniform (default sobol)\n"
          "  --seed S         seed of the uniform sampler, 0 to 2^62 (default 0)\n"
          "  --threads T      1 to 1024 (default 1): samples split over T threads, results\n"
          "                   identical\n"
          "  --h H            step size, a number > 0 (default: the file's)\n"
          "  --steps N        steps N, 1 to 1000000 (default: the file's)\n"
          "  --json           one line with example, samples, terminated_fraction,\n"
          "                   discarded_fraction, lcps_per_sample (mean over terminated\n"
          "                   samples), lcps_per_sample_all (over all samples, as paper\n"
          "                   004's Table 3), us_per_sample, us_per_lcp, threads (default:\n"
          "                   a table)\n"
          "Each option once. Exit status: 0 done, 1 a file or the sampling failed, 2 bad\n"
          "command line.\n");
}

static const char* const impact_names[] = {"--samples", "--sampler", "--seed", "--threads",
                                           "--h",       "--steps",   NULL};

/* Option k's value v into o: 1, or 0 (reported) */
static int impact_value(impactOpts* o, int k, const char* v) {
  const char* n = impact_names[k];
  long x;
  switch (k) {
    case 0:
      return cs_cli_count("impact", n, v, 1, 1L << 30, &o->samples);
    case 1:
      o->sampler = !strcmp(v, "sobol") ? CS_IMPACT_SOBOL : !strcmp(v, "uniform") ? 1 : -1;
      if (o->sampler < 0)
        fprintf(stderr, "contactsim impact: --sampler '%s': not sobol or uniform\n", v);
      return o->sampler >= 0;
    case 2:
      return cs_cli_count("impact", n, v, 0, 1L << 62, &o->seed);
    case 3:
      if (!cs_cli_count("impact", n, v, 1, 1024, &x)) return 0;
      o->threads = (int)x;
      return 1;
    case 4:
      return cs_cli_number("impact", n, v, 0, 1, INFINITY, "must be a number > 0", &o->h);
    default:
      if (!cs_cli_count("impact", n, v, 1, 1000000, &x)) return 0;
      o->steps = (int)x;
      return 1;
  }
}

/* -1 when all options were read, else the exit code. */
static int impact_parse(int argc, char** argv, impactOpts* o) {
  unsigned seen = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    int k = 0;
    while (impact_names[k] && strcmp(a, impact_names[k])) k++;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      impact_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      o->json = 1;
    } else if (impact_names[k]) {
      if (!cs_cli_needs_value("impact", argc, argv, i) ||
          !cs_cli_once("impact", a, &seen, 1u << k) || !impact_value(o, k, argv[++i]))
        return 2;
    } else if (a[0] != '-' && !o->example) {
      o->example = a;
    } else if (a[0] != '-') {
      fprintf(stderr, "contactsim impact: one EXAMPLE only ('%s' and '%s')\n", o->example, a);
      return 2;
    } else {
      fprintf(stderr, "contactsim impact: unknown option '%s' (try --help)\n", a);
      return 2;
    }
  }
  if (!o->example) {
    fprintf(stderr, "contactsim impact: no EXAMPLE (try --help)\n");
    return 2;
  }
  return -1;
}

/* The model file of EXAMPLE: a path as given, or models/impact/NAME.imp. */
static void example_path(const char* ex, char* path, size_t n) {
  if (strchr(ex, '/') || strstr(ex, ".imp"))
    snprintf(path, n, "%s", ex);
  else
    snprintf(path, n, "%s/impact/%s.imp", cs_cli_models_dir(), ex);
}

typedef struct {
  double terminated, discarded, lcps, lcps_all, us_sample, us_lcp, err_max, ke_rise_max;
} impactStats;

static impactStats impact_stats(const csImpactSample* s, long n, double ns) {
  impactStats r = {0, 0, 0, 0, 0, 0, 0, -INFINITY};
  long nterm = 0, nkept = 0, nlcp_all = 0, nlcp_term = 0;
  for (long k = 0; k < n; k++) {
    nterm += s[k].terminated, nkept += s[k].kept, nlcp_all += s[k].nlcp;
    if (s[k].terminated) nlcp_term += s[k].nlcp;
    r.err_max = fmax(r.err_max, s[k].lcp_err);
    r.ke_rise_max = fmax(r.ke_rise_max, s[k].ke_rise);
  }
  r.terminated = (double)nterm / (double)n;
  r.discarded = (double)(n - nkept) / (double)n;
  r.lcps = nterm ? (double)nlcp_term / (double)nterm : NAN;
  r.lcps_all = n ? (double)nlcp_all / (double)n : NAN;
  r.us_sample = ns * 1e-3 / (double)n;
  r.us_lcp = nlcp_all ? ns * 1e-3 / (double)nlcp_all : NAN;
  return r;
}

static void impact_print(const impactOpts* o, const csImpactOptions* io, const csImpactInfo* in,
                         const impactStats* r) {
  if (o->json) {
    printf("{\"bench\":\"impact\",\"example\":");
    cs_cli_json_str(stdout, o->example);
    printf(
        ",\"sampler\":\"%s\",\"samples\":%d,\"threads\":%d,\"nv\":%d,\"contacts\":%d,"
        "\"steps\":%d",
        io->sampler == CS_IMPACT_SOBOL ? "sobol" : "uniform", io->nsample, o->threads, in->nv,
        in->m, io->nstep);
    cs_cli_json_num(stdout, "h", io->h);
    cs_cli_json_num(stdout, "terminated_fraction", r->terminated);
    cs_cli_json_num(stdout, "discarded_fraction", r->discarded);
    cs_cli_json_num(stdout, "lcps_per_sample", r->lcps);
    cs_cli_json_num(stdout, "lcps_per_sample_all", r->lcps_all);
    cs_cli_json_num(stdout, "us_per_sample", r->us_sample);
    cs_cli_json_num(stdout, "us_per_lcp", r->us_lcp);
    cs_cli_json_num(stdout, "lcp_err_max", r->err_max);
    cs_cli_json_num(stdout, "ke_rise_max", r->ke_rise_max);
    printf("}\n");
    return;
  }
  printf("%s: nv %d, %d active contacts, %d samples (%s), h %g, N %d, %d threads\n", o->example,
         in->nv, in->m, io->nsample, io->sampler == CS_IMPACT_SOBOL ? "sobol" : "uniform", io->h,
         io->nstep, o->threads);
  printf("  terminated %.4f  discarded %.4f  LCPs/sample %.3f  us/sample %.2f  us/LCP %.2f\n",
         r->terminated, r->discarded, r->lcps, r->us_sample, r->us_lcp);
  printf("  largest LCP error %.3g, largest kinetic energy rise in a step %.3g J\n", r->err_max,
         r->ke_rise_max);
}

static int impact_run(const impactOpts* o, csImpactModel* mod) {
  csImpact* imp = NULL;
  csPool* pool = NULL;
  csImpactOptions io;
  cs_impact_model_defaults(mod, NULL, NULL, &io);
  if (o->samples > 0) io.nsample = (int)o->samples;
  if (o->h > 0) io.h = o->h;
  if (o->steps > 0) io.nstep = o->steps;
  io.sampler = (csImpactSampler)o->sampler, io.seed = (unsigned long long)o->seed;
  csStatus s = cs_impact_new(mod, NULL, NULL, &imp);
  if (!s) s = cs_pool_new(o->threads, &pool);
  const csImpactInfo* in = cs_impact_info(imp);
  double* v = s ? NULL : malloc(sizeof(double) * (size_t)io.nsample * (size_t)in->nv);
  csImpactSample* info = s ? NULL : malloc(sizeof *info * (size_t)io.nsample);
  if (!s && (!v || !info)) s = CS_ERR_MEMORY;
  double t0 = cs_cli_now_ns();
  if (!s) s = cs_impact_sample(imp, &io, pool, v, info);
  double ns = cs_cli_now_ns() - t0;
  if (!s) {
    impactStats r = impact_stats(info, io.nsample, ns);
    impact_print(o, &io, in, &r);
  } else {
    fprintf(stderr, "contactsim impact: %s\n", cs_last_error());
  }
  free(v);
  free(info);
  cs_pool_free(pool);
  cs_impact_free(imp);
  return s ? 1 : 0;
}

int cs_cli_impact(int argc, char** argv) {
  impactOpts o = {NULL, -1, CS_IMPACT_SOBOL, 1, 0, 0, 0, 0};
  int rc = impact_parse(argc, argv, &o);
  if (rc >= 0) return rc;
  char path[4096];
  example_path(o.example, path, sizeof path);
  csImpactModel* mod = NULL;
  if (cs_impact_model_load(path, &mod)) {
    fprintf(stderr, "contactsim impact: %s\n", cs_last_error());
    return 1;
  }
  rc = impact_run(&o, mod);
  cs_impact_model_free(mod);
  return rc;
}
