/* contactsim bench grasp [--scene pinch|pinch_horizontal|gripper_box|allegro|all]
                          [--solver S|all] [--seconds T] [--vs-mujoco] [--json]

   Grasps that hold (docs/physics.md, "Stiction and grasps"): each grasp scene of
   bench/cs_grasp.c runs for T seconds (default 10) at constant controls from its start
   state (the file's key, else ctrl 1 on every motor) with each solver asked for, and with
   --vs-mujoco in MuJoCo 2.2.2 on the same file in three settings. Per scene and solver (or
   setting) one line:
     drift_um_per_s   the free body's height (its position along -gravity: z, or -z for the
                      Allegro scene's palm-down gravity) at the end minus at 1 s, per second
                      of that span (um/s); negative: it slides down
     rotation_rad     the angle the free body turns through from 1 s to the end
     us_per_step      median over the chunks of 1,000 steps of (chunk time / steps): the
                      step and the gathering of these statistics
     contacts_mean    contacts per step
   Ours also: iterations_mean, converged_fraction (the solves that met their tolerance),
   and with --vs-mujoco drift_vs_mujoco_best = |drift| / the smallest |drift| of the three
   MuJoCo settings (null when that is 0).

   Timing: every run (our solvers, MuJoCo's settings) has its own model and data; the runs
   advance in turn, one chunk of 1,000 steps each (ours, then MuJoCo's), after a warm-up
   chunk of 200 steps each and a reset to the start. So all runs of a scene share the same
   stretch of machine time.

   MuJoCo (built with CS_HAVE_MUJOCO): mj_loadXML on the same file, its options as the file
   leaves them (MuJoCo's defaults: pyramidal cone, impratio 1, Newton, 100 iterations,
   tolerance 1e-8, Euler, soft contacts with solref 0.02 1, no margin), the start state by
   mj_resetDataKeyframe (the same key) or ctrl 1; the three settings:
     mujoco_default               as loaded
     mujoco_elliptic_impratio100  opt.cone = elliptic, opt.impratio = 100
     mujoco_noslip10              opt.noslip_iterations = 10 (pyramidal cone)
   The joints must agree with ours by name, type and qpos address (else an error).

   Scene files: <source>/tests/data/mjcf/ (the Allegro scene includes ../shared/models
   beside the source tree by a relative path), <source> = $CONTACTSIM_SOURCE_DIR or the
   source tree this executable was configured from. Uses the public API only. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"
#include "cs_grasp.h"

#ifdef CS_HAVE_MUJOCO
#include <mujoco/mujoco.h>

#include "cs_mujoco_joint.h"
#endif

#ifndef CS_BENCH_SOURCE_DIR
#define CS_BENCH_SOURCE_DIR "."
#endif

enum { CHUNK = 1000, WARMUP = 200, NMJ = 3 };
#define DEFAULT_SECONDS 10.0

static const char* const mj_settings[NMJ] = {"mujoco_default", "mujoco_elliptic_impratio100",
                                             "mujoco_noslip10"};

static void usage(FILE* f) {
  fprintf(f,
          "usage: contactsim bench grasp [--scene pinch|pinch_horizontal|gripper_box|allegro|all]\n"
          "                              [--solver S|all] [--seconds T] [--vs-mujoco] [--json]\n"
          "\n"
          "Grasps that hold: each scene runs T seconds at constant controls from its start\n"
          "state; the free body's drift (its height along -gravity at the end minus at 1 s,\n"
          "per second, um/s) and the angle it turns through after 1 s (rad) show whether the\n"
          "grasp creeps. Scenes (tests/data/mjcf): pinch (pinch.xml: two fingers squeeze an\n"
          "upright 45 g capsule, 10 N each, mu 1), pinch_horizontal (the capsule lying\n"
          "across the fingers), gripper_box (gripper_box.xml: a parallel gripper holds a 150 g\n"
          "box off centre, 10 N per finger, mu 0.5, 4 box-box contacts per finger), allegro\n"
          "(allegro_cube.xml: the Allegro hand of ../shared/models, palm down, holds a 100 g\n"
          "cube between the thumb and two fingertips; skipped when ../shared is absent).\n"
          "\n"
          "  --scene NAME   one of the scenes above, or all (default all)\n"
          "  --solver S     a contact solver by name, or all (every implemented solver;\n"
          "                 default all)\n"
          "  --seconds T    simulated seconds per run, at least 2 (default %g)\n"
          "  --vs-mujoco    also MuJoCo 2.2.2 on the same file, three settings: its default\n"
          "                 (pyramidal cone), elliptic cone with impratio 100, noslip_iterations\n"
          "                 10; our lines get drift_vs_mujoco_best\n"
          "                 (%s)\n"
          "  --json         one JSON object per scene and solver (or MuJoCo setting) and line:\n"
          "                 {\"bench\":\"grasp\",\"scene\":..,\"solver\":..,\"seconds\":..,\n"
          "                 \"drift_um_per_s\":..,\"rotation_rad\":..,\"us_per_step\":..,\n"
          "                 \"contacts_mean\":.., extras, [\"drift_vs_mujoco_best\":..]};\n"
          "                 MuJoCo's lines have \"solver\":\"mujoco_default\",\n"
          "                 \"mujoco_elliptic_impratio100\" or \"mujoco_noslip10\"\n"
          "  --help         this text\n"
          "\n"
          "Timing: each run has its own model and data; the runs take turns, one chunk of\n"
          "1,000 steps each, after a warm-up; us_per_step is the median chunk time per step.\n"
          "Extras: steps, dt, iterations_mean, converged_fraction (ours), failed (a step\n"
          "failed: the run stopped there and its drift and rotation are null).\n"
          "drift_vs_mujoco_best = |drift| / min over MuJoCo's settings of |drift| (null if\n"
          "that is 0). Scene files are read from $CONTACTSIM_SOURCE_DIR/tests/data/mjcf, else\n"
          "from the source tree this build was configured from.\n",
          DEFAULT_SECONDS,
#ifdef CS_HAVE_MUJOCO
          "MuJoCo's options otherwise as the file leaves them"
#else
          "not available: built without MuJoCo"
#endif
  );
}

/* ------------------------------------------------------------------ one run */
typedef struct Run {
  const char* label; /* our solver's name or a MuJoCo setting */
  int mj;            /* a MuJoCo setting (index + 1), 0 for ours */
  csModel* m;
  csData* d;
#ifdef CS_HAVE_MUJOCO
  mjModel* mm;
  mjData* md;
#endif
  int fq;            /* qpos address of the free body */
  double gravity[3]; /* of the model */
  double dt;
  long steps;       /* taken */
  double h1, q1[4]; /* at 1 s */
  double ncon_sum, iter_sum;
  long converged;
  int failed; /* a step failed: the run stopped there */
  double* t;  /* ns per step of each full chunk */
  long nt;
  double drift, rot, us; /* results */
} Run;

