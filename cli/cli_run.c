/* contactsim run / check / demo */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_cli.h"
#include "cs_scene.h"
#include "cs_util.h"

int cs_cli_model_option(int argc, char** argv, int i, csLoadOptions* o, int* consumed) {
  *consumed = 0;
  if (!strcmp(argv[i], "--fixed-base")) {
    o->floating_base = 0;
    *consumed = 1;
  } else if (!strcmp(argv[i], "--floating-base")) {
    o->floating_base = 1;
    *consumed = 1;
  } else if (!strcmp(argv[i], "--balance-inertia")) {
    o->balance_inertia = 1;
    *consumed = 1;
  } else if (!strcmp(argv[i], "--self-collision")) {
    o->self_collision = 1;
    *consumed = 1;
  } else if (!strcmp(argv[i], "--package-path")) {
    if (i + 1 >= argc) {
      fprintf(stderr, "--package-path needs a value\n");
      return -1;
    }
    o->package_path = argv[i + 1];
    *consumed = 2;
  }
  return 0;
}

csModel* cs_cli_load(const char* path, const csLoadOptions* o) {
  csModel* m = NULL;
  csStatus st = cs_load_model(path, o, &m);
  if (st != CS_OK) {
    fprintf(stderr, "contactsim: %s: %s\n", cs_status_name(st), cs_last_error());
    return NULL;
  }
  return m;
}

static double parse_num(const char* opt, const char* s, int* ok) {
  char* end;
  double v = strtod(s, &end);
  if (end == s || *end || !isfinite(v)) {
    fprintf(stderr, "%s: '%s' is not a number\n", opt, s);
    *ok = 0;
  }
  return v;
}

/* A whole number of option opt in [lo, hi]; else *ok = 0 with a message naming both */
static long parse_count(const char* opt, const char* s, long lo, long hi, int* ok) {
  long v = 0;
  if (!cs_cli_parse_long(s, lo, hi, &v)) {
    fprintf(stderr, "contactsim run: %s: '%s' is not a whole number from %ld to %ld\n", opt, s, lo,
            hi);
    *ok = 0;
  }
  return v;
}

/* ------------------------------------------------------------------ run */
static void run_usage(FILE* f) {
  fprintf(f,
          "usage: contactsim run MODEL [options]\n"
          "       contactsim run --scene NAME [options]\n"
          "  --scene NAME       a built-in scene: hang drop trot random (ANYmal C),\n"
          "                     cube_slide cube_push stack_ratio (ContactBench cubes),\n"
          "                     pile (boxes of 0.1 m dropped in a grid onto a plane)\n"
          "  --ratio R          stack_ratio: top/bottom mass ratio (default 1)\n"
          "  --boxes N          pile: number of boxes, 1 to %d (default %d)\n"
          "  --steps N          number of steps (default 1000)\n"
          "  --dt S             time step in seconds (default: the model's)\n"
          "  --solver S         contact solver (default: the model's; list below)\n"
          "  --fallback F       where the bisection's sweeps stall, hand the rest to solver F,\n"
          "                     or 'none' (default: ncp_admm; docs/solvers.md)\n"
          "  --tol T            solver tolerance (default 1e-6; cube scenes 1e-8)\n"
          "  --iterations N     solver iteration cap (default 150; cube scenes 1000)\n"
          "  --out FILE.csv     write time, qpos, qvel, contacts, energy per step\n"
          "  --every K          write every K-th step (default 1)\n"
          "  --dump-fclib F     write the contact problem (and its solution) of one step to the\n"
          "                     FCLIB local file F (HDF5), for replay by any solver\n"
          "  --dump-step K      the step to dump (default: the first step with contacts)\n"
          "  --fixed-base       URDF: weld the root link to the world\n"
          "  --floating-base    URDF: attach the root link by a free joint (default)\n"
          "  --key K            start from keyframe K of the model (its name or index)\n"
          "  --floor            add a ground plane (geom 'floor') at the height of the\n"
          "                     model's lowest collision point at its initial pose\n"
          "  --package-path P   URDF: directories for package:// URIs, ':'-separated\n"
          "  --balance-inertia  repair inertias violating the triangle inequality (noted)\n"
          "  --self-collision   URDF: let the robot's links collide with each other\n"
          "  --no-gravity       disable gravity\n"
          "  --no-contact       disable contacts\n"
          "Scenes are defined in docs/scenes.md; their models are in %s\n"
          "(override with the environment variable CONTACTSIM_MODELS).\n",
          CS_SCENE_PILE_MAX, CS_SCENE_PILE_DEFAULT, cs_cli_models_dir());
  fprintf(f, "Solvers:");
  for (int t = 0; t < CS_SOLVER_COUNT; t++)
    if (t == CS_SOLVER_NONE || cs_solver_get((csSolverType)t))
      fprintf(f, " %s", cs_solver_name((csSolverType)t));
  fprintf(f, " (pgs = ncp_pgs)\n");
}

