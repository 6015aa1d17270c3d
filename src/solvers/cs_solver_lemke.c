/* Lemke's method (cs_lemke.h) and the "lemke" contact solver: the contact problem as the
   Stewart-Trinkle LCP with a 4-facet pyramidal cone, with unilateral and box blocks as
   further LCP variables (bilateral, free blocks are refused: CS_ERR_UNSUPPORTED).

   Contact LCP. Per contact i the unknowns are lambda_N,i, four generator weights beta_ik
   >= 0 and the slack gamma_i (the sliding speed on the pyramid), lambda_T,i =
   sum_k beta_ik d_k with the generators d_k = (+-1, +-1) in (t1, t2). Their convex hull
   times mu lambda_N is the box |lambda_t1|, |lambda_t2| <= mu lambda_N, the very pyramid
   of lcp_pgs (paper 002's ||lambda_T||_inf <= mu lambda_N, the facets fixed by the tangent
   basis of docs/scenes.md), so both solve the same model and Lemke is the exact
   reference for LCP-PGS. With v = (G + R) lambda + g:
     0 <= lambda_N,i  _|_ v_N,i                          >= 0   (Signorini)
     0 <= beta_ik     _|_ d_k^T v_T,i + gamma_i          >= 0   (sliding along the max.
     0 <= gamma_i     _|_ mu_i lambda_N,i - sum_k beta_ik >= 0    dissipation corner/face)
   Blocks (their variables after the contacts' 6nc, in the block table's order), with v_r
   row r's velocity and l_r its impulse:
   - a unilateral row is one LCP variable: 0 <= l_r _|_ v_r >= 0;
   - a box row |l_r| <= f is the pyramid above in one dimension with mu lambda_N replaced
     by the constant f: l_r = b+ - b-, and a slack s (the row's sliding speed),
       0 <= b+ _|_  v_r + s      >= 0
       0 <= b- _|_ -v_r + s      >= 0
       0 <= s  _|_ f - b+ - b-   >= 0.
     v_r > 0 forces s >= v_r > 0, so b+ + b- = f and b+ = 0: l_r = -f; v_r < 0 gives l_r =
     f; v_r = 0 leaves s = 0 (else b+ = b- = 0 and f - 0 > 0 contradicts s > 0, f = 0
     aside) and |l_r| <= f. Three variables per box row, q = (g_r, -g_r, f). On (b+, b-,
     s) the LCP matrix is [[P, E], [-E^T, 0]], P = W_rr [[1, -1], [-1, 1]], E = (1, 1)^T:
     the contacts' slack structure with a constant bound (symmetric part PSD), which
     Lemke's method processes alike.
   The LCP matrix (n x n, n = 6nc + the unilateral rows + 3 x the box rows) is never
   stored: its columns come from G on demand, so the workspace is the basis inverse (n^2
   doubles) plus vectors.

   Numerics: the LCP is scaled symmetrically (lemke_scaling), the basis inverse is
   recomputed from scratch every n/8 pivots, pivots at the level of their own cancellation
   noise are refused, and the final basis is solved again with refinement. Still, Lemke in
   double precision is not robust on very ill-conditioned, degenerate problems: on the
   1e6 mass-ratio stack it may end on a ray near the solution.

   Stop and status: Lemke is a finite pivoting method; it ends on a solution, on a
   secondary ray (converged = 0) or on the pivot cap max(opt->iterations, 10 n)
   (converged = 0). converged = 1 needs a solution whose box LCP residual (lcp_pgs's
   criterion: csi_box_contact_residual, the largest over the contacts, and the blocks'
   csi_blocks_residual) is <= tolerance, so rounding in an ill-conditioned basis is
   reported, not hidden. On failure the better of the last point and the start (by that
   residual) is returned. stats.iterations counts pivots.

   Warm start: the complementary basis the warm start would have (lambda_N > 0: lambda_N
   basic; a box-interior friction: the two generators spanning lambda_T; at the box
   boundary and sliding: also gamma; a unilateral row: l_r > 0 basic; a box row: b+ if
   l_r > 0, b- if l_r < 0, and s at the bound with v_r != 0) is tried with one dense
   solve. If it is nonsingular, feasible and meets the tolerance, that is the answer (0
   pivots, the solution of that basis, not the warm start itself); otherwise Lemke runs
   from its usual start. */
#include <math.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "constraint/cs_contact_cone.h"
#include "core/cs_error.h"
#include "solvers/cs_lemke.h"
#include "solvers/cs_solver.h"

/* ------------------------------------------------------------------ Lemke's method */

/* Basis inverse n^2, then xB, col, a, res (n each); then ints: basis (n), ties (n). */
size_t csi_lemke_workspace(int n) {
  size_t m = n > 0 ? (size_t)n : 0;
  return sizeof(double) * (m * m + 4 * m) + sizeof(int) * (2 * m) + 64;
}

typedef struct LemkeWs {
  double *Binv, *xB, *col, *a, *res;
  int *basis, *ties;
} LemkeWs;

