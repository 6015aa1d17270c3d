/* The pipeline of one step, stage by stage. Read this file first.

   cs_step(m, d) = cs_step1 then cs_step2 (one check, one scratch)
     cs_check_state      reject NaN/Inf input and bad options; the state stays as it was
   first half (step_first, cs_step1): what the controls do not change
     cs_kinematics       body and joint poses; motion subspaces cdof
     cs_com_pos          body spatial inertias
     cs_crba             joint-space inertia M
     cs_com_vel          body velocities, cdof_dot
     cs_rnea             bias forces h (gravity, Coriolis, centrifugal)
       (the step runs these five as three fused walks, src/dynamics/cs_dyn.h: csi_kinematics_vel,
        csi_com_pos_forces, csi_crba_bias; the same operations per output)
     cs_factor_m         M (+ dt D with implicit damping) = L^T D L
     fwd_collision       geom poses, cs_collide (broadphase, pair table) -> d->contact
   second half (step_second, cs_step2): actuation, solve, integration
     cs_actuation        actuator forces
     qacc = M^-1 (applied + actuator - h - damping + J^T xfrc_applied)
     v_free = v + dt qacc
     fwd_constraint      cs_contact_problem_build: J, G, g (+ warm start);
                         csi_constraint_rows_build: limits, friction loss, equalities;
                         solver table[opt.solver].solve -> lambda; v+ = v_free + M^-1 (J^T lambda)
                         (contacts in several islands of a model without block rows: J
                         sparse, one G per island, cs_solve island by island; fwd_islands,
                         src/constraint/cs_contact_islands.c)
     integrate           q+ = q (+) dt v+   (rolled back if not finite)

   cs_forward_full(m, d): both halves without the integration (qacc = (v+ - v) / dt); the warm
   start it would overwrite is set aside (csData.fwd_keep_, fwd_release), so the next step
   is the step it would have been without the forward. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <string.h>
#include <time.h>

#include "constraint/cs_constraint_rows.h"
#include "constraint/cs_contact_anchor.h"
#include "constraint/cs_contact_islands.h"
#include "core/cs_error.h"
#include "core/cs_memory.h"
#include "dynamics/cs_dyn.h"
#include "math/cs_math.h"
#include "pipeline/cs_pipeline.h"
#include "solvers/cs_solver.h"
#include "solvers/cs_solver_bsr.h"
#include "solvers/cs_solver_island.h"

/* s + the sum of a[i] * 0 in two lanes: 0 if every a[i] is finite, NaN if one is not (x * 0
   is 0 for a finite x, NaN for an infinite or NaN one) */
static inline cs_v2 zero_sum(const double* a, int n, cs_v2 s) {
  cs_v2 z = {0, 0};
  int i = 0;
  for (; i + 1 < n; i += 2) {
    s += csi_v2_load(a + i) * z;
  }
  if (i < n) s[0] += a[i] * 0.0;
  return s;
}

static int all_finite(const double* a, int n, int* bad) {
  /* one branch-free pass in the common case, the index only when something is wrong */
  cs_v2 s = zero_sum(a, n, (cs_v2){0, 0});
  if (s[0] + s[1] == 0) return 1;
  int i;
  for (i = 0; i < n; i++)
    if (!isfinite(a[i])) {
      *bad = i;
      return 0;
    }
  return 1;
}

typedef double v4 __attribute__((vector_size(32)));

/* *s += the sum of a[i] * 0 in four lanes, as zero_sum: NaN lanes if some a[i] is not
   finite. The last one to three values are read with the three before them (twice, which
   changes nothing). */
static CSI_INLINE void zero_sum4(const double* restrict a, int n, v4* s) {
  v4 z = {0, 0, 0, 0}, r = *s;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    v4 u;
    memcpy(&u, a + i, sizeof u);
    r += u * z;
  }
  if (i < n && n >= 4) {
    v4 u;
    memcpy(&u, a + n - 4, sizeof u);
    r += u * z;
  } else {
    for (; i < n; i++) r[0] += a[i] * 0.0;
  }
  *s = r;
}

