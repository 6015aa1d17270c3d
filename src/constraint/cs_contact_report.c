/* The NCP report every solver fills on exit (docs/solvers.md), and the contact frame. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "constraint/cs_contact_cone.h"
#include "contactsim/cs_contact.h"
#include "math/cs_math.h"
#include "solvers/cs_solver.h"

/* The report's sums over the contacts. */
typedef struct ReportSums {
  double eps_p, eps_d, eps_c, sig, err2, g2, l2, v2;
} ReportSums;

/* Contact i's terms, from its impulse and velocity v (= its rows of (G + R) lambda + g). */
static inline void report_contact(const csContactProblem* p, int i, const double* lambda,
                                  const double v[3], ReportSums* s) {
  const double* li = lambda + 3 * (size_t)i;
  for (int k = 0; k < 3; k++) {
    size_t row = 3 * (size_t)i + (size_t)k;
    s->g2 += p->g[row] * p->g[row];
    s->l2 += lambda[row] * lambda[row];
    s->v2 += v[k] * v[k];
  }
  double mu = p->mu[i];
  /* de Saxce's modified velocity: v~ in K* and <lambda, v~> = 0 encode Signorini, Coulomb
     and maximal dissipation together. |v_T| once for v~, its distance to K* and the
     natural map. */
  double vt = csi_norm2(v[1], v[2]), dp, dd, dc;
  csi_ncp_terms(li, v, vt, mu, &dp, &dd, &dc);
  double ds = fabs(li[0] * v[0]);
  if (dp > s->eps_p) s->eps_p = dp;
  if (dd > s->eps_d) s->eps_d = dd;
  if (dc > s->eps_c) s->eps_c = dc;
  if (ds > s->sig) s->sig = ds;
  s->err2 += csi_natural_map_sq_vt(li, v, vt, mu);
}

/* Block k's terms (docs/solvers.md, "Blocks and cones"), v its rows' velocities. */
static inline void report_block(const csContactProblem* p, int k, const double* lambda,
                                const double* v, ReportSums* s) {
  const csBlock* b = p->block + k;
  const double* l = lambda + b->row;
  for (int r = 0; r < b->n; r++) {
    s->g2 += p->g[b->row + r] * p->g[b->row + r];
    s->l2 += l[r] * l[r];
    s->v2 += v[r] * v[r];
  }
  double dp, dd, dc;
  csi_block_terms(b, l, v, &dp, &dd, &dc);
  if (dp > s->eps_p) s->eps_p = dp;
  if (dd > s->eps_d) s->eps_d = dd;
  if (dc > s->eps_c) s->eps_c = dc;
  s->err2 += csi_block_natural_map_sq(b, l, v);
}

static void report_finish(const ReportSums* s, csNcpReport* r) {
  r->eps_p = s->eps_p;
  r->eps_d = s->eps_d;
  r->eps_c = s->eps_c;
  r->eps_abs = fmax(s->eps_p, fmax(s->eps_d, s->eps_c));
  double err = sqrt(s->err2), gn = sqrt(s->g2);
  /* Siconos 4.4.0 divides by max(|q|, |r|, |u|) only when it exceeds DBL_EPSILON
     (fabs(norm) > DBL_EPSILON in fc3d_compute_error); same test here, so a zero problem
     reports the absolute residual. */
  double scale = fmax(gn, fmax(sqrt(s->l2), sqrt(s->v2)));
  r->error = scale > DBL_EPSILON ? err / scale : err;
  r->error_1pq = err / (1.0 + gn);
  r->signorini = s->sig;
}

/* Row r of (G + R) lambda + g, the sum in the order of the contacts' rows below */
static double report_row(const csContactProblem* p, size_t n, size_t r, const double* lambda) {
  const double* Gr = p->G + r * n;
  double s = 0;
  for (size_t j = 0; j < n; j++) s += Gr[j] * lambda[j];
  s += p->g[r];
  if (p->R) s += p->R[r] * lambda[r];
  return s;
}

/* Row r of island I's G times lambda: its columns are the island's rows in its order
   (contacts, then blocks), each the same sum as the dense row's non-zero terms. */
static double island_dot(const csContactProblem* p, const csIsland* I, const double* Gr,
                         const double* lambda) {
  double s = 0;
  size_t j = 0;
  for (int a = 0; a < I->nc; a++) {
    const double* l = lambda + 3 * (size_t)I->contact[a];
    s += Gr[j] * l[0], s += Gr[j + 1] * l[1], s += Gr[j + 2] * l[2];
    j += 3;
  }
  for (int b = 0; b < I->nblock; b++) {
    const csBlock* B = p->block + I->block[b];
    for (int q = 0; q < B->n; q++) s += Gr[j++] * lambda[B->row + q];
  }
  return s;
}

/* Rows row .. row + n - 1 of the problem's v, island I's rows from r0 on. */
static void island_v(const csContactProblem* p, const csIsland* I, size_t m, size_t r0, int row,
                     int n, const double* lambda, double* v) {
  for (int q = 0; q < n; q++) {
    size_t at = (size_t)row + (size_t)q;
    v[q] = island_dot(p, I, I->G + (r0 + (size_t)q) * m, lambda) + p->g[at];
    if (p->R) v[q] += p->R[at] * lambda[at];
  }
}

/* Contact a of a block-sparse island I (csIsland.ncouple > 0): its row blocks times the
   problem's lambda at their contacts, plus g and R lambda. */
