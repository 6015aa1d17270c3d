/* Benchmark drivers behind `contactsim bench <name>`. Each returns a process exit code.
   Benchmarks print one JSON object per line with --json, a human table otherwise. */
#ifndef CS_BENCH_H
#define CS_BENCH_H

#include <stdio.h>

#include "contactsim/contactsim.h"
#include "cs_fclib_case.h" /* cli/ */
#include "cs_util.h"       /* cli/ */

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

/* contactsim bench limits --model FILE [--solver S] [--steps N] [--repeats R] [--json]: the
   cost of joint-limit rows per step on a limited robot (bench_limits.c) */
int cs_bench_limits_main(int argc, char** argv);

/* contactsim bench grasp [--scene pinch|pinch_horizontal|gripper_box|allegro|all]
   [--solver S|all] [--seconds T] [--vs-mujoco] [--json]: grasps that hold, the drift and
   rotation of a held object, ours and MuJoCo's (bench_grasp.c) */
int cs_bench_grasp_main(int argc, char** argv);

/* The ANYmal scenes of docs/scenes.md in order, NULL-terminated: hang, drop, trot,
   random (bench anymal, single-contact and table2). */
extern const char* const cs_bench_anymal_tasks[];
/* A --task argument: 1 if v is "all" or one of cs_bench_anymal_tasks, else 0 (v may be NULL). */
int cs_bench_anymal_task_ok(const char* v);

/* contactsim bench fclib DIR [--tol T] [--solvers a,b,c] [--vs-siconos] [--plot F] [--json]:
   every FCLIB file x every solver (bench_fclib.c). The cases and contactsim's solvers on
   them are shared with `contactsim fclib` (cli/cs_fclib_case.h). */
int cs_bench_fclib_main(int argc, char** argv);

/* Register Siconos' solvers with cs_cli_fclib_extra_solvers when built with Siconos, so that
   `bench fclib --vs-siconos` and `fclib solve --solver siconos_*` find them; else nothing. */
void cs_bench_fclib_use_siconos(void);
int cs_bench_fclib_have_siconos(void);

/* contactsim bench contactbench [--experiment NAME|all] [--solvers a,b] [--plot DIR] [--json]:
   paper 002 (ContactBench) section IV, docs/scenes.md (bench_contactbench.c) */
int cs_bench_contactbench_main(int argc, char** argv);

#endif
