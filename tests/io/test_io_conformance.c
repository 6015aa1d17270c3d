/* Conformance of the shared robot files (docs/conformance.md): every URDF under
   ../shared/models/NAME/{urdf,robots}/ or NAME/ and every MJCF under
   ../shared/models/NAME/mjcf/, loaded as a user would (cs_load_options_default: the bounded
   penetration recovery of csOption.recovery_speed included; balance_inertia for the Allegro
   hands), zero controls, t_sim seconds from qpos0 (argument `--time T`; 0.5 s under the
   sanitizers).

   Floor: a URDF on a free joint, or an MJCF whose bodies hang on free joints, over a plane at
   the lowest collision point at qpos0 (cs_load_model_floor, `run --floor`), or on the file's
   own plane when it has one. Fixed: a URDF with its root link welded to the world, or an
   MJCF without free joints. Measured: finite throughout; the floor's normal force averaged
   over the last T_AVERAGE s against the weight of the bodies on free joints; kinetic energy
   at the end; the limit excess at qpos0, the time t_in every limited joint is first within
   LIMIT_IN of its range, the worst excess from then on; the largest rise of the total
   energy above its value at t_in.

   Checked: finite; limits within LIMIT_TOL from t_in on (a run shorter than T_SETTLED that
   has not reached t_in: the excess falling at half the recovery speed at least); fixed
   with an undamped joint: no energy rise above GAIN_TOL relative. Runs of T_SETTLED or more:
   floor: force = m g within FORCE_TOL and kinetic energy below KE_REST at the end; fixed with
   every joint damped: kinetic energy below KE_REST. A run on the exception list is checked
   for its stated behaviour instead; a file on the refusal list must fail to load with the
   stated words in its error. Skipped when ../shared is absent. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

#if defined(__SANITIZE_ADDRESS__)
#define T_SIM_DEFAULT 0.5 /* s: sanitizer build (Debug, about 30x slower) */
#else
#define T_SIM_DEFAULT 5.0 /* s */
#endif
#define T_AVERAGE 0.1  /* s the normal force is averaged over */
#define T_SETTLED 4.0  /* s: shorter runs skip the checks of a settled robot */
#define LIMIT_IN 1e-3  /* rad or m: a joint outside its range at qpos0 counts as in */
#define KE_REST 1e-4   /* J */
#define FORCE_TOL 0.01 /* relative */
#define LIMIT_TOL 1e-2 /* rad or m */
#define GAIN_TOL 1e-3  /* relative to max(1 J, |E0|) */

static double t_sim = T_SIM_DEFAULT;

typedef struct {
  const char* file; /* model file name */
  int floating;     /* 1: on a floor, 0: fixed base */
  int bad;          /* not finite or a step failed */
  double t;         /* s simulated */
  double force;     /* floor's normal force averaged over the last T_AVERAGE s / (m g) */
  double mass;      /* kg: the free bodies (floating) */
  double ke;        /* J at the end */
  double excess0;   /* worst limit excess at qpos0 (rad or m) */
  double t_in;      /* s: the first time every limited joint is within LIMIT_IN of its range */
  double excess;    /* worst limit excess from t_in on (rad or m) */
  double excess1;   /* limit excess at the end */
  double e_in;      /* J: total energy at t_in */
  double gain;      /* J: largest E - e_in from t_in on */
  double e_end;     /* J: total energy at the end */
  double v;         /* csOption.recovery_speed */
  double damp_min;  /* smallest damping of a hinge or slide dof (N m s / rad or N s / m) */
} Result;

/* A run that does not meet the settled checks, why, and what is checked instead
   (docs/conformance.md) */
typedef struct {
  const char* suffix; /* end of the path */
  int floating;       /* the run it is about */
  double ke_bound;    /* J: the kinetic energy bound at the end instead of KE_REST; < 0: none,
                         the energy must fall from t_in to the end instead */
  const char* reason;
} Exception;

static const Exception exceptions[] = {
    {"panda/urdf/panda.urdf", 0, -1,
     "joint damping 0.003 N m s: the arm still swings after 60 s (energy falling)"},
    {"panda/urdf/panda_collision.urdf", 0, -1,
     "joint damping 0.003 N m s: the arm still swings after 60 s (energy falling)"},
    {NULL, 0, 0, NULL},
};

/* A file that must not load and the words its error must contain */
typedef struct {
  const char* suffix;
  const char* words;
  const char* reason;
} Refusal;

