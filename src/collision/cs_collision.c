/* Collision driver: geoms placed in the world, broadphase (sweep and prune along the axis
   of largest spread), filtering, the explicit geom pairs, the pair table, and the contact
   list with frames and friction. Runs inside the step: stack scratch only. */
#include "collision/cs_collision.h"

#include <math.h>
#include <string.h>

#include "contactsim/cs_dynamics.h"
#include "core/cs_error.h"
#include "core/cs_memory.h"
#include "math/cs_math.h"

/* Pair table indexed [type(a)][type(b)] with type(a) <= type(b); NULL: no contact
   (plane-plane, plane-heightfield and heightfield-heightfield: static geoms). */
static csiCollideFn pair_fn(int ta, int tb) {
  if (tb == CS_GEOM_ELLIPSOID) /* the last type: always b; never against a heightfield
                                  (cs_compile refuses such a pair) */
    return ta == CS_GEOM_PLANE    ? csi_collide_plane_ellipsoid
           : ta == CS_GEOM_HFIELD ? NULL
                                  : csi_collide_convex;
  if (tb == CS_GEOM_HFIELD) /* the heightfield comes after the other types: always b */
    return ta >= CS_GEOM_SPHERE && ta <= CS_GEOM_MESH ? csi_collide_hfield : NULL;
  switch (ta) {
    case CS_GEOM_PLANE:
      switch (tb) {
        case CS_GEOM_SPHERE:
          return csi_collide_plane_sphere;
        case CS_GEOM_CAPSULE:
          return csi_collide_plane_capsule;
        case CS_GEOM_CYLINDER:
          return csi_collide_plane_cylinder;
        case CS_GEOM_BOX:
          return csi_collide_plane_box;
        case CS_GEOM_MESH:
          return csi_collide_plane_mesh;
        default:
          return NULL;
      }
    case CS_GEOM_SPHERE:
      switch (tb) {
        case CS_GEOM_SPHERE:
          return csi_collide_sphere_sphere;
        case CS_GEOM_CAPSULE:
          return csi_collide_sphere_capsule;
        case CS_GEOM_BOX:
          return csi_collide_sphere_box;
        case CS_GEOM_CYLINDER:
        case CS_GEOM_MESH:
          return csi_collide_convex;
        default:
          return NULL;
      }
    case CS_GEOM_CAPSULE:
      switch (tb) {
        case CS_GEOM_CAPSULE:
          return csi_collide_capsule_capsule;
        case CS_GEOM_BOX:
          return csi_collide_capsule_box;
        case CS_GEOM_CYLINDER:
        case CS_GEOM_MESH:
          return csi_collide_convex;
        default:
          return NULL;
      }
    case CS_GEOM_CYLINDER:
      return (tb == CS_GEOM_CYLINDER || tb == CS_GEOM_BOX || tb == CS_GEOM_MESH)
                 ? csi_collide_convex
                 : NULL;
    case CS_GEOM_BOX:
      if (tb == CS_GEOM_BOX) return csi_collide_box_box;
      return tb == CS_GEOM_MESH ? csi_collide_convex : NULL;
    case CS_GEOM_MESH:
      return tb == CS_GEOM_MESH ? csi_collide_convex : NULL;
    default:
      return NULL;
  }
}

/* Is the geom pair a < b (model ids) one of the explicit pairs? */
static int pair_listed(const csModel* m, int a, int b) {
  if (a > b) {
    int t = a;
    a = b, b = t;
  }
  for (int p = 0; p < m->npair; p++)
    if (m->pair_geom[2 * p] == a && m->pair_geom[2 * p + 1] == b) return 1;
  return 0;
}

/* May geoms a and b touch? contype/conaffinity as MuJoCo, never within one body, never two
   bodies that do not move (the world and static bodies: no dof on their path to the world),
   never between parent and child bodies (unless the parent is the world), never an excluded
   body pair, and never two bodies of one tree if self-collision is off. */
