/* Cross-check of contactsim's dynamics and loaders against MuJoCo 2.2.2 loaded from the same
   files (Debian libmujoco-dev).
   a. Joint-space inertia M (MuJoCo: mj_crb + mj_fullM) and bias forces h without damping
      (MuJoCo: mj_rne(flg_acc = 0) after mj_comVel) at 100 random states, relative error
      (max |ours - theirs| / max |theirs|) <= 1e-9, for
        - ANYmal C MJCF (floating base) and the Allegro hand MJCF (fixed palm + free cube);
        - ANYmal C URDF and Solo-12 URDF with a fixed base (MuJoCo fixes URDF roots).
      MuJoCo reads a temporary copy of each URDF (bench/cs_mujoco_urdf.c, shared with
      `contactsim bench dynamics`) with a <mujoco><compiler .../></mujoco> block
      and collision-mesh paths resolved to absolute STL paths (collision elements with meshes
      it cannot read, e.g. .dae, are dropped: geometry does not enter M or h). MuJoCo 2.2.2
      diagonalises full inertia tensors with mju_eig3, which stops early (relative errors up
      to ~1e-7 on ANYmal's links, ~1e-7 in M); so the checked copy has fusestatic="false"
      and states every non-diagonal tensor in its principal axes, computed to machine
      precision (the same tensor, read by MuJoCo without loss). MuJoCo's default import
      (fusestatic, tensors as written) is compared too, for information only.
      ANYmal C's URDF has a static link (depth_camera_front_camera) whose own inertia
      violates the triangle inequality; MuJoCo refuses it unless balanceinertia="true",
      which is harmless here because that link is welded to the fixed base.
   b. 1 s of contact-free ANYmal C (MJCF) under gravity from q_nom with the base at 1 m, with
      damping, friction loss, limits and actuators off on both sides, Euler, dt = 1 ms: qpos
      and qvel agree to 1e-6 (absolute, or relative to max(1, |x|)) at every step; at rest,
      with a forward velocity and yaw rate of the base, and with random joint velocities.
   The dof order must be MuJoCo's (joint names compared per dof); the test fails loudly
   otherwise. Worst errors are printed per model. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_mujoco_joint.h"
#include "cs_mujoco_urdf.h"
#include "cs_test.h"
#include "cs_test_models.h"

#define NSTATES 100
#define TOL_MH 1e-9
#define TOL_TRAJ 1e-6

/* ------------------------------------------------------------------ small helpers */
static const char* nz(const char* s) { return s ? s : ""; }

/* MuJoCo model of a URDF (fixed root). A link whose own inertia violates the triangle
   inequality makes MuJoCo refuse the file with balanceinertia="false"; then the file is
   loaded with balanceinertia="true" and a note is printed: if that link is static (fused
   into the world with the fixed base), M and h are unaffected, which the comparison checks. */
static mjModel* mujoco_load_urdf(const char* urdf, const char* root, int principal) {
  for (int balance = 0; balance < 2; balance++) {
    char tmp[64], why[512];
    csBenchMujocoUrdfInfo info;
    int flags = (balance ? CS_MJURDF_BALANCE_INERTIA : 0) | (principal ? CS_MJURDF_PRINCIPAL : 0);
    if (!cs_bench_mujoco_urdf_write(urdf, root, flags, tmp, sizeof tmp, &info, why, sizeof why)) {
      fprintf(stderr, "%s\n", why);
      return NULL;
    }
    char err[1000] = "";
    mjModel* mm = mj_loadXML(tmp, NULL, err, sizeof err);
    unlink(tmp);
    if (mm) {
      if (principal)
        printf("  (MuJoCo copy of %s: %d inertia tensors stated in principal axes)\n", urdf,
               info.nprincipal);
      if (info.ndropped)
        printf(
            "  (MuJoCo copy of %s: %d collision elements with non-STL or missing meshes "
            "dropped)\n",
            urdf, info.ndropped);
      if (err[0]) printf("  MuJoCo warning: %s\n", err);
      return mm;
    }
    if (!balance && strstr(err, "balanceinertia")) {
      for (char* c = err; *c; c++)
        if (*c == '\n') *c = ' ';
      if (principal)
        printf(
            "  NOTE: MuJoCo refuses %s with balanceinertia=false (%s); retrying with "
            "balanceinertia=true\n",
            urdf, err);
      continue;
    }
    fprintf(stderr, "MuJoCo cannot load %s: %s\n", urdf, err);
    return NULL;
  }
  return NULL;
}

