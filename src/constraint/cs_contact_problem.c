/* The contact problem of the current contacts (docs/architecture.md, "Contacts"):
     J      rows n, t1, t2 of every contact: relative velocity of geom[1]'s body with respect
            to geom[0]'s body at the contact point, in the contact frame;
     G = J M^-1 J^T through the sparse factor M = L^T D L (no inverse, no M^-1 J^T): with
            Y = L^-T J^T, G = Y^T D^-1 Y. Row j of J lives on the dofs of the two bodies'
            chains to the root, and so does Y_j (L^T couples a dof only to its ancestors), so
            the half solve touches a chain, not the tree. Two ways:
            - paths (build_paths), when every contact's chain is one path to the root (a
              floating-base robot or free bodies on the ground): the tail the paths share
              (the floating base) is solved for all contacts at once and G's part over it is
              one dense Gram matrix in vector lanes; the rest of each path adds only where
              two contacts are on one branch;
            - general (build_general), chains that are the union of two paths (a contact
              between two branches): Y per contact, G block by block over shared dofs;
     g = J v_free + stabilisation on the normal rows (docs/scenes.md "Common settings"):
            gap phi > 0: the gap may close within the step (v_N >= -phi/dt);
            phi < 0: Baumgarte pushes out at beta (v_N >= -beta phi/dt), at most at
                     csOption.recovery_speed when it is set (cs_recovery.h);
          and on the tangent rows of a contact that sticks, beta s_T / dt with s its
          stiction anchor (csContact.slip: the tangential displacement the solves' residual
          velocities have let it slide since it began to stick), so that velocity errors
          within the solver's tolerance do not add up to a creep (docs/physics.md).
   Warm start: impulses of last step's contact with the same geom pair and feature id
   (found by cs_contact_match.c: a search in order, or a hash table for many contacts),
   carried through the world frame into the new contact frame (the cone projection is done
   by the solver); none at new impacts and none after a failed solve. */
#include "constraint/cs_contact_problem.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/cs_contact_jac.h"
#include "constraint/cs_contact_match.h"
#include "constraint/cs_recovery.h"
#include "contactsim/cs_dynamics.h"
#include "core/cs_error.h"
#include "core/cs_memory.h"
#include "math/cs_math.h"

/* rows (3 x nv) += sign * frame * (point Jacobian of body at p) */
static void contact_jac_add(const csModel* m, const csData* d, int body, const double* p,
                            const double* frame, double sign, double* rows) {
  int nv = m->nv;
  for (int k = m->body_lastdof[body]; k >= 0; k = m->dof_parent[k]) {
    double j[3];
    csi_contact_jac_col(d->cdof + 6 * k, p, frame, j);
    rows[k] += sign * j[0], rows[nv + k] += sign * j[1], rows[2 * nv + k] += sign * j[2];
  }
}

/* 1 if some of s[0..2] is not +0 or -0 (s[k] != 0 for one, NaN included): their bits
   or-ed, the sign bits shifted out */
static CSI_INLINE int any_nonzero3(const double* s) {
  uint64_t a, b, c;
  memcpy(&a, s, sizeof a);
  memcpy(&b, s + 1, sizeof b);
  memcpy(&c, s + 2, sizeof c);
  return ((a | b | c) << 1) != 0;
}

/* Contact i's warm start from q, its last-step match or NULL (warm: q's impulse carried
   through the world frame into the new contact frame, the cone projection left to the
   solver; else 0), and its stiction anchor (q's slip, whatever the warm start): its term on
   the tangent rows, beta s_T / dt, pulls a sticking contact back to where it began to
   stick */
static CSI_INLINE void warmstart(csData* d, int i, const csContact* q, int warm, double beta,
                                 double dt) {
  csContact* c = d->contact + i;
  double* lambda = d->efc_lambda + 3 * i;
  if (!q) {
    lambda[0] = lambda[1] = lambda[2] = 0;
    c->slip[0] = c->slip[1] = c->slip[2] = 0;
    return;
  }
  memcpy(c->slip, q->slip, sizeof c->slip);
  if (warm) {
    double f[3];
    csi_mulmat3tvec(f, q->frame, q->lambda); /* world impulse */
    csi_mulmat3vec(lambda, c->frame, f);
  } else {
    lambda[0] = lambda[1] = lambda[2] = 0;
  }
  if (any_nonzero3(c->slip)) {
    const double* F = c->frame;
    d->efc_g[3 * i + 1] += beta * csi_dot3(F + 3, c->slip) / dt;
    d->efc_g[3 * i + 2] += beta * csi_dot3(F + 6, c->slip) / dt;
  }
}

/* J's rows of a contact against the world on one path to the root: along the chain, written
   compactly into the contact's Y block (where the half solve continues) and into J */
static CSI_INLINE void general_jac_world(const csData* d, const csContact* c, const int* ch,
                                         int nch, int nv, double* rows, double* y) {
  for (int e = 0; e < nch; e++) {
    int k = ch[e];
    double j[3];
    csi_contact_jac_col(d->cdof + 6 * k, c->pos, c->frame, j);
    y[e] = j[0], y[nch + e] = j[1], y[2 * nch + e] = j[2];
    rows[k] = j[0], rows[nv + k] = j[1], rows[2 * nv + k] = j[2];
  }
}

/* J as dense rows (3 per contact); single[i] = 2 marks a contact whose rows are already
   gathered into its Y block (against the world on one path) */