static LemkeWs lemke_layout(int n, void* ws) {
  LemkeWs w;
  size_t m = (size_t)n;
  w.Binv = ws;
  w.xB = w.Binv + m * m;
  w.col = w.xB + m;
  w.a = w.col + m;
  w.res = w.a + m;
  w.basis = (int*)(w.res + m);
  w.ties = w.basis + m;
  return w;
}

/* Column of variable var in the tableau [I | -M | -d] (w_0..w_n-1, z_0..z_n-1, z0). */
static void lemke_varcol(int n, csiLemkeColumn column, void* ctx, int var, double* a) {
  if (var < n) {
    memset(a, 0, sizeof(double) * (size_t)n);
    a[var] = 1;
  } else if (var < 2 * n) {
    column(ctx, var - n, a);
    for (int i = 0; i < n; i++) a[i] = -a[i];
  } else {
    for (int i = 0; i < n; i++) a[i] = -1;
  }
}

/* Pivot on row r of the column col (= Binv a_entering). */
static void lemke_pivot(int n, LemkeWs* w, int r) {
  double* Br = w->Binv + (size_t)r * (size_t)n;
  double pr = w->col[r];
  for (int j = 0; j < n; j++) Br[j] /= pr;
  w->xB[r] /= pr;
  for (int i = 0; i < n; i++) {
    double f = w->col[i];
    if (i == r || f == 0) continue;
    double* Bi = w->Binv + (size_t)i * (size_t)n;
    for (int j = 0; j < n; j++) Bi[j] -= f * Br[j];
    w->xB[i] -= f * w->xB[r];
  }
}

/* x <- B^-1 x by Gaussian elimination with partial pivoting (B destroyed). 0 if a pivot
   is below rtol times the largest entry of B (singular for the caller's purpose). */
static int dense_solve(int n, double* B, double* x, double rtol) {
  double bmax = 0;
  for (size_t k = 0; k < (size_t)n * (size_t)n; k++) bmax = fmax(bmax, fabs(B[k]));
  for (int c = 0; c < n; c++) {
    int piv = c;
    for (int r = c + 1; r < n; r++)
      if (fabs(B[(size_t)r * n + c]) > fabs(B[(size_t)piv * n + c])) piv = r;
    double pv = B[(size_t)piv * n + c];
    if (!(fabs(pv) > rtol * bmax)) return 0;
    if (piv != c) {
      for (int k = 0; k < n; k++) {
        double tmp = B[(size_t)c * n + k];
        B[(size_t)c * n + k] = B[(size_t)piv * n + k];
        B[(size_t)piv * n + k] = tmp;
      }
      double tmp = x[c];
      x[c] = x[piv], x[piv] = tmp;
    }
    for (int r = c + 1; r < n; r++) {
      double f = B[(size_t)r * n + c] / pv;
      if (f == 0) continue;
      for (int k = c; k < n; k++) B[(size_t)r * n + k] -= f * B[(size_t)c * n + k];
      x[r] -= f * x[c];
    }
  }
  for (int c = n - 1; c >= 0; c--) {
    double s = x[c];
    for (int k = c + 1; k < n; k++) s -= B[(size_t)c * n + k] * x[k];
    x[c] = s / B[(size_t)c * n + c];
  }
  return 1;
}

/* z from the basis, after iterative refinement of B xB = q: the product-form updates of
   Binv accumulate rounding over the pivots, and an ill-conditioned basis (a 1e6 mass
   ratio) leaves xB visibly off. Up to LEMKE_REFINE steps, while the residual shrinks. */
enum { LEMKE_REFINE = 4 };

static double lemke_basis_residual(int n, csiLemkeColumn column, void* ctx, const double* q,
                                   LemkeWs* w) {
  memcpy(w->res, q, sizeof(double) * (size_t)n);
  for (int k = 0; k < n; k++) {
    if (w->xB[k] == 0) continue;
    lemke_varcol(n, column, ctx, w->basis[k], w->a);
    for (int i = 0; i < n; i++) w->res[i] -= w->a[i] * w->xB[k];
  }
  double e = 0;
  for (int i = 0; i < n; i++) e = fmax(e, fabs(w->res[i]));
  return e;
}

