/* Composite rigid body algorithm and the sparse L^T D L factorisation of M (Featherstone,
   "Rigid Body Dynamics Algorithms", sec. 6.5). Row i of the sparse storage holds
   M_ii, M_i,parent(i), M_i,parent(parent(i)), ... (dof_Madr, dof_Mnum). */
#include <math.h>
#include <string.h>

#include "cs_error.h"
#include "cs_math.h"
#include "contactsim/cs_dynamics.h"

/* Free-joint translation dofs have the unit motion vector (0, e_k): their products are a
   single component. Returns k, or -1 for any other dof. */
static inline int cs_dof_translation_axis(const csModel* m, int dof) {
  int j = m->dof_jnt[dof];
  int k = dof - m->jnt_dofadr[j];
  return (m->jnt_type[j] == CS_JNT_FREE && k < 3) ? k : -1;
}

void cs_crba(const csModel* m, csData* d) {
  int nb = m->nbody;
  memcpy(d->crb, d->cinert, sizeof(double) * 10 * (size_t)nb);
  for (int k = nb - 1; k > 0; k--) {
    double* c = d->crb + 10 * m->body_parent[k];
    const double* s = d->crb + 10 * k;
    for (int r = 0; r < 10; r++) c[r] += s[r];
  }
  for (int i = 0; i < m->nv; i++) {
    double F[6];
    cs_inert_mul(F, d->crb + 10 * m->dof_body[i], d->cdof + 6 * i);
    double* row = d->qM + m->dof_Madr[i];
    row[0] = cs_dot(F, d->cdof + 6 * i, 6) + m->dof_armature[i];
    int t = 1;
    for (int j = m->dof_parent[i]; j >= 0; j = m->dof_parent[j]) {
      const double* S = d->cdof + 6 * j;
      int tr = cs_dof_translation_axis(m, j);
      row[t++] = tr >= 0 ? F[3 + tr] : F[0] * S[0] + F[1] * S[1] + F[2] * S[2] + F[3] * S[3] +
                                           F[4] * S[4] + F[5] * S[5];
    }
  }
}

csStatus cs_factor_m(const csModel* m, csData* d, const double* diag_add) {
  int nv = m->nv;
  double* L = d->qLD;
  const int* adr = m->dof_Madr;
  const int* num = m->dof_Mnum;
  memcpy(L, d->qM, sizeof(double) * (size_t)m->nM);
  if (diag_add)
    for (int i = 0; i < nv; i++) L[adr[i]] += diag_add[i];
  for (int k = nv - 1; k >= 0; k--) {
    double* rk = L + adr[k];
    double Dk = rk[0];
    if (!(Dk > 0)) {
      cs_warning(d, CS_WARN_SINGULAR, "mass matrix pivot %d is %g", k, Dk);
      return cs_error(CS_ERR_NUMERIC, "mass matrix not positive definite at dof %d (pivot %g)",
                      k, Dk);
    }
    double inv = 1.0 / Dk;
    int t = 1;
    for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i], t++) {
      double a = rk[t] * inv;
      double* ri = L + adr[i];
      const double* src = rk + t;
      int n = num[i];
      for (int s = 0; s < n; s++) ri[s] -= a * src[s];
      rk[t] = a;
    }
  }
  for (int i = 0; i < nv; i++) d->qLDiagInv[i] = 1.0 / L[adr[i]];
  return CS_OK;
}

void cs_solve_m(const csModel* m, const csData* d, double* x, const double* b, int nrhs) {
  int nv = m->nv;
  const double* L = d->qLD;
  const int* adr = m->dof_Madr;
  for (int r = 0; r < nrhs; r++, x += nv, b += nv) {
    if (x != b) memcpy(x, b, sizeof(double) * (size_t)nv);
    /* L^T y = b */
    for (int k = nv - 1; k >= 0; k--) {
      double xk = x[k];
      if (xk == 0) continue;
      const double* rk = L + adr[k];
      int t = 1;
      for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i], t++) x[i] -= rk[t] * xk;
    }
    for (int i = 0; i < nv; i++) x[i] *= d->qLDiagInv[i];
    /* L x = z */
    for (int k = 0; k < nv; k++) {
      const double* rk = L + adr[k];
      double s = x[k];
      int t = 1;
      for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i], t++) s -= rk[t] * x[i];
      x[k] = s;
    }
  }
}

void cs_mul_m(const csModel* m, const csData* d, double* y, const double* x) {
  int nv = m->nv;
  for (int i = 0; i < nv; i++) y[i] = 0;
  for (int i = 0; i < nv; i++) {
    const double* row = d->qM + m->dof_Madr[i];
    y[i] += row[0] * x[i];
    int t = 1;
    for (int j = m->dof_parent[i]; j >= 0; j = m->dof_parent[j], t++) {
      y[i] += row[t] * x[j];
      y[j] += row[t] * x[i];
    }
  }
}
