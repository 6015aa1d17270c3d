/* Bounded recovery from a penetrating start (csOption.recovery_speed, docs/physics.md
   "Starting in penetration"), side by side with MuJoCo 2.2.2 on the same files.

   1. The shared ANYmal C scene (its feet start 10.5 mm in the floor), zero controls, each
      simulator at the file's own settings: contactsim's base peaks within 1 cm of MuJoCo's,
      and its total mechanical energy never exceeds the start's by more than M g d0 + M v^2 / 2
      (M the total mass, d0 the deepest initial penetration, v the recovery speed): a hard
      contact must lift the robot's weight out of the floor by d0 (MuJoCo's soft contact holds
      that energy as the contact's deformation at the start, which neither counts), and the
      push-out gives it at most about v. The same run with recovery_speed 0 (the plain
      Baumgarte rule) must break the peak bound, so the check can fail.
   2. Every MJCF file in ../shared/models/NAME/mjcf/ that both simulators load and that has a
      plane: each free body's height after T_REST s with zero controls, plus the deepest
      penetration of the contacts on its tree, within 5 mm of MuJoCo's (MuJoCo's soft
      contacts rest in the floor by up to 17.7 mm on the ANYmal's feet, whose solimp makes
      them soft; contactsim's hard ones rest at the surface). The raw heights and the part of
      their difference that MuJoCo's penetration (its contacts' dist) explains are printed.
   Skipped when ../shared is absent. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

#define T_PEAK 1.0     /* s: the ANYmal run of part 1 */
#define T_REST 3.0     /* s: settling before the rest heights */
#define PEAK_TOL 0.01  /* m */
#define REST_TOL 0.005 /* m */

static double total_mass(const csModel* m) {
  double s = 0;
  for (int b = 0; b < m->nbody; b++) s += m->body_mass[b];
  return s;
}

/* Total mechanical energy of the state in d (the stages it needs recomputed: after a step
   they hold the step's start) */
static double energy(const csModel* m, csData* d) {
  cs_kinematics(m, d);
  cs_com_pos(m, d);
  cs_com_vel(m, d);
  cs_energy(m, d);
  return d->energy[0] + d->energy[1];
}

/* qpos address of the free joint of body b, or -1 */
static int cs_free_adr(const csModel* m, int b) {
  int j = m->body_jntadr[b];
  return j >= 0 && m->body_jntnum[b] == 1 && m->jnt_type[j] == CS_JNT_FREE ? m->jnt_qposadr[j] : -1;
}

static int mj_free_adr(const mjModel* mm, int b) {
  int j = mm->body_jntadr[b];
  return j >= 0 && mm->body_jntnum[b] == 1 && mm->jnt_type[j] == mjJNT_FREE ? mm->jnt_qposadr[j]
                                                                            : -1;
}

/* Deepest contact penetration (m, >= 0) of MuJoCo's contacts on body b's tree */
static double mj_depth(const mjModel* mm, const mjData* md, int b) {
  double depth = 0;
  for (int i = 0; i < md->ncon; i++) {
    const mjContact* c = md->contact + i;
    int r1 = mm->body_rootid[mm->geom_bodyid[c->geom1]];
    int r2 = mm->body_rootid[mm->geom_bodyid[c->geom2]];
    if (r1 == b || r2 == b) depth = fmax(depth, -c->dist);
  }
  return depth;
}

static double cs_depth(const csData* d) {
  double depth = 0;
  for (int i = 0; i < d->ncon; i++) depth = fmax(depth, -d->contact[i].dist);
  return depth;
}

/* contactsim's base peak and worst energy rise over T_PEAK s (zero controls) */
static void anymal_run(const csModel* m, double* peak, double* rise, double* d0) {
  csData* d = cs_data_new(m);
  if (!d) return;
  int base = cs_name2id(m, "body", "base"), adr = cs_free_adr(m, base);
  double e0 = energy(m, d);
  *peak = d->qpos[adr + 2], *rise = -INFINITY, *d0 = -1;
  int n = (int)lround(T_PEAK / m->opt.timestep);
  for (int k = 0; k < n; k++) {
    CHECK(cs_step(m, d) == CS_OK);
    if (*d0 < 0) *d0 = cs_depth(d);
    *peak = fmax(*peak, d->qpos[adr + 2]);
    *rise = fmax(*rise, energy(m, d) - e0);
  }
  cs_data_free(d);
}

