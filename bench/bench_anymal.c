/* contactsim bench anymal --task hang|drop|trot|random|all [--solver S] [--steps N] [--tol T]
                          [--iterations N] [--chunk N] [--vs-mujoco] [--json]

   The ANYmal scenes of docs/scenes.md (scenes/cs_scene.c, model models/anymal_c.xml).

   Timing. The simulation runs in chunks of CHUNK steps (default 1000; fewer when --steps
   is below 10 chunks, so that there are at least 10), each chunk timed with CLOCK_MONOTONIC
   as a whole: the scene controller (cs_scene_control) + cs_step + the gathering of the
   statistics below (a few ns per step). Before the measured run, one chunk of each side is
   run as a warm-up and both sides are put back in their start state.
   - us_per_step: median over our unprofiled chunks of (chunk time / chunk steps).
   - us_per_step_solver (and _dynamics, _collision, _build): the same pass. Our chunks
     alternate unprofiled (even chunks, d->profile = 0: they give us_per_step, free of the
     profiler's clock reads) and profiled (odd chunks, d->profile = 1: they give the
     medians over chunks of the per-step means of d->time_ns[3] (solve), [0] (smooth
     dynamics), [1] (collision), [2] (problem build)). So every quantity is measured on the
     one simulated trajectory, and the two sets of chunks interleave in time.
   - With --vs-mujoco, MuJoCo runs the same task on the same file in the same process, its
     chunks alternating with ours (ours, MuJoCo, ours, MuJoCo, ...): mujoco_us_per_step is
     the median over all its chunks, speedup_vs_mujoco = mujoco_us_per_step / us_per_step.
   Only chunks of full length enter the medians.

   Statistics (every step of the measured run): contacts_mean (contacts per step),
   iterations_mean and converged_fraction (over steps with contacts), eps_abs_max (the NCP
   report's eps_abs, max over steps with contacts), penetration_mean_m / _max_m: the
   penetration max(0, -dist) of the *active* contacts (lambda_N > 0), mean over all (step,
   active contact) pairs, and max; MuJoCo's (mujoco_penetration_*) on the same definition
   with its contact dist and the normal force of mj_contactForce.

   The MuJoCo side (built with CS_HAVE_MUJOCO): mj_loadXML on the same file, then timestep
   and gravity as ours, mjINT_EULER (MuJoCo 2.2.2's Euler: joint damping implicit, as our
   default integrator), condim 3 on every geom, dof_frictionloss 0, mjDSBL_LIMIT,
   mjDSBL_ACTUATION (our PD torques go to qfrc_applied), mjCONE_ELLIPTIC, impratio 1,
   mjSOL_NEWTON, MuJoCo's own iteration cap, tolerance and soft-contact defaults
   (solref, solimp, margin 0). The collision filter is copied from our model geom by geom
   (name to name: hang has the torso's contype = conaffinity = 0). The start state is ours
   mapped joint by joint (by name; the free joint layouts agree). The controller is a copy
   of the scene's csSceneCtl (same seed, its own generator state): the same references,
   the same resets (drop: on its own kinetic energy 0.5 v^T M v with the M of the last
   step, as mj_energyVel and our scene compute it). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"
#include "cs_cli.h"
#include "cs_scene.h"

#ifdef CS_HAVE_MUJOCO
#include <mujoco/mujoco.h>

#include "cs_mujoco_joint.h"
#endif

#define DEFAULT_STEPS 100000L
#define DEFAULT_CHUNK 1000L

static void usage(FILE* f) {
  csOption o;
  cs_option_default(&o);
  fprintf(f,
          "usage: contactsim bench anymal --task hang|drop|trot|random|all [--solver S]\n"
          "                               [--steps N] [--tol T] [--iterations N] [--chunk N]\n"
          "                               [--vs-mujoco] [--json]\n"
          "\n"
          "Simulates an ANYmal C scene of docs/scenes.md (model anymal_c.xml: hang, drop,\n"
          "trot, random) and reports the time per step and the contact statistics.\n"
          "The run is cut into chunks of steps, each timed as a whole (scene controller +\n"
          "cs_step); us_per_step is the median chunk time / chunk steps over the unprofiled\n"
          "chunks; every other chunk runs with d->profile = 1 and gives us_per_step_solver\n"
          "(contact solve only, median over those chunks). One warm-up chunk first.\n"
          "\n"
          "  --task T        hang, drop, trot, random, or all (the four, one line each)\n"
          "  --solver S      contact solver by name (default: the model's, %s)\n"
          "  --steps N       steps of 1 ms (default %ld)\n"
          "  --tol T         solver tolerance on its own criterion (default: the model's, 1e-6)\n"
          "  --iterations N  solver iteration cap (default: the model's, 150)\n"
          "  --chunk N       steps per timed chunk (default %ld; less if --steps < 10 chunks)\n"
          "  --vs-mujoco     run the same task in MuJoCo 2.2.2 in the same process, chunks\n"
          "                  alternating with ours: mujoco_us_per_step, speedup_vs_mujoco =\n"
          "                  mujoco_us_per_step / us_per_step, and MuJoCo's own statistics\n"
          "                  (mujoco_*); %s\n"
          "  --json          one JSON object per task and line on stdout, nothing else:\n"
          "                  {\"bench\":\"anymal\",\"task\":..,\"solver\":..,\"steps\":..,\n"
          "                  \"dt\":..,\"us_per_step\":..,\"us_per_step_solver\":..,\n"
          "                  \"contacts_mean\":..,\"iterations_mean\":..,\n"
          "                  \"converged_fraction\":..,\"eps_abs_max\":..,\n"
          "                  \"penetration_mean_m\":..,\"penetration_max_m\":.., extras,\n"
          "                  [\"mujoco_us_per_step\":..,\"speedup_vs_mujoco\":.., mujoco_*]}\n"
          "  --help          this text\n"
          "\n"
          "Definitions. contacts_mean: contacts per step (all contacts found, within the 1 mm\n"
          "margin). iterations_mean, converged_fraction: over the steps with contacts.\n"
          "eps_abs_max: largest NCP eps_abs over the steps with contacts. Penetration of a\n"
          "contact = max(0, -dist), counted over *active* contacts only, i.e. contacts with\n"
          "lambda_N > 0 (MuJoCo: normal force of mj_contactForce > 0):\n"
          "penetration_mean_m is the mean over all (step, active contact) pairs,\n"
          "penetration_max_m the largest. Means with nothing to average print 0 (converged\n"
          "fraction: 1). Extras: active_contacts_mean, iterations_max, us_per_step_dynamics,\n"
          "_collision, _build (profiled chunks), resets (scene resets), warnings (sum of\n"
          "d->warning counts), nan_steps (steps rolled back as non-finite: the state is then\n"
          "put back to the start), base_z_final (base height at the end, m), fallback_steps\n"
          "([n1, n2]: solves that left the solver's own model, csSolverStats.fallback 1, 2;\n"
          "bisection: 1 de Saxce's variant, 2 ncp_admm, after its sweeps stalled).\n",
          cs_solver_name((csSolverType)o.solver), DEFAULT_STEPS, DEFAULT_CHUNK,
#ifdef CS_HAVE_MUJOCO
          "MuJoCo configured as docs/scenes.md says"
#else
          "not available: built without MuJoCo"
#endif
  );
}

/* ------------------------------------------------------------------ statistics */
typedef struct {
  long steps;         /* steps taken (committed) */
  long steps_contact; /* steps with at least one contact */
  double ncon_sum;    /* contacts, summed over steps */
  double iter_sum;    /* solver iterations, over steps with contacts */
  long iter_max;
  long converged;   /* steps with contacts whose solve converged */
  long fallback[2]; /* steps whose solver fell back (csSolverStats.fallback 1, 2) */
  double eps_abs_max;
  long nactive; /* (step, active contact) pairs */
  double pen_sum, pen_max;
  long nan_steps;
} Stats;

