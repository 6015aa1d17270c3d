/* nsn_ac: a semismooth (generalized) Newton method on the Alart-Curnier function of the
   frictional contact problem (Alart and Curnier 1991; the method of Siconos' NSN-AC).

   Problem (the NCP of ncp_pgs / ncp_admm): with W = G + diag R and u = W r + g, find r_i in
   K_mu_i with u~_i = u_i + (mu_i |u_T,i|, 0, 0) in K*_mu_i and <r_i, u~_i> = 0 (Signorini,
   Coulomb, maximal dissipation). Its solutions are the zeros of the Alart-Curnier function
   F(r) (per contact, rho_N, rho_T > 0):
     x_N = r_N - rho_N u_N,                    F_N = r_N - max(0, x_N)
     x_T = r_T - rho_T u_T, R = mu max(0, x_N), F_T = r_T - P_D(R)(x_T)
   P_D(R) the projection onto the disk of radius R. F is piecewise smooth; each contact is
   in one of four states, and a generalized Jacobian dF = A dr + B du (3 x 3 per contact):
   - open (x_N <= 0):           F = r,               A = I, B = 0;
   - frictionless (mu = 0, x_N > 0): F_N = rho_N u_N, F_T = r_T;
   - stick (|x_T| <= R):         F = (rho_N u_N, rho_T u_T),  A = 0, B = diag(rho);
   - slide (|x_T| > R > 0), n_T = x_T / |x_T|, Pi = (I - n_T n_T^T) / |x_T|:
       F_T = r_T - R n_T,  dF_T = dr_T - mu n_T dx_N - R Pi dx_T.
   Since du = W dr, the Newton matrix is J = A + B W.

   Blocks beyond the contacts (cs_block.h): each block row r has F_r = r_r - P(r_r - rho_r
   u_r), rho_r = 1 / W_rr, P the projection onto its set: R+ (unilateral), [-f, f] (box) or
   R (free: F_r = rho_r u_r, i.e. u_r = 0). A row is either active, r_r - rho_r u_r inside
   the set (always for a free row): F_r = rho_r u_r, A = 0, B = rho_r; or fixed, at a bound
   (or NaN): F_r = r_r - P, A = 1, B = 0. The Newton system then is bordered by the active
   block rows, solved through their Schur complement (see "the blocks' rows" below); merit,
   line search, stop test and fallback sweeps take the blocks' rows too.

   One iteration: u = W r + g (fresh), the Siconos error (the stop test), F, A, B; the
   Newton direction d from (J + delta I) d = -F; a backtracking line search along r + t d
   (with u + t W d, so a trial costs O(nc)) from t = 1, halving t until phi = 1/2 |F|^2
   decreases by the Armijo factor (1 - 2e-4 t) or the Siconos error halves; when no t >=
   2^-39 passes, CS_NSN_SWEEPS projected Gauss-Seidel sweeps of the same local map (the
   fallback) instead.
   - rho per contact from W's diagonal block, as NCP-PGS's steps (docs/solvers.md): rho_N =
     1 / W_NN, rho_T = 1 / max(W_T1T1, W_T2T2); J's rows are then of order 1.
   - delta, a Levenberg-Marquardt-like damping, keeps J + delta I invertible when W is
     singular (redundant contacts: spheres-in-a-box has W 768 x 768 of rank <= 588). It
     starts at 1e-4, is divided by 10 after a full step (down to 1e-14: Newton's local
     rate; a 1e6 mass ratio needs it far below 1e-4, whose damping then dominates the
     heavy body's modes) and multiplied by 10 after a step t < 0.1 (up to 1e-2: shorter,
     gradient-like directions that the line search accepts; Capsules needs those).
   - The linear solve exploits structure: the rows of open contacts are those of I
     (d_i = -r_i, eliminated first); the rest is J's block-sparse part (3 x 3 blocks where
     W has a non-zero block), factored by block LU (3 x 3 pivots) in a minimum-degree
     order chosen during the elimination. FCLIB's W have 2-15 non-zero blocks per block
     row; the simulator's are often dense, and the same code is then a dense block LU.
   - W is read from the dense G only at its non-zero blocks (found by one scan at entry),
     so a product W x costs O(non-zero blocks) (the blocks' rows and columns are read
     densely). Sums are taken in the same order as cs_ncp_report's, so the error of the
     stop test is bit for bit the one reported.
   - Stop: the Siconos 4.4.0 fc3d error (natural map / max(|g|, |r|, |u|); docs/solvers.md)
     <= tol, on a fresh u, with the blocks' natural maps and rows as cs_ncp_report's error
     has them (so converged covers the blocks). Not on a step test. A run whose best error
     has not halved over CS_NSN_STALL iterations stops (converged = 0); an unconverged run
     returns its best iterate.
   - Late stall: where the last halving came at iteration CS_NSN_LATE or later and delta is
     below its largest, the run does not stop but restarts delta at CS_NSN_DELTA_MAX for
     another CS_NSN_STALL iterations (once per halving). On the settled pile's columns of
     stacked boxes (W of rank <= 60 for 144-216 rows, contacts at the cone's edge with u_T = 0
     at the solution) two ways of stalling end there: (a) a tail where delta sits at 1e-6
     to 1e-7 because the steps are accepted at t = 1/8 to 1/2 (never short): F has a part
     that J + delta I can reach only through its 1/delta-sized near-null directions, so d
     keeps the same length, r drifts along them and the error converges to ~2e-8 instead
     of 0; (b) delta alternating between 1e-3 and 1e-2 with the error falling ~3 % per
     iteration, not a halving in 30. A larger delta damps the drift, and Newton's rate
     returns once the states settle. The runs that stall in contactbench (robots: the
     last halving at iterations 0-4) stop as before; the pile's last halvings are at 9-99.
   - Warm start: lambda is kept when its natural-map residual (the blocks' included) is
     below that of lambda = 0. A cold start is lambda = 0, without Gauss-Seidel pre-sweeps
     (not measured: Newton from 0 already takes 4-21 iterations on the FCLIB files).
   No allocation: every array is carved from the workspace. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "constraint/cs_contact_cone.h"
#include "solvers/cs_solver.h"

enum {
  CS_NSN_BACKTRACK = 40, /* halvings of the step before the fallback */
  CS_NSN_SWEEPS = 10,    /* Gauss-Seidel sweeps of the fallback */
  CS_NSN_STALL = 30,     /* iterations without halving the best error: stalled */
  CS_NSN_LATE = 8        /* a stall after a halving from this iteration on: delta restarts */
};
#define CS_NSN_ARMIJO 1e-4     /* sufficient decrease of phi */
#define CS_NSN_ERR_DROP 0.5    /* ... or of the Siconos error */
#define CS_NSN_DELTA0 1e-4     /* damping: first value, */
#define CS_NSN_DELTA_MIN 1e-14 /* least, */
#define CS_NSN_DELTA_MAX 1e-2  /* largest */
#define CS_NSN_SHORT 0.1       /* a step below this raises the damping */

