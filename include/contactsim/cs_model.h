/* csModel: the immutable description of a multibody system, and the builder that makes
   one. A model is compiled once (cs_compile) from a csBuilder; loaders (cs_io.h) fill a
   builder from MJCF or URDF. Every array below is documented with its size. */
#ifndef CONTACTSIM_CS_MODEL_H
#define CONTACTSIM_CS_MODEL_H

#include <stddef.h>

#include "cs_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ status and errors */
typedef enum csStatus {
  CS_OK = 0,
  CS_ERR_IO,         /* file missing or unreadable */
  CS_ERR_PARSE,      /* malformed file */
  CS_ERR_MODEL,      /* model invalid (bad mass, inertia, topology, ...) */
  CS_ERR_ARG,        /* bad argument or option */
  CS_ERR_STATE,      /* bad input state (NaN/Inf in qpos, qvel, ctrl, ...) */
  CS_ERR_MEMORY,     /* allocation failed or arena full */
  CS_ERR_NUMERIC,    /* singular matrix or similar */
  CS_ERR_UNSUPPORTED /* a feature the library does not implement */
} csStatus;

/* Text of the last error raised in this thread: names the file, line and element or the
   field at fault. Never NULL. */
CS_API const char* cs_last_error(void);
CS_API const char* cs_status_name(csStatus s);

/* Memory hooks: every heap allocation of the library goes through these (default: libc).
   Set them before creating any object. Used by tests to count allocations. */
typedef void* (*csMallocFn)(size_t size);
typedef void (*csFreeFn)(void* ptr);
CS_API void cs_set_allocator(csMallocFn m, csFreeFn f);

/* Log function for warnings (default: stderr). NULL silences. */
typedef void (*csLogFn)(const char* msg);
CS_API void cs_set_log(csLogFn fn);

/* ------------------------------------------------------------------ enums */
typedef enum csJointType {
  CS_JNT_FREE = 0,  /* 7 qpos (x y z qw qx qy qz), 6 qvel (world linear, body angular) */
  CS_JNT_BALL,      /* 4 qpos (quaternion), 3 qvel (body-frame angular velocity) */
  CS_JNT_REVOLUTE,  /* 1 qpos (angle), 1 qvel */
  CS_JNT_PRISMATIC, /* 1 qpos (displacement), 1 qvel */
  CS_JNT_FIXED      /* builder only: merged into the parent at compile */
} csJointType;

typedef enum csGeomType {
  CS_GEOM_PLANE = 0, /* half-space z <= 0 in the geom frame */
  CS_GEOM_SPHERE,    /* size[0] radius */
  CS_GEOM_CAPSULE,   /* size[0] radius, size[1] half length along z */
  CS_GEOM_CYLINDER,  /* size[0] radius, size[1] half length along z */
  CS_GEOM_BOX,       /* size[0..2] half sizes */
  CS_GEOM_MESH,      /* geom_mesh: index of a mesh; size = mesh scale */
  CS_GEOM_HFIELD,    /* geom_hfield: index of a heightfield; static (world body only) */
  CS_GEOM_ELLIPSOID, /* size[0..2] radii along the geom's x, y, z */
  CS_GEOM_NTYPES
} csGeomType;

typedef enum csActuatorType {
  CS_ACT_MOTOR = 0, /* tau = gear * ctrl */
  CS_ACT_POSITION,  /* tau = kp (ctrl - q) - kd qdot */
  CS_ACT_GENERAL    /* MuJoCo's general actuator with a fixed gain and an affine bias:
                       force = gainprm ctrl + biasprm[0] + biasprm[1] L + biasprm[2] Ldot,
                       L = gear q (a tendon: gear times its length), tau = gear force */
} csActuatorType;

typedef enum csSolverType {
  CS_SOLVER_NONE = 0, /* no constraint solve: contacts, limits and equalities ignored */
  CS_SOLVER_BISECTION,
  CS_SOLVER_BISECTION_DESAXCE,
  CS_SOLVER_PGS_RAISIM,
  CS_SOLVER_LCP_PGS,
  CS_SOLVER_CCP_PGS,
  CS_SOLVER_NCP_PGS,
  CS_SOLVER_CCP_ADMM,
  CS_SOLVER_NCP_ADMM,
  CS_SOLVER_STAGGERED,
  CS_SOLVER_LEMKE,
  CS_SOLVER_NSN_AC,          /* semismooth Newton on the Alart-Curnier function */
  CS_SOLVER_BISECTION_PAPER, /* paper 001's Algorithms 1 and 2 alone, no accelerations or
                                fall-backs (docs/solvers/bisection.md) */
  CS_SOLVER_COUNT
} csSolverType;

typedef enum csIntegrator {
  CS_INT_EULER = 0,         /* semi-implicit (symplectic) Euler, damping explicit */
  CS_INT_EULER_IMPLICITDAMP /* semi-implicit Euler, joint damping implicit (M + dt D) */
} csIntegrator;

