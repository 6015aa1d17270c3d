/* csBuilder: collects bodies, joints, geoms, ... and compiles them into a csModel. */
#include "core/cs_builder.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "collision/cs_collision.h"
#include "core/cs_error.h"
#include "core/cs_model.h"
#include "math/cs_math.h"

typedef struct {
  csBodySpec s;
  int keep; /* a model body even without a moving joint (csi_builder_keep_body) */
} bBody;

typedef struct {
  char* name;
  int nvert, nface;
  double* vert;
  int* face;
} bMesh;

typedef struct {
  char* name;
  int nrow, ncol;
  double size[4];
  double* data; /* (nrow x ncol) in [0, 1] */
} bHfield;

typedef struct {
  char* name;
  char* source;
  double time;
  double* val; /* qpos, then qvel, then ctrl */
  int nqpos, nqvel, nctrl;
} bKey;

typedef struct {
  csTendonSpec s; /* name, joint, coef, source owned by the builder */
} bTendon;

struct csBuilder {
  csOption opt;
  bBody* body;
  int nbody, cbody;
  csJointSpec* jnt;
  int njnt, cjnt;
  csGeomSpec* geom;
  int ngeom, cgeom;
  csSiteSpec* site;
  int nsite, csite;
  csActuatorSpec* act;
  int nact, cact;
  bMesh* mesh;
  int nmesh, cmesh;
  bHfield* hfield;
  int nhfield, chfield;
  int* excl;
  int nexcl, cexcl;
  csEqualitySpec* eq;
  int neq, ceq;
  char* notes;
  size_t nnotes, cnotes;
  char* source;
  int balance_inertia; /* repair inertias that violate the triangle inequality */
  int failed;          /* an allocation failed: compile reports it */
  int ncon_max;        /* contact capacity asked for, 0: the default */
  size_t memory;       /* arena bytes asked for, 0: sized by need */
  bKey* key;           /* keyframes */
  int nkey, ckey;
  bTendon* ten;
  int nten, cten;
  csPairSpec* pair; /* explicit geom pairs (names and source owned by the builder) */
  int npair, cpair;
  csSensorSpec* sens; /* sensors (name, objname and source owned by the builder) */
  int nsens, csens;
};

void cs_builder_set_balance_inertia(csBuilder* b, int on) { b->balance_inertia = on; }

int cs_builder_set_ncon_max(csBuilder* b, int ncon_max) {
  if (!b) {
    csi_error(CS_ERR_ARG, "cs_builder_set_ncon_max: NULL builder");
    return -1;
  }
  if (ncon_max < 0 || ncon_max > CS_NCON_MAX_LIMIT) {
    csi_error(CS_ERR_ARG, "%s: contact capacity %d must be in 0..%d (0: the default)",
              b->source ? b->source : "builder", ncon_max, CS_NCON_MAX_LIMIT);
    return -1;
  }
  b->ncon_max = ncon_max;
  return 0;
}

int cs_builder_set_memory(csBuilder* b, size_t bytes) {
  if (!b) {
    csi_error(CS_ERR_ARG, "cs_builder_set_memory: NULL builder");
    return -1;
  }
  if (bytes > CS_MEMORY_LIMIT) {
    csi_error(CS_ERR_ARG, "%s: memory %zu bytes is more than the limit %zu (1 TiB)",
              b->source ? b->source : "builder", bytes, CS_MEMORY_LIMIT);
    return -1;
  }
  b->memory = bytes;
  return 0;
}

/* ------------------------------------------------------------------ defaults */
void cs_option_default(csOption* o) {
  memset(o, 0, sizeof *o);
  o->timestep = 1e-3;
  o->gravity[2] = -9.81;
  o->integrator = CS_INT_EULER_IMPLICITDAMP;
  o->solver = CS_SOLVER_BISECTION;
  o->iterations = 150;
  o->tolerance = 1e-6;
  o->warmstart = 1;
  o->margin = 1e-3;
  o->baumgarte = 0.2;
}

void cs_body_spec_default(csBodySpec* s) {
  memset(s, 0, sizeof *s);
  s->quat[0] = 1;
}
void cs_joint_spec_default(csJointSpec* s) {
  memset(s, 0, sizeof *s);
  s->type = CS_JNT_REVOLUTE;
  s->axis[2] = 1;
}
void cs_geom_spec_default(csGeomSpec* s) {
  memset(s, 0, sizeof *s);
  s->quat[0] = 1;
  s->friction = 1;
  s->contype = 1;
  s->conaffinity = 1;
  s->mesh = -1;
  s->hfield = -1;
  s->condim = 3;
  s->rgba[0] = s->rgba[1] = s->rgba[2] = 0.5, s->rgba[3] = 1;
}
void cs_pair_spec_default(csPairSpec* s) {
  memset(s, 0, sizeof *s);
  s->friction = 1;
  s->condim = 3;
}
void cs_site_spec_default(csSiteSpec* s) {
  memset(s, 0, sizeof *s);
  s->quat[0] = 1;
}
void cs_actuator_spec_default(csActuatorSpec* s) {
  memset(s, 0, sizeof *s);
  s->gear = 1;
  s->gainprm = 1;
  s->tendon = -1;
}
void cs_key_spec_default(csKeySpec* s) { memset(s, 0, sizeof *s); }
void cs_sensor_spec_default(csSensorSpec* s) {
  memset(s, 0, sizeof *s);
  s->objtype = CS_OBJ_SITE;
  s->zonetype = CS_GEOM_SPHERE;
  s->zonesize[0] = s->zonesize[1] = s->zonesize[2] = 0.005;
}
void cs_equality_spec_default(csEqualitySpec* s) {
  memset(s, 0, sizeof *s);
  s->type = CS_EQ_CONNECT;
  s->polycoef[1] = 1;
  s->active = 1;
}

/* ------------------------------------------------------------------ growth */
static int grow(csBuilder* b, void** arr, int* cap, int n, size_t elem) {
  if (n < *cap) return 1;
  int nc = *cap ? 2 * *cap : 16;
  void* p = csi_realloc(*arr, (size_t)*cap * elem, (size_t)nc * elem);
  if (!p) {
    b->failed = 1;
    csi_error(CS_ERR_MEMORY, "builder: out of memory");
    return 0;
  }
  *arr = p;
  *cap = nc;
  return 1;
}
#define GROW(arr, n, cap) grow(b, (void**)&b->arr, &b->cap, b->n, sizeof(*b->arr))

csBuilder* cs_builder_new(void) {
  csBuilder* b = csi_calloc(1, sizeof *b);
  if (!b) return NULL;
  cs_option_default(&b->opt);
  csBodySpec w;
  cs_body_spec_default(&w);
  w.name = "world";
  w.parent = -1;
  if (cs_builder_add_body(b, &w) != 0) {
    cs_builder_free(b);
    return NULL;
  }
  return b;
}

void cs_builder_free(csBuilder* b) {
  if (!b) return;
  for (int i = 0; i < b->nbody; i++) {
    cs_free((void*)b->body[i].s.name);
    cs_free((void*)b->body[i].s.source);
  }
  for (int i = 0; i < b->njnt; i++) {
    cs_free((void*)b->jnt[i].name);
    cs_free((void*)b->jnt[i].source);
  }
  for (int i = 0; i < b->ngeom; i++) {
    cs_free((void*)b->geom[i].name);
    cs_free((void*)b->geom[i].source);
  }
  for (int i = 0; i < b->nsite; i++) cs_free((void*)b->site[i].name);
  for (int i = 0; i < b->nact; i++) {
    cs_free((void*)b->act[i].name);
    cs_free((void*)b->act[i].source);
  }
  for (int i = 0; i < b->nmesh; i++) {
    cs_free(b->mesh[i].name);
    cs_free(b->mesh[i].vert);
    cs_free(b->mesh[i].face);
  }
  cs_free(b->body);
  cs_free(b->jnt);
  cs_free(b->geom);
  cs_free(b->site);
  cs_free(b->act);
  cs_free(b->mesh);
  for (int i = 0; i < b->nhfield; i++) {
    cs_free(b->hfield[i].name);
    cs_free(b->hfield[i].data);
  }
  cs_free(b->hfield);
  for (int i = 0; i < b->neq; i++) {
    cs_free((void*)b->eq[i].name);
    cs_free((void*)b->eq[i].obj1);
    cs_free((void*)b->eq[i].obj2);
    cs_free((void*)b->eq[i].source);
  }
  cs_free(b->eq);
  for (int i = 0; i < b->nkey; i++) {
    cs_free(b->key[i].name);
    cs_free(b->key[i].source);
    cs_free(b->key[i].val);
  }
  cs_free(b->key);
  for (int i = 0; i < b->nten; i++) {
    cs_free((void*)b->ten[i].s.name);
    cs_free((void*)b->ten[i].s.joint);
    cs_free((void*)b->ten[i].s.coef);
    cs_free((void*)b->ten[i].s.source);
  }
  cs_free(b->ten);
  for (int i = 0; i < b->npair; i++) {
    cs_free((void*)b->pair[i].name);
    cs_free((void*)b->pair[i].geom1);
    cs_free((void*)b->pair[i].geom2);
    cs_free((void*)b->pair[i].source);
  }
  cs_free(b->pair);
  for (int i = 0; i < b->nsens; i++) {
    cs_free((void*)b->sens[i].name);
    cs_free((void*)b->sens[i].objname);
    cs_free((void*)b->sens[i].source);
  }
  cs_free(b->sens);
  cs_free(b->excl);
  cs_free(b->notes);
  cs_free(b->source);
  cs_free(b);
}

csOption* cs_builder_option(csBuilder* b) { return &b->opt; }
int cs_builder_nbody(const csBuilder* b) { return b->nbody; }
int cs_builder_njoint(const csBuilder* b) { return b->njnt; }
int csi_builder_nactuator(const csBuilder* b) { return b->nact; }

const char* csi_builder_notes(const csBuilder* b) { return b->notes ? b->notes : ""; }

csStatus csi_builder_compile_loaded(csBuilder* b, csModel** out) {
  csStatus st = cs_compile(b, out);
  const char* n = b->notes ? strstr(b->notes, "file not read") : NULL;
  if (st != CS_ERR_MODEL || !n) return st;
  while (n > b->notes && n[-1] != '\n') n--;
  const char* e = strchr(n, '\n');
  char why[1024];
  snprintf(why, sizeof why, "%s", cs_last_error());
  return csi_error(st, "%s; note that %.*s", why, (int)(e ? e - n : (long)strlen(n)), n);
}
const char* csi_builder_actuator_source(const csBuilder* b, int i) {
  return i >= 0 && i < b->nact && b->act[i].source ? b->act[i].source : "";
}
void cs_builder_set_source(csBuilder* b, const char* file) {
  cs_free(b->source);
  b->source = csi_strdup(file);
}

static const char* source_name(const char* s) { return s ? s : "builder"; }

static int all_finite_n(const double* a, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(a[i])) return 0;
  return 1;
}

int cs_builder_add_body(csBuilder* b, const csBodySpec* s) {
  if (b->nbody > 0 && (s->parent < 0 || s->parent >= b->nbody)) {
    csi_error(CS_ERR_MODEL, "%s: body '%s': parent %d does not exist", source_name(s->source),
              s->name ? s->name : "", s->parent);
    return -1;
  }
  if (!all_finite_n(s->pos, 3) || !all_finite_n(s->quat, 4) || !all_finite_n(&s->mass, 1) ||
      !all_finite_n(s->ipos, 3) || !all_finite_n(s->inertia, 6)) {
    csi_error(CS_ERR_MODEL, "%s: body '%s': NaN or Inf in pose, mass or inertia",
              source_name(s->source), s->name ? s->name : "");
    return -1;
  }
  if (s->mass < 0) {
    csi_error(CS_ERR_MODEL, "%s: body '%s': negative mass %g", source_name(s->source),
              s->name ? s->name : "", s->mass);
    return -1;
  }
  if (!GROW(body, nbody, cbody)) return -1;
  bBody* bb = &b->body[b->nbody];
  bb->s = *s;
  bb->keep = 0;
  bb->s.name = csi_strdup(s->name ? s->name : "");
  bb->s.source = s->source ? csi_strdup(s->source) : NULL;
  csi_quat_normalize(bb->s.quat);
  return b->nbody++;
}

int csi_builder_keep_body(csBuilder* b, int body) {
  if (!b || body <= 0 || body >= b->nbody) {
    csi_error(CS_ERR_ARG, "csi_builder_keep_body: body %d does not exist (or is the world)", body);
    return -1;
  }
  b->body[body].keep = 1;
  return 0;
}