typedef struct {
  const char* task;
  Stats ours, mj;
  double us_step, us_solver, us_dyn, us_coll, us_build;
  int have_mj;
  double mj_us_step;
  int resets, mj_resets;
  long warnings, mj_warnings;
  double base_z, mj_base_z;
  long chunk;
  const char* solver; /* name, as used */
  long steps;         /* requested */
  double dt, tol;     /* as used */
} Result;

static inline void stats_contacts(Stats* a, int ncon, int iters, int converged, double eps) {
  a->steps++;
  a->ncon_sum += ncon;
  if (ncon > 0) {
    a->steps_contact++;
    a->iter_sum += iters;
    if (iters > a->iter_max) a->iter_max = iters;
    a->converged += converged != 0;
    if (eps > a->eps_abs_max) a->eps_abs_max = eps;
  }
}

static inline void stats_active(Stats* a, double dist) {
  double pen = dist < 0 ? -dist : 0;
  a->nactive++;
  a->pen_sum += pen;
  if (pen > a->pen_max) a->pen_max = pen;
}

/* ------------------------------------------------------------------ our side */
/* n steps of the scene; statistics into a, profiled stage times (ns, summed) into stage.
   A step rolled back as non-finite counts in nan_steps and puts the start state back (time
   advanced by dt, so both sides keep the same clock). Other step errors are returned. */
