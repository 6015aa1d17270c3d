/* contactsim bench contactbench [--experiment NAME|all] [--solvers a,b] [--plot DIR] [--json]
                                [--shared-models DIR] [--repeats N] [--robot-time S]
                                [--replay-steps N]

   Paper 002 (ContactBench), section IV, on docs/scenes.md "ContactBench cube scenes".
   One line per experiment and solver (and per parameter value where an experiment has
   several: stack_ratio per mass ratio, consistency_* per dt / tolerance, robots per robot,
   anymal_replay per task), each with "bench":"contactbench","experiment","solver".
   Every solver of the solver table runs unless --solvers names some.

   Cube scenes (scenes/cs_scene.c on models/cube.xml and the built-in stack): dt 1 ms,
   tolerance 1e-8 on each solver's own criterion, cap 1000, warm start by the pipeline.
   - cube_slide (0.5 s; 1 m/s along (cos 30, sin 30, 0); mu 0.4):
     lateral_drift_m = max_t |(p - p0) x u|, u the initial direction (centre p, xy);
     max_height_m = max_t (z - z0), z0 the start height (the sample t = 0 included);
     energy_rel_err = max_t |E - E_an| / E0 over the samples after every step, with
     E = 1/2 m |v|^2 + 1/2 w^T I w + m g (z - z0) and E_an(t) = 1/2 m max(0, v0 - mu g t)^2,
     the exact Coulomb slide (the semi-implicit Euler slide of an exact NCP solver has
     v_k = v0 - k mu g dt, so E_an is also its discrete energy at t_k = k dt).
   - cube_push (1.5 s; F = 10 t N along +x at the centre, t the step's start time):
     slide_onset_s = time after the first step whose centre speed exceeds 1e-4 m/s
     (analytic onset mu m g / 10 = 0.3924 s; the threshold adds sqrt(2e-4 / 10) = 4.5 ms;
     slide_onset_discrete_s is the exact semi-implicit Euler value for dt);
     during stiction (the steps before that one), per step the contact friction impulses
     f_i = lambda_T,i (world tangential vectors, N s):
     internal_force_N = max over steps and contacts of |f_i - mean_j f_j| / dt (the spec);
     internal_force_prefit_N = the same over the steps with t < 0.28 s. From F = mu m g /
     (1 + mu) = 2.80 N on, the push at the centre loads the front edge (the rear normal
     forces drop to (m g - F) / 4 each), the rear corners cannot carry F / 4 of friction any
     more and every exact solution has |f_i - mean| > 0 (about 0.39 N at the onset);
     internal_force_excess_N = max |f_i - f*_i| / dt with f* the least-norm distribution
     min sum |f*_i|^2 s.t. sum f*_i = sum f_i, |f*_i| <= mu_i lambda_N,i (the solver's own
     normal impulses): f*_i = min(s, mu_i lambda_N,i) T / |T|, T = sum f_i, with s found by
     water filling (the KKT conditions of that problem: f*_i is the projection of a common
     vector, parallel to T, onto the disk of radius mu_i lambda_N,i). It is the part of the
     friction distribution no exact solution needs: spurious internal forces.
     internal_force_excess_stuck_N: the same over the steps with F <= mu m g only (the
     stiction window by the speed threshold also holds the first steps of creeping, where
     the friction is unique and the excess is the solver's accuracy). Each field is also
     given for a second run at tolerance 1e-11 (_tol_1e-11), and cube_slide's too: they
     show which part of a figure is the stopping test and which the model.
   - stack_ratio (0.1 s at rest; top/bottom mass ratios 1, 1e2, 1e4, 1e6, bottom 1e-3 kg):
     eps_abs_final, iterations, converged of the last step's solve.
   - consistency_dt: cube_slide at dt 1, 10, 100 ms against dt 0.1 ms (same solver, same
     tolerance 1e-8); consistency_eps: tolerances 1e-2, 1e-4, 1e-6 against 1e-9 at dt 1 ms.
     integral_err_m_s = sum_k |p(t_k) - p_ref(t_k)| dt over the steps of the coarse run
     (p the centre, t_k = k dt <= 0.5 s; the reference holds every t_k).

   Robots (optional shared models, docs/scenes.md and the paper's Fig. 16): a trajectory of
   --robot-time seconds (default 2) is simulated with ncp_admm (tolerance 1e-6, cap 1000)
   and every contact problem along it is recorded (G, g, mu, contact frames, positions and
   ids). Then every solver solves the same recorded problems, tolerance 1e-6 on its own
   criterion, cap 1000: cold (lambda = 0) and warm (the solver's own solution of the
   previous step, mapped contact by contact: the same (geom pair, feature) id, as the
   pipeline does, else the nearest contact of the same geom pair within 5 mm, because the
   feature ids of flat mesh soles change from step to step; the impulse is carried in world
   coordinates). us_per_solve_cold/_warm: each solve timed alone (CLOCK_MONOTONIC around
   the solver call), summed over the pass and divided by the problems; median over
   --repeats passes (default 5), the solvers' passes alternating; a solver whose first
   cold + warm pass takes more than 10 s is timed once (field repeats). eps_abs: median over
   the problems of the NCP report of the warm solves (eps_abs_max, _mean, _cold extras).
   - solo12: robots/solo12.urdf (STL collision meshes, convex hulls), floating base, plane
     z = 0, standing on its straight legs (q = 0), lowest collision point on the ground,
     PD of the spec (kp 100, kd 2, |tau| <= 80) holding q = 0.
   - talos: robots/talos_full_v2.urdf (44 joints + floating base, STL meshes), dropped with
     its lowest collision point 2 cm above the ground, PD holding q = 0 with kp 3000,
     kd 30, |tau| <= 300 (with the spec's kp 100 the 93 kg robot topples within 2 s).
   - allegro: allegro_hand/mjcf/right_hand_collision_only.xml (the palm has no joint: fixed
     in the world, palm up), its position servos (kp 10) holding fingers flexed 0.6 rad and
     the thumb opposed, plus a free sphere (r 3 cm, 0.1 kg) added with the builder above
     the palm centre, its lowest point 10 cm above the palm. Gravity is turned by 20 deg
     toward the fingers (the hand tilted fingers-down): on the level palm the ball rolls
     off the open sides, tilted it rolls into the fingers and stays (2-3 contacts).
   Solo-12 and Talos are pushed by 50 N along +x at the base for 0.1 s every 1 s (from
   t = 0.5 s). PD: the kp part through qfrc_applied, clamped; the kd part as joint damping,
   integrated implicitly by the pipeline (the same law, stable with light finger and foot
   links). Friction 0.8 on every geom.
   A robot whose collision geometry gives no contact along the whole trajectory (mesh
   collision not wired yet) prints its lines with "error":"mesh collision not available".

   anymal_replay: each ANYmal task (scenes/cs_scene.c) is simulated for --replay-steps
   steps (default 10000) with bisection (tolerance 1e-6, cap 150, as bench anymal), its
   problems recorded, and bisection and ncp_admm solve them warm (and cold) as above,
   tolerance 1e-6, cap 150; the ncp_admm line carries admm_over_bisection_warm, the
   same-run ratio of the medians (target <= 2). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"
#include "cs_cli.h"
#include "cs_scene.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define CB_TOL 1e-8
#define CB_CAP 1000
#define CB_ROBOT_TOL 1e-6
#define CB_ANYMAL_CAP 150
#define CB_MU_ROBOT 0.8
#define CB_MAXC 64 /* contacts handled per problem in the per-contact analyses */

static const char* const cb_experiments[] = {
    "cube_slide",      "cube_push", "stack_ratio",   "consistency_dt",
    "consistency_eps", "robots",    "anymal_replay", NULL};

/* docs/solvers.md order */
static const char* const cb_order[] = {"ncp_pgs",   "lcp_pgs",           "ccp_pgs",   "pgs_raisim",
                                       "ccp_admm",  "ncp_admm",          "staggered", "lemke",
                                       "bisection", "bisection_desaxce", NULL};

typedef struct {
  int json, tty;
  const char* plot;   /* directory or NULL */
  const char* shared; /* shared models directory */
  int nsolver;
  int solver[CS_SOLVER_COUNT];
  int repeats;
  double robot_time;
  long replay_steps;
} Ctx;

/* ------------------------------------------------------------------ output */
typedef struct {
  char buf[8192];
  size_t n;
  int json;
} Line;