/* A joint's actuator-force range: a single-dof joint, finite, lower <= upper */
static int actfrc_ok(const csJointSpec* s, const char* src, const char* nm) {
  if (s->type != CS_JNT_REVOLUTE && s->type != CS_JNT_PRISMATIC) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': an actuator-force range needs a hinge or slide", src,
              nm);
    return 0;
  }
  if (!all_finite_n(s->actfrcrange, 2) || s->actfrcrange[0] > s->actfrcrange[1]) {
    csi_error(CS_ERR_MODEL,
              "%s: joint '%s': actuator-force range (%g, %g) must be finite with lower <= upper",
              src, nm, s->actfrcrange[0], s->actfrcrange[1]);
    return 0;
  }
  return 1;
}

int cs_builder_add_joint(csBuilder* b, const csJointSpec* s) {
  const char* nm = s->name ? s->name : "";
  if (s->body <= 0 || s->body >= b->nbody) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': body %d does not exist (or is the world)",
              source_name(s->source), nm, s->body);
    return -1;
  }
  if (s->type < CS_JNT_FREE || s->type > CS_JNT_FIXED) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': unknown joint type %d", source_name(s->source), nm,
              s->type);
    return -1;
  }
  const char* src = source_name(s->source);
  if (!all_finite_n(s->pos, 3) || !all_finite_n(s->axis, 3) || !isfinite(s->damping) ||
      !isfinite(s->armature)) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': NaN or Inf in pos, axis, damping or armature", src,
              nm);
    return -1;
  }
  if (!all_finite_n(s->range, 2)) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': range (%g, %g) must be finite", src, nm, s->range[0],
              s->range[1]);
    return -1;
  }
  if (s->damping < 0 || s->armature < 0) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': negative damping or armature", src, nm);
    return -1;
  }
  if (!(s->margin >= 0) || !isfinite(s->margin)) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': margin = %g must be finite and >= 0", src, nm,
              s->margin);
    return -1;
  }
  if (!(s->frictionloss >= 0) || !isfinite(s->frictionloss)) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': frictionloss = %g must be finite and >= 0", src, nm,
              s->frictionloss);
    return -1;
  }
  if ((s->type == CS_JNT_REVOLUTE || s->type == CS_JNT_PRISMATIC) && csi_norm3(s->axis) < 1e-12) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': zero axis", src, nm);
    return -1;
  }
  if (s->limited && s->type == CS_JNT_FREE) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': a free joint cannot be limited", src, nm);
    return -1;
  }
  if (s->limited && s->type == CS_JNT_BALL && !(s->range[0] == 0 && s->range[1] > 0)) {
    csi_error(CS_ERR_MODEL,
              "%s: joint '%s': a limited ball joint's range must be (0, largest rotation angle "
              "> 0), not (%g, %g)",
              src, nm, s->range[0], s->range[1]);
    return -1;
  }
  if (s->limited && s->range[0] > s->range[1]) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': range lower %g > upper %g", src, nm, s->range[0],
              s->range[1]);
    return -1;
  }
  if (s->actfrclimited && !actfrc_ok(s, src, nm)) return -1;
  if (!GROW(jnt, njnt, cjnt)) return -1;
  csJointSpec* j = &b->jnt[b->njnt];
  *j = *s;
  j->name = csi_strdup(nm);
  j->source = s->source ? csi_strdup(s->source) : NULL;
  if (j->type == CS_JNT_REVOLUTE || j->type == CS_JNT_PRISMATIC) csi_normalize3(j->axis);
  return b->njnt++;
}

int cs_builder_add_geom(csBuilder* b, const csGeomSpec* s) {
  const char* nm = s->name ? s->name : "";
  if (s->body < 0 || s->body >= b->nbody) {
    csi_error(CS_ERR_MODEL, "%s: geom '%s': body %d does not exist", source_name(s->source), nm,
              s->body);
    return -1;
  }
  if (s->type < 0 || s->type >= CS_GEOM_NTYPES) {
    csi_error(CS_ERR_MODEL, "%s: geom '%s': unknown type %d", source_name(s->source), nm, s->type);
    return -1;
  }
  if (!all_finite_n(s->size, 3) || !all_finite_n(s->pos, 3) || !all_finite_n(s->quat, 4) ||
      !isfinite(s->friction) || !isfinite(s->margin)) {
    csi_error(CS_ERR_MODEL, "%s: geom '%s': NaN or Inf in size or pose", source_name(s->source),
              nm);
    return -1;
  }
  int nsz = s->type == CS_GEOM_SPHERE                                     ? 1
            : (s->type == CS_GEOM_CAPSULE || s->type == CS_GEOM_CYLINDER) ? 2
            : (s->type == CS_GEOM_BOX || s->type == CS_GEOM_ELLIPSOID)    ? 3
                                                                          : 0;
  for (int i = 0; i < nsz; i++)
    if (!(s->size[i] > 0)) {
      csi_error(CS_ERR_MODEL, "%s: geom '%s': size[%d] = %g must be > 0 (degenerate geometry)",
                source_name(s->source), nm, i, s->size[i]);
      return -1;
    }
  if (s->friction < 0) {
    csi_error(CS_ERR_MODEL, "%s: geom '%s': negative friction %g", source_name(s->source), nm,
              s->friction);
    return -1;
  }
  if (s->condim != 0 && s->condim != 1 && s->condim != 3) {
    csi_error(CS_ERR_MODEL, "%s: geom '%s': condim %d must be 1 or 3", source_name(s->source), nm,
              s->condim);
    return -1;
  }
  for (int k = 0; k < 4; k++)
    if (!(s->rgba[k] >= 0 && s->rgba[k] <= 1)) {
      csi_error(CS_ERR_MODEL, "%s: geom '%s': rgba[%d] = %g must be in [0, 1]",
                source_name(s->source), nm, k, s->rgba[k]);
      return -1;
    }
  if (s->type == CS_GEOM_MESH && (s->mesh < 0 || s->mesh >= b->nmesh)) {
    csi_error(CS_ERR_MODEL, "%s: geom '%s': mesh %d does not exist", source_name(s->source), nm,
              s->mesh);
    return -1;
  }
  if (s->type == CS_GEOM_HFIELD && (s->hfield < 0 || s->hfield >= b->nhfield)) {
    csi_error(CS_ERR_MODEL, "%s: geom '%s': heightfield %d does not exist", source_name(s->source),
              nm, s->hfield);
    return -1;
  }
  if (!GROW(geom, ngeom, cgeom)) return -1;
  csGeomSpec* g = &b->geom[b->ngeom];
  *g = *s;
  g->name = csi_strdup(nm);
  g->source = s->source ? csi_strdup(s->source) : NULL;
  csi_quat_normalize(g->quat);
  if (!g->condim) g->condim = 3;
  if (s->visual) g->visual = 1, g->contype = g->conaffinity = 0; /* drawn, never collided */
  return b->ngeom++;
}

int cs_builder_add_site(csBuilder* b, const csSiteSpec* s) {
  if (s->body < 0 || s->body >= b->nbody) {
    csi_error(CS_ERR_MODEL, "site '%s': body %d does not exist", s->name ? s->name : "", s->body);
    return -1;
  }
  if (!all_finite_n(s->pos, 3) || !all_finite_n(s->quat, 4)) {
    csi_error(CS_ERR_MODEL, "site '%s': NaN or Inf in pose", s->name ? s->name : "");
    return -1;
  }
  if (!GROW(site, nsite, csite)) return -1;
  csSiteSpec* t = &b->site[b->nsite];
  *t = *s;
  t->name = csi_strdup(s->name ? s->name : "");
  csi_quat_normalize(t->quat);
  return b->nsite++;
}

/* A tendon transmission's index and a general actuator's parameters; 0 if they are bad
   (cs_last_error set) */
static int actuator_extra_ok(const csBuilder* b, const csActuatorSpec* s, const char* nm) {
  if (s->tendon >= b->nten) {
    csi_error(CS_ERR_MODEL, "%s: actuator '%s': tendon %d does not exist", source_name(s->source),
              nm, s->tendon);
    return 0;
  }
  if (!isfinite(s->gainprm) || !all_finite_n(s->biasprm, 3)) {
    csi_error(CS_ERR_MODEL, "%s: actuator '%s': NaN or Inf in gainprm or biasprm",
              source_name(s->source), nm);
    return 0;
  }
  return 1;
}

int cs_builder_add_actuator(csBuilder* b, const csActuatorSpec* s) {
  const char* nm = s->name ? s->name : "";
  if (!actuator_extra_ok(b, s, nm)) return -1;
  if (s->tendon < 0 && (s->joint < 0 || s->joint >= b->njnt)) {
    csi_error(CS_ERR_MODEL, "%s: actuator '%s': joint %d does not exist", source_name(s->source),
              nm, s->joint);
    return -1;
  }
  int t = s->tendon >= 0 ? CS_JNT_REVOLUTE : b->jnt[s->joint].type;
  if (t != CS_JNT_REVOLUTE && t != CS_JNT_PRISMATIC) {
    csi_error(CS_ERR_MODEL, "%s: actuator '%s': joint '%s' is not a single-dof joint",
              source_name(s->source), nm, b->jnt[s->joint].name);
    return -1;
  }
  if (s->type != CS_ACT_MOTOR && s->type != CS_ACT_POSITION && s->type != CS_ACT_GENERAL) {
    csi_error(CS_ERR_MODEL, "%s: actuator '%s': unknown type %d", source_name(s->source), nm,
              s->type);
    return -1;
  }
  if (!isfinite(s->gear) || !isfinite(s->kp) || !isfinite(s->kd) ||
      !all_finite_n(s->ctrlrange, 2) || !all_finite_n(s->forcerange, 2)) {
    csi_error(CS_ERR_MODEL, "%s: actuator '%s': NaN or Inf in a field", source_name(s->source), nm);
    return -1;
  }
  if ((s->ctrllimited && s->ctrlrange[0] > s->ctrlrange[1]) ||
      (s->forcelimited && s->forcerange[0] > s->forcerange[1])) {
    csi_error(CS_ERR_MODEL, "%s: actuator '%s': range lower > upper", source_name(s->source), nm);
    return -1;
  }
  if (!GROW(act, nact, cact)) return -1;
  csActuatorSpec* a = &b->act[b->nact];
  *a = *s;
  a->name = csi_strdup(nm);
  a->source = s->source ? csi_strdup(s->source) : NULL;
  return b->nact++;
}

/* A tendon's terms: single-dof joints, finite coefficients, a finite ordered range; 0 if bad
   (cs_last_error set) */
static int tendon_ok(const csBuilder* b, const csTendonSpec* s, const char* src, const char* nm) {
  if (s->n < 1 || !s->joint || !s->coef) {
    csi_error(CS_ERR_MODEL, "%s: tendon '%s': no joint terms", src, nm);
    return 0;
  }
  for (int i = 0; i < s->n; i++) {
    int j = s->joint[i];
    if (j < 0 || j >= b->njnt) {
      csi_error(CS_ERR_MODEL, "%s: tendon '%s': joint %d does not exist", src, nm, j);
      return 0;
    }
    if (b->jnt[j].type != CS_JNT_REVOLUTE && b->jnt[j].type != CS_JNT_PRISMATIC) {
      csi_error(CS_ERR_MODEL, "%s: tendon '%s': joint '%s' is not a hinge or slide", src, nm,
                b->jnt[j].name);
      return 0;
    }
    if (!isfinite(s->coef[i])) {
      csi_error(CS_ERR_MODEL, "%s: tendon '%s': coef of joint '%s' is not finite", src, nm,
                b->jnt[j].name);
      return 0;
    }
  }
  if (s->limited && (!all_finite_n(s->range, 2) || s->range[0] > s->range[1])) {
    csi_error(CS_ERR_MODEL, "%s: tendon '%s': range (%g, %g) must be finite with lower <= upper",
              src, nm, s->range[0], s->range[1]);
    return 0;
  }
  return 1;
}

int cs_builder_add_tendon(csBuilder* b, const csTendonSpec* s) {
  const char* nm = s->name ? s->name : "";
  if (!tendon_ok(b, s, source_name(s->source), nm)) return -1;
  if (!GROW(ten, nten, cten)) return -1;
  csTendonSpec* t = &b->ten[b->nten].s;
  *t = *s;
  int* jc = csi_malloc(sizeof(int) * (size_t)s->n);
  double* cc = csi_malloc(sizeof(double) * (size_t)s->n);
  t->name = csi_strdup(nm);
  t->source = s->source ? csi_strdup(s->source) : NULL;
  if (!jc || !cc || !t->name || (s->source && !t->source)) {
    cs_free(jc), cs_free(cc), cs_free((void*)t->name), cs_free((void*)t->source);
    b->failed = 1;
    csi_error(CS_ERR_MEMORY, "builder: out of memory");
    return -1;
  }
  memcpy(jc, s->joint, sizeof(int) * (size_t)s->n);
  memcpy(cc, s->coef, sizeof(double) * (size_t)s->n);
  t->joint = jc, t->coef = cc;
  return b->nten++;
}

