/* Rows of the constraint problem beyond the contacts (docs/constraints.md).

   After the contacts' 3nc rows, one block per
     joint limit        unilateral row, J = +e_dof (lower bound) or -e_dof (upper), distance
                        phi = q - lower or upper - q; in the problem while phi < margin or
                        the free motion would reach the bound within the step
                        (phi + dt min(J v_free, 0) < margin), so a joint stops at its bound
                        instead of crossing it for a step; where the solve's velocity
                        crosses a bound that was not in the problem (the other constraints'
                        impulses turned the joint around), the step builds and solves again
                        with it and with every limit row of the passes before (cs_forward.c:
                        until no bound is crossed without its row); a ball joint's bound is its
   largest rotation angle, J = -(the rotation axis) on its three dofs; friction loss      box row on
   a dof, J = e_dof, bound = frictionloss dt (an impulse); equality           free block: connect 3
   rows (the two points' world velocity difference), weld 6 (connect at the anchor, then the angular
                        velocity difference), joint 1 (q1 - poly(q2)); fixed tendon   unilateral
                        rows like a joint's limits over its length L = sum coef_i q_i, J =
                        +-coef_i on the joints' dofs (margin 0).
   Stabilisation as for contacts: a limit's free velocity gets phi / dt for phi > 0 (the gap
   may close within the step) and beta phi / dt when crossed; an equality's gets
   beta err / dt, so its error decays by (1 - beta) per step; both push-outs bounded by
   csOption.recovery_speed when it is set (cs_recovery.h).
   G grows from the contacts' 3nc x 3nc to all rows: with x_e = M^-1 J_e^T (one solve with
   the step's factor per block row), G_ce = J_c x_e for the contact rows and G_ee' = J_e x_e'
   (the sparse rows make these cheap; G stays exactly symmetric). Warm start: each possible
   row has a fixed slot (d->efc_slot_*) that keeps its last impulse. */
#include "constraint/cs_constraint_rows.h"

#include <math.h>
#include <string.h>

#include "constraint/cs_recovery.h"
#include "contactsim/cs_dynamics.h"
#include "core/cs_error.h"
#include "core/cs_memory.h"
#include "math/cs_math.h"

/* Rows of an equality of type t. */
static int eq_rows(int t) { return t == CS_EQ_CONNECT ? 3 : t == CS_EQ_WELD ? 6 : 1; }

static int jnt_limitable(const csModel* m, int j) {
  int t = m->jnt_type[j];
  return m->jnt_limited[j] && (t == CS_JNT_REVOLUTE || t == CS_JNT_PRISMATIC || t == CS_JNT_BALL);
}

void csi_efc_capacity(const csModel* m, int* nblock, int* nrow, int* nslot) {
  int nb = 0, nr = 0, ns = 2 * m->njnt + m->nv, off = m->opt.disable;
  for (int j = 0; j < m->njnt && !(off & CS_DISABLE_LIMIT); j++)
    if (jnt_limitable(m, j)) {
      int k = m->jnt_type[j] == CS_JNT_BALL ? 1 : 2;
      nb += k, nr += k;
    }
  for (int i = 0; m->dof_frictionloss && i < m->nv && !(off & CS_DISABLE_FRICTIONLOSS); i++)
    if (m->dof_frictionloss[i] > 0) nb++, nr++;
  for (int e = 0; e < m->neq; e++) {
    if (!(off & CS_DISABLE_EQUALITY)) nb++, nr += eq_rows(m->eq_type[e]);
    ns += eq_rows(m->eq_type[e]);
  }
  for (int t = 0; t < m->ntendon && !(off & CS_DISABLE_LIMIT); t++)
    if (m->tendon_limited[t]) nb += 2, nr += 2;
  ns += 2 * m->ntendon;
  *nblock = nb, *nrow = nr, *nslot = ns;
}

int csi_efc_sources(const csModel* m) {
  int bits = m->neq > 0 ? CS_DISABLE_EQUALITY : 0;
  for (int j = 0; j < m->njnt; j++)
    if (jnt_limitable(m, j)) bits |= CS_DISABLE_LIMIT;
  for (int i = 0; m->dof_frictionloss && i < m->nv; i++)
    if (m->dof_frictionloss[i] > 0) bits |= CS_DISABLE_FRICTIONLOSS;
  for (int t = 0; t < m->ntendon; t++)
    if (m->tendon_limited[t]) bits |= CS_DISABLE_LIMIT;
  return bits;
}

