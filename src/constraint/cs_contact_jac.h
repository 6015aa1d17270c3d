/* A contact's Jacobian columns and its dofs (internal; shared by the dense build,
   cs_contact_problem.c, and the build by islands, cs_contact_islands.c). */
#ifndef CS_CONTACT_JAC_H
#define CS_CONTACT_JAC_H

#include "contactsim/cs_model.h"
#include "math/cs_math.h"

/* The velocity of the point p carried by dof k's motion (S = [w; v_O]: v_O + w x p) in the
   contact frame F (rows n, t1, t2): one column of the contact's three Jacobian rows. */
static inline void csi_contact_jac_col(const double* S, const double* p, const double* F,
                                       double j[3]) {
  double v0 = S[1] * p[2] - S[2] * p[1] + S[3];
  double v1 = S[2] * p[0] - S[0] * p[2] + S[4];
  double v2 = S[0] * p[1] - S[1] * p[0] + S[5];
  j[0] = F[0] * v0 + F[1] * v1 + F[2] * v2;
  j[1] = F[3] * v0 + F[4] * v1 + F[5] * v2;
  j[2] = F[6] * v0 + F[7] * v1 + F[8] * v2;
}

/* The dofs that move contact i: the union of both bodies' chains to the root, in
   descending order (dof_parent[k] < k, so each walk descends; once the walks meet they
   share the rest). Returns their number. */
static CSI_INLINE int csi_contact_chain(const csModel* m, int b0, int b1, int* chain) {
  int n = 0;
  int k1 = m->body_lastdof[b1], k0 = b0 > 0 ? m->body_lastdof[b0] : -1;
  while (k1 >= 0 || k0 >= 0) {
    if (k1 == k0) {
      chain[n++] = k1;
      k1 = m->dof_parent[k1], k0 = m->dof_parent[k0];
    } else if (k1 > k0) {
      chain[n++] = k1;
      k1 = m->dof_parent[k1];
    } else {
      chain[n++] = k0;
      k0 = m->dof_parent[k0];
    }
  }
  return n;
}

/* The 3x3 block Yi^T Yj of other chains (a contact between two moving bodies): their
   descending dof lists merged, summed over the dofs both hold (B starts at 0) */
static CSI_INLINE void csi_block_merge(const double* Yi, const int* chi, int ni, const double* Yj,
                                       const int* chj, int nj, double B[9]) {
  int ei = 0, ej = 0;
  while (ei < ni && ej < nj) {
    int ki = chi[ei], kj = chj[ej];
    if (ki > kj) {
      ei++;
    } else if (kj > ki) {
      ej++;
    } else {
      double a0 = Yi[ei], a1 = Yi[ni + ei], a2 = Yi[2 * ni + ei];
      double b0 = Yj[ej], b1 = Yj[nj + ej], b2 = Yj[2 * nj + ej];
      B[0] += a0 * b0, B[1] += a0 * b1, B[2] += a0 * b2;
      B[3] += a1 * b0, B[4] += a1 * b1, B[5] += a1 * b2;
      B[6] += a2 * b0, B[7] += a2 * b1, B[8] += a2 * b2;
      ei++, ej++;
    }
  }
}

/* G's block (i, j) = B and its mirror (j, i) = B^T (G: n x n) */
static CSI_INLINE void csi_block_store(double* G, int n, int i, int j, const double B[9]) {
  double* Gij = G + (size_t)(3 * i) * n + 3 * j;
  double* Gji = G + (size_t)(3 * j) * n + 3 * i;
  Gij[0] = B[0], Gij[1] = B[1], Gij[2] = B[2];
  Gij[n] = B[3], Gij[n + 1] = B[4], Gij[n + 2] = B[5];
  Gij[2 * n] = B[6], Gij[2 * n + 1] = B[7], Gij[2 * n + 2] = B[8];
  Gji[0] = B[0], Gji[1] = B[3], Gji[2] = B[6];
  Gji[n] = B[1], Gji[n + 1] = B[4], Gji[n + 2] = B[7];
  Gji[2 * n] = B[2], Gji[2 * n + 1] = B[5], Gji[2 * n + 2] = B[8];
}

#endif
