/* Composite rigid body algorithm and the sparse L^T D L factorisation of M (Featherstone,
   "Rigid Body Dynamics Algorithms", sec. 6.5). Row i of the sparse storage holds
   M_ii, M_i,parent(i), M_i,parent(parent(i)), ... (dof_Madr, dof_Mnum). */
#include <math.h>
#include <string.h>

#include "core/cs_error.h"
#include "dynamics/cs_dyn.h"
#include "math/cs_math.h"

/* y[0..n) -= a x[0..n) for non-overlapping rows of one array. */
static inline void sub_scaled(double* restrict y, const double* restrict x, double a, int n) {
  cs_v2 av = {a, a};
  int s = 0;
  for (; s + 1 < n; s += 2) { /* short rows: pairs without the vectoriser's prologue */
    csi_v2_store(y + s, csi_v2_load(y + s) - av * csi_v2_load(x + s));
  }
  if (s < n) y[s] -= a * x[s];
}

/* Row i of M (and with bias the bias force of dof i from the subtree forces d->cfrc),
   from the composite inertias d->crb */
static CSI_INLINE void crba_row(const csModel* m, csData* d, int i, int bias) {
  const double* restrict cdof = d->cdof;
  const int* restrict tran = m->dof_tran;
  const int* restrict dbody = m->dof_body;
  double F[6];
  const double* Si = cdof + 6 * i;
  csi_inert_mul(F, d->crb + 10 * dbody[i], Si);
  int n = m->dof_Mnum[i];
  double* restrict row = d->qM + m->dof_Madr[i];
  const int* col = m->dof_Mcol + m->dof_Madr[i];
  row[0] = csi_dot6(F, Si) + m->dof_armature[i];
  if (bias) { /* cs_rnea's tau_i = S_i . f_body(i) */
    d->qfrc_bias[i] = csi_dof_dot(d->cfrc + 6 * dbody[i], Si, tran[i]);
  }
  int nt = n;
  if (m->dof_Mown[i] < n) {
    /* the last 6 ancestors are the dofs of a free root body (columns r+5, ..., r):
       rotations S = (a, p x a) about the axes a through its origin p, then translations
       S = (0, e_k). S . F = a . (F_ang + F_lin x p) */
    int r0 = col[n - 1];
    const double* p = d->xpos + 3 * dbody[r0];
    double g0 = F[0] + (F[4] * p[2] - F[5] * p[1]);
    double g1 = F[1] + (F[5] * p[0] - F[3] * p[2]);
    double g2 = F[2] + (F[3] * p[1] - F[4] * p[0]);
    double* tail = row + n - 6;
    for (int c = 0; c < 3; c++) {
      const double* a = cdof + 6 * (r0 + 5 - c);
      tail[c] = a[0] * g0 + a[1] * g1 + a[2] * g2;
    }
    tail[3] = F[5], tail[4] = F[4], tail[5] = F[3];
    nt = n - 6;
  }
  for (int t = 1; t < nt; t++) {
    int j = col[t];
    row[t] = csi_dof_dot(F, cdof + 6 * j, tran[j]);
  }
}

/* crba_row for the dofs ia, ib of two revolute bodies whose rows have the same length,
   the same own part and the same free root block (if any), one in each lane of a vector:
   per lane the operations of crba_row */
