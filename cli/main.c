/* contactsim: the command-line tool. Uses the public API only. */
#ifdef CS_HAVE_SICONOS
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"
#include "cs_cli.h"

static void usage(FILE* f) {
  fprintf(f,
          "contactsim %s: multibody simulation with frictional contact\n"
          "\n"
          "usage: contactsim <command> [options]\n"
          "\n"
          "commands:\n"
          "  run MODEL [options]     simulate a model file (.xml MJCF or .urdf) and write a "
          "trajectory\n"
          "  check MODEL [options]   load a model, print its sizes, memory and loader notes\n"
          "  bench NAME [options]    benchmarks: dynamics, anymal, build, single-contact, table2,\n"
          "                          contactbench, fclib; --json for machine-readable lines\n"
          "  demo [--out DIR]        the built-in demo scene, with a summary and a PNG plot\n"
          "  fclib info|solve FILE   FCLIB contact problems: describe, or solve with a solver\n"
          "  help, --help            this text; `contactsim <command> --help` for a command\n"
          "  --version               print the version\n",
          CS_VERSION_STRING);
}

/* Siconos (linked for `bench fclib --vs-siconos`) brings OpenBLAS, whose thread pool starts
   when the library loads and keeps the second core busy yielding: on this 2-core machine it
   made every benchmark of the tool 20-40 % slower. The tool's own work is single-threaded,
   so the pool is cut to one thread (OPENBLAS_NUM_THREADS set by the user wins). */
static void single_thread_blas(void) {
#ifdef CS_HAVE_SICONOS
  if (getenv("OPENBLAS_NUM_THREADS")) return;
  void* sym = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
  if (!sym) return;
  void (*set)(int);
  memcpy(&set, &sym, sizeof set); /* object to function pointer, without the cast ISO C lacks */
  set(1);
#endif
}

int main(int argc, char** argv) {
  single_thread_blas();
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char* cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("contactsim %s\n", CS_VERSION_STRING);
    return 0;
  }
  if (!strcmp(cmd, "run")) return cs_cli_run(argc - 1, argv + 1);
  if (!strcmp(cmd, "check")) return cs_cli_check(argc - 1, argv + 1);
  if (!strcmp(cmd, "demo")) return cs_cli_demo(argc - 1, argv + 1);
  if (!strcmp(cmd, "fclib")) return cs_cli_fclib(argc - 1, argv + 1);
  if (!strcmp(cmd, "bench")) {
    if (argc < 3 || !strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
      fprintf(argc < 3 ? stderr : stdout,
              "usage: contactsim bench NAME [options]\n"
              "  dynamics   FK, CRBA, RNEA, factorisation, ABA timings (and MuJoCo's)\n"
              "  fclib DIR  every FCLIB file x every solver (--vs-siconos: Siconos' solvers)\n"
              "  anymal     ANYmal C scenes hang, drop, trot, random: time per step, contact\n"
              "             statistics (--vs-mujoco: the same task in MuJoCo)\n"
              "  build      contact problem build (J, G, g) alone at resting ANYmal C states\n"
              "             with 8 (drop) and 4 (hang) contacts; collision time too\n"
              "  single-contact  paper 001 Table I: one slipping contact by bisection, golden\n"
              "             section and the analytical method (ns per solve)\n"
              "  table2     paper 001 Table II, Figs. 4, 6, 7: bisection vs pgs_raisim on the\n"
              "             ANYmal tasks (total seconds, iterations, differences, penetration)\n"
              "  contactbench  paper 002 section IV: cube slide/push, stacks, consistency,\n"
              "             robots, ANYmal replay, per solver (--plot DIR: PNG figures)\n");
      return argc < 3 ? 2 : 0;
    }
    if (!strcmp(argv[2], "dynamics")) return cs_bench_dynamics_main(argc - 2, argv + 2);
    if (!strcmp(argv[2], "fclib")) return cs_bench_fclib_main(argc - 2, argv + 2);
    if (!strcmp(argv[2], "anymal")) return cs_bench_anymal_main(argc - 2, argv + 2);
    if (!strcmp(argv[2], "build")) return cs_bench_build_main(argc - 2, argv + 2);
    if (!strcmp(argv[2], "single-contact")) return cs_bench_single_main(argc - 2, argv + 2);
    if (!strcmp(argv[2], "contactbench")) return cs_bench_contactbench_main(argc - 2, argv + 2);
    if (!strcmp(argv[2], "table2")) return cs_bench_table2_main(argc - 2, argv + 2);
    fprintf(stderr, "contactsim bench: unknown benchmark '%s' (try --help)\n", argv[2]);
    return 2;
  }
  fprintf(stderr, "contactsim: unknown command '%s' (try --help)\n", cmd);
  return 2;
}
