/* ADMM on the contact problem (paper 002 Alg. 3), on the CCP and on the NCP.

   Splitting: min 1/2 lambda^T (G + R) lambda + (g + s)^T lambda + I_K(z) s.t. lambda = z,
   with the unscaled dual gamma. One iteration:
     lambda = -(G + R + rho I)^-1 (g + s - rho z + gamma)    (dense block LDL^T, ldl3)
     lambda^ = omega lambda + (1 - omega) z                    (over-relaxation, eq. 22)
     z = P_K(lambda^ + gamma / rho)
     gamma = gamma + rho (lambda^ - z)
   Whatever the iterate, z in K, -gamma in K* and <z, gamma> = 0 hold exactly (gamma / rho
   is the part of lambda^ + gamma / rho that P_K removes, which lies in the polar cone and
   is orthogonal to its projection). So the two ADMM residuals
     primal r_p = max |lambda - z|, dual r_d = max |v + s + gamma|,  v = (G + R) lambda + g,
   bound the distance to the model's KKT conditions: they are a true optimality test, not
   a step test. (Without relaxation r_d = rho |z - z_prev|, the textbook dual residual.)

   - ccp_admm: s = 0, the CCP (paper 002 eq. 19). Stop: r_p <= tol and r_d <= tol.
   - ncp_admm: s_i = (mu_i |v_T,i|, 0, 0), de Saxce's shift, recomputed from the velocity of
     the last iterate at every iteration: a cascade of CCPs whose fixed point is the NCP.
     Stop: the NCP residual eps_abs <= tol (cs_ncp_report's) of z, the projected iterate,
     with v = (G + R) z + g from a full product; z is what is returned. Not the lambda
     iterate: it solves the linear step exactly but is not in K, and at a sliding contact
     it converges from inside the cone (|lambda_T| < mu lambda_N, a friction deficit
     delta): eps_c = |<lambda, v~>| ~ delta |v_T| lets delta be tol / |v_T| at every
     step, with the same sign, and a warm start carries it on. On cube_slide the lambda
     iterate misses ~1e-8 J of dissipation per step, 3.7e-6 E0 over the slide (target 1e-6); z
     has |z_T| = mu z_N there, and its error is second order in the slip direction.
     Active-set step (admm_refine): on the warm start's contact modes before any
     factorization, and on z's once they hold for two iterations, the NCP solution with
     those modes (open: lambda_i = 0; sticking: v_i = 0; sliding: v_N,i = 0 with v_T,i
     against the friction direction) is a small system: linear when nothing slides with
     friction (all sticking: the block of G, block LDL^T), else Newton in the sticking
     impulses and the sliding contacts' (magnitude, slip angle), from the modes' source
     (quadratic in the angle). A candidate that contradicts its modes (a sticking impulse
     out of its cone, a pulling slide, a penetrating open contact) changes those modes and
     the step is made again (primal-dual active set, 3 times at most). Redundant sticking
     contacts (two points of one body) make the systems singular: their internal forces,
     the null space of the sticking block (pivoted Cholesky), are removed from the unknowns
     (admm_reduced), so the candidate has none (the polish's aim, without the polish).
     A candidate is returned only if it passes the same stopping test (plus its own modes
     and first-order maximal dissipation). It finishes what the cascade, converging at its
     fixed point's rate (0.4-0.75 on ANYmal's sliding feet), would take 10-30 more
     iterations for: on the warm-started ANYmal replays it decides 97-100 % of the solves.
     Safeguards, each explained where it acts:
     no shift at contacts well inside their cone (admm_shift), one restart as a strict
     CCP-then-shift cascade when the residual stalls (large mu), a warm start worse than
     none is dropped, and an unconverged run returns its best iterate.
   Both: after convergence the internal forces (the null-space part of lambda, redundant
   contacts) are removed as far as the model's criterion allows (admm_polish).

   Blocks (the rows after the contacts, src/constraint/cs_block.h): K is the product of the
   contacts' cones and the blocks' sets (R+ for a unilateral row, [-f, f] for a box row, R
   for a free one), so the iteration runs row by row the same way: z = P(lambda^ + gamma /
   rho) onto R+ or the box, z = lambda^ on a free row (whose gamma stays 0), and no shift on a
   block row in either model (s = 0 there). G + R + rho I is then factored by a dense
   Cholesky (chol_rd; the rows no longer come in threes); without blocks ldl3 as above. Both
   stopping tests include the blocks' residual (csi_blocks_residual): ccp_admm's is max(r_p,
   r_d, the blocks' residual of lambda), ncp_admm's the blocks' terms of eps_abs at z.
   gamma0 on a block row is the projection of -v0 onto the normal cone of its set at z0
   (admm_start_blocks). The active-set step takes the block rows into its system, each in a
   mode (CS_BM_*): a unilateral row active (an unknown with v_r = 0) or inactive (l_r = 0), a
   box row inside (an unknown with v_r = 0) or at a bound (l_r = +-f), a free row always an
   unknown with v_r = 0. A candidate that contradicts a block row's mode (an active
   unilateral row pulling, an inactive one approaching, a box row beyond a bound, or at a
   bound its velocity pushes it off) changes that mode as a contact's would be. The polish
   keeps every block row in its set and the blocks' residual within its bound.

   The stages of a solve (admm_run), in the order of the last section's functions:
     1. set-up (admm_layout): the arrays in the workspace;
     2. the active-set step on the warm start's modes (admm_warm_refine; ncp_admm, up to
        CS_ADMM_AS_MAX rows): a warm start whose modes still hold is finished there;
     3. a warm start worse than none is dropped (admm_drop_bad_warmstart);
     4. rho and the factor of G + R + rho I (admm_setup_factor), then z0, gamma0 and s0
        (admm_start);
     5. the iteration (admm_loop): admm_iterate, then ccp_admm's stopping test
        (admm_ccp_check) or ncp_admm's stages (admm_ncp_stages): the stopping test on z
        (admm_ncp_check), the active-set step on z's modes once they hold (admm_modes_step),
        the next shift or the restart (admm_shift_or_restart); then rho's adaptation
        (admm_adapt_rho);
     6. the answer (admm_finish): polished if converged (admm_polish: its direction, then its
        step), else the best iterate; the statistics and the NCP report.
   The active-set step's own stages are listed at the head of its section.

   rho (docs/solvers.md): rho0 = sqrt(L m) (L / m)^0.2, L the largest eigenvalue of G + R
   (power iteration), m = min_i R_i (0 without R) + 1e-6; multiplied or divided by
   (L / m)^0.05 when r_p and r_d differ by more than a factor 10, and G + R + rho I is
   factored again then (no more often than every n/12 iterations, see admm_setup_factor); L by
   power iteration from diag(G) to 1 %. The interface keeps no state between calls, so rho
   cannot be warm started; lambda is, and so are the shift s0 (from v0 = (G + R) lambda0 +
   g) and the dual: gamma0 = the projection of -(v0 + s0) onto the normal cone of K at z0
   = P_K(lambda0) (ncp_admm; admm_normal_dual), so (z0, gamma0) is a fixed point of the
   z-update for every rho, or -P_K*(v0 + s0) (ccp_admm). A G that is not exactly symmetric
   (FCLIB's Capsules) is factored by LU instead of LDL^T. */
#include <math.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "constraint/cs_contact_cone.h"
#include "math/cs_math.h"
#include "solvers/cs_solver.h"
#include "solvers/cs_solver_bsr_admm.h"

/* ------------------------------------------------------------------ dense linear algebra */

int csi_cholesky(int n, double* A, double* dinv) {
  /* Row-oriented (left-looking) Cholesky-Crout: every inner product runs along two rows,
     contiguous in row-major storage. The reciprocals of the diagonal are kept in dinv, so
     the factorization and every solve multiply where they would divide (n^2 / 2 + 2n
     divisions a factorization, 2n a solve: on the 12 x 12 problems of a legged robot the
     divisions would be a third of the ADMM's time). */
  for (int i = 0; i < n; i++) {
    double* Li = A + (size_t)i * (size_t)n;
    for (int j = 0; j < i; j++) {
      const double* Lj = A + (size_t)j * (size_t)n;
      double s = Li[j];
      for (int k = 0; k < j; k++) s -= Li[k] * Lj[k];
      Li[j] = s * dinv[j];
    }
    double s = Li[i];
    for (int k = 0; k < i; k++) s -= Li[k] * Li[k];
    if (!(s > 0) || !isfinite(s)) return 0;
    Li[i] = sqrt(s);
    dinv[i] = 1.0 / Li[i];
  }
  return 1;
}

/* A = L D L^T by 3 x 3 blocks (n = 3 nb; unit block-lower L, block-diagonal D), reading A's
   lower block triangle. No square root, and one division per block (D_i^-1 by cofactors),
   against three square roots and three divisions in a dependent chain per block for a
   block Cholesky: on the 12 x 12 systems of a legged robot's active-set step that chain is
   the factor's time. The block updates are written out (a loop over 1-11 terms per entry,
   csi_cholesky's, takes 2.5x the instructions). Stores L_ij (i > j) in place, D_i^-1 in the
   diagonal blocks and L_ij D_j in the upper block triangle (block j, i; reused by the later rows).
   *pmin: the smallest scalar pivot (D_i's LDL^T pivots d0, d1, d2, those of csi_cholesky squared).
   Returns 0 if a pivot is not positive or not finite. src: A's entries are read from there (same
   layout; NULL: A itself), so a block that is all of G needs no copy. */
static int ldl3(int nb, const double* src, double* A, double* pmin) {
  const size_t n = 3 * (size_t)nb;
  const double* S = src ? src : A;
  double mn = INFINITY;
  for (int bi = 0; bi < nb; bi++) {
    const size_t ci = 3 * (size_t)bi;
    const double *S0 = S + ci * n, *S1 = S0 + n, *S2 = S1 + n;
    double *R0 = A + ci * n, *R1 = R0 + n, *R2 = R1 + n;
    for (int bj = 0; bj <= bi; bj++) {
      const size_t cj = 3 * (size_t)bj;
      double s00 = S0[cj], s01 = S0[cj + 1], s02 = S0[cj + 2];
      double s10 = S1[cj], s11 = S1[cj + 1], s12 = S1[cj + 2];
      double s20 = S2[cj], s21 = S2[cj + 1], s22 = S2[cj + 2];
      const double *Q0 = A + cj * n, *Q1 = Q0 + n, *Q2 = Q1 + n; /* rows of block row j */
      for (size_t ck = 0; ck < cj; ck++) {
        /* S -= (L_ik D_k) L_jk^T, column by column of the two: (L_ik D_k)^T is stored at
           block (k, i), so its column c of row a is A[ck + c][ci + a] */
        const double* P = A + ck * n + ci;
        double p0 = P[0], p1 = P[1], p2 = P[2]; /* (L_i. D)_{a, ck} for a = 0..2 */
        double l0 = Q0[ck], l1 = Q1[ck], l2 = Q2[ck];
        s00 -= p0 * l0, s01 -= p0 * l1, s02 -= p0 * l2;
        s10 -= p1 * l0, s11 -= p1 * l1, s12 -= p1 * l2;
        s20 -= p2 * l0, s21 -= p2 * l1, s22 -= p2 * l2;
      }
      if (bj < bi) {
        /* L_ij D_j = S, kept transposed in block (j, i); L_ij = S D_j^-1 */
        double *U0 = A + cj * n + ci, *U1 = U0 + n, *U2 = U1 + n;
        U0[0] = s00, U0[1] = s10, U0[2] = s20;
        U1[0] = s01, U1[1] = s11, U1[2] = s21;
        U2[0] = s02, U2[1] = s12, U2[2] = s22;
        const double *D0 = Q0 + cj, *D1 = Q1 + cj, *D2 = Q2 + cj; /* D_j^-1 */
        R0[cj] = s00 * D0[0] + s01 * D1[0] + s02 * D2[0];
        R0[cj + 1] = s00 * D0[1] + s01 * D1[1] + s02 * D2[1];
        R0[cj + 2] = s00 * D0[2] + s01 * D1[2] + s02 * D2[2];
        R1[cj] = s10 * D0[0] + s11 * D1[0] + s12 * D2[0];
        R1[cj + 1] = s10 * D0[1] + s11 * D1[1] + s12 * D2[1];
        R1[cj + 2] = s10 * D0[2] + s11 * D1[2] + s12 * D2[2];
        R2[cj] = s20 * D0[0] + s21 * D1[0] + s22 * D2[0];
        R2[cj + 1] = s20 * D0[1] + s21 * D1[1] + s22 * D2[1];
        R2[cj + 2] = s20 * D0[2] + s21 * D1[2] + s22 * D2[2];
      } else { /* D_i = S (its lower triangle), inverted by cofactors */
        double d00 = s00, d01 = s10, d02 = s20, d11 = s11, d12 = s21, d22 = s22;
        double c00 = d11 * d22 - d12 * d12, c01 = d02 * d12 - d01 * d22;
        double c02 = d01 * d12 - d02 * d11, c11 = d00 * d22 - d02 * d02;
        double c12 = d01 * d02 - d00 * d12, c22 = d00 * d11 - d01 * d01;
        double det = d00 * c00 + d01 * c01 + d02 * c02;
        if (!(d00 > 0) || !(c22 > 0) || !(det > 0) || !isfinite(det)) return 0;
        double p1 = c22 / d00, p2 = det / c22;
        mn = csi_min(mn, csi_min(d00, csi_min(p1, p2)));
        double iv = 1.0 / det;
        R0[ci] = c00 * iv, R0[ci + 1] = c01 * iv, R0[ci + 2] = c02 * iv;
        R1[ci] = c01 * iv, R1[ci + 1] = c11 * iv, R1[ci + 2] = c12 * iv;
        R2[ci] = c02 * iv, R2[ci + 1] = c12 * iv, R2[ci + 2] = c22 * iv;
      }
    }
  }
  *pmin = mn;
  return 1;
}

