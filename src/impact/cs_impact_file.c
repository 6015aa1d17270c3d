/* The planar impact model file (docs/impacts.md, "File format"): one statement per line,
   `#` starts a comment, numbers may carry the suffix `deg` (degrees, converted to rad).
     link NAME PARENT X Y [px|py|rz ...]   PARENT: world or an earlier link
     mass LINK M I X Y                     mass, inertia about its centre, centre on LINK
     contact plane LINK X Y R NX NY OX OY MU
     contact discs LINKA XA YA RA LINKB XB YB RB MU
     q ... / v ...                         the state (nq numbers each)
     h H / steps N / samples M / gravity G  Algorithm 2's defaults, gravity along -y
     tangent perpendicular|reference       the friction row (docs/impacts.md)
   Every error is CS_ERR_PARSE or CS_ERR_MODEL naming the file and the line. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cs_error.h"
#include "impact/cs_impact.h"

enum { MAXTOK = 40 };

typedef struct Line {
  const char* path;
  int lineno;
  int ntok;
  char* tok[MAXTOK];
} Line;

static csStatus bad(const Line* L, csStatus s, const char* what) {
  return csi_error(s, "%s:%d: %s", L->path, L->lineno, what);
}

/* Token k as a finite number (suffix deg: degrees). */
static csStatus num(const Line* L, int k, double* out) {
  if (k >= L->ntok) return bad(L, CS_ERR_PARSE, "missing number");
  char* end = NULL;
  errno = 0;
  double x = strtod(L->tok[k], &end);
  if (end != L->tok[k] && !strcmp(end, "deg"))
    x *= 3.14159265358979323846 / 180;
  else if (end == L->tok[k] || *end) {
    return csi_error(CS_ERR_PARSE, "%s:%d: '%s' is not a number", L->path, L->lineno, L->tok[k]);
  }
  if (!isfinite(x) || errno == ERANGE)
    return csi_error(CS_ERR_PARSE, "%s:%d: '%s' is not finite", L->path, L->lineno, L->tok[k]);
  *out = x;
  return CS_OK;
}

static int find_link(const csImpactModel* m, const char* name) {
  for (int i = 0; i < m->nlink; i++)
    if (!strcmp(m->link[i].name, name)) return i;
  return -1;
}

static csStatus link_ref(const Line* L, const csImpactModel* m, int k, int* out) {
  int l = k < L->ntok ? find_link(m, L->tok[k]) : -1;
  if (l < 0)
    return csi_error(CS_ERR_MODEL, "%s:%d: unknown link '%s'", L->path, L->lineno,
                     k < L->ntok ? L->tok[k] : "");
  *out = l;
  return CS_OK;
}

static csStatus parse_link(const Line* L, csImpactModel* m) {
  if (L->ntok < 5) return bad(L, CS_ERR_PARSE, "link NAME PARENT X Y [px|py|rz ...]");
  if (m->nlink >= CSI_IMP_MAXC) return bad(L, CS_ERR_MODEL, "too many links");
  csiImpLink* k = &m->link[m->nlink];
  memset(k, 0, sizeof *k);
  if (strlen(L->tok[1]) >= CSI_IMP_NAME || find_link(m, L->tok[1]) >= 0 ||
      !strcmp(L->tok[1], "world"))
    return bad(L, CS_ERR_MODEL, "link name too long, repeated or 'world'");
  strcpy(k->name, L->tok[1]);
  k->parent = -1;
  csStatus s = strcmp(L->tok[2], "world") ? link_ref(L, m, 2, &k->parent) : CS_OK;
  if (!s) s = num(L, 3, &k->off[0]);
  if (!s) s = num(L, 4, &k->off[1]);
  if (s) return s;
  if (L->ntok - 5 > CSI_IMP_MAXJ) return bad(L, CS_ERR_MODEL, "more than 3 joints on a link");
  for (int j = 5; j < L->ntok; j++) {
    const char* t = L->tok[j];
    int type = !strcmp(t, "px")   ? CSI_JOINT_PX
               : !strcmp(t, "py") ? CSI_JOINT_PY
               : !strcmp(t, "rz") ? CSI_JOINT_RZ
                                  : -1;
    if (type < 0)
      return csi_error(CS_ERR_PARSE, "%s:%d: joint '%s' is not px, py or rz", L->path, L->lineno,
                       t);
    if (m->nq >= CSI_IMP_MAXNV) return bad(L, CS_ERR_MODEL, "too many coordinates");
    k->jtype[k->njoint] = type;
    k->jdof[k->njoint++] = m->nq++;
  }
  m->nlink++;
  return CS_OK;
}

