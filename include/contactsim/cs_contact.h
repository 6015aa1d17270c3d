/* Contacts, the contact problem every solver consumes, the solver table and the NCP
   report (docs/architecture.md, "Contacts"; docs/solvers.md).

   Per contact i the local frame is (n, t1, t2), normal first, as FCLIB and Siconos store
   it. With lambda the impulses (N s) and v = G lambda + g the post-step contact
   velocities (m/s), the friction cone is K_mu = { |lambda_T| <= mu lambda_N }. */
#ifndef CONTACTSIM_CS_CONTACT_H
#define CONTACTSIM_CS_CONTACT_H

#include "cs_export.h"
#include "cs_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One contact point between two geoms. */
typedef struct csContact {
  double pos[3];    /* world point midway between the two surfaces */
  double frame[9];  /* rows n, t1, t2 (world); n points from geom[0] into geom[1] */
  double dist;      /* signed distance along n (< 0: penetration), m */
  double mu;        /* Coulomb friction coefficient */
  int geom[2];      /* geom ids; geom[0] has the lower csGeomType (the plane first) */
  int feature;      /* persistent id of the feature pair within the geom pair */
  double lambda[3]; /* solved impulse in the contact frame (n, t1, t2), N s */
  double slip[3];   /* world-frame tangential displacement accumulated while the contact
                       sticks (m): the step's stiction anchor (docs/physics.md); 0 once it
                       slides or opens */
} csContact;

/* The cone of a block of rows beyond the contacts (docs/solvers.md, "Blocks and cones").
   With l a block's impulses and v = (G lambda + g) its rows' velocities: */
typedef enum csConeType {
  CS_CONE_CONTACT = 0, /* the 3 rows of a contact (the first nc blocks, implicit):
                          l in K_mu, de Saxce's v~ in K*_mu, <l, v~> = 0 */
  CS_CONE_UNILATERAL,  /* 1 row, R+ (self-dual): l >= 0, v >= 0, l v = 0 (a joint limit,
                          a frictionless contact) */
  CS_CONE_BOX,         /* 1 row, |l| <= f: l = -f if v > 0, l = f if v < 0, v = 0 inside
                          (joint friction loss; f = bound, an impulse, N s or N m s) */
  CS_CONE_FREE,        /* 1 to 6 rows, l free, v = 0 (equality constraints) */
  CS_CONE_COUNT
} csConeType;

/* A block of rows after the contacts' 3nc rows. Blocks are stored in row order and tile
   the rows 3nc .. nrow - 1 without gaps. */
typedef struct csBlock {
  int type;     /* csConeType, not CS_CONE_CONTACT */
  int row;      /* first row */
  int n;        /* rows: 1 for CS_CONE_UNILATERAL and CS_CONE_BOX, 1..6 for CS_CONE_FREE */
  double bound; /* CS_CONE_BOX: f >= 0; unused otherwise */
} csBlock;

/* One island of a problem stored by islands (csContactProblem.nisland > 0): contacts and
   blocks whose rows couple (share a non-zero of G) only among themselves. */
typedef struct csIsland {
  int nc;             /* its contacts */
  const int* contact; /* (nc) their ids in the problem, strictly increasing */
  int nblock;         /* its blocks */
  const int* block;   /* (nblock) their ids in the problem, strictly increasing */
  const double* G;    /* ncouple = 0: (n x n) row-major, n = 3 nc + its blocks' rows: its
                         contacts' rows first (contact[a] at rows 3a..3a+2), then its blocks'
                         rows, each in the order of the lists above. ncouple > 0: the 3 x 3
                         blocks of G on its coupling pattern, block k (row-major) at G + 9k */
  /* G block-sparse (docs/solvers.md, "Block-sparse islands"): an island of contacts only
     (nblock = 0) may store G as its non-zero 3 x 3 blocks, block compressed rows over its
     contacts' local indices a = 0..nc - 1. ncouple = 0 (a zeroed struct's default): G dense
     as above. Both triangles are stored; every row holds its diagonal block. */
  int ncouple;           /* 3 x 3 blocks stored (0: G dense) */
  const int* couple_ptr; /* (nc + 1) row a's blocks are couple_ptr[a] .. couple_ptr[a + 1] - 1;
                            couple_ptr[0] = 0, couple_ptr[nc] = ncouple */
  const int* couple_col; /* (ncouple) each block's column (a local contact index), strictly
                            increasing within a row */
} csIsland;