/* x <- A^-1 x with ldl3's factor. */
static void ldl3_solve(int nb, const double* A, double* x) {
  const size_t n = 3 * (size_t)nb;
  for (int bi = 0; bi < nb; bi++) { /* L y = x */
    const size_t ci = 3 * (size_t)bi;
    double y0 = x[ci], y1 = x[ci + 1], y2 = x[ci + 2];
    for (int bk = 0; bk < bi; bk++) {
      const size_t ck = 3 * (size_t)bk;
      const double* L0 = A + ci * n + ck;
      const double *L1 = L0 + n, *L2 = L1 + n;
      double x0 = x[ck], x1 = x[ck + 1], x2 = x[ck + 2];
      y0 -= L0[0] * x0 + L0[1] * x1 + L0[2] * x2;
      y1 -= L1[0] * x0 + L1[1] * x1 + L1[2] * x2;
      y2 -= L2[0] * x0 + L2[1] * x1 + L2[2] * x2;
    }
    x[ci] = y0, x[ci + 1] = y1, x[ci + 2] = y2;
  }
  for (int bi = 0; bi < nb; bi++) { /* z = D^-1 y */
    const size_t ci = 3 * (size_t)bi;
    const double* D = A + ci * n + ci;
    double y0 = x[ci], y1 = x[ci + 1], y2 = x[ci + 2];
    x[ci] = D[0] * y0 + D[1] * y1 + D[2] * y2;
    x[ci + 1] = D[n] * y0 + D[n + 1] * y1 + D[n + 2] * y2;
    x[ci + 2] = D[2 * n] * y0 + D[2 * n + 1] * y1 + D[2 * n + 2] * y2;
  }
  for (int bi = nb - 1; bi >= 0; bi--) { /* L^T x = z */
    const size_t ci = 3 * (size_t)bi;
    double x0 = x[ci], x1 = x[ci + 1], x2 = x[ci + 2];
    for (int bk = 0; bk < bi; bk++) { /* x_k -= L_ik^T x_i */
      const size_t ck = 3 * (size_t)bk;
      const double* L0 = A + ci * n + ck;
      const double *L1 = L0 + n, *L2 = L1 + n;
      x[ck] -= L0[0] * x0 + L1[0] * x1 + L2[0] * x2;
      x[ck + 1] -= L0[1] * x0 + L1[1] * x1 + L2[1] * x2;
      x[ck + 2] -= L0[2] * x0 + L1[2] * x1 + L2[2] * x2;
    }
  }
}

/* A = L L^T for a problem with blocks, whose rows do not come in 3 x 3 blocks: csi_cholesky's
   row-oriented Crout with the reciprocals of L's diagonal kept on the diagonal itself (the
   factorization and the solves only multiply by them), so the factor needs no array beside
   it. *pmin: the smallest pivot L_ii^2 (ldl3's scalar pivots). Returns 0 if a pivot is not
   positive or not finite. */
static int chol_rd(int n, double* A, double* pmin) {
  double mn = INFINITY;
  for (int i = 0; i < n; i++) {
    double* Li = A + (size_t)i * (size_t)n;
    for (int j = 0; j < i; j++) {
      const double* Lj = A + (size_t)j * (size_t)n;
      double s = Li[j];
      for (int k = 0; k < j; k++) s -= Li[k] * Lj[k];
      Li[j] = s * Lj[j];
    }
    double s = Li[i];
    for (int k = 0; k < i; k++) s -= Li[k] * Li[k];
    if (!(s > 0) || !isfinite(s)) return 0;
    mn = csi_min(mn, s);
    Li[i] = 1.0 / sqrt(s);
  }
  *pmin = mn;
  return 1;
}

/* x <- A^-1 x with chol_rd's factor. */
static void chol_rd_solve(int n, const double* L, double* x) {
  for (int i = 0; i < n; i++) {
    const double* Li = L + (size_t)i * (size_t)n;
    double s = x[i];
    for (int k = 0; k < i; k++) s -= Li[k] * x[k];
    x[i] = s * Li[i];
  }
  for (int j = n - 1; j >= 0; j--) {
    const double* Lj = L + (size_t)j * (size_t)n;
    double xj = x[j] * Lj[j];
    x[j] = xj;
    for (int k = 0; k < j; k++) x[k] -= Lj[k] * xj;
  }
}

void csi_cholesky_solve(int n, const double* L, const double* dinv, double* x) {
  for (int i = 0; i < n; i++) { /* L y = b, rows of L */
    const double* Li = L + (size_t)i * (size_t)n;
    double s = x[i];
    for (int k = 0; k < i; k++) s -= Li[k] * x[k];
    x[i] = s * dinv[i];
  }
  for (int j = n - 1; j >= 0; j--) { /* L^T x = y, column-oriented: row j of L again */
    const double* Lj = L + (size_t)j * (size_t)n;
    double xj = x[j] * dinv[j];
    x[j] = xj;
    for (int k = 0; k < j; k++) x[k] -= Lj[k] * xj;
  }
}

int csi_is_symmetric(int n, const double* A) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (A[(size_t)i * n + j] != A[(size_t)j * n + i]) return 0;
  return 1;
}

int csi_lu(int n, double* A, int* piv) {
  /* Right-looking Doolittle with partial pivoting; the row updates run along rows. */
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(A[(size_t)i * n + k]) > fabs(A[(size_t)p * n + k])) p = i;
    piv[k] = p;
    double* Ak = A + (size_t)k * (size_t)n;
    if (p != k) {
      double* Ap = A + (size_t)p * (size_t)n;
      for (int j = 0; j < n; j++) {
        double t = Ak[j];
        Ak[j] = Ap[j], Ap[j] = t;
      }
    }
    double d = Ak[k];
    if (!(d != 0) || !isfinite(d)) return 0;
    double id = 1.0 / d;
    for (int i = k + 1; i < n; i++) {
      double* Ai = A + (size_t)i * (size_t)n;
      double f = Ai[k] * id;
      Ai[k] = f;
      /* the active-set systems of the bisection's correction on large problems are sparse:
         without this test its LU on FCLIB's Capsules (286 contacts) takes 30x longer */
      if (f == 0) continue;
      for (int j = k + 1; j < n; j++) Ai[j] -= f * Ak[j];
    }
  }
  return 1;
}

void csi_lu_forward(int n, const double* LU, const int* piv, double* x) {
  for (int k = 0; k < n; k++)
    if (piv[k] != k) {
      double t = x[k];
      x[k] = x[piv[k]], x[piv[k]] = t;
    }
  for (int i = 0; i < n; i++) {
    const double* Li = LU + (size_t)i * (size_t)n;
    double s = x[i];
    for (int k = 0; k < i; k++) s -= Li[k] * x[k];
    x[i] = s;
  }
}

void csi_lu_solve(int n, const double* LU, const int* piv, double* x) {
  csi_lu_forward(n, LU, piv, x);
  for (int i = n - 1; i >= 0; i--) {
    const double* Ui = LU + (size_t)i * (size_t)n;
    double s = x[i];
    for (int k = i + 1; k < n; k++) s -= Ui[k] * x[k];
    x[i] = s / Ui[i];
  }
}

double csi_power_iteration(int n, const double* G, const double* R, double* tmp, int iters) {
  /* A fixed, non-symmetric start so no eigenvector of a structured G is missed by
     symmetry; only an estimate is needed (it scales rho). */
  double* x = tmp;
  double* y = tmp + n;
  double lam = 0;
  for (int i = 0; i < n; i++) x[i] = 1.0 + 0.01 * (double)(i % 7);
  for (int it = 0; it < iters; it++) {
    double nx = 0, xy = 0;
    for (int i = 0; i < n; i++) nx += x[i] * x[i];
    for (int r = 0; r < n; r++) {
      const double* Gr = G + (size_t)r * (size_t)n;
      double s = R ? R[r] * x[r] : 0;
      for (int c = 0; c < n; c++) s += Gr[c] * x[c];
      y[r] = s;
      xy += x[r] * s;
    }
    double ny = 0;
    for (int i = 0; i < n; i++) ny += y[i] * y[i];
    ny = sqrt(ny);
    if (!(ny > 0) || !(nx > 0)) return 0;
    double next = xy / nx; /* Rayleigh quotient of x */
    for (int i = 0; i < n; i++) x[i] = y[i] / ny;
    if (it > 2 && fabs(next - lam) <= 1e-3 * next) return next;
    lam = next;
  }
  return lam;
}

/* ------------------------------------------------------------------ ADMM */

/* Largest problem (unknowns) the active-set step is tried on. */
enum { CS_ADMM_AS_MAX = 96 };
/* Most internal-force directions (null vectors of the sticking block) it borders with. */
enum { CS_ADMM_NUL = 6 };

static size_t admm_workspace(const csContactProblem* p, const csSolverOptions* opt) {
  (void)opt;
  size_t n = (size_t)cs_problem_rows(p);
  /* n rows (3 per contact, then the blocks'). The factor (n x n); z, gamma, v, s, rhs,
     lambda^, best (n each), two power-iteration vectors; LU row swaps (n ints); the active-set
     step: its matrix (n x n), right-hand side, friction directions, slip angles and their
     starting values, a reciprocal diagonal (n each), its row swaps (n ints), four mode arrays
     (one per contact and one per block row: n - 2 nc <= n ints each, counted as n so that more
     contacts never give fewer bytes), the internal forces (CS_ADMM_NUL x n) and the map of the
     sticking unknowns (n ints), a copy of its matrix (only tried up to CS_ADMM_AS_MAX
     unknowns) */
  size_t na = n < CS_ADMM_AS_MAX ? n : CS_ADMM_AS_MAX;
  return sizeof(double) * (2 * n * n + 14 * n + CS_ADMM_NUL * n + na * na) + sizeof(int) * (9 * n) +
         128;
}

/* The largest eigenvalue of G + R for rho0: power iteration from the diagonal (a good start
   on the diagonally heavy Delassus matrices), to 1 %. rho0 goes with L^0.7 and is adapted
   anyway, so csi_power_iteration's 0.1 % cost ~3x the products for nothing. Never below
   the largest diagonal entry (a Rayleigh quotient of a unit vector). */
static double admm_lmax(int n, const double* G, const double* R, double* x, double* y) {
  double dmax = 0;
  for (int i = 0; i < n; i++) {
    x[i] = G[(size_t)i * n + i] + (R ? R[i] : 0);
    dmax = csi_max(dmax, x[i]);
  }
  double lam = 0;
  for (int it = 0; it < 50; it++) {
    double nx = 0, xy = 0, ny = 0;
    for (int r = 0; r < n; r++) {
      const double* Gr = G + (size_t)r * (size_t)n;
      double s = R ? R[r] * x[r] : 0;
      for (int c = 0; c < n; c++) s += Gr[c] * x[c];
      y[r] = s;
      nx += x[r] * x[r], xy += x[r] * s, ny += s * s;
    }
    if (!(ny > 0) || !(nx > 0) || !isfinite(ny)) break;
    double next = xy / nx, inv = 1.0 / sqrt(ny);
    for (int i = 0; i < n; i++) x[i] = y[i] * inv;
    int close = fabs(next - lam) <= 1e-2 * next;
    lam = next;
    if (it > 0 && close) break;
  }
  return csi_max(lam, dmax);
}

/* L = the block LDL^T of G + R + rho I (with blocks, whose rows do not come in threes, the
   Cholesky factor of chol_rd; LU if G is not symmetric; *pmin: the smallest pivot, of the
   symmetric factors only); raises rho (x10) until the factorization succeeds, which with a
   PSD G happens only when rho is below the rounding of G's diagonal. Returns rho, or -1. */
static double admm_factor(const csContactProblem* p, double rho, int sym, double* L, double* pmin,
                          int* piv) {
  int n = cs_problem_rows(p);
  for (int attempt = 0; attempt < 40; attempt++, rho *= 10) {
    memcpy(L, p->G, sizeof(double) * (size_t)n * (size_t)n);
    for (int i = 0; i < n; i++) L[(size_t)i * n + i] += rho + (p->R ? p->R[i] : 0);
    int ok = !sym        ? csi_lu(n, L, piv)
             : p->nblock ? chol_rd(n, L, pmin)
                         : ldl3(p->nc, NULL, L, pmin);
    if (ok) return rho;
  }
  return -1;
}

/* s from v: de Saxce's shift (mu |v_T|, 0, 0) per contact, or 0 for the CCP, and 0 for a
   contact whose z is inside its cone by more than 10 tol. Such a contact sticks at the
   solution, where v_T = 0 and the shift vanishes anyway; before that, mu |v_T| of its
   residual slip is not in the range of G (the shift is along the normal only), and its
   null-space part divided by rho moves lambda along the internal-force directions every
   iteration (a 4-contact cube at stiction grows an internal force of 0.4 N over 190 steps
   that way). With s = 0 there, and gamma = 0 (an interior z leaves gamma at 0), the
   null-space part of lambda is kept as started. The margin keeps sliding contacts, whose
   lambda ends within ~tol of the boundary, on the shifted side. */
static void admm_shift(int ncp, int nc, const double* mu, const double* v, const double* z,
                       double tol, double* s) {
  for (int i = 0; i < nc; i++) {
    const double *vi = v + 3 * i, *zi = z + 3 * i;
    int inside = mu[i] * zi[0] - csi_norm2(zi[1], zi[2]) > 10 * tol;
    s[3 * i] = ncp && !inside ? mu[i] * sqrt(vi[1] * vi[1] + vi[2] * vi[2]) : 0;
    s[3 * i + 1] = s[3 * i + 2] = 0;
  }
}

/* The ADMM state and its fixed data. */
typedef struct Admm {
  const csContactProblem* p;
  int ncp, n, sym; /* n: every row, 3 nc of the contacts then the blocks' */
  int n3;          /* 3 nc: the first block row */
  int nmode;       /* entries of a mode array (cls): nc contacts', then n - n3 block rows' */
  double *L, *z, *gam, *v, *s, *rhs, *lh, *best;
  int* piv;
  double *A, *ab, *dir; /* active-set step */
  double* hist;         /* its previous slip angle per contact */
  double* Ac;           /* a copy of its matrix (the least-norm solve) */
  double* dir0;         /* the friction directions it started from (2 per contact) */
  double* adinv;        /* reciprocal diagonal of the normal equations' Cholesky factor */
  double* nul;          /* null vectors of its sticking block (nd columns of k, each contiguous) */
  int nd;               /* how many */
  int* smap;            /* sticking variable -> unknown of the current system */
  int* dep;             /* sticking variable: 1 if dependent (a null vector's own entry) */
  int* umap;            /* unknown -> its index in the reduced system, or -1 */
  int *apiv, *cls, *cls_prev, *cls_tried, *cls_new; /* modes: contacts, then block rows */
  int unique;   /* an active-set system with pivots above 1e-4 of its largest entry */
  int singular; /* an active-set system was singular: redundant contacts, no more tries */
  int lnorm;    /* this active-set step's systems are singular: least-norm solves */
  double rho, factor, rho_min, rho_max, omega, tol, Lmax;
  double fpmin; /* the factor's smallest pivot */
} Admm;

static double admm_ncp_residual(int nc, const double* mu, const double* lambda, const double* v) {
  double worst = 0;
  for (int i = 0; i < nc; i++) {
    double e = csi_ncp_contact_residual(lambda + 3 * i, v + 3 * i, mu[i]);
    if (!(e <= worst)) worst = e; /* NaN propagates */
  }
  return worst;
}

/* e (the contacts' residual) and the blocks' residual at (lambda, v), the larger (NaN if
   either is); e itself when there are no blocks. */
static double admm_with_blocks(const csContactProblem* p, double e, const double* lambda,
                               const double* v) {
  if (!p->nblock) return e;
  double eb = csi_blocks_residual(p, lambda, v);
  return isnan(e) || eb <= e ? e : eb;
}

/* The stopping test's residual of the NCP: eps_abs's largest term over contacts and blocks. */
static double admm_ncp_res(const Admm* a, const double* lambda, const double* v) {
  const csContactProblem* p = a->p;
  return admm_with_blocks(p, admm_ncp_residual(p->nc, p->mu, lambda, v), lambda, v);
}

/* vz = v + (G + R)(z - lambda) with v the velocity of lambda: only the columns of the
   contacts where z differs from lambda (with omega = 1, those the projection moved: a
   contact inside its cone has gamma = 0 and z = lambda exactly), read as rows of a
   symmetric G. An asymmetric G gets the full product. */