/* 1 if qpos, qvel, ctrl and qfrc_applied are all finite: one pass over the four (every
   step reads them) */
CSI_HOT static int inputs_finite(const csModel* m, const csData* d) {
  v4 s = {0, 0, 0, 0};
  zero_sum4(d->qpos, m->nq, &s);
  zero_sum4(d->qvel, m->nv, &s);
  zero_sum4(d->ctrl, m->nu, &s);
  zero_sum4(d->qfrc_applied, m->nv, &s);
  return (s[0] + s[1]) + (s[2] + s[3]) == 0;
}

/* 1 if q (n) and v (m) are all finite: one pass over both */
CSI_HOT static int pair_finite(const double* q, int n, const double* v, int m) {
  v4 s = {0, 0, 0, 0};
  zero_sum4(q, n, &s);
  zero_sum4(v, m, &s);
  return (s[0] + s[1]) + (s[2] + s[3]) == 0;
}

/* cs_check_state; *xfrc = 1 if some body's xfrc_applied is not zero */
static csStatus check_state(const csModel* m, const csData* d, int* xfrc) {
  int bad;
  const csOption* o = &m->opt;
  if (!(o->timestep > 0) || !isfinite(o->timestep))
    return csi_error(CS_ERR_ARG, "option timestep = %g must be > 0", o->timestep);
  if (!all_finite(o->gravity, 3, &bad))
    return csi_error(CS_ERR_ARG, "option gravity[%d] is not finite", bad);
  if (!isfinite(d->time)) return csi_error(CS_ERR_STATE, "time is not finite");
  /* the four arrays in one pass; array by array only if something is not finite */
  if (!inputs_finite(m, d)) {
    if (!all_finite(d->qpos, m->nq, &bad))
      return csi_error(CS_ERR_STATE, "qpos[%d] is not finite (%g)", bad, d->qpos[bad]);
    if (!all_finite(d->qvel, m->nv, &bad))
      return csi_error(CS_ERR_STATE, "qvel[%d] is not finite (%g)", bad, d->qvel[bad]);
    if (!all_finite(d->ctrl, m->nu, &bad))
      return csi_error(CS_ERR_STATE, "ctrl[%d] is not finite (%g)", bad, d->ctrl[bad]);
    if (!all_finite(d->qfrc_applied, m->nv, &bad))
      return csi_error(CS_ERR_STATE, "qfrc_applied[%d] is not finite (%g)", bad,
                       d->qfrc_applied[bad]);
  }
  *xfrc = csi_xfrc_scan(m, d, &bad);
  if (*xfrc < 0)
    return csi_error(CS_ERR_STATE, "xfrc_applied[%d] (body %d) is not finite (%g)", bad, bad / 6,
                     d->xfrc_applied[bad]);
  if (o->iterations < 1)
    return csi_error(CS_ERR_ARG, "option iterations = %d must be >= 1", o->iterations);
  if (!(o->tolerance >= 0))
    return csi_error(CS_ERR_ARG, "option tolerance = %g must be >= 0", o->tolerance);
  if (!(o->margin >= 0) || !isfinite(o->margin))
    return csi_error(CS_ERR_ARG, "option margin = %g must be >= 0", o->margin);
  if (!(o->baumgarte >= 0 && o->baumgarte <= 1))
    return csi_error(CS_ERR_ARG, "option baumgarte = %g must be in [0, 1]", o->baumgarte);
  if (!(o->recovery_speed >= 0) || !isfinite(o->recovery_speed))
    return csi_error(CS_ERR_ARG, "option recovery_speed = %g must be finite and >= 0 (m/s)",
                     o->recovery_speed);
  if (o->solver < 0 || o->solver >= CS_SOLVER_COUNT)
    return csi_error(CS_ERR_ARG, "option solver = %d is not a solver", o->solver);
  if (o->fallback < -1 || o->fallback >= CS_SOLVER_COUNT ||
      (o->fallback > 0 && !cs_solver_get((csSolverType)o->fallback)))
    return csi_error(CS_ERR_ARG, "option fallback = %d is not -1, 0 or an implemented solver",
                     o->fallback);
  if (o->solver != CS_SOLVER_NONE && !cs_solver_get((csSolverType)o->solver))
    return csi_error(CS_ERR_UNSUPPORTED, "solver '%s' is not implemented yet",
                     cs_solver_name((csSolverType)o->solver));
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j];
    if (t == CS_JNT_FREE || t == CS_JNT_BALL) {
      const double* q = d->qpos + m->jnt_qposadr[j] + (t == CS_JNT_FREE ? 3 : 0);
      if (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] < 1e-20)
        return csi_error(CS_ERR_STATE, "qpos quaternion of joint '%s' is zero",
                         m->names + m->jnt_name[j]);
    }
  }
  return CS_OK;
}

