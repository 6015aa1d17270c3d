/* Forward kinematics, motion subspaces (cdof), body inertias (cinert), velocities.
   Spatial vectors are [angular; linear] about the world origin. */
#include <string.h>

#include "cs_math.h"
#include "contactsim/cs_dynamics.h"

/* Set the dof motion vector for a rotation about unit world axis a through point p. */
static inline void cs_dof_rot(double* S, const double* a, const double* p) {
  S[0] = a[0], S[1] = a[1], S[2] = a[2];
  cs_cross3(S + 3, p, a);
}

void cs_kinematics(const csModel* m, csData* d) {
  const double* qpos = d->qpos;
  d->xpos[0] = d->xpos[1] = d->xpos[2] = 0;
  cs_quat_identity(d->xquat);
  static const double I9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  memcpy(d->xmat, I9, sizeof I9);
  for (int k = 1; k < m->nbody; k++) {
    int p = m->body_parent[k];
    double* xp = d->xpos + 3 * k;
    double* xq = d->xquat + 4 * k;
    double* xm = d->xmat + 9 * k;
    int ja = m->body_jntadr[k], jn = m->body_jntnum[k];
    if (jn == 1 && m->jnt_type[ja] == CS_JNT_FREE) {
      const double* q = qpos + m->jnt_qposadr[ja];
      cs_copy3(xp, q);
      memcpy(xq, q + 3, 4 * sizeof(double));
      cs_quat_normalize(xq);
      cs_quat2mat(xm, xq);
      cs_copy3(d->xanchor + 3 * ja, xp);
      cs_zero(d->xaxis + 3 * ja, 3);
      double* S = d->cdof + 6 * m->jnt_dofadr[ja];
      /* translation: world axes; rotation: body axes through the body origin */
      cs_zero(S, 18);
      S[3] = S[10] = S[17] = 1;
      for (int c = 0; c < 3; c++) {
        double a[3] = {xm[c], xm[3 + c], xm[6 + c]};
        cs_dof_rot(S + 18 + 6 * c, a, xp);
      }
    } else {
      double t[3];
      const double* pm = d->xmat + 9 * p;
      cs_mulmat3vec(t, pm, m->body_pos + 3 * k);
      cs_add3(xp, d->xpos + 3 * p, t);
      cs_quat_mul(xq, d->xquat + 4 * p, m->body_quat + 4 * k);
      cs_quat2mat(xm, xq);
      for (int j = ja; j < ja + jn; j++) {
        const double* q = qpos + m->jnt_qposadr[j];
        double* anchor = d->xanchor + 3 * j;
        double* axis = d->xaxis + 3 * j;
        double* S = d->cdof + 6 * m->jnt_dofadr[j];
        cs_mulmat3vec(t, xm, m->jnt_pos + 3 * j);
        cs_add3(anchor, xp, t);
        cs_mulmat3vec(axis, xm, m->jnt_axis + 3 * j);
        switch (m->jnt_type[j]) {
          case CS_JNT_REVOLUTE: {
            /* unit times unit quaternion: no renormalisation needed (rounding only) */
            double dq[4];
            const double* jp = m->jnt_pos + 3 * j;
            cs_dof_rot(S, axis, anchor);
            cs_axisangle2quat(dq, m->jnt_axis + 3 * j, q[0]);
            cs_quat_mul(xq, xq, dq);
            cs_quat2mat(xm, xq);
            if (jp[0] != 0 || jp[1] != 0 || jp[2] != 0) { /* keep the anchor fixed */
              cs_mulmat3vec(t, xm, jp);
              cs_sub3(xp, anchor, t);
            }
            break;
          }
          case CS_JNT_PRISMATIC:
            S[0] = S[1] = S[2] = 0;
            cs_copy3(S + 3, axis);
            cs_addscl3(xp, axis, q[0]);
            break;
          case CS_JNT_BALL: {
            double dq[4] = {q[0], q[1], q[2], q[3]};
            cs_quat_normalize(dq);
            cs_quat_mul(xq, xq, dq);
            cs_quat_normalize(xq);
            cs_quat2mat(xm, xq);
            cs_mulmat3vec(t, xm, m->jnt_pos + 3 * j);
            cs_sub3(xp, anchor, t);
            for (int c = 0; c < 3; c++) {
              double a[3] = {xm[c], xm[3 + c], xm[6 + c]};
              cs_dof_rot(S + 6 * c, a, anchor);
            }
            break;
          }
          default: break;
        }
      }
    }
    double t[3];
    cs_mulmat3vec(t, xm, m->body_ipos + 3 * k);
    cs_add3(d->xipos + 3 * k, xp, t);
  }
}