static csStatus parse_mass(const Line* L, csImpactModel* m) {
  if (L->ntok != 6) return bad(L, CS_ERR_PARSE, "mass LINK M I X Y");
  if (m->nmass >= CSI_IMP_MAXC) return bad(L, CS_ERR_MODEL, "too many masses");
  csiImpMass* k = &m->mass[m->nmass];
  csStatus s = link_ref(L, m, 1, &k->link);
  if (!s) s = num(L, 2, &k->m);
  if (!s) s = num(L, 3, &k->inertia);
  if (!s) s = num(L, 4, &k->at[0]);
  if (!s) s = num(L, 5, &k->at[1]);
  if (s) return s;
  if (!(k->m > 0) || k->inertia < 0) return bad(L, CS_ERR_MODEL, "mass must be > 0, inertia >= 0");
  m->nmass++;
  return CS_OK;
}

static csStatus parse_contact(const Line* L, csImpactModel* m) {
  int plane = L->ntok > 1 && !strcmp(L->tok[1], "plane");
  int discs = L->ntok > 1 && !strcmp(L->tok[1], "discs");
  if (!(plane && L->ntok == 11) && !(discs && L->ntok == 11))
    return bad(
        L, CS_ERR_PARSE,
        "contact plane LINK X Y R NX NY OX OY MU | contact discs LA XA YA RA LB XB YB RB MU");
  if (m->ncontact >= CSI_IMP_MAXC) return bad(L, CS_ERR_MODEL, "too many contacts");
  csiImpContact* c = &m->contact[m->ncontact];
  memset(c, 0, sizeof *c);
  c->pair = discs;
  csStatus s = link_ref(L, m, 2, &c->a);
  if (!s) s = num(L, 3, &c->at_a[0]);
  if (!s) s = num(L, 4, &c->at_a[1]);
  if (!s) s = num(L, 5, &c->r_a);
  if (plane) {
    for (int k = 0; k < 2 && !s; k++) s = num(L, 6 + k, &c->n[k]);
    for (int k = 0; k < 2 && !s; k++) s = num(L, 8 + k, &c->o[k]);
  } else {
    if (!s) s = link_ref(L, m, 6, &c->b);
    if (!s) s = num(L, 7, &c->at_b[0]);
    if (!s) s = num(L, 8, &c->at_b[1]);
    if (!s) s = num(L, 9, &c->r_b);
  }
  if (!s) s = num(L, 10, &c->mu);
  if (s) return s;
  double nn = hypot(c->n[0], c->n[1]);
  if (plane && !(nn > 0)) return bad(L, CS_ERR_MODEL, "zero plane normal");
  if (plane) c->n[0] /= nn, c->n[1] /= nn;
  if (c->r_a < 0 || c->r_b < 0 || c->mu < 0) return bad(L, CS_ERR_MODEL, "negative radius or mu");
  if (discs && c->a == c->b) return bad(L, CS_ERR_MODEL, "a disc pair on one link");
  m->ncontact++;
  return CS_OK;
}

static csStatus parse_vector(const Line* L, const csImpactModel* m, double* x) {
  if (L->ntok - 1 != m->nq)
    return csi_error(CS_ERR_MODEL, "%s:%d: %s needs %d numbers (one per coordinate), has %d",
                     L->path, L->lineno, L->tok[0], m->nq, L->ntok - 1);
  for (int k = 0; k < m->nq; k++) {
    csStatus s = num(L, k + 1, &x[k]);
    if (s) return s;
  }
  return CS_OK;
}

static csStatus parse_setting(const Line* L, csImpactModel* m) {
  double x = 0;
  if (L->ntok != 2) return bad(L, CS_ERR_PARSE, "a setting takes one number");
  csStatus s = num(L, 1, &x);
  if (s) return s;
  const char* k = L->tok[0];
  if (!strcmp(k, "h")) {
    if (!(x > 0)) return bad(L, CS_ERR_MODEL, "h must be > 0");
    m->opt.h = x;
  } else if (!strcmp(k, "gravity")) {
    m->gravity = x;
  } else {
    if (!(x >= 1 && x <= 1 << 30 && x == floor(x)))
      return bad(L, CS_ERR_MODEL, "steps and samples are integers in [1, 2^30]");
    if (!strcmp(k, "steps"))
      m->opt.nstep = (int)x;
    else
      m->opt.nsample = (int)x;
  }
  return CS_OK;
}