/* Names of bits in csOption.disable. */
enum {
  CS_DISABLE_GRAVITY = 1 << 0,
  CS_DISABLE_DAMPING = 1 << 1,
  CS_DISABLE_ACTUATION = 1 << 2,
  CS_DISABLE_CONTACT = 1 << 3,
  CS_DISABLE_LIMIT = 1 << 4,
  CS_DISABLE_SELFCOLLISION = 1 << 5, /* geoms of one kinematic tree (same body_rootid) never
                                        collide; set by the URDF loader unless asked */
  CS_DISABLE_EQUALITY = 1 << 6,      /* equality constraints not enforced */
  CS_DISABLE_FRICTIONLOSS = 1 << 7,  /* joint friction loss not applied */
  CS_DISABLE_ISLAND = 1 << 8         /* contacts in several islands are built and solved as one
                                        dense problem (docs/memory.md, "Islands") */
};

/* Equality constraints (csModel.eq_type, csEqualitySpec.type). */
typedef enum csEqualityType {
  CS_EQ_CONNECT = 0, /* a point of body 1 held at a point of body 2 (3 rows) */
  CS_EQ_WELD,        /* body 1 held in a fixed pose relative to body 2 (6 rows) */
  CS_EQ_JOINT        /* joint 1 a polynomial of joint 2 (1 row) */
} csEqualityType;

/* Sensors (csModel.sensor_type, csSensorSpec.type): MuJoCo 2.2.2's, with its meaning and
   conventions (docs/api.md, "Sensors"). Values go to csData.sensordata. */
typedef enum csSensorType {
  CS_SENS_JOINTPOS = 0,  /* 1: a hinge's or slide's qpos */
  CS_SENS_JOINTVEL,      /* 1: its qvel */
  CS_SENS_ACTUATORFRC,   /* 1: an actuator's force (before gear) */
  CS_SENS_FRAMEPOS,      /* 3: an object's position, world frame */
  CS_SENS_FRAMEQUAT,     /* 4: its orientation (w x y z), world frame */
  CS_SENS_FRAMELINVEL,   /* 3: the linear velocity of its origin, world frame */
  CS_SENS_FRAMEANGVEL,   /* 3: its angular velocity, world frame */
  CS_SENS_ACCELEROMETER, /* 3: a site's linear acceleration minus gravity, site frame */
  CS_SENS_GYRO,          /* 3: a site's angular velocity, site frame */
  CS_SENS_FORCE,         /* 3: the force of the site body's parent on the body's subtree,
                            site frame */
  CS_SENS_TORQUE,        /* 3: the torque of that interaction about the site, site frame */
  CS_SENS_TOUCH,         /* 1: normal forces of the site body's contacts in the site's zone */
  CS_SENS_SUBTREECOM,    /* 3: centre of mass of a body's subtree, world frame */
  CS_SENS_COUNT
} csSensorType;

/* The kind of object a sensor reads (csModel.sensor_objtype, csSensorSpec.objtype). */
typedef enum csObjType {
  CS_OBJ_BODY = 0, /* a body's centre of mass (MuJoCo's "body": xipos; for framequat unsupported) */
  CS_OBJ_XBODY,    /* a body's frame (xpos, xquat) */
  CS_OBJ_GEOM,
  CS_OBJ_SITE,
  CS_OBJ_JOINT,
  CS_OBJ_ACTUATOR
} csObjType;

/* ------------------------------------------------------------------ options */
typedef struct csOption {
  double timestep;   /* s, > 0 (default 1e-3) */
  double gravity[3]; /* m/s^2 (default 0 0 -9.81) */
  int integrator;    /* csIntegrator (default CS_INT_EULER_IMPLICITDAMP) */
  int solver;        /* csSolverType (default CS_SOLVER_BISECTION) */
  int iterations;    /* solver iteration cap (default 150) */
  double tolerance;  /* solver tolerance (default 1e-6) */
  int warmstart;     /* 1: warm start from the previous step (default 1) */
  double margin;     /* contact detection margin, m (default 1e-3) */
  double baumgarte;  /* penetration correction factor beta (default 0.2) */
  int disable;       /* CS_DISABLE_* bits (default 0) */
  int fallback;      /* the solver's fall-back chain (csSolverOptions.fallback, cs_contact.h):
                        0 the default (bisection: ncp_admm), -1 none, else a csSolverType */
  /* bounded recovery (docs/physics.md, "Starting in penetration") */
  double recovery_speed; /* > 0: the largest speed at which the Baumgarte term pushes a
                            crossed constraint back (a contact's or a prismatic limit's in
                            m/s, a hinge or ball limit's in rad/s, an equality's error
                            vector by its norm); 0: unbounded (default 0; cs_load_mjcf and
                            cs_load_urdf: CS_RECOVERY_SPEED_FILE, MJCF <custom><numeric
                            name="contactsim_recovery_speed">) */
} csOption;

/* csOption.recovery_speed of a model loaded from a file (m/s) */
#define CS_RECOVERY_SPEED_FILE 0.1

CS_API void cs_option_default(csOption* opt);