static csStatus ours_chunk(csScene* s, long n, Stats* a, double stage[4]) {
  const csModel* m = s->m;
  csData* d = s->d;
  for (long k = 0; k < n; k++) {
    cs_scene_control(s, m, d);
    csStatus st = cs_step(m, d);
    if (st != CS_OK) {
      if (st != CS_ERR_NUMERIC) return st;
      a->nan_steps++;
      cs_data_set_state(m, d, s->qpos0, m->nq, s->qvel0, m->nv);
      d->time += m->opt.timestep;
      continue;
    }
    if (d->profile)
      for (int j = 0; j < 4; j++) stage[j] += d->time_ns[j];
    const csSolverStats* ss = &d->solver_stats;
    stats_contacts(a, d->ncon, ss->iterations, ss->converged, ss->ncp.eps_abs);
    if (ss->fallback == 1 || ss->fallback == 2) a->fallback[ss->fallback - 1]++;
    for (int i = 0; i < d->ncon; i++)
      if (d->contact[i].lambda[0] > 0) stats_active(a, d->contact[i].dist);
  }
  return CS_OK;
}

/* ------------------------------------------------------------------ the MuJoCo side */
#ifdef CS_HAVE_MUJOCO
typedef struct {
  mjModel* mm;
  mjData* md;
  csSceneCtl ctl; /* a copy of the scene's controller: its own state, same seed */
  int npd;
  int qadr[CS_SCENE_MAXJ], dof[CS_SCENE_MAXJ];
  mjtNum* qpos0; /* (nq) our start state in MuJoCo's layout */
  mjtNum* qvel0; /* (nv) */
  mjtNum* tmp;   /* (nv) */
} MjSide;

static void mj_warning_to_stderr(const char* msg) {
  fprintf(stderr, "bench anymal: MuJoCo warning: %s\n", msg);
}

static void mj_side_free(MjSide* x) {
  if (x->md) mj_deleteData(x->md);
  if (x->mm) mj_deleteModel(x->mm);
  free(x->qpos0);
  free(x->qvel0);
  free(x->tmp);
  memset(x, 0, sizeof *x);
}

static int nq_of(int type) { return type == CS_JNT_FREE ? 7 : type == CS_JNT_BALL ? 4 : 1; }
static int nv_of(int type) { return type == CS_JNT_FREE ? 6 : type == CS_JNT_BALL ? 3 : 1; }
/* Load and configure MuJoCo for scene s (see the header comment). 0 (message printed) on
   failure. */
