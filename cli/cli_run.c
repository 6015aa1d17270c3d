/* contactsim run / check / demo */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_cli.h"
#include "cs_scene.h"

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

/* ------------------------------------------------------------------ run */
static void run_usage(FILE* f) {
  fprintf(f,
          "usage: contactsim run MODEL [options]\n"
          "       contactsim run --scene NAME [options]\n"
          "  --scene NAME       a built-in scene: hang drop trot random (ANYmal C),\n"
          "                     cube_slide cube_push stack_ratio (ContactBench cubes)\n"
          "  --ratio R          stack_ratio: top/bottom mass ratio (default 1)\n"
          "  --steps N          number of steps (default 1000)\n"
          "  --dt S             time step in seconds (default: the model's, 0.001)\n"
          "  --solver S         contact solver (default: the model's; list below)\n"
          "  --tol T            solver tolerance (default 1e-6; cube scenes 1e-8)\n"
          "  --iterations N     solver iteration cap (default 150; cube scenes 1000)\n"
          "  --out FILE.csv     write time, qpos, qvel, contacts, energy per step\n"
          "  --every K          write every K-th step (default 1)\n"
          "  --dump-fclib F     write the contact problem (and its solution) of one step to the\n"
          "                     FCLIB local file F (HDF5), for replay by any solver\n"
          "  --dump-step K      the step to dump (default: the first step with contacts)\n"
          "  --fixed-base       URDF: weld the root link to the world\n"
          "  --floating-base    URDF: attach the root link by a free joint (default)\n"
          "  --package-path P   URDF: directories for package:// URIs, ':'-separated\n"
          "  --balance-inertia  repair inertias violating the triangle inequality (noted)\n"
          "  --self-collision   URDF: let the robot's links collide with each other\n"
          "  --no-gravity       disable gravity\n"
          "  --no-contact       disable contacts\n"
          "Scenes are defined in docs/scenes.md; their models are in %s\n"
          "(override with the environment variable CONTACTSIM_MODELS).\n",
          cs_cli_models_dir());
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

int cs_cli_run(int argc, char** argv) {
  const char* model = NULL;
  const char* scene_name = NULL;
  const char* out = NULL;
  const char* solver = NULL;
  const char* dump = NULL;
  long dump_step = -1;
  long steps = 1000, every = 1, iters = 0;
  double dt = 0, tol = -1, ratio = NAN;
  int nograv = 0, nocontact = 0, ok = 1, dt_given = 0;
  csLoadOptions lo;
  cs_load_options_default(&lo);
  lo.floating_base = 1;
  for (int i = 1; i < argc; i++) {
    int used;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      run_usage(stdout);
      return 0;
    }
    if (cs_cli_model_option(argc, argv, i, &lo, &used) < 0) return 2;
    if (used) {
      i += used - 1;
      continue;
    }
    int has = i + 1 < argc;
    if (!strcmp(argv[i], "--steps") && has)
      steps = (long)parse_num("--steps", argv[++i], &ok);
    else if (!strcmp(argv[i], "--dt") && has) {
      dt = parse_num("--dt", argv[++i], &ok);
      dt_given = 1;
    } else if (!strcmp(argv[i], "--out") && has)
      out = argv[++i];
    else if (!strcmp(argv[i], "--scene") && has)
      scene_name = argv[++i];
    else if (!strcmp(argv[i], "--dump-fclib") && has)
      dump = argv[++i];
    else if (!strcmp(argv[i], "--dump-step") && has)
      dump_step = (long)parse_num("--dump-step", argv[++i], &ok);
    else if (!strcmp(argv[i], "--solver") && has)
      solver = argv[++i];
    else if (!strcmp(argv[i], "--tol") && has)
      tol = parse_num("--tol", argv[++i], &ok);
    else if (!strcmp(argv[i], "--ratio") && has)
      ratio = parse_num("--ratio", argv[++i], &ok);
    else if (!strcmp(argv[i], "--iterations") && has)
      iters = (long)parse_num("--iterations", argv[++i], &ok);
    else if (!strcmp(argv[i], "--every") && has)
      every = (long)parse_num("--every", argv[++i], &ok);
    else if (!strcmp(argv[i], "--no-gravity"))
      nograv = 1;
    else if (!strcmp(argv[i], "--no-contact"))
      nocontact = 1;
    else if (argv[i][0] != '-' && !model)
      model = argv[i];
    else {
      fprintf(stderr, "contactsim run: unknown or incomplete option '%s'\n", argv[i]);
      run_usage(stderr);
      return 2;
    }
  }
  if (!ok) return 2;
  if (!model == !scene_name) {
    fprintf(stderr, "contactsim run: give a MODEL file or --scene NAME (one of them)\n");
    run_usage(stderr);
    return 2;
  }
  if (steps < 0 || every < 1) {
    fprintf(stderr, "contactsim run: --steps must be >= 0 and --every >= 1\n");
    return 2;
  }
  if (dt_given && !(dt > 0)) {
    fprintf(stderr, "contactsim run: --dt must be > 0\n");
    return 2;
  }
  int solver_type = -1;
  if (solver) {
    solver_type = cs_solver_from_name(solver);
    if (solver_type < 0) {
      fprintf(stderr, "contactsim run: unknown solver '%s'\n", solver);
      return 2;
    }
  }
  csScene sc;
  memset(&sc, 0, sizeof sc);
  csModel* m = NULL;
  csData* d = NULL;
  if (scene_name) {
    csStatus st = cs_scene_load(scene_name, cs_cli_models_dir(), ratio, &sc);
    if (st != CS_OK) {
      if (st == CS_ERR_ARG) {
        fprintf(stderr, "contactsim run: unknown scene '%s'; scenes:", scene_name);
        for (const char* const* n = cs_scene_names(); *n; n++) fprintf(stderr, " %s", *n);
        fprintf(stderr, "\n");
        return 2;
      }
      fprintf(stderr, "contactsim run: scene %s: %s\n", scene_name, cs_last_error());
      return 1;
    }
    m = sc.m, d = sc.d;
    model = sc.model_path;
  } else {
    m = cs_cli_load(model, &lo);
    if (!m) return 1;
    d = cs_data_new(m);
    if (!d) {
      fprintf(stderr, "contactsim run: %s\n", cs_last_error());
      cs_model_free(m);
      return 1;
    }
  }
  if (dt_given) m->opt.timestep = dt;
  if (nograv) m->opt.disable |= CS_DISABLE_GRAVITY;
  if (nocontact) m->opt.disable |= CS_DISABLE_CONTACT;
  if (solver_type >= 0) m->opt.solver = solver_type;
  if (tol >= 0) m->opt.tolerance = tol;
  if (iters > 0) m->opt.iterations = (int)iters;
  int rc = 0;
  FILE* f = NULL;
  if (out) {
    f = fopen(out, "w");
    if (!f) {
      fprintf(stderr, "contactsim run: cannot write %s\n", out);
      rc = 1;
      goto done;
    }
    fprintf(f, "time");
    for (int i = 0; i < m->nq; i++) fprintf(f, ",qpos%d", i);
    for (int i = 0; i < m->nv; i++) fprintf(f, ",qvel%d", i);
    fprintf(f, ",ncon,energy_potential,energy_kinetic,penetration_max,iterations,eps_abs\n");
  }
  int tty = isatty(2);
  long con_sum = 0, iter_sum = 0, unconverged = 0;
  for (long k = 0; k <= steps; k++) {
    if (f && k % every == 0) write_row(f, m, d);
    if (k == steps) break;
    if (scene_name) cs_scene_control(&sc, m, d);
    csStatus st = cs_step(m, d);
    if (st != CS_OK) {
      fprintf(stderr, "contactsim run: step %ld failed: %s\n", k, cs_last_error());
      rc = 1;
      break;
    }
    con_sum += d->ncon;
    if (dump && d->ncon && (dump_step < 0 || dump_step == k)) {
      char title[1300];
      snprintf(title, sizeof title, "contactsim %s step %ld t=%g", model, k, d->time);
      csStatus ds = cs_fclib_write_local(dump, &d->problem, d->efc_lambda, title);
      if (ds != CS_OK) {
        fprintf(stderr, "contactsim run: --dump-fclib: %s\n", cs_last_error());
        rc = 1;
        break;
      }
      printf("step %ld: contact problem with %d contacts written to %s\n", k, d->ncon, dump);
      dump = NULL;
    }
    if (d->ncon) {
      iter_sum += d->solver_stats.iterations;
      unconverged += !d->solver_stats.converged;
    }
    if (tty && steps >= 10000 && k % (steps / 100) == 0)
      fprintf(stderr, "\r%3ld%%", 100 * k / steps);
  }
  if (tty && steps >= 10000) fprintf(stderr, "\r100%%\n");
  printf("simulated %ld steps (%.4g s) of %s: nq %d nv %d, solver %s", d->nstep, d->time, model,
         m->nq, m->nv, cs_solver_name((csSolverType)m->opt.solver));
  if (d->nstep)
    printf(", %.3g contacts/step, %.3g iterations/step, %ld unconverged",
           (double)con_sum / d->nstep, (double)iter_sum / d->nstep, unconverged);
  int nw = 0;
  for (int w = 0; w < CS_WARN_COUNT; w++) nw += d->warning[w].count;
  printf(", %d warnings%s%s\n", nw, out ? ", trajectory in " : "", out ? out : "");
done:
  if (f) fclose(f);
  if (scene_name) {
    cs_scene_free(&sc);
  } else {
    cs_data_free(d);
    cs_model_free(m);
  }
  return rc;
}