/* How a body is attached to its parent (csModel.body_kind). */
typedef enum csBodyKind {
  CS_BODY_WORLD = 0, /* the world (body 0) */
  CS_BODY_FREE,      /* one free joint (a child of the world) */
  CS_BODY_REVOLUTE,  /* one revolute joint */
  CS_BODY_PRISMATIC, /* one prismatic joint */
  CS_BODY_GENERAL    /* a ball joint, several joints, or none */
} csBodyKind;

/* ------------------------------------------------------------------ the model */
/* Body 0 is the world. Bodies are ordered so that body_parent[b] < b. Degrees of freedom
   are ordered so that dof_parent[i] < i (-1 for a root dof). */
typedef struct csModel {
  /* sizes */
  int nq;             /* generalized positions */
  int nv;             /* generalized velocities (degrees of freedom) */
  int nbody;          /* bodies, including the world (body 0) */
  int njnt;           /* joints (movable only: fixed joints are merged at compile) */
  int ngeom;          /* geoms (collision and visual: ngeomvisual) */
  int nsite;          /* sites and frames: named points/frames attached to bodies */
  int nu;             /* actuators */
  int nmesh;          /* meshes */
  int nmeshvert;      /* total mesh vertices */
  int nmeshface;      /* total mesh triangles */
  int nmeshhull;      /* total convex-hull vertices over the meshes */
  int ngeomvert;      /* total (scaled) hull vertices over the mesh geoms */
  int nhfield;        /* heightfields */
  int nhfielddata;    /* total elevation samples over the heightfields */
  int nM;             /* nonzeros of the sparse mass matrix (lower triangle incl. diagonal) */
  int nexclude;       /* excluded body pairs */
  int neq;            /* equality constraints */
  int ncon_max;       /* capacity for contacts */
  int nnames;         /* bytes in names */
  int nnote;          /* bytes in notes */
  size_t arena_bytes; /* bytes of the dynamics' and collision's scratch in csData's arena */
  size_t memory;      /* bytes of each csData's arena (MJCF <size memory>, cs_builder_set_memory);
                         0: sized by need (cs_data_need at min(ncon_max, CS_NCON_ROOM)) */

  csOption opt;

  /* bodies (nbody) */
  int* body_parent;         /* (nbody) parent body, -1 for the world */
  int* body_rootid;         /* (nbody) the root-most ancestor that is a child of world */
  int* body_jntadr;         /* (nbody) first joint, -1 if none */
  int* body_jntnum;         /* (nbody) number of joints */
  int* body_dofadr;         /* (nbody) first dof, -1 if none */
  int* body_dofnum;         /* (nbody) number of dofs */
  int* body_lastdof;        /* (nbody) last dof in the chain to the root (-1 if none) */
  int* body_geomadr;        /* (nbody) first geom */
  int* body_geomnum;        /* (nbody) number of geoms */
  double* body_pos;         /* (nbody x 3) position in parent frame at qpos0 */
  double* body_quat;        /* (nbody x 4) orientation in parent frame (w x y z) */
  double* body_mass;        /* (nbody) kg */
  double* body_ipos;        /* (nbody x 3) centre of mass in body frame */
  double* body_inertia;     /* (nbody x 6) inertia about the com in body frame:
                               Ixx Iyy Izz Ixy Ixz Iyz */
  double* body_subtreemass; /* (nbody) mass of the subtree */
  int* body_name;           /* (nbody) offset into names */

  /* joints (njnt) */
  int* jnt_type;      /* (njnt) csJointType */
  int* jnt_body;      /* (njnt) body moved by the joint */
  int* jnt_qposadr;   /* (njnt) first qpos */
  int* jnt_dofadr;    /* (njnt) first dof */
  double* jnt_pos;    /* (njnt x 3) anchor in body frame */
  double* jnt_axis;   /* (njnt x 3) unit axis in body frame (revolute, prismatic) */
  int* jnt_limited;   /* (njnt) 1 if range applies */
  double* jnt_range;  /* (njnt x 2) lower, upper (rad or m); a ball joint: 0, the largest
                         rotation angle (rad) */
  double* jnt_margin; /* (njnt) a limit's row is active from this distance to the bound on
                         (rad or m, >= 0; the step also activates it when the bound would
                         be crossed within the step) */
  int* jnt_name;      /* (njnt) offset into names */

  /* dofs (nv) */
  int* dof_body;            /* (nv) body */
  int* dof_jnt;             /* (nv) joint */
  int* dof_parent;          /* (nv) parent dof, -1 for root */
  int* dof_Madr;            /* (nv) start of row i of the sparse mass matrix */
  int* dof_Mnum;            /* (nv) length of row i: 1 + number of ancestor dofs */
  double* dof_damping;      /* (nv) N m s / rad */
  double* dof_armature;     /* (nv) kg m^2 added to the diagonal of M */
  double* dof_frictionloss; /* (nv) dry friction of the dof, N m or N (>= 0; 0: none) */

  /* qpos0 (nq): the reference configuration (identity quaternions, zero angles) */
  double* qpos0; /* (nq) */

  /* geoms (ngeom) */
  int* geom_type;        /* (ngeom) csGeomType */
  int* geom_body;        /* (ngeom) body */
  int* geom_contype;     /* (ngeom) bit mask */
  int* geom_conaffinity; /* (ngeom) bit mask */
  int* geom_mesh;        /* (ngeom) mesh index or -1 */
  double* geom_size;     /* (ngeom x 3) */
  double* geom_pos;      /* (ngeom x 3) in body frame */
  double* geom_quat;     /* (ngeom x 4) in body frame */
  double* geom_friction; /* (ngeom) Coulomb friction coefficient */
  double* geom_margin;   /* (ngeom) extra detection margin, m */
  double* geom_rbound;   /* (ngeom) bounding sphere radius about the geom origin (0: plane) */
  int* geom_name;        /* (ngeom) offset into names */

  /* sites (nsite): named frames; merged bodies leave one here */
  int* site_body;    /* (nsite) */
  double* site_pos;  /* (nsite x 3) in body frame */
  double* site_quat; /* (nsite x 4) in body frame */
  int* site_name;    /* (nsite) */

  /* meshes (nmesh) */
  int* mesh_vertadr; /* (nmesh) */
  int* mesh_vertnum; /* (nmesh) */
  int* mesh_faceadr; /* (nmesh) */
  int* mesh_facenum; /* (nmesh) */
  double* mesh_vert; /* (nmeshvert x 3) in the mesh frame */
  int* mesh_face;    /* (nmeshface x 3) vertex indices (local to the mesh) */
  int* mesh_name;    /* (nmesh) */

  /* actuators (nu) */
  int* actuator_type;          /* (nu) csActuatorType */
  int* actuator_jnt;           /* (nu) joint (single-dof joints only; -1: actuator_tendon) */
  double* actuator_gear;       /* (nu) */
  double* actuator_kp;         /* (nu) position gain */
  double* actuator_kd;         /* (nu) velocity gain */
  int* actuator_ctrllimited;   /* (nu) */
  double* actuator_ctrlrange;  /* (nu x 2) */
  int* actuator_forcelimited;  /* (nu) */
  double* actuator_forcerange; /* (nu x 2) */
  int* actuator_name;          /* (nu) */

  /* contact filtering */
  int* exclude_pair; /* (nexclude x 2) body pairs (smaller id first) */

  /* equality constraints (neq) */
  int* eq_type;    /* (neq) csEqualityType */
  int* eq_obj1;    /* (neq) body (connect, weld) or joint (joint) */
  int* eq_obj2;    /* (neq) body (0: the world) or joint (-1: none) */
  int* eq_active;  /* (neq) 1 if enforced */
  double* eq_data; /* (neq x 11) CS_EQ_CONNECT: anchor on body 1 in its frame (0..2), the
                      same point on body 2 in its frame at the reference (3..5);
                      CS_EQ_WELD: those two (0..5) and the orientation of body 1 relative
                      to body 2, q2^-1 q1 (6..9, w x y z);
                      CS_EQ_JOINT: polycoef (0..4), q1 - q1_0 = sum_k c_k (q2 - q2_0)^k
                      with q_0 from qpos0 */
  int* eq_name;    /* (neq) offset into names */

  /* actuator gains and transmissions, fixed tendons, joint actuator-force limits */
  int ntendon;              /* fixed tendons: length = sum of coef q over their joints */
  int nwrap;                /* joint terms over all tendons */
  int njntfrc;              /* joints whose summed actuator force is clamped */
  double* actuator_gainprm; /* (nu) CS_ACT_GENERAL: the gain of ctrl */
  double* actuator_biasprm; /* (nu x 3) CS_ACT_GENERAL: b0 + b1 L + b2 Ldot */
  int* actuator_tendon;     /* (nu) the tendon an actuator pulls (actuator_jnt -1 then), or
                               -1: it drives actuator_jnt */
  int* tendon_adr;          /* (ntendon) first term in wrap_jnt, wrap_coef */
  int* tendon_num;          /* (ntendon) number of terms */
  int* tendon_limited;      /* (ntendon) 1 if tendon_range applies (a unilateral row) */
  double* tendon_range;     /* (ntendon x 2) lower, upper length */
  int* tendon_name;         /* (ntendon) offset into names */
  int* wrap_jnt;            /* (nwrap) a single-dof joint */
  double* wrap_coef;        /* (nwrap) its coefficient in the tendon's length */
  int* jntfrc_jnt;          /* (njntfrc) a single-dof joint ... */
  double* jntfrc_range;     /* (njntfrc x 2) ... and the range its actuators' summed force
                               (qfrc_actuator at its dof) is clamped to */

  /* ---- derived at compile from the fields above (cs_compile), for the dynamics' fast
     paths; a model is immutable, so they stay consistent (cs_model_copy copies them) */
  int* body_kind;      /* (nbody) csBodyKind: how cs_kinematics places the body */
  double* body_anchor; /* (nbody x 3) anchor of the body's first joint in the parent frame
                          at qpos0: body_pos + rot(body_quat) jnt_pos (body_pos if none) */
  double* body_paxis;  /* (nbody x 3) axis of the body's first joint in the parent frame:
                          rot(body_quat) jnt_axis (0 if no joint) */
  double* body_qaxis;  /* (nbody x 4) body_quat * (0, jnt_axis) of a CS_BODY_REVOLUTE body
                          (else 0): its orientation in the parent frame at angle q is
                          cos(q/2) body_quat + sin(q/2) body_qaxis */
  int* body_order;     /* (nbody) the bodies by depth in the tree (breadth first, world
                          first): a parent comes before its children, and bodies next to
                          each other are mostly independent (more parallel work) */
  int* dof_Mcol;       /* (nM) the dof (column) of each entry of the sparse mass matrix:
                          row i holds i, dof_parent[i], dof_parent[dof_parent[i]], ... */
  int* dof_tran;       /* (nv) k in 0..2 if the dof is translation k of a free joint (its
                          motion vector is (0, e_k)), else -1 */
  int* dof_Mown;       /* (nv) dof_Mnum[i] - 6 if row i of the sparse mass matrix ends with
                          the 6 dofs of a free joint (r+5, ..., r) below which dof i lies,
                          else dof_Mnum[i]: the entries before that block */
  double* geom_mat;    /* (ngeom x 9) rotation matrix of geom_quat, row-major */
  double* site_mat;    /* (nsite x 9) rotation matrix of site_quat, row-major */
  int* mesh_hulladr;   /* (nmesh) first entry in mesh_hull */
  int* mesh_hullnum;   /* (nmesh) convex-hull vertices (0: flat mesh, no volume) */
  int* mesh_hull;      /* (nmeshhull) indices of the hull's vertices, local to the mesh */
  int* geom_vertadr;   /* (ngeom) first vertex in geom_vert (-1 if not a mesh) */
  int* geom_vertnum;   /* (ngeom) hull vertices of a mesh geom (0 otherwise) */
  double* geom_vert;   /* (ngeomvert x 3) hull vertices in the geom frame, scaled by the
                          geom's size: what convex collision uses */

  /* heightfields (nhfield), as MuJoCo's: a grid of nrow x ncol elevation samples over the
     rectangle [-size[0], size[0]] x [-size[1], size[1]] of the geom frame's xy plane.
     Sample (r, c) sits at x = -size[0] + 2 size[0] c / (ncol - 1),
     y = -size[1] + 2 size[1] r / (nrow - 1), z = size[2] * data[r ncol + c]. Each cell is
     split into two triangles along its diagonal from (r, c) to (r + 1, c + 1); the solid
     is the terrain surface extruded down to z = -size[3]. Collision: cs_collision_hfield.c */
  int* geom_hfield;    /* (ngeom) heightfield index of a CS_GEOM_HFIELD geom, else -1;
                          such a geom's geom_size is its hfield_size[0..2] and its
                          geom_rbound bounds its box (base included) */
  int* hfield_nrow;    /* (nhfield) samples along y (>= 2) */
  int* hfield_ncol;    /* (nhfield) samples along x (>= 2) */
  double* hfield_size; /* (nhfield x 4) half extent x, half extent y, height of elevation
                          1 (m), base depth below z = 0 (m); all > 0 */
  int* hfield_adr;     /* (nhfield) first sample in hfield_data */
  double* hfield_data; /* (nhfielddata) elevations in [0, 1], row-major (row = y) */
  int* hfield_name;    /* (nhfield) */

  /* visual geoms (URDF <visual>, MJCF geoms with contype = conaffinity = 0 that no explicit
     pair names): kept in the model with their pose and shape, never collided (their masks
     are 0, which the collision skips before any other work) */
  int ngeomvisual;  /* geoms with geom_visual set */
  int* geom_visual; /* (ngeom) 1: a visual geom, else 0 */
  /* keyframes (nkey): named states to start from (MJCF <keyframe>, cs_builder_add_key;
     cs_data_reset_key) */
  int nkey;         /* keyframes */
  double* key_time; /* (nkey) simulation time */
  double* key_qpos; /* (nkey x nq) */
  double* key_qvel; /* (nkey x nv) */
  double* key_ctrl; /* (nkey x nu) */
  int* key_name;    /* (nkey) offset into names */
  /* contact dimensionality and explicit geom pairs (MJCF condim and <contact><pair>,
     cs_builder_add_pair; docs/conventions.md, "Contacts"). A contact's condim is the larger
     of its geoms' (its pair's for an explicit pair): 1 makes it frictionless, 3 gives it
     the friction of the pair rule. An explicit pair collides whatever the masks, excludes
     and body filters say, and the filtered generation skips it. */
  int* geom_condim;      /* (ngeom) 1 (frictionless) or 3 (normal and sliding friction) */
  int ngeomcondim1;      /* geoms with condim 1 (0: the collision skips its condim pass) */
  int npair;             /* explicit geom pairs */
  int* pair_geom;        /* (npair x 2) the two geoms, smaller id first */
  double* pair_friction; /* (npair) Coulomb friction of the pair's contacts (not the geoms') */
  double* pair_margin;   /* (npair) detection margin added to opt.margin (not the geoms'), m */
  int* pair_condim;      /* (npair) 1 or 3 (not the geoms') */
  /* geom colours, for drawing (MJCF rgba, URDF <material><color>; docs/trajectory.md) */
  double* geom_rgba; /* (ngeom x 4) red, green, blue, alpha in [0, 1] */
  /* sensors (nsensor; docs/api.md, "Sensors"): sensor i writes sensor_dim[i] values at
     csData.sensordata + sensor_adr[i]. Frame, IMU, force and touch sensors read the frame
     sensor_pos, sensor_quat of body sensor_body (the object's frame in it: a site's, a geom's,
     a body's frame or centre of mass, a merged body's frame in the body it joined) */
  int nsensor;             /* sensors */
  int nsensordata;         /* values of all sensors: sum of sensor_dim */
  int* sensor_type;        /* (nsensor) csSensorType */
  int* sensor_objtype;     /* (nsensor) csObjType */
  int* sensor_objid;       /* (nsensor) model id of the object (-1: a body merged at compile) */
  int* sensor_body;        /* (nsensor) the model body carrying the sensor's frame (-1: none) */
  double* sensor_pos;      /* (nsensor x 3) the frame's origin in sensor_body's frame */
  double* sensor_quat;     /* (nsensor x 4) the frame's orientation in sensor_body's frame */
  int* sensor_adr;         /* (nsensor) first value in sensordata */
  int* sensor_dim;         /* (nsensor) number of values */
  double* sensor_noise;    /* (nsensor) MJCF noise: read, not simulated */
  double* sensor_cutoff;   /* (nsensor) > 0: |value| bounded by it (not a framequat's) */
  int* sensor_zonetype;    /* (nsensor) touch: the zone's csGeomType (the site's type), else -1 */
  double* sensor_zonesize; /* (nsensor x 3) touch: the zone's size (as a geom_size) */
  int* sensor_name;        /* (nsensor) offset into names */

  char* names; /* (nnames) NUL-separated names */
  char* notes; /* (nnote) loader notes: ignored attributes etc., one per line */

  void* buffer_; /* the one allocation that holds all arrays */
  size_t nbuffer_;
} csModel;