enum { CS_NSN_OPEN = 0, CS_NSN_FREE, CS_NSN_STICK, CS_NSN_SLIDE };

/* The solver's arrays, carved from the workspace (nsn_layout). */
typedef struct Nsn {
  const csContactProblem* p;
  int nc, n;          /* contacts, their rows 3nc */
  int m, ld;          /* the blocks' rows, G's leading dimension (3nc + m) */
  int* rowptr;        /* (nc + 1) block rows of W's pattern (symmetrised, diagonal included) */
  int* col;           /* (nc * nc) block columns, ascending per row */
  double* rho;        /* (2 nc) rho_N, rho_T */
  double* Mb;         /* (nc * nc * 9) block (i, j) of J + delta I, then of its block LU */
  unsigned char* pat; /* (nc * nc) blocks present in Mb */
  int* deg;           /* (nc) uneliminated neighbours (minimum degree) */
  int* pos;           /* (nc) elimination step of a contact, -1 before */
  int* order;         /* (nc) contacts by elimination step */
  int* active;        /* (nc) contacts that are not open */
  int* state;         /* (nc) CS_NSN_* */
  int* nbr;           /* (nc) neighbours of a pivot */
  double* AB;         /* (18 nc) A_i, B_i (row-major 3 x 3 each) */
  double *u, *F, *d, *wd, *rt, *ut, *best; /* (3nc + m) each */
  /* the blocks' rows (m > 0 only), indexed by row - 3nc */
  double* rhob; /* (m) rho of a row: 1 / W_rr */
  int* bst;     /* (m) 1: F = rho v (an active row), 0: F = l - P(.) (a fixed row) */
  int* bact;    /* (m) the active rows */
  double* X;    /* (3nc * m) per active row c: Jcc^-1 Jcb e_c, 3nc doubles each */
  double* S;    /* (m * m) the Schur complement on the active rows */
  double* rhs;  /* (m) its right-hand side, then the rows' part of d */
  int* piv;     /* (m) its LU's row swaps */
} Nsn;

static void* nsn_take(unsigned char* base, size_t* off, size_t bytes) {
  size_t o = (*off + 63) & ~(size_t)63;
  *off = o + bytes;
  return base ? base + o : NULL;
}

/* Carves the arrays from ws (or, with ws = NULL, only counts the bytes): nc contacts and m
   block rows (the blocks' arrays only when m > 0). */
static size_t nsn_layout(Nsn* s, int nc, int m, void* ws) {
  unsigned char* b = ws;
  size_t off = 0, n = 3 * (size_t)nc + (size_t)m, nn = (size_t)nc * (size_t)nc;
  s->rowptr = nsn_take(b, &off, sizeof(int) * ((size_t)nc + 1));
  s->col = nsn_take(b, &off, sizeof(int) * nn);
  s->rho = nsn_take(b, &off, sizeof(double) * 2 * (size_t)nc);
  s->Mb = nsn_take(b, &off, sizeof(double) * 9 * nn);
  s->pat = nsn_take(b, &off, nn);
  s->deg = nsn_take(b, &off, sizeof(int) * (size_t)nc);
  s->pos = nsn_take(b, &off, sizeof(int) * (size_t)nc);
  s->order = nsn_take(b, &off, sizeof(int) * (size_t)nc);
  s->active = nsn_take(b, &off, sizeof(int) * (size_t)nc);
  s->state = nsn_take(b, &off, sizeof(int) * (size_t)nc);
  s->nbr = nsn_take(b, &off, sizeof(int) * (size_t)nc);
  s->AB = nsn_take(b, &off, sizeof(double) * 18 * (size_t)nc);
  double** vec[] = {&s->u, &s->F, &s->d, &s->wd, &s->rt, &s->ut, &s->best};
  for (size_t k = 0; k < sizeof vec / sizeof vec[0]; k++)
    *vec[k] = nsn_take(b, &off, sizeof(double) * n);
  if (m > 0) {
    size_t mm = (size_t)m;
    s->rhob = nsn_take(b, &off, sizeof(double) * mm);
    s->bst = nsn_take(b, &off, sizeof(int) * mm);
    s->bact = nsn_take(b, &off, sizeof(int) * mm);
    s->X = nsn_take(b, &off, sizeof(double) * 3 * (size_t)nc * mm);
    s->S = nsn_take(b, &off, sizeof(double) * mm * mm);
    s->rhs = nsn_take(b, &off, sizeof(double) * mm);
    s->piv = nsn_take(b, &off, sizeof(int) * mm);
  }
  return off + 64;
}

