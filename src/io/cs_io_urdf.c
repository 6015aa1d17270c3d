/* URDF reader: <robot> with <link> and <joint> elements -> builder bodies, joints, geoms.

   Order of work: (1) collect links and joints and check the topology (one tree: a single
   root, no link that is the child of two joints, no cycle, no unknown link); (2) walk the
   tree from the root (parents before children) and add one body per link, the joint that
   attaches it, its inertia and its collision geoms. A link's frame is its parent joint's
   frame, so the body pose is the joint origin and the joint anchor is the body origin.

   Joint <dynamics friction> becomes the joint's friction loss (csJointSpec.frictionloss),
   <dynamics damping> its damping, <limit effort> > 0 the range [-effort, effort] that the
   summed force of the actuators on the joint is clamped to (csJointSpec.actfrcrange; the
   reader makes no actuators, a builder user adds them);
   <mimic> becomes a joint equality (u_mimics). What the library does not simulate (velocity
   limits, effort 0, a mimic on a fixed joint, simulator-specific tags, collision meshes in
   a format not read: csi_mesh_formats) is never dropped silently: it becomes a note, one line
   per kind with a count and the first place it occurs. <visual> elements become visual
   geoms (csGeomSpec.visual: never collided); a visual mesh that is missing or in a format
   not read is a note, its geom dropped. Also here: cs_load_model, which dispatches on the
   file extension and compiles. */
#define _XOPEN_SOURCE 700 /* realpath */

#include <libxml/tree.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "contactsim/cs_io.h"
#include "core/cs_builder.h"
#include "core/cs_error.h"
#include "io/cs_io_mesh.h"
#include "io/cs_io_xml.h"
#include "math/cs_math.h"

#define U_PATH 4096

enum { U_REVOLUTE, U_CONTINUOUS, U_PRISMATIC, U_FIXED, U_FLOATING, U_PLANAR };

typedef struct {
  char* name; /* xmlFree */
  const xmlNode* node;
  int parent_joint; /* joint whose child this link is, -1 for a root */
  int first_joint;  /* first joint whose parent this link is (document order) */
  int body;         /* builder body index */
} uLink;

typedef struct {
  char* name; /* xmlFree */
  const xmlNode* node;
  int type;          /* U_* */
  int parent, child; /* link indices */
  int next;          /* next joint with the same parent link */
} uJoint;

typedef struct {
  char* key; /* what is ignored (csi_malloc) */
  int count;
  char first[160]; /* the first object it was seen on */
  long line;
} uNote;

typedef struct {
  char* path; /* resolved file (csi_malloc) */
  double scale[3];
  int id;     /* builder mesh index */
  char* name; /* mesh name (csi_malloc) */
} uMesh;

typedef struct {
  csBuilder* b;
  const char* file;
  const csLoadOptions* o;
  char dir[U_PATH];
  uLink* link;
  int nlink;
  uJoint* jnt;
  int njnt;
  uNote* note;
  int nnote, cnote;
  uMesh* mesh;
  int nmesh, cmesh;
} uCtx;

/* ------------------------------------------------------------------ small helpers */
static long u_line(const xmlNode* n) { return xmlGetLineNo(n); }

static int u_is(const xmlNode* n, const char* name) {
  return n->type == XML_ELEMENT_NODE && strcmp(csi_xml_name(n), name) == 0;
}

static const xmlNode* u_child(const xmlNode* n, const char* name) {
  for (const xmlNode* c = n->children; c; c = c->next)
    if (u_is(c, name)) return c;
  return NULL;
}

/* Error prefixed with "file:line: ". */
static csStatus u_err(const uCtx* c, csStatus s, const xmlNode* n, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
static csStatus u_err(const uCtx* c, csStatus s, const xmlNode* n, const char* fmt, ...) {
  char buf[1536];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n) return csi_error(s, "%s:%ld: %s", c->file, u_line(n), buf);
  return csi_error(s, "%s: %s", c->file, buf);
}

/* The builder reports a failed add with -1 and a message: out of memory or a bad model. */
static csStatus u_builder_failed(void) {
  return strstr(cs_last_error(), "out of memory") ? CS_ERR_MEMORY : CS_ERR_MODEL;
}

static void u_source(const uCtx* c, const xmlNode* n, char* buf, size_t nbuf) {
  snprintf(buf, nbuf, "%s:%ld", c->file, u_line(n));
}

/* One scalar attribute: 1 present, 0 absent, -1 malformed (error set, CS_ERR_PARSE). */
static int u_num(const uCtx* c, const xmlNode* n, const char* attr, double* out) {
  return csi_xml_doubles(c->file, n, attr, out, 1);
}

/* A required scalar attribute. */
static csStatus u_num_req(const uCtx* c, const xmlNode* n, const char* attr, double* out) {
  int r = u_num(c, n, attr, out);
  if (r < 0) return CS_ERR_PARSE;
  if (r == 0)
    return u_err(c, CS_ERR_PARSE, n, "<%s>: missing attribute '%s'", csi_xml_name(n), attr);
  return CS_OK;
}

/* Aggregated note: one per key, with a count and the first occurrence. */
static void u_note(uCtx* c, const char* key, const char* object, const xmlNode* n) {
  for (int i = 0; i < c->nnote; i++)
    if (strcmp(c->note[i].key, key) == 0) {
      c->note[i].count++;
      return;
    }
  if (c->nnote == c->cnote) {
    int nc = c->cnote ? 2 * c->cnote : 16;
    uNote* p = csi_realloc(c->note, sizeof(uNote) * (size_t)c->cnote, sizeof(uNote) * (size_t)nc);
    if (!p) return; /* notes are advisory: a failed allocation loses one */
    c->note = p;
    c->cnote = nc;
  }
  uNote* t = &c->note[c->nnote];
  t->key = csi_strdup(key);
  if (!t->key) return;
  t->count = 1;
  snprintf(t->first, sizeof t->first, "%s", object ? object : "");
  t->line = n ? u_line(n) : 0;
  c->nnote++;
}

