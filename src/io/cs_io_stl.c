/* STL reader (binary and ASCII). The triangle soup is read into doubles (STL stores
   single-precision floats: ASCII numbers are read as floats too, so both encodings of one
   mesh give identical vertices), then vertices that compare equal are merged. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/cs_io.h"
#include "core/cs_error.h"

/* Triangle soup: 9 doubles per triangle. */
typedef struct {
  double* xyz;
  int ntri, cap;
} stlSoup;

static int stl_soup_reserve(stlSoup* s, int ntri) {
  if (ntri <= s->cap) return 1;
  int nc = s->cap ? s->cap : 64;
  while (nc < ntri) nc = nc > INT_MAX / 18 ? ntri : 2 * nc;
  size_t row = sizeof(double) * 9;
  double* p = csi_realloc(s->xyz, row * (size_t)s->cap, row * (size_t)nc);
  if (!p) return 0;
  s->xyz = p;
  s->cap = nc;
  return 1;
}

/* ------------------------------------------------------------------ file */
static csStatus stl_read_file(const char* path, unsigned char** data, size_t* size) {
  *data = NULL;
  *size = 0;
  FILE* f = fopen(path, "rb");
  if (!f) return csi_error(CS_ERR_IO, "%s: cannot open STL file (%s)", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  unsigned char* buf = csi_malloc(cap + 1);
  if (!buf) {
    fclose(f);
    return csi_error(CS_ERR_MEMORY, "%s: out of memory reading STL file", path);
  }
  for (;;) {
    if (n == cap) {
      unsigned char* nb = csi_realloc(buf, cap + 1, 2 * cap + 1);
      if (!nb) {
        cs_free(buf);
        fclose(f);
        return csi_error(CS_ERR_MEMORY, "%s: out of memory reading STL file", path);
      }
      buf = nb;
      cap *= 2;
    }
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    cs_free(buf);
    return csi_error(CS_ERR_IO, "%s: read error", path);
  }
  buf[n] = 0; /* the ASCII lexer may rely on a terminator */
  *data = buf;
  *size = n;
  return CS_OK;
}

/* ------------------------------------------------------------------ binary */
static uint32_t stl_u32(const unsigned char* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static double stl_f32(const unsigned char* p) {
  uint32_t u = stl_u32(p);
  float f;
  memcpy(&f, &u, sizeof f);
  return (double)f;
}

static csStatus stl_parse_binary(const char* path, const unsigned char* d, size_t size,
                                 stlSoup* s) {
  uint32_t n = stl_u32(d + 80);
  if (n == 0) return csi_error(CS_ERR_PARSE, "%s: binary STL with no triangles", path);
  if (n > (uint32_t)(INT_MAX / 9))
    return csi_error(CS_ERR_PARSE, "%s: binary STL: too many triangles (%lu)", path,
                     (unsigned long)n);
  (void)size; /* checked by the caller: size == 84 + 50 n */
  if (!stl_soup_reserve(s, (int)n))
    return csi_error(CS_ERR_MEMORY, "%s: out of memory (%lu triangles)", path, (unsigned long)n);
  for (uint32_t t = 0; t < n; t++) {
    const unsigned char* rec = d + 84 + 50 * (size_t)t + 12; /* skip the normal */
    double* x = s->xyz + 9 * (size_t)t;
    for (int k = 0; k < 9; k++) {
      x[k] = stl_f32(rec + 4 * k);
      if (!isfinite(x[k]))
        return csi_error(CS_ERR_PARSE, "%s: triangle %lu: NaN or Inf vertex coordinate", path,
                         (unsigned long)t);
    }
  }
  s->ntri = (int)n;
  return CS_OK;
}

/* ------------------------------------------------------------------ ASCII */
typedef struct {
  const char* p;
  const char* end;
  int line;
  char tok[128];
  int toklen; /* true length (may exceed the buffer) */
  int tokline;
} stlLex;

static void stl_skip_space(stlLex* L) {
  while (L->p < L->end && (*L->p == ' ' || *L->p == '\t' || *L->p == '\r' || *L->p == '\n' ||
                           *L->p == '\f' || *L->p == '\v')) {
    if (*L->p == '\n') L->line++;
    L->p++;
  }
}

/* Next whitespace-delimited token into L->tok; returns 0 at end of file. */
static int stl_next(stlLex* L) {
  stl_skip_space(L);
  L->tokline = L->line;
  if (L->p >= L->end) {
    L->tok[0] = 0;
    L->toklen = 0;
    return 0;
  }
  const char* b = L->p;
  while (L->p < L->end && !(*L->p == ' ' || *L->p == '\t' || *L->p == '\r' || *L->p == '\n' ||
                            *L->p == '\f' || *L->p == '\v'))
    L->p++;
  size_t n = (size_t)(L->p - b);
  L->toklen = n > INT_MAX ? INT_MAX : (int)n;
  if (n >= sizeof L->tok) n = sizeof L->tok - 1;
  memcpy(L->tok, b, n);
  L->tok[n] = 0;
  return 1;
}

static void stl_skip_line(stlLex* L) {
  while (L->p < L->end && *L->p != '\n') L->p++;
}

static int stl_ieq(const char* a, const char* b) {
  for (; *a && *b; a++, b++) {
    char ca = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
    char cb = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
    if (ca != cb) return 0;
  }
  return *a == *b;
}

static csStatus stl_expect(const char* path, stlLex* L, const char* kw) {
  if (!stl_next(L))
    return csi_error(CS_ERR_PARSE, "%s:%d: ASCII STL: unexpected end of file (expected '%s')", path,
                     L->tokline, kw);
  if (!stl_ieq(L->tok, kw))
    return csi_error(CS_ERR_PARSE, "%s:%d: ASCII STL: expected '%s', got '%s'", path, L->tokline,
                     kw, L->tok);
  return CS_OK;
}

/* Read a number token; finite = 1 requires a finite value. */
static csStatus stl_number(const char* path, stlLex* L, double* out, int finite) {
  if (!stl_next(L))
    return csi_error(CS_ERR_PARSE, "%s:%d: ASCII STL: unexpected end of file (expected a number)",
                     path, L->tokline);
  char* e;
  errno = 0;
  float v = strtof(L->tok, &e);
  if (e == L->tok || *e || L->toklen >= (int)sizeof L->tok)
    return csi_error(CS_ERR_PARSE, "%s:%d: ASCII STL: '%s' is not a number", path, L->tokline,
                     L->tok);
  if (finite && !isfinite(v))
    return csi_error(CS_ERR_PARSE, "%s:%d: ASCII STL: NaN or Inf vertex coordinate '%s'", path,
                     L->tokline, L->tok);
  *out = (double)v;
  return CS_OK;
}

static csStatus stl_parse_ascii(const char* path, const unsigned char* d, size_t size, stlSoup* s) {
  stlLex L;
  memset(&L, 0, sizeof L);
  L.p = (const char*)d;
  L.end = (const char*)d + size;
  L.line = 1;
  csStatus st = stl_expect(path, &L, "solid");
  if (st != CS_OK) return st;
  stl_skip_line(&L); /* the solid's name */
  for (;;) {
    if (!stl_next(&L))
      return csi_error(CS_ERR_PARSE,
                       "%s:%d: ASCII STL: unexpected end of file (missing "
                       "'endsolid')",
                       path, L.tokline);
    if (stl_ieq(L.tok, "endsolid")) {
      stl_skip_line(&L);
      if (!stl_next(&L)) break;
      if (stl_ieq(L.tok, "solid")) { /* several solids in one file */
        stl_skip_line(&L);
        continue;
      }
      return csi_error(CS_ERR_PARSE, "%s:%d: ASCII STL: unexpected '%s' after 'endsolid'", path,
                       L.tokline, L.tok);
    }
    if (!stl_ieq(L.tok, "facet"))
      return csi_error(CS_ERR_PARSE, "%s:%d: ASCII STL: expected 'facet' or 'endsolid', got '%s'",
                       path, L.tokline, L.tok);
    double normal;
    if ((st = stl_expect(path, &L, "normal")) != CS_OK) return st;
    for (int k = 0; k < 3; k++) /* the normal is not used (and may be NaN in the wild) */
      if ((st = stl_number(path, &L, &normal, 0)) != CS_OK) return st;
    if ((st = stl_expect(path, &L, "outer")) != CS_OK) return st;
    if ((st = stl_expect(path, &L, "loop")) != CS_OK) return st;
    if (s->ntri >= INT_MAX / 9)
      return csi_error(CS_ERR_PARSE, "%s: ASCII STL: too many triangles", path);
    if (!stl_soup_reserve(s, s->ntri + 1))
      return csi_error(CS_ERR_MEMORY, "%s: out of memory", path);
    double* x = s->xyz + 9 * (size_t)s->ntri;
    for (int v = 0; v < 3; v++) {
      if ((st = stl_expect(path, &L, "vertex")) != CS_OK) return st;
      for (int k = 0; k < 3; k++)
        if ((st = stl_number(path, &L, x + 3 * v + k, 1)) != CS_OK) return st;
    }
    if ((st = stl_expect(path, &L, "endloop")) != CS_OK) return st;
    if ((st = stl_expect(path, &L, "endfacet")) != CS_OK) return st;
    s->ntri++;
  }
  if (s->ntri == 0) return csi_error(CS_ERR_PARSE, "%s: ASCII STL with no triangles", path);
  return CS_OK;
}

/* ------------------------------------------------------------------ deduplication */
static uint64_t stl_hash(const double* v) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (int k = 0; k < 3; k++) {
    double x = v[k] + 0.0; /* -0 and +0 compare equal: hash them alike */
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    h ^= u + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
  }
  return h;
}

static csStatus stl_dedup(const char* path, const stlSoup* s, int* nvert, double** vert, int* nface,
                          int** face) {
  int nv_soup = 3 * s->ntri;
  size_t tsize = 16;
  while (tsize < 2 * (size_t)nv_soup) tsize *= 2;
  int* table = csi_malloc(sizeof(int) * tsize);
  int* first = csi_malloc(sizeof(int) * (size_t)nv_soup); /* soup index of unique vertex */
  int* f = csi_malloc(sizeof(int) * (size_t)nv_soup);
  if (!table || !first || !f) {
    cs_free(table);
    cs_free(first);
    cs_free(f);
    return csi_error(CS_ERR_MEMORY, "%s: out of memory", path);
  }
  for (size_t i = 0; i < tsize; i++) table[i] = -1;
  int nu = 0;
  for (int i = 0; i < nv_soup; i++) {
    const double* v = s->xyz + 3 * (size_t)i;
    size_t h = (size_t)(stl_hash(v) & (tsize - 1));
    for (;;) {
      int u = table[h];
      if (u < 0) {
        table[h] = nu;
        first[nu] = i;
        f[i] = nu++;
        break;
      }
      const double* w = s->xyz + 3 * (size_t)first[u];
      if (w[0] == v[0] && w[1] == v[1] && w[2] == v[2]) {
        f[i] = u;
        break;
      }
      h = (h + 1) & (tsize - 1);
    }
  }
  double* vv = csi_malloc(sizeof(double) * 3 * (size_t)nu);
  if (!vv) {
    cs_free(table);
    cs_free(first);
    cs_free(f);
    return csi_error(CS_ERR_MEMORY, "%s: out of memory", path);
  }
  for (int u = 0; u < nu; u++)
    memcpy(vv + 3 * u, s->xyz + 3 * (size_t)first[u], 3 * sizeof(double));
  cs_free(table);
  cs_free(first);
  *nvert = nu;
  *vert = vv;
  *nface = s->ntri;
  *face = f;
  return CS_OK;
}

/* ------------------------------------------------------------------ entry */
/* An ASCII STL starts with "solid" and holds no NUL byte (a binary one whose header happens
   to start with "solid" almost always holds some in its counts and floats). */
static int stl_looks_ascii(const unsigned char* d, size_t size) {
  size_t i = 0;
  while (i < size && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n')) i++;
  if (size - i < 5) return 0;
  char head[6];
  memcpy(head, d + i, 5);
  head[5] = 0;
  if (!stl_ieq(head, "solid")) return 0;
  return memchr(d, 0, size) == NULL;
}

csStatus cs_load_stl(const char* path, int* nvert, double** vert, int* nface, int** face) {
  if (nvert) *nvert = 0;
  if (vert) *vert = NULL;
  if (nface) *nface = 0;
  if (face) *face = NULL;
  if (!path || !nvert || !vert || !nface || !face)
    return csi_error(CS_ERR_ARG, "cs_load_stl: NULL argument");
  unsigned char* d;
  size_t size;
  csStatus st = stl_read_file(path, &d, &size);
  if (st != CS_OK) return st;
  stlSoup s = {NULL, 0, 0};
  int binary = size >= 84 && 84 + 50 * (uint64_t)stl_u32(d + 80) == (uint64_t)size;
  if (binary) {
    st = stl_parse_binary(path, d, size, &s);
  } else if (stl_looks_ascii(d, size)) {
    st = stl_parse_ascii(path, d, size, &s);
  } else if (size < 84) {
    st = csi_error(CS_ERR_PARSE,
                   "%s: truncated STL file (%zu bytes; a binary STL has at least "
                   "84) and not an ASCII STL",
                   path, size);
  } else {
    uint32_t n = stl_u32(d + 80);
    st = csi_error(CS_ERR_PARSE,
                   "%s: truncated or inconsistent binary STL: the header declares "
                   "%lu triangles (%llu bytes) but the file has %zu bytes",
                   path, (unsigned long)n, (unsigned long long)(84 + 50 * (uint64_t)n), size);
  }
  cs_free(d);
  if (st == CS_OK) st = stl_dedup(path, &s, nvert, vert, nface, face);
  cs_free(s.xyz);
  return st;
}