static int pair_allowed(const csModel* m, int a, int b) {
  if (!((m->geom_contype[a] & m->geom_conaffinity[b]) ||
        (m->geom_contype[b] & m->geom_conaffinity[a])))
    return 0;
  int ba = m->geom_body[a], bb = m->geom_body[b];
  if (ba == bb) return 0;
  if (ba > bb) {
    int t = ba;
    ba = bb, bb = t;
  }
  if (m->body_lastdof[ba] < 0 && m->body_lastdof[bb] < 0) return 0;
  if (ba != 0 && m->body_parent[bb] == ba) return 0;
  if ((m->opt.disable & CS_DISABLE_SELFCOLLISION) && ba != 0 &&
      m->body_rootid[ba] == m->body_rootid[bb])
    return 0;
  for (int e = 0; e < m->nexclude; e++)
    if (m->exclude_pair[2 * e] == ba && m->exclude_pair[2 * e + 1] == bb) return 0;
  return 1;
}

static CSI_INLINE void coll_geom(const csModel* m, const csData* d, int g, csiCollGeom* out) {
  out->type = m->geom_type[g];
  memcpy(out->size, m->geom_size + 3 * g, 3 * sizeof(double));
  memcpy(out->pos, d->geom_xpos + 3 * g, 3 * sizeof(double));
  memcpy(out->mat, d->geom_xmat + 9 * g, 9 * sizeof(double));
  out->rbound = m->geom_rbound[g];
  out->vert = NULL;
  out->nvert = 0;
  if (out->type == CS_GEOM_MESH && m->geom_vertnum[g] > 0) {
    out->vert = m->geom_vert + 3 * m->geom_vertadr[g];
    out->nvert = m->geom_vertnum[g];
  }
  out->hdata = NULL;
  out->nrow = out->ncol = 0;
  memset(out->hsize, 0, sizeof out->hsize);
  if (out->type == CS_GEOM_HFIELD) {
    int h = m->geom_hfield[g];
    out->hdata = m->hfield_data + m->hfield_adr[h];
    out->nrow = m->hfield_nrow[h];
    out->ncol = m->hfield_ncol[h];
    memcpy(out->hsize, m->hfield_size + 4 * h, sizeof out->hsize);
  }
}

/* Sort key: lower end of each geom's bounding interval along axis k. Planes are infinite
   and handled apart. Insertion sort: the order barely changes between steps. */
static void sort_by(const double* lo, int* idx, int n) {
  for (int i = 1; i < n; i++) {
    int v = idx[i];
    int j = i - 1;
    while (j >= 0 && lo[idx[j]] > lo[v]) {
      idx[j + 1] = idx[j];
      j--;
    }
    idx[j + 1] = v;
  }
}

/* Collide geoms a and b (placed in cg) within margin and append their contacts, with the
   larger of the geoms' frictions (as MuJoCo). The pair function writes straight into
   d->contact when there is room for its largest output. */
static void add_pair(const csModel* m, csData* d, const csiCollGeom* cg, int a, int b,
                     double margin) {
  if (m->geom_type[a] > m->geom_type[b]) {
    int t = a;
    a = b, b = t;
  }
  csiCollideFn fn = pair_fn(m->geom_type[a], m->geom_type[b]);
  if (!fn) return;
  csContact tmp[CSI_MAX_PAIR_CONTACTS];
  int direct = d->ncon + CSI_MAX_PAIR_CONTACTS <= m->ncon_max;
  csContact* out = direct ? d->contact + d->ncon : tmp;
  int n = fn(cg + a, cg + b, margin, out);
  double mu = csi_max(m->geom_friction[a], m->geom_friction[b]);
  for (int k = 0; k < n; k++) {
    if (d->ncon >= m->ncon_max) {
      csi_warning(d, CS_WARN_CONTACTFULL, "more than ncon_max = %d contacts; extra ones dropped",
                  m->ncon_max);
      return;
    }
    csContact* c = d->contact + d->ncon++;
    if (!direct) *c = tmp[k];
    double nrm[3] = {c->frame[0], c->frame[1], c->frame[2]};
    /* consecutive contacts often share their normal (a face on a plane, several feet on
       one floor): reuse the frame rather than pay a square root and a division again */
    if (c > d->contact && nrm[0] == c[-1].frame[0] && nrm[1] == c[-1].frame[1] &&
        nrm[2] == c[-1].frame[2])
      memcpy(c->frame, c[-1].frame, sizeof c->frame);
    else
      cs_contact_frame(nrm, c->frame);
    c->mu = mu;
    c->geom[0] = a, c->geom[1] = b;
    c->lambda[0] = c->lambda[1] = c->lambda[2] = 0;
  }
}

