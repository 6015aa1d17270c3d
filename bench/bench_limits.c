/* contactsim bench limits --model FILE [--solver S] [--steps N] [--repeats R] [--json]

   The cost of joint-limit rows in the step (docs/constraints.md) on a robot with many
   limited joints (a fixed-base URDF: Talos' 30-odd limited joints): the model is driven by
   a constant torque on every limited joint towards the nearer bound of its range (half the
   gravity-free torque that moves the joint's subtree by 1 rad/s^2, sign alternating
   between joints), contacts, friction loss and equalities off, so most joints press against
   a bound and the limit rows are the whole problem. Batches of N steps
   with limits on and off alternate (R each, from the same start state); per step:
     us_per_step_limits / us_per_step_free   median over the batches (us)
     limit_cost_us                           their difference
     rows_mean                               limit rows per step (limits on)
     iterations_mean, converged_fraction     of the solver with limits on
     overshoot_max_rad                       the worst excursion past a bound (limits on)
   Uses the public API only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"

typedef struct LimRun {
  double rows, iters, conv, over; /* sums and the worst overshoot over the steps */
} LimRun;

static void usage(FILE* f) {
  fprintf(f,
          "usage: contactsim bench limits --model FILE [--solver S] [--steps N] [--repeats R]\n"
          "                               [--json]\n"
          "\n"
          "Step time with joint-limit rows against the same steps with limits off, on a\n"
          "model driven into its bounds (constant torques, contacts off).\n"
          "\n"
          "  --model FILE   .urdf (fixed base) or .xml model with limited joints (required)\n"
          "  --solver S     contact solver (default bisection)\n"
          "  --steps N      steps per batch (default 2000)\n"
          "  --repeats R    batches per setting, alternating (default 7)\n"
          "  --json         one JSON line\n"
          "  --help         this text\n");
}

/* The driving torques: towards the nearer bound of each limited 1-dof joint */
static void drive_torques(const csModel* m, csData* d, double* tau) {
  memset(tau, 0, sizeof(double) * (size_t)m->nv);
  cs_forward(m, d);
  for (int j = 0, s = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j];
    if (!m->jnt_limited[j] || (t != CS_JNT_REVOLUTE && t != CS_JNT_PRISMATIC)) continue;
    int dof = m->jnt_dofadr[j];
    double mid = 0.5 * (m->jnt_range[2 * j] + m->jnt_range[2 * j + 1]);
    double dir = d->qpos[m->jnt_qposadr[j]] >= mid ? 1 : -1;
    if (s++ & 1) dir = -dir;
    tau[dof] = 0.5 * dir * d->qM[m->dof_Madr[dof]];
  }
}

/* One batch of steps from the start state; its time per step (us) */
static double batch(const csModel* m, csData* d, const double* q0, const double* tau, int steps,
                    LimRun* r) {
  cs_data_reset(m, d);
  memcpy(d->qpos, q0, sizeof(double) * (size_t)m->nq);
  double t0 = cs_cli_now_ns();
  for (int k = 0; k < steps; k++) {
    memcpy(d->qfrc_applied, tau, sizeof(double) * (size_t)m->nv);
    if (cs_step(m, d) != CS_OK) return NAN;
    if (!r) continue;
    r->rows += d->problem.nblock;
    r->iters += d->solver_stats.iterations;
    r->conv += d->solver_stats.converged;
    for (int j = 0; j < m->njnt; j++) {
      int t = m->jnt_type[j];
      if (!m->jnt_limited[j] || (t != CS_JNT_REVOLUTE && t != CS_JNT_PRISMATIC)) continue;
      double q = d->qpos[m->jnt_qposadr[j]];
      double o = fmax(m->jnt_range[2 * j] - q, q - m->jnt_range[2 * j + 1]);
      if (o > r->over) r->over = o;
    }
  }
  return (cs_cli_now_ns() - t0) * 1e-3 / steps;
}

