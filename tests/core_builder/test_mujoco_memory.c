/* A csData beside MuJoCo's mjData for the same file (docs/memory.md): the shared ANYmal C
   scene (45 geoms) in no more bytes than MuJoCo 2.2.2 gives it (its main buffer and its
   stack), and the project's own ANYmal C in at most 3.16 MB (issue 16's bound). The
   side-by-side check is skipped without ../shared. */
#include <mujoco/mujoco.h>
#include <stdio.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

/* bytes of one csData and one mjData of the file; 0 if either cannot load it */
static int sizes(const char* path, size_t* ours, size_t* theirs) {
  csModel* m = NULL;
  char err[1000] = "";
  mjModel* mm = mj_loadXML(path, NULL, err, sizeof err);
  if (cs_load_model(path, NULL, &m) != CS_OK || !mm) {
    CHECK_MSG(0, "%s: %s %s", path, cs_last_error(), err);
    cs_model_free(m);
    if (mm) mj_deleteModel(mm);
    return 0;
  }
  csData* d = cs_data_new(m);
  mjData* md = mj_makeData(mm);
  CHECK(d && md);
  *ours = d ? sizeof(csData) + d->nbuffer_ : 0;
  *theirs = md ? sizeof(mjData) + (size_t)md->nbuffer + sizeof(mjtNum) * (size_t)md->nstack : 0;
  printf("%s: csData %zu bytes (room for %d contacts), mjData %zu bytes\n", path, *ours,
         d ? cs_data_room(m, d) : 0, *theirs);
  cs_data_free(d);
  mj_deleteData(md);
  cs_model_free(m);
  mj_deleteModel(mm);
  return 1;
}

int main(void) {
  size_t ours = 0, theirs = 0;
  const char* own = cs_test_source("models/anymal_c.xml");
  if (own && sizes(own, &ours, &theirs)) CHECK_MSG(ours <= 3160000, "%zu bytes", ours);
  const char* scene = cs_test_shared("models/anymal_c/mjcf/scene_collision_only.xml");
  if (!scene) {
    printf("test_mujoco_memory: ../shared absent, the side-by-side check skipped\n");
    return cs_test_finish("test_mujoco_memory");
  }
  if (sizes(scene, &ours, &theirs)) CHECK_MSG(ours <= theirs, "%zu > %zu bytes", ours, theirs);
  return cs_test_finish("test_mujoco_memory");
}
