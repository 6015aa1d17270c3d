/* csData: everything that changes while simulating one csModel. One csData per thread;
   the model is shared read-only. All arrays live in one buffer sized at cs_data_new. */
#ifndef CONTACTSIM_CS_DATA_H
#define CONTACTSIM_CS_DATA_H

#include "cs_contact.h"
#include "cs_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Counted warnings: numerical events inside a step (the step goes on or is rolled back). */
typedef enum csWarningType {
  CS_WARN_NAN_STEP = 0, /* the step produced NaN/Inf; state kept at the previous step */
  CS_WARN_CONTACTFULL,  /* more contacts than ncon_max; extra ones dropped */
  CS_WARN_SOLVER,       /* contact solver did not meet its tolerance within its cap */
  CS_WARN_SINGULAR,     /* a factorisation met a non-positive pivot */
  CS_WARN_COUNT
} csWarningType;

/* What made a block of the constraint problem (csData.efc_block_src). */
typedef enum csEfcSource {
  CS_EFC_LIMIT_LOW = 0, /* a joint at its lower bound (the joint id) */
  CS_EFC_LIMIT_HIGH,    /* at its upper bound, or a ball joint at its largest angle */
  CS_EFC_FRICTIONLOSS,  /* a dof's friction loss (the dof) */
  CS_EFC_EQUALITY,      /* an equality constraint (its id) */
  CS_EFC_TENDON_LOW,    /* a fixed tendon at its lower length bound (the tendon id) */
  CS_EFC_TENDON_HIGH    /* a fixed tendon at its upper length bound (the tendon id) */
} csEfcSource;

typedef struct csWarning {
  int count;        /* how many times it happened */
  double last_time; /* simulation time of the last occurrence */
} csWarning;