/* ------------------------------------------------------------------ check */
int cs_cli_check(int argc, char** argv) {
  const char* model = NULL;
  csLoadOptions lo;
  cs_load_options_default(&lo);
  lo.floating_base = 1;
  for (int i = 1; i < argc; i++) {
    int used;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf(
          "usage: contactsim check MODEL [--fixed-base|--floating-base] [--package-path P]\n"
          "                              [--balance-inertia]\n"
          "Loads and compiles the model; prints sizes, memory, total mass, and every\n"
          "attribute or element the loader read but contactsim does not simulate.\n");
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
      "sizes        nq %d  nv %d  nbody %d (world included)  njnt %d  ngeom %d  nsite %d  nu %d  "
      "nmesh %d\n",
      m->nq, m->nv, m->nbody, m->njnt, m->ngeom, m->nsite, m->nu, m->nmesh);
  printf("mass         %.6g kg total\n", mass);
  printf("mass matrix  %d nonzeros (lower triangle), %.1f%% of dense\n", m->nM,
         m->nv ? 100.0 * m->nM / (0.5 * m->nv * (m->nv + 1)) : 0.0);
  printf("memory       model %zu bytes, data %zu bytes (arena %zu)\n", m->nbuffer_,
         d ? d->nbuffer_ : 0, m->arena_bytes);
  printf("options      timestep %g  gravity %g %g %g\n", m->opt.timestep, m->opt.gravity[0],
         m->opt.gravity[1], m->opt.gravity[2]);
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