static void lemke_extract(int n, csiLemkeColumn column, void* ctx, const double* q, LemkeWs* w,
                          double* z, int refine) {
  double e = refine ? lemke_basis_residual(n, column, ctx, q, w) : 0;
  for (int step = 0; step < LEMKE_REFINE && e > 0; step++) {
    /* xB += Binv res, keeping the previous xB (in col) in case it does not improve */
    memcpy(w->col, w->xB, sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) {
      const double* Bi = w->Binv + (size_t)i * (size_t)n;
      double s = 0;
      for (int j = 0; j < n; j++) s += Bi[j] * w->res[j];
      w->a[i] = s;
    }
    for (int i = 0; i < n; i++) w->xB[i] += w->a[i];
    double e2 = lemke_basis_residual(n, column, ctx, q, w);
    if (!(e2 < e)) {
      memcpy(w->xB, w->col, sizeof(double) * (size_t)n);
      break;
    }
    e = e2;
  }
  if (refine && e > 0) {
    /* Still off: Binv has drifted too far for refinement to contract (an ill-conditioned
       final basis). Solve the final basis afresh, O(n^3) once, and keep the better. */
    for (int k = 0; k < n; k++) {
      lemke_varcol(n, column, ctx, w->basis[k], w->a);
      for (int i = 0; i < n; i++) w->Binv[(size_t)i * n + k] = w->a[i];
    }
    memcpy(w->col, w->xB, sizeof(double) * (size_t)n);
    memcpy(w->xB, q, sizeof(double) * (size_t)n);
    double e2 =
        dense_solve(n, w->Binv, w->xB, 0) ? lemke_basis_residual(n, column, ctx, q, w) : INFINITY;
    if (!(e2 < e)) memcpy(w->xB, w->col, sizeof(double) * (size_t)n);
  }
  memset(z, 0, sizeof(double) * (size_t)n);
  for (int k = 0; k < n; k++) {
    int var = w->basis[k];
    if (var >= n && var < 2 * n) z[var - n] = w->xB[k] > 0 ? w->xB[k] : 0;
  }
}

/* Binv and xB afresh from the basis columns (in-place Gauss-Jordan with partial pivoting;
   ties as row-swap scratch). The product-form updates accumulate rounding pivot after
   pivot, and with an ill-conditioned basis (a 1e6 mass ratio) a drifted Binv turns a
   noise-level entry into a pivot (seen: 2e-11, followed by garbage). 0 if B is singular
   to rounding (Binv is then lost: the caller stops). */
static int lemke_refactor(int n, csiLemkeColumn column, void* ctx, const double* q, LemkeWs* w) {
  for (int k = 0; k < n; k++) {
    lemke_varcol(n, column, ctx, w->basis[k], w->a);
    for (int i = 0; i < n; i++) w->Binv[(size_t)i * n + k] = w->a[i];
  }
  int* perm = w->ties;
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(w->Binv[(size_t)i * n + k]) > fabs(w->Binv[(size_t)p * n + k])) p = i;
    perm[k] = p;
    double* Bk = w->Binv + (size_t)k * n;
    if (p != k) {
      double* Bp = w->Binv + (size_t)p * n;
      for (int j = 0; j < n; j++) {
        double t = Bk[j];
        Bk[j] = Bp[j], Bp[j] = t;
      }
    }
    double piv = Bk[k];
    if (!(piv != 0) || !isfinite(piv)) return 0;
    Bk[k] = 1;
    for (int j = 0; j < n; j++) Bk[j] /= piv;
    for (int i = 0; i < n; i++) {
      if (i == k) continue;
      double* Bi = w->Binv + (size_t)i * n;
      double f = Bi[k];
      if (f == 0) continue;
      Bi[k] = 0;
      for (int j = 0; j < n; j++) Bi[j] -= f * Bk[j];
    }
  }
  for (int k = n - 1; k >= 0; k--) /* the row swaps become column swaps of the inverse */
    if (perm[k] != k)
      for (int i = 0; i < n; i++) {
        double* Bi = w->Binv + (size_t)i * n;
        double t = Bi[k];
        Bi[k] = Bi[perm[k]], Bi[perm[k]] = t;
      }
  for (int i = 0; i < n; i++) {
    const double* Bi = w->Binv + (size_t)i * n;
    double s = 0;
    for (int j = 0; j < n; j++) s += Bi[j] * q[j];
    w->xB[i] = s;
  }
  return 1;
}

/* Leaving row among the candidates (col_i > 0): minimum ratio xB_i / col_i, ties broken
   lexicographically on the rows of Binv / col_i (the perturbation q + (eps, eps^2, ...)),
   the artificial z0 first if it ties. -1 if no candidate (a ray). */
static int lemke_ratio(int n, LemkeWs* w, double xscale) {
  double colmax = 0;
  for (int i = 0; i < n; i++) colmax = fmax(colmax, fabs(w->col[i]));
  if (!(colmax > 0)) return -1;
  /* A pivot must stand out of the rounding of its own computation: col_i is a sum of terms
     of total size res_i = sum_j |Binv_ij a_j|, so col_i below 1e-9 res_i is cancellation
     noise (seen on a 1e6 mass ratio: 1e-10 out of terms of 1e3), and pivoting on it makes
     the basis singular. */
  double ptol = 1e-11 * colmax;
  for (int i = 0; i < n; i++) w->res[i] = fmax(ptol, 1e-9 * w->res[i]);
  double theta = INFINITY;
  for (int i = 0; i < n; i++)
    if (w->col[i] > w->res[i]) theta = fmin(theta, fmax(w->xB[i], 0) / w->col[i]);
  if (theta == INFINITY) return -1;
  double ttol = 1e-11 * (fabs(theta) + xscale / colmax);
  int nt = 0;
  for (int i = 0; i < n; i++)
    if (w->col[i] > w->res[i] && fmax(w->xB[i], 0) / w->col[i] <= theta + ttol) w->ties[nt++] = i;
  for (int k = 0; k < nt; k++)
    if (w->basis[w->ties[k]] == 2 * n) return w->ties[k];
  for (int j = 0; j < n && nt > 1; j++) {
    double lo = INFINITY, big = 0;
    for (int k = 0; k < nt; k++) {
      int i = w->ties[k];
      double t = w->Binv[(size_t)i * n + j] / w->col[i];
      lo = fmin(lo, t);
      big = fmax(big, fabs(t));
    }
    double ltol = 1e-11 * (fabs(lo) + big);
    int m = 0;
    for (int k = 0; k < nt; k++) {
      int i = w->ties[k];
      if (w->Binv[(size_t)i * n + j] / w->col[i] <= lo + ltol) w->ties[m++] = i;
    }
    nt = m;
  }
  return w->ties[0];
}

