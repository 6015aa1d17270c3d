/* Single-contact solves of paper 001 (RaiSim's per-contact bisection) and its Table I
   baselines (internal; docs/solvers/bisection.md).

   One contact: G (3x3, row-major, frame (n, t1, t2), normal first) is the contact's own
   Delassus block G_ii, c its velocity without its own impulse (v = G lambda + c), mu its
   friction coefficient. The model is paper 001 eq. (8) (Preclik's maximum-dissipation
   model): opening if c_N > 0 (lambda = 0); else the impulse in the cone with v_N = 0 that
   minimises the kinetic energy 1/2 v^T G^-1 v, i.e. sticking (lambda = -G^-1 c inside the
   cone) or slipping (on the ellipse where the plane v_N = 0 cuts the cone's boundary).

   Every solver below takes the same inputs and returns the case (CSI_CASE_*); tol is the
   impulse interval (N s) at which the slip search stops, steps (may be NULL) receives the
   number of function or gradient evaluations of that search (0 for the other cases).
   Opening, sticking and the degenerate cases are shared (csi_single_classify), so the three
   methods differ only in the slip search, which is what Table I compares. */
#ifndef CS_SOLVER_BISECTION_H
#define CS_SOLVER_BISECTION_H

#include <math.h>

/* The paper's impulse interval (N s) for the single-contact solve (Sec. V-B). */
#define CSI_BISECTION_TOL 1e-6

enum {
  CSI_CASE_OPEN = 0,   /* lambda = 0 */
  CSI_CASE_STICK = 1,  /* lambda = -G^-1 c, inside the cone (or frictionless contact) */
  CSI_CASE_SLIP = 2,   /* on the slip ellipse */
  CSI_CASE_REDUCED = 3 /* rank-deficient G: solved in its 1D/2D range space */
};

/* Paper 001 Algorithm 1: bisection on the sign of the hybrid gradient (eqs. 13-16). The
   bracket is sought first where Newton steps on that sign function predict the root, then
   (if that fails) by the paper's incremental stepping; the bisection and its stop at the
   impulse interval tol are the paper's (cs_solver_bisection.c, slip_search). */
int csi_bisection_single(const double G[9], const double c[3], double mu, double tol,
                         double lambda[3], int* steps);
/* The same with the paper's stepping only (beta1 1e-2, beta2 0.5, beta3 1.3 from the atan2
   guess): the reference of Table I for the Newton-predicted bracket. Same answer to tol. */
int csi_bisection_single_paper(const double G[9], const double c[3], double mu, double tol,
                               double lambda[3], int* steps);
/* The per-contact problem of the de Saxce variant: the contact's own NCP (Signorini,
   Coulomb, maximal dissipation). It is paper 001's problem with c_N shifted by mu |v_T|, v_T
   the contact's velocity after the solve: that shifted problem leaves the opening and
   sticking cases as they are (v_T = c_T with lambda = 0 makes the shifted opening test
   c_N >= 0; v = 0 when sticking) and puts a slipping contact on the same slip ellipse
   (v_N = 0, |lambda_T| = mu lambda_N) where v_T is opposite to lambda_T. The same search
   finds it, bisecting on the sign of (cos t, sin t) x v_T (eq. 16's hybrid v_T), which is
   the sign of dE/dt for the shifted problem's energy. */
int csi_bisection_coulomb_single(const double G[9], const double c[3], double mu, double tol,
                                 double lambda[3], int* steps);
/* Table I baselines (cs_solver_single.c): golden-section search of the energy over the
   line-of-sight arc of the slip ellipse (Preclik), and the analytical method (the quartic in
   the tangent of the half slip angle, solved in closed form; tol unused: the roots are
   polished by Newton steps instead). */
int csi_golden_single(const double G[9], const double c[3], double mu, double tol, double lambda[3],
                      int* steps);
int csi_analytic_single(const double G[9], const double c[3], double mu, double tol,
                        double lambda[3], int* steps);

/* Entry k of the table of cos and sin of beta1 beta3^k used by the stepping (for the test);
   0 past its end. */
int csi_bisection_rot_table(int k, double* c, double* s);

/* The multi-contact solve's sweep order (ord, nc): ascending by key, the tangential speed of
   v for a contact whose impulse (lambda) is on its cone's boundary and that moves at vmin or
   more, 0 otherwise; ties in index order. key: nc, scratch (left holding the keys). */
void csi_bis_order(const double* lambda, const double* v, const double* mu, int nc, double vmin,
                   double* key, int* ord);