/* Free a compiled model (NULL is fine). */
CS_API void cs_model_free(csModel* m);
/* Index of a named object of a kind (as cs_id2name's), or -1. */
CS_API int cs_name2id(const csModel* m, const char* kind, const char* name);
/* The name of object id of a kind ("body", "joint", "geom", "site", "actuator", "mesh",
   "hfield", "equality", "key", "tendon", "sensor"). */
CS_API const char* cs_id2name(const csModel* m, const char* kind, int id);
/* Deep copy (options may then be changed on the copy). */
CS_API csModel* cs_model_copy(const csModel* m);

/* ------------------------------------------------------------------ builder */
typedef struct csBuilder csBuilder;

typedef struct csBodySpec {
  const char* name;
  int parent;         /* builder body index (0 = world) */
  double pos[3];      /* in parent frame */
  double quat[4];     /* in parent frame (w x y z); normalised by the builder */
  double mass;        /* kg, >= 0 (0 allowed for a body merged into a massive one) */
  double ipos[3];     /* centre of mass in body frame */
  double inertia[6];  /* about the com in body frame: Ixx Iyy Izz Ixy Ixz Iyz */
  const char* source; /* where it was defined ("file.xml:12"), for messages; may be NULL */
} csBodySpec;

typedef struct csJointSpec {
  const char* name;
  int body;       /* builder body index */
  int type;       /* csJointType */
  double pos[3];  /* anchor in body frame */
  double axis[3]; /* axis in body frame (normalised by the builder) */
  int limited;
  double range[2];
  double damping;
  double armature;
  const char* source;
  double margin;       /* limit activation distance, >= 0 (default 0) */
  double frictionloss; /* dry friction, N m or N, >= 0 (default 0) */
  int actfrclimited;   /* 1: the actuators' summed force on this (single-dof) joint is
                          clamped to actfrcrange (MJCF actuatorfrcrange, URDF effort) */
  double actfrcrange[2]; /* N m or N, lower <= upper */
} csJointSpec;