CSI_HOT static inline void cs_crba_row2(const csModel* m, csData* d, int ia, int ib, int bias) {
  const double* restrict cdof = d->cdof;
  const int* restrict tran = m->dof_tran;
  const int* restrict dbody = m->dof_body;
  const double *Sa = cdof + 6 * ia, *Sb = cdof + 6 * ib;
  const double *Ca = d->crb + 10 * dbody[ia], *Cb = d->crb + 10 * dbody[ib];
  cs_v2 I[10], S[6], F[6];
  for (int r = 0; r < 10; r++) I[r] = (cs_v2){Ca[r], Cb[r]};
  for (int r = 0; r < 6; r++) S[r] = (cs_v2){Sa[r], Sb[r]};
  csi_inert_mul_v2(F, I, S);
  int n = m->dof_Mnum[ia];
  double* restrict rowa = d->qM + m->dof_Madr[ia];
  double* restrict rowb = d->qM + m->dof_Madr[ib];
  const int* cola = m->dof_Mcol + m->dof_Madr[ia];
  const int* colb = m->dof_Mcol + m->dof_Madr[ib];
  cs_v2 arm = {m->dof_armature[ia], m->dof_armature[ib]};
  cs_v2 dg =
      F[0] * S[0] + F[1] * S[1] + F[2] * S[2] + F[3] * S[3] + F[4] * S[4] + F[5] * S[5] + arm;
  rowa[0] = dg[0], rowb[0] = dg[1];
  if (bias) { /* revolute: no translation dof */
    const double *fa = d->cfrc + 6 * dbody[ia], *fb = d->cfrc + 6 * dbody[ib];
    cs_v2 f[6];
    for (int r = 0; r < 6; r++) f[r] = (cs_v2){fa[r], fb[r]};
    cs_v2 tau = f[0] * S[0] + f[1] * S[1] + f[2] * S[2] + f[3] * S[3] + f[4] * S[4] + f[5] * S[5];
    d->qfrc_bias[ia] = tau[0], d->qfrc_bias[ib] = tau[1];
  }
  int nt = n;
  if (m->dof_Mown[ia] < n) {
    int r0 = cola[n - 1]; /* = colb[n - 1] */
    const double* p = d->xpos + 3 * dbody[r0];
    cs_v2 p0 = {p[0], p[0]}, p1 = {p[1], p[1]}, p2 = {p[2], p[2]};
    cs_v2 g0 = F[0] + (F[4] * p2 - F[5] * p1);
    cs_v2 g1 = F[1] + (F[5] * p0 - F[3] * p2);
    cs_v2 g2 = F[2] + (F[3] * p1 - F[4] * p0);
    double *ta = rowa + n - 6, *tb = rowb + n - 6;
    for (int c = 0; c < 3; c++) {
      const double* a = cdof + 6 * (r0 + 5 - c);
      cs_v2 v = (cs_v2){a[0], a[0]} * g0 + (cs_v2){a[1], a[1]} * g1 + (cs_v2){a[2], a[2]} * g2;
      ta[c] = v[0], tb[c] = v[1];
    }
    ta[3] = F[5][0], ta[4] = F[4][0], ta[5] = F[3][0];
    tb[3] = F[5][1], tb[4] = F[4][1], tb[5] = F[3][1];
    nt = n - 6;
  }
  for (int t = 1; t < nt; t++) {
    int ja = cola[t], jb = colb[t];
    int tra = tran[ja], trb = tran[jb];
    if (tra < 0 && trb < 0) {
      const double *A = cdof + 6 * ja, *B = cdof + 6 * jb;
      cs_v2 v = F[0] * (cs_v2){A[0], B[0]} + F[1] * (cs_v2){A[1], B[1]} +
                F[2] * (cs_v2){A[2], B[2]} + F[3] * (cs_v2){A[3], B[3]} +
                F[4] * (cs_v2){A[4], B[4]} + F[5] * (cs_v2){A[5], B[5]};
      rowa[t] = v[0], rowb[t] = v[1];
    } else { /* a free joint's translation dof in one lane at least: lane by lane */
      for (int lane = 0; lane < 2; lane++) {
        int j = lane ? jb : ja, tr = lane ? trb : tra;
        double* row = lane ? rowb : rowa;
        double Fl[6] = {F[0][lane], F[1][lane], F[2][lane], F[3][lane], F[4][lane], F[5][lane]};
        row[t] = csi_dof_dot(Fl, cdof + 6 * j, tr);
      }
    }
  }
}

/* cs_crba; with bias also the rest of cs_rnea's bias forces (csi_crba_bias) */
CSI_HOT static inline void crba_impl(const csModel* m, csData* d, int bias) {
  int nb = m->nbody;
  double* restrict crb = d->crb;
  double* restrict frc = d->cfrc;
  const int* restrict Mcol = m->dof_Mcol;
  const int* restrict adr = m->dof_Madr;
  const int* restrict num = m->dof_Mnum;
  const int* restrict own = m->dof_Mown;
  if (!bias) memcpy(crb, d->cinert, sizeof(double) * 10 * (size_t)nb); /* else done */
  /* composite inertias, leaves first; in pairs of doubles (a body's 10 numbers start at an
     even index); with bias the subtree forces too (cs_rnea's backward pass) */
  const int* restrict order = m->body_order;
  for (int o = nb - 1; o > 0; o--) { /* reverse breadth-first: siblings are independent */
    int k = order[o];
    int p = m->body_parent[k];
    csi_add_v2(crb + 10 * p, crb + 10 * k, 10);
    if (bias && p > 0) csi_add_v2(frc + 6 * p, frc + 6 * k, 6);
  }
  /* the rows of M (and bias forces), independent per dof: two revolute bodies next to each
     other in the breadth-first order whose rows have the same shape (legs of a robot) in
     the two lanes of a vector */
  for (int o = 1; o < nb; o++) {
    int k = order[o];
    int da = m->body_dofadr[k];
    if (m->body_kind[k] == CS_BODY_REVOLUTE && o + 1 < nb) {
      int k2 = order[o + 1];
      int db = m->body_dofadr[k2];
      int n = num[da];
      if (m->body_kind[k2] == CS_BODY_REVOLUTE && num[db] == n && own[db] == own[da] &&
          (own[da] == n || Mcol[adr[da] + n - 1] == Mcol[adr[db] + n - 1])) {
        cs_crba_row2(m, d, da, db, bias);
        o++;
        continue;
      }
    }
    for (int i = da; i < da + m->body_dofnum[k]; i++) crba_row(m, d, i, bias);
  }
}