static CSI_INLINE void general_jacobian(const csModel* m, csData* d, const int* chain,
                                        const int* nchain, int* single) {
  int nc = d->ncon, nv = m->nv, n = 3 * nc;
  memset(d->efc_J, 0, sizeof(double) * (size_t)n * (size_t)nv);
  for (int i = 0; i < nc; i++) {
    const csContact* c = d->contact + i;
    double* rows = d->efc_J + (size_t)3 * i * nv;
    int b0 = m->geom_body[c->geom[0]], b1 = m->geom_body[c->geom[1]];
    if (single[i] && b0 == 0) {
      general_jac_world(d, c, chain + (size_t)i * nv, nchain[i], nv, rows,
                        d->efc_Y + (size_t)3 * i * nv);
      single[i] = 2; /* J already gathered */
      continue;
    }
    contact_jac_add(m, d, b1, c->pos, c->frame, 1.0, rows);
    if (b0 > 0) contact_jac_add(m, d, b0, c->pos, c->frame, -1.0, rows);
  }
}

/* The half solve of a chain that is one path to the root: the ancestors of ch[e] are
   ch[e + 1], ch[e + 2], ... in order, so it runs in the compact index space: gather (unless
   already gathered), solve, scale */
static CSI_INLINE void general_solve_path(const double* J, const int* ch, int nch, int nv,
                                          int gathered, const double* LD, const int* adr,
                                          const double* sd, double* Y) {
  double* restrict y0 = Y;
  double* restrict y1 = Y + nch;
  double* restrict y2 = Y + 2 * nch;
  if (!gathered)
    for (int e = 0; e < nch; e++) {
      int k = ch[e];
      y0[e] = J[k], y1[e] = J[nv + k], y2[e] = J[2 * nv + k];
    }
  for (int e = 0; e < nch; e++) {
    double a0 = y0[e], a1 = y1[e], a2 = y2[e];
    int rb = adr[ch[e]] - e; /* LD[rb + f] = L(ch[e], ch[f]), its (f - e)-th ancestor */
    for (int f = e + 1; f < nch; f++) {
      double l = LD[rb + f];
      y0[f] -= l * a0, y1[f] -= l * a1, y2[f] -= l * a2;
    }
    double sk = sd[ch[e]];
    y0[e] = a0 * sk, y1[e] = a1 * sk, y2[e] = a2 * sk;
  }
}

/* The half solve of a chain that is the union of two paths: on 3 dense rows (first a copy of
   J) along each dof's ancestors, then compacted in place and scaled: row r's entries go to
   [r nch, (r + 1) nch), below row r + 1's sources (at >= (r + 1) nv); within a row they are
   gathered first (za: scratch of nv) */
static CSI_INLINE void general_solve_chain(const csModel* m, const double* J, const int* ch,
                                           int nch, const double* LD, const double* sd, double* Y,
                                           double* za) {
  int nv = m->nv;
  const int* adr = m->dof_Madr;
  double* w = Y;
  memcpy(w, J, sizeof(double) * 3 * (size_t)nv);
  for (int e = 0; e < nch; e++) {
    int k = ch[e];
    double a0 = w[k], a1 = w[nv + k], a2 = w[2 * nv + k];
    const double* rk = LD + adr[k];
    int t = 1;
    for (int q = m->dof_parent[k]; q >= 0; q = m->dof_parent[q], t++) {
      double l = rk[t];
      w[q] -= l * a0, w[nv + q] -= l * a1, w[2 * nv + q] -= l * a2;
    }
  }
  for (int r = 0; r < 3; r++) {
    for (int e = 0; e < nch; e++) za[e] = w[r * nv + ch[e]] * sd[ch[e]];
    memcpy(Y + r * nch, za, sizeof(double) * (size_t)nch);
  }
}

/* Y = L^-T J^T, per contact on its chain only (row k of L^T couples k to its ancestors,
   which are on the chain), stored compactly: contact i's block at efc_Y + 3 i nv holds
   3 rows of nchain[i] entries in chain order, scaled by D^-1/2 so that G = Y^T Y. */
static CSI_INLINE void general_half_solve(const csModel* m, csData* d, const int* chain,
                                          const int* nchain, const int* single, const double* sd,
                                          double* za) {
  int nc = d->ncon, nv = m->nv;
  for (int i = 0; i < nc; i++) {
    const double* J = d->efc_J + (size_t)3 * i * nv;
    const int* ch = chain + (size_t)i * nv;
    double* Y = d->efc_Y + (size_t)3 * i * nv;
    if (single[i])
      general_solve_path(J, ch, nchain[i], nv, single[i] == 2, d->qLD, m->dof_Madr, sd, Y);
    else
      general_solve_chain(m, J, ch, nchain[i], d->qLD, sd, Y, za);
  }
}

/* g = J v_free over each chain */
static CSI_INLINE void general_rhs(const csModel* m, csData* d, const double* vfree,
                                   const int* chain, const int* nchain) {
  int nc = d->ncon, nv = m->nv;
  for (int i = 0; i < nc; i++) {
    const int* chi = chain + (size_t)i * nv;
    const double* J0 = d->efc_J + (size_t)3 * i * nv;
    double g0 = 0, g1 = 0, g2 = 0;
    for (int e = 0, ni = nchain[i]; e < ni; e++) {
      int k = chi[e];
      double v = vfree[k];
      g0 += J0[k] * v, g1 += J0[nv + k] * v, g2 += J0[2 * nv + k] * v;
    }
    d->efc_g[3 * i] = g0, d->efc_g[3 * i + 1] = g1, d->efc_g[3 * i + 2] = g2;
  }
}