static void write_row(FILE* f, const csModel* m, csData* d) {
  cs_energy(m, d);
  fprintf(f, "%.9g", d->time);
  for (int i = 0; i < m->nq; i++) fprintf(f, ",%.17g", d->qpos[i]);
  for (int i = 0; i < m->nv; i++) fprintf(f, ",%.17g", d->qvel[i]);
  double pen = 0;
  for (int c = 0; c < d->ncon; c++)
    if (-d->contact[c].dist > pen) pen = -d->contact[c].dist;
  fprintf(f, ",%d,%.17g,%.17g,%.6g,%d,%.3g\n", d->ncon, d->energy[0], d->energy[1], pen,
          d->solver_stats.iterations, d->solver_stats.ncp.eps_abs);
}

/* The options of contactsim run (as given; solver_type: the --solver name's type, or -1) */
typedef struct {
  const char* model;
  const char* scene_name;
  const char* out;
  const char* solver;
  const char* fallback;
  const char* dump;
  long dump_step;
  long steps, every, iters, boxes;
  double dt, tol, ratio;
  int floor;       /* --floor */
  const char* key; /* --key: a keyframe's name or index */
  int nograv, nocontact, dt_given, tol_given, ratio_given, boxes_given, solver_type, fallback_type;
  csLoadOptions lo;
} runOpts;

/* The option loop: -1 when all were read (number errors noted in *ok), else the exit code
   (--help: 0; an unknown or incomplete option: 2, with the usage) */
static int run_parse_options(int argc, char** argv, runOpts* o, int* ok) {
  for (int i = 1; i < argc; i++) {
    int used;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      run_usage(stdout);
      return 0;
    }
    if (cs_cli_model_option(argc, argv, i, &o->lo, &used) < 0) return 2;
    if (used) {
      i += used - 1;
      continue;
    }
    int has = i + 1 < argc;
    if (!strcmp(argv[i], "--steps") && has)
      o->steps = parse_count("--steps", argv[++i], 0, LONG_MAX, ok);
    else if (!strcmp(argv[i], "--dt") && has) {
      o->dt = parse_num("--dt", argv[++i], ok);
      o->dt_given = 1;
    } else if (!strcmp(argv[i], "--out") && has)
      o->out = argv[++i];
    else if (!strcmp(argv[i], "--scene") && has)
      o->scene_name = argv[++i];
    else if (!strcmp(argv[i], "--dump-fclib") && has)
      o->dump = argv[++i];
    else if (!strcmp(argv[i], "--dump-step") && has)
      o->dump_step = parse_count("--dump-step", argv[++i], 0, LONG_MAX, ok);
    else if (!strcmp(argv[i], "--solver") && has)
      o->solver = argv[++i];
    else if (!strcmp(argv[i], "--fallback") && has)
      o->fallback = argv[++i];
    else if (!strcmp(argv[i], "--tol") && has) {
      o->tol = parse_num("--tol", argv[++i], ok);
      o->tol_given = 1;
    } else if (!strcmp(argv[i], "--ratio") && has) {
      o->ratio = parse_num("--ratio", argv[++i], ok);
      o->ratio_given = 1;
    } else if (!strcmp(argv[i], "--boxes") && has) {
      o->boxes = parse_count("--boxes", argv[++i], 1, CS_SCENE_PILE_MAX, ok);
      o->boxes_given = 1;
    } else if (!strcmp(argv[i], "--iterations") && has)
      o->iters = parse_count("--iterations", argv[++i], 1, INT_MAX, ok);
    else if (!strcmp(argv[i], "--every") && has)
      o->every = parse_count("--every", argv[++i], 1, LONG_MAX, ok);
    else if (!strcmp(argv[i], "--no-gravity"))
      o->nograv = 1;
    else if (!strcmp(argv[i], "--key") && has)
      o->key = argv[++i];
    else if (!strcmp(argv[i], "--floor"))
      o->floor = 1;
    else if (!strcmp(argv[i], "--no-contact"))
      o->nocontact = 1;
    else if (argv[i][0] != '-' && !o->model)
      o->model = argv[i];
    else {
      fprintf(stderr, "contactsim run: unknown or incomplete option '%s'\n", argv[i]);
      run_usage(stderr);
      return 2;
    }
  }
  return -1;
}