static void admm_velocity_z(const Admm* a, const double* lambda, double* vz) {
  const csContactProblem* p = a->p;
  int n = a->n;
  if (!a->sym) {
    csi_solver_velocity(p, a->z, vz);
    return;
  }
  memcpy(vz, a->v, sizeof(double) * (size_t)n);
  for (int c = 0; c < n; c++) {
    double d = a->z[c] - lambda[c];
    if (d == 0) continue;
    const double* Gc = p->G + (size_t)c * (size_t)n;
    for (int r = 0; r < n; r++) vz[r] += Gc[r] * d;
    if (p->R) vz[c] += p->R[c] * d;
  }
}

/* gamma = the projection of -w onto the normal cone N_K(z) of K at z (z in K), so that
   P_K(z + gamma / rho) = z for every rho: z apex, N_K = -K*, gamma = -P_K*(w); z inside,
   gamma = 0 (inside by more than 10 tol, admm_shift's margin); z on the boundary, the ray of the
   outward normal n = (-mu, z_T / |z_T|) / sqrt(1 + mu^2), gamma = max(0, -<w, n>) n (mu = 0: the
   tangential plane). */
static void admm_normal_dual(const double* z, double mu, const double* w, double tol, double* gam) {
  double r = sqrt(z[1] * z[1] + z[2] * z[2]);
  if (!(z[0] > 0) || (mu > 0 && !(r > 0) && mu * z[0] <= 10 * tol)) {
    double q[3];
    csi_project_dual_cone(w, mu, q);
    gam[0] = -q[0], gam[1] = -q[1], gam[2] = -q[2];
  } else if (mu == 0) {
    gam[0] = 0, gam[1] = -w[1], gam[2] = -w[2];
  } else if (mu * z[0] - r > 10 * tol) {
    gam[0] = gam[1] = gam[2] = 0;
  } else {
    double t1 = z[1] / r, t2 = z[2] / r, k = 1.0 / (1.0 + mu * mu);
    double c = mu * w[0] - t1 * w[1] - t2 * w[2]; /* -<w, n> sqrt(1 + mu^2) */
    c = c > 0 ? c * k : 0;
    gam[0] = -mu * c, gam[1] = c * t1, gam[2] = c * t2;
  }
}

/* The block rows of admm_start: z = P(lambda), s = 0, and gamma the projection of -v onto the
   normal cone of the block's set at z, so that P(z + gamma / rho) = z for every rho (as
   admm_normal_dual, for both models: a block has no shift): 0 inside the set and on a free
   row; min(-v, 0) at a unilateral row's 0; max(-v, 0) at a box's upper bound, min(-v, 0) at
   its lower one, -v at a bound of 0. */
static void admm_start_blocks(Admm* a, const double* lambda) {
  const csContactProblem* p = a->p;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    for (int i = 0; i < b->n; i++) {
      int r = b->row + i;
      double z = csi_block_project1(b->type, b->bound, lambda[r]), w = -a->v[r], gam = 0;
      if (b->type == CS_CONE_UNILATERAL && !(z > 0)) {
        gam = fmin(w, 0);
      } else if (b->type == CS_CONE_BOX) {
        int up = z >= b->bound, lo = z <= -b->bound;
        gam = up && lo ? w : up ? fmax(w, 0) : lo ? fmin(w, 0) : 0;
      }
      a->z[r] = z, a->s[r] = 0, a->gam[r] = gam;
    }
  }
}

/* z = P_K(lambda), gamma = -P_K*(v + s) with v the velocity of lambda and s its shift
   (shift = 0: s = 0, the CCP start); the blocks' rows by admm_start_blocks. */
static void admm_start(Admm* a, const double* lambda, int shift) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  for (int i = 0; i < nc; i++) csi_project_cone(lambda + 3 * i, p->mu[i], a->z + 3 * i);
  csi_solver_velocity(p, lambda, a->v);
  admm_shift(a->ncp && shift, nc, p->mu, a->v, a->z, a->tol, a->s);
  for (int i = 0; i < nc; i++) {
    double w[3] = {a->v[3 * i] + a->s[3 * i], a->v[3 * i + 1], a->v[3 * i + 2]};
    if (a->ncp) {
      admm_normal_dual(a->z + 3 * i, p->mu[i] < 0 ? 0 : p->mu[i], w, a->tol, a->gam + 3 * i);
    } else {
      csi_project_dual_cone(w, p->mu[i], w);
      a->gam[3 * i] = -w[0], a->gam[3 * i + 1] = -w[1], a->gam[3 * i + 2] = -w[2];
    }
  }
  if (p->nblock) admm_start_blocks(a, lambda);
}

/* x <- (G + R + rho I)^-1 x with the factor at hand (admm_factor's). */
static void admm_solve(const Admm* a, double* x) {
  if (!a->sym)
    csi_lu_solve(a->n, a->L, a->piv, x);
  else if (a->p->nblock)
    chol_rd_solve(a->n, a->L, x);
  else
    ldl3_solve(a->p->nc, a->L, x);
}

/* The block rows of admm_iterate: z = P(lambda^ + gamma / rho) row by row (a free row: z =
   lambda^, its gamma stays 0), gamma's update, and the rows' primal and dual residuals into
   *ep, *ed (s = 0 there). */
static void admm_iterate_blocks(Admm* a, const double* lambda, double* ep, double* ed) {
  const csContactProblem* p = a->p;
  double rho = a->rho;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    for (int i = 0; i < b->n; i++) {
      int r = b->row + i;
      if (b->type == CS_CONE_FREE) {
        a->z[r] = a->lh[r];
      } else {
        a->z[r] = csi_block_project1(b->type, b->bound, a->lh[r] + a->gam[r] / rho);
        a->gam[r] += rho * (a->lh[r] - a->z[r]);
      }
      *ep = csi_max(*ep, fabs(lambda[r] - a->z[r]));
      *ed = csi_max(*ed, fabs(a->v[r] + a->gam[r]));
    }
  }
}

/* One iteration from (z, gamma, s): lambda, its velocity v, new z and gamma; the primal
   and dual residuals into rp, rd. */
static void admm_iterate(Admm* a, double* lambda, double* rp, double* rd) {
  const csContactProblem* p = a->p;
  int n = a->n;
  double rho = a->rho;
  /* lambda-update: (G + R + rho I) lambda = -(g + s) + rho z - gamma */
  for (int r = 0; r < n; r++) a->rhs[r] = -(p->g[r] + a->s[r]) + rho * a->z[r] - a->gam[r];
  memcpy(lambda, a->rhs, sizeof(double) * (size_t)n);
  admm_solve(a, lambda);
  /* v = (G + R) lambda + g = rhs - rho lambda + g: O(n), no product with G */
  for (int r = 0; r < n; r++) a->v[r] = a->rhs[r] - rho * lambda[r] + p->g[r];
  for (int r = 0; r < n; r++) a->lh[r] = a->omega * lambda[r] + (1.0 - a->omega) * a->z[r];
  double ep = 0, ed = 0;
  for (int i = 0; i < p->nc; i++) {
    double w[3];
    for (int k = 0; k < 3; k++) w[k] = a->lh[3 * i + k] + a->gam[3 * i + k] / rho;
    csi_project_cone(w, p->mu[i], a->z + 3 * i);
    for (int k = 0; k < 3; k++) {
      int r = 3 * i + k;
      a->gam[r] += rho * (a->lh[r] - a->z[r]);
      ep = csi_max(ep, fabs(lambda[r] - a->z[r]));
      ed = csi_max(ed, fabs(a->v[r] + a->s[r] + a->gam[r]));
    }
  }
  if (p->nblock) admm_iterate_blocks(a, lambda, &ep, &ed);
  *rp = ep, *rd = ed;
}

/* The model's residual of lambda with its true velocity (into v): eps_abs for the NCP, the
   CCP natural map for the CCP; the blocks' residual for both. */
static double admm_model_residual(const Admm* a, const double* lambda, double* v) {
  const csContactProblem* p = a->p;
  csi_solver_velocity(p, lambda, v);
  double worst = 0;
  for (int i = 0; i < p->nc; i++) {
    double e = a->ncp ? csi_ncp_contact_residual(lambda + 3 * i, v + 3 * i, p->mu[i])
                      : csi_ccp_contact_residual(lambda + 3 * i, v + 3 * i, p->mu[i]);
    if (!(e <= worst)) worst = e;
  }
  return admm_with_blocks(p, worst, lambda, v);
}

/* ------------------------------------------------------------------ polish

   Internal forces. With redundant contacts (a box on 4 coplanar corners) G is singular and
   lambda + delta, delta in null(G), has the same velocities: at stiction every such lambda
   solves the problem, and which one ADMM returns depends on its path (a projection onto
   the cone boundary in a transient iterate leaves a null-space part) and on the warm
   start, so internal forces build up step after step. The solution without them is the
   one with no null-space part, lambda - P lambda, P the orthogonal projector onto null(G);
   it is also the limit of a vanishing compliance R = eps I. P x is the limit of
   x <- rho (G + rho I)^-1 x (eigenvalue 1 on null(G), rho / (sigma + rho) < 1 elsewhere),
   a few solves with the factor at hand. The step delta = -P lambda is taken as far as the
   model's criterion stays below max(tol, its value at lambda) and no cone is left
   further than before (t in [0, 1] by bisection; |lambda + t delta| decreases with t): a contact
   whose share of the load would leave its cone (the unloaded rear contacts of a pushed cube before
   it slides) stops the step at the cone, which is the least-norm feasible distribution when the
   freedom is one-dimensional. With a compliance R there is no null space, and an asymmetric G (LU)
   is left alone. */
enum { CS_ADMM_POLISH = 50, CS_ADMM_BISECT = 30 };

/* How far x is outside a 1-row block's set (0 for a free row). */
static double admm_block_dist(const csBlock* b, double x) {
  if (b->type == CS_CONE_UNILATERAL) return x < 0 ? -x : 0;
  if (b->type == CS_CONE_BOX) return fmax(fabs(x) - b->bound, 0);
  return 0;
}

/* admm_line_ok and admm_polish_feasible on the blocks: 1 if lambda + t delta leaves no
   block's set further than lambda does and, given gd (G delta; NULL: not asked), each block's
   residual with the velocity v + t gd is within bound. */
static int admm_line_ok_blocks(const Admm* a, const double* lambda, const double* delta,
                               const double* v, const double* gd, double t, double bound) {
  const csContactProblem* p = a->p;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    double l[6], w[6];
    for (int i = 0; i < b->n; i++) {
      int r = b->row + i;
      l[i] = lambda[r] + t * delta[r];
      if (admm_block_dist(b, l[i]) > admm_block_dist(b, lambda[r])) return 0;
      if (gd) w[i] = v[r] + t * gd[r];
    }
    if (gd && !(csi_block_residual(b, l, w) <= bound)) return 0;
  }
  return 1;
}

/* 1 if lambda + t delta (velocity v + t Gd) meets the bound on the model's criterion
   without leaving any cone (or block's set) further than lambda does (so a contact stopped at
   its cone is on it, not tol beyond). */
static int admm_line_ok(const Admm* a, const double* lambda, const double* delta, const double* v,
                        const double* gd, double t, double bound) {
  const csContactProblem* p = a->p;
  if (p->nblock && !admm_line_ok_blocks(a, lambda, delta, v, gd, t, bound)) return 0;
  for (int i = 0; i < p->nc; i++) {
    double l[3], w[3];
    for (int k = 0; k < 3; k++) {
      l[k] = lambda[3 * i + k] + t * delta[3 * i + k];
      w[k] = v[3 * i + k] + t * gd[3 * i + k];
    }
    double e = a->ncp ? csi_ncp_contact_residual(l, w, p->mu[i])
                      : csi_ccp_contact_residual(l, w, p->mu[i]);
    if (!(e <= bound)) return 0;
    if (csi_dist_cone(l, p->mu[i]) > csi_dist_cone(lambda + 3 * i, p->mu[i])) return 0;
  }
  return 1;
}

/* 1 if lambda - t x stays in every cone (and block's set) lambda is in (none left further
   than before). */
static int admm_polish_feasible(const Admm* a, const double* lambda, const double* x, double t) {
  const csContactProblem* p = a->p;
  if (p->nblock && !admm_line_ok_blocks(a, lambda, x, NULL, NULL, -t, 0)) return 0;
  for (int i = 0; i < p->nc; i++) {
    double l[3];
    for (int k = 0; k < 3; k++) l[k] = lambda[3 * i + k] - t * x[3 * i + k];
    if (csi_dist_cone(l, p->mu[i]) > csi_dist_cone(lambda + 3 * i, p->mu[i])) return 0;
  }
  return 1;
}

/* The polish's direction delta = -P lambda into a->lh (lmax = max |lambda|): the factor at
   1e-4 L, then x <- rho (G + rho I)^-1 x from x = lambda. Returns 0 if there is nothing to
   remove (no null space, or P lambda ~ 0) or a short step along delta leaves a cone. */
static int admm_polish_direction(Admm* a, const double* lambda, double lmax) {
  const csContactProblem* p = a->p;
  int n = a->n;
  double* x = a->lh; /* P lambda, then delta */
  double* prev = a->best;
  /* rho (G + rho I)^-1 shrinks the range of G by rho / (sigma + rho) per step: with the
     iteration's rho (up to ~L) that takes up to CS_ADMM_POLISH solves, most of them to find
     that a full-rank G (legged robots' point feet) has nothing to remove. A factor at 1e-4 L
     gets there in a few steps. Not smaller: at 1e-6 L the cube_push distribution in the last
     steps before the slide onset ends 0.013 N away from the least-norm one (test_solvers
     checks it up to the onset); the likely cause: directions with sigma between 1e-6 and
     1e-4 L treated as null. */
  double rp = fmax(1e-4 * a->Lmax, a->rho_min);
  if (a->rho > rp) {
    double got = admm_factor(p, rp, 1, a->L, &a->fpmin, a->piv);
    if (got < 0) return 0;
    a->rho = got;
  }
  /* No null space, nothing to remove: a unit null vector u of G whose last nonzero entry is
     u_k is a null vector of the leading k x k block too, so that block plus rho I has the
     eigenvalue rho and the k-th pivot of the factor is at most rho / u_k^2. Pivots all
     above 100 rho leave no null vector with a last entry above 0.1 (nor a near-null one
     with sigma below ~100 rho): a full-rank G (a legged robot on its point feet) is
     recognised from the factor alone, without the solves. */
  if (a->fpmin > 100 * a->rho) return 0;
  memcpy(x, lambda, sizeof(double) * (size_t)n);
  for (int k = 0; k < CS_ADMM_POLISH; k++) {
    memcpy(prev, x, sizeof(double) * (size_t)n);
    for (int r = 0; r < n; r++) x[r] *= a->rho;
    admm_solve(a, x);
    double d = 0, xm = 0;
    for (int r = 0; r < n; r++) d = csi_max(d, fabs(x[r] - prev[r])), xm = csi_max(xm, fabs(x[r]));
    if (d <= 1e-13 * lmax || xm <= 1e-14 * lmax) break;
    /* After two steps x is P lambda up to (rho / (sigma + rho))^2 on the range: if a short
       step along -x already takes some contact out of its cone (a contact on the boundary
       whose share of the internal force points outward), the line search below would
       stop at t = 0 - most of drop's 8-contact solves, after 17-46 solves and 30 halvings
       for nothing. The remaining steps are skipped then. */
    if (k == 1 && !admm_polish_feasible(a, lambda, x, 1e-6 * lmax / xm)) return 0;
  }
  double xmax = 0;
  for (int r = 0; r < n; r++) {
    x[r] = -x[r];
    xmax = fmax(xmax, fabs(x[r]));
  }
  return !(xmax <= 1e-14 * lmax); /* else nothing to remove */
}