int csi_lemke_cols(int n, csiLemkeColumn column, void* ctx, const double* q, double* z, void* ws,
                   int max_pivots, int* pivots) {
  if (pivots) *pivots = 0;
  if (n <= 0 || !column || !q || !z || !ws) return CSI_LEMKE_ARG;
  LemkeWs w = lemke_layout(n, ws);
  memset(z, 0, sizeof(double) * (size_t)n);
  double xscale = 0;
  int r = -1;
  for (int i = 0; i < n; i++) {
    if (!isfinite(q[i])) return CSI_LEMKE_ARG;
    xscale = fmax(xscale, fabs(q[i]));
    /* z0 enters at the most negative q_i; on ties the largest index, which is the
       lexicographic choice for q + (eps, eps^2, ...) */
    if (q[i] < 0 && (r < 0 || q[i] <= q[r])) r = i;
  }
  if (r < 0) return CSI_LEMKE_OK; /* q >= 0: z = 0 */
  memset(w.Binv, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int i = 0; i < n; i++) {
    w.Binv[(size_t)i * n + i] = 1;
    w.xB[i] = q[i];
    w.basis[i] = i;
  }
  int np = 0;
  double z0start = -q[r]; /* z0's value after the first pivot */
  /* refactor every n/8 pivots (at least every 8): O(n^3) against n/8 pivots of O(n^2) */
  int refactor_every = n / 8 > 8 ? n / 8 : 8;
  int entering = 2 * n; /* z0 */
  lemke_varcol(n, column, ctx, entering, w.col);
  int status = CSI_LEMKE_CAP;
  for (;;) {
    int leaving = w.basis[r];
    lemke_pivot(n, &w, r);
    w.basis[r] = entering;
    np++;
    if (leaving == 2 * n) {
      status = CSI_LEMKE_OK;
      break;
    }
    if (np >= max_pivots) break;
    if (np % refactor_every == 0 && !lemke_refactor(n, column, ctx, q, &w)) {
      status = CSI_LEMKE_ARG; /* the basis became singular to rounding: give up, reported */
      break;
    }
    entering = leaving < n ? leaving + n : leaving - n; /* the complement */
    lemke_varcol(n, column, ctx, entering, w.a);
    for (int i = 0; i < n; i++) { /* col = Binv a, and sum |Binv_ij a_j| in res */
      const double* Bi = w.Binv + (size_t)i * (size_t)n;
      double s = 0, sa = 0;
      for (int j = 0; j < n; j++) {
        double t = Bi[j] * w.a[j];
        s += t, sa += fabs(t);
      }
      w.col[i] = s;
      w.res[i] = sa;
    }
    r = lemke_ratio(n, &w, xscale);
    if (r < 0) {
      /* A ray from a point where z0 is already zero up to rounding (a degenerate end in
         an ill-conditioned basis: z0 ~ eps |M| |z|) is a solution: z0 = 0 leaves a
         complementary feasible point. Whether it is accurate enough, the caller's
         residual says. */
      status = CSI_LEMKE_RAY;
      for (int k = 0; k < n; k++)
        if (w.basis[k] == 2 * n && fabs(w.xB[k]) <= 1e-8 * z0start) status = CSI_LEMKE_OK;
      break;
    }
    if (!isfinite(w.xB[r])) {
      status = CSI_LEMKE_ARG;
      break;
    }
  }
  if (pivots) *pivots = np;
  lemke_extract(n, column, ctx, q, &w, z, status == CSI_LEMKE_OK);
  return status;
}

typedef struct DenseLcp {
  int n;
  const double* M;
} DenseLcp;

static void dense_column(void* ctx, int j, double* col) {
  const DenseLcp* d = ctx;
  for (int i = 0; i < d->n; i++) col[i] = d->M[(size_t)i * (size_t)d->n + j];
}

int csi_lemke(int n, const double* M, const double* q, double* z, void* ws, int max_pivots) {
  if (!M) return CSI_LEMKE_ARG;
  DenseLcp d = {n, M};
  return csi_lemke_cols(n, dense_column, &d, q, z, ws, max_pivots, NULL);
}

/* ------------------------------------------------------------------ the contact LCP */

/* Generators of the pyramid in (t1, t2): the corners of the box. */
static const double cs_lemke_dir[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};

