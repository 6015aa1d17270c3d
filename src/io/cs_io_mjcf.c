/* MJCF loader: the subset of MuJoCo's XML format (2.2.2 and 3: <frame>, autolimits and
   timestep defaults) that contactsim simulates, read with libxml2 into a csBuilder.

   How it works:
   1. Top-level sections are gathered from the model file, <include> files spliced in place
      (recursively, relative to the including file, with cycle detection). Sections are
      then processed in MuJoCo's order, whatever their order in the file: compiler, option,
      default, asset, worldbody, contact, tendon, actuator, then everything else (<equality>
      read into builder equalities, <keyframe> into builder keys, the rest noted).
   2. The body tree is read into pending arrays (bodies, joints, geoms, sites) so that a
      body's inertia can be computed from its geoms before it is added, and so that
      compiler settotalmass can rescale every body; then everything is handed to the
      builder in tree order (a body's joints one after another, as the builder requires).
   3. Attributes and elements that contactsim does not simulate are reported through
      cs_builder_add_note, aggregated per (element, attribute) with the first location and
      a count; purely visual ones are summarised in one line.

   Defaults follow MuJoCo: the top-level <default> is class "main"; a nested class starts
   from its parent's values; an element uses its own class=, else the nearest enclosing
   body's childclass=, else "main". Lookups walk the class chain (nearest definition
   wins); "size" and "friction" are merged number by number as MuJoCo does. Actuator
   defaults (<general>, <motor>, <position>, ...) share one set of values per class, and so
   do equality defaults (<default><equality active=...>) for connect, weld and joint. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <libxml/tree.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "contactsim/cs_io.h"
#include "core/cs_builder.h"
#include "core/cs_error.h"
#include "core/cs_model.h"
#include "io/cs_io_mesh.h"
#include "io/cs_io_xml.h"
#include "math/cs_math.h"

#define MJ_PATH 4096
#define MJ_MAX_INCLUDE 32
#define MJ_PI 3.14159265358979323846

/* ------------------------------------------------------------------ types */
typedef struct {
  const xmlNode* n;
  const char* file; /* owned by the context */
} mjNode;

typedef struct {
  mjNode* a;
  int n, cap;
} mjList;

enum { MJ_KJOINT = 0, MJ_KGEOM, MJ_KSITE, MJ_KACT, MJ_KMESH, MJ_KEQ, MJ_KPAIR, MJ_NKIND };

typedef struct {
  const char* name;
  int parent;
  mjList elem[MJ_NKIND]; /* default elements of each kind, in file order */
} mjClass;

typedef struct {
  const char* key;
  const char* text;
  int count;
} mjNote;

typedef struct {
  const char* name;
  int id;            /* builder mesh index, -1 if skipped */
  double vol;        /* volume */
  double com[3];     /* centre of volume in the mesh frame */
  double inertia[6]; /* about com, per unit density */
  const char* unread; /* why its file was not read (missing, or a format not read), else NULL:
                         visual geoms on it are dropped, a colliding one is an error */
  csStatus unread_st;
} mjMesh;

typedef struct {
  const char* name;
  int id; /* builder heightfield index */
} mjHfield;

typedef struct {
  csBodySpec s;
  int parent; /* local index */
  int bid;    /* builder index once added */
} mjBody;

typedef struct {
  csJointSpec s;
  int body;
  int jid;
} mjJoint;

typedef struct {
  csGeomSpec s;
  int body;
} mjGeom;

typedef struct {
  csSiteSpec s;
  int body;
  int ztype; /* type and size (a touch sensor's zone): csGeomType */
  double zsize[3];
} mjSite;

typedef struct {
  double pos[3], quat[4]; /* composed pose of the enclosing <frame>s in the body */
  int depth;              /* enclosing frames, 0: none (pos, quat unused) */
} mjFrame;

typedef struct {
  const char* name;
  int id;
} mjTendon;

typedef struct {
  csBuilder* b;
  csLoadOptions opt;
  const char* mainfile;
  char maindir[MJ_PATH];
  /* documents and strings owned until the end of the load */
  xmlDocPtr* doc;
  int ndoc, cdoc;
  char** str;
  int nstr, cstr;
  const char* incstack[MJ_MAX_INCLUDE];
  int ninc;
  /* compiler */
  int degree, autolimits, inertiafromgeom, balanceinertia, strippath;
  char eulerseq[4];
  char meshdir[MJ_PATH];
  int igroup[2];
  double boundmass, boundinertia, settotalmass;
  /* defaults, assets, pending tree */
  mjClass* cls;
  int ncls, ccls;
  mjMesh* mesh;
  int nmesh, cmesh;
  mjHfield* hfield;
  int nhfield, chfield;
  mjBody* body;
  int nbody, cbody;
  mjJoint* jnt;
  int njnt, cjnt;
  mjGeom* geom;
  int ngeom, cgeom;
  mjSite* site;
  int nsite, csite;
  /* tendons by name: builder index, -1 for a spatial tendon (not simulated) */
  mjTendon* ten;
  int nten, cten;
  /* notes */
  mjNote* note;
  int nnote, cnote;
  int nvis;
  char visnames[512];
  mjFrame frame; /* <frame>: the enclosing frames' pose in the current body */
} mjCtx;

/* ------------------------------------------------------------------ small utilities */
static int mj_grow(void** p, int* cap, int n, size_t elem) {
  if (n < *cap) return 1;
  int nc = *cap ? 2 * *cap : 16;
  void* q = csi_realloc(*p, (size_t)*cap * elem, (size_t)nc * elem);
  if (!q) return 0;
  *p = q;
  *cap = nc;
  return 1;
}
#define MJ_GROW(arr, n, cap) mj_grow((void**)&(arr), &(cap), (n), sizeof *(arr))

static csStatus mj_oom(void) { return csi_error(CS_ERR_MEMORY, "MJCF loader: out of memory"); }

static int mj_line(const xmlNode* n) { return n ? (int)xmlGetLineNo(n) : 0; }
static const char* mj_name(const xmlNode* n) { return n ? csi_xml_name(n) : "?"; }
static int mj_is(const xmlNode* n, const char* name) { return strcmp(mj_name(n), name) == 0; }

/* Keep a copy of s until the end of the load. */
static const char* mj_keep(mjCtx* c, const char* s) {
  if (!s) return NULL;
  if (!MJ_GROW(c->str, c->nstr, c->cstr)) return NULL;
  char* d = csi_strdup(s);
  if (!d) return NULL;
  c->str[c->nstr++] = d;
  return d;
}