/* ------------------------------------------------------------------ the sweeps' kernels
   One contact's steps of the multi-contact bisection (cs_solver_bisection.c), shared with its
   sweeps on a block-sparse G (cs_solver_bsr.c). A contact's record b holds CSI_BIS_BLK
   doubles: its block G_ii (+ R), rank flag, search intervals and cofactors. */
enum { CSI_BIS_BLK = 20 };
/* Tangential speeds below this many tolerances do not reorder the sweep (csi_bis_order). */
#define CSI_BIS_ORDER_VMIN 100
/* b from the contact's block Gii (row-major), its rows' R (R3, or NULL) and the solve's
   tolerance. */
void csi_bis_contact_setup(const double Gii[9], const double* R3, double tol, double* b);
/* The contact's own solve given the others' impulses (Algorithm 2's inner step): ls from its
   impulse l and velocity vi = (G lambda + g)_i. desaxce: the NCP variant. */
void csi_bis_contact_solve(const double* b, const double* l, const double* vi, double mu,
                           int desaxce, double ls[3]);
/* The contact's term of the stop test (the exact violation of the model's conditions). */
double csi_bis_violation(const double* b, const double* l, const double* v, double mu, int desaxce);
/* Algorithm 2's relaxation after one more sweep (alpha decaying by 0.99 towards 0.7). */
double csi_bis_relax(double alpha);

/* The reduced solve of a rank-deficient G (rank 0, 1 or 2), for a closing contact (c_N > 0
   is handled before). Returns CSI_CASE_REDUCED with lambda set, or -1 (lambda untouched)
   when G has full rank after all. */
int csi_single_reduced(const double G[9], const double c[3], double mu, double lambda[3]);

/* ------------------------------------------------------------------ shared set-up
   What the slip searches need, computed once by csi_single_classify. */
typedef struct csiSlip {
  double g00, g01, g02, g11, g12, g22; /* G (symmetric) */
  double c0, c1, c2;                   /* c */
  double mu;
  double l0n, l0x, l0y; /* lambda^{v=0} = -G^-1 c (normal, t1, t2); det G times it when
                           classified with scaled = 1 */
  double ux, uy;        /* lambda^{v=0}_T / |lambda^{v=0}_T|: (cos, sin) of the atan2 guess */
} csiSlip;

/* G's cofactors k00, k01, k02, k11, k12, k22, -1 / det and det into kk (8); 1 if G has full rank
   by csi_single_classify's test (kk is then what it would compute), else 0. */
static inline int csi_single_cofactors(const double G[9], double kk[8]) {
  double g00 = G[0], g01 = G[1], g02 = G[2], g11 = G[4], g12 = G[5], g22 = G[8];
  double k00 = g11 * g22 - g12 * g12, k01 = g02 * g12 - g01 * g22, k02 = g01 * g12 - g02 * g11;
  double k11 = g00 * g22 - g02 * g02, k12 = g01 * g02 - g00 * g12, k22 = g00 * g11 - g01 * g01;
  double det = g00 * k00 + g01 * k01 + g02 * k02;
  kk[0] = k00, kk[1] = k01, kk[2] = k02, kk[3] = k11, kk[4] = k12, kk[5] = k22;
  kk[6] = -1.0 / det, kk[7] = det;
  return det > 1e-10 * g00 * g11 * g22 && g00 > 0;
}

/* Opening, sticking, frictionless and degenerate contacts; fills s and returns
   CSI_CASE_SLIP when the slip search is needed. kk: NULL, or csi_single_cofactors of a
   full-rank G (a solve that meets the same block many times computes them once).
   scaled (a constant): 1 for the bisection, whose slip search needs lambda^{v=0} only up to
   a positive factor (its line-of-sight test and atan2 guess): s->l0n, l0x, l0y are then
   det G lambda^{v=0} = -K c (K the cofactors), the sticking test is made on them, and the
   division by det is left to a sticking contact (its impulse bitwise the same; the case
   tests agree but for rounding at their boundaries). csi_single_classify: scaled = 0. */