static mjModel* mujoco_load_xml(const char* path) {
  char err[1000] = "";
  mjModel* mm = mj_loadXML(path, NULL, err, sizeof err);
  if (!mm)
    fprintf(stderr, "MuJoCo cannot load %s: %s\n", path, err);
  else if (err[0])
    printf("  MuJoCo warning: %s\n", err);
  return mm;
}

/* ------------------------------------------------------------------ structure checks */
/* Same nq, nv, joints per dof (by name and type) and qpos layout. Returns 1 if usable. */
static int check_layout(const csModel* m, const mjModel* mm, const char* label) {
  int ok = 1;
  if (m->nq != mm->nq || m->nv != mm->nv || m->njnt != mm->njnt) {
    fprintf(stderr, "%s: SIZE MISMATCH: ours nq %d nv %d njnt %d, MuJoCo nq %d nv %d njnt %d\n",
            label, m->nq, m->nv, m->njnt, mm->nq, mm->nv, mm->njnt);
    CHECK_MSG(0, "%s: sizes differ from MuJoCo's", label);
    return 0;
  }
  for (int i = 0; i < m->nv; i++) {
    int j = m->dof_jnt[i], jm = mm->dof_jntid[i];
    const char* a = nz(cs_id2name(m, "joint", j));
    const char* b = nz(mj_id2name(mm, mjOBJ_JOINT, jm));
    if (strcmp(a, b) != 0 || cs_bench_mj_joint_type(m->jnt_type[j]) != mm->jnt_type[jm] ||
        m->jnt_qposadr[j] != mm->jnt_qposadr[jm] || m->jnt_dofadr[j] != mm->jnt_dofadr[jm]) {
      fprintf(stderr,
              "%s: DOF ORDER MISMATCH at dof %d: ours joint '%s' (type %d, qposadr %d), "
              "MuJoCo joint '%s' (type %d, qposadr %d)\n",
              label, i, a, m->jnt_type[j], m->jnt_qposadr[j], b, mm->jnt_type[jm],
              mm->jnt_qposadr[jm]);
      ok = 0;
    }
  }
  CHECK_MSG(ok, "%s: dof order differs from MuJoCo's (see above)", label);
  return ok;
}

/* Mass of the moving bodies (subtrees attached through at least one dof). */
static double moving_mass(const csModel* m) {
  double s = 0;
  for (int b = 1; b < m->nbody; b++)
    if (m->body_lastdof[b] >= 0) s += m->body_mass[b];
  return s;
}

static double mj_moving_mass(const mjModel* mm) {
  double s = 0;
  for (int b = 1; b < mm->nbody; b++)
    if (mm->body_weldid[b] != 0) s += mm->body_mass[b];
  return s;
}

/* ------------------------------------------------------------------ a. M and h */
typedef struct {
  const char* label;
  double err_M, err_h, mass_ours, mass_mj;
  int ran;
} MhResult;