/* The polish's step lambda + t delta (delta in a->lh): the largest t in [0, 1] admm_line_ok
   takes (by bisection), kept if its residual with the true product is within tol. */
static void admm_polish_step(Admm* a, double* lambda, double tol, double* res) {
  const csContactProblem* p = a->p;
  int n = a->n;
  double* x = a->lh; /* delta */
  double* prev = a->best;
  double* v = a->rhs; /* v(lambda) */
  double* gd = a->s;  /* G delta */
  csi_solver_velocity(p, lambda, v);
  for (int r = 0; r < n; r++) { /* G delta, without g */
    const double* Gr = p->G + (size_t)r * (size_t)n;
    double sum = 0;
    for (int c = 0; c < n; c++) sum += Gr[c] * x[c];
    gd[r] = sum;
  }
  /* the tolerance, or no worse than lambda if it is already above that (half the tolerance
     stops the step short in the last steps before cube_push slides: 0.010 N left) */
  double bound = fmax(tol, *res);
  double lo = 0, hi = 1;
  if (admm_line_ok(a, lambda, x, v, gd, 1, bound)) {
    lo = 1;
  } else {
    for (int k = 0; k < CS_ADMM_BISECT; k++) {
      double t = 0.5 * (lo + hi);
      if (admm_line_ok(a, lambda, x, v, gd, t, bound))
        lo = t;
      else
        hi = t;
    }
  }
  if (lo == 0) return;
  for (int r = 0; r < n; r++) prev[r] = lambda[r] + lo * x[r];
  double e = admm_model_residual(a, prev, v); /* confirmed with the true product */
  if (e <= tol) {
    memcpy(lambda, prev, sizeof(double) * (size_t)n);
    *res = e;
  }
}

/* The polish: its direction (admm_polish_direction), then its step (admm_polish_step); not
   with a compliance R (no null space) or an asymmetric G. */
static void admm_polish(Admm* a, double* lambda, double tol, double* res) {
  const csContactProblem* p = a->p;
  int n = a->n;
  if (p->R || !a->sym) return;
  double lmax = 0;
  for (int r = 0; r < n; r++) lmax = fmax(lmax, fabs(lambda[r]));
  if (!(lmax > 0)) return;
  if (admm_polish_direction(a, lambda, lmax)) admm_polish_step(a, lambda, tol, res);
}

/* ------------------------------------------------------------------ active-set step

   The "solution polishing" of OSQP, for the NCP (ncp_admm). ADMM with the de Saxce cascade
   converges linearly, at best at the rate of the cascade's own fixed point (mu b / (a + mu b)
   per sliding contact, b and a from G's block: 0.4-0.75 for mu 0.8 on ANYmal's feet), so 1e-6
   from a 1e-3 warm start takes 10-30 iterations even once the contact modes are settled.
   Given the modes of an iterate z -- open (z = 0), sticking (strictly inside its cone, by
   more than 1e-9 mu z_N: a projection puts a sliding contact on the boundary up to rounding;
   not admm_shift's 10 tol, which at a loose tolerance calls every contact sliding) or sliding
   (on the boundary, friction direction t = z_T / |z_T|) -- the NCP solution with those modes
   solves a square system: lambda_i = 0 for the open contacts, v_i = 0 for the sticking ones
   (3 unknowns, 3 equations), and lambda_i = x_i (1, mu t) with v_N,i = 0 for the sliding ones
   (1 and 1, and with the slip angle as a second unknown, v_T,i parallel to t: Newton),
   v = (G + R) lambda + g; a block row's mode (CS_BM_*) adds an unknown with v_r = 0 or fixes
   its impulse. Its solution is accepted only if the modes are its own, the friction direction
   is its own slip's to first order and its NCP residual, projected on K, with the full
   product, meets the tolerance: the stopping test is the same, only the candidate is
   different. A singular or near-singular system (pivot below 1e-10 of the largest entry:
   redundant sticking contacts, whose internal forces it would make arbitrary) is reduced by
   those internal forces or solved least-norm; if neither works ADMM goes on.

   Its stages, in the order of the functions below:
     1. modes: admm_classify (contacts; admm_classify_blocks for the block rows);
     2. the linear algebra the systems use: the sticking block and its least-norm solution
        (admm_stick_block, admm_leastnorm), its null space, the internal forces
        (admm_pivoted_cholesky, admm_stick_null, admm_null_clean), the reduced system
        (admm_reduced), the square solve (admm_square_solve: reduced, LU or least-norm);
     3. the system of the modes: admm_newton_system (column, rows and right-hand side);
     4. one set of modes (admm_refine_modes): its set-up (admm_refine_setup: unknowns, null
        space), then rounds, each making the unknowns -- round 0 from the source
        (admm_refine_from_src, when a contact slides with friction) or by the linear system
        (admm_refine_linear: admm_refine_stick when every loaded contact sticks), later
        rounds by a Newton step (admm_refine_newton) -- then the candidate and its modes'
        check (admm_refine_candidate), its residual and maximal dissipation
        (admm_refine_mdp);
     5. the modes' updates (admm_refine): where a candidate contradicts its modes, those it
        asks for, and step 4 again (primal-dual active set, CS_ADMM_UPDATES times at most). */

/* Friction-direction rounds of one set of modes, and mode updates of one active-set step. */
enum { CS_ADMM_ROUNDS = 10, CS_ADMM_UPDATES = 3 };

/* A block row's mode in the active-set step (a->cls[admm_brow(a, r)] for row r): its impulse
   fixed at 0 (an inactive unilateral row), an unknown whose equation is v_r = 0 (an active
   unilateral row, a box row inside its bound, a free row), or fixed at a box's upper or lower
   bound. */
enum { CS_BM_ZERO = 0, CS_BM_EQ = 1, CS_BM_UP = 2, CS_BM_LO = 3 };

/* The index of block row r's mode in a mode array: after the nc contacts'. */
static inline int admm_brow(const Admm* a, int r) { return r - 2 * a->p->nc; }

/* The block rows in mode CS_BM_EQ (the blocks' unknowns). */
static int admm_block_unknowns(const Admm* a) {
  int m = 0;
  for (int r = a->n3; r < a->n; r++) m += a->cls[admm_brow(a, r)] == CS_BM_EQ;
  return m;
}

/* The block rows' modes of z (in the blocks' sets) into cls: a unilateral row above 0 is
   active, a box row strictly inside its bound interior (a bound of 0: at its upper bound, the
   impulse fixed at 0), a free row always an unknown. */
static void admm_classify_blocks(const Admm* a, const double* z, int* cls) {
  const csContactProblem* p = a->p;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    for (int i = 0; i < b->n; i++) {
      int r = b->row + i, c = CS_BM_EQ;
      if (b->type == CS_CONE_UNILATERAL)
        c = z[r] > 0 ? CS_BM_EQ : CS_BM_ZERO;
      else if (b->type == CS_CONE_BOX)
        c = z[r] >= b->bound ? CS_BM_UP : z[r] <= -b->bound ? CS_BM_LO : CS_BM_EQ;
      cls[admm_brow(a, r)] = c;
    }
  }
}

/* The modes of z into cls: the contacts' (0 open, 1 stick, 2 slide; a sliding contact's
   friction direction mu t into a->dir), then the block rows'. */
static void admm_classify(const Admm* a, const double* z, int* cls) {
  const csContactProblem* p = a->p;
  for (int i = 0; i < p->nc; i++) {
    const double* zi = z + 3 * i;
    double mu = p->mu[i] < 0 ? 0 : p->mu[i], r = csi_norm2(zi[1], zi[2]);
    int c = 0;
    if (!(zi[0] > 0))
      c = 0;
    else if (mu * zi[0] - r > 1e-9 * mu * zi[0])
      c = 1;
    else if (mu == 0 || r > 0)
      c = 2;
    cls[i] = c;
    if (c == 2) {
      a->dir[2 * i] = mu > 0 ? mu * zi[1] / r : 0;
      a->dir[2 * i + 1] = mu > 0 ? mu * zi[2] / r : 0;
    }
  }
  if (p->nblock) admm_classify_blocks(a, z, cls);
}

/* The lower block triangle of G + R + shift I on the sticking contacts (every loaded one
   sticks) into a->A (m x m): all the Cholesky reads. Returns the largest diagonal entry,
   which bounds |entries| of a PSD matrix (anything else fails the factor or the test). */
static double admm_stick_block(Admm* a, int m, double shift) {
  const csContactProblem* p = a->p;
  int nc = p->nc, n = a->n;
  double amax = 0;
  for (int i = 0, bi = 0; i < nc; i++) {
    if (a->cls[i] != 1) continue;
    for (int k = 0; k < 3; k++) {
      int r = 3 * i + k;
      const double* Gr = p->G + (size_t)r * (size_t)n;
      double* Ae = a->A + (size_t)(3 * bi + k) * (size_t)m;
      for (int j = 0, bj = 0; j <= i; j++) {
        if (a->cls[j] != 1) continue;
        Ae[3 * bj] = Gr[3 * j], Ae[3 * bj + 1] = Gr[3 * j + 1], Ae[3 * bj + 2] = Gr[3 * j + 2];
        bj++;
      }
      double d = Ae[3 * bi + k] += p->R ? p->R[r] : 0;
      amax = csi_max(amax, fabs(d));
      Ae[3 * bi + k] += shift;
    }
    bi++;
  }
  return amax;
}

/* The least-norm solution of a singular all-sticking system B x = b, B the block of G + R on
   the sticking contacts (consistent: g lies in the range of J, and so of G), into a->ab:
   iterated Tikhonov from x = 0, x <- x + (B + eps I)^-1 (b - B x). Every correction lies in
   the range of B, so x never gains a null-space part (up to rounding), and the range part
   converges by eps / (sigma + eps) a step. eps = 1e-6 of the largest diagonal entry: a step
   turns the rounding of b - B x along the null space (1e-16 |g|) into a null-space part
   of 1e-16 |g| / eps: 1e-9 N of internal force on cube_push at rest (an eps of 1e-9 would
   leave 1e-6 N); the range converges at 1e-6 / (sigma / amax) a step. At most 8 steps,
   until max |b - B x| <= tol / 100. Returns 0 if that is not reached (the
   factor fails, or the system is inconsistent: g out of the range, a non-Delassus G). */
static int admm_leastnorm(Admm* a, int m, double amax) {
  const csContactProblem* p = a->p;
  int nc = p->nc, n = a->n;
  double eps = 1e-6 * amax;
  admm_stick_block(a, m, eps);
  double pmin;
  if (!ldl3(m / 3, NULL, a->A, &pmin)) return 0;
  double *x = a->rhs, *r = a->ab;
  memset(x, 0, sizeof(double) * (size_t)m);
  for (int it = 0; it <= 8; it++) {
    double rmax = 0;
    for (int i = 0, bi = 0; i < nc; i++) { /* r = b - B x = -(g + (G + R) x) on the rows */
      if (a->cls[i] != 1) continue;
      for (int k = 0; k < 3; k++) {
        int row = 3 * i + k;
        const double* Gr = p->G + (size_t)row * (size_t)n;
        double sum = p->g[row] + (p->R ? p->R[row] * x[3 * bi + k] : 0);
        for (int j = 0, bj = 0; j < nc; j++) {
          if (a->cls[j] != 1) continue;
          sum +=
              Gr[3 * j] * x[3 * bj] + Gr[3 * j + 1] * x[3 * bj + 1] + Gr[3 * j + 2] * x[3 * bj + 2];
          bj++;
        }
        r[3 * bi + k] = -sum;
        rmax = csi_max(rmax, fabs(sum));
      }
      bi++;
    }
    if (!isfinite(rmax)) return 0;
    if (rmax <= 1e-2 * a->tol) {
      memcpy(a->ab, x, sizeof(double) * (size_t)m);
      return 1;
    }
    if (it == 8) break;
    ldl3_solve(m / 3, a->A, r);
    for (int k = 0; k < m; k++) x[k] += r[k];
  }
  return 0;
}

/* Cholesky with diagonal pivoting of S (k x k, its lower triangle; in place), right-looking in
   LAPACK's dpstrf order, stopping when the largest remaining pivot is below 1e-10 dmax;
   perm[i]: the variable at position i. Returns the rank reached. */
static int admm_pivoted_cholesky(double* S, int k, int* perm, double dmax) {
#define CS_S(i, j) S[(size_t)(i) * (size_t)k + (size_t)(j)]
  int r = 0;
  for (; r < k; r++) {
    int pv = r;
    for (int i = r + 1; i < k; i++)
      if (CS_S(i, i) > CS_S(pv, pv)) pv = i;
    if (!(CS_S(pv, pv) > 1e-10 * dmax)) break;
    if (pv != r) { /* symmetric swap of r and pv in lower storage */
      double t;
      for (int c = 0; c < r; c++) t = CS_S(r, c), CS_S(r, c) = CS_S(pv, c), CS_S(pv, c) = t;
      t = CS_S(r, r), CS_S(r, r) = CS_S(pv, pv), CS_S(pv, pv) = t;
      for (int i = r + 1; i < pv; i++) t = CS_S(i, r), CS_S(i, r) = CS_S(pv, i), CS_S(pv, i) = t;
      for (int i = pv + 1; i < k; i++) t = CS_S(i, r), CS_S(i, r) = CS_S(i, pv), CS_S(i, pv) = t;
      int q = perm[r];
      perm[r] = perm[pv], perm[pv] = q;
    }
    double l = sqrt(CS_S(r, r)), il = 1.0 / l;
    double lc[3 * CS_ADMM_AS_MAX]; /* column r below the diagonal, contiguous */
    CS_S(r, r) = l;
    for (int i = r + 1; i < k; i++) CS_S(i, r) *= il, lc[i] = CS_S(i, r);
    for (int i = r + 1; i < k; i++) {
      double li = lc[i];
      double* Si = S + (size_t)i * (size_t)k;
      for (int c = r + 1; c <= i; c++) Si[c] -= li * lc[c];
    }
  }
#undef CS_S
  return r;
}