/* Detection margin of a filtered pair: opt.margin + the larger of the geoms' margins. */
static CSI_INLINE double geoms_margin(const csModel* m, int a, int b) {
  return m->opt.margin + csi_max(m->geom_margin[a], m->geom_margin[b]);
}

/* condim of the filtered contacts (run when some geom has condim 1): the larger of the
   geoms' condims, so a contact is frictionless only when both geoms have condim 1. */
static void apply_condim(const csModel* m, csData* d) {
  for (int i = 0; i < d->ncon; i++) {
    csContact* c = d->contact + i;
    if (m->geom_condim[c->geom[0]] == 1 && m->geom_condim[c->geom[1]] == 1) c->mu = 0;
  }
}

/* Drops the filtered contacts of the geom pairs listed as explicit pairs, keeping the order
   of the others: a listed pair is collided once, by its own pass, as MuJoCo merges the two
   sources. Filtering such pairs out of the broadphase would cost every model a test per
   candidate pair; this pass runs only for a model with explicit pairs. */
static void drop_listed(const csModel* m, csData* d) {
  int n = 0;
  for (int i = 0; i < d->ncon; i++) {
    if (pair_listed(m, d->contact[i].geom[0], d->contact[i].geom[1])) continue;
    if (n != i) d->contact[n] = d->contact[i];
    n++;
  }
  d->ncon = n;
}

/* Explicit pair p: its geoms placed (whatever their masks), a bounding test (a plane's
   half-space or two spheres; a heightfield's collider culls for itself), then collided with
   the pair's margin, and its contacts given the pair's condim and friction. */
static void collide_explicit(const csModel* m, csData* d, csiCollGeom* cg, int p) {
  int a = m->pair_geom[2 * p], b = m->pair_geom[2 * p + 1];
  double margin = m->opt.margin + m->pair_margin[p];
  if (m->geom_type[b] == CS_GEOM_PLANE) {
    int t = a;
    a = b, b = t;
  }
  double off[3];
  csi_sub3(off, d->geom_xpos + 3 * b, d->geom_xpos + 3 * a);
  if (m->geom_type[a] == CS_GEOM_PLANE) {
    const double* R = d->geom_xmat + 9 * a;
    double n[3] = {R[2], R[5], R[8]};
    if (csi_dot3(off, n) > m->geom_rbound[b] + margin) return;
  } else if (m->geom_type[a] != CS_GEOM_HFIELD && m->geom_type[b] != CS_GEOM_HFIELD) {
    double r = m->geom_rbound[a] + m->geom_rbound[b] + margin;
    if (csi_dot3(off, off) > r * r) return;
  }
  coll_geom(m, d, a, cg + a);
  coll_geom(m, d, b, cg + b);
  int n0 = d->ncon;
  add_pair(m, d, cg, a, b, margin);
  double mu = m->pair_condim[p] == 1 ? 0 : m->pair_friction[p];
  for (int i = n0; i < d->ncon; i++) d->contact[i].mu = mu;
}

