/* Forward kinematics, motion subspaces (cdof), body inertias (cinert), velocities.
   Spatial vectors are [angular; linear] about the world origin.

   Bodies are visited in order (body_parent[k] < k). The common kinds of body (csBodyKind,
   derived at compile) take fast paths: a body on one revolute joint costs one sincos, one
   quaternion product and one quaternion-to-matrix conversion, with the joint's anchor and
   axis already expressed in the parent frame (body_anchor, body_paxis, body_qaxis). */
#include <string.h>

#include "dynamics/cs_dyn.h"
#include "math/cs_math.h"

static inline void com_vel_rev2(const csModel* m, csData* d, int ka, int kb, const cs_v2* S,
                                int acc);
static CSI_INLINE void com_vel_body(const csModel* m, csData* d, int k, int acc);
static inline void com_vel_world(const csModel* m, csData* d, int acc);

/* Set the dof motion vector for a rotation about unit world axis a through point p. */
static inline void dof_rot(double* S, const double* a, const double* p) {
  S[0] = a[0], S[1] = a[1], S[2] = a[2];
  csi_cross3(S + 3, p, a);
}

/* Free joint: pose straight from qpos; cdof translation = world axes, rotation = body axes
   through the body origin. */
static inline void kin_free(const csModel* m, csData* d, int k) {
  int ja = m->body_jntadr[k];
  const double* q = d->qpos + m->jnt_qposadr[ja];
  double* xp = d->xpos + 3 * k;
  double* xq = d->xquat + 4 * k;
  double* xm = d->xmat + 9 * k;
  csi_copy3(xp, q);
  xq[0] = q[3], xq[1] = q[4], xq[2] = q[5], xq[3] = q[6];
  csi_quat_normalize(xq);
  csi_quat2mat(xm, xq);
  csi_copy3(d->xanchor + 3 * ja, xp);
  double* ax = d->xaxis + 3 * ja;
  ax[0] = ax[1] = ax[2] = 0;
  double* S = d->cdof + 6 * m->jnt_dofadr[ja];
  static const double T[18] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
  memcpy(S, T, sizeof T);
  for (int c = 0; c < 3; c++) {
    double a[3] = {xm[c], xm[3 + c], xm[6 + c]};
    dof_rot(S + 18 + 6 * c, a, xp);
  }
}

/* Any body: its joints one after the other (ball, several joints, none). */
static CSI_INLINE void kin_general(const csModel* m, csData* d, int k) {
  int p = m->body_parent[k];
  double* xp = d->xpos + 3 * k;
  double* xq = d->xquat + 4 * k;
  double* xm = d->xmat + 9 * k;
  const double* qpos = d->qpos;
  int ja = m->body_jntadr[k], jn = m->body_jntnum[k];
  double t[3];
  const double* pm = d->xmat + 9 * p;
  csi_mulmat3vec(t, pm, m->body_pos + 3 * k);
  csi_add3(xp, d->xpos + 3 * p, t);
  csi_quat_mul(xq, d->xquat + 4 * p, m->body_quat + 4 * k);
  csi_quat2mat(xm, xq);
  for (int j = ja; j < ja + jn; j++) {
    const double* q = qpos + m->jnt_qposadr[j];
    double* anchor = d->xanchor + 3 * j;
    double* axis = d->xaxis + 3 * j;
    double* S = d->cdof + 6 * m->jnt_dofadr[j];
    csi_mulmat3vec(t, xm, m->jnt_pos + 3 * j);
    csi_add3(anchor, xp, t);
    csi_mulmat3vec(axis, xm, m->jnt_axis + 3 * j);
    switch (m->jnt_type[j]) {
      case CS_JNT_REVOLUTE: {
        /* unit times unit quaternion: no renormalisation needed (rounding only) */
        double dq[4];
        const double* jp = m->jnt_pos + 3 * j;
        dof_rot(S, axis, anchor);
        csi_axisangle2quat(dq, m->jnt_axis + 3 * j, q[0]);
        csi_quat_mul(xq, xq, dq);
        csi_quat2mat(xm, xq);
        if (jp[0] != 0 || jp[1] != 0 || jp[2] != 0) { /* keep the anchor fixed */
          csi_mulmat3vec(t, xm, jp);
          csi_sub3(xp, anchor, t);
        }
        break;
      }
      case CS_JNT_PRISMATIC:
        S[0] = S[1] = S[2] = 0;
        csi_copy3(S + 3, axis);
        csi_addscl3(xp, axis, q[0]);
        break;
      case CS_JNT_BALL: {
        double dq[4] = {q[0], q[1], q[2], q[3]};
        csi_quat_normalize(dq);
        csi_quat_mul(xq, xq, dq);
        csi_quat_normalize(xq);
        csi_quat2mat(xm, xq);
        csi_mulmat3vec(t, xm, m->jnt_pos + 3 * j);
        csi_sub3(xp, anchor, t);
        for (int c = 0; c < 3; c++) {
          double a[3] = {xm[c], xm[3 + c], xm[6 + c]};
          dof_rot(S + 6 * c, a, anchor);
        }
        break;
      }
      default:
        break;
    }
  }
}

