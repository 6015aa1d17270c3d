/* contactsim: the command-line tool. Uses the public API only (linked to the shared
   library). The benchmarks are separate executables built beside it in the build tree,
   contactsim-bench (bench/) and contactsim-experiments (experiments/): `contactsim bench
   NAME ...` hands over to them with its arguments unchanged. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
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
          "  bench NAME [options]    benchmarks: dynamics, anymal, build, limits, grasp, pile,\n"
          "                          single-contact, table2, contactbench, fclib; --json for\n"
          "                          machine-readable lines (from a build tree)\n"
          "  demo [--out DIR]        the built-in demo scene, with a summary and a PNG plot\n"
          "  fclib info|solve FILE   FCLIB contact problems: describe, or solve with a solver\n"
          "  impact EXAMPLE [opts]   set-valued planar impacts: sample the post-impact set\n"
          "  help [COMMAND], --help  this text, or a command's own (= contactsim COMMAND --help)\n"
          "  version, --version      print the version\n",
          CS_VERSION_STRING);
}

static void bench_usage(FILE* f) {
  fprintf(f,
          "usage: contactsim bench NAME [options]\n"
          "  dynamics   FK, CRBA, RNEA, factorisation, ABA timings (and MuJoCo's)\n"
          "  fclib DIR  every FCLIB file x every solver (--vs-siconos: Siconos' solvers)\n"
          "  anymal     ANYmal C scenes hang, drop, trot, random: time per step, contact\n"
          "             statistics (--vs-mujoco: the same task in MuJoCo)\n"
          "  build      contact problem build (J, G, g) alone at resting ANYmal C states\n"
          "             with 8 (drop) and 4 (hang) contacts; collision time too\n"
          "  limits     step cost of joint-limit rows on a limited robot (limits on vs off)\n"
          "  grasp      grasps that hold: drift and rotation of a held object per solver\n"
          "             (--vs-mujoco: MuJoCo in three settings on the same files)\n"
          "  pile       N boxes dropped onto a plane: time per step, the solver's share,\n"
          "             memory and settling against N (log-log slope)\n"
          "  single-contact  paper 001 Table I: one slipping contact by bisection, golden\n"
          "             section and the analytical method (ns per solve)\n"
          "  table2     paper 001 Table II, Figs. 4, 6, 7: bisection vs pgs_raisim on the\n"
          "             ANYmal tasks (total seconds, iterations, differences, penetration)\n"
          "  contactbench  paper 002 section IV: cube slide/push, stacks, consistency,\n"
          "             robots, ANYmal replay, per solver (--plot DIR: PNG figures)\n"
          "The benchmarks are the executables contactsim-bench (dynamics, fclib, anymal,\n"
          "build, limits, grasp, pile) and contactsim-experiments (single-contact, table2,\n"
          "contactbench), built beside contactsim in the build tree and not installed: run\n"
          "them from a build tree.\n");
}

static void help_usage(FILE* f) {
  fprintf(f,
          "usage: contactsim help [COMMAND]\n"
          "Without COMMAND, the list of commands; with one (run, check, bench, demo, fclib,\n"
          "impact, help, version), that command's help, as `contactsim COMMAND --help` prints it.\n");
}

static void version_usage(FILE* f) {
  fprintf(f,
          "usage: contactsim version  (or contactsim --version)\n"
          "Prints the version of contactsim.\n");
}

static int version(void) {
  printf("contactsim %s\n", CS_VERSION_STRING);
  return 0;
}

/* The benchmark executables and what each runs. */
static const char* const bench_cmds[] = {"dynamics", "fclib", "anymal", "build",
                                         "limits",   "grasp", "pile",   NULL};
static const char* const experiment_cmds[] = {"single-contact", "table2", "contactbench", NULL};

static int listed(const char* const* l, const char* s) {
  for (; *l; l++)
    if (!strcmp(*l, s)) return 1;
  return 0;
}

/* Replace this process by the executable `name` next to this one, argv unchanged. Returns
   only if it cannot: 0 when there is no such executable, -1 when it exists but exec
   failed (message printed). */
