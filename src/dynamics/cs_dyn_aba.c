/* Articulated body algorithm (Featherstone, ch. 7) in world coordinates about the origin:
   no frame transforms are needed between bodies. A body's joints are treated together as
   one joint with nd = body_dofnum columns (the motion subspace cdof). */
#include <math.h>
#include <string.h>

#include "contactsim/cs_dynamics.h"
#include "core/cs_error.h"
#include "core/cs_memory.h"
#include "dynamics/cs_dyn.h"
#include "math/cs_math.h"

/* 10-number inertia -> full 6x6 (row-major). */
static void inert_full(double* A, const double* I) {
  const double m = I[0], *h = I + 1, *Io = I + 4;
  memset(A, 0, 36 * sizeof(double));
  A[0] = Io[0], A[7] = Io[1], A[14] = Io[2];
  A[1] = A[6] = Io[3], A[2] = A[12] = Io[4], A[8] = A[13] = Io[5];
  /* top-right [h]x, bottom-left [h]x^T */
  double H[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) {
      A[6 * r + 3 + c] = H[3 * r + c];
      A[6 * (3 + c) + r] = H[3 * r + c];
    }
  A[21] = A[28] = A[35] = m;
}

static void mat6_vec(double* r, const double* A, const double* v) {
  for (int i = 0; i < 6; i++) {
    const double* a = A + 6 * i;
    r[i] = a[0] * v[0] + a[1] * v[1] + a[2] * v[2] + a[3] * v[3] + a[4] * v[4] + a[5] * v[5];
  }
}

