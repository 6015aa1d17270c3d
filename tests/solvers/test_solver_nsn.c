/* nsn_ac, the semismooth Newton solver on the Alart-Curnier function (src/solvers/cs_solver_nsn.c).
   The shared hand-built problems of test_solvers.c run it too (it is in the table); here:
   - random problems G = J M^-1 J^T, g = J v_free (open, sticking and sliding contacts, mu
     from 0 to 100), dense and block-sparse (a chain of bodies: the minimum-degree block LU
     meets fill-in), with redundant contacts (G singular): the Siconos error of the
     returned r, recomputed by cs_ncp_report, is <= the tolerance whenever converged is
     set, and every problem converges;
   - with small mu and G positive definite (a unique solution) nsn_ac and ncp_admm agree;
   - honesty (a cap of 1 iteration), warm start from the solution (no iteration), a bad warm
     start (dropped), nc = 0, a NaN in g (no crash, not converged), the workspace (filled
     with garbage, nothing written past its end) and its size (within 10% of ncp_admm's,
     which sizes csData's arena);
   - with ../shared (else skipped, exit 77): spheres-in-a-box (global, condensed; W
     singular), Capsules (local) and Spheres (global) solved to a Siconos error <= 1e-8,
     the global problems' global error <= 1e-8 too. No timing checks. */
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

#define NCMAX 40
#define NVMAX 160

typedef struct RProb {
  int nc, nv;
  double J[3 * NCMAX * NVMAX], minv[NVMAX], vfree[NVMAX];
  double G[9 * NCMAX * NCMAX], g[3 * NCMAX], mu[NCMAX];
  csContactProblem p;
} RProb;

/* Contact rows: chain != 0 couples contact i with bodies i / 2 and i / 2 + 1 only (so G is
   block-banded), else each row touches every dof. Normal rows get a positive free
   velocity for ~1/4 of the contacts (opening), negative for the others. */
static void rprob_make(RProb* P, int nc, int nv, int chain, double mu_max) {
  memset(P, 0, sizeof *P);
  P->nc = nc, P->nv = nv;
  int nb = nv / 6;
  for (int k = 0; k < nv; k++) {
    P->minv[k] = cs_test_uniform(0.2, 5);
    P->vfree[k] = cs_test_gauss();
  }
  for (int i = 0; i < nc; i++) {
    int b0 = (i / 2) % nb, b1 = (i / 2 + 1) % nb;
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < nv; k++) {
        int body = k / 6;
        if (chain && body != b0 && body != b1) continue;
        P->J[(3 * i + r) * nv + k] = cs_test_gauss();
      }
    double u = cs_test_uniform(0, 1);
    P->mu[i] = u < 0.1 ? 0 : u < 0.15 ? 100 : mu_max * cs_test_uniform(0, 1);
  }
  int n = 3 * nc;
  for (int r = 0; r < n; r++) {
    double s = 0;
    for (int k = 0; k < nv; k++) s += P->J[r * nv + k] * P->vfree[k];
    P->g[r] = s;
    for (int c = 0; c < n; c++) {
      double t = 0;
      for (int k = 0; k < nv; k++) t += P->J[r * nv + k] * P->minv[k] * P->J[c * nv + k];
      P->G[r * n + c] = t;
    }
  }
  for (int i = 0; i < nc; i++) /* bias the normals: most contacts approach */
    P->g[3 * i] = i % 4 == 3 ? fabs(P->g[3 * i]) : -fabs(P->g[3 * i]) - 0.5;
  P->p.nc = nc;
  P->p.mu = P->mu;
  P->p.G = P->G;
  P->p.g = P->g;
}

/* A workspace filled with garbage and followed by a canary. */
enum { CANARY = 256 };
static unsigned char* ws_alloc(size_t bytes) {
  size_t b = (bytes + CANARY + 63) & ~(size_t)63;
  unsigned char* w = aligned_alloc(64, b);
  if (w) memset(w, 0xA5, b);
  return w;
}

static int canary_ok(const unsigned char* w, size_t bytes) {
  for (size_t k = bytes; k < bytes + CANARY; k++)
    if (w[k] != 0xA5) return 0;
  return 1;
}

static const csSolver* nsn(void) {
  int t = cs_solver_from_name("nsn_ac");
  return t > 0 ? cs_solver_get((csSolverType)t) : NULL;
}