int cs_builder_add_mesh(csBuilder* b, const char* name, int nvert, const double* vert, int nface,
                        const int* face) {
  if (nvert < 4 || nface < 4 || !vert || !face) {
    csi_error(CS_ERR_MODEL, "mesh '%s': needs at least 4 vertices and 4 faces (has %d, %d)",
              name ? name : "", nvert, nface);
    return -1;
  }
  if (!all_finite_n(vert, 3 * nvert)) {
    csi_error(CS_ERR_MODEL, "mesh '%s': NaN or Inf vertex", name ? name : "");
    return -1;
  }
  for (int i = 0; i < 3 * nface; i++)
    if (face[i] < 0 || face[i] >= nvert) {
      csi_error(CS_ERR_MODEL, "mesh '%s': face %d refers to vertex %d of %d", name ? name : "",
                i / 3, face[i], nvert);
      return -1;
    }
  if (!GROW(mesh, nmesh, cmesh)) return -1;
  bMesh* me = &b->mesh[b->nmesh];
  me->name = csi_strdup(name ? name : "");
  me->nvert = nvert;
  me->nface = nface;
  me->vert = csi_malloc(sizeof(double) * 3 * (size_t)nvert);
  me->face = csi_malloc(sizeof(int) * 3 * (size_t)nface);
  if (!me->name || !me->vert || !me->face) {
    b->failed = 1;
    return -1;
  }
  memcpy(me->vert, vert, sizeof(double) * 3 * (size_t)nvert);
  memcpy(me->face, face, sizeof(int) * 3 * (size_t)nface);
  return b->nmesh++;
}

int cs_builder_add_hfield(csBuilder* b, const char* name, int nrow, int ncol, const double size[4],
                          const double* data) {
  const char* nm = name ? name : "";
  if (nrow < 2 || ncol < 2) {
    csi_error(CS_ERR_MODEL, "hfield '%s': nrow = %d and ncol = %d must both be >= 2", nm, nrow,
              ncol);
    return -1;
  }
  if ((long long)nrow * ncol > 1 << 28) {
    csi_error(CS_ERR_MODEL, "hfield '%s': %d x %d samples is too many", nm, nrow, ncol);
    return -1;
  }
  if (!size || !data) {
    csi_error(CS_ERR_ARG, "hfield '%s': NULL size or data", nm);
    return -1;
  }
  static const char* const what[4] = {"half extent x", "half extent y", "height", "base depth"};
  for (int k = 0; k < 4; k++)
    if (!(size[k] > 0) || !isfinite(size[k])) {
      csi_error(CS_ERR_MODEL, "hfield '%s': size[%d] (%s) = %g must be finite and > 0", nm, k,
                what[k], size[k]);
      return -1;
    }
  int n = nrow * ncol;
  for (int i = 0; i < n; i++)
    if (!(data[i] >= 0 && data[i] <= 1)) {
      csi_error(CS_ERR_MODEL,
                "hfield '%s': elevation %d (row %d, column %d) = %g is not in "
                "[0, 1] (elevations are fractions of size[2])",
                nm, i, i / ncol, i % ncol, data[i]);
      return -1;
    }
  if (!GROW(hfield, nhfield, chfield)) return -1;
  bHfield* h = &b->hfield[b->nhfield];
  h->name = csi_strdup(nm);
  h->nrow = nrow;
  h->ncol = ncol;
  memcpy(h->size, size, sizeof h->size);
  h->data = csi_malloc(sizeof(double) * (size_t)n);
  if (!h->name || !h->data) {
    cs_free(h->name);
    cs_free(h->data);
    b->failed = 1;
    csi_error(CS_ERR_MEMORY, "builder: out of memory");
    return -1;
  }
  memcpy(h->data, data, sizeof(double) * (size_t)n);
  return b->nhfield++;
}

/* "equality 'name'" or, for an unnamed one, "equality #i": how messages name equality i */
static void eq_label(char* buf, size_t n, const char* name, int i) {
  if (name && name[0])
    snprintf(buf, n, "equality '%s'", name);
  else
    snprintf(buf, n, "equality #%d (unnamed)", i);
}

int cs_builder_add_equality(csBuilder* b, const csEqualitySpec* s) {
  char what[300];
  eq_label(what, sizeof what, s->name, b->neq);
  const char* src = source_name(s->source);
  if (s->type != CS_EQ_CONNECT && s->type != CS_EQ_WELD && s->type != CS_EQ_JOINT) {
    csi_error(CS_ERR_MODEL, "%s (%s): unknown type %d", what, src, s->type);
    return -1;
  }
  if (!s->obj1 || !s->obj1[0]) {
    csi_error(CS_ERR_MODEL, "%s (%s): obj1 (the %s) is not given", what, src,
              s->type == CS_EQ_JOINT ? "joint" : "body");
    return -1;
  }
  if (!all_finite_n(s->anchor, 3) || !all_finite_n(s->polycoef, 5)) {
    csi_error(CS_ERR_MODEL, "%s (%s): NaN or Inf in anchor or polycoef", what, src);
    return -1;
  }
  if (!GROW(eq, neq, ceq)) return -1;
  csEqualitySpec* e = &b->eq[b->neq];
  *e = *s;
  e->active = s->active != 0;
  e->name = csi_strdup(s->name ? s->name : "");
  e->obj1 = csi_strdup(s->obj1);
  e->obj2 = s->obj2 && s->obj2[0] ? csi_strdup(s->obj2) : NULL;
  e->source = s->source ? csi_strdup(s->source) : NULL;
  if (!e->name || !e->obj1 || (s->obj2 && s->obj2[0] && !e->obj2) || (s->source && !e->source)) {
    cs_free((void*)e->name);
    cs_free((void*)e->obj1);
    cs_free((void*)e->obj2);
    cs_free((void*)e->source);
    b->failed = 1;
    csi_error(CS_ERR_MEMORY, "builder: out of memory");
    return -1;
  }
  return b->neq++;
}

/* A pair's numbers and names: friction and margin finite and >= 0, condim 1 or 3, two
   different non-empty geom names. Returns 0, or -1 with the error set. */
static int pair_spec_ok(const csPairSpec* s) {
  const char *src = source_name(s->source), *nm = s->name ? s->name : "";
  if (!isfinite(s->friction) || s->friction < 0 || !isfinite(s->margin) || s->margin < 0) {
    csi_error(CS_ERR_MODEL, "%s: pair '%s': friction %g and margin %g must be finite and >= 0", src,
              nm, s->friction, s->margin);
    return -1;
  }
  if (s->condim != 1 && s->condim != 3) {
    csi_error(CS_ERR_MODEL, "%s: pair '%s': condim %d must be 1 or 3", src, nm, s->condim);
    return -1;
  }
  if (!s->geom1 || !s->geom1[0] || !s->geom2 || !s->geom2[0]) {
    csi_error(CS_ERR_MODEL, "%s: pair '%s': both geoms must be named", src, nm);
    return -1;
  }
  if (strcmp(s->geom1, s->geom2) == 0) {
    csi_error(CS_ERR_MODEL, "%s: pair '%s': geom '%s' given twice (a pair joins two geoms)", src,
              nm, s->geom1);
    return -1;
  }
  return 0;
}

int cs_builder_add_pair(csBuilder* b, const csPairSpec* s) {
  if (!b || !s) {
    csi_error(CS_ERR_ARG, "cs_builder_add_pair: NULL argument");
    return -1;
  }
  if (pair_spec_ok(s) < 0) return -1;
  if (!GROW(pair, npair, cpair)) return -1;
  csPairSpec* p = &b->pair[b->npair];
  *p = *s;
  p->name = csi_strdup(s->name ? s->name : "");
  p->geom1 = csi_strdup(s->geom1);
  p->geom2 = csi_strdup(s->geom2);
  p->source = s->source ? csi_strdup(s->source) : NULL;
  if (!p->name || !p->geom1 || !p->geom2 || (s->source && !p->source)) {
    cs_free((void*)p->name), cs_free((void*)p->geom1), cs_free((void*)p->geom2);
    cs_free((void*)p->source);
    b->failed = 1;
    csi_error(CS_ERR_MEMORY, "builder: out of memory");
    return -1;
  }
  return b->npair++;
}

/* ------------------------------------------------------------------ sensors */
/* The builder body that a force, torque or subtreecom sensor names (a force or torque sensor
   through its site), to be kept as a model body; 0 (nothing to keep) if it is the world or the
   name is not found yet (compile reports that). */
static int sensor_keep_body(const csBuilder* b, const csSensorSpec* s) {
  if (s->type == CS_SENS_SUBTREECOM) {
    for (int i = 1; i < b->nbody; i++)
      if (!strcmp(b->body[i].s.name, s->objname)) return i;
  } else if (s->type == CS_SENS_FORCE || s->type == CS_SENS_TORQUE) {
    for (int i = 0; i < b->nsite; i++)
      if (!strcmp(b->site[i].name, s->objname)) return b->site[i].body;
  }
  return 0;
}

static int sensor_spec_ok(const csSensorSpec* s) {
  const char* src = source_name(s->source);
  const char* nm = s->name ? s->name : "";
  if (s->type < 0 || s->type >= CS_SENS_COUNT) {
    csi_error(CS_ERR_MODEL, "%s: sensor '%s': type %d is not a csSensorType", src, nm, s->type);
    return -1;
  }
  if (!s->objname || !s->objname[0]) {
    csi_error(CS_ERR_MODEL, "%s: sensor '%s': no object named", src, nm);
    return -1;
  }
  int z = s->zonetype;
  if (s->type == CS_SENS_TOUCH &&
      ((z != CS_GEOM_SPHERE && z != CS_GEOM_CAPSULE && z != CS_GEOM_CYLINDER && z != CS_GEOM_BOX &&
        z != CS_GEOM_ELLIPSOID) ||
       !all_finite_n(s->zonesize, 3) ||
       !(s->zonesize[0] >= 0 && s->zonesize[1] >= 0 && s->zonesize[2] >= 0))) {
    csi_error(CS_ERR_MODEL,
              "%s: sensor '%s': the touch zone must be a sphere, capsule, cylinder, box or "
              "ellipsoid of finite size >= 0",
              src, nm);
    return -1;
  }
  if (!all_finite_n(&s->noise, 1) || !all_finite_n(&s->cutoff, 1)) {
    csi_error(CS_ERR_MODEL, "%s: sensor '%s': noise or cutoff not finite", src, nm);
    return -1;
  }
  return 0;
}

int cs_builder_add_sensor(csBuilder* b, const csSensorSpec* s) {
  if (!b || !s) {
    csi_error(CS_ERR_ARG, "cs_builder_add_sensor: NULL argument");
    return -1;
  }
  if (sensor_spec_ok(s) < 0) return -1;
  if (!GROW(sens, nsens, csens)) return -1;
  csSensorSpec* p = &b->sens[b->nsens];
  *p = *s;
  p->name = csi_strdup(s->name ? s->name : "");
  p->objname = csi_strdup(s->objname);
  p->source = s->source ? csi_strdup(s->source) : NULL;
  if (!p->name || !p->objname || (s->source && !p->source)) {
    cs_free((void*)p->name), cs_free((void*)p->objname), cs_free((void*)p->source);
    b->failed = 1;
    csi_error(CS_ERR_MEMORY, "builder: out of memory");
    return -1;
  }
  int keep = sensor_keep_body(b, s);
  if (keep > 0) b->body[keep].keep = 1;
  return b->nsens++;
}

int cs_builder_add_exclude(csBuilder* b, int b1, int b2) {
  if (b1 < 0 || b1 >= b->nbody || b2 < 0 || b2 >= b->nbody) {
    csi_error(CS_ERR_MODEL, "exclude: body %d or %d does not exist", b1, b2);
    return -1;
  }
  if (!GROW(excl, nexcl, cexcl)) return -1;
  b->excl[2 * (b->nexcl / 2) + 0] = b1;
  b->excl[2 * (b->nexcl / 2) + 1] = b2;
  b->nexcl += 2; /* capacity is even and doubles, so a pair always fits */
  return b->nexcl / 2 - 1;
}

