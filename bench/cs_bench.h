/* Benchmark drivers behind `contactsim bench <name>`. Each returns a process exit code.
   Benchmarks print one JSON object per line with --json, a human table otherwise. */
#ifndef CS_BENCH_H
#define CS_BENCH_H

#include <stdio.h>

#include "contactsim/contactsim.h"

/* contactsim bench dynamics --model FILE [--floating 0|1] [--repeats N] [--json] */
int cs_bench_dynamics_main(int argc, char** argv);

/* contactsim bench anymal --task hang|drop|trot|random|all [--solver S] [--steps N] [--tol T]
   [--vs-mujoco] [--json]: the ANYmal scenes of spec/benchmarks.md (bench_anymal.c) */
int cs_bench_anymal_main(int argc, char** argv);

/* contactsim bench single-contact [--samples N] [--repeats R] [--json]: paper 001's Table I,
   one slipping contact by bisection, golden section and the analytical method
   (bench_single.c) */
int cs_bench_single_main(int argc, char** argv);

/* contactsim bench table2 [--task T|all] [--steps N] [--diff-every K] [--plot DIR] [--json]:
   paper 001's Table II and Figs. 4, 6, 7, bisection vs pgs_raisim on the ANYmal scenes
   (bench_table2.c) */
int cs_bench_table2_main(int argc, char** argv);

/* contactsim bench fclib DIR [--tol T] [--solvers a,b,c] [--vs-siconos] [--plot F] [--json]:
   every FCLIB file x every solver (bench_fclib.c). The helpers below are shared with
   `contactsim fclib` (cli/cli_fclib.c). */
int cs_bench_fclib_main(int argc, char** argv);

/* One FCLIB file: the local problem (condensed for a global file) and the global one. */
typedef struct csFclibCase {
  const char* path;
  const char* name;           /* base name of path */
  csFclibKind kind;
  int nc;
  csOwnedProblem* local;
  csGlobalProblem* global;    /* NULL for a local file */
  double condense_ms;
} csFclibCase;

typedef struct csFclibSettings {
  double tol;                 /* target Siconos error (and the solvers' own tolerance) */
  int iterations;             /* cap */
  int repeats;                /* timed solves, median */
  double time_limit_s;        /* per Siconos solve (child process) */
  int siconos_dense;          /* dense NumericsMatrix instead of sparse blocks */
} csFclibSettings;

typedef struct csFclibRun {
  int ok;                     /* a result exists (a Siconos child may crash) */
  int converged;              /* error <= tol */
  int iterations;
  int siconos_info;           /* fc3d_driver's return value */
  double error, error_1pq, eps_abs, global_error, ms;
  char note[128];             /* why not ok, or "" */
} csFclibRun;

/* Load path (local, or global and condensed); on error cs_last_error() says why and c has
   name and nc when known. Free with cs_fclib_case_free in any case. */
csStatus cs_fclib_case_load(const char* path, csFclibCase* c);
void cs_fclib_case_free(csFclibCase* c);
/* Implemented solver names: the solver table's, and siconos_* when built with Siconos. */
int cs_fclib_solver_known(const char* name);
void cs_fclib_list_solvers(FILE* f);
int cs_fclib_have_siconos(void);
/* Solve c with the named solver; lambda (3nc) receives r. */
void cs_fclib_run(const csFclibCase* c, const char* name, const csFclibSettings* s,
                  double* lambda, csFclibRun* r);
/* The JSON line of spec/benchmarks.md "FCLIB problems". */
void cs_fclib_print_json(FILE* f, const csFclibCase* c, const char* solver, const csFclibRun* r);

/* Monotonic clock in nanoseconds. */
double cs_bench_now_ns(void);

#endif
