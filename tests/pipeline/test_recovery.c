/* Bounded recovery (csOption.recovery_speed, docs/physics.md "Starting in penetration") on
   files written by the test:
   - a loaded file gets CS_RECOVERY_SPEED_FILE, a builder's model 0; MJCF
     <custom><numeric name="contactsim_recovery_speed"> sets it, a bad value is an error
     naming the file and the attribute;
   - a free sphere 10 mm into a plane (no gravity, frictionless): after one step it moves
     out at exactly the bound (to the solver's tolerance), with the bound off at
     baumgarte x depth / dt (2 m/s);
   - a hinge 0.1 rad past its bound: turned back at the bound (rad/s), 20 rad/s without;
   - a free body 10 mm from its <connect> point: pulled back at the bound (the norm). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

static char tmpdir[64];

static csModel* load_text(const char* name, const char* text) {
  const char* path = cs_test_write_file(tmpdir, name, text);
  csModel* m = NULL;
  CHECK_MSG(path && cs_load_model(path, NULL, &m) == CS_OK, "%s: %s", name, cs_last_error());
  return m;
}

#define SPHERE(extra)                                                                         \
  "<mujoco><option gravity=\"0 0 0\" timestep=\"0.001\"/>" extra                                                 \
  "<worldbody><geom type=\"plane\" size=\"1 1 1\" friction=\"0 0 0\"/>"                       \
  "<body pos=\"0 0 0.09\"><freejoint/><geom type=\"sphere\" size=\"0.1\" friction=\"0 0 0\" " \
  "mass=\"1\"/></body></worldbody></mujoco>\n"

/* The sphere's vertical velocity after one step */
static double sphere_push(csModel* m) {
  csData* d = cs_data_new(m);
  CHECK(d && cs_step(m, d) == CS_OK);
  double vz = d ? d->qvel[2] : NAN;
  cs_data_free(d);
  return vz;
}

static void options(void) {
  csModel* m = load_text("sphere.xml", SPHERE(""));
  if (!m) return;
  CHECK(m->opt.recovery_speed == CS_RECOVERY_SPEED_FILE);
  double vz = sphere_push(m);
  CHECK_NEAR(vz, CS_RECOVERY_SPEED_FILE, 1e-6);
  m->opt.recovery_speed = 0;
  double vz0 = sphere_push(m);
  CHECK_NEAR(vz0, 0.2 * 0.01 / 1e-3, 1e-6);
  printf("sphere 10 mm in a plane, one step: %.9f m/s (bound %.2f), plain Baumgarte %.9f m/s\n", vz,
         CS_RECOVERY_SPEED_FILE, vz0);
  cs_model_free(m);
  m = load_text("sphere_custom.xml",
                SPHERE("<custom><numeric name=\"other\" data=\"1 2\"/>"
                       "<numeric name=\"contactsim_recovery_speed\" data=\"0.05\"/></custom>"));
  if (m) {
    CHECK(m->opt.recovery_speed == 0.05);
    CHECK_NEAR(sphere_push(m), 0.05, 1e-6);
    cs_model_free(m);
  }
  const char* bad = cs_test_write_file(
      tmpdir, "bad.xml",
      SPHERE("<custom><numeric name=\"contactsim_recovery_speed\" data=\"-1\"/></custom>"));
  csStatus st = cs_load_model(bad, NULL, &m);
  CHECK_MSG(st == CS_ERR_MODEL && strstr(cs_last_error(), "bad.xml") &&
                strstr(cs_last_error(), "contactsim_recovery_speed"),
            "%s", cs_last_error());
  csBuilder* b = cs_builder_new();
  CHECK(b && cs_builder_option(b)->recovery_speed == 0);
  cs_builder_free(b);
}

static void hinge(void) {
  csModel* m = load_text("hinge.xml",
                         "<mujoco><option gravity=\"0 0 0\" timestep=\"0.001\"/><compiler angle=\"radian\"/>"
                         "<worldbody><body><joint type=\"hinge\" range=\"0.1 1\" limited=\"true\"/>"
                         "<geom type=\"capsule\" fromto=\"0 0 0 1 0 0\" size=\"0.05\" "
                         "mass=\"1\" contype=\"0\" conaffinity=\"0\"/></body></worldbody>"
                         "</mujoco>\n");
  if (!m) return;
  csData* d = cs_data_new(m);
  CHECK(d && cs_step(m, d) == CS_OK);
  if (d) CHECK_NEAR(d->qvel[0], CS_RECOVERY_SPEED_FILE, 1e-6);
  m->opt.recovery_speed = 0;
  cs_data_reset(m, d);
  CHECK(d && cs_step(m, d) == CS_OK);
  if (d) CHECK_NEAR(d->qvel[0], 0.2 * 0.1 / 1e-3, 1e-6);
  cs_data_free(d);
  cs_model_free(m);
}

static void connect(void) {
  csModel* m = load_text("connect.xml",
                         "<mujoco><option gravity=\"0 0 0\" timestep=\"0.001\"/><worldbody>"
                         "<body name=\"b\" pos=\"0 0 1\"><freejoint/><geom type=\"sphere\" "
                         "size=\"0.1\" mass=\"1\" contype=\"0\" conaffinity=\"0\"/></body>"
                         "</worldbody><equality><connect body1=\"b\" anchor=\"0 0 0\"/>"
                         "</equality></mujoco>\n");
  if (!m) return;
  csData* d = cs_data_new(m);
  if (!d) {
    cs_model_free(m);
    return;
  }
  d->qpos[0] = 0.006, d->qpos[1] = 0.008; /* 10 mm from the held point */
  CHECK(cs_step(m, d) == CS_OK);
  CHECK_NEAR(hypot(d->qvel[0], d->qvel[1]), CS_RECOVERY_SPEED_FILE, 1e-6);
  CHECK_NEAR(d->qvel[0] * 0.008 - d->qvel[1] * 0.006, 0, 1e-9); /* back along the error */
  CHECK(d->qvel[0] < 0);
  cs_data_free(d);
  cs_model_free(m);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cs_test_recovery_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    printf("test_recovery: no temporary directory\n");
    return 1;
  }
  options();
  hinge();
  connect();
  return cs_test_finish("test_recovery");
}
