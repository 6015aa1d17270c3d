/* contactsim bench build [--task drop|hang|all] [--repeats N] [--batch N]
   [--json]

   Times the contact problem build (cs_contact_problem_build: contact Jacobian
   J, Delassus matrix G = J M^-1 J^T, free velocity g, warm start) alone, at a
   recorded ANYmal C state (models/anymal_c.xml, 18 dofs) of a scene of
   docs/scenes.md: drop  8 contacts (4 feet spheres + 4 torso box corners on
   the plane), hang  4 contacts (the feet). The scene (scenes/cs_scene.c,
   controller included) is stepped until it has had exactly that many contacts
   for HOLD consecutive steps (a resting state, so the warm start finds its
   previous contacts); the state after that step (contacts, kinematics, factor
   of M) is then fixed and cs_contact_problem_build is called in batches of
   BATCH calls, build_us = the median over N repeats (default 51) of batch time
   / BATCH. collision_us is timed the same way on cs_geom_poses + cs_collide at
   the same state (issue 3's other target). Batches of the two quantities
   alternate. The free velocity passed is the state's qvel (the time does not
   depend on it). Uses the public API only. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"
#include "cs_cli.h"
#include "cs_scene.h"

#define DEFAULT_REPEATS 51
#define DEFAULT_BATCH 2000
#define HOLD 100
#define MAX_STEPS 20000

static void usage(FILE* f) {
  fprintf(f,
          "usage: contactsim bench build [--task drop|hang|all] [--repeats N] "
          "[--batch N]\n"
          "                              [--json]\n"
          "\n"
          "Times cs_contact_problem_build (J, G = J M^-1 J^T, g, warm start) alone "
          "on ANYmal C\n"
          "(anymal_c.xml) at a resting state of a scene: drop (8 contacts: feet "
          "and torso\n"
          "corners) or hang (4 contacts: feet). The scene is stepped until it has "
          "had that\n"
          "many contacts for %d steps; then batches of calls are timed. build_us "
          "is the\n"
          "median over the repeats of batch time / batch size; collision_us the "
          "same for\n"
          "cs_geom_poses + cs_collide at that state.\n"
          "\n"
          "  --task T      drop, hang, or all (default all: one line each)\n"
          "  --repeats N   timed batches per quantity (default %d)\n"
          "  --batch N     calls per batch (default %d)\n"
          "  --json        one JSON object per task and line on stdout:\n"
          "                "
          "{\"bench\":\"build\",\"task\":..,\"nv\":..,\"ncon\":..,\"step\":..,\n"
          "                "
          "\"repeats\":..,\"batch\":..,\"build_us\":..,\"build_us_min\":..,\n"
          "                \"collision_us\":..}\n"
          "  --help        this text\n",
          HOLD, DEFAULT_REPEATS, DEFAULT_BATCH);
}

/* Returns 0, or an exit code (message printed). */
static int run_task(const char* task, int ncon_want, long repeats, long batch, int json) {
  csScene s;
  if (cs_scene_load(task, cs_cli_models_dir(), NAN, &s) != CS_OK) {
    fprintf(stderr, "bench build: scene %s: %s\n", task, cs_last_error());
    return 1;
  }
  csModel* m = s.m;
  csData* d = s.d;
  cs_scene_reset(&s);
  cs_set_log(NULL); /* silence solver warnings while stepping */
  long step = 0, held = 0;
  for (; step < MAX_STEPS && held < HOLD; step++) {
    cs_scene_control(&s, m, d);
    if (cs_step(m, d) != CS_OK) break;
    held = d->ncon == ncon_want ? held + 1 : 0;
  }
  if (held < HOLD) {
    fprintf(stderr, "bench build: %s never held %d contacts for %d steps\n", task, ncon_want, HOLD);
    cs_scene_free(&s);
    return 1;
  }
  double* vfree = malloc(sizeof(double) * (size_t)m->nv);
  double* t = malloc(sizeof(double) * (size_t)(2 * repeats));
  if (!vfree || !t) {
    fprintf(stderr, "bench build: out of memory\n");
    free(vfree), free(t);
    cs_scene_free(&s);
    return 1;
  }
  memcpy(vfree, d->qvel, sizeof(double) * (size_t)m->nv);
  double* tb = t;
  double* tc = t + repeats;
  /* warm-up of both, then alternate batches */
  for (long k = 0; k < batch; k++) cs_contact_problem_build(m, d, vfree);
  for (long r = 0; r < repeats; r++) {
    double t0 = cs_cli_now_ns();
    for (long k = 0; k < batch; k++) cs_contact_problem_build(m, d, vfree);
    double t1 = cs_cli_now_ns();
    tb[r] = (t1 - t0) / (double)batch * 1e-3;
    t0 = cs_cli_now_ns();
    for (long k = 0; k < batch; k++) {
      cs_geom_poses(m, d);
      cs_collide(m, d);
    }
    t1 = cs_cli_now_ns();
    tc[r] = (t1 - t0) / (double)batch * 1e-3;
  }
  int ncon = d->ncon;
  double build_us = cs_cli_median(tb, repeats); /* sorts tb */
  double build_min = tb[0];
  double coll_us = cs_cli_median(tc, repeats);
  if (json) {
    printf("{\"bench\":\"build\",\"task\":");
    cs_cli_json_str(stdout, task);
    printf(",\"nv\":%d,\"ncon\":%d,\"step\":%ld,\"repeats\":%ld,\"batch\":%ld", m->nv, ncon, step,
           repeats, batch);
    cs_cli_json_num(stdout, "build_us", build_us);
    cs_cli_json_num(stdout, "build_us_min", build_min);
    cs_cli_json_num(stdout, "collision_us", coll_us);
    printf("}\n");
  } else {
    printf(
        "%-6s nv %d  contacts %d (step %ld)  build %.3f us (min %.3f)  "
        "collision %.3f us\n",
        task, m->nv, ncon, step, build_us, build_min, coll_us);
  }
  free(vfree);
  free(t);
  cs_scene_free(&s);
  return 0;
}

int cs_bench_build_main(int argc, char** argv) {
  const char* task = "all";
  long repeats = DEFAULT_REPEATS, batch = DEFAULT_BATCH;
  int json = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--task") && i + 1 < argc) {
      task = argv[++i];
      if (strcmp(task, "drop") && strcmp(task, "hang") && strcmp(task, "all")) {
        fprintf(stderr, "bench build: --task must be drop, hang or all\n");
        return 2;
      }
    } else if (!strcmp(a, "--repeats") && i + 1 < argc) {
      if (!cs_cli_parse_long(argv[++i], 1, 1000000, &repeats)) {
        fprintf(stderr, "bench build: --repeats must be an integer in [1, 1e6]\n");
        return 2;
      }
    } else if (!strcmp(a, "--batch") && i + 1 < argc) {
      if (!cs_cli_parse_long(argv[++i], 1, 100000000, &batch)) {
        fprintf(stderr, "bench build: --batch must be an integer in [1, 1e8]\n");
        return 2;
      }
    } else {
      fprintf(stderr, "bench build: unknown or incomplete option '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  int rc = 0;
  if (!strcmp(task, "drop") || !strcmp(task, "all")) rc = run_task("drop", 8, repeats, batch, json);
  if (!rc && (!strcmp(task, "hang") || !strcmp(task, "all")))
    rc = run_task("hang", 4, repeats, batch, json);
  return rc;
}
