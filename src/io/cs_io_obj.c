/* Wavefront OBJ reader: the positions (v) and the faces (f) of a mesh. A face's corners are
   v, v/vt, v//vn or v/vt/vn with 1-based indices (negative: relative to the vertices read so
   far); a polygon is split into a fan of triangles from its first corner. Texture
   coordinates, normals, groups, materials and smoothing are read over. The output is the
   STL reader's: vertices referenced by a face, those that compare equal merged, numbered by
   first use. Two passes over the text: the positions, then the faces (so that a positive
   index may name a vertex defined further down). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cs_error.h"
#include "io/cs_io_mesh.h"

typedef struct {
  const char* path;
  const char* p;   /* current position */
  const char* end; /* end of the text */
  int line;
  double* v; /* positions (3 per vertex) */
  int nv, cv;
  int* f; /* triangles (3 original indices per triangle) */
  int nf, cf;
} objCtx;

/* ------------------------------------------------------------------ file */
static csStatus obj_read_file(const char* path, char** data, size_t* size) {
  *data = NULL;
  *size = 0;
  FILE* fp = fopen(path, "rb");
  if (!fp) return csi_error(CS_ERR_IO, "%s: cannot open OBJ file (%s)", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char* buf = csi_malloc(cap + 1);
  while (buf) {
    n += fread(buf + n, 1, cap - n, fp);
    if (n < cap) break;
    char* nb = csi_realloc(buf, cap + 1, 2 * cap + 1);
    if (!nb) cs_free(buf);
    buf = nb;
    cap *= 2;
  }
  int bad = ferror(fp);
  fclose(fp);
  if (!buf) return csi_error(CS_ERR_MEMORY, "%s: out of memory reading OBJ file", path);
  if (bad) {
    cs_free(buf);
    return csi_error(CS_ERR_IO, "%s: read error", path);
  }
  buf[n] = 0;
  *data = buf;
  *size = n;
  return CS_OK;
}

/* ------------------------------------------------------------------ lexing */
static int obj_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f'; }

static void obj_skip_blank(objCtx* o) {
  while (o->p < o->end && obj_blank(*o->p)) o->p++;
}

/* The next token on the line: [*b, *e); 0 at the end of the line or at a comment ('#' to the
   end of the line). */
static int obj_token(objCtx* o, const char** b, const char** e) {
  obj_skip_blank(o);
  *b = *e = o->p;
  if (o->p < o->end && *o->p == '#') return 0;
  while (o->p < o->end && *o->p != '\n' && !obj_blank(*o->p)) o->p++;
  *e = o->p;
  return *e > *b;
}

static void obj_next_line(objCtx* o) {
  while (o->p < o->end && *o->p != '\n') o->p++;
  if (o->p < o->end) o->p++;
  o->line++;
}

static int obj_is(const char* b, const char* e, const char* kw) {
  size_t n = strlen(kw);
  return (size_t)(e - b) == n && memcmp(b, kw, n) == 0;
}

/* Keywords read over: texture coordinates, normals, parameter-space vertices, names, groups,
   materials, smoothing, merging groups, lines and points, and the free-form geometry and
   display statements of the format. */
static int obj_ignored(const char* b, const char* e) {
  static const char* const kw[] = {
      "vt",        "vn",    "vp",       "o",        "g",    "s",      "mg",     "usemtl",
      "mtllib",    "l",     "p",        "cstype",   "deg",  "bmat",   "step",   "curv",
      "curv2",     "surf",  "parm",     "trim",     "hole", "scrv",   "sp",     "end",
      "con",       "bevel", "c_interp", "d_interp", "lod",  "usemap", "maplib", "shadow_obj",
      "trace_obj", "ctech", "stech",    NULL};
  for (int i = 0; kw[i]; i++)
    if (obj_is(b, e, kw[i])) return 1;
  return 0;
}

/* ------------------------------------------------------------------ pass 1: positions */
static csStatus obj_vertex(objCtx* o) {
  if (o->nv >= INT_MAX / 3) return csi_error(CS_ERR_PARSE, "%s: too many vertices", o->path);
  if (o->nv == o->cv) {
    int nc = o->cv ? 2 * o->cv : 256;
    if (nc > INT_MAX / 3) nc = INT_MAX / 3;
    double* p =
        csi_realloc(o->v, sizeof(double) * 3 * (size_t)o->cv, sizeof(double) * 3 * (size_t)nc);
    if (!p) return csi_error(CS_ERR_MEMORY, "%s: out of memory", o->path);
    o->v = p;
    o->cv = nc;
  }
  for (int k = 0; k < 3; k++) {
    const char *b, *e;
    if (!obj_token(o, &b, &e))
      return csi_error(CS_ERR_PARSE, "%s:%d: OBJ: a vertex needs 3 coordinates", o->path, o->line);
    char tok[64];
    size_t n = (size_t)(e - b);
    char* end = tok;
    if (n < sizeof tok) {
      memcpy(tok, b, n);
      tok[n] = 0;
      o->v[3 * (size_t)o->nv + k] = strtod(tok, &end);
    }
    if (n >= sizeof tok || end == tok || *end)
      return csi_error(CS_ERR_PARSE, "%s:%d: OBJ: '%.*s' is not a number", o->path, o->line,
                       (int)(n < 64 ? n : 64), b);
    if (!isfinite(o->v[3 * (size_t)o->nv + k]))
      return csi_error(CS_ERR_PARSE, "%s:%d: OBJ: NaN or Inf vertex coordinate '%s'", o->path,
                       o->line, tok);
  }
  o->nv++; /* an optional w (or vertex colour) follows: not used */
  return CS_OK;
}

/* ------------------------------------------------------------------ pass 2: faces */
/* An optional integer [b, e) (empty: absent); 1 if well formed. */
static int obj_int(const char* b, const char* e, long* out, int* present) {
  *present = e > b;
  if (!*present) return 1;
  char tok[24];
  size_t n = (size_t)(e - b);
  if (n >= sizeof tok) return 0;
  memcpy(tok, b, n);
  tok[n] = 0;
  char* end;
  errno = 0;
  *out = strtol(tok, &end, 10);
  return end != tok && !*end && errno == 0;
}

/* One corner [b, e) of a face: its position index, 0-based, into *idx; nbefore is the number
   of vertices read before this line (for negative indices). */
static csStatus obj_corner(objCtx* o, const char* b, const char* e, int nbefore, int* idx) {
  const char* s1 = memchr(b, '/', (size_t)(e - b));
  const char* ve = s1 ? s1 : e;
  long v = 0, t = 0;
  int has, ok = obj_int(b, ve, &v, &has) && has;
  if (ok && s1) { /* v/vt, v//vn or v/vt/vn: the other indices must be integers */
    const char* s2 = memchr(s1 + 1, '/', (size_t)(e - s1 - 1));
    ok = obj_int(s1 + 1, s2 ? s2 : e, &t, &has) && (has || s2);
    if (ok && s2) ok = obj_int(s2 + 1, e, &t, &has) && has;
  }
  if (!ok || v == 0)
    return csi_error(CS_ERR_PARSE, "%s:%d: OBJ: bad face corner '%.*s'", o->path, o->line,
                     (int)(e - b < 64 ? e - b : 64), b);
  long i = v > 0 ? v - 1 : nbefore + v;
  if (i < 0 || i >= o->nv)
    return csi_error(CS_ERR_PARSE, "%s:%d: OBJ: vertex index %ld out of range (%d vertices%s)",
                     o->path, o->line, v, v > 0 ? o->nv : nbefore, v > 0 ? "" : " before it");
  *idx = (int)i;
  return CS_OK;
}

static csStatus obj_add_triangle(objCtx* o, int a, int b, int c) {
  if (o->nf >= INT_MAX / 9) return csi_error(CS_ERR_PARSE, "%s: too many triangles", o->path);
  if (o->nf == o->cf) {
    int nc = o->cf ? 2 * o->cf : 256;
    if (nc > INT_MAX / 9) nc = INT_MAX / 9;
    int* p = csi_realloc(o->f, sizeof(int) * 3 * (size_t)o->cf, sizeof(int) * 3 * (size_t)nc);
    if (!p) return csi_error(CS_ERR_MEMORY, "%s: out of memory", o->path);
    o->f = p;
    o->cf = nc;
  }
  int* t = o->f + 3 * (size_t)o->nf++;
  t[0] = a, t[1] = b, t[2] = c;
  return CS_OK;
}

/* f c1 c2 c3 ...: a fan of triangles (c1, ck, ck+1). */
static csStatus obj_face(objCtx* o, int nbefore) {
  int first = -1, prev = -1, n = 0;
  const char *b, *e;
  while (obj_token(o, &b, &e)) {
    int idx = 0;
    csStatus st = obj_corner(o, b, e, nbefore, &idx);
    if (st != CS_OK) return st;
    if (n == 0) first = idx;
    if (n >= 2 && (st = obj_add_triangle(o, first, prev, idx)) != CS_OK) return st;
    prev = idx;
    n++;
  }
  if (n < 3)
    return csi_error(CS_ERR_PARSE, "%s:%d: OBJ: a face needs at least 3 corners (got %d)", o->path,
                     o->line, n);
  return CS_OK;
}

/* One pass over the lines: positions (faces = 0) or faces (faces = 1). */
static csStatus obj_pass(objCtx* o, const char* text, size_t size, int faces) {
  o->p = text;
  o->end = text + size;
  o->line = 1;
  int nbefore = 0;
  while (o->p < o->end) {
    const char *b, *e;
    csStatus st = CS_OK;
    if (obj_token(o, &b, &e)) {
      if (obj_is(b, e, "v")) {
        if (!faces) st = obj_vertex(o);
        nbefore++;
      } else if (obj_is(b, e, "f")) {
        if (faces) st = obj_face(o, nbefore);
      } else if (!obj_ignored(b, e)) {
        st = csi_error(CS_ERR_PARSE, "%s:%d: OBJ: unknown statement '%.*s'", o->path, o->line,
                       (int)(e - b < 64 ? e - b : 64), b);
      }
    }
    if (st != CS_OK) return st;
    obj_next_line(o);
  }
  return CS_OK;
}

/* ------------------------------------------------------------------ entry */
csStatus cs_load_obj(const char* path, int* nvert, double** vert, int* nface, int** face) {
  if (nvert) *nvert = 0;
  if (vert) *vert = NULL;
  if (nface) *nface = 0;
  if (face) *face = NULL;
  if (!path || !nvert || !vert || !nface || !face)
    return csi_error(CS_ERR_ARG, "cs_load_obj: NULL argument");
  char* text;
  size_t size;
  csStatus st = obj_read_file(path, &text, &size);
  if (st != CS_OK) return st;
  objCtx o;
  memset(&o, 0, sizeof o);
  o.path = path;
  st = obj_pass(&o, text, size, 0);
  if (st == CS_OK) st = obj_pass(&o, text, size, 1);
  if (st == CS_OK && o.nf == 0) st = csi_error(CS_ERR_PARSE, "%s: OBJ file with no faces", path);
  if (st == CS_OK) st = csi_mesh_compact(o.path, o.nv, o.v, o.nf, o.f, nvert, vert);
  cs_free(text);
  cs_free(o.v);
  if (st != CS_OK) {
    cs_free(o.f);
    return st;
  }
  *nface = o.nf;
  *face = o.f;
  return CS_OK;
}