int cs_builder_add_key(csBuilder* b, const csKeySpec* s) {
  const char* nm = s->name ? s->name : "";
  int n[3] = {s->qpos ? s->nqpos : 0, s->qvel ? s->nqvel : 0, s->ctrl ? s->nctrl : 0};
  const double* v[3] = {s->qpos, s->qvel, s->ctrl};
  for (int k = 0; k < 3; k++)
    if (n[k] < 0 || !all_finite_n(v[k], n[k])) {
      csi_error(CS_ERR_MODEL, "%s: key '%s': negative length or NaN/Inf in its %s",
                source_name(s->source), nm,
                k == 0   ? "qpos"
                : k == 1 ? "qvel"
                         : "ctrl");
      return -1;
    }
  if (!isfinite(s->time)) {
    csi_error(CS_ERR_MODEL, "%s: key '%s': time is not finite", source_name(s->source), nm);
    return -1;
  }
  if (!GROW(key, nkey, ckey)) return -1;
  bKey* k = &b->key[b->nkey];
  memset(k, 0, sizeof *k);
  k->name = csi_strdup(nm);
  k->source = s->source ? csi_strdup(s->source) : NULL;
  k->val = csi_calloc((size_t)(n[0] + n[1] + n[2]) + 1, sizeof(double));
  if (!k->name || (s->source && !k->source) || !k->val) {
    cs_free(k->name), cs_free(k->source), cs_free(k->val);
    b->failed = 1;
    csi_error(CS_ERR_MEMORY, "builder: out of memory");
    return -1;
  }
  for (int j = 0, off = 0; j < 3; off += n[j], j++)
    if (n[j]) memcpy(k->val + off, v[j], sizeof(double) * (size_t)n[j]);
  k->time = s->time;
  k->nqpos = n[0], k->nqvel = n[1], k->nctrl = n[2];
  return b->nkey++;
}

void cs_builder_add_note(csBuilder* b, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof buf) n = sizeof buf - 1;
  size_t need = b->nnotes + (size_t)n + 2;
  if (need > b->cnotes) {
    size_t nc = need * 2 + 256;
    char* p = csi_realloc(b->notes, b->cnotes, nc);
    if (!p) {
      b->failed = 1;
      return;
    }
    b->notes = p;
    b->cnotes = nc;
  }
  memcpy(b->notes + b->nnotes, buf, (size_t)n);
  b->nnotes += (size_t)n;
  b->notes[b->nnotes++] = '\n';
  b->notes[b->nnotes] = 0;
}

/* ------------------------------------------------------------------ compile */
/* pose composition: (p, q) = (pa, qa) * (pb, qb) */
static void pose_mul(double* p, double* q, const double* pa, const double* qa, const double* pb,
                     const double* qb) {
  double t[3], qq[4];
  csi_quat_rotate(t, qa, pb);
  csi_add3(p, pa, t);
  csi_quat_mul(qq, qa, qb);
  csi_quat_normalize(qq);
  memcpy(q, qq, sizeof qq);
}

static int nq_of(int type) {
  return type == CS_JNT_FREE ? 7 : type == CS_JNT_BALL ? 4 : type == CS_JNT_FIXED ? 0 : 1;
}
static int nv_of(int type) {
  return type == CS_JNT_FREE ? 6 : type == CS_JNT_BALL ? 3 : type == CS_JNT_FIXED ? 0 : 1;
}

/* Inertia check: mass > 0, eigenvalues > 0, triangle inequality (relative 1e-9). */
static csStatus check_inertia(const char* src, const char* name, double mass, double* I,
                              int balance, char* note) {
  if (!(mass > 0))
    return csi_error(CS_ERR_MODEL,
                     "%s: body '%s': mass %g of a moving body must be > 0 (after merging "
                     "fixed children)",
                     src, name, mass);
  double e[3];
  csi_sym_eig3(I, e, NULL);
  double scale = fabs(e[2]) > 0 ? fabs(e[2]) : 1;
  if (!(e[0] > 1e-12 * scale) || !(e[0] > 0))
    return csi_error(CS_ERR_MODEL,
                     "%s: body '%s': inertia not positive definite (principal moments %g %g %g)",
                     src, name, e[0], e[1], e[2]);
  if (e[0] + e[1] < e[2] * (1 - 1e-9) && balance) {
    /* as MuJoCo's balanceinertia: all principal moments set to their mean */
    double mean = (e[0] + e[1] + e[2]) / 3;
    I[0] = I[1] = I[2] = mean;
    I[3] = I[4] = I[5] = 0;
    if (note) {
      size_t l = strlen(note);
      /* 256 bytes are reserved per body when balancing is on */
      snprintf(note + l, 256,
               "%.60s: body '%.40s': inertia violated the triangle inequality "
               "(principal moments %.4g %.4g %.4g); balanced to %.4g (balance_inertia)\n",
               src, name, e[0], e[1], e[2], mean);
    }
    return CS_OK;
  }
  if (e[0] + e[1] < e[2] * (1 - 1e-9))
    return csi_error(CS_ERR_MODEL,
                     "%s: body '%s': inertia violates the triangle inequality (principal "
                     "moments %g %g %g); load with balance_inertia (--balance-inertia) to repair",
                     src, name, e[0], e[1], e[2]);
  return CS_OK;
}

/* Add body inertia (mass, com c, I about com, all in frame F) into accumulators expressed
   about the origin of F: m, m c, I_origin. */
static void accum_inertia(double* acc, double mass, const double* c, const double* Icom) {
  acc[0] += mass;
  acc[1] += mass * c[0], acc[2] += mass * c[1], acc[3] += mass * c[2];
  double cc = csi_dot3(c, c);
  acc[4] += Icom[0] + mass * (cc - c[0] * c[0]);
  acc[5] += Icom[1] + mass * (cc - c[1] * c[1]);
  acc[6] += Icom[2] + mass * (cc - c[2] * c[2]);
  acc[7] += Icom[3] - mass * c[0] * c[1];
  acc[8] += Icom[4] - mass * c[0] * c[2];
  acc[9] += Icom[5] - mass * c[1] * c[2];
}

static double geom_rbound(int type, const double* size, const double* vert, int nvert) {
  switch (type) {
    case CS_GEOM_PLANE:
      return 0;
    case CS_GEOM_SPHERE:
      return size[0];
    case CS_GEOM_CAPSULE:
      return size[0] + size[1];
    case CS_GEOM_CYLINDER:
      return sqrt(size[0] * size[0] + size[1] * size[1]);
    case CS_GEOM_BOX:
      return csi_norm3(size);
    case CS_GEOM_ELLIPSOID:
      return fmax(size[0], fmax(size[1], size[2]));
    case CS_GEOM_MESH: {
      double r = 0;
      for (int i = 0; i < nvert; i++) {
        double v[3] = {vert[3 * i] * size[0], vert[3 * i + 1] * size[1], vert[3 * i + 2] * size[2]};
        double n = csi_norm3(v);
        if (n > r) r = n;
      }
      return r;
    }
    default:
      return 0;
  }
}

/* Shared state of the compile stages: the builder, the model being filled, and the scratch
   arrays that map builder bodies and joints onto model ones. */
typedef struct {
  const csBuilder* b;
  csModel* m;
  const char* file; /* source named in model-wide errors */
  int nb;           /* builder bodies */
  int nkept;        /* model bodies: the world and every movable body */
  int* movable;     /* (nb) 1: the body has a joint that is not fixed; 2: it has none but is
                       kept as a static model body (csi_builder_keep_body); 0: merged */
  int* target;      /* (nb) builder body it is welded into: itself when movable, 0 = world */
  int* newid;       /* (nb) model body id, -1 for a merged body */
  double* relp;     /* (nb x 3) pose of builder body in target */
  double* relq;     /* (nb x 4) */
  double* acc;      /* (nb x 10) inertia gathered about the target origin: m, m c, I */
  int* jntnew;      /* (njnt + 1) model joint id, -1 for a fixed joint */
  int* hull;        /* hull vertex indices of every mesh, one after another */
  int* hullnum;     /* (nmesh) */
  size_t noff;      /* next free offset in m->names */
} bCompile;

/* Copies a name into the model's name pool and returns its offset; the empty name is offset 0. */
static int put_name(bCompile* c, const char* str) {
  size_t l = strlen(str);
  if (l == 0) return 0;
  memcpy(c->m->names + c->noff, str, l + 1);
  int off = (int)c->noff;
  c->noff += l + 1;
  return off;
}

/* Allocates the (empty) model and the scratch arrays. */
static csStatus compile_alloc(bCompile* c, const csBuilder* b) {
  memset(c, 0, sizeof *c);
  c->b = b;
  c->file = b->source ? b->source : "model";
  c->nb = b->nbody;
  size_t nb = (size_t)c->nb;
  c->movable = csi_calloc(nb, sizeof(int));
  c->target = csi_calloc(nb, sizeof(int));
  c->newid = csi_calloc(nb, sizeof(int));
  c->relp = csi_calloc(nb * 3, sizeof(double));
  c->relq = csi_calloc(nb * 4, sizeof(double));
  c->acc = csi_calloc(nb * 10, sizeof(double));
  c->jntnew = csi_calloc((size_t)(b->njnt + 1), sizeof(int));
  c->m = csi_calloc(1, sizeof *c->m);
  if (!c->movable || !c->target || !c->newid || !c->relp || !c->relq || !c->acc || !c->jntnew ||
      !c->m)
    return csi_error(CS_ERR_MEMORY, "compile: out of memory");
  return CS_OK;
}

/* Frees the scratch arrays (not the model). */
static void compile_free_scratch(bCompile* c) {
  cs_free(c->movable);
  cs_free(c->target);
  cs_free(c->newid);
  cs_free(c->relp);
  cs_free(c->relq);
  cs_free(c->acc);
  cs_free(c->jntnew);
  cs_free(c->hull);
  cs_free(c->hullnum);
}

/* Marks the bodies that move (have a joint that is not fixed) and the static ones kept as model
   bodies, and checks the joint rules: a free joint is the only joint of its body, and the joints
   of one body come one after another. */
static csStatus compile_validate_joints(bCompile* c) {
  const csBuilder* b = c->b;
  for (int j = 0; j < b->njnt; j++)
    if (b->jnt[j].type != CS_JNT_FIXED) c->movable[b->jnt[j].body] = 1;
  for (int i = 1; i < c->nb; i++)
    if (b->body[i].keep && !c->movable[i]) c->movable[i] = 2;
  /* a free joint must be the only joint of its body and attached to the world */
  for (int j = 0; j < b->njnt; j++) {
    const csJointSpec* J = &b->jnt[j];
    if (J->type == CS_JNT_FREE) {
      int count = 0;
      for (int k = 0; k < b->njnt; k++)
        if (b->jnt[k].body == J->body && b->jnt[k].type != CS_JNT_FIXED) count++;
      if (count != 1)
        return csi_error(CS_ERR_MODEL,
                         "%s: joint '%s': a free joint must be the only joint of "
                         "its body",
                         source_name(J->source), J->name);
    }
  }
  /* joints of one body must be contiguous in builder order (loaders add them so) */
  for (int j = 1; j < b->njnt; j++)
    for (int k = 0; k < j - 1; k++)
      if (b->jnt[k].body == b->jnt[j].body && b->jnt[j - 1].body != b->jnt[j].body)
        return csi_error(CS_ERR_MODEL,
                         "%s: joint '%s': joints of body '%s' are not added "
                         "one after another",
                         source_name(b->jnt[j].source), b->jnt[j].name,
                         b->body[b->jnt[j].body].s.name);
  return CS_OK;
}

/* Welds every body without a moving joint into its nearest moving ancestor (its target; 0 is the
   world): numbers the kept bodies, records each body's pose in its target, and gathers the mass
   and inertia of the welded bodies about the target's origin. */
static void compile_merge_fixed(bCompile* c) {
  const csBuilder* b = c->b;
  int nkept = 1;
  c->target[0] = 0;
  c->newid[0] = 0;
  csi_quat_identity(c->relq);
  for (int i = 1; i < c->nb; i++) {
    const csBodySpec* s = &b->body[i].s;
    int p = s->parent;
    if (c->movable[i]) {
      c->target[i] = i;
      c->newid[i] = nkept++;
      csi_zero(c->relp + 3 * i, 3);
      csi_quat_identity(c->relq + 4 * i);
    } else {
      c->target[i] = c->target[p];
      c->newid[i] = -1;
      pose_mul(c->relp + 3 * i, c->relq + 4 * i, c->relp + 3 * p, c->relq + 4 * p, s->pos, s->quat);
    }
  }
  c->nkept = nkept;
  /* inertia accumulation in target frames */
  for (int i = 1; i < c->nb; i++) {
    const csBodySpec* s = &b->body[i].s;
    int t = c->target[i];
    if (t == 0) continue; /* welded to the world: static */
    double R[9], com[3], Iw[6];
    csi_quat2mat(R, c->relq + 4 * i);
    csi_mulmat3vec(com, R, s->ipos);
    csi_add3(com, com, c->relp + 3 * i);
    csi_sym_rotate(Iw, R, s->inertia);
    accum_inertia(c->acc + 10 * t, s->mass, com, Iw);
  }
}