static void u_flush_notes(uCtx* c) {
  for (int i = 0; i < c->nnote; i++) {
    const uNote* t = &c->note[i];
    cs_builder_add_note(c->b, "%s: %s (%d time%s; first: %s at line %ld)", c->file, t->key,
                        t->count, t->count == 1 ? "" : "s", t->first, t->line);
  }
}

/* Roll-pitch-yaw about fixed axes: R = Rz(yaw) Ry(pitch) Rx(roll). */
static void u_rpy2quat(double* q, const double* rpy) {
  static const double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1};
  double qx[4], qy[4], qz[4], t[4];
  csi_axisangle2quat(qx, ex, rpy[0]);
  csi_axisangle2quat(qy, ey, rpy[1]);
  csi_axisangle2quat(qz, ez, rpy[2]);
  csi_quat_mul(t, qz, qy);
  csi_quat_mul(q, t, qx);
  csi_quat_normalize(q);
}

/* <origin xyz rpy> child of n (identity when absent). */
static csStatus u_origin(const uCtx* c, const xmlNode* n, double* pos, double* quat) {
  csi_zero(pos, 3);
  csi_quat_identity(quat);
  const xmlNode* o = u_child(n, "origin");
  if (!o) return CS_OK;
  double rpy[3] = {0, 0, 0};
  if (csi_xml_doubles(c->file, o, "xyz", pos, 3) < 0) return CS_ERR_PARSE;
  int r = csi_xml_doubles(c->file, o, "rpy", rpy, 3);
  if (r < 0) return CS_ERR_PARSE;
  if (r > 0) u_rpy2quat(quat, rpy);
  return CS_OK;
}

