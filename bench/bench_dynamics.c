/* contactsim bench dynamics --model FILE [--floating 0|1] [--repeats N] [--json]

   Times the stages of the smooth dynamics at one fixed random state (seeded):
     fk_ns      cs_kinematics + cs_com_pos
     crba_ns    cs_crba
     rnea_ns    cs_com_vel + cs_rnea (bias: gravity, Coriolis, centrifugal)
     factor_ns  cs_factor_m
     aba_ns     cs_aba (same bias terms)
     total_ns   FK + CRBA + RNEA + factor as one fused sequence
   each the median over repeats of batches of BATCH calls (after a warm-up), in ns per call.
   Built with CS_HAVE_MUJOCO, the same file is loaded in MuJoCo and
     mj_kinematics + mj_comPos + mj_comVel + mj_crb + mj_factorM + mj_rne(flg_acc = 0)
   is timed in the same run, batches alternating with ours: mujoco_ns, and
   speedup_vs_mujoco = mujoco_ns / total_ns. MuJoCo fixes the root of a URDF, so a URDF is
   compared only with --floating 0 (the default); MuJoCo reads a temporary copy of the URDF
   with mesh URIs resolved (as our loader does) and a <mujoco><compiler/></mujoco> block
   (cs_mujoco_urdf.c, MuJoCo's default static-body fusing).
   Uses the public API only. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"
#include "cs_mujoco_urdf.h"

#ifdef CS_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

#define BATCH 1000
#define DEFAULT_REPEATS 101

static void usage(FILE* f) {
  fprintf(
      f,
      "usage: contactsim bench dynamics --model FILE [--floating 0|1] [--repeats N] [--json]\n"
      "\n"
      "Times forward kinematics (cs_kinematics + cs_com_pos), CRBA (cs_crba), RNEA bias\n"
      "(cs_com_vel + cs_rnea), the L^T D L factorisation (cs_factor_m) and ABA (cs_aba) at\n"
      "a fixed random state, each as the median over N repeats (default %d) of batches of\n"
      "%d calls, in ns per call; total = FK + CRBA + RNEA + factor as one sequence.\n"
      "%s"
      "\n"
      "  --model FILE     .xml (MJCF) or .urdf model file (required)\n"
      "  --floating 0|1   URDF: attach the root link by a free joint (default 0; MuJoCo\n"
      "                   fixes URDF roots, so it is compared only with 0)\n"
      "  --repeats N      number of timed batches per quantity (default %d)\n"
      "  --json           one JSON line: {\"bench\":\"dynamics\",\"model\":..,\"floating\":..,\n"
      "                   \"nv\":..,\"fk_ns\":..,\"crba_ns\":..,\"rnea_ns\":..,\"factor_ns\":..,\n"
      "                   "
      "\"aba_ns\":..,\"total_ns\":..[,\"mujoco_ns\":..,\"speedup_vs_mujoco\":..]}\n"
      "  --help           this text\n",
      DEFAULT_REPEATS, BATCH,
#ifdef CS_HAVE_MUJOCO
      "MuJoCo's mj_kinematics + mj_comPos + mj_comVel + mj_crb + mj_factorM + mj_rne on the\n"
      "same file is timed in the same run (mujoco_ns, speedup_vs_mujoco).\n",
#else
      "(built without MuJoCo: no comparison)\n",
#endif
      DEFAULT_REPEATS);
}

/* ------------------------------------------------------------------ seeded random state */
static unsigned long long bench_rng = 0x9E3779B97F4A7C15ULL;

static double bench_uniform(double lo, double hi) {
  bench_rng ^= bench_rng << 13;
  bench_rng ^= bench_rng >> 7;
  bench_rng ^= bench_rng << 17;
  return lo + (hi - lo) * ((double)(bench_rng >> 11) * (1.0 / 9007199254740992.0));
}

