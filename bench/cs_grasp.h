/* The grasp scenes (docs/physics.md, "Stiction and grasps"): their files, their start state
   and the two measures of a grasp that holds, shared by `contactsim bench grasp`
   (bench_grasp.c) and tests/pipeline/test_grasp.c. Public API and libxml2 only. */
#ifndef CS_GRASP_H
#define CS_GRASP_H

#include <stddef.h>

#include "contactsim/contactsim.h"

/* A grasp scene: its name (bench grasp --scene) and its file relative to the source tree. */
typedef struct csBenchGraspScene {
  const char* name;
  const char* file;
  /* the file includes ../shared/models/<shared> (relative to the source tree), or NULL */
  const char* shared;
} csBenchGraspScene;

/* pinch, pinch_horizontal, gripper_box, allegro; NULL-name terminated. */
extern const csBenchGraspScene cs_bench_grasp_scenes[];

/* What the first <keyframe><key> of an MJCF file (the file itself, not its includes) sets:
   its qpos (nq values), qvel (nv) and ctrl (nu), each only when the attribute is there. */
typedef struct csBenchGraspKey {
  int has_qpos, has_qvel, has_ctrl;
} csBenchGraspKey;

/* Reads the key of path into qpos (nq), qvel (nv), ctrl (nu) (arrays left as they are for
   attributes the key lacks; no key: all three absent). 1, or 0 with a message naming the
   file and the attribute in err (unreadable file, a wrong count of numbers, not a number). */
int cs_bench_grasp_key(const char* path, int nq, double* qpos, int nv, double* qvel, int nu,
                       double* ctrl, csBenchGraspKey* key, char* err, size_t nerr);

/* The scene's start: cs_data_reset, then the key's qpos and qvel, and the controls held for
   the whole run: the key's ctrl, or 1 on every actuator without a key ctrl (the pinches'
   motors squeeze at ctrl 1). 1, or 0 with a message in err. */
int cs_bench_grasp_start(const csModel* m, csData* d, const char* path, char* err, size_t nerr);

/* Height of the point p: its coordinate along -gravity (z for the default gravity). */
double cs_bench_grasp_height(const double gravity[3], const double p[3]);

/* Angle (rad, in [0, pi]) of the rotation taking unit quaternion q0 to q (w, x, y, z). */
double cs_bench_grasp_angle(const double q0[4], const double q[4]);

#endif
