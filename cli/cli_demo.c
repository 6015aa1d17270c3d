/* contactsim demo: the ANYmal C `drop` scene of docs/scenes.md on the project's own
   model (models/anymal_c.xml): a summary on stdout, a CSV and a PNG plot of base height,
   energy and contacts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cs_cli.h"
#include "cs_scene.h"
#include "cs_util.h"

/* The demo's options */
typedef struct {
  const char* outdir;
  const char* solver;
  double seconds;
} demoOpts;

/* The option loop: -1 when all were read, else the exit code (--help: 0; a bad option or
   --seconds out of range: 2) */
static int demo_parse_options(int argc, char** argv, demoOpts* o) {
  static const char* const names[] = {"--out", "--solver", "--seconds"};
  unsigned seen = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    int k = 0;
    while (k < 3 && strcmp(a, names[k])) k++;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      printf(
          "usage: contactsim demo [--out DIR] [--seconds T] [--solver S]\n"
          "The ANYmal C `drop` scene (docs/scenes.md): the robot, legs at q_nom and\n"
          "unactuated, falls from 1 m while moving forward at 1 m/s, lands on its feet and\n"
          "torso and comes to rest (dt 1 ms, mu 0.8). Prints a summary and writes\n"
          "DIR/demo.csv and DIR/demo.png (gnuplot: base height, energy, contacts).\n"
          "  --out DIR      output directory (default demo_out)\n"
          "  --seconds T    simulated seconds, > 0 and at most 1e4 (default 3)\n"
          "  --solver S     contact solver (default: the scene's, bisection)\n"
          "Each option once. Exit status: 0 done, 1 failure or unexpected behaviour, 2 bad\n"
          "command line.\n");
      return 0;
    } else if (k == 3) {
      fprintf(stderr, "contactsim demo: unknown option '%s' (try --help)\n", a);
      return 2;
    }
    if (!cs_cli_needs_value("demo", argc, argv, i) || !cs_cli_once("demo", a, &seen, 1u << k))
      return 2;
    const char* v = argv[++i];
    if (k == 0)
      o->outdir = v;
    else if (k == 1)
      o->solver = v;
    else if (!cs_cli_number("demo", a, v, 0, 1, 1e4,
                            "must be a number of seconds > 0 and at most 1e4", &o->seconds))
      return 2;
  }
  return -1;
}

/* The drop scene with the solver asked for: -1 when loaded, else the exit code (the scene
   freed) */
static int demo_setup(const demoOpts* o, csScene* sc) {
  csStatus st = cs_scene_load("drop", cs_cli_models_dir(), NAN, sc);
  if (st != CS_OK) {
    fprintf(stderr, "contactsim demo: cannot load the drop scene from %s: %s\n",
            cs_cli_models_dir(), cs_last_error());
    return 1;
  }
  if (o->solver) {
    int t = cs_solver_from_name(o->solver);
    if (t < 0 || !cs_solver_get((csSolverType)t)) {
      fprintf(stderr, "contactsim demo: --solver '%s': unknown solver or not implemented\n",
              o->solver);
      cs_scene_free(sc);
      return 2;
    }
    sc->m->opt.solver = t;
  }
  return -1;
}

/* What the summary reports over the run: first touchdown, penetration of loaded contacts,
   energy (start, last, largest one-step rise), solves and their iterations */
typedef struct {
  double t_touch, pen_max, pen_sum, e0, e_max_rise, e_prev;
  long npen, iters, unconv, solves;
} demoStats;

/* One row of the CSV for the current state, its penetration and energy counted */
static void demo_row(FILE* f, const csData* d, int k, demoStats* s) {
  double e = d->energy[0] + d->energy[1];
  double pen = 0;
  for (int c = 0; c < d->ncon; c++)
    if (d->contact[c].lambda[0] > 0) {
      double p = fmax(0, -d->contact[c].dist);
      pen = fmax(pen, p);
      s->pen_sum += p;
      s->npen++;
    }
  s->pen_max = fmax(s->pen_max, pen);
  if (k > 0) s->e_max_rise = fmax(s->e_max_rise, e - s->e_prev);
  s->e_prev = e;
  fprintf(f, "%.4f,%.6f,%.6f,%.6f,%d,%.6f,%d\n", d->time, d->qpos[2], e, d->energy[1], d->ncon,
          1e3 * pen, d->solver_stats.iterations);
}

/* The steps (the scene's control before each), a CSV row for every state, a progress bar
   for long runs (cs_cli_progress); 0, or 1 if a step failed */
static int demo_loop(csScene* sc, int steps, FILE* f, demoStats* s) {
  csModel* m = sc->m;
  csData* d = sc->d;
  cs_forward(m, d);
  cs_energy(m, d);
  s->e0 = s->e_prev = d->energy[0] + d->energy[1];
  csCliProgress pr;
  cs_cli_progress_start(&pr);
  for (int k = 0; k <= steps; k++) {
    demo_row(f, d, k, s);
    if (k == steps) break;
    cs_scene_control(sc, m, d);
    if (cs_step(m, d) != CS_OK) {
      fprintf(stderr, "contactsim demo: step %d failed: %s\n", k, cs_last_error());
      return 1;
    }
    if (d->ncon) {
      s->solves++;
      s->iters += d->solver_stats.iterations;
      s->unconv += !d->solver_stats.converged;
      if (s->t_touch < 0) s->t_touch = d->time;
    }
    cs_energy(m, d); /* of the state this step started from: cvel, cinert are of it */
    cs_cli_progress(&pr, "contactsim demo", k + 1, steps, "steps");
  }
  cs_cli_progress_end(&pr, "contactsim demo", steps, "steps");
  return 0;
}