typedef struct csGeomSpec {
  const char* name;
  int body;
  int type; /* csGeomType */
  double size[3];
  double pos[3];
  double quat[4];
  double friction; /* default 1 */
  int contype;     /* default 1 */
  int conaffinity; /* default 1 */
  double margin;
  int mesh;   /* mesh index for CS_GEOM_MESH */
  int hfield; /* heightfield index for CS_GEOM_HFIELD (default -1); size is then
                 ignored (the heightfield's own size applies) */
  const char* source;
  int visual; /* 1: a visual geom (csModel.geom_visual): compiled with contype and
                 conaffinity 0, so it never collides (default 0) */
  int condim; /* contact dimensionality (csModel.geom_condim): 1 frictionless, 3 normal and
                 sliding friction (default 3; 0 also means 3) */
  double rgba[4]; /* colour for drawing (csModel.geom_rgba), each in [0, 1] (default 0.5 0.5
                     0.5 1, MuJoCo's) */
} csGeomSpec;

typedef struct csSiteSpec {
  const char* name;
  int body;
  double pos[3];
  double quat[4];
} csSiteSpec;

typedef struct csActuatorSpec {
  const char* name;
  int type;    /* csActuatorType */
  int joint;   /* builder joint index */
  double gear; /* default 1 */
  double kp, kd;
  int ctrllimited;
  double ctrlrange[2];
  int forcelimited;
  double forcerange[2];
  const char* source;
  double gainprm;    /* CS_ACT_GENERAL: gain (default 1) */
  double biasprm[3]; /* CS_ACT_GENERAL: affine bias (default 0) */
  int tendon;        /* builder tendon index for a tendon transmission (joint is then
                        ignored), -1 (the default): the joint */
} csActuatorSpec;