static void island_bsr_v(const csContactProblem* p, const csIsland* I, int a, const double* lambda,
                         double* v) {
  double s[3] = {0, 0, 0};
  for (int k = I->couple_ptr[a]; k < I->couple_ptr[a + 1]; k++) {
    const double* B = I->G + 9 * (size_t)k;
    const double* l = lambda + 3 * (size_t)I->contact[I->couple_col[k]];
    for (int r = 0; r < 3; r++) s[r] += B[3 * r] * l[0] + B[3 * r + 1] * l[1] + B[3 * r + 2] * l[2];
  }
  for (int r = 0; r < 3; r++) {
    size_t at = 3 * (size_t)I->contact[a] + (size_t)r;
    v[r] = s[r] + p->g[at] + (p->R ? p->R[at] * lambda[at] : 0);
  }
}

/* The report of a problem stored by islands, island by island (no scratch vector: this runs
   inside cs_solve). */
static void report_islands(const csContactProblem* p, const double* lambda, ReportSums* s) {
  for (int k = 0; k < p->nisland; k++) {
    const csIsland* I = p->island + k;
    size_t m = 3 * (size_t)I->nc, r0;
    for (int b = 0; b < I->nblock; b++) m += (size_t)p->block[I->block[b]].n;
    for (int a = 0; a < I->nc; a++) {
      double v[3];
      if (I->ncouple > 0)
        island_bsr_v(p, I, a, lambda, v);
      else
        island_v(p, I, m, 3 * (size_t)a, 3 * I->contact[a], 3, lambda, v);
      report_contact(p, I->contact[a], lambda, v, s);
    }
    r0 = 3 * (size_t)I->nc;
    for (int b = 0; b < I->nblock; b++) {
      const csBlock* B = p->block + I->block[b];
      double v[6];
      island_v(p, I, m, r0, B->row, B->n, lambda, v);
      report_block(p, I->block[b], lambda, v, s);
      r0 += (size_t)B->n;
    }
  }
}

void cs_ncp_report(const csContactProblem* p, const double* lambda, csNcpReport* r) {
  memset(r, 0, sizeof *r);
  if (!p || (p->nc <= 0 && p->nblock <= 0)) return;
  if (p->nisland > 0) {
    ReportSums s = {0, 0, 0, 0, 0, 0, 0, 0};
    report_islands(p, lambda, &s);
    report_finish(&s, r);
    return;
  }
  const size_t n = (size_t)cs_problem_rows(p);
  ReportSums s = {0, 0, 0, 0, 0, 0, 0, 0};
  /* One contact at a time (row block i of G times lambda), so no scratch vector of size
     3nc is needed: this runs inside the step, which must not allocate. */
  for (int i = 0; i < p->nc; i++) {
    const size_t r0 = 3 * (size_t)i;
    /* the three rows in one pass over lambda (each sum in the same order as alone) */
    const double *G0 = p->G + r0 * n, *G1 = G0 + n, *G2 = G1 + n;
    double s0 = 0, s1 = 0, s2 = 0;
    for (size_t j = 0; j < n; j++) {
      double lj = lambda[j];
      s0 += G0[j] * lj, s1 += G1[j] * lj, s2 += G2[j] * lj;
    }
    double v[3] = {s0 + p->g[r0], s1 + p->g[r0 + 1], s2 + p->g[r0 + 2]};
    if (p->R)
      for (int k = 0; k < 3; k++) v[k] += p->R[r0 + (size_t)k] * lambda[r0 + (size_t)k];
    report_contact(p, i, lambda, v, &s);
  }
  for (int k = 0; k < p->nblock; k++) {
    double v[6];
    for (int q = 0; q < p->block[k].n; q++)
      v[q] = report_row(p, n, (size_t)p->block[k].row + (size_t)q, lambda);
    report_block(p, k, lambda, v, &s);
  }
  report_finish(&s, r);
}

CSI_HOT void csi_ncp_report_v(const csContactProblem* p, const double* lambda, const double* v,
                              csNcpReport* r) {
  memset(r, 0, sizeof *r);
  if (!p || (p->nc <= 0 && p->nblock <= 0)) return;
  ReportSums s = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < p->nc; i++) report_contact(p, i, lambda, v + 3 * (size_t)i, &s);
  for (int k = 0; k < p->nblock; k++) report_block(p, k, lambda, v + p->block[k].row, &s);
  report_finish(&s, r);
}

void cs_contact_frame(const double n[3], double frame[9]) {
  /* e = the world axis least aligned with n; strict < keeps the first of tied axes, so
     ties go x, then y, then z (the pyramidal LCP's facets depend on this choice). */
  int e = 0;
  double an[3] = {fabs(n[0]), fabs(n[1]), fabs(n[2])};
  if (an[1] < an[e]) e = 1;
  if (an[2] < an[e]) e = 2;
  /* t1 = n x e_k written out: the cross product with a unit axis just picks components.
     0.0 - a rather than -a so a zero component is +0, not -0, in printed frames. */
  double t1[3];
  if (e == 0) {
    t1[0] = 0, t1[1] = n[2], t1[2] = 0.0 - n[1];
  } else if (e == 1) {
    t1[0] = 0.0 - n[2], t1[1] = 0, t1[2] = n[0];
  } else {
    t1[0] = n[1], t1[1] = 0.0 - n[0], t1[2] = 0;
  }
  double len = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
  if (len > 0) {
    double inv = 1.0 / len; /* one division, not three: this runs for every contact */
    t1[0] *= inv, t1[1] *= inv, t1[2] *= inv;
  }
  frame[0] = n[0], frame[1] = n[1], frame[2] = n[2];
  frame[3] = t1[0], frame[4] = t1[1], frame[5] = t1[2];
  frame[6] = n[1] * t1[2] - n[2] * t1[1];
  frame[7] = n[2] * t1[0] - n[0] * t1[2];
  frame[8] = n[0] * t1[1] - n[1] * t1[0];
}