void cs_crba(const csModel* m, csData* d) { crba_impl(m, d, 0); }

void csi_crba_bias(const csModel* m, csData* d) { crba_impl(m, d, 1); }

/* r[0..1] -= a X */
static inline void sub2(double* r, double a, cs_v2 X) {
  csi_v2_store(r, csi_v2_load(r) - (cs_v2){a, a} * X);
}

/* L^T D L of the dense block of a free root body's 6 dofs, packed as stored: row j (dof r+j)
   of length j+1 at off(j) = j(j+1)/2 holds M_jj, M_j,j-1, ..., M_j0. Its rows were already
   updated by every descendant. Returns the failing row j or -1. */
static inline int factor_free_row(double* restrict R, double* restrict dinv, int j) {
  double* rj = R + j * (j + 1) / 2;
  double Dj = rj[0];
  if (!(Dj > 0)) return 0;
  double inv = 1.0 / Dj;
  dinv[j] = inv;
  for (int t = 1; t <= j; t++) {
    int c = j - t;
    double a = rj[t] * inv;
    double* rc = R + c * (c + 1) / 2;
    for (int s = 0; s <= c; s++) rc[s] -= a * rj[t + s];
    rj[t] = a;
  }
  return 1;
}

static CSI_INLINE int factor_free_block(double* restrict R, double* restrict dinv) {
  /* row by row with a constant row index: straight-line code after inlining */
  if (!factor_free_row(R, dinv, 5)) return 5;
  if (!factor_free_row(R, dinv, 4)) return 4;
  if (!factor_free_row(R, dinv, 3)) return 3;
  if (!factor_free_row(R, dinv, 2)) return 2;
  if (!factor_free_row(R, dinv, 1)) return 1;
  if (!factor_free_row(R, dinv, 0)) return 0;
  return -1;
}

CSI_HOT csStatus cs_factor_m(const csModel* m, csData* d, const double* diag_add) {
  int nv = m->nv;
  double* restrict L = d->qLD;
  double* restrict dinv = d->qLDiagInv;
  const int* restrict adr = m->dof_Madr;
  const int* restrict num = m->dof_Mnum;
  const int* restrict Mcol = m->dof_Mcol;
  const int* restrict tran = m->dof_tran;
  const int* restrict own = m->dof_Mown;
  memcpy(L, d->qM, sizeof(double) * (size_t)m->nM);
  if (diag_add)
    for (int i = 0; i < nv; i++) L[adr[i]] += diag_add[i];
  /* row k: D_k, then L_k,anc for the ancestors; eliminating k updates every ancestor row
     (row i = the t-th ancestor of k lines up with row k from position t on) */
  for (int k = nv - 1; k >= 0; k--) {
    double* rk = L + adr[k];
    const int* col = Mcol + adr[k];
    int n = num[k];
    if (n == 6 && tran[col[5]] == 0) {
      /* k is the last dof of a free root body (k = r+5) */
      double* R = L + adr[col[5]];
      int j = factor_free_block(R, dinv + col[5]);
      if (j >= 0) {
        k = col[5] + j;
        double Dk = L[adr[k]];
        csi_warning(d, CS_WARN_SINGULAR, "mass matrix pivot %d is %g", k, Dk);
        return csi_error(CS_ERR_NUMERIC, "mass matrix not positive definite at dof %d (pivot %g)",
                         k, Dk);
      }
      k = col[5]; /* continue below r */
      continue;
    }
    double Dk = rk[0];
    if (!(Dk > 0)) {
      csi_warning(d, CS_WARN_SINGULAR, "mass matrix pivot %d is %g", k, Dk);
      return csi_error(CS_ERR_NUMERIC, "mass matrix not positive definite at dof %d (pivot %g)", k,
                       Dk);
    }
    double inv = 1.0 / Dk;
    dinv[k] = inv;
    int nt = own[k]; /* positions 1..nt-1 by the general loop */
    int root = nt < n;
    for (int t = 1; t < nt; t++) {
      double a = rk[t] * inv;
      sub_scaled(L + adr[col[t]], rk + t, a, n - t);
      rk[t] = a;
    }
    if (root) {
      /* the last 6 ancestors are the 6 dofs of a free root body (columns r+5, ..., r):
         their rows form a dense packed block, row r+j of length j+1 at R + j(j+1)/2 */
      double* R = L + adr[col[n - 1]];
      double* w = rk + n - 6; /* w[u]: column r+5-u */
      /* scalars, not a local array: GCC would spill it and reload pairs (store-forwarding
         stalls) */
      double x5 = w[0], x4 = w[1], x3 = w[2], x2 = w[3], x1 = w[4], x0 = w[5]; /* column */
      double a0 = x0 * inv, a1 = x1 * inv, a2 = x2 * inv, a3 = x3 * inv, a4 = x4 * inv,
             a5 = x5 * inv;
      /* row j of the block less a_j (x_j, ..., x_0), two entries to a vector */
      cs_v2 X01 = {x5, x4}, X12 = {x4, x3}, X23 = {x3, x2}, X34 = {x2, x1}, X45 = {x1, x0};
      R[0] -= a0 * x0;
      sub2(R + 1, a1, X45);
      sub2(R + 3, a2, X34), R[5] -= a2 * x0;
      sub2(R + 6, a3, X23), sub2(R + 8, a3, X45);
      sub2(R + 10, a4, X12), sub2(R + 12, a4, X34), R[14] -= a4 * x0;
      sub2(R + 15, a5, X01), sub2(R + 17, a5, X23), sub2(R + 19, a5, X45);
      w[0] = a5, w[1] = a4, w[2] = a3, w[3] = a2, w[4] = a1, w[5] = a0;
    }
  }
  return CS_OK;
}