static int mj_side_init(MjSide* x, const csScene* s) {
  memset(x, 0, sizeof *x);
  const csModel* m = s->m;
  char err[1000] = "";
  x->mm = mj_loadXML(s->model_path, NULL, err, sizeof err);
  if (!x->mm) {
    fprintf(stderr, "bench anymal: MuJoCo cannot load %s: %s\n", s->model_path, err);
    return 0;
  }
  mjModel* mm = x->mm;
  if (mm->nq != m->nq || mm->nv != m->nv || mm->njnt != m->njnt) {
    fprintf(stderr,
            "bench anymal: MuJoCo's model has nq %d nv %d njnt %d, ours nq %d nv %d "
            "njnt %d\n",
            mm->nq, mm->nv, mm->njnt, m->nq, m->nv, m->njnt);
    return 0;
  }
  mm->opt.timestep = m->opt.timestep;
  for (int k = 0; k < 3; k++) mm->opt.gravity[k] = m->opt.gravity[k];
  mm->opt.integrator = mjINT_EULER;
  mm->opt.cone = mjCONE_ELLIPTIC;
  mm->opt.impratio = 1;
  mm->opt.solver = mjSOL_NEWTON;
  mm->opt.disableflags |= mjDSBL_LIMIT | mjDSBL_ACTUATION;
  for (int i = 0; i < mm->nv; i++) mm->dof_frictionloss[i] = 0;
  for (int g = 0; g < mm->ngeom; g++) mm->geom_condim[g] = 3;
  /* the collision filter and friction of our model, geom by geom */
  for (int g = 0; g < m->ngeom; g++) {
    const char* name = cs_id2name(m, "geom", g);
    int mg = name && *name ? mj_name2id(mm, mjOBJ_GEOM, name) : -1;
    if (mg < 0 && m->ngeom == mm->ngeom) mg = g;
    if (mg < 0) {
      fprintf(stderr, "bench anymal: our geom %d (%s) has no MuJoCo counterpart\n", g,
              name ? name : "unnamed");
      return 0;
    }
    mm->geom_contype[mg] = m->geom_contype[g];
    mm->geom_conaffinity[mg] = m->geom_conaffinity[g];
    if (fabs(mm->geom_friction[3 * mg] - m->geom_friction[g]) > 1e-12)
      fprintf(stderr, "bench anymal: note: geom %s: MuJoCo friction %g, ours %g; ours used\n",
              name ? name : "unnamed", mm->geom_friction[3 * mg], m->geom_friction[g]);
    mm->geom_friction[3 * mg] = m->geom_friction[g];
  }
  /* joints by name: the start state in MuJoCo's layout and the controlled joints */
  x->qpos0 = calloc((size_t)mm->nq, sizeof(mjtNum));
  x->qvel0 = calloc((size_t)mm->nv, sizeof(mjtNum));
  x->tmp = calloc((size_t)mm->nv, sizeof(mjtNum));
  if (!x->qpos0 || !x->qvel0 || !x->tmp) {
    fprintf(stderr, "bench anymal: out of memory\n");
    return 0;
  }
  int* jmap = calloc((size_t)(m->njnt > 0 ? m->njnt : 1), sizeof(int));
  if (!jmap) {
    fprintf(stderr, "bench anymal: out of memory\n");
    return 0;
  }
  for (int j = 0; j < m->njnt; j++) {
    const char* name = cs_id2name(m, "joint", j);
    int mj = name && *name ? mj_name2id(mm, mjOBJ_JOINT, name) : -1;
    if (mj < 0 || mm->jnt_type[mj] != cs_bench_mj_joint_type(m->jnt_type[j])) {
      fprintf(stderr,
              "bench anymal: our joint %d (%s) has no MuJoCo joint of that name and "
              "type\n",
              j, name ? name : "unnamed");
      free(jmap);
      return 0;
    }
    jmap[j] = mj;
    int t = m->jnt_type[j];
    for (int k = 0; k < nq_of(t); k++)
      x->qpos0[mm->jnt_qposadr[mj] + k] = s->qpos0[m->jnt_qposadr[j] + k];
    for (int k = 0; k < nv_of(t); k++)
      x->qvel0[mm->jnt_dofadr[mj] + k] = s->qvel0[m->jnt_dofadr[j] + k];
  }
  x->ctl = s->ctl;
  x->npd = s->ctl.npd;
  for (int i = 0; i < x->npd; i++) {
    int mj = jmap[s->pd_jnt[i]];
    x->qadr[i] = mm->jnt_qposadr[mj];
    x->dof[i] = mm->jnt_dofadr[mj];
  }
  free(jmap);
  x->md = mj_makeData(mm);
  if (!x->md) {
    fprintf(stderr, "bench anymal: MuJoCo: mj_makeData failed\n");
    return 0;
  }
  return 1;
}

/* The start state: mj_resetData, our start state, mj_forward (M for the kinetic energy). */
static void mj_side_reset(MjSide* x) {
  mj_resetData(x->mm, x->md);
  memcpy(x->md->qpos, x->qpos0, sizeof(mjtNum) * (size_t)x->mm->nq);
  memcpy(x->md->qvel, x->qvel0, sizeof(mjtNum) * (size_t)x->mm->nv);
  mj_forward(x->mm, x->md);
  cs_scene_ctl_start(&x->ctl);
}

