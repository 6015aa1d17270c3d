/* hello: load a model, simulate one second, look at the contacts.

     ./hello [MODEL.xml|MODEL.urdf]

   Without an argument it loads the cube of the installed models directory (a 1 kg, 0.2 m
   cube resting on the floor). It prints the time, the height of the first free body (the
   "base"), the number of contacts, the force of the first contact in the world frame and
   the sum of the contact forces from the world.

   What it shows:
     - cs_load_model: a file to a compiled csModel (MJCF by .xml, URDF by .urdf);
     - cs_data_new: the csData that holds everything that changes while simulating;
     - cs_step: one time step (m->opt.timestep seconds);
     - cs_contact_force: a contact's force in newtons, world frame;
     - every call that returns a csStatus is checked; on failure cs_last_error() says what
       went wrong and where (file, line, element, or the field at fault).

   Exit status: 0 when every call succeeded, 1 otherwise. */
#include <stdio.h>

#include "contactsim/contactsim.h"

/* Set by examples/CMakeLists.txt: the installed share/contactsim/models directory. */
#ifndef EXAMPLES_INSTALLED_MODELS
#define EXAMPLES_INSTALLED_MODELS "models"
#endif

/* The first free joint's height (qpos: x y z, then the orientation quaternion w x y z), or
   -1 with *found 0 when the model has no free joint (a fixed-base robot). */
static double base_height(const csModel* m, const csData* d, int* found) {
  for (int j = 0; j < m->njnt; j++)
    if (m->jnt_type[j] == CS_JNT_FREE) {
      *found = 1;
      return d->qpos[m->jnt_qposadr[j] + 2];
    }
  *found = 0;
  return -1;
}

/* Step the model for `seconds` of simulated time. Returns 0, or 1 after printing why the
   step failed. */
static int simulate(const csModel* m, csData* d, double seconds) {
  long n = (long)(seconds / m->opt.timestep + 0.5);
  for (long k = 0; k < n; k++) {
    csStatus st = cs_step(m, d);
    if (st != CS_OK) {
      fprintf(stderr, "hello: step %ld: %s: %s\n", k, cs_status_name(st), cs_last_error());
      return 1;
    }
  }
  return 0;
}

/* Print the first contact: which bodies touch, where, and the force. cs_contact_force
   gives the force on body[1] (the body of the contact's second geom); body[0] receives the
   opposite. f[3..5] is a torque about the contact point: 0, as contactsim contacts have no
   torsional or rolling friction. */
static int print_first_contact(const csModel* m, const csData* d) {
  if (d->ncon == 0) {
    printf("no contact\n");
    return 0;
  }
  double f[6];
  int body[2];
  csStatus st = cs_contact_force(m, d, 0, f, body);
  if (st != CS_OK) {
    fprintf(stderr, "hello: cs_contact_force: %s: %s\n", cs_status_name(st), cs_last_error());
    return 1;
  }
  const csContact* c = &d->contact[0];
  printf("contact 0: '%s' on '%s' at (%.4f, %.4f, %.4f) m, depth %.2e m\n",
         cs_id2name(m, "body", body[1]), cs_id2name(m, "body", body[0]), c->pos[0], c->pos[1],
         c->pos[2], -c->dist);
  printf("contact 0 force on '%s': (%.4f, %.4f, %.4f) N\n", cs_id2name(m, "body", body[1]), f[0],
         f[1], f[2]);
  return 0;
}

/* The sum of the forces the world (body 0: the floor, the table) applies through every
   contact. For a body at rest it balances the weight: the cube's four corner contacts carry
   9.81 N between them, though how they share it, tangential parts that cancel included, is
   not unique (a statically indeterminate support). */
static int print_world_force(const csModel* m, const csData* d) {
  double sum[3] = {0, 0, 0};
  for (int i = 0; i < d->ncon; i++) {
    double f[6];
    int body[2];
    csStatus st = cs_contact_force(m, d, i, f, body);
    if (st != CS_OK) {
      fprintf(stderr, "hello: cs_contact_force: %s: %s\n", cs_status_name(st), cs_last_error());
      return 1;
    }
    double sign = body[0] == 0 ? 1 : body[1] == 0 ? -1 : 0; /* f acts on body[1] */
    for (int k = 0; k < 3; k++) sum[k] += sign * f[k];
  }
  printf("contact force from the world, all contacts: (%.4f, %.4f, %.4f) N\n", sum[0], sum[1],
         sum[2]);
  return 0;
}

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : EXAMPLES_INSTALLED_MODELS "/cube.xml";

  /* Load and compile. Options: the defaults (a URDF gets a floating base). */
  csLoadOptions opt;
  cs_load_options_default(&opt);
  csModel* m = NULL;
  csStatus st = cs_load_model(path, &opt, &m);
  if (st != CS_OK) {
    fprintf(stderr, "hello: %s: %s\n", cs_status_name(st), cs_last_error());
    return 1;
  }
  printf("contactsim %s: %s: %d bodies, %d dofs, %d actuators, dt %g s\n", cs_version_string(),
         path, m->nbody, m->nv, m->nu, m->opt.timestep);

  /* The simulation state starts at the model's qpos0 at rest, controls 0. */
  csData* d = cs_data_new(m);
  if (!d) {
    fprintf(stderr, "hello: cs_data_new: %s\n", cs_last_error());
    cs_model_free(m);
    return 1;
  }

  int rc = simulate(m, d, 1.0);
  if (rc == 0) {
    int found;
    double h = base_height(m, d, &found);
    printf("time %.3f s\n", d->time);
    if (found)
      printf("base height %.6f m\n", h);
    else
      printf("base height: the model has no free joint\n");
    printf("contacts %d\n", d->ncon);
    rc = print_first_contact(m, d) || print_world_force(m, d);
  }
  /* A step that produced NaN is rolled back and counted; a solve that missed its tolerance
     is counted too. Neither stops the simulation: look at them. */
  if (d->warning[CS_WARN_NAN_STEP].count > 0) {
    fprintf(stderr, "hello: %d steps produced NaN\n", d->warning[CS_WARN_NAN_STEP].count);
    rc = 1;
  }
  cs_data_free(d);
  cs_model_free(m);
  return rc;
}