static int parse(int argc, char** argv, const char** model, int* solver, int* steps, int* reps,
                 int* json) {
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help")) {
      usage(stdout);
      exit(0);
    } else if (!strcmp(a, "--json")) {
      *json = 1;
    } else if (!strcmp(a, "--model") && v) {
      *model = v, i++;
    } else if (!strcmp(a, "--solver") && v) {
      *solver = cs_solver_from_name(v), i++;
      if (*solver <= 0 || !cs_solver_get((csSolverType)*solver)) {
        fprintf(stderr, "bench limits: --solver %s is not an implemented solver\n", v);
        return 0;
      }
    } else if (!strcmp(a, "--steps") && v && cs_cli_parse_int(v, 1, 100000000, steps)) {
      i++;
    } else if (!strcmp(a, "--repeats") && v && cs_cli_parse_int(v, 1, 100000, reps)) {
      i++;
    } else {
      fprintf(stderr, "bench limits: bad or incomplete option '%s' (try --help)\n", a);
      return 0;
    }
  }
  if (!*model) fprintf(stderr, "bench limits: --model FILE is required (try --help)\n");
  return *model != NULL;
}

static void report(const char* model, const csModel* m, int solver, int steps, double on,
                   double off, const LimRun* r, int json) {
  double n = steps;
  if (json) {
    printf("{\"bench\":\"limits\",\"model\":");
    cs_cli_json_str(stdout, model);
    printf(",\"solver\":\"%s\",\"nv\":%d,\"steps\":%d", cs_solver_name((csSolverType)solver), m->nv,
           steps);
    cs_cli_json_num(stdout, "us_per_step_limits", on);
    cs_cli_json_num(stdout, "us_per_step_free", off);
    cs_cli_json_num(stdout, "limit_cost_us", on - off);
    cs_cli_json_num(stdout, "rows_mean", r->rows / n);
    cs_cli_json_num(stdout, "iterations_mean", r->iters / n);
    cs_cli_json_num(stdout, "converged_fraction", r->conv / n);
    cs_cli_json_num(stdout, "overshoot_max_rad", r->over);
    printf("}\n");
    return;
  }
  printf("%s (nv %d), %s, %d steps per batch:\n", model, m->nv,
         cs_solver_name((csSolverType)solver), steps);
  printf("  step with limits %.3f us, without %.3f us: limit rows cost %.3f us per step\n", on, off,
         on - off);
  printf("  %.1f limit rows per step, %.1f iterations, converged %.4f, worst overshoot %.2e\n",
         r->rows / n, r->iters / n, r->conv / n, r->over);
}

int cs_bench_limits_main(int argc, char** argv) {
  const char* model = NULL;
  int solver = CS_SOLVER_BISECTION, steps = 2000, reps = 7, json = 0;
  if (!parse(argc, argv, &model, &solver, &steps, &reps, &json)) return 2;
  csModel* m = NULL;
  if (cs_load_model(model, NULL, &m) != CS_OK) {
    fprintf(stderr, "bench limits: %s\n", cs_last_error());
    return 1;
  }
  m->opt.solver = solver;
  m->opt.recovery_speed = 0; /* the plain Baumgarte rule, as the table in docs/constraints.md */
  m->opt.disable |= CS_DISABLE_CONTACT | CS_DISABLE_FRICTIONLOSS | CS_DISABLE_EQUALITY;
  csData* d = cs_data_new(m);
  double* tau = malloc(sizeof(double) * (size_t)(m->nv + 1));
  double* q0 = malloc(sizeof(double) * (size_t)(m->nq + 1));
  double* t_on = malloc(sizeof(double) * (size_t)reps);
  double* t_off = malloc(sizeof(double) * (size_t)reps);
  int rc = 1;
  if (d && tau && q0 && t_on && t_off) {
    memcpy(q0, d->qpos, sizeof(double) * (size_t)m->nq);
    drive_torques(m, d, tau);
    LimRun r = {0, 0, 0, 0};
    for (int k = 0; k < reps; k++) {
      m->opt.disable &= ~CS_DISABLE_LIMIT;
      t_on[k] = batch(m, d, q0, tau, steps, k == 0 ? &r : NULL);
      m->opt.disable |= CS_DISABLE_LIMIT;
      t_off[k] = batch(m, d, q0, tau, steps, NULL);
    }
    report(model, m, solver, steps, cs_cli_median(t_on, reps), cs_cli_median(t_off, reps), &r,
           json);
    rc = 0;
  }
  free(tau), free(q0), free(t_on), free(t_off);
  cs_data_free(d);
  cs_model_free(m);
  return rc;
}