static int hand_over(const char* name, char** argv) {
  const char* dir = cs_cli_exe_dir();
  if (!dir) return 0;
  char path[8192];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (access(path, X_OK) != 0) return 0;
  fflush(NULL);
  execv(path, argv);
  fprintf(stderr, "contactsim: cannot run %s: %s\n", path, strerror(errno));
  return -1;
}

static int bench(int argc, char** argv) {
  if (argc < 3 || !strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
    bench_usage(argc < 3 ? stderr : stdout);
    return argc < 3 ? 2 : 0;
  }
  const char* exe = listed(bench_cmds, argv[2])        ? "contactsim-bench"
                    : listed(experiment_cmds, argv[2]) ? "contactsim-experiments"
                                                       : NULL;
  if (!exe) {
    fprintf(stderr, "contactsim bench: unknown benchmark '%s' (try --help)\n", argv[2]);
    return 2;
  }
  if (hand_over(exe, argv) < 0) return 1;
  const char* dir = cs_cli_exe_dir();
  fprintf(stderr,
          "contactsim bench %s: the benchmarks run from a build tree: %s is built there\n"
          "beside contactsim but not installed, and %s/%s does not exist.\n"
          "Build contactsim from source (see docs/install.md) and run <build>/contactsim bench.\n",
          argv[2], exe, dir ? dir : "(unknown directory)", exe);
  return 1;
}

/* `fclib solve --solver siconos_*`: Siconos' solvers live in contactsim-bench (build tree
   with Siconos); without it the tool's own message lists the solvers it has. */
static int fclib(int argc, char** argv) {
  for (int i = 2; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--solver") && !strncmp(argv[i + 1], "siconos_", 8)) {
      if (hand_over("contactsim-bench", argv) < 0) return 1;
      break;
    }
  return cs_cli_fclib(argc - 1, argv + 1);
}

static int command_help(const char* cmd) {
  char help[] = "--help";
  char name[32];
  snprintf(name, sizeof name, "%s", cmd);
  char* av[] = {name, help, NULL};
  if (!strcmp(cmd, "run")) return cs_cli_run(2, av);
  if (!strcmp(cmd, "check")) return cs_cli_check(2, av);
  if (!strcmp(cmd, "demo")) return cs_cli_demo(2, av);
  if (!strcmp(cmd, "fclib")) return cs_cli_fclib(2, av);
  if (!strcmp(cmd, "impact")) return cs_cli_impact(2, av);
  if (!strcmp(cmd, "bench")) {
    bench_usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "help")) {
    help_usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "version")) {
    version_usage(stdout);
    return 0;
  }
  fprintf(stderr,
          "contactsim help: unknown command '%s'; commands: run, check, bench, demo, fclib, "
          "impact, help, version\n",
          cmd);
  return 2;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char* cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "help")) {
    if (argc > 3) {
      fprintf(stderr, "contactsim help: one COMMAND at most\n");
      return 2;
    }
    if (argc == 3 && strcmp(argv[2], "--help") && strcmp(argv[2], "-h"))
      return command_help(argv[2]);
    if (argc == 3) {
      help_usage(stdout);
      return 0;
    }
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) return version();
  if (!strcmp(cmd, "version")) {
    if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
      version_usage(stdout);
      return 0;
    }
    if (argc > 2) {
      fprintf(stderr, "contactsim version: no arguments (try --help)\n");
      return 2;
    }
    return version();
  }
  if (!strcmp(cmd, "run")) return cs_cli_run(argc - 1, argv + 1);
  if (!strcmp(cmd, "check")) return cs_cli_check(argc - 1, argv + 1);
  if (!strcmp(cmd, "demo")) return cs_cli_demo(argc - 1, argv + 1);
  if (!strcmp(cmd, "fclib")) return fclib(argc, argv);
  if (!strcmp(cmd, "impact")) return cs_cli_impact(argc - 1, argv + 1);
  if (!strcmp(cmd, "bench")) return bench(argc, argv);
  fprintf(stderr, "contactsim: unknown command '%s' (try --help)\n", cmd);
  return 2;
}