#define CS_V2P(pa, pb, i) ((cs_v2){(pa)[i], (pb)[i]})

/* Two bodies on one revolute joint each (ka == kb for one), one in each lane of a vector;
   their parents are placed, their half-angle cosine and sine parked in xquat[4k], [4k+1].
   The orientation in the parent frame is c body_quat + s body_qaxis. With vel, their
   velocities and accelerations too (as com_vel_impl with acc), from the motion vectors in
   registers. */
static CSI_INLINE void kin_revolute2(const csModel* m, csData* d, int ka, int kb, int vel) {
  int pa = m->body_parent[ka], pb = m->body_parent[kb];
  int ja = m->body_jntadr[ka], jb = m->body_jntadr[kb];
  double* xquat = d->xquat;
  cs_v2 c = {xquat[4 * ka], xquat[4 * kb]}, s = {xquat[4 * ka + 1], xquat[4 * kb + 1]};
  const double *bqa = m->body_quat + 4 * ka, *bqb = m->body_quat + 4 * kb;
  const double *qaa = m->body_qaxis + 4 * ka, *qab = m->body_qaxis + 4 * kb;
  cs_v2 l0 = c * CS_V2P(bqa, bqb, 0) + s * CS_V2P(qaa, qab, 0);
  cs_v2 l1 = c * CS_V2P(bqa, bqb, 1) + s * CS_V2P(qaa, qab, 1);
  cs_v2 l2 = c * CS_V2P(bqa, bqb, 2) + s * CS_V2P(qaa, qab, 2);
  cs_v2 l3 = c * CS_V2P(bqa, bqb, 3) + s * CS_V2P(qaa, qab, 3);
  const double *pqa = xquat + 4 * pa, *pqb = xquat + 4 * pb;
  cs_v2 p0 = CS_V2P(pqa, pqb, 0), p1 = CS_V2P(pqa, pqb, 1), p2 = CS_V2P(pqa, pqb, 2),
        p3 = CS_V2P(pqa, pqb, 3);
  /* q = parent * local (as csi_quat_mul) */
  cs_v2 w = p0 * l0 - p1 * l1 - p2 * l2 - p3 * l3;
  cs_v2 x = p0 * l1 + p1 * l0 + p2 * l3 - p3 * l2;
  cs_v2 y = p0 * l2 - p1 * l3 + p2 * l0 + p3 * l1;
  cs_v2 z = p0 * l3 + p1 * l2 - p2 * l1 + p3 * l0;
  /* R (as csi_quat2mat) */
  cs_v2 one = {1, 1}, two = {2, 2};
  cs_v2 xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
  cs_v2 wx = w * x, wy = w * y, wz = w * z;
  cs_v2 R0 = one - two * (yy + zz), R1 = two * (xy - wz), R2 = two * (xz + wy);
  cs_v2 R3 = two * (xy + wz), R4 = one - two * (xx + zz), R5 = two * (yz - wx);
  cs_v2 R6 = two * (xz - wy), R7 = two * (yz + wx), R8 = one - two * (xx + yy);
  /* anchor = parent pos + parent R body_anchor, axis = parent R body_paxis */
  const double *PMa = d->xmat + 9 * pa, *PMb = d->xmat + 9 * pb;
  cs_v2 M0 = CS_V2P(PMa, PMb, 0), M1 = CS_V2P(PMa, PMb, 1), M2 = CS_V2P(PMa, PMb, 2),
        M3 = CS_V2P(PMa, PMb, 3), M4 = CS_V2P(PMa, PMb, 4), M5 = CS_V2P(PMa, PMb, 5),
        M6 = CS_V2P(PMa, PMb, 6), M7 = CS_V2P(PMa, PMb, 7), M8 = CS_V2P(PMa, PMb, 8);
  const double *PPa = d->xpos + 3 * pa, *PPb = d->xpos + 3 * pb;
  const double *BAa = m->body_anchor + 3 * ka, *BAb = m->body_anchor + 3 * kb;
  const double *BXa = m->body_paxis + 3 * ka, *BXb = m->body_paxis + 3 * kb;
  cs_v2 b0 = CS_V2P(BAa, BAb, 0), b1 = CS_V2P(BAa, BAb, 1), b2 = CS_V2P(BAa, BAb, 2);
  cs_v2 an0 = CS_V2P(PPa, PPb, 0) + (M0 * b0 + M1 * b1 + M2 * b2);
  cs_v2 an1 = CS_V2P(PPa, PPb, 1) + (M3 * b0 + M4 * b1 + M5 * b2);
  cs_v2 an2 = CS_V2P(PPa, PPb, 2) + (M6 * b0 + M7 * b1 + M8 * b2);
  b0 = CS_V2P(BXa, BXb, 0), b1 = CS_V2P(BXa, BXb, 1), b2 = CS_V2P(BXa, BXb, 2);
  cs_v2 ax0 = M0 * b0 + M1 * b1 + M2 * b2;
  cs_v2 ax1 = M3 * b0 + M4 * b1 + M5 * b2;
  cs_v2 ax2 = M6 * b0 + M7 * b1 + M8 * b2;
  /* body origin: the anchor stays fixed */
  const double *JPa = m->jnt_pos + 3 * ja, *JPb = m->jnt_pos + 3 * jb;
  cs_v2 o0 = an0, o1 = an1, o2 = an2;
  if (JPa[0] != 0 || JPa[1] != 0 || JPa[2] != 0 || JPb[0] != 0 || JPb[1] != 0 || JPb[2] != 0) {
    cs_v2 j0 = CS_V2P(JPa, JPb, 0), j1 = CS_V2P(JPa, JPb, 1), j2 = CS_V2P(JPa, JPb, 2);
    o0 = an0 - (R0 * j0 + R1 * j1 + R2 * j2);
    o1 = an1 - (R3 * j0 + R4 * j1 + R5 * j2);
    o2 = an2 - (R6 * j0 + R7 * j1 + R8 * j2);
  }
  const double *IPa = m->body_ipos + 3 * ka, *IPb = m->body_ipos + 3 * kb;
  b0 = CS_V2P(IPa, IPb, 0), b1 = CS_V2P(IPa, IPb, 1), b2 = CS_V2P(IPa, IPb, 2);
  cs_v2 xi0 = o0 + (R0 * b0 + R1 * b1 + R2 * b2);
  cs_v2 xi1 = o1 + (R3 * b0 + R4 * b1 + R5 * b2);
  cs_v2 xi2 = o2 + (R6 * b0 + R7 * b1 + R8 * b2);
  /* cdof = (axis, anchor x axis) */
  cs_v2 S3 = an1 * ax2 - an2 * ax1, S4 = an2 * ax0 - an0 * ax2, S5 = an0 * ax1 - an1 * ax0;
  /* stores, lane by lane (b after a: b's values win when ka == kb, and they are equal) */
  for (int lane = 0; lane < 2; lane++) {
    int k = lane ? kb : ka, j = lane ? jb : ja;
    double* q = xquat + 4 * k;
    q[0] = w[lane], q[1] = x[lane], q[2] = y[lane], q[3] = z[lane];
    double* R = d->xmat + 9 * k;
    R[0] = R0[lane], R[1] = R1[lane], R[2] = R2[lane];
    R[3] = R3[lane], R[4] = R4[lane], R[5] = R5[lane];
    R[6] = R6[lane], R[7] = R7[lane], R[8] = R8[lane];
    double* o = d->xpos + 3 * k;
    o[0] = o0[lane], o[1] = o1[lane], o[2] = o2[lane];
    double* xi = d->xipos + 3 * k;
    xi[0] = xi0[lane], xi[1] = xi1[lane], xi[2] = xi2[lane];
    double* an = d->xanchor + 3 * j;
    an[0] = an0[lane], an[1] = an1[lane], an[2] = an2[lane];
    double* ax = d->xaxis + 3 * j;
    ax[0] = ax0[lane], ax[1] = ax1[lane], ax[2] = ax2[lane];
    double* S = d->cdof + 6 * m->jnt_dofadr[j];
    S[0] = ax0[lane], S[1] = ax1[lane], S[2] = ax2[lane];
    S[3] = S3[lane], S[4] = S4[lane], S[5] = S5[lane];
  }
  if (vel) {
    cs_v2 Sv[6] = {ax0, ax1, ax2, S3, S4, S5};
    com_vel_rev2(m, d, ka, kb, Sv, 1);
  }
}

