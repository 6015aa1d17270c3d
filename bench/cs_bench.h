/* Benchmark drivers behind `contactsim bench <name>`. Each returns a process exit code.
   Benchmarks print one JSON object per line with --json, a human table otherwise. */
#ifndef CS_BENCH_H
#define CS_BENCH_H

#include <stdio.h>

#include "contactsim/contactsim.h"

/* contactsim bench dynamics --model FILE [--floating 0|1] [--repeats N] [--json] */
int cs_bench_dynamics_main(int argc, char** argv);

/* contactsim bench anymal --task hang|drop|trot|random|all [--solver S] [--steps N] [--tol T]
   [--vs-mujoco] [--json]: the ANYmal scenes of docs/scenes.md (bench_anymal.c) */
int cs_bench_anymal_main(int argc, char** argv);

/* contactsim bench build [--task drop|hang|all] [--repeats N] [--batch N] [--json]: the
   contact problem build alone at a resting ANYmal C state (bench_build.c) */
int cs_bench_build_main(int argc, char** argv);

/* contactsim bench single-contact [--samples N] [--repeats R] [--json]: paper 001's Table I,
   one slipping contact by bisection, golden section and the analytical method
   (bench_single.c) */
int cs_bench_single_main(int argc, char** argv);

/* contactsim bench table2 [--task T|all] [--steps N] [--diff-every K] [--plot DIR] [--json]:
   paper 001's Table II and Figs. 4, 6, 7, bisection vs pgs_raisim on the ANYmal scenes
   (bench_table2.c) */
int cs_bench_table2_main(int argc, char** argv);

/* The ANYmal scenes of docs/scenes.md in order, NULL-terminated: hang, drop, trot,
   random (bench anymal, single-contact and table2). */
extern const char* const cs_bench_anymal_tasks[];
/* A --task argument: 1 if v is "all" or one of cs_bench_anymal_tasks, else 0 (v may be NULL). */
int cs_bench_anymal_task_ok(const char* v);

/* contactsim bench fclib DIR [--tol T] [--solvers a,b,c] [--vs-siconos] [--plot F] [--json]:
   every FCLIB file x every solver (bench_fclib.c). The helpers below are shared with
   `contactsim fclib` (cli/cli_fclib.c). */
int cs_bench_fclib_main(int argc, char** argv);

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
/* Implemented solver names: the solver table's, and siconos_* when built with Siconos. */
int cs_fclib_solver_known(const char* name);
void cs_fclib_list_solvers(FILE* f);
int cs_fclib_have_siconos(void);
/* Solve c with the named solver; lambda (3nc) receives r. */
void cs_fclib_run(const csFclibCase* c, const char* name, const csFclibSettings* s, double* lambda,
                  csFclibRun* r);
/* The JSON line of docs/bench-json.md, "bench fclib". */
void cs_fclib_print_json(FILE* f, const csFclibCase* c, const char* solver, const csFclibRun* r);

/* contactsim bench contactbench [--experiment NAME|all] [--solvers a,b] [--plot DIR] [--json]:
   paper 002 (ContactBench) section IV, docs/scenes.md (bench_contactbench.c) */
int cs_bench_contactbench_main(int argc, char** argv);

/* Monotonic clock in nanoseconds. */
double cs_bench_now_ns(void);

/* Helpers shared by the benchmarks and `contactsim fclib` (cs_bench_util.c). */
/* qsort comparator of doubles, ascending. */
int cs_bench_cmp_double(const void* a, const void* b);
/* Median of v[0..n) (sorted in place); NaN if n <= 0. */
double cs_bench_median(double* v, long n);
/* s as a JSON string on f: quotes, backslashes and control characters escaped. */
void cs_bench_json_str(FILE* f, const char* s);
/* ,"key":x on f (%.6g), or ,"key":null if x is not finite. */
void cs_bench_json_num(FILE* f, const char* key, double x);
/* The whole of s as a decimal integer in [lo, hi] into *out: 1; else 0, *out untouched. */
int cs_bench_parse_long(const char* s, long lo, long hi, long* out);
int cs_bench_parse_int(const char* s, int lo, int hi, int* out);
/* The whole of s as a finite number into *out: 1; else 0, *out untouched. */
int cs_bench_parse_double(const char* s, double* out);

#endif
