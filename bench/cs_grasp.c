/* The grasp scenes shared by bench grasp and test_grasp (cs_grasp.h). */
#include "cs_grasp.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const csBenchGraspScene cs_bench_grasp_scenes[] = {
    {"pinch", "tests/data/mjcf/pinch.xml", NULL},
    {"pinch_horizontal", "tests/data/mjcf/pinch_horizontal.xml", NULL},
    {"gripper_box", "tests/data/mjcf/gripper_box.xml", NULL},
    {"allegro", "tests/data/mjcf/allegro_cube.xml",
     "allegro_hand/mjcf/right_hand_collision_only.xml"},
    {NULL, NULL, NULL}};

static const xmlNode* child(const xmlNode* n, const char* name) {
  for (const xmlNode* k = n ? n->children : NULL; k; k = k->next)
    if (k->type == XML_ELEMENT_NODE && !strcmp((const char*)k->name, name)) return k;
  return NULL;
}

/* Attribute attr of key as exactly n numbers into x: 1 read, 0 absent, -1 bad (err set). */
static int numbers(const char* path, const xmlNode* key, const char* attr, int n, double* x,
                   char* err, size_t nerr) {
  xmlChar* v = key ? xmlGetProp(key, (const xmlChar*)attr) : NULL;
  if (!v) return 0;
  const char* s = (const char*)v;
  int count = 0, ok = 1;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (!*s) break;
    char* end;
    double y = strtod(s, &end);
    if (end == s || !isfinite(y)) {
      ok = 0;
      break;
    }
    if (count < n) x[count] = y;
    count++;
    s = end;
  }
  xmlFree(v);
  if (!ok || count != n) {
    snprintf(err, nerr, "%s:%d: <key %s>: %s (expected %d numbers)", path, key->line, attr,
             ok ? "wrong count of numbers" : "not a number", n);
    return -1;
  }
  return 1;
}

int cs_bench_grasp_key(const char* path, int nq, double* qpos, int nv, double* qvel, int nu,
                       double* ctrl, csBenchGraspKey* key, char* err, size_t nerr) {
  memset(key, 0, sizeof *key);
  xmlDocPtr doc =
      xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) {
    snprintf(err, nerr, "%s: cannot read the file as XML", path);
    return 0;
  }
  const xmlNode* k = child(child(xmlDocGetRootElement(doc), "keyframe"), "key");
  int rq = numbers(path, k, "qpos", nq, qpos, err, nerr);
  int rv = rq < 0 ? -1 : numbers(path, k, "qvel", nv, qvel, err, nerr);
  int rc = rv < 0 ? -1 : numbers(path, k, "ctrl", nu, ctrl, err, nerr);
  xmlFreeDoc(doc);
  if (rq < 0 || rv < 0 || rc < 0) return 0;
  key->has_qpos = rq, key->has_qvel = rv, key->has_ctrl = rc;
  return 1;
}

int cs_bench_grasp_start(const csModel* m, csData* d, const char* path, char* err, size_t nerr) {
  cs_data_reset(m, d);
  double* q = malloc(sizeof(double) * (size_t)(m->nq + m->nv + m->nu + 1));
  if (!q) {
    snprintf(err, nerr, "out of memory");
    return 0;
  }
  double *v = q + m->nq, *u = v + m->nv;
  csBenchGraspKey key;
  int ok = cs_bench_grasp_key(path, m->nq, q, m->nv, v, m->nu, u, &key, err, nerr);
  if (ok && (key.has_qpos || key.has_qvel) &&
      cs_data_set_state(m, d, key.has_qpos ? q : NULL, m->nq, key.has_qvel ? v : NULL, m->nv) !=
          CS_OK) {
    snprintf(err, nerr, "%s: the key's state: %s", path, cs_last_error());
    ok = 0;
  }
  if (ok)
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = key.has_ctrl ? u[i] : 1;
  free(q);
  return ok;
}

double cs_bench_grasp_height(const double gravity[3], const double p[3]) {
  double g = sqrt(gravity[0] * gravity[0] + gravity[1] * gravity[1] + gravity[2] * gravity[2]);
  if (!(g > 0)) return p[2];
  return -(gravity[0] * p[0] + gravity[1] * p[1] + gravity[2] * p[2]) / g;
}

double cs_bench_grasp_angle(const double q0[4], const double q[4]) {
  /* r = q q0^-1 = (w, x, y, z); the angle is 2 atan2(|(x, y, z)|, |w|) */
  double w = q[0] * q0[0] + q[1] * q0[1] + q[2] * q0[2] + q[3] * q0[3];
  double x = -q[0] * q0[1] + q[1] * q0[0] - q[2] * q0[3] + q[3] * q0[2];
  double y = -q[0] * q0[2] + q[2] * q0[0] - q[3] * q0[1] + q[1] * q0[3];
  double z = -q[0] * q0[3] + q[3] * q0[0] - q[1] * q0[2] + q[2] * q0[1];
  return 2 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}