/* cs_kinematics; with vel also com_vel_impl with acc, body by body (csi_kinematics_vel) */
CSI_HOT static inline void kinematics_impl(const csModel* m, csData* d, int vel) {
  /* not restrict: the general paths write these arrays through d */
  const double* qpos = d->qpos;
  double* xpos = d->xpos;
  double* xquat = d->xquat;
  double* xmat = d->xmat;
  double* xipos = d->xipos;
  double* xanchor = d->xanchor;
  double* xaxis = d->xaxis;
  double* cdof = d->cdof;
  const int* kind = m->body_kind;
  xpos[0] = xpos[1] = xpos[2] = 0;
  csi_quat_identity(xquat);
  static const double I9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  memcpy(xmat, I9, sizeof I9);
  /* half-angle sines and cosines of the revolute bodies first, parked in their xquat (which
     the pass below overwrites): independent of each other, they overlap in the pipeline */
  {
    int pend = 0; /* a revolute body waiting for a partner */
    for (int k = 1; k < m->nbody; k++) {
      if (kind[k] != CS_BODY_REVOLUTE) continue;
      if (!pend) {
        pend = k;
        continue;
      }
      cs_v2 sv, cv;
      cs_v2 qv = {qpos[m->jnt_qposadr[m->body_jntadr[pend]]],
                  qpos[m->jnt_qposadr[m->body_jntadr[k]]]};
      csi_sincos_half2(qv, &sv, &cv);
      xquat[4 * pend] = cv[0], xquat[4 * pend + 1] = sv[0];
      xquat[4 * k] = cv[1], xquat[4 * k + 1] = sv[1];
      pend = 0;
    }
    if (pend)
      csi_sincos_half(qpos[m->jnt_qposadr[m->body_jntadr[pend]]], xquat + 4 * pend + 1,
                      xquat + 4 * pend);
  }
  if (vel) com_vel_world(m, d, 1);
  const int* order = m->body_order;
  for (int o = 1; o < m->nbody; o++) {
    int k = order[o];
    int p = m->body_parent[k];
    double* xp = xpos + 3 * k;
    double* xm = xmat + 9 * k;
    const double* pp = xpos + 3 * p;
    const double* pm = xmat + 9 * p;
    switch (kind[k]) {
      case CS_BODY_REVOLUTE: {
        /* with the next body if it is revolute too and not a child of this one (siblings
           in the breadth-first order) */
        int k2 = o + 1 < m->nbody ? order[o + 1] : k;
        if (k2 != k && kind[k2] == CS_BODY_REVOLUTE && m->body_parent[k2] != k)
          o++;
        else
          k2 = k;
        kin_revolute2(m, d, k, k2, vel);
        continue;
      }
      case CS_BODY_FREE:
        kin_free(m, d, k);
        break;
      case CS_BODY_PRISMATIC: {
        int j = m->body_jntadr[k];
        double* xq = xquat + 4 * k;
        csi_quat_mul(xq, xquat + 4 * p, m->body_quat + 4 * k);
        csi_quat2mat(xm, xq);
        double* anchor = xanchor + 3 * j;
        double* axis = xaxis + 3 * j;
        double t[3];
        csi_mulmat3vec(t, pm, m->body_anchor + 3 * k);
        csi_add3(anchor, pp, t);
        csi_mulmat3vec(axis, pm, m->body_paxis + 3 * k);
        csi_mulmat3vec(t, pm, m->body_pos + 3 * k);
        csi_add3(xp, pp, t);
        csi_addscl3(xp, axis, qpos[m->jnt_qposadr[j]]);
        double* S = cdof + 6 * m->jnt_dofadr[j];
        S[0] = S[1] = S[2] = 0;
        csi_copy3(S + 3, axis);
        break;
      }
      default:
        kin_general(m, d, k);
        break;
    }
    double t[3];
    csi_mulmat3vec(t, xm, m->body_ipos + 3 * k);
    csi_add3(xipos + 3 * k, xp, t);
    if (vel) com_vel_body(m, d, k, 1);
  }
}

