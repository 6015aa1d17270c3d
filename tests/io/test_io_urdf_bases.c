/* Every shared URDF on a fixed base.

   Fixed base (the root link welded to the world, a static body of the robot's tree): with
   zero controls under gravity from qpos0 clamped into the joint ranges, finite for T_FIXED
   seconds, the joints within their limits (1e-2 rad or m),
   and the total energy never above its start (no gain: the robot's own geoms do not
   collide with its welded base). From qpos0 itself, for the files with a joint outside its
   range there (Panda's joint 4, the Allegro thumbs, two Talos arm joints): the bounded
   recovery (csOption.recovery_speed, as loaded) brings them in with an energy rise of at
   most twice the potential energy of moving them into range plus sum M_ii v^2 / 2 over the
   crossed dofs (each at the recovery speed v; twice: the lift is taken with the other joints
   at qpos0, while they fall during the recovery and change the torque it works against);
   the plain Baumgarte rule is printed beside it. The floating bases over a floor, and the
   compass gait's refusal, are tests/io/test_io_conformance.c's. Skipped when ../shared is
   absent. */
#include <math.h>
#include <stdio.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

#define T_FIXED 5.0 /* s simulated on a fixed base */

typedef struct {
  const char* rel;
  int balance; /* the Allegro hands' inertias need balance_inertia */
} Robot;

static const Robot robots[] = {
    {"models/anymal_b/robots/anymal.urdf", 0},
    {"models/anymal_c/urdf/anymal.urdf", 0},
    {"models/solo12/robots/solo12.urdf", 0},
    {"models/bolt/robots/bolt.urdf", 0},
    {"models/panda/urdf/panda.urdf", 0},
    {"models/panda/urdf/panda_collision.urdf", 0},
    {"models/talos/robots/talos_reduced.urdf", 0},
    {"models/talos/robots/talos_reduced_box.urdf", 0},
    {"models/talos/robots/talos_full_v2.urdf", 0},
    {"models/talos/robots/talos_full_v2_box.urdf", 0},
    {"models/allegro_hand/urdf/allegro_left_hand.urdf", 1},
    {"models/allegro_hand/urdf/allegro_right_hand.urdf", 1},
};

static csStatus load_into(csBuilder* b, const char* path, int floating, int balance) {
  csLoadOptions o;
  cs_load_options_default(&o);
  o.floating_base = floating;
  o.balance_inertia = balance;
  cs_builder_set_source(b, path);
  cs_builder_set_balance_inertia(b, balance);
  return cs_load_urdf(b, path, &o);
}

static int all_finite(const double* x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

/* Total mechanical energy of the state in d: the stages cs_energy reads are computed first
   (a new csData holds none, and after a step they hold the step's start) */
static double total_energy(const csModel* m, csData* d) {
  cs_kinematics(m, d);
  cs_com_pos(m, d);
  cs_com_vel(m, d);
  cs_energy(m, d);
  return d->energy[0] + d->energy[1];
}

/* Worst excursion of a limited joint beyond its range (rad or m), 0 when all are inside */
static double limit_excess(const csModel* m, const csData* d) {
  double worst = 0;
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_limited[j] || m->jnt_type[j] == CS_JNT_BALL) continue;
    double q = d->qpos[m->jnt_qposadr[j]];
    worst = fmax(worst, fmax(m->jnt_range[2 * j] - q, q - m->jnt_range[2 * j + 1]));
  }
  return worst;
}

/* qpos clamped into the joint ranges; the number of joints it moved */
static int clamp_to_ranges(const csModel* m, double* qpos) {
  int n = 0;
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_limited[j] || m->jnt_type[j] == CS_JNT_BALL || m->jnt_type[j] == CS_JNT_FREE)
      continue;
    double* q = qpos + m->jnt_qposadr[j];
    double c = fmin(fmax(*q, m->jnt_range[2 * j]), m->jnt_range[2 * j + 1]);
    n += c != *q;
    *q = c;
  }
  return n;
}

/* The largest energy rise over T_FIXED s from qpos0 (outside a range) */
static double rise_from_qpos0(const csModel* m, csData* d) {
  double e0 = total_energy(m, d), emax = e0;
  int n = (int)lround(T_FIXED / m->opt.timestep);
  for (int k = 0; k < n && cs_step(m, d) == CS_OK; k++) emax = fmax(emax, total_energy(m, d));
  return emax - e0;
}

/* From qpos0 with joints outside their ranges: the energy rise of the bounded recovery within
   twice the potential energy of moving them into range (the others at qpos0) plus
   sum M_ii v^2 / 2 over the crossed dofs (the recovery moves each at most at v,
   csOption.recovery_speed) */
