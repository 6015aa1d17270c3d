/* Finite-difference derivatives of one step (as MuJoCo's mjd_transitionFD): the state
   x = (qpos in the tangent space, qvel), A = d x+ / d x, B = d x+ / d ctrl. Every perturbed
   step starts from the same full state (cs_get_state, cs_set_state: the warm start too). */
#include <math.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "core/cs_error.h"
#include "math/cs_math.h"

/* dq (nv) = the tangent from q1 to q2 over scale: q2 = q1 (+) dq scale (cs_integrate_pos);
   orientations by the body-frame rotation vector of conj(q1) q2 */
static void pos_diff(const csModel* m, double* dq, const double* q1, const double* q2,
                     double scale) {
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j], a = m->jnt_qposadr[j], v = m->jnt_dofadr[j];
    if (t == CS_JNT_FREE) {
      for (int k = 0; k < 3; k++) dq[v + k] = (q2[a + k] - q1[a + k]) / scale;
      a += 3, v += 3;
    }
    if (t != CS_JNT_FREE && t != CS_JNT_BALL) {
      dq[v] = (q2[a] - q1[a]) / scale;
      continue;
    }
    const double* p = q1 + a;
    double c[4] = {p[0], -p[1], -p[2], -p[3]}, r[4];
    csi_quat_mul(r, c, q2 + a);
    if (r[0] < 0)
      for (int k = 0; k < 4; k++) r[k] = -r[k];
    double s = sqrt(r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    double f = s > 0 ? 2 * atan2(s, r[0]) / s : 2;
    for (int k = 0; k < 3; k++) dq[v + k] = f * r[1 + k] / scale;
  }
}

/* One step from state s with the perturbation applied by kind (0: none, 1: qpos along dof i,
   2: qvel i, 3: ctrl i) of size h; the result x+ = (qpos, qvel) into qn, vn */
static csStatus perturbed(const csModel* m, csData* d, const double* s, int kind, int i, double h,
                          double* qn, double* vn, double* tan) {
  csStatus st = cs_set_state(m, d, s);
  if (st != CS_OK) return st;
  if (kind == 1) {
    memset(tan, 0, sizeof(double) * (size_t)m->nv);
    tan[i] = 1;
    cs_integrate_pos(m, d->qpos, d->qpos, tan, h);
  } else if (kind == 2) {
    d->qvel[i] += h;
  } else if (kind == 3) {
    d->ctrl[i] += h;
  }
  st = cs_step(m, d);
  memcpy(qn, d->qpos, sizeof(double) * (size_t)m->nq);
  memcpy(vn, d->qvel, sizeof(double) * (size_t)m->nv);
  return st;
}

/* Scratch of cs_transition_fd */
typedef struct fdWork {
  double *s, *q0, *v0, *qp, *vp, *qm, *vm, *tan, *col;
} fdWork;

/* Column (2nv) of the derivative along input (kind, i): centered or against the nominal x+ */
static csStatus fd_column(const csModel* m, csData* d, fdWork* w, int kind, int i, double eps,
                          int centered) {
  int nv = m->nv;
  csStatus st = perturbed(m, d, w->s, kind, i, eps, w->qp, w->vp, w->tan);
  if (st == CS_OK && centered) st = perturbed(m, d, w->s, kind, i, -eps, w->qm, w->vm, w->tan);
  if (st != CS_OK) return st;
  const double* qa = centered ? w->qm : w->q0;
  const double* va = centered ? w->vm : w->v0;
  double h = centered ? 2 * eps : eps;
  pos_diff(m, w->col, qa, w->qp, h);
  for (int k = 0; k < nv; k++) w->col[nv + k] = (w->vp[k] - va[k]) / h;
  return CS_OK;
}

/* The derivatives into A (kind 1, 2) and B (kind 3), column by column */
static csStatus fd_all(const csModel* m, csData* d, fdWork* w, double eps, int centered, double* A,
                       double* B) {
  int nv = m->nv, nx = 2 * nv;
  csStatus st = CS_OK;
  if (!centered) st = perturbed(m, d, w->s, 0, 0, 0, w->q0, w->v0, w->tan);
  for (int c = 0; A && st == CS_OK && c < nx; c++) {
    st = fd_column(m, d, w, c < nv ? 1 : 2, c % nv, eps, centered);
    for (int r = 0; st == CS_OK && r < nx; r++) A[(size_t)r * nx + c] = w->col[r];
  }
  for (int c = 0; B && st == CS_OK && c < m->nu; c++) {
    st = fd_column(m, d, w, 3, c, eps, centered);
    for (int r = 0; st == CS_OK && r < nx; r++) B[(size_t)r * m->nu + c] = w->col[r];
  }
  return st;
}

csStatus cs_transition_fd(const csModel* m, csData* d, double eps, int centered, double* A,
                          double* B) {
  if (!m || !d) return csi_error(CS_ERR_ARG, "cs_transition_fd: NULL model or data");
  if (!(eps > 0) || !isfinite(eps))
    return csi_error(CS_ERR_ARG, "cs_transition_fd: eps = %g must be finite and > 0", eps);
  int nq = m->nq, nv = m->nv, ns = cs_state_size(m);
  size_t n = (size_t)ns + 3 * (size_t)nq + 5 * (size_t)nv + 2 * (size_t)nv;
  double* buf = csi_calloc(n, sizeof(double));
  if (!buf) return csi_error(CS_ERR_MEMORY, "cs_transition_fd: out of memory (%zu doubles)", n);
  fdWork w = {buf, 0, 0, 0, 0, 0, 0, 0, 0};
  w.q0 = w.s + ns, w.qp = w.q0 + nq, w.qm = w.qp + nq;
  w.v0 = w.qm + nq, w.vp = w.v0 + nv, w.vm = w.vp + nv, w.tan = w.vm + nv, w.col = w.tan + nv;
  cs_get_state(m, d, w.s);
  long nstep = d->nstep;
  csWarning warn[CS_WARN_COUNT];
  memcpy(warn, d->warning, sizeof warn);
  csStatus st = fd_all(m, d, &w, eps, centered, A, B);
  cs_set_state(m, d, w.s);
  d->nstep = nstep;
  memcpy(d->warning, warn, sizeof warn);
  cs_free(buf);
  return st;
}
