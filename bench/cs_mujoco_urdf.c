/* A copy of a URDF file for MuJoCo (see cs_mujoco_urdf.h). Plain C and POSIX, no MuJoCo. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cs_mujoco_urdf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ text */
/* Growing text buffer; after a failed allocation bad is set and appends do nothing. */
typedef struct {
  char* s;
  size_t n, cap;
  int bad;
} TextBuf;

static void tb_append(TextBuf* b, const char* s, size_t n) {
  if (b->bad) return;
  if (n >= SIZE_MAX / 2 - b->n) { /* keeps the sizes below from overflowing */
    b->bad = 1;
    return;
  }
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + n + 1) cap *= 2;
    char* t = realloc(b->s, cap);
    if (!t) {
      b->bad = 1;
      return;
    }
    b->s = t, b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

static void tb_puts(TextBuf* b, const char* s) { tb_append(b, s, strlen(s)); }

/* The whole file, NUL-terminated, or NULL. */
static char* read_text(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  TextBuf b = {0};
  char chunk[65536];
  size_t k;
  while (!b.bad && (k = fread(chunk, 1, sizeof chunk, f)) > 0) tb_append(&b, chunk, k);
  int bad = b.bad || ferror(f) || !b.s;
  fclose(f);
  if (bad) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

static void set_err(char* err, size_t nerr, const char* fmt, ...) {
  if (!err || !nerr) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, nerr, fmt, ap);
  va_end(ap);
}

/* ------------------------------------------------------------------ meshes */
static int ends_with_stl(const char* p) {
  size_t n = strlen(p);
  if (n < 4) return 0;
  const char* e = p + n - 4;
  return e[0] == '.' && (e[1] == 's' || e[1] == 'S') && (e[2] == 't' || e[2] == 'T') &&
         (e[3] == 'l' || e[3] == 'L');
}

/* Mesh URI to an existing file (see cs_bench_mujoco_urdf_write): 1 with the path in out. */
static int resolve_mesh(const char* uri, const char* root, const char* urdf_dir, char* out,
                        size_t nout) {
  const char* p = uri;
  if (strncmp(p, "package:", 8) == 0) {
    p += 8;
    while (*p == '/') p++;
    static const char* const ups[3] = {"", "/..", "/../.."};
    const char* base = root ? root : urdf_dir;
    const int nbase = root ? 1 : 3;
    for (int u = 0; u < nbase; u++)
      for (const char* tail = p; tail && *tail; tail = strchr(tail, '/')) {
        while (*tail == '/') tail++;
        int n = snprintf(out, nout, "%s%s/%s", base, ups[u], tail);
        if (n > 0 && (size_t)n < nout && access(out, R_OK) == 0) return 1;
      }
    return 0;
  }
  if (strncmp(p, "file://", 7) == 0) p += 7;
  int n = p[0] == '/' ? snprintf(out, nout, "%s", p) : snprintf(out, nout, "%s/%s", urdf_dir, p);
  return n > 0 && (size_t)n < nout && access(out, R_OK) == 0;
}

/* ------------------------------------------------------------------ URDF inertia in
   principal axes. MuJoCo 2.2.2 diagonalises every full inertia tensor with mju_eig3, which
   stops early: e.g. ANYmal's LF_hip_fixed tensor comes back with a relative error of 6.7e-8
   (and fusing static bodies diagonalises once more). For the comparison, MuJoCo's copy of
   the URDF states each non-diagonal tensor in its principal axes (diagonalised here to
   machine precision, the axes folded into the <origin rpy>): the same tensor, which
   MuJoCo then reads without loss. */
static void rpy_to_mat(const double rpy[3], double R[9]) {
  double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]);
  double cy = cos(rpy[2]), sy = sin(rpy[2]);
  R[0] = cy * cp, R[1] = cy * sp * sr - sy * cr, R[2] = cy * sp * cr + sy * sr;
  R[3] = sy * cp, R[4] = sy * sp * sr + cy * cr, R[5] = sy * sp * cr - cy * sr;
  R[6] = -sp, R[7] = cp * sr, R[8] = cp * cr;
}