typedef struct csData {
  /* ---- state (set by the user) */
  double time;          /* s */
  double* qpos;         /* (nq) */
  double* qvel;         /* (nv) */
  double* ctrl;         /* (nu) actuator controls */
  double* qfrc_applied; /* (nv) user generalized forces */

  /* ---- user wrenches on bodies (set by the user, as MuJoCo's xfrc_applied) */
  double* xfrc_applied; /* (nbody x 6) force (N) then torque (N m), world frame, the force at
                           the body's centre of mass (xipos); the world body's is not read */

  /* ---- outputs of the last step / forward pass */
  double* qacc;          /* (nv) accelerations of the smooth dynamics */
  double* qfrc_actuator; /* (nv) actuator forces */
  double* qfrc_bias;     /* (nv) h = C(q,v) v + g(q) + damping (unless disabled) */
  double* qfrc_damping;  /* (nv) -D v (part of qfrc_bias, reported separately) */

  /* ---- kinematics: world frame */
  double* xpos;      /* (nbody x 3) body frame origin */
  double* xquat;     /* (nbody x 4) body orientation */
  double* xmat;      /* (nbody x 9) body rotation matrix, row-major */
  double* xipos;     /* (nbody x 3) body centre of mass */
  double* xanchor;   /* (njnt x 3) joint anchor */
  double* xaxis;     /* (njnt x 3) joint axis (revolute/prismatic) */
  double* geom_xpos; /* (ngeom x 3) */
  double* geom_xmat; /* (ngeom x 9) */
  double* site_xpos; /* (nsite x 3) */
  double* site_xmat; /* (nsite x 9) */

  /* ---- spatial quantities: [angular; linear] about the world origin */
  double* cdof;     /* (nv x 6) motion subspace of each dof */
  double* cdof_dot; /* (nv x 6) its time derivative (valid after velocity stage) */
  double* cinert;   /* (nbody x 10) body inertia: m, m c (3), I_O (6: xx yy zz xy xz yz) */
  double* crb;      /* (nbody x 10) composite (subtree) inertia */
  double* cvel;     /* (nbody x 6) body spatial velocity */
  double* cacc;     /* (nbody x 6) body spatial acceleration (RNEA scratch) */
  double* cfrc;     /* (nbody x 6) body spatial force (RNEA scratch) */

  /* ---- mass matrix, sparse by the dof tree (row i: M_ii, M_i,parent(i), ...) */
  double* qM;        /* (nM) joint-space inertia incl. armature */
  double* qLD;       /* (nM) L^T D L factor: row i holds D_ii, L_i,parent(i), ... */
  double* qLDiagInv; /* (nv) 1 / D_ii */

  /* ---- contacts (collision stage) and their solution (constraint stage) */
  int ncon;                   /* contacts found this step */
  csContact* contact;         /* (ncon_max) this step's contacts, lambda = solved impulses */
  int ncon_prev;              /* contacts of the previous step (warm start by feature id) */
  csContact* contact_prev;    /* (ncon_max) */
  int prev_converged;         /* the previous solve met its tolerance (warm start allowed) */
  csSolverStats solver_stats; /* of the last solve (zeros if there was nothing to solve) */
  double* qfrc_contact;       /* (nv) J^T lambda / dt of the last step: contact generalized force */

  /* ---- the constraint problem of the last step: the contacts' rows n, t1, t2 (nc = ncon),
     then the blocks of joint limits, friction loss and equalities (docs/constraints.md).
     The arrays efc_J, efc_Y, efc_G, efc_g, efc_mu and efc_lambda are laid out by each step
     at the bottom of the arena for the step's contacts and the room for block rows
     (docs/memory.md): they stay valid until the next step. nefc_max = 3 ncon + the most
     block rows the model can have at once with the options of cs_data_new: limits,
     friction loss or equalities turned off then take no room, and turning them on later
     needs a new csData (rows beyond the room are dropped with a counted
     CS_WARN_CONTACTFULL). */
  csContactProblem problem; /* points into the arrays below */
  int nefc_max;             /* rows the arrays below hold this step */
  int nblock_max;           /* capacity for blocks */
  double* efc_J;            /* (nefc_max x nv) Jacobian (NULL when stored by islands, below) */
  double* efc_Y;            /* (3 ncon x nv) scratch of the build: L^-T J^T (M = L^T D L) on
                               the contacts' dof chains, laid out as src/constraint/cs_contact_problem.c
                               says */
  double* efc_G;            /* (nefc_max x nefc_max) Delassus J M^-1 J^T (nrow x nrow used;
                               NULL when stored by islands) */
  double* efc_g;            /* (nefc_max) free velocity J v_free + stabilisation */
  double* efc_mu;           /* (ncon) */
  double* efc_lambda;       /* (nefc_max) impulses, N s (N m s on a rotational dof) */
  /* The contact rows by islands (problem.nisland > 0; docs/memory.md, "Islands"): the step
     found contacts in two or more islands (kinematic trees that touch, the world apart) of a
     model without block rows. efc_J, efc_Y and efc_G are NULL then and J is stored sparse,
     one column list per contact shared by its three rows: contact i's dofs are
     efc_Jcol[efc_Jadr[i] .. efc_Jadr[i + 1]) (its bodies' chains to the root, descending),
     its rows n, t1, t2 at efc_Jval + 3 efc_Jadr[i], each of efc_Jadr[i + 1] - efc_Jadr[i]
     entries. NULL when the problem is dense. */
  int* efc_Jadr;              /* (ncon + 1) */
  int* efc_Jcol;              /* (efc_Jadr[ncon]) */
  double* efc_Jval;           /* (3 efc_Jadr[ncon]) */
  csIsland* efc_island;       /* (problem.nisland) */
  int* efc_island_contact;    /* (ncon) the islands' contact lists, one after the other */
  double* efc_island_G;       /* the islands' G (3 nc_k)^2 each, one after the other */
  csBlock* efc_block;         /* (nblock_max) the problem's blocks after the contacts */
  int* efc_block_src;         /* (nblock_max x 2) what made each block: csEfcSource, object id
                                 (joint for limits, dof for friction loss, equality) */
  double* efc_block_dist;     /* (nblock_max) a limit's distance to its bound (rad or m), a
                                 joint equality's error; 0 otherwise */
  double* efc_slot_lambda;    /* (nslot) last step's impulses of every possible block row, for
                                 the warm start (src/constraint/cs_constraint_rows.c) */
  unsigned char* efc_slot_on; /* (nslot) the row was in last step's problem */
  int* efc_row_slot;          /* (nefc_max - 3 ncon_max) the slot of each block row */
  int nslot;                  /* warm-start slots of block rows (efc_slot_*) */
  int nslot_on;               /* slots marked in efc_slot_on (0: nothing to clear) */
  int efc_sources;            /* CS_DISABLE_LIMIT / _FRICTIONLOSS / _EQUALITY bits of the
                                 block rows the model has (whatever the options) */
  double* qvel_free;          /* (nv) velocity after the smooth dynamics, before contacts */

  /* ---- sensors (docs/api.md, "Sensors"): written by cs_sensors, which cs_step (for the state
     the step started from, as mj_step) and cs_forward_full call for a model with sensors */
  double* sensordata; /* (nsensordata) */

  /* ---- profiling: nanoseconds of the last step per stage, when profile != 0 */
  int profile;       /* set by the user to time the stages (costs ~20 ns per clock read) */
  double time_ns[4]; /* smooth dynamics, collision, problem build, solve */

  /* ---- diagnostics */
  csWarning warning[CS_WARN_COUNT];
  double energy[2]; /* potential, kinetic (after cs_energy) */
  long nstep;       /* steps taken */

  /* ---- memory (docs/memory.md): the arena holds the step's constraint arrays at its
     bottom (efc_*, laid out per step for the contacts found) and the scratch stack, which
     grows down from its top */
  void* buffer_; /* one allocation: arrays above plus the arena */
  size_t nbuffer_;
  unsigned char* arena_; /* the arena: the constraint arrays, then free room, then the stack */
  size_t narena_;        /* its bytes: the model's memory (csModel.memory) or the need of
                            cs_data_need at min(ncon_max, CS_NCON_ROOM) contacts */
  size_t pefc_;          /* bytes of the constraint arrays at the bottom */
  int nefc_room_;        /* room for block rows (csi_efc_capacity at cs_data_new) */
  int room_;             /* contacts the arena holds for the options in room_key_ (-1: unknown) */
  int room_key_[4];      /* solver, fallback, iterations, disable of room_ */
  size_t pstack_;        /* current stack top (offset; narena_ when the stack is empty) */
  size_t maxstack_;      /* high-water mark of the stack (bytes) */

  /* ---- the warm start a cs_forward set aside (src/pipeline/cs_forward.c): the next step
     starts from the contacts of the step before the forward */
  int* fwd_keep_;              /* (2) 0: nothing set aside; 1: those contacts are
                                  contact_prev[0..ncon_prev); 2: contact[0..fwd_keep_[1]) */
  double* fwd_slot_lambda_;    /* (nslot) efc_slot_lambda during a cs_forward */
  unsigned char* fwd_slot_on_; /* (nslot) efc_slot_on during a cs_forward */
} csData;

