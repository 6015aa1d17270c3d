/* A problem stored by islands (csContactProblem.nisland > 0; docs/solvers.md, "Islands"):
   G is block diagonal by islands, so the problem is nisland independent problems. cs_solve
   gathers each island's rows (mu, mu2, g, R, lambda and its blocks re-based to its rows)
   into the workspace, solves that problem on the island's own dense G (with the elliptic
   scaling of cs_solve) and scatters lambda back. The workspace holds the largest island's
   solve, never the whole problem's. */
#include "solvers/cs_solver_island.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cs_error.h"
#include "solvers/cs_solver.h"
#include "solvers/cs_solver_bsr.h"

/* Islands with up to this many blocks are sized with a block table on the stack. */
enum { ISLAND_STACK_BLOCKS = 64 };

int csi_island_rows(const csContactProblem* p, const csIsland* I) {
  int n = 3 * I->nc;
  for (int b = 0; b < I->nblock; b++) n += p->block[I->block[b]].n;
  return n;
}

/* ------------------------------------------------------------------ the table's check */

/* The ids of one list of island k: in 0..count - 1, strictly increasing, each marked once in
   mark (count bytes, zeroed by the caller). */
static csStatus check_ids(int k, const char* what, const int* id, int n, int count,
                          unsigned char* mark) {
  for (int a = 0; a < n; a++) {
    if (id[a] < 0 || id[a] >= count)
      return csi_error(CS_ERR_ARG, "problem island %d: %s %d of the island is %d, not in 0..%d", k,
                       what, a, id[a], count - 1);
    if (a > 0 && id[a] <= id[a - 1])
      return csi_error(CS_ERR_ARG,
                       "problem island %d: %s ids not strictly increasing (%d after %d at %d)", k,
                       what, id[a], id[a - 1], a);
    if (mark[id[a]])
      return csi_error(CS_ERR_ARG, "problem island %d: %s %d is already in another island", k, what,
                       id[a]);
    mark[id[a]] = 1;
  }
  return CS_OK;
}

/* Row a of block-sparse island k: its columns in range, strictly increasing, the diagonal
   among them. */
static csStatus check_couple_row(int k, const csIsland* I, int a) {
  int diag = 0;
  for (int e = I->couple_ptr[a]; e < I->couple_ptr[a + 1]; e++) {
    int c = I->couple_col[e];
    if (c < 0 || c >= I->nc)
      return csi_error(CS_ERR_ARG,
                       "problem island %d: block %d (row %d) has column %d, not in 0..%d", k, e, a,
                       c, I->nc - 1);
    if (e > I->couple_ptr[a] && c <= I->couple_col[e - 1])
      return csi_error(CS_ERR_ARG,
                       "problem island %d: block %d (row %d): columns not strictly increasing "
                       "(%d after %d)",
                       k, e, a, c, I->couple_col[e - 1]);
    diag |= c == a;
  }
  if (!diag)
    return csi_error(CS_ERR_ARG, "problem island %d: row %d of its blocks has no diagonal block", k,
                     a);
  return CS_OK;
}

/* The block table of block-sparse island k (ncouple != 0). */
static csStatus check_couple(int k, const csIsland* I) {
  if (I->ncouple < 0 || I->nblock != 0)
    return csi_error(CS_ERR_ARG,
                     "problem island %d: block-sparse with ncouple = %d and nblock = %d (a "
                     "block-sparse island has contacts only)",
                     k, I->ncouple, I->nblock);
  if (!I->couple_ptr || !I->couple_col)
    return csi_error(CS_ERR_ARG, "problem island %d: block-sparse without its %s", k,
                     !I->couple_ptr ? "row pointers" : "columns");
  if (I->couple_ptr[0] != 0 || I->couple_ptr[I->nc] != I->ncouple)
    return csi_error(
        CS_ERR_ARG,
        "problem island %d: block row pointers run from %d to %d, not 0 to ncouple = %d", k,
        I->couple_ptr[0], I->couple_ptr[I->nc], I->ncouple);
  for (int a = 0; a < I->nc; a++) {
    if (I->couple_ptr[a + 1] < I->couple_ptr[a])
      return csi_error(CS_ERR_ARG,
                       "problem island %d: block row pointer %d decreases (%d after %d)", k, a + 1,
                       I->couple_ptr[a + 1], I->couple_ptr[a]);
    csStatus st = check_couple_row(k, I, a);
    if (st != CS_OK) return st;
  }
  return CS_OK;
}