/* The blocks' rows of p. */
static int nsn_block_rows(const csContactProblem* p) {
  int m = 0;
  for (int k = 0; k < p->nblock; k++) m += p->block[k].n;
  return m;
}

static size_t nsn_workspace(const csContactProblem* p, const csSolverOptions* opt) {
  int nc = p->nc;
  (void)opt;
  Nsn s;
  return nsn_layout(&s, nc > 0 ? nc : 0, nsn_block_rows(p), NULL);
}

/* ------------------------------------------------------------------ W, block-sparse */

/* The block pattern of W: block (i, j) where G_ij or G_ji has a non-zero (or a NaN) entry,
   and every diagonal block. One pass over G. */
static void nsn_pattern(Nsn* s) {
  const int nc = s->nc;
  const size_t ld = (size_t)s->ld;
  const double* G = s->p->G;
  memset(s->pat, 0, (size_t)nc * (size_t)nc);
  for (int i = 0; i < nc; i++) {
    const double* r0 = G + 3 * (size_t)i * ld;
    const double *r1 = r0 + ld, *r2 = r1 + ld;
    s->pat[(size_t)i * nc + i] = 1;
    for (int j = 0; j < nc; j++) {
      size_t c = 3 * (size_t)j;
      int nz = (r0[c] != 0) | (r0[c + 1] != 0) | (r0[c + 2] != 0) | (r1[c] != 0) |
               (r1[c + 1] != 0) | (r1[c + 2] != 0) | (r2[c] != 0) | (r2[c + 1] != 0) |
               (r2[c + 2] != 0);
      if (nz) s->pat[(size_t)i * nc + j] = s->pat[(size_t)j * nc + i] = 1;
    }
  }
  int k = 0;
  for (int i = 0; i < nc; i++) {
    s->rowptr[i] = k;
    const unsigned char* row = s->pat + (size_t)i * nc;
    for (int j = 0; j < nc; j++)
      if (row[j]) s->col[k++] = j;
  }
  s->rowptr[nc] = k;
}

/* y = W x (+ g if add_g): the sums in cs_ncp_report's order (products over the row, then
   g, then R). A contact's row takes its pattern's blocks, then the blocks' columns (dense);
   a block's row is dense. */
static void nsn_mulw(const Nsn* s, const double* x, int add_g, double* y) {
  const csContactProblem* p = s->p;
  const size_t n = (size_t)s->n, ld = (size_t)s->ld;
  for (int i = 0; i < s->nc; i++) {
    for (int a = 0; a < 3; a++) {
      size_t row = 3 * (size_t)i + (size_t)a;
      const double* Gr = p->G + row * ld;
      double sum = 0;
      for (int k = s->rowptr[i]; k < s->rowptr[i + 1]; k++) {
        size_t c = 3 * (size_t)s->col[k];
        sum += Gr[c] * x[c];
        sum += Gr[c + 1] * x[c + 1];
        sum += Gr[c + 2] * x[c + 2];
      }
      for (size_t c = n; c < ld; c++) sum += Gr[c] * x[c]; /* none without blocks */
      if (add_g) sum += p->g[row];
      if (p->R) sum += p->R[row] * x[row];
      y[row] = sum;
    }
  }
  for (size_t row = n; row < ld; row++) {
    const double* Gr = p->G + row * ld;
    double sum = 0;
    for (size_t c = 0; c < ld; c++) sum += Gr[c] * x[c];
    if (add_g) sum += p->g[row];
    if (p->R) sum += p->R[row] * x[row];
    y[row] = sum;
  }
}

/* Block (i, j) of W into w (row-major 3 x 3). */
static void nsn_wblock(const Nsn* s, int i, int j, double* w) {
  const size_t ld = (size_t)s->ld;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      w[3 * a + b] = s->p->G[(3 * (size_t)i + a) * ld + 3 * (size_t)j + b];
  if (i == j && s->p->R)
    for (int a = 0; a < 3; a++) w[4 * a] += s->p->R[3 * i + a];
}

/* W_rr of the blocks' row n + e. */
static double nsn_wdiag(const Nsn* s, int e) {
  size_t row = (size_t)s->n + (size_t)e;
  return s->p->G[row * (size_t)s->ld + row] + (s->p->R ? s->p->R[row] : 0);
}

/* ------------------------------------------------------------------ Alart-Curnier */

/* F_i of (r_i, u_i) and, if A != NULL, A_i and B_i (row-major); returns the state. */
static int nsn_local(const double* r, const double* u, double mu, const double* rho, double* F,
                     double* A, double* B) {
  const double rn = rho[0], rt = rho[1];
  double xn = r[0] - rn * u[0];
  if (A) memset(A, 0, 9 * sizeof(double)), memset(B, 0, 9 * sizeof(double));
  if (!(xn > 0)) { /* open (or NaN: F = r, flagged by the caller's merit) */
    F[0] = r[0], F[1] = r[1], F[2] = r[2];
    if (A) A[0] = A[4] = A[8] = 1;
    return CS_NSN_OPEN;
  }
  F[0] = rn * u[0]; /* r_N - x_N */
  if (A) B[0] = rn;
  double R = mu > 0 ? mu * xn : 0;
  double x1 = r[1] - rt * u[1], x2 = r[2] - rt * u[2];
  double nx = csi_norm2(x1, x2);
  if (!(R > 0)) { /* frictionless: the tangential impulse is 0 */
    F[1] = r[1], F[2] = r[2];
    if (A) A[4] = A[8] = 1;
    return CS_NSN_FREE;
  }
  if (nx <= R) { /* stick: r_T - x_T = rho_T u_T */
    F[1] = rt * u[1], F[2] = rt * u[2];
    if (A) B[4] = B[8] = rt;
    return CS_NSN_STICK;
  }
  double n1 = x1 / nx, n2 = x2 / nx, c = R / nx;
  F[1] = r[1] - R * n1, F[2] = r[2] - R * n2;
  if (A) {
    /* dF_T = dr_T - mu n_T (dr_N - rho_N du_N) - c (I - n n^T)(dr_T - rho_T du_T) */
    double P11 = 1 - n1 * n1, P12 = -n1 * n2, P22 = 1 - n2 * n2;
    A[3] = -mu * n1, A[4] = 1 - c * P11, A[5] = -c * P12;
    A[6] = -mu * n2, A[7] = -c * P12, A[8] = 1 - c * P22;
    B[3] = mu * rn * n1, B[4] = c * rt * P11, B[5] = c * rt * P12;
    B[6] = mu * rn * n2, B[7] = c * rt * P12, B[8] = c * rt * P22;
  }
  return CS_NSN_SLIDE;
}