static void run_free(Run* r) {
  cs_data_free(r->d);
  cs_model_free(r->m);
#ifdef CS_HAVE_MUJOCO
  if (r->md) mj_deleteData(r->md);
  if (r->mm) mj_deleteModel(r->mm);
#endif
  free(r->t);
  memset(r, 0, sizeof *r);
}

static const double* run_qpos(const Run* r) {
#ifdef CS_HAVE_MUJOCO
  if (r->mj) return r->md->qpos;
#endif
  return r->d->qpos;
}

/* Our solver on path: 1, or 0 with a message printed. */
static int ours_init(Run* r, const char* path, int solver) {
  memset(r, 0, sizeof *r);
  r->label = cs_solver_name((csSolverType)solver);
  if (cs_load_model(path, NULL, &r->m) != CS_OK) {
    fprintf(stderr, "bench grasp: %s\n", cs_last_error());
    return 0;
  }
  r->m->opt.solver = solver;
  r->d = cs_data_new(r->m);
  if (!r->d) {
    fprintf(stderr, "bench grasp: %s: out of memory\n", path);
    return 0;
  }
  char err[512];
  if (!cs_bench_grasp_start(r->m, r->d, path, err, sizeof err)) {
    fprintf(stderr, "bench grasp: %s\n", err);
    return 0;
  }
  r->fq = -1;
  for (int j = 0; j < r->m->njnt && r->fq < 0; j++)
    if (r->m->jnt_type[j] == CS_JNT_FREE) r->fq = r->m->jnt_qposadr[j];
  if (r->fq < 0) {
    fprintf(stderr, "bench grasp: %s: no free body\n", path);
    return 0;
  }
  memcpy(r->gravity, r->m->opt.gravity, sizeof r->gravity);
  r->dt = r->m->opt.timestep;
  return 1;
}