typedef struct LemkeCtx {
  const csContactProblem* p;
  int n;               /* LCP variables (lemke_size) */
  int ld;              /* the problem's rows: G's leading dimension */
  double* gcol;        /* (ld) one column of G + R */
  const double* scale; /* (n) the diagonal scaling D of the LCP, see lemke_scaling */
} LemkeCtx;

/* LCP variables of a block: 1 for a unilateral row, 3 for a box row (b+, b-, s); a free
   block (refused) counts its rows, so that lemke_size bounds the problem's rows. */
static int lemke_block_vars(const csBlock* b) {
  return b->type == CS_CONE_BOX ? 3 : b->type == CS_CONE_UNILATERAL ? 1 : b->n;
}

/* LCP variables of p: 6 per contact, then the blocks'. */
static int lemke_size(const csContactProblem* p) {
  int n = 6 * (p->nc > 0 ? p->nc : 0);
  for (int k = 0; k < p->nblock; k++) n += lemke_block_vars(p->block + k);
  return n;
}

/* col's contact rows (lambda_N,a's and beta_ak's) from gc, a column of G + R */
static void lemke_map_contacts(int nc, const double* gc, double* col) {
  for (int a = 0; a < nc; a++) {
    col[a] = gc[3 * a];
    for (int k = 0; k < 4; k++)
      col[nc + 4 * a + k] = cs_lemke_dir[k][0] * gc[3 * a + 1] + cs_lemke_dir[k][1] * gc[3 * a + 2];
  }
}

/* col's block rows from gc: a unilateral row's w = v_r, a box row's w+ = v_r, w- = -v_r
   (the slack's +1 come with its own column, the -1 of f - b+ - b- with b+'s and b-'s) */
static void lemke_map_blocks(const csContactProblem* p, const double* gc, double* col) {
  int o = 6 * p->nc;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    col[o] = gc[b->row];
    if (b->type == CS_CONE_BOX) col[o + 1] = -gc[b->row];
    o += lemke_block_vars(b);
  }
}

/* Column j >= 6nc (a block's variable) of the unscaled LCP matrix into col (zeroed) */
static void lemke_block_column(const LemkeCtx* c, int j, double* col) {
  const csContactProblem* p = c->p;
  int o = 6 * p->nc, k = 0;
  while (j >= o + lemke_block_vars(p->block + k)) o += lemke_block_vars(p->block + k++);
  const csBlock* b = p->block + k;
  int role = j - o; /* unilateral: 0 (l); box: 0 (b+), 1 (b-), 2 (s) */
  if (role == 2) {  /* s: w+ = v + s, w- = -v + s */
    col[o] = col[o + 1] = 1;
    return;
  }
  double sign = role == 1 ? -1.0 : 1.0; /* l = b+ - b- */
  double* gc = c->gcol;
  const double* Gc = p->G + b->row;
  for (int r = 0; r < c->ld; r++) gc[r] = sign * Gc[(size_t)r * (size_t)c->ld];
  if (p->R) gc[b->row] += sign * p->R[b->row];
  lemke_map_contacts(p->nc, gc, col);
  lemke_map_blocks(p, gc, col);
  if (b->type == CS_CONE_BOX) col[o + 2] = -1; /* w_s = f - b+ - b- */
}

/* Index of a variable: lambda_N,i = i, beta_ik = nc + 4i + k, gamma_i = 5nc + i, then the
   blocks' from 6nc (lemke_block_column). */
static void lemke_column(void* vctx, int j, double* col) {
  const LemkeCtx* c = vctx;
  const csContactProblem* p = c->p;
  int nc = p->nc, ld = c->ld, n = c->n;
  memset(col, 0, sizeof(double) * (size_t)n);
  if (j >= 6 * nc) {
    lemke_block_column(c, j, col);
    for (int r = 0; r < n; r++) col[r] *= c->scale[r] * c->scale[j];
    return;
  }
  if (j >= 5 * nc) { /* gamma_i: +1 in its contact's four generator rows */
    int i = j - 5 * nc;
    for (int k = 0; k < 4; k++) col[nc + 4 * i + k] = c->scale[nc + 4 * i + k] * c->scale[j];
    return;
  }
  /* the column of G + R for lambda_N,i or beta_ik (a column, not a row: FCLIB's W need
     not be symmetric) */
  double* gc = c->gcol;
  int i;
  if (j < nc) {
    i = j;
    const double* Gc = p->G + 3 * i;
    for (int r = 0; r < ld; r++) gc[r] = Gc[(size_t)r * ld];
    if (p->R) gc[3 * i] += p->R[3 * i];
  } else {
    i = (j - nc) / 4;
    const double* d = cs_lemke_dir[(j - nc) % 4];
    const double* Gc = p->G + 3 * i;
    for (int r = 0; r < ld; r++)
      gc[r] = Gc[(size_t)r * ld + 1] * d[0] + Gc[(size_t)r * ld + 2] * d[1];
    if (p->R) gc[3 * i + 1] += p->R[3 * i + 1] * d[0], gc[3 * i + 2] += p->R[3 * i + 2] * d[1];
  }
  lemke_map_contacts(nc, gc, col);
  if (p->nblock) lemke_map_blocks(p, gc, col);
  double mu = p->mu[i] > 0 ? p->mu[i] : 0;
  col[5 * nc + i] = j < nc ? mu : -1.0;
  for (int r = 0; r < n; r++) col[r] *= c->scale[r] * c->scale[j];
}