/* Contacts the default arena makes room for when the model sets no memory (the need of
   cs_data_need at min(ncon_max, CS_NCON_ROOM) contacts): a step with more contacts than the
   arena holds drops the rest with a counted CS_WARN_CONTACTFULL naming the figures. */
#define CS_NCON_ROOM 64

CS_API csData* cs_data_new(const csModel* m);
CS_API void cs_data_free(csData* d);
/* Reset to qpos0, zero velocity, time 0, warnings cleared. */
CS_API void cs_data_reset(const csModel* m, csData* d);
/* Reset d (as cs_data_reset) to keyframe key of m: its qpos, qvel, ctrl and time.
   CS_ERR_ARG for an index outside 0..nkey-1 (d unchanged). cs_name2id(m, "key", name)
   gives the index of a named key. */
CS_API csStatus cs_data_reset_key(const csModel* m, csData* d, int key);
/* Copy state and derived quantities of src into dst (same model), the last step's
   constraint arrays included. CS_ERR_MEMORY (dst unchanged) if those do not fit dst's arena
   (a csData re-sized for other options by cs_data_fit). */
CS_API csStatus cs_data_copy(const csModel* m, csData* dst, const csData* src);

/* Arena bytes a step with ncon contacts needs with the model's options: its constraint
   arrays (dense: J and G grow as (3 ncon + block rows)), the problem build's scratch, the
   selected solver's workspace with its fall-back chain, and the dynamics' scratch. */
CS_API size_t cs_data_need(const csModel* m, int ncon);
/* The same for a step whose ncon contacts are stored by islands (docs/memory.md,
   "Islands": a model without block rows whose contacts touch several kinematic trees) of
   at most island_ncon contacts each: the islands' G grow as (3 island_ncon)^2 each, J with
   the contacts' dofs, the solver's workspace with the largest island. For sizing
   csModel.memory of scenes of many objects (the pile); a step whose islands do not fit
   is built as one dense problem, and keeps the contacts that fit. */