static csStatus check_island(const csContactProblem* p, int k, unsigned char* mark) {
  const csIsland* I = p->island + k;
  if (I->nc < 0 || I->nblock < 0 || I->nc + I->nblock == 0)
    return csi_error(CS_ERR_ARG, "problem island %d: nc = %d, nblock = %d (an island is not empty)",
                     k, I->nc, I->nblock);
  if ((I->nc > 0 && !I->contact) || (I->nblock > 0 && !I->block) || !I->G)
    return csi_error(CS_ERR_ARG, "problem island %d: no %s", k,
                     !I->G                        ? "G"
                     : (I->nc > 0 && !I->contact) ? "contact list"
                                                  : "block list");
  csStatus st = check_ids(k, "contact", I->contact, I->nc, p->nc, mark);
  if (st == CS_OK && I->ncouple != 0) st = check_couple(k, I);
  if (st == CS_OK) st = check_ids(k, "block", I->block, I->nblock, p->nblock, mark + p->nc);
  return st;
}

/* The first unmarked id of mark (n bytes), or -1. */
static int first_unmarked(const unsigned char* mark, int n) {
  for (int i = 0; i < n; i++)
    if (!mark[i]) return i;
  return -1;
}

static csStatus check_with(const csContactProblem* p, unsigned char* mark) {
  memset(mark, 0, (size_t)p->nc + (size_t)p->nblock);
  for (int k = 0; k < p->nisland; k++) {
    csStatus st = check_island(p, k, mark);
    if (st != CS_OK) return st;
  }
  int i = first_unmarked(mark, p->nc), b = first_unmarked(mark + p->nc, p->nblock);
  if (i >= 0) return csi_error(CS_ERR_ARG, "problem islands: contact %d is in no island", i);
  if (b >= 0) return csi_error(CS_ERR_ARG, "problem islands: block %d is in no island", b);
  return CS_OK;
}

csStatus cs_problem_check_islands(const csContactProblem* p, unsigned char* mark) {
  if (!p) return csi_error(CS_ERR_ARG, "problem is NULL");
  if (p->nisland == 0) return CS_OK;
  if (p->nisland < 0 || !p->island)
    return csi_error(CS_ERR_ARG, "problem: nisland = %d with %s", p->nisland,
                     p->island ? "an island table" : "no island table");
  if (p->nc < 0 || p->nblock < 0 || (p->nblock > 0 && !p->block))
    return csi_error(CS_ERR_ARG, "problem: nc = %d, nblock = %d, block table %s", p->nc, p->nblock,
                     p->block ? "set" : "NULL");
  if (mark) return check_with(p, mark);
  unsigned char* own = csi_malloc((size_t)p->nc + (size_t)p->nblock + 1);
  if (!own) return csi_error(CS_ERR_MEMORY, "out of memory checking %d islands", p->nisland);
  csStatus st = check_with(p, own);
  cs_free(own);
  return st;
}

/* ------------------------------------------------------------------ the workspace */

/* The sizes the gather buffers are cut for: the largest island's contacts, rows, blocks. */
typedef struct IslandShape {
  int nc, rows, nblock;
} IslandShape;

static IslandShape island_shape(const csContactProblem* p) {
  IslandShape m = {0, 0, 0};
  for (int k = 0; k < p->nisland; k++) {
    const csIsland* I = p->island + k;
    int r = csi_island_rows(p, I);
    if (I->nc > m.nc) m.nc = I->nc;
    if (r > m.rows) m.rows = r;
    if (I->nblock > m.nblock) m.nblock = I->nblock;
  }
  return m;
}

/* The sub-problem of island I over p's arrays: its blocks re-based into blk (I->nblock),
   sizes only (the arrays are gathered by gather_island). */
