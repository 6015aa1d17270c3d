/* contactsim run / check */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/cs_traj.h"
#include "cs_cli.h"
#include "cs_scene.h"
#include "cs_util.h"

/* The largest --dt accepted (s): beyond it a step is no time step of a multibody model */
#define RUN_DT_MAX 1.0

/* 1 if argument a appears among argv[1..i) */
static int seen_before(char** argv, int i, const char* a) {
  for (int k = 1; k < i; k++)
    if (!strcmp(argv[k], a)) return 1;
  return 0;
}

/* argv[0] is the command's name (run, check): messages are "contactsim CMD: ..." */
int cs_cli_model_option(int argc, char** argv, int i, csLoadOptions* o, int* consumed) {
  *consumed = 0;
  const char* a = argv[i];
  int fixed = !strcmp(a, "--fixed-base"), floating = !strcmp(a, "--floating-base");
  if ((fixed && seen_before(argv, i, "--floating-base")) ||
      (floating && seen_before(argv, i, "--fixed-base"))) {
    fprintf(stderr, "contactsim %s: --fixed-base and --floating-base: give one of them\n", argv[0]);
    return -1;
  }
  if (fixed || floating) {
    o->floating_base = floating;
    *consumed = 1;
  } else if (!strcmp(a, "--balance-inertia")) {
    o->balance_inertia = 1;
    *consumed = 1;
  } else if (!strcmp(a, "--self-collision")) {
    o->self_collision = 1;
    *consumed = 1;
  } else if (!strcmp(a, "--package-path")) {
    if (!cs_cli_needs_value(argv[0], argc, argv, i)) return -1;
    if (seen_before(argv, i, a)) {
      fprintf(stderr, "contactsim %s: --package-path given twice (join directories with ':')\n",
              argv[0]);
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

/* ------------------------------------------------------------------ run */
static void run_usage(FILE* f) {
  fprintf(
      f,
      "usage: contactsim run MODEL [options]\n"
      "       contactsim run --scene NAME [options]\n"
      "  --scene NAME       a built-in scene: hang drop trot random (ANYmal C),\n"
      "                     cube_slide cube_push stack_ratio (ContactBench cubes),\n"
      "                     pile (boxes of 0.1 m dropped in a grid onto a plane),\n"
      "                     bin (the same boxes packed between four walls: one island)\n"
      "  --ratio R          stack_ratio: top/bottom mass ratio, > 0 (default 1)\n"
      "  --boxes N          pile, bin: number of boxes, 1 to %d (default %d)\n"
      "  --steps N          number of steps, >= 0 (default 1000)\n"
      "  --dt S             time step in seconds, > 0 and <= %g (default: the model's)\n"
      "  --solver S         contact solver (default: the model's; list below)\n"
      "  --fallback F       where the bisection's sweeps stall, hand the rest to solver F,\n"
      "                     or 'none' (default: ncp_admm; docs/solvers.md)\n"
      "  --tol T            solver tolerance, >= 0 (default: the model's, 1e-6; cube\n"
      "                     scenes 1e-8); 0 iterates to the cap\n"
      "  --iterations N     solver iteration cap, >= 1 (default: the model's, 150; cube\n"
      "                     scenes 1000)\n"
      "  --out FILE.csv     write time, qpos, qvel, contacts, energy per step (default: none)\n"
      "  --traj FILE.h5     write the trajectory for viewers and Python: the model's geoms\n"
      "                     and meshes, then per saved step qpos, qvel, body poses,\n"
      "                     contacts with forces, energy (HDF5; docs/trajectory.md)\n"
      "                     (default: none)\n"
      "  --every K          write every K-th step to --out and --traj, >= 1 (default 1)\n"
      "  --dump-fclib F     write the contact problem (and its solution) of one step to the\n"
      "                     FCLIB local file F (HDF5), for replay by any solver; if no\n"
      "                     step qualifies, nothing is written and the exit status is 1\n"
      "                     (default: none)\n"
      "  --dump-step K      the step to dump, 0 to N-1 (default: the first with contacts)\n"
      "MODEL files only:\n"
      "  --key K            start from keyframe K of the model (its name or index)\n"
      "                     (default: the model's qpos0, zero velocity and controls)\n"
      "  --qpos V1,V2,...   start from these nq positions (after --key; default: qpos0)\n"
      "  --qvel V1,V2,...   start with these nv velocities (after --key; default: 0)\n"
      "  --ctrl U1,U2,...   hold these nu actuator controls (default: 0, or --key's)\n"
      "  --ctrl-file F.csv  controls over time: header 'time' then actuator names or\n"
      "                     u1..unu, one row per change; a row holds from its time to the\n"
      "                     next row's (piecewise constant; docs/install.md)\n"
      "  --floor            add a ground plane (geom 'floor') at the height of the\n"
      "                     model's lowest collision point at its initial pose (default: off)\n"
      "  --fixed-base       URDF: weld the root link to the world\n"
      "  --floating-base    URDF: attach the root link by a free joint (default)\n"
      "  --package-path P   URDF: directories for package:// URIs, ':'-separated\n"
      "                     (default: none)\n"
      "  --balance-inertia  repair inertias violating the triangle inequality (noted)\n"
      "                     (default: off)\n"
      "  --self-collision   URDF: let the robot's links collide with each other (default: off)\n"
      "  --no-gravity       disable gravity (default: the model's gravity)\n"
      "  --no-contact       disable contacts (default: contacts on)\n"
      "Each option once. Exit status: 0 done, 1 a file or the simulation failed, 2 bad\n"
      "command line (including values that do not fit the model: --qpos, --key).\n"
      "Scenes are defined in docs/scenes.md; their models are in %s\n"
      "(override with the environment variable CONTACTSIM_MODELS).\n",
      CS_SCENE_PILE_MAX, CS_SCENE_PILE_DEFAULT, RUN_DT_MAX, cs_cli_models_dir());
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

/* The options of run that take a value (bit k of runOpts.given: option k was given) */
enum {
  R_SCENE,
  R_RATIO,
  R_BOXES,
  R_STEPS,
  R_DT,
  R_SOLVER,
  R_FALLBACK,
  R_TOL,
  R_ITERS,
  R_OUT,
  R_EVERY,
  R_DUMP,
  R_DUMP_STEP,
  R_KEY,
  R_QPOS,
  R_QVEL,
  R_CTRL,
  R_CTRL_FILE,
  R_TRAJ,
  R_NVALUE
};
static const char* const run_value_names[R_NVALUE] = {
    "--scene",  "--ratio",      "--boxes",     "--steps",      "--dt",
    "--solver", "--fallback",   "--tol",       "--iterations", "--out",
    "--every",  "--dump-fclib", "--dump-step", "--key",        "--qpos",
    "--qvel",   "--ctrl",       "--ctrl-file", "--traj"};

/* --ctrl-file's table: rows of (time, controls of the columns' actuators) */
typedef struct {
  int ncol;             /* columns after time */
  int* act;             /* (ncol) the actuator of each column */
  long nrow, cap, next; /* next: the first row not yet in effect */
  double* time;         /* (nrow) increasing */
  double* u;            /* (nrow x ncol) */
} runCtrlFile;

/* The options of contactsim run (as given; solver_type: the --solver name's type, or -1) */
typedef struct {
  const char* model;
  const char* val[R_NVALUE]; /* the value of each option with one, as given */
  unsigned given;            /* bit k: value option k given */
  long dump_step;
  long steps, every, iters, boxes;
  double dt, tol, ratio;
  double dt_model; /* the model's time step (before --dt) */
  int floor;       /* --floor */
  int nograv, nocontact, solver_type, fallback_type;
  csLoadOptions lo;
  runCtrlFile ctrl_file;
  csTrajWriter* traj; /* --traj's writer */
  double traj_s;      /* seconds spent in cs_traj_write */
  long traj_frames;
} runOpts;

static int given(const runOpts* o, int k) { return (o->given >> k) & 1u; }

/* Option k's value v read into o: 1, or 0 (reported) */
static int run_set_value(runOpts* o, int k, const char* v) {
  const char* n = run_value_names[k];
  o->val[k] = v;
  switch (k) {
    case R_RATIO:
      return cs_cli_number("run", n, v, 0, 1, INFINITY, "must be a number > 0", &o->ratio);
    case R_BOXES:
      return cs_cli_count("run", n, v, 1, CS_SCENE_PILE_MAX, &o->boxes);
    case R_STEPS:
      return cs_cli_count("run", n, v, 0, LONG_MAX, &o->steps);
    case R_DT:
      return cs_cli_number("run", n, v, 0, 1, RUN_DT_MAX,
                           "must be a number of seconds > 0 and <= 1 (a time step above 1 s "
                           "is no time step of a multibody model)",
                           &o->dt);
    case R_TOL:
      return cs_cli_number("run", n, v, 0, 0, INFINITY, "must be a finite number >= 0", &o->tol);
    case R_ITERS:
      return cs_cli_count("run", n, v, 1, INT_MAX, &o->iters);
    case R_EVERY:
      return cs_cli_count("run", n, v, 1, LONG_MAX, &o->every);
    case R_DUMP_STEP:
      return cs_cli_count("run", n, v, 0, LONG_MAX, &o->dump_step);
    default: /* names, files and lists: checked later */
      return 1;
  }
}

/* The index of value option a, or -1 */
static int run_value_index(const char* a) {
  for (int k = 0; k < R_NVALUE; k++)
    if (!strcmp(a, run_value_names[k])) return k;
  return -1;
}

/* A flag of run (no value): 1 if a is one (set in o; given twice is harmless), else 0 */
static int run_flag(runOpts* o, const char* a) {
  if (!strcmp(a, "--no-gravity"))
    o->nograv = 1;
  else if (!strcmp(a, "--no-contact"))
    o->nocontact = 1;
  else if (!strcmp(a, "--floor"))
    o->floor = 1;
  else
    return 0;
  return 1;
}

/* The option loop: -1 when all were read, else the exit code (--help: 0; an unknown option,
   a missing or bad value, an option given twice, a second MODEL: 2, reported) */
static int run_parse_options(int argc, char** argv, runOpts* o) {
  for (int i = 1; i < argc; i++) {
    int used, k;
    const char* a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      run_usage(stdout);
      return 0;
    }
    if (cs_cli_model_option(argc, argv, i, &o->lo, &used) < 0) return 2;
    if (used) {
      i += used - 1;
    } else if (run_flag(o, a)) {
      continue;
    } else if ((k = run_value_index(a)) >= 0) {
      if (!cs_cli_needs_value("run", argc, argv, i) || !cs_cli_once("run", a, &o->given, 1u << k) ||
          !run_set_value(o, k, argv[++i]))
        return 2;
    } else if (a[0] != '-' && !o->model) {
      o->model = a;
    } else if (a[0] != '-') {
      fprintf(stderr, "contactsim run: one MODEL only ('%s' and '%s')\n", o->model, a);
      return 2;
    } else {
      fprintf(stderr, "contactsim run: unknown option '%s' (try --help)\n", a);
      return 2;
    }
  }
  return -1;
}

/* 0 if option k is not given with a --scene, else 2 (reported) */
static int run_model_only(const runOpts* o, int k, const char* name) {
  if (!o->val[R_SCENE] || !(k < 0 ? o->floor : given(o, k))) return 0;
  fprintf(stderr, "contactsim run: %s applies to a MODEL file, not to --scene\n", name);
  return 2;
}

/* --solver and --fallback looked up: 0, or 2 (reported) */
static int run_check_solvers(runOpts* o) {
  const char* s = o->val[R_SOLVER];
  if (s) {
    o->solver_type = cs_solver_from_name(s);
    if (o->solver_type < 0 ||
        (o->solver_type != CS_SOLVER_NONE && !cs_solver_get((csSolverType)o->solver_type))) {
      fprintf(stderr,
              "contactsim run: --solver '%s': unknown solver or not implemented (try "
              "--help for the list)\n",
              s);
      return 2;
    }
  }
  const char* fb = o->val[R_FALLBACK];
  if (fb) {
    int none = !strcmp(fb, "none");
    o->fallback_type = none ? -1 : cs_solver_from_name(fb);
    if ((!none && o->fallback_type <= 0) ||
        (o->fallback_type > 0 && !cs_solver_get((csSolverType)o->fallback_type))) {
      fprintf(stderr, "contactsim run: --fallback '%s' is not an implemented solver or 'none'\n",
              fb);
      return 2;
    }
  }
  return 0;
}

/* --dump-fclib and --dump-step together: 0 if usable, else the exit code (reported) */
static int run_check_dump(const runOpts* o) {
  if (given(o, R_DUMP_STEP) && !o->val[R_DUMP]) {
    fprintf(stderr, "contactsim run: --dump-step needs --dump-fclib\n");
    return 2;
  }
  if (!o->val[R_DUMP]) return 0;
  if (o->nocontact) {
    fprintf(stderr, "contactsim run: --dump-fclib with --no-contact: no step has contacts\n");
    return 2;
  }
  if (given(o, R_DUMP_STEP) && o->dump_step >= o->steps) {
    fprintf(stderr,
            "contactsim run: --dump-step %ld: not a step of the run (--steps %ld: 0 to %ld)\n",
            o->dump_step, o->steps, o->steps - 1);
    return 2;
  }
  if (o->steps == 0) {
    fprintf(stderr, "contactsim run: --dump-fclib with --steps 0: no step to dump\n");
    return 2;
  }
  if (!cs_have_fclib()) {
    fprintf(stderr, "contactsim run: --dump-fclib: this build has no FCLIB support (libfclib)\n");
    return 1;
  }
  return 0;
}

/* The options' combination: 0 if usable (the solvers' types looked up), else the exit code
   with the reason */
static int run_check_options(runOpts* o) {
  const char* scene = o->val[R_SCENE];
  if (!o->model == !scene) {
    fprintf(stderr, "contactsim run: give a MODEL file or --scene NAME (one of them)\n");
    run_usage(stderr);
    return 2;
  }
  if (given(o, R_RATIO) && (!scene || strcmp(scene, "stack_ratio"))) {
    fprintf(stderr, "contactsim run: --ratio applies to --scene stack_ratio only\n");
    return 2;
  }
  if (given(o, R_BOXES) && (!scene || (strcmp(scene, "pile") && strcmp(scene, "bin")))) {
    fprintf(stderr, "contactsim run: --boxes applies to --scene pile and bin only\n");
    return 2;
  }
  int rc = run_model_only(o, -1, "--floor");
  for (int k = R_KEY; k <= R_CTRL_FILE && !rc; k++) rc = run_model_only(o, k, run_value_names[k]);
  if (rc) return rc;
  if (given(o, R_CTRL) && given(o, R_CTRL_FILE)) {
    fprintf(stderr, "contactsim run: --ctrl and --ctrl-file: give one of them\n");
    return 2;
  }
  if ((rc = run_check_dump(o))) return rc;
  if (o->val[R_TRAJ] && !cs_have_traj()) {
    fprintf(stderr, "contactsim run: --traj: this build has no HDF5 (libfclib and libhdf5)\n");
    return 1;
  }
  return run_check_solvers(o);
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

/* ------------------------------------------------------------------ start state, controls */
/* --key: d reset to the keyframe named key, or of index key; 0, or 2 (reported) */
static int run_reset_key(const csModel* m, csData* d, const char* key) {
  int k = cs_name2id(m, "key", key);
  char* end;
  long i = strtol(key, &end, 10);
  if (k < 0 && end != key && !*end && i >= 0 && i < m->nkey) k = (int)i;
  if (k < 0) {
    fprintf(stderr,
            "contactsim run: --key '%s': no keyframe of that name or index (%d keyframes)\n", key,
            m->nkey);
    return 2;
  }
  if (cs_data_reset_key(m, d, k) != CS_OK) {
    fprintf(stderr, "contactsim run: --key '%s': %s\n", key, cs_last_error());
    return 2;
  }
  return 0;
}

/* The comma-separated numbers s of option opt into out[0..n), n the model's `what` (nq, nv,
   nu): 1, else 0 (reported: a field that is not a finite number, or their count) */
static int run_parse_vector(const char* opt, const char* s, int n, const char* what, double* out) {
  if (n == 0) {
    fprintf(stderr, "contactsim run: %s: the model has %s = 0\n", opt, what);
    return 0;
  }
  int k = 0;
  for (const char* p = s;; k++) {
    size_t len = strcspn(p, ",");
    char* end;
    double v = strtod(p, &end);
    if (end == p || end != p + len || !isfinite(v)) {
      fprintf(stderr, "contactsim run: %s: value %d '%.*s' is not a finite number\n", opt, k + 1,
              (int)(len < 40 ? len : 40), p);
      return 0;
    }
    if (k < n) out[k] = v;
    if (!p[len]) break;
    p += len + 1;
  }
  if (k + 1 != n) {
    fprintf(stderr, "contactsim run: %s: %d values given, the model has %s = %d\n", opt, k + 1,
            what, n);
    return 0;
  }
  return 1;
}

/* --qpos, --qvel, --ctrl applied to d (after --key): 0, or 2 (reported) */
static int run_initial_state(const runOpts* o, const csModel* m, csData* d) {
  int n = m->nq > m->nv ? m->nq : m->nv;
  n = n > m->nu ? n : m->nu;
  double* v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (!v) return 2;
  int rc = 0;
  if (o->val[R_QPOS] && !run_parse_vector("--qpos", o->val[R_QPOS], m->nq, "nq", v)) rc = 2;
  if (!rc && o->val[R_QPOS]) memcpy(d->qpos, v, sizeof(double) * (size_t)m->nq);
  if (!rc && o->val[R_QVEL] && !run_parse_vector("--qvel", o->val[R_QVEL], m->nv, "nv", v)) rc = 2;
  if (!rc && o->val[R_QVEL]) memcpy(d->qvel, v, sizeof(double) * (size_t)m->nv);
  if (!rc && o->val[R_CTRL] && !run_parse_vector("--ctrl", o->val[R_CTRL], m->nu, "nu", v)) rc = 2;
  if (!rc && o->val[R_CTRL]) memcpy(d->ctrl, v, sizeof(double) * (size_t)m->nu);
  free(v);
  return rc;
}

/* The fields of line (split at ',' in place, blanks around each trimmed) into f[0..max):
   their count, or max + 1 if there are more */
static int split_fields(char* line, char** f, int max) {
  int n = 0;
  for (char* p = line;; n++) {
    char* e = p + strcspn(p, ",");
    int last = !*e;
    *e = 0;
    while (*p == ' ' || *p == '\t') p++;
    for (char* t = e; t > p && (t[-1] == ' ' || t[-1] == '\t'); t--) t[-1] = 0;
    if (n == max) return max + 1;
    f[n] = p;
    if (last) return n + 1;
    p = e + 1;
  }
}

/* The header's column names (after "time") as actuators into c->act: 0, or 1 (reported) */
static int ctrl_header(const char* path, long ln, char** f, int nf, const csModel* m,
                       runCtrlFile* c) {
  if (strcmp(f[0], "time")) {
    fprintf(stderr,
            "contactsim run: --ctrl-file %s:%ld: the header's first column is '%s', not "
            "'time'\n",
            path, ln, f[0]);
    return 1;
  }
  c->ncol = nf - 1;
  for (int j = 0; j < c->ncol; j++) {
    const char* s = f[j + 1];
    int a = cs_name2id(m, "actuator", s);
    long u;
    if (a < 0 && s[0] == 'u' && cs_cli_parse_long(s + 1, 1, m->nu, &u)) a = (int)u - 1;
    for (int i = 0; i < j && a >= 0; i++)
      if (c->act[i] == a) a = -2;
    if (a < 0) {
      if (a == -2)
        fprintf(stderr, "contactsim run: --ctrl-file %s:%ld: column %d '%s' repeats an actuator\n",
                path, ln, j + 2, s);
      else
        fprintf(stderr,
                "contactsim run: --ctrl-file %s:%ld: column %d '%s' names no actuator of the "
                "model, nor u1..u%d\n",
                path, ln, j + 2, s, m->nu);
      return 1;
    }
    c->act[j] = a;
  }
  return 0;
}

/* One data row into the table (grown as needed): 0, or 1 (reported) */
static int ctrl_row(const char* path, long ln, char** f, int nf, runCtrlFile* c) {
  if (nf != c->ncol + 1) {
    fprintf(stderr, "contactsim run: --ctrl-file %s:%ld: %s%d fields, the header has %d\n", path,
            ln, nf > c->ncol + 1 ? "more than " : "", nf > c->ncol + 1 ? c->ncol + 1 : nf,
            c->ncol + 1);
    return 1;
  }
  if (c->nrow == c->cap) {
    long cap = c->cap ? 2 * c->cap : 64;
    double* t = realloc(c->time, sizeof(double) * (size_t)cap);
    if (t) c->time = t;
    double* u = t ? realloc(c->u, sizeof(double) * (size_t)cap * (size_t)(c->ncol + 1)) : NULL;
    if (!u) {
      fprintf(stderr, "contactsim run: --ctrl-file %s:%ld: out of memory\n", path, ln);
      return 1;
    }
    c->u = u, c->cap = cap;
  }
  double* row = c->u + c->nrow * c->ncol;
  for (int j = 0; j < nf; j++) {
    double v;
    if (!cs_cli_parse_double(f[j], &v)) {
      fprintf(stderr, "contactsim run: --ctrl-file %s:%ld: column %d '%s' is not a finite number\n",
              path, ln, j + 1, f[j]);
      return 1;
    }
    if (j == 0 && c->nrow > 0 && !(v > c->time[c->nrow - 1])) {
      fprintf(stderr,
              "contactsim run: --ctrl-file %s:%ld: time %g is not after the previous row's "
              "%g\n",
              path, ln, v, c->time[c->nrow - 1]);
      return 1;
    }
    if (j == 0)
      c->time[c->nrow] = v;
    else
      row[j - 1] = v;
  }
  c->nrow++;
  return 0;
}

static void run_ctrl_file_free(runCtrlFile* c) {
  free(c->act);
  free(c->time);
  free(c->u);
  memset(c, 0, sizeof *c);
}

/* --ctrl-file read into c (blank lines and lines starting with '#' skipped; the first other
   line is the header): 0, or 1 (reported, c freed) */
static int run_ctrl_file_load(const char* path, const csModel* m, runCtrlFile* c) {
  memset(c, 0, sizeof *c);
  if (m->nu == 0) {
    fprintf(stderr, "contactsim run: --ctrl-file %s: the model has nu = 0 (no actuators)\n", path);
    return 1;
  }
  FILE* fp = fopen(path, "r");
  c->act = malloc(sizeof(int) * (size_t)(m->nu + 1));
  char** f = malloc(sizeof(char*) * (size_t)(m->nu + 2));
  char* line = NULL;
  size_t cap = 0;
  long ln = 0;
  int rc = 0, header = 1;
  if (!fp) fprintf(stderr, "contactsim run: --ctrl-file %s: cannot read it\n", path);
  rc = !fp || !c->act || !f;
  while (!rc && getline(&line, &cap, fp) >= 0) {
    ln++;
    line[strcspn(line, "\r\n")] = 0;
    if (!line[strspn(line, " \t")] || line[0] == '#') continue;
    int nf = split_fields(line, f, m->nu + 1);
    rc = header ? ctrl_header(path, ln, f, nf > m->nu + 1 ? m->nu + 1 : nf, m, c)
                : ctrl_row(path, ln, f, nf, c);
    if (header && !rc && nf > m->nu + 1) {
      fprintf(stderr, "contactsim run: --ctrl-file %s:%ld: more columns than time and nu = %d\n",
              path, ln, m->nu);
      rc = 1;
    }
    header = 0;
  }
  if (!rc && !c->nrow) {
    fprintf(stderr, "contactsim run: --ctrl-file %s: no %s\n", path,
            header ? "header" : "data row");
    rc = 1;
  }
  free(line);
  free(f);
  if (fp) fclose(fp);
  if (rc) run_ctrl_file_free(c);
  return rc;
}

/* The controls of the row in effect at d->time into d->ctrl: the last row whose time is at
   most d->time + dt/2 (so a row takes effect at the step nearest its time); none before the
   first row's time */
static void run_ctrl_file_apply(runCtrlFile* c, const csModel* m, csData* d) {
  double t = d->time + 0.5 * m->opt.timestep;
  while (c->next < c->nrow && c->time[c->next] <= t) c->next++;
  if (c->next == 0) return;
  const double* u = c->u + (c->next - 1) * c->ncol;
  for (int j = 0; j < c->ncol; j++) d->ctrl[c->act[j]] = u[j];
}

/* ------------------------------------------------------------------ run: setup, loop */
/* The scene (its model path into o->model), or the model file with new data and its start
   state (--key, --qpos, --qvel, --ctrl, --ctrl-file) */
static int run_load(runOpts* o, csScene* sc, csModel** mp, csData** dp) {
  const char* scene = o->val[R_SCENE];
  if (scene) {
    double param = given(o, R_BOXES) ? (double)o->boxes : o->ratio;
    csStatus st = cs_scene_load(scene, cs_cli_models_dir(), param, sc);
    if (st == CS_ERR_ARG) {
      fprintf(stderr, "contactsim run: --scene '%s': unknown scene; scenes:", scene);
      for (const char* const* n = cs_scene_all_names(); *n; n++) fprintf(stderr, " %s", *n);
      fprintf(stderr, "\n");
      return 2;
    }
    if (st != CS_OK) {
      fprintf(stderr, "contactsim run: scene %s: %s\n", scene, cs_last_error());
      return 1;
    }
    *mp = sc->m, *dp = sc->d;
    o->model = sc->model_path;
    return -1;
  }
  csModel* m = o->floor ? run_load_floor(o->model, &o->lo) : cs_cli_load(o->model, &o->lo);
  if (!m) return 1;
  csData* d = cs_data_new(m);
  int rc = d ? -1 : 1;
  if (!d) fprintf(stderr, "contactsim run: %s\n", cs_last_error());
  if (rc < 0 && o->val[R_KEY] && (rc = run_reset_key(m, d, o->val[R_KEY])) == 0) rc = -1;
  if (rc < 0 && (rc = run_initial_state(o, m, d)) == 0) rc = -1;
  if (rc < 0 && o->val[R_CTRL_FILE] && run_ctrl_file_load(o->val[R_CTRL_FILE], m, &o->ctrl_file))
    rc = 1;
  if (rc >= 0) {
    cs_data_free(d);
    cs_model_free(m);
    return rc;
  }
  *mp = m, *dp = d;
  return -1;
}

/* The model (run_load), then the options that override the model's. -1 on success, else
   the exit code (an unknown scene or a value that does not fit the model: 2; a load
   failure: 1). */
static int run_setup(runOpts* o, csScene* sc, csModel** mp, csData** dp) {
  int rc = run_load(o, sc, mp, dp);
  if (rc >= 0) return rc;
  csModel* m = *mp;
  o->dt_model = m->opt.timestep;
  if (given(o, R_DT)) m->opt.timestep = o->dt;
  if (o->nograv) m->opt.disable |= CS_DISABLE_GRAVITY;
  if (o->nocontact) m->opt.disable |= CS_DISABLE_CONTACT;
  if (o->solver_type >= 0) m->opt.solver = o->solver_type;
  if (o->val[R_FALLBACK]) m->opt.fallback = o->fallback_type;
  if (given(o, R_TOL)) m->opt.tolerance = o->tol;
  if (given(o, R_ITERS)) m->opt.iterations = (int)o->iters;
  return -1;
}

/* The trajectory file with its header line, or NULL (reported) if it cannot be written */
static FILE* run_open_trajectory(const char* out, const csModel* m) {
  FILE* f = fopen(out, "w");
  if (!f) {
    fprintf(stderr, "contactsim run: --out %s: cannot write it\n", out);
    return NULL;
  }
  fprintf(f, "time");
  for (int i = 0; i < m->nq; i++) fprintf(f, ",qpos%d", i);
  for (int i = 0; i < m->nv; i++) fprintf(f, ",qvel%d", i);
  fprintf(f, ",ncon,energy_potential,energy_kinetic,penetration_max,iterations,eps_abs\n");
  return f;
}

/* --dump-fclib: step k's contact problem written if it is the one asked for (or the first
   with contacts), once (o->val[R_DUMP] cleared). 0, or 1 if writing failed. */
static int run_dump(runOpts* o, csData* d, long k) {
  const char* dump = o->val[R_DUMP];
  if (!(dump && d->ncon && (o->dump_step < 0 || o->dump_step == k))) return 0;
  char title[1300];
  snprintf(title, sizeof title, "contactsim %s step %ld t=%g", o->model, k, d->time);
  csStatus ds = cs_fclib_write_local(dump, &d->problem, d->efc_lambda, title);
  if (ds != CS_OK) {
    fprintf(stderr, "contactsim run: --dump-fclib: %s\n", cs_last_error());
    return 1;
  }
  printf("step %ld: contact problem with %d contacts written to %s\n", k, d->ncon, dump);
  o->val[R_DUMP] = NULL;
  return 0;
}

/* --traj: d's frame appended (timed); 0, or 1 (reported) */
static int run_traj_frame(runOpts* o, const csModel* m, const csData* d) {
  double t0 = cs_cli_now_ns();
  csStatus st = cs_traj_write(o->traj, m, d);
  o->traj_s += 1e-9 * (cs_cli_now_ns() - t0);
  o->traj_frames++;
  if (st == CS_OK) return 0;
  fprintf(stderr, "contactsim run: --traj: %s\n", cs_last_error());
  return 1;
}

/* What the summary line counts over the steps */
typedef struct {
  long con_sum, iter_sum, unconverged;
  long island_sum, island_steps; /* the steps whose problem was stored by islands */
} runStats;

/* A failed step k reported, with a hint when --dt set a time step above the model's */
static void run_step_failed(const runOpts* o, const csModel* m, long k) {
  fprintf(stderr, "contactsim run: step %ld failed: %s\n", k, cs_last_error());
  if (given(o, R_DT) && m->opt.timestep > o->dt_model)
    fprintf(stderr,
            "contactsim run: --dt %g is above the model's time step %g: the state may have "
            "diverged; try a smaller --dt\n",
            m->opt.timestep, o->dt_model);
}

/* The steps (the scene's control or --ctrl-file's row before each), a trajectory row every
   o->every steps (the last state included), the dump, the counts, and a progress bar for
   long runs (cs_cli_progress). 0, or 1 if a step or the dump failed. */
static int run_loop(runOpts* o, csScene* sc, csModel* m, csData* d, FILE* f, runStats* s) {
  long steps = o->steps;
  int rc = 0;
  csCliProgress pr;
  cs_cli_progress_start(&pr);
  for (long k = 0; k <= steps; k++) {
    if (f && k % o->every == 0) write_row(f, m, d);
    if (o->traj && k % o->every == 0 && run_traj_frame(o, m, d)) {
      rc = 1;
      break;
    }
    if (k == steps) break;
    if (o->val[R_SCENE]) cs_scene_control(sc, m, d);
    if (o->ctrl_file.nrow) run_ctrl_file_apply(&o->ctrl_file, m, d);
    if (cs_step(m, d) != CS_OK) {
      run_step_failed(o, m, k);
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
    cs_cli_progress(&pr, "contactsim run", k + 1, steps, "steps");
  }
  cs_cli_progress_end(&pr, "contactsim run", steps, "steps");
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
  printf(", %d warnings%s%s\n", nw, o->val[R_OUT] ? ", trajectory in " : "",
         o->val[R_OUT] ? o->val[R_OUT] : "");
  if (o->traj_frames)
    printf("trajectory file %s: %ld frames, %.3g us per frame written\n", o->val[R_TRAJ],
           o->traj_frames, 1e6 * o->traj_s / (double)o->traj_frames);
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

/* --dump-fclib with nothing written (no step qualified): reported, 1 */
static int run_dump_missed(const runOpts* o) {
  const char* dump = o->val[R_DUMP];
  if (o->dump_step >= 0)
    fprintf(stderr,
            "contactsim run: --dump-fclib: nothing written to %s: step %ld had no contacts\n", dump,
            o->dump_step);
  else
    fprintf(stderr, "contactsim run: --dump-fclib: nothing written to %s: no step had contacts\n",
            dump);
  return 1;
}

int cs_cli_run(int argc, char** argv) {
  runOpts o = {.dump_step = -1, .steps = 1000, .every = 1, .ratio = NAN, .solver_type = -1};
  cs_load_options_default(&o.lo);
  int rc = run_parse_options(argc, argv, &o);
  if (rc >= 0) return rc;
  if ((rc = run_check_options(&o))) return rc;
  csScene sc;
  memset(&sc, 0, sizeof sc);
  csModel* m = NULL;
  csData* d = NULL;
  if ((rc = run_setup(&o, &sc, &m, &d)) >= 0) return rc;
  rc = 0;
  FILE* f = NULL;
  const char* out = o.val[R_OUT];
  if (out && !(f = run_open_trajectory(out, m))) {
    rc = 1;
  } else if (o.val[R_TRAJ] && cs_traj_create(o.val[R_TRAJ], m, 0, &o.traj) != CS_OK) {
    fprintf(stderr, "contactsim run: --traj: %s\n", cs_last_error());
    rc = 1;
  } else {
    runStats s = {0, 0, 0, 0, 0};
    if (run_loop(&o, &sc, m, d, f, &s)) rc = 1;
    run_summary(&o, m, d, &s);
    run_notes_summary(m);
    if (!rc && o.val[R_DUMP]) rc = run_dump_missed(&o);
  }
  if (f) fclose(f);
  if (o.traj && cs_traj_close(o.traj) != CS_OK) {
    fprintf(stderr, "contactsim run: --traj: %s\n", cs_last_error());
    rc = 1;
  }
  run_ctrl_file_free(&o.ctrl_file);
  if (o.val[R_SCENE]) {
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

/* The sensors: their count, values and names by type (nothing for a model without) */
static void print_sensors(const csModel* m) {
  if (!m->nsensor) return;
  printf("sensors      %d (%d values):", m->nsensor, m->nsensordata);
  for (int i = 0; i < m->nsensor && i < 8; i++)
    printf(" %s", m->names + m->sensor_name[i]);
  printf("%s\n", m->nsensor > 8 ? " ..." : "");
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

static void check_usage(FILE* f) {
  fprintf(
      f,
      "usage: contactsim check MODEL [options]\n"
      "Loads and compiles the model (.xml MJCF or .urdf); prints sizes, memory, total\n"
      "mass, the constraints beyond contacts (joint limits, friction loss, equalities),\n"
      "and every attribute or element the loader read but contactsim does not simulate.\n"
      "  --fixed-base       URDF: weld the root link to the world\n"
      "  --floating-base    URDF: attach the root link by a free joint (default)\n"
      "  --package-path P   URDF: directories for package:// URIs, ':'-separated\n"
      "                     (default: none)\n"
      "  --balance-inertia  repair inertias violating the triangle inequality (noted)\n"
      "                     (default: off)\n"
      "  --self-collision   URDF: let the robot's links collide with each other (default: off)\n"
      "Exit status: 0 loaded, 1 the model failed to load, 2 bad command line.\n");
}

int cs_cli_check(int argc, char** argv) {
  const char* model = NULL;
  csLoadOptions lo;
  cs_load_options_default(&lo);
  for (int i = 1; i < argc; i++) {
    int used;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      check_usage(stdout);
      return 0;
    }
    if (cs_cli_model_option(argc, argv, i, &lo, &used) < 0) return 2;
    if (used) {
      i += used - 1;
    } else if (argv[i][0] != '-' && !model) {
      model = argv[i];
    } else if (argv[i][0] != '-') {
      fprintf(stderr, "contactsim check: one MODEL only ('%s' and '%s')\n", model, argv[i]);
      return 2;
    } else {
      fprintf(stderr, "contactsim check: unknown option '%s' (try --help)\n", argv[i]);
      return 2;
    }
  }
  if (!model) {
    fprintf(stderr, "contactsim check: missing MODEL\n");
    check_usage(stderr);
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
  print_sensors(m);
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
