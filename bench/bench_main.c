/* contactsim-bench: the benchmarks against anchors (MuJoCo, Siconos when found), run by
   `contactsim bench dynamics|fclib|anymal|build|limits|grasp|pile ...` from a build tree: the tool
   hands over to this executable with its arguments unchanged. Also runs `contactsim fclib ...`
   when a Siconos solver is asked for, and `contactsim-bench NAME ...` directly. */
#ifdef CS_HAVE_SICONOS
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_bench.h"
#include "cs_bench_pile.h"
#include "cs_cli.h"

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
  cs_bench_fclib_use_siconos();
  if (argc > 1 && !strcmp(argv[1], "fclib")) return cs_cli_fclib(argc - 1, argv + 1);
  static const csCliCommand cmds[] = {
      {"dynamics", cs_bench_dynamics_main}, {"fclib", cs_bench_fclib_main},
      {"anymal", cs_bench_anymal_main},     {"build", cs_bench_build_main},
      {"limits", cs_bench_limits_main},     {"grasp", cs_bench_grasp_main},
      {"pile", cs_bench_pile_main},         {NULL, NULL}};
  return cs_cli_dispatch(argc, argv, "contactsim-bench", cmds);
}
