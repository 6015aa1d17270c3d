/* FCLIB problems for `contactsim fclib` (cli/cli_fclib.c) and `contactsim bench fclib`
   (bench/bench_fclib.c): loading a file as a local problem, solving it with a named solver,
   the JSON line (cs_fclib_case.c). Public API only; the benchmark executable adds Siconos'
   solvers through cs_fclib_extra_solvers. */
#ifndef CS_FCLIB_CASE_H
#define CS_FCLIB_CASE_H

#include <stdio.h>

#include "contactsim/contactsim.h"

/* One FCLIB file: the local problem (condensed for a global file) and the global one. */
typedef struct csFclibCase {
  const char* path;
  const char* name; /* base name of path */
  csFclibKind kind;
  int nc;
  csOwnedProblem* local;
  csGlobalProblem* global; /* NULL for a local file */
  double condense_ms;
} csFclibCase;

typedef struct csFclibSettings {
  double tol;          /* target Siconos error (and the solvers' own tolerance) */
  int iterations;      /* cap */
  int repeats;         /* timed solves, median */
  double time_limit_s; /* per Siconos solve (child process) */
  int siconos_dense;   /* dense NumericsMatrix instead of sparse blocks */
} csFclibSettings;

typedef struct csFclibRun {
  int ok;        /* a result exists (a Siconos child may crash) */
  int converged; /* error <= tol */
  int iterations;
  int siconos_info; /* fc3d_driver's return value */
  double error, error_1pq, eps_abs, global_error, ms;
  char note[128]; /* why not ok, or "" */
} csFclibRun;

/* Load path (local, or global and condensed); on error cs_last_error() says why and c has
   name and nc when known. Free with cs_fclib_case_free in any case. */
csStatus cs_fclib_case_load(const char* path, csFclibCase* c);
void cs_fclib_case_free(csFclibCase* c);

/* Solvers other than contactsim's own, by name (NULL-terminated), and how to run one; set
   by the benchmark executable when built with Siconos (bench_fclib.c), NULL otherwise. */
typedef struct csFclibExtraSolvers {
  const char* const* names;
  void (*run)(const csFclibCase* c, const char* name, const csFclibSettings* s, double* lambda,
              csFclibRun* r);
} csFclibExtraSolvers;
extern const csFclibExtraSolvers* cs_fclib_extra_solvers;

/* Implemented solver names: the solver table's, and the extra ones. */
int cs_fclib_solver_known(const char* name);
void cs_fclib_list_solvers(FILE* f);
/* Solve c with the named solver; lambda (3nc) receives r. */
void cs_fclib_run(const csFclibCase* c, const char* name, const csFclibSettings* s, double* lambda,
                  csFclibRun* r);
/* Fill r's error, error_1pq, eps_abs, converged and global_error for the solution lambda
   (r->ok set by the caller). */
void cs_fclib_finish_run(const csFclibCase* c, const csFclibSettings* s, const double* lambda,
                         csFclibRun* r);
/* The JSON line of docs/bench-json.md, "bench fclib". */
void cs_fclib_print_json(FILE* f, const csFclibCase* c, const char* solver, const csFclibRun* r);

#endif