/* A fixed tendon: length = sum_i coef[i] q(joint[i]) over single-dof joints (builder
   indices); with limited, its length is kept within range by a unilateral row per bound. */
typedef struct csTendonSpec {
  const char* name;
  int n;              /* terms, >= 1 */
  const int* joint;   /* (n) builder joint indices */
  const double* coef; /* (n) coefficients */
  int limited;
  double range[2]; /* lower <= upper */
  const char* source;
} csTendonSpec;

/* An equality constraint; objects are named, and resolved at compile (a missing or
   unsuitable name is a compile error naming the equality). */
typedef struct csEqualitySpec {
  const char* name;
  int type;           /* csEqualityType */
  const char* obj1;   /* body (connect, weld) or joint (joint: revolute or prismatic) */
  const char* obj2;   /* the second body or joint; NULL: the world (connect, weld) or no
                         joint (joint: q1 - q1_0 = polycoef[0]) */
  double anchor[3];   /* connect, weld: the point on body 1, in its frame (default 0) */
  double polycoef[5]; /* joint: default 0 1 0 0 0 (q1 - q1_0 = q2 - q2_0) */
  int active;         /* default 1 */
  const char* source;
} csEqualitySpec;

/* A keyframe: a named state. The arrays are copied; a NULL array (or length 0) takes the
   model's default: qpos0, zero velocities, zero controls. A given array's length must be
   the compiled model's nq, nv or nu (checked at compile, naming the key and its source). */
