/* The solver table: one entry per csSolverType, NULL until implemented. Names are stable
   (docs/solvers.md): scripts and benchmarks use them. */
#include "solvers/cs_solver.h"

#include <string.h>

#include "core/cs_error.h"
#include "solvers/cs_solver_island.h"

static const char* const cs_solver_names[CS_SOLVER_COUNT] = {
    "none",    "bisection", "bisection_desaxce", "pgs_raisim", "lcp_pgs",
    "ccp_pgs", "ncp_pgs",   "ccp_admm",          "ncp_admm",   "staggered",
    "lemke",   "nsn_ac",    "bisection_paper"};

static const csSolver* solver_table(int type) {
  switch (type) {
    case CS_SOLVER_BISECTION:
      return &cs_solver_bisection;
    case CS_SOLVER_BISECTION_DESAXCE:
      return &cs_solver_bisection_desaxce;
    case CS_SOLVER_NCP_PGS:
      return &cs_solver_ncp_pgs;
    case CS_SOLVER_LCP_PGS:
      return &cs_solver_lcp_pgs;
    case CS_SOLVER_CCP_PGS:
      return &cs_solver_ccp_pgs;
    case CS_SOLVER_PGS_RAISIM:
      return &cs_solver_pgs_raisim;
    case CS_SOLVER_CCP_ADMM:
      return &cs_solver_ccp_admm;
    case CS_SOLVER_NCP_ADMM:
      return &cs_solver_ncp_admm;
    case CS_SOLVER_STAGGERED:
      return &cs_solver_staggered;
    case CS_SOLVER_LEMKE:
      return &cs_solver_lemke;
    case CS_SOLVER_NSN_AC:
      return &cs_solver_nsn_ac;
    case CS_SOLVER_BISECTION_PAPER:
      return cs_solver_bisection_paper.solve ? &cs_solver_bisection_paper : NULL;
    default:
      return NULL;
  }
}

const csSolver* cs_solver_get(csSolverType type) { return solver_table((int)type); }

const char* cs_solver_name(csSolverType type) {
  if ((int)type < 0 || type >= CS_SOLVER_COUNT) return "unknown";
  return cs_solver_names[type];
}

int cs_solver_from_name(const char* name) {
  if (!name) return -1;
  if (!strcmp(name, "pgs")) return CS_SOLVER_NCP_PGS;
  for (int i = 0; i < CS_SOLVER_COUNT; i++)
    if (!strcmp(name, cs_solver_names[i])) return i;
  return -1;
}

/* The default chain: the solver each type falls back to, CS_SOLVER_NONE for none */
static int default_fallback(int type) {
  return type == CS_SOLVER_BISECTION || type == CS_SOLVER_BISECTION_DESAXCE ? CS_SOLVER_NCP_ADMM
                                                                            : CS_SOLVER_NONE;
}

const csSolver* cs_solver_fallback(csSolverType type, const csSolverOptions* opt) {
  int f = opt ? opt->fallback : 0;
  if (f == 0) f = default_fallback((int)type);
  if (f <= 0 || f >= CS_SOLVER_COUNT || f == (int)type) return NULL;
  return solver_table(f);
}

size_t csi_solver_max_workspace(const csContactProblem* shape) {
  csSolverOptions o = {150, 1e-6, 1.0, 1, 0};
  size_t best = 0;
  for (int t = 0; t < CS_SOLVER_COUNT; t++) {
    const csSolver* s = solver_table(t);
    if (!s || !s->workspace_bytes) continue;
    /* every fall-back the solver may be given (its workspace holds the fall-back's) */
    for (int f = -1; f < CS_SOLVER_COUNT; f++) {
      o.fallback = f;
      size_t b = s->workspace_bytes(shape, &o);
      if (b > best) best = b;
      if (default_fallback(t) == CS_SOLVER_NONE) break;
    }
  }
  return best;
}