/* The build's state: the problem's rows so far, and each block row's warm-start slot. */
typedef struct Rows {
  const csModel* m;
  csData* d;
  const double* vfree;
  const double* vplus;       /* a previous pass's velocity after the solve, or NULL */
  double dt, beta, vmax;     /* vmax: csOption.recovery_speed */
  int r0;                    /* first block row: 3 nc */
  int nrow;                  /* rows so far */
  int nb;                    /* blocks so far */
  int* slot;                 /* (rows beyond r0) warm-start slot of each */
  const unsigned char* kept; /* (2 njnt) limit rows of the pass before, by slot, or NULL */
} Rows;

/* A new block of n rows (J rows zeroed, g = 0); returns its first row, or -1 if full. */
static int add_block(Rows* s, int type, int n, double bound, int src, int id, int slot0,
                     double dist) {
  csData* d = s->d;
  if (s->nb >= d->nblock_max || s->nrow + n > d->nefc_max) {
    csi_warning(d, CS_WARN_CONTACTFULL,
                "constraint rows beyond csData's capacity (%d blocks, %d rows: sized at "
                "cs_data_new from the options then; enabling limits, friction loss or "
                "equalities later needs a new csData); the rest dropped this step",
                d->nblock_max, d->nefc_max - 3 * d->ncon);
    return -1;
  }
  int r = s->nrow;
  d->efc_block[s->nb] = (csBlock){type, r, n, bound};
  d->efc_block_src[2 * s->nb] = src, d->efc_block_src[2 * s->nb + 1] = id;
  d->efc_block_dist[s->nb] = dist;
  memset(d->efc_J + (size_t)r * s->m->nv, 0, sizeof(double) * (size_t)n * (size_t)s->m->nv);
  for (int k = 0; k < n; k++) d->efc_g[r + k] = 0, s->slot[r - s->r0 + k] = slot0 + k;
  s->nb++, s->nrow += n;
  return r;
}

/* g of rows r..r+n-1: J v_free */
static void rows_jv(const Rows* s, int r, int n) {
  int nv = s->m->nv;
  for (int k = 0; k < n; k++) {
    const double* J = s->d->efc_J + (size_t)(r + k) * nv;
    double a = 0;
    for (int i = 0; i < nv; i++) a += J[i] * s->vfree[i];
    s->d->efc_g[r + k] = a;
  }
}

/* A limit's row: J = sign on dof (or -axis on a ball's three dofs), phi its distance */
static void limit_row(Rows* s, int j, int src, double sign, const double* axis, double phi) {
  const csModel* m = s->m;
  int dof = m->jnt_dofadr[j], nd = axis ? 3 : 1;
  double jv = 0, jp = 0;
  for (int k = 0; k < nd; k++) {
    double a = axis ? -axis[k] : sign;
    jv += a * s->vfree[dof + k];
    if (s->vplus) jp += a * s->vplus[dof + k];
  }
  /* within reach of the step at the free velocity, or (a later pass) at the velocity the
     last solve gave: the other constraints' impulses can turn a joint's motion around; a
     later pass keeps the rows of the passes before (a row that holds its joint at the bound
     has reach 0 there, and dropping it lets the joint cross) */
  double reach = phi + s->dt * ((jv < 0 ? jv : 0) + (jp < 0 ? jp : 0));
  int slot = 2 * j + (src == CS_EFC_LIMIT_HIGH);
  if (!(reach < (m->jnt_margin ? m->jnt_margin[j] : 0)) && !(s->kept && s->kept[slot])) return;
  int r = add_block(s, CS_CONE_UNILATERAL, 1, 0, src, j, slot, phi);
  if (r < 0) return;
  double* J = s->d->efc_J + (size_t)r * m->nv;
  for (int k = 0; k < nd; k++) J[dof + k] = axis ? -axis[k] : sign;
  s->d->efc_g[r] =
      jv + (phi > 0 ? phi / s->dt : csi_recovery_crossed(s->beta, phi, s->dt, s->vmax));
}

/* A ball joint's rotation angle (rad) and unit axis (zero rotation: angle 0) */
static double ball_angle(const double* q, double axis[3]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  if (w < 0) w = -w, x = -x, y = -y, z = -z;
  double sn = sqrt(x * x + y * y + z * z);
  if (!(sn > 1e-15)) {
    axis[0] = 1, axis[1] = axis[2] = 0;
    return 0;
  }
  axis[0] = x / sn, axis[1] = y / sn, axis[2] = z / sn;
  return 2 * atan2(sn, w);
}