/* The 3x3 block Yi^T Yj of two single paths to the root: they share a common tail (the path
   of their deepest common dof), found from the ends and summed two dofs at a time in the
   lanes of a vector, the odd one last */
static CSI_INLINE void general_block_tails(const double* Yi, const int* chi, int ni,
                                           const double* Yj, const int* chj, int nj, double B[9]) {
  int L = 0;
  while (L < ni && L < nj && chi[ni - 1 - L] == chj[nj - 1 - L]) L++;
  const double* a0p = Yi + ni - L;
  const double* a1p = a0p + ni;
  const double* a2p = a1p + ni;
  const double* b0p = Yj + nj - L;
  const double* b1p = b0p + nj;
  const double* b2p = b1p + nj;
  cs_v2 s00 = {0, 0}, s01 = s00, s02 = s00, s10 = s00, s11 = s00, s12 = s00, s20 = s00, s21 = s00,
        s22 = s00;
  int e = 0;
  for (; e + 1 < L; e += 2) {
    cs_v2 x0, x1, x2, y0, y1, y2;
    memcpy(&x0, a0p + e, 16), memcpy(&x1, a1p + e, 16), memcpy(&x2, a2p + e, 16);
    memcpy(&y0, b0p + e, 16), memcpy(&y1, b1p + e, 16), memcpy(&y2, b2p + e, 16);
    s00 += x0 * y0, s01 += x0 * y1, s02 += x0 * y2;
    s10 += x1 * y0, s11 += x1 * y1, s12 += x1 * y2;
    s20 += x2 * y0, s21 += x2 * y1, s22 += x2 * y2;
  }
  B[0] = s00[0] + s00[1], B[1] = s01[0] + s01[1], B[2] = s02[0] + s02[1];
  B[3] = s10[0] + s10[1], B[4] = s11[0] + s11[1], B[5] = s12[0] + s12[1];
  B[6] = s20[0] + s20[1], B[7] = s21[0] + s21[1], B[8] = s22[0] + s22[1];
  if (e < L) {
    double x0 = a0p[e], x1 = a1p[e], x2 = a2p[e], y0 = b0p[e], y1 = b1p[e], y2 = b2p[e];
    B[0] += x0 * y0, B[1] += x0 * y1, B[2] += x0 * y2;
    B[3] += x1 * y0, B[4] += x1 * y1, B[5] += x1 * y2;
    B[6] += x2 * y0, B[7] += x2 * y1, B[8] += x2 * y2;
  }
}

/* G = Y^T Y, one 3x3 block per pair of contacts: the sum over the dofs their chains share,
   the upper triangle and its mirror written together */
