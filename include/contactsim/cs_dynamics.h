/* Rigid multibody dynamics in generalized coordinates. Every function reads what the
   stages before it wrote in csData (docs/architecture.md; the step: src/pipeline/cs_forward.c):
     cs_kinematics -> cs_com_pos -> cs_crba -> cs_factor_m
                   -> cs_com_vel -> cs_rnea (bias)  -> cs_solve_m / cs_aba             */
#ifndef CONTACTSIM_CS_DYNAMICS_H
#define CONTACTSIM_CS_DYNAMICS_H

#include "cs_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Forward kinematics from d->qpos: body poses xpos, xquat, xmat, xipos, joint xanchor,
   xaxis, and the motion subspaces cdof. Quaternions in qpos are used normalised (qpos
   itself is not modified). Geom and site poses are separate stages (below): the step
   computes geom poses only for collision, and site poses only on request. */
CS_API void cs_kinematics(const csModel* m, csData* d);
/* geom_xpos, geom_xmat from the body poses (after cs_kinematics). */
CS_API void cs_geom_poses(const csModel* m, csData* d);
/* site_xpos, site_xmat from the body poses (after cs_kinematics). */
CS_API void cs_site_poses(const csModel* m, csData* d);
/* Body inertias cinert (world frame, about the origin). */
CS_API void cs_com_pos(const csModel* m, csData* d);
/* Body velocities cvel and cdof_dot from d->qvel. */
CS_API void cs_com_vel(const csModel* m, csData* d);
/* Composite rigid body algorithm: d->qM (armature included). */
CS_API void cs_crba(const csModel* m, csData* d);
/* Sparse L^T D L factorisation of d->qM (+ diag_add (nv) if not NULL) into qLD, qLDiagInv.
   Returns CS_ERR_NUMERIC (and counts a warning) on a non-positive pivot. */
CS_API csStatus cs_factor_m(const csModel* m, csData* d, const double* diag_add);
/* x = M^-1 b with the factor (x may alias b); n right-hand sides stored contiguously. */
CS_API void cs_solve_m(const csModel* m, const csData* d, double* x, const double* b, int n);
/* y = M x with the sparse qM. */
CS_API void cs_mul_m(const csModel* m, const csData* d, double* y, const double* x);
/* Recursive Newton-Euler: result = M(q) qacc + h(q, v). qacc NULL means zero (result = h).
   flags: CS_RNE_GRAVITY, CS_RNE_VELOCITY (Coriolis/centrifugal), CS_RNE_DAMPING. Needs
   cs_kinematics, cs_com_pos and (if velocity) cs_com_vel. */
enum { CS_RNE_GRAVITY = 1, CS_RNE_VELOCITY = 2, CS_RNE_DAMPING = 4, CS_RNE_ALL = 7 };
CS_API void cs_rnea(const csModel* m, csData* d, const double* qacc, int flags, double* result);
/* Articulated body algorithm: qacc = M^-1 (tau - h) with h per flags, armature included.
   Needs cs_kinematics, cs_com_pos, cs_com_vel. Uses the arena for scratch. */
CS_API csStatus cs_aba(const csModel* m, csData* d, const double* tau, int flags, double* qacc);
/* Jacobian (3 x nv, row-major) of the world velocity of world point p fixed to body b.
   jacr (3 x nv) rotational part; either may be NULL. */
CS_API void cs_jac(const csModel* m, const csData* d, double* jacp, double* jacr, const double p[3],
                   int body);
/* Jacobian of a site's frame: jacp at the site origin, jacr angular (world). */
CS_API void cs_jac_site(const csModel* m, const csData* d, double* jacp, double* jacr, int site);
/* Total spatial momentum [L_O; P] about the world origin (needs cs_com_vel). */
CS_API void cs_momentum(const csModel* m, const csData* d, double h[6]);
/* Potential (gravity) and kinetic energy into d->energy. */
CS_API void cs_energy(const csModel* m, csData* d);
/* qpos_out = qpos (+) dt * v, on SO(3) for free and ball joints (may alias qpos). */
CS_API void cs_integrate_pos(const csModel* m, double* qpos_out, const double* qpos,
                             const double* v, double dt);
/* Normalise quaternions in qpos. */
CS_API void cs_normalize_quat(const csModel* m, double* qpos);
/* Full smooth forward dynamics: kinematics, M, factor, bias, actuators, xfrc_applied, qacc
   (no contacts). */
CS_API csStatus cs_forward(const csModel* m, csData* d);
/* Forward dynamics at the current state without advancing it (as MuJoCo's mj_forward):
   kinematics, M and its factor, bias and actuator forces, collision and the constraint solve
   of the step cs_step would take; d->contact, their impulses and forces (cs_contact_force),
   qfrc_contact and qacc = (v+ - v) / dt are those of that step. qpos, qvel, time and the
   warm start are left as they were: a cs_step after a cs_forward_full is the cs_step without
   it, bit for bit. Lays out the arena's constraint arrays as a step does. */
CS_API csStatus cs_forward_full(const csModel* m, csData* d);
/* Actuator forces into d->qfrc_actuator from ctrl. */
CS_API void cs_actuation(const csModel* m, csData* d);

/* ---- derivatives */
/* Finite-difference derivatives of one cs_step at d's state (as MuJoCo's mjd_transitionFD):
   x = (qpos in the tangent space (nv: orientations as body-frame rotation vectors, as
   qvel), qvel (nv)), A (2nv x 2nv) = d x+ / d x, B (2nv x nu) = d x+ / d ctrl, row-major;
   either may be NULL. Steps of size eps, centered (1) or forward (0). d's state
   (cs_get_state), nstep and warnings are restored; its other outputs are those of the last
   step taken. Allocates its scratch (3 nq + 9 nv + cs_state_size doubles). */
CS_API csStatus cs_transition_fd(const csModel* m, csData* d, double eps, int centered, double* A,
                                 double* B);

/* ---- contacts */
/* Collision detection at the current geom poses (call cs_geom_poses first): fills
   d->contact[0..ncon) (keeping the previous step's list for warm starting) and returns
   ncon. Overflow beyond ncon_max is a counted warning. */
CS_API int cs_collide(const csModel* m, csData* d);
/* The contact problem of d's contacts into d->problem (efc_* arrays), with v_free the
   velocity after the smooth dynamics; needs the factor of M and cdof. CS_ERR_MEMORY if the
   arena is too small (it is sized for ncon_max contacts). */
CS_API csStatus cs_contact_problem_build(const csModel* m, csData* d, const double* vfree);

#ifdef __cplusplus
}
#endif
#endif