/* Symmetric A (3x3) = V diag(lam) V^T by cyclic Jacobi to machine precision. */
static void jacobi3(const double* A0, double lam[3], double V[9]) {
  double A[9];
  memcpy(A, A0, sizeof A);
  for (int k = 0; k < 9; k++) V[k] = (k % 4 == 0);
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = fabs(A[1]) + fabs(A[2]) + fabs(A[5]);
    if (off == 0) break;
    for (int p = 0; p < 2; p++)
      for (int q = p + 1; q < 3; q++) {
        double apq = A[3 * p + q];
        if (apq == 0) continue;
        double theta = (A[3 * q + q] - A[3 * p + p]) / (2 * apq);
        double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
        double c = 1 / sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 3; k++) { /* A = A J */
          double akp = A[3 * k + p], akq = A[3 * k + q];
          A[3 * k + p] = c * akp - s * akq;
          A[3 * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; k++) { /* A = J^T A */
          double apk = A[3 * p + k], aqk = A[3 * q + k];
          A[3 * p + k] = c * apk - s * aqk;
          A[3 * q + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; k++) { /* V = V J */
          double vkp = V[3 * k + p], vkq = V[3 * k + q];
          V[3 * k + p] = c * vkp - s * vkq;
          V[3 * k + q] = s * vkp + c * vkq;
        }
      }
    if (off < 1e-30 * (fabs(A[0]) + fabs(A[4]) + fabs(A[8]))) break;
  }
  lam[0] = A[0], lam[1] = A[4], lam[2] = A[8];
}

static double det3(const double* R) {
  return R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
         R[2] * (R[3] * R[7] - R[4] * R[6]);
}

/* Value of attribute name in the tag [tag, end) into out; 0 if absent. */
static int tag_attr(const char* tag, const char* end, const char* name, char* out, size_t n) {
  size_t ln = strlen(name);
  for (const char* p = tag; p + ln + 2 < end; p++) {
    if (!strchr(" \t\r\n", p[0]) || strncmp(p + 1, name, ln) != 0) continue;
    const char* e = p + 1 + ln;
    while (e < end && strchr(" \t\r\n", *e)) e++;
    if (e >= end || *e != '=') continue;
    e++;
    while (e < end && strchr(" \t\r\n", *e)) e++;
    if (e >= end || (*e != '"' && *e != '\'')) continue;
    const char* v = e + 1;
    const char* ve = memchr(v, *e, (size_t)(end - v));
    if (!ve || (size_t)(ve - v) >= n) return 0;
    memcpy(out, v, (size_t)(ve - v));
    out[ve - v] = 0;
    return 1;
  }
  return 0;
}

/* Start and end (past '>') of the first tag <name followed by a separator in [p, end). */
static const char* find_tag(const char* p, const char* end, const char* name, const char** tend) {
  size_t ln = strlen(name);
  for (const char* q = p; q + ln + 1 < end; q++) {
    if (q[0] != '<' || strncmp(q + 1, name, ln) != 0 || !strchr(" \t\r\n/>", q[1 + ln])) continue;
    const char* g = memchr(q, '>', (size_t)(end - q));
    if (!g) return NULL;
    *tend = g + 1;
    return q;
  }
  return NULL;
}

/* Rewrite one <inertial>...</inertial> element el (NUL-terminated) in principal axes into o;
   copies it unchanged if its tensor is already diagonal. Returns 1 if rewritten. */
