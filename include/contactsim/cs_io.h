/* Model loading: MJCF (MuJoCo XML subset) and URDF, both through libxml2. */
#ifndef CONTACTSIM_CS_IO_H
#define CONTACTSIM_CS_IO_H

#include "cs_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct csLoadOptions {
  int floating_base;         /* URDF: attach the root link to the world by a free joint
                                (default 1, as the CLI); 0: weld it to the world, as a
                                static body of the robot's tree (body_rootid), so that
                                self_collision 0 keeps its geoms off the robot's links */
  const char* package_path;  /* URDF: search path(s), ':'-separated, for package:// URIs */
  int skip_collision_meshes; /* do not load STL meshes (faster; geoms dropped with a note) */
  int balance_inertia;       /* repair inertias violating the triangle inequality (noted) */
  int self_collision;        /* URDF: let the robot's links collide with each other (default
                                0, as PyBullet and RaiSim: URDF collision meshes often overlap
                                at the joints). MJCF follows the file (contype/exclude). */
} csLoadOptions;

CS_API void cs_load_options_default(csLoadOptions* o);

/* Fill a builder from a file (appending to what it holds). On error, returns a status and
   cs_last_error() names the file, line and element. */
CS_API csStatus cs_load_mjcf(csBuilder* b, const char* path, const csLoadOptions* o);
CS_API csStatus cs_load_urdf(csBuilder* b, const char* path, const csLoadOptions* o);
/* Fill a builder from a file by its extension (.xml: MJCF, .urdf: URDF), with the builder's
   source set to path and its inertia repair to o->balance_inertia (o may be NULL); an
   unknown extension is CS_ERR_ARG naming it. For callers that add to the file's model
   before compiling (a ground plane, say). */
CS_API csStatus cs_load_file(csBuilder* b, const char* path, const csLoadOptions* o);
/* cs_load_file into a new builder, then compile. */
CS_API csStatus cs_load_model(const char* path, const csLoadOptions* o, csModel** out);

/* A ground plane under a model (`contactsim run --floor`). The height of the lowest point of
   m's collision geoms (contype or conaffinity set) at qpos0 into *z: the support point along
   -z of each sphere, capsule, cylinder, box and mesh hull; planes and heightfields are left
   out. CS_ERR_MODEL when m has no such geom. */
CS_API csStatus cs_model_lowest_point(const csModel* m, double* z);
/* cs_load_file, then a plane on the world at the file's lowest collision point at qpos0
   (cs_model_lowest_point), named "floor" ("lowest_floor" when the file has a geom named
   floor), then compile into *out; its height into *z (z may be NULL). */
CS_API csStatus cs_load_model_floor(const char* path, const csLoadOptions* o, csModel** out,
                                    double* z);

/* Binary or ASCII STL: vertices deduplicated. *vert and *face are allocated with the
   library allocator; free with cs_free. */
CS_API csStatus cs_load_stl(const char* path, int* nvert, double** vert, int* nface, int** face);
/* Wavefront OBJ (v and f lines; polygons fan-triangulated; vertices a face uses, deduplicated,
   numbered by first use); the same outputs and ownership as cs_load_stl. */
CS_API csStatus cs_load_obj(const char* path, int* nvert, double** vert, int* nface, int** face);
CS_API void cs_free(void* p);

#ifdef __cplusplus
}
#endif
#endif