/* The constraint problem: find lambda in the product of the blocks' cones with
   v = G lambda + g satisfying each block's complementarity conditions (for contacts:
   Signorini and Coulomb, or the solver's own model). Rows: the nc contacts' 3 rows each
   first (contact i at rows 3i..3i+2), then the blocks; nrow = 3nc + the blocks' rows. A
   pure contact problem has nblock = 0 (a zeroed struct's default) and is exactly the
   friction-contact problem of FCLIB and Siconos. */
typedef struct csContactProblem {
  int nc;                 /* contacts */
  int nv;                 /* degrees of freedom of the system (0 if J is absent) */
  const double* mu;       /* (nc) friction coefficients */
  const double* G;        /* (nrow x nrow) Delassus matrix J M^-1 J^T, row-major (see asym) */
  const double* g;        /* (nrow) free velocity incl. stabilisation */
  const double* R;        /* (nrow) diagonal compliance added to G, or NULL */
  const double* J;        /* (nrow x nv) Jacobian rows (a contact's n, t1, t2), or NULL */
  int asym;               /* 0: G is symmetric (a Delassus matrix is; the default of a zeroed
                             struct). 1: G may not be (FCLIB's W: Capsules |W - W^T| ~ 1e-2), and
                             the solvers that would use its rows as columns do not. */
  int nblock;             /* blocks after the contacts (0: a pure contact problem) */
  const csBlock* block;   /* (nblock) in row order from row 3nc, or NULL if nblock = 0 */
  const double* mu2;      /* (nc) friction along t2 of elliptic (anisotropic) contacts, mu
                             being along t1; NULL: every contact isotropic. Solved through
                             cs_solve (which scales the tangent rows to an isotropic cone);
                             a solver entry called directly refuses it. */
  int nisland;            /* 0: G is the dense nrow x nrow matrix above (a zeroed struct's
                             default). > 0: G is block diagonal by islands, stored as one dense
                             matrix per island (island), and the G above may be NULL; every
                             contact and block is in exactly one island. g, R, lambda, the
                             blocks' rows and every other array keep the problem's row order.
                             Solved through cs_solve only (island by island); a solver entry
                             called directly refuses it. */
  const csIsland* island; /* (nisland), or NULL if nisland = 0 */
} csContactProblem;

/* Rows of the problem: 3nc + the blocks' rows. */
CS_API int cs_problem_rows(const csContactProblem* p);
/* CS_OK if the block table is well formed (types, sizes, contiguous rows from 3nc, box
   bounds finite and >= 0, mu2 finite and >= 0), else CS_ERR_ARG naming the block. */
CS_API csStatus cs_problem_check(const csContactProblem* p);
/* CS_OK if p's island table is well formed (nisland = 0, or: every island non-empty with its
   G, its ids in range and strictly increasing, every contact and block in exactly one
   island; a block-sparse island: no blocks, its row pointers from 0 to ncouple and not
   decreasing, its columns in range, strictly increasing in each row, the diagonal present),
   else CS_ERR_ARG naming the island and the id or block. mark: scratch of nc + nblock bytes,
   or NULL to allocate it (cs_solve passes its workspace). */
CS_API csStatus cs_problem_check_islands(const csContactProblem* p, unsigned char* mark);
/* G (nrow x nrow, row-major) of p written out dense: p->G copied, or the islands' blocks
   placed at their rows (a block-sparse island's blocks at theirs) and zeros elsewhere. For the
   callers that need the whole matrix (a conversion, a report); the island table must be well
   formed. */
CS_API void cs_problem_dense_G(const csContactProblem* p, double* G);

/* The NCP report (paper 002 eq. 14; docs/solvers.md), the same for every solver. Over
   every block: for contacts the terms below, for a unilateral row dist(l, R+), dist(v, R+)
   and |l v|, for a box row max(|l| - f, 0), 0 and the complementarity of l's distance to
   each bound with the velocity away from it, for a bilateral block 0, |v| and 0 (its
   velocity error). error and error_1pq take each block's natural map (l - P(l - v~)). */