static void anymal_peak(const char* file) {
  char err[512] = "";
  mjModel* mm = mj_loadXML(file, NULL, err, sizeof err);
  CHECK_MSG(mm != NULL, "MuJoCo: %s: %s", file, err);
  csModel* m = NULL;
  CHECK_MSG(cs_load_model(file, NULL, &m) == CS_OK, "%s", cs_last_error());
  if (!mm || !m) {
    if (mm) mj_deleteModel(mm);
    cs_model_free(m);
    return;
  }
  mjData* md = mj_makeData(mm);
  int mb = mj_name2id(mm, mjOBJ_BODY, "base"), madr = mj_free_adr(mm, mb);
  double mpeak = md->qpos[madr + 2], z0 = mpeak;
  for (int k = 0; k < (int)lround(T_PEAK / mm->opt.timestep); k++) {
    mj_step(mm, md);
    mpeak = fmax(mpeak, md->qpos[madr + 2]);
  }
  double v = m->opt.recovery_speed, peak = NAN, rise = NAN, d0 = NAN;
  anymal_run(m, &peak, &rise, &d0);
  double M = total_mass(m), g = fabs(m->opt.gravity[2]), tol = M * g * d0 + 0.5 * M * v * v;
  m->opt.recovery_speed = 0;
  double peak0 = NAN, rise0 = NAN, d00 = NAN;
  anymal_run(m, &peak0, &rise0, &d00);
  printf(
      "anymal_c scene from z %.4f m, feet %.2f mm in the floor, %.1f s, zero controls:\n"
      "  base peak: contactsim (recovery_speed %g m/s, dt %g) %.4f m, MuJoCo 2.2.2 (dt %g) "
      "%.4f m, difference %+.2f mm; unbounded Baumgarte %.4f m\n"
      "  energy rise: %.3f J (bound M g d0 + M v^2/2 = %.3f J, M %.3f kg); unbounded %.3f J\n",
      z0, 1e3 * d0, T_PEAK, v, m->opt.timestep, peak, mm->opt.timestep, mpeak, 1e3 * (peak - mpeak),
      peak0, rise, tol, M, rise0);
  CHECK_MSG(fabs(peak - mpeak) <= PEAK_TOL, "peak %.4f m, MuJoCo %.4f m", peak, mpeak);
  CHECK_MSG(rise <= tol, "energy rose %.4g J, bound %.4g J", rise, tol);
  CHECK_MSG(fabs(peak0 - mpeak) > PEAK_TOL, "unbounded peak %.4f m", peak0);
  mj_deleteData(md);
  mj_deleteModel(mm);
  cs_model_free(m);
}

static int has_plane(const csModel* m) {
  for (int g = 0; g < m->ngeom; g++)
    if (m->geom_type[g] == CS_GEOM_PLANE) return 1;
  return 0;
}

/* Every free body's height after T_REST s in both simulators; returns the bodies compared */
static int rest_heights(const char* file) {
  char err[512] = "";
  csModel* m = NULL;
  if (cs_load_model(file, NULL, &m) != CS_OK || !has_plane(m)) {
    cs_model_free(m);
    return 0;
  }
  mjModel* mm = mj_loadXML(file, NULL, err, sizeof err);
  if (!mm) {
    cs_model_free(m);
    return 0;
  }
  mjData* md = mj_makeData(mm);
  csData* d = cs_data_new(m);
  CHECK(d != NULL);
  for (int k = 0; d && k < (int)lround(T_REST / m->opt.timestep); k++)
    CHECK(cs_step(m, d) == CS_OK);
  for (int k = 0; k < (int)lround(T_REST / mm->opt.timestep); k++) mj_step(mm, md);
  int n = 0;
  for (int b = 1; d && b < m->nbody; b++) {
    int adr = cs_free_adr(m, b);
    const char* name = cs_id2name(m, "body", b);
    int mb = name ? mj_name2id(mm, mjOBJ_BODY, name) : -1;
    if (adr < 0 || mb < 0 || mj_free_adr(mm, mb) < 0) continue;
    double z = d->qpos[adr + 2], mz = md->qpos[mj_free_adr(mm, mb) + 2];
    double depth = mj_depth(mm, md, mb);
    printf(
        "  %s, body %s after %.0f s: contactsim %.5f m (deepest contact %.3f mm), MuJoCo %.5f m "
        "(deepest contact %.3f mm), difference %+.3f mm, of which MuJoCo's penetration explains "
        "%.3f mm\n",
        file, name, T_REST, z, 1e3 * cs_depth(d), mz, 1e3 * depth, 1e3 * (z - mz),
        1e3 * (depth - cs_depth(d)));
    CHECK_MSG(fabs(z + cs_depth(d) - (mz + depth)) <= REST_TOL,
              "%s %s: %.5f m, MuJoCo %.5f m + its penetration %.5f m", file, name, z, mz, depth);
    n++;
  }
  cs_data_free(d);
  mj_deleteData(md);
  mj_deleteModel(mm);
  cs_model_free(m);
  return n;
}

/* rest_heights on every NAME/mjcf/ *.xml under dir; the number of bodies compared */
static int rest_all(const char* dir) {
  DIR* top = opendir(dir);
  int n = 0;
  if (!top) return 0;
  for (struct dirent* e; (e = readdir(top)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    char sub[2048];
    snprintf(sub, sizeof sub, "%s/%s/mjcf", dir, e->d_name);
    DIR* md = opendir(sub);
    if (!md) continue;
    for (struct dirent* f; (f = readdir(md)) != NULL;) {
      size_t l = strlen(f->d_name);
      if (l < 4 || strcmp(f->d_name + l - 4, ".xml") != 0) continue;
      char file[4096];
      snprintf(file, sizeof file, "%s/%s", sub, f->d_name);
      n += rest_heights(file);
    }
    closedir(md);
  }
  closedir(top);
  return n;
}

int main(void) {
  const char* scene = cs_test_shared("models/anymal_c/mjcf/scene_collision_only.xml");
  if (!scene) {
    printf("test_mujoco_recovery: ../shared/models absent, skipped\n");
    return CS_SKIP_CODE;
  }
  char file[4096];
  snprintf(file, sizeof file, "%s", scene);
  cs_set_log(NULL);
  anymal_peak(file);
  printf("rest heights, zero controls:\n");
  int n = rest_all(cs_test_shared("models"));
  CHECK_MSG(n >= 2, "free bodies compared: %d", n);
  return cs_test_finish("test_mujoco_recovery");
}