/* Solves p from lambda (warm if warm), checks the workspace canary; returns the stats. */
static csSolverStats run(const csSolver* s, const csContactProblem* p, double tol, int cap,
                         int warm, double* lambda) {
  csSolverOptions o = {cap, tol, 1.0, warm, 0};
  csSolverStats st;
  memset(&st, 0, sizeof st);
  if (!warm) memset(lambda, 0, sizeof(double) * 3 * (size_t)(p->nc > 0 ? p->nc : 1));
  size_t bytes = s->workspace_bytes(p, &o);
  unsigned char* ws = ws_alloc(bytes);
  CHECK(ws != NULL);
  if (!ws) return st;
  CHECK(s->solve(p, &o, ws, lambda, &st) == CS_OK);
  CHECK_MSG(canary_ok(ws, bytes), "%s wrote past its workspace (nc %d)", s->name, p->nc);
  free(ws);
  return st;
}

/* The converged flag and the residual against the report, recomputed here. */
static void check_honest(const csContactProblem* p, const double* l, const csSolverStats* st,
                         double tol, const char* what) {
  csNcpReport r;
  cs_ncp_report(p, l, &r);
  CHECK_MSG(r.error == st->ncp.error, "%s: stats.ncp is not the report of lambda", what);
  CHECK_MSG(!st->converged || r.error <= tol, "%s: converged with error %g", what, r.error);
  CHECK_MSG(st->converged || st->residual > tol, "%s: not converged, residual %g", what,
            st->residual);
}

static void test_random(void) {
  static RProb P;
  static double l[3 * NCMAX];
  const csSolver* s = nsn();
  const double tol = 1e-10;
  int solved = 0, total = 0, maxit = 0;
  for (int trial = 0; trial < 60; trial++) {
    int chain = trial % 2;
    int nc = 4 + trial % 37;
    /* nv < 3 nc for a third of the trials: redundant contacts, G singular */
    int nv = 6 * (trial % 3 == 0 ? (nc / 3 > 1 ? nc / 3 : 1) : nc / 2 + 2);
    if (nv > NVMAX) nv = NVMAX;
    rprob_make(&P, nc, nv, chain, 1.0);
    csSolverStats st = run(s, &P.p, tol, 200, 0, l);
    char what[64];
    snprintf(what, sizeof what, "random %d (nc %d nv %d chain %d)", trial, nc, nv, chain);
    check_honest(&P.p, l, &st, tol, what);
    CHECK_MSG(st.converged, "%s: not converged (error %g, %d iterations)", what, st.ncp.error,
              st.iterations);
    /* the NCP itself: r in K, v~ in K*, complementarity, relative to the scales */
    double ls = 0;
    for (int k = 0; k < 3 * nc; k++) ls = fmax(ls, fabs(l[k]));
    CHECK_MSG(st.ncp.eps_p <= 1e-8 * fmax(ls, 1) && st.ncp.eps_d <= 1e-7, "%s: eps_p %g eps_d %g",
              what, st.ncp.eps_p, st.ncp.eps_d);
    solved += st.converged, total++;
    if (st.iterations > maxit) maxit = st.iterations;
  }
  printf("random problems: %d of %d solved to 1e-10, at most %d iterations\n", solved, total,
         maxit);
}

/* Small mu and G positive definite: the NCP's solution is unique; ncp_admm finds it too. */
static void test_agree(void) {
  static RProb P;
  static double la[3 * NCMAX], lb[3 * NCMAX];
  const csSolver* a = nsn();
  const csSolver* b = cs_solver_get(CS_SOLVER_NCP_ADMM);
  CHECK(b != NULL);
  if (!b) return;
  int compared = 0;
  for (int trial = 0; trial < 10; trial++) {
    int nc = 3 + trial;
    rprob_make(&P, nc, 6 * (nc + 1), 0, 0.2);
    for (int i = 0; i < nc; i++)
      if (P.mu[i] > 0.2) P.mu[i] = 0.1;
    csSolverStats sa = run(a, &P.p, 1e-13, 200, 0, la);
    csSolverStats sb = run(b, &P.p, 1e-12, 20000, 0, lb);
    CHECK(sa.converged);
    if (!sa.converged || !sb.converged) continue;
    compared++;
    double e = cs_test_relerr(la, lb, 3 * nc, 1e-9);
    CHECK_MSG(e < 1e-6, "trial %d: nsn_ac and ncp_admm differ by %g", trial, e);
  }
  CHECK(compared >= 5);
}