typedef struct csNcpReport {
  double eps_p;     /* max over blocks of dist(lambda_i, K_i) */
  double eps_d;     /* max_i dist(v~_i, K*_i), v~ = v + (mu |v_T|, 0, 0) for contacts */
  double eps_c;     /* max_i |<lambda_i, v~_i>| (box: complementarity with each bound) */
  double eps_abs;   /* max of the three */
  double error;     /* Siconos 4.4.0 fc3d error: natural-map residual / max(|g|,|lambda|,|v|) */
  double error_1pq; /* natural-map residual / (1 + |g|) */
  double signorini; /* max_i |lambda_N,i v_N,i| over contacts */
} csNcpReport;

typedef struct csSolverStats {
  int iterations;  /* iterations (sweeps) done */
  int converged;   /* own criterion met within the cap */
  double residual; /* the solver's own stopping residual at exit */
  int fallback;    /* 0, or the solver left its own model for a fall-back one (bisection:
                      1 = Coulomb's law, de Saxce's variant, after its sweeps cycled;
                      2 = its last resort, ncp_admm on Coulomb's law, after they crawled
                      or cycled) */
  csNcpReport ncp; /* filled by every solver on exit */
} csSolverStats;

typedef struct csSolverOptions {
  int iterations;   /* cap */
  double tolerance; /* on the solver's own criterion */
  double omega;     /* relaxation (PGS family), default 1 */
  int warmstart;    /* lambda holds a start value on entry */
  int fallback;     /* the fall-back chain (cs_solver_fallback): the solver that takes the
                       rest of the iterations where this one stalls or crawls (csSolverType);
                       0: the solver layer's default chain (bisection, bisection_desaxce:
                       ncp_admm; the others: none); -1: none (the solver stops where it
                       stalls and reports not converged) */
} csSolverOptions;

typedef struct csSolver {
  const char* name; /* CLI/JSON name (docs/solvers.md) */
  /* Scratch bytes for a problem of p's shape (p->nc, p->nblock and the blocks' sizes;
     never its values). Growing nc or adding blocks never needs fewer bytes. */
  size_t (*workspace_bytes)(const csContactProblem* p, const csSolverOptions* opt);
  /* Solve; lambda (3nc) holds the warm start on entry (zeros if none) and the solution on
     exit. ws has workspace_bytes bytes, 64-byte aligned. Returns CS_OK even when the
     tolerance was not met (stats->converged says); an error only for bad input (including
     a block the solver cannot take, named in the message). */
  csStatus (*solve)(const csContactProblem* p, const csSolverOptions* opt, void* ws, double* lambda,
                    csSolverStats* stats);
} csSolver;

/* The solver table entry of a type, or NULL if not implemented yet. */
CS_API const csSolver* cs_solver_get(csSolverType type);
/* The fall-back policy of the solver layer: the solver that solver type hands the rest of
   its iterations to when opt->fallback asks for one (see csSolverOptions.fallback), or
   NULL for none. The fall-back is called with fallback = -1, so a chain ends there; a
   solver never names another. The default chain is bisection -> its de Saxce variant (the
   same sweeps on Coulomb's law, bisection_desaxce) -> ncp_admm (docs/solvers.md). */
CS_API const csSolver* cs_solver_fallback(csSolverType type, const csSolverOptions* opt);
/* Solver type from its name ("pgs" is an alias of "ncp_pgs"); -1 if unknown. */
CS_API int cs_solver_from_name(const char* name);
CS_API const char* cs_solver_name(csSolverType type);

/* Solve p with solver type, the way the step does: the block table checked, elliptic
   contacts (mu2) scaled to isotropic ones and back, then the solver. ws has
   cs_solve_workspace_bytes bytes, 64-byte aligned. A problem stored by islands
   (nisland > 0) is solved island by island, each on its own G (its table checked first);
   stats then has the largest iterations, residual and fallback over the islands, converged
   if every island converged, and ncp of the whole problem. Its workspace is that of the
   largest island's solve plus the gather buffers (from the islands' sizes only). */