static void rows_limits(Rows* s) {
  const csModel* m = s->m;
  if (m->opt.disable & CS_DISABLE_LIMIT) return;
  for (int j = 0; j < m->njnt; j++) {
    if (!jnt_limitable(m, j)) continue;
    const double* q = s->d->qpos + m->jnt_qposadr[j];
    const double* rg = m->jnt_range + 2 * j;
    if (m->jnt_type[j] == CS_JNT_BALL) {
      double axis[3], th = ball_angle(q, axis);
      limit_row(s, j, CS_EFC_LIMIT_HIGH, 0, axis, rg[1] - th);
      continue;
    }
    limit_row(s, j, CS_EFC_LIMIT_LOW, 1.0, NULL, q[0] - rg[0]);
    limit_row(s, j, CS_EFC_LIMIT_HIGH, -1.0, NULL, rg[1] - q[0]);
  }
}

static void rows_frictionloss(Rows* s) {
  const csModel* m = s->m;
  if ((m->opt.disable & CS_DISABLE_FRICTIONLOSS) || !m->dof_frictionloss) return;
  for (int i = 0; i < m->nv; i++) {
    double f = m->dof_frictionloss[i];
    if (!(f > 0)) continue;
    int r = add_block(s, CS_CONE_BOX, 1, f * s->dt, CS_EFC_FRICTIONLOSS, i, 2 * m->njnt + i, 0);
    if (r < 0) return;
    s->d->efc_J[(size_t)r * m->nv + i] = 1;
    s->d->efc_g[r] = s->vfree[i];
  }
}

/* rows (3 x nv) += sign * (world velocity of point p on body b) or, with p NULL, its angular
   velocity */
static void jac_add(const Rows* s, int b, const double* p, double sign, double* rows) {
  const csModel* m = s->m;
  int nv = m->nv;
  for (int k = b > 0 ? m->body_lastdof[b] : -1; k >= 0; k = m->dof_parent[k]) {
    const double* S = s->d->cdof + 6 * k;
    double c[3] = {S[0], S[1], S[2]};
    if (p) {
      double t[3];
      csi_cross3(t, S, p);
      c[0] = S[3] + t[0], c[1] = S[4] + t[1], c[2] = S[5] + t[2];
    }
    rows[k] += sign * c[0], rows[nv + k] += sign * c[1], rows[2 * nv + k] += sign * c[2];
  }
}

/* World position of a point given in body b's frame (the world: the point itself) */
static void body_point(const csData* d, int b, const double* a, double* p) {
  if (b == 0) {
    p[0] = a[0], p[1] = a[1], p[2] = a[2];
    return;
  }
  csi_mulmat3vec(p, d->xmat + 9 * b, a);
  p[0] += d->xpos[3 * b], p[1] += d->xpos[3 * b + 1], p[2] += d->xpos[3 * b + 2];
}

/* Connect (and a weld's first 3 rows) at rows r: the points' velocity difference; err into
   e (3) */
static void eq_connect_rows(Rows* s, int e, int r, double* err) {
  const csModel* m = s->m;
  const double* D = m->eq_data + 11 * e;
  int b1 = m->eq_obj1[e], b2 = m->eq_obj2[e];
  double p1[3], p2[3];
  body_point(s->d, b1, D, p1);
  body_point(s->d, b2, D + 3, p2);
  double* J = s->d->efc_J + (size_t)r * m->nv;
  jac_add(s, b1, p1, 1.0, J);
  jac_add(s, b2, p2, -1.0, J);
  for (int k = 0; k < 3; k++) err[k] = p1[k] - p2[k];
}

/* A weld's rotation rows at r: angular velocity difference; err = the rotation vector of
   q1 (q2 q_rel)^-1 (world frame) */