/* F of one block row (impulse l, velocity v, rho > 0) of a block of the given type and
   bound f: F = l - P(l - rho v), P the projection onto the row's set (R+, [-f, f], R).
   Returns 1 if the row is active (l - rho v inside the set, always for a free row: F =
   rho v, dF = rho dv), else 0 (P at a bound, or NaN: F = l - P, dF = dl). */
static int nsn_block_local(int type, double f, double l, double v, double rho, double* F) {
  double x = l - rho * v;
  int inside = type == CS_CONE_FREE || (type == CS_CONE_UNILATERAL ? x > 0 : x > -f && x < f);
  *F = inside ? rho * v : l - csi_block_project1(type, f, x);
  return inside;
}

/* The blocks' rows' sum of F^2 at (r, u); with bst, also F (into F at the rows) and the
   rows' states. */
static double nsn_blocks_F(const Nsn* s, const double* r, const double* u, double* F, int* bst) {
  double phi = 0;
  for (int k = 0; k < s->p->nblock; k++) {
    const csBlock* b = s->p->block + k;
    for (int q = 0; q < b->n; q++) {
      int row = b->row + q, e = row - s->n;
      double f;
      int act = nsn_block_local(b->type, b->bound, r[row], u[row], s->rhob[e], &f);
      if (bst) bst[e] = act, F[row] = f;
      phi += f * f;
    }
  }
  return phi;
}

/* phi = 1/2 |F|^2 at (r, u) without the Jacobian (line-search trials). */
static double nsn_merit(const Nsn* s, const double* r, const double* u) {
  double phi = 0;
  for (int i = 0; i < s->nc; i++) {
    double F[3];
    nsn_local(r + 3 * i, u + 3 * i, s->p->mu[i], s->rho + 2 * i, F, NULL, NULL);
    phi += F[0] * F[0] + F[1] * F[1] + F[2] * F[2];
  }
  if (s->m) phi += nsn_blocks_F(s, r, u, NULL, NULL);
  return 0.5 * phi;
}

/* The Siconos 4.4.0 error of (r, u) (u = W r + g), as cs_ncp_report computes it (the same
   per-contact csi_natural_map_sq and scaling; the report itself, from this u, also computes
   the eps terms: measured 10 % slower on Capsules, where the line search calls this often). */
static double nsn_error(const Nsn* s, const double* r, const double* u) {
  double err2 = 0, g2 = 0, l2 = 0, v2 = 0;
  for (int i = 0; i < s->nc; i++) {
    for (int k = 0; k < 3; k++) {
      int row = 3 * i + k;
      g2 += s->p->g[row] * s->p->g[row];
      l2 += r[row] * r[row];
      v2 += u[row] * u[row];
    }
    err2 += csi_natural_map_sq(r + 3 * i, u + 3 * i, s->p->mu[i]);
  }
  for (int k = 0; k < s->p->nblock; k++) { /* the blocks' terms, after the contacts' */
    const csBlock* b = s->p->block + k;
    for (int q = 0; q < b->n; q++) {
      int row = b->row + q;
      g2 += s->p->g[row] * s->p->g[row];
      l2 += r[row] * r[row];
      v2 += u[row] * u[row];
    }
    err2 += csi_block_natural_map_sq(b, r + b->row, u + b->row);
  }
  double err = sqrt(err2), scale = fmax(sqrt(g2), fmax(sqrt(l2), sqrt(v2)));
  return scale > DBL_EPSILON ? err / scale : err;
}

/* ------------------------------------------------------------------ Gauss-Seidel sweeps */

/* u += column block i of W times dr (one column k of it when only dr[k] != 0 matters):
   the contacts' rows of the pattern, then the blocks' rows. */
static void nsn_addcol(const Nsn* s, int i, const double* dr, double* u) {
  const size_t ld = (size_t)s->ld;
  for (int k = s->rowptr[i]; k < s->rowptr[i + 1]; k++) {
    int j = s->col[k];
    for (int a = 0; a < 3; a++) {
      const double* Gr = s->p->G + (3 * (size_t)j + a) * ld + 3 * (size_t)i;
      u[3 * j + a] += Gr[0] * dr[0] + Gr[1] * dr[1] + Gr[2] * dr[2];
    }
  }
  for (size_t row = (size_t)s->n; row < ld; row++) { /* none without blocks */
    const double* Gr = s->p->G + row * ld + 3 * (size_t)i;
    u[row] += Gr[0] * dr[0] + Gr[1] * dr[1] + Gr[2] * dr[2];
  }
  if (s->p->R)
    for (int a = 0; a < 3; a++) u[3 * i + a] += s->p->R[3 * i + a] * dr[a];
}

/* count sweeps of the Alart-Curnier fixed point r_i <- r_i - F_i, contact by contact: the
   normal step rho_N clamped at 0, then the tangential step rho_T projected onto the disk of
   radius mu r_N (NCP-PGS's steps); then the blocks' exact Gauss-Seidel pass
   (csi_blocks_gs). u is kept equal to W r + g (up to rounding). */