CS_API csStatus cs_solve(csSolverType type, const csContactProblem* p, const csSolverOptions* opt,
                         void* ws, double* lambda, csSolverStats* stats);
CS_API size_t cs_solve_workspace_bytes(csSolverType type, const csContactProblem* p,
                                       const csSolverOptions* opt);

/* The NCP report of lambda for problem p (v = G lambda + g, plus R lambda if R). Of a problem
   stored by islands (well formed), v island by island and the sums in the islands' order:
   the same terms as of its dense G, the norms' sums rounded in another order. */
CS_API void cs_ncp_report(const csContactProblem* p, const double* lambda, csNcpReport* r);

/* The tangent basis of docs/scenes.md: t1 = normalize(n x e), e the world axis least
   aligned with n (ties in order x, y, z), t2 = n x t1. frame receives rows n, t1, t2. */
CS_API void cs_contact_frame(const double n[3], double frame[9]);

/* ---------------------------------------------------------------- FCLIB (local problems)
   FCLIB's local problem is W r + q = u with (n, t1, t2) per contact, so W = G, q = g,
   r = lambda. Available when the library was built with libfclib (CS_ERR_UNSUPPORTED
   otherwise). */

/* A problem that owns its arrays (from cs_fclib_read_local); free with cs_problem_free. */
typedef struct csOwnedProblem {
  csContactProblem p;
  double* mu;
  double* G; /* the dense G, or NULL when p is stored by islands */
  double* g;
  double* R;
  double* lambda;   /* (3nc) stored solution or guess, or NULL */
  double* velocity; /* (3nc) stored velocity, or NULL */
  csIsland* island; /* (p.nisland) the island table, or NULL */
  int* island_ids;  /* the islands' contact and block ids, one after the other */
  double* island_G; /* the islands' matrices, one after the other */
} csOwnedProblem;

/* Write p as an FCLIB local problem (dense W stored as a sparse matrix of its non-zeros;
   of p stored by islands, the islands' entries), with an optional solution (lambda, and
   v = G lambda + g). Overwrites path. */
CS_API csStatus cs_fclib_write_local(const char* path, const csContactProblem* p,
                                     const double* lambda, const char* title);
/* Read an FCLIB local problem (spacedim 3) with W into the dense G. *out is allocated; free
   with cs_problem_free. */
CS_API csStatus cs_fclib_read_local(const char* path, csOwnedProblem** out);
/* The same, stored by islands: W's islands found from its pattern (two contacts couple when
   W stores an entry of their 3 x 3 block, whatever its value); W of one island is read as
   by cs_fclib_read_local, W of several into one dense matrix per island (p.nisland > 0,
   p.G NULL; islands in the order of their first contact, contacts increasing), holding
   every stored entry with the same value. Solve it with cs_solve. */
CS_API csStatus cs_fclib_read_local_islands(const char* path, csOwnedProblem** out);
CS_API void cs_problem_free(csOwnedProblem* p);
/* 1 if the library was built with FCLIB support. */
CS_API int cs_have_fclib(void);

/* ---------------------------------------------------------------- FCLIB (global problems)
   FCLIB's global problem (fclib.h, the same in Siconos with q = f):
     M v = H r + f,   u = H^T v + w,   r in K_mu, u~ = u + (mu |u_T|, 0, 0) in K*_mu, <r, u~> = 0,
   with M (n x n) symmetric positive definite, H (n x 3nc), per contact (n, t1, t2).
   Eliminating v gives the local problem W r + q = u with
     W = H^T M^-1 H,   q = H^T M^-1 f + w,
   and v = M^-1 (H r + f) recovers the global velocity from a local solution r.
   Problems with equality constraints (G, b) and rolling friction (spacedim 5) are
   reported as CS_ERR_UNSUPPORTED. Available with libfclib (see cs_have_fclib). */

/* A sparse matrix in compressed columns: rows sorted within each column, no duplicates. */
typedef struct csSparseMatrix {
  int m;       /* rows */
  int n;       /* columns */
  int* colptr; /* (n + 1) */
  int* rowind; /* (colptr[n]) */
  double* val; /* (colptr[n]) */
} csSparseMatrix;