static inline int csi_single_classify_x(const double G[9], const double c[3], double mu,
                                        const double* kk, csiSlip* s, double lambda[3],
                                        int scaled) {
  double g00 = G[0], g01 = G[1], g02 = G[2], g11 = G[4], g12 = G[5], g22 = G[8];
  double c0 = c[0], c1 = c[1], c2 = c[2];
  if (!(mu > 0)) {
    /* Frictionless: K_0 is the normal ray, so only the normal row counts. */
    double ln = g00 > 0 && c0 < 0 ? -c0 / g00 : 0;
    lambda[0] = ln, lambda[1] = lambda[2] = 0;
    return ln > 0 ? CSI_CASE_STICK : CSI_CASE_OPEN;
  }
  /* Opening (Algorithm 2, line 3) */
  if (c0 > 0) {
    lambda[0] = lambda[1] = lambda[2] = 0;
    return CSI_CASE_OPEN;
  }
  /* G^-1 by cofactors (G symmetric). det / (g00 g11 g22) lies in (0, 1] for an SPD G and
     falls to ~1e-16 for a rank-deficient one computed in floating point (a contact on a
     link pinned by a revolute joint): below 1e-10 the eigen-decomposition decides. */
  double kb[8];
  if (!kk) {
    if (!csi_single_cofactors(G, kb)) {
      if (csi_single_reduced(G, c, mu, lambda) >= 0) return CSI_CASE_REDUCED;
      if (!(kb[7] > 0)) { /* not reachable: a full-rank G has det > 0 */
        lambda[0] = lambda[1] = lambda[2] = 0;
        return CSI_CASE_REDUCED;
      }
    }
    kk = kb;
  }
  double k00 = kk[0], k01 = kk[1], k02 = kk[2], k11 = kk[3], k12 = kk[4], k22 = kk[5];
  /* K c; lambda^{v=0} = (-1 / det) K c, or det lambda^{v=0} = -K c when scaled (the same
     tests: det > 0) */
  double t0 = k00 * c0 + k01 * c1 + k02 * c2, t1 = k01 * c0 + k11 * c1 + k12 * c2;
  double t2 = k02 * c0 + k12 * c1 + k22 * c2, f = scaled ? -1.0 : kk[6];
  double l0n = f * t0, l0x = f * t1, l0y = f * t2;
  double lt2 = l0x * l0x + l0y * l0y;
  /* Sticking: mu lambda_N^{v=0} >= |lambda_T^{v=0}| (Algorithm 2, line 5). */
  if (l0n >= 0 && mu * mu * l0n * l0n >= lt2) {
    double id = kk[6];
    lambda[0] = id * t0, lambda[1] = id * t1, lambda[2] = id * t2;
    return CSI_CASE_STICK;
  }
  /* The slip ellipse of the paper's model shrinks to the apex when c_N = 0 (r = 0 in
     eq. 14): lambda = 0 is then the only slipping impulse. */
  if (!(c0 < 0)) {
    lambda[0] = lambda[1] = lambda[2] = 0;
    return CSI_CASE_OPEN;
  }
  s->g00 = g00, s->g01 = g01, s->g02 = g02, s->g11 = g11, s->g12 = g12, s->g22 = g22;
  s->c0 = c0, s->c1 = c1, s->c2 = c2;
  s->mu = mu;
  s->l0n = l0n, s->l0x = l0x, s->l0y = l0y;
  /* atan2(0, 0) = 0 when lambda^{v=0}_T vanishes (only through rounding: lambda^{v=0} would
     then be the inner point lambda^{T=0}). */
  if (lt2 > 0) {
    double il = 1.0 / sqrt(lt2);
    s->ux = l0x * il, s->uy = l0y * il;
  } else {
    s->ux = 1, s->uy = 0;
  }
  return CSI_CASE_SLIP;
}

static inline int csi_single_classify(const double G[9], const double c[3], double mu,
                                      const double* kk, csiSlip* s, double lambda[3]) {
  return csi_single_classify_x(G, c, mu, kk, s, lambda, 0);
}

/* The set-up of every single-contact method: csi_single_classify_x, and *steps = 0 (steps
   may be NULL) when no slip search follows (the return value is not CSI_CASE_SLIP). kk: NULL
   or the block's csi_single_cofactors. csi_single_setup: scaled = 0. */
static inline int csi_single_setup_x(const double G[9], const double c[3], double mu,
                                     const double* kk, csiSlip* s, double lambda[3], int* steps,
                                     int scaled) {
  int k = csi_single_classify_x(G, c, mu, kk, s, lambda, scaled);
  if (k != CSI_CASE_SLIP && steps) *steps = 0;
  return k;
}

static inline int csi_single_setup(const double G[9], const double c[3], double mu,
                                   const double* kk, csiSlip* s, double lambda[3], int* steps) {
  return csi_single_setup_x(G, c, mu, kk, s, lambda, steps, 0);
}

#endif