static void nsn_sweeps(const Nsn* s, double* r, double* u, int count) {
  for (int sweep = 0; sweep < count; sweep++) {
    for (int i = 0; i < s->nc; i++) {
      double* ri = r + 3 * i;
      const double* ui = u + 3 * i;
      const double* rho = s->rho + 2 * i;
      double mu = s->p->mu[i];
      double dr[3] = {fmax(0, ri[0] - rho[0] * ui[0]) - ri[0], 0, 0};
      if (dr[0] != 0) {
        ri[0] += dr[0];
        nsn_addcol(s, i, dr, u);
      }
      double x1 = ri[1] - rho[1] * ui[1], x2 = ri[2] - rho[1] * ui[2];
      double R = mu > 0 ? mu * ri[0] : 0, nx = csi_norm2(x1, x2);
      if (nx > R) {
        double c = nx > 0 ? R / nx : 0;
        x1 *= c, x2 *= c;
      }
      dr[0] = 0, dr[1] = x1 - ri[1], dr[2] = x2 - ri[2];
      if (dr[1] != 0 || dr[2] != 0) {
        ri[1] = x1, ri[2] = x2;
        nsn_addcol(s, i, dr, u);
      }
    }
    if (s->m) csi_blocks_gs(s->p, r, u, 1.0);
  }
}

/* ------------------------------------------------------------------ 3 x 3 blocks */

/* C -= A B */
static void nsn_mulsub(const double* A, const double* B, double* C) {
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      C[3 * a + b] -= A[3 * a] * B[b] + A[3 * a + 1] * B[3 + b] + A[3 * a + 2] * B[6 + b];
}

/* C = A B */
static void nsn_mul(const double* A, const double* B, double* C) {
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      C[3 * a + b] = A[3 * a] * B[b] + A[3 * a + 1] * B[3 + b] + A[3 * a + 2] * B[6 + b];
}

/* y -= A x */
static void nsn_mvsub(const double* A, const double* x, double* y) {
  for (int a = 0; a < 3; a++) y[a] -= A[3 * a] * x[0] + A[3 * a + 1] * x[1] + A[3 * a + 2] * x[2];
}

/* In-place inverse by cofactors. A pivot block that is singular to working precision (a
   Schur complement of redundant contacts with a tiny delta) gets its diagonal raised by
   1e-10 of its largest entry, then more, before giving up (returns 0). */
