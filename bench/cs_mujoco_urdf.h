/* A copy of a URDF file that MuJoCo (2.2.2, mj_loadXML) reads as contactsim reads the
   original: shared by `contactsim bench dynamics` (bench_dynamics.c) and the MuJoCo
   cross-check test (tests/dynamics/test_mujoco_dynamics.c). Plain C without MuJoCo: it only writes
   the XML text. */
#ifndef CS_MUJOCO_URDF_H
#define CS_MUJOCO_URDF_H

#include <stddef.h>

/* Flags of cs_bench_mujoco_urdf_write. */
enum {
  /* balanceinertia="true" (else "false"): MuJoCo refuses a link whose own inertia violates
     the triangle inequality unless this is set. */
  CS_MJURDF_BALANCE_INERTIA = 1 << 0,
  /* fusestatic="false" and every non-diagonal inertia tensor stated in its principal axes
     (diagonalised to machine precision, the axes folded into the <origin rpy>): the same
     tensor, which MuJoCo then reads without loss (MuJoCo 2.2.2 diagonalises full tensors
     with mju_eig3, which stops early, and fusing static bodies diagonalises again).
     Without it: fusestatic="true" (MuJoCo's URDF default) and the tensors as written. */
  CS_MJURDF_PRINCIPAL = 1 << 1
};

/* What cs_bench_mujoco_urdf_write changed besides the <mujoco> block. */
typedef struct csBenchMujocoUrdfInfo {
  int ndropped;   /* collision elements dropped: non-STL meshes or meshes not found */
  int nprincipal; /* inertia tensors restated in principal axes (CS_MJURDF_PRINCIPAL) */
} csBenchMujocoUrdfInfo;

/* Writes a temporary copy of the URDF file urdf for MuJoCo: a
     <mujoco><compiler [meshdir=ROOT] balanceinertia=".." discardvisual="true"
                       strippath="false" fusestatic=".."/></mujoco>
   block right after the <robot ...> tag (flags above), collision elements with STL meshes
   given the absolute path of the mesh (so meshes in several folders work), collision
   elements with other meshes (e.g. .dae, which MuJoCo cannot read; geometry does not enter
   the dynamics) or meshes not found dropped; comments and everything else copied as is.
   Mesh URIs: file://PATH and plain paths are taken relative to the URDF's directory
   (unless absolute); package://PKG/REST is the first existing BASE/TAIL for TAIL =
   PKG/REST, then REST with its leading components dropped one by one, where BASE is root
   if not NULL (then also MuJoCo's meshdir), else, as contactsim's URDF loader does, the
   URDF's directory, then its parent, then its grandparent.
   Returns 1 with the file name (/tmp/cs_mujoco_urdf_XXXXXX; the caller unlinks it) in path
   (npath bytes, at least 27) and, if info is not NULL, the counts in info; 0 with a
   message in err (nerr bytes; err may be NULL) if urdf cannot be read, has no <robot>
   tag, or the copy cannot be written. */
int cs_bench_mujoco_urdf_write(const char* urdf, const char* root, int flags, char* path,
                               size_t npath, csBenchMujocoUrdfInfo* info, char* err, size_t nerr);

#endif