/* The internal forces of the sticking contacts: the null space of their block S of G + R
   (k = 3 x sticking contacts), by Cholesky with diagonal pivoting, which stops at rank r when
   the largest remaining pivot is below 1e-10 of S's largest diagonal entry; the null vectors
   are then P [-L11^-T L21^T; I] (P the pivoting). Into a->nul, a->nd = k - r. Such a vector
   n has G_{:,S} n = J M^-1 J_S^T n = 0 for every row (J_S^T n = 0 for a PSD S = J_S M^-1
   J_S^T), so it is a null vector of every active-set and Newton system with these sticking
   contacts, on either side (G symmetric). Returns 0, or -1 (more than CS_ADMM_NUL, or not
   finite). */
static int admm_stick_null(Admm* a, int k) {
  double* S = a->A;
  admm_stick_block(a, k, 0); /* the lower block triangle: all the factor reads */
  int* perm = a->apiv;
  double dmax = 0;
  for (int i = 0; i < k; i++) perm[i] = i, dmax = csi_max(dmax, S[(size_t)i * k + i]);
  if (!(dmax > 0) || !isfinite(dmax)) return -1;
  int r = admm_pivoted_cholesky(S, k, perm, dmax);
  int d = k - r;
  a->nd = 0;
  if (d > CS_ADMM_NUL) return -1;
  for (int i = 0; i < k; i++) a->dep[perm[i]] = i >= r;
  for (int t = 0; t < d; t++) {
    int c = r + t;
    double y[3 * CS_ADMM_AS_MAX];
    for (int i = r - 1; i >= 0; i--) { /* L11^T y = -(row c of L21) */
      double sum = -S[(size_t)c * k + i];
      for (int l = i + 1; l < r; l++) sum -= S[(size_t)l * k + i] * y[l];
      y[i] = sum / S[(size_t)i * k + i];
    }
    double* N = a->nul;
    for (int i = 0; i < k; i++) N[(size_t)t * (size_t)k + (size_t)perm[i]] = i < r ? y[i] : i == c;
    for (int u = 0; u < t; u++) { /* orthonormal columns (Gram-Schmidt): N^T N = I */
      double dot = 0;
      for (int i = 0; i < k; i++)
        dot += N[(size_t)u * (size_t)k + (size_t)i] * N[(size_t)t * (size_t)k + (size_t)i];
      for (int i = 0; i < k; i++)
        N[(size_t)t * (size_t)k + (size_t)i] -= dot * N[(size_t)u * (size_t)k + (size_t)i];
    }
    double nn = 0;
    for (int i = 0; i < k; i++)
      nn += N[(size_t)t * (size_t)k + (size_t)i] * N[(size_t)t * (size_t)k + (size_t)i];
    if (!(nn > 0) || !isfinite(nn)) return -1;
    nn = 1.0 / sqrt(nn);
    for (int i = 0; i < k; i++) N[(size_t)t * (size_t)k + (size_t)i] *= nn;
  }
  a->nd = d;
  return 0;
}

/* x (k sticking variables, in contact order) minus its part in the span of a->nul (whose
   columns are orthonormal): x - N N^T x. */
static void admm_null_clean(const Admm* a, int k, double* x) {
  int d = a->nd;
  const double* N = a->nul;
  for (int t = 0; t < d; t++) {
    double c = 0;
    const double* Nt = N + (size_t)t * (size_t)k;
    for (int i = 0; i < k; i++) c += Nt[i] * x[i];
    for (int i = 0; i < k; i++) x[i] -= Nt[i] * c;
  }
}

/* The current system A (m x m, its copy in a->Ac, b in s1) without the internal forces' own
   unknowns and equations: the dependent sticking variables of admm_stick_null (a null
   vector's entry 1) are fixed at 0 and their rows dropped (each is a combination of the kept
   rows, given a consistent b: the left null vectors are the same), which leaves m - nd
   unknowns; then x - N N^T x on the sticking part, a null vector of A, removes the
   internal forces. The same solution as the deflated system A + amax N N^T (the first way
   here: N^T A = 0 and N^T b = 0 make its solutions those of A with N^T x = 0), by an LU of
   nd fewer rows and no rank-nd update (drop's resting torso: 4 sticking corners, nd = 6 of
   ~22 unknowns). 1 if solved (x in a->ab), 0 if the reduced system is still singular. */
static int admm_reduced(Admm* a, int m, int k, double amax, const double* b, double* xs) {
  int* um = a->umap;
  for (int u = 0; u < m; u++) um[u] = 0;
  for (int i = 0; i < k; i++)
    if (a->dep[i]) um[a->smap[i]] = -1;
  int M = 0;
  for (int u = 0; u < m; u++) um[u] = um[u] < 0 ? -1 : M++;
  double* B = a->A;
  const double* A = a->Ac;
  for (int i = 0; i < m; i++) {
    if (um[i] < 0) continue;
    double* Bi = B + (size_t)um[i] * (size_t)M;
    const double* Ai = A + (size_t)i * (size_t)m;
    for (int j = 0; j < m; j++)
      if (um[j] >= 0) Bi[um[j]] = Ai[j];
    a->ab[um[i]] = b[i];
  }
  if (!csi_lu(M, B, a->apiv)) return 0;
  double umin = INFINITY;
  for (int i = 0; i < M; i++) umin = csi_min(umin, fabs(B[(size_t)i * M + i]));
  if (!(umin >= 1e-10 * amax)) return 0;
  csi_lu_solve(M, B, a->apiv, a->ab);
  for (int u = m - 1; u >= 0; u--) a->ab[u] = um[u] >= 0 ? a->ab[um[u]] : 0; /* um[u] <= u */
  for (int i = 0; i < k; i++) xs[i] = a->ab[a->smap[i]];
  admm_null_clean(a, k, xs);
  for (int i = 0; i < k; i++) a->ab[a->smap[i]] = xs[i];
  return 1;
}

/* The unknown of each sticking variable in the systems: contacts in order, a sticking one
   3 unknowns, a sliding one 1 (and its angle in a Newton system, if mu > 0). */
static void admm_map(Admm* a, int newton) {
  const csContactProblem* p = a->p;
  int u = 0, k = 0;
  for (int i = 0; i < p->nc; i++) {
    if (a->cls[i] == 1)
      for (int q = 0; q < 3; q++) a->smap[k++] = u++;
    else if (a->cls[i] == 2)
      u += newton && p->mu[i] > 0 ? 2 : 1;
  }
}

/* The pivots' scale of the active-set systems: G's largest diagonal entry over the loaded
   contacts (and the blocks' unknowns), which bounds every entry of G (PSD) and, within a
   factor 1 + mu, of these systems (a scan of the m^2 entries would be a tenth of the step). */
static double admm_pivot_scale(const Admm* a) {
  const csContactProblem* p = a->p;
  double amax = 0;
  for (int i = 0; i < p->nc; i++) {
    if (a->cls[i] == 0) continue;
    for (int r = 3 * i; r < 3 * i + 3; r++)
      amax = csi_max(amax, fabs(p->G[(size_t)r * (size_t)a->n + r]) + (p->R ? p->R[r] : 0));
  }
  for (int r = a->n3; r < a->n; r++)
    if (a->cls[admm_brow(a, r)] == CS_BM_EQ)
      amax = csi_max(amax, fabs(p->G[(size_t)r * (size_t)a->n + r]) + (p->R ? p->R[r] : 0));
  return amax;
}

/* C = A A^T (m x m, its lower triangle; two columns of C at a time) plus 1e-9 of its largest
   diagonal entry on the diagonal. */
static void admm_gram(int m, const double* A, double* C) {
  double cmax = 0;
  for (int i = 0; i < m; i++) {
    const double* Ai = A + (size_t)i * m;
    int j = 0;
    for (; j + 1 <= i; j += 2) {
      const double *Aj = A + (size_t)j * m, *Ak = Aj + m;
      double c0 = 0, c1 = 0;
      for (int k = 0; k < m; k++) c0 += Ai[k] * Aj[k], c1 += Ai[k] * Ak[k];
      C[(size_t)i * m + j] = c0, C[(size_t)i * m + j + 1] = c1;
    }
    if (j <= i) {
      const double* Aj = A + (size_t)j * m;
      double c0 = 0;
      for (int k = 0; k < m; k++) c0 += Ai[k] * Aj[k];
      C[(size_t)i * m + j] = c0;
    }
    cmax = csi_max(cmax, C[(size_t)i * m + i]);
  }
  for (int i = 0; i < m; i++) C[(size_t)i * m + i] += 1e-9 * cmax;
}

/* The least-norm solution of a singular square system A x = b (A: the copy a->Ac, b in a->ab,
   x there on return): x = A^T y, (A A^T) y = b, by iterated Tikhonov on A A^T from y = 0
   (every step in its range; eps = 1e-9 of its largest diagonal entry; at most 8 steps, to
   max |b - A x| <= tol / 100). Returns 0 if b is not in A's range (no solution with these
   modes and directions). s1, s2: scratch of m. */
static int admm_square_leastnorm(Admm* a, int m, double* s1, double* s2) {
  const double* A = a->Ac;
  double* C = a->A;
  admm_gram(m, A, C);
  if (!csi_cholesky(m, C, a->adinv)) return 0;
  double *y = s1, *r = s2, *x = a->rhs, *b = a->ab;
  memset(y, 0, sizeof(double) * (size_t)m);
  memset(x, 0, sizeof(double) * (size_t)m);
  double rprev = INFINITY;
  for (int it = 0; it <= 8; it++) {
    double rmax = 0;
    for (int i = 0; i < m; i++) { /* r = b - A x, x = A^T y */
      const double* Ai = A + (size_t)i * m;
      double sum = b[i];
      for (int k = 0; k < m; k++) sum -= Ai[k] * x[k];
      r[i] = sum;
      rmax = csi_max(rmax, fabs(sum));
    }
    if (!isfinite(rmax)) return 0;
    if (rmax <= 1e-2 * a->tol) {
      memcpy(b, x, sizeof(double) * (size_t)m);
      return 1;
    }
    /* Stalled: at the rounding floor of A A^T (its condition is A's squared: ~1e-7 on
       ANYmal's redundant contacts), taken if below half the tolerance (the candidate is
       tested anyway); else b is not in the range: no solution with these modes and
       directions. */
    if (it == 8 || !(rmax <= 0.1 * rprev)) {
      if (!(rmax <= 0.5 * a->tol)) break;
      memcpy(b, x, sizeof(double) * (size_t)m);
      return 1;
    }
    rprev = rmax;
    csi_cholesky_solve(m, C, a->adinv, r);
    for (int i = 0; i < m; i++) y[i] += r[i];
    for (int k = 0; k < m; k++) x[k] = 0;
    for (int i = 0; i < m; i++) {
      const double* Ai = A + (size_t)i * m;
      for (int k = 0; k < m; k++) x[k] += Ai[k] * y[i];
    }
  }
  return 0;
}

/* A x = b for the square active-set and Newton systems (a->A, m x m, b in a->ab, x there
   on return), in three ways: with redundant sticking contacts (a->nd internal forces) the
   system reduced by them (admm_reduced); else LU with partial pivoting; if a pivot is below
   1e-10 of the largest entry (redundant contacts: two sticking points of one body can pull
   against each other), the least-norm solution (admm_square_leastnorm), or -1 if probe (the
   caller changes its approach). *well: 1 for pivots above 1e-4 of the largest entry or the
   least-norm solution (no arbitrary internal force in either), else 0. Returns 0 if none
   works (an inconsistent singular system: no solution with these modes). s1, s2: scratch
   of m. */
static int admm_square_solve(Admm* a, int m, double* s1, double* s2, int* well, int probe) {
  const csContactProblem* p = a->p;
  double amax = admm_pivot_scale(a);
  if (!(amax > 0) || !isfinite(amax)) return 0;
  memcpy(a->Ac, a->A, sizeof(double) * (size_t)m * (size_t)m);
  if (a->nd > 0) {
    /* redundant sticking contacts: singular for sure, reduced by their internal forces */
    int k = 0;
    for (int i = 0; i < p->nc; i++) k += a->cls[i] == 1 ? 3 : 0;
    memcpy(s1, a->ab, sizeof(double) * (size_t)m);
    if (admm_reduced(a, m, k, amax, s1, s2)) {
      *well = 1;
      return 1;
    }
    memcpy(a->ab, s1, sizeof(double) * (size_t)m); /* below, as if not known */
    memcpy(a->A, a->Ac, sizeof(double) * (size_t)m * (size_t)m);
  }
  double umin = 0;
  /* a->lnorm: an earlier system of this active-set step (the same modes) was singular, so
     this one (only the slip angles differ) is taken as singular too */
  if (!a->lnorm && csi_lu(m, a->A, a->apiv)) {
    umin = INFINITY;
    for (int k = 0; k < m; k++) umin = csi_min(umin, fabs(a->A[(size_t)k * m + k]));
  }
  if (umin >= 1e-10 * amax) {
    *well = umin >= 1e-4 * amax;
    csi_lu_solve(m, a->A, a->apiv, a->ab);
    return 1;
  }
  if (probe) return -1; /* singular: the caller changes its approach */
  a->lnorm = 1;
  if (!admm_square_leastnorm(a, m, s1, s2)) return 0;
  *well = 1;
  return 1;
}

/* The column of G + R along the unknown q of contact j (its mode in a->cls) into col (n): a
   sticking impulse's own column, a sliding contact's x along (1, mu t) or its angle, x mu (0,
   -sin, cos). */
static void admm_newton_column(const Admm* a, int j, int q, double* col) {
  const csContactProblem* p = a->p;
  int n = a->n;
  const double* dir = a->dir;
  double d[3];
  if (a->cls[j] == 1) {
    d[0] = d[1] = d[2] = 0, d[q] = 1;
  } else if (q == 0) { /* x: along (1, mu t) */
    d[0] = 1, d[1] = dir[2 * j], d[2] = dir[2 * j + 1];
  } else { /* the angle: x mu (0, -sin, cos) */
    double x = a->hist[3 * j];
    d[0] = 0, d[1] = -x * dir[2 * j + 1], d[2] = x * dir[2 * j];
  }
  if (!p->asym) {
    /* G symmetric: the column G d is rows 3j..3j+2 of G combined, contiguous (a
       sticking contact's unit d: one row) */
    const double* G0 = p->G + (size_t)(3 * j) * (size_t)n;
    if (a->cls[j] == 1) {
      memcpy(col, G0 + (size_t)q * (size_t)n, sizeof(double) * (size_t)n);
    } else {
      const double* G1 = G0 + n;
      const double* G2 = G1 + n;
      for (int r = 0; r < n; r++) col[r] = G0[r] * d[0] + G1[r] * d[1] + G2[r] * d[2];
    }
  } else {
    for (int r = 0; r < n; r++) {
      const double* Gr = p->G + (size_t)r * (size_t)n + 3 * j;
      col[r] = Gr[0] * d[0] + Gr[1] * d[1] + Gr[2] * d[2];
    }
  }
  if (p->R)
    for (int k = 0; k < 3; k++) col[3 * j + k] += p->R[3 * j + k] * d[k];
}

/* Column u of the Newton system (m x m, a->A) from col, the column of G + R of its unknown
   (the unknown q of contact j; j = -1 for a block row's): each equation's combination of
   col's rows, the contacts' equations first (a sticking contact's v_i, a sliding one's v_N,i
   and, with angles, v_T,i x t_i), then the block rows' v_r = 0. */