/* Sizes of the bodies, joints (numbering the kept ones), dofs, geoms, sites (one more per merged
   body), actuators, equalities and meshes. */
static void compile_size_counts(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  m->opt = b->opt;
  m->nbody = c->nkept;
  for (int j = 0; j < b->njnt; j++) {
    const csJointSpec* J = &b->jnt[j];
    c->jntnew[j] = -1;
    if (J->type == CS_JNT_FIXED) continue;
    c->jntnew[j] = m->njnt++;
    m->nq += nq_of(J->type);
    m->nv += nv_of(J->type);
  }
  m->ngeom = b->ngeom;
  m->nsite = b->nsite;
  for (int i = 1; i < c->nb; i++)
    if (!c->movable[i]) m->nsite++; /* a frame for each merged body */
  m->nu = b->nact;
  m->neq = b->neq;
  m->nkey = b->nkey;
  m->nmesh = b->nmesh;
  for (int i = 0; i < b->nmesh; i++) {
    m->nmeshvert += b->mesh[i].nvert;
    m->nmeshface += b->mesh[i].nface;
  }
}

/* Computes the convex hull of every mesh (collision uses them) and sizes the scaled hull copies
   each mesh geom carries; a colliding geom on a mesh without volume is an error. */
static csStatus compile_mesh_hulls(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  if (b->nmesh) {
    c->hull = csi_calloc((size_t)m->nmeshvert + 1, sizeof(int));
    c->hullnum = csi_calloc((size_t)b->nmesh, sizeof(int));
    if (!c->hull || !c->hullnum)
      return csi_error(CS_ERR_MEMORY, "%s: out of memory (mesh hulls)", c->file);
    int off = 0;
    for (int i = 0; i < b->nmesh; i++) {
      const bMesh* me = &b->mesh[i];
      double ext = 0;
      for (int v = 0; v < 3 * me->nvert; v++) ext = fmax(ext, fabs(me->vert[v]));
      int nh = csi_convex_hull(me->vert, me->nvert, 1e-9 * (ext > 0 ? ext : 1), c->hull + off);
      c->hullnum[i] = nh > 0 ? nh : 0;
      off += c->hullnum[i];
    }
    m->nmeshhull = off;
  }
  for (int g = 0; g < b->ngeom; g++) {
    const csGeomSpec* G = &b->geom[g];
    if (G->type != CS_GEOM_MESH) continue;
    if (c->hullnum[G->mesh] == 0 && (G->contype || G->conaffinity))
      return csi_error(CS_ERR_MODEL,
                       "%s: geom '%s': mesh '%s' is flat or degenerate (no volume), so it cannot "
                       "collide; give it contype=\"0\" conaffinity=\"0\" or fix the mesh",
                       source_name(G->source), G->name && G->name[0] ? G->name : "(unnamed)",
                       b->mesh[G->mesh].name);
    m->ngeomvert += c->hullnum[G->mesh];
  }
  return CS_OK;
}

/* Sizes the heightfield samples and checks that every heightfield geom is static (welded to the
   world). */
static csStatus compile_size_hfields(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  m->nhfield = b->nhfield;
  long long nd = 0;
  for (int i = 0; i < b->nhfield; i++) nd += (long long)b->hfield[i].nrow * b->hfield[i].ncol;
  if (nd > 1 << 30)
    return csi_error(CS_ERR_MODEL, "%s: %lld heightfield samples in all is too many", c->file, nd);
  m->nhfielddata = (int)nd;
  for (int g = 0; g < b->ngeom; g++) {
    const csGeomSpec* G = &b->geom[g];
    if (G->type != CS_GEOM_HFIELD || c->target[G->body] == 0) continue;
    return csi_error(CS_ERR_MODEL,
                     "%s: geom '%s': a heightfield geom must be static, on the world body (or a "
                     "body welded to it), but body '%s' moves",
                     source_name(G->source), G->name && G->name[0] ? G->name : "(unnamed)",
                     b->body[G->body].s.name);
  }
  return CS_OK;
}

/* An ellipsoid and a heightfield that may touch (contype/conaffinity) are refused: the
   heightfield collides sphere, capsule, cylinder, box and mesh geoms only. */
static csStatus compile_check_ellipsoids(bCompile* c) {
  const csBuilder* b = c->b;
  for (int e = 0; e < b->ngeom; e++) {
    const csGeomSpec* E = &b->geom[e];
    if (E->type != CS_GEOM_ELLIPSOID) continue;
    for (int h = 0; h < b->ngeom; h++) {
      const csGeomSpec* H = &b->geom[h];
      if (H->type != CS_GEOM_HFIELD ||
          !((E->contype & H->conaffinity) || (H->contype & E->conaffinity)))
        continue;
      return csi_error(CS_ERR_UNSUPPORTED,
                       "%s: geom '%s': an ellipsoid cannot collide with heightfield geom '%s' "
                       "(not implemented); give one of them contype/conaffinity that exclude "
                       "the other",
                       source_name(E->source), E->name && E->name[0] ? E->name : "(unnamed)",
                       H->name && H->name[0] ? H->name : "(unnamed)");
    }
  }
  return CS_OK;
}

/* Sizes the exclude pairs, the name pool (offset 0 is the empty string; equality names
   included) and the notes (loader
   notes, plus room for one balancing note per body when balance_inertia is on). */
static void compile_size_names(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  m->nexclude = b->nexcl / 2;
  size_t nn = 1;
  for (int i = 0; i < c->nb; i++) nn += strlen(b->body[i].s.name) + 1;
  for (int i = 0; i < b->njnt; i++) nn += strlen(b->jnt[i].name) + 1;
  for (int i = 0; i < b->ngeom; i++) nn += strlen(b->geom[i].name) + 1;
  for (int i = 0; i < b->nsite; i++) nn += strlen(b->site[i].name) + 1;
  for (int i = 0; i < b->nact; i++) nn += strlen(b->act[i].name) + 1;
  for (int i = 0; i < b->nmesh; i++) nn += strlen(b->mesh[i].name) + 1;
  for (int i = 0; i < b->nhfield; i++) nn += strlen(b->hfield[i].name) + 1;
  for (int i = 0; i < b->neq; i++) nn += strlen(b->eq[i].name) + 1;
  for (int i = 0; i < b->nkey; i++) nn += strlen(b->key[i].name) + 1;
  m->nnames = (int)nn;
  m->nnote = (int)b->nnotes + 1 + (b->balance_inertia ? 256 * c->nkept : 0);
}

/* Sizes the tendons, their joint terms and the joints with an actuator-force range, and adds
   the tendons' names to the name pool's size. */
static void compile_size_tendons(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  m->ntendon = b->nten;
  for (int i = 0; i < b->nten; i++) {
    m->nwrap += b->ten[i].s.n;
    m->nnames += (int)strlen(b->ten[i].s.name) + 1;
  }
  for (int j = 0; j < b->njnt; j++)
    if (b->jnt[j].actfrclimited && b->jnt[j].type != CS_JNT_FIXED) m->njntfrc++;
}

/* Sizes the sparse mass matrix, nM: each dof stores one entry per dof on its path to the root
   (itself included), so nM sums the dof depths of the kept bodies' tree. */
static csStatus compile_size_mass_matrix(bCompile* c) {
  const csBuilder* b = c->b;
  int nkept = c->nkept;
  int* bdof = csi_calloc((size_t)nkept, sizeof(int));   /* dofs of each kept body */
  int* bpar = csi_calloc((size_t)nkept, sizeof(int));   /* parent of each kept body */
  int* bdepth = csi_calloc((size_t)nkept, sizeof(int)); /* dofs up to and including body */
  if (!bdof || !bpar || !bdepth) {
    cs_free(bdof);
    cs_free(bpar);
    cs_free(bdepth);
    return csi_error(CS_ERR_MEMORY, "compile: out of memory");
  }
  for (int j = 0; j < b->njnt; j++)
    if (c->jntnew[j] >= 0) bdof[c->newid[b->jnt[j].body]] += nv_of(b->jnt[j].type);
  bpar[0] = -1;
  for (int i = 1; i < c->nb; i++)
    if (c->movable[i]) bpar[c->newid[i]] = c->newid[c->target[b->body[i].s.parent]];
  long nM = 0;
  for (int i = 1; i < nkept; i++) {
    int base = bdepth[bpar[i]];
    for (int k = 0; k < bdof[i]; k++) nM += base + k + 1;
    bdepth[i] = base + bdof[i];
  }
  c->m->nM = (int)nM;
  cs_free(bdof);
  cs_free(bpar);
  cs_free(bdepth);
  return CS_OK;
}

/* Allocates the model's single buffer and points its arrays into it. */
static csStatus compile_layout(bCompile* c) {
  csModel* m = c->m;
  m->nbuffer_ = csi_model_layout(m, NULL);
  m->buffer_ = csi_calloc(1, m->nbuffer_);
  if (!m->buffer_)
    return csi_error(CS_ERR_MEMORY, "compile: out of memory (%zu bytes)", m->nbuffer_);
  csi_model_layout(m, m->buffer_);
  c->noff = 1;
  m->names[0] = 0;
  return CS_OK;
}

/* Fills the kept bodies: name, parent, pose in the parent, and mass, center of mass and inertia
   about it from the gathered inertia; each inertia is checked (and balanced when asked).
   Then the root of each body, with the joint, dof and geom addresses unset. */
static csStatus compile_bodies(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  for (int i = 0; i < c->nb; i++) {
    if (i > 0 && !c->movable[i]) continue;
    int k = c->newid[i];
    const csBodySpec* s = &b->body[i].s;
    m->body_name[k] = put_name(c, s->name);
    if (i == 0) {
      m->body_parent[0] = -1;
      csi_quat_identity(m->body_quat);
      continue;
    }
    int p = s->parent;
    m->body_parent[k] = c->newid[c->target[p]];
    pose_mul(m->body_pos + 3 * k, m->body_quat + 4 * k, c->relp + 3 * p, c->relq + 4 * p, s->pos,
             s->quat);
    const double* a = c->acc + 10 * i;
    double mass = a[0];
    m->body_mass[k] = mass;
    double com[3] = {0, 0, 0};
    if (mass > 0) csi_scl3(com, a + 1, 1.0 / mass);
    csi_copy3(m->body_ipos + 3 * k, com);
    double cc = csi_dot3(com, com);
    double* I = m->body_inertia + 6 * k;
    I[0] = a[4] - mass * (cc - com[0] * com[0]);
    I[1] = a[5] - mass * (cc - com[1] * com[1]);
    I[2] = a[6] - mass * (cc - com[2] * com[2]);
    I[3] = a[7] + mass * com[0] * com[1];
    I[4] = a[8] + mass * com[0] * com[2];
    I[5] = a[9] + mass * com[1] * com[2];
    if (c->movable[i] == 2) continue; /* static: its mass moves nothing */
    char where[512];
    snprintf(where, sizeof where, "%s", s->source ? s->source : c->file);
    csStatus st = check_inertia(where, s->name, mass, I, b->balance_inertia, m->notes);
    if (st != CS_OK) return st;
  }
  for (int k = 0; k < c->nkept; k++) {
    int r = k;
    while (r > 0 && m->body_parent[r] != 0) r = m->body_parent[r];
    m->body_rootid[k] = r;
    m->body_jntadr[k] = -1;
    m->body_dofadr[k] = -1;
    m->body_geomadr[k] = -1;
  }
  return CS_OK;
}

/* Initial qpos of builder joint J at qpos address qa: a free joint starts at its body's own
   placement, a ball joint at the identity, a hinge or slide at 0. */
static void compile_joint_qpos0(bCompile* c, const csJointSpec* J, int qa) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  if (J->type == CS_JNT_FREE) {
    int bi = J->body;
    int p = b->body[bi].s.parent;
    double pos[3], q[4];
    pose_mul(pos, q, c->relp + 3 * p, c->relq + 4 * p, b->body[bi].s.pos, b->body[bi].s.quat);
    csi_copy3(m->qpos0 + qa, pos);
    memcpy(m->qpos0 + qa + 3, q, sizeof q);
  } else if (J->type == CS_JNT_BALL) {
    csi_quat_identity(m->qpos0 + qa);
  } else {
    m->qpos0[qa] = 0;
  }
}

