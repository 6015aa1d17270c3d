/* FCLIB cases and contactsim's own solvers on them (cs_fclib_case.h): shared by
   `contactsim fclib` (cli_fclib.c) and `contactsim bench fclib` (bench/bench_fclib.c, which
   adds Siconos' solvers through cs_cli_fclib_extra_solvers). Public API only. */
#define _POSIX_C_SOURCE 200809L
#include "cs_fclib_case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_util.h"

#define MAX_REFINE 4
#define SLOW_MS 2000.0

const csCliFclibExtraSolvers* cs_cli_fclib_extra_solvers = NULL;

/* ---------------------------------------------------------------- cases */

csStatus cs_cli_fclib_case_load(const char* path, csCliFclibCase* c) {
  memset(c, 0, sizeof *c);
  c->path = path;
  const char* slash = strrchr(path, '/');
  c->name = slash ? slash + 1 : path;
  csFclibInfo info;
  csStatus st = cs_fclib_info(path, &info);
  if (st) return st;
  c->kind = info.kind;
  c->nc = info.nc;
  if (info.kind == CS_FCLIB_LOCAL) return cs_fclib_read_local_islands(path, &c->local);
  if (info.kind == CS_FCLIB_GLOBAL) {
    if ((st = cs_fclib_read_global(path, &c->global))) return st;
    double t0 = cs_cli_now_ns();
    st = cs_global_condense(c->global, &c->local);
    c->condense_ms = 1e-6 * (cs_cli_now_ns() - t0);
    return st;
  }
  /* the readers give the precise message (rolling friction, no FCLIB group) */
  return cs_fclib_read_global(path, &c->global);
}

void cs_cli_fclib_case_free(csCliFclibCase* c) {
  cs_problem_free(c->local);
  cs_global_problem_free(c->global);
  c->local = NULL;
  c->global = NULL;
}

/* ---------------------------------------------------------------- solver names */

static int extra_known(const char* name) {
  if (!cs_cli_fclib_extra_solvers) return 0;
  for (const char* const* n = cs_cli_fclib_extra_solvers->names; *n; n++)
    if (!strcmp(name, *n)) return 1;
  return 0;
}

int cs_cli_fclib_solver_known(const char* name) {
  int t = cs_solver_from_name(name);
  if (t > 0 && cs_solver_get((csSolverType)t)) return 1;
  return extra_known(name);
}

void cs_cli_fclib_list_solvers(FILE* f) {
  const char* sep = "";
  for (int t = 1; t < CS_SOLVER_COUNT; t++)
    if (cs_solver_get((csSolverType)t)) {
      fprintf(f, "%s%s", sep, cs_solver_name((csSolverType)t));
      sep = ", ";
    }
  if (cs_cli_fclib_extra_solvers)
    for (const char* const* n = cs_cli_fclib_extra_solvers->names; *n; n++) {
      fprintf(f, "%s%s", sep, *n);
      sep = ", ";
    }
  if (!*sep) fprintf(f, "(none implemented)");
}

/* ---------------------------------------------------------------- runs */

/* Report of lambda on the case: error, error_1pq, eps_abs, converged, global_error. */
void cs_cli_fclib_finish_run(const csCliFclibCase* c, const csCliFclibSettings* s,
                             const double* lambda, csCliFclibRun* r) {
  csNcpReport rep;
  cs_ncp_report(&c->local->p, lambda, &rep);
  r->error = rep.error;
  r->error_1pq = rep.error_1pq;
  r->eps_abs = rep.eps_abs;
  r->converged = r->ok && rep.error <= s->tol;
  r->global_error = NAN;
  if (c->global) {
    double* v = malloc((size_t)c->global->n * sizeof(double));
    if (v && cs_global_velocity(c->global, lambda, v) == CS_OK)
      r->global_error = cs_global_error(c->global, lambda, v, NULL);
    free(v);
  }
}