/* ------------------------------------------------------------------ cs_solve
   An elliptic contact (mu along t1, mu2 along t2) is an isotropic one in scaled tangent
   coordinates: with m = max(mu, mu2) and S = diag(1, mu / m, mu2 / m), lambda = S l' puts l'
   in K_m exactly when lambda is in the ellipse's cone, and v' = S v keeps <lambda, v> =
   <l', v'>, so maximal dissipation and de Saxce's bipotential (m |v'_T| is the ellipse's
   support function at v_T) carry over. The solver sees G' = S G S, g' = S g, R' = S R S. */

static double ell_scale(const csContactProblem* p, int row) {
  if (!p->mu2 || row >= 3 * p->nc || row % 3 == 0) return 1;
  int i = row / 3;
  double a = p->mu[i] > 0 ? p->mu[i] : 0, b = p->mu2[i];
  double m = a > b ? a : b;
  if (!(m > 0)) return 1;
  return (row % 3 == 1 ? a : b) / m;
}

static size_t ell_bytes(const csContactProblem* p) {
  if (!p->mu2) return 0;
  size_t n = (size_t)cs_problem_rows(p);
  return sizeof(double) * (n * n + 3 * n + (size_t)p->nc) + 64;
}

size_t csi_solve_dense_bytes(const csSolver* s, const csContactProblem* p,
                             const csSolverOptions* opt) {
  size_t b = s->workspace_bytes ? s->workspace_bytes(p, opt) : 0;
  return (b + 63) / 64 * 64 + ell_bytes(p);
}

size_t cs_solve_workspace_bytes(csSolverType type, const csContactProblem* p,
                                const csSolverOptions* opt) {
  const csSolver* s = cs_solver_get(type);
  if (!s || !p) return 0;
  if (p->nisland != 0) return csi_island_workspace_bytes(s, p, opt);
  return csi_solve_dense_bytes(s, p, opt);
}

/* The scaled problem q of p in space, lambda scaled into it (l' = S^-1 lambda). */
static void ell_scaled(const csContactProblem* p, double* space, csContactProblem* q,
                       double* lambda) {
  int n = cs_problem_rows(p);
  double* G = space;
  double* g = G + (size_t)n * n;
  double* R = g + n;
  double* S = R + n;
  double* mu = S + n;
  for (int r = 0; r < n; r++) S[r] = ell_scale(p, r);
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < n; c++) G[(size_t)r * n + c] = S[r] * p->G[(size_t)r * n + c] * S[c];
    g[r] = S[r] * p->g[r];
    if (p->R) R[r] = S[r] * p->R[r] * S[r];
    if (S[r] > 0) lambda[r] /= S[r];
  }
  for (int i = 0; i < p->nc; i++) {
    double a = p->mu[i] > 0 ? p->mu[i] : 0;
    mu[i] = a > p->mu2[i] ? a : p->mu2[i];
  }
  *q = *p;
  q->G = G, q->g = g, q->R = p->R ? R : NULL, q->mu = mu, q->mu2 = NULL, q->J = NULL;
}

csStatus csi_solve_dense(const csSolver* s, const csContactProblem* p, const csSolverOptions* opt,
                         void* ws, double* lambda, csSolverStats* stats) {
  if (!p->mu2) return s->solve(p, opt, ws, lambda, stats);
  size_t b = s->workspace_bytes ? s->workspace_bytes(p, opt) : 0;
  double* space = (double*)((char*)ws + (b + 63) / 64 * 64);
  csContactProblem q;
  ell_scaled(p, space, &q, lambda);
  csStatus st = s->solve(&q, opt, ws, lambda, stats);
  int n = cs_problem_rows(p);
  const double* S = space + (size_t)n * n + 2 * (size_t)n;
  for (int r = 0; r < n; r++) lambda[r] *= S[r];
  return st;
}

csStatus cs_solve(csSolverType type, const csContactProblem* p, const csSolverOptions* opt,
                  void* ws, double* lambda, csSolverStats* stats) {
  const csSolver* s = cs_solver_get(type);
  if (!s)
    return csi_error(CS_ERR_UNSUPPORTED, "solver '%s' is not implemented", cs_solver_name(type));
  csStatus st = cs_problem_check(p);
  if (st != CS_OK) return st;
  if (p->nisland != 0) return csi_island_solve(s, p, opt, ws, lambda, stats);
  return csi_solve_dense(s, p, opt, ws, lambda, stats);
}