static void test_edges(void) {
  static RProb P;
  static double l[3 * NCMAX], l2[3 * NCMAX];
  const csSolver* s = nsn();
  rprob_make(&P, 20, 60, 1, 0.8);
  /* honesty with a cap of one iteration */
  csSolverStats st = run(s, &P.p, 1e-12, 1, 0, l);
  check_honest(&P.p, l, &st, 1e-12, "cap 1");
  CHECK(st.iterations <= 1);
  /* solve, then warm start from the solution: no iteration */
  st = run(s, &P.p, 1e-10, 200, 0, l);
  CHECK(st.converged);
  memcpy(l2, l, sizeof l2);
  csSolverStats sw = run(s, &P.p, 1e-10, 200, 1, l2);
  CHECK_MSG(sw.converged && sw.iterations == 0, "warm start: converged %d, %d iterations",
            sw.converged, sw.iterations);
  /* a warm start worse than none is dropped, and the solve still converges */
  for (int k = 0; k < 60; k++) l2[k] = 1e6 * cs_test_gauss();
  sw = run(s, &P.p, 1e-10, 200, 1, l2);
  CHECK_MSG(sw.converged, "bad warm start: error %g", sw.ncp.error);
  /* a compliance R: the problem with G + R */
  double R[60];
  for (int k = 0; k < 60; k++) R[k] = 1e-2 * P.G[k * 60 + k];
  P.p.R = R;
  st = run(s, &P.p, 1e-10, 200, 0, l);
  check_honest(&P.p, l, &st, 1e-10, "compliance");
  CHECK(st.converged);
  P.p.R = NULL;
  /* a NaN in g: CS_OK, not converged, no crash */
  P.g[4] = NAN;
  st = run(s, &P.p, 1e-10, 50, 0, l);
  CHECK(!st.converged && st.residual > 1e-10);
  /* nc = 0 */
  csContactProblem z;
  memset(&z, 0, sizeof z);
  st = run(s, &z, 1e-10, 10, 0, l);
  CHECK(st.converged);
  /* workspace within 10% of ncp_admm's (the largest so far, which sizes csData's arena) */
  const csSolver* admm = cs_solver_get(CS_SOLVER_NCP_ADMM);
  csSolverOptions o = {150, 1e-6, 1.0, 1, 0};
  for (int nc = 1; nc <= 1024; nc *= 4) {
    csContactProblem shape = {0};
    shape.nc = nc;
    size_t a = s->workspace_bytes(&shape, &o), b = admm ? admm->workspace_bytes(&shape, &o) : 0;
    CHECK_MSG(admm && (double)a <= 1.1 * (double)b + 4096, "nc %d: workspace %zu vs admm %zu", nc,
              a, b);
  }
}

/* ---------------------------------------------------------------- FCLIB (../shared) */

static int test_fclib(void) {
  const char* files[] = {"spheres-in-a-box-98-i10000-256-10.hdf5", "Capsules-i125-1213.hdf5",
                         "Spheres-i099-356-679.hdf5"};
  if (!cs_have_fclib()) {
    printf("built without libfclib: FCLIB files skipped\n");
    return 0;
  }
  int done = 0;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char rel[256];
    snprintf(rel, sizeof rel, "fclib/siconos_hdf5/%s", files[f]);
    const char* pp = cs_test_shared(rel);
    if (!pp) {
      printf("%s: absent (../shared), skipped\n", files[f]);
      continue;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s", pp);
    csFclibInfo info;
    CHECK_MSG(cs_fclib_info(path, &info) == CS_OK, "%s: %s", files[f], cs_last_error());
    csGlobalProblem* g = NULL;
    csOwnedProblem* o = NULL;
    if (info.kind == CS_FCLIB_GLOBAL) {
      CHECK(cs_fclib_read_global(path, &g) == CS_OK && g);
      if (g) CHECK(cs_global_condense(g, &o) == CS_OK && o);
    } else {
      CHECK(cs_fclib_read_local(path, &o) == CS_OK && o);
    }
    if (!o) {
      cs_global_problem_free(g);
      continue;
    }
    int m = 3 * o->p.nc;
    double* l = calloc((size_t)m, sizeof(double));
    csSolverStats st = run(nsn(), &o->p, 1e-8, 1000, 0, l);
    check_honest(&o->p, l, &st, 1e-8, files[f]);
    CHECK_MSG(st.converged && st.ncp.error <= 1e-8, "%s: Siconos error %g (%d iterations)",
              files[f], st.ncp.error, st.iterations);
    double ge = NAN;
    if (g) {
      double* v = malloc((size_t)g->n * sizeof(double));
      CHECK(v && cs_global_velocity(g, l, v) == CS_OK);
      if (v) ge = cs_global_error(g, l, v, NULL);
      CHECK_MSG(ge <= 1e-8, "%s: global error %g", files[f], ge);
      free(v);
    }
    printf("%-42s nc %4d: %3d iterations, error %.2e, global error %.2e\n", files[f], o->p.nc,
           st.iterations, st.ncp.error, ge);
    free(l);
    cs_problem_free(o);
    cs_global_problem_free(g);
    done++;
  }
  return done;
}

int main(void) {
  cs_test_seed(11);
  CHECK(nsn() != NULL);
  if (!nsn()) return cs_test_finish("test_solver_nsn");
  test_random();
  test_agree();
  test_edges();
  int files = test_fclib();
  int rc = cs_test_finish("test_solver_nsn");
  return rc ? rc : files ? 0 : CS_SKIP_CODE;
}