/* The summary on stdout */
static void demo_summary(const csScene* sc, const demoStats* s, const char* csv) {
  const csModel* m = sc->m;
  const csData* d = sc->d;
  int nw = 0;
  for (int w = 0; w < CS_WARN_COUNT; w++) nw += d->warning[w].count;
  printf("contactsim demo: ANYmal C `drop` (%s), nv %d, solver %s, dt %g s\n", sc->model_path,
         m->nv, cs_solver_name((csSolverType)m->opt.solver), m->opt.timestep);
  printf("  simulated %ld steps (%.2f s), %d warnings (%d of them: solver at its cap), %d resets\n",
         d->nstep, d->time, nw, d->warning[CS_WARN_SOLVER].count, sc->resets);
  printf("  first contact at t = %.3f s (free fall of the feet: %.3f s)\n", s->t_touch,
         sqrt(2 * (1.0 - 0.549) / 9.81));
  printf("  final base height %.4f m (standing on q_nom: 0.549 m; lower: torso on the ground)\n",
         d->qpos[2]);
  printf("  energy: start %.2f J, end %.2f J; largest one-step rise %.3g J\n", s->e0, s->e_prev,
         s->e_max_rise);
  printf("  penetration of loaded contacts: mean %.3g mm, max %.3g mm\n",
         s->npen ? 1e3 * s->pen_sum / s->npen : 0.0, 1e3 * s->pen_max);
  printf("  solver: %.1f iterations per solve, %ld of %ld solves above tolerance\n",
         s->solves ? (double)s->iters / s->solves : 0.0, s->unconv, s->solves);
  printf("  trajectory: %s\n", csv);
}

/* The gnuplot script gp for the PNG png of csv, run if gnuplot is there (else the script is
   left); nothing if gp cannot be written */
static void demo_plot(const char* gp, const char* png, const char* csv) {
  FILE* g2 = fopen(gp, "w");
  if (!g2) return;
  fprintf(
      g2,
      "set terminal pngcairo size 1000,900 noenhanced\nset output '%s'\nset datafile separator "
      "','\n"
      "set multiplot layout 3,1 title 'contactsim demo: ANYmal C drop (1 m, 1 m/s forward), dt 1 "
      "ms'\n"
      "set ylabel 'base height [m]'\nset key top right\n"
      "plot '%s' using 1:2 skip 1 with lines lw 2 title 'base z'\n"
      "set ylabel 'energy [J]'\n"
      "plot '%s' using 1:3 skip 1 with lines lw 2 title 'mechanical energy', '' using 1:4 skip 1 "
      "with lines lw 2 title 'kinetic'\n"
      "set xlabel 'time [s]'\nset ylabel 'contacts'\nset y2label 'penetration [mm]'\n"
      "set y2tics\n"
      "plot '%s' using 1:5 skip 1 with steps lw 2 title 'contacts', '' using 1:6 skip 1 axes "
      "x1y2 "
      "with lines lw 1 title 'max penetration (mm)'\n"
      "unset multiplot\n",
      png, csv, csv, csv);
  fclose(g2);
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", gp);
  if (system(cmd) == 0)
    printf("  plot: %s\n", png);
  else
    printf("  plot: gnuplot not available (install gnuplot-nox); script left in %s\n", gp);
}

int cs_cli_demo(int argc, char** argv) {
  demoOpts o = {"demo_out", NULL, 3.0};
  int rc = demo_parse_options(argc, argv, &o);
  if (rc >= 0) return rc;
  csScene sc;
  if ((rc = demo_setup(&o, &sc)) >= 0) return rc;
  mkdir(o.outdir, 0755);
  char csv[4096], png[4096], gp[4096];
  snprintf(csv, sizeof csv, "%s/demo.csv", o.outdir);
  snprintf(png, sizeof png, "%s/demo.png", o.outdir);
  snprintf(gp, sizeof gp, "%s/demo.gp", o.outdir);
  FILE* f = fopen(csv, "w");
  if (!f) {
    fprintf(stderr, "contactsim demo: cannot write %s\n", csv);
    cs_scene_free(&sc);
    return 1;
  }
  fprintf(f, "time,base_z,energy,kinetic,contacts,penetration_max_mm,iterations\n");
  int steps = (int)(o.seconds / sc.m->opt.timestep + 0.5);
  demoStats s = {-1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  rc = demo_loop(&sc, steps, f, &s);
  fclose(f);
  demo_summary(&sc, &s, csv);
  demo_plot(gp, png, csv);
  /* a solver that stops at its cap is reported above, not a failure of the demo; a NaN, an
     overflow, no touchdown or a centimetre of penetration is */
  const csData* d = sc.d;
  if (rc == 0 && (s.t_touch < 0 || d->warning[CS_WARN_NAN_STEP].count ||
                  d->warning[CS_WARN_CONTACTFULL].count || s.pen_max > 0.01)) {
    fprintf(stderr, "contactsim demo: unexpected behaviour (see the summary above)\n");
    rc = 1;
  }
  cs_scene_free(&sc);
  return rc;
}