/* Fills the joints and their dofs in body order (builder joint order within a body), with the
   qpos and dof addresses and each body's joint and dof ranges. */
static void compile_joints(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  int jn = 0, qa = 0, da = 0;
  for (int k = 1; k < c->nkept; k++) {
    for (int j = 0; j < b->njnt; j++) {
      const csJointSpec* J = &b->jnt[j];
      if (J->type == CS_JNT_FIXED || c->newid[J->body] != k) continue;
      c->jntnew[j] = jn;
      m->jnt_type[jn] = J->type;
      m->jnt_body[jn] = k;
      m->jnt_qposadr[jn] = qa;
      m->jnt_dofadr[jn] = da;
      csi_copy3(m->jnt_pos + 3 * jn, J->pos);
      csi_copy3(m->jnt_axis + 3 * jn, J->axis);
      m->jnt_limited[jn] = J->limited;
      m->jnt_range[2 * jn] = J->range[0];
      m->jnt_range[2 * jn + 1] = J->range[1];
      m->jnt_margin[jn] = J->margin;
      m->jnt_name[jn] = put_name(c, J->name);
      if (m->body_jntadr[k] < 0) m->body_jntadr[k] = jn;
      m->body_jntnum[k]++;
      if (m->body_dofadr[k] < 0) m->body_dofadr[k] = da;
      int nvj = nv_of(J->type);
      m->body_dofnum[k] += nvj;
      for (int d = 0; d < nvj; d++) {
        m->dof_body[da + d] = k;
        m->dof_jnt[da + d] = jn;
        m->dof_damping[da + d] = J->damping;
        m->dof_armature[da + d] = J->armature;
        m->dof_frictionloss[da + d] = J->frictionloss;
      }
      compile_joint_qpos0(c, J, qa);
      qa += nq_of(J->type);
      da += nvj;
      jn++;
    }
  }
}

/* Free-joint bodies: their pose is carried by qpos, so the body frame sits at the world origin in
   the parent frame (as MuJoCo does); the body must be a child of the world and the joint anchored
   at the body origin. */
static csStatus compile_free_joints(bCompile* c) {
  csModel* m = c->m;
  for (int jn = 0; jn < m->njnt; jn++)
    if (m->jnt_type[jn] == CS_JNT_FREE) {
      int k = m->jnt_body[jn];
      if (m->body_parent[k] != 0)
        return csi_error(CS_ERR_MODEL,
                         "%s: joint '%s': a free joint's body must be a child of "
                         "the world",
                         c->file, m->names + m->jnt_name[jn]);
      csi_zero(m->body_pos + 3 * k, 3);
      csi_quat_identity(m->body_quat + 4 * k);
      if (csi_norm3(m->jnt_pos + 3 * jn) != 0)
        return csi_error(CS_ERR_MODEL,
                         "%s: joint '%s': a free joint's anchor must be the body "
                         "origin",
                         c->file, m->names + m->jnt_name[jn]);
    }
  return CS_OK;
}

/* The dof tree (each dof's parent dof), the mass matrix addresses of each dof's row (checked
   against nM), and the subtree masses. */
static csStatus compile_dof_tree(bCompile* c) {
  csModel* m = c->m;
  for (int k = 1; k < c->nkept; k++) {
    int p = m->body_parent[k];
    int lastp = p > 0 ? m->body_lastdof[p] : -1;
    int da = m->body_dofadr[k];
    for (int d = 0; d < m->body_dofnum[k]; d++) m->dof_parent[da + d] = d == 0 ? lastp : da + d - 1;
    m->body_lastdof[k] = m->body_dofnum[k] ? da + m->body_dofnum[k] - 1 : lastp;
  }
  m->body_lastdof[0] = -1;
  int adr = 0;
  for (int i = 0; i < m->nv; i++) {
    int n = 1;
    for (int p = m->dof_parent[i]; p >= 0; p = m->dof_parent[p]) n++;
    m->dof_Madr[i] = adr;
    m->dof_Mnum[i] = n;
    adr += n;
  }
  if (adr != m->nM)
    return csi_error(CS_ERR_MODEL, "%s: internal error: mass matrix size %d != %d", c->file, adr,
                     m->nM);
  for (int k = 0; k < c->nkept; k++) m->body_subtreemass[k] = m->body_mass[k];
  for (int k = c->nkept - 1; k > 0; k--)
    m->body_subtreemass[m->body_parent[k]] += m->body_subtreemass[k];
  return CS_OK;
}

/* Copies the meshes (vertices, faces, names) and their hull vertex indices. */
static void compile_meshes(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  int va = 0, fa = 0;
  for (int i = 0; i < b->nmesh; i++) {
    const bMesh* me = &b->mesh[i];
    m->mesh_vertadr[i] = va;
    m->mesh_vertnum[i] = me->nvert;
    m->mesh_faceadr[i] = fa;
    m->mesh_facenum[i] = me->nface;
    memcpy(m->mesh_vert + 3 * va, me->vert, sizeof(double) * 3 * (size_t)me->nvert);
    memcpy(m->mesh_face + 3 * fa, me->face, sizeof(int) * 3 * (size_t)me->nface);
    m->mesh_name[i] = put_name(c, me->name);
    va += me->nvert;
    fa += me->nface;
  }
  int ha = 0;
  for (int i = 0; i < b->nmesh; i++) {
    m->mesh_hulladr[i] = ha;
    m->mesh_hullnum[i] = c->hullnum[i];
    memcpy(m->mesh_hull + ha, c->hull + ha, sizeof(int) * (size_t)c->hullnum[i]);
    ha += c->hullnum[i];
  }
}

/* Copies the heightfields (sizes, samples, names). */
static void compile_hfields(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  int da = 0;
  for (int i = 0; i < b->nhfield; i++) {
    const bHfield* h = &b->hfield[i];
    int n = h->nrow * h->ncol;
    m->hfield_nrow[i] = h->nrow;
    m->hfield_ncol[i] = h->ncol;
    memcpy(m->hfield_size + 4 * i, h->size, sizeof h->size);
    m->hfield_adr[i] = da;
    memcpy(m->hfield_data + da, h->data, sizeof(double) * (size_t)n);
    m->hfield_name[i] = put_name(c, h->name);
    da += n;
  }
}

/* Geom gi's hull vertices, scaled by its size, stored from geom vertex address gva; returns the
   next free address. Geoms without a mesh, or on a mesh without a hull, have none. */
static int compile_geom_hull(bCompile* c, int gi, int gva) {
  csModel* m = c->m;
  int mi = m->geom_mesh[gi];
  m->geom_vertadr[gi] = -1;
  m->geom_vertnum[gi] = 0;
  if (mi >= 0 && m->mesh_hullnum[mi] > 0) {
    const double* sc = m->geom_size + 3 * gi;
    const double* mv = m->mesh_vert + 3 * m->mesh_vertadr[mi];
    m->geom_vertadr[gi] = gva;
    m->geom_vertnum[gi] = m->mesh_hullnum[mi];
    for (int h = 0; h < m->mesh_hullnum[mi]; h++, gva++) {
      const double* v = mv + 3 * m->mesh_hull[m->mesh_hulladr[mi] + h];
      for (int a = 0; a < 3; a++) m->geom_vert[3 * gva + a] = sc[a] * v[a];
    }
  }
  return gva;
}

/* Fills the geoms grouped by kept body (builder order within a body): type, collision masks, size
   (a mesh's 0 scale is 1; a heightfield's is its extents), pose in the body, friction, margin,
   scaled hull vertices and bounding radius. */
static void compile_geoms(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  int gva = 0, gi = 0;
  for (int k = 0; k < c->nkept; k++) {
    for (int g = 0; g < b->ngeom; g++) {
      const csGeomSpec* G = &b->geom[g];
      if (c->newid[c->target[G->body]] != k) continue;
      if (m->body_geomadr[k] < 0) m->body_geomadr[k] = gi;
      m->body_geomnum[k]++;
      m->geom_type[gi] = G->type;
      m->geom_body[gi] = k;
      m->geom_contype[gi] = G->contype;
      m->geom_conaffinity[gi] = G->conaffinity;
      m->geom_mesh[gi] = G->type == CS_GEOM_MESH ? G->mesh : -1;
      csi_copy3(m->geom_size + 3 * gi, G->size);
      if (G->type == CS_GEOM_MESH)
        for (int a = 0; a < 3; a++)
          if (m->geom_size[3 * gi + a] == 0) m->geom_size[3 * gi + a] = 1;
      pose_mul(m->geom_pos + 3 * gi, m->geom_quat + 4 * gi, c->relp + 3 * G->body,
               c->relq + 4 * G->body, G->pos, G->quat);
      m->geom_friction[gi] = G->friction;
      m->geom_margin[gi] = G->margin;
      gva = compile_geom_hull(c, gi, gva);
      int mi = m->geom_mesh[gi];
      m->geom_rbound[gi] = geom_rbound(G->type, m->geom_size + 3 * gi,
                                       mi >= 0 ? m->mesh_vert + 3 * m->mesh_vertadr[mi] : NULL,
                                       mi >= 0 ? m->mesh_vertnum[mi] : 0);
      m->geom_hfield[gi] = G->type == CS_GEOM_HFIELD ? G->hfield : -1;
      if (G->type == CS_GEOM_HFIELD) {
        /* geom_size: the heightfield's extents; rbound: its box (base included) */
        const double* hs = m->hfield_size + 4 * G->hfield;
        csi_copy3(m->geom_size + 3 * gi, hs);
        m->geom_rbound[gi] =
            sqrt(hs[0] * hs[0] + hs[1] * hs[1] + fmax(hs[2], hs[3]) * fmax(hs[2], hs[3]));
      }
      m->geom_name[gi] = put_name(c, G->name);
      m->geom_visual[gi] = G->visual;
      m->ngeomvisual += G->visual;
      m->geom_condim[gi] = G->condim == 1 ? 1 : 3;
      m->ngeomcondim1 += G->condim == 1;
      memcpy(m->geom_rgba + 4 * gi, G->rgba, sizeof G->rgba);
      gi++;
    }
  }
}

/* Fills the sites: the user sites, then one per merged body (its frame in the kept body, under
   its name). */
static void compile_sites(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  int si = 0;
  for (int s = 0; s < b->nsite; s++, si++) {
    const csSiteSpec* S = &b->site[s];
    m->site_body[si] = c->newid[c->target[S->body]];
    pose_mul(m->site_pos + 3 * si, m->site_quat + 4 * si, c->relp + 3 * S->body,
             c->relq + 4 * S->body, S->pos, S->quat);
    m->site_name[si] = put_name(c, S->name);
  }
  for (int i = 1; i < c->nb; i++) {
    if (c->movable[i]) continue;
    m->site_body[si] = c->newid[c->target[i]];
    csi_copy3(m->site_pos + 3 * si, c->relp + 3 * i);
    memcpy(m->site_quat + 4 * si, c->relq + 4 * i, 4 * sizeof(double));
    m->site_name[si] = put_name(c, b->body[i].s.name);
    si++;
  }
}

/* Fills the actuators; one that drives a fixed (merged) joint is an error. */
static csStatus compile_actuators(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  for (int a = 0; a < b->nact; a++) {
    const csActuatorSpec* A = &b->act[a];
    int j = A->tendon >= 0 ? -1 : c->jntnew[A->joint];
    if (j < 0 && A->tendon < 0)
      return csi_error(CS_ERR_MODEL, "%s: actuator '%s' drives a fixed joint",
                       source_name(A->source), A->name);
    m->actuator_type[a] = A->type;
    m->actuator_jnt[a] = j;
    m->actuator_gear[a] = A->gear;
    m->actuator_kp[a] = A->kp;
    m->actuator_kd[a] = A->kd;
    m->actuator_ctrllimited[a] = A->ctrllimited;
    m->actuator_ctrlrange[2 * a] = A->ctrlrange[0];
    m->actuator_ctrlrange[2 * a + 1] = A->ctrlrange[1];
    m->actuator_forcelimited[a] = A->forcelimited;
    m->actuator_forcerange[2 * a] = A->forcerange[0];
    m->actuator_forcerange[2 * a + 1] = A->forcerange[1];
    m->actuator_name[a] = put_name(c, A->name);
    m->actuator_gainprm[a] = A->gainprm;
    csi_copy3(m->actuator_biasprm + 3 * a, A->biasprm);
    m->actuator_tendon[a] = A->tendon;
    if (A->tendon >= 0) m->actuator_jnt[a] = -1;
  }
  return CS_OK;
}

/* Fills the keyframes: each given array must have the model's length (nq, nv, nu), the
   others take qpos0, zero velocities and zero controls. */