static void line_add(Line* L, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void line_add(Line* L, const char* fmt, ...) {
  if (L->n >= sizeof L->buf) return;
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(L->buf + L->n, sizeof L->buf - L->n, fmt, ap);
  va_end(ap);
  if (w > 0) L->n += (size_t)w < sizeof L->buf - L->n ? (size_t)w : sizeof L->buf - L->n;
}

static void line_begin(Line* L, const Ctx* c, const char* exp, const char* solver) {
  L->n = 0;
  L->json = c->json;
  if (L->json)
    line_add(L, "{\"bench\":\"contactbench\",\"experiment\":\"%s\",\"solver\":\"%s\"", exp, solver);
  else
    line_add(L, "%-15s %-17s", exp, solver);
}

static void line_num(Line* L, const char* key, double v) {
  if (L->json) {
    if (isfinite(v))
      line_add(L, ",\"%s\":%.6g", key, v);
    else
      line_add(L, ",\"%s\":null", key);
  } else {
    line_add(L, "  %s %.4g", key, v);
  }
}

static void line_int(Line* L, const char* key, long v) {
  if (L->json)
    line_add(L, ",\"%s\":%ld", key, v);
  else
    line_add(L, "  %s %ld", key, v);
}

/* Set by an "error" field other than the documented skips (missing models, no mesh
   collision): the exit status is then 1. */
static int cb_failed = 0;

static void line_str(Line* L, const char* key, const char* v) {
  if (!strcmp(key, "error") && strcmp(v, "shared models not found") &&
      strcmp(v, "mesh collision not available"))
    cb_failed = 1;
  if (L->json)
    line_add(L, ",\"%s\":\"%s\"", key, v);
  else
    line_add(L, "  %s: %s", key, v);
}

static int cb_progress_shown = 0;

static void progress_clear(const Ctx* c) {
  if (c->tty && cb_progress_shown) {
    fprintf(stderr, "\r%78s\r", "");
    cb_progress_shown = 0;
  }
}

static void line_end(Line* L, const Ctx* c) {
  progress_clear(c);
  if (L->json) line_add(L, "}");
  printf("%s\n", L->buf);
  fflush(stdout);
}

static void progress(const Ctx* c, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void progress(const Ctx* c, const char* fmt, ...) {
  if (!c->tty) return;
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\rcontactbench: %-64.64s", buf);
  fflush(stderr);
  cb_progress_shown = 1;
}

/* The library's log: at most a few messages per run (a run prints its first solver
   warning; hundreds of runs would flood the terminal). */
static int cb_log_left = 0;
static const Ctx* cb_log_ctx = NULL;
static char cb_log_what[128] = "";

static void cb_log(const char* msg) {
  if (cb_log_left <= 0) return;
  cb_log_left--;
  if (cb_log_ctx) progress_clear(cb_log_ctx);
  fprintf(stderr, "contactsim: bench contactbench %s: %s\n", cb_log_what, msg);
}

static void log_run(const char* exp, const char* solver, const char* extra) {
  snprintf(cb_log_what, sizeof cb_log_what, "%s %s%s%s", exp, solver, extra ? " " : "",
           extra ? extra : "");
  cb_log_left = 1;
}

/* ------------------------------------------------------------------ small helpers */
static FILE* plot_open(const Ctx* c, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static FILE* plot_open(const Ctx* c, const char* fmt, ...) {
  if (!c->plot) return NULL;
  char name[256], path[1400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(name, sizeof name, fmt, ap);
  va_end(ap);
  snprintf(path, sizeof path, "%s/%s", c->plot, name);
  FILE* f = fopen(path, "w");
  if (!f) fprintf(stderr, "bench contactbench: cannot write %s: %s\n", path, strerror(errno));
  return f;
}

/* The solver names of the run, space separated (for gnuplot's "for [s in ...]"). */
static void solver_words(const Ctx* c, char* buf, size_t n) {
  buf[0] = 0;
  size_t k = 0;
  for (int i = 0; i < c->nsolver; i++) {
    const char* name = cs_solver_name((csSolverType)c->solver[i]);
    int w = snprintf(buf + k, n - k, "%s%s", i ? " " : "", name);
    if (w < 0 || (size_t)w >= n - k) break;
    k += (size_t)w;
  }
}

/* Run gnuplot on DIR/NAME.gp (written by the caller), in DIR. */
static void plot_run(const Ctx* c, const char* name) {
  if (!c->plot) return;
  char cmd[1600];
  snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot '%s.gp' 2>&1", c->plot, name);
  progress_clear(c);
  int rc = system(cmd);
  if (rc != 0)
    fprintf(stderr, "bench contactbench: gnuplot failed (status %d) on %s/%s.gp\n", rc, c->plot,
            name);
}

static const char* gp_head =
    "set terminal pngcairo noenhanced font ',9' size %d,%d\n"
    "set output '%s.png'\n"
    "set key outside right top\n"
    "set grid\n"
    "set linetype 1 lc rgb '#1f77b4' lw 1.5\nset linetype 2 lc rgb '#ff7f0e' lw 1.5\n"
    "set linetype 3 lc rgb '#2ca02c' lw 1.5\nset linetype 4 lc rgb '#d62728' lw 1.5\n"
    "set linetype 5 lc rgb '#9467bd' lw 1.5\nset linetype 6 lc rgb '#8c564b' lw 1.5\n"
    "set linetype 7 lc rgb '#e377c2' lw 1.5\nset linetype 8 lc rgb '#7f7f7f' lw 1.5\n"
    "set linetype 9 lc rgb '#bcbd22' lw 1.5\nset linetype 10 lc rgb '#17becf' lw 1.5\n"
    "set linetype cycle 10\n";

/* ------------------------------------------------------------------ cube scenes */
/* Load a cube scene with the solver and settings; 0 on success (message printed). */
static int cube_load(const char* scene, double param, int solver, double dt, double tol, int cap,
                     csScene* s) {
  csStatus st = cs_scene_load(scene, cs_cli_models_dir(), param, s);
  if (st != CS_OK) {
    fprintf(stderr, "bench contactbench: scene %s: %s\n", scene, cs_last_error());
    return 1;
  }
  s->m->opt.solver = solver;
  s->m->opt.timestep = dt;
  s->m->opt.tolerance = tol;
  s->m->opt.iterations = cap;
  cs_scene_reset(s);
  return 0;
}

/* World tangential impulse of contact c (lambda_T in world coordinates). */
static void contact_tangent_world(const csContact* c, double f[3]) {
  for (int k = 0; k < 3; k++)
    f[k] = c->lambda[1] * c->frame[3 + k] + c->lambda[2] * c->frame[6 + k];
}

typedef struct {
  long n;        /* samples (t = 0 included) */
  double* t;     /* (n) */
  double* p;     /* (n x 3) centre */
  double* E;     /* (n) mechanical energy (J, potential relative to the start) */
  double* Ean;   /* (n) analytic */
  double* drift; /* (n) distance from the initial line */
  /* summary */
  double lateral_drift, max_height, energy_rel_err, eps_abs_max, iter_mean, conv_frac;
  double slide_dist;
  long nan_steps, steps_contact;
  int failed;
} Slide;

static void slide_free(Slide* r) {
  free(r->t);
  free(r->p);
  free(r->E);
  free(r->Ean);
  free(r->drift);
  memset(r, 0, sizeof *r);
}

/* The cube_slide scene for T seconds at dt with the solver and tolerance. */
static int run_slide(int solver, double dt, double tol, double T, Slide* r) {
  memset(r, 0, sizeof *r);
  csScene s;
  if (cube_load("cube_slide", NAN, solver, dt, tol, CB_CAP, &s)) return 1;
  csModel* m = s.m;
  csData* d = s.d;
  long N = lround(T / dt);
  r->n = N + 1;
  r->t = calloc((size_t)r->n, sizeof(double));
  r->p = calloc((size_t)r->n * 3, sizeof(double));
  r->E = calloc((size_t)r->n, sizeof(double));
  r->Ean = calloc((size_t)r->n, sizeof(double));
  r->drift = calloc((size_t)r->n, sizeof(double));
  if (!r->t || !r->p || !r->E || !r->Ean || !r->drift) {
    cs_scene_free(&s);
    slide_free(r);
    fprintf(stderr, "bench contactbench: out of memory\n");
    return 1;
  }
  int b = cs_name2id(m, "body", "cube");
  if (b < 0) b = 1;
  double mass = m->body_mass[b];
  const double* I = m->body_inertia + 6 * b;
  double g = -m->opt.gravity[2];
  int gi = cs_name2id(m, "geom", "cube");
  int gf = cs_name2id(m, "geom", "floor");
  double mu = fmax(gi >= 0 ? m->geom_friction[gi] : 0.4, gf >= 0 ? m->geom_friction[gf] : 0.4);
  double p0[3] = {d->qpos[0], d->qpos[1], d->qpos[2]};
  double v0 = hypot(d->qvel[0], d->qvel[1]);
  double u[2] = {d->qvel[0] / v0, d->qvel[1] / v0};
  double E0 = 0.5 * mass * v0 * v0;
  double iters = 0;
  long conv = 0;
  for (long k = 0; k <= N; k++) {
    if (k > 0) {
      cs_scene_control(&s, m, d);
      csStatus st = cs_step(m, d);
      if (st != CS_OK) {
        r->failed = 1;
        if (st == CS_ERR_NUMERIC) r->nan_steps++;
        r->n = k;
        break;
      }
      if (d->ncon > 0) {
        r->steps_contact++;
        iters += d->solver_stats.iterations;
        conv += d->solver_stats.converged != 0;
        r->eps_abs_max = fmax(r->eps_abs_max, d->solver_stats.ncp.eps_abs);
      }
    }
    double t = d->time;
    const double* q = d->qpos;
    const double* v = d->qvel;
    double ke = 0.5 * mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
                0.5 * (I[0] * v[3] * v[3] + I[1] * v[4] * v[4] + I[2] * v[5] * v[5]);
    double E = ke + mass * g * (q[2] - p0[2]);
    double vs = fmax(0.0, v0 - mu * g * t);
    double Ean = 0.5 * mass * vs * vs;
    double dx = q[0] - p0[0], dy = q[1] - p0[1];
    double drift = fabs(dx * u[1] - dy * u[0]);
    r->t[k] = t;
    memcpy(r->p + 3 * k, q, 3 * sizeof(double));
    r->E[k] = E;
    r->Ean[k] = Ean;
    r->drift[k] = drift;
    if (drift > r->lateral_drift) r->lateral_drift = drift;
    if (k == 0 || q[2] - p0[2] > r->max_height) r->max_height = q[2] - p0[2];
    double e = fabs(E - Ean) / E0;
    if (e > r->energy_rel_err) r->energy_rel_err = e;
    r->slide_dist = dx * u[0] + dy * u[1];
  }
  r->iter_mean = r->steps_contact ? iters / (double)r->steps_contact : 0;
  r->conv_frac = r->steps_contact ? (double)conv / (double)r->steps_contact : 1;
  cs_scene_free(&s);
  return 0;
}

static void exp_cube_slide(Ctx* c) {
  char words[512];
  solver_words(c, words, sizeof words);
  for (int i = 0; i < c->nsolver; i++) {
    const char* name = cs_solver_name((csSolverType)c->solver[i]);
    progress(c, "cube_slide %s", name);
    log_run("cube_slide", name, NULL);
    Slide r;
    Line L;
    line_begin(&L, c, "cube_slide", name);
    if (run_slide(c->solver[i], 1e-3, CB_TOL, 0.5, &r)) {
      line_str(&L, "error", "scene failed");
      line_end(&L, c);
      continue;
    }
    line_num(&L, "lateral_drift_m", r.lateral_drift);
    line_num(&L, "max_height_m", r.max_height);
    line_num(&L, "energy_rel_err", r.energy_rel_err);
    line_num(&L, "slide_distance_m", r.slide_dist);
    {
      /* the exact semi-implicit Euler slide: v_k = v0 - k mu g dt, x += v_k dt */
      double x = 0;
      for (long k = 1; k <= 500; k++) x += fmax(0.0, 1.0 - (double)k * 0.4 * 9.81e-3) * 1e-3;
      line_num(&L, "slide_distance_analytic_m", x);
    }
    line_num(&L, "eps_abs_max", r.eps_abs_max);
    line_num(&L, "iterations_mean", r.iter_mean);
    line_num(&L, "converged_fraction", r.conv_frac);
    line_num(&L, "dt", 1e-3);
    line_num(&L, "tolerance", CB_TOL);
    line_int(&L, "cap", CB_CAP);
    {
      /* the same at a tighter tolerance: how much of energy_rel_err is the stopping test */
      Slide r2;
      if (!run_slide(c->solver[i], 1e-3, 1e-11, 0.5, &r2)) {
        line_num(&L, "energy_rel_err_tol_1e-11", r2.energy_rel_err);
        line_num(&L, "lateral_drift_m_tol_1e-11", r2.lateral_drift);
        line_num(&L, "max_height_m_tol_1e-11", r2.max_height);
        line_num(&L, "converged_fraction_tol_1e-11", r2.conv_frac);
        slide_free(&r2);
      }
    }
    if (r.failed) line_str(&L, "error", "step failed");
    line_end(&L, c);
    FILE* f = plot_open(c, "cube_slide_%s.dat", name);
    if (f) {
      fprintf(f, "# t x y z E E_analytic lateral_drift |E-Ean|/E0\n");
      for (long k = 0; k < r.n; k++)
        fprintf(f, "%.6g %.10g %.10g %.12g %.12g %.12g %.6g %.6g\n", r.t[k], r.p[3 * k],
                r.p[3 * k + 1], r.p[3 * k + 2], r.E[k], r.Ean[k], r.drift[k],
                fabs(r.E[k] - r.Ean[k]) / 0.5);
      fclose(f);
    }
    slide_free(&r);
  }
  FILE* f = plot_open(c, "cube_slide.gp");
  if (f) {
    fprintf(f, gp_head, 1400, 900, "cube_slide");
    fprintf(f,
            "S = \"%s\"\n"
            "set multiplot layout 2,2 title 'cube_slide: 1 m/s along (cos30, sin30), mu 0.4, "
            "dt 1 ms, tol 1e-8 (paper 002 Figs. 9, 10)'\n"
            "set xlabel 't (s)'\n"
            "set logscale y\nset format y '%%.0e'\n"
            "set title 'lateral drift from the initial line (m) [Fig. 9]'\n"
            "plot for [s in S] 'cube_slide_'.s.'.dat' u 1:($7+1e-17) w l lw 1.5 t s\n"
            "set title '|E - E_analytic| / E0 [Fig. 10 right]'\n"
            "plot for [s in S] 'cube_slide_'.s.'.dat' u 1:($8+1e-17) w l lw 1.5 t s\n"
            "unset logscale y\nset format y '%%g'\n"
            "set title 'height of the centre above rest (m) [Fig. 10 left]'\n"
            "plot for [s in S] 'cube_slide_'.s.'.dat' u 1:($4-0.1) w l lw 1.5 t s\n"
            "set title 'mechanical energy (J)'\n"
            "plot for [s in S] 'cube_slide_'.s.'.dat' u 1:5 w l lw 1.5 t s, "
            "'cube_slide_'.word(S,1).'.dat' u 1:6 w l dt 2 lw 2 lc rgb 'black' t 'analytic'\n"
            "unset multiplot\n",
            words);
    fclose(f);
    plot_run(c, "cube_slide");
  }
}

/* ------------------------------------------------------------------ cube_push */
/* Least-norm friction distribution: x_i = min(s, r_i) T / |T| with sum_i min(s, r_i) = |T|
   (water filling). Returns 0 when sum r_i < |T| (no distribution within the disks: then
   every x_i = r_i T / |T|). */
static int least_norm(int n, const double* r, const double T[3], double* x) {
  double tn = sqrt(T[0] * T[0] + T[1] * T[1] + T[2] * T[2]);
  memset(x, 0, sizeof(double) * 3 * (size_t)n);
  if (tn <= 0) return 1;
  double rs[CB_MAXC];
  for (int i = 0; i < n; i++) rs[i] = r[i] > 0 ? r[i] : 0;
  qsort(rs, (size_t)n, sizeof(double), cs_cli_cmp_double);
  double rem = tn, s = INFINITY;
  int ok = 0;
  for (int k = 0; k < n; k++) {
    if (rs[k] * (double)(n - k) >= rem) {
      s = rem / (double)(n - k);
      ok = 1;
      break;
    }
    rem -= rs[k];
  }
  for (int i = 0; i < n; i++) {
    double a = fmin(s, r[i] > 0 ? r[i] : 0) / tn;
    for (int k = 0; k < 3; k++) x[3 * i + k] = a * T[k];
  }
  return ok;
}

/* Exact onset of the semi-implicit Euler push: F_k = 10 k dt on a 1 kg cube with friction
   mu g; the time after the first step whose speed exceeds thr. */
static double push_onset_discrete(double dt, double mu, double g, double thr) {
  double v = 0;
  for (long k = 0; k < 10000000L; k++) {
    double F = 10 * (double)k * dt;
    if (F > mu * g) v += (F - mu * g) * dt;
    if (v > thr) return (double)(k + 1) * dt;
  }
  return NAN;
}

typedef struct {
  double onset, fint, fint_pre, fexc, fexc_pre, fexc_stuck, eps_max, iter_mean, conv_frac;
  double mu, g, speed_final, height_final;
  long ncon_other;
  int failed, feasible_all;
} Push;

/* The cube_push scene with the solver at tolerance tol; the per-step series into f (if
   not NULL). Returns 0 on success. */
static int run_push(int solver, double tol, FILE* f, Push* r) {
  const double dt = 1e-3, T = 1.5, thr = 1e-4, t_prefit = 0.28;
  memset(r, 0, sizeof *r);
  r->onset = NAN;
  r->feasible_all = 1;
  csScene s;
  if (cube_load("cube_push", NAN, solver, dt, tol, CB_CAP, &s)) return 1;
  csModel* m = s.m;
  csData* d = s.d;
  if (f)
    fprintf(f,
            "# t F speed fx[FL FR RL RR] fy[4] N[4] (forces: impulse/dt, N) spread excess "
            "(stiction only, else NaN)\n");
  double iters = 0;
  r->mu = 0.4, r->g = -m->opt.gravity[2];
  long nsteps = lround(T / dt), steps_contact = 0, conv = 0;
  for (long k = 0; k < nsteps; k++) {
    double t = d->time;
    cs_scene_control(&s, m, d);
    double F = d->qfrc_applied[0];
    csStatus st = cs_step(m, d);
    if (st != CS_OK) {
      r->failed = 1;
      break;
    }
    double speed =
        sqrt(d->qvel[0] * d->qvel[0] + d->qvel[1] * d->qvel[1] + d->qvel[2] * d->qvel[2]);
    int stiction = isnan(r->onset) && speed <= thr;
    if (isnan(r->onset) && speed > thr) r->onset = d->time;
    int nc = d->ncon < CB_MAXC ? d->ncon : CB_MAXC;
    if (d->ncon > 0) {
      steps_contact++;
      iters += d->solver_stats.iterations;
      conv += d->solver_stats.converged != 0;
      r->eps_max = fmax(r->eps_max, d->solver_stats.ncp.eps_abs);
    }
    if (d->ncon != 4) r->ncon_other++;
    /* per-contact friction, ordered front-left, front-right, rear-left, rear-right */
    double ft[CB_MAXC][3], fn[CB_MAXC], mean[3] = {0, 0, 0}, cap[CB_MAXC], Ttot[3] = {0, 0, 0};
    int slot[CB_MAXC];
    for (int j = 0; j < nc; j++) {
      const csContact* ct = d->contact + j;
      contact_tangent_world(ct, ft[j]);
      fn[j] = ct->lambda[0];
      cap[j] = ct->mu * ct->lambda[0];
      r->mu = ct->mu;
      for (int q = 0; q < 3; q++) mean[q] += ft[j][q] / nc, Ttot[q] += ft[j][q];
      slot[j] = (ct->pos[0] > d->qpos[0] ? 0 : 2) + (ct->pos[1] > d->qpos[1] ? 0 : 1);
    }
    double spread = 0, excess = 0;
    if (nc > 0 && stiction) {
      double x[3 * CB_MAXC];
      r->feasible_all &= least_norm(nc, cap, Ttot, x);
      for (int j = 0; j < nc; j++) {
        double a = 0, e = 0;
        for (int q = 0; q < 3; q++) {
          a += (ft[j][q] - mean[q]) * (ft[j][q] - mean[q]);
          e += (ft[j][q] - x[3 * j + q]) * (ft[j][q] - x[3 * j + q]);
        }
        spread = fmax(spread, sqrt(a) / dt);
        excess = fmax(excess, sqrt(e) / dt);
      }
      r->fint = fmax(r->fint, spread);
      r->fexc = fmax(r->fexc, excess);
      if (t < t_prefit) {
        r->fint_pre = fmax(r->fint_pre, spread);
        r->fexc_pre = fmax(r->fexc_pre, excess);
      }
      /* stuck in the exact solution too: the push does not exceed mu m g */
      if (F <= r->mu * r->g) r->fexc_stuck = fmax(r->fexc_stuck, excess);
    }
    if (f) {
      double col[3][4];
      for (int q = 0; q < 3; q++)
        for (int j = 0; j < 4; j++) col[q][j] = NAN;
      if (nc == 4) {
        for (int j = 0; j < 4; j++) {
          col[0][slot[j]] = ft[j][0] / dt;
          col[1][slot[j]] = ft[j][1] / dt;
          col[2][slot[j]] = fn[j] / dt;
        }
      }
      fprintf(f, "%.4f %.4f %.6g", d->time, F, speed);
      for (int q = 0; q < 3; q++)
        for (int j = 0; j < 4; j++) fprintf(f, " %.8g", col[q][j]);
      if (stiction)
        fprintf(f, " %.6g %.6g\n", spread, excess);
      else
        fprintf(f, " NaN NaN\n");
    }
  }
  r->iter_mean = steps_contact ? iters / (double)steps_contact : 0;
  r->conv_frac = steps_contact ? (double)conv / (double)steps_contact : 1;
  r->speed_final = sqrt(d->qvel[0] * d->qvel[0] + d->qvel[1] * d->qvel[1]);
  r->height_final = d->qpos[2] - s.qpos0[2];
  cs_scene_free(&s);
  return 0;
}

static void exp_cube_push(Ctx* c) {
  char words[512];
  solver_words(c, words, sizeof words);
  const double dt = 1e-3, T = 1.5, thr = 1e-4;
  for (int i = 0; i < c->nsolver; i++) {
    const char* name = cs_solver_name((csSolverType)c->solver[i]);
    progress(c, "cube_push %s", name);
    log_run("cube_push", name, NULL);
    Line L;
    line_begin(&L, c, "cube_push", name);
    FILE* f = plot_open(c, "cube_push_%s.dat", name);
    Push r;
    int bad = run_push(c->solver[i], CB_TOL, f, &r);
    if (f) fclose(f);
    if (bad) {
      line_str(&L, "error", "scene failed");
      line_end(&L, c);
      continue;
    }
    double mu = r.mu, g = r.g;
    line_num(&L, "internal_force_N", r.fint);
    line_num(&L, "internal_force_excess_N", r.fexc);
    line_num(&L, "internal_force_prefit_N", r.fint_pre);
    line_num(&L, "internal_force_excess_prefit_N", r.fexc_pre);
    line_num(&L, "internal_force_excess_stuck_N", r.fexc_stuck);
    line_num(&L, "slide_onset_s", r.onset);
    line_num(&L, "slide_onset_analytic_s", mu * 1.0 * g / 10);
    line_num(&L, "slide_onset_threshold_s", mu * g / 10 + sqrt(2 * thr / 10));
    line_num(&L, "slide_onset_discrete_s", push_onset_discrete(dt, mu, g, thr));
    line_num(&L, "tipping_threshold_s", mu * g / (1 + mu) / 10);
    line_num(&L, "speed_final_m_s", r.speed_final);
    {
      double t0 = mu * g / 10;
      line_num(&L, "speed_final_analytic_m_s", 5 * (T * T - t0 * t0) - mu * g * (T - t0));
    }
    line_num(&L, "height_final_m", r.height_final);
    line_num(&L, "eps_abs_max", r.eps_max);
    line_num(&L, "iterations_mean", r.iter_mean);
    line_num(&L, "converged_fraction", r.conv_frac);
    line_int(&L, "steps_not_4_contacts", r.ncon_other);
    if (!r.feasible_all) line_str(&L, "note", "least-norm infeasible at some stiction step");
    {
      Push r2;
      if (!run_push(c->solver[i], 1e-11, NULL, &r2)) {
        line_num(&L, "internal_force_N_tol_1e-11", r2.fint);
        line_num(&L, "internal_force_excess_N_tol_1e-11", r2.fexc);
        line_num(&L, "internal_force_prefit_N_tol_1e-11", r2.fint_pre);
        line_num(&L, "converged_fraction_tol_1e-11", r2.conv_frac);
      }
    }
    if (r.failed) line_str(&L, "error", "step failed");
    line_end(&L, c);
  }
  FILE* f = plot_open(c, "cube_push.gp");
  if (f) {
    int n = c->nsolver, cols = n > 4 ? 4 : n, rows = (n + cols - 1) / cols;
    fprintf(f, gp_head, 380 * cols + 40, 300 * rows + 60, "cube_push_forces");
    fprintf(f,
            "S = \"%s\"\n"
            "set key inside left top font ',7'\n"
            "set multiplot layout %d,%d title 'cube_push: x friction force per contact "
            "(N) vs t (s), F = 10 t at the centre; onset (dashed) mu m g / 10 = 0.392 s, "
            "tipping limit 0.280 s (dotted) [Fig. 11 right]'\n"
            "set xrange [0:0.6]\n"
            "set arrow 1 from 0.3924, graph 0 to 0.3924, graph 1 nohead dt 2\n"
            "set arrow 2 from 0.2803, graph 0 to 0.2803, graph 1 nohead dt 3\n"
            "do for [s in S] {\n"
            "  set title s\n"
            "  plot 'cube_push_'.s.'.dat' u 1:4 w l t 'front-left', '' u 1:5 w l t "
            "'front-right', '' u 1:6 w l t 'rear-left', '' u 1:7 w l t 'rear-right', "
            "'' u 1:(-$2/4) w l dt 2 lc rgb 'gray' t '-F/4'\n"
            "}\n"
            "unset multiplot\n"
            "unset arrow 1\nunset arrow 2\n",
            words, rows, cols);
    fprintf(f, gp_head, 1400, 500, "cube_push_speed");
    fprintf(f,
            "set key outside right top\n"
            "set multiplot layout 1,2 title 'cube_push [Fig. 11 left]'\n"
            "set xrange [0:1.5]\nset xlabel 't (s)'\n"
            "v(t) = t > 0.3924 ? 5*(t*t - 0.3924**2) - 3.924*(t - 0.3924) : 0\n"
            "set title 'speed of the centre (m/s)'\n"
            "plot for [s in S] 'cube_push_'.s.'.dat' u 1:3 w l t s, v(x) w l dt 2 lw 2 lc "
            "rgb 'black' t 'analytic'\n"
            "set title 'speed - analytic (m/s)'\n"
            "plot for [s in S] 'cube_push_'.s.'.dat' u 1:($3-v($1)) w l t s\n"
            "unset multiplot\n");
    fprintf(f, gp_head, 1400, 500, "cube_push_internal");
    fprintf(f,
            "set multiplot layout 1,2 title 'cube_push at stiction: internal forces'\n"
            "set xrange [0:0.4]\nset logscale y\nset format y '%%.0e'\n"
            "set arrow 2 from 0.2803, graph 0 to 0.2803, graph 1 nohead dt 3\n"
            "set title 'max_i |f_i - mean f| (N): the spec internal_force'\n"
            "plot for [s in S] 'cube_push_'.s.'.dat' u 1:($16+1e-14) w l t s\n"
            "set title 'max_i |f_i - f*_i| (N), f* least-norm: internal_force_excess'\n"
            "plot for [s in S] 'cube_push_'.s.'.dat' u 1:($17+1e-14) w l t s\n"
            "unset multiplot\n");
    fclose(f);
    plot_run(c, "cube_push");
  }
}

/* ------------------------------------------------------------------ stack_ratio */
static void exp_stack_ratio(Ctx* c) {
  static const double ratios[4] = {1, 1e2, 1e4, 1e6};
  char words[512];
  solver_words(c, words, sizeof words);
  for (int i = 0; i < c->nsolver; i++) {
    const char* name = cs_solver_name((csSolverType)c->solver[i]);
    FILE* f = plot_open(c, "stack_ratio_%s.dat", name);
    if (f) fprintf(f, "# mass_ratio eps_abs_final iterations converged eps_abs_max top_drift_m\n");
    for (int k = 0; k < 4; k++) {
      progress(c, "stack_ratio %s %g", name, ratios[k]);
      char extra[32];
      snprintf(extra, sizeof extra, "ratio %g", ratios[k]);
      log_run("stack_ratio", name, extra);
      Line L;
      line_begin(&L, c, "stack_ratio", name);
      line_num(&L, "mass_ratio", ratios[k]);
      csScene s;
      if (cube_load("stack_ratio", ratios[k], c->solver[i], 1e-3, CB_TOL, CB_CAP, &s)) {
        line_str(&L, "error", "scene failed");
        line_end(&L, c);
        continue;
      }
      csModel* m = s.m;
      csData* d = s.d;
      int top = cs_name2id(m, "body", "top");
      double top0[3] = {0, 0, 0};
      int tq = top >= 0 && m->body_jntadr[top] >= 0 ? m->jnt_qposadr[m->body_jntadr[top]] : -1;
      if (tq >= 0) memcpy(top0, d->qpos + tq, sizeof top0);
      double eps_max = 0, iters = 0;
      long conv = 0, sc = 0;
      int failed = 0, ncon = 0;
      csSolverStats last;
      memset(&last, 0, sizeof last);
      for (long n = 0; n < 100; n++) {
        cs_scene_control(&s, m, d);
        if (cs_step(m, d) != CS_OK) {
          failed = 1;
          break;
        }
        if (d->ncon > 0) {
          sc++;
          iters += d->solver_stats.iterations;
          conv += d->solver_stats.converged != 0;
          eps_max = fmax(eps_max, d->solver_stats.ncp.eps_abs);
        }
        last = d->solver_stats;
        ncon = d->ncon;
      }
      double drift = 0;
      if (tq >= 0)
        for (int q = 0; q < 3; q++) {
          double x = d->qpos[tq + q] - top0[q];
          drift += x * x;
        }
      drift = sqrt(drift);
      line_num(&L, "eps_abs_final", last.ncp.eps_abs);
      line_int(&L, "iterations", last.iterations);
      line_int(&L, "converged", last.converged);
      line_num(&L, "residual_final", last.residual);
      line_int(&L, "contacts_final", ncon);
      line_num(&L, "eps_abs_max", eps_max);
      line_num(&L, "iterations_mean", sc ? iters / (double)sc : 0);
      line_num(&L, "converged_fraction", sc ? (double)conv / (double)sc : 1);
      line_num(&L, "top_displacement_m", drift);
      if (failed) line_str(&L, "error", "step failed");
      line_end(&L, c);
      if (f)
        fprintf(f, "%g %.6g %d %d %.6g %.6g\n", ratios[k], last.ncp.eps_abs, last.iterations,
                last.converged, eps_max, drift);
      cs_scene_free(&s);
    }
    if (f) fclose(f);
  }
  FILE* f = plot_open(c, "stack_ratio.gp");
  if (f) {
    fprintf(f, gp_head, 1400, 500, "stack_ratio");
    fprintf(f,
            "S = \"%s\"\n"
            "set multiplot layout 1,2 title 'stack_ratio: cube (ratio x 1e-3 kg) on a cube "
            "(1e-3 kg), 0.1 s at rest, tol 1e-8, cap 1000 [Fig. 12]'\n"
            "set logscale xy\nset format y '%%.0e'\nset format x '10^%%L'\n"
            "set xlabel 'mass ratio top / bottom'\nset xrange [0.3:3e6]\n"
            "set title 'eps_abs of the last solve'\n"
            "plot for [s in S] 'stack_ratio_'.s.'.dat' u 1:($2+1e-18) w lp lw 1.5 t s\n"
            "set title 'iterations of the last solve (cap 1000)'\nset format y '%%g'\n"
            "plot for [s in S] 'stack_ratio_'.s.'.dat' u 1:3 w lp lw 1.5 t s\n"
            "unset multiplot\n",
            words);
    fclose(f);
    plot_run(c, "stack_ratio");
  }
}

/* ------------------------------------------------------------------ consistency */
/* integral_err_m_s of run a against the reference ref (ref sampled every dt_ref; a every
   dt, an integer multiple). */
static double integral_err(const Slide* a, double dt, const Slide* ref, double dt_ref) {
  long stride = lround(dt / dt_ref);
  double sum = 0;
  for (long k = 1; k < a->n; k++) {
    long j = k * stride;
    if (j >= ref->n) break;
    double e = 0;
    for (int q = 0; q < 3; q++) {
      double x = a->p[3 * k + q] - ref->p[3 * j + q];
      e += x * x;
    }
    sum += sqrt(e) * dt;
  }
  return sum;
}

static void exp_consistency(Ctx* c, int by_dt) {
  const char* exp = by_dt ? "consistency_dt" : "consistency_eps";
  static const double dts[3] = {1e-3, 1e-2, 1e-1};
  static const double tols[3] = {1e-2, 1e-4, 1e-6};
  const double T = 0.5, dt_ref = by_dt ? 1e-4 : 1e-3, tol_ref = by_dt ? CB_TOL : 1e-9;
  char words[512];
  solver_words(c, words, sizeof words);
  for (int i = 0; i < c->nsolver; i++) {
    const char* name = cs_solver_name((csSolverType)c->solver[i]);
    progress(c, "%s %s reference", exp, name);
    log_run(exp, name, "reference");
    Slide ref;
    if (run_slide(c->solver[i], dt_ref, tol_ref, T, &ref)) {
      Line L;
      line_begin(&L, c, exp, name);
      line_str(&L, "error", "scene failed");
      line_end(&L, c);
      continue;
    }
    FILE* f = plot_open(c, "%s_%s.dat", exp, name);
    if (f) fprintf(f, "# %s integral_err_m_s\n", by_dt ? "dt" : "tolerance");
    FILE* fe = plot_open(c, "%s_%s_energy.dat", exp, name);
    if (fe) {
      fprintf(fe, "# t E  (blocks: reference, then each %s)\n", by_dt ? "dt" : "tolerance");
      for (long k = 0; k < ref.n; k++) fprintf(fe, "%.6g %.10g\n", ref.t[k], ref.E[k]);
      fprintf(fe, "\n\n");
    }
    for (int v = 0; v < 3; v++) {
      double dt = by_dt ? dts[v] : 1e-3, tol = by_dt ? CB_TOL : tols[v];
      progress(c, "%s %s %g", exp, name, by_dt ? dt : tol);
      char extra[32];
      snprintf(extra, sizeof extra, "%s %g", by_dt ? "dt" : "tol", by_dt ? dt : tol);
      log_run(exp, name, extra);
      Line L;
      line_begin(&L, c, exp, name);
      if (by_dt)
        line_num(&L, "dt", dt);
      else
        line_num(&L, "tolerance", tol);
      Slide a;
      if (run_slide(c->solver[i], dt, tol, T, &a)) {
        line_str(&L, "error", "scene failed");
        line_end(&L, c);
        continue;
      }
      double err = integral_err(&a, dt, &ref, dt_ref);
      line_num(&L, "integral_err_m_s", err);
      if (by_dt)
        line_num(&L, "dt_reference", dt_ref), line_num(&L, "tolerance", tol);
      else
        line_num(&L, "tolerance_reference", tol_ref), line_num(&L, "dt", dt);
      line_num(&L, "energy_rel_err", a.energy_rel_err);
      line_num(&L, "max_height_m", a.max_height);
      line_num(&L, "iterations_mean", a.iter_mean);
      line_num(&L, "converged_fraction", a.conv_frac);
      line_num(&L, "reference_converged_fraction", ref.conv_frac);
      if (a.failed || ref.failed) line_str(&L, "error", "step failed");
      line_end(&L, c);
      if (f) fprintf(f, "%g %.6g\n", by_dt ? dt : tol, err);
      if (fe) {
        for (long k = 0; k < a.n; k++) fprintf(fe, "%.6g %.10g\n", a.t[k], a.E[k]);
        fprintf(fe, "\n\n");
      }
      slide_free(&a);
    }
    if (f) fclose(f);
    if (fe) fclose(fe);
    slide_free(&ref);
  }
  FILE* f = plot_open(c, "%s.gp", exp);
  if (f) {
    fprintf(f, gp_head, 800, 500, exp);
    fprintf(f,
            "S = \"%s\"\n"
            "set logscale xy\nset format y '%%.0e'\nset format x '%%.0e'\n"
            "set xlabel '%s'\nset ylabel 'integral consistency error (m s)'\n"
            "set title '%s: cube slide vs %s [Table %s]'\n"
            "plot for [s in S] '%s_'.s.'.dat' u 1:($2+1e-18) w lp lw 1.5 t s\n",
            words, by_dt ? "time step (s)" : "tolerance (each solver on its own criterion)", exp,
            by_dt ? "dt = 0.1 ms" : "tolerance 1e-9", by_dt ? "III" : "IV", exp);
    int n = c->nsolver, cols = n > 4 ? 4 : n, rows = (n + cols - 1) / cols;
    char out[64];
    snprintf(out, sizeof out, "%s_energy", exp);
    fprintf(f, "reset\n");
    fprintf(f, gp_head, 380 * cols + 40, 300 * rows + 60, out);
    fprintf(f,
            "set key inside right top font ',7'\n"
            "set multiplot layout %d,%d title '%s: mechanical energy (J) vs t (s) [Fig. %s]'\n"
            "do for [s in S] {\n"
            "  set title s\n"
            "  plot for [b=0:3] '%s_'.s.'_energy.dat' index b u 1:2 w l lw 1.5 t word('%s', "
            "b+1)\n"
            "}\nunset multiplot\n",
            rows, cols, exp, by_dt ? "14" : "15", exp,
            by_dt ? "0.1ms 1ms 10ms 100ms" : "1e-9 1e-2 1e-4 1e-6");
    fclose(f);
    plot_run(c, exp);
  }
}

/* ------------------------------------------------------------------ recorded problems */
typedef struct {
  long step; /* step index along the trajectory */
  int nc;
  double* G;     /* (3nc)^2 */
  double* g;     /* (3nc) */
  double* mu;    /* (nc) */
  double* R;     /* (3nc) or NULL */
  double* frame; /* (nc x 9) */
  double* pos;   /* (nc x 3) */
  int* key;      /* (nc x 3) geom0, geom1, feature */
} RecProb;

typedef struct {
  RecProb* p;
  long n, cap;
  int ncmax;
  long steps, contacts;
} RecSet;

static void rec_free(RecSet* r) {
  for (long i = 0; i < r->n; i++) {
    RecProb* p = r->p + i;
    free(p->G);
    free(p->g);
    free(p->mu);
    free(p->R);
    free(p->frame);
    free(p->pos);
    free(p->key);
  }
  free(r->p);
  memset(r, 0, sizeof *r);
}

/* Copy the contact problem of the last step of d (nothing if it had no contacts). The
   experiments' problems are friction-contact problems: a problem with blocks (limits,
   friction loss, equalities, which the robots turn off) is an error. */
static int rec_add(RecSet* r, const csData* d, long step) {
  r->steps++;
  int nc = d->problem.nc;
  if (d->problem.nblock > 0) return 0;
  if (nc <= 0 || nc != d->ncon) return 1;
  if (r->n == r->cap) {
    long cap = r->cap ? 2 * r->cap : 1024;
    RecProb* np = realloc(r->p, sizeof(RecProb) * (size_t)cap);
    if (!np) return 0;
    r->p = np, r->cap = cap;
  }
  RecProb* p = r->p + r->n;
  memset(p, 0, sizeof *p);
  size_t n3 = 3 * (size_t)nc;
  p->step = step;
  p->nc = nc;
  p->G = malloc(sizeof(double) * n3 * n3);
  p->g = malloc(sizeof(double) * n3);
  p->mu = malloc(sizeof(double) * (size_t)nc);
  p->frame = malloc(sizeof(double) * 9 * (size_t)nc);
  p->pos = malloc(sizeof(double) * 3 * (size_t)nc);
  p->key = malloc(sizeof(int) * 3 * (size_t)nc);
  if (d->problem.R) p->R = malloc(sizeof(double) * n3);
  if (!p->G || !p->g || !p->mu || !p->frame || !p->pos || !p->key || (d->problem.R && !p->R)) {
    free(p->G), free(p->g), free(p->mu), free(p->frame), free(p->pos), free(p->key), free(p->R);
    return 0;
  }
  memcpy(p->G, d->problem.G, sizeof(double) * n3 * n3);
  memcpy(p->g, d->problem.g, sizeof(double) * n3);
  memcpy(p->mu, d->problem.mu, sizeof(double) * (size_t)nc);
  if (p->R) memcpy(p->R, d->problem.R, sizeof(double) * n3);
  for (int i = 0; i < nc; i++) {
    memcpy(p->frame + 9 * i, d->contact[i].frame, 9 * sizeof(double));
    memcpy(p->pos + 3 * i, d->contact[i].pos, 3 * sizeof(double));
    p->key[3 * i] = d->contact[i].geom[0];
    p->key[3 * i + 1] = d->contact[i].geom[1];
    p->key[3 * i + 2] = d->contact[i].feature;
  }
  r->n++;
  r->contacts += nc;
  if (nc > r->ncmax) r->ncmax = nc;
  return 1;
}

/* The contact of a (previous step) that contact i of b continues: the same (geom pair,
   feature) id, as the pipeline's warm start; else, since feature ids of mesh and box
   contacts change when another vertex of a flat face becomes the deepest, the nearest
   contact of the same geom pair within 5 mm. -1 if none. */
static int rec_match(const RecProb* a, const RecProb* b, int i) {
  for (int j = 0; j < a->nc; j++)
    if (!memcmp(a->key + 3 * j, b->key + 3 * i, 3 * sizeof(int))) return j;
  int best = -1;
  double bd = 25e-6;
  for (int j = 0; j < a->nc; j++) {
    if (a->key[3 * j] != b->key[3 * i] || a->key[3 * j + 1] != b->key[3 * i + 1]) continue;
    double d2 = 0;
    for (int k = 0; k < 3; k++) {
      double x = a->pos[3 * j + k] - b->pos[3 * i + k];
      d2 += x * x;
    }
    if (d2 < bd) bd = d2, best = j;
  }
  return best;
}

/* Warm start of problem b from the solution lp of problem a (the previous step): contact
   by contact (rec_match), the impulse carried in world coordinates. */
static void rec_warm(const RecProb* a, const double* lp, const RecProb* b, double* lambda) {
  for (int i = 0; i < b->nc; i++) {
    double* l = lambda + 3 * i;
    l[0] = l[1] = l[2] = 0;
    int j = rec_match(a, b, i);
    if (j < 0) continue;
    const double* fa = a->frame + 9 * j;
    const double* fb = b->frame + 9 * i;
    double w[3];
    for (int k = 0; k < 3; k++)
      w[k] = fa[k] * lp[3 * j] + fa[3 + k] * lp[3 * j + 1] + fa[6 + k] * lp[3 * j + 2];
    for (int k = 0; k < 3; k++)
      l[k] = fb[3 * k] * w[0] + fb[3 * k + 1] * w[1] + fb[3 * k + 2] * w[2];
  }
}

typedef struct {
  double us; /* mean us per solve of the pass */
  double iter_mean, conv_frac, eps_med, eps_max, eps_mean;
  long errors;
} PassStats;

typedef struct {
  double* lam;  /* (3 ncmax) */
  double* prev; /* (3 ncmax) */
  double* eps;  /* (n) */
  void* ws;
  size_t nws;
} PassWork;

static void passwork_free(PassWork* w) {
  free(w->lam);
  free(w->prev);
  free(w->eps);
  free(w->ws);
  memset(w, 0, sizeof *w);
}

static int passwork_init(PassWork* w, const RecSet* r) {
  memset(w, 0, sizeof *w);
  size_t n3 = 3 * (size_t)(r->ncmax > 0 ? r->ncmax : 1);
  w->lam = calloc(n3, sizeof(double));
  w->prev = calloc(n3, sizeof(double));
  w->eps = calloc((size_t)(r->n > 0 ? r->n : 1), sizeof(double));
  return w->lam && w->prev && w->eps;
}

/* One pass over the recorded problems with one solver, cold or warm. Returns 0 if the
   workspace cannot be had. */
static int replay_pass(const RecSet* r, const csSolver* s, double tol, int cap, int warm,
                       PassWork* w, PassStats* ps) {
  memset(ps, 0, sizeof *ps);
  csSolverOptions o = {cap, tol, 1.0, 0, 0};
  size_t need = 64;
  for (long i = 0; i < r->n; i++) {
    csContactProblem shape = {.nc = r->p[i].nc};
    size_t b = s->workspace_bytes(&shape, &o);
    if (b > need) need = b;
  }
  need = (need + 63) / 64 * 64;
  if (need > w->nws) {
    free(w->ws);
    w->ws = aligned_alloc(64, need);
    w->nws = w->ws ? need : 0;
    if (!w->ws) return 0;
  }
  double ns = 0, iters = 0, eps_sum = 0;
  long conv = 0;
  for (long i = 0; i < r->n; i++) {
    const RecProb* p = r->p + i;
    csContactProblem cp = {.nc = p->nc, .mu = p->mu, .G = p->G, .g = p->g, .R = p->R};
    int ws = warm && i > 0 && r->p[i - 1].step == p->step - 1;
    if (ws)
      rec_warm(r->p + i - 1, w->prev, p, w->lam);
    else
      memset(w->lam, 0, sizeof(double) * 3 * (size_t)p->nc);
    o.warmstart = ws;
    csSolverStats st;
    memset(&st, 0, sizeof st);
    double t0 = cs_cli_now_ns();
    csStatus rc = s->solve(&cp, &o, w->ws, w->lam, &st);
    double t1 = cs_cli_now_ns();
    ns += t1 - t0;
    if (rc != CS_OK) {
      ps->errors++;
      memset(w->lam, 0, sizeof(double) * 3 * (size_t)p->nc);
      st.ncp.eps_abs = NAN;
    }
    iters += st.iterations;
    conv += st.converged != 0;
    w->eps[i] = st.ncp.eps_abs;
    if (isfinite(st.ncp.eps_abs)) {
      eps_sum += st.ncp.eps_abs;
      if (st.ncp.eps_abs > ps->eps_max) ps->eps_max = st.ncp.eps_abs;
    }
    memcpy(w->prev, w->lam, sizeof(double) * 3 * (size_t)p->nc);
  }
  long n = r->n > 0 ? r->n : 1;
  ps->us = 1e-3 * ns / (double)n;
  ps->iter_mean = iters / (double)n;
  ps->conv_frac = (double)conv / (double)n;
  ps->eps_mean = eps_sum / (double)n;
  long m = 0;
  for (long i = 0; i < r->n; i++)
    if (isfinite(w->eps[i])) w->eps[m++] = w->eps[i];
  ps->eps_med = cs_cli_median(w->eps, m);
  return 1;
}

typedef struct {
  int solver;
  PassStats cold, warm; /* first pass's statistics, times: medians */
  int ok;
  int repeats; /* passes timed (fewer than asked for a slow solver) */
} ReplayRes;

/* A solver whose first cold + warm pass takes longer than this is not repeated. */
#define CB_PASS_BUDGET_S 10.0

/* Every solver of list over the recorded problems, cold and warm, repeats times,
   alternating; the times are medians over the repeats. */
static void replay_all(const Ctx* c, const char* what, const RecSet* r, const int* list, int n,
                       double tol, int cap, ReplayRes* out) {
  int reps = c->repeats > 0 ? c->repeats : 1;
  double* tc = calloc((size_t)(n * reps + 1), sizeof(double));
  double* tw = calloc((size_t)(n * reps + 1), sizeof(double));
  PassWork w;
  if (!tc || !tw || !passwork_init(&w, r)) {
    free(tc), free(tw);
    for (int i = 0; i < n; i++) out[i].ok = 0;
    return;
  }
  for (int i = 0; i < n; i++) out[i].solver = list[i], out[i].ok = 1, out[i].repeats = 0;
  for (int rep = 0; rep < reps; rep++) {
    for (int i = 0; i < n; i++) {
      const csSolver* s = cs_solver_get((csSolverType)list[i]);
      if (!s || !out[i].ok) {
        out[i].ok = 0;
        continue;
      }
      if (rep > 0 && (tc[i * reps] + tw[i * reps]) * 1e-6 * (double)r->n > CB_PASS_BUDGET_S)
        continue;
      progress(c, "%s %s pass %d/%d", what, s->name, rep + 1, reps);
      PassStats a, b;
      if (!replay_pass(r, s, tol, cap, 0, &w, &a) || !replay_pass(r, s, tol, cap, 1, &w, &b)) {
        out[i].ok = 0;
        continue;
      }
      if (rep == 0) out[i].cold = a, out[i].warm = b;
      tc[i * reps + rep] = a.us;
      tw[i * reps + rep] = b.us;
      out[i].repeats++;
    }
  }
  for (int i = 0; i < n; i++) {
    out[i].cold.us = cs_cli_median(tc + i * reps, out[i].repeats);
    out[i].warm.us = cs_cli_median(tw + i * reps, out[i].repeats);
  }
  passwork_free(&w);
  free(tc);
  free(tw);
}

/* Fraction of the contacts of the recorded problems that continue a contact of the previous
   step: by id (*by_id), or by id or position (the return value, rec_match). */
static double rec_matched(const RecSet* r, double* by_id) {
  long hit = 0, hid = 0, all = 0;
  for (long i = 1; i < r->n; i++) {
    const RecProb* a = r->p + i - 1;
    const RecProb* b = r->p + i;
    if (a->step != b->step - 1) continue;
    for (int k = 0; k < b->nc; k++) {
      all++;
      int j = rec_match(a, b, k);
      hit += j >= 0;
      hid += j >= 0 && !memcmp(a->key + 3 * j, b->key + 3 * k, 3 * sizeof(int));
    }
  }
  *by_id = all ? (double)hid / (double)all : 0;
  return all ? (double)hit / (double)all : 0;
}

static void replay_fields(Line* L, const ReplayRes* x, const RecSet* r) {
  line_num(L, "us_per_solve_cold", x->cold.us);
  line_num(L, "us_per_solve_warm", x->warm.us);
  line_num(L, "eps_abs", x->warm.eps_med);
  line_num(L, "eps_abs_max", x->warm.eps_max);
  line_num(L, "eps_abs_mean", x->warm.eps_mean);
  line_num(L, "eps_abs_cold", x->cold.eps_med);
  line_num(L, "iterations_cold_mean", x->cold.iter_mean);
  line_num(L, "iterations_warm_mean", x->warm.iter_mean);
  line_num(L, "converged_fraction_cold", x->cold.conv_frac);
  line_num(L, "converged_fraction_warm", x->warm.conv_frac);
  if (x->cold.errors + x->warm.errors) line_int(L, "solve_errors", x->cold.errors + x->warm.errors);
  line_int(L, "problems", r->n);
  line_num(L, "contacts_mean", r->n ? (double)r->contacts / (double)r->n : 0);
  line_int(L, "contacts_max", r->ncmax);
  double by_id, any = rec_matched(r, &by_id);
  line_num(L, "warm_matched_fraction", any);
  line_num(L, "warm_matched_by_id_fraction", by_id);
  line_int(L, "repeats", x->repeats);
}

/* ------------------------------------------------------------------ robots */
typedef struct {
  const char* name;
  char path[1024];
  csModel* m;
  csData* d;
  double* qpos0;
  double* qvel0;
  int npd;
  int* pd_qadr;
  int* pd_dof;
  double* qref;
  double kp, tau_max;
  int push_dof; /* first dof of the base's free joint (-1: no push) */
  int nu;       /* actuators (the hand's servos): ctrl = their target */
  double* ctrl0;
  double T;
  char note[256];
} Robot;

static void robot_free(Robot* r) {
  cs_data_free(r->d);
  cs_model_free(r->m);
  free(r->qpos0);
  free(r->qvel0);
  free(r->pd_qadr);
  free(r->pd_dof);
  free(r->qref);
  free(r->ctrl0);
  memset(r, 0, sizeof *r);
}

/* Lowest world z of the collision geometry (planes excluded) at the current geom poses. */
static double lowest_point(const csModel* m, const csData* d) {
  double zmin = INFINITY;
  for (int g = 0; g < m->ngeom; g++) {
    int t = m->geom_type[g];
    if (t == CS_GEOM_PLANE || !(m->geom_contype[g] | m->geom_conaffinity[g])) continue;
    const double* p = d->geom_xpos + 3 * g;
    const double* R = d->geom_xmat + 9 * g;
    const double* sz = m->geom_size + 3 * g;
    if (t == CS_GEOM_SPHERE) {
      zmin = fmin(zmin, p[2] - sz[0]);
    } else if (t == CS_GEOM_CAPSULE || t == CS_GEOM_CYLINDER) {
      double ez = fabs(R[8]) * sz[1]; /* axis z of the geom: column 2, its world z R[2][2] */
      double rad = t == CS_GEOM_CAPSULE ? sz[0] : sz[0] * sqrt(fmax(0, 1 - R[8] * R[8]));
      zmin = fmin(zmin, p[2] - ez - rad);
    } else if (t == CS_GEOM_BOX) {
      double e = fabs(R[6]) * sz[0] + fabs(R[7]) * sz[1] + fabs(R[8]) * sz[2];
      zmin = fmin(zmin, p[2] - e);
    } else if (t == CS_GEOM_MESH && m->geom_mesh[g] >= 0) {
      int k = m->geom_mesh[g];
      const double* v = m->mesh_vert + 3 * m->mesh_vertadr[k];
      double sc[3];
      for (int q = 0; q < 3; q++) sc[q] = sz[q] != 0 ? sz[q] : 1;
      for (int i = 0; i < m->mesh_vertnum[k]; i++) {
        double z = p[2] + R[6] * sc[0] * v[3 * i] + R[7] * sc[1] * v[3 * i + 1] +
                   R[8] * sc[2] * v[3 * i + 2];
        zmin = fmin(zmin, z);
      }
    }
  }
  return zmin;
}

/* Poses of the geoms at d's qpos. */
static void place(const csModel* m, csData* d) {
  cs_kinematics(m, d);
  cs_geom_poses(m, d);
}

/* Make (m, d) of a robot: start state, PD of every single-dof joint (not the hand's) with
   gains kp, kd (kd as joint damping) and the clamp tau_max on the kp part. */
static int robot_finish(Robot* r, int pd, double drop, double kp, double kd, double tau_max) {
  csModel* m = r->m;
  m->opt.timestep = 1e-3;
  m->opt.recovery_speed = 0; /* the plain Baumgarte rule the figures were recorded with */
  /* friction-contact problems, as paper 002's: the files' limits and friction loss off */
  m->opt.disable |= CS_DISABLE_LIMIT | CS_DISABLE_FRICTIONLOSS | CS_DISABLE_EQUALITY;
  m->opt.tolerance = CB_ROBOT_TOL;
  m->opt.iterations = CB_CAP;
  for (int g = 0; g < m->ngeom; g++) m->geom_friction[g] = CB_MU_ROBOT;
  r->d = cs_data_new(m);
  r->qpos0 = calloc((size_t)m->nq, sizeof(double));
  r->qvel0 = calloc((size_t)m->nv + 1, sizeof(double));
  r->pd_qadr = calloc((size_t)m->njnt + 1, sizeof(int));
  r->pd_dof = calloc((size_t)m->njnt + 1, sizeof(int));
  r->qref = calloc((size_t)m->njnt + 1, sizeof(double));
  r->ctrl0 = calloc((size_t)m->nu + 1, sizeof(double));
  if (!r->d || !r->qpos0 || !r->qvel0 || !r->pd_qadr || !r->pd_dof || !r->qref || !r->ctrl0)
    return 0;
  memcpy(r->qpos0, m->qpos0, sizeof(double) * (size_t)m->nq);
  r->push_dof = -1;
  if (m->njnt > 0 && m->jnt_type[0] == CS_JNT_FREE) {
    r->push_dof = m->jnt_dofadr[0];
    cs_data_set_state(m, r->d, r->qpos0, m->nq, NULL, 0);
    place(m, r->d);
    double z = lowest_point(m, r->d);
    if (isfinite(z)) r->qpos0[m->jnt_qposadr[0] + 2] += drop - z;
  }
  r->kp = kp, r->tau_max = tau_max;
  if (pd)
    for (int j = 0; j < m->njnt; j++) {
      if (m->jnt_type[j] != CS_JNT_REVOLUTE && m->jnt_type[j] != CS_JNT_PRISMATIC) continue;
      int i = r->npd++;
      r->pd_qadr[i] = m->jnt_qposadr[j];
      r->pd_dof[i] = m->jnt_dofadr[j];
      r->qref[i] = r->qpos0[m->jnt_qposadr[j]];
      m->dof_damping[m->jnt_dofadr[j]] += kd; /* implicit, with the joint damping */
    }
  return 1;
}

static void robot_reset(Robot* r) {
  cs_data_reset(r->m, r->d);
  cs_data_set_state(r->m, r->d, r->qpos0, r->m->nq, r->qvel0, r->m->nv);
  memcpy(r->d->ctrl, r->ctrl0, sizeof(double) * (size_t)r->m->nu);
}

static void robot_control(Robot* r) {
  csModel* m = r->m;
  csData* d = r->d;
  memset(d->qfrc_applied, 0, sizeof(double) * (size_t)m->nv);
  for (int i = 0; i < r->npd; i++) {
    double f = r->kp * (r->qref[i] - d->qpos[r->pd_qadr[i]]);
    d->qfrc_applied[r->pd_dof[i]] = f > r->tau_max ? r->tau_max : f < -r->tau_max ? -r->tau_max : f;
  }
  if (r->push_dof >= 0) {
    double ph = fmod(d->time + 0.5, 1.0); /* pushes at [0.5, 0.6), [1.5, 1.6), ... */
    if (d->time >= 0.5 - 1e-9 && ph < 0.1 - 1e-9) d->qfrc_applied[r->push_dof] = 50.0;
  }
}

static csStatus robot_urdf(Robot* r, const char* shared, const char* rel, double drop, double kp,
                           double kd, double tau_max) {
  snprintf(r->path, sizeof r->path, "%s/%s", shared, rel);
  csBuilder* b = cs_builder_new();
  if (!b) return CS_ERR_MEMORY;
  csLoadOptions lo;
  cs_load_options_default(&lo);
  lo.floating_base = 1;
  csStatus st = cs_load_urdf(b, r->path, &lo);
  if (st == CS_OK) {
    csGeomSpec g;
    cs_geom_spec_default(&g);
    g.name = "cb_floor", g.type = CS_GEOM_PLANE, g.body = 0, g.friction = CB_MU_ROBOT;
    if (cs_builder_add_geom(b, &g) < 0) st = CS_ERR_MODEL;
  }
  if (st == CS_OK) st = cs_compile(b, &r->m);
  cs_builder_free(b);
  if (st != CS_OK) return st;
  return robot_finish(r, 1, drop, kp, kd, tau_max) ? CS_OK : CS_ERR_MEMORY;
}

/* The Allegro hand (fixed palm) and a free sphere 10 cm above the palm. */
static csStatus robot_allegro(Robot* r, const char* shared) {
  snprintf(r->path, sizeof r->path, "%s/allegro_hand/mjcf/right_hand_collision_only.xml", shared);
  csBuilder* b = cs_builder_new();
  if (!b) return CS_ERR_MEMORY;
  csLoadOptions lo;
  cs_load_options_default(&lo);
  csStatus st = cs_load_mjcf(b, r->path, &lo);
  csModel* probe = NULL;
  if (st == CS_OK) st = cs_compile(b, &probe);
  double top = 0, cx = 0, cy = 0;
  if (st == CS_OK) {
    /* the palm box at the start pose: its centre and top in the world */
    csData* d = cs_data_new(probe);
    /* the palm has no joint: the compiler merges it into the world (body 0) */
    int g = -1, palm = cs_name2id(probe, "body", "palm");
    if (palm < 0) palm = 0;
    double vol = 0;
    for (int k = 0; k < probe->ngeom; k++) {
      const double* sz = probe->geom_size + 3 * k;
      if (probe->geom_body[k] == palm && probe->geom_type[k] == CS_GEOM_BOX &&
          sz[0] * sz[1] * sz[2] > vol)
        g = k, vol = sz[0] * sz[1] * sz[2];
    }
    if (!d || g < 0) {
      st = CS_ERR_MODEL;
    } else {
      place(probe, d);
      const double* R = d->geom_xmat + 9 * g;
      const double* sz = probe->geom_size + 3 * g;
      top = d->geom_xpos[3 * g + 2] + fabs(R[6]) * sz[0] + fabs(R[7]) * sz[1] + fabs(R[8]) * sz[2];
      cx = d->geom_xpos[3 * g], cy = d->geom_xpos[3 * g + 1];
    }
    cs_data_free(d);
    cs_model_free(probe);
  }
  if (st == CS_OK) {
    const double rad = 0.03, mass = 0.1;
    csBodySpec bs;
    cs_body_spec_default(&bs);
    bs.name = "cb_ball", bs.parent = 0;
    bs.pos[0] = cx, bs.pos[1] = cy, bs.pos[2] = top + 0.10 + rad;
    bs.mass = mass;
    bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 0.4 * mass * rad * rad;
    int body = cs_builder_add_body(b, &bs);
    csJointSpec js;
    cs_joint_spec_default(&js);
    js.name = "cb_ball", js.body = body, js.type = CS_JNT_FREE;
    csGeomSpec gs;
    cs_geom_spec_default(&gs);
    gs.name = "cb_ball", gs.body = body, gs.type = CS_GEOM_SPHERE, gs.size[0] = rad;
    gs.friction = CB_MU_ROBOT;
    if (body < 0 || cs_builder_add_joint(b, &js) < 0 || cs_builder_add_geom(b, &gs) < 0)
      st = CS_ERR_MODEL;
  }
  if (st == CS_OK) st = cs_compile(b, &r->m);
  cs_builder_free(b);
  if (st != CS_OK) return st;
  if (!robot_finish(r, 0, 0, 0, 0, 0)) return CS_ERR_MEMORY;
  /* the servos hold a cupped pose: fingers flexed, thumb opposed */
  csModel* m = r->m;
  for (int a = 0; a < m->nu; a++) {
    const char* an = cs_id2name(m, "actuator", a);
    double q = 0;
    if (an && strlen(an) == 4) {
      int k = an[3] - '0';
      if (an[0] == 't')
        q = k == 0 ? 0.9 : k == 1 ? 0.4 : 0.3;
      else
        q = k == 0 ? 0.0 : 0.6;
    }
    r->ctrl0[a] = q;
    int j = m->actuator_jnt[a];
    if (j >= 0) r->qpos0[m->jnt_qposadr[j]] = q;
  }
  /* the hand tilted 20 deg fingers-down (gravity turned in the hand's frame): on the flat,
     level palm the ball rolls off; tilted, it rolls into the curled fingers and stays */
  double tilt = 20 * M_PI / 180;
  m->opt.gravity[0] = 9.81 * sin(tilt);
  m->opt.gravity[1] = 0;
  m->opt.gravity[2] = -9.81 * cos(tilt);
  snprintf(r->note, sizeof r->note, "ball from %.3f m (palm top %.4f m)", top + 0.1 + 0.03, top);
  return CS_OK;
}

/* Simulate the robot with the recording solver; problems into rec. */
static int robot_record(const Ctx* c, Robot* r, int solver, RecSet* rec, long* nan_steps) {
  csModel* m = r->m;
  m->opt.solver = solver;
  robot_reset(r);
  long N = lround(r->T / m->opt.timestep);
  *nan_steps = 0;
  for (long k = 0; k < N; k++) {
    if (k % 100 == 0) progress(c, "robots %s: recording %ld/%ld", r->name, k, N);
    robot_control(r);
    csStatus st = cs_step(m, r->d);
    if (st == CS_ERR_NUMERIC) {
      (*nan_steps)++;
      continue;
    }
    if (st != CS_OK) return 0;
    if (!rec_add(rec, r->d, k)) return 0;
  }
  return 1;
}

static void error_lines(const Ctx* c, const char* exp, const char* key, const char* val,
                        const char* err) {
  for (int i = 0; i < c->nsolver; i++) {
    Line L;
    line_begin(&L, c, exp, cs_solver_name((csSolverType)c->solver[i]));
    if (key) line_str(&L, key, val);
    line_str(&L, "error", err);
    line_end(&L, c);
  }
}

static void exp_robots(Ctx* c) {
  static const char* const names[3] = {"solo12", "talos", "allegro"};
  struct stat sb;
  if (stat(c->shared, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
    for (int k = 0; k < 3; k++)
      error_lines(c, "robots", "robot", names[k], "shared models not found");
    return;
  }
  FILE* fp = plot_open(c, "robots.dat");
  if (fp) fprintf(fp, "# robot solver us_cold us_warm eps_abs (blocks per robot)\n");
  int rec_solver = CS_SOLVER_NCP_ADMM;
  for (int k = 0; k < 3; k++) {
    Robot r;
    memset(&r, 0, sizeof r);
    r.name = names[k];
    r.T = c->robot_time;
    progress(c, "robots %s: loading", names[k]);
    csStatus st;
    /* PD gains: the spec's kp 100, kd 2, |tau| <= 80 for Solo-12; Talos (93 kg) topples
       with them within 2 s, so kp 3000, kd 30, |tau| <= 300 there */
    if (k == 0)
      st = robot_urdf(&r, c->shared, "solo12/robots/solo12.urdf", 0.0, 100, 2, 80);
    else if (k == 1)
      st = robot_urdf(&r, c->shared, "talos/robots/talos_full_v2.urdf", 0.02, 3000, 30, 300);
    else
      st = robot_allegro(&r, c->shared);
    if (st != CS_OK) {
      char err[600];
      snprintf(err, sizeof err, "model: %s", cs_last_error());
      for (char* p = err; *p; p++)
        if (*p == '"' || *p == '\\') *p = '\'';
      error_lines(c, "robots", "robot", names[k],
                  st == CS_ERR_IO ? "shared models not found" : err);
      robot_free(&r);
      continue;
    }
    RecSet rec;
    memset(&rec, 0, sizeof rec);
    long nan_steps = 0;
    log_run("robots", names[k], "recording");
    cb_log_left = 3;
    if (!robot_record(c, &r, rec_solver, &rec, &nan_steps)) {
      error_lines(c, "robots", "robot", names[k], "simulation failed");
      rec_free(&rec);
      robot_free(&r);
      continue;
    }
    if (rec.n == 0) {
      int mesh = 0;
      for (int g = 0; g < r.m->ngeom; g++) mesh |= r.m->geom_type[g] == CS_GEOM_MESH;
      error_lines(c, "robots", "robot", names[k],
                  mesh ? "mesh collision not available" : "no contacts along the trajectory");
      rec_free(&rec);
      robot_free(&r);
      continue;
    }
    ReplayRes* res = calloc((size_t)c->nsolver, sizeof(ReplayRes));
    if (!res) {
      rec_free(&rec);
      robot_free(&r);
      continue;
    }
    char what[64];
    snprintf(what, sizeof what, "robots %s", names[k]);
    log_run("robots", names[k], "replay");
    replay_all(c, what, &rec, c->solver, c->nsolver, CB_ROBOT_TOL, CB_CAP, res);
    if (fp) fprintf(fp, "# %s\n", names[k]);
    for (int i = 0; i < c->nsolver; i++) {
      const char* sn = cs_solver_name((csSolverType)c->solver[i]);
      Line L;
      line_begin(&L, c, "robots", sn);
      line_str(&L, "robot", names[k]);
      if (!res[i].ok) {
        line_str(&L, "error", "replay failed");
        line_end(&L, c);
        continue;
      }
      replay_fields(&L, &res[i], &rec);
      line_int(&L, "nv", r.m->nv);
      line_num(&L, "trajectory_s", r.T);
      line_str(&L, "recorded_with", cs_solver_name((csSolverType)rec_solver));
      line_int(&L, "steps_with_contacts", rec.n);
      if (nan_steps) line_int(&L, "nan_steps", nan_steps);
      line_num(&L, "tolerance", CB_ROBOT_TOL);
      line_int(&L, "cap", CB_CAP);
      line_end(&L, c);
      if (fp)
        fprintf(fp, "%s %s %.6g %.6g %.6g\n", names[k], sn, res[i].cold.us, res[i].warm.us,
                res[i].warm.eps_med);
    }
    if (fp) fprintf(fp, "\n\n");
    free(res);
    rec_free(&rec);
    robot_free(&r);
  }
  if (fp) {
    fclose(fp);
    FILE* f = plot_open(c, "robots.gp");
    if (f) {
      fprintf(f, gp_head, 1500, 520, "robots");
      fprintf(f,
              "set multiplot layout 1,3 title 'Time per contact solve along recorded "
              "trajectories, tol 1e-6, cap 1000: cold vs warm start [Fig. 16]'\n"
              "set style data histograms\nset style histogram clustered gap 1\n"
              "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
              "set logscale y\nset ylabel 'us per solve'\nset xtics rotate by -45 font ',8'\n"
              "set key inside left top\n"
              "do for [b=0:2] {\n"
              "  set title word('solo12 talos allegro', b+1)\n"
              "  plot 'robots.dat' index b u 3:xtic(2) t 'cold', '' index b u 4 t 'warm'\n"
              "}\nunset multiplot\n");
      fclose(f);
      plot_run(c, "robots");
    }
  }
}

/* ------------------------------------------------------------------ anymal_replay */
static void exp_anymal_replay(Ctx* c) {
  static const char* const tasks[4] = {"hang", "drop", "trot", "random"};
  int list[2] = {CS_SOLVER_BISECTION, CS_SOLVER_NCP_ADMM};
  int nl = 0, use[2];
  for (int i = 0; i < 2; i++) {
    int want = 0;
    for (int j = 0; j < c->nsolver; j++) want |= c->solver[j] == list[i];
    if (want && cs_solver_get((csSolverType)list[i])) use[nl++] = list[i];
  }
  if (nl == 0) return;
  FILE* fp = plot_open(c, "anymal_replay.dat");
  if (fp) fprintf(fp, "# task bisection_warm ncp_admm_warm bisection_cold ncp_admm_cold\n");
  for (int k = 0; k < 4; k++) {
    csScene s;
    progress(c, "anymal_replay %s: recording", tasks[k]);
    if (cs_scene_load(tasks[k], cs_cli_models_dir(), NAN, &s) != CS_OK) {
      error_lines(c, "anymal_replay", "task", tasks[k], "scene failed");
      continue;
    }
    s.m->opt.solver = CS_SOLVER_BISECTION;
    s.m->opt.tolerance = CB_ROBOT_TOL;
    s.m->opt.iterations = CB_ANYMAL_CAP;
    cs_scene_reset(&s);
    RecSet rec;
    memset(&rec, 0, sizeof rec);
    log_run("anymal_replay", tasks[k], "recording");
    int ok = 1;
    for (long n = 0; n < c->replay_steps && ok; n++) {
      if (n % 500 == 0) progress(c, "anymal_replay %s: recording %ld", tasks[k], n);
      cs_scene_control(&s, s.m, s.d);
      csStatus st = cs_step(s.m, s.d);
      if (st == CS_ERR_NUMERIC) {
        cs_data_set_state(s.m, s.d, s.qpos0, s.m->nq, s.qvel0, s.m->nv);
        continue;
      }
      if (st != CS_OK || !rec_add(&rec, s.d, n)) ok = 0;
    }
    cs_scene_free(&s);
    if (!ok) {
      error_lines(c, "anymal_replay", "task", tasks[k], "recording failed");
      rec_free(&rec);
      continue;
    }
    ReplayRes res[2];
    char what[64];
    snprintf(what, sizeof what, "anymal_replay %s", tasks[k]);
    log_run("anymal_replay", tasks[k], "replay");
    replay_all(c, what, &rec, use, nl, CB_ROBOT_TOL, CB_ANYMAL_CAP, res);
    double tb = NAN, ta = NAN, tbc = NAN, tac = NAN;
    for (int i = 0; i < nl; i++) {
      if (!res[i].ok) continue;
      if (use[i] == CS_SOLVER_BISECTION)
        tb = res[i].warm.us, tbc = res[i].cold.us;
      else
        ta = res[i].warm.us, tac = res[i].cold.us;
    }
    for (int i = 0; i < nl; i++) {
      Line L;
      line_begin(&L, c, "anymal_replay", cs_solver_name((csSolverType)use[i]));
      line_str(&L, "task", tasks[k]);
      if (!res[i].ok) {
        line_str(&L, "error", "replay failed");
        line_end(&L, c);
        continue;
      }
      replay_fields(&L, &res[i], &rec);
      line_int(&L, "steps", c->replay_steps);
      line_str(&L, "recorded_with", "bisection");
      line_num(&L, "tolerance", CB_ROBOT_TOL);
      line_int(&L, "cap", CB_ANYMAL_CAP);
      if (use[i] == CS_SOLVER_NCP_ADMM) {
        line_num(&L, "admm_over_bisection_warm", ta / tb);
        line_num(&L, "admm_over_bisection_cold", tac / tbc);
        line_int(&L, "within_2x", ta / tb <= 2.0);
      }
      line_end(&L, c);
    }
    if (fp) fprintf(fp, "%s %.6g %.6g %.6g %.6g\n", tasks[k], tb, ta, tbc, tac);
    rec_free(&rec);
  }
  if (fp) {
    fclose(fp);
    FILE* f = plot_open(c, "anymal_replay.gp");
    if (f) {
      fprintf(f, gp_head, 900, 500, "anymal_replay");
      fprintf(f,
              "set title 'ANYmal tasks: problems recorded along the bisection trajectory, "
              "tol 1e-6, cap 150'\n"
              "set style data histograms\nset style histogram clustered gap 1\n"
              "set style fill solid 0.8 border -1\nset logscale y\n"
              "set ylabel 'us per solve'\nset key inside left top\n"
              "plot 'anymal_replay.dat' u 2:xtic(1) t 'bisection warm', '' u 3 t 'ncp_admm "
              "warm', '' u 4 t 'bisection cold', '' u 5 t 'ncp_admm cold'\n");
      fclose(f);
      plot_run(c, "anymal_replay");
    }
  }
}

/* ------------------------------------------------------------------ main */
static void usage(FILE* f) {
  fprintf(f,
          "usage: contactsim bench contactbench [--experiment NAME|all] [--solvers a,b]\n"
          "                                     [--plot DIR] [--json] [--shared-models DIR]\n"
          "                                     [--repeats N] [--robot-time S]\n"
          "                                     [--replay-steps N]\n"
          "\n"
          "Paper 002 (ContactBench) section IV, docs/scenes.md: one line per experiment\n"
          "and solver (and per mass ratio, dt, tolerance, robot or task).\n"
          "\n"
          "  --experiment E   cube_slide, cube_push, stack_ratio, consistency_dt,\n"
          "                   consistency_eps, robots, anymal_replay, or all (default)\n"
          "  --solvers a,b    solver names (default: every solver of the table)\n"
          "  --plot DIR       write PNG plots (gnuplot) and their data into DIR\n"
          "  --json           one JSON object per line on stdout, nothing else\n"
          "  --shared-models DIR  the shared robot models (default $CONTACTSIM_SHARED_MODELS\n"
          "                   or ../shared/models beside the source tree)\n"
          "  --repeats N      timed passes over recorded problems (default 5; median)\n"
          "  --robot-time S   seconds of each robot trajectory (default 2)\n"
          "  --replay-steps N steps recorded per ANYmal task (default 10000)\n"
          "\n"
          "Fields (see the header of experiments/bench_contactbench.c for the definitions):\n"
          "  cube_slide: lateral_drift_m, max_height_m, energy_rel_err\n"
          "  cube_push: internal_force_N, internal_force_excess_N, internal_force_prefit_N,\n"
          "             slide_onset_s\n"
          "  stack_ratio: mass_ratio, eps_abs_final, iterations, converged\n"
          "  consistency_dt / consistency_eps: dt or tolerance, integral_err_m_s\n"
          "  robots: robot, us_per_solve_cold, us_per_solve_warm, eps_abs\n"
          "  anymal_replay: task, us_per_solve_cold, us_per_solve_warm, eps_abs,\n"
          "             admm_over_bisection_warm (ncp_admm line)\n");
}

static int add_solver(Ctx* c, int t) {
  for (int i = 0; i < c->nsolver; i++)
    if (c->solver[i] == t) return 1;
  if (c->nsolver >= CS_SOLVER_COUNT) return 0;
  c->solver[c->nsolver++] = t;
  return 1;
}

int cs_bench_contactbench_main(int argc, char** argv) {
  Ctx c;
  memset(&c, 0, sizeof c);
  c.repeats = 5;
  c.robot_time = 2.0;
  c.replay_steps = 10000;
  c.shared = getenv("CONTACTSIM_SHARED_MODELS");
  if (!c.shared || !*c.shared) c.shared = CS_SHARED_MODELS_DIR;
  const char* exp = "all";
  const char* solvers = NULL;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      c.json = 1;
    } else if (!strcmp(a, "--experiment") && v) {
      int ok = !strcmp(v, "all");
      for (int k = 0; cb_experiments[k]; k++) ok |= !strcmp(v, cb_experiments[k]);
      if (!ok) {
        fprintf(stderr, "bench contactbench: unknown experiment '%s' (try --help)\n", v);
        return 2;
      }
      exp = v, i++;
    } else if (!strcmp(a, "--solvers") && v) {
      solvers = v, i++;
    } else if (!strcmp(a, "--plot") && v) {
      c.plot = v, i++;
    } else if (!strcmp(a, "--shared-models") && v) {
      c.shared = v, i++;
    } else if (!strcmp(a, "--repeats") && v) {
      int n;
      if (!cs_cli_parse_int(v, 1, 1000, &n)) {
        fprintf(stderr, "bench contactbench: --repeats needs an integer in [1, 1000]\n");
        return 2;
      }
      c.repeats = n, i++;
    } else if (!strcmp(a, "--robot-time") && v) {
      double t;
      if (!cs_cli_parse_double(v, &t) || !(t > 0 && t <= 1000)) {
        fprintf(stderr, "bench contactbench: --robot-time needs seconds in (0, 1000]\n");
        return 2;
      }
      c.robot_time = t, i++;
    } else if (!strcmp(a, "--replay-steps") && v) {
      long n;
      if (!cs_cli_parse_long(v, 1, 100000000L, &n)) {
        fprintf(stderr, "bench contactbench: --replay-steps needs an integer in [1, 1e8]\n");
        return 2;
      }
      c.replay_steps = n, i++;
    } else {
      fprintf(stderr, "bench contactbench: unknown or incomplete argument '%s' (try --help)\n", a);
      return 2;
    }
  }
  if (solvers) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", solvers);
    for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
      int t = cs_solver_from_name(tok);
      if (t <= CS_SOLVER_NONE || !cs_solver_get((csSolverType)t)) {
        fprintf(stderr, "bench contactbench: solver '%s' unknown or not implemented\n", tok);
        return 2;
      }
      add_solver(&c, t);
    }
  } else {
    for (int k = 0; cb_order[k]; k++) {
      int t = cs_solver_from_name(cb_order[k]);
      if (t > CS_SOLVER_NONE && cs_solver_get((csSolverType)t)) add_solver(&c, t);
    }
    for (int t = 1; t < CS_SOLVER_COUNT; t++)
      if (cs_solver_get((csSolverType)t)) add_solver(&c, t);
  }
  if (c.nsolver == 0) {
    fprintf(stderr, "bench contactbench: no solver\n");
    return 2;
  }
  if (c.plot && mkdir(c.plot, 0777) && errno != EEXIST) {
    fprintf(stderr, "bench contactbench: cannot create %s: %s\n", c.plot, strerror(errno));
    return 1;
  }
  c.tty = isatty(2);
  cb_log_ctx = &c;
  cs_set_log(cb_log);
  int all = !strcmp(exp, "all");
  if (all || !strcmp(exp, "cube_slide")) exp_cube_slide(&c);
  if (all || !strcmp(exp, "cube_push")) exp_cube_push(&c);
  if (all || !strcmp(exp, "stack_ratio")) exp_stack_ratio(&c);
  if (all || !strcmp(exp, "consistency_dt")) exp_consistency(&c, 1);
  if (all || !strcmp(exp, "consistency_eps")) exp_consistency(&c, 0);
  if (all || !strcmp(exp, "robots")) exp_robots(&c);
  if (all || !strcmp(exp, "anymal_replay")) exp_anymal_replay(&c);
  progress_clear(&c);
  cs_set_log(NULL);
  return cb_failed ? 1 : 0;
}