/* World poses of n frames attached to bodies (geoms, sites): pos/quat in the body frame. */
static void cs_attached_poses(const csData* d, int n, const int* body, const double* pos,
                              const double* quat, double* xpos, double* xmat) {
  for (int i = 0; i < n; i++) {
    const double* xm = d->xmat + 9 * body[i];
    double t[3], R[9];
    cs_mulmat3vec(t, xm, pos + 3 * i);
    cs_add3(xpos + 3 * i, d->xpos + 3 * body[i], t);
    cs_quat2mat(R, quat + 4 * i);
    cs_mulmat3(xmat + 9 * i, xm, R);
  }
}

void cs_geom_poses(const csModel* m, csData* d) {
  cs_attached_poses(d, m->ngeom, m->geom_body, m->geom_pos, m->geom_quat, d->geom_xpos,
                    d->geom_xmat);
}

void cs_site_poses(const csModel* m, csData* d) {
  cs_attached_poses(d, m->nsite, m->site_body, m->site_pos, m->site_quat, d->site_xpos,
                    d->site_xmat);
}

void cs_com_pos(const csModel* m, csData* d) {
  memset(d->cinert, 0, 10 * sizeof(double));
  for (int k = 1; k < m->nbody; k++) {
    double* ci = d->cinert + 10 * k;
    double mass = m->body_mass[k];
    const double* c = d->xipos + 3 * k;
    double Iw[6];
    cs_sym_rotate(Iw, d->xmat + 9 * k, m->body_inertia + 6 * k);
    double cc = cs_dot3(c, c);
    ci[0] = mass;
    ci[1] = mass * c[0], ci[2] = mass * c[1], ci[3] = mass * c[2];
    ci[4] = Iw[0] + mass * (cc - c[0] * c[0]);
    ci[5] = Iw[1] + mass * (cc - c[1] * c[1]);
    ci[6] = Iw[2] + mass * (cc - c[2] * c[2]);
    ci[7] = Iw[3] - mass * c[0] * c[1];
    ci[8] = Iw[4] - mass * c[0] * c[2];
    ci[9] = Iw[5] - mass * c[1] * c[2];
  }
}

void cs_com_vel(const csModel* m, csData* d) {
  memset(d->cvel, 0, 6 * sizeof(double));
  for (int k = 1; k < m->nbody; k++) {
    double v[6];
    memcpy(v, d->cvel + 6 * m->body_parent[k], sizeof v);
    int ja = m->body_jntadr[k], jn = m->body_jntnum[k];
    for (int j = ja; j < ja + jn; j++) {
      int da = m->jnt_dofadr[j];
      const double* qv = d->qvel + da;
      const double* S = d->cdof + 6 * da;
      double* Sd = d->cdof_dot + 6 * da;
      int t = m->jnt_type[j];
      if (t == CS_JNT_FREE) {
        /* translation axes are fixed in the world */
        memset(Sd, 0, 18 * sizeof(double));
        v[3] += qv[0], v[4] += qv[1], v[5] += qv[2];
        for (int c = 0; c < 3; c++) cs_cross_motion(Sd + 18 + 6 * c, v, S + 18 + 6 * c);
        for (int c = 3; c < 6; c++)
          for (int r = 0; r < 6; r++) v[r] += S[6 * c + r] * qv[c];
      } else if (t == CS_JNT_BALL) {
        for (int c = 0; c < 3; c++) cs_cross_motion(Sd + 6 * c, v, S + 6 * c);
        for (int c = 0; c < 3; c++)
          for (int r = 0; r < 6; r++) v[r] += S[6 * c + r] * qv[c];
      } else {
        cs_cross_motion(Sd, v, S);
        for (int r = 0; r < 6; r++) v[r] += S[r] * qv[0];
      }
    }
    memcpy(d->cvel + 6 * k, v, sizeof v);
  }
}
