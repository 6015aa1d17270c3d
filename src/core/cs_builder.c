/* csBuilder: collects bodies, joints, geoms, ... and compiles them into a csModel. */
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
  char* notes;
  size_t nnotes, cnotes;
  char* source;
  int balance_inertia; /* repair inertias that violate the triangle inequality */
  int failed;          /* an allocation failed: compile reports it */
};

void cs_builder_set_balance_inertia(csBuilder* b, int on) { b->balance_inertia = on; }

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
}
void cs_site_spec_default(csSiteSpec* s) {
  memset(s, 0, sizeof *s);
  s->quat[0] = 1;
}
void cs_actuator_spec_default(csActuatorSpec* s) {
  memset(s, 0, sizeof *s);
  s->gear = 1;
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
  cs_free(b->excl);
  cs_free(b->notes);
  cs_free(b->source);
  cs_free(b);
}

csOption* cs_builder_option(csBuilder* b) { return &b->opt; }
int cs_builder_nbody(const csBuilder* b) { return b->nbody; }
int cs_builder_njoint(const csBuilder* b) { return b->njnt; }
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
  bb->s.name = csi_strdup(s->name ? s->name : "");
  bb->s.source = s->source ? csi_strdup(s->source) : NULL;
  csi_quat_normalize(bb->s.quat);
  return b->nbody++;
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
  if (!all_finite_n(s->pos, 3) || !all_finite_n(s->axis, 3) || !all_finite_n(s->range, 2) ||
      !isfinite(s->damping) || !isfinite(s->armature)) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': NaN or Inf in a field", source_name(s->source), nm);
    return -1;
  }
  if (s->damping < 0 || s->armature < 0) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': negative damping or armature", source_name(s->source),
              nm);
    return -1;
  }
  if ((s->type == CS_JNT_REVOLUTE || s->type == CS_JNT_PRISMATIC) && csi_norm3(s->axis) < 1e-12) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': zero axis", source_name(s->source), nm);
    return -1;
  }
  if (s->limited && s->range[0] > s->range[1]) {
    csi_error(CS_ERR_MODEL, "%s: joint '%s': range lower %g > upper %g", source_name(s->source), nm,
              s->range[0], s->range[1]);
    return -1;
  }
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
            : (s->type == CS_GEOM_BOX)                                    ? 3
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