static void run_ours(const csCliFclibCase* c, csSolverType type, const csCliFclibSettings* s,
                     double* lambda, csCliFclibRun* r) {
  const csContactProblem* p = &c->local->p;
  const size_t m = 3 * (size_t)p->nc;
  csSolverOptions opt = {s->iterations, s->tol, 1.0, 0, 0};
  size_t bytes = cs_solve_workspace_bytes(type, p, &opt);
  bytes = (bytes + 63) / 64 * 64 + 64;
  void* ws = aligned_alloc(64, bytes);
  double* vg = c->global ? malloc((size_t)c->global->n * sizeof(double)) : NULL;
  double times[64];
  int nt = 0;
  if (!ws || (c->global && !vg)) {
    snprintf(r->note, sizeof r->note, "out of memory for the workspace (%zu bytes)", bytes);
    free(ws), free(vg);
    return;
  }
  r->ok = 1;
  for (int rep = 0; rep < s->repeats && rep < 64; rep++) {
    memset(lambda, 0, m * sizeof(double));
    int total = 0;
    double own_tol = s->tol;
    double t0 = cs_cli_now_ns();
    for (int k = 0; k <= MAX_REFINE; k++) {
      csSolverOptions o = {s->iterations - total, own_tol, 1.0, k > 0, 0};
      csSolverStats stats;
      memset(&stats, 0, sizeof stats);
      csStatus st = cs_solve(type, p, &o, ws, lambda, &stats);
      if (st) {
        r->ok = 0;
        snprintf(r->note, sizeof r->note, "solver error: %s", cs_last_error());
        break;
      }
      total += stats.iterations;
      if (!stats.converged || total >= s->iterations || k == MAX_REFINE) break;
      csNcpReport rp;
      cs_ncp_report(p, lambda, &rp);
      double err = rp.error;
      if (c->global && err <= s->tol) {
        double ge = cs_global_velocity(c->global, lambda, vg) == CS_OK
                        ? cs_global_error(c->global, lambda, vg, NULL)
                        : INFINITY;
        err = ge > err ? ge : err;
      }
      if (err <= s->tol || !(stats.residual > 0)) break;
      own_tol = fmin(own_tol, stats.residual) * 1e-2;
    }
    times[nt++] = 1e-6 * (cs_cli_now_ns() - t0);
    r->iterations = total;
    if (!r->ok || times[0] > SLOW_MS) break;
  }
  free(ws);
  free(vg);
  r->ms = cs_cli_median(times, nt);
  cs_cli_fclib_finish_run(c, s, lambda, r);
}

void cs_cli_fclib_run(const csCliFclibCase* c, const char* name, const csCliFclibSettings* s,
                      double* lambda, csCliFclibRun* r) {
  memset(r, 0, sizeof *r);
  r->ms = r->error = r->error_1pq = r->eps_abs = r->global_error = NAN;
  int t = cs_solver_from_name(name);
  const csSolver* sv = t > 0 ? cs_solver_get((csSolverType)t) : NULL;
  if (sv) {
    run_ours(c, (csSolverType)t, s, lambda, r);
    return;
  }
  if (extra_known(name)) {
    cs_cli_fclib_extra_solvers->run(c, name, s, lambda, r);
    return;
  }
  snprintf(r->note, sizeof r->note, "unknown solver");
}

/* ---------------------------------------------------------------- output */

void cs_cli_fclib_print_json(FILE* f, const csCliFclibCase* c, const char* solver,
                             const csCliFclibRun* r) {
  fprintf(f, "{\"bench\":\"fclib\",\"file\":");
  cs_cli_json_str(f, c->name);
  fprintf(f, ",\"kind\":\"%s\",\"nc\":%d,\"solver\":", c->global ? "global" : "local", c->nc);
  cs_cli_json_str(f, solver);
  fprintf(f, ",\"converged\":%s", r->converged ? "true" : "false");
  cs_cli_json_num(f, "error", r->error);
  cs_cli_json_num(f, "error_1pq", r->error_1pq);
  fprintf(f, ",\"iterations\":%d", r->iterations);
  cs_cli_json_num(f, "ms", r->ms);
  cs_cli_json_num(f, "eps_abs", r->eps_abs);
  if (c->global) {
    cs_cli_json_num(f, "global_error", r->global_error);
    cs_cli_json_num(f, "condense_ms", c->condense_ms);
  }
  if (!strncmp(solver, "siconos_", 8) && r->ok) fprintf(f, ",\"siconos_info\":%d", r->siconos_info);
  if (r->note[0]) {
    fprintf(f, ",\"note\":");
    cs_cli_json_str(f, r->note);
  }
  fprintf(f, "}\n");
}
