/* contactsim demo: the built-in scene until the contact pipeline lands.
   ANYmal C (the project's models/anymal_c.xml) thrown into the air with its legs under PD
   control: with gravity the only external force, its centre of mass must follow the
   ballistic parabola exactly, whatever the legs do. Writes a CSV and a PNG plot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cs_cli.h"

#ifndef CS_MODELS_DIR
#define CS_MODELS_DIR "models"
#endif

static void com(const csModel* m, const csData* d, double c[3], double* mass) {
  double M = 0;
  c[0] = c[1] = c[2] = 0;
  for (int b = 1; b < m->nbody; b++) {
    M += m->body_mass[b];
    for (int r = 0; r < 3; r++) c[r] += m->body_mass[b] * d->xipos[3 * b + r];
  }
  for (int r = 0; r < 3; r++) c[r] /= M;
  *mass = M;
}

int cs_cli_demo(int argc, char** argv) {
  const char* outdir = "demo_out";
  const char* model = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: contactsim demo [--out DIR] [--model FILE]\n"
             "ANYmal C thrown into the air with PD-controlled legs for 1 s (dt 1 ms). Its centre\n"
             "of mass must follow the ballistic parabola; the summary prints the deviation.\n"
             "Writes DIR/demo.csv and DIR/demo.png (gnuplot). Default DIR: demo_out\n");
      return 0;
    } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      outdir = argv[++i];
    } else if (!strcmp(argv[i], "--model") && i + 1 < argc) {
      model = argv[++i];
    } else {
      fprintf(stderr, "contactsim demo: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  char path[4096];
  if (!model) {
    snprintf(path, sizeof path, "%s/anymal_c.xml", CS_MODELS_DIR);
    FILE* t = fopen(path, "r");
    if (!t) snprintf(path, sizeof path, "models/anymal_c.xml");
    else fclose(t);
    model = path;
  }
  csLoadOptions lo;
  cs_load_options_default(&lo);
  csModel* m = cs_cli_load(model, &lo);
  if (!m) return 1;
  if (m->nu != 12 || m->nv != 18) {
    fprintf(stderr, "contactsim demo: %s is not the 12-actuator ANYmal model\n", model);
    cs_model_free(m);
    return 1;
  }
  m->opt.disable |= CS_DISABLE_CONTACT;
  csData* d = cs_data_new(m);
  /* start: base at 1 m, q_nom with a perturbation, thrown forward and spinning */
  const double qnom[12] = {0, 0.4, -0.8, 0, 0.4, -0.8, 0, -0.4, 0.8, 0, -0.4, 0.8};
  d->qpos[2] = 1.0;
  for (int i = 0; i < 12; i++) {
    d->qpos[7 + i] = qnom[i] + 0.3 * sin(1.7 * i);
    d->ctrl[i] = qnom[i];
  }
  d->qvel[0] = -1.0; /* the base is yawed 180 deg: forward is -x */
  d->qvel[2] = 2.0;
  d->qvel[5] = 1.5;  /* yaw rate */
  mkdir(outdir, 0755);
  char csv[4096], png[4096], gp[4096];
  snprintf(csv, sizeof csv, "%s/demo.csv", outdir);
  snprintf(png, sizeof png, "%s/demo.png", outdir);
  snprintf(gp, sizeof gp, "%s/demo.gp", outdir);
  FILE* f = fopen(csv, "w");
  if (!f) {
    fprintf(stderr, "contactsim demo: cannot write %s\n", csv);
    cs_data_free(d);
    cs_model_free(m);
    return 1;
  }
  fprintf(f, "time,base_z,com_z,com_z_ballistic,energy\n");
  cs_kinematics(m, d);
  double c0[3], c[3], M;
  com(m, d, c0, &M);
  /* initial com velocity from the momentum */
  cs_com_pos(m, d);
  cs_com_vel(m, d);
  double h[6];
  cs_momentum(m, d, h);
  double vz0 = h[5] / M, g = -m->opt.gravity[2];
  double worst = 0;
  int steps = 1000, rc = 0;
  for (int k = 0; k <= steps; k++) {
    cs_kinematics(m, d), cs_com_pos(m, d), cs_com_vel(m, d);
    cs_energy(m, d);
    com(m, d, c, &M);
    double t = d->time;
    /* the parabola as semi-implicit Euler samples it (z_n = z0 + v0 t - g dt^2 n(n+1)/2);
       joint-space integration leaves an O(dt) difference on top */
    double zb = c0[2] + vz0 * t - g * m->opt.timestep * m->opt.timestep * k * (k + 1) / 2.0;
    worst = fmax(worst, fabs(c[2] - zb));
    fprintf(f, "%.6f,%.9f,%.9f,%.9f,%.9f\n", t, d->qpos[2], c[2],
            c0[2] + vz0 * t - 0.5 * g * t * t, d->energy[0] + d->energy[1]);
    if (k < steps && cs_step(m, d) != CS_OK) {
      fprintf(stderr, "contactsim demo: step %d failed: %s\n", k, cs_last_error());
      rc = 1;
      break;
    }
  }
  fclose(f);
  printf("contactsim demo: ANYmal C (%s), nv %d, %.0f kg, thrown up at %.2f m/s with PD legs\n", model,
         m->nv, M, vz0);
  printf("  simulated %ld steps of %g s; warnings: %d\n", d->nstep, m->opt.timestep,
         d->warning[CS_WARN_NAN_STEP].count + d->warning[CS_WARN_SINGULAR].count);
  printf("  centre of mass vs the discrete ballistic parabola: max deviation %.3e m\n"
         "  (first order in dt: the robot is integrated in joint coordinates, not as a point)\n",
         worst);
  printf("  (contacts are not simulated yet: the robot flies; the drop scene comes with them)\n");
  printf("  trajectory: %s\n", csv);
  FILE* g2 = fopen(gp, "w");
  if (g2) {
    fprintf(g2,
            "set terminal pngcairo size 1000,700 noenhanced\nset output '%s'\nset datafile separator ','\n"
            "set multiplot layout 2,1 title 'contactsim demo: ANYmal C in flight, PD legs, dt 1 ms'\n"
            "set ylabel 'height [m]'\nset key bottom center\n"
            "plot '%s' using 1:2 skip 1 with lines lw 2 title 'base z', '' using 1:3 skip 1 with lines lw 2 "
            "title 'com z', '' using 1:4 skip 1 with lines dt 2 lw 2 title 'ballistic parabola'\n"
            "set xlabel 'time [s]'\nset ylabel 'energy [J]'\n"
            "plot '%s' using 1:5 skip 1 with lines lw 2 title 'mechanical energy (PD + damping act)'\n"
            "unset multiplot\n",
            png, csv, csv);
    fclose(g2);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", gp);
    if (system(cmd) == 0)
      printf("  plot: %s\n", png);
    else
      printf("  plot: gnuplot not available (install gnuplot-nox); script left in %s\n", gp);
  }
  if (worst > 1e-3) {
    fprintf(stderr, "contactsim demo: the centre of mass left the parabola by %g m\n", worst);
    rc = 1;
  }
  cs_data_free(d);
  cs_model_free(m);
  return rc;
}