static void admm_newton_rows(Admm* a, const double* col, const double* vout, int j, int q, int u,
                             int m, int angles) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  const int* cls = a->cls;
  const double* dir = a->dir;
  int e = 0;
  for (int i = 0; i < nc; i++) {
    if (cls[i] == 0) continue;
    const double* ci = col + 3 * i;
    if (cls[i] == 1) {
      for (int k = 0; k < 3; k++, e++) a->A[(size_t)e * m + u] = ci[k];
      continue;
    }
    a->A[(size_t)e++ * m + u] = ci[0];
    if (angles && p->mu[i] > 0) { /* v_T x t = v_1 sin - v_2 cos, t = dir / mu */
      double mi = p->mu[i], c = dir[2 * i] / mi, s = dir[2 * i + 1] / mi;
      double g = s * ci[1] - c * ci[2];
      if (i == j && q == 1) g += (vout[3 * i + 1] * c + vout[3 * i + 2] * s);
      a->A[(size_t)e++ * m + u] = g;
    }
  }
  if (p->nblock)
    for (int r = a->n3; r < a->n; r++)
      if (cls[admm_brow(a, r)] == CS_BM_EQ) a->A[(size_t)e++ * m + u] = col[r];
}

/* The Newton system's right-hand side, minus the equations' values at vout, into a->ab. */
static void admm_newton_rhs(Admm* a, const double* vout, int angles) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  const int* cls = a->cls;
  const double* dir = a->dir;
  int e = 0;
  for (int i = 0; i < nc; i++) {
    if (cls[i] == 0) continue;
    const double* vi = vout + 3 * i;
    if (cls[i] == 1) {
      a->ab[e++] = -vi[0], a->ab[e++] = -vi[1], a->ab[e++] = -vi[2];
      continue;
    }
    a->ab[e++] = -vi[0];
    if (angles && p->mu[i] > 0) {
      double mi = p->mu[i], c = dir[2 * i] / mi, s = dir[2 * i + 1] / mi;
      a->ab[e++] = -(vi[1] * s - vi[2] * c);
    }
  }
  if (p->nblock)
    for (int r = a->n3; r < a->n; r++)
      if (cls[admm_brow(a, r)] == CS_BM_EQ) a->ab[e++] = -vout[r];
}

/* The Newton system of the active-set step's rounds (admm_refine_modes) at the state
   whose velocity is vout, into a->A, a->ab; returns its size m. Without angles the sliding
   contacts keep their directions (one unknown, one equation each): from lambda = 0 (vout =
   g) that is the first round's linear system. Column by column: the unknown's column of G + R
   (admm_newton_column; a block row's: G's column r), then each equation's combination of that
   column's rows (admm_newton_rows). Unknowns and equations come in the same order: the
   contacts', then the block rows' in mode CS_BM_EQ. */
static int admm_newton_system(Admm* a, const double* vout, double* col, int angles) {
  const csContactProblem* p = a->p;
  int nc = p->nc, n = a->n;
  const int* cls = a->cls;
  int m = 0;
  for (int i = 0; i < nc; i++)
    m += cls[i] == 1 ? 3 : cls[i] == 2 ? (angles && p->mu[i] > 0 ? 2 : 1) : 0;
  if (p->nblock) m += admm_block_unknowns(a);
  int u = 0;
  for (int j = 0; j < nc; j++) {
    if (cls[j] == 0) continue;
    double muj = p->mu[j] > 0 ? p->mu[j] : 0;
    int ncol = cls[j] == 1 ? 3 : angles && muj > 0 ? 2 : 1;
    for (int q = 0; q < ncol; q++, u++) {
      admm_newton_column(a, j, q, col);
      admm_newton_rows(a, col, vout, j, q, u, m, angles);
    }
  }
  for (int r = a->n3; r < n; r++) { /* the block rows' unknowns (none without blocks) */
    if (cls[admm_brow(a, r)] != CS_BM_EQ) continue;
    if (!p->asym)
      memcpy(col, p->G + (size_t)r * (size_t)n, sizeof(double) * (size_t)n);
    else
      for (int i = 0; i < n; i++) col[i] = p->G[(size_t)i * (size_t)n + (size_t)r];
    if (p->R) col[r] += p->R[r];
    admm_newton_rows(a, col, vout, -1, 0, u++, m, angles);
  }
  admm_newton_rhs(a, vout, angles);
  return m;
}

/* The active-set step's set-up for the modes in a->cls: the number of unknowns m (3 per
   sticking contact, 1 per sliding one, 1 per block row in mode CS_BM_EQ), the sticking variables
   nstick and the sliding contacts nslide, the sliding contacts' starting directions (a->dir0), and
   the null vectors of the sticking block where sticking contacts are redundant. Returns newton0: 1
   if the first round is a Newton step from the source (a contact slides with friction). */
static int admm_refine_setup(Admm* a, int* m_out, int* nstick_out, int* nslide_out) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  const int* cls = a->cls;
  int m = 0;
  for (int i = 0; i < nc; i++) m += cls[i] == 1 ? 3 : cls[i] == 2 ? 1 : 0;
  if (p->nblock) m += admm_block_unknowns(a);
  a->unique = m == 0; /* lambda fixed by the modes (0 but for bounds): nothing to polish */
  a->lnorm = 0;
  int nstick = 0, nslide = 0, newton0 = 0;
  for (int i = 0; i < nc; i++) {
    nstick += cls[i] == 1 ? 3 : 0;
    if (cls[i] == 2) {
      nslide++;
      a->dir0[2 * i] = a->dir[2 * i], a->dir0[2 * i + 1] = a->dir[2 * i + 1];
      newton0 |= p->mu[i] > 0;
    }
  }
  a->nd = 0;
  if (nslide > 0 && nstick >= 6 && admm_stick_null(a, nstick) < 0) {
    /* Redundant sticking contacts (a->nd internal forces) make the systems singular: they
       are reduced by those (admm_reduced). Too many or no factor: the linear first
       round (least-norm from scratch, admm_refine_linear) */
    newton0 = 0;
  }
  *m_out = m, *nstick_out = nstick, *nslide_out = nslide;
  return newton0;
}

/* The first round where a contact slides with friction: the equations are nonlinear in its
   direction, so Newton starts from src (whose modes these are; its directions are in a->dir)
   rather than from a linear solve with src's directions (which takes one more system a step:
   the directions move at every time step). The unknowns (a->hist) are src's, less its internal
   forces where sticking contacts are redundant (the steps add none). out: scratch. */
static void admm_refine_from_src(Admm* a, const double* src, double* out) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  const int* cls = a->cls;
  double* st = a->hist;
  for (int i = 0; i < nc; i++) {
    const double* si = src + 3 * i;
    if (cls[i] == 1)
      st[3 * i] = si[0], st[3 * i + 1] = si[1], st[3 * i + 2] = si[2];
    else if (cls[i] == 2)
      st[3 * i] = si[0];
  }
  for (int r = a->n3; r < a->n; r++) st[r] = src[r]; /* block rows (the unknowns' read) */
  if (a->nd > 0) {   /* src without its internal forces: the steps add none */
    double* x = out; /* scratch: the sticking variables in order */
    int k = 0;
    for (int i = 0; i < nc; i++)
      if (cls[i] == 1) x[k] = st[3 * i], x[k + 1] = st[3 * i + 1], x[k + 2] = st[3 * i + 2], k += 3;
    admm_null_clean(a, k, x);
    k = 0;
    for (int i = 0; i < nc; i++)
      if (cls[i] == 1) st[3 * i] = x[k], st[3 * i + 1] = x[k + 1], st[3 * i + 2] = x[k + 2], k += 3;
  }
}

/* A Newton round on the modes' equations (sticking: v_i = 0; sliding: v_N,i = 0 and v_T,i
   parallel to the friction direction t_i = (cos phi_i, sin phi_i), v_T,i x t_i = 0), in the
   sticking impulses and the sliding contacts' (x_i, phi_i), lambda_i = x_i (1, mu t_i), from
   the last candidate (out, its velocity vout). The slip angles converge quadratically; as a
   fixed point phi <- angle(-v_T(phi)) they converge at only 0.2-0.95 a round, and ANYmal's
   slowly slipping feet run out of rounds. Returns 1 with the unknowns (a->hist) and directions
   (a->dir) stepped, 0 if the step fails, -1 if the system is singular (redundant contacts):
   the directions are then back at src's, for the linear first round. A Newton step would be
   least-norm there, but src's own internal forces would stay in the sum (carried from step to
   step, they grow to 0.5 N on cube_push); the linear first round is least-norm from scratch,
   which least-norm Newton steps keep so. */
static int admm_refine_newton(Admm* a, double* out, double* vout, int newton0) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  const int* cls = a->cls;
  double* st = a->hist;
  int mn = admm_newton_system(a, vout, out, 1), well;
  admm_map(a, 1);
  int got = admm_square_solve(a, mn, out, vout, &well, newton0);
  if (got == 0) return 0;
  if (got < 0) {
    for (int i = 0; i < nc; i++)
      if (cls[i] == 2) a->dir[2 * i] = a->dir0[2 * i], a->dir[2 * i + 1] = a->dir0[2 * i + 1];
    return -1;
  }
  a->unique = well;
  int u = 0;
  for (int i = 0; i < nc; i++) {
    if (cls[i] == 1) {
      for (int k = 0; k < 3; k++) st[3 * i + k] += a->ab[u++];
    } else if (cls[i] == 2) {
      st[3 * i] += a->ab[u++];
      if (p->mu[i] > 0) {
        /* the angle's step by the retraction t <- (t + dphi t_perp) / |.| (no sine or
           cosine; Newton keeps its quadratic rate with any retraction), at most 45 deg */
        double dphi = a->ab[u++];
        if (!isfinite(dphi)) return 0;
        dphi = dphi > 1 ? 1 : dphi < -1 ? -1 : dphi;
        double d1 = a->dir[2 * i], d2 = a->dir[2 * i + 1];
        double e1 = d1 - dphi * d2, e2 = d2 + dphi * d1, sc = p->mu[i] / csi_norm2(e1, e2);
        a->dir[2 * i] = e1 * sc, a->dir[2 * i + 1] = e2 * sc;
      }
    }
  }
  for (int r = a->n3; r < a->n; r++)
    if (cls[admm_brow(a, r)] == CS_BM_EQ) st[r] += a->ab[u++];
  return 1;
}

/* The first round's system where every contact sticks (m unknowns): the block of G + R on
   those contacts, symmetric, and positive semidefinite for a Delassus matrix: block LDL^T (no
   pivot search), straight from G when the block is all of it. Only the lower triangle is read,
   so an asymmetric G (FCLIB) gives a candidate for its lower half, which the candidate's test,
   with the full product, rejects unless it solves the problem anyway. The solution into a->ab;
   returns 0 if there is none to use. */
static int admm_refine_stick(Admm* a, int m) {
  const csContactProblem* p = a->p;
  int nc = p->nc, n = a->n;
  const int* cls = a->cls;
  double amax = 0, umin = INFINITY;
  int whole = m == n && !p->R;
  if (whole)
    for (int r = 0; r < n; r++) amax = csi_max(amax, p->G[(size_t)r * n + r]);
  else
    amax = admm_stick_block(a, m, 0);
  for (int i = 0, bi = 0; i < nc; i++)
    if (cls[i] == 1) {
      for (int k = 0; k < 3; k++) a->ab[3 * bi + k] = -p->g[3 * i + k];
      bi++;
    }
  if (!(amax > 0) || !isfinite(amax)) return 0;
  if (!ldl3(m / 3, whole ? p->G : NULL, a->A, &umin) || !(umin >= 1e-10 * amax)) {
    /* redundant sticking contacts (a body resting on more points than it has
       freedoms): the least-norm solution, which is what the polish would make of
       any other, so nothing is left to polish */
    if (!admm_leastnorm(a, m, amax)) {
      a->singular = 1;
      return 0;
    }
    a->unique = 1;
  } else {
    /* Pivots above 1e-4 of the largest entry: the solution with these modes is
       unique and well-conditioned, so no internal force is left to polish away (a
       null vector of G that kept the modes would be one of this system; one that
       changes them breaks complementarity at once: a sliding contact leaving its
       cone's boundary, an open one taking load). */
    a->unique = umin >= 1e-4 * amax;
    ldl3_solve(m / 3, a->A, a->ab);
  }
  return 1;
}

/* The impulse the modes fix, 0 but for the box rows at a bound, into base, and its velocity
   into a->rhs (free until the next iteration); returns a->rhs. */
static const double* admm_block_base(Admm* a, double* base) {
  const csContactProblem* p = a->p;
  memset(base, 0, sizeof(double) * (size_t)a->n);
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    int c = a->cls[admm_brow(a, b->row)];
    if (b->type == CS_CONE_BOX && (c == CS_BM_UP || c == CS_BM_LO))
      base[b->row] = c == CS_BM_UP ? b->bound : -b->bound;
  }
  csi_solver_velocity(p, base, a->rhs);
  return a->rhs;
}

/* The first (linear) round: the modes with the friction directions of z (m unknowns, nstick of
   them sticking variables), into the unknowns (a->hist). Returns 0 if the system has no
   solution to use. */
static int admm_refine_linear(Admm* a, int m, int nstick, double* out, double* vout) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  const int* cls = a->cls;
  double* st = a->hist;
  if (m > 0 && (m != nstick || p->nblock)) {
    /* Some contact slides, or there are blocks: one step of the Newton system from lambda
       = 0 (velocity g; with blocks, the boxes' rows at their bounds and the velocity of that)
       without the angle unknowns, which is this linear system; an LU, or the reduced system
       for redundant sticking contacts (admm_square_solve). */
    int ok;
    admm_newton_system(a, p->nblock ? admm_block_base(a, out) : p->g, out, 0);
    admm_map(a, 0);
    if (!admm_square_solve(a, m, out, vout, &ok, 0)) {
      a->singular = 1;
      return 0;
    }
    a->unique = ok;
  } else if (m > 0) {
    if (!admm_refine_stick(a, m)) return 0;
  }
  int u = 0;
  for (int i = 0; i < nc; i++) {
    if (cls[i] == 1)
      for (int k = 0; k < 3; k++) st[3 * i + k] = a->ab[u++];
    else if (cls[i] == 2)
      st[3 * i] = a->ab[u++];
  }
  for (int r = a->n3; r < a->n; r++)
    if (cls[admm_brow(a, r)] == CS_BM_EQ) st[r] = a->ab[u++];
  return 1;
}

/* admm_refine_candidate's impulses on the contacts, from the round's unknowns (a->hist)
   projected on their cones. Returns 1 if one contradicts its mode by more than slack: a
   sticking impulse out of its cone (sliding along its tangential part then, or open), a
   sliding one pulling (open then), with the modes it asks for in a->cls_new (the others
   there: their own). */