typedef struct csKeySpec {
  const char* name;
  double time;
  const double* qpos;
  int nqpos;
  const double* qvel;
  int nqvel;
  const double* ctrl;
  int nctrl;
  const char* source;
} csKeySpec;

/* An explicit geom pair (MJCF <contact><pair>): its two geoms collide whatever their
   contype/conaffinity, excludes and bodies say, with the pair's friction, margin and condim
   in place of the geoms'. Geoms are named, and resolved at compile (a missing name, or two
   geoms that cannot touch, is a compile error naming the pair and its source). */
typedef struct csPairSpec {
  const char* name;  /* for messages (may be NULL) */
  const char* geom1; /* the geoms' names, two different geoms */
  const char* geom2;
  double friction; /* Coulomb friction, finite and >= 0 (default 1) */
  double margin;   /* detection margin added to opt.margin, finite and >= 0 (default 0) */
  int condim;      /* 1 or 3 (default 3) */
  const char* source;
} csPairSpec;

/* A sensor (csSensorType). The object is named, and resolved at compile (a missing name or
   an object of the wrong kind is a compile error naming the sensor and its source):
   joint (jointpos, jointvel: a hinge or slide), actuator (actuatorfrc), site (accelerometer,
   gyro, force, torque, touch), objtype's kind (frame sensors: body, xbody, geom, site),
   body (subtreecom). A force or torque sensor's site body and a subtreecom's body are kept
   as model bodies even without a joint (so the interaction or subtree is the named one). */
typedef struct csSensorSpec {
  const char* name;
  int type;            /* csSensorType */
  int objtype;         /* csObjType of a frame sensor (others: implied by the type) */
  const char* objname; /* the object's name */
  double noise;        /* read, not simulated (default 0) */
  double cutoff;       /* > 0: |value| bounded by it, as MuJoCo (default 0: none) */
  int zonetype;        /* touch: the zone's csGeomType: sphere, capsule, cylinder, box or
                          ellipsoid (default sphere, MuJoCo's site default) */
  double zonesize[3];  /* touch: the zone's size as a geom's (default 0.005 each) */
  const char* source;
} csSensorSpec;

/* Default-filled specs (identity quaternions, friction 1, contype/conaffinity 1, gear 1,
   axis z, polycoef 0 1 0 0 0, active, condim 3). */
