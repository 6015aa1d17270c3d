/* A ground plane under a model file: the lowest point of a model's collision geoms at qpos0
   (cs_model_lowest_point) and a file loaded with a plane there (cs_load_model_floor), what
   `contactsim run --floor` and the conformance test (tests/io/test_io_conformance.c) use. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "core/cs_builder.h"
#include "core/cs_error.h"

/* Height of the lowest point of collision geom g as placed in d (its support point along
   -z), or +inf for a plane or heightfield (unbounded or static ground). geom_xmat is
   row-major: its last row holds the world z of the geom's axes. */
static double geom_lowest(const csModel* m, const csData* d, int g) {
  const double* p = d->geom_xpos + 3 * g;
  const double* R = d->geom_xmat + 9 * g;
  const double* sz = m->geom_size + 3 * g;
  double cz = fabs(R[8]); /* world z of the geom's z axis */
  switch (m->geom_type[g]) {
    case CS_GEOM_SPHERE:
      return p[2] - sz[0];
    case CS_GEOM_CAPSULE:
      return p[2] - sz[1] * cz - sz[0];
    case CS_GEOM_CYLINDER:
      return p[2] - sz[1] * cz - sz[0] * sqrt(fmax(0, 1 - cz * cz));
    case CS_GEOM_BOX:
      return p[2] - sz[0] * fabs(R[6]) - sz[1] * fabs(R[7]) - sz[2] * fabs(R[8]);
    case CS_GEOM_MESH: {
      double lo = INFINITY;
      const double* v = m->geom_vert + 3 * m->geom_vertadr[g];
      for (int k = 0; k < m->geom_vertnum[g]; k++, v += 3)
        lo = fmin(lo, p[2] + R[6] * v[0] + R[7] * v[1] + R[8] * v[2]);
      return lo;
    }
    default:
      return INFINITY;
  }
}

csStatus cs_model_lowest_point(const csModel* m, double* z) {
  if (!m || !z) return csi_error(CS_ERR_ARG, "cs_model_lowest_point: NULL model or output");
  csData* d = cs_data_new(m);
  if (!d) return CS_ERR_MEMORY; /* cs_data_new set the message */
  memcpy(d->qpos, m->qpos0, sizeof(double) * (size_t)m->nq);
  cs_kinematics(m, d);
  cs_geom_poses(m, d);
  double lo = INFINITY;
  for (int g = 0; g < m->ngeom; g++)
    if (m->geom_contype[g] || m->geom_conaffinity[g]) lo = fmin(lo, geom_lowest(m, d, g));
  cs_data_free(d);
  if (!isfinite(lo))
    return csi_error(CS_ERR_MODEL,
                     "cs_model_lowest_point: the model has no collision geom (other than "
                     "planes or heightfields) to place a floor under");
  *z = lo;
  return CS_OK;
}

csStatus cs_load_model_floor(const char* path, const csLoadOptions* o, csModel** out, double* z) {
  if (out) *out = NULL;
  if (!path || !out) return csi_error(CS_ERR_ARG, "cs_load_model_floor: NULL path or output");
  csBuilder* b = cs_builder_new();
  if (!b) return csi_error(CS_ERR_MEMORY, "%s: out of memory (builder)", path);
  csModel* m0 = NULL;
  double lo = 0;
  csStatus st = cs_load_file(b, path, o);
  if (st == CS_OK) st = csi_builder_compile_loaded(b, &m0);
  if (st == CS_OK && (st = cs_model_lowest_point(m0, &lo)) != CS_OK) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s", cs_last_error());
    st = csi_error(st, "%s: %s", path, msg);
  }
  if (st == CS_OK) {
    csGeomSpec g;
    cs_geom_spec_default(&g);
    g.name = cs_name2id(m0, "geom", "floor") < 0 ? "floor" : "lowest_floor";
    g.body = 0;
    g.type = CS_GEOM_PLANE;
    g.pos[2] = lo;
    g.source = "cs_load_model_floor";
    st = cs_builder_add_geom(b, &g) < 0 ? CS_ERR_MODEL : cs_compile(b, out);
  }
  if (st == CS_OK && z) *z = lo;
  cs_model_free(m0);
  cs_builder_free(b);
  return st;
}