#ifdef CS_HAVE_MUJOCO
static void mj_warning_to_stderr(const char* msg) {
  fprintf(stderr, "bench grasp: MuJoCo warning: %s\n", msg);
}

/* MuJoCo's start: the file's first key, else ctrl 1 on every actuator. */
static void mj_start(Run* r) {
  if (r->mm->nkey > 0) {
    mj_resetDataKeyframe(r->mm, r->md, 0);
  } else {
    mj_resetData(r->mm, r->md);
    for (int i = 0; i < r->mm->nu; i++) r->md->ctrl[i] = 1;
  }
}

/* MuJoCo setting k (0, 1, 2 of mj_settings) on path; ours is a run of ours on the same
   file, whose joints MuJoCo's must match. 1, or 0 with a message printed. */
static int mj_init(Run* r, const char* path, int k, const Run* ours) {
  memset(r, 0, sizeof *r);
  r->label = mj_settings[k];
  r->mj = k + 1;
  char err[1000] = "";
  r->mm = mj_loadXML(path, NULL, err, sizeof err);
  if (!r->mm) {
    fprintf(stderr, "bench grasp: MuJoCo cannot load %s: %s\n", path, err);
    return 0;
  }
  const csModel* m = ours->m;
  mjModel* mm = r->mm;
  int same = mm->njnt == m->njnt && mm->nq == m->nq && mm->nv == m->nv && mm->nu == m->nu;
  for (int j = 0; same && j < m->njnt; j++) {
    const char* name = cs_id2name(m, "joint", j);
    const char* mname = mj_id2name(mm, mjOBJ_JOINT, j);
    same = mm->jnt_type[j] == cs_bench_mj_joint_type(m->jnt_type[j]) &&
           mm->jnt_qposadr[j] == m->jnt_qposadr[j] && !strcmp(name ? name : "", mname ? mname : "");
  }
  if (!same) {
    fprintf(stderr,
            "bench grasp: %s: MuJoCo's joints (nq %d, nv %d, njnt %d, nu %d) differ from ours "
            "(nq %d, nv %d, njnt %d, nu %d) in number, name, type or order\n",
            path, mm->nq, mm->nv, mm->njnt, mm->nu, m->nq, m->nv, m->njnt, m->nu);
    return 0;
  }
  if (k == 1) {
    mm->opt.cone = mjCONE_ELLIPTIC;
    mm->opt.impratio = 100;
  } else if (k == 2) {
    mm->opt.noslip_iterations = 10;
  }
  r->md = mj_makeData(mm);
  if (!r->md) {
    fprintf(stderr, "bench grasp: MuJoCo: out of memory\n");
    return 0;
  }
  mj_start(r);
  r->fq = ours->fq;
  for (int i = 0; i < 3; i++) r->gravity[i] = mm->opt.gravity[i];
  r->dt = mm->opt.timestep;
  return 1;
}
#endif