static double bench_gauss(void) {
  double u1 = bench_uniform(1e-300, 1.0), u2 = bench_uniform(0.0, 1.0);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static void bench_quat(double* q) {
  double n = 0;
  for (int i = 0; i < 4; i++) q[i] = bench_gauss(), n += q[i] * q[i];
  n = sqrt(n);
  for (int i = 0; i < 4; i++) q[i] /= n;
}

static void bench_state(const csModel* m, csData* d, double* tau) {
  bench_rng = 0x9E3779B97F4A7C15ULL;
  for (int j = 0; j < m->njnt; j++) {
    double* q = d->qpos + m->jnt_qposadr[j];
    switch (m->jnt_type[j]) {
      case CS_JNT_FREE:
        for (int k = 0; k < 3; k++) q[k] = bench_uniform(-1, 1);
        bench_quat(q + 3);
        break;
      case CS_JNT_BALL:
        bench_quat(q);
        break;
      case CS_JNT_PRISMATIC:
        q[0] = bench_uniform(-0.1, 0.1);
        break;
      default:
        q[0] = bench_uniform(-3.14159, 3.14159);
        break;
    }
  }
  for (int i = 0; i < m->nv; i++) d->qvel[i] = bench_gauss();
  for (int i = 0; i < m->nv; i++) tau[i] = bench_gauss();
}

/* ------------------------------------------------------------------ timing */
enum { Q_FK = 0, Q_CRBA, Q_RNEA, Q_FACTOR, Q_ABA, Q_TOTAL, Q_MUJOCO, Q_COUNT };

typedef struct {
  const csModel* m;
  csData* d;
  double* h;
  double* tau;
  double* qacc;
  int bad; /* a call failed */
#ifdef CS_HAVE_MUJOCO
  const mjModel* mm;
  mjData* md;
#endif
} BenchCtx;

/* Runs BATCH calls of quantity q; returns ns per call. */
static double run_batch(BenchCtx* c, int q) {
  const csModel* m = c->m;
  csData* d = c->d;
  const int flags = CS_RNE_GRAVITY | CS_RNE_VELOCITY;
  double t0 = cs_cli_now_ns();
  switch (q) {
    case Q_FK:
      for (int k = 0; k < BATCH; k++) {
        cs_kinematics(m, d);
        cs_com_pos(m, d);
      }
      break;
    case Q_CRBA:
      for (int k = 0; k < BATCH; k++) cs_crba(m, d);
      break;
    case Q_RNEA:
      for (int k = 0; k < BATCH; k++) {
        cs_com_vel(m, d);
        cs_rnea(m, d, NULL, flags, c->h);
      }
      break;
    case Q_FACTOR:
      for (int k = 0; k < BATCH; k++)
        if (cs_factor_m(m, d, NULL) != CS_OK) c->bad = 1;
      break;
    case Q_ABA:
      for (int k = 0; k < BATCH; k++)
        if (cs_aba(m, d, c->tau, flags, c->qacc) != CS_OK) c->bad = 1;
      break;
    case Q_TOTAL:
      for (int k = 0; k < BATCH; k++) {
        cs_kinematics(m, d);
        cs_com_pos(m, d);
        cs_crba(m, d);
        cs_com_vel(m, d);
        cs_rnea(m, d, NULL, flags, c->h);
        if (cs_factor_m(m, d, NULL) != CS_OK) c->bad = 1;
      }
      break;
#ifdef CS_HAVE_MUJOCO
    case Q_MUJOCO:
      for (int k = 0; k < BATCH; k++) {
        mj_kinematics(c->mm, c->md);
        mj_comPos(c->mm, c->md);
        mj_comVel(c->mm, c->md);
        mj_crb(c->mm, c->md);
        mj_factorM(c->mm, c->md);
        mj_rne(c->mm, c->md, 0, c->md->qfrc_bias);
      }
      break;
#endif
    default:
      break;
  }
  return (cs_cli_now_ns() - t0) / BATCH;
}

/* ------------------------------------------------------------------ MuJoCo loading */
#ifdef CS_HAVE_MUJOCO
static int has_suffix(const char* s, const char* suf) {
  size_t n = strlen(s), k = strlen(suf);
  if (n < k) return 0;
  for (size_t i = 0; i < k; i++) {
    char a = s[n - k + i], b = suf[i];
    if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
    if (a != b) return 0;
  }
  return 1;
}

/* NULL (with a note on stderr) if MuJoCo cannot load the file. */
static mjModel* load_mujoco(const char* path) {
  char err[1000] = "";
  if (!has_suffix(path, ".urdf")) {
    mjModel* mm = mj_loadXML(path, NULL, err, sizeof err);
    if (!mm) fprintf(stderr, "bench dynamics: MuJoCo cannot load %s: %s\n", path, err);
    return mm;
  }
  for (int balance = 0; balance < 2; balance++) {
    char tmp[64], why[512];
    if (!cs_bench_mujoco_urdf_write(path, NULL, balance ? CS_MJURDF_BALANCE_INERTIA : 0, tmp,
                                    sizeof tmp, NULL, why, sizeof why)) {
      fprintf(stderr, "bench dynamics: cannot write a MuJoCo copy of %s: %s\n", path, why);
      return NULL;
    }
    err[0] = 0;
    mjModel* mm = mj_loadXML(tmp, NULL, err, sizeof err);
    unlink(tmp);
    if (mm) {
      if (balance)
        fprintf(stderr, "bench dynamics: note: MuJoCo needed balanceinertia=\"true\" for %s\n",
                path);
      return mm;
    }
    if (!strstr(err, "balanceinertia")) break;
  }
  for (char* c = err; *c; c++)
    if (*c == '\n') *c = ' ';
  fprintf(stderr, "bench dynamics: MuJoCo cannot load %s: %s\n", path, err);
  return NULL;
}
#endif

int cs_bench_dynamics_main(int argc, char** argv) {
  const char* model = NULL;
  int floating = 0, repeats = DEFAULT_REPEATS, json = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--model")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "bench dynamics: --model needs a file name\n");
        return 2;
      }
      model = argv[++i];
    } else if (!strcmp(a, "--floating")) {
      if (i + 1 >= argc || !cs_cli_parse_int(argv[i + 1], 0, 1, &floating)) {
        fprintf(stderr, "bench dynamics: --floating needs 0 or 1\n");
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--repeats")) {
      if (i + 1 >= argc || !cs_cli_parse_int(argv[i + 1], 1, 1000000, &repeats)) {
        fprintf(stderr, "bench dynamics: --repeats needs an integer in [1, 1000000]\n");
        return 2;
      }
      i++;
    } else {
      fprintf(stderr, "bench dynamics: unknown argument '%s' (try --help)\n", a);
      return 2;
    }
  }
  if (!model) {
    fprintf(stderr, "bench dynamics: --model FILE is required (try --help)\n");
    return 2;
  }

  csLoadOptions lo;
  cs_load_options_default(&lo);
  lo.floating_base = floating;
  csModel* m = NULL;
  if (cs_load_model(model, &lo, &m) != CS_OK) {
    fprintf(stderr, "%s\n", cs_last_error());
    return 1;
  }
  int is_floating = m->njnt > 0 && m->jnt_type[0] == CS_JNT_FREE;
  csData* d = cs_data_new(m);
  double* work = malloc(sizeof(double) * (size_t)(3 * (m->nv > 0 ? m->nv : 1)));
  double* samples = malloc(sizeof(double) * (size_t)Q_COUNT * (size_t)repeats);
  if (!d || !work || !samples) {
    fprintf(stderr, "bench dynamics: out of memory\n");
    free(work), free(samples);
    cs_data_free(d);
    cs_model_free(m);
    return 1;
  }
  BenchCtx c;
  memset(&c, 0, sizeof c);
  c.m = m, c.d = d, c.h = work, c.tau = work + m->nv, c.qacc = work + 2 * m->nv;
  bench_state(m, d, c.tau);

  int have_mj = 0;
