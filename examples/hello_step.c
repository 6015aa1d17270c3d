/* hello_step: the smallest contactsim program. Loads a model (default models/cube.xml, the
   ContactBench cube resting on the floor), steps it 200 times and prints the height of its
   first free body and the number of contacts.

     cc hello_step.c $(pkg-config --cflags --libs contactsim) -o hello_step
     ./hello_step /path/to/share/contactsim/models/cube.xml */
#include <stdio.h>

#include "contactsim/contactsim.h"

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "models/cube.xml";
  csLoadOptions opt;
  cs_load_options_default(&opt);
  csModel* m = NULL;
  csStatus st = cs_load_model(path, &opt, &m);
  if (st != CS_OK) {
    fprintf(stderr, "hello_step: %s: %s\n", cs_status_name(st), cs_last_error());
    return 1;
  }
  csData* d = cs_data_new(m);
  if (!d) {
    fprintf(stderr, "hello_step: %s\n", cs_last_error());
    cs_model_free(m);
    return 1;
  }
  int rc = 0;
  for (int k = 0; k < 200; k++) {
    if ((st = cs_step(m, d)) != CS_OK) {
      fprintf(stderr, "hello_step: step %d: %s\n", k, cs_last_error());
      rc = 1;
      break;
    }
  }
  /* a free joint's qpos is position (3) then orientation quaternion (4) */
  if (!rc)
    printf("contactsim %s: %s after %ld steps (t = %.3f s): height %.6f m, %d contacts\n",
           CS_VERSION_STRING, path, (long)d->nstep, d->time, d->qpos[2], d->ncon);
  cs_data_free(d);
  cs_model_free(m);
  return rc;
}