void cs_kinematics(const csModel* m, csData* d) { kinematics_impl(m, d, 0); }

void csi_kinematics_vel(const csModel* m, csData* d) { kinematics_impl(m, d, 1); }

/* World poses of n frames attached to bodies (geoms, sites): pos and rotation matrix in the
   body frame (quat, the same rotation, tells the identity: then the body's matrix is
   copied, which is what the product gives but for the sign of a zero). */
static void attached_poses(const csData* d, int n, const int* body, const double* pos,
                           const double* quat, const double* mat, double* restrict xpos,
                           double* restrict xmat) {
  for (int i = 0; i < n; i++) {
    const double* xm = d->xmat + 9 * body[i];
    const double* q = quat + 4 * i;
    double t[3];
    csi_mulmat3vec(t, xm, pos + 3 * i);
    csi_add3(xpos + 3 * i, d->xpos + 3 * body[i], t);
    if (q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0)
      memcpy(xmat + 9 * i, xm, 9 * sizeof(double));
    else
      csi_mulmat3(xmat + 9 * i, xm, mat + 9 * i);
  }
}

void cs_geom_poses(const csModel* m, csData* d) {
  attached_poses(d, m->ngeom, m->geom_body, m->geom_pos, m->geom_quat, m->geom_mat, d->geom_xpos,
                 d->geom_xmat);
}

