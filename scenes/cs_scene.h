/* Built-in scenes of docs/scenes.md: the ANYmal tasks (hang, drop, trot, random), the
   ContactBench cube scenes (cube_slide, cube_push, stack_ratio) and the pile of boxes. A scene is a
   model, a start state, and a per-step controller (PD torques, pushes, resets) applied before each
   step.

   The controller (csSceneCtl) works on plain arrays only: the time, the kinetic energy, and
   the angles and rates of the controlled joints. It knows no simulator, so the MuJoCo side
   of `contactsim bench anymal` runs the very same code on its own copy (same seed): only
   the gathering of q, qdot and the scattering of the torques differ per simulator.
   Uses the public API only. */
#ifndef CS_SCENE_H
#define CS_SCENE_H

#include "contactsim/contactsim.h"

enum { CS_SCENE_MAXJ = 64 };

/* The scene's controller state. Plain data (no pointers): copy it to mirror a scene. */
typedef struct csSceneCtl {
  int task; /* internal task id */
  /* PD control of npd joints: tau = kp (q_ref - q) - kd qdot, clamped to +-tau_max */
  int npd;
  double qnom[CS_SCENE_MAXJ]; /* nominal angles (rad) */
  double qref[CS_SCENE_MAXJ]; /* current references (rad) */
  double lo[CS_SCENE_MAXJ];   /* joint range in the file (random references are clipped) */
  double hi[CS_SCENE_MAXJ];
  double kp, kd, tau_max;
  double still_time;      /* drop: time the kinetic energy has been below 1e-3 J */
  double next_ref;        /* random: time of the next reference */
  double next_reset;      /* random: time of the next reset */
  unsigned long long rng; /* random: generator state (seed 1) */
  int resets;             /* resets requested since the start */
  double push_force[3];   /* cube_push: force at the centre of mass (world) */
} csSceneCtl;

/* Start of a run: references at q_nom, timers at their start, the generator at seed 1,
   resets 0. */
void cs_scene_ctl_start(csSceneCtl* c);
/* 1 if cs_scene_ctl_update reads its kinetic-energy argument (drop), else 0: the caller
   may skip computing it. */
int cs_scene_ctl_wants_energy(const csSceneCtl* c);
/* Before each step, at time t (s) with step dt (s) and kinetic energy kinetic (J): timers,
   references, pushes. Returns 1 if the caller must put its simulator in the scene's start
   state (qpos0, qvel0) now, keeping its time; else 0. */
int cs_scene_ctl_update(csSceneCtl* c, double t, double dt, double kinetic);
/* PD torques of the npd controlled joints from their angles q and rates qd (npd each)
   into tau (npd). Returns 0 (tau untouched) if the scene applies no joint torques. */
int cs_scene_ctl_torques(const csSceneCtl* c, const double* q, const double* qd, double* tau);

typedef struct csScene {
  char name[32];
  char model_path[1024]; /* the file loaded (MuJoCo loads the same one) */
  csModel* m;
  csData* d;
  double* qpos0;             /* (nq) start state, in our qpos layout */
  double* qvel0;             /* (nv) */
  int pd_jnt[CS_SCENE_MAXJ]; /* our joint of each controlled joint (ctl order) */
  int pd_qadr[CS_SCENE_MAXJ], pd_dof[CS_SCENE_MAXJ];
  csSceneCtl ctl;    /* the controller (our side) */
  int resets;        /* resets done (= ctl.resets, kept for the demo) */
  double mass_ratio; /* stack_ratio */
  double* work;      /* (nv) scratch of cs_scene_control */
} csScene;

/* Names of the fixed scenes (no size parameter), NULL-terminated: the ANYmal and cube
   scenes, whose trajectories tests/data/determinism_hashes.txt pins. */
const char* const* cs_scene_names(void);
/* The scenes cs_scene_load builds: the fixed ones, then "pile" (and "bin", not listed). */
const char* const* cs_scene_all_names(void);
/* Build a scene. models_dir holds contactsim's models (CS_MODELS_DIR by default); param is a
   scene parameter (stack_ratio: the mass ratio; pile, bin: the number of boxes, a whole
   number from 1 to CS_SCENE_PILE_MAX; NaN for the default). Prints nothing; returns CS_ERR_ARG for
   an unknown name or a pile size out of range, CS_ERR_MEMORY when cs_data_new fails. */
csStatus cs_scene_load(const char* name, const char* models_dir, double param, csScene* s);
/* Put the scene in its start state: cs_data_reset, the start state, a cs_forward (so the
   mass matrix used for the kinetic energy is that of the start), the controller restarted. */