CS_API void cs_body_spec_default(csBodySpec* s);
CS_API void cs_joint_spec_default(csJointSpec* s);
CS_API void cs_geom_spec_default(csGeomSpec* s);
CS_API void cs_site_spec_default(csSiteSpec* s);
CS_API void cs_actuator_spec_default(csActuatorSpec* s);
CS_API void cs_equality_spec_default(csEqualitySpec* s);
CS_API void cs_key_spec_default(csKeySpec* s);
CS_API void cs_pair_spec_default(csPairSpec* s);
CS_API void cs_sensor_spec_default(csSensorSpec* s);

CS_API csBuilder* cs_builder_new(void);
CS_API void cs_builder_free(csBuilder* b);
/* Each add returns the new object's index (bodies start at 1; world is 0), or -1 with
   cs_last_error() set. The builder copies every string and array it is given. */
CS_API int cs_builder_add_body(csBuilder* b, const csBodySpec* s);
CS_API int cs_builder_add_joint(csBuilder* b, const csJointSpec* s);
CS_API int cs_builder_add_geom(csBuilder* b, const csGeomSpec* s);
CS_API int cs_builder_add_site(csBuilder* b, const csSiteSpec* s);
CS_API int cs_builder_add_actuator(csBuilder* b, const csActuatorSpec* s);
/* A fixed tendon (csTendonSpec); returns its index, the one csActuatorSpec.tendon takes. */
CS_API int cs_builder_add_tendon(csBuilder* b, const csTendonSpec* s);
/* Mesh: nvert vertices (x y z), nface triangles (vertex indices). */
CS_API int cs_builder_add_mesh(csBuilder* b, const char* name, int nvert, const double* vert,
                               int nface, const int* face);
/* Heightfield: nrow x ncol (each >= 2) elevations, row-major with row 0 at y = -size[1]
   and column 0 at x = -size[0] (the csModel layout), each in [0, 1] (a fraction of
   size[2]; not rescaled: the MJCF loader normalises as MuJoCo does, a builder user
   divides by the height). size: half extent x, half extent y, height of elevation 1, base
   depth below z = 0, all finite and > 0. Geoms using it (CS_GEOM_HFIELD, csGeomSpec.hfield)
   must be static: on the world body or a body welded to it (checked at compile). */
CS_API int cs_builder_add_hfield(csBuilder* b, const char* name, int nrow, int ncol,
                                 const double size[4], const double* data);
/* An equality constraint (csEqualitySpec); returns its index. */
CS_API int cs_builder_add_equality(csBuilder* b, const csEqualitySpec* s);
/* A keyframe (csKeySpec); returns its index. */
CS_API int cs_builder_add_key(csBuilder* b, const csKeySpec* s);
/* An explicit geom pair (csPairSpec); returns its index. */
CS_API int cs_builder_add_pair(csBuilder* b, const csPairSpec* s);
/* A sensor (csSensorSpec); returns its index. Add it after the objects it names. */
CS_API int cs_builder_add_sensor(csBuilder* b, const csSensorSpec* s);
/* Exclude contacts between two bodies (builder indices). */
CS_API int cs_builder_add_exclude(csBuilder* b, int body1, int body2);
/* A note for the user (ignored attribute etc.); shown by `contactsim check`. */
CS_API void cs_builder_add_note(csBuilder* b, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Options of the model to be compiled (modifiable). */
CS_API csOption* cs_builder_option(csBuilder* b);
/* Number of bodies/joints added so far (world included in bodies). */
CS_API int cs_builder_nbody(const csBuilder* b);
CS_API int cs_builder_njoint(const csBuilder* b);
/* Repair inertias that violate the triangle inequality (after merging) by setting the
   principal moments to their mean, with a note per body (like MuJoCo's balanceinertia).
   Off by default: such a body is an error. */
CS_API void cs_builder_set_balance_inertia(csBuilder* b, int on);
/* The model's contact capacity (csModel.ncon_max): contacts beyond it in a step are dropped
   with a counted warning; csData's memory grows with its square (the dense Delassus matrix
   and the solvers' workspaces). 0 (the default): 64 + 8 (ngeom - ngeomvisual). MJCF:
   <size nconmax="N">.
   Returns 0, or -1 for a value outside 0..CS_NCON_MAX_LIMIT. */
#define CS_NCON_MAX_LIMIT 1000000
/* The largest csData arena a model may ask for: 1 TiB. */
#define CS_MEMORY_LIMIT ((size_t)1 << 40)
CS_API int cs_builder_set_ncon_max(csBuilder* b, int ncon_max);
/* The arena bytes of each csData of the model (csModel.memory; 0: sized by need). 0 on
   success, -1 (cs_last_error) for a size above CS_MEMORY_LIMIT. */
CS_API int cs_builder_set_memory(csBuilder* b, size_t bytes);
/* Set a file name used to prefix messages of the compile step. */
CS_API void cs_builder_set_source(csBuilder* b, const char* file);

/* Compile: merges bodies without movable joints into their parents (inertia combined,
   geoms and a site carried over), orders bodies and dofs, checks masses and inertias,
   lays out every array. On error *out is NULL and cs_last_error() says why. The builder
   is not modified and may be compiled again. */
CS_API csStatus cs_compile(const csBuilder* b, csModel** out);

#ifdef __cplusplus
}
#endif
#endif
