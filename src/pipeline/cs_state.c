/* The full state of a csData as one array of doubles (cs_state_size, cs_get_state,
   cs_set_state): what a step reads besides the model, so that a state written into any
   csData of the same model continues bit for bit as the csData it was read from.

   Layout (docs/api.md, "State"):
     time, qpos (nq), qvel (nv), ctrl (nu), qfrc_applied (nv), xfrc_applied (6 nbody),
     the warm start: ncon, prev_converged, nslot_on, ncon_max contacts of CONTACT_DOUBLES
     each (the first ncon used, the rest 0), the block rows' slots: lambda (nslot), on (nslot)
   Integers are stored as doubles (exact). */
#include <math.h>
#include <string.h>

#include "constraint/cs_constraint_rows.h"
#include "core/cs_error.h"
#include "pipeline/cs_pipeline.h"

enum { CONTACT_DOUBLES = 23 }; /* pos 3, frame 9, dist, mu, geom 2, feature, lambda 3, slip 3 */

/* The sizes of the warm start's parts */
static int state_nslot(const csModel* m) {
  int nblk, nrow, nslot;
  csi_efc_capacity(m, &nblk, &nrow, &nslot);
  return nslot;
}

/* Doubles before the warm start: time, qpos, qvel, ctrl, qfrc_applied, xfrc_applied */
static int state_physics(const csModel* m) { return 1 + m->nq + 2 * m->nv + m->nu + 6 * m->nbody; }

int cs_state_size(const csModel* m) {
  return state_physics(m) + 3 + CONTACT_DOUBLES * m->ncon_max + 2 * state_nslot(m);
}

static double* put(double* s, const double* a, int n) {
  memcpy(s, a, sizeof(double) * (size_t)n);
  return s + n;
}

static const double* get(double* a, const double* s, int n) {
  memcpy(a, s, sizeof(double) * (size_t)n);
  return s + n;
}

static void contact_put(double* s, const csContact* c) {
  s = put(s, c->pos, 3);
  s = put(s, c->frame, 9);
  *s++ = c->dist, *s++ = c->mu, *s++ = c->geom[0], *s++ = c->geom[1], *s++ = c->feature;
  s = put(s, c->lambda, 3);
  put(s, c->slip, 3);
}

static void contact_get(csContact* c, const double* s) {
  s = get(c->pos, s, 3);
  s = get(c->frame, s, 9);
  c->dist = s[0], c->mu = s[1], c->geom[0] = (int)s[2], c->geom[1] = (int)s[3];
  c->feature = (int)s[4];
  s = get(c->lambda, s + 5, 3);
  get(c->slip, s, 3);
}

void cs_get_state(const csModel* m, const csData* d, double* s) {
  memset(s, 0, sizeof(double) * (size_t)cs_state_size(m));
  *s++ = d->time;
  s = put(s, d->qpos, m->nq);
  s = put(s, d->qvel, m->nv);
  s = put(s, d->ctrl, m->nu);
  s = put(s, d->qfrc_applied, m->nv);
  s = put(s, d->xfrc_applied, 6 * m->nbody);
  int n;
  const csContact* c = csi_warm_contacts(d, &n);
  *s++ = n, *s++ = d->prev_converged, *s++ = d->nslot_on;
  for (int i = 0; i < n; i++) contact_put(s + CONTACT_DOUBLES * i, c + i);
  s += CONTACT_DOUBLES * m->ncon_max;
  s = put(s, d->efc_slot_lambda, d->nslot);
  for (int k = 0; k < d->nslot; k++) s[k] = d->efc_slot_on[k];
}

/* An integer in [lo, hi] stored as a double */
static int is_int(double x, double lo, double hi) { return x >= lo && x <= hi && x == floor(x); }

/* CS_OK if every value of the physics part is finite, else the first one that is not */
static csStatus check_physics(const csModel* m, const double* s) {
  static const char* part[6] = {"time", "qpos", "qvel", "ctrl", "qfrc_applied", "xfrc_applied"};
  int len[6] = {1, m->nq, m->nv, m->nu, m->nv, 6 * m->nbody};
  for (int p = 0, o = 0; p < 6; o += len[p++])
    for (int i = 0; i < len[p]; i++)
      if (!isfinite(s[o + i]))
        return csi_error(CS_ERR_STATE, "cs_set_state: %s[%d] (state[%d]) is not finite", part[p], i,
                         o + i);
  return CS_OK;
}

/* CS_OK if the warm start w (after the physics part) is one a csData of m can hold */
static csStatus check_warm(const csModel* m, const double* w, int nslot) {
  if (!is_int(w[0], 0, m->ncon_max) || !is_int(w[1], 0, 1) || !is_int(w[2], 0, 1e9))
    return csi_error(CS_ERR_ARG,
                     "cs_set_state: warm start header (ncon %g, prev_converged %g, nslot_on %g) "
                     "out of range (ncon_max = %d)",
                     w[0], w[1], w[2], m->ncon_max);
  for (int i = 0; i < (int)w[0]; i++) {
    const double* c = w + 3 + CONTACT_DOUBLES * i;
    for (int k = 0; k < CONTACT_DOUBLES; k++)
      if (!isfinite(c[k]))
        return csi_error(CS_ERR_STATE, "cs_set_state: contact %d, value %d is not finite", i, k);
    if (!is_int(c[14], 0, m->ngeom - 1) || !is_int(c[15], 0, m->ngeom - 1) ||
        !is_int(c[16], -2147483648.0, 2147483647.0))
      return csi_error(CS_ERR_ARG, "cs_set_state: contact %d: geoms %g, %g or feature %g invalid",
                       i, c[14], c[15], c[16]);
  }
  const double* sl = w + 3 + CONTACT_DOUBLES * m->ncon_max;
  for (int k = 0; k < nslot; k++)
    if (!isfinite(sl[k]) || !is_int(sl[nslot + k], 0, 1))
      return csi_error(CS_ERR_STATE, "cs_set_state: block row slot %d invalid", k);
  return CS_OK;
}

csStatus cs_set_state(const csModel* m, csData* d, const double* s) {
  if (!m || !d || !s) return csi_error(CS_ERR_ARG, "cs_set_state: NULL model, data or state");
  int np = state_physics(m);
  csStatus st = check_physics(m, s);
  if (st == CS_OK) st = check_warm(m, s + np, d->nslot);
  if (st != CS_OK) return st;
  d->time = *s++;
  s = get(d->qpos, s, m->nq);
  s = get(d->qvel, s, m->nv);
  s = get(d->ctrl, s, m->nu);
  s = get(d->qfrc_applied, s, m->nv);
  s = get(d->xfrc_applied, s, 6 * m->nbody);
  d->ncon = (int)s[0], d->prev_converged = (int)s[1], d->nslot_on = (int)s[2];
  s += 3;
  for (int i = 0; i < d->ncon; i++) contact_get(d->contact + i, s + CONTACT_DOUBLES * i);
  s += CONTACT_DOUBLES * m->ncon_max;
  s = get(d->efc_slot_lambda, s, d->nslot);
  for (int k = 0; k < d->nslot; k++) d->efc_slot_on[k] = (unsigned char)s[k];
  d->fwd_keep_[0] = 0;
  return CS_OK;
}