csStatus cs_check_state(const csModel* m, const csData* d) {
  int xfrc;
  return check_state(m, d, &xfrc);
}

/* Smooth dynamics up to the factorisation, without the actuators (cs_actuation, the step's
   second half); diag_add (may be NULL) is added to M before factorising. Leaves qfrc_bias
   (without damping), qfrc_damping. */
static CSI_INLINE csStatus fwd_smooth(const csModel* m, csData* d, const double* diag_add) {
  csi_kinematics_vel(m, d); /* with cs_com_vel and cs_rnea's forward pass */
  csi_com_pos_forces(m, d); /* with cs_rnea's body forces */
  csi_crba_bias(m, d);      /* cs_crba and the rest of cs_rnea (gravity, velocity terms) */
  int damp = !(m->opt.disable & CS_DISABLE_DAMPING);
  double* restrict fd = d->qfrc_damping;
  const double* restrict qv = d->qvel;
  const double* restrict dd = m->dof_damping;
  for (int i = 0; i < m->nv; i++) fd[i] = damp ? -dd[i] * qv[i] : 0;
  return cs_factor_m(m, d, diag_add);
}

static CSI_INLINE void total_force(const csModel* m, const csData* d, double* restrict f) {
  const double* restrict fa = d->qfrc_applied;
  const double* restrict fu = d->qfrc_actuator;
  const double* restrict fd = d->qfrc_damping;
  const double* restrict fb = d->qfrc_bias;
  for (int i = 0; i < m->nv; i++) f[i] = fa[i] + fu[i] + fd[i] - fb[i];
}