static void eq_weld_rot_rows(Rows* s, int e, int r, double* err) {
  const csModel* m = s->m;
  const double* D = m->eq_data + 11 * e;
  int b1 = m->eq_obj1[e], b2 = m->eq_obj2[e];
  double q2[4] = {1, 0, 0, 0}, qt[4], qi[4], qe[4];
  if (b2 > 0) memcpy(q2, s->d->xquat + 4 * b2, sizeof q2);
  csi_quat_mul(qt, q2, D + 6);
  qi[0] = qt[0], qi[1] = -qt[1], qi[2] = -qt[2], qi[3] = -qt[3];
  csi_quat_mul(qe, s->d->xquat + 4 * b1, qi);
  double ax[3], th = ball_angle(qe, ax);
  for (int k = 0; k < 3; k++) err[k] = th * ax[k];
  double* J = s->d->efc_J + (size_t)r * m->nv;
  jac_add(s, b1, NULL, 1.0, J);
  jac_add(s, b2, NULL, -1.0, J);
}

/* A joint equality's row at r: q1 - q1_0 - poly(q2 - q2_0); err into *err */
static void eq_joint_row(Rows* s, int e, int r, double* err) {
  const csModel* m = s->m;
  const double* c = m->eq_data + 11 * e;
  int j1 = m->eq_obj1[e], j2 = m->eq_obj2[e];
  double* J = s->d->efc_J + (size_t)r * m->nv;
  double q1 = s->d->qpos[m->jnt_qposadr[j1]] - m->qpos0[m->jnt_qposadr[j1]];
  double poly = c[0], dpoly = 0;
  J[m->jnt_dofadr[j1]] = 1;
  if (j2 >= 0) {
    double x = s->d->qpos[m->jnt_qposadr[j2]] - m->qpos0[m->jnt_qposadr[j2]];
    poly = c[0] + x * (c[1] + x * (c[2] + x * (c[3] + x * c[4])));
    dpoly = c[1] + x * (2 * c[2] + x * (3 * c[3] + x * 4 * c[4]));
    J[m->jnt_dofadr[j2]] -= dpoly;
  }
  *err = q1 - poly;
}

static void rows_equalities(Rows* s) {
  const csModel* m = s->m;
  if (m->opt.disable & CS_DISABLE_EQUALITY) return;
  int slot = 2 * m->njnt + m->nv;
  for (int e = 0; e < m->neq; slot += eq_rows(m->eq_type[e]), e++) {
    if (!m->eq_active[e]) continue;
    int t = m->eq_type[e], n = eq_rows(t);
    double err[6];
    int r = add_block(s, CS_CONE_FREE, n, 0, CS_EFC_EQUALITY, e, slot, 0);
    if (r < 0) return;
    if (t == CS_EQ_JOINT) {
      eq_joint_row(s, e, r, err);
      s->d->efc_block_dist[s->nb - 1] = err[0];
    } else {
      eq_connect_rows(s, e, r, err);
      if (t == CS_EQ_WELD) eq_weld_rot_rows(s, e, r + 3, err + 3);
    }
    rows_jv(s, r, n);
    for (int k = 0; k < n; k += 3) /* a weld's point, then its rotation */
      csi_recovery_equality(s->beta, err + k, n - k < 3 ? n - k : 3, s->dt, s->vmax,
                            s->d->efc_g + r + k);
  }
}

/* A tendon limit's row: J = sign coef_i on each joint's dof, phi its distance to the bound;
   in the problem under the joint limits' rule (limit_row) with margin 0 */
static void tendon_row(Rows* s, int t, int src, double sign, double phi, int slot) {
  const csModel* m = s->m;
  int w0 = m->tendon_adr[t], w1 = w0 + m->tendon_num[t];
  double jv = 0, jp = 0;
  for (int w = w0; w < w1; w++) {
    int dof = m->jnt_dofadr[m->wrap_jnt[w]];
    jv += sign * m->wrap_coef[w] * s->vfree[dof];
    if (s->vplus) jp += sign * m->wrap_coef[w] * s->vplus[dof];
  }
  double reach = phi + s->dt * ((jv < 0 ? jv : 0) + (jp < 0 ? jp : 0));
  if (!(reach < 0)) return;
  int r = add_block(s, CS_CONE_UNILATERAL, 1, 0, src, t, slot, phi);
  if (r < 0) return;
  double* J = s->d->efc_J + (size_t)r * m->nv;
  for (int w = w0; w < w1; w++) J[m->jnt_dofadr[m->wrap_jnt[w]]] += sign * m->wrap_coef[w];
  s->d->efc_g[r] = jv + (phi > 0 ? phi / s->dt : s->beta * phi / s->dt);
}

/* Limited tendons: length L = sum coef q, rows for L >= lower and L <= upper; their slots
   follow the equalities' */