static void mj_chunk(MjSide* x, long n, Stats* a) {
  const mjModel* mm = x->mm;
  mjData* md = x->md;
  int nv = mm->nv;
  double q[CS_SCENE_MAXJ], qd[CS_SCENE_MAXJ], tau[CS_SCENE_MAXJ];
  for (long k = 0; k < n; k++) {
    /* the scene controller, as cs_scene_control does it on our side */
    memset(md->qfrc_applied, 0, sizeof(mjtNum) * (size_t)nv);
    double kinetic = 0;
    if (cs_scene_ctl_wants_energy(&x->ctl)) {
      mj_mulM(mm, md, x->tmp, md->qvel);
      for (int i = 0; i < nv; i++) kinetic += 0.5 * md->qvel[i] * x->tmp[i];
    }
    if (cs_scene_ctl_update(&x->ctl, md->time, mm->opt.timestep, kinetic)) {
      memcpy(md->qpos, x->qpos0, sizeof(mjtNum) * (size_t)mm->nq);
      memcpy(md->qvel, x->qvel0, sizeof(mjtNum) * (size_t)nv);
    }
    if (x->npd > 0) {
      for (int i = 0; i < x->npd; i++) q[i] = md->qpos[x->qadr[i]], qd[i] = md->qvel[x->dof[i]];
      if (cs_scene_ctl_torques(&x->ctl, q, qd, tau))
        for (int i = 0; i < x->npd; i++) md->qfrc_applied[x->dof[i]] = tau[i];
    }
    mj_step(mm, md);
    /* mj_step's contacts and forces belong to the state at the step's start, as ours */
    stats_contacts(a, md->ncon, md->solver_iter, 1, 0);
    for (int i = 0; i < md->ncon; i++) {
      mjtNum f[6];
      mj_contactForce(mm, md, i, f);
      if (f[0] > 0) stats_active(a, md->contact[i].dist);
    }
  }
}

static long mj_warnings(const mjData* md) {
  long w = 0;
  for (int i = 0; i < mjNWARNING; i++) w += md->warning[i].number;
  return w;
}
#endif

/* ------------------------------------------------------------------ one task */
/* The library's log while a task runs: names the task, clears a progress line first. The
   warm-up runs silent (its warnings would repeat the measured run's). */
static const char* log_task = "";
static int log_tty = 0;

static void bench_log(const char* msg) {
  if (log_tty) fprintf(stderr, "\r%60s\r", "");
  fprintf(stderr, "contactsim: bench anymal %s: %s\n", log_task, msg);
}

static void progress(const char* task, long done, long total) {
  fprintf(stderr, "\rbench anymal %s: %3ld%%", task, total ? 100 * done / total : 100);
  fflush(stderr);
}