static csContactProblem island_problem(const csContactProblem* p, const csIsland* I, csBlock* blk) {
  csContactProblem q;
  memset(&q, 0, sizeof q);
  int row = 3 * I->nc;
  for (int b = 0; b < I->nblock; b++) {
    blk[b] = p->block[I->block[b]];
    blk[b].row = row;
    row += blk[b].n;
  }
  q.nc = I->nc;
  q.nblock = I->nblock;
  q.block = I->nblock > 0 ? blk : NULL;
  q.G = I->G;
  q.mu = p->mu, q.mu2 = p->mu2, q.g = p->g, q.R = p->R; /* replaced when gathered */
  q.asym = p->asym;
  return q;
}

static size_t align64(size_t b) { return (b + 63) / 64 * 64; }

/* The workspace, in order: the check's marks (the problem's nc + nblock bytes), the gather
   buffers (mu, mu2: nc; g, R, lambda: rows; the block table: nblock, of the largest
   island), the dense solve of the largest island. */
static size_t marks_bytes(const csContactProblem* p) {
  size_t n = (size_t)(p->nc > 0 ? p->nc : 0) + (size_t)(p->nblock > 0 ? p->nblock : 0);
  return align64(n + 1);
}

static size_t gather_bytes(IslandShape m) {
  return align64(sizeof(double) * (2 * (size_t)m.nc + 3 * (size_t)m.rows) +
                 sizeof(csBlock) * (size_t)m.nblock);
}

/* A block-sparse island's solve: on its blocks if s takes them, else expanded dense (its
   G, then the dense solve), or nothing if it is too large for that (cs_solve refuses it). */
static size_t bsr_region(const csSolver* s, const csIsland* I, csContactProblem* q,
                         const csSolverOptions* opt) {
  if (csi_bsr_takes(s)) return csi_bsr_workspace_bytes(s, I->nc, opt);
  if (I->nc > CSI_BSR_EXPAND_MAX) return 0;
  size_t n = 3 * (size_t)I->nc;
  return align64(sizeof(double) * n * n) + csi_solve_dense_bytes(s, q, opt);
}

/* The largest solve over the islands, blk holding the largest island's blocks. */
static size_t dense_region(const csSolver* s, const csContactProblem* p, const csSolverOptions* opt,
                           csBlock* blk) {
  size_t best = 0;
  for (int k = 0; k < p->nisland; k++) {
    csContactProblem q = island_problem(p, p->island + k, blk);
    size_t b = p->island[k].ncouple > 0 ? bsr_region(s, p->island + k, &q, opt)
                                        : csi_solve_dense_bytes(s, &q, opt);
    if (b > best) best = b;
  }
  return best;
}

/* 1 if an island of p stores its G block-sparse. */
static int any_couple(const csContactProblem* p) {
  for (int k = 0; k < p->nisland; k++)
    if (p->island[k].ncouple > 0) return 1;
  return 0;
}

/* The whole problem's velocity for the report of several islands, one of them block-sparse
   (cs_ncp_report reads dense islands only): the problem's rows. */
static size_t report_bytes(const csContactProblem* p) {
  if (p->nisland < 2 || !any_couple(p)) return 0;
  return align64(sizeof(double) * (size_t)cs_problem_rows(p));
}

size_t csi_island_workspace_bytes(const csSolver* s, const csContactProblem* p,
                                  const csSolverOptions* opt) {
  /* a malformed table gets the marks only: enough for cs_solve to refuse it */
  if (cs_problem_check(p) != CS_OK || cs_problem_check_islands(p, NULL) != CS_OK)
    return marks_bytes(p);
  return csi_island_workspace_bytes_wellformed(s, p, opt);
}

size_t csi_island_workspace_bytes_wellformed(const csSolver* s, const csContactProblem* p,
                                             const csSolverOptions* opt) {
  IslandShape m = island_shape(p);
  csBlock stack[ISLAND_STACK_BLOCKS];
  csBlock* blk =
      m.nblock <= ISLAND_STACK_BLOCKS ? stack : csi_malloc(sizeof(csBlock) * (size_t)m.nblock);
  if (!blk) return SIZE_MAX / 2; /* an allocation of that size fails as out of memory */
  size_t b = dense_region(s, p, opt, blk);
  if (blk != stack) cs_free(blk);
  return marks_bytes(p) + gather_bytes(m) + report_bytes(p) + b;
}

/* ------------------------------------------------------------------ the solve */

typedef struct Gather {
  double *mu, *mu2, *g, *R, *lambda;
  csBlock* block;
} Gather;