/* check = 0: informational run (no CHECKs, no per-state messages). */
static void compare_mh(const csModel* m, const mjModel* mm, MhResult* r, int check) {
  int nv = m->nv;
  r->ran = 1;
  r->mass_ours = moving_mass(m);
  r->mass_mj = mj_moving_mass(mm);
  if (check)
    CHECK_MSG(fabs(r->mass_ours - r->mass_mj) <= 1e-12 * fmax(1, r->mass_mj),
              "%s: moving mass ours %.15g, MuJoCo %.15g", r->label, r->mass_ours, r->mass_mj);
  csData* d = cs_data_new(m);
  mjData* md = mj_makeData(mm);
  double* M = malloc(sizeof(double) * (size_t)(nv * nv));
  double* Mmj = malloc(sizeof(double) * (size_t)(nv * nv));
  double* h = malloc(sizeof(double) * (size_t)nv);
  r->err_M = r->err_h = 0;
  int worst_state_M = -1, worst_state_h = -1, nreported = 0;
  cs_test_seed(20240 + (unsigned long long)nv); /* the same states for both MuJoCo copies */
  for (int s = 0; s < NSTATES; s++) {
    cs_test_random_state(m, d, 1.0);
    memcpy(md->qpos, d->qpos, sizeof(double) * (size_t)m->nq);
    memcpy(md->qvel, d->qvel, sizeof(double) * (size_t)nv);
    /* ours */
    cs_kinematics(m, d);
    cs_com_pos(m, d);
    cs_crba(m, d);
    cs_com_vel(m, d);
    cs_rnea(m, d, NULL, CS_RNE_GRAVITY | CS_RNE_VELOCITY, h);
    cs_test_dense_m(m, d, M);
    /* MuJoCo */
    mj_kinematics(mm, md);
    mj_comPos(mm, md);
    mj_crb(mm, md);
    mj_fullM(mm, Mmj, md->qM);
    mj_comVel(mm, md);
    mj_rne(mm, md, 0, md->qfrc_bias);
    double eM = cs_test_relerr(M, Mmj, nv * nv, 1e-300);
    double eh = cs_test_relerr(h, md->qfrc_bias, nv, 1e-300);
    if (eM > r->err_M) r->err_M = eM, worst_state_M = s;
    if (eh > r->err_h) r->err_h = eh, worst_state_h = s;
    if (check && (eM > TOL_MH || eh > TOL_MH) && nreported++ < 3) { /* say where */
      double w = 0;
      int wi = 0;
      for (int k = 0; k < nv * nv; k++)
        if (fabs(M[k] - Mmj[k]) > w) w = fabs(M[k] - Mmj[k]), wi = k;
      int wr = wi / nv, wc = wi % nv;
      fprintf(stderr,
              "%s state %d: M rel err %.3e, worst M[%d][%d] (%s, %s) ours %.15g MuJoCo %.15g\n",
              r->label, s, eM, wr, wc, nz(cs_id2name(m, "joint", m->dof_jnt[wr])),
              nz(cs_id2name(m, "joint", m->dof_jnt[wc])), M[wi], Mmj[wi]);
      w = 0, wi = 0;
      for (int k = 0; k < nv; k++)
        if (fabs(h[k] - md->qfrc_bias[k]) > w) w = fabs(h[k] - md->qfrc_bias[k]), wi = k;
      fprintf(stderr, "%s state %d: h rel err %.3e, worst dof %d (%s) ours %.15g MuJoCo %.15g\n",
              r->label, s, eh, wi, nz(cs_id2name(m, "joint", m->dof_jnt[wi])), h[wi],
              md->qfrc_bias[wi]);
    }
  }
  if (check) {
    CHECK_MSG(r->err_M <= TOL_MH, "%s: M relative error %.3e (state %d)", r->label, r->err_M,
              worst_state_M);
    CHECK_MSG(r->err_h <= TOL_MH, "%s: h relative error %.3e (state %d)", r->label, r->err_h,
              worst_state_h);
  }
  free(M), free(Mmj), free(h);
  mj_deleteData(md);
  cs_data_free(d);
}

/* ------------------------------------------------------------------ b. trajectory */
typedef struct {
  const char* label;
  double dq, dv; /* max scaled differences over the run */
  double dq_final, dv_final;
  int first_bad_step;
  int ran;
} TrajResult;