int cs_collide(const csModel* m, csData* d) {
  /* keep last step's contacts for warm starting */
  memcpy(d->contact_prev, d->contact, sizeof(csContact) * (size_t)d->ncon);
  d->ncon_prev = d->ncon;
  d->ncon = 0;
  int ng = m->ngeom;
  if (ng < 2 || (m->opt.disable & CS_DISABLE_CONTACT)) return 0;
  size_t mark = csi_stack_mark(d);
  int* idx = CSI_STACK_ALLOC(d, int, ng);
  csiCollGeom* cg = CSI_STACK_ALLOC(d, csiCollGeom, ng); /* every geom placed once */
  int* planes = CSI_STACK_ALLOC(d, int, ng);
  int* hfields = CSI_STACK_ALLOC(d, int, ng);
  double* lo = CSI_STACK_ALLOC(d, double, ng);
  double* hi = CSI_STACK_ALLOC(d, double, ng);
  if (!idx || !cg || !planes || !hfields || !lo || !hi) {
    csi_stack_free(d, mark);
    csi_warning(d, CS_WARN_CONTACTFULL, "arena full in collision; contacts skipped");
    return 0;
  }
  /* sweep axis: largest spread of the geom centres */
  double mean[3] = {0, 0, 0}, var[3] = {0, 0, 0};
  int nb = 0, np = 0, nh = 0;
  for (int g = 0; g < ng; g++) {
    /* collides with nothing: visual geoms (geom_visual) have both masks 0 */
    if (!m->geom_contype[g] && !m->geom_conaffinity[g]) continue;
    coll_geom(m, d, g, cg + g);
    if (m->geom_type[g] == CS_GEOM_PLANE) {
      planes[np++] = g;
      continue;
    }
    if (m->geom_type[g] == CS_GEOM_HFIELD) { /* static and large: handled apart too */
      hfields[nh++] = g;
      continue;
    }
    const double* p = d->geom_xpos + 3 * g;
    for (int k = 0; k < 3; k++) mean[k] += p[k], var[k] += p[k] * p[k];
    idx[nb++] = g;
  }
  int axis = 0;
  if (nb > 0) {
    double best = -1;
    for (int k = 0; k < 3; k++) {
      double v = var[k] / nb - (mean[k] / nb) * (mean[k] / nb);
      if (v > best) best = v, axis = k;
    }
  }
  for (int i = 0; i < nb; i++) {
    int g = idx[i];
    double c = d->geom_xpos[3 * g + axis],
           r = m->geom_rbound[g] + m->opt.margin + m->geom_margin[g];
    lo[g] = c - r, hi[g] = c + r;
  }
  sort_by(lo, idx, nb);
  /* planes against every bounded geom whose bounding sphere reaches the half-space */
  for (int i = 0; i < np; i++) {
    int p = planes[i];
    const double* R = d->geom_xmat + 9 * p;
    double n[3] = {R[2], R[5], R[8]};
    for (int j = 0; j < nb; j++) {
      int g = idx[j];
      double off[3];
      csi_sub3(off, d->geom_xpos + 3 * g, d->geom_xpos + 3 * p);
      double reach =
          m->geom_rbound[g] + m->opt.margin + csi_max(m->geom_margin[g], m->geom_margin[p]);
      if (csi_dot3(off, n) > reach) continue;
      if (pair_allowed(m, p, g)) add_pair(m, d, cg, p, g, geoms_margin(m, p, g));
    }
  }
  /* heightfields against every bounded geom whose bounding sphere meets the heightfield's
     box (x, y extents, base to top) in its own frame */
  for (int i = 0; i < nh; i++) {
    int h = hfields[i];
    const double* R = d->geom_xmat + 9 * h;
    const double* hs = m->hfield_size + 4 * m->geom_hfield[h];
    for (int j = 0; j < nb; j++) {
      int g = idx[j];
      double off[3], loc[3];
      csi_sub3(off, d->geom_xpos + 3 * g, d->geom_xpos + 3 * h);
      csi_mulmat3tvec(loc, R, off);
      double reach =
          m->geom_rbound[g] + m->opt.margin + csi_max(m->geom_margin[g], m->geom_margin[h]);
      if (fabs(loc[0]) > hs[0] + reach || fabs(loc[1]) > hs[1] + reach || loc[2] > hs[2] + reach ||
          loc[2] < -hs[3] - reach)
        continue;
      if (pair_allowed(m, h, g)) add_pair(m, d, cg, h, g, geoms_margin(m, h, g));
    }
  }
  /* sweep and prune, then the bounding spheres */
  for (int i = 0; i < nb; i++) {
    int a = idx[i];
    for (int j = i + 1; j < nb; j++) {
      int b = idx[j];
      if (lo[b] > hi[a]) break;
      double off[3];
      csi_sub3(off, d->geom_xpos + 3 * a, d->geom_xpos + 3 * b);
      double r = m->geom_rbound[a] + m->geom_rbound[b] + m->opt.margin +
                 csi_max(m->geom_margin[a], m->geom_margin[b]);
      if (csi_dot3(off, off) > r * r) continue;
      if (pair_allowed(m, a, b)) add_pair(m, d, cg, a, b, geoms_margin(m, a, b));
    }
  }
  if (m->ngeomcondim1) apply_condim(m, d);
  if (m->npair) {
    drop_listed(m, d);
    for (int p = 0; p < m->npair; p++) collide_explicit(m, d, cg, p);
  }
  csi_stack_free(d, mark);
  return d->ncon;
}