csStatus cs_forward(const csModel* m, csData* d) {
  int xfrc;
  csStatus st = check_state(m, d, &xfrc);
  if (st != CS_OK) return st;
  st = fwd_smooth(m, d, NULL);
  if (st != CS_OK) return st;
  cs_actuation(m, d);
  total_force(m, d, d->qacc);
  if (xfrc) csi_xfrc_accumulate(m, d, d->qacc);
  cs_solve_m(m, d, d->qacc, d->qacc, 1);
  return CS_OK;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* The layout by islands (csi_contact_islands_layout; an island of csi_bsr_min_contacts or
   more with G block-sparse, for a solver that takes it) if the step's scratch and the
   selected solver's workspace fit beside it; 0 (the dense build) otherwise */
static int fwd_islands(const csModel* m, csData* d) {
  if (csi_contact_islands_none(m, d)) return 0; /* before the solver's look-ups */
  size_t free_bytes = csi_stack_mark(d);        /* below the stack: the layout and the rest */
  csiIslandSizes s;
  const csSolver* sv = cs_solver_get((csSolverType)m->opt.solver);
  /* block-sparse G only for islands the selected solver takes on their blocks */
  if (!csi_contact_islands_layout(m, d, &s, csi_bsr_min_contacts(sv))) return 0;
  csSolverOptions so = csi_step_solver_options(&m->opt);
  size_t ws = csi_island_workspace_bytes_wellformed(sv, &d->problem, &so);
  if (csi_need_islands(m, &s, ws) - m->arena_bytes <= free_bytes) return 1;
  memset(&d->problem, 0, sizeof d->problem);
  return 0;
}

/* The contact rows of the contacts found by fwd_collision (cs_contact_problem_build) and the
   blocks after them (limits, friction loss, equalities). Returns 0 if there is nothing to
   solve. */
static int fwd_problem(const csModel* m, csData* d, const double* vnew) {
  d->problem.nc = 0, d->problem.nblock = 0, d->problem.nisland = 0, d->problem.island = NULL;
  int isl = fwd_islands(m, d);              /* contacts in islands: stored and solved by them */
  if (!isl && csi_efc_fit(m, d) != CS_OK) { /* not even the block rows fit */
    csi_warning(d, CS_WARN_CONTACTFULL,
                "arena full for the constraint arrays; constraints ignored");
    d->ncon = 0;
    return 0;
  }
  if (d->ncon > 0 && (isl ? csi_contact_islands_build(m, d, vnew)
                          : cs_contact_problem_build(m, d, vnew)) != CS_OK) {
    csi_warning(d, CS_WARN_CONTACTFULL, "arena full for the contact problem; contacts ignored");
    d->ncon = 0;
    d->problem.nc = 0, d->problem.nisland = 0;
  }
  if (csi_constraint_rows_build(m, d, vnew, NULL) != CS_OK) {
    csi_warning(d, CS_WARN_CONTACTFULL,
                "arena full for the constraint rows; limits, friction loss and equalities ignored");
    d->problem.nblock = 0;
  }
  return d->ncon > 0 || d->problem.nblock > 0;
}

/* f += J^T lambda over the contacts, a contact's three rows at once (each entry takes its
   rows' terms in row order, as row by row would) in the two lanes of a vector */
static CSI_INLINE void fwd_contact_force(const csModel* m, const csData* d, double* restrict fc) {
  int nv = m->nv;
  if (d->problem.nisland > 0) {
    csi_contact_islands_force(d, fc);
    return;
  }
  for (int c = 0; c < d->ncon; c++) {
    const double* lam = d->efc_lambda + 3 * c;
    if (lam[0] == 0 && lam[1] == 0 && lam[2] == 0) continue;
    const double* restrict J0 = d->efc_J + (size_t)(3 * c) * nv;
    const double* restrict J1 = J0 + nv;
    const double* restrict J2 = J1 + nv;
    cs_v2 l0 = {lam[0], lam[0]}, l1 = {lam[1], lam[1]}, l2 = {lam[2], lam[2]};
    int i = 0;
    for (; i + 1 < nv; i += 2) {
      cs_v2 f = csi_v2_load(fc + i);
      f = ((f + csi_v2_load(J0 + i) * l0) + csi_v2_load(J1 + i) * l1) + csi_v2_load(J2 + i) * l2;
      csi_v2_store(fc + i, f);
    }
    if (i < nv) fc[i] = ((fc[i] + J0[i] * lam[0]) + J1[i] * lam[1]) + J2[i] * lam[2];
  }
}

/* The solve of d->problem; 0 if the solver could not run (a warning says why) */
static int fwd_solve(const csModel* m, csData* d) {
  const csSolver* s = cs_solver_get((csSolverType)m->opt.solver);
  csSolverOptions so = csi_step_solver_options(&m->opt);
  size_t mark = csi_stack_mark(d);
  const csContactProblem* p = &d->problem;
  int isl = p->nisland > 0; /* island by island through cs_solve */
  void* ws = csi_stack_alloc(
      d, isl ? csi_island_workspace_bytes_wellformed(s, p, &so) : s->workspace_bytes(p, &so));
  if (!ws) {
    csi_warning(d, CS_WARN_CONTACTFULL, "arena full for the solver; constraints ignored");
    return 0;
  }
  csStatus sst =
      isl ? cs_solve((csSolverType)m->opt.solver, p, &so, ws, d->efc_lambda, &d->solver_stats)
          : s->solve(p, &so, ws, d->efc_lambda, &d->solver_stats);
  csi_stack_free(d, mark);
  if (sst != CS_OK) { /* the solver refused the problem (e.g. too large for it) */
    csi_warning(d, CS_WARN_SOLVER, "%s: %s; constraints ignored this step", s->name,
                cs_last_error());
    d->prev_converged = 0;
    return 0;
  }
  if (!d->solver_stats.converged)
    csi_warning(d, CS_WARN_SOLVER, "%s: tolerance %g not met in %d iterations (residual %g)",
                s->name, so.tolerance, d->solver_stats.iterations, d->solver_stats.residual);
  d->prev_converged = d->solver_stats.converged;
  return 1;
}

/* The solves of the problem: another pass while the velocity of a solve crosses a joint
   bound whose row was not in the problem (csi_constraint_rows_missed), with every bound that
   velocity reaches added and the earlier passes' limit rows kept. The rows only grow, so
   the passes end (at most 2 njnt + 1; a bound without its row at the cap). dv receives
   M^-1 J^T lambda, d->qfrc_contact J^T lambda. Returns 0 if the solver could not run. */
static CSI_INLINE int fwd_solve_passes(const csModel* m, csData* d, const double* vfree,
                                       double* dv) {
  double* restrict fc = d->qfrc_contact;
  int iterations = 0;
  for (int pass = 0;; pass++) {
    if (!fwd_solve(m, d)) return 0;
    iterations += d->solver_stats.iterations;
    fwd_contact_force(m, d, fc);
    csi_constraint_rows_force(m, d, fc);
    cs_solve_m(m, d, dv, fc, 1);
    if (pass == 2 * m->njnt || !csi_constraint_rows_missed(m, d, vfree, dv)) break;
    for (int i = 0; i < m->nv; i++) dv[i] += vfree[i];
    csi_constraint_rows_keep(d, 0);
    if (csi_constraint_rows_build(m, d, vfree, dv) != CS_OK) return 0;
    memset(fc, 0, sizeof(double) * (size_t)m->nv);
  }
  d->solver_stats.iterations = iterations;
  return 1;
}

/* The constraint problem of the contacts found by fwd_collision and its solve; adds the
   constraint impulse's velocity change to vnew. Stack scratch. */
static CSI_INLINE void fwd_constraint(const csModel* m, csData* d, double* vnew, double* tclock) {
  int nv = m->nv;
  memset(d->qfrc_contact, 0, sizeof(double) * (size_t)nv);
  memset(&d->solver_stats, 0, sizeof d->solver_stats);
  d->problem.nc = 0, d->problem.nblock = 0;
  if (m->opt.solver == CS_SOLVER_NONE) {
    d->ncon = 0;
    return;
  }
  if (!fwd_problem(m, d, vnew)) {
    d->prev_converged = 1;
    d->solver_stats.converged = 1;
    if (d->profile) tclock[2] = tclock[3] = tclock[1];
    csi_constraint_rows_keep(d, 1);
    return;
  }
  if (d->profile) tclock[2] = now_ns();
  size_t mk = csi_stack_mark(d);
  double* dv = CSI_STACK_ALLOC(d, double, nv);
  if (!dv || !fwd_solve_passes(m, d, vnew, dv)) {
    if (!dv) csi_warning(d, CS_WARN_CONTACTFULL, "arena full for the solve; constraints ignored");
    csi_stack_free(d, mk);
    memset(d->qfrc_contact, 0, sizeof(double) * (size_t)nv);
    d->ncon = 0;
    d->problem.nc = 0, d->problem.nblock = 0, d->problem.nisland = 0;
    csi_constraint_rows_keep(d, 1);
    return;
  }
  if (d->profile) tclock[3] = now_ns();
  /* v+ = v_free + M^-1 (J^T lambda) */
  double idt = 1.0 / m->opt.timestep;
  double* restrict fc = d->qfrc_contact;
  double* restrict vn = vnew;
  const double* restrict dvr = dv;
  for (int i = 0; i < nv; i++) vn[i] += dvr[i], fc[i] *= idt;
  csi_stack_free(d, mk);
  csi_constraint_rows_keep(d, 1);
  csi_contact_anchors(m, d, vnew);
}

/* The step's halves are inlined into cs_step, so that it runs as one function */
#define STEP_INLINE static inline __attribute__((always_inline))

/* Collision at the current geom poses into d->contact (cs_collide keeps the last step's
   contacts in contact_prev for the warm start); no contacts with the solver none or contacts
   disabled. Returns 1 if cs_collide ran. */
STEP_INLINE int fwd_collision(const csModel* m, csData* d) {
  if (m->opt.solver == CS_SOLVER_NONE || (m->opt.disable & CS_DISABLE_CONTACT)) {
    d->ncon = 0;
    return 0;
  }
  cs_geom_poses(m, d);
  cs_collide(m, d);
  return 1;
}

/* The warm start a cs_forward set aside back in place (csData.fwd_keep_): the contacts the
   next step starts from are those of the step before the forward */
static void fwd_release(csData* d) {
  if (d->fwd_keep_[0] == 1) {
    memcpy(d->contact, d->contact_prev, sizeof(csContact) * (size_t)d->ncon_prev);
    d->ncon = d->ncon_prev;
  } else {
    d->ncon = d->fwd_keep_[1];
  }
  d->fwd_keep_[0] = 0;
}

const csContact* csi_warm_contacts(const csData* d, int* n) {
  if (d->fwd_keep_[0] == 1) {
    *n = d->ncon_prev;
    return d->contact_prev;
  }
  *n = d->fwd_keep_[0] == 2 ? d->fwd_keep_[1] : d->ncon;
  return d->contact;
}

/* The step's scratch, taken once for both halves: each stage finds the stack where a
   cs_step leaves it */
typedef struct stepScratch {
  size_t mark;
  double *vnew, *qnew, *f;
  double* diag; /* dt D with implicit damping, else NULL */
} stepScratch;

STEP_INLINE csStatus scratch_alloc(const csModel* m, csData* d, stepScratch* s, const char* who) {
  int nv = m->nv;
  double dt = m->opt.timestep;
  s->mark = csi_stack_mark(d);
  s->diag = NULL;
  s->vnew = CSI_STACK_ALLOC(d, double, nv);
  s->qnew = CSI_STACK_ALLOC(d, double, m->nq);
  s->f = CSI_STACK_ALLOC(d, double, nv);
  int implicit =
      m->opt.integrator == CS_INT_EULER_IMPLICITDAMP && !(m->opt.disable & CS_DISABLE_DAMPING);
  if (implicit) {
    s->diag = CSI_STACK_ALLOC(d, double, nv);
    if (s->diag)
      for (int i = 0; i < nv; i++) s->diag[i] = dt * m->dof_damping[i];
  }
  if (!s->vnew || !s->qnew || !s->f || (implicit && !s->diag)) {
    csi_stack_free(d, s->mark);
    return csi_error(CS_ERR_MEMORY, "%s: arena full", who);
  }
  return CS_OK;
}

/* The first half of a step: everything the controls do not change (smooth dynamics without
   the actuators, the factor of M, collision). tclock[4]: start, [0]: smooth dynamics done,
   [1]: collision done. *collided: cs_collide ran. */
STEP_INLINE csStatus step_first(const csModel* m, csData* d, const stepScratch* s, double* tclock,
                                int* collided) {
  *collided = 0;
  if (d->fwd_keep_[0]) fwd_release(d);
  if (d->profile) tclock[4] = now_ns();
  csStatus st = fwd_smooth(m, d, s->diag);
  if (st != CS_OK) return st;
  if (d->profile) tclock[0] = now_ns();
  *collided = fwd_collision(m, d);
  if (d->profile) tclock[1] = now_ns();
  return CS_OK;
}

/* v+ into s->vnew: the actuators, the free velocity v + dt M^-1 (forces) into qvel_free, the
   constraint solve. tclock[2], [3]: problem built, solved. */
STEP_INLINE void step_velocity(const csModel* m, csData* d, const stepScratch* s, int xfrc,
                               double* tclock) {
  int nv = m->nv;
  double dt = m->opt.timestep;
  cs_actuation(m, d);
  double* f = s->f;
  total_force(m, d, f);
  if (xfrc) csi_xfrc_accumulate(m, d, f);
  cs_solve_m(m, d, f, f, 1);
  {
    double* restrict vn = s->vnew;
    const double* restrict qv = d->qvel, * restrict fr = f;
    for (int i = 0; i < nv; i++) vn[i] = qv[i] + dt * fr[i];
  }
  memcpy(d->qvel_free, s->vnew, sizeof(double) * (size_t)nv);
  fwd_constraint(m, d, s->vnew, tclock);
}

/* The second half of a step: v+ (step_velocity), q+ = q (+) dt v+, rolled back if not
   finite, then committed */
STEP_INLINE csStatus step_second(const csModel* m, csData* d, const stepScratch* s, int xfrc,
                                 double* tclock) {
  int nv = m->nv, nq = m->nq;
  double dt = m->opt.timestep;
  step_velocity(m, d, s, xfrc, tclock);
  double *vnew = s->vnew, *qnew = s->qnew;
  cs_integrate_pos(m, qnew, d->qpos, vnew, dt);
  if (!pair_finite(qnew, nq, vnew, nv)) {
    csi_warning(d, CS_WARN_NAN_STEP, "step produced a non-finite state; not committed");
    return csi_error(CS_ERR_NUMERIC, "step at t = %g produced a non-finite state", d->time);
  }
  double idt = 1.0 / dt; /* one division, not nv */
  {
    double* restrict qa = d->qacc;
    const double* restrict vn = vnew, * restrict qv = d->qvel;
    for (int i = 0; i < nv; i++) qa[i] = (vn[i] - qv[i]) * idt;
  }
  if (m->nsensor) cs_sensors(m, d); /* the state the step started from, as mj_step */
  memcpy(d->qvel, vnew, sizeof(double) * (size_t)nv);
  memcpy(d->qpos, qnew, sizeof(double) * (size_t)nq);
  d->time += dt;
  d->nstep++;
  return CS_OK;
}

/* d->time_ns[from..3] from the stage clocks (a stage that did not run takes no time) */
static void profile_store(csData* d, const double* tclock, int from) {
  double t1 = tclock[0], t2 = tclock[1] ? tclock[1] : t1, t3 = tclock[2] ? tclock[2] : t2;
  double t4 = tclock[3] ? tclock[3] : t3;
  double t[5] = {tclock[4], t1, t2, t3, t4};
  for (int k = from; k < 4; k++) d->time_ns[k] = t[k + 1] - t[k];
}

/* cs_step, in clones for the CPU (CSI_HOT): the stages' loops over the dofs, inlined, run
   four lanes wide where AVX2 is there */
CSI_HOT static csStatus step_run(const csModel* m, csData* d) {
  int xfrc, collided;
  csStatus st = check_state(m, d, &xfrc);
  if (st != CS_OK) return st;
  stepScratch s;
  st = scratch_alloc(m, d, &s, "cs_step");
  if (st != CS_OK) return st;
  double tclock[5] = {0, 0, 0, 0, 0};
  st = step_first(m, d, &s, tclock, &collided);
  if (st == CS_OK) st = step_second(m, d, &s, xfrc, tclock);
  csi_stack_free(d, s.mark);
  if (st == CS_OK && d->profile) profile_store(d, tclock, 0);
  return st;
}

csStatus cs_step(const csModel* m, csData* d) { return step_run(m, d); }

csStatus cs_step1(const csModel* m, csData* d) {
  int xfrc, collided;
  csStatus st = check_state(m, d, &xfrc);
  if (st != CS_OK) return st;
  stepScratch s;
  st = scratch_alloc(m, d, &s, "cs_step1");
  if (st != CS_OK) return st;
  double tclock[5] = {0, 0, 0, 0, 0};
  st = step_first(m, d, &s, tclock, &collided);
  csi_stack_free(d, s.mark);
  if (st == CS_OK && d->profile) d->time_ns[0] = tclock[0] - tclock[4];
  if (st == CS_OK && d->profile) d->time_ns[1] = tclock[1] - tclock[0];
  return st;
}

csStatus cs_step2(const csModel* m, csData* d) {
  int xfrc;
  csStatus st = check_state(m, d, &xfrc); /* the controls may have changed since cs_step1 */
  if (st != CS_OK) return st;
  stepScratch s;
  st = scratch_alloc(m, d, &s, "cs_step2");
  if (st != CS_OK) return st;
  double tclock[5] = {0, 0, 0, 0, 0};
  if (d->profile) tclock[1] = now_ns();
  st = step_second(m, d, &s, xfrc, tclock);
  csi_stack_free(d, s.mark);
  if (st == CS_OK && d->profile) profile_store(d, tclock, 2);
  return st;
}

/* The block rows' warm start (slots) and the convergence flag, which a solve overwrites:
   saved into csData.fwd_slot_*_ (save = 1) or put back (save = 0) */
static void fwd_slots(csData* d, int save, int* conv, int* nslot_on) {
  size_t n = (size_t)d->nslot;
  if (save) {
    memcpy(d->fwd_slot_lambda_, d->efc_slot_lambda, sizeof(double) * n);
    memcpy(d->fwd_slot_on_, d->efc_slot_on, n);
    *conv = d->prev_converged, *nslot_on = d->nslot_on;
  } else {
    memcpy(d->efc_slot_lambda, d->fwd_slot_lambda_, sizeof(double) * n);
    memcpy(d->efc_slot_on, d->fwd_slot_on_, n);
    d->prev_converged = *conv, d->nslot_on = *nslot_on;
  }
}

csStatus cs_forward_full(const csModel* m, csData* d) {
  int xfrc, collided, conv, nslot_on;
  csStatus st = check_state(m, d, &xfrc);
  if (st != CS_OK) return st;
  if (d->fwd_keep_[0]) fwd_release(d);
  stepScratch s;
  st = scratch_alloc(m, d, &s, "cs_forward_full");
  if (st != CS_OK) return st;
  int ncon = d->ncon;
  fwd_slots(d, 1, &conv, &nslot_on);
  double tclock[5] = {0, 0, 0, 0, 0};
  st = step_first(m, d, &s, tclock, &collided);
  if (st == CS_OK) {
    step_velocity(m, d, &s, xfrc, tclock);
    double idt = 1.0 / m->opt.timestep;
    for (int i = 0; i < m->nv; i++) d->qacc[i] = (s.vnew[i] - d->qvel[i]) * idt;
    if (m->nsensor) cs_sensors(m, d);
    if (d->profile) profile_store(d, tclock, 0);
  }
  csi_stack_free(d, s.mark);
  fwd_slots(d, 0, &conv, &nslot_on);
  if (collided) {
    d->fwd_keep_[0] = 1;
  } else if (st == CS_OK) {
    d->fwd_keep_[0] = 2, d->fwd_keep_[1] = ncon;
  }
  return st;
}