static Gather gather_layout(IslandShape m, char* at) {
  Gather w;
  w.mu = (double*)at;
  w.mu2 = w.mu + m.nc;
  w.g = w.mu2 + m.nc;
  w.R = w.g + m.rows;
  w.lambda = w.R + m.rows;
  w.block = (csBlock*)(w.lambda + m.rows);
  return w;
}

/* Island I's rows of full (the problem's order) into own (the island's order). */
static void gather_rows(const csContactProblem* p, const csIsland* I, const double* full,
                        double* own) {
  int r = 0;
  for (int a = 0; a < I->nc; a++)
    for (int k = 0; k < 3; k++) own[r++] = full[3 * (size_t)I->contact[a] + (size_t)k];
  for (int b = 0; b < I->nblock; b++) {
    const csBlock* B = p->block + I->block[b];
    for (int k = 0; k < B->n; k++) own[r++] = full[B->row + k];
  }
}

/* The reverse of gather_rows. */
static void scatter_rows(const csContactProblem* p, const csIsland* I, const double* own,
                         double* full) {
  int r = 0;
  for (int a = 0; a < I->nc; a++)
    for (int k = 0; k < 3; k++) full[3 * (size_t)I->contact[a] + (size_t)k] = own[r++];
  for (int b = 0; b < I->nblock; b++) {
    const csBlock* B = p->block + I->block[b];
    for (int k = 0; k < B->n; k++) full[B->row + k] = own[r++];
  }
}

/* ------------------------------------------------------------------ dense G */

/* The problem's row of island I's row r. */
static int island_row(const csContactProblem* p, const csIsland* I, int r) {
  if (r < 3 * I->nc) return 3 * I->contact[r / 3] + r % 3;
  r -= 3 * I->nc;
  for (int b = 0;; b++) {
    const csBlock* B = p->block + I->block[b];
    if (r < B->n) return B->row + r;
    r -= B->n;
  }
}

/* Block-sparse island I's blocks placed into the problem's dense G (n x n). */
static void place_couple(const csIsland* I, size_t n, double* G) {
  for (int a = 0; a < I->nc; a++)
    for (int e = I->couple_ptr[a]; e < I->couple_ptr[a + 1]; e++) {
      const double* B = I->G + 9 * (size_t)e;
      size_t r0 = 3 * (size_t)I->contact[a], c0 = 3 * (size_t)I->contact[I->couple_col[e]];
      for (size_t r = 0; r < 3; r++)
        for (size_t c = 0; c < 3; c++) G[(r0 + r) * n + c0 + c] = B[3 * r + c];
    }
}

void cs_problem_dense_G(const csContactProblem* p, double* G) {
  size_t n = (size_t)cs_problem_rows(p);
  if (p->nisland <= 0) {
    memcpy(G, p->G, sizeof(double) * n * n);
    return;
  }
  memset(G, 0, sizeof(double) * n * n);
  for (int k = 0; k < p->nisland; k++) {
    const csIsland* I = p->island + k;
    if (I->ncouple > 0) {
      place_couple(I, n, G);
      continue;
    }
    int m = csi_island_rows(p, I);
    for (int r = 0; r < m; r++)
      scatter_rows(p, I, I->G + (size_t)r * (size_t)m, G + (size_t)island_row(p, I, r) * n);
  }
}

/* The sub-problem q of island I with its arrays gathered into w (lambda included). */
static void gather_island(const csContactProblem* p, const csIsland* I, const Gather* w,
                          const double* lambda, csContactProblem* q) {
  *q = island_problem(p, I, w->block);
  for (int a = 0; a < I->nc; a++) {
    w->mu[a] = p->mu[I->contact[a]];
    if (p->mu2) w->mu2[a] = p->mu2[I->contact[a]];
  }
  gather_rows(p, I, p->g, w->g);
  if (p->R) gather_rows(p, I, p->R, w->R);
  gather_rows(p, I, lambda, w->lambda);
  q->mu = w->mu;
  q->mu2 = p->mu2 ? w->mu2 : NULL;
  q->g = w->g;
  q->R = p->R ? w->R : NULL;
}