/* The blocks' scaling (their variables from 6nc): W_rr^-1/2 for l, b+ and b-, the slack s
   the inverse of its two rows' mean scale (as gamma) */
static void lemke_scaling_blocks(const csContactProblem* p, size_t ld, double* D) {
  int o = 6 * p->nc;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    size_t r = (size_t)b->row;
    double w = p->G[r * ld + r] + (p->R ? p->R[r] : 0);
    D[o] = w > 0 ? 1.0 / sqrt(w) : 1.0;
    if (b->type == CS_CONE_BOX) D[o + 1] = D[o], D[o + 2] = 2.0 / (D[o] + D[o + 1]);
    o += lemke_block_vars(b);
  }
}

/* Symmetric diagonal scaling: the LCP (D M D, D q) has the solutions x' = D^-1 x. A 1e6
   mass ratio puts entries from 1e-3 to 1e5 in M; pivoting on it in double precision loses
   the small ones to rounding (noise-level pivots, rays near the solution). D = diag(M)^-1/2
   on the lambda_N and beta rows brings their diagonal to 1; the slack gamma_i, whose own
   diagonal is 0, gets the inverse mean scale of its generators, so the +-1 entries that
   couple them stay of order 1. The blocks' variables likewise (lemke_scaling_blocks). */
static void lemke_scaling(const csContactProblem* p, double* D) {
  int nc = p->nc;
  size_t ld = (size_t)cs_problem_rows(p);
  for (int i = 0; i < nc; i++) {
    const double* G0 = p->G + (3 * (size_t)i) * ld + 3 * (size_t)i;
    const double* R = p->R ? p->R + 3 * i : NULL;
    double gn = G0[0] + (R ? R[0] : 0);
    double g11 = G0[ld + 1] + (R ? R[1] : 0), g22 = G0[2 * ld + 2] + (R ? R[2] : 0);
    double g12 = 0.5 * (G0[ld + 2] + G0[2 * ld + 1]);
    D[i] = gn > 0 ? 1.0 / sqrt(gn) : 1.0;
    double sum = 0;
    for (int k = 0; k < 4; k++) {
      const double* d = cs_lemke_dir[k];
      double m = d[0] * d[0] * g11 + d[1] * d[1] * g22 + 2 * d[0] * d[1] * g12;
      D[nc + 4 * i + k] = m > 0 ? 1.0 / sqrt(m) : 1.0;
      sum += D[nc + 4 * i + k];
    }
    D[5 * nc + i] = 4.0 / sum;
  }
  if (p->nblock) lemke_scaling_blocks(p, ld, D);
}

/* q: the contacts' (g_N, d_k^T g_T, 0), a unilateral row's g_r, a box row's (g_r, -g_r, f) */
static void lemke_q(const csContactProblem* p, double* q) {
  int nc = p->nc;
  for (int a = 0; a < nc; a++) {
    q[a] = p->g[3 * a];
    for (int k = 0; k < 4; k++)
      q[nc + 4 * a + k] =
          cs_lemke_dir[k][0] * p->g[3 * a + 1] + cs_lemke_dir[k][1] * p->g[3 * a + 2];
    q[5 * nc + a] = 0;
  }
  int o = 6 * nc;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    q[o] = p->g[b->row];
    if (b->type == CS_CONE_BOX) q[o + 1] = -p->g[b->row], q[o + 2] = b->bound;
    o += lemke_block_vars(b);
  }
}

static void lemke_to_lambda(const csContactProblem* p, const double* x, double* lambda) {
  int nc = p->nc;
  for (int i = 0; i < nc; i++) {
    const double* b = x + nc + 4 * i;
    lambda[3 * i] = x[i];
    lambda[3 * i + 1] = b[0] - b[1] - b[2] + b[3];
    lambda[3 * i + 2] = b[0] + b[1] - b[2] - b[3];
  }
  int o = 6 * nc;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    lambda[b->row] = b->type == CS_CONE_BOX ? x[o] - x[o + 1] : x[o];
    o += lemke_block_vars(b);
  }
}

/* Lemke's dense tableau grows as n^2 doubles for n LCP variables; the arena of every csData
   is sized for the largest workspace at its problem's largest shape, so Lemke takes
   problems up to CS_LEMKE_MAX_NC contacts and, with blocks, up to CS_LEMKE_MAX_N LCP
   variables (the size of CS_LEMKE_MAX_NC contacts alone; it is meant for small dense LCPs:
   impacts, exact references) and reports larger ones as an error instead of making every
   csData megabytes larger. */
#define CS_LEMKE_MAX_NC 48
#define CS_LEMKE_MAX_N (6 * CS_LEMKE_MAX_NC)