/* The options' combination and values: 0 if usable (the solver's type looked up), else 2
   with the reason */
static int run_check_options(runOpts* o) {
  if (!o->model == !o->scene_name) {
    fprintf(stderr, "contactsim run: give a MODEL file or --scene NAME (one of them)\n");
    run_usage(stderr);
    return 2;
  }
  if (o->steps < 0 || o->every < 1) {
    fprintf(stderr, "contactsim run: --steps must be >= 0 and --every >= 1\n");
    return 2;
  }
  if (o->dt_given && !(o->dt > 0)) {
    fprintf(stderr, "contactsim run: --dt must be > 0\n");
    return 2;
  }
  if (o->tol_given && !(o->tol > 0)) {
    fprintf(stderr, "contactsim run: --tol must be > 0 (got %g)\n", o->tol);
    return 2;
  }
  if (o->ratio_given && (!o->scene_name || strcmp(o->scene_name, "stack_ratio"))) {
    fprintf(stderr, "contactsim run: --ratio applies to --scene stack_ratio only\n");
    return 2;
  }
  if (o->boxes_given && (!o->scene_name || strcmp(o->scene_name, "pile"))) {
    fprintf(stderr, "contactsim run: --boxes applies to --scene pile only\n");
    return 2;
  }
  if (o->ratio_given && !(o->ratio > 0)) {
    fprintf(stderr, "contactsim run: --ratio must be > 0 (got %g)\n", o->ratio);
    return 2;
  }
  if (o->key && o->scene_name) {
    fprintf(stderr, "contactsim run: --key applies to a MODEL file, not to --scene\n");
    return 2;
  }
  if (o->floor && o->scene_name) {
    fprintf(stderr, "contactsim run: --floor applies to a MODEL file, not to --scene\n");
    return 2;
  }
  if (o->dump_step >= 0 && !o->dump) {
    fprintf(stderr, "contactsim run: --dump-step needs --dump-fclib\n");
    return 2;
  }
  if (o->solver) {
    o->solver_type = cs_solver_from_name(o->solver);
    if (o->solver_type < 0) {
      fprintf(stderr, "contactsim run: unknown solver '%s'\n", o->solver);
      return 2;
    }
  }
  if (o->fallback) {
    int none = !strcmp(o->fallback, "none");
    o->fallback_type = none ? -1 : cs_solver_from_name(o->fallback);
    if ((!none && o->fallback_type <= 0) ||
        (o->fallback_type > 0 && !cs_solver_get((csSolverType)o->fallback_type))) {
      fprintf(stderr, "contactsim run: --fallback '%s' is not an implemented solver or 'none'\n",
              o->fallback);
      return 2;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------ --floor */
/* The model file compiled with a ground plane at its lowest collision point at qpos0
   (cs_load_model_floor); NULL (reported) on failure */
static csModel* run_load_floor(const char* path, const csLoadOptions* lo) {
  csModel* m = NULL;
  double z = 0;
  csStatus st = cs_load_model_floor(path, lo, &m, &z);
  if (st != CS_OK) {
    fprintf(stderr, "contactsim: %s: %s\n", cs_status_name(st), cs_last_error());
    return NULL;
  }
  printf("floor: plane at z = %.9g m (lowest collision point at qpos0)\n", z);
  return m;
}

/* --key: d reset to the keyframe named key, or of index key */
static csStatus run_reset_key(const csModel* m, csData* d, const char* key) {
  int k = cs_name2id(m, "key", key);
  char* end;
  long i = strtol(key, &end, 10);
  if (k < 0 && end != key && !*end && i >= 0 && i < m->nkey) k = (int)i;
  if (k < 0) {
    fprintf(stderr,
            "contactsim run: --key '%s': no keyframe of that name or index (%d keyframes)\n", key,
            m->nkey);
    return CS_ERR_ARG;
  }
  return cs_data_reset_key(m, d, k);
}

/* The scene (its model path into o->model) or the model file with new data; then the
   options that override the model's. -1 on success, else the exit code (an unknown scene:
   2 with the list; a load failure: 1). */
static int run_setup(runOpts* o, csScene* sc, csModel** mp, csData** dp) {
  csModel* m = NULL;
  csData* d = NULL;
  if (o->scene_name) {
    double param = o->boxes_given ? (double)o->boxes : o->ratio;
    csStatus st = cs_scene_load(o->scene_name, cs_cli_models_dir(), param, sc);
    if (st != CS_OK) {
      if (st == CS_ERR_ARG) {
        fprintf(stderr, "contactsim run: unknown scene '%s'; scenes:", o->scene_name);
        for (const char* const* n = cs_scene_all_names(); *n; n++) fprintf(stderr, " %s", *n);
        fprintf(stderr, "\n");
        return 2;
      }
      fprintf(stderr, "contactsim run: scene %s: %s\n", o->scene_name, cs_last_error());
      return 1;
    }
    m = sc->m, d = sc->d;
    o->model = sc->model_path;
  } else {
    m = o->floor ? run_load_floor(o->model, &o->lo) : cs_cli_load(o->model, &o->lo);
    if (!m) return 1;
    d = cs_data_new(m);
    if (!d) {
      fprintf(stderr, "contactsim run: %s\n", cs_last_error());
      cs_model_free(m);
      return 1;
    }
    if (o->key && run_reset_key(m, d, o->key) != CS_OK) {
      cs_data_free(d);
      cs_model_free(m);
      return 1;
    }
  }
  if (o->dt_given) m->opt.timestep = o->dt;
  if (o->nograv) m->opt.disable |= CS_DISABLE_GRAVITY;
  if (o->nocontact) m->opt.disable |= CS_DISABLE_CONTACT;
  if (o->solver_type >= 0) m->opt.solver = o->solver_type;
  if (o->fallback) m->opt.fallback = o->fallback_type;
  if (o->tol_given) m->opt.tolerance = o->tol;
  if (o->iters > 0) m->opt.iterations = (int)o->iters;
  *mp = m, *dp = d;
  return -1;
}

/* The trajectory file with its header line, or NULL (reported) if it cannot be written */
static FILE* run_open_trajectory(const char* out, const csModel* m) {
  FILE* f = fopen(out, "w");
  if (!f) {
    fprintf(stderr, "contactsim run: cannot write %s\n", out);
    return NULL;
  }
  fprintf(f, "time");
  for (int i = 0; i < m->nq; i++) fprintf(f, ",qpos%d", i);
  for (int i = 0; i < m->nv; i++) fprintf(f, ",qvel%d", i);
  fprintf(f, ",ncon,energy_potential,energy_kinetic,penetration_max,iterations,eps_abs\n");
  return f;
}

/* --dump-fclib: step k's contact problem written if it is the one asked for (or the first
   with contacts), once (o->dump cleared). 0, or 1 if writing failed. */
static int run_dump(runOpts* o, csData* d, long k) {
  if (!(o->dump && d->ncon && (o->dump_step < 0 || o->dump_step == k))) return 0;
  char title[1300];
  snprintf(title, sizeof title, "contactsim %s step %ld t=%g", o->model, k, d->time);
  csStatus ds = cs_fclib_write_local(o->dump, &d->problem, d->efc_lambda, title);
  if (ds != CS_OK) {
    fprintf(stderr, "contactsim run: --dump-fclib: %s\n", cs_last_error());
    return 1;
  }
  printf("step %ld: contact problem with %d contacts written to %s\n", k, d->ncon, o->dump);
  o->dump = NULL;
  return 0;
}

/* What the summary line counts over the steps */
typedef struct {
  long con_sum, iter_sum, unconverged;
  long island_sum, island_steps; /* the steps whose problem was stored by islands */
} runStats;

/* On a terminal, the share of the steps done, once a second after the first two seconds */
static void run_progress(long k, long steps, double t0, double* last) {
  double now = cs_cli_now_ns();
  if (now - t0 < 2e9 || now - *last < 1e9) return;
  *last = now;
  fprintf(stderr, "\r%3ld%% (%ld of %ld steps)", 100 * k / steps, k, steps);
}

/* The steps (the scene's control before each), a trajectory row every o->every steps
   (the last state included), the dump, the counts, and on a terminal a progress percentage
   for long runs. 0, or 1 if a step or the dump failed. */
static int run_loop(runOpts* o, csScene* sc, csModel* m, csData* d, FILE* f, runStats* s) {
  long steps = o->steps;
  int tty = isatty(2), shown = 0;
  int rc = 0;
  double t0 = cs_cli_now_ns(), last = t0;
  for (long k = 0; k <= steps; k++) {
    if (f && k % o->every == 0) write_row(f, m, d);
    if (k == steps) break;
    if (o->scene_name) cs_scene_control(sc, m, d);
    csStatus st = cs_step(m, d);
    if (st != CS_OK) {
      fprintf(stderr, "contactsim run: step %ld failed: %s\n", k, cs_last_error());
      rc = 1;
      break;
    }
    s->con_sum += d->ncon;
    if (run_dump(o, d, k)) {
      rc = 1;
      break;
    }
    if (d->ncon) {
      s->iter_sum += d->solver_stats.iterations;
      s->unconverged += !d->solver_stats.converged;
    }
    if (d->problem.nisland > 0) s->island_sum += d->problem.nisland, s->island_steps++;
    if (tty) {
      double before = last;
      run_progress(k, steps, t0, &last);
      shown |= last != before;
    }
  }
  if (shown) fprintf(stderr, "\r100%% (%ld of %ld steps)\n", steps, steps);
  return rc;
}

/* The summary line: steps, model, solver, per-step averages, warnings, trajectory file */
static void run_summary(const runOpts* o, const csModel* m, const csData* d, const runStats* s) {
  printf("simulated %ld steps (%.4g s) of %s: nq %d nv %d, solver %s", d->nstep, d->time, o->model,
         m->nq, m->nv, cs_solver_name((csSolverType)m->opt.solver));
  if (d->nstep)
    printf(", %.3g contacts/step, %.3g iterations/step, %ld unconverged",
           (double)s->con_sum / d->nstep, (double)s->iter_sum / d->nstep, s->unconverged);
  if (s->island_steps)
    printf(", %.3g islands/step in the %ld steps stored by islands",
           (double)s->island_sum / s->island_steps, s->island_steps);
  int nw = 0;
  for (int w = 0; w < CS_WARN_COUNT; w++) nw += d->warning[w].count;
  printf(", %d warnings%s%s\n", nw, o->out ? ", trajectory in " : "", o->out ? o->out : "");
}

/* The occurrences one loader note stands for: its "; N occurrences" (MJCF) or "(N time"
   (URDF) count, else 1 */
static long note_count(const char* p, int n) {
  const char* keys[] = {"; ", "("};
  for (int k = 0; k < 2; k++)
    for (const char* q = p; (q = strstr(q, keys[k])) && q < p + n; q++) {
      char* e;
      long v = strtol(q + strlen(keys[k]), &e, 10);
      if (e > q + strlen(keys[k]) && (!strncmp(e, " occurrence", 11) || !strncmp(e, " time", 5)))
        return v;
    }
  return 1;
}

/* One line for what the model file had that is read but not simulated (m->notes, one note
   per kind): the kinds counted as attributes, elements and others with their occurrences,
   and the visual-only items apart (they change no physics) */
static void run_notes_summary(const csModel* m) {
  if (!m->notes || !m->notes[0]) return;
  long kinds[3] = {0, 0, 0}, occ = 0, vis = 0;
  for (const char* p = m->notes; *p;) {
    const char* e = strchr(p, '\n');
    int n = e ? (int)(e - p) : (int)strlen(p);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", n, p);
    const char* v = strstr(line, " visual-only");
    if (v) {
      while (v > line && v[-1] >= '0' && v[-1] <= '9') v--;
      vis += strtol(v, NULL, 10);
    } else if (n > 0) {
      int k = strstr(line, "attribute") ? 0 : strstr(line, "element") ? 1 : 2;
      kinds[k]++, occ += note_count(line, (int)strlen(line));
    }
    p += n + (e ? 1 : 0);
  }
  long nk = kinds[0] + kinds[1] + kinds[2];
  printf("read but not simulated: %ld item%s of %ld kind%s (%ld attribute, %ld element, %ld other)",
         occ, occ == 1 ? "" : "s", nk, nk == 1 ? "" : "s", kinds[0], kinds[1], kinds[2]);
  if (vis) printf(", and %ld visual-only item%s", vis, vis == 1 ? "" : "s");
  printf("; `contactsim check` lists them\n");
}

int cs_cli_run(int argc, char** argv) {
  runOpts o = {
      .dump_step = -1, .steps = 1000, .every = 1, .tol = -1, .ratio = NAN, .solver_type = -1};
  cs_load_options_default(&o.lo);
  int ok = 1;
  int rc = run_parse_options(argc, argv, &o, &ok);
  if (rc >= 0) return rc;
  if (!ok) return 2;
  if ((rc = run_check_options(&o))) return rc;
  csScene sc;
  memset(&sc, 0, sizeof sc);
  csModel* m = NULL;
  csData* d = NULL;
  if ((rc = run_setup(&o, &sc, &m, &d)) >= 0) return rc;
  rc = 0;
  FILE* f = NULL;
  if (o.out && !(f = run_open_trajectory(o.out, m))) {
    rc = 1;
  } else {
    runStats s = {0, 0, 0, 0, 0};
    if (run_loop(&o, &sc, m, d, f, &s)) rc = 1;
    run_summary(&o, m, d, &s);
    run_notes_summary(m);
    if (!rc && o.dump) { /* not written: no step qualified */
      if (o.dump_step >= 0)
        fprintf(stderr, "contactsim run: --dump-fclib: nothing written to %s: step %ld %s\n",
                o.dump, o.dump_step,
                o.dump_step >= o.steps ? "was not reached" : "had no contacts");
      else
        fprintf(stderr,
                "contactsim run: --dump-fclib: nothing written to %s: no step had contacts\n",
                o.dump);
      rc = 1;
    }
  }
  if (f) fclose(f);
  if (o.scene_name) {
    cs_scene_free(&sc);
  } else {
    cs_data_free(d);
    cs_model_free(m);
  }
  return rc;
}

/* ------------------------------------------------------------------ check */
/* The constraints beyond contacts: limited joints (with a margin), dofs with friction loss,
   equality constraints by type (and how many start inactive). */
static void print_constraints(const csModel* m) {
  int nlim = 0, nmargin = 0, nfric = 0, ntype[3] = {0, 0, 0}, ninactive = 0;
  for (int j = 0; j < m->njnt; j++)
    if (m->jnt_limited[j]) {
      nlim++;
      if (m->jnt_margin[j] > 0) nmargin++;
    }
  for (int i = 0; i < m->nv; i++)
    if (m->dof_frictionloss[i] > 0) nfric++;
  for (int e = 0; e < m->neq; e++) {
    if (m->eq_type[e] >= 0 && m->eq_type[e] < 3) ntype[m->eq_type[e]]++;
    if (!m->eq_active[e]) ninactive++;
  }
  printf("constraints  limited joints %d (%d with a margin)  friction-loss dofs %d  equalities %d",
         nlim, nmargin, nfric, m->neq);
  if (m->neq)
    printf(" (connect %d, weld %d, joint %d; %d inactive)", ntype[CS_EQ_CONNECT], ntype[CS_EQ_WELD],
           ntype[CS_EQ_JOINT], ninactive);
  if (m->ntendon) {
    int nl = 0;
    for (int t = 0; t < m->ntendon; t++) nl += m->tendon_limited[t];
    printf("  fixed tendons %d (%d limited)", m->ntendon, nl);
  }
  if (m->njntfrc) printf("  joints with an actuator-force range %d", m->njntfrc);
  printf("\n");
}

/* The model's and one csData's bytes, and what the arena holds (docs/memory.md) */
static void print_memory(const csModel* m, const csData* d) {
  printf("memory       model %zu bytes, data %zu bytes\n", m->nbuffer_, d ? d->nbuffer_ : 0);
  if (!d) return;
  printf(
      "arena        %zu bytes (%s): room for %d of %d contacts with solver %s "
      "(a step with %d needs %zu)\n",
      d->narena_, m->memory ? "the model's memory" : "sized by need", cs_data_room(m, d),
      m->ncon_max, cs_solver_name((csSolverType)m->opt.solver), m->ncon_max,
      cs_data_need(m, m->ncon_max));
}

int cs_cli_check(int argc, char** argv) {
  const char* model = NULL;
  csLoadOptions lo;
  cs_load_options_default(&lo);
  for (int i = 1; i < argc; i++) {
    int used;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf(
          "usage: contactsim check MODEL [--fixed-base|--floating-base] [--package-path P]\n"
          "                              [--balance-inertia]\n"
          "Loads and compiles the model; prints sizes, memory, total mass, the\n"
          "constraints beyond contacts (joint limits, friction loss, equalities), and\n"
          "every attribute or element the loader read but contactsim does not simulate.\n");
      return 0;
    }
    if (cs_cli_model_option(argc, argv, i, &lo, &used) < 0) return 2;
    if (used) {
      i += used - 1;
    } else if (argv[i][0] != '-' && !model) {
      model = argv[i];
    } else {
      fprintf(stderr, "contactsim check: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  if (!model) {
    fprintf(stderr, "usage: contactsim check MODEL [options]\n");
    return 2;
  }
  csModel* m = cs_cli_load(model, &lo);
  if (!m) return 1;
  csData* d = cs_data_new(m);
  double mass = 0;
  for (int b = 1; b < m->nbody; b++) mass += m->body_mass[b];
  printf("model        %s\n", model);
  printf(
      "sizes        nq %d  nv %d  nbody %d (world included)  njnt %d  ngeom %d (%d visual)  "
      "nsite %d  nu %d  nmesh %d\n",
      m->nq, m->nv, m->nbody, m->njnt, m->ngeom, m->ngeomvisual, m->nsite, m->nu, m->nmesh);
  printf("mass         %.6g kg total\n", mass);
  printf("mass matrix  %d nonzeros (lower triangle), %.1f%% of dense\n", m->nM,
         m->nv ? 100.0 * m->nM / (0.5 * m->nv * (m->nv + 1)) : 0.0);
  print_memory(m, d);
  printf("options      timestep %g  gravity %g %g %g\n", m->opt.timestep, m->opt.gravity[0],
         m->opt.gravity[1], m->opt.gravity[2]);
  print_constraints(m);
  if (d) {
    csStatus st = cs_forward(m, d);
    printf("forward      %s at qpos0\n", st == CS_OK ? "ok" : cs_last_error());
  }
  if (m->notes && m->notes[0]) {
    printf("notes (read but not simulated):\n");
    const char* p = m->notes;
    while (*p) {
      const char* e = strchr(p, '\n');
      int n = e ? (int)(e - p) : (int)strlen(p);
      printf("  %.*s\n", n, p);
      p += n + (e ? 1 : 0);
    }
  } else {
    printf("notes        none\n");
  }
  cs_data_free(d);
  cs_model_free(m);
  return 0;
}