static int nsn_inv3(double* a) {
  double m = 0;
  for (int k = 0; k < 9; k++) m = fmax(m, fabs(a[k]));
  if (!(m > 0) || !isfinite(m)) return 0;
  for (double eps = 0; eps <= 1e-4 * m; eps = eps > 0 ? eps * 100 : 1e-10 * m) {
    double b[9];
    memcpy(b, a, sizeof b);
    b[0] += eps, b[4] += eps, b[8] += eps;
    double c0 = b[4] * b[8] - b[5] * b[7], c1 = b[5] * b[6] - b[3] * b[8];
    double c2 = b[3] * b[7] - b[4] * b[6];
    double det = b[0] * c0 + b[1] * c1 + b[2] * c2;
    if (!(fabs(det) > 1e-13 * m * m * m)) continue;
    double id = 1.0 / det;
    a[0] = c0 * id, a[1] = (b[2] * b[7] - b[1] * b[8]) * id,
    a[2] = (b[1] * b[5] - b[2] * b[4]) * id;
    a[3] = c1 * id, a[4] = (b[0] * b[8] - b[2] * b[6]) * id,
    a[5] = (b[2] * b[3] - b[0] * b[5]) * id;
    a[6] = c2 * id, a[7] = (b[1] * b[6] - b[0] * b[7]) * id,
    a[8] = (b[0] * b[4] - b[1] * b[3]) * id;
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------------ the Newton system */

static double* nsn_blk(const Nsn* s, int i, int j) {
  return s->Mb + 9 * ((size_t)i * (size_t)s->nc + (size_t)j);
}

/* Assembles J + delta I on the active contacts (blocks B_i W_ij, plus A_i + delta I on the
   diagonal) and the right-hand side -F_i - sum_{j open} B_i W_ij d_j into d, with d_j =
   -r_j for the open contacts. Returns the number of active contacts. */
static int nsn_assemble(Nsn* s, const double* r, double delta) {
  const int nc = s->nc;
  int na = 0;
  for (int i = 0; i < nc; i++) {
    if (s->state[i] == CS_NSN_OPEN) {
      for (int k = 0; k < 3; k++) s->d[3 * i + k] = -r[3 * i + k];
    } else {
      s->active[na++] = i;
    }
  }
  memset(s->pat, 0, (size_t)nc * (size_t)nc);
  for (int q = 0; q < na; q++) {
    int i = s->active[q];
    const double* A = s->AB + 18 * i;
    const double* B = A + 9;
    double* di = s->d + 3 * i;
    for (int k = 0; k < 3; k++) di[k] = -s->F[3 * i + k];
    int deg = 0;
    for (int k = s->rowptr[i]; k < s->rowptr[i + 1]; k++) {
      int j = s->col[k];
      double w[9];
      nsn_wblock(s, i, j, w);
      if (s->state[j] == CS_NSN_OPEN) {
        double bw[9];
        nsn_mul(B, w, bw);
        nsn_mvsub(bw, s->d + 3 * j, di);
        continue;
      }
      double* M = nsn_blk(s, i, j);
      nsn_mul(B, w, M);
      if (j == i) {
        for (int e = 0; e < 9; e++) M[e] += A[e];
        M[0] += delta, M[4] += delta, M[8] += delta;
      } else {
        deg++;
      }
      s->pat[(size_t)i * nc + j] = 1;
    }
    s->deg[i] = deg;
    s->pos[i] = -1;
  }
  return na;
}

/* Block LU of the assembled matrix, pivots chosen by minimum degree as the elimination
   goes (the pattern stays symmetric: eliminating k joins its uneliminated neighbours).
   L_ik = M_ik D_k^-1 overwrites M_ik, D_k^-1 overwrites M_kk. Returns 0 on a pivot that
   cannot be inverted. */
static int nsn_factor(Nsn* s, int na) {
  const int nc = s->nc;
  int* nb = s->nbr;
  for (int step = 0; step < na; step++) {
    int k = -1;
    for (int q = 0; q < na; q++) {
      int i = s->active[q];
      if (s->pos[i] < 0 && (k < 0 || s->deg[i] < s->deg[k])) k = i;
    }
    s->pos[k] = step;
    s->order[step] = k;
    double* D = nsn_blk(s, k, k);
    if (!nsn_inv3(D)) return 0;
    /* the uneliminated neighbours of k */
    int cnt = 0;
    const unsigned char* rowk = s->pat + (size_t)k * nc;
    for (int q = 0; q < na; q++) {
      int i = s->active[q];
      if (i != k && rowk[i] && s->pos[i] < 0) nb[cnt++] = i;
    }
    for (int a = 0; a < cnt; a++) { /* L_ik = M_ik D^-1 */
      double* Mik = nsn_blk(s, nb[a], k);
      double t[9];
      nsn_mul(Mik, D, t);
      memcpy(Mik, t, sizeof t);
    }
    for (int a = 0; a < cnt; a++) {
      int i = nb[a];
      const double* Lik = nsn_blk(s, i, k);
      unsigned char* rowi = s->pat + (size_t)i * nc;
      for (int b = 0; b < cnt; b++) {
        int j = nb[b];
        double* Mij = nsn_blk(s, i, j);
        if (!rowi[j]) { /* fill-in */
          rowi[j] = 1;
          memset(Mij, 0, 9 * sizeof(double));
          s->deg[i]++;
        }
        nsn_mulsub(Lik, nsn_blk(s, k, j), Mij);
      }
      s->deg[i]--; /* k is gone */
    }
  }
  return 1;
}

/* d <- (LU)^-1 d on the active contacts (forward with L, backward with U and D^-1). */
static void nsn_lusolve(const Nsn* s, int na, double* d) {
  const int nc = s->nc;
  for (int step = 0; step < na; step++) {
    int k = s->order[step];
    const unsigned char* rowk = s->pat + (size_t)k * nc;
    for (int i = 0; i < nc; i++)
      if (rowk[i] && s->pos[i] > step) nsn_mvsub(nsn_blk(s, i, k), d + 3 * k, d + 3 * i);
  }
  for (int step = na - 1; step >= 0; step--) {
    int k = s->order[step];
    const unsigned char* rowk = s->pat + (size_t)k * nc;
    double y[3] = {d[3 * k], d[3 * k + 1], d[3 * k + 2]};
    for (int j = 0; j < nc; j++)
      if (rowk[j] && s->pos[j] > step) nsn_mvsub(nsn_blk(s, k, j), d + 3 * j, y);
    const double* Di = nsn_blk(s, k, k);
    for (int a = 0; a < 3; a++)
      d[3 * k + a] = Di[3 * a] * y[0] + Di[3 * a + 1] * y[1] + Di[3 * a + 2] * y[2];
  }
}

/* ------------------------------------------------------------------ the blocks' rows
   With blocks, the Newton system is bordered: the contacts' part Jcc (assembled and
   factored as above), the active block rows' part Jbb = diag(rho) W_bb + delta I, and the
   couplings Jcb = B W_cb (active contacts' rows), Jbc = diag(rho) W_bc. A fixed block row
   (dF = dl) has d_r = -F_r, eliminated first like an open contact. The active block rows'
   d_b solves the Schur complement S = Jbb - Jbc Jcc^-1 Jcb (dense, LU with partial
   pivoting), then the contacts' d_c = Jcc^-1 (rhs_c - Jcb d_b). */

/* After nsn_assemble: d_r = -F_r on the fixed block rows, their terms -B_i W_ir d_r in the
   active contacts' right-hand sides, and per active block row c the column Jcb e_c into
   X_c (0 on the open contacts). Returns the number of active block rows. */
static int nsn_assemble_blocks(Nsn* s) {
  const int n = s->n, m = s->m;
  const size_t ld = (size_t)s->ld;
  const double* G = s->p->G;
  int ma = 0;
  for (int e = 0; e < m; e++) {
    if (s->bst[e])
      s->bact[ma++] = e;
    else
      s->d[n + e] = -s->F[n + e];
  }
  for (int i = 0; i < s->nc; i++) {
    if (s->state[i] == CS_NSN_OPEN) continue;
    double wd[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++) {
      const double* Gr = G + (3 * (size_t)i + (size_t)a) * ld + n;
      for (int e = 0; e < m; e++)
        if (!s->bst[e]) wd[a] += Gr[e] * s->d[n + e];
    }
    nsn_mvsub(s->AB + 18 * i + 9, wd, s->d + 3 * i);
  }
  for (int c = 0; c < ma; c++) {
    double* X = s->X + (size_t)c * (size_t)n;
    size_t col = (size_t)n + (size_t)s->bact[c];
    for (int i = 0; i < s->nc; i++) {
      double* x = X + 3 * i;
      x[0] = x[1] = x[2] = 0;
      if (s->state[i] == CS_NSN_OPEN) continue;
      const double* Gc = G + 3 * (size_t)i * ld + col;
      const double* B = s->AB + 18 * i + 9;
      for (int a = 0; a < 3; a++)
        x[a] = B[3 * a] * Gc[0] + B[3 * a + 1] * Gc[ld] + B[3 * a + 2] * Gc[2 * ld];
    }
  }
  return ma;
}

/* S and its right-hand side on the ma active block rows, given d (the contacts' Jcc^-1
   rhs_c on the active contacts, -r on the open ones, -F on the fixed block rows) and X. */
static void nsn_schur(Nsn* s, int ma, double delta) {
  const int n = s->n, m = s->m;
  const size_t ld = (size_t)s->ld;
  for (int a = 0; a < ma; a++) {
    size_t row = (size_t)n + (size_t)s->bact[a];
    const double* Gr = s->p->G + row * ld;
    double rho = s->rhob[s->bact[a]], sum = 0;
    for (int j = 0; j < n; j++) sum += Gr[j] * s->d[j];
    for (int e = 0; e < m; e++)
      if (!s->bst[e]) sum += Gr[n + e] * s->d[n + e];
    s->rhs[a] = -s->F[row] - rho * sum;
    for (int c = 0; c < ma; c++) {
      const double* X = s->X + (size_t)c * (size_t)n;
      int e = s->bact[c];
      double w = c == a ? nsn_wdiag(s, e) : Gr[n + e];
      for (int j = 0; j < n; j++) w -= Gr[j] * X[j];
      s->S[(size_t)a * ma + c] = rho * w + (c == a ? delta : 0);
    }
  }
}

/* The Newton direction with blocks, after nsn_factor (na active contacts) and
   nsn_assemble_blocks (ma active block rows): d on every row. 0 if S is singular. */
static int nsn_solve_blocks(Nsn* s, int na, int ma, double delta) {
  const int n = s->n;
  nsn_lusolve(s, na, s->d);
  for (int c = 0; c < ma; c++) nsn_lusolve(s, na, s->X + (size_t)c * (size_t)n);
  if (ma == 0) return 1;
  nsn_schur(s, ma, delta);
  if (!csi_lu(ma, s->S, s->piv)) return 0;
  csi_lu_solve(ma, s->S, s->piv, s->rhs);
  for (int c = 0; c < ma; c++) {
    const double* X = s->X + (size_t)c * (size_t)n;
    double db = s->rhs[c];
    s->d[n + s->bact[c]] = db;
    for (int j = 0; j < n; j++) s->d[j] -= X[j] * db;
  }
  return 1;
}

/* F, A, B and the states at (r, u) (the blocks' rows: F and active or fixed); returns
   phi = 1/2 |F|^2. */
static double nsn_jacobian(Nsn* s, const double* r, const double* u) {
  double phi = 0;
  for (int i = 0; i < s->nc; i++) {
    double* F = s->F + 3 * i;
    s->state[i] = nsn_local(r + 3 * i, u + 3 * i, s->p->mu[i], s->rho + 2 * i, F, s->AB + 18 * i,
                            s->AB + 18 * i + 9);
    phi += F[0] * F[0] + F[1] * F[1] + F[2] * F[2];
  }
  if (s->m) phi += nsn_blocks_F(s, r, u, s->F, s->bst);
  return 0.5 * phi;
}

/* rho = 1 / W_rr per block row (as rho_N); a non-positive diagonal gets 1 / (the largest
   diagonal entry of W, dmax over the contacts' given), or 1. */
static void nsn_rho_blocks(Nsn* s, double dmax) {
  for (int e = 0; e < s->m; e++) {
    double w = nsn_wdiag(s, e);
    if (isfinite(w)) dmax = fmax(dmax, w);
  }
  double fallback = dmax > 0 ? 1.0 / dmax : 1.0;
  for (int e = 0; e < s->m; e++) {
    double w = nsn_wdiag(s, e);
    s->rhob[e] = w > 0 && isfinite(w) ? 1.0 / w : fallback;
  }
}

/* rho_N = 1 / W_NN, rho_T = 1 / max(W_T1T1, W_T2T2) per contact; a non-positive diagonal
   (a contact that cannot move) gets 1 / (the largest diagonal entry of W), or 1. The
   blocks' rows: nsn_rho_blocks. */
static void nsn_rho(Nsn* s) {
  double dmax = 0;
  for (int i = 0; i < s->nc; i++) {
    double w[9];
    nsn_wblock(s, i, i, w);
    for (int a = 0; a < 3; a++)
      if (isfinite(w[4 * a])) dmax = fmax(dmax, w[4 * a]);
  }
  double fallback = dmax > 0 ? 1.0 / dmax : 1.0;
  for (int i = 0; i < s->nc; i++) {
    double w[9];
    nsn_wblock(s, i, i, w);
    double wt = fmax(w[4], w[8]);
    s->rho[2 * i] = w[0] > 0 && isfinite(w[0]) ? 1.0 / w[0] : fallback;
    s->rho[2 * i + 1] = wt > 0 && isfinite(wt) ? 1.0 / wt : fallback;
  }
  if (s->m) nsn_rho_blocks(s, dmax);
}

/* ------------------------------------------------------------------ the solver */

/* The Newton direction into d, after nsn_factor: the contacts' block LU alone, or with the
   blocks' Schur complement. 0 if S is singular. */
static int nsn_direction(Nsn* s, int na, int ma, double delta) {
  if (!s->m) {
    nsn_lusolve(s, na, s->d);
    return 1;
  }
  return nsn_solve_blocks(s, na, ma, delta);
}

/* The blocks' natural maps, squared and summed, at r = 0 (u = g) into *e0 and at (r, u)
   into *ew: their terms of the warm start's test. */
static void nsn_warm_blocks(const Nsn* s, const double* r, const double* u, double* e0,
                            double* ew) {
  static const double zero[6] = {0, 0, 0, 0, 0, 0};
  for (int k = 0; k < s->p->nblock; k++) {
    const csBlock* b = s->p->block + k;
    *e0 += csi_block_natural_map_sq(b, zero, s->p->g + b->row);
    *ew += csi_block_natural_map_sq(b, r + b->row, u + b->row);
  }
}

static csStatus nsn_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                          double* lambda, csSolverStats* st) {
  {
    const unsigned takes = (1u << CS_CONE_UNILATERAL) | (1u << CS_CONE_BOX) | (1u << CS_CONE_FREE);
    csStatus bst = csi_blocks_supported(p, "nsn", takes);
    if (bst != CS_OK) return bst;
  }
  memset(st, 0, sizeof *st);
  const int m = nsn_block_rows(p);
  if (p->nc <= 0 && m == 0) {
    cs_ncp_report(p, lambda, &st->ncp);
    st->converged = 1;
    return CS_OK;
  }
  const int nc = p->nc > 0 ? p->nc : 0, n = 3 * nc, nrow = n + m;
  Nsn s;
  memset(&s, 0, sizeof s);
  nsn_layout(&s, nc, m, ws);
  s.p = p, s.nc = nc, s.n = n, s.m = m, s.ld = nrow;
  const double tol = opt->tolerance;
  const int cap = opt->iterations > 0 ? opt->iterations : 1;
  nsn_pattern(&s);
  nsn_rho(&s);

  /* start: the warm start if its residual is below that of lambda = 0 (u = g) */
  double* r = lambda;
  double* u = s.u;
  if (opt->warmstart) {
    double zero[3] = {0, 0, 0}, e0 = 0, ew = 0;
    nsn_mulw(&s, r, 1, u);
    for (int i = 0; i < nc; i++) {
      e0 += csi_natural_map_sq(zero, p->g + 3 * i, p->mu[i]);
      ew += csi_natural_map_sq(r + 3 * i, u + 3 * i, p->mu[i]);
    }
    if (m) nsn_warm_blocks(&s, r, u, &e0, &ew);
    if (!(ew <= e0)) memset(r, 0, sizeof(double) * (size_t)nrow);
  } else {
    memset(r, 0, sizeof(double) * (size_t)nrow);
  }

  double err = INFINITY, best = INFINITY, stall_ref = INFINITY;
  double lm = CS_NSN_DELTA0; /* the damping delta */
  int it = 0, done = 0, stall_it = 0, restarted = 0;
  for (;;) {
    nsn_mulw(&s, r, 1, u); /* fresh: no drift from the updates u + t W d */
    err = nsn_error(&s, r, u);
    if (err < best) {
      best = err;
      memcpy(s.best, r, sizeof(double) * (size_t)nrow);
    }
    if (err <= tol) {
      done = 1;
      break;
    }
    if (!isfinite(err) || it >= cap) break;
    if (best <= 0.5 * stall_ref) stall_ref = best, stall_it = it, restarted = 0;
    if (it - stall_it >= CS_NSN_STALL) { /* no progress: stalled */
      if (restarted || stall_it < CS_NSN_LATE || !(lm < CS_NSN_DELTA_MAX)) break;
      lm = CS_NSN_DELTA_MAX, stall_ref = best, stall_it = it, restarted = 1; /* late stall */
    }
    it++;

    /* Newton direction: (J + delta I) d = -F */
    double phi = nsn_jacobian(&s, r, u);
    int na = nsn_assemble(&s, r, lm);
    int ma = m ? nsn_assemble_blocks(&s) : 0;
    double t = 0;
    if (nsn_factor(&s, na) && nsn_direction(&s, na, ma, lm)) {
      nsn_mulw(&s, s.d, 0, s.wd);
      /* Backtracking from t = 1: accept when phi decreases enough (Armijo; the slope of
         phi along an exact Newton direction is -2 phi), or when the Siconos error, the
         stop criterion, halves. The second test matters where the two measures weigh the
         contacts differently (rho_N = 1 / W_NN is 1e-6 on light bodies, the natural map's
         rho is 1): spheres-in-a-box crawls with t ~ 1e-3 on phi alone. */
      for (int k = 0; k < CS_NSN_BACKTRACK; k++) {
        double tt = ldexp(1.0, -k);
        for (int e = 0; e < nrow; e++) s.rt[e] = r[e] + tt * s.d[e], s.ut[e] = u[e] + tt * s.wd[e];
        if (nsn_merit(&s, s.rt, s.ut) <= (1 - 2 * CS_NSN_ARMIJO * tt) * phi ||
            nsn_error(&s, s.rt, s.ut) <= CS_NSN_ERR_DROP * err) {
          t = tt;
          break;
        }
      }
    }
    /* damping: less after a full step (toward Newton's local rate), more after a short
       one (toward a gradient-like step that the line search accepts) */
    if (t == 1)
      lm = fmax(0.1 * lm, CS_NSN_DELTA_MIN);
    else if (t < CS_NSN_SHORT)
      lm = fmin(10 * lm, CS_NSN_DELTA_MAX);
    if (t > 0)
      memcpy(r, s.rt, sizeof(double) * (size_t)nrow);
    else /* no acceptable step (or a pivot that cannot be inverted): Gauss-Seidel sweeps */
      nsn_sweeps(&s, r, u, CS_NSN_SWEEPS);
  }
  if (!done && best < err) {
    memcpy(r, s.best, sizeof(double) * (size_t)nrow);
    err = best;
  }
  st->iterations = it;
  st->converged = done;
  st->residual = isnan(err) ? INFINITY : err; /* NaN input: no residual, not converged */
  cs_ncp_report(p, lambda, &st->ncp);
  return CS_OK;
}

const csSolver cs_solver_nsn_ac = {"nsn_ac", nsn_workspace, nsn_solve};
