/* Models built in code for tests: a random tree with every joint type, a pendulum. */
#ifndef CS_TEST_MODELS_H
#define CS_TEST_MODELS_H

#include "contactsim/contactsim.h"

/* Random tree of nbody bodies (plus world) using every joint type: free (roots), ball,
   revolute, prismatic, fixed (merged), and bodies with two joints. Deterministic in seed. */
csModel* cs_test_random_tree(int nbody, unsigned long long seed);
/* n-link planar pendulum of unit links (1 kg, 1 m, rods along -z), hinges about y. */
csModel* cs_test_pendulum(int nlink);
/* Random state: joint angles, unit quaternions, free positions, gaussian velocities. */
void cs_test_random_state(const csModel* m, csData* d, double vel_scale);
/* Load a model from ../shared (NULL if absent or on error, with a message). */
csModel* cs_test_load_shared(const char* rel, int floating);
/* Writes text to dir/name and loads it with options o (NULL: the defaults); a failed write or
   load is a failed check (NULL returned). */
csModel* cs_test_load_text(const char* dir, const char* name, const char* text,
                           const csLoadOptions* o);
/* cs_test_load_text with the default options but a URDF's base welded to the world. */
csModel* cs_test_load_text_fixed(const char* dir, const char* name, const char* text);
/* A mesh reader's signature (cs_load_stl, cs_load_obj) */
typedef csStatus (*csTestMeshReader)(const char* path, int* nvert, double** vert, int* nface,
                                     int** face);
/* Checks that read(path) fails with status want, a message naming the file (and containing
   also, unless NULL), and empty outputs; what names the case in the messages. */
void cs_test_mesh_read_fails(csTestMeshReader read, const char* what, const char* path,
                             csStatus want, const char* also);
/* Writes text to dir/name; checks that its load fails with status want and a message naming
   name:line and containing also. */
void cs_test_expect_load_error(const char* dir, const char* name, const char* text, csStatus want,
                               int line, const char* also);
/* Dense nv x nv M from the sparse qM. */
void cs_test_dense_m(const csModel* m, const csData* d, double* M);

#endif