/* Returns 0, or an exit code (message printed). */
static int run_task(const char* task, int solver, double tol, long iters, long steps,
                    long chunk_req, int vs_mujoco, Result* r) {
  memset(r, 0, sizeof *r);
  r->task = task;
  csScene s;
  csStatus st = cs_scene_load(task, cs_cli_models_dir(), NAN, &s);
  if (st != CS_OK) {
    fprintf(stderr, "bench anymal: scene %s: %s\n", task, cs_last_error());
    return 1;
  }
  csModel* m = s.m;
  if (solver >= 0) m->opt.solver = solver;
  if (tol >= 0) m->opt.tolerance = tol;
  if (iters > 0) m->opt.iterations = (int)iters;
  if (m->opt.solver != CS_SOLVER_NONE && !cs_solver_get((csSolverType)m->opt.solver)) {
    fprintf(stderr, "bench anymal: solver '%s'%s is not implemented yet; implemented:",
            cs_solver_name((csSolverType)m->opt.solver), solver >= 0 ? "" : " (the model's)");
    for (int t = 0; t < CS_SOLVER_COUNT; t++)
      if (t == CS_SOLVER_NONE || cs_solver_get((csSolverType)t))
        fprintf(stderr, " %s", cs_solver_name((csSolverType)t));
    fprintf(stderr, " (use --solver)\n");
    cs_scene_free(&s);
    return solver >= 0 ? 2 : 1;
  }
  cs_scene_reset(&s); /* the options may have changed since the load's reset */
  r->solver = cs_solver_name((csSolverType)m->opt.solver);
  r->steps = steps;
  r->dt = m->opt.timestep;
  r->tol = m->opt.tolerance;

  long chunk = steps >= 10 * chunk_req ? chunk_req : (steps / 10 > 0 ? steps / 10 : 1);
  long nchunk = (steps + chunk - 1) / chunk;
  r->chunk = chunk;
  double* samples = malloc(sizeof(double) * (size_t)(6 * nchunk + 6));
  if (!samples) {
    fprintf(stderr, "bench anymal: out of memory\n");
    cs_scene_free(&s);
    return 1;
  }
  double* t_plain = samples; /* our unprofiled chunks: ns per step */
  double* t_stage[4];        /* our profiled chunks: ns per step per stage */
  for (int j = 0; j < 4; j++) t_stage[j] = samples + (size_t)(j + 1) * (size_t)(nchunk + 1);
  double* t_mj = samples + (size_t)5 * (size_t)(nchunk + 1);
  long n_plain = 0, n_prof = 0, n_mj = 0;
  int rc = 0;
  (void)vs_mujoco;
#ifdef CS_HAVE_MUJOCO
  MjSide mjs;
  memset(&mjs, 0, sizeof mjs);
  if (vs_mujoco) {
    if (!mj_side_init(&mjs, &s)) {
      mj_side_free(&mjs);
      free(samples);
      cs_scene_free(&s);
      return 1;
    }
    r->have_mj = 1;
  }
#endif
  int tty = isatty(2);
  log_task = task, log_tty = tty;
  double stage[4];
  /* warm-up: one chunk per side, then both back to the start */
  {
    cs_set_log(NULL);
    Stats junk;
    memset(&junk, 0, sizeof junk);
    memset(stage, 0, sizeof stage);
    s.d->profile = 0;
    st = ours_chunk(&s, chunk, &junk, stage);
#ifdef CS_HAVE_MUJOCO
    if (r->have_mj) {
      mj_side_reset(&mjs);
      mj_chunk(&mjs, chunk, &junk);
      mj_side_reset(&mjs);
    }
#endif
    cs_scene_reset(&s);
    cs_set_log(bench_log);
  }
  long done = 0;
  for (long c = 0; c < nchunk && st == CS_OK; c++) {
    long n = steps - done < chunk ? steps - done : chunk;
    int prof = (int)(c % 2);
    s.d->profile = prof;
    memset(stage, 0, sizeof stage);
    double t0 = cs_cli_now_ns();
    st = ours_chunk(&s, n, &r->ours, stage);
    double t1 = cs_cli_now_ns();
    if (n == chunk) {
      if (!prof) {
        t_plain[n_plain++] = (t1 - t0) / (double)n;
      } else {
        for (int j = 0; j < 4; j++) t_stage[j][n_prof] = stage[j] / (double)n;
        n_prof++;
      }
    }
#ifdef CS_HAVE_MUJOCO
    if (r->have_mj) {
      t0 = cs_cli_now_ns();
      mj_chunk(&mjs, n, &r->mj);
      t1 = cs_cli_now_ns();
      if (n == chunk) t_mj[n_mj++] = (t1 - t0) / (double)n;
    }
#endif
    done += n;
    if (tty) progress(task, done, steps);
  }
  if (tty) fprintf(stderr, "\r%60s\r", "");
  if (st != CS_OK) {
    fprintf(stderr, "bench anymal %s: step %ld failed: %s\n", task, r->ours.steps, cs_last_error());
    rc = 1;
  }
  s.d->profile = 0;
  r->us_step = 1e-3 * cs_cli_median(t_plain, n_plain);
  r->us_dyn = 1e-3 * cs_cli_median(t_stage[0], n_prof);
  r->us_coll = 1e-3 * cs_cli_median(t_stage[1], n_prof);
  r->us_build = 1e-3 * cs_cli_median(t_stage[2], n_prof);
  r->us_solver = 1e-3 * cs_cli_median(t_stage[3], n_prof);
  r->resets = s.ctl.resets;
  for (int w = 0; w < CS_WARN_COUNT; w++) r->warnings += s.d->warning[w].count;
  r->base_z = s.d->qpos[2];
  (void)t_mj, (void)n_mj;
#ifdef CS_HAVE_MUJOCO
  if (r->have_mj) {
    r->mj_us_step = 1e-3 * cs_cli_median(t_mj, n_mj);
    r->mj_resets = mjs.ctl.resets;
    r->mj_warnings = mj_warnings(mjs.md);
    r->mj_base_z = mjs.md->qpos[2];
  }
  mj_side_free(&mjs);
#endif
  free(samples);
  cs_scene_free(&s);
  return rc;
}

/* ------------------------------------------------------------------ output */
static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