static void rows_tendons(Rows* s) {
  const csModel* m = s->m;
  if ((m->opt.disable & CS_DISABLE_LIMIT) || m->ntendon == 0) return;
  int slot = 2 * m->njnt + m->nv;
  for (int e = 0; e < m->neq; e++) slot += eq_rows(m->eq_type[e]);
  for (int t = 0; t < m->ntendon; t++) {
    if (!m->tendon_limited[t]) continue;
    double len = 0;
    for (int w = m->tendon_adr[t], e = w + m->tendon_num[t]; w < e; w++)
      len += m->wrap_coef[w] * s->d->qpos[m->jnt_qposadr[m->wrap_jnt[w]]];
    const double* rg = m->tendon_range + 2 * t;
    tendon_row(s, t, CS_EFC_TENDON_LOW, 1.0, len - rg[0], slot + 2 * t);
    tendon_row(s, t, CS_EFC_TENDON_HIGH, -1.0, rg[1] - len, slot + 2 * t + 1);
  }
}

/* G from the contacts' 3nc x 3nc (leading dimension 3nc) to nrow x nrow: the contacts' rows
   moved to their new stride (last first: they only move up), then the blocks' rows and
   columns from x_e = M^-1 J_e^T */
static csStatus rows_delassus(Rows* s) {
  const csModel* m = s->m;
  csData* d = s->d;
  int nv = m->nv, r0 = s->r0, n = s->nrow, nx = n - r0;
  double* G = d->efc_G;
  for (int r = r0 - 1; r > 0; r--)
    memmove(G + (size_t)r * n, G + (size_t)r * r0, sizeof(double) * (size_t)r0);
  double* X = CSI_STACK_ALLOC(d, double, (size_t)nx* nv);
  if (!X) return csi_error(CS_ERR_MEMORY, "constraint rows: arena full (%d rows)", nx);
  cs_solve_m(m, d, X, d->efc_J + (size_t)r0 * nv, nx);
  for (int e = 0; e < nx; e++) {
    const double* x = X + (size_t)e * nv;
    for (int c = 0; c < n; c++) {
      if (c >= r0 && c < r0 + e) continue; /* mirrored below */
      const double* J = d->efc_J + (size_t)c * nv;
      double a = 0;
      for (int i = 0; i < nv; i++) a += J[i] * x[i];
      G[(size_t)(r0 + e) * n + c] = G[(size_t)c * n + r0 + e] = a;
    }
  }
  return CS_OK;
}

/* G back from nrow x nrow to the contacts' 3nc x 3nc (leading dimension 3nc), for a new pass
   (not inlined: csi_constraint_rows_build's common case sets up no frame) */
static __attribute__((noinline)) void rows_shrink(csData* d) {
  int r0 = 3 * d->problem.nc, n = cs_problem_rows(&d->problem);
  for (int r = 1; r < r0; r++)
    memmove(d->efc_G + (size_t)r * r0, d->efc_G + (size_t)r * n, sizeof(double) * (size_t)r0);
}

/* The joint limit rows of the problem in d, marked by warm-start slot (2 njnt); NULL if the
   arena is full */
static unsigned char* limit_rows_in(const csModel* m, csData* d) {
  unsigned char* in = CSI_STACK_ALLOC(d, unsigned char, 2 * m->njnt + 1);
  if (!in) return NULL;
  memset(in, 0, (size_t)(2 * m->njnt + 1));
  for (int b = 0; b < d->problem.nblock; b++) {
    int src = d->efc_block_src[2 * b];
    if (src == CS_EFC_LIMIT_LOW || src == CS_EFC_LIMIT_HIGH)
      in[2 * d->efc_block_src[2 * b + 1] + (src == CS_EFC_LIMIT_HIGH)] = 1;
  }
  return in;
}

/* csi_constraint_rows_build of a model with room for blocks; apart (not inlined), so that
   a model without them returns before its frame is set up. kept: the earlier pass's limit
   rows (limit_rows_in) or NULL; mark: the arena before kept, else before the rows' scratch */