static const Refusal refusals[] = {
    {"compass_gait/CompassGait.urdf", "planar", "planar joints are not supported"},
    {"allegro_hand/mjcf/right_hand.xml", "mass 0",
     "its assets/ folder is absent: the bodies' masses come from the visual meshes"},
    {NULL, NULL, NULL},
};

static int ends_with(const char* path, const char* suffix) {
  size_t l = strlen(path), k = strlen(suffix);
  return l >= k && !strcmp(path + l - k, suffix);
}

static const Exception* exception_for(const char* path, int floating) {
  for (const Exception* e = exceptions; e->suffix; e++)
    if (e->floating == floating && ends_with(path, e->suffix)) return e;
  return NULL;
}

static const Refusal* refusal_for(const char* path) {
  for (const Refusal* r = refusals; r->suffix; r++)
    if (ends_with(path, r->suffix)) return r;
  return NULL;
}

/* A load that failed: expected (with its words) for a file on the refusal list, else a
   failure; 0 */
static int refused(const char* name, const char* path) {
  const Refusal* r = refusal_for(path);
  const char* err = cs_last_error();
  CHECK_MSG(r && strstr(err, r->words), "%s: %s", name, err);
  printf("| %s | - | refused (%s): %s |\n", name, r ? r->reason : "unexpected", err);
  return 0;
}

static int all_finite(const double* x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

/* Total mechanical energy of the state in d (the stages it needs recomputed: after a step
   they hold the step's start); the kinetic part into *ke */
static double total_energy(const csModel* m, csData* d, double* ke) {
  cs_kinematics(m, d);
  cs_com_pos(m, d);
  cs_com_vel(m, d);
  cs_energy(m, d);
  if (ke) *ke = d->energy[1];
  return d->energy[0] + d->energy[1];
}

/* Worst excursion of a limited hinge or slide beyond its range, 0 when all are inside */
static double limit_excess(const csModel* m, const csData* d) {
  double worst = 0;
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_limited[j] || m->jnt_type[j] == CS_JNT_BALL || m->jnt_type[j] == CS_JNT_FREE)
      continue;
    double q = d->qpos[m->jnt_qposadr[j]];
    worst = fmax(worst, fmax(m->jnt_range[2 * j] - q, q - m->jnt_range[2 * j + 1]));
  }
  return worst;
}

/* Mass of the bodies whose tree hangs on a free joint */
static double free_mass(const csModel* m) {
  double s = 0;
  for (int b = 1; b < m->nbody; b++) {
    int r = m->body_rootid[b], j = m->body_jntadr[r];
    if (j >= 0 && m->jnt_type[j] == CS_JNT_FREE) s += m->body_mass[b];
  }
  return s;
}

static int has_plane(const csModel* m) {
  for (int g = 0; g < m->ngeom; g++)
    if (m->geom_type[g] == CS_GEOM_PLANE) return 1;
  return 0;
}

/* Smallest damping of the hinge and slide dofs (+inf when there are none) */
static double min_damping(const csModel* m) {
  double c = INFINITY;
  for (int j = 0; j < m->njnt; j++)
    if (m->jnt_type[j] == CS_JNT_REVOLUTE || m->jnt_type[j] == CS_JNT_PRISMATIC)
      c = fmin(c, m->dof_damping[m->jnt_dofadr[j]]);
  return c;
}

/* Normal force on the planes this step (N) */
static double plane_force(const csModel* m, const csData* d) {
  double f = 0;
  for (int c = 0; c < d->ncon; c++)
    if (m->geom_type[d->contact[c].geom[0]] == CS_GEOM_PLANE) f += d->contact[c].lambda[0];
  return f / m->opt.timestep;
}

/* From the first step every limited joint is within LIMIT_IN of its range: the energy there,
   the worst excess and the energy rise after it (the energy every 10 steps) */
static void after_in(const csModel* m, csData* d, Result* r, int k, int last) {
  double ex = limit_excess(m, d);
  if (r->t_in < 0 && ex <= LIMIT_IN) {
    r->t_in = d->time;
    r->e_in = total_energy(m, d, NULL);
  }
  if (r->t_in < 0 && !last) return;
  r->excess = fmax(r->excess, ex);
  if (r->t_in >= 0 && (k % 10 == 0 || last))
    r->gain = fmax(r->gain, total_energy(m, d, &r->ke) - r->e_in);
}