int cs_builder_add_actuator(csBuilder* b, const csActuatorSpec* s) {
  const char* nm = s->name ? s->name : "";
  if (s->joint < 0 || s->joint >= b->njnt) {
    csi_error(CS_ERR_MODEL, "%s: actuator '%s': joint %d does not exist", source_name(s->source),
              nm, s->joint);
    return -1;
  }
  int t = b->jnt[s->joint].type;
  if (t != CS_JNT_REVOLUTE && t != CS_JNT_PRISMATIC) {
    csi_error(CS_ERR_MODEL, "%s: actuator '%s': joint '%s' is not a single-dof joint",
              source_name(s->source), nm, b->jnt[s->joint].name);
    return -1;
  }
  if (s->type != CS_ACT_MOTOR && s->type != CS_ACT_POSITION) {
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

csStatus cs_compile(const csBuilder* b, csModel** out) {
  *out = NULL;
  if (b->failed) return csi_error(CS_ERR_MEMORY, "builder: an allocation failed earlier");
  const char* file = b->source ? b->source : "model";
  int nb = b->nbody;
  csStatus st = CS_OK;

  /* scratch */
  int* movable = csi_calloc((size_t)nb, sizeof(int));
  int* target = csi_calloc((size_t)nb, sizeof(int));
  int* newid = csi_calloc((size_t)nb, sizeof(int));
  double* relp = csi_calloc((size_t)nb * 3, sizeof(double)); /* pose of builder body in target */
  double* relq = csi_calloc((size_t)nb * 4, sizeof(double));
  double* acc = csi_calloc((size_t)nb * 10, sizeof(double));
  int* jntnew = csi_calloc((size_t)(b->njnt + 1), sizeof(int));
  int* hull = NULL;    /* hull vertex indices of every mesh, one after another */
  int* hullnum = NULL; /* (nmesh) */
  csModel* m = csi_calloc(1, sizeof *m);
  if (!movable || !target || !newid || !relp || !relq || !acc || !jntnew || !m) {
    st = csi_error(CS_ERR_MEMORY, "compile: out of memory");
    goto done;
  }

  for (int j = 0; j < b->njnt; j++)
    if (b->jnt[j].type != CS_JNT_FIXED) movable[b->jnt[j].body] = 1;
  /* a free joint must be the only joint of its body and attached to the world */
  for (int j = 0; j < b->njnt; j++) {
    const csJointSpec* J = &b->jnt[j];
    if (J->type == CS_JNT_FREE) {
      int count = 0;
      for (int k = 0; k < b->njnt; k++)
        if (b->jnt[k].body == J->body && b->jnt[k].type != CS_JNT_FIXED) count++;
      if (count != 1) {
        st = csi_error(CS_ERR_MODEL,
                       "%s: joint '%s': a free joint must be the only joint of "
                       "its body",
                       source_name(J->source), J->name);
        goto done;
      }
    }
  }
  /* joints of one body must be contiguous in builder order (loaders add them so) */
  for (int j = 1; j < b->njnt; j++)
    for (int k = 0; k < j - 1; k++)
      if (b->jnt[k].body == b->jnt[j].body && b->jnt[j - 1].body != b->jnt[j].body) {
        st = csi_error(CS_ERR_MODEL,
                       "%s: joint '%s': joints of body '%s' are not added "
                       "one after another",
                       source_name(b->jnt[j].source), b->jnt[j].name,
                       b->body[b->jnt[j].body].s.name);
        goto done;
      }

  /* targets and relative poses */
  int nkept = 1;
  target[0] = 0;
  newid[0] = 0;
  csi_quat_identity(relq);
  for (int i = 1; i < nb; i++) {
    const csBodySpec* s = &b->body[i].s;
    int p = s->parent;
    if (movable[i]) {
      target[i] = i;
      newid[i] = nkept++;
      csi_zero(relp + 3 * i, 3);
      csi_quat_identity(relq + 4 * i);
    } else {
      target[i] = target[p];
      newid[i] = -1;
      pose_mul(relp + 3 * i, relq + 4 * i, relp + 3 * p, relq + 4 * p, s->pos, s->quat);
    }
  }
  /* inertia accumulation in target frames */
  for (int i = 1; i < nb; i++) {
    const csBodySpec* s = &b->body[i].s;
    int t = target[i];
    if (t == 0) continue; /* welded to the world: static */
    double R[9], c[3], Iw[6];
    csi_quat2mat(R, relq + 4 * i);
    csi_mulmat3vec(c, R, s->ipos);
    csi_add3(c, c, relp + 3 * i);
    csi_sym_rotate(Iw, R, s->inertia);
    accum_inertia(acc + 10 * t, s->mass, c, Iw);
  }

  /* sizes */
  m->opt = b->opt;
  m->nbody = nkept;
  for (int j = 0; j < b->njnt; j++) {
    const csJointSpec* J = &b->jnt[j];
    jntnew[j] = -1;
    if (J->type == CS_JNT_FIXED) continue;
    jntnew[j] = m->njnt++;
    m->nq += nq_of(J->type);
    m->nv += nv_of(J->type);
  }
  m->ngeom = b->ngeom;
  m->nsite = b->nsite;
  for (int i = 1; i < nb; i++)
    if (!movable[i]) m->nsite++; /* a frame for each merged body */
  m->nu = b->nact;
  m->nmesh = b->nmesh;
  for (int i = 0; i < b->nmesh; i++) {
    m->nmeshvert += b->mesh[i].nvert;
    m->nmeshface += b->mesh[i].nface;
  }
  /* convex hulls of the meshes (collision uses them), and the scaled copies per geom */
  if (b->nmesh) {
    hull = csi_calloc((size_t)m->nmeshvert + 1, sizeof(int));
    hullnum = csi_calloc((size_t)b->nmesh, sizeof(int));
    if (!hull || !hullnum) {
      st = csi_error(CS_ERR_MEMORY, "%s: out of memory (mesh hulls)", file);
      goto done;
    }
    int off = 0;
    for (int i = 0; i < b->nmesh; i++) {
      const bMesh* me = &b->mesh[i];
      double ext = 0;
      for (int v = 0; v < 3 * me->nvert; v++) ext = fmax(ext, fabs(me->vert[v]));
      int nh = csi_convex_hull(me->vert, me->nvert, 1e-9 * (ext > 0 ? ext : 1), hull + off);
      hullnum[i] = nh > 0 ? nh : 0;
      off += hullnum[i];
    }
    m->nmeshhull = off;
  }
  for (int g = 0; g < b->ngeom; g++) {
    const csGeomSpec* G = &b->geom[g];
    if (G->type != CS_GEOM_MESH) continue;
    if (hullnum[G->mesh] == 0 && (G->contype || G->conaffinity)) {
      st = csi_error(CS_ERR_MODEL,
                     "%s: geom '%s': mesh '%s' is flat or degenerate (no volume), so it cannot "
                     "collide; give it contype=\"0\" conaffinity=\"0\" or fix the mesh",
                     source_name(G->source), G->name && G->name[0] ? G->name : "(unnamed)",
                     b->mesh[G->mesh].name);
      goto done;
    }
    m->ngeomvert += hullnum[G->mesh];
  }
  /* heightfields; their geoms must be static (welded to the world) */
  m->nhfield = b->nhfield;
  {
    long long nd = 0;
    for (int i = 0; i < b->nhfield; i++) nd += (long long)b->hfield[i].nrow * b->hfield[i].ncol;
    if (nd > 1 << 30) {
      st = csi_error(CS_ERR_MODEL, "%s: %lld heightfield samples in all is too many", file, nd);
      goto done;
    }
    m->nhfielddata = (int)nd;
  }
  for (int g = 0; g < b->ngeom; g++) {
    const csGeomSpec* G = &b->geom[g];
    if (G->type != CS_GEOM_HFIELD || target[G->body] == 0) continue;
    st = csi_error(CS_ERR_MODEL,
                   "%s: geom '%s': a heightfield geom must be static, on the world body (or a "
                   "body welded to it), but body '%s' moves",
                   source_name(G->source), G->name && G->name[0] ? G->name : "(unnamed)",
                   b->body[G->body].s.name);
    goto done;
  }
  m->nexclude = b->nexcl / 2;
  /* names: offset 0 is the empty string */
  size_t nn = 1;
  for (int i = 0; i < nb; i++) nn += strlen(b->body[i].s.name) + 1;
  for (int i = 0; i < b->njnt; i++) nn += strlen(b->jnt[i].name) + 1;
  for (int i = 0; i < b->ngeom; i++) nn += strlen(b->geom[i].name) + 1;
  for (int i = 0; i < b->nsite; i++) nn += strlen(b->site[i].name) + 1;
  for (int i = 0; i < b->nact; i++) nn += strlen(b->act[i].name) + 1;
  for (int i = 0; i < b->nmesh; i++) nn += strlen(b->mesh[i].name) + 1;
  for (int i = 0; i < b->nhfield; i++) nn += strlen(b->hfield[i].name) + 1;
  m->nnames = (int)nn;
  m->nnote = (int)b->nnotes + 1 + (b->balance_inertia ? 256 * nkept : 0);

  /* dof tree depth -> nM; computed after layout below, so first count depths here */
  {
    /* need body dof counts in the new order */
    int* bdof = csi_calloc((size_t)nkept, sizeof(int));
    int* bpar = csi_calloc((size_t)nkept, sizeof(int));
    if (!bdof || !bpar) {
      cs_free(bdof);
      cs_free(bpar);
      st = csi_error(CS_ERR_MEMORY, "compile: out of memory");
      goto done;
    }
    for (int j = 0; j < b->njnt; j++)
      if (jntnew[j] >= 0) bdof[newid[b->jnt[j].body]] += nv_of(b->jnt[j].type);
    bpar[0] = -1;
    for (int i = 1; i < nb; i++)
      if (movable[i]) bpar[newid[i]] = newid[target[b->body[i].s.parent]];
    /* depth(dof) = number of dofs on the path to the root including itself */
    int* bdepth = csi_calloc((size_t)nkept, sizeof(int)); /* dofs up to and including body */
    if (!bdepth) {
      cs_free(bdof);
      cs_free(bpar);
      st = csi_error(CS_ERR_MEMORY, "compile: out of memory");
      goto done;
    }
    long nM = 0;
    for (int i = 1; i < nkept; i++) {
      int base = bdepth[bpar[i]];
      for (int k = 0; k < bdof[i]; k++) nM += base + k + 1;
      bdepth[i] = base + bdof[i];
    }
    m->nM = (int)nM;
    cs_free(bdof);
    cs_free(bpar);
    cs_free(bdepth);
  }

  m->nbuffer_ = csi_model_layout(m, NULL);
  m->buffer_ = csi_calloc(1, m->nbuffer_);
  if (!m->buffer_) {
    st = csi_error(CS_ERR_MEMORY, "compile: out of memory (%zu bytes)", m->nbuffer_);
    goto done;
  }
  csi_model_layout(m, m->buffer_);

  /* names */
  size_t noff = 1;
  m->names[0] = 0;
#define PUTNAME(dst, str)                     \
  do {                                        \
    size_t l_ = strlen(str);                  \
    if (l_ == 0) {                            \
      (dst) = 0;                              \
    } else {                                  \
      memcpy(m->names + noff, (str), l_ + 1); \
      (dst) = (int)noff;                      \
      noff += l_ + 1;                         \
    }                                         \
  } while (0)

  /* bodies */
  for (int i = 0; i < nb; i++) {
    if (i > 0 && !movable[i]) continue;
    int k = newid[i];
    const csBodySpec* s = &b->body[i].s;
    PUTNAME(m->body_name[k], s->name);
    if (i == 0) {
      m->body_parent[0] = -1;
      csi_quat_identity(m->body_quat);
      continue;
    }
    int p = s->parent;
    m->body_parent[k] = newid[target[p]];
    pose_mul(m->body_pos + 3 * k, m->body_quat + 4 * k, relp + 3 * p, relq + 4 * p, s->pos,
             s->quat);
    const double* a = acc + 10 * i;
    double mass = a[0];
    m->body_mass[k] = mass;
    double c[3] = {0, 0, 0};
    if (mass > 0) csi_scl3(c, a + 1, 1.0 / mass);
    csi_copy3(m->body_ipos + 3 * k, c);
    double cc = csi_dot3(c, c);
    double* I = m->body_inertia + 6 * k;
    I[0] = a[4] - mass * (cc - c[0] * c[0]);
    I[1] = a[5] - mass * (cc - c[1] * c[1]);
    I[2] = a[6] - mass * (cc - c[2] * c[2]);
    I[3] = a[7] + mass * c[0] * c[1];
    I[4] = a[8] + mass * c[0] * c[2];
    I[5] = a[9] + mass * c[1] * c[2];
    char where[512];
    snprintf(where, sizeof where, "%s", s->source ? s->source : file);
    st = check_inertia(where, s->name, mass, I, b->balance_inertia, m->notes);
    if (st != CS_OK) goto done;
  }
  for (int k = 0; k < nkept; k++) {
    int r = k;
    while (r > 0 && m->body_parent[r] != 0) r = m->body_parent[r];
    m->body_rootid[k] = r;
    m->body_jntadr[k] = -1;
    m->body_dofadr[k] = -1;
    m->body_geomadr[k] = -1;
  }

  /* joints and dofs, in body order (builder joint order within a body) */
  {
    int jn = 0, qa = 0, da = 0;
    for (int k = 1; k < nkept; k++) {
      for (int j = 0; j < b->njnt; j++) {
        const csJointSpec* J = &b->jnt[j];
        if (J->type == CS_JNT_FIXED || newid[J->body] != k) continue;
        jntnew[j] = jn;
        m->jnt_type[jn] = J->type;
        m->jnt_body[jn] = k;
        m->jnt_qposadr[jn] = qa;
        m->jnt_dofadr[jn] = da;
        csi_copy3(m->jnt_pos + 3 * jn, J->pos);
        csi_copy3(m->jnt_axis + 3 * jn, J->axis);
        m->jnt_limited[jn] = J->limited;
        m->jnt_range[2 * jn] = J->range[0];
        m->jnt_range[2 * jn + 1] = J->range[1];
        PUTNAME(m->jnt_name[jn], J->name);
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
        }
        /* qpos0 */
        if (J->type == CS_JNT_FREE) {
          /* the free body's own placement is its initial position */
          int bi = J->body;
          double p[3], q[4];
          pose_mul(p, q, relp + 3 * b->body[bi].s.parent, relq + 4 * b->body[bi].s.parent,
                   b->body[bi].s.pos, b->body[bi].s.quat);
          csi_copy3(m->qpos0 + qa, p);
          memcpy(m->qpos0 + qa + 3, q, sizeof q);
        } else if (J->type == CS_JNT_BALL) {
          csi_quat_identity(m->qpos0 + qa);
        } else {
          m->qpos0[qa] = 0;
        }
        qa += nq_of(J->type);
        da += nvj;
        jn++;
      }
    }
  }
  /* free-joint bodies: their body pose is carried by qpos, so the body frame sits at the
     world origin in the parent frame (as MuJoCo does) */
  for (int jn = 0; jn < m->njnt; jn++)
    if (m->jnt_type[jn] == CS_JNT_FREE) {
      int k = m->jnt_body[jn];
      if (m->body_parent[k] != 0) {
        st = csi_error(CS_ERR_MODEL,
                       "%s: joint '%s': a free joint's body must be a child of "
                       "the world",
                       file, m->names + m->jnt_name[jn]);
        goto done;
      }
      csi_zero(m->body_pos + 3 * k, 3);
      csi_quat_identity(m->body_quat + 4 * k);
      if (csi_norm3(m->jnt_pos + 3 * jn) != 0) {
        st = csi_error(CS_ERR_MODEL,
                       "%s: joint '%s': a free joint's anchor must be the body "
                       "origin",
                       file, m->names + m->jnt_name[jn]);
        goto done;
      }
    }
  /* dof tree */
  for (int k = 1; k < nkept; k++) {
    int p = m->body_parent[k];
    int lastp = p > 0 ? m->body_lastdof[p] : -1;
    int da = m->body_dofadr[k];
    for (int d = 0; d < m->body_dofnum[k]; d++) m->dof_parent[da + d] = d == 0 ? lastp : da + d - 1;
    m->body_lastdof[k] = m->body_dofnum[k] ? da + m->body_dofnum[k] - 1 : lastp;
  }
  m->body_lastdof[0] = -1;
  {
    int adr = 0;
    for (int i = 0; i < m->nv; i++) {
      int n = 1;
      for (int p = m->dof_parent[i]; p >= 0; p = m->dof_parent[p]) n++;
      m->dof_Madr[i] = adr;
      m->dof_Mnum[i] = n;
      adr += n;
    }
    if (adr != m->nM) {
      st = csi_error(CS_ERR_MODEL, "%s: internal error: mass matrix size %d != %d", file, adr,
                     m->nM);
      goto done;
    }
  }
  /* subtree mass */
  for (int k = 0; k < nkept; k++) m->body_subtreemass[k] = m->body_mass[k];
  for (int k = nkept - 1; k > 0; k--)
    m->body_subtreemass[m->body_parent[k]] += m->body_subtreemass[k];

  /* meshes */
  {
    int va = 0, fa = 0;
    for (int i = 0; i < b->nmesh; i++) {
      const bMesh* me = &b->mesh[i];
      m->mesh_vertadr[i] = va;
      m->mesh_vertnum[i] = me->nvert;
      m->mesh_faceadr[i] = fa;
      m->mesh_facenum[i] = me->nface;
      memcpy(m->mesh_vert + 3 * va, me->vert, sizeof(double) * 3 * (size_t)me->nvert);
      memcpy(m->mesh_face + 3 * fa, me->face, sizeof(int) * 3 * (size_t)me->nface);
      PUTNAME(m->mesh_name[i], me->name);
      va += me->nvert;
      fa += me->nface;
    }
    int ha = 0;
    for (int i = 0; i < b->nmesh; i++) {
      m->mesh_hulladr[i] = ha;
      m->mesh_hullnum[i] = hullnum[i];
      memcpy(m->mesh_hull + ha, hull + ha, sizeof(int) * (size_t)hullnum[i]);
      ha += hullnum[i];
    }
  }

  /* heightfields */
  {
    int da = 0;
    for (int i = 0; i < b->nhfield; i++) {
      const bHfield* h = &b->hfield[i];
      int n = h->nrow * h->ncol;
      m->hfield_nrow[i] = h->nrow;
      m->hfield_ncol[i] = h->ncol;
      memcpy(m->hfield_size + 4 * i, h->size, sizeof h->size);
      m->hfield_adr[i] = da;
      memcpy(m->hfield_data + da, h->data, sizeof(double) * (size_t)n);
      PUTNAME(m->hfield_name[i], h->name);
      da += n;
    }
  }

  /* geoms: grouped by body (stable) */
  int gva = 0;
  {
    int gi = 0;
    for (int k = 0; k < nkept; k++) {
      for (int g = 0; g < b->ngeom; g++) {
        const csGeomSpec* G = &b->geom[g];
        if (newid[target[G->body]] != k) continue;
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
        pose_mul(m->geom_pos + 3 * gi, m->geom_quat + 4 * gi, relp + 3 * G->body,
                 relq + 4 * G->body, G->pos, G->quat);
        m->geom_friction[gi] = G->friction;
        m->geom_margin[gi] = G->margin;
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
        PUTNAME(m->geom_name[gi], G->name);
        gi++;
      }
    }
  }
  /* sites: user sites, then one per merged body */
  {
    int si = 0;
    for (int s = 0; s < b->nsite; s++, si++) {
      const csSiteSpec* S = &b->site[s];
      m->site_body[si] = newid[target[S->body]];
      pose_mul(m->site_pos + 3 * si, m->site_quat + 4 * si, relp + 3 * S->body, relq + 4 * S->body,
               S->pos, S->quat);
      PUTNAME(m->site_name[si], S->name);
    }
    for (int i = 1; i < nb; i++) {
      if (movable[i]) continue;
      m->site_body[si] = newid[target[i]];
      csi_copy3(m->site_pos + 3 * si, relp + 3 * i);
      memcpy(m->site_quat + 4 * si, relq + 4 * i, 4 * sizeof(double));
      PUTNAME(m->site_name[si], b->body[i].s.name);
      si++;
    }
  }
  /* actuators */
  for (int a = 0; a < b->nact; a++) {
    const csActuatorSpec* A = &b->act[a];
    int j = jntnew[A->joint];
    if (j < 0) {
      st = csi_error(CS_ERR_MODEL, "%s: actuator '%s' drives a fixed joint", source_name(A->source),
                     A->name);
      goto done;
    }
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
    PUTNAME(m->actuator_name[a], A->name);
  }
  /* excludes */
  for (int e = 0; e < m->nexclude; e++) {
    int b1 = newid[target[b->excl[2 * e]]], b2 = newid[target[b->excl[2 * e + 1]]];
    m->exclude_pair[2 * e] = b1 < b2 ? b1 : b2;
    m->exclude_pair[2 * e + 1] = b1 < b2 ? b2 : b1;
  }
#undef PUTNAME
  {
    /* loader notes first, then compile notes written during the inertia checks */
    size_t lc = strlen(m->notes);
    memmove(m->notes + b->nnotes, m->notes, lc + 1);
    if (b->nnotes) memcpy(m->notes, b->notes, b->nnotes);
  }

  /* options */
  if (!(m->opt.timestep > 0) || !isfinite(m->opt.timestep)) {
    st = csi_error(CS_ERR_ARG, "%s: option timestep = %g must be > 0", file, m->opt.timestep);
    goto done;
  }
  csi_model_derive(m);
  m->ncon_max = 64 + 8 * m->ngeom;
  m->arena_bytes =
      sizeof(double) * (size_t)(64 * m->nbody + 4 * m->nv * m->nv + 64 * m->nv + 16 * m->nM) +
      65536;

done:
  cs_free(movable);
  cs_free(target);
  cs_free(newid);
  cs_free(relp);
  cs_free(relq);
  cs_free(acc);
  cs_free(jntnew);
  cs_free(hull);
  cs_free(hullnum);
  if (st != CS_OK) {
    cs_model_free(m);
    return st;
  }
  *out = m;
  return CS_OK;
}
