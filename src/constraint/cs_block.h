/* Blocks of the constraint problem beyond the contacts (internal): projections onto their
   sets, their terms of the NCP report and their natural maps, shared by the report and the
   solvers (docs/solvers.md, "Blocks and cones").

   A block's impulse l and velocity v (its rows of G lambda + g) must satisfy
     CS_CONE_UNILATERAL  l >= 0, v >= 0, l v = 0        set R+,       natural map min(l, v)
     CS_CONE_BOX         |l| <= f, v opposes no motion  set [-f, f],  l - clamp(l - v, -f, f)
     CS_CONE_FREE        v = 0                          set R^n,      v
   The report's terms per block (eps_p, eps_d, eps_c), in the units of a contact's:
     unilateral  max(-l, 0),        max(-v, 0),  |l v|
     box         max(|l| - f, 0),   0,           max((l~ + f) max(v, 0), (f - l~) max(-v, 0)),
                 l~ = clamp(l, -f, f): l must sit on the bound opposite the velocity
     free        0,                 |v|,         0 */
#ifndef CS_BLOCK_H
#define CS_BLOCK_H

#include <math.h>

#include "contactsim/cs_contact.h"

static inline double csi_clamp(double x, double lo, double hi) {
  return x < lo ? lo : x > hi ? hi : x;
}

/* Projection of one row's value x onto a 1-row block's set (unilateral or box); a free
   row is its own projection. */
static inline double csi_block_project1(int type, double bound, double x) {
  if (type == CS_CONE_UNILATERAL) return x > 0 ? x : 0;
  if (type == CS_CONE_BOX) return csi_clamp(x, -bound, bound);
  return x;
}

/* The report's three terms of a block (n rows at l, v). */
static inline void csi_block_terms(const csBlock* b, const double* l, const double* v, double* dp,
                                   double* dd, double* dc) {
  if (b->type == CS_CONE_UNILATERAL) {
    *dp = l[0] < 0 ? -l[0] : 0;
    *dd = v[0] < 0 ? -v[0] : 0;
    *dc = fabs(l[0] * v[0]);
  } else if (b->type == CS_CONE_BOX) {
    double f = b->bound, a = fabs(l[0]) - f, lc = csi_clamp(l[0], -f, f);
    double cp = (lc + f) * (v[0] > 0 ? v[0] : 0), cm = (f - lc) * (v[0] < 0 ? -v[0] : 0);
    *dp = a > 0 ? a : 0;
    *dd = 0;
    *dc = cp > cm ? cp : cm;
  } else {
    double s = 0;
    for (int k = 0; k < b->n; k++) s += v[k] * v[k];
    *dp = 0;
    *dd = sqrt(s);
    *dc = 0;
  }
}

/* The largest of a block's three terms: its residual in the solvers' NCP stop tests. */
static inline double csi_block_residual(const csBlock* b, const double* l, const double* v) {
  double dp, dd, dc;
  csi_block_terms(b, l, v, &dp, &dd, &dc);
  if (dd > dp) dp = dd;
  return dc > dp ? dc : dp;
}

/* |l - P(l - v)|^2 over a block's rows: its term of the natural-map residual. */
static inline double csi_block_natural_map_sq(const csBlock* b, const double* l, const double* v) {
  double s = 0;
  for (int k = 0; k < b->n; k++) {
    double r = l[k] - csi_block_project1(b->type, b->bound, l[k] - v[k]);
    s += r * r;
  }
  return s;
}

/* The largest residual over the blocks (0 if none), given v for every row. */
double csi_blocks_residual(const csContactProblem* p, const double* lambda, const double* v);

/* One Gauss-Seidel pass over the blocks in order, each solved exactly given the others: a
   1-row block l <- P(l - omega v / G_kk), a free block l <- l - omega G_BB^-1 v_B (G_BB by
   a pivoted LDL^T; a row whose pivot vanishes against the block's scale is left as it is).
   v (every row) is kept up to date. Returns the pass's sum of |changes|. */
double csi_blocks_gs(const csContactProblem* p, double* lambda, double* v, double omega);

/* Projects the blocks' impulses onto their sets (a warm start's). */
void csi_blocks_project(const csContactProblem* p, double* lambda);

/* CS_OK, or CS_ERR_UNSUPPORTED naming the solver and the first block of a type it does not
   take (mask: 1 << csConeType of the types it takes). Also rejects elliptic contacts
   (mu2), which reach the solvers through cs_solve. */
csStatus csi_blocks_supported(const csContactProblem* p, const char* solver, unsigned mask);

#endif