void cs_site_poses(const csModel* m, csData* d) {
  attached_poses(d, m->nsite, m->site_body, m->site_pos, m->site_quat, m->site_mat, d->site_xpos,
                 d->site_xmat);
}

/* cs_com_pos; with forces also crb and the body forces (csi_com_pos_forces) */
CSI_HOT static inline void com_pos_impl(const csModel* m, csData* d, int forces) {
  double* restrict cinert = d->cinert;
  const double* restrict xmat = d->xmat;
  const double* restrict xipos = d->xipos;
  const double* restrict mass = m->body_mass;
  const double* restrict inertia = m->body_inertia;
  int nb = m->nbody;
  memset(cinert, 0, 10 * sizeof(double));
  /* two bodies at a time, one in each lane of a vector (the last one twice if the count is
     odd): I_O = R I R^T + m (|c|^2 1 - c c^T) */
  for (int k = 1; k < nb; k += 2) {
    int k2 = k + 1 < nb ? k + 1 : k;
    const double *Ra = xmat + 9 * k, *Rb = xmat + 9 * k2;
    const double *Ia = inertia + 6 * k, *Ib = inertia + 6 * k2;
    const double *ca = xipos + 3 * k, *cb = xipos + 3 * k2;
    cs_v2 R[9], I[6];
    for (int r = 0; r < 9; r++) R[r] = (cs_v2){Ra[r], Rb[r]};
    for (int r = 0; r < 6; r++) I[r] = (cs_v2){Ia[r], Ib[r]};
    /* T = R I */
    cs_v2 T[9];
    for (int r = 0; r < 3; r++) {
      T[3 * r + 0] = R[3 * r] * I[0] + R[3 * r + 1] * I[3] + R[3 * r + 2] * I[4];
      T[3 * r + 1] = R[3 * r] * I[3] + R[3 * r + 1] * I[1] + R[3 * r + 2] * I[5];
      T[3 * r + 2] = R[3 * r] * I[4] + R[3 * r + 1] * I[5] + R[3 * r + 2] * I[2];
    }
    cs_v2 w0 = T[0] * R[0] + T[1] * R[1] + T[2] * R[2];
    cs_v2 w1 = T[3] * R[3] + T[4] * R[4] + T[5] * R[5];
    cs_v2 w2 = T[6] * R[6] + T[7] * R[7] + T[8] * R[8];
    cs_v2 w3 = T[0] * R[3] + T[1] * R[4] + T[2] * R[5];
    cs_v2 w4 = T[0] * R[6] + T[1] * R[7] + T[2] * R[8];
    cs_v2 w5 = T[3] * R[6] + T[4] * R[7] + T[5] * R[8];
    cs_v2 ms = {mass[k], mass[k2]};
    cs_v2 c0 = {ca[0], cb[0]}, c1 = {ca[1], cb[1]}, c2 = {ca[2], cb[2]};
    cs_v2 mc0 = ms * c0, mc1 = ms * c1, mc2 = ms * c2;
    cs_v2 m00 = mc0 * c0, m11 = mc1 * c1, m22 = mc2 * c2;
    cs_v2 o[10] = {ms,
                   mc0,
                   mc1,
                   mc2,
                   w0 + (m11 + m22),
                   w1 + (m00 + m22),
                   w2 + (m00 + m11),
                   w3 - mc0 * c1,
                   w4 - mc0 * c2,
                   w5 - mc1 * c2};
    double* cia = cinert + 10 * k;
    double* cib = cinert + 10 * k2;
    for (int r = 0; r < 10; r++) cia[r] = o[r][0];
    for (int r = 0; r < 10; r++) cib[r] = o[r][1];
    if (forces) {
      double* ra = d->crb + 10 * k;
      double* rb = d->crb + 10 * k2;
      for (int r = 0; r < 10; r++) ra[r] = o[r][0];
      for (int r = 0; r < 10; r++) rb[r] = o[r][1];
      csi_body_force2(o, d->cacc + 6 * k, d->cacc + 6 * k2, d->cvel + 6 * k, d->cvel + 6 * k2, 1,
                      d->cfrc + 6 * k, d->cfrc + 6 * k2);
    }
  }
  if (forces) memset(d->crb, 0, 10 * sizeof(double));
}

