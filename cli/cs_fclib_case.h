/* FCLIB problems for `contactsim fclib` (cli/cli_fclib.c) and `contactsim bench fclib`
   (bench/bench_fclib.c): loading a file as a local problem, solving it with a named solver,
   the JSON line (cs_fclib_case.c). Public API only; the benchmark executable adds Siconos'
   solvers through cs_cli_fclib_extra_solvers. */
#ifndef CS_FCLIB_CASE_H
#define CS_FCLIB_CASE_H

#include <stdio.h>

#include "contactsim/contactsim.h"

/* One FCLIB file: the local problem (condensed for a global file) and the global one. */
typedef struct csCliFclibCase {
  const char* path;
  const char* name; /* base name of path */
  csFclibKind kind;
  int nc;
  csOwnedProblem* local;
  csGlobalProblem* global; /* NULL for a local file */
  double condense_ms;
} csCliFclibCase;

typedef struct csCliFclibSettings {
  double tol;          /* target Siconos error (and the solvers' own tolerance) */
  int iterations;      /* cap */
  int repeats;         /* timed solves, median */
  double time_limit_s; /* per Siconos solve (child process) */
  int siconos_dense;   /* dense NumericsMatrix instead of sparse blocks */
} csCliFclibSettings;

typedef struct csCliFclibRun {
  int ok;        /* a result exists (a Siconos child may crash) */
  int converged; /* error <= tol */
  int iterations;
  int siconos_info; /* fc3d_driver's return value */
  double error, error_1pq, eps_abs, global_error, ms;
  char note[128]; /* why not ok, or "" */
} csCliFclibRun;

/* Load path (local, or global and condensed); on error cs_last_error() says why and c has
   name and nc when known. Free with cs_cli_fclib_case_free in any case. */
csStatus cs_cli_fclib_case_load(const char* path, csCliFclibCase* c);
void cs_cli_fclib_case_free(csCliFclibCase* c);

/* Solvers other than contactsim's own, by name (NULL-terminated), and how to run one; set
   by the benchmark executable when built with Siconos (bench_fclib.c), NULL otherwise. */
typedef struct csCliFclibExtraSolvers {
  const char* const* names;
  void (*run)(const csCliFclibCase* c, const char* name, const csCliFclibSettings* s,
              double* lambda, csCliFclibRun* r);
} csCliFclibExtraSolvers;
extern const csCliFclibExtraSolvers* cs_cli_fclib_extra_solvers;

/* Implemented solver names: the solver table's, and the extra ones. */
int cs_cli_fclib_solver_known(const char* name);
void cs_cli_fclib_list_solvers(FILE* f);
/* Solve c with the named solver; lambda (3nc) receives r. */
void cs_cli_fclib_run(const csCliFclibCase* c, const char* name, const csCliFclibSettings* s,
                      double* lambda, csCliFclibRun* r);
/* Fill r's error, error_1pq, eps_abs, converged and global_error for the solution lambda
   (r->ok set by the caller). */
void cs_cli_fclib_finish_run(const csCliFclibCase* c, const csCliFclibSettings* s,
                             const double* lambda, csCliFclibRun* r);
/* The JSON line of docs/bench-json.md, "bench fclib". */
void cs_cli_fclib_print_json(FILE* f, const csCliFclibCase* c, const char* solver,
                             const csCliFclibRun* r);

#endif