static int admm_candidate_contacts(Admm* a, double* out, double slack) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  const int* cls = a->cls;
  const double* st = a->hist;
  int* nw = a->cls_new;
  int viol = 0;
  for (int i = 0; i < nc; i++) {
    double* o = out + 3 * i;
    double mu = p->mu[i] < 0 ? 0 : p->mu[i];
    nw[i] = cls[i];
    if (cls[i] == 0) {
      o[0] = o[1] = o[2] = 0;
      continue;
    } else if (cls[i] == 1) {
      o[0] = st[3 * i], o[1] = st[3 * i + 1], o[2] = st[3 * i + 2];
      double r = csi_norm2(o[1], o[2]);
      if (r <= mu * o[0]) continue;    /* in its cone: the projection would keep it */
      if (!(r <= mu * o[0] + slack)) { /* out of its cone: slides along lambda_T, or opens */
        viol = 1;
        nw[i] = o[0] > 0 && r > 0 && mu > 0 ? 2 : 0;
        if (nw[i] == 2) a->dir[2 * i] = mu * o[1] / r, a->dir[2 * i + 1] = mu * o[2] / r;
      }
    } else {
      double x = st[3 * i];
      if (!(x >= -slack)) viol = 1, nw[i] = 0; /* pulls: opens */
      o[0] = x, o[1] = x * a->dir[2 * i], o[2] = x * a->dir[2 * i + 1];
    }
    csi_project_cone(o, p->mu[i], o);
  }
  return viol;
}

/* admm_refine_candidate's impulses on the block rows: the unknowns' values (a->hist) projected
   on their sets, the fixed ones' 0 or bound. Returns 1 if an unknown is out of its set by more
   than slack: a unilateral row pulling (inactive then), a box row beyond a bound (at that bound
   then), with the modes it asks for in a->cls_new. */
static int admm_candidate_blocks(Admm* a, double* out, double slack) {
  const csContactProblem* p = a->p;
  int viol = 0;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    double f = b->bound;
    for (int i = 0; i < b->n; i++) {
      int r = b->row + i, c = a->cls[admm_brow(a, r)], nw = c;
      double x = a->hist[r];
      if (c == CS_BM_ZERO || c == CS_BM_UP || c == CS_BM_LO) {
        x = c == CS_BM_ZERO ? 0 : c == CS_BM_UP ? f : -f;
      } else if (b->type == CS_CONE_UNILATERAL) {
        if (!(x >= -slack)) nw = CS_BM_ZERO;
      } else if (b->type == CS_CONE_BOX) {
        if (!(x <= f + slack))
          nw = CS_BM_UP;
        else if (!(x >= -f - slack))
          nw = CS_BM_LO;
      }
      out[r] = csi_block_project1(b->type, f, x);
      a->cls_new[admm_brow(a, r)] = nw;
      viol |= nw != c;
    }
  }
  return viol;
}

/* The fixed block rows' velocities in the candidate's (vout): 1 if one contradicts its mode by
   more than slack, with the modes it asks for in a->cls_new: an inactive unilateral row
   approaching (v < 0: active then), a box row at a bound moving toward it (v > 0 at the upper
   bound, v < 0 at the lower one, a bound above 0: inside then). */
static int admm_candidate_blocks_v(Admm* a, const double* vout, double slack) {
  const csContactProblem* p = a->p;
  int viol = 0;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    for (int i = 0; i < b->n; i++) {
      int r = b->row + i, j = admm_brow(a, r), c = a->cls[j];
      double v = vout[r];
      int wrong =
          (c == CS_BM_ZERO && !(v >= -slack)) ||
          (b->bound > 0 && ((c == CS_BM_UP && !(v <= slack)) || (c == CS_BM_LO && !(v >= -slack))));
      if (wrong) a->cls_new[j] = CS_BM_EQ, viol = 1;
    }
  }
  return viol;
}

/* The candidate (out, its velocity vout) from the round's unknowns, and whether the modes are
   its own, up to 1e-3 tol: a sticking contact's lambda in its cone, a sliding one's x >= 0, an
   open one's v_N >= 0 (admm_candidate_contacts; the block rows': admm_candidate_blocks,
   admm_candidate_blocks_v). The
   residual alone would pass wrong modes at a loose tolerance (at 1e-2 on the 1 kg cube, where the
   whole step's impulse is ~2e-3, cube_slide comes to rest as if sticking). Returns -1 if the modes
   hold, 0 if not and update does not allow new ones, 2 with the modes the candidate asks for in
   a->cls (primal-dual active set). */
static int admm_refine_candidate(Admm* a, double* out, double* vout, int update) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  int* cls = a->cls;
  double slack = 1e-3 * a->tol;
  int* nw = a->cls_new; /* the modes the candidate asks for (primal-dual active set) */
  int viol = admm_candidate_contacts(a, out, slack);
  if (p->nblock) viol |= admm_candidate_blocks(a, out, slack);
  if (viol && !update) return 0;
  csi_solver_velocity(p, out, vout);
  for (int i = 0; i < nc; i++)
    if (cls[i] == 0 && !(vout[3 * i] >= -slack)) { /* penetrates: takes load, sticking */
      if (!update) return 0;
      viol = 1, nw[i] = 1;
    }
  if (p->nblock && admm_candidate_blocks_v(a, vout, slack)) {
    if (!update) return 0;
    viol = 1;
  }
  if (viol) {
    memcpy(cls, nw, sizeof(int) * (size_t)a->nmode);
    return 2;
  }
  return -1;
}

/* Maximal dissipation to first order: the largest over the sliding contacts of the kept
   direction against the candidate's slip, mu x |t - (-v_T / |v_T|)| (eps_c sees it only to
   second order). *along = 1 (and INFINITY) if a sliding contact slips along its friction, or
   not at all; a->cls_new then holds the modes with those contacts sticking. */
static double admm_refine_mdp(Admm* a, const double* out, const double* vout, int* along) {
  const csContactProblem* p = a->p;
  int nc = p->nc;
  const int* cls = a->cls;
  int* nw = a->cls_new;
  double mdp = 0;
  *along = 0;
  for (int i = 0; i < nc; i++) {
    if (cls[i] != 2) continue;
    double mu = p->mu[i] < 0 ? 0 : p->mu[i];
    const double* vi = vout + 3 * i;
    double vt = csi_norm2(vi[1], vi[2]);
    nw[i] = 2;
    if (!(vt > 0) || vi[1] * a->dir[2 * i] + vi[2] * a->dir[2 * i + 1] > 0) {
      *along = 1, nw[i] = 1, mdp = INFINITY;
      continue;
    }
    double d1 = -mu * vi[1] / vt, d2 = -mu * vi[2] / vt;
    mdp = csi_max(mdp, out[3 * i] * csi_norm2(a->dir[2 * i] - d1, a->dir[2 * i + 1] - d2));
  }
  return mdp;
}

/* A round's unknowns (a->hist): round 0 from src where a contact slides with friction
   (*newton0) or by the linear system, the later rounds by a Newton step. Returns 1, 0 if there
   is no solution to use, or -1 if a Newton system is singular (redundant contacts): *newton0
   is then cleared, and the rounds start again with the linear round. */
static int admm_refine_unknowns(Admm* a, int round, int* newton0, const double* src, double* out,
                                double* vout, int m, int nstick) {
  if (round == 0 && *newton0) {
    admm_refine_from_src(a, src, out);
    return 1;
  }
  if (round == 0) return admm_refine_linear(a, m, nstick, out, vout);
  int got = admm_refine_newton(a, out, vout, *newton0);
  if (got < 0) *newton0 = 0;
  return got;
}

/* The active-set step with the modes in a->cls (and the sliding contacts' directions in
   a->dir): 1 and the candidate if it passes, 0 if not, 2 if the candidate contradicts its
   modes and update allows new ones, which are then in a->cls (see admm_refine). Each round
   makes a candidate (the first from src or a linear solve, the next ones by Newton), checks
   its modes, then its residual and maximal dissipation; Newton must at least halve the
   latter each round from the second on. */
static int admm_refine_modes(Admm* a, const double* src, double* out, double* vout, double* res,
                             int update) {
  int m, nstick, nslide;
  int newton0 = admm_refine_setup(a, &m, &nstick, &nslide);
  double mdp_prev = INFINITY;
  for (int round = 0; round < CS_ADMM_ROUNDS; round++) {
    int got = admm_refine_unknowns(a, round, &newton0, src, out, vout, m, nstick);
    if (got == 0) return 0;
    if (got < 0) { /* singular: the linear first round, with src's directions */
      round = -1;
      continue;
    }
    int modes = admm_refine_candidate(a, out, vout, update);
    if (modes >= 0) return modes;
    *res = admm_ncp_res(a, out, vout);
    int along;
    double mdp = admm_refine_mdp(a, out, vout, &along);
    /* src itself is not taken without a Newton step: it may pass with errors just below
       the tolerance, the same every step, and a warm start carries them on (cube_slide's
       energy drifts by 1e-6 E0 in 500 steps at tolerance 1e-8); one step is far inside */
    if (*res <= a->tol && mdp <= a->tol && !(newton0 && round == 0)) return 1;
    if (along) {
      /* slipping with its friction instead of against it (or not slipping): the semismooth
         active-set rule |lambda_T - c v_T| < mu lambda_N calls that sticking for any c > 0
         small enough. Stick (another mode update), or give up. */
      if (!update) return 0;
      memcpy(a->cls, a->cls_new, sizeof(int) * (size_t)a->nmode);
      return 2;
    }
    if (nslide == 0) return 0; /* no sliding contact: no direction to settle */
    /* Newton does not converge (judged from its second round on) */
    if (round > 1 && !(mdp <= 0.5 * mdp_prev)) return 0;
    mdp_prev = mdp;
  }
  return 0;
}

/* The active-set step from the modes of z. Where the candidate contradicts its own modes
   (a sticking contact's impulse out of its cone, a sliding one pulling, an open one
   penetrating; a block row's, see admm_candidate_blocks and admm_candidate_blocks_v), those
   contacts and rows take the modes it asks for (sliding along the impulse's tangential part,
   open, sticking; inactive, active, at a bound, inside) and the step is made again, up to
   CS_ADMM_UPDATES times: a primal-dual active-set iteration, from a warm start whose modes changed
   at an impact or lift-off. */
static int admm_refine(Admm* a, const double* z, double* out, double* vout, double* res) {
  admm_classify(a, z, a->cls);
  for (int upd = 0;; upd++) {
    int r = admm_refine_modes(a, upd ? out : z, out, vout, res, upd < CS_ADMM_UPDATES);
    if (r != 2) return r;
  }
}

/* ------------------------------------------------------------------ the solve (admm_run) */

/* Active-set steps a solve may try (each costs about two iterations). */
enum { CS_ADMM_TRIES = 4 };
/* Stagnation window of the NCP safeguard (iterations) and the progress it asks for. */
enum { CS_ADMM_WINDOW = 100 };
#define CS_ADMM_PROGRESS 0.9

/* The iteration's state (admm_run). */
typedef struct {
  double res;         /* the last residual computed */
  double best_res;    /* the least residual seen (its iterate in a->best) */
  double window_best; /* the safeguard's reference: best_res at window_start */
  int it;             /* iterations so far */
  int done;           /* converged */
  int restarted;      /* the safeguard restarted the solve */
  int ccp_phase;      /* the restart's CCP phase (no shift until the CCP is solved) */
  int window_start;   /* the safeguard's window: from this iteration */
  int refined;        /* the answer is an active-set step's */
  int last_factor;    /* the iteration of the last refactorization */
  int every;          /* iterations at least between two refactorizations */
  int tries;          /* active-set steps so far */
  int nmode;          /* bytes of a mode array (cls) */
} admmLoop;

/* Points the solver's arrays into ws (as admm_workspace sizes it) and sets its options;
   returns the scratch (2n) after them. */
static double* admm_layout(Admm* a, int ncp, const csContactProblem* p, const csSolverOptions* opt,
                           void* ws) {
  int nc = p->nc, n = cs_problem_rows(p), nm = n - 2 * nc;
  memset(a, 0, sizeof *a);
  a->p = p, a->ncp = ncp, a->n = n, a->n3 = 3 * nc, a->nmode = nm;
  a->L = ws;
  a->z = a->L + (size_t)n * (size_t)n;
  a->gam = a->z + n, a->v = a->gam + n, a->s = a->v + n, a->rhs = a->s + n, a->lh = a->rhs + n;
  a->best = a->lh + n;
  double* tmp = a->best + n; /* 2n */
  a->A = tmp + 2 * n;
  a->ab = a->A + (size_t)n * (size_t)n;
  a->dir = a->ab + n;
  a->hist = a->dir + n;
  a->dir0 = a->hist + n;
  a->adinv = a->dir0 + n;
  a->nul = a->adinv + n;
  a->Ac = a->nul + (size_t)CS_ADMM_NUL * (size_t)n;
  a->piv = (int*)(a->Ac + (size_t)(n < CS_ADMM_AS_MAX ? n : CS_ADMM_AS_MAX) *
                              (size_t)(n < CS_ADMM_AS_MAX ? n : CS_ADMM_AS_MAX));
  a->apiv = a->piv + n;
  a->cls = a->apiv + n, a->cls_prev = a->cls + nm, a->cls_tried = a->cls_prev + nm;
  a->cls_new = a->cls_tried + nm;
  a->smap = a->cls_new + nm;
  a->dep = a->smap + n;
  a->umap = a->dep + n;
  a->omega = opt->omega > 0 && opt->omega < 2 ? opt->omega : 1.0;
  a->tol = opt->tolerance;
  return tmp;
}

/* The active-set step on the start (the warm start's modes, of z0 = P_K(lambda0) for the
   NCP), before any factorization: a warm start whose modes still hold is finished by one
   small linear solve. The polish then needs a scale for its factor: G's largest diagonal
   entry. No early exit on a warm start that already meets the tolerance: it goes through this
   step (or the iteration) and the polish, or the distribution of a redundant contact set
   drifts with the load (cube_push: 0.5 N of internal force). An active-set system costs up to
   (3 nc)^3 / 3 per round, against ~2 (3 nc)^2 an iteration: beyond CS_ADMM_AS_MAX unknowns
   (32 contacts) a round costs more than n / 6 iterations, and FCLIB's large problems rarely
   hold their modes long enough, so none is tried there. Returns 1 if the step solved the
   problem (lambda and st final). */
static int admm_warm_refine(Admm* a, const csSolverOptions* opt, double* lambda, csSolverStats* st,
                            double* tmp, admmLoop* L) {
  const csContactProblem* p = a->p;
  int nc = p->nc, n = a->n;
  L->tries = 0, L->nmode = (int)sizeof(int) * a->nmode;
  if (n > CS_ADMM_AS_MAX) L->tries = CS_ADMM_TRIES;
  if (opt->warmstart && a->ncp) {
    for (int i = 0; i < nc; i++) csi_project_cone(lambda + 3 * i, p->mu[i], lambda + 3 * i);
    if (p->nblock) csi_blocks_project(p, lambda);
  }
  if (!(a->ncp && n <= CS_ADMM_AS_MAX)) return 0;
  double r0;
  L->tries = 1;
  if (admm_refine(a, lambda, a->lh, tmp, &r0)) {
    memcpy(lambda, a->lh, sizeof(double) * (size_t)n);
    st->residual = r0;
    st->converged = 1;
    if (!a->unique) { /* the polish's scale and symmetry */
      double dmax = 0;
      for (int i = 0; i < n; i++)
        dmax = csi_max(dmax, p->G[(size_t)i * n + i] + (p->R ? p->R[i] : 0));
      a->Lmax = dmax > 0 ? dmax : 1, a->rho_min = 1e-12 * a->Lmax, a->rho = INFINITY;
      a->sym = csi_is_symmetric(n, p->G);
      admm_polish(a, lambda, a->tol, &st->residual);
      cs_ncp_report(p, lambda, &st->ncp);
    } else {
      csi_ncp_report_v(p, lambda, tmp, &st->ncp); /* tmp: the refine's G lambda + g */
    }
    return 1;
  }
  memcpy(a->cls_tried, a->cls, (size_t)L->nmode);
  memcpy(a->cls_prev, a->cls, (size_t)L->nmode);
  return 0;
}