/* Lemke, then q, x (n each), the G column (rows), v (rows), D (n), the start (rows), the
   warm basis (n ints); n and the rows capped (a larger problem is refused), a pure
   contact problem's through its contacts as min(nc, CS_LEMKE_MAX_NC). Adding blocks never
   gives fewer bytes: with them n = min(lemke_size, CS_LEMKE_MAX_N) >= 6 min(nc,
   CS_LEMKE_MAX_NC) and rows = min(rows, CS_LEMKE_MAX_N) >= 3 min(nc, CS_LEMKE_MAX_NC),
   and both only grow with more blocks. */
static size_t lemke_workspace(const csContactProblem* p, const csSolverOptions* opt) {
  int nc = p->nc > 0 ? p->nc : 0;
  (void)opt;
  size_t n, rows;
  if (!p->nblock) {
    if (nc > CS_LEMKE_MAX_NC) nc = CS_LEMKE_MAX_NC;
    n = 6 * (size_t)nc, rows = 3 * (size_t)nc;
  } else {
    int nl = lemke_size(p), nr = cs_problem_rows(p);
    n = (size_t)(nl < CS_LEMKE_MAX_N ? nl : CS_LEMKE_MAX_N);
    rows = (size_t)(nr < CS_LEMKE_MAX_N ? nr : CS_LEMKE_MAX_N);
  }
  return csi_lemke_workspace((int)n) + sizeof(double) * (3 * n + 3 * rows) + sizeof(int) * n + 128;
}

/* The box LCP residual over the contacts and the blocks' residual, with v = (G + R) lambda
   + g computed into v. */