/* Back to the start (after the warm-up): 1, or 0 with a message printed. */
static int run_restart(Run* r, const char* path) {
  r->steps = 0;
  r->ncon_sum = r->iter_sum = 0;
  r->converged = 0;
  r->failed = 0;
  r->nt = 0;
#ifdef CS_HAVE_MUJOCO
  if (r->mj) {
    mj_start(r);
    return 1;
  }
#endif
  char err[512];
  if (!cs_bench_grasp_start(r->m, r->d, path, err, sizeof err)) {
    fprintf(stderr, "bench grasp: %s\n", err);
    return 0;
  }
  return 1;
}

/* n steps; the state at step 1 s recorded on the way. */
static void run_chunk(Run* r, long n, long step_1s) {
  for (long k = 0; k < n && !r->failed; k++) {
    int ncon;
#ifdef CS_HAVE_MUJOCO
    if (r->mj) {
      mj_step(r->mm, r->md);
      ncon = r->md->ncon;
      r->iter_sum += r->md->solver_iter;
    } else
#endif
    {
      if (cs_step(r->m, r->d) != CS_OK) {
        r->failed = 1;
        break;
      }
      ncon = r->d->ncon;
      r->iter_sum += r->d->solver_stats.iterations;
      r->converged += ncon == 0 || r->d->solver_stats.converged;
    }
    r->ncon_sum += ncon;
    if (++r->steps == step_1s) {
      const double* q = run_qpos(r) + r->fq;
      r->h1 = cs_bench_grasp_height(r->gravity, q);
      memcpy(r->q1, q + 3, sizeof r->q1);
    }
  }
}

static void run_finish(Run* r, long step_1s) {
  const double* q = run_qpos(r) + r->fq;
  double span = (double)(r->steps - step_1s) * r->dt;
  r->drift =
      r->failed || span <= 0 ? NAN : (cs_bench_grasp_height(r->gravity, q) - r->h1) / span * 1e6;
  r->rot = r->failed ? NAN : cs_bench_grasp_angle(r->q1, q + 3);
  r->us = 1e-3 * cs_cli_median(r->t, r->nt);
}

/* ------------------------------------------------------------------ output */
static void print_json(const char* scene, double seconds, const Run* r, double mj_best,
                       int have_mj) {
  FILE* f = stdout;
  double n = r->steps > 0 ? (double)r->steps : 1;
  printf("{\"bench\":\"grasp\",\"scene\":\"%s\",\"solver\":\"%s\"", scene, r->label);
  cs_cli_json_num(f, "seconds", seconds);
  cs_cli_json_num(f, "drift_um_per_s", r->drift);
  cs_cli_json_num(f, "rotation_rad", r->rot);
  cs_cli_json_num(f, "us_per_step", r->us);
  cs_cli_json_num(f, "contacts_mean", r->ncon_sum / n);
  printf(",\"steps\":%ld", r->steps);
  cs_cli_json_num(f, "dt", r->dt);
  cs_cli_json_num(f, "iterations_mean", r->iter_sum / n);
  if (!r->mj) cs_cli_json_num(f, "converged_fraction", (double)r->converged / n);
  printf(",\"failed\":%s", r->failed ? "true" : "false");
  if (have_mj && !r->mj) cs_cli_json_num(f, "drift_vs_mujoco_best", fabs(r->drift) / mj_best);
  printf("}\n");
  fflush(stdout);
}

static void print_table(const char* scene, const char* file, double seconds, const Run* runs,
                        int nrun, double mj_best, int have_mj) {
  printf("grasp %s (%s): %g s of %g s steps; drift and rotation from 1 s to the end\n", scene, file,
         seconds, runs[0].dt);
  printf("  %-28s %14s %13s %10s %9s %10s%s\n", "solver", "drift (um/s)", "rotation (rad)",
         "us/step", "contacts", "iterations", have_mj ? "  vs MuJoCo best" : "");
  for (int i = 0; i < nrun; i++) {
    const Run* r = &runs[i];
    double n = r->steps > 0 ? (double)r->steps : 1;
    printf("  %-28s %+14.6g %13.3g %10.3f %9.2f %10.2f", r->label, r->drift, r->rot, r->us,
           r->ncon_sum / n, r->iter_sum / n);
    double vs = fabs(r->drift) / mj_best;
    if (have_mj && !r->mj) {
      if (isfinite(vs))
        printf("  %15.3g", vs);
      else
        printf("  %15s", "-");
    }
    if (r->failed) printf("  (a step failed at %g s)", (double)r->steps * r->dt);
    printf("\n");
  }
  fflush(stdout);
}