/* A warm start worse than none (contacts re-detected with new features get the wrong
   impulses: on a 1e6 mass ratio their velocities reach 1e5 and gamma0 with them, and ADMM then
   takes hundreds of iterations to unwind it) is dropped before the iteration starts from it:
   the model's residual of lambda against that of lambda = 0 (v = g), O(n) once v is known (for
   the NCP, of z0 = P_K(lambda)). The active-set step needs only the warm start's modes, and
   verifies its own candidate. */
static void admm_drop_bad_warmstart(Admm* a, const csSolverOptions* opt, double* lambda) {
  const csContactProblem* p = a->p;
  int nc = p->nc, n = a->n, ncp = a->ncp;
  if (!opt->warmstart) return;
  csi_solver_velocity(p, lambda, a->v);
  double rw = 0, r0 = 0;
  for (int i = 0; i < nc; i++) {
    const double zero[3] = {0, 0, 0};
    double ew = ncp ? csi_ncp_contact_residual(lambda + 3 * i, a->v + 3 * i, p->mu[i])
                    : csi_ccp_contact_residual(lambda + 3 * i, a->v + 3 * i, p->mu[i]);
    double e0 = ncp ? csi_ncp_contact_residual(zero, p->g + 3 * i, p->mu[i])
                    : csi_ccp_contact_residual(zero, p->g + 3 * i, p->mu[i]);
    rw = fmax(rw, ew), r0 = fmax(r0, e0);
  }
  if (p->nblock) {
    const double zero[6] = {0, 0, 0, 0, 0, 0};
    rw = admm_with_blocks(p, rw, lambda, a->v);
    for (int k = 0; k < p->nblock; k++)
      r0 = fmax(r0, csi_block_residual(p->block + k, zero, p->g + p->block[k].row));
  }
  if (!(rw <= r0)) memset(lambda, 0, sizeof(double) * (size_t)n);
}

/* The iteration's factor: symmetry decides Cholesky or LU (the active-set step needs no
   answer: it verifies its candidate with the full product); rho from the spectrum
   (docs/solvers.md), with its adaptation's step and bounds. Returns the iterations at least
   between two refactorizations, or 0 if G is not monotone or not finite (nothing sensible to
   do). A factorization costs ~n/6 iterations (n^3/6 flops against ~n^2; LU 4x that): rho is
   adapted no more often than every n/12 iterations (n/3 with LU), which keeps refactoring
   below ~2/3 of the time on large problems; small ones adapt every time. */
static int admm_setup_factor(Admm* a, double* tmp) {
  const csContactProblem* p = a->p;
  int n = a->n;
  a->sym = csi_is_symmetric(n, p->G);
  double m = INFINITY;
  if (p->R)
    for (int i = 0; i < n; i++) m = fmin(m, p->R[i]);
  m = (isfinite(m) && m > 0 ? m : 0) + 1e-6;
  double Lmax = admm_lmax(n, p->G, p->R, tmp, tmp + n);
  if (!(Lmax > m)) Lmax = m;
  a->factor = pow(Lmax / m, 0.05);
  a->Lmax = Lmax;
  /* Below 1e-12 L the factor would only see rounding of G (a singular G, redundant
     contacts); above 1e6 L the iteration would barely move. */
  a->rho_min = 1e-12 * Lmax, a->rho_max = 1e6 * Lmax;
  a->rho = admm_factor(p, sqrt(Lmax * m) * pow(Lmax / m, 0.2), a->sym, a->L, &a->fpmin, a->piv);
  if (a->rho < 0) return 0;
  int every = a->sym ? n / 12 : n / 3;
  return every < 1 ? 1 : every;
}

/* NCP: the answer is z, in K; its residual with its velocity (into tmp), updated from lambda's,
   and confirmed with the true product: the update carries the rounding of the solve. On large
   problems (an O(n^2) product against a ~2 n^2 solve; with an asymmetric G, FCLIB's Capsules,
   the full product each iteration makes the solve 1.7x slower) every fourth iteration only: at
   most three iterations late. Keeps the best z; returns 1 (z in lambda) if it converged. */
static int admm_ncp_check(Admm* a, double* lambda, double* tmp, admmLoop* L) {
  const csContactProblem* p = a->p;
  int n = a->n;
  L->res = INFINITY;
  if (n <= CS_ADMM_AS_MAX || L->it % 4 == 0) {
    admm_velocity_z(a, lambda, tmp);
    L->res = admm_ncp_res(a, a->z, tmp);
    if (L->res <= a->tol) {
      csi_solver_velocity(p, a->z, tmp);
      L->res = admm_ncp_res(a, a->z, tmp);
    }
  }
  L->done = L->res <= a->tol;
  if (L->res < L->best_res) L->best_res = L->res, memcpy(a->best, a->z, sizeof(double) * (size_t)n);
  if (L->done) {
    memcpy(lambda, a->z, sizeof(double) * (size_t)n);
    return 1;
  }
  return 0;
}

/* The active-set step on z's modes, once they have held for two iterations and were not tried
   before (at most CS_ADMM_TRIES times a solve). Returns 1 (the answer in lambda) if it solved
   the problem. */
static int admm_modes_step(Admm* a, double* lambda, double* tmp, admmLoop* L) {
  admm_classify(a, a->z, a->cls);
  if (!memcmp(a->cls, a->cls_prev, (size_t)L->nmode) &&
      memcmp(a->cls, a->cls_tried, (size_t)L->nmode)) {
    double r1;
    L->tries++;
    memcpy(a->cls_tried, a->cls, (size_t)L->nmode);
    if (admm_refine(a, a->z, a->lh, tmp, &r1)) {
      memcpy(lambda, a->lh, sizeof(double) * (size_t)a->n);
      L->res = r1, L->done = L->refined = 1;
      return 1;
    }
  }
  memcpy(a->cls_prev, a->cls, (size_t)L->nmode);
  return 0;
}

/* The shift of the next CCP: from this iterate's velocity, except during the CCP phase of a
   restart (s = 0 until the CCP is solved). Then the safeguard: with a large mu the shift
   mu |v_T| amplifies the velocity error of an early iterate: a sticking contact looks sliding,
   its shift unloads it, and the iteration settles where the NCP residual (whose dual part
   shrinks like 1/mu) is small but not below tol (mu = 1e3: ~1e-5). If the best residual has
   not improved by 10% over CS_ADMM_WINDOW iterations, the solve restarts once from lambda = 0
   as a true cascade of CCPs: the CCP (s = 0) solved to tolerance first, whose sticking
   contacts have v_T = 0 and so a zero shift, then a shift every iteration. Returns 1 if it
   restarted. */
static int admm_shift_or_restart(Admm* a, double* lambda, admmLoop* L, double rp, double rd) {
  const csContactProblem* p = a->p;
  if (L->ccp_phase && fmax(rp, rd) <= a->tol) L->ccp_phase = 0;
  if (!L->ccp_phase) admm_shift(1, p->nc, p->mu, a->v, a->z, a->tol, a->s);
  if (L->best_res < CS_ADMM_PROGRESS * L->window_best)
    L->window_best = L->best_res, L->window_start = L->it;
  if (!L->restarted && L->it - L->window_start >= CS_ADMM_WINDOW) {
    L->restarted = L->ccp_phase = 1;
    memset(lambda, 0, sizeof(double) * (size_t)a->n);
    admm_start(a, lambda, 0);
    L->window_start = L->it;
    return 1;
  }
  return 0;
}

/* rho rule: keep the primal and dual residuals within a factor 10 of each other, refactoring
   at most every L->every iterations. */
static void admm_adapt_rho(Admm* a, admmLoop* L, double rp, double rd) {
  const csContactProblem* p = a->p;
  double nrho = a->rho;
  if (rp > 10 * rd)
    nrho = fmin(a->rho * a->factor, a->rho_max);
  else if (rd > 10 * rp)
    nrho = fmax(a->rho / a->factor, a->rho_min);
  if (nrho != a->rho && L->it - L->last_factor >= L->every) {
    L->last_factor = L->it;
    double got = admm_factor(p, nrho, a->sym, a->L, &a->fpmin, a->piv);
    if (got < 0)
      got = admm_factor(p, a->rho, a->sym, a->L, &a->fpmin, a->piv); /* factored before */
    a->rho = got;
  }
}

/* The answer: polished if converged (unless it is a unique active-set solution); if not
   converged, the best iterate seen, with its residual (the last z if no residual was
   computed: fewer than four iterations of a large problem); and the statistics. */
static void admm_finish(Admm* a, double* lambda, csSolverStats* st, double* tmp, admmLoop* L) {
  const csContactProblem* p = a->p;
  int n = a->n;
  if (L->done && !(L->refined && a->unique)) admm_polish(a, lambda, a->tol, &L->res);
  if (!L->done && L->best_res < INFINITY) {
    memcpy(lambda, a->best, sizeof(double) * (size_t)n);
    L->res = L->best_res;
  } else if (!L->done && a->ncp && L->it > 0) {
    memcpy(lambda, a->z, sizeof(double) * (size_t)n);
    csi_solver_velocity(p, lambda, tmp);
    L->res = admm_ncp_res(a, lambda, tmp);
  }
  st->iterations = L->it;
  st->residual = L->res;
  st->converged = L->done;
  cs_ncp_report(p, lambda, &st->ncp);
}

/* The CCP's stopping test after an iteration: max(r_p, r_d, the blocks' residual of lambda)
   <= tol; keeps the best lambda. */
static void admm_ccp_check(Admm* a, const double* lambda, admmLoop* L, double rp, double rd) {
  L->res = admm_with_blocks(a->p, fmax(rp, rd), lambda, a->v);
  L->done = L->res <= a->tol;
  if (L->res < L->best_res)
    L->best_res = L->res, memcpy(a->best, lambda, sizeof(double) * (size_t)a->n);
}

/* The NCP's stages after an iteration: the stopping test on z (admm_ncp_check), the
   active-set step on z's modes (admm_modes_step), then the next shift or the restart
   (admm_shift_or_restart). Returns 1 to stop (the answer in lambda), -1 if the solve
   restarted, else 0. */
static int admm_ncp_stages(Admm* a, double* lambda, double* tmp, admmLoop* L, double rp,
                           double rd) {
  if (admm_ncp_check(a, lambda, tmp, L)) return 1;
  if (!L->ccp_phase && L->tries < CS_ADMM_TRIES && !a->singular &&
      admm_modes_step(a, lambda, tmp, L))
    return 1;
  return admm_shift_or_restart(a, lambda, L, rp, rd) ? -1 : 0;
}

/* The iteration, at most cap times: admm_iterate, the model's stages after it, and rho's
   adaptation (not after a restart). Stops at convergence or on an overflow. */
static void admm_loop(Admm* a, double* lambda, double* tmp, admmLoop* L, int cap) {
  L->res = INFINITY, L->best_res = INFINITY, L->window_best = INFINITY;
  while (!L->done && L->it < cap) {
    double rp, rd;
    admm_iterate(a, lambda, &rp, &rd);
    L->it++;
    if (!isfinite(rp) || !isfinite(rd)) break; /* overflow: give up, reported below */
    if (!a->ncp) {
      admm_ccp_check(a, lambda, L, rp, rd);
    } else {
      int r = admm_ncp_stages(a, lambda, tmp, L, rp, rd);
      if (r > 0) break;
      if (r < 0) continue;
    }
    if (L->done) break;
    admm_adapt_rho(a, L, rp, rd);
  }
}

/* ADMM on the CCP (ncp = 0) or on the NCP by the de Saxce cascade (ncp = 1), in the stages of
   the file's header: the set-up, the active-set step on the warm start (NCP), the warm
   start's check, rho and the factor, the start, the iteration (admm_loop), and the answer. */
static csStatus admm_run(int ncp, const csContactProblem* p, const csSolverOptions* opt, void* ws,
                         double* lambda, csSolverStats* st) {
  unsigned every_block = (1u << CS_CONE_UNILATERAL) | (1u << CS_CONE_BOX) | (1u << CS_CONE_FREE);
  csStatus bst = csi_blocks_supported(p, "admm", every_block);
  if (bst != CS_OK) return bst;
  int n = cs_problem_rows(p);
  Admm a;
  double* tmp = admm_layout(&a, ncp, p, opt, ws);
  memset(st, 0, sizeof *st);
  if (!opt->warmstart) memset(lambda, 0, sizeof(double) * (size_t)n);
  admmLoop L;
  memset(&L, 0, sizeof L);
  if (admm_warm_refine(&a, opt, lambda, st, tmp, &L)) return CS_OK;
  admm_drop_bad_warmstart(&a, opt, lambda);
  L.every = admm_setup_factor(&a, tmp);
  if (!L.every) {
    st->residual = INFINITY;
    cs_ncp_report(p, lambda, &st->ncp);
    return CS_OK;
  }
  admm_start(&a, lambda, 1);
  admm_loop(&a, lambda, tmp, &L, opt->iterations > 1 ? opt->iterations : 1);
  admm_finish(&a, lambda, st, tmp, &L);
  return CS_OK;
}

static csStatus ccp_admm_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                               double* lambda, csSolverStats* st) {
  return admm_run(0, p, opt, ws, lambda, st);
}

static csStatus ncp_admm_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                               double* lambda, csSolverStats* st) {
  return admm_run(1, p, opt, ws, lambda, st);
}

/* ------------------------------------------------------------------ shared kernels
   The per-contact steps of the iteration above, for ncp_admm on a block-sparse G
   (cs_solver_bsr_admm.c). */

void csi_admm_shift(int ncp, int nc, const double* mu, const double* v, const double* z, double tol,
                    double* s) {
  admm_shift(ncp, nc, mu, v, z, tol, s);
}

void csi_admm_normal_dual(const double* z, double mu, const double* w, double tol, double* gam) {
  admm_normal_dual(z, mu, w, tol, gam);
}

double csi_admm_ncp_residual(int nc, const double* mu, const double* lambda, const double* v) {
  return admm_ncp_residual(nc, mu, lambda, v);
}

const csSolver cs_solver_ccp_admm = {"ccp_admm", admm_workspace, ccp_admm_solve};
const csSolver cs_solver_ncp_admm = {"ncp_admm", admm_workspace, ncp_admm_solve};