static int inertial_principal(TextBuf* o, const char* el) {
  const char* end = el + strlen(el);
  const char *tin_end, *tm_end, *to_end = NULL;
  const char* tin = find_tag(el, end, "inertia", &tin_end);
  const char* tm = find_tag(el, end, "mass", &tm_end);
  const char* to = find_tag(el, end, "origin", &to_end);
  static const char* names[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
  double I6[6] = {0};
  char buf[256];
  if (!tin || !tm) {
    tb_puts(o, el);
    return 0;
  }
  for (int k = 0; k < 6; k++)
    if (tag_attr(tin, tin_end, names[k], buf, sizeof buf)) I6[k] = atof(buf);
  if (I6[3] == 0 && I6[4] == 0 && I6[5] == 0) {
    tb_puts(o, el);
    return 0;
  }
  char xyz[256] = "0 0 0";
  double rpy[3] = {0, 0, 0};
  if (to) {
    tag_attr(to, to_end, "xyz", xyz, sizeof xyz);
    if (tag_attr(to, to_end, "rpy", buf, sizeof buf))
      sscanf(buf, "%lf %lf %lf", &rpy[0], &rpy[1], &rpy[2]);
  }
  double A[9] = {I6[0], I6[3], I6[4], I6[3], I6[1], I6[5], I6[4], I6[5], I6[2]};
  double lam[3], V[9], R0[9];
  jacobi3(A, lam, V);
  rpy_to_mat(rpy, R0);
  /* among the proper orderings of the axes, the one farthest from gimbal lock */
  static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  double best = 2, Rb[9] = {0}, lb[3] = {0};
  for (int k = 0; k < 6; k++) {
    double P[9], R[9];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) P[3 * r + c] = V[3 * r + perm[k][c]];
    if (det3(P) < 0)
      for (int r = 0; r < 3; r++) P[3 * r + 2] = -P[3 * r + 2];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        R[3 * r + c] = R0[3 * r] * P[c] + R0[3 * r + 1] * P[3 + c] + R0[3 * r + 2] * P[6 + c];
    if (fabs(R[6]) < best) {
      best = fabs(R[6]);
      memcpy(Rb, R, sizeof R);
      for (int c = 0; c < 3; c++) lb[c] = lam[perm[k][c]];
    }
  }
  double r = atan2(Rb[7], Rb[8]), pch = atan2(-Rb[6], sqrt(Rb[0] * Rb[0] + Rb[3] * Rb[3]));
  double y = atan2(Rb[3], Rb[0]);
  char out[1024];
  snprintf(out, sizeof out, "<inertial><origin xyz=\"%s\" rpy=\"%.17g %.17g %.17g\"/>", xyz, r, pch,
           y);
  tb_puts(o, out);
  tb_append(o, tm, (size_t)(tm_end - tm));
  snprintf(out, sizeof out,
           "<inertia ixx=\"%.17g\" iyy=\"%.17g\" izz=\"%.17g\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
           "</inertial>",
           lb[0], lb[1], lb[2]);
  tb_puts(o, out);
  return 1;
}

/* ------------------------------------------------------------------ the copy */
/* The element starting at p (<name ...>...</name>, or a lone tag if the closing tag is
   missing) as a NUL-terminated copy (malloc, NULL when out of memory); *end past it. */
static char* element_copy(const char* p, const char* close, const char** end) {
  const char* e = strstr(p, close);
  const char* gt = strchr(p, '>');
  *end = e ? e + strlen(close) : gt ? gt + 1 : p + strlen(p);
  size_t len = (size_t)(*end - p);
  char* el = malloc(len + 1);
  if (el) {
    memcpy(el, p, len);
    el[len] = 0;
  }
  return el;
}

/* p starts with the tag <name followed by a separator. */
static int at_tag(const char* p, const char* name, const char* seps) {
  size_t ln = strlen(name);
  return p[0] == '<' && strncmp(p + 1, name, ln) == 0 && p[1 + ln] && strchr(seps, p[1 + ln]);
}