/* ------------------------------------------------------------------ one scene */
/* The library's log while the runs go: clears a progress line first. */
static int log_tty = 0;

static void bench_log(const char* msg) {
  if (log_tty) fprintf(stderr, "\r%60s\r", "");
  fprintf(stderr, "contactsim: bench grasp: %s\n", msg);
}

static int source_file(char* out, size_t n, const char* rel) {
  const char* dir = getenv("CONTACTSIM_SOURCE_DIR");
  if (!dir || !*dir) dir = CS_BENCH_SOURCE_DIR;
  return snprintf(out, n, "%s/%s", dir, rel) < (int)n;
}

/* Returns 0, or an exit code (message printed). */
static int run_scene(const csBenchGraspScene* sc, int solver, double seconds, int vs_mujoco,
                     int json, int asked) {
  char path[4096], inc[4096];
  if (!source_file(path, sizeof path, sc->file)) {
    fprintf(stderr, "bench grasp: path too long\n");
    return 1;
  }
  if (sc->shared) {
    char rel[1024];
    snprintf(rel, sizeof rel, "../shared/models/%s", sc->shared);
    if (!source_file(inc, sizeof inc, rel) || access(inc, R_OK) != 0) {
      fprintf(stderr, "bench grasp %s: skipped: %s needs %s, which is absent\n", sc->name, path,
              inc);
      return asked ? 1 : 0;
    }
  }
  int solvers[CS_SOLVER_COUNT], ns = 0;
  for (int t = 1; t < CS_SOLVER_COUNT; t++)
    if ((solver < 0 && cs_solver_get((csSolverType)t)) || t == solver) solvers[ns++] = t;
  int nrun = ns + (vs_mujoco ? NMJ : 0);
  Run* runs = calloc((size_t)nrun, sizeof(Run));
  if (!runs) {
    fprintf(stderr, "bench grasp: out of memory\n");
    return 1;
  }
  int rc = 0;
  for (int i = 0; i < nrun && rc == 0; i++) {
    if (i < ns) {
      if (!ours_init(&runs[i], path, solvers[i])) rc = 1;
    } else {
#ifdef CS_HAVE_MUJOCO
      if (!mj_init(&runs[i], path, i - ns, &runs[0])) rc = 1;
      if (rc == 0 && runs[i].dt != runs[0].dt) {
        fprintf(stderr, "bench grasp: MuJoCo's timestep %g differs from ours %g\n", runs[i].dt,
                runs[0].dt);
        rc = 1;
      }
#endif
    }
  }
  /* the step counts from the file's timestep */
  long steps = rc ? 0 : lround(seconds / runs[0].dt), step_1s = rc ? 0 : lround(1 / runs[0].dt);
  long nchunk = (steps + CHUNK - 1) / CHUNK;
  for (int i = 0; i < nrun && rc == 0; i++) {
    runs[i].t = malloc(sizeof(double) * (size_t)(nchunk + 1));
    if (!runs[i].t) {
      fprintf(stderr, "bench grasp: out of memory\n");
      rc = 1;
    }
  }
  if (rc == 0) {
    cs_set_log(NULL); /* the warm-up's warnings would repeat the run's */
    for (int i = 0; i < nrun; i++) run_chunk(&runs[i], WARMUP, -1);
    cs_set_log(bench_log);
    for (int i = 0; i < nrun && rc == 0; i++)
      if (!run_restart(&runs[i], path)) rc = 1;
  }
  int tty = isatty(2);
  log_tty = tty;
  for (long done = 0; rc == 0 && done < steps;) {
    long n = steps - done < CHUNK ? steps - done : CHUNK;
    for (int i = 0; i < nrun; i++) {
      double t0 = cs_cli_now_ns();
      run_chunk(&runs[i], n, step_1s);
      double t1 = cs_cli_now_ns();
      if (n == CHUNK && !runs[i].failed) runs[i].t[runs[i].nt++] = (t1 - t0) / (double)n;
    }
    done += n;
    if (tty) {
      fprintf(stderr, "\rbench grasp %s: %3ld%%", sc->name, 100 * done / steps);
      fflush(stderr);
    }
  }
  if (tty) fprintf(stderr, "\r%60s\r", "");
  if (rc == 0) {
    double mj_best = INFINITY;
    for (int i = 0; i < nrun; i++) {
      run_finish(&runs[i], step_1s);
      if (runs[i].mj && fabs(runs[i].drift) < mj_best) mj_best = fabs(runs[i].drift);
    }
    if (json)
      for (int i = 0; i < nrun; i++) print_json(sc->name, seconds, &runs[i], mj_best, vs_mujoco);
    else
      print_table(sc->name, sc->file, seconds, runs, nrun, mj_best, vs_mujoco);
  }
  for (int i = 0; i < nrun; i++) run_free(&runs[i]);
  free(runs);
  return rc;
}

