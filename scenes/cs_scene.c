/* Built-in scenes (docs/scenes.md) and their controller. Public API only. */
#include "cs_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum {
  TASK_HANG,
  TASK_DROP,
  TASK_TROT,
  TASK_RANDOM,
  TASK_CUBE_SLIDE,
  TASK_CUBE_PUSH,
  TASK_STACK,
  TASK_PILE,
  TASK_BIN
};

/* The scenes in task order; cs_scene_names() is the list without the sized scenes (pile,
   bin), which tests/data/determinism_hashes.txt pins. */
static const char* const cs_scene_all[] = {"hang",       "drop",      "trot",        "random",
                                           "cube_slide", "cube_push", "stack_ratio", "pile",
                                           "bin",        NULL};
static const char* const cs_scene_list[] = {"hang",       "drop",      "trot",        "random",
                                            "cube_slide", "cube_push", "stack_ratio", NULL};

const char* const* cs_scene_names(void) { return cs_scene_list; }
const char* const* cs_scene_all_names(void) { return cs_scene_all; }

static unsigned long long splitmix(unsigned long long* s) {
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double cs_scene_uniform(unsigned long long* state) {
  return (double)(splitmix(state) >> 11) * 0x1.0p-53;
}

double cs_scene_gauss(unsigned long long* state) {
  /* Box-Muller on two uniforms in (0, 1]; one normal per call (the second is dropped, so the
     sequence does not depend on call parity) */
  double u1 = ((double)(splitmix(state) >> 11) + 1.0) * 0x1.0p-53;
  double u2 = (double)(splitmix(state) >> 11) * 0x1.0p-53;
  return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* ANYmal C nominal stance (docs/scenes.md): HAA 0; LF, RF: HFE +0.4, KFE -0.8;
   LH, RH: HFE -0.4, KFE +0.8. */
static const char* const cs_legs[4] = {"LF", "RF", "LH", "RH"};

static csStatus scene_anymal(csScene* s, const char* dir) {
  snprintf(s->model_path, sizeof s->model_path, "%s/anymal_c.xml", dir);
  csLoadOptions lo;
  cs_load_options_default(&lo);
  csStatus st = cs_load_model(s->model_path, &lo, &s->m);
  if (st != CS_OK) return st;
  csModel* m = s->m;
  csSceneCtl* c = &s->ctl;
  s->qpos0 = calloc((size_t)m->nq, sizeof(double));
  s->qvel0 = calloc((size_t)m->nv, sizeof(double));
  if (!s->qpos0 || !s->qvel0) return CS_ERR_MEMORY;
  /* PD torques through qfrc_applied; the file's servos are off, as on the MuJoCo side; no
     joint limits and no friction loss (docs/scenes.md), on both sides */
  m->opt.disable |= CS_DISABLE_ACTUATION | CS_DISABLE_LIMIT | CS_DISABLE_FRICTIONLOSS;
  c->kp = 100, c->kd = 2, c->tau_max = 80;
  c->npd = 0;
  for (int l = 0; l < 4; l++) {
    const char* jn[3] = {"HAA", "HFE", "KFE"};
    int front = l < 2;
    double nom[3] = {0, front ? 0.4 : -0.4, front ? -0.8 : 0.8};
    for (int k = 0; k < 3; k++) {
      char name[16];
      snprintf(name, sizeof name, "%s_%s", cs_legs[l], jn[k]);
      int j = cs_name2id(m, "joint", name);
      if (j < 0) return CS_ERR_MODEL;
      int i = c->npd++;
      s->pd_jnt[i] = j;
      s->pd_qadr[i] = m->jnt_qposadr[j];
      s->pd_dof[i] = m->jnt_dofadr[j];
      c->qnom[i] = c->qref[i] = nom[k];
      c->lo[i] = m->jnt_limited[j] ? m->jnt_range[2 * j] : -INFINITY;
      c->hi[i] = m->jnt_limited[j] ? m->jnt_range[2 * j + 1] : INFINITY;
    }
  }
  /* start state: q_nom, base upright (the file's yaw kept), at 1 m or standing */
  memcpy(s->qpos0, m->qpos0, sizeof(double) * (size_t)m->nq);
  for (int i = 0; i < c->npd; i++) s->qpos0[s->pd_qadr[i]] = c->qnom[i];
  int torso = cs_name2id(m, "geom", "torso");
  if (c->task == TASK_HANG && torso >= 0) m->geom_contype[torso] = m->geom_conaffinity[torso] = 0;
  if (c->task == TASK_TROT) {
    /* feet-sphere centres are 0.519 m below the base origin at q_nom; radius 0.03 */
    s->qpos0[2] = 0.519 + 0.03;
  } else {
    s->qpos0[2] = 1.0;
  }
  if (c->task == TASK_DROP) {
    /* 1 m/s along the robot's own forward axis (body x, world -x with the file's yaw) */
    double w = s->qpos0[3], z = s->qpos0[6], x = s->qpos0[4], y = s->qpos0[5];
    double fx = 1 - 2 * (y * y + z * z), fy = 2 * (x * y + w * z);
    s->qvel0[0] = fx, s->qvel0[1] = fy;
  }
  return CS_OK;
}

int cs_scene_free_box(csBuilder* b, const char* name, const double pos[3], double yaw, double mass,
                      double edge, double mu) {
  csBodySpec bs;
  cs_body_spec_default(&bs);
  bs.name = name;
  bs.parent = 0;
  memcpy(bs.pos, pos, sizeof bs.pos);
  bs.quat[0] = cos(0.5 * yaw), bs.quat[1] = bs.quat[2] = 0, bs.quat[3] = sin(0.5 * yaw);
  bs.mass = mass;
  double I = mass * (2 * edge * edge) / 12.0;
  bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = I;
  int body = cs_builder_add_body(b, &bs);
  if (body < 0) return 0;
  csJointSpec js;
  cs_joint_spec_default(&js);
  js.name = name, js.body = body, js.type = CS_JNT_FREE;
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.name = name, g.body = body, g.type = CS_GEOM_BOX, g.friction = mu;
  g.size[0] = g.size[1] = g.size[2] = 0.5 * edge;
  return cs_builder_add_joint(b, &js) >= 0 && cs_builder_add_geom(b, &g) >= 0;
}

/* A free 0.2 m cube of the stack (mu 0.4) at height z: 1, or 0 if the builder refused it
   (its error text stands). */
static int stack_cube(csBuilder* b, const char* name, double mass, double z) {
  const double pos[3] = {0, 0, z};
  return cs_scene_free_box(b, name, pos, 0, mass, 0.2, 0.4);
}

static csStatus scene_stack(csScene* s, double ratio) {
  csBuilder* b = cs_builder_new();
  if (!b) return CS_ERR_MEMORY;
  cs_builder_set_source(b, "stack_ratio");
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.name = "floor", g.type = CS_GEOM_PLANE, g.friction = 0.4, g.body = 0;
  const char* names[2] = {"bottom", "top"};
  double mass[2] = {1e-3, 1e-3 * ratio};
  int ok = cs_builder_add_geom(b, &g) >= 0;
  for (int k = 0; k < 2 && ok; k++) ok = stack_cube(b, names[k], mass[k], 0.1 + 0.2 * k);
  csStatus st = ok ? cs_compile(b, &s->m) : CS_ERR_MODEL;
  cs_builder_free(b);
  if (st != CS_OK) return st;
  snprintf(s->model_path, sizeof s->model_path, "(built in: stack_ratio %g)", ratio);
  s->mass_ratio = ratio;
  return CS_OK;
}

/* The pile of n boxes (cs_scene_pile.c); its start state is the model's qpos0, at rest. */
static csStatus scene_pile(csScene* s, double n) {
  if (!(n >= 1 && n <= CS_SCENE_PILE_MAX && n == floor(n))) return CS_ERR_ARG;
  csStatus st = cs_scene_pile_model((int)n, &s->m);
  if (st == CS_OK) snprintf(s->model_path, sizeof s->model_path, "(built in: pile %d)", (int)n);
  return st;
}

/* The bin of n boxes (cs_scene_pile.c); its start state is the model's qpos0, at rest. */
static csStatus scene_bin(csScene* s, double n) {
  if (!(n >= 1 && n <= CS_SCENE_PILE_MAX && n == floor(n))) return CS_ERR_ARG;
  csStatus st = cs_scene_bin_model((int)n, &s->m);
  if (st == CS_OK) snprintf(s->model_path, sizeof s->model_path, "(built in: bin %d)", (int)n);
  return st;
}

csStatus cs_scene_load(const char* name, const char* dir, double param, csScene* s) {
  memset(s, 0, sizeof *s);
  int task = -1;
  for (int i = 0; cs_scene_all[i]; i++)
    if (!strcmp(name, cs_scene_all[i])) task = i;
  if (task < 0) return CS_ERR_ARG;
  snprintf(s->name, sizeof s->name, "%s", name);
  s->ctl.task = task;
  csStatus st;
  if (task <= TASK_RANDOM) {
    st = scene_anymal(s, dir);
  } else if (task == TASK_STACK) {
    st = scene_stack(s, isnan(param) ? 1.0 : param);
  } else if (task == TASK_PILE) {
    st = scene_pile(s, isnan(param) ? CS_SCENE_PILE_DEFAULT : param);
  } else if (task == TASK_BIN) {
    st = scene_bin(s, isnan(param) ? CS_SCENE_PILE_DEFAULT : param);
  } else {
    snprintf(s->model_path, sizeof s->model_path, "%s/cube.xml", dir);
    csLoadOptions lo;
    cs_load_options_default(&lo);
    st = cs_load_model(s->model_path, &lo, &s->m);
  }
  if (st != CS_OK) {
    cs_scene_free(s);
    return st;
  }
  csModel* m = s->m;
  m->opt.recovery_speed = 0; /* every scene keeps the plain Baumgarte rule (docs/scenes.md) */
  if (!s->qpos0) {
    s->qpos0 = calloc((size_t)m->nq, sizeof(double));
    s->qvel0 = calloc((size_t)m->nv, sizeof(double));
    if (!s->qpos0 || !s->qvel0) {
      cs_scene_free(s);
      return CS_ERR_MEMORY;
    }
    memcpy(s->qpos0, m->qpos0, sizeof(double) * (size_t)m->nq);
  }
  if (task == TASK_CUBE_SLIDE) {
    s->qvel0[0] = cos(M_PI / 6), s->qvel0[1] = sin(M_PI / 6);
  }
  if (task == TASK_CUBE_SLIDE || task == TASK_CUBE_PUSH || task == TASK_STACK) {
    m->opt.tolerance = 1e-8; /* ContactBench: 1e-8 on each solver's criterion, cap 1000 */
    m->opt.iterations = 1000;
  }
  s->d = cs_data_new(m);
  s->work = calloc((size_t)(m->nv > 0 ? m->nv : 1), sizeof(double));
  if (!s->d || !s->work) {
    cs_scene_free(s);
    return CS_ERR_MEMORY;
  }
  cs_scene_reset(s);
  return CS_OK;
}

void cs_scene_reset(csScene* s) {
  cs_data_reset(s->m, s->d);
  cs_data_set_state(s->m, s->d, s->qpos0, s->m->nq, s->qvel0, s->m->nv);
  /* M at the start state, for the kinetic energy of the first control call (the result is
     not used otherwise; a failure here shows again, and is reported, at the first step) */
  (void)cs_forward(s->m, s->d);
  cs_scene_ctl_start(&s->ctl);
  s->resets = 0;
}

/* ------------------------------------------------------------------ the controller */
void cs_scene_ctl_start(csSceneCtl* c) {
  c->still_time = 0;
  c->next_ref = 0;
  c->next_reset = 5.0;
  c->rng = 1;
  c->resets = 0;
  memset(c->push_force, 0, sizeof c->push_force);
  for (int i = 0; i < c->npd; i++) c->qref[i] = c->qnom[i];
}

int cs_scene_ctl_wants_energy(const csSceneCtl* c) { return c->task == TASK_DROP; }

int cs_scene_ctl_update(csSceneCtl* c, double t, double dt, double kinetic) {
  int reset = 0;
  switch (c->task) {
    case TASK_DROP:
      if (kinetic < 1e-3)
        c->still_time += dt;
      else
        c->still_time = 0;
      if (c->still_time >= 0.5 - 0.5 * dt) {
        c->still_time = 0;
        reset = 1;
      }
      break;
    case TASK_TROT: {
      double w = 2 * M_PI * 2;
      for (int l = 0; l < 4 && 3 * l + 2 < c->npd; l++) {
        double p = (l == 0 || l == 3) ? 0 : M_PI; /* LF, RH: 0; RF, LH: pi */
        c->qref[3 * l + 0] = c->qnom[3 * l + 0];
        c->qref[3 * l + 1] = c->qnom[3 * l + 1] + 0.3 * sin(w * t + p);
        c->qref[3 * l + 2] = c->qnom[3 * l + 2] + 0.6 * sin(w * t + p + M_PI / 2);
      }
      break;
    }
    case TASK_RANDOM:
      if (t >= c->next_reset - 0.5 * dt) {
        c->next_reset += 5.0;
        reset = 1;
      }
      if (t >= c->next_ref - 0.5 * dt) {
        for (int i = 0; i < c->npd; i++) {
          double q = c->qnom[i] + cs_scene_gauss(&c->rng);
          c->qref[i] = q < c->lo[i] ? c->lo[i] : q > c->hi[i] ? c->hi[i] : q;
        }
        c->next_ref += 0.1;
      }
      break;
    case TASK_CUBE_PUSH:
      c->push_force[0] = 10 * t;
      break;
    default:
      break;
  }
  c->resets += reset;
  return reset;
}

int cs_scene_ctl_torques(const csSceneCtl* c, const double* q, const double* qd, double* tau) {
  if (c->task != TASK_TROT && c->task != TASK_RANDOM) return 0;
  for (int i = 0; i < c->npd; i++) {
    double f = c->kp * (c->qref[i] - q[i]) - c->kd * qd[i];
    tau[i] = f > c->tau_max ? c->tau_max : f < -c->tau_max ? -c->tau_max : f;
  }
  return 1;
}

/* ------------------------------------------------------------------ our side */
void cs_scene_control(csScene* s, const csModel* m, csData* d) {
  csSceneCtl* c = &s->ctl;
  memset(d->qfrc_applied, 0, sizeof(double) * (size_t)m->nv);
  double kinetic = 0;
  if (cs_scene_ctl_wants_energy(c)) {
    /* 0.5 v^T M v with the M of the last step (as MuJoCo's mj_energyVel) */
    cs_mul_m(m, d, s->work, d->qvel);
    for (int i = 0; i < m->nv; i++) kinetic += 0.5 * d->qvel[i] * s->work[i];
  }
  if (cs_scene_ctl_update(c, d->time, m->opt.timestep, kinetic)) {
    cs_data_set_state(m, d, s->qpos0, m->nq, s->qvel0, m->nv); /* time is kept */
    s->resets = c->resets;
  }
  double q[CS_SCENE_MAXJ], qd[CS_SCENE_MAXJ], tau[CS_SCENE_MAXJ];
  if (c->npd > 0) {
    for (int i = 0; i < c->npd; i++) q[i] = d->qpos[s->pd_qadr[i]], qd[i] = d->qvel[s->pd_dof[i]];
    if (cs_scene_ctl_torques(c, q, qd, tau))
      for (int i = 0; i < c->npd; i++) d->qfrc_applied[s->pd_dof[i]] = tau[i];
  }
  if (c->task == TASK_CUBE_PUSH && m->nv >= 3)
    for (int k = 0; k < 3; k++)
      d->qfrc_applied[k] = c->push_force[k]; /* free joint: world force at the body origin */
}

void cs_scene_free(csScene* s) {
  if (!s) return;
  cs_data_free(s->d);
  cs_model_free(s->m);
  free(s->qpos0);
  free(s->qvel0);
  free(s->work);
  memset(s, 0, sizeof *s);
}