int cs_bench_mujoco_urdf_write(const char* urdf, const char* root, int flags, char* path,
                               size_t npath, csBenchMujocoUrdfInfo* info, char* err, size_t nerr) {
  const int principal = (flags & CS_MJURDF_PRINCIPAL) != 0;
  csBenchMujocoUrdfInfo count = {0, 0};
  if (info) *info = count;
  if (err && nerr) err[0] = 0;
  char* t = read_text(urdf);
  if (!t) {
    set_err(err, nerr, "cannot read %s", urdf);
    return 0;
  }
  /* absolute: the copy lives in /tmp, so mesh paths relative to the URDF must not stay
     relative */
  char urdf_dir[4096];
  char* abs = realpath(urdf, NULL);
  snprintf(urdf_dir, sizeof urdf_dir, "%s", abs ? abs : urdf);
  free(abs);
  char* slash = strrchr(urdf_dir, '/');
  if (slash)
    *slash = 0;
  else
    snprintf(urdf_dir, sizeof urdf_dir, ".");
  const char* robot = strstr(t, "<robot");
  const char* gt = robot ? strchr(robot, '>') : NULL;
  if (!gt) {
    set_err(err, nerr, "%s: no <robot> tag", urdf);
    free(t);
    return 0;
  }
  TextBuf o = {0};
  tb_append(&o, t, (size_t)(gt + 1 - t));
  tb_puts(&o, "\n<mujoco><compiler ");
  if (root) {
    tb_puts(&o, "meshdir=\"");
    tb_puts(&o, root);
    tb_puts(&o, "\" ");
  }
  tb_puts(&o, (flags & CS_MJURDF_BALANCE_INERTIA) ? "balanceinertia=\"true\""
                                                  : "balanceinertia=\"false\"");
  tb_puts(&o, " discardvisual=\"true\" strippath=\"false\"");
  tb_puts(&o,
          principal ? " fusestatic=\"false\"/></mujoco>\n" : " fusestatic=\"true\"/></mujoco>\n");
  const char* p = gt + 1;
  while (*p && !o.bad) {
    const char* lt = strchr(p, '<');
    if (!lt) {
      tb_puts(&o, p);
      break;
    }
    tb_append(&o, p, (size_t)(lt - p));
    p = lt;
    if (strncmp(p, "<!--", 4) == 0) {
      const char* e = strstr(p, "-->");
      const char* end = e ? e + 3 : p + strlen(p);
      tb_append(&o, p, (size_t)(end - p));
      p = end;
      continue;
    }
    if (principal && at_tag(p, "inertial", " \t\r\n>")) {
      char* el = element_copy(p, "</inertial>", &p);
      if (!el) {
        o.bad = 1;
        break;
      }
      count.nprincipal += inertial_principal(&o, el);
      free(el);
      continue;
    }
    if (at_tag(p, "collision", " \t\r\n>/")) {
      char* el = element_copy(p, "</collision>", &p);
      if (!el) {
        o.bad = 1;
        break;
      }
      char* mesh = strstr(el, "<mesh");
      if (!mesh) {
        tb_puts(&o, el);
        free(el);
        continue;
      }
      char* fn = strstr(mesh, "filename=");
      char resolved[4096];
      int kept = 0;
      if (fn && (fn[9] == '"' || fn[9] == '\'')) {
        char q = fn[9];
        char* v = fn + 10;
        char* ve = strchr(v, q);
        if (ve) {
          *ve = 0;
          if (ends_with_stl(v) && resolve_mesh(v, root, urdf_dir, resolved, sizeof resolved)) {
            tb_append(&o, el, (size_t)(v - el));
            tb_puts(&o, resolved);
            tb_append(&o, &q, 1);
            tb_puts(&o, ve + 1);
            kept = 1;
          }
        }
      }
      if (!kept) count.ndropped++;
      free(el);
      continue;
    }
    tb_append(&o, p, 1);
    p++;
  }
  free(t);
  if (o.bad) {
    free(o.s);
    set_err(err, nerr, "out of memory copying %s", urdf);
    return 0;
  }
  snprintf(path, npath, "/tmp/cs_mujoco_urdf_XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) {
    set_err(err, nerr, "mkstemp: %s", strerror(errno));
    free(o.s);
    return 0;
  }
  FILE* f = fdopen(fd, "wb");
  int ok = f && fwrite(o.s, 1, o.n, f) == o.n;
  if (f)
    ok = (fclose(f) == 0) && ok;
  else
    close(fd);
  free(o.s);
  if (!ok) {
    unlink(path);
    set_err(err, nerr, "cannot write %s", path);
    return 0;
  }
  if (info) *info = count;
  return 1;
}