void cs_com_pos(const csModel* m, csData* d) { com_pos_impl(m, d, 0); }

void csi_com_pos_forces(const csModel* m, csData* d) { com_pos_impl(m, d, 1); }

/* cs_com_vel for two revolute bodies ka, kb (ka == kb for one) with their motion vectors S
   (one in each lane); with acc also their accelerations (as csi_body_acc) */
static inline void com_vel_rev2(const csModel* m, csData* d, int ka, int kb, const cs_v2* S,
                                int acc) {
  double* cvel = d->cvel;
  double* cdof_dot = d->cdof_dot;
  double* cacc = d->cacc;
  int pa = m->body_parent[ka], pb = m->body_parent[kb];
  int da = m->body_dofadr[ka], db = m->body_dofadr[kb];
  const double *vp = cvel + 6 * pa, *vq = cvel + 6 * pb;
  cs_v2 V[6], D[6];
  for (int r = 0; r < 6; r++) V[r] = (cs_v2){vp[r], vq[r]};
  /* cdof_dot = v_parent x cdof (as csi_cross_motion) */
  D[0] = V[1] * S[2] - V[2] * S[1];
  D[1] = V[2] * S[0] - V[0] * S[2];
  D[2] = V[0] * S[1] - V[1] * S[0];
  D[3] = (V[1] * S[5] - V[2] * S[4]) + (V[4] * S[2] - V[5] * S[1]);
  D[4] = (V[2] * S[3] - V[0] * S[5]) + (V[5] * S[0] - V[3] * S[2]);
  D[5] = (V[0] * S[4] - V[1] * S[3]) + (V[3] * S[1] - V[4] * S[0]);
  cs_v2 q = {d->qvel[da], d->qvel[db]};
  double *Da = cdof_dot + 6 * da, *Db = cdof_dot + 6 * db;
  double *va = cvel + 6 * ka, *vb = cvel + 6 * kb;
  for (int r = 0; r < 6; r++) {
    cs_v2 u = V[r] + S[r] * q;
    va[r] = u[0], vb[r] = u[1];
  }
  for (int r = 0; r < 6; r++) Da[r] = D[r][0], Db[r] = D[r][1];
  if (acc) { /* as csi_body_acc: a = a_parent + cdof_dot qvel */
    const double *Ap = cacc + 6 * pa, *Aq = cacc + 6 * pb;
    cs_v2 A[6];
    for (int r = 0; r < 6; r++) A[r] = (cs_v2){Ap[r], Aq[r]} + D[r] * q;
    double *Aa = cacc + 6 * ka, *Ab = cacc + 6 * kb;
    for (int r = 0; r < 6; r++) Aa[r] = A[r][0];
    for (int r = 0; r < 6; r++) Ab[r] = A[r][1];
  }
}