static void outside_start(const Robot* r, csModel* m, csData* d) {
  double v = m->opt.recovery_speed;
  cs_data_reset(m, d);
  double e0 = total_energy(m, d), ei[64] = {0}, y[64];
  if (m->nv > 64) return;
  cs_crba(m, d);
  double kin = 0;
  for (int j = 0; j < m->njnt; j++) {
    int i = m->jnt_dofadr[j];
    double q = d->qpos[m->jnt_qposadr[j]];
    if (!m->jnt_limited[j] || m->jnt_type[j] == CS_JNT_BALL || m->jnt_type[j] == CS_JNT_FREE ||
        (q >= m->jnt_range[2 * j] && q <= m->jnt_range[2 * j + 1]))
      continue;
    ei[i] = 1;
    cs_mul_m(m, d, y, ei);
    ei[i] = 0;
    kin += 0.5 * y[i] * v * v;
  }
  if (clamp_to_ranges(m, d->qpos) == 0) return;
  double lift = fmax(0, total_energy(m, d) - e0);
  double tol = 2 * (lift + kin) + 1e-6 * fmax(1, fabs(e0));
  cs_data_reset(m, d);
  double rise = rise_from_qpos0(m, d);
  m->opt.recovery_speed = 0;
  cs_data_reset(m, d);
  double rise0 = rise_from_qpos0(m, d);
  m->opt.recovery_speed = v;
  CHECK_MSG(rise <= tol, "%s fixed, from qpos0: energy rose %.4g J, bound %.4g J", r->rel, rise,
            tol);
  printf(
      "%-48s fixed    from qpos0 (outside a range): energy rise %.3e J (bound %.3e J: lift "
      "%.3e, sum M_ii v^2/2 %.3e); unbounded Baumgarte %.3e J\n",
      r->rel, rise, tol, lift, kin, rise0);
}

static void fixed_base(const Robot* r, const char* path) {
  csBuilder* b = cs_builder_new();
  csModel* m = NULL;
  csStatus st = load_into(b, path, 0, r->balance);
  if (st == CS_OK) st = cs_compile(b, &m);
  cs_builder_free(b);
  CHECK_MSG(st == CS_OK, "%s fixed: %s", r->rel, cs_last_error());
  if (st != CS_OK) return;
  csData* d = cs_data_new(m);
  CHECK(d != NULL);
  if (!d) {
    cs_model_free(m);
    return;
  }
  /* start at qpos0 clamped into the joint ranges (Panda's joint 4 and the Allegro thumbs
     have 0 outside theirs) */
  clamp_to_ranges(m, d->qpos);
  double e0 = total_energy(m, d), emax = e0, excess = 0;
  int n = (int)lround(T_FIXED / m->opt.timestep), k = 0, bad = 0;
  for (; k < n && !bad; k++) {
    bad = cs_step(m, d) != CS_OK || !all_finite(d->qpos, m->nq) || !all_finite(d->qvel, m->nv);
    excess = fmax(excess, limit_excess(m, d));
    if (k % 100 == 0) emax = fmax(emax, total_energy(m, d));
  }
  double e1 = total_energy(m, d), scale = fmax(1, fabs(e0));
  CHECK_MSG(!bad, "%s fixed: not finite (or step failed) at step %d", r->rel, k);
  CHECK_MSG(excess < 1e-2, "%s fixed: a joint %.3g beyond its limit", r->rel, excess);
  CHECK_MSG(emax - e0 < 1e-3 * scale, "%s fixed: energy rose by %.3g J (start %.6g J)", r->rel,
            emax - e0, e0);
  printf(
      "%-48s fixed    nv %2d, %.1f s: finite, limit excess %.2e, energy %+.3e J (max %+.3e), "
      "kinetic at end %.3e J, %d contacts\n",
      r->rel, m->nv, k * m->opt.timestep, excess, e1 - e0, emax - e0, d->energy[1], d->ncon);
  outside_start(r, m, d);
  cs_data_free(d);
  cs_model_free(m);
}

int main(void) {
  int ran = 0;
  for (size_t i = 0; i < sizeof robots / sizeof robots[0]; i++) {
    const char* p = cs_test_shared(robots[i].rel);
    if (!p) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s", p);
    ran++;
    fixed_base(robots + i, path);
  }
  if (!ran) {
    printf("test_io_urdf_bases: ../shared/models absent, skipped\n");
    return CS_SKIP_CODE;
  }
  return cs_test_finish("test_io_urdf_bases");
}
