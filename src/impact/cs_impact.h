/* Internal layout of the planar impact model and problem (include/contactsim/cs_impact.h). */
#ifndef CS_IMPACT_INTERNAL_H
#define CS_IMPACT_INTERNAL_H

#include "contactsim/cs_impact.h"

enum { CSI_IMP_NAME = 32, CSI_IMP_MAXJ = 3, CSI_IMP_MAXC = 16, CSI_IMP_MAXNV = 32 };
enum { CSI_JOINT_PX = 0, CSI_JOINT_PY = 1, CSI_JOINT_RZ = 2 };

/* A link: its frame is the parent's frame moved to `off` (parent coordinates), then its
   joints applied in order (px, py: slides along the current frame's x, y; rz: a rotation),
   each taking the next generalized coordinate. */
typedef struct csiImpLink {
  char name[CSI_IMP_NAME];
  int parent; /* -1: the world */
  double off[2];
  int njoint, jtype[CSI_IMP_MAXJ], jdof[CSI_IMP_MAXJ];
} csiImpLink;

typedef struct csiImpMass {
  int link;
  double m, inertia, at[2]; /* mass, inertia about its centre, centre in link coordinates */
} csiImpMass;

/* A contact: a disc (radius r >= 0, centre `at` on link a) against a world half-plane
   (normal n, through o) or against a disc on link b. */
typedef struct csiImpContact {
  int pair; /* 0: half-plane, 1: disc-disc */
  int a, b;
  double at_a[2], r_a, at_b[2], r_b;
  double n[2], o[2];
  double mu;
} csiImpContact;

struct csImpactModel {
  int nlink, nmass, ncontact, nq;
  csiImpLink link[CSI_IMP_MAXC];
  csiImpMass mass[CSI_IMP_MAXC];
  csiImpContact contact[CSI_IMP_MAXC];
  double q[CSI_IMP_MAXNV], v[CSI_IMP_MAXNV];
  double gravity;
  csImpactOptions opt;
  /* 0: contact tangent t = (n_y, -n_x); 1: the reference implementation's friction row,
     (n_y, n_x) applied to the relative velocity (statement `tangent reference`) */
  int tangent_ref;
};

/* The problem. A, the 3m x 3m Delassus matrix J M^-1 J^T of J = [Jn; JD] (JD interleaves
   +Jf_i, -Jf_i), and MinvJT = M^-1 J^T (nv x 3m) are formed once from the Cholesky factor
   of M; WA (4m x 4m) and WR (5m x 5m) are the Anitescu-Potra and Routh LCP matrices. */
struct csImpact {
  csImpactInfo info;
  int nv, m;
  double *M, *Minv, *Jn, *Jf, *mu, *gap, *v, *J, *MinvJT, *A, *WA, *WR;
  int* index;
};

/* Kinematics: the point at local `at` on link `l` at q: its world position p and its
   Jacobian rows Jx, Jy (nq each). */
void csi_imp_point(const csImpactModel* m, const double* q, int l, const double at[2], double p[2],
                   double* Jx, double* Jy);
/* The rotation angle of link l (sum of its chain's rz coordinates) and its Jacobian row. */
double csi_imp_angle(const csImpactModel* m, const double* q, int l, double* Jt);

/* Lemke on the dense LCP (n, W row-major, q): z; CS_ERR_NUMERIC naming `what` if it fails.
   ws holds csi_lemke_workspace(n) bytes. */
csStatus csi_imp_lemke(int n, const double* W, const double* q, double* z, void* ws,
                       const char* what);
/* max over i of max(-y_i, -z_i, |z_i y_i|), y = W z + q (y written, n). */
double csi_imp_lcp_err(int n, const double* W, const double* q, const double* z, double* y);
/* vplus = v + MinvJT x (x: 3m impulses lambda_n, lambda_D). */
void csi_imp_apply(const csImpact* imp, const double* v, const double* x, double* vplus);
/* min over contacts of Jn_i v (+inf with no contact). */
double csi_imp_min_vn(const csImpact* imp, const double* v);
double csi_imp_ke(const csImpact* imp, const double* v);
/* The Sobol direction numbers, cs_impact_sobol_dims() x 32 (dimension-major), for
   point i = XOR of dirs[d * 32 + j] over the set bits j of i. */
void csi_imp_sobol_table(unsigned* dirs);
/* The vectors of the workspace ws that the LCP functions leave alone: v0, v1 (nv each) and
   x (3m). */
void csi_imp_ws_vectors(const csImpact* imp, void* ws, double** v0, double** v1, double** x);

#endif