/* cs_com_vel for body k of any kind but revolute; with acc also its acceleration */
static CSI_INLINE void com_vel_body(const csModel* m, csData* d, int k, int acc) {
  /* not restrict: csi_body_acc reads cdof_dot and writes cacc through d */
  double* cvel = d->cvel;
  double* cdof_dot = d->cdof_dot;
  const double* cdof = d->cdof;
  const double* qvel = d->qvel;
  const double* vp = cvel + 6 * m->body_parent[k];
  double* v = cvel + 6 * k;
  int da = m->body_dofadr[k];
  switch (m->body_kind[k]) {
    case CS_BODY_PRISMATIC: {
      const double* S = cdof + 6 * da;
      double* Sd = cdof_dot + 6 * da;
      double qv = qvel[da];
      /* S = (0, s): vp x S = (0, w x s) */
      Sd[0] = Sd[1] = Sd[2] = 0;
      csi_cross3(Sd + 3, vp, S + 3);
      for (int r = 0; r < 3; r++) v[r] = vp[r];
      for (int r = 3; r < 6; r++) v[r] = vp[r] + S[r] * qv;
      break;
    }
    case CS_BODY_FREE: {
      /* translation axes are fixed in the world; the parent is the world (v = 0 there),
         so v before the rotations is u = (0, l) and u x (a, b) = (0, l x a) */
      const double* S = cdof + 6 * da;
      const double* qv = qvel + da;
      double* Sd = cdof_dot + 6 * da;
      double l0 = qv[0], l1 = qv[1], l2 = qv[2];
      const cs_v2 zero = {0, 0};
      for (int r = 0; r < 18; r += 2) csi_v2_store(Sd + r, zero); /* not rep stos */
      for (int c = 0; c < 3; c++) {
        const double* a = S + 18 + 6 * c;
        double* D = Sd + 18 + 6 * c;
        D[0] = D[1] = D[2] = 0;
        D[3] = l1 * a[2] - l2 * a[1];
        D[4] = l2 * a[0] - l0 * a[2];
        D[5] = l0 * a[1] - l1 * a[0];
      }
      double u[6] = {0, 0, 0, l0, l1, l2};
      for (int r = 0; r < 6; r++)
        v[r] = u[r] + S[18 + r] * qv[3] + S[24 + r] * qv[4] + S[30 + r] * qv[5];
      break;
    }
    default: {
      double u[6];
      memcpy(u, vp, sizeof u);
      int ja = m->body_jntadr[k], jn = m->body_jntnum[k];
      for (int j = ja; j < ja + jn; j++) {
        int dj = m->jnt_dofadr[j];
        const double* qv = qvel + dj;
        const double* S = cdof + 6 * dj;
        double* Sd = cdof_dot + 6 * dj;
        int t = m->jnt_type[j];
        if (t == CS_JNT_FREE) {
          memset(Sd, 0, 18 * sizeof(double));
          u[3] += qv[0], u[4] += qv[1], u[5] += qv[2];
          for (int c = 0; c < 3; c++) csi_cross_motion(Sd + 18 + 6 * c, u, S + 18 + 6 * c);
          for (int c = 3; c < 6; c++)
            for (int r = 0; r < 6; r++) u[r] += S[6 * c + r] * qv[c];
        } else if (t == CS_JNT_BALL) {
          for (int c = 0; c < 3; c++) csi_cross_motion(Sd + 6 * c, u, S + 6 * c);
          for (int c = 0; c < 3; c++)
            for (int r = 0; r < 6; r++) u[r] += S[6 * c + r] * qv[c];
        } else {
          csi_cross_motion(Sd, u, S);
          for (int r = 0; r < 6; r++) u[r] += S[r] * qv[0];
        }
      }
      memcpy(v, u, sizeof u);
      break;
    }
  }
  if (acc) csi_body_acc(m, d, k, 1);
}