/* x[0..5] = (xb10[1], xb10[0], xb32[1], xb32[0], xb54[1], xb54[0]) */
static inline void solve_root_store(double* x, cs_v2 xb54, cs_v2 xb32, cs_v2 xb10) {
  x[0] = xb10[1], x[1] = xb10[0], x[2] = xb32[1], x[3] = xb32[0], x[4] = xb54[1], x[5] = xb54[0];
}

CSI_HOT void cs_solve_m(const csModel* m, const csData* d, double* x, const double* b, int nrhs) {
  int nv = m->nv;
  const double* L = d->qLD;
  const int* adr = m->dof_Madr;
  const int* num = m->dof_Mnum;
  const int* Mcol = m->dof_Mcol;
  const int* own = m->dof_Mown;
  const double* restrict dinv = d->qLDiagInv;
  /* the ancestors of each row from dof_Mcol (independent index loads, not a walk along
     dof_parent, whose dependent loads made this the slowest part of the step's dynamics);
     the same operations in the same order as that walk */
  for (int r = 0; r < nrhs; r++, x += nv, b += nv) {
    if (x != b) memcpy(x, b, sizeof(double) * (size_t)nv);
    /* L^T y = b. The six dofs of a free root (r..r+5) end the row of every dof below it
       (..., r+5, r+4, ..., r) and take the updates of all of them: they are kept in
       registers (xb) from the first such row until the root's own rows, in the same order of
       operations as in memory, instead of a chain of stores and reloads of the same six
       entries. */
    cs_v2 xb54 = {0, 0}, xb32 = {0, 0}, xb10 = {0, 0}; /* (xb[5], xb[4]), ... */
    int r0 = -1;
    /* ck, cv: x[ck] = cv just stored by the row before, when ck is its parent k - 1 (a
       chain): the next row takes it from the register, not through memory */
    int ck = -1;
    double cv = 0;
    for (int k = nv - 1; k >= 0; k--) {
      if (r0 >= 0 && k == r0 + 5) { /* the root's own rows: its entries back to memory */
        solve_root_store(x + r0, xb54, xb32, xb10);
        r0 = -2;
        ck = -1;
      }
      double xk = k == ck ? cv : x[k];
      if (xk == 0) continue;
      const double* rk = L + adr[k];
      const int* col = Mcol + adr[k];
      int n = num[k];
      int nt = own[k];
      if (nt < n && r0 != -2 && (r0 < 0 || col[n - 1] == r0)) {
        if (r0 < 0) {
          r0 = col[n - 1];
          const double* xr = x + r0;
          xb54 = (cs_v2){xr[5], xr[4]}, xb32 = (cs_v2){xr[3], xr[2]};
          xb10 = (cs_v2){xr[1], xr[0]};
        }
        int t = 1;
        if (nt > 1 && col[1] == k - 1) {
          cv = x[k - 1] - rk[1] * xk;
          x[k - 1] = cv, ck = k - 1, t = 2;
        }
        for (; t < nt; t++) x[col[t]] -= rk[t] * xk;
        const double* rb = rk + n - 6; /* dofs r0+5, ..., r0 */
        cs_v2 xv = {xk, xk};
        xb54 -= csi_v2_load(rb) * xv;
        xb32 -= csi_v2_load(rb + 2) * xv;
        xb10 -= csi_v2_load(rb + 4) * xv;
        continue;
      }
      for (int t = 1; t < n; t++) x[col[t]] -= rk[t] * xk;
    }
    if (r0 >= 0) solve_root_store(x + r0, xb54, xb32, xb10);
    for (int i = 0; i < nv; i++) x[i] *= dinv[i];
    /* L x = z. Below a free root the row's six root terms are summed as a tree, off the
       chain of the others' subtractions (the order of a sum, so rounding-level changes). */
    double pv = 0; /* x[k - 1], the row before's result, for a row whose parent it is */
    for (int k = 0; k < nv; k++) {
      const double* rk = L + adr[k];
      const int* col = Mcol + adr[k];
      double s = x[k];
      int n = num[k], nt = own[k];
      if (nt < n) {
        const double* rb = rk + nt;
        const double* xr = x + col[n - 1]; /* dofs r, ..., r+5 */
        double sb = (rb[0] * xr[5] + rb[1] * xr[4]) + (rb[2] * xr[3] + rb[3] * xr[2]) +
                    (rb[4] * xr[1] + rb[5] * xr[0]);
        int t = 1;
        if (nt > 1 && col[1] == k - 1) s -= rk[1] * pv, t = 2;
        for (; t < nt; t++) s -= rk[t] * x[col[t]];
        x[k] = pv = s - sb;
        continue;
      }
      int t = 1;
      if (n > 1 && col[1] == k - 1) s -= rk[1] * pv, t = 2;
      for (; t < n; t++) s -= rk[t] * x[col[t]];
      x[k] = pv = s;
    }
  }
}