/* Cholesky of a small SPD matrix in place (lower); returns 0 on failure. */
static int chol_small(double* D, int n) {
  for (int j = 0; j < n; j++) {
    double s = D[n * j + j];
    for (int k = 0; k < j; k++) s -= D[n * j + k] * D[n * j + k];
    if (!(s > 0)) return 0;
    s = sqrt(s);
    D[n * j + j] = s;
    for (int i = j + 1; i < n; i++) {
      double t = D[n * i + j];
      for (int k = 0; k < j; k++) t -= D[n * i + k] * D[n * j + k];
      D[n * i + j] = t / s;
    }
  }
  return 1;
}
static void chol_solve_small(const double* L, int n, double* x) {
  for (int i = 0; i < n; i++) {
    double s = x[i];
    for (int k = 0; k < i; k++) s -= L[n * i + k] * x[k];
    x[i] = s / L[n * i + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = x[i];
    for (int k = i + 1; k < n; k++) s -= L[n * k + i] * x[k];
    x[i] = s / L[n * i + i];
  }
}

csStatus cs_aba(const csModel* m, csData* d, const double* tau, int flags, double* qacc) {
  int nb = m->nbody;
  size_t mark = csi_stack_mark(d);
  double* IA = CSI_STACK_ALLOC(d, double, 36 * nb);
  double* pA = CSI_STACK_ALLOC(d, double, 6 * nb);
  double* cb = CSI_STACK_ALLOC(d, double, 6 * nb);   /* velocity-product acceleration */
  double* U = CSI_STACK_ALLOC(d, double, 6 * m->nv); /* IA S, column per dof */
  double* Dl = CSI_STACK_ALLOC(d, double, 36 * nb);  /* Cholesky of S^T IA S per body */
  double* u = CSI_STACK_ALLOC(d, double, m->nv);
  double* acc = CSI_STACK_ALLOC(d, double, 6 * nb);
  if (!IA || !pA || !cb || !U || !Dl || !u || !acc) {
    csi_stack_free(d, mark);
    return csi_error(CS_ERR_MEMORY, "cs_aba: arena full");
  }
  int vel = flags & CS_RNE_VELOCITY;
  int damp = (flags & CS_RNE_DAMPING) && !(m->opt.disable & CS_DISABLE_DAMPING);
  for (int k = 1; k < nb; k++) {
    inert_full(IA + 36 * k, d->cinert + 10 * k);
    double* p = pA + 6 * k;
    double* c = cb + 6 * k;
    memset(c, 0, 6 * sizeof(double));
    if (vel) {
      double h[6];
      const double* v = d->cvel + 6 * k;
      csi_inert_mul(h, d->cinert + 10 * k, v);
      csi_cross_force(p, v, h);
      int da = m->body_dofadr[k], dn = m->body_dofnum[k];
      for (int i = da; i < da + dn; i++)
        for (int r = 0; r < 6; r++) c[r] += d->cdof_dot[6 * i + r] * d->qvel[i];
    } else {
      memset(p, 0, 6 * sizeof(double));
    }
  }
  memset(IA, 0, 36 * sizeof(double));
  memset(pA, 0, 6 * sizeof(double));
  /* backward pass */
  for (int k = nb - 1; k > 0; k--) {
    int da = m->body_dofadr[k], dn = m->body_dofnum[k];
    double* I = IA + 36 * k;
    double* p = pA + 6 * k;
    double* D = Dl + 36 * k;
    int par = m->body_parent[k];
    if (dn == 1) {
      /* one dof: D is a scalar (kept as is, not its Cholesky factor) */
      const double* S = d->cdof + 6 * da;
      double* Uk = U + 6 * da;
      mat6_vec(Uk, I, S);
      u[da] =
          (tau ? tau[da] : 0) - csi_dot(S, p, 6) - (damp ? m->dof_damping[da] * d->qvel[da] : 0);
      double Dk = csi_dot(S, Uk, 6) + m->dof_armature[da];
      if (!(Dk > 0)) {
        csi_stack_free(d, mark);
        csi_warning(d, CS_WARN_SINGULAR, "articulated inertia of body %d singular", k);
        return csi_error(CS_ERR_NUMERIC, "cs_aba: articulated inertia of body %d is singular", k);
      }
      D[0] = Dk;
      if (par == 0) continue;
      /* Ia = I - U U^T / D, pa = p + Ia c + U u / D, added to the parent */
      double inv = 1.0 / Dk, W[6], Ia[36], t[6];
      for (int r = 0; r < 6; r++) W[r] = Uk[r] * inv;
      for (int r = 0; r < 6; r++)
        for (int col = 0; col < 6; col++) Ia[6 * r + col] = I[6 * r + col] - Uk[r] * W[col];
      mat6_vec(t, Ia, cb + 6 * k);
      double* Ip = IA + 36 * par;
      double* pp = pA + 6 * par;
      double ud = u[da] * inv;
      for (int r = 0; r < 36; r++) Ip[r] += Ia[r];
      for (int r = 0; r < 6; r++) pp[r] += p[r] + t[r] + Uk[r] * ud;
      continue;
    }
    for (int a = 0; a < dn; a++) {
      const double* S = d->cdof + 6 * (da + a);
      mat6_vec(U + 6 * (da + a), I, S);
      u[da + a] = (tau ? tau[da + a] : 0) - csi_dot(S, p, 6) -
                  (damp ? m->dof_damping[da + a] * d->qvel[da + a] : 0);
    }
    for (int a = 0; a < dn; a++)
      for (int b2 = 0; b2 < dn; b2++)
        D[dn * a + b2] = csi_dot(d->cdof + 6 * (da + a), U + 6 * (da + b2), 6) +
                         (a == b2 ? m->dof_armature[da + a] : 0);
    if (!chol_small(D, dn)) {
      csi_stack_free(d, mark);
      csi_warning(d, CS_WARN_SINGULAR, "articulated inertia of body %d singular", k);
      return csi_error(CS_ERR_NUMERIC, "cs_aba: articulated inertia of body %d is singular", k);
    }
    if (par == 0) continue;
    /* Ia = I - U D^-1 U^T, pa = p + Ia c + U D^-1 u */
    double W[36]; /* D^-1 U^T, dn x 6 */
    for (int col = 0; col < 6; col++) {
      double x[6];
      for (int a = 0; a < dn; a++) x[a] = U[6 * (da + a) + col];
      chol_solve_small(D, dn, x);
      for (int a = 0; a < dn; a++) W[6 * a + col] = x[a];
    }
    double Ia[36];
    for (int r = 0; r < 6; r++)
      for (int col = 0; col < 6; col++) {
        double s = I[6 * r + col];
        for (int a = 0; a < dn; a++) s -= U[6 * (da + a) + r] * W[6 * a + col];
        Ia[6 * r + col] = s;
      }
    double pa[6], t[6], x[6];
    mat6_vec(t, Ia, cb + 6 * k);
    for (int a = 0; a < dn; a++) x[a] = u[da + a];
    chol_solve_small(D, dn, x);
    for (int r = 0; r < 6; r++) {
      double s = p[r] + t[r];
      for (int a = 0; a < dn; a++) s += U[6 * (da + a) + r] * x[a];
      pa[r] = s;
    }
    double* Ip = IA + 36 * par;
    double* pp = pA + 6 * par;
    for (int r = 0; r < 36; r++) Ip[r] += Ia[r];
    for (int r = 0; r < 6; r++) pp[r] += pa[r];
  }
  /* forward pass */
  csi_world_acc(m, acc, flags & CS_RNE_GRAVITY);
  for (int k = 1; k < nb; k++) {
    int da = m->body_dofadr[k], dn = m->body_dofnum[k];
    double* a = acc + 6 * k;
    const double* ap = acc + 6 * m->body_parent[k];
    for (int r = 0; r < 6; r++) a[r] = ap[r] + cb[6 * k + r];
    double x[6];
    for (int i = 0; i < dn; i++) x[i] = u[da + i] - csi_dot(U + 6 * (da + i), a, 6);
    if (dn == 1)
      x[0] /= Dl[36 * k];
    else
      chol_solve_small(Dl + 36 * k, dn, x);
    for (int i = 0; i < dn; i++) {
      qacc[da + i] = x[i];
      for (int r = 0; r < 6; r++) a[r] += d->cdof[6 * (da + i) + r] * x[i];
    }
  }
  csi_stack_free(d, mark);
  return CS_OK;
}