/* tangent perpendicular | reference */
static csStatus parse_tangent(const Line* L, csImpactModel* m) {
  int perp = L->ntok == 2 && !strcmp(L->tok[1], "perpendicular");
  int ref = L->ntok == 2 && !strcmp(L->tok[1], "reference");
  if (!perp && !ref) return bad(L, CS_ERR_PARSE, "tangent perpendicular | tangent reference");
  m->tangent_ref = ref;
  return CS_OK;
}

static csStatus parse_line(Line* L, csImpactModel* m, int* seen_q, int* seen_v) {
  const char* k = L->tok[0];
  if (!strcmp(k, "link")) return parse_link(L, m);
  if (!strcmp(k, "mass")) return parse_mass(L, m);
  if (!strcmp(k, "contact")) return parse_contact(L, m);
  if (!strcmp(k, "tangent")) return parse_tangent(L, m);
  if (!strcmp(k, "q")) return *seen_q = 1, parse_vector(L, m, m->q);
  if (!strcmp(k, "v")) return *seen_v = 1, parse_vector(L, m, m->v);
  if (!strcmp(k, "h") || !strcmp(k, "steps") || !strcmp(k, "samples") || !strcmp(k, "gravity"))
    return parse_setting(L, m);
  return csi_error(CS_ERR_PARSE, "%s:%d: unknown statement '%s'", L->path, L->lineno, k);
}

static void tokenize(char* buf, Line* L) {
  char* hash = strchr(buf, '#');
  if (hash) *hash = 0;
  L->ntok = 0;
  for (char* t = strtok(buf, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
    if (L->ntok < MAXTOK) L->tok[L->ntok] = t;
    L->ntok++;
  }
}

static csStatus parse_file(FILE* f, const char* path, csImpactModel* m) {
  char buf[1024];
  Line L = {path, 0, 0, {0}};
  int seen_q = 0, seen_v = 0;
  while (fgets(buf, sizeof buf, f)) {
    L.lineno++;
    if (!strchr(buf, '\n') && !feof(f)) return bad(&L, CS_ERR_PARSE, "line longer than 1023");
    tokenize(buf, &L);
    if (L.ntok > MAXTOK) return bad(&L, CS_ERR_PARSE, "too many fields");
    if (L.ntok == 0) continue;
    csStatus s = parse_line(&L, m, &seen_q, &seen_v);
    if (s) return s;
  }
  L.lineno++;
  if (!m->nmass || !m->ncontact || !m->nq)
    return bad(&L, CS_ERR_MODEL, "end of file: a model needs links with joints, masses, contacts");
  if (!seen_q || !seen_v) return bad(&L, CS_ERR_MODEL, "end of file: no 'q' or no 'v' line");
  return CS_OK;
}

csStatus cs_impact_model_load(const char* path, csImpactModel** out) {
  if (!out) return csi_error(CS_ERR_ARG, "cs_impact_model_load: out is NULL");
  *out = NULL;
  if (!path) return csi_error(CS_ERR_ARG, "cs_impact_model_load: path is NULL");
  FILE* f = fopen(path, "r");
  if (!f) return csi_error(CS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  csImpactModel* m = csi_calloc(1, sizeof *m);
  if (!m) {
    fclose(f);
    return csi_error(CS_ERR_MEMORY, "cs_impact_model_load: out of memory");
  }
  m->gravity = 9.81;
  m->opt = (csImpactOptions){1.0, 10, 1024, CS_IMPACT_SOBOL, 0};
  csStatus s = parse_file(f, path, m);
  fclose(f);
  if (s) {
    cs_impact_model_free(m);
    return s;
  }
  *out = m;
  return CS_OK;
}

void cs_impact_model_free(csImpactModel* m) { cs_free(m); }

int cs_impact_model_nq(const csImpactModel* m) { return m ? m->nq : 0; }

double cs_impact_model_gravity(const csImpactModel* m) { return m ? m->gravity : 0; }

void cs_impact_model_defaults(const csImpactModel* m, double* q, double* v, csImpactOptions* o) {
  if (!m) return;
  if (q) memcpy(q, m->q, sizeof(double) * (size_t)m->nq);
  if (v) memcpy(v, m->v, sizeof(double) * (size_t)m->nq);
  if (o) *o = m->opt;
}