static csStatus compile_keys(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  for (int k = 0; k < b->nkey; k++) {
    const bKey* K = &b->key[k];
    const int have[3] = {K->nqpos, K->nqvel, K->nctrl}, want[3] = {m->nq, m->nv, m->nu};
    static const char* const what[3] = {"qpos", "qvel", "ctrl"};
    static const char* const size[3] = {"nq", "nv", "nu"};
    for (int j = 0; j < 3; j++)
      if (have[j] && have[j] != want[j])
        return csi_error(CS_ERR_MODEL, "%s: key '%s': %s has %d numbers, the model has %s = %d",
                         source_name(K->source), K->name, what[j], have[j], size[j], want[j]);
    double* qpos = m->key_qpos + (size_t)k * m->nq;
    if (K->nqpos)
      memcpy(qpos, K->val, sizeof(double) * (size_t)m->nq);
    else
      memcpy(qpos, m->qpos0, sizeof(double) * (size_t)m->nq);
    if (K->nqvel)
      memcpy(m->key_qvel + (size_t)k * m->nv, K->val + K->nqpos, sizeof(double) * (size_t)m->nv);
    if (K->nctrl)
      memcpy(m->key_ctrl + (size_t)k * m->nu, K->val + K->nqpos + K->nqvel,
             sizeof(double) * (size_t)m->nu);
    m->key_time[k] = K->time;
    m->key_name[k] = put_name(c, K->name);
  }
  return CS_OK;
}

/* Fills the tendons (a term on a fixed, merged joint is an error) and the joints' actuator-force
   ranges. */
static csStatus compile_tendons(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  int w = 0, k = 0;
  for (int t = 0; t < b->nten; t++) {
    const csTendonSpec* T = &b->ten[t].s;
    m->tendon_adr[t] = w, m->tendon_num[t] = T->n;
    m->tendon_limited[t] = T->limited;
    m->tendon_range[2 * t] = T->range[0], m->tendon_range[2 * t + 1] = T->range[1];
    m->tendon_name[t] = put_name(c, T->name);
    for (int i = 0; i < T->n; i++, w++) {
      m->wrap_jnt[w] = c->jntnew[T->joint[i]];
      m->wrap_coef[w] = T->coef[i];
      if (m->wrap_jnt[w] < 0)
        return csi_error(CS_ERR_MODEL, "%s: tendon '%s' spans a fixed joint",
                         source_name(T->source), T->name);
    }
  }
  for (int j = 0; j < b->njnt; j++)
    if (b->jnt[j].actfrclimited && c->jntnew[j] >= 0) {
      m->jntfrc_jnt[k] = c->jntnew[j];
      m->jntfrc_range[2 * k] = b->jnt[j].actfrcrange[0];
      m->jntfrc_range[2 * k + 1] = b->jnt[j].actfrcrange[1];
      k++;
    }
  return CS_OK;
}

/* The builder body named name: its index, -1 if no body has that name, -2 if several do. */
static int find_body(const csBuilder* b, const char* name) {
  int found = -1;
  for (int i = 0; i < b->nbody; i++)
    if (!strcmp(b->body[i].s.name, name)) {
      if (found >= 0) return -2;
      found = i;
    }
  return found;
}

/* The builder joint named name: its index, -1 if none, -2 if several joints have it. */
static int find_joint(const csBuilder* b, const char* name) {
  int found = -1;
  for (int j = 0; j < b->njnt; j++)
    if (!strcmp(b->jnt[j].name, name)) {
      if (found >= 0) return -2;
      found = j;
    }
  return found;
}

/* ------------------------------------------------------------------ compile: sensors */
/* Sizes the sensors and their values, and adds their names to the name pool's size. */
static void compile_size_sensors(bCompile* c) {
  const csBuilder* b = c->b;
  static const int dim[CS_SENS_COUNT] = {1, 1, 1, 3, 4, 3, 3, 3, 3, 3, 3, 1, 3};
  c->m->nsensor = b->nsens;
  for (int i = 0; i < b->nsens; i++) {
    c->m->nsensordata += dim[b->sens[i].type];
    c->m->nnames += (int)strlen(b->sens[i].name) + 1;
  }
}

/* A sensor's name for messages */
static const char* sensor_label(const csSensorSpec* S) {
  return S->name[0] ? S->name : "(unnamed)";
}

static csStatus sensor_error(const csSensorSpec* S, const char* fmt, const char* what) {
  return csi_error(CS_ERR_MODEL, "%s: sensor %s: %s '%s'%s", source_name(S->source),
                   sensor_label(S), what, S->objname, fmt);
}

/* Sensor i's frame on a site, a geom or a body (its frame or, objtype body, its centre of mass;
   a merged body's within the body it joined) */
static csStatus sensor_frame(bCompile* c, const csSensorSpec* S, int i, int objtype) {
  csModel* m = c->m;
  double *pos = m->sensor_pos + 3 * i, *quat = m->sensor_quat + 4 * i;
  int id = -1;
  if (objtype == CS_OBJ_SITE) {
    for (int s = 0; s < c->b->nsite && id < 0; s++)
      if (!strcmp(c->b->site[s].name, S->objname)) id = s;
    if (id < 0) return sensor_error(S, " not found", "site");
    int sb = c->b->site[id].body;
    if ((S->type == CS_SENS_FORCE || S->type == CS_SENS_TORQUE) && sb > 0 && !c->movable[sb])
      return sensor_error(S, " is on a body merged at compile (add the sensor after it)", "site");
    m->sensor_body[i] = m->site_body[id];
    csi_copy3(pos, m->site_pos + 3 * id), memcpy(quat, m->site_quat + 4 * id, 4 * sizeof(double));
  } else if (objtype == CS_OBJ_GEOM) {
    id = cs_name2id(m, "geom", S->objname);
    if (id < 0) return sensor_error(S, " not found", "geom");
    m->sensor_body[i] = m->geom_body[id];
    csi_copy3(pos, m->geom_pos + 3 * id), memcpy(quat, m->geom_quat + 4 * id, 4 * sizeof(double));
  } else if (objtype == CS_OBJ_BODY || objtype == CS_OBJ_XBODY) {
    int bb = find_body(c->b, S->objname);
    if (bb < 0) return sensor_error(S, bb == -1 ? " not found" : " is ambiguous", "body");
    if (objtype == CS_OBJ_BODY && S->type == CS_SENS_FRAMEQUAT)
      return csi_error(CS_ERR_UNSUPPORTED,
                       "%s: sensor %s: framequat of objtype body (its inertial frame) is not "
                       "supported; objtype xbody gives the body's frame",
                       source_name(S->source), sensor_label(S));
    id = c->newid[bb];
    m->sensor_body[i] = c->newid[c->target[bb]];
    csi_copy3(pos, c->relp + 3 * bb), memcpy(quat, c->relq + 4 * bb, 4 * sizeof(double));
    if (objtype == CS_OBJ_BODY) {
      double t[3];
      csi_quat_rotate(t, quat, c->b->body[bb].s.ipos);
      csi_add3(pos, pos, t);
    }
  } else {
    return csi_error(CS_ERR_MODEL, "%s: sensor %s: objtype %d is not body, xbody, geom or site",
                     source_name(S->source), sensor_label(S), objtype);
  }
  m->sensor_objtype[i] = objtype;
  m->sensor_objid[i] = id;
  return CS_OK;
}

/* Sensor i's joint, actuator or subtree body (no frame) */
static csStatus sensor_object(bCompile* c, const csSensorSpec* S, int i) {
  csModel* m = c->m;
  int t = S->type, id;
  if (t == CS_SENS_JOINTPOS || t == CS_SENS_JOINTVEL) {
    id = cs_name2id(m, "joint", S->objname);
    if (id < 0) return sensor_error(S, " not found (or fixed)", "joint");
    if (m->jnt_type[id] != CS_JNT_REVOLUTE && m->jnt_type[id] != CS_JNT_PRISMATIC)
      return sensor_error(S, " is not a hinge or slide", "joint");
    m->sensor_objtype[i] = CS_OBJ_JOINT;
  } else if (t == CS_SENS_ACTUATORFRC) {
    id = cs_name2id(m, "actuator", S->objname);
    if (id < 0) return sensor_error(S, " not found", "actuator");
    m->sensor_objtype[i] = CS_OBJ_ACTUATOR;
  } else { /* subtreecom: a body kept by cs_builder_add_sensor */
    int bb = find_body(c->b, S->objname);
    if (bb < 0) return sensor_error(S, bb == -1 ? " not found" : " is ambiguous", "body");
    id = c->newid[bb];
    if (id < 0) return sensor_error(S, " was merged at compile (add the sensor after it)", "body");
    m->sensor_objtype[i] = CS_OBJ_BODY;
    m->sensor_body[i] = id;
  }
  m->sensor_objid[i] = id;
  return CS_OK;
}

/* Fills the sensors: objects resolved by name, frames, value addresses */
static csStatus compile_sensors(bCompile* c) {
  csModel* m = c->m;
  static const int dim[CS_SENS_COUNT] = {1, 1, 1, 3, 4, 3, 3, 3, 3, 3, 3, 1, 3};
  int adr = 0;
  for (int i = 0; i < m->nsensor; i++) {
    const csSensorSpec* S = &c->b->sens[i];
    int t = S->type;
    m->sensor_type[i] = t;
    m->sensor_body[i] = -1;
    m->sensor_quat[4 * i] = 1;
    m->sensor_zonetype[i] = -1;
    csStatus st;
    if (t >= CS_SENS_FRAMEPOS && t <= CS_SENS_FRAMEANGVEL)
      st = sensor_frame(c, S, i, S->objtype);
    else if (t >= CS_SENS_ACCELEROMETER && t <= CS_SENS_TOUCH)
      st = sensor_frame(c, S, i, CS_OBJ_SITE);
    else
      st = sensor_object(c, S, i);
    if (st != CS_OK) return st;
    if (t == CS_SENS_TOUCH) {
      m->sensor_zonetype[i] = S->zonetype;
      csi_copy3(m->sensor_zonesize + 3 * i, S->zonesize);
    }
    m->sensor_adr[i] = adr;
    m->sensor_dim[i] = dim[t];
    adr += dim[t];
    m->sensor_noise[i] = S->noise;
    m->sensor_cutoff[i] = S->cutoff;
    m->sensor_name[i] = put_name(c, S->name);
  }
  return CS_OK;
}

/* The builder body of equality E's obj1 (which = 1) or obj2 (which = 2; none: the world) into
 *out, or an error naming the equality. */
static csStatus eq_body(const csBuilder* b, const csEqualitySpec* E, const char* what, int which,
                        int* out) {
  const char* nm = which == 1 ? E->obj1 : E->obj2;
  if (!nm) {
    *out = 0;
    return CS_OK;
  }
  int i = find_body(b, nm);
  if (i == -1)
    return csi_error(CS_ERR_MODEL, "%s (%s): body '%s' not found", what, source_name(E->source),
                     nm);
  if (i == -2)
    return csi_error(CS_ERR_MODEL, "%s (%s): body name '%s' is ambiguous (several bodies have it)",
                     what, source_name(E->source), nm);
  *out = i;
  return CS_OK;
}

/* The builder joint of equality E's obj1 or obj2 (none: -1) into *out; it must be revolute or
   prismatic. Otherwise an error naming the equality. */
static csStatus eq_joint(const csBuilder* b, const csEqualitySpec* E, const char* what, int which,
                         int* out) {
  const char* nm = which == 1 ? E->obj1 : E->obj2;
  *out = -1;
  if (!nm) return CS_OK;
  const char* src = source_name(E->source);
  int j = find_joint(b, nm);
  if (j == -1) return csi_error(CS_ERR_MODEL, "%s (%s): joint '%s' not found", what, src, nm);
  if (j == -2)
    return csi_error(CS_ERR_MODEL, "%s (%s): joint name '%s' is ambiguous (several joints have it)",
                     what, src, nm);
  int t = b->jnt[j].type;
  if (t != CS_JNT_REVOLUTE && t != CS_JNT_PRISMATIC) {
    static const char* const tn[] = {"free", "ball", "revolute", "prismatic",
                                     "fixed (merged at compile)"};
    return csi_error(CS_ERR_MODEL,
                     "%s (%s): joint '%s' is a %s joint; a joint equality couples revolute or "
                     "prismatic joints",
                     what, src, nm, tn[t]);
  }
  *out = j;
  return CS_OK;
}

/* World pose of every model body at the reference configuration qpos0 (xpos: nbody x 3, xquat:
   nbody x 4). There every hinge and slide is at 0 and every ball at the identity, so a body sits
   at its body_pos, body_quat in its parent; a free joint's body at its qpos0 pose. */