/* t_sim s of m from qpos0, zero controls, into r */
static void simulate(const csModel* m, Result* r) {
  csData* d = cs_data_new(m);
  CHECK_MSG(d != NULL, "%s: %s", r->file, cs_last_error());
  if (!d) return;
  double h = m->opt.timestep, fsum = 0;
  int n = (int)lround(t_sim / h), navg = (int)lround(T_AVERAGE / h), k = 0;
  r->mass = free_mass(m);
  r->damp_min = min_damping(m);
  r->v = m->opt.recovery_speed;
  r->excess0 = limit_excess(m, d);
  r->t_in = -1;
  for (; k < n && !r->bad; k++) {
    r->bad = cs_step(m, d) != CS_OK || !all_finite(d->qpos, m->nq) || !all_finite(d->qvel, m->nv);
    if (k >= n - navg) fsum += plane_force(m, d);
    after_in(m, d, r, k, k == n - 1 || r->bad);
  }
  r->t = k * h;
  r->e_end = total_energy(m, d, &r->ke);
  r->excess1 = limit_excess(m, d);
  double mg = r->mass * fabs(m->opt.gravity[2]);
  r->force = mg > 0 ? fsum / navg / mg : NAN;
  cs_data_free(d);
}

static void print_row(const Result* r) {
  char in[32] = "never";
  if (r->t_in >= 0) snprintf(in, sizeof in, "%.3f", r->t_in);
  printf(
      "| %s | %s | %s %.1f s | %.6f | %.2e | %.2e | %s | %.2e | %.2e | %.2e of %.4g | %+.3e | %g "
      "|\n",
      r->file, r->floating ? "floor" : "fixed", r->bad ? "NOT FINITE at" : "yes", r->t, r->force,
      r->ke, r->excess0, in, r->excess, r->excess1, r->gain, r->e_in, r->e_end - r->e_in,
      r->damp_min);
}

/* The energy rise after t_in within GAIN_TOL of the energy there */
static void check_no_gain(const Result* r) {
  CHECK_MSG(r->gain <= GAIN_TOL * fmax(1, fabs(r->e_in)),
            "%s %s: energy rose %.3e J (at t_in %.6g J)", r->file, r->floating ? "floor" : "fixed",
            r->gain, r->e_in);
}

/* The checks of r (or, for a run on the exception list, of its stated behaviour) */
static void check_result(const char* path, const Result* r) {
  const Exception* e = exception_for(path, r->floating);
  const char* base = r->floating ? "floor" : "fixed";
  CHECK_MSG(!r->bad, "%s %s: not finite (or a step failed) at %.3f s", r->file, base, r->t);
  if (r->t_in < 0 &&
      t_sim < T_SETTLED) /* a short run: coming in at half the recovery speed at least */
    CHECK_MSG(r->excess1 <= r->excess0 - 0.5 * r->v * r->t,
              "%s %s: a joint %.3g beyond its limit, %.3g at qpos0", r->file, base, r->excess1,
              r->excess0);
  else
    CHECK_MSG(r->t_in >= 0 && r->excess <= LIMIT_TOL,
              "%s %s: a joint %.3g beyond its limit (in at %.3f s)", r->file, base, r->excess,
              r->t_in);
  if (!r->floating && !(r->damp_min > 0)) check_no_gain(r); /* undamped: conserved at most */
  if (t_sim < T_SETTLED || r->bad) return;                  /* short runs: not settled */
  if (e) printf("  %s %s: exception: %s\n", r->file, base, e->reason);
  double ke_bound = e ? e->ke_bound : KE_REST;
  if (r->floating)
    CHECK_MSG(fabs(r->force - 1) <= FORCE_TOL, "%s floor: normal force %.6f m g", r->file,
              r->force);
  if (r->floating || r->damp_min > 0) {
    if (ke_bound >= 0)
      CHECK_MSG(r->ke < ke_bound, "%s %s: kinetic energy %.3e J at the end", r->file, base, r->ke);
    else {
      check_no_gain(r);
      CHECK_MSG(r->e_end < r->e_in, "%s %s: energy %.6g J at the end, %.6g J at t_in", r->file,
                base, r->e_end, r->e_in);
    }
  }
}

/* The file name after "models/" */
static const char* short_name(const char* path) {
  const char* s = strstr(path, "models/");
  return s ? s + 7 : path;
}

