/* MuJoCo's joint type of a contactsim joint type (mjJNT_*), or -1 for none: shared by the
   benchmarks and tests that check that MuJoCo read a file with the same joints. Include after
   <mujoco/mujoco.h>. */
#ifndef CS_MUJOCO_JOINT_H
#define CS_MUJOCO_JOINT_H

#include "contactsim/cs_model.h"

static inline int cs_bench_mj_joint_type(int type) {
  switch (type) {
    case CS_JNT_FREE:
      return mjJNT_FREE;
    case CS_JNT_BALL:
      return mjJNT_BALL;
    case CS_JNT_REVOLUTE:
      return mjJNT_HINGE;
    case CS_JNT_PRISMATIC:
      return mjJNT_SLIDE;
    default:
      return -1;
  }
}

#endif