/* ------------------------------------------------------------------ mesh files */
static int u_file_exists(const char* p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Try dir + rel; on success the (canonical) path is written to out. */
static int u_try(const char* dir, const char* rel, char* out, size_t nout) {
  char buf[U_PATH];
  int w;
  if (!dir || !*dir)
    w = snprintf(buf, sizeof buf, "%s", rel);
  else
    w = snprintf(buf, sizeof buf, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", rel);
  if (w < 0 || (size_t)w >= sizeof buf || !u_file_exists(buf)) return 0;
  char* real = realpath(buf, NULL);
  snprintf(out, nout, "%s", real ? real : buf);
  free(real); /* realpath allocates with the C library */
  return 1;
}

/* Try every suffix of the '/'-separated path rel (rel itself, then with its first component
   stripped, and so on down to the last component) under dir. */
static int u_try_suffixes(const char* dir, const char* rel, char* out, size_t nout) {
  const char* s = rel;
  while (*s) {
    while (*s == '/') s++;
    if (!*s) break;
    if (u_try(dir, s, out, nout)) return 1;
    const char* slash = strchr(s, '/');
    if (!slash) break;
    s = slash + 1;
  }
  return 0;
}

/* Resolve a mesh URI. package://PKG/rest: the suffixes of PKG/rest under each directory of
   o->package_path, then under the URDF's directory, its parent and its grandparent (this
   covers both a ROS layout, DIR/PKG/rest, and example-robot-data's,
   package://example-robot-data/robots/<pkg>/meshes/... -> <model>/meshes/...). file://path
   and plain paths: relative to the URDF's directory unless absolute. */
static int u_resolve(const uCtx* c, const char* uri, char* out, size_t nout) {
  if (strncmp(uri, "package://", 10) == 0) {
    const char* rel = uri + 10;
    while (*rel == '/') rel++; /* package:///pkg/... */
    if (!*rel) return 0;
    const char* pp = c->o->package_path;
    while (pp && *pp) {
      const char* colon = strchr(pp, ':');
      size_t l = colon ? (size_t)(colon - pp) : strlen(pp);
      if (l > 0 && l < U_PATH) {
        char dir[U_PATH];
        memcpy(dir, pp, l);
        dir[l] = 0;
        if (u_try_suffixes(dir, rel, out, nout)) return 1;
      }
      if (!colon) break;
      pp = colon + 1;
    }
    static const char* const up[3] = {"", "../", "../../"};
    for (int k = 0; k < 3; k++) {
      char dir[U_PATH];
      int w = snprintf(dir, sizeof dir, "%s%s", c->dir, up[k]);
      if (w < 0 || (size_t)w >= sizeof dir) continue;
      if (u_try_suffixes(dir, rel, out, nout)) return 1;
    }
    return 0;
  }
  const char* rel = uri;
  if (strncmp(uri, "file://", 7) == 0)
    rel = uri + 7;
  else if (strstr(uri, "://"))
    return 0; /* other schemes (http, model, ...) */
  if (!*rel) return 0;
  return u_try(rel[0] == '/' ? NULL : c->dir, rel, out, nout);
}

static const char* u_basename(const char* p) {
  const char* s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Lower-case extension of a URI ("" if none). */
static void u_ext(const char* uri, char* ext, size_t n) {
  const char* base = u_basename(uri);
  const char* dot = strrchr(base, '.');
  size_t i = 0;
  if (dot)
    for (dot++; *dot && i + 1 < n; dot++, i++)
      ext[i] = (char)(*dot >= 'A' && *dot <= 'Z' ? *dot - 'A' + 'a' : *dot);
  ext[i] = 0;
}

/* Builder mesh for (file, scale), loading the file the first time. */
static csStatus u_mesh(uCtx* c, const char* path, const double* scale, const xmlNode* n,
                       const char* link, const char* uri, const char* kind, int* id) {
  for (int i = 0; i < c->nmesh; i++)
    if (strcmp(c->mesh[i].path, path) == 0 && c->mesh[i].scale[0] == scale[0] &&
        c->mesh[i].scale[1] == scale[1] && c->mesh[i].scale[2] == scale[2]) {
      *id = c->mesh[i].id;
      return CS_OK;
    }
  int nv, nf;
  double* v;
  int* f;
  csStatus st = csi_load_mesh(path, &nv, &v, &nf, &f);
  if (st != CS_OK) {
    char why[1024];
    snprintf(why, sizeof why, "%s", cs_last_error());
    return u_err(c, st, n, "link '%s': %s mesh '%s': %s", link, kind, uri, why);
  }
  /* name: the file's base name without extension, made unique */
  char name[256];
  const char* base = u_basename(path);
  const char* dot = strrchr(base, '.');
  int bl = dot ? (int)(dot - base) : (int)strlen(base);
  if (bl > 200) bl = 200;
  snprintf(name, sizeof name, "%.*s", bl, base);
  for (int k = 2;; k++) {
    int used = 0;
    for (int i = 0; i < c->nmesh && !used; i++) used = strcmp(c->mesh[i].name, name) == 0;
    if (!used) break;
    snprintf(name, sizeof name, "%.*s_%d", bl, base, k);
  }
  int mid = cs_builder_add_mesh(c->b, name, nv, v, nf, f);
  cs_free(v);
  cs_free(f);
  if (mid < 0) {
    char why[1024];
    snprintf(why, sizeof why, "%s", cs_last_error());
    return u_err(c, u_builder_failed(), n, "link '%s': %s mesh '%s' (%s): %s", link, kind, uri,
                 path, why);
  }
  if (c->nmesh == c->cmesh) {
    int nc = c->cmesh ? 2 * c->cmesh : 16;
    uMesh* p = csi_realloc(c->mesh, sizeof(uMesh) * (size_t)c->cmesh, sizeof(uMesh) * (size_t)nc);
    if (!p) return csi_error(CS_ERR_MEMORY, "%s: out of memory", c->file);
    c->mesh = p;
    c->cmesh = nc;
  }
  uMesh* me = &c->mesh[c->nmesh];
  me->path = csi_strdup(path);
  me->name = csi_strdup(name);
  if (!me->path || !me->name) {
    cs_free(me->path);
    cs_free(me->name);
    return csi_error(CS_ERR_MEMORY, "%s: out of memory", c->file);
  }
  memcpy(me->scale, scale, sizeof me->scale);
  me->id = mid;
  c->nmesh++;
  *id = mid;
  return CS_OK;
}

/* ------------------------------------------------------------------ link contents */
static csStatus u_inertial(const uCtx* c, const uLink* L, csBodySpec* s) {
  const xmlNode* in = u_child(L->node, "inertial");
  if (!in) return CS_OK; /* a massless link (URDF default): fine if merged into a massive one */
  double q[4];
  csStatus st = u_origin(c, in, s->ipos, q);
  if (st != CS_OK) return st;
  const xmlNode* mass = u_child(in, "mass");
  if (!mass) return u_err(c, CS_ERR_PARSE, in, "link '%s': <inertial> without <mass>", L->name);
  if ((st = u_num_req(c, mass, "value", &s->mass)) != CS_OK) return st;
  if (s->mass < 0)
    return u_err(c, CS_ERR_MODEL, mass, "link '%s': negative mass %g", L->name, s->mass);
  const xmlNode* inert = u_child(in, "inertia");
  double I[6] = {0, 0, 0, 0, 0, 0}; /* xx yy zz xy xz yz */
  if (inert) {
    static const char* const attr[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
    for (int k = 0; k < 6; k++)
      if (u_num(c, inert, attr[k], &I[k]) < 0) return CS_ERR_PARSE;
  }
  /* the tensor is given about the com in the inertial frame: rotate it into the link frame */
  double R[9];
  csi_quat2mat(R, q);
  csi_sym_rotate(s->inertia, R, I);
  return CS_OK;
}

/* A visual mesh that is not loaded: a note, and the geom is dropped. */
static void u_visual_unread(uCtx* c, const uLink* L, const xmlNode* vis, const char* what,
                            const char* ext) {
  char key[160];
  snprintf(key, sizeof key, "visual mesh %s (.%s): visual geom dropped", what, ext);
  u_note(c, key, L->name, vis);
}

/* A <visual>'s colour into rgba: its <material><color rgba>, or the <color> of the
   <robot>-level <material> of that name; unchanged (the default) if neither is given. */
static csStatus u_visual_rgba(uCtx* c, const xmlNode* vis, double rgba[4]) {
  const xmlNode* mat = u_child(vis, "material");
  if (!mat) return CS_OK;
  const xmlNode* color = u_child(mat, "color");
  char* name = color ? NULL : csi_xml_attr(mat, "name");
  if (name) {
    const xmlNode* robot = xmlDocGetRootElement(vis->doc);
    for (const xmlNode* e = robot->children; e && !color; e = e->next) {
      char* n = u_is(e, "material") ? csi_xml_attr(e, "name") : NULL;
      if (n && !strcmp(n, name)) color = u_child(e, "color");
      xmlFree(n);
    }
    xmlFree(name);
  }
  return color && csi_xml_doubles(c->file, color, "rgba", rgba, 4) < 0 ? CS_ERR_PARSE : CS_OK;
}

/* The link's <collision> elements (visual = 0) or its <visual> elements (visual = 1) as
   geoms. */
static csStatus u_link_geoms(uCtx* c, const uLink* L, int visual) {
  const char* elem = visual ? "visual" : "collision";
  int k = 0;
  for (const xmlNode* col = L->node->children; col; col = col->next) {
    if (!u_is(col, elem)) continue;
    int index = k++;
    csGeomSpec g;
    cs_geom_spec_default(&g);
    g.body = L->body;
    g.visual = visual;
    csStatus st = u_origin(c, col, g.pos, g.quat);
    if (st == CS_OK && visual) st = u_visual_rgba(c, col, g.rgba);
    if (st != CS_OK) return st;
    const xmlNode* geo = u_child(col, "geometry");
    const xmlNode* shape = NULL;
    if (geo)
      for (const xmlNode* s = geo->children; s && !shape; s = s->next)
        if (s->type == XML_ELEMENT_NODE) shape = s;
    if (!shape)
      return u_err(c, CS_ERR_PARSE, geo ? geo : col,
                   "link '%s': <%s> without a shape in <geometry>", L->name, elem);
    const char* sh = csi_xml_name(shape);
    char src[U_PATH + 32];
    u_source(c, col, src, sizeof src);
    g.source = src;
    char* cname = csi_xml_attr(col, "name");
    char gname[512];
    if (cname)
      snprintf(gname, sizeof gname, "%s", cname);
    else
      snprintf(gname, sizeof gname, "%s_%s%d", L->name, elem, index);
    xmlFree(cname);
    g.name = gname;
    if (strcmp(sh, "box") == 0) {
      g.type = CS_GEOM_BOX;
      int r = csi_xml_doubles(c->file, shape, "size", g.size, 3);
      if (r < 0) return CS_ERR_PARSE;
      if (r == 0) return u_err(c, CS_ERR_PARSE, shape, "<box>: missing attribute 'size'");
      csi_scl3(g.size, g.size, 0.5);
    } else if (strcmp(sh, "sphere") == 0) {
      g.type = CS_GEOM_SPHERE;
      if ((st = u_num_req(c, shape, "radius", &g.size[0])) != CS_OK) return st;
    } else if (strcmp(sh, "cylinder") == 0 || strcmp(sh, "capsule") == 0) {
      /* capsule: an extension (Drake) */
      g.type = strcmp(sh, "cylinder") == 0 ? CS_GEOM_CYLINDER : CS_GEOM_CAPSULE;
      double len;
      if ((st = u_num_req(c, shape, "radius", &g.size[0])) != CS_OK) return st;
      if ((st = u_num_req(c, shape, "length", &len)) != CS_OK) return st;
      g.size[1] = 0.5 * len;
    } else if (strcmp(sh, "mesh") == 0) {
      char* uri = csi_xml_attr(shape, "filename");
      if (!uri) return u_err(c, CS_ERR_PARSE, shape, "<mesh>: missing attribute 'filename'");
      double scale[3] = {1, 1, 1};
      int r = csi_xml_doubles(c->file, shape, "scale", scale, -3);
      if (r < 0 || r == 2) {
        if (r == 2) u_err(c, CS_ERR_PARSE, shape, "<mesh scale>: expected 1 or 3 numbers");
        xmlFree(uri);
        return CS_ERR_PARSE;
      }
      if (r == 1) scale[1] = scale[2] = scale[0];
      char ext[16];
      u_ext(uri, ext, sizeof ext);
      if (c->o->skip_collision_meshes) {
        u_note(c,
               visual ? "visual mesh geoms skipped (option skip_collision_meshes)"
                      : "collision mesh geoms skipped (option skip_collision_meshes)",
               L->name, col);
        xmlFree(uri);
        continue;
      }
      char path[U_PATH];
      if (visual && (!csi_mesh_format_known(uri) || !u_resolve(c, uri, path, sizeof path))) {
        u_visual_unread(c, L, col, csi_mesh_format_known(uri) ? "not found" : "format not read",
                        ext);
        xmlFree(uri);
        continue;
      }
      if (!csi_mesh_format_known(uri)) {
        char key[128];
        snprintf(key, sizeof key,
                 "collision mesh in a format not read (.%s) not loaded: "
                 "geom skipped",
                 ext);
        u_note(c, key, L->name, col);
        xmlFree(uri);
        continue;
      }
      if (!u_resolve(c, uri, path, sizeof path)) {
        st = u_err(c, CS_ERR_IO, shape,
                   "link '%s': collision mesh '%s' not found (searched "
                   "package_path '%s', the URDF's directory, its parent and grandparent)",
                   L->name, uri, c->o->package_path ? c->o->package_path : "");
        xmlFree(uri);
        return st;
      }
      int mid = -1;
      st = u_mesh(c, path, scale, shape, L->name, uri, elem, &mid);
      xmlFree(uri);
      if (st != CS_OK) return st;
      if (scale[0] * scale[1] * scale[2] < 0)
        u_note(c,
               "mesh scale with an odd number of negative factors (a mirrored mesh: its "
               "triangles' winding is reversed)",
               L->name, col);
      g.type = CS_GEOM_MESH;
      g.mesh = mid;
      csi_copy3(g.size, scale);
    } else {
      return u_err(c, CS_ERR_PARSE, shape, "link '%s': unknown %s geometry <%s>", L->name, elem,
                   sh);
    }
    if (cs_builder_add_geom(c->b, &g) < 0) return u_builder_failed();
  }
  return CS_OK;
}

/* The link's collision geoms, then its visual geoms. */
static csStatus u_collisions(uCtx* c, const uLink* L) {
  csStatus st = u_link_geoms(c, L, 0);
  return st != CS_OK ? st : u_link_geoms(c, L, 1);
}

static void u_link_extras(uCtx* c, const uLink* L) {
  for (const xmlNode* e = L->node->children; e; e = e->next) {
    if (e->type != XML_ELEMENT_NODE || u_is(e, "inertial") || u_is(e, "visual") ||
        u_is(e, "collision"))
      continue;
    char key[200];
    snprintf(key, sizeof key,
             "<link><%.64s> (not part of the model the library simulates) "
             "ignored",
             csi_xml_name(e));
    u_note(c, key, L->name, e);
  }
}

/* <limit effort>: a hinge's or slide's actuator-force range [-effort, effort]; effort 0 is
   read as no limit (noted), a negative or non-finite one is an error naming the joint. */
static csStatus u_effort(uCtx* c, const xmlNode* e, const char* joint, int moving1, double v,
                         csJointSpec* s) {
  if (!moving1) {
    u_note(c, "<limit effort> on a floating or planar joint ignored", joint, e);
    return CS_OK;
  }
  if (!(v >= 0) || !isfinite(v))
    return u_err(c, CS_ERR_MODEL, e, "joint '%s': <limit effort=\"%g\"> must be finite and >= 0",
                 joint, v);
  if (v == 0) {
    u_note(c, "<limit effort=\"0\"> read as no actuator-force limit", joint, e);
    return CS_OK;
  }
  s->actfrclimited = 1;
  s->actfrcrange[0] = -v, s->actfrcrange[1] = v;
  return CS_OK;
}

/* ------------------------------------------------------------------ joints */
static csStatus u_joint(uCtx* c, const uJoint* J, int body) {
  const xmlNode* n = J->node;
  char src[U_PATH + 32];
  u_source(c, n, src, sizeof src);
  csJointSpec s;
  cs_joint_spec_default(&s);
  s.name = J->name;
  s.body = body;
  s.source = src;
  s.axis[0] = 1, s.axis[1] = 0, s.axis[2] = 0; /* URDF default axis */
  switch (J->type) {
    case U_REVOLUTE:
    case U_CONTINUOUS:
      s.type = CS_JNT_REVOLUTE;
      break;
    case U_PRISMATIC:
      s.type = CS_JNT_PRISMATIC;
      break;
    case U_FIXED:
      s.type = CS_JNT_FIXED;
      break;
    default:
      s.type = CS_JNT_FREE;
      break;
  }
  int moving1 = J->type == U_REVOLUTE || J->type == U_CONTINUOUS || J->type == U_PRISMATIC;
  for (const xmlNode* e = n->children; e; e = e->next) {
    if (e->type != XML_ELEMENT_NODE) continue;
    const char* en = csi_xml_name(e);
    if (u_is(e, "parent") || u_is(e, "child") || u_is(e, "origin")) continue;
    if (u_is(e, "axis")) {
      if (csi_xml_doubles(c->file, e, "xyz", s.axis, 3) < 0) return CS_ERR_PARSE;
      continue;
    }
    if (u_is(e, "limit")) {
      double lo = 0, hi = 0, v;
      int rl = u_num(c, e, "lower", &lo), ru = u_num(c, e, "upper", &hi);
      if (rl < 0 || ru < 0) return CS_ERR_PARSE;
      int re = u_num(c, e, "effort", &v);
      if (re < 0) return CS_ERR_PARSE;
      if (re > 0 && J->type != U_FIXED) {
        csStatus st = u_effort(c, e, J->name, moving1, v, &s);
        if (st != CS_OK) return st;
      }
      int rv = u_num(c, e, "velocity", &v);
      if (rv < 0) return CS_ERR_PARSE;
      if (rv > 0 && J->type != U_FIXED)
        u_note(c, "joint velocity limits (<limit velocity>) not enforced", J->name, e);
      if (J->type == U_REVOLUTE || J->type == U_PRISMATIC) {
        if (rl > 0 || ru > 0) {
          s.limited = 1;
          s.range[0] = lo;
          s.range[1] = hi;
        } else {
          u_note(c, "revolute/prismatic <limit> without lower and upper: joint left unlimited",
                 J->name, e);
        }
      } else if (rl > 0 || ru > 0) {
        u_note(c, "<limit lower/upper> on a continuous, fixed or floating joint ignored", J->name,
               e);
      }
      continue;
    }
    if (u_is(e, "dynamics")) {
      /* friction: the joint's dry friction, its friction loss (as MuJoCo reads it) */
      if (u_num(c, e, "damping", &s.damping) < 0) return CS_ERR_PARSE;
      if (u_num(c, e, "friction", &s.frictionloss) < 0) return CS_ERR_PARSE;
      if (s.damping != 0 && !moving1)
        u_note(c, "<dynamics damping> on a fixed or floating joint ignored", J->name, e);
      if (s.frictionloss != 0 && !moving1)
        u_note(c, "<dynamics friction> on a fixed or floating joint ignored", J->name, e);
      if (!moving1) s.damping = s.frictionloss = 0;
      continue;
    }
    if (u_is(e, "mimic")) continue; /* u_mimics */
    char key[200];
    snprintf(key, sizeof key, "<joint><%.64s> ignored", en);
    u_note(c, key, J->name, e);
  }
  if ((J->type == U_REVOLUTE || J->type == U_PRISMATIC) && !u_child(n, "limit"))
    u_note(c, "revolute/prismatic joint without <limit> (required by URDF): left unlimited",
           J->name, n);
  if (!moving1) {
    csi_zero(s.axis, 3);
    s.axis[2] = 1;
  }
  if (cs_builder_add_joint(c->b, &s) < 0) return u_builder_failed();
  return CS_OK;
}

static int u_joint_type(const char* t) {
  static const char* const names[] = {"revolute", "continuous", "prismatic",
                                      "fixed",    "floating",   "planar"};
  for (int i = 0; i < 6; i++)
    if (strcmp(t, names[i]) == 0) return i;
  return -1;
}

static int u_find_link(const uCtx* c, const char* name) {
  for (int i = 0; i < c->nlink; i++)
    if (strcmp(c->link[i].name, name) == 0) return i;
  return -1;
}

/* <parent link="..."/> or <child link="..."/>: link index, or -1 with the error set. */
static int u_joint_link(const uCtx* c, const uJoint* J, const char* which, csStatus* st) {
  const xmlNode* e = u_child(J->node, which);
  char* ln = e ? csi_xml_attr(e, "link") : NULL;
  if (!ln) {
    *st = u_err(c, CS_ERR_PARSE, e ? e : J->node, "joint '%s': missing <%s link=\"...\"/>", J->name,
                which);
    return -1;
  }
  int id = u_find_link(c, ln);
  if (id < 0)
    *st = u_err(c, CS_ERR_MODEL, e, "joint '%s': %s link '%s' does not exist", J->name, which, ln);
  xmlFree(ln);
  return id;
}

/* ------------------------------------------------------------------ mimic joints */
static int u_moving1(int type) {
  return type == U_REVOLUTE || type == U_CONTINUOUS || type == U_PRISMATIC;
}

/* Joint j's <mimic joint="J" multiplier="m" offset="o"/>: the master joint's index into
 *master (-1: no mimic, or one on a fixed or floating joint, noted and dropped), m and o. */
static csStatus u_mimic_read(uCtx* c, int j, int* master, double* mult, double* off) {
  const uJoint* J = &c->jnt[j];
  const xmlNode* e = u_child(J->node, "mimic");
  *master = -1;
  *mult = 1;
  *off = 0;
  if (!e) return CS_OK;
  if (!u_moving1(J->type)) {
    u_note(c, "<mimic> on a fixed or floating joint ignored", J->name, e);
    return CS_OK;
  }
  char* jn = csi_xml_attr(e, "joint");
  if (!jn) return u_err(c, CS_ERR_PARSE, e, "joint '%s': <mimic> without 'joint'", J->name);
  int k = -1;
  for (int i = 0; i < c->njnt && k < 0; i++)
    if (strcmp(c->jnt[i].name, jn) == 0) k = i;
  csStatus st = CS_OK;
  if (k < 0)
    st = u_err(c, CS_ERR_MODEL, e, "joint '%s': <mimic joint=\"%s\">: no such joint", J->name, jn);
  else if (k == j)
    st = u_err(c, CS_ERR_MODEL, e, "joint '%s': <mimic joint=\"%s\">: a joint cannot mimic itself",
               J->name, jn);
  else if (!u_moving1(c->jnt[k].type))
    st = u_err(c, CS_ERR_MODEL, e,
               "joint '%s': <mimic joint=\"%s\">: '%s' is a %s joint; <mimic> couples revolute, "
               "continuous and prismatic joints",
               J->name, jn, jn, c->jnt[k].type == U_FIXED ? "fixed" : "floating");
  xmlFree(jn);
  if (st != CS_OK) return st;
  if (u_num(c, e, "multiplier", mult) < 0 || u_num(c, e, "offset", off) < 0) return CS_ERR_PARSE;
  *master = k;
  return CS_OK;
}

/* Every <mimic> as a joint equality: q = m q_J + o is q - q_0 = o + m (q_J - q_J0) with the
   reference q_0 = q_J0 = 0 of hinges and slides, so polycoef = (o, m, 0, 0, 0); the equality
   is named after the mimicking joint. Mimics that form a cycle are an error. */
static csStatus u_mimics(uCtx* c) {
  if (c->njnt == 0) return CS_OK;
  int* master = csi_malloc(sizeof(int) * (size_t)c->njnt);
  double* coef = csi_malloc(sizeof(double) * 2 * (size_t)c->njnt);
  csStatus st = master && coef ? CS_OK : csi_error(CS_ERR_MEMORY, "%s: out of memory", c->file);
  for (int j = 0; j < c->njnt && st == CS_OK; j++)
    st = u_mimic_read(c, j, &master[j], &coef[2 * j], &coef[2 * j + 1]);
  for (int j = 0; j < c->njnt && st == CS_OK; j++) {
    int k = master[j], steps = 0;
    while (k >= 0 && k != j && steps++ < c->njnt) k = master[k];
    if (k == j)
      st = u_err(c, CS_ERR_MODEL, u_child(c->jnt[j].node, "mimic"),
                 "joint '%s': its <mimic> chain leads back to it (mimic joints form a cycle)",
                 c->jnt[j].name);
  }
  for (int j = 0; j < c->njnt && st == CS_OK; j++) {
    if (master[j] < 0) continue;
    const xmlNode* e = u_child(c->jnt[j].node, "mimic");
    char src[U_PATH + 32];
    u_source(c, e, src, sizeof src);
    csEqualitySpec s;
    cs_equality_spec_default(&s);
    s.name = c->jnt[j].name;
    s.type = CS_EQ_JOINT;
    s.obj1 = c->jnt[j].name;
    s.obj2 = c->jnt[master[j]].name;
    s.polycoef[0] = coef[2 * j + 1];
    s.polycoef[1] = coef[2 * j];
    s.source = src;
    if (cs_builder_add_equality(c->b, &s) < 0) st = u_builder_failed();
  }
  cs_free(master);
  cs_free(coef);
  return st;
}

/* ------------------------------------------------------------------ the whole file */
static csStatus u_collect(uCtx* c, const xmlNode* robot) {
  int nl = 0, nj = 0;
  for (const xmlNode* e = robot->children; e; e = e->next) {
    if (u_is(e, "link"))
      nl++;
    else if (u_is(e, "joint"))
      nj++;
  }
  if (nl == 0) return u_err(c, CS_ERR_MODEL, robot, "<robot> has no <link>");
  c->link = csi_calloc((size_t)nl, sizeof(uLink));
  c->jnt = csi_calloc((size_t)(nj ? nj : 1), sizeof(uJoint));
  if (!c->link || !c->jnt) return csi_error(CS_ERR_MEMORY, "%s: out of memory", c->file);
  for (const xmlNode* e = robot->children; e; e = e->next) {
    if (e->type != XML_ELEMENT_NODE) continue;
    if (u_is(e, "link")) {
      uLink* L = &c->link[c->nlink];
      L->name = csi_xml_attr(e, "name");
      L->node = e;
      L->parent_joint = -1;
      L->first_joint = -1;
      L->body = -1;
      c->nlink++;
      if (!L->name || !L->name[0]) return u_err(c, CS_ERR_PARSE, e, "<link> without a name");
      for (int i = 0; i < c->nlink - 1; i++)
        if (strcmp(c->link[i].name, L->name) == 0)
          return u_err(c, CS_ERR_MODEL, e, "duplicate link name '%s' (first defined at line %ld)",
                       L->name, u_line(c->link[i].node));
    } else if (u_is(e, "joint")) {
      uJoint* J = &c->jnt[c->njnt];
      J->name = csi_xml_attr(e, "name");
      J->node = e;
      J->next = -1;
      c->njnt++;
      if (!J->name || !J->name[0]) return u_err(c, CS_ERR_PARSE, e, "<joint> without a name");
      for (int i = 0; i < c->njnt - 1; i++)
        if (strcmp(c->jnt[i].name, J->name) == 0)
          return u_err(c, CS_ERR_MODEL, e,
                       "duplicate joint name '%s' (first defined at line "
                       "%ld)",
                       J->name, u_line(c->jnt[i].node));
    } else if (!u_is(e, "material")) { /* materials are visual only */
      char key[200];
      snprintf(key, sizeof key,
               "<robot><%.64s> elements (simulator/controller specific) "
               "ignored",
               csi_xml_name(e));
      u_note(c, key, csi_xml_name(e), e);
    }
  }
  /* joint types and links; joints are checked after all links are known */
  for (int j = 0; j < c->njnt; j++) {
    uJoint* J = &c->jnt[j];
    char* t = csi_xml_attr(J->node, "type");
    if (!t) return u_err(c, CS_ERR_PARSE, J->node, "joint '%s': missing attribute 'type'", J->name);
    J->type = u_joint_type(t);
    if (J->type < 0) {
      csStatus st = u_err(c, CS_ERR_PARSE, J->node,
                          "joint '%s': unknown joint type '%s' "
                          "(expected revolute, continuous, prismatic, fixed, floating or planar)",
                          J->name, t);
      xmlFree(t);
      return st;
    }
    xmlFree(t);
    if (J->type == U_PLANAR)
      return u_err(c, CS_ERR_UNSUPPORTED, J->node,
                   "joint '%s': planar joints are not supported "
                   "yet (a planar joint is 3 dofs: two translations in the plane normal to the "
                   "axis and a rotation about it)",
                   J->name);
    csStatus st = CS_OK;
    J->parent = u_joint_link(c, J, "parent", &st);
    if (J->parent < 0) return st;
    J->child = u_joint_link(c, J, "child", &st);
    if (J->child < 0) return st;
    if (J->parent == J->child)
      return u_err(c, CS_ERR_MODEL, J->node, "joint '%s': link '%s' is its own parent (a cycle)",
                   J->name, c->link[J->child].name);
    uLink* ch = &c->link[J->child];
    if (ch->parent_joint >= 0)
      return u_err(c, CS_ERR_MODEL, J->node,
                   "link '%s' is the child of two joints, '%s' (line "
                   "%ld) and '%s': a URDF must be a tree",
                   ch->name, c->jnt[ch->parent_joint].name, u_line(c->jnt[ch->parent_joint].node),
                   J->name);
    ch->parent_joint = j;
  }
  /* children lists in document order */
  for (int j = c->njnt - 1; j >= 0; j--) {
    uLink* p = &c->link[c->jnt[j].parent];
    c->jnt[j].next = p->first_joint;
    p->first_joint = j;
  }
  return CS_OK;
}

/* The root link, or -1 with the error set. */
static int u_root(const uCtx* c, csStatus* st) {
  int root = -1, nroot = 0;
  char names[1024] = "";
  for (int i = 0; i < c->nlink; i++)
    if (c->link[i].parent_joint < 0) {
      if (nroot == 0) root = i;
      if (nroot < 8) {
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, "%s'%s' (line %ld)", nroot ? ", " : "",
                 c->link[i].name, u_line(c->link[i].node));
      } else if (nroot == 8) {
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, ", ...");
      }
      nroot++;
    }
  if (nroot == 0) {
    *st = csi_error(CS_ERR_MODEL,
                    "%s: no root link: every link is the child of a joint, so the "
                    "joints form a cycle",
                    c->file);
    return -1;
  }
  if (nroot > 1) {
    *st = csi_error(CS_ERR_MODEL,
                    "%s: %d root links (links that are no joint's child): %s; a "
                    "URDF must form a single tree",
                    c->file, nroot, names);
    return -1;
  }
  return root;
}

/* Links in depth-first order from the root (parents before children). */
static csStatus u_order(const uCtx* c, int root, int* order) {
  int* stack = csi_malloc(sizeof(int) * (size_t)c->nlink);
  int* cur = csi_malloc(sizeof(int) * (size_t)c->nlink);
  if (!stack || !cur) {
    cs_free(stack);
    cs_free(cur);
    return csi_error(CS_ERR_MEMORY, "%s: out of memory", c->file);
  }
  int n = 0, sp = 0;
  order[n++] = root;
  stack[sp] = root;
  cur[sp++] = c->link[root].first_joint;
  while (sp > 0 && n <= c->nlink) {
    int j = cur[sp - 1];
    if (j < 0) {
      sp--;
      continue;
    }
    cur[sp - 1] = c->jnt[j].next;
    int ch = c->jnt[j].child;
    order[n++] = ch;
    stack[sp] = ch;
    cur[sp++] = c->link[ch].first_joint;
  }
  cs_free(stack);
  cs_free(cur);
  if (n < c->nlink) {
    /* every link has at most one parent joint, so an unreached link lies on a cycle */
    char* seen = csi_calloc((size_t)c->nlink, 1);
    if (!seen) return csi_error(CS_ERR_MEMORY, "%s: out of memory", c->file);
    for (int i = 0; i < n; i++) seen[order[i]] = 1;
    int bad = 0;
    while (bad < c->nlink && seen[bad]) bad++;
    cs_free(seen);
    const uLink* L = &c->link[bad];
    const uJoint* J = &c->jnt[L->parent_joint];
    return csi_error(CS_ERR_MODEL,
                     "%s:%ld: joint '%s': the joints form a cycle through link "
                     "'%s' (%d link%s not connected to the root '%s')",
                     c->file, u_line(J->node), J->name, L->name, c->nlink - n,
                     c->nlink - n == 1 ? "" : "s", c->link[root].name);
  }
  return CS_OK;
}

static csStatus u_build(uCtx* c, const int* order) {
  int root = order[0];
  const uLink* R = &c->link[root];
  /* a root link named "world" with no inertia stands for the world itself */
  int world_root = strcmp(R->name, "world") == 0 && !u_child(R->node, "inertial");
  if (world_root && c->o->floating_base)
    u_note(c, "option floating_base ignored: the URDF attaches the robot to its 'world' link",
           R->name, R->node);
  char freename[256] = "root_joint";
  for (int k = 2;; k++) {
    int used = 0;
    for (int j = 0; j < c->njnt && !used; j++) used = strcmp(c->jnt[j].name, freename) == 0;
    if (!used) break;
    snprintf(freename, sizeof freename, "root_joint_%d", k);
  }
  for (int i = 0; i < c->nlink; i++) {
    uLink* L = &c->link[order[i]];
    if (i == 0 && world_root) {
      L->body = 0;
      u_link_extras(c, L);
      csStatus st = u_collisions(c, L);
      if (st != CS_OK) return st;
      continue;
    }
    char src[U_PATH + 32];
    u_source(c, L->node, src, sizeof src);
    csBodySpec s;
    cs_body_spec_default(&s);
    s.name = L->name;
    s.source = src;
    const uJoint* J = L->parent_joint >= 0 ? &c->jnt[L->parent_joint] : NULL;
    s.parent = J ? c->link[J->parent].body : 0;
    if (J) {
      csStatus st = u_origin(c, J->node, s.pos, s.quat);
      if (st != CS_OK) return st;
    }
    csStatus st = u_inertial(c, L, &s);
    if (st != CS_OK) return st;
    L->body = cs_builder_add_body(c->b, &s);
    if (L->body < 0) return u_builder_failed();
    /* a link welded to the world (the root of a fixed base, or a fixed joint to the 'world'
       link) stays a static body of its own: its geoms belong to the robot's tree, so the
       self-collision filter keeps them apart from the links below (body_rootid) */
    int welded = J ? s.parent == 0 && J->type == U_FIXED : !c->o->floating_base;
    if (welded && csi_builder_keep_body(c->b, L->body) < 0) return u_builder_failed();
    if (J) {
      if ((st = u_joint(c, J, L->body)) != CS_OK) return st;
    } else if (c->o->floating_base) {
      csJointSpec fj;
      cs_joint_spec_default(&fj);
      fj.name = freename;
      fj.body = L->body;
      fj.type = CS_JNT_FREE;
      fj.source = src;
      if (cs_builder_add_joint(c->b, &fj) < 0) return u_builder_failed();
    }
    u_link_extras(c, L);
    if ((st = u_collisions(c, L)) != CS_OK) return st;
  }
  return CS_OK;
}

void cs_load_options_default(csLoadOptions* o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->floating_base = 1;
}

csStatus cs_load_urdf(csBuilder* b, const char* path, const csLoadOptions* o) {
  if (!b || !path) return csi_error(CS_ERR_ARG, "cs_load_urdf: NULL builder or path");
  csLoadOptions def;
  if (!o) {
    cs_load_options_default(&def);
    o = &def;
  }
  xmlDocPtr doc;
  csStatus st = csi_xml_read(path, &doc);
  if (st != CS_OK) return st;
  uCtx c;
  memset(&c, 0, sizeof c);
  c.b = b;
  c.file = path;
  c.o = o;
  csi_path_dir(path, c.dir, sizeof c.dir);
  const xmlNode* robot = xmlDocGetRootElement(doc);
  int* order = NULL;
  if (!u_is(robot, "robot")) {
    st = u_err(&c, CS_ERR_PARSE, robot,
               "root element is <%s>, expected <robot> (not a URDF "
               "file?)",
               csi_xml_name(robot));
    goto done;
  }
  if ((st = u_collect(&c, robot)) != CS_OK) goto done;
  int root = u_root(&c, &st);
  if (root < 0) goto done;
  order = csi_malloc(sizeof(int) * (size_t)(c.nlink + 1));
  if (!order) {
    st = csi_error(CS_ERR_MEMORY, "%s: out of memory", path);
    goto done;
  }
  if ((st = u_order(&c, root, order)) != CS_OK) goto done;
  cs_builder_set_source(b, path);
  if ((st = u_build(&c, order)) != CS_OK) goto done;
  if ((st = u_mimics(&c)) != CS_OK) goto done;
  if (!c.o->self_collision) cs_builder_option(b)->disable |= CS_DISABLE_SELFCOLLISION;
  cs_builder_option(b)->recovery_speed = CS_RECOVERY_SPEED_FILE; /* docs/physics.md */
  u_flush_notes(&c);

done:
  cs_free(order);
  for (int i = 0; i < c.nlink; i++) xmlFree(c.link[i].name);
  for (int i = 0; i < c.njnt; i++) xmlFree(c.jnt[i].name);
  for (int i = 0; i < c.nnote; i++) cs_free(c.note[i].key);
  for (int i = 0; i < c.nmesh; i++) {
    cs_free(c.mesh[i].path);
    cs_free(c.mesh[i].name);
  }
  cs_free(c.link);
  cs_free(c.jnt);
  cs_free(c.note);
  cs_free(c.mesh);
  xmlFreeDoc(doc);
  return st;
}

csStatus cs_load_file(csBuilder* b, const char* path, const csLoadOptions* o) {
  if (!b || !path) return csi_error(CS_ERR_ARG, "cs_load_file: NULL builder or path");
  const char* base = u_basename(path);
  const char* dot = strrchr(base, '.');
  int kind = !dot ? 0 : strcasecmp(dot, ".xml") == 0 ? 1 : strcasecmp(dot, ".urdf") == 0 ? 2 : 0;
  if (!kind)
    return csi_error(CS_ERR_ARG,
                     "%s: unknown model file extension '%s' (expected .xml for MJCF "
                     "or .urdf for URDF)",
                     path, dot ? dot : "");
  cs_builder_set_source(b, path);
  if (o) cs_builder_set_balance_inertia(b, o->balance_inertia);
  return kind == 1 ? cs_load_mjcf(b, path, o) : cs_load_urdf(b, path, o);
}

csStatus cs_load_model(const char* path, const csLoadOptions* o, csModel** out) {
  if (out) *out = NULL;
  if (!path || !out) return csi_error(CS_ERR_ARG, "cs_load_model: NULL path or output");
  csBuilder* b = cs_builder_new();
  if (!b) return csi_error(CS_ERR_MEMORY, "%s: out of memory (builder)", path);
  csStatus st = cs_load_file(b, path, o);
  if (st == CS_OK) st = csi_builder_compile_loaded(b, out);
  cs_builder_free(b);
  return st;
}