/* stats over the islands: iterations, residual and fall-back the largest, converged all. */
static void merge_stats(csSolverStats* all, const csSolverStats* one, int first) {
  if (first || one->iterations > all->iterations) all->iterations = one->iterations;
  if (first || one->residual > all->residual) all->residual = one->residual;
  if (first || one->fallback > all->fallback) all->fallback = one->fallback;
  all->converged = (first || all->converged) && one->converged;
}

/* The solver's message for island k, prefixed with the island. */
static csStatus island_error(csStatus st, int k) {
  char msg[512];
  snprintf(msg, sizeof msg, "%s", cs_last_error());
  return csi_error(st, "problem island %d: %s", k, msg);
}

/* Block-sparse island I's problem q: solved on its blocks, or expanded dense into ws. */
static csStatus solve_couple(const csSolver* s, const csIsland* I, csContactProblem* q,
                             const csSolverOptions* opt, void* ws, double* lambda,
                             csSolverStats* one) {
  if (csi_bsr_takes(s)) return csi_bsr_solve(s, q, I, opt, ws, lambda, one);
  if (I->nc > CSI_BSR_EXPAND_MAX)
    return csi_error(CS_ERR_ARG,
                     "solver '%s' takes no block-sparse G, and the island's %d contacts are "
                     "above the %d that cs_solve expands dense",
                     s->name, I->nc, (int)CSI_BSR_EXPAND_MAX);
  size_t n = 3 * (size_t)I->nc;
  double* G = (double*)ws;
  csi_bsr_dense(I, G);
  q->G = G;
  return csi_solve_dense(s, q, opt, (char*)ws + align64(sizeof(double) * n * n), lambda, one);
}

/* The report of several islands, one of them block-sparse: v = (G + R) lambda + g into v
   (the problem's rows) island by island, each island's product in its own order (w's
   lambda and R as scratch), then csi_ncp_report_v. */
static void report_couple(const csContactProblem* p, const Gather* w, const double* lambda,
                          double* v, csNcpReport* r) {
  for (int k = 0; k < p->nisland; k++) {
    const csIsland* I = p->island + k;
    gather_rows(p, I, lambda, w->lambda);
    int m = csi_island_rows(p, I);
    if (I->ncouple > 0) {
      csi_bsr_velocity(I, NULL, NULL, w->lambda, w->R);
    } else {
      for (int a = 0; a < m; a++) {
        const double* Ga = I->G + (size_t)a * (size_t)m;
        double t = 0;
        for (int c = 0; c < m; c++) t += Ga[c] * w->lambda[c];
        w->R[a] = t;
      }
    }
    scatter_rows(p, I, w->R, v);
  }
  int n = cs_problem_rows(p);
  for (int i = 0; i < n; i++) v[i] += p->g[i] + (p->R ? p->R[i] * lambda[i] : 0);
  csi_ncp_report_v(p, lambda, v, r);
}

csStatus csi_island_solve(const csSolver* s, const csContactProblem* p, const csSolverOptions* opt,
                          void* ws, double* lambda, csSolverStats* stats) {
  char* at = (char*)ws;
  csStatus st = cs_problem_check_islands(p, (unsigned char*)at);
  if (st != CS_OK) return st;
  IslandShape m = island_shape(p);
  at += marks_bytes(p);
  Gather w = gather_layout(m, at);
  double* vall = (double*)(void*)(at + gather_bytes(m));
  void* dense = at + gather_bytes(m) + report_bytes(p);
  memset(stats, 0, sizeof *stats);
  for (int k = 0; k < p->nisland; k++) {
    const csIsland* I = p->island + k;
    csContactProblem q;
    gather_island(p, I, &w, lambda, &q);
    csSolverStats one;
    memset(&one, 0, sizeof one);
    st = I->ncouple > 0 ? solve_couple(s, I, &q, opt, dense, w.lambda, &one)
                        : csi_solve_dense(s, &q, opt, dense, w.lambda, &one);
    if (st != CS_OK) return island_error(st, k);
    scatter_rows(p, I, w.lambda, lambda);
    merge_stats(stats, &one, k == 0);
    if (p->nisland == 1) stats->ncp = one.ncp; /* the whole problem's: as the dense solve */
  }
  if (p->nisland > 1 && report_bytes(p) > 0)
    report_couple(p, &w, lambda, vall, &stats->ncp);
  else if (p->nisland > 1)
    cs_ncp_report(p, lambda, &stats->ncp);
  return CS_OK;
}