static void run_model(const char* path, csModel* m, int floating) {
  Result r = {0};
  r.file = short_name(path);
  r.floating = floating;
  simulate(m, &r);
  print_row(&r);
  check_result(path, &r);
}

static void load_options(const char* path, int floating, csLoadOptions* o) {
  cs_load_options_default(o);
  o->floating_base = floating;
  o->balance_inertia = strstr(path, "allegro") != NULL;
}

/* A URDF floating over a floor and on a fixed base; the compass gait's planar joint refused */
static int conform_urdf(const char* path) {
  csLoadOptions o;
  csModel* m = NULL;
  load_options(path, 1, &o);
  csStatus st = cs_load_model_floor(path, &o, &m, NULL);
  CHECK_MSG(st != CS_OK || !refusal_for(path), "%s: loaded", short_name(path));
  if (st != CS_OK) return refused(short_name(path), path);
  run_model(path, m, 1);
  cs_model_free(m);
  m = NULL;
  load_options(path, 0, &o);
  st = cs_load_model(path, &o, &m);
  CHECK_MSG(st == CS_OK, "%s fixed: %s", short_name(path), cs_last_error());
  if (m) run_model(path, m, 0);
  cs_model_free(m);
  return 1;
}

/* An MJCF as its file has it (its own plane), or over a floor when it has free bodies and no
   plane; a file whose assets are absent must name the missing one */
static int conform_mjcf(const char* path) {
  csLoadOptions o;
  csModel* m = NULL;
  load_options(path, 1, &o);
  csStatus st = cs_load_model(path, &o, &m);
  CHECK_MSG(st != CS_OK || !refusal_for(path), "%s: loaded", short_name(path));
  if (st != CS_OK) return refused(short_name(path), path);
  int floating = free_mass(m) > 0;
  if (floating && !has_plane(m)) {
    cs_model_free(m);
    m = NULL;
    st = cs_load_model_floor(path, &o, &m, NULL);
    CHECK_MSG(st == CS_OK, "%s on a floor: %s", short_name(path), cs_last_error());
  }
  if (m) run_model(path, m, floating);
  cs_model_free(m);
  return 1;
}

/* conform on every file of dir/NAME/sub/ ending in ext; the files that loaded */
static int each_file(const char* dir, const char* sub, const char* ext,
                     int (*conform)(const char*)) {
  DIR* top = opendir(dir);
  int n = 0;
  if (!top) return 0;
  for (struct dirent* e; (e = readdir(top)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    char sd[2048];
    snprintf(sd, sizeof sd, "%s/%s%s%s", dir, e->d_name, *sub ? "/" : "", sub);
    DIR* md = opendir(sd);
    if (!md) continue;
    for (struct dirent* f; (f = readdir(md)) != NULL;) {
      size_t l = strlen(f->d_name), k = strlen(ext);
      if (l < k || strcmp(f->d_name + l - k, ext) != 0) continue;
      char file[4096];
      snprintf(file, sizeof file, "%s/%s", sd, f->d_name);
      n += conform(file);
    }
    closedir(md);
  }
  closedir(top);
  return n;
}

int main(int argc, char** argv) {
  if (argc == 3 && !strcmp(argv[1], "--time")) t_sim = atof(argv[2]);
  if (!(t_sim > 0)) {
    fprintf(stderr, "usage: test_io_conformance [--time SECONDS]\n");
    return 2;
  }
  const char* dir = cs_test_shared("models");
  if (!dir) {
    printf("test_io_conformance: ../shared/models absent, skipped\n");
    return CS_SKIP_CODE;
  }
  char models[4096];
  snprintf(models, sizeof models, "%s", dir);
  cs_set_log(NULL);
  printf("%.1f s, zero controls\n", t_sim);
  printf(
      "| file | base | finite | normal force / m g | kinetic at end (J) | limit excess at qpos0 "
      "| t_in (s) | worst excess from t_in | excess at end | energy rise from t_in (J) of E(t_in) "
      "| E(end) - E(t_in) (J) | least damping |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  int n = each_file(models, "urdf", ".urdf", conform_urdf);
  n += each_file(models, "robots", ".urdf", conform_urdf);
  n += each_file(models, "", ".urdf", conform_urdf);
  n += each_file(models, "mjcf", ".xml", conform_mjcf);
  CHECK_MSG(n >= 12, "models loaded: %d", n);
  return cs_test_finish("test_io_conformance");
}