typedef struct csGlobalProblem {
  int n;            /* velocity unknowns (M is n x n) */
  int nc;           /* contacts (H is n x 3nc) */
  csSparseMatrix M; /* both triangles stored */
  csSparseMatrix H;
  double* f;    /* (n) */
  double* w;    /* (3nc) */
  double* mu;   /* (nc) */
  double* r;    /* (3nc) stored solution or first guess, or NULL */
  double* u;    /* (3nc) stored local velocity, or NULL */
  double* v;    /* (n) stored global velocity, or NULL */
  void* factor; /* internal: the Cholesky factor of M, made on first use */
} csGlobalProblem;

/* Read an FCLIB global problem (spacedim 3), every dataset checked before libfclib reads
   it. *out is allocated; free with cs_global_problem_free. */
CS_API csStatus cs_fclib_read_global(const char* path, csGlobalProblem** out);
CS_API void cs_global_problem_free(csGlobalProblem* g);
/* The local problem W = H^T M^-1 H (exactly symmetric), q = H^T M^-1 f + w, mu, with the
   stored r, u as lambda, velocity. Factors M (sparse Cholesky) on first use and keeps the
   factor in g; CS_ERR_NUMERIC if M is not positive definite. Free with cs_problem_free. */
CS_API csStatus cs_global_condense(csGlobalProblem* g, csOwnedProblem** out);
/* v (n) = M^-1 (H r + f) for a local solution r (3nc). */
CS_API csStatus cs_global_velocity(csGlobalProblem* g, const double* r, double* v);
/* Siconos' global error of (r, v): |M v - H r - f| / max(|f|, |M v|, |H r|)
   + err_abs(r, u) / max(|u|, |r|) with u = H^T v + w (docs/solvers.md). u (3nc) receives
   u if not NULL. */
CS_API double cs_global_error(const csGlobalProblem* g, const double* r, const double* v,
                              double* u);
/* Write g as an FCLIB global problem with an optional solution (r, v; u = H^T v + w).
   Overwrites path. */
CS_API csStatus cs_fclib_write_global(const char* path, const csGlobalProblem* g, const double* r,
                                      const double* v, const char* title);

struct csData;
/* The global form of the contact problem of the last successful cs_step (d's qM, qvel_free,
   qvel and efc arrays of that step; no stage run in between): n = nv, M = A the matrix the
   step factors (M, plus dt D on the diagonal with implicit damping: docs/solvers.md),
   H = J^T (its non-zeros), f = A v_free, w = g - J v_free (the stabilisation), mu, and the
   step's solution r = lambda, v = qvel, u = H^T v + w. Condensing it gives the step's G and
   g; cs_global_velocity of its lambda the step's new velocity. CS_ERR_UNSUPPORTED naming the
   blocks if the problem has rows besides contacts (nblock > 0), CS_ERR_ARG if it has no
   contact. *out is allocated; free with cs_global_problem_free. Not for use inside a step. */
CS_API csStatus cs_global_from_data(const csModel* m, const struct csData* d,
                                    csGlobalProblem** out);

typedef enum csFclibKind {
  CS_FCLIB_NONE = 0, /* HDF5 file without an FCLIB problem */
  CS_FCLIB_LOCAL,
  CS_FCLIB_GLOBAL,
  CS_FCLIB_LOCAL_ROLLING,
  CS_FCLIB_GLOBAL_ROLLING
} csFclibKind;

/* What an FCLIB file holds, read with plain HDF5 calls (no libfclib: never exits). */
typedef struct csFclibInfo {
  csFclibKind kind;
  int spacedim;     /* 3, or 5 for rolling friction; 0 if absent */
  int nc;           /* contacts (rows of W or columns of H over spacedim) */
  int n;            /* global velocity unknowns (0 for local problems) */
  int rows;         /* local rows: W's size or H's columns */
  long long nnz[2]; /* stored entries of W (local) or of M and H (global) */
  int has_solution; /* /solution present */
  int has_guess;    /* /guesses present */
  double mu_min, mu_max;
  char title[256]; /* empty when absent; truncated */
  char description[1024];
} csFclibInfo;

CS_API csStatus cs_fclib_info(const char* path, csFclibInfo* info);

#ifdef __cplusplus
}
#endif
#endif