CS_API size_t cs_data_need_islands(const csModel* m, int ncon, int island_ncon);
/* The most contacts (up to ncon_max) a step of d can take with the model's current options:
   the room of d's arena. 0 if not even a step without contacts fits. */
CS_API int cs_data_room(const csModel* m, const csData* d);
/* Re-size d's arena for the model's current options (another solver selected in m->opt,
   say), by the rule of cs_data_new; state, warm start and warnings are kept, the last
   step's constraint arrays are not. With the model's memory set (csModel.memory, MJCF
   <size memory>) the arena keeps that size, and if it holds fewer than
   min(ncon_max, CS_NCON_ROOM) contacts with the current options the call fails with
   CS_ERR_MEMORY naming the solver, the contacts it holds and the bytes it would need.
   Never called inside a step; a step whose contacts do not fit drops the rest with a
   counted warning. */
CS_API csStatus cs_data_fit(const csModel* m, csData* d);

/* Set qpos and qvel from arrays of the given lengths (either may be NULL to keep it).
   A length that does not match the model (nq, nv) or a non-finite value is an error and
   the state is left as it was. */
CS_API csStatus cs_data_set_state(const csModel* m, csData* d, const double* qpos, int nq,
                                  const double* qvel, int nv);

/* One time step. Bad input state (NaN/Inf in qpos, qvel, ctrl, qfrc_applied; dt <= 0)
   returns an error and leaves d unchanged. A step that produces NaN is rolled back and
   counted in d->warning[CS_WARN_NAN_STEP]; it returns CS_ERR_NUMERIC. */
CS_API csStatus cs_step(const csModel* m, csData* d);

/* ---- the step in two halves, the full state, contact forces (docs/api.md) */
/* cs_step in two halves, so that controls can be set between them (as MuJoCo's mj_step1,
   mj_step2): cs_step1 does what the controls do not change (kinematics, bias forces, the
   factor of M, collision), cs_step2 the rest (actuation, ctrl, qfrc_applied and xfrc_applied,
   the constraint solve, integration). cs_step1 then cs_step2 with nothing changed between
   them is cs_step bit for bit; cs_step2 needs a cs_step1 at the current qpos and qvel. Both
   check their input as cs_step does. */
CS_API csStatus cs_step1(const csModel* m, csData* d);
CS_API csStatus cs_step2(const csModel* m, csData* d);

/* The full state as doubles: time, qpos, qvel, ctrl, qfrc_applied, xfrc_applied and the
   warm start the next step reads (the last step's contacts with their impulses and stiction
   anchors, the block rows' impulses, the convergence flag), so that a state set into any
   csData of the same model continues bit for bit (docs/api.md, "State"). cs_state_size
   doubles; fixed per model (room for ncon_max contacts). */
CS_API int cs_state_size(const csModel* m);
CS_API void cs_get_state(const csModel* m, const csData* d, double* state);
/* Sets the state (d's derived quantities are those of the next step or cs_forward). A
   non-finite value or a warm start d cannot hold is an error naming it, d unchanged. */
CS_API csStatus cs_set_state(const csModel* m, csData* d, const double* state);

/* Contact i's force of the last step or cs_forward in newtons, world frame: f[0..2] the
   force on body[1] (geom[1]'s body; body[0] receives its opposite) at the contact point,
   f[3..5] the torque about that point (0: contacts carry no torsional or rolling friction).
   lambda / dt rotated from the contact frame. body (may be NULL) receives the two body ids.
   CS_ERR_ARG if i is not in 0..ncon-1. */
CS_API csStatus cs_contact_force(const csModel* m, const csData* d, int i, double f[6],
                                 int body[2]);

/* The model's sensors into d->sensordata at d's state, with the kinematics, velocities,
   qacc and contact impulses of the last step or cs_forward_full (MuJoCo's position, velocity
   and acceleration stages). The step and cs_forward_full call it when m->nsensor > 0. With
   accelerometer, force or torque sensors it leaves d->cacc, d->cfrc those of qacc (the
   world's acceleration -gravity; cfrc the subtrees' forces without the external ones). */
CS_API void cs_sensors(const csModel* m, csData* d);

/* Checks the input state and options without stepping. */
CS_API csStatus cs_check_state(const csModel* m, const csData* d);

#ifdef __cplusplus
}
#endif
#endif