static const char* mj_keepf(mjCtx* c, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static const char* mj_keepf(mjCtx* c, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return mj_keep(c, buf);
}

/* "file:line: <elem>: message" */
static csStatus mj_err(csStatus st, mjNode nd, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
static csStatus mj_err(csStatus st, mjNode nd, const char* fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return csi_error(st, "%s:%d: <%s>: %s", nd.file ? nd.file : "?", mj_line(nd.n), mj_name(nd.n),
                   msg);
}

/* "file:line: <elem attr="value">: message" */
static csStatus mj_err_attr(csStatus st, mjNode nd, const char* attr, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
static csStatus mj_err_attr(csStatus st, mjNode nd, const char* attr, const char* fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char* v = csi_xml_attr(nd.n, attr);
  csStatus r = csi_error(st, "%s:%d: <%s %s=\"%s\">: %s", nd.file ? nd.file : "?", mj_line(nd.n),
                         mj_name(nd.n), attr, v ? v : "", msg);
  if (v) xmlFree(v);
  return r;
}

/* Wrap the current cs_last_error() with the location of nd. */
static csStatus mj_err_wrap(csStatus st, mjNode nd, const char* what) {
  char inner[1536];
  snprintf(inner, sizeof inner, "%s", cs_last_error());
  return mj_err(st, nd, "%s: %s", what, inner);
}

static const char* mj_basename(const char* p) {
  const char* s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* ------------------------------------------------------------------ notes */
static void mj_note(mjCtx* c, const char* key, mjNode where, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void mj_note(mjCtx* c, const char* key, mjNode where, const char* fmt, ...) {
  for (int i = 0; i < c->nnote; i++)
    if (strcmp(c->note[i].key, key) == 0) {
      c->note[i].count++;
      return;
    }
  char msg[900];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!MJ_GROW(c->note, c->nnote, c->cnote)) return;
  const char* k = mj_keep(c, key);
  const char* t = mj_keepf(c, "%s:%d: %s", where.file ? where.file : "?", mj_line(where.n), msg);
  if (!k || !t) return;
  c->note[c->nnote].key = k;
  c->note[c->nnote].text = t;
  c->note[c->nnote].count = 1;
  c->nnote++;
}

static void mj_note_attr(mjCtx* c, mjNode where, const char* elem, const char* attr,
                         const char* why) {
  char key[256];
  snprintf(key, sizeof key, "attr\n%s\n%s", elem, attr);
  mj_note(c, key, where, "<%s> attribute '%s' ignored (%s)", elem, attr, why);
}

static void mj_note_elem(mjCtx* c, mjNode where, const char* ctxname, const char* why) {
  char key[256];
  snprintf(key, sizeof key, "elem\n%s\n%s", ctxname, mj_name(where.n));
  mj_note(c, key, where, "<%s> element ignored (%s)", mj_name(where.n), why);
}

/* visual-only attribute or element: counted into one summary line */
static void mj_vis(mjCtx* c, const char* what) {
  c->nvis++;
  size_t l = strlen(what), have = strlen(c->visnames);
  /* whole-word membership test */
  const char* p = c->visnames;
  while ((p = strstr(p, what)) != NULL) {
    int start = p == c->visnames || p[-1] == ' ';
    int end = p[l] == 0 || p[l] == ',';
    if (start && end) return;
    p += l;
  }
  if (have + l + 3 < sizeof c->visnames) {
    if (have) strcat(c->visnames, ", ");
    strcat(c->visnames, what);
  }
}

static void mj_flush_notes(mjCtx* c) {
  for (int i = 0; i < c->nnote; i++) {
    if (c->note[i].count > 1)
      cs_builder_add_note(c->b, "%s; %d occurrences", c->note[i].text, c->note[i].count);
    else
      cs_builder_add_note(c->b, "%s", c->note[i].text);
  }
  if (c->nvis)
    cs_builder_add_note(c->b, "%s: %d visual-only element(s)/attribute(s) ignored (%s)",
                        c->mainfile ? c->mainfile : "model", c->nvis, c->visnames);
}

/* ------------------------------------------------------------------ attribute tables */
typedef struct {
  const char* name;
  char kind;           /* 'u' used, 'p' physics not simulated (noted), 'v' visual / no effect */
  const char* neutral; /* value for which a 'p' attribute changes nothing (NULL: none) */
  const char* why;
} mjAttr;

#define MJ_ORIENT_U                                                                      \
  {"quat", 'u', NULL, NULL}, {"axisangle", 'u', NULL, NULL}, {"euler", 'u', NULL, NULL}, \
      {"xyaxes", 'u', NULL, NULL}, {                                                     \
    "zaxis", 'u', NULL, NULL                                                             \
  }

static const mjAttr mj_attr_body[] = {
    {"name", 'u', NULL, NULL},
    {"childclass", 'u', NULL, NULL},
    {"pos", 'u', NULL, NULL},
    MJ_ORIENT_U,
    {"mocap", 'p', "false", "mocap bodies are treated as bodies welded to the world"},
    {"gravcomp", 'p', "0", "no gravity compensation"},
    {"user", 'v', NULL, NULL},
    {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_frame[] = {{"name", 'u', NULL, NULL},
                                       {"childclass", 'u', NULL, NULL},
                                       {"pos", 'u', NULL, NULL},
                                       MJ_ORIENT_U,
                                       {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_key[] = {
    {"name", 'u', NULL, NULL},
    {"time", 'u', NULL, NULL},
    {"qpos", 'u', NULL, NULL},
    {"qvel", 'u', NULL, NULL},
    {"ctrl", 'u', NULL, NULL},
    {"act", 'p', NULL, "no actuator activation"},
    {"mpos", 'p', NULL, "mocap bodies are treated as bodies welded to the world"},
    {"mquat", 'p', NULL, "mocap bodies are treated as bodies welded to the world"},
    {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_inertial[] = {
    {"pos", 'u', NULL, NULL},         MJ_ORIENT_U,
    {"mass", 'u', NULL, NULL},        {"diaginertia", 'u', NULL, NULL},
    {"fullinertia", 'u', NULL, NULL}, {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_joint[] = {
    {"name", 'u', NULL, NULL},
    {"class", 'u', NULL, NULL},
    {"type", 'u', NULL, NULL},
    {"pos", 'u', NULL, NULL},
    {"axis", 'u', NULL, NULL},
    {"limited", 'u', NULL, NULL},
    {"range", 'u', NULL, NULL},
    {"damping", 'u', NULL, NULL},
    {"armature", 'u', NULL, NULL},
    {"group", 'v', NULL, NULL},
    {"user", 'v', NULL, NULL},
    {"stiffness", 'p', "0", "no joint springs"},
    {"springref", 'p', "0", "no joint springs"},
    {"springdamper", 'p', "0 0", "no joint springs"},
    {"ref", 'p', "0", "qpos0 is always zero"},
    {"frictionloss", 'u', NULL, NULL},
    {"margin", 'u', NULL, NULL},
    {"solreflimit", 'p', NULL, "no soft-constraint parameters"},
    {"solimplimit", 'p', NULL, "no soft-constraint parameters"},
    {"solreffriction", 'p', NULL, "no soft-constraint parameters"},
    {"solimpfriction", 'p', NULL, "no soft-constraint parameters"},
    {"actuatorfrcrange", 'u', NULL, NULL},
    {"actuatorfrclimited", 'u', NULL, NULL},
    {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_freejoint[] = {
    {"name", 'u', NULL, NULL}, {"group", 'v', NULL, NULL}, {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_geom[] = {
    {"name", 'u', NULL, NULL},
    {"class", 'u', NULL, NULL},
    {"type", 'u', NULL, NULL},
    {"size", 'u', NULL, NULL},
    {"pos", 'u', NULL, NULL},
    MJ_ORIENT_U,
    {"fromto", 'u', NULL, NULL},
    {"mass", 'u', NULL, NULL},
    {"density", 'u', NULL, NULL},
    {"friction", 'u', NULL, NULL},
    {"contype", 'u', NULL, NULL},
    {"conaffinity", 'u', NULL, NULL},
    {"margin", 'u', NULL, NULL},
    {"mesh", 'u', NULL, NULL},
    {"group", 'u', NULL, NULL},
    {"rgba", 'u', NULL, NULL},
    {"material", 'v', NULL, NULL},
    {"user", 'v', NULL, NULL},
    {"condim", 'u', NULL, NULL},
    {"priority", 'p', "0", "no contact priority"},
    {"solmix", 'p', "1", "no soft-constraint parameters"},
    {"solref", 'p', NULL, "no soft-constraint parameters"},
    {"solimp", 'p', NULL, "no soft-constraint parameters"},
    {"gap", 'p', "0", "no contact gap"},
    {"fitscale", 'p', "1", "no fitting of primitives to meshes"},
    {"fluidshape", 'p', "none", "no fluid forces"},
    {"fluidcoef", 'p', NULL, "no fluid forces"},
    {"hfield", 'u', NULL, NULL},
    {"shellinertia", 'p', "false", "no shell inertia"},
    {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_site[] = {
    {"name", 'u', NULL, NULL},
    {"class", 'u', NULL, NULL},
    {"pos", 'u', NULL, NULL},
    MJ_ORIENT_U,
    {"type", 'u', NULL, NULL},
    {"size", 'u', NULL, NULL},
    {"rgba", 'v', NULL, NULL},
    {"material", 'v', NULL, NULL},
    {"group", 'v', NULL, NULL},
    {"user", 'v', NULL, NULL},
    {"fromto", 'p', NULL, "site fromto not supported: the site frame is pos/quat only"},
    {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_act[] = {{"name", 'u', NULL, NULL},
                                     {"class", 'u', NULL, NULL},
                                     {"joint", 'u', NULL, NULL},
                                     {"jointinparent", 'u', NULL, NULL},
                                     {"tendon", 'u', NULL, NULL},
                                     {"ctrllimited", 'u', NULL, NULL},
                                     {"ctrlrange", 'u', NULL, NULL},
                                     {"forcelimited", 'u', NULL, NULL},
                                     {"forcerange", 'u', NULL, NULL},
                                     {"gear", 'u', NULL, NULL},
                                     {"kp", 'u', NULL, NULL},
                                     {"kv", 'u', NULL, NULL},
                                     {"gaintype", 'u', NULL, NULL},
                                     {"gainprm", 'u', NULL, NULL},
                                     {"biastype", 'u', NULL, NULL},
                                     {"biasprm", 'u', NULL, NULL},
                                     {"dyntype", 'u', NULL, NULL},
                                     {"group", 'v', NULL, NULL},
                                     {"user", 'v', NULL, NULL},
                                     {"lengthrange", 'v', NULL, NULL},
                                     {"dynprm", 'p', NULL, "no actuator dynamics"},
                                     {"actlimited", 'p', "false", "no actuator activation"},
                                     {"actrange", 'p', NULL, "no actuator activation"},
                                     {"actdim", 'p', NULL, "no actuator activation"},
                                     {"cranklength", 'p', "0", "joint transmissions only"},
                                     {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_mesh[] = {{"name", 'u', NULL, NULL},
                                      {"class", 'u', NULL, NULL},
                                      {"file", 'u', NULL, NULL},
                                      {"scale", 'u', NULL, NULL},
                                      {"vertex", 'u', NULL, NULL},
                                      {"face", 'u', NULL, NULL},
                                      {"refpos", 'u', NULL, NULL},
                                      {"refquat", 'u', NULL, NULL},
                                      {"normal", 'v', NULL, NULL},
                                      {"texcoord", 'v', NULL, NULL},
                                      {"smoothnormal", 'v', NULL, NULL},
                                      {"content_type", 'v', NULL, NULL},
                                      {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_hfield[] = {
    {"name", 'u', NULL, NULL},         {"nrow", 'u', NULL, NULL},      {"ncol", 'u', NULL, NULL},
    {"size", 'u', NULL, NULL},         {"elevation", 'u', NULL, NULL}, {"file", 'u', NULL, NULL},
    {"content_type", 'v', NULL, NULL}, {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_size[] = {{"nconmax", 'u', NULL, NULL},
                                      {"njmax", 'v', NULL, NULL},
                                      {"nstack", 'v', NULL, NULL},
                                      {"memory", 'u', NULL, NULL},
                                      {"nuserdata", 'p', "0", "no user data"},
                                      {"nkey", 'v', NULL, NULL},
                                      {"nuser_body", 'v', NULL, NULL},
                                      {"nuser_jnt", 'v', NULL, NULL},
                                      {"nuser_geom", 'v', NULL, NULL},
                                      {"nuser_site", 'v', NULL, NULL},
                                      {"nuser_cam", 'v', NULL, NULL},
                                      {"nuser_tendon", 'v', NULL, NULL},
                                      {"nuser_actuator", 'v', NULL, NULL},
                                      {"nuser_sensor", 'v', NULL, NULL},
                                      {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_option[] = {
    {"timestep", 'u', NULL, NULL},
    {"gravity", 'u', NULL, NULL},
    {"integrator", 'u', NULL, NULL},
    {"impratio", 'p', "1", "no elliptic-cone impedance ratio"},
    {"cone", 'p', "pyramidal", "contactsim's friction cone is set by the solver"},
    {"noslip_iterations", 'p', "0", "no noslip post-processing"},
    {"noslip_tolerance", 'p', NULL, "no noslip post-processing"},
    {"density", 'p', "0", "no fluid forces"},
    {"viscosity", 'p', "0", "no fluid forces"},
    {"wind", 'p', "0 0 0", "no fluid forces"},
    {"solver", 'p', NULL, "MuJoCo solver settings are not used; see csOption"},
    {"iterations", 'p', NULL, "MuJoCo solver settings are not used; see csOption"},
    {"tolerance", 'p', NULL, "MuJoCo solver settings are not used; see csOption"},
    {"jacobian", 'p', NULL, "MuJoCo solver settings are not used; see csOption"},
    {"collision", 'p', "all", "all geom pairs are collided"},
    {"mpr_iterations", 'v', NULL, NULL},
    {"mpr_tolerance", 'v', NULL, NULL},
    {"magnetic", 'v', NULL, NULL},
    {"apirate", 'v', NULL, NULL},
    {"o_margin", 'v', NULL, NULL},
    {"o_solref", 'v', NULL, NULL},
    {"o_solimp", 'v', NULL, NULL},
    {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_compiler[] = {
    {"angle", 'u', NULL, NULL},
    {"autolimits", 'u', NULL, NULL},
    {"eulerseq", 'u', NULL, NULL},
    {"meshdir", 'u', NULL, NULL},
    {"assetdir", 'u', NULL, NULL},
    {"inertiafromgeom", 'u', NULL, NULL},
    {"inertiagrouprange", 'u', NULL, NULL},
    {"balanceinertia", 'u', NULL, NULL},
    {"boundmass", 'u', NULL, NULL},
    {"boundinertia", 'u', NULL, NULL},
    {"settotalmass", 'u', NULL, NULL},
    {"strippath", 'u', NULL, NULL},
    {"coordinate", 'u', NULL, NULL},
    {"texturedir", 'v', NULL, NULL},
    {"usethread", 'v', NULL, NULL},
    {"fusestatic", 'v', NULL, NULL},
    {"convexhull", 'v', NULL, NULL},
    {"discardvisual", 'p', "false", "visual geoms are not discarded"},
    {"exactmeshinertia", 'p', NULL, "mesh inertia is always computed from the closed mesh"},
    {"fitaabb", 'p', "false", "no fitting of primitives to meshes"},
    {NULL, 0, NULL, NULL}};

#define MJ_EQ_HARD "no soft-constraint parameters: the equality is a hard constraint"

static const mjAttr mj_attr_connect[] = {{"name", 'u', NULL, NULL},
                                         {"class", 'u', NULL, NULL},
                                         {"active", 'u', NULL, NULL},
                                         {"solref", 'p', NULL, MJ_EQ_HARD},
                                         {"solimp", 'p', NULL, MJ_EQ_HARD},
                                         {"body1", 'u', NULL, NULL},
                                         {"body2", 'u', NULL, NULL},
                                         {"anchor", 'u', NULL, NULL},
                                         {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_weld[] = {
    {"name", 'u', NULL, NULL},
    {"class", 'u', NULL, NULL},
    {"active", 'u', NULL, NULL},
    {"solref", 'p', NULL, MJ_EQ_HARD},
    {"solimp", 'p', NULL, MJ_EQ_HARD},
    {"body1", 'u', NULL, NULL},
    {"body2", 'u', NULL, NULL},
    {"anchor", 'u', NULL, NULL},
    {"relpose", 'u', NULL, NULL},
    {"torquescale", 'p', "1", "no torque scale: the weld's rotation is held as a hard constraint"},
    {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_eqjoint[] = {{"name", 'u', NULL, NULL},
                                         {"class", 'u', NULL, NULL},
                                         {"active", 'u', NULL, NULL},
                                         {"solref", 'p', NULL, MJ_EQ_HARD},
                                         {"solimp", 'p', NULL, MJ_EQ_HARD},
                                         {"joint1", 'u', NULL, NULL},
                                         {"joint2", 'u', NULL, NULL},
                                         {"polycoef", 'u', NULL, NULL},
                                         {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_tendon[] = {
    {"name", 'u', NULL, NULL},
    {"limited", 'u', NULL, NULL},
    {"range", 'u', NULL, NULL},
    {"class", 'p', NULL, "tendon defaults are not applied"},
    {"stiffness", 'p', "0", "no tendon springs"},
    {"springlength", 'p', NULL, "no tendon springs"},
    {"damping", 'p', "0", "no tendon damping"},
    {"frictionloss", 'p', "0", "no tendon friction loss"},
    {"margin", 'p', "0", "a tendon limit's row is active from the bound on (margin 0)"},
    {"solreflimit", 'p', NULL, "no soft-constraint parameters"},
    {"solimplimit", 'p', NULL, "no soft-constraint parameters"},
    {"solreffriction", 'p', NULL, "no soft-constraint parameters"},
    {"solimpfriction", 'p', NULL, "no soft-constraint parameters"},
    {"group", 'v', NULL, NULL},
    {"rgba", 'v', NULL, NULL},
    {"material", 'v', NULL, NULL},
    {"width", 'v', NULL, NULL},
    {"user", 'v', NULL, NULL},
    {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_pair[] = {
    {"name", 'u', NULL, NULL},
    {"class", 'u', NULL, NULL},
    {"geom1", 'u', NULL, NULL},
    {"geom2", 'u', NULL, NULL},
    {"friction", 'u', NULL, NULL},
    {"condim", 'u', NULL, NULL},
    {"margin", 'u', NULL, NULL},
    {"gap", 'p', "0", "no contact gap"},
    {"solref", 'p', NULL, "no soft-constraint parameters"},
    {"solreffriction", 'p', NULL, "no soft-constraint parameters"},
    {"solimp", 'p', NULL, "no soft-constraint parameters"},
    {NULL, 0, NULL, NULL}};

static const mjAttr mj_attr_exclude[] = {{"name", 'u', NULL, NULL},
                                         {"body1", 'u', NULL, NULL},
                                         {"body2", 'u', NULL, NULL},
                                         {NULL, 0, NULL, NULL}};

/* Compare two attribute values: as number lists if both parse, else as strings. */
static int mj_same_value(const char* a, const char* b) {
  const char *p = a, *q = b;
  char *ea, *eb;
  int numeric = 1, any = 0;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
    if (!*p || !*q) {
      if (*p || *q) numeric = 0;
      break;
    }
    double x = strtod(p, &ea), y = strtod(q, &eb);
    if (ea == p || eb == q) {
      numeric = 0;
      break;
    }
    if (x != y) return 0;
    any = 1;
    p = ea;
    q = eb;
  }
  if (numeric && any) return 1;
  return strcmp(a, b) == 0;
}

/* ------------------------------------------------------------------ defaults lookup */
/* Nodes that may define attributes of an element: the element, then its class chain
   (nearest class first, later elements of a class first). */
static int mj_sources(const mjCtx* c, mjNode own, int kind, int cls, mjNode* out, int max) {
  int n = 0;
  if (own.n && n < max) out[n++] = own;
  if (kind < 0) return n;
  for (int k = cls; k >= 0; k = c->cls[k].parent) {
    const mjList* L = &c->cls[k].elem[kind];
    for (int i = L->n - 1; i >= 0 && n < max; i--) out[n++] = L->a[i];
  }
  return n;
}

static mjNode mj_find(const mjCtx* c, mjNode own, int kind, int cls, const char* attr) {
  mjNode src[96];
  int n = mj_sources(c, own, kind, cls, src, 96);
  for (int i = 0; i < n; i++)
    if (xmlHasProp(src[i].n, (const xmlChar*)attr)) return src[i];
  mjNode none = {NULL, NULL};
  return none;
}

/* Attribute text (xmlFree it) with defaults, or NULL. */
static char* mj_str(const mjCtx* c, mjNode own, int kind, int cls, const char* attr) {
  mjNode d = mj_find(c, own, kind, cls, attr);
  return d.n ? csi_xml_attr(d.n, attr) : NULL;
}

/* Numbers with defaults: 1 found, 0 absent, -1 malformed (cs_last_error set). */
static int mj_num(const mjCtx* c, mjNode own, int kind, int cls, const char* attr, double* out,
                  int count) {
  mjNode d = mj_find(c, own, kind, cls, attr);
  if (!d.n) return 0;
  return csi_xml_doubles(d.file, d.n, attr, out, count);
}

/* Up to max numbers merged from the root class down to the element, as MuJoCo does for
   size and friction (a later definition overrides only the numbers it gives). */
static int mj_num_partial(const mjCtx* c, mjNode own, int kind, int cls, const char* attr,
                          double* out, int max) {
  mjNode src[96];
  int n = mj_sources(c, own, kind, cls, src, 96), found = 0;
  for (int i = n - 1; i >= 0; i--) {
    if (!xmlHasProp(src[i].n, (const xmlChar*)attr)) continue;
    double tmp[8];
    int r = csi_xml_doubles(src[i].file, src[i].n, attr, tmp, -max);
    if (r < 0) return -1;
    for (int k = 0; k < r; k++) out[k] = tmp[k];
    found = 1;
  }
  return found;
}

/* Check every attribute that applies to an element (its own and inherited ones) against a
   table: used ones pass, others become notes. */
static void mj_check_attrs(mjCtx* c, mjNode own, int kind, int cls, const char* ename,
                           const mjAttr* tab) {
  mjNode src[96];
  int n = mj_sources(c, own, kind, cls, src, 96);
  const char* seen[128];
  int nseen = 0;
  for (int s = 0; s < n; s++) {
    for (const xmlAttr* a = src[s].n->properties; a; a = a->next) {
      const char* an = (const char*)a->name;
      int dup = 0;
      for (int i = 0; i < nseen; i++)
        if (strcmp(seen[i], an) == 0) dup = 1;
      if (dup) continue;
      if (nseen < 128) seen[nseen++] = an;
      const mjAttr* t = tab;
      while (t->name && strcmp(t->name, an) != 0) t++;
      if (!t->name) {
        if (s > 0 && strcmp(an, "class") == 0) continue;
        mj_note_attr(c, src[s], ename, an, "not a recognised MJCF attribute");
      } else if (t->kind == 'p') {
        char* v = csi_xml_attr(src[s].n, an);
        if (!t->neutral || !v || !mj_same_value(v, t->neutral))
          mj_note_attr(c, src[s], ename, an, t->why);
        if (v) xmlFree(v);
      } else if (t->kind == 'v') {
        mj_vis(c, an);
      }
    }
  }
}

static int mj_find_class(const mjCtx* c, const char* name) {
  for (int i = 0; i < c->ncls; i++)
    if (strcmp(c->cls[i].name, name) == 0) return i;
  return -1;
}

/* The class an element uses: its class= attribute, else the inherited one. */
static csStatus mj_elem_class(const mjCtx* c, mjNode nd, int inherited, int* cls) {
  char* s = csi_xml_attr(nd.n, "class");
  *cls = inherited;
  if (!s) return CS_OK;
  int k = mj_find_class(c, s);
  xmlFree(s);
  if (k < 0) return mj_err_attr(CS_ERR_PARSE, nd, "class", "unknown default class");
  *cls = k;
  return CS_OK;
}

/* keyword attribute: index of the value in list (NULL-terminated), -1 absent, -2 bad */
static int mj_keyword(const mjCtx* c, mjNode own, int kind, int cls, const char* attr,
                      const char* const* list, mjNode* where) {
  mjNode d = mj_find(c, own, kind, cls, attr);
  if (where) *where = d;
  if (!d.n) return -1;
  char* v = csi_xml_attr(d.n, attr);
  int r = -2;
  for (int i = 0; list[i]; i++)
    if (strcmp(v, list[i]) == 0) r = i;
  xmlFree(v);
  return r;
}

static const char* const mj_bool_words[] = {"false", "true", NULL};

/* boolean: 0/1, -1 absent, error status through *st */
static int mj_bool(const mjCtx* c, mjNode own, int kind, int cls, const char* attr, csStatus* st) {
  mjNode where;
  int r = mj_keyword(c, own, kind, cls, attr, mj_bool_words, &where);
  if (r == -2) *st = mj_err_attr(CS_ERR_PARSE, where, attr, "expected \"true\" or \"false\"");
  return r;
}

/* ------------------------------------------------------------------ orientation */
static void mj_z2quat(double q[4], const double v[3]) {
  double ax[3] = {-v[1], v[0], 0};
  double s = csi_norm3(ax);
  if (s < 1e-10) {
    ax[0] = 1, ax[1] = 0, ax[2] = 0;
  } else {
    csi_scl3(ax, ax, 1.0 / s);
  }
  double ang = atan2(s, v[2]);
  csi_axisangle2quat(q, ax, ang);
}

static const char* const mj_orient_names[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};

static int mj_has_orient(const xmlNode* n) {
  for (int i = 0; i < 5; i++)
    if (xmlHasProp(n, (const xmlChar*)mj_orient_names[i])) return 1;
  return 0;
}

/* Orientation from one node's own attributes. *found 0/1. full: fullinertia counts as an
   orientation (the <inertial> element). */
static csStatus mj_orient_node(const mjCtx* c, mjNode nd, double q[4], int* found, int full) {
  int count = 0, which = -1;
  for (int i = 0; i < 5; i++)
    if (xmlHasProp(nd.n, (const xmlChar*)mj_orient_names[i])) count++, which = i;
  if (full && xmlHasProp(nd.n, (const xmlChar*)"fullinertia")) count++;
  *found = 0;
  if (count > 1)
    return mj_err(CS_ERR_PARSE, nd,
                  "multiple orientation specifiers (quat, axisangle, euler, "
                  "xyaxes, zaxis%s) are not allowed",
                  full ? ", fullinertia" : "");
  if (which < 0) return CS_OK;
  const char* an = mj_orient_names[which];
  double v[6];
  double toRad = c->degree ? MJ_PI / 180.0 : 1.0;
  switch (which) {
    case 0:
      if (csi_xml_doubles(nd.file, nd.n, an, v, 4) < 0) return CS_ERR_PARSE;
      if (sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) < 1e-12)
        return mj_err_attr(CS_ERR_PARSE, nd, an, "zero quaternion");
      memcpy(q, v, 4 * sizeof(double));
      csi_quat_normalize(q);
      break;
    case 1:
      if (csi_xml_doubles(nd.file, nd.n, an, v, 4) < 0) return CS_ERR_PARSE;
      if (csi_normalize3(v) < 1e-12) return mj_err_attr(CS_ERR_PARSE, nd, an, "zero axis");
      csi_axisangle2quat(q, v, v[3] * toRad);
      break;
    case 2: {
      if (csi_xml_doubles(nd.file, nd.n, an, v, 3) < 0) return CS_ERR_PARSE;
      csi_quat_identity(q);
      for (int i = 0; i < 3; i++) {
        char ch = c->eulerseq[i];
        double ax[3] = {0, 0, 0}, r[4];
        ax[(ch == 'x' || ch == 'X') ? 0 : (ch == 'y' || ch == 'Y') ? 1 : 2] = 1;
        csi_axisangle2quat(r, ax, v[i] * toRad);
        if (ch >= 'a') /* intrinsic: about the rotated axes */
          csi_quat_mul(q, q, r);
        else /* extrinsic: about the parent's axes */
          csi_quat_mul(q, r, q);
      }
      csi_quat_normalize(q);
      break;
    }
    case 3: {
      if (csi_xml_doubles(nd.file, nd.n, an, v, 6) < 0) return CS_ERR_PARSE;
      double x[3] = {v[0], v[1], v[2]}, y[3] = {v[3], v[4], v[5]}, z[3];
      if (csi_normalize3(x) < 1e-12) return mj_err_attr(CS_ERR_PARSE, nd, an, "zero x axis");
      csi_addscl3(y, x, -csi_dot3(x, y));
      if (csi_normalize3(y) < 1e-12)
        return mj_err_attr(CS_ERR_PARSE, nd, an, "y axis parallel to x axis");
      csi_cross3(z, x, y);
      double R[9] = {x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]};
      csi_mat2quat(q, R);
      break;
    }
    case 4:
      if (csi_xml_doubles(nd.file, nd.n, an, v, 3) < 0) return CS_ERR_PARSE;
      if (csi_norm3(v) < 1e-12) return mj_err_attr(CS_ERR_PARSE, nd, an, "zero axis");
      mj_z2quat(q, v);
      break;
  }
  *found = 1;
  return CS_OK;
}

/* Orientation of an element: its own specifier, else the nearest default class's. */
static csStatus mj_orient(const mjCtx* c, mjNode own, int kind, int cls, double q[4]) {
  mjNode src[96];
  int n = mj_sources(c, own, kind, cls, src, 96);
  csi_quat_identity(q);
  for (int i = 0; i < n; i++) {
    if (!mj_has_orient(src[i].n)) continue;
    int found;
    return mj_orient_node(c, src[i], q, &found, 0);
  }
  return CS_OK;
}

/* ------------------------------------------------------------------ include */
static csStatus mj_children(mjCtx* c, mjNode parent, mjList* out);

static csStatus mj_push(mjList* L, mjNode nd) {
  if (!MJ_GROW(L->a, L->n, L->cap)) return mj_oom();
  L->a[L->n++] = nd;
  return CS_OK;
}

static csStatus mj_include(mjCtx* c, mjNode nd, mjList* out) {
  char* f = csi_xml_attr(nd.n, "file");
  if (!f) return mj_err(CS_ERR_PARSE, nd, "missing attribute 'file'");
  char dir[MJ_PATH], path[MJ_PATH];
  csi_path_dir(nd.file, dir, sizeof dir);
  csi_path_join(dir, f, path, sizeof path);
  if (c->ninc >= MJ_MAX_INCLUDE) {
    csStatus st = mj_err_attr(CS_ERR_PARSE, nd, "file",
                              "includes nested deeper than %d "
                              "(include cycle?)",
                              MJ_MAX_INCLUDE);
    xmlFree(f);
    return st;
  }
  char real[PATH_MAX];
  if (!realpath(path, real)) {
    csStatus st = mj_err_attr(CS_ERR_IO, nd, "file", "cannot open included file '%s'", path);
    xmlFree(f);
    return st;
  }
  for (int i = 0; i < c->ninc; i++)
    if (strcmp(c->incstack[i], real) == 0) {
      csStatus st = mj_err_attr(CS_ERR_PARSE, nd, "file",
                                "include cycle: '%s' is already "
                                "being included",
                                path);
      xmlFree(f);
      return st;
    }
  xmlFree(f);
  xmlDocPtr d = NULL;
  csStatus st = csi_xml_read(path, &d);
  if (st != CS_OK) return mj_err_wrap(st, nd, "in included file");
  if (!MJ_GROW(c->doc, c->ndoc, c->cdoc)) {
    xmlFreeDoc(d);
    return mj_oom();
  }
  c->doc[c->ndoc++] = d;
  const char* kf = mj_keep(c, path);
  const char* kr = mj_keep(c, real);
  if (!kf || !kr) return mj_oom();
  mjNode root = {xmlDocGetRootElement(d), kf};
  if (!mj_is(root.n, "mujoco"))
    return mj_err(CS_ERR_PARSE, root, "the root element of an included file must be <mujoco>");
  c->incstack[c->ninc++] = kr;
  st = mj_children(c, root, out);
  c->ninc--;
  return st;
}

/* Element children of parent, with <include> expanded in place. */
static csStatus mj_children(mjCtx* c, mjNode parent, mjList* out) {
  for (const xmlNode* k = parent.n->children; k; k = k->next) {
    if (k->type != XML_ELEMENT_NODE) continue;
    mjNode nd = {k, parent.file};
    csStatus st = mj_is(k, "include") ? mj_include(c, nd, out) : mj_push(out, nd);
    if (st != CS_OK) return st;
  }
  return CS_OK;
}

/* ------------------------------------------------------------------ compiler, option */
static csStatus mj_compiler(mjCtx* c, mjNode nd) {
  csStatus st = CS_OK;
  mj_check_attrs(c, nd, -1, 0, "compiler", mj_attr_compiler);
  static const char* const angles[] = {"radian", "degree", NULL};
  int a = mj_keyword(c, nd, -1, 0, "angle", angles, NULL);
  if (a == -2) return mj_err_attr(CS_ERR_PARSE, nd, "angle", "expected \"radian\" or \"degree\"");
  if (a >= 0) c->degree = a;
  int r = mj_bool(c, nd, -1, 0, "autolimits", &st);
  if (st != CS_OK) return st;
  if (r >= 0) c->autolimits = r;
  char* s = csi_xml_attr(nd.n, "eulerseq");
  if (s) {
    int ok = strlen(s) == 3;
    for (int i = 0; ok && i < 3; i++) ok = strchr("xyzXYZ", s[i]) != NULL;
    if (ok) memcpy(c->eulerseq, s, 4);
    xmlFree(s);
    if (!ok) return mj_err_attr(CS_ERR_PARSE, nd, "eulerseq", "expected 3 characters from xyzXYZ");
  }
  s = csi_xml_attr(nd.n, "assetdir");
  if (s) {
    snprintf(c->meshdir, sizeof c->meshdir, "%s", s);
    xmlFree(s);
  }
  s = csi_xml_attr(nd.n, "meshdir");
  if (s) {
    snprintf(c->meshdir, sizeof c->meshdir, "%s", s);
    xmlFree(s);
  }
  static const char* const ifg[] = {"false", "true", "auto", NULL};
  r = mj_keyword(c, nd, -1, 0, "inertiafromgeom", ifg, NULL);
  if (r == -2)
    return mj_err_attr(CS_ERR_PARSE, nd, "inertiafromgeom", "expected false, true or auto");
  if (r >= 0) c->inertiafromgeom = r;
  int g[2];
  r = csi_xml_ints(nd.file, nd.n, "inertiagrouprange", g, 2);
  if (r < 0) return CS_ERR_PARSE;
  if (r > 0) c->igroup[0] = g[0], c->igroup[1] = g[1];
  r = mj_bool(c, nd, -1, 0, "balanceinertia", &st);
  if (st != CS_OK) return st;
  if (r >= 0) c->balanceinertia = r;
  r = mj_bool(c, nd, -1, 0, "strippath", &st);
  if (st != CS_OK) return st;
  if (r >= 0) c->strippath = r;
  if (csi_xml_doubles(nd.file, nd.n, "boundmass", &c->boundmass, 1) < 0) return CS_ERR_PARSE;
  if (csi_xml_doubles(nd.file, nd.n, "boundinertia", &c->boundinertia, 1) < 0) return CS_ERR_PARSE;
  if (csi_xml_doubles(nd.file, nd.n, "settotalmass", &c->settotalmass, 1) < 0) return CS_ERR_PARSE;
  static const char* const coords[] = {"local", "global", NULL};
  r = mj_keyword(c, nd, -1, 0, "coordinate", coords, NULL);
  if (r == 1 || r == -2)
    return mj_err_attr(CS_ERR_UNSUPPORTED, nd, "coordinate",
                       "only local coordinates are "
                       "supported (as in MuJoCo 2.2.2 and later)");
  mjList L = {NULL, 0, 0};
  st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    if (mj_is(L.a[i].n, "lengthrange"))
      mj_vis(c, "lengthrange");
    else
      mj_note_elem(c, L.a[i], "compiler", "unknown element");
  }
  cs_free(L.a);
  return st;
}

static csStatus mj_flag(mjCtx* c, mjNode nd) {
  csOption* o = cs_builder_option(c->b);
  static const struct {
    const char* name;
    int bit; /* CS_DISABLE_* bit, 0: not mapped */
    int on;  /* MuJoCo default: 1 enabled */
  } flags[] = {
      {"gravity", CS_DISABLE_GRAVITY, 1},
      {"passive", CS_DISABLE_DAMPING, 1},
      {"actuation", CS_DISABLE_ACTUATION, 1},
      {"contact", CS_DISABLE_CONTACT, 1},
      {"limit", CS_DISABLE_LIMIT, 1},
      {"warmstart", -1, 1},
      {"constraint", 0, 1},
      {"equality", CS_DISABLE_EQUALITY, 1},
      {"frictionloss", CS_DISABLE_FRICTIONLOSS, 1},
      {"clampctrl", 0, 1},
      {"filterparent", 0, 1},
      {"refsafe", 0, 1},
      {"sensornoise", 0, 1},
      {"override", 0, 0},
      {"energy", 0, 0},
      {"fwdinv", 0, 0},
      {"midphase", 0, 1},
      {"eulerdamp", 0, 1},
      {"island", CS_DISABLE_ISLAND, 1}, /* MuJoCo 3's switch; contactsim's default: on */
  };
  static const char* const words[] = {"disable", "enable", NULL};
  for (const xmlAttr* a = nd.n->properties; a; a = a->next) {
    const char* an = (const char*)a->name;
    int k = -1;
    for (int i = 0; i < (int)(sizeof flags / sizeof flags[0]); i++)
      if (strcmp(flags[i].name, an) == 0) k = i;
    if (k < 0) {
      mj_note_attr(c, nd, "flag", an, "not a recognised MJCF attribute");
      continue;
    }
    int v = mj_keyword(c, nd, -1, 0, an, words, NULL);
    if (v < 0) return mj_err_attr(CS_ERR_PARSE, nd, an, "expected \"enable\" or \"disable\"");
    if (flags[k].bit > 0) {
      if (v)
        o->disable &= ~flags[k].bit;
      else
        o->disable |= flags[k].bit;
    } else if (flags[k].bit < 0) {
      o->warmstart = v;
    } else if (v != flags[k].on) {
      mj_note_attr(c, nd, "flag", an, "this MuJoCo switch has no contactsim counterpart");
    }
  }
  return CS_OK;
}

/* MuJoCo's memory size: an integer with an optional suffix K, M, G or T (powers of 1024).
   0 and the bytes in *out, or -1 */
static int mj_memory_bytes(const char* s, size_t* out) {
  char* end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || errno || *s == '-' || *s == '+') return -1;
  int shift = 0;
  if (*end) {
    const char* u = strchr("KMGT", end[0]);
    if (!u || end[1]) return -1;
    shift = 10 * (int)(u - "KMGT" + 1);
  }
  if (v > (CS_MEMORY_LIMIT >> shift)) return -1;
  *out = (size_t)v << shift;
  return 0;
}

/* <size>: nconmax sets the contact capacity (cs_builder_set_ncon_max) and memory the arena
   of each csData (cs_builder_set_memory: the constraint arrays and the stack, as in
   MuJoCo); MuJoCo 2.2.2's njmax and nstack size its own arrays, contactsim sizes its own */
static csStatus mj_size(mjCtx* c, mjNode nd) {
  mj_check_attrs(c, nd, -1, 0, "size", mj_attr_size);
  int n;
  int r = csi_xml_ints(nd.file, nd.n, "nconmax", &n, 1);
  if (r < 0) return CS_ERR_PARSE;
  if (r > 0 && (n < 1 || cs_builder_set_ncon_max(c->b, n) != 0))
    return mj_err_attr(CS_ERR_MODEL, nd, "nconmax", "must be in 1..%d", CS_NCON_MAX_LIMIT);
  char* mem = csi_xml_attr(nd.n, "memory");
  if (mem) {
    size_t bytes = 0;
    int bad = mj_memory_bytes(mem, &bytes) != 0 || bytes == 0;
    xmlFree(mem);
    if (bad || cs_builder_set_memory(c->b, bytes) != 0)
      return mj_err_attr(CS_ERR_MODEL, nd, "memory",
                         "must be a positive size in bytes with an optional suffix K, M, G or T, "
                         "at most 1T");
  }
  return CS_OK;
}

/* <custom>: <numeric name="contactsim_recovery_speed" data="V"> sets csOption.recovery_speed
   (V >= 0, 0: unbounded; docs/physics.md); the rest is user data MuJoCo keeps for the
   application, noted as not simulated */
static csStatus mj_custom(mjCtx* c, mjNode nd) {
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  int other = 0;
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    char* name = mj_is(L.a[i].n, "numeric") ? csi_xml_attr(L.a[i].n, "name") : NULL;
    int ours = name && strcmp(name, "contactsim_recovery_speed") == 0;
    xmlFree(name);
    if (!ours) {
      other = 1;
      continue;
    }
    double v;
    int r = csi_xml_doubles(L.a[i].file, L.a[i].n, "data", &v, 1);
    if (r < 0)
      st = CS_ERR_PARSE;
    else if (r == 0 || !(v >= 0) || !isfinite(v))
      st = mj_err_attr(CS_ERR_MODEL, L.a[i], "data",
                       "contactsim_recovery_speed must be one finite number >= 0 (m/s)");
    else
      cs_builder_option(c->b)->recovery_speed = v;
  }
  if (other) mj_vis(c, "custom");
  cs_free(L.a);
  return st;
}

static csStatus mj_option(mjCtx* c, mjNode nd) {
  csOption* o = cs_builder_option(c->b);
  mj_check_attrs(c, nd, -1, 0, "option", mj_attr_option);
  double ts;
  int r = csi_xml_doubles(nd.file, nd.n, "timestep", &ts, 1);
  if (r < 0) return CS_ERR_PARSE;
  if (r > 0) {
    if (!(ts > 0)) return mj_err_attr(CS_ERR_MODEL, nd, "timestep", "must be > 0");
    o->timestep = ts;
  }
  if (csi_xml_doubles(nd.file, nd.n, "gravity", o->gravity, 3) < 0) return CS_ERR_PARSE;
  char* s = csi_xml_attr(nd.n, "integrator");
  if (s) {
    if (strcmp(s, "Euler") != 0)
      mj_note_attr(c, nd, "option", "integrator",
                   "contactsim integrates with semi-implicit "
                   "Euler (csOption.integrator); MuJoCo's other integrators are not available");
    xmlFree(s);
  }
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    if (mj_is(L.a[i].n, "flag"))
      st = mj_flag(c, L.a[i]);
    else
      mj_note_elem(c, L.a[i], "option", "unknown element");
  }
  cs_free(L.a);
  return st;
}

/* ------------------------------------------------------------------ defaults */
static int mj_default_kind(const char* name) {
  static const char* const acts[] = {"general", "motor",    "position", "velocity", "intvelocity",
                                     "damper",  "cylinder", "muscle",   "adhesion", NULL};
  if (strcmp(name, "joint") == 0) return MJ_KJOINT;
  if (strcmp(name, "geom") == 0) return MJ_KGEOM;
  if (strcmp(name, "site") == 0) return MJ_KSITE;
  if (strcmp(name, "mesh") == 0) return MJ_KMESH;
  if (strcmp(name, "equality") == 0) return MJ_KEQ;
  if (strcmp(name, "pair") == 0) return MJ_KPAIR;
  for (int i = 0; acts[i]; i++)
    if (strcmp(name, acts[i]) == 0) return MJ_KACT;
  return -1;
}

static csStatus mj_new_class(mjCtx* c, const char* name, int parent, int* idx) {
  if (!MJ_GROW(c->cls, c->ncls, c->ccls)) return mj_oom();
  mjClass* k = &c->cls[c->ncls];
  memset(k, 0, sizeof *k);
  k->name = mj_keep(c, name);
  if (!k->name) return mj_oom();
  k->parent = parent;
  *idx = c->ncls++;
  return CS_OK;
}

static csStatus mj_default(mjCtx* c, mjNode nd, int cls) {
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    mjNode k = L.a[i];
    const char* nm = mj_name(k.n);
    if (strcmp(nm, "default") == 0) {
      char* cn = csi_xml_attr(k.n, "class");
      if (!cn) {
        st = mj_err(CS_ERR_PARSE, k, "a nested <default> needs a class attribute");
        break;
      }
      if (mj_find_class(c, cn) >= 0) {
        xmlFree(cn);
        st = mj_err_attr(CS_ERR_PARSE, k, "class", "default class defined twice");
        break;
      }
      int idx = -1;
      st = mj_new_class(c, cn, cls, &idx);
      xmlFree(cn);
      if (st == CS_OK) st = mj_default(c, k, idx);
      continue;
    }
    int kind = mj_default_kind(nm);
    if (kind >= 0) {
      st = mj_push(&c->cls[cls].elem[kind], k);
    } else if (strcmp(nm, "material") == 0 || strcmp(nm, "camera") == 0 ||
               strcmp(nm, "light") == 0 || strcmp(nm, "texture") == 0) {
      mj_vis(c, nm);
    } else if (strcmp(nm, "tendon") == 0) {
      /* defaults of elements that are themselves noted when used */
    } else {
      mj_note_elem(c, k, "default", "unknown element");
    }
  }
  cs_free(L.a);
  return st;
}

/* ------------------------------------------------------------------ assets */
/* Volume, centre and inertia (about the centre, unit density) of a closed triangle mesh:
   sum of signed tetrahedra from the vertex centroid. 0 if the volume is degenerate. */
static int mj_mesh_props(const double* v, int nv, const int* f, int nf, double* vol, double com[3],
                         double I[6]) {
  double ctr[3] = {0, 0, 0};
  for (int i = 0; i < nv; i++) csi_addscl3(ctr, v + 3 * i, 1.0 / nv);
  double V = 0, m1[3] = {0, 0, 0}, C[6] = {0, 0, 0, 0, 0, 0};
  double ext = 0;
  for (int i = 0; i < nv; i++) {
    double d[3];
    csi_sub3(d, v + 3 * i, ctr);
    ext = fmax(ext, csi_norm3(d));
  }
  for (int t = 0; t < nf; t++) {
    double a[3], b[3], cc[3], cr[3], s[3];
    csi_sub3(a, v + 3 * f[3 * t], ctr);
    csi_sub3(b, v + 3 * f[3 * t + 1], ctr);
    csi_sub3(cc, v + 3 * f[3 * t + 2], ctr);
    csi_cross3(cr, b, cc);
    double vt = csi_dot3(a, cr) / 6;
    for (int k = 0; k < 3; k++) s[k] = a[k] + b[k] + cc[k];
    V += vt;
    csi_addscl3(m1, s, vt / 4);
    static const int ij[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    for (int k = 0; k < 6; k++) {
      int p = ij[k][0], q = ij[k][1];
      C[k] += vt / 20 * (a[p] * a[q] + b[p] * b[q] + cc[p] * cc[q] + s[p] * s[q]);
    }
  }
  if (V < 0) { /* faces wound inwards */
    V = -V;
    csi_scl3(m1, m1, -1);
    for (int k = 0; k < 6; k++) C[k] = -C[k];
  }
  if (!(V > 1e-12 * ext * ext * ext) || !isfinite(V)) return 0;
  double r[3];
  csi_scl3(r, m1, 1.0 / V);
  C[0] -= V * r[0] * r[0], C[1] -= V * r[1] * r[1], C[2] -= V * r[2] * r[2];
  C[3] -= V * r[0] * r[1], C[4] -= V * r[0] * r[2], C[5] -= V * r[1] * r[2];
  I[0] = C[1] + C[2], I[1] = C[0] + C[2], I[2] = C[0] + C[1];
  I[3] = -C[3], I[4] = -C[4], I[5] = -C[5];
  *vol = V;
  csi_add3(com, ctr, r);
  return 1;
}

/* all numbers of an attribute into a new array */
static csStatus mj_num_list(mjNode nd, const char* attr, double** out, int* n) {
  *out = NULL;
  *n = 0;
  char* s = csi_xml_attr(nd.n, attr);
  if (!s) return CS_OK;
  int cap = 0;
  const char* p = s;
  char* end;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',') p++;
    if (!*p) break;
    double v = strtod(p, &end);
    if (end == p || !isfinite(v)) {
      xmlFree(s);
      cs_free(*out);
      *out = NULL;
      return mj_err_attr(CS_ERR_PARSE, nd, attr, "not a finite number list");
    }
    if (!MJ_GROW(*out, *n, cap)) {
      xmlFree(s);
      cs_free(*out);
      *out = NULL;
      return mj_oom();
    }
    (*out)[(*n)++] = v;
    p = end;
  }
  xmlFree(s);
  return CS_OK;
}

/* A mesh asset whose file is missing or in a format not read (st, with the message just
   raised): recorded without a builder mesh, with a note. Only a geom that collides with it
   makes it an error (mj_geom_mesh), so absent visual meshes do not stop a load. */
static csStatus mj_mesh_unread(mjCtx* c, mjNode nd, const char* name, csStatus st) {
  if (!MJ_GROW(c->mesh, c->nmesh, c->cmesh)) return mj_oom();
  mjMesh* m = &c->mesh[c->nmesh];
  memset(m, 0, sizeof *m);
  m->name = mj_keep(c, name);
  m->id = -1;
  m->unread = mj_keep(c, cs_last_error());
  m->unread_st = st;
  if (!m->name || !m->unread) return mj_oom();
  c->nmesh++;
  mj_note(c, "unreadmesh", nd,
          "<mesh> file not read (missing, or a format not read; first: "
          "'%s'): visual geoms (contype = conaffinity = 0) using these meshes are dropped",
          name);
  return CS_OK;
}

static csStatus mj_mesh(mjCtx* c, mjNode nd) {
  int cls = 0;
  csStatus st = mj_elem_class(c, nd, 0, &cls);
  if (st != CS_OK) return st;
  mj_check_attrs(c, nd, MJ_KMESH, cls, "mesh", mj_attr_mesh);
  char* file = csi_xml_attr(nd.n, "file");
  char* nm = csi_xml_attr(nd.n, "name");
  char name[512];
  if (nm) {
    snprintf(name, sizeof name, "%s", nm);
  } else if (file) {
    snprintf(name, sizeof name, "%s", mj_basename(file));
    char* dot = strrchr(name, '.');
    if (dot) *dot = 0;
  } else {
    name[0] = 0;
  }
  if (nm) xmlFree(nm);
  double scale[3] = {1, 1, 1}, refpos[3] = {0, 0, 0}, refquat[4] = {1, 0, 0, 0};
  int nv = 0, nf = 0;
  double* vert = NULL;
  int* face = NULL;
  if (mj_num(c, nd, MJ_KMESH, cls, "scale", scale, 3) < 0 ||
      mj_num(c, nd, MJ_KMESH, cls, "refpos", refpos, 3) < 0 ||
      mj_num(c, nd, MJ_KMESH, cls, "refquat", refquat, 4) < 0) {
    st = CS_ERR_PARSE;
    goto done;
  }
  if (file) {
    if (c->opt.skip_collision_meshes) {
      mj_note(c, "skipmesh", nd,
              "<mesh> file not loaded (skip_collision_meshes is set; "
              "first: '%s'): geoms using these meshes are dropped",
              name);
      goto record_skipped;
    }
    char dir[MJ_PATH], path[MJ_PATH];
    const char* rel = c->strippath ? mj_basename(file) : file;
    if (c->meshdir[0])
      csi_path_join(c->maindir, c->meshdir, dir, sizeof dir);
    else
      snprintf(dir, sizeof dir, "%s", c->maindir);
    csi_path_join(dir, rel, path, sizeof path);
    if (!csi_mesh_format_known(path)) {
      st = mj_err_attr(CS_ERR_UNSUPPORTED, nd, "file",
                       "mesh '%s': mesh format not read (%s are)", name, csi_mesh_formats());
      st = mj_mesh_unread(c, nd, name, st);
      goto done;
    }
    if (access(path, R_OK) != 0) {
      st = mj_err_attr(CS_ERR_IO, nd, "file", "mesh '%s': cannot open mesh file '%s'", name, path);
      st = mj_mesh_unread(c, nd, name, st);
      goto done;
    }
    st = csi_load_mesh(path, &nv, &vert, &nf, &face);
    if (st != CS_OK) {
      char what[700];
      snprintf(what, sizeof what, "mesh '%s'", name);
      st = mj_err_wrap(st, nd, what);
      goto done;
    }
  } else {
    double *vv = NULL, *ff = NULL;
    int nvv = 0, nff = 0;
    st = mj_num_list(nd, "vertex", &vv, &nvv);
    if (st == CS_OK) st = mj_num_list(nd, "face", &ff, &nff);
    if (st == CS_OK && (nvv == 0 || nvv % 3 || nff == 0 || nff % 3))
      st = mj_err(CS_ERR_PARSE, nd,
                  "mesh '%s': needs a file, or vertex and face lists (3 "
                  "numbers per vertex and per face)",
                  name);
    if (st == CS_OK) {
      nv = nvv / 3;
      nf = nff / 3;
      vert = vv;
      vv = NULL;
      face = csi_malloc(sizeof(int) * (size_t)nff);
      if (!face) st = mj_oom();
      for (int i = 0; st == CS_OK && i < nff; i++) {
        if (ff[i] != floor(ff[i]) || ff[i] < 0 || ff[i] >= nv)
          st = mj_err_attr(CS_ERR_PARSE, nd, "face", "vertex index %g out of range", ff[i]);
        else
          face[i] = (int)ff[i];
      }
    }
    cs_free(vv);
    cs_free(ff);
    if (st != CS_OK) goto done;
  }
  /* scale, then express in the reference frame */
  {
    csi_quat_normalize(refquat);
    double qc[4] = {refquat[0], -refquat[1], -refquat[2], -refquat[3]};
    for (int i = 0; i < nv; i++) {
      double* p = vert + 3 * i;
      double t[3];
      for (int k = 0; k < 3; k++) t[k] = p[k] * scale[k] - refpos[k];
      csi_quat_rotate(p, qc, t);
    }
  }
  {
    int id = cs_builder_add_mesh(c->b, name, nv, vert, nf, face);
    if (id < 0) {
      st = mj_err_wrap(CS_ERR_MODEL, nd, "mesh");
      goto done;
    }
    if (!MJ_GROW(c->mesh, c->nmesh, c->cmesh)) {
      st = mj_oom();
      goto done;
    }
    mjMesh* m = &c->mesh[c->nmesh];
    memset(m, 0, sizeof *m);
    m->name = mj_keep(c, name);
    m->id = id;
    if (!mj_mesh_props(vert, nv, face, nf, &m->vol, m->com, m->inertia)) m->vol = 0;
    c->nmesh++;
  }
  goto done;
record_skipped:
  if (!MJ_GROW(c->mesh, c->nmesh, c->cmesh)) {
    st = mj_oom();
    goto done;
  }
  memset(&c->mesh[c->nmesh], 0, sizeof(mjMesh));
  c->mesh[c->nmesh].name = mj_keep(c, name);
  c->mesh[c->nmesh].id = -1;
  c->nmesh++;
done:
  if (file) xmlFree(file);
  cs_free(vert); /* from the mesh file or from the inline lists: both library allocations */
  cs_free(face);
  return st;
}

/* <hfield name nrow ncol size="x y z base" elevation="...">: inline elevations only (a
   PNG or binary file is refused). As MuJoCo: the first row of the list is the row at +y
   (rows are flipped on the way in), the values are shifted and scaled to [0, 1] (size[2]
   gives the metres; a constant list becomes 0), and no list means a flat field at 0. */
static csStatus mj_hfield(mjCtx* c, mjNode nd) {
  mj_check_attrs(c, nd, -1, 0, "hfield", mj_attr_hfield);
  char name[512];
  char* nm = csi_xml_attr(nd.n, "name");
  snprintf(name, sizeof name, "%s", nm ? nm : "");
  if (nm) xmlFree(nm);
  if (xmlHasProp(nd.n, (const xmlChar*)"file"))
    return mj_err_attr(CS_ERR_UNSUPPORTED, nd, "file",
                       "hfield '%s': elevation files (PNG or "
                       "binary) are not supported: give nrow, ncol and an inline elevation "
                       "list",
                       name);
  int nrow = 0, ncol = 0;
  if (!xmlHasProp(nd.n, (const xmlChar*)"nrow") || !xmlHasProp(nd.n, (const xmlChar*)"ncol"))
    return mj_err(CS_ERR_PARSE, nd,
                  "hfield '%s': needs nrow and ncol (and an inline "
                  "elevation list)",
                  name);
  if (csi_xml_ints(nd.file, nd.n, "nrow", &nrow, 1) < 0 ||
      csi_xml_ints(nd.file, nd.n, "ncol", &ncol, 1) < 0)
    return CS_ERR_PARSE;
  if (nrow < 2) return mj_err_attr(CS_ERR_MODEL, nd, "nrow", "hfield '%s': must be >= 2", name);
  if (ncol < 2) return mj_err_attr(CS_ERR_MODEL, nd, "ncol", "hfield '%s': must be >= 2", name);
  if ((long long)nrow * ncol > 1 << 28)
    return mj_err(CS_ERR_MODEL, nd, "hfield '%s': %d x %d samples is too many", name, nrow, ncol);
  double size[4];
  int hs = csi_xml_doubles(nd.file, nd.n, "size", size, 4);
  if (hs < 0) return CS_ERR_PARSE;
  if (hs == 0) return mj_err(CS_ERR_PARSE, nd, "hfield '%s': needs size=\"x y height base\"", name);
  for (int k = 0; k < 4; k++)
    if (!(size[k] > 0))
      return mj_err_attr(CS_ERR_MODEL, nd, "size",
                         "hfield '%s': each of half x, half y, "
                         "height and base depth must be > 0",
                         name);
  int n = nrow * ncol, ne = 0;
  double* ev = NULL;
  csStatus st = mj_num_list(nd, "elevation", &ev, &ne);
  if (st != CS_OK) return st;
  if (ev && ne != n) {
    cs_free(ev);
    return mj_err(CS_ERR_PARSE, nd,
                  "hfield '%s': elevation has %d numbers, nrow x ncol = "
                  "%d x %d = %d",
                  name, ne, nrow, ncol, n);
  }
  double* data = csi_calloc((size_t)n, sizeof(double));
  if (!data) {
    cs_free(ev);
    return mj_oom();
  }
  if (ev) {
    double emin = INFINITY, emax = -INFINITY;
    for (int i = 0; i < n; i++) emin = fmin(emin, ev[i]), emax = fmax(emax, ev[i]);
    double range = emax - emin;
    for (int i = 0; i < nrow; i++)
      for (int j = 0; j < ncol; j++) {
        double v = ev[i * ncol + j] - emin;
        if (range > 0) v = fmin(1, v / range);
        data[(nrow - 1 - i) * ncol + j] = v;
      }
    cs_free(ev);
  }
  int id = cs_builder_add_hfield(c->b, name, nrow, ncol, size, data);
  cs_free(data);
  if (id < 0) return mj_err_wrap(CS_ERR_MODEL, nd, "hfield");
  if (!MJ_GROW(c->hfield, c->nhfield, c->chfield)) return mj_oom();
  c->hfield[c->nhfield].name = mj_keep(c, name);
  c->hfield[c->nhfield].id = id;
  if (!c->hfield[c->nhfield].name) return mj_oom();
  c->nhfield++;
  return CS_OK;
}

static csStatus mj_asset(mjCtx* c, mjNode nd) {
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    mjNode k = L.a[i];
    const char* nm = mj_name(k.n);
    if (strcmp(nm, "mesh") == 0)
      st = mj_mesh(c, k);
    else if (strcmp(nm, "texture") == 0 || strcmp(nm, "material") == 0 || strcmp(nm, "skin") == 0)
      mj_vis(c, nm);
    else if (strcmp(nm, "hfield") == 0)
      st = mj_hfield(c, k);
    else
      mj_note_elem(c, k, "asset", "unknown element");
  }
  cs_free(L.a);
  return st;
}

/* ------------------------------------------------------------------ inertia helpers */
/* Add mass m with centre p and inertia I (about p), all in the body frame, into
   accumulators about the body origin: m, m p, I_origin. */
static void mj_accum(double* acc, double m, const double* p, const double* I) {
  double pp = csi_dot3(p, p);
  acc[0] += m;
  csi_addscl3(acc + 1, p, m);
  acc[4] += I[0] + m * (pp - p[0] * p[0]);
  acc[5] += I[1] + m * (pp - p[1] * p[1]);
  acc[6] += I[2] + m * (pp - p[2] * p[2]);
  acc[7] += I[3] - m * p[0] * p[1];
  acc[8] += I[4] - m * p[0] * p[2];
  acc[9] += I[5] - m * p[1] * p[2];
}

/* accumulators -> mass, com, inertia about the com */
static void mj_accum_final(const double* acc, double* mass, double* com, double* I) {
  *mass = acc[0];
  csi_zero(com, 3);
  if (acc[0] > 0) csi_scl3(com, acc + 1, 1.0 / acc[0]);
  double m = acc[0], cc = csi_dot3(com, com);
  I[0] = acc[4] - m * (cc - com[0] * com[0]);
  I[1] = acc[5] - m * (cc - com[1] * com[1]);
  I[2] = acc[6] - m * (cc - com[2] * com[2]);
  I[3] = acc[7] + m * com[0] * com[1];
  I[4] = acc[8] + m * com[0] * com[2];
  I[5] = acc[9] + m * com[1] * com[2];
}

/* compiler balanceinertia / boundinertia on the principal moments; 1 if rebalanced */
static int mj_fix_inertia(const mjCtx* c, double* I) {
  if (!c->balanceinertia && !(c->boundinertia > 0)) return 0;
  double e[3], V[9];
  csi_sym_eig3(I, e, V);
  int changed = 0, balanced = 0;
  if (c->balanceinertia && e[0] + e[1] < e[2]) { /* ascending: the only test needed */
    double mean = (e[0] + e[1] + e[2]) / 3;
    e[0] = e[1] = e[2] = mean;
    changed = balanced = 1;
  }
  for (int k = 0; k < 3; k++)
    if (c->boundinertia > 0 && e[k] < c->boundinertia) e[k] = c->boundinertia, changed = 1;
  if (!changed) return 0;
  static const int ij[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  for (int k = 0; k < 6; k++) {
    int a = ij[k][0], b = ij[k][1];
    I[k] = V[3 * a] * e[0] * V[3 * b] + V[3 * a + 1] * e[1] * V[3 * b + 1] +
           V[3 * a + 2] * e[2] * V[3 * b + 2];
  }
  return balanced;
}

/* ------------------------------------------------------------------ body tree */
/* A pose (pos, quat) given inside <frame> elements moved into the enclosing body's frame
   through the frames' composed pose; unchanged outside any frame. */
static void mj_frame_apply(const mjCtx* c, double pos[3], double quat[4]) {
  if (c->frame.depth == 0) return;
  double p[3], q[4];
  csi_quat_rotate(p, c->frame.quat, pos);
  csi_add3(pos, p, c->frame.pos);
  csi_quat_mul(q, c->frame.quat, quat);
  csi_quat_normalize(q);
  memcpy(quat, q, sizeof q);
}

static const char* mj_source(mjCtx* c, mjNode nd) {
  return mj_keepf(c, "%s:%d", nd.file, mj_line(nd.n));
}

/* actuatorfrcrange / actuatorfrclimited (MuJoCo 3's; limited absent or "auto": limited when
   the range is given): the range the summed force of the joint's actuators is clamped to */
static csStatus mj_joint_actfrc(mjCtx* c, mjNode nd, int cls, csJointSpec* s) {
  int hr = mj_num(c, nd, MJ_KJOINT, cls, "actuatorfrcrange", s->actfrcrange, 2);
  if (hr < 0) return CS_ERR_PARSE;
  static const char* const lim[] = {"false", "true", "auto", NULL};
  mjNode where;
  int l = mj_keyword(c, nd, MJ_KJOINT, cls, "actuatorfrclimited", lim, &where);
  if (l == -2)
    return mj_err_attr(CS_ERR_PARSE, where, "actuatorfrclimited", "expected false, true or auto");
  s->actfrclimited = (l == 0 || l == 1) ? l : hr > 0;
  if (s->actfrclimited && s->type != CS_JNT_REVOLUTE && s->type != CS_JNT_PRISMATIC)
    return mj_err_attr(CS_ERR_MODEL, nd, "actuatorfrcrange", "needs a hinge or slide joint");
  return CS_OK;
}

static csStatus mj_joint(mjCtx* c, mjNode nd, int lb, int cc) {
  csJointSpec s;
  cs_joint_spec_default(&s);
  int isfree = mj_is(nd.n, "freejoint");
  int cls = cc;
  csStatus st = CS_OK;
  s.source = mj_source(c, nd);
  if (!s.source) return mj_oom();
  if (isfree) {
    /* <freejoint> takes no defaults (as in MuJoCo) */
    mj_check_attrs(c, nd, -1, 0, "freejoint", mj_attr_freejoint);
    s.type = CS_JNT_FREE;
  } else {
    st = mj_elem_class(c, nd, cc, &cls);
    if (st != CS_OK) return st;
    mj_check_attrs(c, nd, MJ_KJOINT, cls, "joint", mj_attr_joint);
    static const char* const types[] = {"free", "ball", "slide", "hinge", NULL};
    static const int map[] = {CS_JNT_FREE, CS_JNT_BALL, CS_JNT_PRISMATIC, CS_JNT_REVOLUTE};
    mjNode where;
    int t = mj_keyword(c, nd, MJ_KJOINT, cls, "type", types, &where);
    if (t == -2) return mj_err_attr(CS_ERR_PARSE, where, "type", "unknown joint type");
    s.type = t < 0 ? CS_JNT_REVOLUTE : map[t];
    if (mj_num(c, nd, MJ_KJOINT, cls, "pos", s.pos, 3) < 0 ||
        mj_num(c, nd, MJ_KJOINT, cls, "axis", s.axis, 3) < 0 ||
        mj_num(c, nd, MJ_KJOINT, cls, "damping", &s.damping, 1) < 0 ||
        mj_num(c, nd, MJ_KJOINT, cls, "armature", &s.armature, 1) < 0 ||
        mj_num(c, nd, MJ_KJOINT, cls, "frictionloss", &s.frictionloss, 1) < 0 ||
        mj_num(c, nd, MJ_KJOINT, cls, "margin", &s.margin, 1) < 0)
      return CS_ERR_PARSE;
    int hr = mj_num(c, nd, MJ_KJOINT, cls, "range", s.range, 2);
    if (hr < 0) return CS_ERR_PARSE;
    static const char* const lim[] = {"false", "true", "auto", NULL};
    int l = mj_keyword(c, nd, MJ_KJOINT, cls, "limited", lim, &where);
    if (l == -2) return mj_err_attr(CS_ERR_PARSE, where, "limited", "expected false, true or auto");
    if (l == 0 || l == 1) {
      s.limited = l;
    } else if (c->autolimits || l == 2) {
      s.limited = hr > 0;
    } else if (hr > 0 && s.type != CS_JNT_FREE) {
      return mj_err(CS_ERR_PARSE, nd,
                    "joint has 'range' but not 'limited': set compiler "
                    "autolimits=\"true\", give limited=\"true\" or \"false\", or remove "
                    "the range (as MuJoCo 2.2.2 requires)");
    }
    if (s.type == CS_JNT_FREE) {
      s.limited = 0;
      s.range[0] = s.range[1] = 0;
    }
    st = mj_joint_actfrc(c, nd, cls, &s);
    if (st != CS_OK) return st;
    if (c->degree && (s.type == CS_JNT_REVOLUTE || s.type == CS_JNT_BALL)) {
      s.range[0] *= MJ_PI / 180.0;
      s.range[1] *= MJ_PI / 180.0;
    }
  }
  if (s.type == CS_JNT_FREE && c->body[lb].parent != 0)
    return mj_err(CS_ERR_MODEL, nd,
                  "a free joint can only be used in a top-level body (a "
                  "child of <worldbody>)");
  char* nm = csi_xml_attr(nd.n, "name");
  s.name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  if (!MJ_GROW(c->jnt, c->njnt, c->cjnt)) return mj_oom();
  c->jnt[c->njnt].s = s;
  c->jnt[c->njnt].body = lb;
  c->jnt[c->njnt].jid = -1;
  c->njnt++;
  return CS_OK;
}

static const char* const mj_geom_types[] = {"plane",    "hfield", "sphere", "capsule", "ellipsoid",
                                            "cylinder", "box",    "mesh",   NULL};
enum { MJ_PLANE, MJ_HFIELD, MJ_SPHERE, MJ_CAPSULE, MJ_ELLIPSOID, MJ_CYLINDER, MJ_BOX, MJ_MESH };

/* A geom's attributes (with its class's defaults): size and friction (partial lists keep the
   defaults' tail), pos, margin, the collision masks, group and orientation; fromto then sets
   pos, orientation and the length part of size (capsule, cylinder, box or ellipsoid). */
static csStatus mj_geom_attrs(mjCtx* c, mjNode nd, int cls, int t, csGeomSpec* s, double size[3],
                              double fr[3], int* group) {
  double ft[6];
  if (mj_num_partial(c, nd, MJ_KGEOM, cls, "size", size, 3) < 0 ||
      mj_num_partial(c, nd, MJ_KGEOM, cls, "friction", fr, 3) < 0 ||
      mj_num(c, nd, MJ_KGEOM, cls, "pos", s->pos, 3) < 0 ||
      mj_num(c, nd, MJ_KGEOM, cls, "margin", &s->margin, 1) < 0)
    return CS_ERR_PARSE;
  {
    mjNode d = mj_find(c, nd, MJ_KGEOM, cls, "contype");
    if (d.n && csi_xml_ints(d.file, d.n, "contype", &s->contype, 1) < 0) return CS_ERR_PARSE;
    d = mj_find(c, nd, MJ_KGEOM, cls, "conaffinity");
    if (d.n && csi_xml_ints(d.file, d.n, "conaffinity", &s->conaffinity, 1) < 0)
      return CS_ERR_PARSE;
  }
  {
    mjNode d = mj_find(c, nd, MJ_KGEOM, cls, "group");
    if (d.n && csi_xml_ints(d.file, d.n, "group", group, 1) < 0) return CS_ERR_PARSE;
  }
  csStatus st = mj_orient(c, nd, MJ_KGEOM, cls, s->quat);
  if (st != CS_OK) return st;
  int hf = mj_num(c, nd, MJ_KGEOM, cls, "fromto", ft, 6);
  if (hf < 0) return CS_ERR_PARSE;
  if (hf > 0) {
    mjNode d = mj_find(c, nd, MJ_KGEOM, cls, "fromto");
    if (t != MJ_CAPSULE && t != MJ_CYLINDER && t != MJ_BOX && t != MJ_ELLIPSOID)
      return mj_err_attr(CS_ERR_PARSE, d, "fromto",
                         "fromto needs a capsule, cylinder, box "
                         "or ellipsoid geom");
    double v[3] = {ft[0] - ft[3], ft[1] - ft[4], ft[2] - ft[5]};
    double len = csi_norm3(v);
    if (!(len > 1e-12)) return mj_err_attr(CS_ERR_MODEL, d, "fromto", "zero length");
    for (int k = 0; k < 3; k++) s->pos[k] = 0.5 * (ft[k] + ft[k + 3]);
    mj_z2quat(s->quat, v);
    if (t == MJ_CAPSULE || t == MJ_CYLINDER) {
      size[1] = 0.5 * len;
    } else {
      size[1] = size[0];
      size[2] = 0.5 * len;
    }
  }
  return CS_OK;
}

/* The mesh asset a mesh geom names (*mesh; its builder id into s, whose size is then the
   mesh's own scale), or NULL for other types, which may not name one (no fitting). */
static csStatus mj_geom_mesh(mjCtx* c, mjNode nd, int cls, int t, csGeomSpec* s,
                             const mjMesh** mesh) {
  *mesh = NULL;
  if (t == MJ_MESH) {
    char* mn = mj_str(c, nd, MJ_KGEOM, cls, "mesh");
    if (!mn) return mj_err(CS_ERR_PARSE, nd, "a mesh geom needs a mesh attribute");
    for (int i = 0; i < c->nmesh; i++)
      if (strcmp(c->mesh[i].name, mn) == 0) *mesh = &c->mesh[i];
    if (!*mesh) {
      csStatus st = mj_err_attr(CS_ERR_MODEL, nd, "mesh", "unknown mesh '%s'", mn);
      xmlFree(mn);
      return st;
    }
    xmlFree(mn);
    if ((*mesh)->unread && !s->visual)
      return mj_err((*mesh)->unread_st, nd,
                    "a colliding geom (contype or conaffinity not 0) on mesh '%s', whose file "
                    "was not read: %s",
                    (*mesh)->name, (*mesh)->unread);
    s->mesh = (*mesh)->id;
    memset(s->size, 0, sizeof s->size);
  } else if (mj_find(c, nd, MJ_KGEOM, cls, "mesh").n) {
    return mj_err(CS_ERR_UNSUPPORTED, nd,
                  "fitting a %s to a mesh is not supported: use "
                  "type=\"mesh\"",
                  mj_geom_types[t]);
  }
  return CS_OK;
}

/* The heightfield asset a heightfield geom names: its asset gives the size; the geom must be
   static (checked at compile). */
static csStatus mj_geom_hfield(mjCtx* c, mjNode nd, int cls, int t, csGeomSpec* s) {
  if (t != MJ_HFIELD) return CS_OK;
  char* hn = mj_str(c, nd, MJ_KGEOM, cls, "hfield");
  if (!hn) return mj_err(CS_ERR_PARSE, nd, "a heightfield geom needs an hfield attribute");
  int found = -1;
  for (int i = 0; i < c->nhfield; i++)
    if (strcmp(c->hfield[i].name, hn) == 0) found = c->hfield[i].id;
  if (found < 0) {
    csStatus st = mj_err_attr(CS_ERR_MODEL, nd, "hfield", "unknown hfield '%s'", hn);
    xmlFree(hn);
    return st;
  }
  xmlFree(hn);
  s->hfield = found;
  memset(s->size, 0, sizeof s->size);
  return CS_OK;
}

/* The volume of a solid geom of type t and size, and its center of mass and inertia per unit
   mass in the geom frame (a mesh: its own; a mesh without volume: 0). */
static void mj_geom_unit_inertia(int t, const double size[3], const mjMesh* mesh, double* vol,
                                 double Ig[6], double comg[3]) {
  double r = size[0], h = 2 * size[1];
  switch (t) {
    case MJ_SPHERE:
      *vol = 4.0 / 3.0 * MJ_PI * r * r * r;
      Ig[0] = Ig[1] = Ig[2] = 0.4 * r * r; /* per unit mass */
      break;
    case MJ_CAPSULE: {
      *vol = MJ_PI * r * r * h + 4.0 / 3.0 * MJ_PI * r * r * r;
      /* per unit mass: cylinder plus two hemispheres, parallel-axis shifted */
      double ms = 4 * r / (4 * r + 3 * h), mc = 1 - ms;
      Ig[0] = Ig[1] =
          mc * (3 * r * r + h * h) / 12 + 0.4 * ms * r * r + ms * h * (3 * r + 2 * h) / 8;
      Ig[2] = mc * r * r / 2 + 0.4 * ms * r * r;
      break;
    }
    case MJ_CYLINDER:
      *vol = MJ_PI * r * r * h;
      Ig[0] = Ig[1] = (3 * r * r + h * h) / 12;
      Ig[2] = r * r / 2;
      break;
    case MJ_BOX:
      *vol = 8 * size[0] * size[1] * size[2];
      Ig[0] = (size[1] * size[1] + size[2] * size[2]) / 3;
      Ig[1] = (size[0] * size[0] + size[2] * size[2]) / 3;
      Ig[2] = (size[0] * size[0] + size[1] * size[1]) / 3;
      break;
    case MJ_ELLIPSOID:
      *vol = 4.0 / 3.0 * MJ_PI * size[0] * size[1] * size[2];
      Ig[0] = (size[1] * size[1] + size[2] * size[2]) / 5;
      Ig[1] = (size[0] * size[0] + size[2] * size[2]) / 5;
      Ig[2] = (size[0] * size[0] + size[1] * size[1]) / 5;
      break;
    case MJ_MESH:
      *vol = mesh->vol;
      if (*vol > 0) {
        csi_copy3(comg, mesh->com);
        for (int k = 0; k < 6; k++) Ig[k] = mesh->inertia[k] / *vol; /* per unit mass */
      }
      break;
  }
}

/* A solid geom's mass and inertia (from mass, or density times volume), added to the body's
   accumulators acc in the body frame. A mesh geom whose meshes were skipped counts none (with a
   note); one on a mesh without volume cannot have a mass. */
static csStatus mj_geom_inertia(mjCtx* c, mjNode nd, int cls, int t, const double size[3],
                                const mjMesh* mesh, const csGeomSpec* s, double* acc) {
  double vol = 0, Ig[6] = {0, 0, 0, 0, 0, 0}, comg[3] = {0, 0, 0};
  mj_geom_unit_inertia(t, size, mesh, &vol, Ig, comg);
  double mass = 0, dens = 1000;
  mjNode dm = mj_find(c, nd, MJ_KGEOM, cls, "mass");
  if (dm.n) {
    if (csi_xml_doubles(dm.file, dm.n, "mass", &mass, 1) < 0) return CS_ERR_PARSE;
    if (!(mass >= 0)) return mj_err_attr(CS_ERR_MODEL, dm, "mass", "negative mass");
  } else {
    mjNode dd = mj_find(c, nd, MJ_KGEOM, cls, "density");
    if (dd.n && csi_xml_doubles(dd.file, dd.n, "density", &dens, 1) < 0) return CS_ERR_PARSE;
    if (!(dens >= 0)) return mj_err_attr(CS_ERR_MODEL, dd, "density", "negative density");
    mass = dens * vol;
  }
  if (t == MJ_MESH && mesh->id < 0) {
    if (mass > 0 || !dm.n)
      mj_note(c, "skipmesh-mass", nd, "mass of mesh geoms not counted (meshes skipped)");
    mass = 0;
  } else if (t == MJ_MESH && !(vol > 0) && mass > 0) {
    return mj_err(CS_ERR_MODEL, nd,
                  "mesh '%s' has no volume (open or flat mesh): cannot "
                  "compute its inertia",
                  mesh->name);
  }
  if (mass > 0) {
    double R[9], p[3], Ib[6], Im[6];
    for (int k = 0; k < 6; k++) Im[k] = Ig[k] * mass;
    csi_quat2mat(R, s->quat);
    csi_mulmat3vec(p, R, comg);
    csi_add3(p, p, s->pos);
    csi_sym_rotate(Ib, R, Im);
    mj_accum(acc, mass, p, Ib);
  }
  return CS_OK;
}

/* The collision geom s of type t on loader body lb; a mesh geom whose meshes were skipped is
   dropped (noted with the asset). */
static csStatus mj_geom_add(mjCtx* c, int t, const mjMesh* mesh, csGeomSpec* s, int lb) {
  if (t == MJ_MESH && mesh->id < 0) return CS_OK; /* noted with the asset */
  static const int map[] = {CS_GEOM_PLANE,     CS_GEOM_HFIELD,   CS_GEOM_SPHERE, CS_GEOM_CAPSULE,
                            CS_GEOM_ELLIPSOID, CS_GEOM_CYLINDER, CS_GEOM_BOX,    CS_GEOM_MESH};
  s->type = map[t];
  if (!MJ_GROW(c->geom, c->ngeom, c->cgeom)) return mj_oom();
  c->geom[c->ngeom].s = *s;
  c->geom[c->ngeom].body = lb;
  c->ngeom++;
  return CS_OK;
}

/* A <geom> of loader body lb (childclass cc): its attributes, name and source, the mesh or
   heightfield it names, its mass and inertia into acc (the body's inertia accumulators, NULL
   when the geoms do not define the inertia; only geoms of the inertia groups count), and the
   collision geom. */
/* condim of element nd (kind, class cls; en names it in messages) into *out: 3 (normal and
   sliding friction, the default) or 1 (frictionless); 4 and 6 load as 3 with a note
   (torsional and rolling friction are not simulated); any other value is an error naming
   the element's name and line. */
static csStatus mj_condim(mjCtx* c, mjNode nd, int kind, int cls, const char* en, int* out) {
  mjNode d = mj_find(c, nd, kind, cls, "condim");
  int cd = 3;
  if (d.n && csi_xml_ints(d.file, d.n, "condim", &cd, 1) < 0) return CS_ERR_PARSE;
  if (cd == 4 || cd == 6)
    mj_note_attr(c, d, en, "condim",
                 "torsional and rolling friction are not simulated: loaded as 3, normal and "
                 "sliding friction");
  *out = cd == 1 ? 1 : 3;
  if (cd == 1 || cd == 3 || cd == 4 || cd == 6) return CS_OK;
  char* nm = csi_xml_attr(nd.n, "name");
  csStatus st =
      mj_err_attr(CS_ERR_PARSE, d, "condim", "%s '%s' (line %d): condim must be 1, 3, 4 or 6", en,
                  nm ? nm : "", mj_line(nd.n));
  if (nm) xmlFree(nm);
  return st;
}

/* A geom's colour (csGeomSpec.rgba): its rgba or its class's, else the spec's default
   (MuJoCo's 0.5 0.5 0.5 1; a material's colour is not read). */
static csStatus mj_geom_rgba(mjCtx* c, mjNode nd, int cls, csGeomSpec* s) {
  return mj_num(c, nd, MJ_KGEOM, cls, "rgba", s->rgba, 4) < 0 ? CS_ERR_PARSE : CS_OK;
}

static csStatus mj_geom(mjCtx* c, mjNode nd, int lb, int cc, double* acc) {
  csGeomSpec s;
  cs_geom_spec_default(&s);
  int cls;
  csStatus st = mj_elem_class(c, nd, cc, &cls);
  if (st != CS_OK) return st;
  mj_check_attrs(c, nd, MJ_KGEOM, cls, "geom", mj_attr_geom);
  mjNode where;
  int t = mj_keyword(c, nd, MJ_KGEOM, cls, "type", mj_geom_types, &where);
  if (t == -2) return mj_err_attr(CS_ERR_PARSE, where, "type", "unknown geom type");
  if (t < 0) t = MJ_SPHERE;
  double size[3] = {0, 0, 0}, fr[3] = {1, 0.005, 0.0001};
  int group = 0;
  st = mj_geom_attrs(c, nd, cls, t, &s, size, fr, &group);
  if (st == CS_OK) st = mj_geom_rgba(c, nd, cls, &s);
  if (st != CS_OK) return st;
  s.visual = !s.contype && !s.conaffinity; /* as MuJoCo: collides with nothing */
  mj_frame_apply(c, s.pos, s.quat);
  s.friction = fr[0];
  st = mj_condim(c, nd, MJ_KGEOM, cls, "geom", &s.condim);
  if (st != CS_OK) return st;
  memcpy(s.size, size, sizeof size);
  char* nm = csi_xml_attr(nd.n, "name");
  s.name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  s.source = mj_source(c, nd);
  if (!s.name || !s.source) return mj_oom();
  const mjMesh* mesh;
  st = mj_geom_mesh(c, nd, cls, t, &s, &mesh);
  if (st != CS_OK) return st;
  st = mj_geom_hfield(c, nd, cls, t, &s);
  if (st != CS_OK) return st;
  if (acc && group >= c->igroup[0] && group <= c->igroup[1] && t != MJ_PLANE && t != MJ_HFIELD) {
    st = mj_geom_inertia(c, nd, cls, t, size, mesh, &s, acc);
    if (st != CS_OK) return st;
  }
  return mj_geom_add(c, t, mesh, &s, lb);
}

/* A site's type and size (MuJoCo's defaults: sphere, 0.005 each), a touch sensor's zone */
static csStatus mj_site_zone(mjCtx* c, mjNode nd, int cls, mjSite* out) {
  static const char* const types[] = {"sphere", "capsule", "ellipsoid", "cylinder", "box", NULL};
  static const int gt[] = {CS_GEOM_SPHERE, CS_GEOM_CAPSULE, CS_GEOM_ELLIPSOID, CS_GEOM_CYLINDER,
                           CS_GEOM_BOX};
  mjNode where;
  int t = mj_keyword(c, nd, MJ_KSITE, cls, "type", types, &where);
  if (t == -2)
    return mj_err_attr(CS_ERR_PARSE, where, "type",
                       "expected sphere, capsule, ellipsoid, cylinder or box");
  out->ztype = gt[t < 0 ? 0 : t];
  out->zsize[0] = out->zsize[1] = out->zsize[2] = 0.005;
  return mj_num_partial(c, nd, MJ_KSITE, cls, "size", out->zsize, 3) < 0 ? CS_ERR_PARSE : CS_OK;
}

static csStatus mj_site(mjCtx* c, mjNode nd, int lb, int cc) {
  csSiteSpec s;
  cs_site_spec_default(&s);
  int cls;
  csStatus st = mj_elem_class(c, nd, cc, &cls);
  if (st != CS_OK) return st;
  mj_check_attrs(c, nd, MJ_KSITE, cls, "site", mj_attr_site);
  if (mj_num(c, nd, MJ_KSITE, cls, "pos", s.pos, 3) < 0) return CS_ERR_PARSE;
  st = mj_orient(c, nd, MJ_KSITE, cls, s.quat);
  if (st != CS_OK) return st;
  mj_frame_apply(c, s.pos, s.quat);
  char* nm = csi_xml_attr(nd.n, "name");
  s.name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  if (!s.name) return mj_oom();
  if (!MJ_GROW(c->site, c->nsite, c->csite)) return mj_oom();
  st = mj_site_zone(c, nd, cls, &c->site[c->nsite]);
  if (st != CS_OK) return st;
  c->site[c->nsite].s = s;
  c->site[c->nsite].body = lb;
  c->nsite++;
  return CS_OK;
}

/* A scalar that must be a finite number >= 0 (mass): CS_ERR_MODEL otherwise. */
static csStatus mj_nonneg(mjNode nd, const char* attr, double* out) {
  char* s = csi_xml_attr(nd.n, attr);
  if (!s) return mj_err(CS_ERR_PARSE, nd, "missing attribute '%s'", attr);
  char* end;
  double v = strtod(s, &end);
  while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r') end++;
  int bad_syntax = end == s || *end;
  xmlFree(s);
  if (bad_syntax) return mj_err_attr(CS_ERR_PARSE, nd, attr, "expected one number");
  if (!isfinite(v)) return mj_err_attr(CS_ERR_MODEL, nd, attr, "not a finite number");
  if (v < 0) return mj_err_attr(CS_ERR_MODEL, nd, attr, "must not be negative");
  *out = v;
  return CS_OK;
}

static csStatus mj_inertial(mjCtx* c, mjNode nd, double* mass, double* ipos, double* I) {
  mj_check_attrs(c, nd, -1, 0, "inertial", mj_attr_inertial);
  csStatus st = mj_nonneg(nd, "mass", mass);
  if (st != CS_OK) return st;
  csi_zero(ipos, 3);
  if (csi_xml_doubles(nd.file, nd.n, "pos", ipos, 3) < 0) return CS_ERR_PARSE;
  double q[4];
  int found;
  st = mj_orient_node(c, nd, q, &found, 1);
  if (st != CS_OK) return st;
  if (!found) csi_quat_identity(q);
  double d[3];
  int hd = csi_xml_doubles(nd.file, nd.n, "diaginertia", d, 3);
  int hf = csi_xml_doubles(nd.file, nd.n, "fullinertia", I, 6);
  if (hd < 0 || hf < 0) return CS_ERR_PARSE;
  if (hd > 0 && hf > 0)
    return mj_err(CS_ERR_PARSE, nd, "diaginertia and fullinertia cannot both be given");
  if (hd == 0 && hf == 0) return mj_err(CS_ERR_PARSE, nd, "needs diaginertia or fullinertia");
  if (hd > 0) {
    double R[9], D[6] = {d[0], d[1], d[2], 0, 0, 0};
    csi_quat2mat(R, q);
    csi_sym_rotate(I, R, D);
  }
  return CS_OK;
}

static csStatus mj_body(mjCtx* c, mjNode nd, int parent, int childclass, int world);

/* One child of a <frame> in loader body lb: pass 0 the geoms and sites (and nested frames),
   pass 1 the bodies; joints and inertials belong to a body, not to a frame. */
static csStatus mj_frame(mjCtx* c, mjNode nd, int lb, int cc, double* acc, int pass);

static csStatus mj_frame_child(mjCtx* c, mjNode k, int lb, int cc, double* acc, int pass) {
  const char* nm = mj_name(k.n);
  if (strcmp(nm, "frame") == 0) return mj_frame(c, k, lb, cc, acc, pass);
  if (pass == 1) return strcmp(nm, "body") == 0 ? mj_body(c, k, lb, cc, 0) : CS_OK;
  if (strcmp(nm, "geom") == 0) return mj_geom(c, k, lb, cc, acc);
  if (strcmp(nm, "site") == 0) return mj_site(c, k, lb, cc);
  if (strcmp(nm, "body") == 0) return CS_OK;
  if (strcmp(nm, "joint") == 0 || strcmp(nm, "freejoint") == 0 || strcmp(nm, "inertial") == 0)
    return mj_err(CS_ERR_PARSE, k,
                  "not allowed inside a <frame>: it belongs to a body (put it in the <body>)");
  if (strcmp(nm, "camera") == 0 || strcmp(nm, "light") == 0) {
    mj_vis(c, nm);
  } else if (strcmp(nm, "composite") == 0 || strcmp(nm, "flexcomp") == 0 ||
             strcmp(nm, "replicate") == 0 || strcmp(nm, "attach") == 0) {
    return mj_err(CS_ERR_UNSUPPORTED, k, "element not supported (it would generate bodies)");
  } else {
    mj_note_elem(c, k, "frame", "unknown element");
  }
  return CS_OK;
}

/* <frame> (MuJoCo 3): a pose and a childclass applied to its children, which belong to the
   enclosing body (lb): the frame's pose is composed onto the enclosing frames' while its
   children are read, and childclass replaces the inherited class. */
static csStatus mj_frame(mjCtx* c, mjNode nd, int lb, int cc, double* acc, int pass) {
  if (pass == 0) mj_check_attrs(c, nd, -1, 0, "frame", mj_attr_frame);
  char* ccn = csi_xml_attr(nd.n, "childclass");
  if (ccn) {
    cc = mj_find_class(c, ccn);
    xmlFree(ccn);
    if (cc < 0) return mj_err_attr(CS_ERR_PARSE, nd, "childclass", "unknown default class");
  }
  double pos[3] = {0, 0, 0}, quat[4];
  int found;
  if (csi_xml_doubles(nd.file, nd.n, "pos", pos, 3) < 0) return CS_ERR_PARSE;
  csStatus st = mj_orient_node(c, nd, quat, &found, 0);
  if (st != CS_OK) return st;
  if (!found) csi_quat_identity(quat);
  mjFrame outer = c->frame;
  mj_frame_apply(c, pos, quat); /* the frame's own pose through the enclosing frames */
  csi_copy3(c->frame.pos, pos);
  memcpy(c->frame.quat, quat, sizeof quat);
  c->frame.depth++;
  mjList L = {NULL, 0, 0};
  st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) st = mj_frame_child(c, L.a[i], lb, cc, acc, pass);
  cs_free(L.a);
  c->frame = outer;
  return st;
}

static csStatus mj_body_children(mjCtx* c, mjNode nd, int lb, int cc, int world) {
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  const char* where = world ? "worldbody" : "body";
  /* inertia source */
  int ninertial = 0;
  mjNode inertial = {NULL, NULL};
  for (int i = 0; i < L.n; i++)
    if (mj_is(L.a[i].n, "inertial")) {
      if (world) {
        st = mj_err(CS_ERR_PARSE, L.a[i], "the world body cannot have an <inertial>");
        goto done;
      }
      if (ninertial++) {
        st = mj_err(CS_ERR_PARSE, L.a[i], "a body can have only one <inertial>");
        goto done;
      }
      inertial = L.a[i];
    }
  int fromgeom = !world && (c->inertiafromgeom == 1 || (c->inertiafromgeom == 2 && !inertial.n));
  double acc[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  /* joints, geoms, sites of this body, in file order */
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    mjNode k = L.a[i];
    const char* nm = mj_name(k.n);
    if (strcmp(nm, "joint") == 0 || strcmp(nm, "freejoint") == 0) {
      if (world)
        st = mj_err(CS_ERR_PARSE, k, "joints are not allowed in <worldbody>");
      else
        st = mj_joint(c, k, lb, cc);
    } else if (strcmp(nm, "geom") == 0) {
      st = mj_geom(c, k, lb, cc, fromgeom ? acc : NULL);
    } else if (strcmp(nm, "site") == 0) {
      st = mj_site(c, k, lb, cc);
    } else if (strcmp(nm, "frame") == 0) {
      st = mj_frame(c, k, lb, cc, fromgeom ? acc : NULL, 0);
    } else if (strcmp(nm, "inertial") == 0 || strcmp(nm, "body") == 0) {
      /* handled separately */
    } else if (strcmp(nm, "camera") == 0 || strcmp(nm, "light") == 0) {
      mj_vis(c, nm);
    } else if (strcmp(nm, "composite") == 0 || strcmp(nm, "flexcomp") == 0 ||
               strcmp(nm, "replicate") == 0) {
      st = mj_err(CS_ERR_UNSUPPORTED, k, "element not supported (it would generate bodies)");
    } else if (strcmp(nm, "plugin") == 0) {
      mj_note_elem(c, k, where, "plugins are not supported");
    } else {
      mj_note_elem(c, k, where, "unknown element");
    }
  }
  if (st != CS_OK) goto done;
  /* the body's inertia */
  if (!world) {
    csBodySpec* s = &c->body[lb].s;
    if (fromgeom) {
      mj_accum_final(acc, &s->mass, s->ipos, s->inertia);
      if (inertial.n)
        mj_note_elem(c, inertial, "inertiafromgeom",
                     "compiler "
                     "inertiafromgeom=\"true\": inertia computed from geoms");
    } else if (inertial.n) {
      st = mj_inertial(c, inertial, &s->mass, s->ipos, s->inertia);
      if (st != CS_OK) goto done;
      s->source = mj_source(c, inertial);
      if (!s->source) {
        st = mj_oom();
        goto done;
      }
    }
    if (c->boundmass > 0 && s->mass < c->boundmass) s->mass = c->boundmass;
    if (mj_fix_inertia(c, s->inertia))
      mj_note(c, "balanceinertia", inertial.n ? inertial : nd,
              "body '%s': inertia violated "
              "the triangle inequality; principal moments set to their mean (compiler "
              "balanceinertia)",
              s->name);
  }
  /* child bodies */
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    if (mj_is(L.a[i].n, "body")) st = mj_body(c, L.a[i], lb, cc, 0);
    if (mj_is(L.a[i].n, "frame")) st = mj_frame(c, L.a[i], lb, cc, NULL, 1);
  }
done:
  cs_free(L.a);
  return st;
}

static csStatus mj_body(mjCtx* c, mjNode nd, int parent, int childclass, int world) {
  if (world) return mj_body_children(c, nd, 0, childclass, 1);
  csBodySpec s;
  cs_body_spec_default(&s);
  mj_check_attrs(c, nd, -1, 0, "body", mj_attr_body);
  int cc = childclass;
  char* ccn = csi_xml_attr(nd.n, "childclass");
  if (ccn) {
    cc = mj_find_class(c, ccn);
    xmlFree(ccn);
    if (cc < 0) return mj_err_attr(CS_ERR_PARSE, nd, "childclass", "unknown default class");
  }
  if (csi_xml_doubles(nd.file, nd.n, "pos", s.pos, 3) < 0) return CS_ERR_PARSE;
  int found;
  csStatus st = mj_orient_node(c, nd, s.quat, &found, 0);
  if (st != CS_OK) return st;
  mj_frame_apply(c, s.pos, s.quat);
  char* nm = csi_xml_attr(nd.n, "name");
  s.name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  s.source = mj_source(c, nd);
  if (!s.name || !s.source) return mj_oom();
  if (!MJ_GROW(c->body, c->nbody, c->cbody)) return mj_oom();
  int lb = c->nbody++;
  c->body[lb].s = s;
  c->body[lb].parent = parent;
  c->body[lb].bid = -1;
  mjFrame outer = c->frame; /* the body's children: in its own frame */
  c->frame.depth = 0;
  st = mj_body_children(c, nd, lb, cc, 0);
  c->frame = outer;
  return st;
}

/* ------------------------------------------------------------------ to the builder */
static csStatus mj_emit(mjCtx* c) {
  if (c->settotalmass > 0) {
    double total = 0;
    for (int i = 1; i < c->nbody; i++) total += c->body[i].s.mass;
    if (total > 0) {
      double k = c->settotalmass / total;
      for (int i = 1; i < c->nbody; i++) {
        c->body[i].s.mass *= k;
        for (int j = 0; j < 6; j++) c->body[i].s.inertia[j] *= k;
      }
    }
  }
  c->body[0].bid = 0;
  for (int i = 1; i < c->nbody; i++) {
    csBodySpec s = c->body[i].s;
    s.parent = c->body[c->body[i].parent].bid;
    int id = cs_builder_add_body(c->b, &s);
    if (id < 0) return CS_ERR_MODEL;
    c->body[i].bid = id;
  }
  for (int i = 0; i < c->njnt; i++) {
    csJointSpec s = c->jnt[i].s;
    s.body = c->body[c->jnt[i].body].bid;
    int id = cs_builder_add_joint(c->b, &s);
    if (id < 0) return CS_ERR_MODEL;
    c->jnt[i].jid = id;
  }
  for (int i = 0; i < c->ngeom; i++) {
    csGeomSpec s = c->geom[i].s;
    s.body = c->body[c->geom[i].body].bid;
    if (cs_builder_add_geom(c->b, &s) < 0) return CS_ERR_MODEL;
  }
  for (int i = 0; i < c->nsite; i++) {
    csSiteSpec s = c->site[i].s;
    s.body = c->body[c->site[i].body].bid;
    if (cs_builder_add_site(c->b, &s) < 0) return CS_ERR_MODEL;
  }
  return CS_OK;
}

static int mj_body_by_name(const mjCtx* c, const char* name) {
  if (strcmp(name, "world") == 0) return 0;
  for (int i = 1; i < c->nbody; i++)
    if (strcmp(c->body[i].s.name, name) == 0) return i;
  return -1;
}

/* geom1 or geom2 of <pair> nd into *out: it must name a geom of the model. */
static csStatus mj_pair_geom(mjCtx* c, mjNode nd, const char* attr, const char** out) {
  char* gn = csi_xml_attr(nd.n, attr);
  if (!gn) return mj_err(CS_ERR_PARSE, nd, "missing attribute '%s'", attr);
  int found = 0;
  for (int i = 0; i < c->ngeom && !found && gn[0]; i++) found = strcmp(c->geom[i].s.name, gn) == 0;
  *out = found ? mj_keep(c, gn) : NULL;
  xmlFree(gn);
  if (!found) return mj_err_attr(CS_ERR_MODEL, nd, attr, "unknown geom");
  return *out ? CS_OK : mj_oom();
}

/* A <pair>'s friction (MuJoCo's 5 numbers, default 1 1 0.005 0.0001 0.0001: the first is the
   sliding friction; a second that differs is noted, as anisotropic friction is not
   simulated) and margin (default 0), both finite and >= 0, with its class's defaults. */
static csStatus mj_pair_numbers(mjCtx* c, mjNode nd, int cls, csPairSpec* s) {
  double fr[5] = {1, 1, 0.005, 0.0001, 0.0001};
  if (mj_num_partial(c, nd, MJ_KPAIR, cls, "friction", fr, 5) < 0 ||
      mj_num(c, nd, MJ_KPAIR, cls, "margin", &s->margin, 1) < 0)
    return CS_ERR_PARSE;
  mjNode d = mj_find(c, nd, MJ_KPAIR, cls, "friction");
  if (!isfinite(fr[0]) || fr[0] < 0)
    return mj_err_attr(CS_ERR_MODEL, d, "friction", "must be finite and >= 0");
  if (fr[1] != fr[0])
    mj_note_attr(c, d, "pair", "friction",
                 "anisotropic friction is not simulated: the first value applies in every "
                 "tangent direction");
  s->friction = fr[0];
  if (!isfinite(s->margin) || s->margin < 0)
    return mj_err_attr(CS_ERR_MODEL, mj_find(c, nd, MJ_KPAIR, cls, "margin"), "margin",
                       "must be finite and >= 0");
  return CS_OK;
}

/* <contact><pair>: an explicit geom pair (csPairSpec) with its own friction, condim and
   margin, and its class's defaults. */
static csStatus mj_pair(mjCtx* c, mjNode nd) {
  csPairSpec s;
  cs_pair_spec_default(&s);
  int cls;
  csStatus st = mj_elem_class(c, nd, 0, &cls);
  if (st != CS_OK) return st;
  mj_check_attrs(c, nd, MJ_KPAIR, cls, "pair", mj_attr_pair);
  st = mj_pair_geom(c, nd, "geom1", &s.geom1);
  if (st == CS_OK) st = mj_pair_geom(c, nd, "geom2", &s.geom2);
  if (st == CS_OK && strcmp(s.geom1, s.geom2) == 0)
    st = mj_err_attr(CS_ERR_MODEL, nd, "geom2", "the same geom as geom1: a pair joins two geoms");
  if (st == CS_OK) st = mj_pair_numbers(c, nd, cls, &s);
  if (st == CS_OK) st = mj_condim(c, nd, MJ_KPAIR, cls, "pair", &s.condim);
  if (st != CS_OK) return st;
  char* nm = csi_xml_attr(nd.n, "name");
  s.name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  s.source = mj_source(c, nd);
  if (!s.name || !s.source) return mj_oom();
  if (cs_builder_add_pair(c->b, &s) < 0) return mj_err_wrap(CS_ERR_MODEL, nd, "pair");
  return CS_OK;
}

static csStatus mj_contact(mjCtx* c, mjNode nd) {
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    mjNode k = L.a[i];
    if (mj_is(k.n, "exclude")) {
      mj_check_attrs(c, k, -1, 0, "exclude", mj_attr_exclude);
      int lb[2];
      for (int j = 0; j < 2 && st == CS_OK; j++) {
        const char* an = j ? "body2" : "body1";
        char* bn = csi_xml_attr(k.n, an);
        if (!bn) {
          st = mj_err(CS_ERR_PARSE, k, "missing attribute '%s'", an);
          break;
        }
        lb[j] = mj_body_by_name(c, bn);
        xmlFree(bn);
        if (lb[j] < 0) st = mj_err_attr(CS_ERR_MODEL, k, an, "unknown body");
      }
      if (st == CS_OK && cs_builder_add_exclude(c->b, c->body[lb[0]].bid, c->body[lb[1]].bid) < 0)
        st = mj_err_wrap(CS_ERR_MODEL, k, "exclude");
    } else if (mj_is(k.n, "pair")) {
      st = mj_pair(c, k);
    } else {
      mj_note_elem(c, k, "contact", "unknown element");
    }
  }
  cs_free(L.a);
  return st;
}

/* An actuator's transmission into a->joint or a->tendon: joint= (or jointinparent=) names a
   joint, tendon= a fixed tendon; one on a spatial tendon is dropped with a note (both left
   at -1). Anything else is an error naming the element. */
static csStatus mj_act_transmission(mjCtx* c, mjNode nd, const char* en, csActuatorSpec* a) {
  a->joint = -1;
  char* tn = csi_xml_attr(nd.n, "tendon");
  if (tn) {
    int k = -1;
    for (int i = 0; i < c->nten; i++)
      if (strcmp(c->ten[i].name, tn) == 0) k = i;
    csStatus st =
        k < 0 ? mj_err_attr(CS_ERR_MODEL, nd, "tendon", "unknown tendon '%s'", tn) : CS_OK;
    xmlFree(tn);
    if (k >= 0 && c->ten[k].id < 0)
      mj_note_attr(c, nd, en, "tendon",
                   "spatial tendons are not simulated; actuator dropped, so ctrl has fewer "
                   "entries than in MuJoCo");
    if (k >= 0) a->tendon = c->ten[k].id;
    return st;
  }
  char* jn = csi_xml_attr(nd.n, "joint");
  if (!jn) jn = csi_xml_attr(nd.n, "jointinparent");
  if (!jn) return mj_err(CS_ERR_PARSE, nd, "actuator without a joint or tendon transmission");
  int lj = -1;
  for (int i = 0; i < c->njnt; i++)
    if (strcmp(c->jnt[i].s.name, jn) == 0) lj = i;
  csStatus st = lj < 0 ? mj_err(CS_ERR_MODEL, nd, "unknown joint '%s'", jn) : CS_OK;
  xmlFree(jn);
  if (lj >= 0) a->joint = c->jnt[lj].jid;
  return st;
}

/* A <general> actuator that is neither motor- nor position-like: gaintype fixed, biastype
   none or affine, dyntype none (CS_ACT_GENERAL); activation dynamics and other gain or bias
   types are refused, naming the element. g, b, dy: the keywords' indices. */
static csStatus mj_act_general(mjNode nd, int g, int b, int dy, const double* gp, const double* bp,
                               csActuatorSpec* a) {
  static const char* const dt[] = {"none", "integrator", "filter", "muscle", "user"};
  if (dy != 0)
    return mj_err(CS_ERR_UNSUPPORTED, nd,
                  "activation dynamics (dyntype \"%s\") are not supported: only "
                  "dyntype \"none\"",
                  dt[dy]);
  if (g != 0) return mj_err(CS_ERR_UNSUPPORTED, nd, "only gaintype \"fixed\" is supported");
  if (b != 0 && b != 1)
    return mj_err(CS_ERR_UNSUPPORTED, nd, "only biastype \"none\" or \"affine\" is supported");
  a->type = CS_ACT_GENERAL;
  a->gainprm = gp[0];
  for (int k = 0; k < 3; k++) a->biasprm[k] = b == 1 ? bp[k] : 0;
  return CS_OK;
}

static csStatus mj_actuator_one(mjCtx* c, mjNode nd) {
  const char* en = mj_name(nd.n);
  int cls;
  csStatus st = mj_elem_class(c, nd, 0, &cls);
  if (st != CS_OK) return st;
  mj_check_attrs(c, nd, MJ_KACT, cls, en, mj_attr_act);
  char* nm = csi_xml_attr(nd.n, "name");
  const char* name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  if (!name) return mj_oom();
  char drop[256];
  snprintf(drop, sizeof drop, "actuator dropped: ctrl has fewer entries than in MuJoCo");
  /* transmission */
  static const char* const trn[] = {"site", "cranksite", "slidersite", "body", NULL};
  for (int i = 0; trn[i]; i++)
    if (xmlHasProp(nd.n, (const xmlChar*)trn[i])) {
      mj_note_attr(c, nd, en, trn[i],
                   "only joint and fixed-tendon transmissions are supported; actuator "
                   "dropped, so ctrl has fewer entries than in MuJoCo");
      return CS_OK;
    }
  csActuatorSpec a;
  cs_actuator_spec_default(&a);
  st = mj_act_transmission(c, nd, en, &a);
  if (st != CS_OK || (a.joint < 0 && a.tendon < 0)) return st; /* error, or dropped */
  a.name = name;
  a.source = mj_source(c, nd);
  if (!a.source) return mj_oom();
  double gear[6] = {1, 0, 0, 0, 0, 0};
  if (mj_num(c, nd, MJ_KACT, cls, "gear", gear, -6) < 0) return CS_ERR_PARSE;
  a.gear = gear[0];
  if (strcmp(en, "position") == 0) {
    a.type = CS_ACT_POSITION;
    a.kp = 1;
    if (mj_num(c, nd, MJ_KACT, cls, "kp", &a.kp, 1) < 0 ||
        mj_num(c, nd, MJ_KACT, cls, "kv", &a.kd, 1) < 0)
      return CS_ERR_PARSE;
  } else if (strcmp(en, "motor") == 0) {
    a.type = CS_ACT_MOTOR;
  } else if (strcmp(en, "velocity") == 0) {
    double kv = 1;
    if (mj_num(c, nd, MJ_KACT, cls, "kv", &kv, 1) < 0) return CS_ERR_PARSE;
    a.type = CS_ACT_GENERAL; /* MuJoCo's: gainprm kv, biasprm 0 0 -kv */
    a.gainprm = kv;
    a.biasprm[2] = -kv;
  } else if (strcmp(en, "general") == 0) {
    static const char* const gt[] = {"fixed", "affine", "muscle", "user", NULL};
    static const char* const bt[] = {"none", "affine", "muscle", "user", NULL};
    static const char* const dt[] = {"none", "integrator", "filter", "muscle", "user", NULL};
    int g = mj_keyword(c, nd, MJ_KACT, cls, "gaintype", gt, NULL);
    int b = mj_keyword(c, nd, MJ_KACT, cls, "biastype", bt, NULL);
    int d = mj_keyword(c, nd, MJ_KACT, cls, "dyntype", dt, NULL);
    double gp[10] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, bp[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (mj_num(c, nd, MJ_KACT, cls, "gainprm", gp, -10) < 0 ||
        mj_num(c, nd, MJ_KACT, cls, "biasprm", bp, -10) < 0)
      return CS_ERR_PARSE;
    if (g == -2 || b == -2 || d == -2)
      return mj_err(CS_ERR_PARSE, nd, "unknown gaintype, biastype or dyntype");
    if (g < 0) g = 0;
    if (b < 0) b = 0;
    if (d < 0) d = 0;
    if (d == 0 && g == 0 && b == 0 && gp[0] == 1) {
      a.type = CS_ACT_MOTOR;
    } else if (d == 0 && g == 0 && b == 1 && bp[0] == 0 && bp[1] == -gp[0]) {
      a.type = CS_ACT_POSITION;
      a.kp = gp[0];
      a.kd = -bp[2];
    } else {
      st = mj_act_general(nd, g, b, d, gp, bp, &a);
      if (st != CS_OK) return st;
    }
  } else {
    mj_note_elem(c, nd, "actuator",
                 "actuator type not supported (motor, position, velocity and general "
                 "only); actuator dropped, so ctrl has fewer entries than in MuJoCo");
    return CS_OK;
  }
  if (a.type == CS_ACT_POSITION && a.gear != 1)
    mj_note_attr(c, nd, en, "gear",
                 "a position actuator acts on the joint angle directly: "
                 "gear is kept but MuJoCo scales the servo by it");
  for (int i = 1; i < 6; i++)
    if (gear[i] != 0) {
      mj_note_attr(c, nd, en, "gear", "only the first gear component acts on a joint");
      break;
    }
  static const char* const lim[] = {"false", "true", "auto", NULL};
  static const char* const rng[2] = {"ctrlrange", "forcerange"};
  static const char* const lmt[2] = {"ctrllimited", "forcelimited"};
  for (int k = 0; k < 2; k++) {
    double* r = k ? a.forcerange : a.ctrlrange;
    int* limited = k ? &a.forcelimited : &a.ctrllimited;
    int hr = mj_num(c, nd, MJ_KACT, cls, rng[k], r, 2);
    if (hr < 0) return CS_ERR_PARSE;
    mjNode where;
    int l = mj_keyword(c, nd, MJ_KACT, cls, lmt[k], lim, &where);
    if (l == -2) return mj_err_attr(CS_ERR_PARSE, where, lmt[k], "expected false, true or auto");
    if (l == 0 || l == 1)
      *limited = l;
    else if (c->autolimits || l == 2)
      *limited = hr > 0;
    else if (hr > 0)
      return mj_err(CS_ERR_PARSE, nd,
                    "actuator has '%s' but not '%s': set compiler "
                    "autolimits=\"true\", give %s explicitly, or remove the range (as MuJoCo "
                    "2.2.2 requires)",
                    rng[k], lmt[k], lmt[k]);
  }
  if (cs_builder_add_actuator(c->b, &a) < 0) return CS_ERR_MODEL;
  return CS_OK;
}

static csStatus mj_actuator(mjCtx* c, mjNode nd) {
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    if (mj_default_kind(mj_name(L.a[i].n)) == MJ_KACT)
      st = mj_actuator_one(c, L.a[i]);
    else
      mj_note_elem(c, L.a[i], "actuator", "unknown element");
  }
  cs_free(L.a);
  return st;
}

/* ------------------------------------------------------------------ tendon */
/* A <fixed> tendon's <joint joint= coef=> terms into joint (builder indices) and coef (up
   to max); *n their count */
static csStatus mj_tendon_terms(mjCtx* c, mjNode nd, int* joint, double* coef, int max, int* n) {
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  *n = 0;
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    mjNode k = L.a[i];
    if (!mj_is(k.n, "joint")) {
      mj_note_elem(c, k, "fixed", "unknown element");
      continue;
    }
    char* jn = csi_xml_attr(k.n, "joint");
    int lj = -1;
    for (int j = 0; jn && j < c->njnt; j++)
      if (strcmp(c->jnt[j].s.name, jn) == 0) lj = j;
    if (!jn)
      st = mj_err(CS_ERR_PARSE, k, "missing attribute 'joint'");
    else if (lj < 0)
      st = mj_err_attr(CS_ERR_MODEL, k, "joint", "unknown joint");
    else if (*n >= max)
      st = mj_err(CS_ERR_MODEL, k, "more than %d joints in one tendon", max);
    else {
      int r = csi_xml_doubles(k.file, k.n, "coef", coef + *n, 1);
      if (r == 1)
        joint[(*n)++] = c->jnt[lj].jid;
      else
        st = r < 0 ? CS_ERR_PARSE : mj_err(CS_ERR_PARSE, k, "missing attribute 'coef'");
    }
    if (jn) xmlFree(jn);
  }
  if (st == CS_OK && *n == 0) st = mj_err(CS_ERR_MODEL, nd, "a fixed tendon needs a <joint>");
  cs_free(L.a);
  return st;
}

/* <fixed>: a builder tendon (length = sum coef q), its name kept for actuators */
static csStatus mj_tendon_fixed(mjCtx* c, mjNode nd) {
  mj_check_attrs(c, nd, -1, 0, "fixed", mj_attr_tendon);
  csTendonSpec t;
  memset(&t, 0, sizeof t);
  char* nm = csi_xml_attr(nd.n, "name");
  t.name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  t.source = mj_source(c, nd);
  if (!t.name || !t.source) return mj_oom();
  int hr = mj_num(c, nd, -1, 0, "range", t.range, 2);
  if (hr < 0) return CS_ERR_PARSE;
  static const char* const lim[] = {"false", "true", "auto", NULL};
  int l = mj_keyword(c, nd, -1, 0, "limited", lim, NULL);
  if (l == -2) return mj_err_attr(CS_ERR_PARSE, nd, "limited", "expected false, true or auto");
  if (l == 0 || l == 1)
    t.limited = l;
  else if (c->autolimits || l == 2)
    t.limited = hr > 0;
  else if (hr > 0)
    return mj_err(CS_ERR_PARSE, nd,
                  "tendon has 'range' but not 'limited': set compiler autolimits=\"true\", "
                  "give limited explicitly, or remove the range (as MuJoCo 2.2.2 requires)");
  int joint[64];
  double coef[64];
  csStatus st = mj_tendon_terms(c, nd, joint, coef, 64, &t.n);
  if (st != CS_OK) return st;
  t.joint = joint, t.coef = coef;
  int id = cs_builder_add_tendon(c->b, &t);
  if (id < 0) return mj_err_wrap(CS_ERR_MODEL, nd, "tendon");
  if (!MJ_GROW(c->ten, c->nten, c->cten)) return mj_oom();
  c->ten[c->nten++] = (mjTendon){t.name, id};
  return CS_OK;
}

/* <tendon>: fixed tendons are simulated, spatial ones noted (their names kept, so that an
   actuator on one is dropped with a note) */
static csStatus mj_tendon(mjCtx* c, mjNode nd) {
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    mjNode k = L.a[i];
    if (mj_is(k.n, "fixed")) {
      st = mj_tendon_fixed(c, k);
    } else if (mj_is(k.n, "spatial")) {
      mj_note_elem(c, k, "tendon", "spatial tendons are not simulated");
      char* nm = csi_xml_attr(k.n, "name");
      const char* kn = nm ? mj_keep(c, nm) : "";
      if (nm) xmlFree(nm);
      if (!kn || !MJ_GROW(c->ten, c->nten, c->cten))
        st = mj_oom();
      else
        c->ten[c->nten++] = (mjTendon){kn, -1};
    } else {
      mj_note_elem(c, k, "tendon", "unknown element");
    }
  }
  cs_free(L.a);
  return st;
}

/* ------------------------------------------------------------------ equality */
/* World pose of pending body lb at the reference configuration qpos0, where every hinge and
   slide is at 0, every ball at the identity and a free body at its own pose: the bodies'
   poses in their parents composed from the world down (as the builder computes it). */
static void mj_ref_pose(const mjCtx* c, int lb, double pos[3], double quat[4]) {
  if (lb <= 0) {
    csi_zero(pos, 3);
    csi_quat_identity(quat);
    return;
  }
  mj_ref_pose(c, c->body[lb].parent, pos, quat);
  const csBodySpec* s = &c->body[lb].s;
  double q[4] = {s->quat[0], s->quat[1], s->quat[2], s->quat[3]}, t[3], r[4];
  csi_quat_normalize(q);
  csi_quat_rotate(t, quat, s->pos);
  csi_add3(pos, pos, t);
  csi_quat_mul(r, quat, q);
  memcpy(quat, r, sizeof r);
  csi_quat_normalize(quat);
}

/* body1 / body2 of a connect or weld: the local body (0: the world) into *lb and the name the
   builder resolves into *name (NULL for the world). body2 may be absent (the world). */
static csStatus mj_eq_body(mjCtx* c, mjNode nd, const char* attr, int* lb, const char** name) {
  char* v = csi_xml_attr(nd.n, attr);
  *lb = 0;
  *name = NULL;
  if (!v) {
    if (strcmp(attr, "body1") == 0) return mj_err(CS_ERR_PARSE, nd, "missing attribute 'body1'");
    return CS_OK;
  }
  *lb = mj_body_by_name(c, v);
  if (*lb > 0) *name = mj_keep(c, v);
  xmlFree(v);
  if (*lb < 0) return mj_err_attr(CS_ERR_MODEL, nd, attr, "unknown body");
  if (*lb == 0 && strcmp(attr, "body1") == 0)
    return mj_err_attr(CS_ERR_UNSUPPORTED, nd, attr,
                       "body1 is the world: give the moving body as body1 (body2 defaults to "
                       "the world)");
  if (*lb > 0 && !*name) return mj_oom();
  return CS_OK;
}

/* joint1 / joint2 of a joint equality: a hinge or slide joint's name into *name (joint2 may be
   absent: NULL). */
static csStatus mj_eq_joint(mjCtx* c, mjNode nd, const char* attr, const char** name) {
  char* v = csi_xml_attr(nd.n, attr);
  *name = NULL;
  if (!v) {
    if (strcmp(attr, "joint1") == 0) return mj_err(CS_ERR_PARSE, nd, "missing attribute 'joint1'");
    return CS_OK;
  }
  int lj = -1;
  for (int i = 0; i < c->njnt && lj < 0; i++)
    if (strcmp(c->jnt[i].s.name, v) == 0) lj = i;
  *name = lj >= 0 ? mj_keep(c, v) : NULL;
  xmlFree(v);
  if (lj < 0) return mj_err_attr(CS_ERR_MODEL, nd, attr, "unknown joint");
  int t = c->jnt[lj].s.type;
  if (t != CS_JNT_REVOLUTE && t != CS_JNT_PRISMATIC)
    return mj_err_attr(CS_ERR_MODEL, nd, attr,
                       "a joint equality couples hinge or slide joints; this is a %s joint",
                       t == CS_JNT_FREE ? "free" : "ball");
  if (!*name) return mj_oom();
  return CS_OK;
}

/* A weld's anchor and relpose as MuJoCo reads them: anchor (default 0) is a point of body2 in
   its frame; a relpose whose quaternion is 0 0 0 0 (the default) means the relative pose at
   qpos0. The builder's anchor is the same point on body1 (in body1's frame at qpos0). */
static csStatus mj_weld_anchor(const mjCtx* c, mjNode nd, int lb1, int lb2, double anchor[3]) {
  double a2[3] = {0, 0, 0}, rel[7] = {0, 0, 0, 0, 0, 0, 0};
  if (csi_xml_doubles(nd.file, nd.n, "anchor", a2, 3) < 0 ||
      csi_xml_doubles(nd.file, nd.n, "relpose", rel, 7) < 0)
    return CS_ERR_PARSE;
  if (rel[3] != 0 || rel[4] != 0 || rel[5] != 0 || rel[6] != 0)
    return mj_err_attr(CS_ERR_UNSUPPORTED, nd, "relpose",
                       "a weld holds the relative pose of the reference configuration (qpos0); "
                       "a relpose with a non-zero quaternion is not supported (leave it out or "
                       "set its quaternion to 0 0 0 0)");
  double p1[3], q1[4], p2[3], q2[4], t[3], w[3];
  mj_ref_pose(c, lb1, p1, q1);
  mj_ref_pose(c, lb2, p2, q2);
  csi_quat_rotate(t, q2, a2);
  csi_add3(w, p2, t);
  csi_sub3(t, w, p1);
  double R1[9];
  csi_quat2mat(R1, q1);
  csi_mulmat3tvec(anchor, R1, t);
  return CS_OK;
}

/* One <connect>, <weld> or <joint> of <equality> (MuJoCo 2.2.2's body-based forms). */
static csStatus mj_equality_one(mjCtx* c, mjNode nd, int type) {
  static const mjAttr* const tabs[] = {mj_attr_connect, mj_attr_weld, mj_attr_eqjoint};
  const char* en = mj_name(nd.n);
  int cls;
  csStatus st = mj_elem_class(c, nd, 0, &cls);
  if (st != CS_OK) return st;
  if (xmlHasProp(nd.n, (const xmlChar*)"site1") || xmlHasProp(nd.n, (const xmlChar*)"site2"))
    return mj_err(CS_ERR_UNSUPPORTED, nd,
                  "site1/site2 (MuJoCo 3's site-based form) is not supported; give body1 "
                  "(and body2)");
  mj_check_attrs(c, nd, MJ_KEQ, cls, en, tabs[type]);
  csEqualitySpec s;
  cs_equality_spec_default(&s);
  s.type = type == 0 ? CS_EQ_CONNECT : type == 1 ? CS_EQ_WELD : CS_EQ_JOINT;
  s.source = mj_source(c, nd);
  char* nm = csi_xml_attr(nd.n, "name");
  s.name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  if (!s.source || !s.name) return mj_oom();
  int active = mj_bool(c, nd, MJ_KEQ, cls, "active", &st);
  if (st != CS_OK) return st;
  if (active >= 0) s.active = active;
  if (s.type == CS_EQ_JOINT) {
    if ((st = mj_eq_joint(c, nd, "joint1", &s.obj1)) != CS_OK ||
        (st = mj_eq_joint(c, nd, "joint2", &s.obj2)) != CS_OK)
      return st;
    if (s.obj2 && strcmp(s.obj1, s.obj2) == 0)
      return mj_err_attr(CS_ERR_MODEL, nd, "joint2", "couples joint1 with itself");
    /* 1 to 5 numbers; the rest keep the default 0 1 0 0 0 (as MuJoCo reads them) */
    if (csi_xml_doubles(nd.file, nd.n, "polycoef", s.polycoef, -5) < 0) return CS_ERR_PARSE;
  } else {
    int lb1, lb2;
    if ((st = mj_eq_body(c, nd, "body1", &lb1, &s.obj1)) != CS_OK ||
        (st = mj_eq_body(c, nd, "body2", &lb2, &s.obj2)) != CS_OK)
      return st;
    if (lb1 == lb2) return mj_err_attr(CS_ERR_MODEL, nd, "body2", "the same body as body1");
    if (s.type == CS_EQ_CONNECT) {
      int r = csi_xml_doubles(nd.file, nd.n, "anchor", s.anchor, 3);
      if (r < 0) return CS_ERR_PARSE;
      if (r == 0) return mj_err(CS_ERR_PARSE, nd, "missing attribute 'anchor'");
    } else if ((st = mj_weld_anchor(c, nd, lb1, lb2, s.anchor)) != CS_OK) {
      return st;
    }
  }
  if (cs_builder_add_equality(c->b, &s) < 0) return mj_err_wrap(CS_ERR_MODEL, nd, en);
  return CS_OK;
}

static csStatus mj_equality(mjCtx* c, mjNode nd) {
  static const char* const kinds[] = {"connect", "weld", "joint", NULL};
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    mjNode k = L.a[i];
    int t = 0;
    while (kinds[t] && !mj_is(k.n, kinds[t])) t++;
    if (kinds[t])
      st = mj_equality_one(c, k, t);
    else if (mj_is(k.n, "tendon"))
      mj_note_elem(c, k, "equality",
                   "tendon equalities are not supported; the constraint is dropped");
    else if (mj_is(k.n, "flex"))
      mj_note_elem(c, k, "equality", "contactsim has no flexes; the constraint is dropped");
    else if (mj_is(k.n, "distance"))
      st = mj_err(CS_ERR_PARSE, k,
                  "distance equality constraints were removed in MuJoCo 2.2.2 (not supported)");
    else
      mj_note_elem(c, k, "equality", "unknown element");
  }
  cs_free(L.a);
  return st;
}

/* ------------------------------------------------------------------ sensor */
/* MuJoCo's sensor elements contactsim computes, in csSensorType order */
static const char* const mj_sensor_types[] = {
    "jointpos",    "jointvel",    "actuatorfrc",   "framepos", "framequat",
    "framelinvel", "frameangvel", "accelerometer", "gyro",     "force",
    "torque",      "touch",       "subtreecom",    NULL};

static const mjAttr mj_attr_sensor[] = {
    {"name", 'u', NULL, NULL},
    {"site", 'u', NULL, NULL},
    {"joint", 'u', NULL, NULL},
    {"actuator", 'u', NULL, NULL},
    {"body", 'u', NULL, NULL},
    {"objtype", 'u', NULL, NULL},
    {"objname", 'u', NULL, NULL},
    {"reftype", 'u', NULL, NULL},
    {"refname", 'u', NULL, NULL},
    {"noise", 'p', "0", "sensor noise is read, not simulated (csModel.sensor_noise)"},
    {"cutoff", 'u', NULL, NULL},
    {"user", 'v', NULL, NULL},
    {NULL, 0, NULL, NULL}};

/* The pending site named nm, or NULL */
static const mjSite* mj_site_by_name(const mjCtx* c, const char* nm) {
  for (int i = 0; i < c->nsite; i++)
    if (!strcmp(c->site[i].s.name, nm)) return &c->site[i];
  return NULL;
}

/* Checks that the object a sensor names exists and has the right kind: a site, a hinge or
   slide joint, a body, a geom (actuators: at compile, which names the sensor's line) */
static csStatus mj_sensor_object(mjCtx* c, mjNode nd, const char* attr, int kind, const char* nm) {
  int ok = kind == CS_OBJ_ACTUATOR;
  if (kind == CS_OBJ_SITE) ok = mj_site_by_name(c, nm) != NULL;
  if (kind == CS_OBJ_BODY || kind == CS_OBJ_XBODY) ok = mj_body_by_name(c, nm) >= 0;
  for (int i = 0; kind == CS_OBJ_GEOM && !ok && i < c->ngeom; i++)
    ok = !strcmp(c->geom[i].s.name, nm);
  for (int i = 0; kind == CS_OBJ_JOINT && !ok && i < c->njnt; i++)
    if (!strcmp(c->jnt[i].s.name, nm)) {
      int t = c->jnt[i].s.type;
      if (t != CS_JNT_REVOLUTE && t != CS_JNT_PRISMATIC)
        return mj_err_attr(CS_ERR_MODEL, nd, attr, "not a hinge or slide joint");
      ok = 1;
    }
  static const char* const what[] = {"body", "body", "geom", "site", "joint", "actuator"};
  return ok ? CS_OK : mj_err_attr(CS_ERR_MODEL, nd, attr, "unknown %s", what[kind]);
}

/* A frame sensor's objtype into s->objtype; reftype (another reference frame) is refused */
static csStatus mj_sensor_objtype(mjCtx* c, mjNode nd, csSensorSpec* s) {
  static const char* const types[] = {"body", "xbody", "geom", "site", NULL};
  if (xmlHasProp(nd.n, (const xmlChar*)"reftype") || xmlHasProp(nd.n, (const xmlChar*)"refname"))
    return mj_err(CS_ERR_UNSUPPORTED, nd,
                  "frame sensors relative to another frame (reftype, refname) are not supported");
  int t = mj_keyword(c, nd, -1, 0, "objtype", types, NULL);
  if (t == -1) return mj_err(CS_ERR_PARSE, nd, "missing attribute 'objtype'");
  if (t < 0) return mj_err_attr(CS_ERR_MODEL, nd, "objtype", "must be body, xbody, geom or site");
  s->objtype = t;
  return CS_OK;
}

/* One sensor element of csSensorType type */
static csStatus mj_sensor_one(mjCtx* c, mjNode nd, int type) {
  csSensorSpec s;
  cs_sensor_spec_default(&s);
  s.type = type;
  mj_check_attrs(c, nd, -1, 0, mj_name(nd.n), mj_attr_sensor);
  const char* attr = "site";
  csStatus st = CS_OK;
  if (type == CS_SENS_JOINTPOS || type == CS_SENS_JOINTVEL)
    attr = "joint", s.objtype = CS_OBJ_JOINT;
  if (type == CS_SENS_ACTUATORFRC) attr = "actuator", s.objtype = CS_OBJ_ACTUATOR;
  if (type == CS_SENS_SUBTREECOM) attr = "body", s.objtype = CS_OBJ_BODY;
  if (type >= CS_SENS_FRAMEPOS && type <= CS_SENS_FRAMEANGVEL) {
    attr = "objname";
    st = mj_sensor_objtype(c, nd, &s);
  }
  if (st != CS_OK) return st;
  char* on = csi_xml_attr(nd.n, attr);
  if (!on) return mj_err(CS_ERR_PARSE, nd, "missing attribute '%s'", attr);
  s.objname = mj_keep(c, on);
  xmlFree(on);
  if (!s.objname) return mj_oom();
  st = mj_sensor_object(c, nd, attr, s.objtype, s.objname);
  if (st != CS_OK) return st;
  if (type == CS_SENS_TOUCH) {
    const mjSite* z = mj_site_by_name(c, s.objname);
    s.zonetype = z->ztype;
    memcpy(s.zonesize, z->zsize, sizeof s.zonesize);
  }
  if (csi_xml_doubles(nd.file, nd.n, "noise", &s.noise, 1) < 0 ||
      csi_xml_doubles(nd.file, nd.n, "cutoff", &s.cutoff, 1) < 0)
    return CS_ERR_PARSE;
  char* nm = csi_xml_attr(nd.n, "name");
  s.name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  s.source = mj_source(c, nd);
  if (!s.name || !s.source) return mj_oom();
  if (cs_builder_add_sensor(c->b, &s) < 0) return mj_err_wrap(CS_ERR_MODEL, nd, "sensor");
  return CS_OK;
}

/* <sensor>: the sensors contactsim computes into builder sensors; other types are noted and
   dropped (so sensordata addresses follow only the sensors kept) */
static csStatus mj_sensor(mjCtx* c, mjNode nd) {
  mjList L = {NULL, 0, 0};
  csStatus st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    int t = 0;
    while (mj_sensor_types[t] && !mj_is(L.a[i].n, mj_sensor_types[t])) t++;
    if (mj_sensor_types[t])
      st = mj_sensor_one(c, L.a[i], t);
    else
      mj_note_elem(c, L.a[i], "sensor",
                   "sensor type not computed: dropped, later sensors' sensordata addresses "
                   "skip it");
  }
  cs_free(L.a);
  return st;
}

/* ------------------------------------------------------------------ keyframe */
/* The file's actuator elements in order (MuJoCo's ctrl order) into *out. */
static csStatus mj_actuator_elems(mjCtx* c, const mjList* top, mjList* out) {
  csStatus st = CS_OK;
  for (int i = 0; st == CS_OK && i < top->n; i++) {
    if (!mj_is(top->a[i].n, "actuator")) continue;
    mjList L = {NULL, 0, 0};
    st = mj_children(c, top->a[i], &L);
    for (int k = 0; st == CS_OK && k < L.n; k++)
      if (mj_default_kind(mj_name(L.a[k].n)) == MJ_KACT || mj_is(L.a[k].n, "plugin"))
        st = mj_push(out, L.a[k]);
    cs_free(L.a);
  }
  return st;
}

/* A key's ctrl (one number per actuator element of the file, as MuJoCo's) onto the
   builder's actuators, matched by their source; values of actuators contactsim does not
   simulate are dropped with a note. *ctrl (cs_free it) has csi_builder_nactuator entries. */
static csStatus mj_key_ctrl(mjCtx* c, mjNode nd, const mjList* acts, const double* v, int n,
                            double** ctrl, int* nctrl) {
  int nu = csi_builder_nactuator(c->b);
  *nctrl = nu;
  *ctrl = csi_calloc((size_t)nu + 1, sizeof(double));
  if (!*ctrl) return mj_oom();
  for (int i = 0; i < n; i++) {
    char src[MJ_PATH + 32];
    snprintf(src, sizeof src, "%s:%d", acts->a[i].file, mj_line(acts->a[i].n));
    int j = nu - 1;
    while (j >= 0 && strcmp(csi_builder_actuator_source(c->b, j), src) != 0) j--;
    if (j >= 0)
      (*ctrl)[j] = v[i];
    else if (v[i] != 0)
      mj_note(c, "key-ctrl-dropped", nd,
              "<key> ctrl values of actuators contactsim does not simulate are dropped");
  }
  return CS_OK;
}

/* One <key>: qpos, qvel and ctrl must have the file's nq, nv and number of actuators
   (MuJoCo's sizes); absent ones take qpos0, zero velocities and zero controls. */
static csStatus mj_key(mjCtx* c, mjNode nd, const mjList* acts) {
  mj_check_attrs(c, nd, -1, 0, "key", mj_attr_key);
  int nq = 0, nv = 0;
  for (int i = 0; i < c->njnt; i++) {
    int t = c->jnt[i].s.type;
    nq += t == CS_JNT_FREE ? 7 : t == CS_JNT_BALL ? 4 : 1;
    nv += t == CS_JNT_FREE ? 6 : t == CS_JNT_BALL ? 3 : 1;
  }
  csKeySpec k;
  cs_key_spec_default(&k);
  char* nm = csi_xml_attr(nd.n, "name");
  k.name = nm ? mj_keep(c, nm) : "";
  if (nm) xmlFree(nm);
  k.source = mj_source(c, nd);
  if (!k.name || !k.source) return mj_oom();
  if (csi_xml_doubles(nd.file, nd.n, "time", &k.time, 1) < 0) return CS_ERR_PARSE;
  double* v[3] = {NULL, NULL, NULL};
  int n[3] = {0, 0, 0};
  static const char* const attr[3] = {"qpos", "qvel", "ctrl"};
  const int want[3] = {nq, nv, acts->n};
  static const char* const size[3] = {"nq", "nv", "actuators"};
  csStatus st = CS_OK;
  for (int j = 0; st == CS_OK && j < 3; j++) {
    st = mj_num_list(nd, attr[j], &v[j], &n[j]);
    if (st == CS_OK && n[j] && n[j] != want[j])
      st = mj_err_attr(CS_ERR_MODEL, nd, attr[j], "key '%s': %d numbers, the model has %s = %d",
                       k.name, n[j], size[j], want[j]);
  }
  double* ctrl = NULL;
  if (st == CS_OK && n[2]) st = mj_key_ctrl(c, nd, acts, v[2], n[2], &ctrl, &k.nctrl);
  if (st == CS_OK) {
    k.qpos = v[0], k.nqpos = n[0], k.qvel = v[1], k.nqvel = n[1], k.ctrl = ctrl;
    if (cs_builder_add_key(c->b, &k) < 0) st = mj_err_wrap(CS_ERR_MODEL, nd, "key");
  }
  for (int j = 0; j < 3; j++) cs_free(v[j]);
  cs_free(ctrl);
  return st;
}

/* <keyframe>: its <key> elements into builder keyframes. */
static csStatus mj_keyframe(mjCtx* c, mjNode nd, const mjList* top) {
  mjList acts = {NULL, 0, 0}, L = {NULL, 0, 0};
  csStatus st = mj_actuator_elems(c, top, &acts);
  if (st == CS_OK) st = mj_children(c, nd, &L);
  for (int i = 0; st == CS_OK && i < L.n; i++) {
    if (mj_is(L.a[i].n, "key"))
      st = mj_key(c, L.a[i], &acts);
    else
      mj_note_elem(c, L.a[i], "keyframe", "unknown element");
  }
  cs_free(L.a);
  cs_free(acts.a);
  return st;
}

/* ------------------------------------------------------------------ entry */
static csStatus mj_load(mjCtx* c, const char* path) {
  xmlDocPtr d = NULL;
  csStatus st = csi_xml_read(path, &d);
  if (st != CS_OK) return st;
  if (!MJ_GROW(c->doc, c->ndoc, c->cdoc)) {
    xmlFreeDoc(d);
    return mj_oom();
  }
  c->doc[c->ndoc++] = d;
  const char* file = mj_keep(c, path);
  if (!file) return mj_oom();
  c->mainfile = file;
  /* local body 0: the world (builder body 0) */
  if (!MJ_GROW(c->body, c->nbody, c->cbody)) return mj_oom();
  memset(&c->body[0], 0, sizeof c->body[0]);
  cs_body_spec_default(&c->body[0].s);
  c->body[0].s.name = "world";
  c->body[0].parent = -1;
  c->body[0].bid = 0;
  c->nbody = 1;
  csi_path_dir(path, c->maindir, sizeof c->maindir);
  char real[PATH_MAX];
  if (realpath(path, real)) {
    const char* kr = mj_keep(c, real);
    if (!kr) return mj_oom();
    c->incstack[c->ninc++] = kr;
  }
  mjNode root = {xmlDocGetRootElement(d), file};
  if (!mj_is(root.n, "mujoco"))
    return mj_err(CS_ERR_PARSE, root, "the root element of an MJCF file must be <mujoco>");
  mjList top = {NULL, 0, 0};
  st = mj_children(c, root, &top);
  int idx;
  if (st == CS_OK) st = mj_new_class(c, "main", -1, &idx);
  /* sections in MuJoCo's order */
  static const char* const order[] = {"compiler", "option", "default", "asset", "worldbody", NULL};
  for (int s = 0; st == CS_OK && order[s]; s++)
    for (int i = 0; st == CS_OK && i < top.n; i++) {
      mjNode k = top.a[i];
      if (!mj_is(k.n, order[s])) continue;
      switch (s) {
        case 0:
          st = mj_compiler(c, k);
          break;
        case 1:
          st = mj_option(c, k);
          break;
        case 2:
          st = mj_default(c, k, 0);
          break;
        case 3:
          st = mj_asset(c, k);
          break;
        case 4:
          st = mj_body(c, k, -1, 0, 1);
          break;
      }
    }
  if (st == CS_OK) st = mj_emit(c);
  for (int i = 0; st == CS_OK && i < top.n; i++)
    if (mj_is(top.a[i].n, "contact")) st = mj_contact(c, top.a[i]);
  for (int i = 0; st == CS_OK && i < top.n; i++)
    if (mj_is(top.a[i].n, "tendon")) st = mj_tendon(c, top.a[i]);
  for (int i = 0; st == CS_OK && i < top.n; i++)
    if (mj_is(top.a[i].n, "actuator")) st = mj_actuator(c, top.a[i]);
  for (int i = 0; st == CS_OK && i < top.n; i++) {
    mjNode k = top.a[i];
    const char* nm = mj_name(k.n);
    int known = 0;
    for (int s = 0; order[s]; s++)
      if (strcmp(nm, order[s]) == 0) known = 1;
    if (known || strcmp(nm, "contact") == 0 || strcmp(nm, "actuator") == 0 ||
        strcmp(nm, "tendon") == 0)
      continue;
    if (strcmp(nm, "equality") == 0)
      st = mj_equality(c, k);
    else if (strcmp(nm, "sensor") == 0)
      st = mj_sensor(c, k);
    else if (strcmp(nm, "keyframe") == 0)
      st = mj_keyframe(c, k, &top);
    else if (strcmp(nm, "extension") == 0 || strcmp(nm, "plugin") == 0)
      mj_note_elem(c, k, "mujoco", "plugins are not supported");
    else if (strcmp(nm, "size") == 0)
      st = mj_size(c, k);
    else if (strcmp(nm, "custom") == 0)
      st = mj_custom(c, k);
    else if (strcmp(nm, "visual") == 0 || strcmp(nm, "statistic") == 0)
      mj_vis(c, nm);
    else
      mj_note_elem(c, k, "mujoco", "unknown element");
  }
  cs_free(top.a);
  if (st == CS_OK) mj_flush_notes(c);
  return st;
}

csStatus cs_load_mjcf(csBuilder* b, const char* path, const csLoadOptions* o) {
  if (!b || !path) return csi_error(CS_ERR_ARG, "cs_load_mjcf: NULL argument");
  mjCtx* c = csi_calloc(1, sizeof *c);
  if (!c) return mj_oom();
  c->b = b;
  if (o) c->opt = *o;
  c->degree = 1;     /* MuJoCo's default unit for angles */
  c->autolimits = 1; /* MuJoCo 3's default (2.2.2's was false: compiler autolimits="false") */
  cs_builder_option(b)->timestep = 0.002; /* MuJoCo's default; <option timestep> sets it */
  c->inertiafromgeom = 2;
  c->igroup[0] = 0;
  c->igroup[1] = 5;
  memcpy(c->eulerseq, "xyz", 4);
  /* the builder repairs the merged bodies' inertias at compile (cs_load_model sets the
     same switch); compiler balanceinertia is applied here, per MJCF body, as MuJoCo does */
  if (o && o->balance_inertia) cs_builder_set_balance_inertia(b, 1);
  cs_builder_option(b)->recovery_speed = CS_RECOVERY_SPEED_FILE; /* the file may set it */
  csStatus st = mj_load(c, path);
  if (st == CS_OK) cs_builder_set_source(b, path);
  for (int i = 0; i < c->ndoc; i++) xmlFreeDoc(c->doc[i]);
  for (int i = 0; i < c->ncls; i++)
    for (int k = 0; k < MJ_NKIND; k++) cs_free(c->cls[i].elem[k].a);
  for (int i = 0; i < c->nstr; i++) cs_free(c->str[i]);
  cs_free(c->doc);
  cs_free(c->str);
  cs_free(c->cls);
  cs_free(c->mesh);
  cs_free(c->hfield);
  cs_free(c->body);
  cs_free(c->jnt);
  cs_free(c->geom);
  cs_free(c->site);
  cs_free(c->note);
  cs_free(c->ten);
  cs_free(c);
  return st;
}
