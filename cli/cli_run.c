/* contactsim run / check / demo */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_cli.h"

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
          "  --steps N          number of steps (default 1000)\n"
          "  --dt S             time step in seconds (default: the model's, 0.001)\n"
          "  --out FILE.csv     write time, qpos, qvel, contacts, energy per step\n"
          "  --every K          write every K-th step (default 1)\n"
          "  --fixed-base       URDF: weld the root link to the world\n"
          "  --floating-base    URDF: attach the root link by a free joint (default)\n"
          "  --package-path P   URDF: directories for package:// URIs, ':'-separated\n"
          "  --balance-inertia  repair inertias violating the triangle inequality (noted)\n"
          "  --no-gravity       disable gravity\n"
          "Contacts are not simulated yet (the contact pipeline is under way).\n");
}

int cs_cli_run(int argc, char** argv) {
  const char* model = NULL;
  const char* out = NULL;
  long steps = 1000, every = 1;
  double dt = 0;
  int nograv = 0, ok = 1, dt_given = 0;
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
    if (!strcmp(argv[i], "--steps") && has) steps = (long)parse_num("--steps", argv[++i], &ok);
    else if (!strcmp(argv[i], "--dt") && has) {
      dt = parse_num("--dt", argv[++i], &ok);
      dt_given = 1;
    }
    else if (!strcmp(argv[i], "--out") && has) out = argv[++i];
    else if (!strcmp(argv[i], "--every") && has) every = (long)parse_num("--every", argv[++i], &ok);
    else if (!strcmp(argv[i], "--no-gravity")) nograv = 1;
    else if (argv[i][0] != '-' && !model) model = argv[i];
    else {
      fprintf(stderr, "contactsim run: unknown or incomplete option '%s'\n", argv[i]);
      run_usage(stderr);
      return 2;
    }
  }
  if (!ok) return 2;
  if (!model) {
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
  csModel* m = cs_cli_load(model, &lo);
  if (!m) return 1;
  if (dt_given) m->opt.timestep = dt;
  if (nograv) m->opt.disable |= CS_DISABLE_GRAVITY;
  csData* d = cs_data_new(m);
  FILE* f = NULL;
  if (out) {
    f = fopen(out, "w");
    if (!f) {
      fprintf(stderr, "contactsim run: cannot write %s\n", out);
      cs_data_free(d);
      cs_model_free(m);
      return 1;
    }
    fprintf(f, "time");
    for (int i = 0; i < m->nq; i++) fprintf(f, ",qpos%d", i);
    for (int i = 0; i < m->nv; i++) fprintf(f, ",qvel%d", i);
    fprintf(f, ",ncon,energy_potential,energy_kinetic\n");
  }
  int tty = isatty(2);
  int rc = 0;
  for (long k = 0; k <= steps; k++) {
    if (f && k % every == 0) {
      cs_kinematics(m, d), cs_com_pos(m, d), cs_com_vel(m, d);
      cs_energy(m, d);
      fprintf(f, "%.9g", d->time);
      for (int i = 0; i < m->nq; i++) fprintf(f, ",%.17g", d->qpos[i]);
      for (int i = 0; i < m->nv; i++) fprintf(f, ",%.17g", d->qvel[i]);
      fprintf(f, ",0,%.17g,%.17g\n", d->energy[0], d->energy[1]);
    }
    if (k == steps) break;
    csStatus st = cs_step(m, d);
    if (st != CS_OK) {
      fprintf(stderr, "contactsim run: step %ld failed: %s\n", k, cs_last_error());
      rc = 1;
      break;
    }
    if (tty && steps >= 10000 && k % (steps / 100) == 0)
      fprintf(stderr, "\r%3ld%%", 100 * k / steps);
  }
  if (tty && steps >= 10000) fprintf(stderr, "\r100%%\n");
  printf("simulated %ld steps (%.4g s) of %s: nq %d nv %d", d->nstep, d->time, model, m->nq, m->nv);
  int nw = 0;
  for (int w = 0; w < CS_WARN_COUNT; w++) nw += d->warning[w].count;
  printf(", %d warnings%s%s\n", nw, out ? ", trajectory in " : "", out ? out : "");
  if (f) fclose(f);
  cs_data_free(d);
  cs_model_free(m);
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
      printf("usage: contactsim check MODEL [--fixed-base|--floating-base] [--package-path P]\n"
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
  printf("sizes        nq %d  nv %d  nbody %d (world included)  njnt %d  ngeom %d  nsite %d  nu %d  nmesh %d\n",
         m->nq, m->nv, m->nbody, m->njnt, m->ngeom, m->nsite, m->nu, m->nmesh);
  printf("mass         %.6g kg total\n", mass);
  printf("mass matrix  %d nonzeros (lower triangle), %.1f%% of dense\n", m->nM,
         m->nv ? 100.0 * m->nM / (0.5 * m->nv * (m->nv + 1)) : 0.0);
  printf("memory       model %zu bytes, data %zu bytes (arena %zu)\n", m->nbuffer_, d ? d->nbuffer_ : 0,
         m->arena_bytes);
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