static CSI_INLINE void general_gram(const csModel* m, csData* d, const int* chain,
                                    const int* nchain, const int* single) {
  int nc = d->ncon, nv = m->nv, n = 3 * nc;
  for (int i = 0; i < nc; i++) {
    const int* chi = chain + (size_t)i * nv;
    const double* Yi = d->efc_Y + (size_t)3 * i * nv;
    for (int j = i; j < nc; j++) {
      const int* chj = chain + (size_t)j * nv;
      const double* Yj = d->efc_Y + (size_t)3 * j * nv;
      double B[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      if (single[i] && single[j])
        general_block_tails(Yi, chi, nchain[i], Yj, chj, nchain[j], B);
      else
        csi_block_merge(Yi, chi, nchain[i], Yj, chj, nchain[j], B);
      csi_block_store(d->efc_G, n, i, j, B);
    }
  }
}

/* The general case (some contact between two moving bodies on different branches): J as
   dense rows, Y per contact on its chain (a path or the union of two), g = J v_free, and G
   block by block over the dofs two chains share. */
static CSI_INLINE void build_general(const csModel* m, csData* d, const double* vfree,
                                     const int* chain, const int* nchain, int* single,
                                     const double* sd, double* za) {
  general_jacobian(m, d, chain, nchain, single);
  general_half_solve(m, d, chain, nchain, single, sd, za);
  general_rhs(m, d, vfree, chain, nchain);
  general_gram(m, d, chain, nchain, single);
}

/* dofs summed per pass of gram */
#define CS_GRAM_MAXT 8

/* Rows a and a + 1 of Y^T diag(dv) Y at the columns b, b + 1 (y0, y1: rows a, a + 1 of Y
   scaled by dv and broadcast), added to s0, s1 (add) or stored there. */
static inline void gram_chunk(const double* Y, int ldr, int nt, int b, const cs_v2* y0,
                              const cs_v2* y1, int add, cs_v2* s0, cs_v2* s1) {
  cs_v2 u = *s0, v = *s1;
  int t = 0;
  if (!add && nt > 0) { /* start from the first product (0 + x costs an addition) */
    cs_v2 y = csi_v2_load(Y + b);
    u = y0[0] * y, v = y1[0] * y, t = 1;
  }
  for (; t < nt; t++) {
    cs_v2 y = csi_v2_load(Y + (size_t)t * ldr + b);
    u += y0[t] * y, v += y1[t] * y;
  }
  *s0 = u, *s1 = v;
}

/* G = Y^T diag(dv) Y (n x n) over nt dof rows of Y (dof-major: rows of ldr >= n entries,
   even, the pad zero); add: G += instead. Two rows of G at a time, from their diagonal 2x2
   block on, two columns to a vector; each 2x2 block right of the diagonal is also stored
   transposed below it and the diagonal blocks are made symmetric, so G comes out exactly
   symmetric. Inlined with nt = 6 (a floating base) for the broadcast rows to stay in
   registers. */
static CSI_INLINE void gram(const double* Y, const double* dv, int ldr, int nt, int n, int add,
                            double* G) {
  int ne = n & ~1; /* rows and columns in whole 2x2 blocks */
  for (int a = 0; a < n; a += 2) {
    cs_v2 y0[CS_GRAM_MAXT], y1[CS_GRAM_MAXT];
    for (int t = 0; t < nt; t++) {
      double u = Y[(size_t)t * ldr + a] * dv[t], v = Y[(size_t)t * ldr + a + 1] * dv[t];
      y0[t] = (cs_v2){u, u}, y1[t] = (cs_v2){v, v};
    }
    double* G0 = G + (size_t)a * n;
    double* G1 = G0 + n;
    if (a == ne) { /* n odd: the last row, of which only the diagonal entry is left */
      cs_v2 s0 = {add ? G0[a] : 0, 0}, s1 = s0;
      gram_chunk(Y, ldr, nt, a, y0, y1, add, &s0, &s1);
      G0[a] = s0[0];
      break;
    }
    cs_v2 s0 = {0, 0}, s1 = {0, 0};
    if (add) s0 = csi_v2_load(G0 + a), s1 = csi_v2_load(G1 + a);
    gram_chunk(Y, ldr, nt, a, y0, y1, add, &s0, &s1);
    s1[0] = s0[1];
    csi_v2_store(G0 + a, s0), csi_v2_store(G1 + a, s1);
    for (int b = a + 2; b < ne; b += 2) {
      s0 = s1 = (cs_v2){0, 0};
      if (add) s0 = csi_v2_load(G0 + b), s1 = csi_v2_load(G1 + b);
      gram_chunk(Y, ldr, nt, b, y0, y1, add, &s0, &s1);
      csi_v2_store(G0 + b, s0), csi_v2_store(G1 + b, s1);
      cs_v2 t0 = {s0[0], s1[0]}, t1 = {s0[1], s1[1]};
      double* Gb = G + (size_t)b * n + a;
      csi_v2_store(Gb, t0), csi_v2_store(Gb + n, t1);
    }
    if (ne < n) { /* n odd: the last column (its pair in Y is the zero pad) */
      s0 = s1 = (cs_v2){0, 0};
      if (add) s0[0] = G0[ne], s1[0] = G1[ne];
      gram_chunk(Y, ldr, nt, ne, y0, y1, add, &s0, &s1);
      G0[ne] = s0[0], G1[ne] = s1[0];
      cs_v2 t0 = {s0[0], s1[0]};
      csi_v2_store(G + (size_t)ne * n + a, t0);
    }
  }
}

/* The shared tail's part of the solve for all contact rows at once (Xr: nR rows of ldr
   entries, dof-major; R[t]'s ancestors are R[t + 1], ...): row u gets its terms t < u in
   ascending t, the operations of the per-chain solve in its order. Up to CS_TAIL_MAXT rows,
   two columns at a time with the rows in registers (inlined with nR = 6, a floating base);
   more, row by row. */
#define CS_TAIL_MAXT 8
static CSI_INLINE void tail_solve(double* Xr, const double* LD, const int* adr, const int* R,
                                  int ldr, int nR) {
  if (nR <= CS_TAIL_MAXT) {
    cs_v2 l[CS_TAIL_MAXT * (CS_TAIL_MAXT - 1) / 2]; /* L(R[t], R[u]) by u, then t */
    for (int u = 1, q = 0; u < nR; u++)
      for (int t = 0; t < u; t++, q++) {
        double x = LD[adr[R[t]] + u - t];
        l[q] = (cs_v2){x, x};
      }
    for (int b = 0; b < ldr; b += 2) {
      cs_v2 x[CS_TAIL_MAXT];
      for (int u = 0, q = 0; u < nR; u++) {
        cs_v2 y = csi_v2_load(Xr + (size_t)u * ldr + b);
        for (int t = 0; t < u; t++, q++) y -= l[q] * x[t];
        x[u] = y;
        if (u > 0) csi_v2_store(Xr + (size_t)u * ldr + b, y);
      }
    }
    return;
  }
  for (int u = 1; u < nR; u++) {
    double* xu = Xr + (size_t)u * ldr;
    for (int t = 0; t < u; t++) {
      double v = LD[adr[R[t]] + u - t];
      cs_v2 lt = {v, v};
      const double* xt = Xr + (size_t)t * ldr;
      for (int b = 0; b < ldr; b += 2) {
        cs_v2 y = csi_v2_load(xu + b) - lt * csi_v2_load(xt + b);
        csi_v2_store(xu + b, y);
      }
    }
  }
}

/* Column k of a contact's three J rows (0 if k <= kcut: the shallower body's dofs) into j,
   stored into rows (3 rows of nv) and added to g = J v_free */
static inline void path_col(const csModel* m, const double* cdof, const double* vfree, int k,
                            int kcut, const double* F, const double* P, double* rows, double j[3],
                            double g[3]) {
  if (k <= kcut) {
    j[0] = j[1] = j[2] = 0;
    return;
  }
  int tk = m->dof_tran[k], nv = m->nv;
  if (tk >= 0) /* translation of a free joint, S = (0, e_tk): F's column tk */
    j[0] = F[tk], j[1] = F[3 + tk], j[2] = F[6 + tk];
  else
    csi_contact_jac_col(cdof + 6 * k, P, F, j);
  rows[k] = j[0], rows[nv + k] = j[1], rows[2 * nv + k] = j[2];
  double v = vfree[k];
  g[0] += j[0] * v, g[1] += j[1] * v, g[2] += j[2] * v;
}

/* What build_paths' stages share: the factor and X's two pieces (see build_paths) */
typedef struct {
  const csModel* m;
  csData* d;
  const double* vfree;
  const double* LD;   /* the factor L^T D L, row k at dof_Madr[k] */
  const double* dinv; /* D^-1 */
  const int* adr;     /* dof_Madr */
  const double* cdof;
  int nc, nv, n, ldr, nR;
  double* Xr;  /* R's rows of X, all 3nc contact rows: nR rows of ldr */
  double* own; /* the contacts' own parts, contact i's at own + ownadr[i] */
} pathsCtx;

/* J = J_b1 - J_b0: on a path the shallower body's dofs (<= kcut, returned) move both points
   alike, so J is 0 there; above kcut only the deeper body moves. F: the contact frame,
   negated if b0 is the deeper body. */
static CSI_INLINE int paths_frame(const csModel* m, const csContact* c, double F[9]) {
  int b0 = m->geom_body[c->geom[0]], b1 = m->geom_body[c->geom[1]];
  int k0 = b0 > 0 ? m->body_lastdof[b0] : -1, k1 = m->body_lastdof[b1];
  int neg = k0 > k1, kcut = neg ? k1 : k0;
  double sg = neg ? -1.0 : 1.0;
  for (int r = 0; r < 9; r++) F[r] = sg * c->frame[r];
  return kcut;
}

/* The own part's columns e < m_i into o (3 rows of m_i), left-looking: each less the terms
   of the own entries before it (L^T couples ch[e] to ch[f], f < e, which are final by then,
   and the terms come in ascending f, the order of the right-looking solve) */
static CSI_INLINE void paths_own_cols(const pathsCtx* p, const int* ch, int mi, int kcut,
                                      const double* F, const double* P, const int* lof,
                                      double* rows, double* g, double* restrict o0,
                                      double* restrict o1, double* restrict o2) {
  for (int e = 0; e < mi; e++) {
    double j[3];
    path_col(p->m, p->cdof, p->vfree, ch[e], kcut, F, P, rows, j, g);
    double j0 = j[0], j1 = j[1], j2 = j[2];
    for (int f = 0; f < e; f++) {
      double l = p->LD[lof[f] + e]; /* L(ch[f], ch[e]) */
      j0 -= l * o0[f], j1 -= l * o1[f], j2 -= l * o2[f];
    }
    o0[e] = j0, o1[e] = j1, o2[e] = j2;
  }
}

/* R's columns e >= m_i into Xr's columns 3i.., two at a time (the own part is final): the
   same terms, L(ch[f], ch[e]) and L(ch[f], ch[e + 1]) side by side in row ch[f]; the last
   of an odd count alone */
static CSI_INLINE void paths_tail_cols(const pathsCtx* p, int i, const int* ch, int nch, int mi,
                                       int kcut, const double* F, const double* P, const int* lof,
                                       double* rows, double* g, const double* restrict o0,
                                       const double* restrict o1, const double* restrict o2) {
  const double* LD = p->LD;
  int ldr = p->ldr, e = mi;
  for (; e + 1 < nch; e += 2) {
    double ja[3], jb[3];
    path_col(p->m, p->cdof, p->vfree, ch[e], kcut, F, P, rows, ja, g);
    path_col(p->m, p->cdof, p->vfree, ch[e + 1], kcut, F, P, rows, jb, g);
    cs_v2 y0 = {ja[0], jb[0]}, y1 = {ja[1], jb[1]}, y2 = {ja[2], jb[2]};
    for (int f = 0; f < mi; f++) {
      cs_v2 l = csi_v2_load(LD + lof[f] + e);
      y0 -= l * (cs_v2){o0[f], o0[f]}, y1 -= l * (cs_v2){o1[f], o1[f]};
      y2 -= l * (cs_v2){o2[f], o2[f]};
    }
    double* xa = p->Xr + (size_t)(e - mi) * ldr + 3 * i;
    double* xb = xa + ldr;
    xa[0] = y0[0], xa[1] = y1[0], xa[2] = y2[0];
    xb[0] = y0[1], xb[1] = y1[1], xb[2] = y2[1];
  }
  if (e < nch) { /* the last of an odd count */
    double j[3];
    path_col(p->m, p->cdof, p->vfree, ch[e], kcut, F, P, rows, j, g);
    double j0 = j[0], j1 = j[1], j2 = j[2];
    for (int f = 0; f < mi; f++) {
      double l = LD[lof[f] + e];
      j0 -= l * o0[f], j1 -= l * o1[f], j2 -= l * o2[f];
    }
    double* x = p->Xr + (size_t)(e - mi) * ldr + 3 * i;
    x[0] = j0, x[1] = j1, x[2] = j2;
  }
}

/* Contact i's J columns along its path ch (nch dofs), stored into J and, each less the
   terms of the own part's entries before it, into X: the own part at o (3 rows of m_i),
   R's into Xr; g = J v_free with them. lof: scratch of nv. */
static CSI_INLINE void paths_contact(const pathsCtx* p, int i, const int* ch, int nch, double* o,
                                     int* lof) {
  const csContact* c = p->d->contact + i;
  int mi = nch - p->nR, nv = p->nv;
  double F[9];
  int kcut = paths_frame(p->m, c, F);
  double* rows = p->d->efc_J + (size_t)3 * i * nv;
  double* restrict o0 = o;
  double* restrict o1 = o0 + mi;
  double* restrict o2 = o1 + mi;
  double P[3] = {c->pos[0], c->pos[1], c->pos[2]};
  for (int f = 0; f < mi; f++) lof[f] = p->adr[ch[f]] - f; /* L(ch[f], ch[e]) = LD[lof[f] + e] */
  double g[3] = {0, 0, 0};
  paths_own_cols(p, ch, mi, kcut, F, P, lof, rows, g, o0, o1, o2);
  paths_tail_cols(p, i, ch, nch, mi, kcut, F, P, lof, rows, g, o0, o1, o2);
  p->d->efc_g[3 * i] = g[0], p->d->efc_g[3 * i + 1] = g[1], p->d->efc_g[3 * i + 2] = g[2];
}

/* R's part of the solve, all contact rows at once (R[t]'s ancestors are R[t + 1], ...), with
   Xr's pad column zeroed; dv = D^-1 on R */
static CSI_INLINE void paths_tail(const pathsCtx* p, const int* R, double* dv) {
  int nR = p->nR, ldr = p->ldr, n = p->n;
  double* Xr = p->Xr;
  if (n & 1)
    for (int t = 0; t < nR; t++) Xr[(size_t)t * ldr + n] = 0;
  for (int t = 0; t < nR; t++) dv[t] = p->dinv[R[t]];
  if (nR == 6)
    tail_solve(Xr, p->LD, p->adr, R, ldr, 6);
  else
    tail_solve(Xr, p->LD, p->adr, R, ldr, nR);
}

/* G's shared part Xr^T D_R^-1 Xr over R for every pair, in passes of at most CS_GRAM_MAXT
   dofs (a floating base, 6, in one pass with its rows in registers) */
static CSI_INLINE void paths_gram(const pathsCtx* p, const double* dv) {
  int nR = p->nR, ldr = p->ldr, n = p->n;
  double* G = p->d->efc_G;
  for (int t0 = 0; t0 == 0 || t0 < nR; t0 += CS_GRAM_MAXT) {
    int nt = nR - t0 < CS_GRAM_MAXT ? nR - t0 : CS_GRAM_MAXT;
    if (nt == 6 && t0 == 0)
      gram(p->Xr, dv, ldr, 6, n, 0, G);
    else
      gram(p->Xr + (size_t)t0 * ldr, dv + t0, ldr, nt, n, t0 > 0, G);
  }
}

/* Contact i's own part with itself added to G's diagonal block: its upper triangle, mirrored
   (a0..a2: the own part's 3 rows of m_i along the dofs chi) */
static CSI_INLINE void paths_own_diag(const pathsCtx* p, int i, const int* chi, int mi,
                                      const double* a0, const double* a1, const double* a2) {
  int n = p->n;
  double B0 = 0, B1 = 0, B2 = 0, B4 = 0, B5 = 0, B8 = 0;
  for (int e = 0; e < mi; e++) {
    double di = p->dinv[chi[e]];
    double x0 = a0[e] * di, x1 = a1[e] * di, x2 = a2[e] * di;
    double y0 = a0[e], y1 = a1[e], y2 = a2[e];
    B0 += x0 * y0, B1 += x0 * y1, B2 += x0 * y2;
    B4 += x1 * y1, B5 += x1 * y2, B8 += x2 * y2;
  }
  double* Gii = p->d->efc_G + (size_t)(3 * i) * n + 3 * i;
  Gii[0] += B0, Gii[1] += B1, Gii[2] += B2;
  Gii[n + 1] += B4, Gii[n + 2] += B5, Gii[2 * n + 2] += B8;
  Gii[n] = Gii[1], Gii[2 * n] = Gii[2], Gii[2 * n + 1] = Gii[n + 2];
}

/* The own parts of contacts i and j where they meet (L > 0 dofs from the end of contact i's,
   kk its dofs there) added to G's block (i, j) and mirrored into (j, i) */
static CSI_INLINE void paths_own_pair(const pathsCtx* p, int i, int j, const int* kk, int L,
                                      const double* a0, const double* a1, const double* a2, int mi,
                                      const double* b0, const double* b1, const double* b2) {
  int n = p->n;
  double B[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int e = 0, f = mi - L; e < L; e++, f++) {
    double di = p->dinv[kk[e]];
    double x0 = a0[f] * di, x1 = a1[f] * di, x2 = a2[f] * di;
    double y0 = b0[e], y1 = b1[e], y2 = b2[e];
    B[0] += x0 * y0, B[1] += x0 * y1, B[2] += x0 * y2;
    B[3] += x1 * y0, B[4] += x1 * y1, B[5] += x1 * y2;
    B[6] += x2 * y0, B[7] += x2 * y1, B[8] += x2 * y2;
  }
  double* G = p->d->efc_G;
  double* Gij = G + (size_t)(3 * i) * n + 3 * j;
  double* Gji = G + (size_t)(3 * j) * n + 3 * i;
  for (int r = 0; r < 3; r++)
    for (int q = 0; q < 3; q++) {
      Gij[(size_t)r * n + q] += B[3 * r + q];
      Gji[(size_t)q * n + r] = Gij[(size_t)r * n + q];
    }
}

/* G's own-part terms: each contact with itself, and the pairs whose own parts meet (two
   contacts on one branch above R) */
static CSI_INLINE void paths_own_blocks(const pathsCtx* p, const int* chadr, const int* nchain,
                                        const int* ownadr) {
  const csModel* m = p->m;
  int nc = p->nc, nR = p->nR;
  for (int i = 0; i < nc; i++) {
    const int* chi = m->dof_Mcol + chadr[i];
    int mi = nchain[i] - nR;
    if (mi == 0) continue;
    const double* a0 = p->own + ownadr[i];
    const double* a1 = a0 + mi;
    const double* a2 = a1 + mi;
    paths_own_diag(p, i, chi, mi, a0, a1, a2);
    for (int j = i + 1; j < nc; j++) {
      const int* chj = m->dof_Mcol + chadr[j];
      int mj = nchain[j] - nR;
      /* two paths meet above R iff they share the dof just above R */
      if (mj == 0 || chi[mi - 1] != chj[mj - 1]) continue;
      int L = 1;
      while (L < mi && L < mj && chi[mi - 1 - L] == chj[mj - 1 - L]) L++;
      const double* b0 = p->own + ownadr[j] + mj - L;
      paths_own_pair(p, i, j, chi + mi - L, L, a0, a1, a2, mi, b0, b0 + mj, b0 + 2 * mj);
    }
  }
}

/* The common case: every contact's chain is one path to the root (a body against the world
   or against a body on its own path), e.g. a floating-base robot on the ground. Contact i's
   path is row chadr[i] of dof_Mcol (its deeper body's last dof and that dof's ancestors),
   nchain[i] dofs. All paths share a tail R of nR dofs (a legged robot: its floating base);
   contact i's path is its own part, the first m_i = nchain[i] - nR dofs, then R.
   With X = L^-T J^T (so that G = X^T D^-1 X), X is kept in efc_Y in two pieces:
     Xr   R's rows of X for all 3nc contact rows, dof-major: nR rows of ldr entries (3nc
          rounded up to even, the pad zero) - the part every pair of contacts shares;
     own  contact i's own part at own + ownadr[i]: 3 rows of m_i, compact.
   J is computed column by column along the path (and g = J v_free with it), each column
   less the terms of the contact's own part before it, and stored once into X; R's part of
   the solve then runs for all contact rows at once (tail_solve). Every entry of X gets
   the operations of a per-chain right-looking solve, in the same order. G = Xr^T D_R^-1 Xr
   (gram) + the own parts' products for the pairs whose own parts meet (a contact with
   itself, or two contacts on one branch). w, lof: scratch of nv. */
CSI_HOT static void build_paths(const csModel* m, csData* d, const double* vfree, const int* chadr,
                                const int* nchain, int nR, int* ownadr, double* w, int* lof) {
  int nc = d->ncon, n = 3 * nc;
  pathsCtx p = {m,
                d,
                vfree,
                d->qLD,
                d->qLDiagInv,
                m->dof_Madr,
                d->cdof,
                nc,
                m->nv,
                n,
                n + (n & 1),
                nR,
                d->efc_Y,
                d->efc_Y + (size_t)nR * (n + (n & 1))};
  memset(d->efc_J, 0, sizeof(double) * (size_t)n * (size_t)m->nv);
  int oa = 0;
  for (int i = 0; i < nc; i++) {
    ownadr[i] = oa;
    paths_contact(&p, i, m->dof_Mcol + chadr[i], nchain[i], p.own + oa, lof);
    oa += 3 * (nchain[i] - nR);
  }
  const int* R = nR > 0 ? m->dof_Mcol + chadr[0] + nchain[0] - nR : NULL;
  paths_tail(&p, R, w);
  paths_gram(&p, w);
  paths_own_blocks(&p, chadr, nchain, ownadr);
}

/* csi_contact_problem_finish, inlined into the dense build's clones */
static CSI_INLINE csStatus problem_finish(const csModel* m, csData* d) {
  int nc = d->ncon;
  double dt = m->opt.timestep, beta = m->opt.baumgarte, vmax = m->opt.recovery_speed;
  size_t mark = csi_stack_mark(d);
  int* prev = NULL; /* the matches by hash table (many contacts), else a search in order */
  if (d->ncon_prev >= CSI_MATCH_HASH_MIN) {
    prev = CSI_STACK_ALLOC(d, int, nc);
    void* scratch = csi_stack_alloc(d, csi_contact_match_bytes(d->ncon_prev));
    if (!prev || !scratch) {
      csi_stack_free(d, mark);
      return csi_error(CS_ERR_MEMORY, "contact problem: arena full (%d contacts)", nc);
    }
    csi_contact_match(d, prev, scratch);
  }
  int warm = m->opt.warmstart && d->prev_converged;
  for (int i = 0; i < nc; i++) {
    const csContact* c = d->contact + i;
    double phi = c->dist; /* beta phi / dt below 0 (at most vmax with recovery_speed) */
    d->efc_g[3 * i] += phi > 0 ? phi / dt : csi_recovery_crossed(beta, phi, dt, vmax);
    int j = prev ? prev[i] : csi_contact_previous(d, c);
    warmstart(d, i, j >= 0 ? d->contact_prev + j : NULL, warm, beta, dt);
  }
  csi_stack_free(d, mark);
  return CS_OK;
}

csStatus csi_contact_problem_finish(const csModel* m, csData* d) { return problem_finish(m, d); }

CSI_HOT csStatus cs_contact_problem_build(const csModel* m, csData* d, const double* vfree) {
  int nc = d->ncon, nv = m->nv, n = 3 * nc;
  csContactProblem* p = &d->problem;
  /* the constraint arrays for nc contacts (laid out by the step already, csi_efc_fit) */
  if (d->nefc_max != n + d->nefc_room_ && csi_efc_layout(m, d, nc) != CS_OK) {
    p->nc = 0;
    return csi_error(CS_ERR_MEMORY, "contact problem: arena full (%d contacts)", nc);
  }
  size_t mark = csi_stack_mark(d);
  int* nchain = CSI_STACK_ALLOC(d, int, nc);
  int* chadr = CSI_STACK_ALLOC(d, int, nc);    /* paths: the row of dof_Mcol */
  int* ownadr = CSI_STACK_ALLOC(d, int, nc);   /* paths: own parts in efc_Y */
  double* za = CSI_STACK_ALLOC(d, double, nv); /* scratch */
  int* zi = CSI_STACK_ALLOC(d, int, nv);       /* scratch */
  if (!nchain || !chadr || !ownadr || !za || !zi) {
    csi_stack_free(d, mark);
    p->nc = 0;
    return csi_error(CS_ERR_MEMORY, "contact problem: arena full (%d contacts)", nc);
  }
  /* Is every contact's chain one path to the root: the deeper body's last dof kd and its
     ancestors (row kd of dof_Mcol), with the shallower's ks among them? ks would sit at
     the depth Mnum[ks] - 1 of that row. nR: the length of the tail all paths share. */
  int paths = 1, nR = 0;
  for (int i = 0; i < nc; i++) {
    const csContact* c = d->contact + i;
    int b0 = m->geom_body[c->geom[0]], b1 = m->geom_body[c->geom[1]];
    d->efc_mu[i] = c->mu;
    int k0 = b0 > 0 ? m->body_lastdof[b0] : -1, k1 = m->body_lastdof[b1];
    int kd = k0 > k1 ? k0 : k1, ks = k0 > k1 ? k1 : k0;
    if (!paths) continue;
    if (kd < 0 ||
        (ks >= 0 && m->dof_Mcol[m->dof_Madr[kd] + m->dof_Mnum[kd] - m->dof_Mnum[ks]] != ks)) {
      paths = 0;
      continue;
    }
    chadr[i] = m->dof_Madr[kd];
    int nch = nchain[i] = m->dof_Mnum[kd];
    const int* ch = m->dof_Mcol + chadr[i];
    /* root paths that share their dof at depth L - 1 share all L dofs up to the root */
    const int* c0 = m->dof_Mcol + chadr[0] + nchain[0]; /* c0[-L]: depth L - 1 */
    if (i == 0) {
      nR = nch;
    } else if (nR > nch || ch[nch - nR] != c0[-nR]) {
      int L = nR < nch ? nR : nch;
      while (L > 0 && ch[nch - L] != c0[-L]) L--;
      nR = L;
    }
  }
  if (paths) {
    /* room in efc_Y for Xr (nR x ldr) and the own parts (3 sum m_i) */
    size_t need = (size_t)nR * (size_t)(n + (n & 1));
    for (int i = 0; i < nc; i++) need += 3 * (size_t)(nchain[i] - nR);
    paths = need <= (size_t)(3 * nc + 1) * (size_t)nv;
  }
  if (paths) {
    build_paths(m, d, vfree, chadr, nchain, nR, ownadr, za, zi);
  } else {
    int* chain = CSI_STACK_ALLOC(d, int, (size_t)nc* nv); /* (nc x nv) dof lists */
    int* single = CSI_STACK_ALLOC(d, int, nc);            /* the chain is one path to the root */
    double* sd = CSI_STACK_ALLOC(d, double, nv);          /* D^-1/2 */
    if (!chain || !single || !sd) {
      csi_stack_free(d, mark);
      p->nc = 0;
      return csi_error(CS_ERR_MEMORY, "contact problem: arena full (%d contacts)", nc);
    }
    for (int i = 0; i < nc; i++) {
      const csContact* c = d->contact + i;
      int b0 = m->geom_body[c->geom[0]], b1 = m->geom_body[c->geom[1]];
      int* ch = chain + (size_t)i * nv;
      int nch = nchain[i] = csi_contact_chain(m, b0, b1, ch);
      /* one path iff its first dof has all the others as ancestors (row length
       * of M) */
      single[i] = nch > 0 && m->dof_Mnum[ch[0]] == nch;
    }
    for (int k = 0; k < nv; k++) sd[k] = sqrt(d->qLDiagInv[k]);
    build_general(m, d, vfree, chain, nchain, single, sd, za);
  }
  csi_stack_free(d, mark);
  csStatus st = problem_finish(m, d);
  if (st != CS_OK) {
    p->nc = 0;
    return st;
  }
  p->nc = nc;
  p->nv = nv;
  p->mu = d->efc_mu;
  p->G = d->efc_G;
  p->g = d->efc_g;
  p->R = NULL;
  p->J = d->efc_J;
  return CS_OK;
}