static void set_joint(const csModel* m, double* qpos, const char* name, double v) {
  int j = cs_name2id(m, "joint", name);
  CHECK_MSG(j >= 0, "joint %s missing", name);
  if (j >= 0) qpos[m->jnt_qposadr[j]] = v;
}

/* mode 0: at rest; 1: base 0.5 m/s along the robot's forward axis and 1 rad/s yaw rate;
   2: as 1 plus gaussian joint velocities (1 rad/s). */
static void run_trajectory(const csModel* m0, const mjModel* mm0, int mode, TrajResult* r) {
  r->ran = 1;
  csModel* m = cs_model_copy(m0);
  mjModel* mm = mj_copyModel(NULL, mm0);
  m->opt.timestep = 1e-3;
  m->opt.integrator = CS_INT_EULER;
  m->opt.disable |= CS_DISABLE_DAMPING | CS_DISABLE_ACTUATION | CS_DISABLE_CONTACT |
                    CS_DISABLE_LIMIT | CS_DISABLE_FRICTIONLOSS | CS_DISABLE_EQUALITY;
  mm->opt.timestep = 1e-3;
  mm->opt.integrator = mjINT_EULER;
  mm->opt.disableflags |=
      mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_ACTUATION | mjDSBL_FRICTIONLOSS | mjDSBL_EQUALITY;
  for (int i = 0; i < mm->nv; i++) mm->dof_damping[i] = 0, mm->dof_frictionloss[i] = 0;
  for (int j = 0; j < mm->njnt; j++) mm->jnt_stiffness[j] = 0;
  for (int k = 0; k < 3; k++)
    CHECK_MSG(m->opt.gravity[k] == mm->opt.gravity[k], "gravity[%d] ours %g MuJoCo %g", k,
              m->opt.gravity[k], mm->opt.gravity[k]);

  csData* d = cs_data_new(m);
  mjData* md = mj_makeData(mm);
  cs_data_reset(m, d);
  mj_resetData(mm, md);
  double e0 = cs_test_relerr(m->qpos0, mm->qpos0, m->nq, 1.0);
  CHECK_MSG(e0 <= 1e-12, "%s: qpos0 differs from MuJoCo's by %g", r->label, e0);
  double* q = d->qpos;
  q[2] = 1.0; /* base at 1 m; the file's orientation (yawed 180 deg) is kept */
  static const char* legs[4] = {"LF", "RF", "LH", "RH"};
  for (int l = 0; l < 4; l++) {
    char name[16];
    double s = l < 2 ? 1.0 : -1.0;
    snprintf(name, sizeof name, "%s_HAA", legs[l]);
    set_joint(m, q, name, 0.0);
    snprintf(name, sizeof name, "%s_HFE", legs[l]);
    set_joint(m, q, name, 0.4 * s);
    snprintf(name, sizeof name, "%s_KFE", legs[l]);
    set_joint(m, q, name, -0.8 * s);
  }
  if (mode >= 1) {
    double fwd[3] = {0.5, 0, 0}, vw[3];
    mju_rotVecQuat(vw, fwd, q + 3); /* robot's forward axis in the world */
    d->qvel[0] = vw[0], d->qvel[1] = vw[1], d->qvel[2] = vw[2];
    d->qvel[5] = 1.0; /* body-frame angular velocity about the body z axis (= world z) */
  }
  if (mode == 2) {
    cs_test_seed(99);
    for (int i = 6; i < m->nv; i++) d->qvel[i] = cs_test_gauss();
  }
  memcpy(md->qpos, d->qpos, sizeof(double) * (size_t)m->nq);
  memcpy(md->qvel, d->qvel, sizeof(double) * (size_t)m->nv);
  r->dq = r->dv = 0;
  r->first_bad_step = -1;
  for (int step = 1; step <= 1000; step++) {
    csStatus st = cs_step(m, d);
    mj_step(mm, md);
    if (st != CS_OK) {
      CHECK_MSG(0, "%s: cs_step failed at step %d: %s", r->label, step, cs_last_error());
      break;
    }
    double sq = 0, sv = 0;
    int iq = 0, iv = 0;
    for (int i = 0; i < m->nq; i++) {
      double e = fabs(d->qpos[i] - md->qpos[i]) / fmax(1, fabs(md->qpos[i]));
      if (e > sq) sq = e, iq = i;
    }
    for (int i = 0; i < m->nv; i++) {
      double e = fabs(d->qvel[i] - md->qvel[i]) / fmax(1, fabs(md->qvel[i]));
      if (e > sv) sv = e, iv = i;
    }
    if (sq > r->dq) r->dq = sq;
    if (sv > r->dv) r->dv = sv;
    if ((sq > TOL_TRAJ || sv > TOL_TRAJ) && r->first_bad_step < 0) {
      r->first_bad_step = step;
      fprintf(stderr,
              "%s: first divergence at step %d: qpos[%d] ours %.15g MuJoCo %.15g; "
              "qvel[%d] (%s) ours %.15g MuJoCo %.15g\n",
              r->label, step, iq, d->qpos[iq], md->qpos[iq], iv,
              nz(cs_id2name(m, "joint", m->dof_jnt[iv])), d->qvel[iv], md->qvel[iv]);
    }
    r->dq_final = sq, r->dv_final = sv;
  }
  int nwarn = 0;
  for (int w = 0; w < mjNWARNING; w++) nwarn += md->warning[w].number;
  CHECK_MSG(nwarn == 0, "%s: MuJoCo raised %d warnings", r->label, nwarn);
  CHECK_MSG(md->ncon == 0, "%s: MuJoCo found %d contacts", r->label, md->ncon);
  CHECK_MSG(r->dq <= TOL_TRAJ, "%s: qpos differs by %.3e (first at step %d)", r->label, r->dq,
            r->first_bad_step);
  CHECK_MSG(r->dv <= TOL_TRAJ, "%s: qvel differs by %.3e (first at step %d)", r->label, r->dv,
            r->first_bad_step);
  printf("  %-38s final base z ours %.12f MuJoCo %.12f\n", r->label, d->qpos[2], md->qpos[2]);
  mj_deleteData(md);
  mj_deleteModel(mm);
  cs_data_free(d);
  cs_model_free(m);
}