static void reference_poses(const csModel* m, double* xpos, double* xquat) {
  csi_zero(xpos, 3);
  csi_quat_identity(xquat);
  for (int k = 1; k < m->nbody; k++) {
    int ja = m->body_jntadr[k];
    if (ja >= 0 && m->jnt_type[ja] == CS_JNT_FREE) {
      const double* q = m->qpos0 + m->jnt_qposadr[ja];
      csi_copy3(xpos + 3 * k, q);
      memcpy(xquat + 4 * k, q + 3, 4 * sizeof(double));
      csi_quat_normalize(xquat + 4 * k);
    } else {
      int p = m->body_parent[k];
      pose_mul(xpos + 3 * k, xquat + 4 * k, xpos + 3 * p, xquat + 4 * p, m->body_pos + 3 * k,
               m->body_quat + 4 * k);
    }
  }
}

/* Fills the equalities: resolves their body or joint names (a merged body stands for the body it
   was welded into, its anchor carried into that body's frame) and computes eq_data at the
   reference configuration (cs_model.h). A missing or unsuitable name, or two bodies that end up
   as one model body, is an error naming the equality. */
static csStatus compile_equalities(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  if (b->neq == 0) return CS_OK;
  double* xpos = csi_malloc(sizeof(double) * 7 * (size_t)m->nbody);
  if (!xpos) return csi_error(CS_ERR_MEMORY, "%s: out of memory (equalities)", c->file);
  double* xquat = xpos + 3 * m->nbody;
  reference_poses(m, xpos, xquat);
  csStatus st = CS_OK;
  for (int e = 0; e < b->neq && st == CS_OK; e++) {
    const csEqualitySpec* E = &b->eq[e];
    char what[300];
    eq_label(what, sizeof what, E->name, e);
    double* data = m->eq_data + 11 * e;
    csi_zero(data, 11);
    m->eq_type[e] = E->type;
    m->eq_active[e] = E->active;
    m->eq_name[e] = put_name(c, E->name);
    if (E->type == CS_EQ_JOINT) {
      int j1, j2;
      st = eq_joint(b, E, what, 1, &j1);
      if (st == CS_OK) st = eq_joint(b, E, what, 2, &j2);
      if (st == CS_OK && j1 == j2)
        st = csi_error(CS_ERR_MODEL, "%s (%s): couples joint '%s' with itself", what,
                       source_name(E->source), E->obj1);
      if (st != CS_OK) break;
      m->eq_obj1[e] = c->jntnew[j1];
      m->eq_obj2[e] = j2 >= 0 ? c->jntnew[j2] : -1;
      memcpy(data, E->polycoef, 5 * sizeof(double));
      continue;
    }
    int i1, i2;
    st = eq_body(b, E, what, 1, &i1);
    if (st == CS_OK) st = eq_body(b, E, what, 2, &i2);
    if (st != CS_OK) break;
    const char* src = source_name(E->source);
    if (i1 == i2) {
      st = csi_error(CS_ERR_MODEL, "%s (%s): connects body '%s' to itself", what, src,
                     b->body[i1].s.name);
      break;
    }
    int k1 = c->newid[c->target[i1]], k2 = c->newid[c->target[i2]];
    if (k1 == k2) {
      st =
          csi_error(CS_ERR_MODEL,
                    "%s (%s): bodies '%s' and '%s' are welded into one body ('%s') at compile "
                    "(no movable joint between them), so the constraint would do nothing",
                    what, src, b->body[i1].s.name, b->body[i2].s.name, m->names + m->body_name[k1]);
      break;
    }
    m->eq_obj1[e] = k1;
    m->eq_obj2[e] = k2;
    /* the anchor in the frame of the model body that carries body 1 */
    double t[3], p[3], d[3];
    csi_quat_rotate(t, c->relq + 4 * i1, E->anchor);
    csi_add3(data, c->relp + 3 * i1, t);
    /* the same point in the world, then in body 2's frame, at the reference */
    csi_quat_rotate(t, xquat + 4 * k1, data);
    csi_add3(p, xpos + 3 * k1, t);
    csi_sub3(d, p, xpos + 3 * k2);
    double R2[9];
    csi_quat2mat(R2, xquat + 4 * k2);
    csi_mulmat3tvec(data + 3, R2, d);
    if (E->type == CS_EQ_WELD) {
      const double* q2 = xquat + 4 * k2;
      double q2inv[4] = {q2[0], -q2[1], -q2[2], -q2[3]};
      csi_quat_mul(data + 6, q2inv, xquat + 4 * k1);
      csi_quat_normalize(data + 6);
    }
  }
  cs_free(xpos);
  return st;
}

/* Can geoms a and b (model ids) form an explicit pair? Not one geom twice, not two geoms of
   one body (after welding) or of two bodies that do not move, and not two types without a
   collision function. Returns CS_OK or an error naming the pair p. */
static csStatus pair_geoms_ok(bCompile* c, int p, int a, int b) {
  const csModel* m = c->m;
  const csPairSpec* P = &c->b->pair[p];
  const char *src = source_name(P->source), *nm = P->name;
  int ba = m->geom_body[a], bb = m->geom_body[b];
  if (a == b || ba == bb)
    return csi_error(CS_ERR_MODEL,
                     "%s: pair '%s': geoms '%s' and '%s' are on one body '%s' (after welding "
                     "bodies without joints) and cannot collide",
                     src, nm, P->geom1, P->geom2, m->names + m->body_name[ba]);
  if (m->body_lastdof[ba] < 0 && m->body_lastdof[bb] < 0)
    return csi_error(CS_ERR_MODEL, "%s: pair '%s': geoms '%s' and '%s' are both static", src, nm,
                     P->geom1, P->geom2);
  for (int k = 0; k < 2; k++) {
    int g = k ? b : a;
    if (m->geom_type[g] == CS_GEOM_MESH && m->geom_vertnum[g] == 0)
      return csi_error(CS_ERR_MODEL, "%s: pair '%s': mesh geom '%s' is flat (no volume)", src, nm,
                       k ? P->geom2 : P->geom1);
  }
  int ta = m->geom_type[a] < m->geom_type[b] ? m->geom_type[a] : m->geom_type[b];
  int tb = m->geom_type[a] < m->geom_type[b] ? m->geom_type[b] : m->geom_type[a];
  if ((ta == CS_GEOM_PLANE && (tb == CS_GEOM_PLANE || tb == CS_GEOM_HFIELD)) ||
      (ta == CS_GEOM_HFIELD && tb >= CS_GEOM_HFIELD))
    return csi_error(CS_ERR_UNSUPPORTED,
                     "%s: pair '%s': geoms '%s' and '%s': no collision between a plane or "
                     "heightfield and a plane, heightfield or ellipsoid",
                     src, nm, P->geom1, P->geom2);
  return CS_OK;
}

/* Resolves the explicit pairs' geom names (model ids, smaller first), checks them, and copies
   their friction, margin and condim. A pair listed twice is an error. */
static csStatus compile_pairs(bCompile* c) {
  csModel* m = c->m;
  for (int p = 0; p < m->npair; p++) {
    const csPairSpec* P = &c->b->pair[p];
    int g[2] = {cs_name2id(m, "geom", P->geom1), cs_name2id(m, "geom", P->geom2)};
    for (int k = 0; k < 2; k++)
      if (g[k] < 0)
        return csi_error(CS_ERR_MODEL, "%s: pair '%s': unknown geom '%s'", source_name(P->source),
                         P->name, k ? P->geom2 : P->geom1);
    csStatus st = pair_geoms_ok(c, p, g[0], g[1]);
    if (st != CS_OK) return st;
    int a = g[0] < g[1] ? g[0] : g[1], b = g[0] < g[1] ? g[1] : g[0];
    for (int q = 0; q < p; q++)
      if (m->pair_geom[2 * q] == a && m->pair_geom[2 * q + 1] == b)
        return csi_error(CS_ERR_MODEL, "%s: pair '%s': geoms '%s' and '%s' are paired twice",
                         source_name(P->source), P->name, P->geom1, P->geom2);
    m->pair_geom[2 * p] = a, m->pair_geom[2 * p + 1] = b;
    for (int k = 0; k < 2; k++) /* a geom a pair collides is not a visual geom */
      if (m->geom_visual[g[k]]) m->geom_visual[g[k]] = 0, m->ngeomvisual--;
    m->pair_friction[p] = P->friction;
    m->pair_margin[p] = P->margin;
    m->pair_condim[p] = P->condim;
  }
  return CS_OK;
}

/* Maps the excluded body pairs onto kept bodies (lower id first), and puts the loader notes
   ahead of the compile notes written during the inertia checks. */
static void compile_excludes_notes(bCompile* c) {
  const csBuilder* b = c->b;
  csModel* m = c->m;
  for (int e = 0; e < m->nexclude; e++) {
    int b1 = c->newid[c->target[b->excl[2 * e]]], b2 = c->newid[c->target[b->excl[2 * e + 1]]];
    m->exclude_pair[2 * e] = b1 < b2 ? b1 : b2;
    m->exclude_pair[2 * e + 1] = b1 < b2 ? b2 : b1;
  }
  size_t lc = strlen(m->notes);
  memmove(m->notes + b->nnotes, m->notes, lc + 1);
  if (b->nnotes) memcpy(m->notes, b->notes, b->nnotes);
}

/* Checks the options, derives the model's dependent quantities, and sets the contact and arena
   budgets. */
static csStatus compile_derive(bCompile* c) {
  csModel* m = c->m;
  if (!(m->opt.timestep > 0) || !isfinite(m->opt.timestep))
    return csi_error(CS_ERR_ARG, "%s: option timestep = %g must be > 0", c->file, m->opt.timestep);
  csi_model_derive(m);
  m->ncon_max =
      c->b->ncon_max > 0 ? c->b->ncon_max : 64 + 8 * (m->ngeom - m->ngeomvisual + m->npair);
  m->memory = c->b->memory;
  /* the dynamics' scratch (ABA: 90 doubles per body and 7 per dof; the step: 5 per dof and
     the positions) and the collision's (a placed geom, its bounds and indices) */
  m->arena_bytes = sizeof(double) * (size_t)(96 * m->nbody + 16 * m->nv + m->nq) +
                   256 * (size_t)m->ngeom + 65536;
  return CS_OK;
}

/* Compiles the builder into an immutable model. Bodies without a moving joint are welded into
   their nearest moving ancestor; then the model is sized, laid out in one buffer, filled, and
   derived. The stages run in this order, each only after the previous ones succeeded. */
csStatus cs_compile(const csBuilder* b, csModel** out) {
  *out = NULL;
  if (b->failed) return csi_error(CS_ERR_MEMORY, "builder: an allocation failed earlier");
  bCompile c;
  csStatus st = compile_alloc(&c, b);
  /* validate and merge */
  if (st == CS_OK) st = compile_validate_joints(&c);
  if (st == CS_OK) compile_merge_fixed(&c);
  /* size and lay out */
  if (st == CS_OK) compile_size_counts(&c);
  if (st == CS_OK) st = compile_mesh_hulls(&c);
  if (st == CS_OK) st = compile_size_hfields(&c);
  if (st == CS_OK) st = compile_check_ellipsoids(&c);
  if (st == CS_OK) compile_size_names(&c);
  if (st == CS_OK) compile_size_tendons(&c);
  if (st == CS_OK) compile_size_sensors(&c);
  if (st == CS_OK) c.m->npair = b->npair;
  if (st == CS_OK) st = compile_size_mass_matrix(&c);
  if (st == CS_OK) st = compile_layout(&c);
  /* fill (names go into the pool in this order) */
  if (st == CS_OK) st = compile_bodies(&c);
  if (st == CS_OK) compile_joints(&c);
  if (st == CS_OK) st = compile_free_joints(&c);
  if (st == CS_OK) st = compile_dof_tree(&c);
  if (st == CS_OK) compile_meshes(&c);
  if (st == CS_OK) compile_hfields(&c);
  if (st == CS_OK) compile_geoms(&c);
  if (st == CS_OK) compile_sites(&c);
  if (st == CS_OK) st = compile_pairs(&c);
  if (st == CS_OK) st = compile_actuators(&c);
  if (st == CS_OK) st = compile_equalities(&c);
  if (st == CS_OK) st = compile_keys(&c);
  if (st == CS_OK) st = compile_tendons(&c);
  if (st == CS_OK) st = compile_sensors(&c);
  if (st == CS_OK) compile_excludes_notes(&c);
  /* derive */
  if (st == CS_OK) st = compile_derive(&c);

  compile_free_scratch(&c);
  if (st != CS_OK) {
    cs_model_free(c.m);
    return st;
  }
  *out = c.m;
  return CS_OK;
}
