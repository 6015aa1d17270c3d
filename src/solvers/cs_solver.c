/* The solver table: one entry per csSolverType, NULL until implemented. Names are stable
   (docs/solvers.md): scripts and benchmarks use them. */
#include "solvers/cs_solver.h"

#include <string.h>

static const char* const cs_solver_names[CS_SOLVER_COUNT] = {
    "none",    "bisection", "bisection_desaxce", "pgs_raisim", "lcp_pgs", "ccp_pgs",
    "ncp_pgs", "ccp_admm",  "ncp_admm",          "staggered",  "lemke",   "nsn_ac"};

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

size_t csi_solver_max_workspace(int nc) {
  csSolverOptions o = {150, 1e-6, 1.0, 1};
  size_t best = 0;
  for (int t = 0; t < CS_SOLVER_COUNT; t++) {
    const csSolver* s = solver_table(t);
    if (s && s->workspace_bytes) {
      size_t b = s->workspace_bytes(nc, &o);
      if (b > best) best = b;
    }
  }
  return best;
}