/* ------------------------------------------------------------------ main */
int cs_bench_grasp_main(int argc, char** argv) {
  const char* scene = "all";
  int solver = -1, json = 0, vs_mujoco = 0;
  double seconds = DEFAULT_SECONDS;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--vs-mujoco")) {
      vs_mujoco = 1;
    } else if (!strcmp(a, "--scene")) {
      int ok = v && !strcmp(v, "all");
      for (int s = 0; v && cs_bench_grasp_scenes[s].name; s++)
        ok |= !strcmp(v, cs_bench_grasp_scenes[s].name);
      if (!ok) {
        fprintf(stderr,
                "bench grasp: --scene needs pinch, pinch_horizontal, gripper_box, "
                "allegro or all\n");
        return 2;
      }
      scene = v, i++;
    } else if (!strcmp(a, "--solver")) {
      if (v && !strcmp(v, "all")) {
        solver = -1;
      } else {
        solver = v ? cs_solver_from_name(v) : -1;
        if (solver <= 0 || !cs_solver_get((csSolverType)solver)) {
          fprintf(stderr, "bench grasp: --solver needs all or an implemented solver; names:");
          for (int t = 1; t < CS_SOLVER_COUNT; t++)
            if (cs_solver_get((csSolverType)t))
              fprintf(stderr, " %s", cs_solver_name((csSolverType)t));
          fprintf(stderr, "\n");
          return 2;
        }
      }
      i++;
    } else if (!strcmp(a, "--seconds")) {
      if (!cs_cli_parse_double(v, &seconds) || !(seconds >= 2 && seconds <= 1e5)) {
        fprintf(stderr, "bench grasp: --seconds needs a number in [2, 1e5]\n");
        return 2;
      }
      i++;
    } else {
      fprintf(stderr, "bench grasp: unknown argument '%s' (try --help)\n", a);
      return 2;
    }
  }
#ifndef CS_HAVE_MUJOCO
  if (vs_mujoco) {
    fprintf(stderr, "bench grasp: --vs-mujoco: built without MuJoCo\n");
    return 2;
  }
#else
  if (vs_mujoco) mju_user_warning = mj_warning_to_stderr; /* keep stdout for the results */
#endif
  int status = 0;
  for (int s = 0; cs_bench_grasp_scenes[s].name; s++) {
    const csBenchGraspScene* sc = &cs_bench_grasp_scenes[s];
    if (strcmp(scene, "all") && strcmp(scene, sc->name)) continue;
    int rc = run_scene(sc, solver, seconds, vs_mujoco, json, strcmp(scene, "all") != 0);
    if (rc) status = rc;
  }
  return status;
}