CSI_HOT void cs_mul_m(const csModel* m, const csData* d, double* y_, const double* x_) {
  double* restrict y = y_; /* y and x never overlapped (y is zeroed first) */
  const double* restrict x = x_;
  int nv = m->nv;
  const int* adr = m->dof_Madr;
  const int* num = m->dof_Mnum;
  const int* Mcol = m->dof_Mcol;
  const int* own = m->dof_Mown;
  for (int i = 0; i < nv; i++) y[i] = 0;
  /* the ancestors of row i from dof_Mcol (independent loads, not a walk along dof_parent);
     y[i] in a register: no row before i adds to it (its descendants come after). The
     entries of a free root (r..r+5) that the rows below it add to are kept in registers
     (yb: (y[r+5], y[r+4]), (y[r+3], y[r+2]), (y[r+1], y[r])) from the first such row on,
     in the same order of additions */
  int rc = -1;
  cs_v2 yb54 = {0, 0}, yb32 = {0, 0}, yb10 = {0, 0};
  for (int i = 0; i < nv; i++) {
    const double* row = d->qM + adr[i];
    const int* col = Mcol + adr[i];
    int n = num[i], nt = own[i];
    double xi = x[i], yi = y[i];
    yi += row[0] * xi;
    for (int t = 1; t < nt; t++) {
      int j = col[t];
      yi += row[t] * x[j];
      y[j] += row[t] * xi;
    }
    if (nt < n) {
      int r = col[n - 1];
      if (r != rc) {
        if (rc >= 0) solve_root_store(y + rc, yb54, yb32, yb10);
        rc = r;
        yb54 = (cs_v2){y[r + 5], y[r + 4]}, yb32 = (cs_v2){y[r + 3], y[r + 2]};
        yb10 = (cs_v2){y[r + 1], y[r]};
      }
      const double* rb = row + nt; /* dofs r+5, ..., r */
      const double* xr = x + r;
      yi += rb[0] * xr[5], yi += rb[1] * xr[4], yi += rb[2] * xr[3];
      yi += rb[3] * xr[2], yi += rb[4] * xr[1], yi += rb[5] * xr[0];
      cs_v2 xv = {xi, xi};
      yb54 += csi_v2_load(rb) * xv;
      yb32 += csi_v2_load(rb + 2) * xv;
      yb10 += csi_v2_load(rb + 4) * xv;
    }
    y[i] = yi;
  }
  if (rc >= 0) solve_root_store(y + rc, yb54, yb32, yb10);
}