static void print_json(const Result* r) {
  FILE* f = stdout;
  const Stats* a = &r->ours;
  printf("{\"bench\":\"anymal\",\"task\":\"%s\",\"solver\":\"%s\",\"steps\":%ld", r->task,
         r->solver, r->steps);
  cs_cli_json_num(f, "dt", r->dt);
  cs_cli_json_num(f, "us_per_step", r->us_step);
  cs_cli_json_num(f, "us_per_step_solver", r->us_solver);
  cs_cli_json_num(f, "contacts_mean", ratio(a->ncon_sum, (double)a->steps));
  cs_cli_json_num(f, "iterations_mean", ratio(a->iter_sum, (double)a->steps_contact));
  cs_cli_json_num(f, "converged_fraction",
                  a->steps_contact ? (double)a->converged / (double)a->steps_contact : 1.0);
  cs_cli_json_num(f, "eps_abs_max", a->eps_abs_max);
  cs_cli_json_num(f, "penetration_mean_m", ratio(a->pen_sum, (double)a->nactive));
  cs_cli_json_num(f, "penetration_max_m", a->pen_max);
  cs_cli_json_num(f, "tolerance", r->tol);
  printf(",\"chunk\":%ld", r->chunk);
  cs_cli_json_num(f, "active_contacts_mean", ratio((double)a->nactive, (double)a->steps));
  printf(",\"iterations_max\":%ld", a->iter_max);
  cs_cli_json_num(f, "us_per_step_dynamics", r->us_dyn);
  cs_cli_json_num(f, "us_per_step_collision", r->us_coll);
  cs_cli_json_num(f, "us_per_step_build", r->us_build);
  printf(",\"resets\":%d,\"warnings\":%ld,\"nan_steps\":%ld", r->resets, r->warnings, a->nan_steps);
  printf(",\"fallback_steps\":[%ld,%ld]", a->fallback[0], a->fallback[1]);
  cs_cli_json_num(f, "base_z_final", r->base_z);
  if (r->have_mj) {
    const Stats* b = &r->mj;
    cs_cli_json_num(f, "mujoco_us_per_step", r->mj_us_step);
    cs_cli_json_num(f, "speedup_vs_mujoco", r->us_step > 0 ? r->mj_us_step / r->us_step : NAN);
    cs_cli_json_num(f, "mujoco_penetration_mean_m", ratio(b->pen_sum, (double)b->nactive));
    cs_cli_json_num(f, "mujoco_penetration_max_m", b->pen_max);
    cs_cli_json_num(f, "mujoco_contacts_mean", ratio(b->ncon_sum, (double)b->steps));
    cs_cli_json_num(f, "mujoco_active_contacts_mean", ratio((double)b->nactive, (double)b->steps));
    cs_cli_json_num(f, "mujoco_iterations_mean", ratio(b->iter_sum, (double)b->steps_contact));
    printf(",\"mujoco_resets\":%d,\"mujoco_warnings\":%ld", r->mj_resets, r->mj_warnings);
    cs_cli_json_num(f, "mujoco_base_z_final", r->mj_base_z);
  }
  printf("}\n");
  fflush(stdout);
}

static void row(const char* label, const char* fmt, double ours, int have_mj, double mj) {
  printf("  %-38s ", label);
  printf(fmt, ours);
  if (have_mj) {
    printf("  ");
    if (isnan(mj))
      printf("%12s", "-");
    else
      printf(fmt, mj);
  }
  printf("\n");
}