void cs_scene_reset(csScene* s);
/* Before each step: controller torques into d->qfrc_applied (zeroed first), pushes, task
   resets (cs_data_set_state to the start state, time kept). Works on (m, d) given (the
   scene's own or a copy with the same sizes), t = d->time. The kinetic energy, when the
   task needs it, is 0.5 qvel^T M qvel with the M of the last step (d->qM), as MuJoCo's
   mj_energyVel. Also counts the resets in s->resets. */
void cs_scene_control(csScene* s, const csModel* m, csData* d);
void cs_scene_free(csScene* s);

/* The scene's seeded generator (splitmix64 + Box-Muller), shared with the MuJoCo mirror. */
double cs_scene_gauss(unsigned long long* state);
/* A uniform number in [0, 1) from the same generator (53 bits of one splitmix64 draw). */
double cs_scene_uniform(unsigned long long* state);

/* 0.5 qvel^T M qvel with the M of the last step or forward pass (d->qM); work (nv). For
   free bodies with the centre of mass at the origin, as the pile's boxes, M does not
   depend on the pose, so this is the kinetic energy of the current qvel. */
double cs_scene_kinetic(const csModel* m, const csData* d, double* work);

/* ------------------------------------------------------------------ the pile
   (cs_scene_pile.c, docs/scenes.md "Pile"): n free boxes of edge 0.1 m and 1 kg (1,000
   kg/m^3), friction 0.5 with each other and the plane z = 0, in layers = round(cbrt(n))
   layers of columns = ceil(n / layers) columns. Box k (body and geom "box<k>") is in layer
   k / columns (from the bottom) and column k % columns; column c stands at grid cell
   (c % side, c / side) of a side x side grid (side = ceil(sqrt(columns))) of pitch 0.15 m
   (a 0.05 m gap between columns) centred on the origin. Layer l starts with its centre at
   z = 0.06 + 0.11 l (0.01 m between layers and under the bottom layer), at rest, each box
   shifted horizontally by up to +-2 mm and yawed by up to +-0.05 rad, uniform draws of
   cs_scene_uniform from seed 1 in box order (x shift, y shift, yaw). ncon_max = 8 n + 64:
   8 contacts under each box (two yawed squares overlap in at most an octagon; on the plane
   4) and 64 more for boxes that touch a neighbour on the way. */
enum { CS_SCENE_PILE_DEFAULT = 50, CS_SCENE_PILE_MAX = 100000 };

typedef struct csScenePile {
  int n;        /* boxes */
  int layers;   /* layers at the start */
  int columns;  /* columns (the top layer may be partial) */
  int side;     /* the grid's side: side x side cells >= columns */
  double edge;  /* box edge, m */
  double mass;  /* box mass, kg */
  double mu;    /* friction coefficient */
  double pitch; /* distance between neighbouring columns' centres, m */
  int ncon_max; /* the model's contact capacity */
} csScenePile;

/* A free body of the world with a cube geom of the given edge (m), mass (kg, uniform
   inertia) and friction mu, at pos (world) turned by yaw (rad) about z, its body, joint and
   geom named name: 1, or 0 if the builder refused it (its error text stands). The stack's
   cubes and the pile's boxes. */
int cs_scene_free_box(csBuilder* b, const char* name, const double pos[3], double yaw, double mass,
                      double edge, double mu);

/* The pile's layout for n boxes (all zero if n < 1). */
void cs_scene_pile_layout(int n, csScenePile* p);
/* Boxes in a column (0 outside 0..columns-1). */
int cs_scene_pile_column_size(const csScenePile* p, int column);
/* The pile's model alone (no data): CS_ERR_ARG if n is outside 1..CS_SCENE_PILE_MAX, else
   cs_compile's status. Its start state is qpos0 with zero velocity. */
csStatus cs_scene_pile_model(int n, csModel** out);

/* ------------------------------------------------------------------ the bin
   (cs_scene_pile.c, docs/scenes.md "Bin"): the pile's n boxes packed so that the settled
   heap is one island. Layers alternate between a side x side grid and a (side - 1) x
   (side - 1) grid shifted by half a pitch in x and y, so each box of an upper layer rests on
   the corners of four below (a brick bond in both directions); pitch 0.103 m (3 mm between
   neighbours), side = round(sqrt(n^(2/3))) at least 2, the layers filled from the bottom (the
   top one may be partial), each box yawed by up to +-0.02 rad and shifted by up to +-1 mm
   (seed 1), 5 mm between layers at the start. Four static walls of the world stand 3 mm
   outside the grid. ncon_max = 24 n + 64. */
/* The bin's layout for n boxes (layers: of either grid; columns: side^2; pitch). */
void cs_scene_bin_layout(int n, csScenePile* p);
/* The bin's model alone (no data), as cs_scene_pile_model. */
csStatus cs_scene_bin_model(int n, csModel** out);

#endif