static __attribute__((noinline)) csStatus rows_build(const csModel* m, csData* d,
                                                     const double* vfree, const double* vplus,
                                                     const unsigned char* kept, size_t mark) {
  csContactProblem* p = &d->problem;
  int pass2 = vplus != NULL;
  int r0 = 3 * d->ncon;
  Rows s = {m,  d, vfree, vplus, m->opt.timestep, m->opt.baumgarte, m->opt.recovery_speed, r0,
            r0, 0, NULL,  kept};
  s.slot = CSI_STACK_ALLOC(d, int, d->nefc_max - r0 + 1);
  if (!s.slot) {
    csi_stack_free(d, mark);
    return csi_error(CS_ERR_MEMORY, "constraint rows: arena full");
  }
  rows_limits(&s);
  rows_frictionloss(&s);
  rows_equalities(&s);
  rows_tendons(&s);
  if (s.nb == 0) {
    csi_stack_free(d, mark);
    return CS_OK;
  }
  csStatus st = rows_delassus(&s);
  if (st != CS_OK) {
    csi_stack_free(d, mark);
    return st;
  }
  int warm = pass2 || (m->opt.warmstart && d->prev_converged);
  for (int r = r0; r < s.nrow; r++) {
    int k = s.slot[r - r0];
    d->efc_lambda[r] = warm && d->efc_slot_on[k] ? d->efc_slot_lambda[k] : 0;
    d->efc_row_slot[r - r0] = k;
  }
  csi_stack_free(d, mark);
  p->nc = d->ncon, p->nv = m->nv, p->mu = d->efc_mu, p->G = d->efc_G, p->g = d->efc_g;
  p->R = NULL, p->J = d->efc_J;
  p->nblock = s.nb, p->block = d->efc_block;
  return CS_OK;
}

csStatus csi_constraint_rows_build(const csModel* m, csData* d, const double* vfree,
                                   const double* vplus) {
  csContactProblem* p = &d->problem;
  const unsigned char* kept = NULL;
  size_t mark = 0;
  if (p->nblock > 0) {
    mark = csi_stack_mark(d);
    if (vplus) kept = limit_rows_in(m, d);
    rows_shrink(d);
  }
  p->nblock = 0, p->block = NULL;
  if (d->nblock_max > 0)
    return rows_build(m, d, vfree, vplus, kept, kept ? mark : csi_stack_mark(d));
  if (d->efc_sources & ~m->opt.disable)
    csi_warning(d, CS_WARN_CONTACTFULL,
                "limits, friction loss or equalities enabled after cs_data_new, which made no "
                "room for them: not applied (create the csData with them enabled)");
  return CS_OK;
}

int csi_constraint_rows_missed(const csModel* m, const csData* d, const double* vfree,
                               const double* dv) {
  if (d->nblock_max == 0 || (m->opt.disable & CS_DISABLE_LIMIT)) return 0;
  const csContactProblem* p = &d->problem;
  double dt = m->opt.timestep;
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j];
    if (!jnt_limitable(m, j) || t == CS_JNT_BALL) continue;
    int in[2] = {0, 0};
    for (int b = 0; b < p->nblock; b++)
      if (d->efc_block_src[2 * b + 1] == j && d->efc_block_src[2 * b] <= CS_EFC_LIMIT_HIGH)
        in[d->efc_block_src[2 * b]] = 1;
    int dof = m->jnt_dofadr[j];
    double q1 = d->qpos[m->jnt_qposadr[j]] + dt * (vfree[dof] + dv[dof]);
    if ((!in[0] && q1 < m->jnt_range[2 * j]) || (!in[1] && q1 > m->jnt_range[2 * j + 1])) return 1;
  }
  return 0;
}

void csi_constraint_rows_force(const csModel* m, const csData* d, double* f) {
  const csContactProblem* p = &d->problem;
  if (p->nblock == 0) return;
  int r0 = 3 * p->nc, n = cs_problem_rows(p), nv = m->nv;
  for (int r = r0; r < n; r++) {
    double l = d->efc_lambda[r];
    if (l == 0) continue;
    const double* J = d->efc_J + (size_t)r * nv;
    for (int i = 0; i < nv; i++) f[i] += J[i] * l;
  }
}

void csi_constraint_rows_keep(csData* d, int clear) {
  if (clear && d->nslot_on > 0) {
    memset(d->efc_slot_on, 0, (size_t)d->nslot);
    d->nslot_on = 0;
  }
  const csContactProblem* p = &d->problem;
  if (p->nblock == 0) return;
  int r0 = 3 * p->nc, n = cs_problem_rows(p);
  for (int r = r0; r < n; r++) {
    int k = d->efc_row_slot[r - r0];
    d->efc_slot_lambda[k] = d->efc_lambda[r], d->efc_slot_on[k] = 1;
  }
  d->nslot_on += n - r0;
}