static void print_table(const Result* r) {
  const Stats* a = &r->ours;
  const Stats* b = &r->mj;
  int mj = r->have_mj;
  printf("anymal %s: solver %s, tolerance %g, %ld steps of %g s, chunks of %ld steps\n", r->task,
         r->solver, r->tol, r->steps, r->dt, r->chunk);
  printf("  %-38s %12s%s\n", "", "contactsim", mj ? "        MuJoCo" : "");
  row("us per step (median chunk)", "%12.3f", r->us_step, mj, r->mj_us_step);
  row("  of which contact solve (profiled)", "%12.3f", r->us_solver, mj, NAN);
  row("  smooth dynamics (profiled)", "%12.3f", r->us_dyn, mj, NAN);
  row("  collision (profiled)", "%12.3f", r->us_coll, mj, NAN);
  row("  problem build (profiled)", "%12.3f", r->us_build, mj, NAN);
  row("contacts per step", "%12.3f", ratio(a->ncon_sum, (double)a->steps), mj,
      ratio(b->ncon_sum, (double)b->steps));
  row("active contacts per step", "%12.3f", ratio((double)a->nactive, (double)a->steps), mj,
      ratio((double)b->nactive, (double)b->steps));
  row("iterations (mean, steps with contacts)", "%12.2f",
      ratio(a->iter_sum, (double)a->steps_contact), mj,
      ratio(b->iter_sum, (double)b->steps_contact));
  row("iterations (max)", "%12.0f", (double)a->iter_max, mj, (double)b->iter_max);
  row("converged fraction", "%12.4f",
      a->steps_contact ? (double)a->converged / (double)a->steps_contact : 1.0, mj, NAN);
  row("eps_abs max", "%12.3g", a->eps_abs_max, mj, NAN);
  row("penetration mean, active contacts (m)", "%12.3g", ratio(a->pen_sum, (double)a->nactive), mj,
      ratio(b->pen_sum, (double)b->nactive));
  row("penetration max, active contacts (m)", "%12.3g", a->pen_max, mj, b->pen_max);
  row("resets", "%12.0f", r->resets, mj, r->mj_resets);
  row("warnings", "%12.0f", (double)r->warnings, mj, (double)r->mj_warnings);
  row("non-finite steps (state reset)", "%12.0f", (double)a->nan_steps, mj, NAN);
  row("base height at the end (m)", "%12.4f", r->base_z, mj, r->mj_base_z);
  if (mj)
    printf("  %-38s %12.3f\n", "speedup vs MuJoCo (MuJoCo / ours)",
           r->us_step > 0 ? r->mj_us_step / r->us_step : NAN);
  fflush(stdout);
}

/* ------------------------------------------------------------------ main */
int cs_bench_anymal_main(int argc, char** argv) {
  const char* task = NULL;
  int solver = -1, json = 0, vs_mujoco = 0;
  long steps = DEFAULT_STEPS, iters = 0, chunk = DEFAULT_CHUNK;
  double tol = -1;
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
    } else if (!strcmp(a, "--task")) {
      if (!cs_bench_anymal_task_ok(v)) {
        fprintf(stderr, "bench anymal: --task needs hang, drop, trot, random or all\n");
        return 2;
      }
      task = v, i++;
    } else if (!strcmp(a, "--solver")) {
      solver = v ? cs_solver_from_name(v) : -1;
      if (solver < 0) {
        fprintf(stderr, "bench anymal: --solver needs a solver name; names:");
        for (int t = 0; t < CS_SOLVER_COUNT; t++)
          fprintf(stderr, " %s", cs_solver_name((csSolverType)t));
        fprintf(stderr, " (pgs = ncp_pgs)\n");
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--steps")) {
      if (!cs_cli_parse_long(v, 1, 2000000000L, &steps)) {
        fprintf(stderr, "bench anymal: --steps needs an integer in [1, 2e9]\n");
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--chunk")) {
      if (!cs_cli_parse_long(v, 1, 100000000L, &chunk)) {
        fprintf(stderr, "bench anymal: --chunk needs an integer in [1, 1e8]\n");
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--iterations")) {
      if (!cs_cli_parse_long(v, 1, 1000000000L, &iters)) {
        fprintf(stderr, "bench anymal: --iterations needs an integer in [1, 1e9]\n");
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--tol")) {
      if (!cs_cli_parse_double(v, &tol) || tol < 0) {
        fprintf(stderr, "bench anymal: --tol needs a number >= 0\n");
        return 2;
      }
      i++;
    } else {
      fprintf(stderr, "bench anymal: unknown argument '%s' (try --help)\n", a);
      return 2;
    }
  }
  if (!task) {
    fprintf(stderr, "bench anymal: --task hang|drop|trot|random|all is required (try --help)\n");
    return 2;
  }
#ifndef CS_HAVE_MUJOCO
  if (vs_mujoco) {
    fprintf(stderr, "bench anymal: --vs-mujoco: built without MuJoCo\n");
    return 2;
  }
#else
  if (vs_mujoco) mju_user_warning = mj_warning_to_stderr; /* keep stdout for the results */
#endif
  int status = 0;
  for (int t = 0; cs_bench_anymal_tasks[t]; t++) {
    if (strcmp(task, "all") && strcmp(task, cs_bench_anymal_tasks[t])) continue;
    Result r;
    int rc = run_task(cs_bench_anymal_tasks[t], solver, tol, iters, steps, chunk, vs_mujoco, &r);
    if (rc == 2) return rc;
    if (rc) { /* message printed; no line for a failed task, the others still run */
      status = rc;
      continue;
    }
    if (json)
      print_json(&r);
    else
      print_table(&r);
  }
  return status;
}