static double lemke_residual(const csContactProblem* p, const double* lambda, double* v) {
  csi_solver_velocity(p, lambda, v);
  double worst = 0;
  for (int i = 0; i < p->nc; i++) {
    double e = csi_box_contact_residual(lambda + 3 * i, v + 3 * i, p->mu[i]);
    if (!(e <= worst)) worst = e;
  }
  if (p->nblock) {
    double e = csi_blocks_residual(p, lambda, v);
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

/* The blocks' part of the warm start's basis (see the file comment) into isz. */
static void lemke_warm_blocks(const csContactProblem* p, const double* lambda, const double* v,
                              int* isz) {
  int o = 6 * p->nc;
  for (int k = 0; k < p->nblock; k++) {
    const csBlock* b = p->block + k;
    double l = lambda[b->row], f = b->bound;
    isz[o] = l > 0;
    if (b->type == CS_CONE_BOX) {
      isz[o + 1] = l < 0;
      isz[o + 2] = fabs(l) >= f * (1 - 1e-9) && v[b->row] != 0;
    }
    o += lemke_block_vars(b);
  }
}

/* The warm start's complementary basis (see the file comment), solved by Gaussian
   elimination with partial pivoting in B (n x n). 1 if it gives x >= 0 with w >= 0. */
static int lemke_try_warm(const csContactProblem* p, const double* lambda, const double* v,
                          LemkeCtx* ctx, const double* q, double* B, double* x, double* a,
                          int* isz) {
  int nc = p->nc, n = ctx->n;
  for (int i = 0; i < nc; i++) {
    const double* l = lambda + 3 * i;
    const double* vi = v + 3 * i;
    double mu = p->mu[i] > 0 ? p->mu[i] : 0;
    double b = mu * l[0];
    int* zb = isz + nc + 4 * i;
    isz[i] = l[0] > 0;
    zb[0] = zb[1] = zb[2] = zb[3] = 0;
    isz[5 * nc + i] = 0;
    if (!(l[0] > 0) || !(mu > 0)) {
      /* no friction capacity: a sliding contact has gamma = |v_t1| + |v_t2| basic, set by
         the generator most opposed to v_T (basic at 0), else the basis is singular */
      if (fabs(vi[1]) + fabs(vi[2]) > 0) {
        int kb = 0;
        for (int k = 1; k < 4; k++)
          if (cs_lemke_dir[k][0] * vi[1] + cs_lemke_dir[k][1] * vi[2] <
              cs_lemke_dir[kb][0] * vi[1] + cs_lemke_dir[kb][1] * vi[2])
            kb = k;
        zb[kb] = 1;
        isz[5 * nc + i] = 1;
      }
      continue;
    }
    /* the generators spanning lambda_T with the least total weight: the two corners on
       the side of its dominant component */
    double u = l[1], t = l[2];
    if (fabs(u) >= fabs(t)) {
      zb[u >= 0 ? 0 : 1] = 1, zb[u >= 0 ? 3 : 2] = 1;
    } else {
      zb[t >= 0 ? 0 : 3] = 1, zb[t >= 0 ? 1 : 2] = 1;
    }
    int atbound = fmax(fabs(u), fabs(t)) >= b * (1 - 1e-9);
    isz[5 * nc + i] = atbound && fabs(vi[1]) + fabs(vi[2]) > 0;
  }
  if (p->nblock) lemke_warm_blocks(p, lambda, v, isz);
  /* B = columns of the basic variables: z_j -> -M e_j, w_j -> e_j */
  for (int j = 0; j < n; j++) {
    if (isz[j]) {
      lemke_column(ctx, j, a);
      for (int r = 0; r < n; r++) B[(size_t)r * n + j] = -a[r];
    } else {
      for (int r = 0; r < n; r++) B[(size_t)r * n + j] = r == j;
    }
  }
  memcpy(x, q, sizeof(double) * (size_t)n);
  if (!dense_solve(n, B, x, 1e-12)) return 0; /* singular basis */
  /* x holds the basic values in variable order (w_j or z_j): all must be >= 0; the
     tolerance on the sign only admits rounding, the caller checks the residual. */
  double xs = 0;
  for (int j = 0; j < n; j++) xs = fmax(xs, fabs(q[j]));
  for (int j = 0; j < n; j++) {
    if (!isfinite(x[j]) || x[j] < -1e-12 * (1 + xs)) return 0;
    if (!isz[j])
      x[j] = 0; /* now x is z */
    else if (x[j] < 0)
      x[j] = 0;
  }
  return 1;
}

/* CS_OK, or CS_ERR_ARG for a problem over the size cap (CS_LEMKE_MAX_NC, CS_LEMKE_MAX_N). */
static csStatus lemke_check_size(const csContactProblem* p, int n) {
  if (p->nc > CS_LEMKE_MAX_NC)
    return csi_error(CS_ERR_ARG, "lemke: %d contacts; it takes at most %d (dense pivoting)", p->nc,
                     CS_LEMKE_MAX_NC);
  if (n > CS_LEMKE_MAX_N)
    return csi_error(CS_ERR_ARG,
                     "lemke: an LCP of %d variables (%d contacts and %d blocks); it takes at "
                     "most %d (dense pivoting)",
                     n, p->nc, p->nblock, CS_LEMKE_MAX_N);
  return CS_OK;
}

static csStatus lemke_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                            double* lambda, csSolverStats* st) {
  {
    csStatus bst =
        csi_blocks_supported(p, "lemke", (1u << CS_CONE_UNILATERAL) | (1u << CS_CONE_BOX));
    if (bst != CS_OK) return bst;
  }
  int n = lemke_size(p), nrow = cs_problem_rows(p);
  memset(st, 0, sizeof *st);
  {
    csStatus sst = lemke_check_size(p, n);
    if (sst != CS_OK) return sst;
  }
  char* base = ws;
  void* lws = base;
  double* q = (double*)(base + ((csi_lemke_workspace(n) + 63) & ~(size_t)63));
  double* x = q + n;
  double* gcol = x + n;
  double* v = gcol + nrow;
  double* D = v + nrow;
  int* isz = (int*)(D + n + nrow);
  LemkeCtx ctx = {p, n, nrow, gcol, D};
  lemke_scaling(p, D);
  lemke_q(p, q);
  for (int r = 0; r < n; r++) q[r] *= D[r];
  int cap = opt->iterations > 10 * n ? opt->iterations : 10 * n;
  if (opt->warmstart) {
    LemkeWs w = lemke_layout(n, lws);
    csi_solver_velocity(p, lambda, v);
    if (lemke_try_warm(p, lambda, v, &ctx, q, w.Binv, x, w.a, isz)) {
      double* keep = w.col; /* the warm start, in case the basis is rejected */
      memcpy(keep, lambda, sizeof(double) * (size_t)nrow);
      for (int r = 0; r < n; r++) x[r] *= D[r];
      lemke_to_lambda(p, x, lambda);
      double res = lemke_residual(p, lambda, v);
      if (res <= opt->tolerance) {
        st->iterations = 0;
        st->residual = res;
        st->converged = 1;
        cs_ncp_report(p, lambda, &st->ncp);
        return CS_OK;
      }
      memcpy(lambda, keep, sizeof(double) * (size_t)nrow);
    }
  }
  /* the start (the warm start, or 0), kept in case Lemke fails: see below */
  double* start = D + n; /* rows, after D */
  if (!opt->warmstart) memset(lambda, 0, sizeof(double) * (size_t)nrow);
  memcpy(start, lambda, sizeof(double) * (size_t)nrow);
  double res_start = lemke_residual(p, start, v);
  int piv = 0;
  int status = csi_lemke_cols(n, lemke_column, &ctx, q, x, lws, cap, &piv);
  double res = INFINITY;
  if (status != CSI_LEMKE_ARG) {
    for (int r = 0; r < n; r++) x[r] *= D[r];
    lemke_to_lambda(p, x, lambda);
    res = lemke_residual(p, lambda, v);
  }
  /* A ray, the cap or a numerical breakdown leaves an arbitrary complementary point; in a
     simulation applying it can be worse than the start (a 1e6 mass-ratio stack blew apart
     that way). Then the better of the two by the same residual is returned, still with
     converged = 0. */
  if (status != CSI_LEMKE_OK && !(res <= res_start)) {
    memcpy(lambda, start, sizeof(double) * (size_t)nrow);
    res = res_start;
  }
  st->iterations = piv;
  st->residual = res;
  st->converged = status == CSI_LEMKE_OK && res <= opt->tolerance;
  cs_ncp_report(p, lambda, &st->ncp);
  return CS_OK;
}

const csSolver cs_solver_lemke = {"lemke", lemke_workspace, lemke_solve};
