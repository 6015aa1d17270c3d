/* Builder internals for the loaders. */
#ifndef CS_BUILDER_INTERNAL_H
#define CS_BUILDER_INTERNAL_H

#include "contactsim/cs_model.h"

/* Keep builder body `body` as a model body of its own at compile even when it has no moving
   joint (it is not merged into its parent): a static body, for example a robot's base welded
   to the world, whose geoms then belong to the robot's kinematic tree (body_rootid) rather
   than to the world. Returns 0, or -1 with an error set for a bad index. */
int csi_builder_keep_body(csBuilder* b, int body);

/* Actuators added so far, and the source string of actuator i ("" if none): the MJCF
   loader matches a keyframe's ctrl entries to the actuators it added. */
int csi_builder_nactuator(const csBuilder* b);
const char* csi_builder_actuator_source(const csBuilder* b, int i);

/* The loader notes added so far, one per line ("" if none). */
const char* csi_builder_notes(const csBuilder* b);

/* cs_compile for a loader: when the compile fails on a model error and the file's notes say
   some of its mesh files were not read (their geoms dropped), the error also quotes that
   note, the likely cause of a massless body. */
csStatus csi_builder_compile_loaded(csBuilder* b, csModel** out);

#endif