/* ------------------------------------------------------------------ main */
typedef struct {
  const char* label;
  const char* file; /* under shared/ */
  const char* root; /* URDF: robot folder under shared/ for package:// URIs; NULL for MJCF */
} ModelCase;

int main(void) {
  if (!cs_test_shared("models")) {
    printf("test_mujoco_dynamics: ../shared absent: skipped\n");
    return CS_SKIP_CODE;
  }
  printf("MuJoCo %d\n", mj_version());
  static const ModelCase cases[] = {
      {"anymal_c-mjcf (floating)", "models/anymal_c/mjcf/scene_collision_only.xml", NULL},
      {"allegro-mjcf (palm fixed + cube)",
       "models/allegro_hand/mjcf/scene_right_collision_only.xml", NULL},
      {"anymal_c-urdf (fixed base)", "models/anymal_c/urdf/anymal.urdf", "models/anymal_c"},
      {"solo12-urdf (fixed base)", "models/solo12/robots/solo12.urdf", "models/solo12"},
  };
  enum { NCASE = sizeof cases / sizeof cases[0] };
  MhResult mh[NCASE], raw[NCASE];
  TrajResult tr[3];
  memset(mh, 0, sizeof mh);
  memset(raw, 0, sizeof raw);
  memset(tr, 0, sizeof tr);
  static const char* traj_labels[3] = {"anymal_c-mjcf traj at rest",
                                       "anymal_c-mjcf traj base v+yaw",
                                       "anymal_c-mjcf traj base v+yaw+joints"};
  for (int c = 0; c < NCASE; c++) {
    mh[c].label = raw[c].label = cases[c].label;
    char file[4096], root[4096] = "";
    const char* p = cs_test_shared(cases[c].file);
    CHECK_MSG(p != NULL, "%s missing under shared/", cases[c].file);
    if (!p) continue;
    snprintf(file, sizeof file, "%s", p);
    if (cases[c].root) {
      p = cs_test_shared(cases[c].root);
      CHECK_MSG(p != NULL, "%s missing under shared/", cases[c].root);
      if (!p) continue;
      snprintf(root, sizeof root, "%s", p);
    }
    printf("%s: %s\n", cases[c].label, file);
    csModel* m = cs_test_load_shared(cases[c].file, 0);
    CHECK_MSG(m != NULL, "%s: contactsim cannot load %s", cases[c].label, file);
    if (m && cases[c].root) { /* informational: MuJoCo's default URDF import */
      mjModel* mraw = mujoco_load_urdf(file, root, 0);
      if (mraw && mraw->nv == m->nv && check_layout(m, mraw, cases[c].label))
        compare_mh(m, mraw, &raw[c], 0);
      if (mraw) mj_deleteModel(mraw);
    }
    mjModel* mm = cases[c].root ? mujoco_load_urdf(file, root, 1) : mujoco_load_xml(file);
    CHECK_MSG(mm != NULL, "%s: MuJoCo cannot load %s", cases[c].label, file);
    if (m && mm) {
      printf("  ours: nq %d nv %d nbody %d; MuJoCo: nq %d nv %d nbody %d\n", m->nq, m->nv, m->nbody,
             mm->nq, mm->nv, mm->nbody);
      if (check_layout(m, mm, cases[c].label)) {
        compare_mh(m, mm, &mh[c], 1);
        if (c == 0)
          for (int mode = 0; mode < 3; mode++) {
            tr[mode].label = traj_labels[mode];
            run_trajectory(m, mm, mode, &tr[mode]);
          }
      }
    }
    if (mm) mj_deleteModel(mm);
    cs_model_free(m);
  }

  printf("\nMuJoCo %d cross-check, %d random states per model (tolerance %g):\n", mj_version(),
         NSTATES, TOL_MH);
  printf("  %-38s %12s %12s %14s %14s\n", "model", "M rel err", "h rel err", "moving mass",
         "MuJoCo mass");
  for (int c = 0; c < NCASE; c++)
    if (mh[c].ran)
      printf("  %-38s %12.3e %12.3e %14.9f %14.9f\n", mh[c].label, mh[c].err_M, mh[c].err_h,
             mh[c].mass_ours, mh[c].mass_mj);
    else
      printf("  %-38s not run\n", mh[c].label);
  printf(
      "URDF with MuJoCo's default import (fusestatic, tensors as in the file; MuJoCo's\n"
      "mju_eig3 is inexact), for information only:\n");
  for (int c = 0; c < NCASE; c++)
    if (raw[c].ran) printf("  %-38s %12.3e %12.3e\n", raw[c].label, raw[c].err_M, raw[c].err_h);
  printf(
      "ANYmal C (MJCF) 1000 Euler steps of 1 ms, contact-free, max |diff| / max(1,|x|) "
      "(tolerance %g):\n",
      TOL_TRAJ);
  printf("  %-38s %12s %12s %12s %12s\n", "run", "qpos max", "qvel max", "qpos final",
         "qvel final");
  for (int k = 0; k < 3; k++)
    if (tr[k].ran)
      printf("  %-38s %12.3e %12.3e %12.3e %12.3e\n", tr[k].label, tr[k].dq, tr[k].dv,
             tr[k].dq_final, tr[k].dv_final);
  return cs_test_finish("test_mujoco_dynamics");
}
