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

int cs_cli_demo(int argc, char** argv) {
  const char* outdir = "demo_out";
  const char* solver = NULL;
  double seconds = 3.0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf(
          "usage: contactsim demo [--out DIR] [--seconds T] [--solver S]\n"
          "The ANYmal C `drop` scene (docs/scenes.md): the robot, legs at q_nom and\n"
          "unactuated, falls from 1 m while moving forward at 1 m/s, lands on its feet and\n"
          "torso and comes to rest (dt 1 ms, mu 0.8, default T = 3 s). Prints a summary and\n"
          "writes DIR/demo.csv and DIR/demo.png (gnuplot: base height, energy, contacts).\n"
          "Default DIR: demo_out.\n");
      return 0;
    } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      outdir = argv[++i];
    } else if (!strcmp(argv[i], "--solver") && i + 1 < argc) {
      solver = argv[++i];
    } else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
      seconds = atof(argv[++i]);
      if (!(seconds > 0 && seconds < 1e4)) {
        fprintf(stderr, "contactsim demo: --seconds must be in (0, 1e4)\n");
        return 2;
      }
    } else {
      fprintf(stderr, "contactsim demo: unknown option '%s' (try --help)\n", argv[i]);
      return 2;
    }
  }
  csScene sc;
  csStatus st = cs_scene_load("drop", cs_cli_models_dir(), NAN, &sc);
  if (st != CS_OK) {
    fprintf(stderr, "contactsim demo: cannot load the drop scene from %s: %s\n",
            cs_cli_models_dir(), cs_last_error());
    return 1;
  }
  csModel* m = sc.m;
  csData* d = sc.d;
  if (solver) {
    int t = cs_solver_from_name(solver);
    if (t < 0 || !cs_solver_get((csSolverType)t)) {
      fprintf(stderr, "contactsim demo: solver '%s' unknown or not implemented\n", solver);
      cs_scene_free(&sc);
      return 2;
    }
    m->opt.solver = t;
  }
  mkdir(outdir, 0755);
  char csv[4096], png[4096], gp[4096];
  snprintf(csv, sizeof csv, "%s/demo.csv", outdir);
  snprintf(png, sizeof png, "%s/demo.png", outdir);
  snprintf(gp, sizeof gp, "%s/demo.gp", outdir);
  FILE* f = fopen(csv, "w");
  if (!f) {
    fprintf(stderr, "contactsim demo: cannot write %s\n", csv);
    cs_scene_free(&sc);
    return 1;
  }
  fprintf(f, "time,base_z,energy,kinetic,contacts,penetration_max_mm,iterations\n");
  int steps = (int)(seconds / m->opt.timestep + 0.5), rc = 0;
  double t_touch = -1, pen_max = 0, pen_sum = 0, e0 = 0, e_max_rise = 0, e_prev = 0;
  long npen = 0, iters = 0, unconv = 0, solves = 0;
  cs_forward(m, d);
  cs_energy(m, d);
  e0 = e_prev = d->energy[0] + d->energy[1];
  for (int k = 0; k <= steps; k++) {
    double e = d->energy[0] + d->energy[1];
    double pen = 0;
    for (int c = 0; c < d->ncon; c++)
      if (d->contact[c].lambda[0] > 0) {
        double p = fmax(0, -d->contact[c].dist);
        pen = fmax(pen, p);
        pen_sum += p;
        npen++;
      }
    pen_max = fmax(pen_max, pen);
    if (k > 0) e_max_rise = fmax(e_max_rise, e - e_prev);
    e_prev = e;
    fprintf(f, "%.4f,%.6f,%.6f,%.6f,%d,%.6f,%d\n", d->time, d->qpos[2], e, d->energy[1], d->ncon,
            1e3 * pen, d->solver_stats.iterations);
    if (k == steps) break;
    cs_scene_control(&sc, m, d);
    if (cs_step(m, d) != CS_OK) {
      fprintf(stderr, "contactsim demo: step %d failed: %s\n", k, cs_last_error());
      rc = 1;
      break;
    }
    if (d->ncon) {
      solves++;
      iters += d->solver_stats.iterations;
      unconv += !d->solver_stats.converged;
      if (t_touch < 0) t_touch = d->time;
    }
    cs_energy(m, d); /* of the state this step started from: cvel, cinert are of it */
  }
  fclose(f);
  int nw = 0;
  for (int w = 0; w < CS_WARN_COUNT; w++) nw += d->warning[w].count;
  printf("contactsim demo: ANYmal C `drop` (%s), nv %d, solver %s, dt %g s\n", sc.model_path, m->nv,
         cs_solver_name((csSolverType)m->opt.solver), m->opt.timestep);
  printf("  simulated %ld steps (%.2f s), %d warnings (%d of them: solver at its cap), %d resets\n",
         d->nstep, d->time, nw, d->warning[CS_WARN_SOLVER].count, sc.resets);
  printf("  first contact at t = %.3f s (free fall of the feet: %.3f s)\n", t_touch,
         sqrt(2 * (1.0 - 0.549) / 9.81));
  printf("  final base height %.4f m (standing on q_nom: 0.549 m; lower: torso on the ground)\n",
         d->qpos[2]);
  printf("  energy: start %.2f J, end %.2f J; largest one-step rise %.3g J\n", e0, e_prev,
         e_max_rise);
  printf("  penetration of loaded contacts: mean %.3g mm, max %.3g mm\n",
         npen ? 1e3 * pen_sum / npen : 0.0, 1e3 * pen_max);
  printf("  solver: %.1f iterations per solve, %ld of %ld solves above tolerance\n",
         solves ? (double)iters / solves : 0.0, unconv, solves);
  printf("  trajectory: %s\n", csv);
  FILE* g2 = fopen(gp, "w");
  if (g2) {
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
  /* a solver that stops at its cap is reported above, not a failure of the demo; a NaN, an
     overflow, no touchdown or a centimetre of penetration is */
  if (rc == 0 && (t_touch < 0 || d->warning[CS_WARN_NAN_STEP].count ||
                  d->warning[CS_WARN_CONTACTFULL].count || pen_max > 0.01)) {
    fprintf(stderr, "contactsim demo: unexpected behaviour (see the summary above)\n");
    rc = 1;
  }
  cs_scene_free(&sc);
  return rc;
}