/* the world's velocity and (acc) acceleration: the start of cs_com_vel and cs_rnea */
static inline void com_vel_world(const csModel* m, csData* d, int acc) {
  memset(d->cvel, 0, 6 * sizeof(double));
  if (acc) {
    csi_world_acc(m, d->cacc, 1);
  }
}

/* cs_com_vel, and with acc the accelerations of cs_rnea's forward pass (gravity, velocity
   terms, no qacc: d->cacc) */
static inline void com_vel_impl(const csModel* m, csData* d, int acc) {
  const int* kind = m->body_kind;
  const double* cdof = d->cdof;
  com_vel_world(m, d, acc);
  const int* order = m->body_order;
  for (int o = 1; o < m->nbody; o++) {
    int k = order[o];
    if (kind[k] == CS_BODY_REVOLUTE) {
      /* with the next body (breadth-first order) if it is revolute and not a child of
         this one: one body in each lane of a vector */
      int k2 = o + 1 < m->nbody ? order[o + 1] : k;
      if (k2 == k || kind[k2] != CS_BODY_REVOLUTE || m->body_parent[k2] == k)
        k2 = k;
      else
        o++;
      const double *Sa = cdof + 6 * m->body_dofadr[k], *Sb = cdof + 6 * m->body_dofadr[k2];
      cs_v2 S[6];
      for (int r = 0; r < 6; r++) S[r] = (cs_v2){Sa[r], Sb[r]};
      com_vel_rev2(m, d, k, k2, S, acc);
    } else {
      com_vel_body(m, d, k, acc);
    }
  }
}

void cs_com_vel(const csModel* m, csData* d) { com_vel_impl(m, d, 0); }