#ifdef CS_HAVE_MUJOCO
  mjModel* mm = NULL;
  mjData* md = NULL;
  if (has_suffix(model, ".urdf") && floating) {
    fprintf(stderr,
            "bench dynamics: MuJoCo fixes the root of a URDF; no MuJoCo comparison "
            "with --floating 1\n");
  } else {
    mm = load_mujoco(model);
    if (mm && (mm->nq != m->nq || mm->nv != m->nv)) {
      fprintf(stderr,
              "bench dynamics: MuJoCo's model has nq %d nv %d, ours nq %d nv %d; "
              "no MuJoCo comparison\n",
              mm->nq, mm->nv, m->nq, m->nv);
      mj_deleteModel(mm);
      mm = NULL;
    }
    if (mm) {
      md = mj_makeData(mm);
      if (md) {
        memcpy(md->qpos, d->qpos, sizeof(double) * (size_t)m->nq);
        memcpy(md->qvel, d->qvel, sizeof(double) * (size_t)m->nv);
        c.mm = mm, c.md = md;
        have_mj = 1;
      }
    }
  }
#endif

  /* warm-up: every quantity once, in pipeline order so each reads valid inputs */
  static const int order[Q_COUNT] = {Q_FK, Q_CRBA, Q_RNEA, Q_FACTOR, Q_ABA, Q_TOTAL, Q_MUJOCO};
  for (int w = 0; w < 3; w++)
    for (int k = 0; k < Q_COUNT; k++)
      if (order[k] != Q_MUJOCO || have_mj) run_batch(&c, order[k]);
  /* timed: per repeat, ours then MuJoCo's, alternating */
  for (int r = 0; r < repeats; r++)
    for (int k = 0; k < Q_COUNT; k++) {
      int q = order[k];
      if (q == Q_MUJOCO && !have_mj) continue;
      samples[(size_t)q * (size_t)repeats + (size_t)r] = run_batch(&c, q);
    }
  if (c.bad) {
    fprintf(stderr, "bench dynamics: a factorisation or ABA call failed: %s\n", cs_last_error());
    free(work), free(samples);
#ifdef CS_HAVE_MUJOCO
    if (md) mj_deleteData(md);
    if (mm) mj_deleteModel(mm);
#endif
    cs_data_free(d);
    cs_model_free(m);
    return 1;
  }
  double med[Q_COUNT] = {0};
  for (int q = 0; q < Q_COUNT; q++)
    if (q != Q_MUJOCO || have_mj)
      med[q] = cs_cli_median(samples + (size_t)q * (size_t)repeats, repeats);

  if (json) {
    printf("{\"bench\":\"dynamics\",\"model\":");
    cs_cli_json_str(stdout, model);
    printf(
        ",\"floating\":%d,\"nv\":%d,\"fk_ns\":%.1f,\"crba_ns\":%.1f,\"rnea_ns\":%.1f,"
        "\"factor_ns\":%.1f,\"aba_ns\":%.1f,\"total_ns\":%.1f",
        is_floating, m->nv, med[Q_FK], med[Q_CRBA], med[Q_RNEA], med[Q_FACTOR], med[Q_ABA],
        med[Q_TOTAL]);
    if (have_mj)
      printf(",\"mujoco_ns\":%.1f,\"speedup_vs_mujoco\":%.3f", med[Q_MUJOCO],
             med[Q_MUJOCO] / med[Q_TOTAL]);
    printf("}\n");
  } else {
    printf("model %s: nq %d, nv %d, %s base\n", model, m->nq, m->nv,
           is_floating ? "floating" : "fixed");
    printf("median of %d batches of %d calls, ns per call\n", repeats, BATCH);
    printf("  %-40s %12.1f\n", "FK (cs_kinematics + cs_com_pos)", med[Q_FK]);
    printf("  %-40s %12.1f\n", "CRBA (cs_crba)", med[Q_CRBA]);
    printf("  %-40s %12.1f\n", "RNEA bias (cs_com_vel + cs_rnea)", med[Q_RNEA]);
    printf("  %-40s %12.1f\n", "factorisation (cs_factor_m)", med[Q_FACTOR]);
    printf("  %-40s %12.1f\n", "ABA (cs_aba)", med[Q_ABA]);
    printf("  %-40s %12.1f\n", "total (FK + CRBA + RNEA + factor, fused)", med[Q_TOTAL]);
    if (have_mj) {
      printf("  %-40s %12.1f\n", "MuJoCo (same sequence)", med[Q_MUJOCO]);
      printf("  %-40s %12.2f\n", "speedup vs MuJoCo", med[Q_MUJOCO] / med[Q_TOTAL]);
    }
  }
  free(work), free(samples);
#ifdef CS_HAVE_MUJOCO
  if (md) mj_deleteData(md);
  if (mm) mj_deleteModel(mm);
#endif
  cs_data_free(d);
  cs_model_free(m);
  return 0;
}
