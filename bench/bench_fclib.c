/* contactsim bench fclib DIR [--tol T] [--solvers a,b,c] [--iterations N] [--repeats N]
                          [--vs-siconos] [--siconos-storage sbm|dense] [--time-limit S]
                          [--plot FILE.png] [--json]

   Every FCLIB file of DIR (*.hdf5, sorted by name) x every solver: the solver table's
   implemented entries (cs_solver_get(t) != NULL, so the list grows with the table), and with
   --vs-siconos Siconos 4.4's NSGS, NSN-AC, NSN-FB and ADMM on the same local problems, in
   the same run. Global problems are condensed first (cs_global_condense) and the global
   velocity is recovered from each solution for the "global_error" field.

   Measures (docs/bench-json.md, "bench fclib"): "error" is the Siconos 4.4.0 error of
   the solution r computed here by cs_ncp_report for every solver, Siconos' included,
   "converged" means error <= --tol (default 1e-8). "ms" is the median wall time
   (CLOCK_MONOTONIC) of --repeats cold solves (default 3; a single one when the first takes
   over 2 s); condensation and conversion to Siconos' matrices are not timed.

   Our solvers stop on their own criterion (docs/solvers.md), which is not the Siconos
   error: each solve starts at the tolerance T; if the solver meets its own criterion but
   the Siconos error is still above T, it goes on from its solution (warm start) with its
   own tolerance set to 1/100 of the smaller of that tolerance and the residual it reached
   (tiny problems meet an absolute tolerance at once), at most 4 times, within the one
   iteration cap; the time and the iterations cover the whole sequence. On a global problem
   the error that must reach T is also the global one (of v = M^-1 (H r + f), recovered in
   the loop and timed with it): the two are normalised differently and the global one was
   up to 2x the local (ncp_admm on Box_Stacks: 6.2e-9 local, 1.27e-8 global).

   Siconos runs (built with CS_HAVE_SICONOS): W, q, mu become a FrictionContactProblem
   with W as a sparse-block matrix of 3 x 3 blocks (Siconos' storage for these solvers;
   --siconos-storage dense for a dense NumericsMatrix), options from
   solver_options_create(id) with iparam[SICONOS_IPARAM_MAX_ITER] = the cap and
   dparam[SICONOS_DPARAM_TOL] = T, solved by fc3d_driver from r = 0. Debian's build keeps
   assert() (NSN-FB aborts on some files: FischerBurmeisterGenerated.c, "-x12 + x6>=0"), calls
   exit() on some errors and prints on stdout, so each Siconos solve runs in a forked child
   of this process with its output sent to /dev/null and a time limit (--time-limit,
   default 120 s): a crash, an exit or a timeout becomes a line with "converged":false and a
   "note", never the end of the benchmark. The child sends back r and its timings.

   --plot FILE.png: the Dolan-More performance profile of every solver: for each problem p
   and solver s, t_ps = ms if converged else infinite, r_ps = t_ps / min_s t_ps, and
   rho_s(tau) = fraction of problems with r_ps <= tau, drawn by gnuplot. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "cs_bench.h"

#ifdef CS_HAVE_SICONOS
#include <CSparseMatrix.h>
#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <NumericsVerbose.h>
#include <SolverOptions.h>
#include <SparseBlockMatrix.h>
#endif

#define SLOW_MS 2000.0

/* ---------------------------------------------------------------- solver names */

#ifdef CS_HAVE_SICONOS
static const struct {
  const char* name;
  int id;
} siconos_solvers[] = {{"siconos_nsgs", SICONOS_FRICTION_3D_NSGS},
                       {"siconos_nsn_ac", SICONOS_FRICTION_3D_NSN_AC},
                       {"siconos_nsn_fb", SICONOS_FRICTION_3D_NSN_FB},
                       {"siconos_admm", SICONOS_FRICTION_3D_ADMM}};
#define N_SICONOS ((int)(sizeof siconos_solvers / sizeof siconos_solvers[0]))

static int siconos_id(const char* name) {
  for (int k = 0; k < N_SICONOS; k++)
    if (!strcmp(name, siconos_solvers[k].name)) return siconos_solvers[k].id;
  return -1;
}
#endif

int cs_bench_fclib_have_siconos(void) {
#ifdef CS_HAVE_SICONOS
  return 1;
#else
  return 0;
#endif
}

#ifdef CS_HAVE_SICONOS
/* W (row-major, symmetric) as a sparse-block NumericsMatrix of its non-zero 3 x 3 blocks. */
static NumericsMatrix* siconos_sbm(const double* W, int nc) {
  const int m = 3 * nc;
  long nnz = 0;
  for (int bi = 0; bi < nc; bi++)
    for (int bj = 0; bj < nc; bj++) {
      int nz = 0;
      for (int a = 0; a < 3 && !nz; a++)
        for (int b = 0; b < 3; b++) nz |= W[(size_t)(3 * bi + a) * m + 3 * bj + b] != 0;
      nnz += nz ? 9 : 0;
    }
  NumericsMatrix* T = NM_create(NM_SPARSE, m, m);
  NM_triplet_alloc(T, (CS_INT)(nnz ? nnz : 1));
  CSparseMatrix* trip = NM_triplet(T);
  for (int bi = 0; bi < nc; bi++)
    for (int bj = 0; bj < nc; bj++) {
      int nz = 0;
      for (int a = 0; a < 3 && !nz; a++)
        for (int b = 0; b < 3; b++) nz |= W[(size_t)(3 * bi + a) * m + 3 * bj + b] != 0;
      if (!nz) continue;
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
          CSparseMatrix_entry(trip, 3 * bi + a, 3 * bj + b,
                              W[(size_t)(3 * bi + a) * m + 3 * bj + b]);
    }
  SparseBlockStructuredMatrix* sbm = SBM_new();
  SBM_from_csparse(3, NM_csc(T), sbm);
  NM_free(T);
  return NM_new_SBM(m, m, sbm);
}

typedef struct SiconosMsg {
  int info;
  int iterations;
  double ms;
} SiconosMsg;

static int write_all(int fd, const void* buf, size_t n) {
  const char* p = buf;
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    p += k, n -= (size_t)k;
  }
  return 0;
}

static int read_all(int fd, void* buf, size_t n) {
  char* p = buf;
  while (n) {
    ssize_t k = read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    p += k, n -= (size_t)k;
  }
  return 0;
}

/* The child: solve, send (msg, r), _exit. Never returns. */
static void siconos_child(const csCliFclibCase* c, int id, const csCliFclibSettings* s, int fd) {
  int dn = open("/dev/null", O_WRONLY);
  if (dn >= 0) {
    dup2(dn, 1);
    dup2(dn, 2);
  }
  if (s->time_limit_s > 0) alarm((unsigned)ceil(s->time_limit_s));
  numerics_set_verbose(0);
  const csContactProblem* p = &c->local->p;
  const int nc = p->nc, m = 3 * nc;
  double times[64];
  int nt = 0;
  SiconosMsg msg = {0, 0, 0};
  double* r = calloc((size_t)m, sizeof(double));
  double* u = calloc((size_t)m, sizeof(double));
  /* a problem read by islands: W written out dense for the conversion (not timed) */
  double* W = p->G ? NULL : malloc((size_t)m * (size_t)m * sizeof(double));
  if (!r || !u || (!p->G && !W)) _exit(3);
  if (W) cs_problem_dense_G(p, W);
  const double* G = p->G ? p->G : W;
  for (int rep = 0; rep < s->repeats && rep < 64; rep++) {
    NumericsMatrix* M;
    if (s->siconos_dense) {
      double* Wc = malloc((size_t)m * (size_t)m * sizeof(double));
      if (!Wc) _exit(3);
      for (int i = 0; i < m; i++) /* column-major */
        for (int j = 0; j < m; j++) Wc[(size_t)j * m + i] = G[(size_t)i * m + j];
      M = NM_create_from_data(NM_DENSE, m, m, Wc); /* owns Wc */
    } else {
      M = siconos_sbm(G, nc);
    }
    double* q = malloc((size_t)m * sizeof(double));
    double* mu = malloc((size_t)nc * sizeof(double));
    if (!M || !q || !mu) _exit(3);
    memcpy(q, p->g, (size_t)m * sizeof(double));
    memcpy(mu, p->mu, (size_t)nc * sizeof(double));
    FrictionContactProblem P;
    memset(&P, 0, sizeof P);
    P.dimension = 3;
    P.numberOfContacts = nc;
    P.M = M;
    P.q = q;
    P.mu = mu;
    SolverOptions* opt = solver_options_create(id);
    if (!opt) _exit(3);
    opt->iparam[SICONOS_IPARAM_MAX_ITER] = s->iterations;
    opt->dparam[SICONOS_DPARAM_TOL] = s->tol;
    memset(r, 0, (size_t)m * sizeof(double));
    memset(u, 0, (size_t)m * sizeof(double));
    double t0 = cs_cli_now_ns();
    msg.info = fc3d_driver(&P, r, u, opt);
    times[nt++] = 1e-6 * (cs_cli_now_ns() - t0);
    msg.iterations = opt->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(opt);
    NM_free(M);
    free(q);
    free(mu);
    if (times[0] > SLOW_MS) break;
  }
  msg.ms = cs_cli_median(times, nt);
  if (write_all(fd, &msg, sizeof msg) || write_all(fd, r, (size_t)m * sizeof(double))) _exit(4);
  _exit(0);
}

static void run_siconos(const csCliFclibCase* c, int id, const csCliFclibSettings* s,
                        double* lambda, csCliFclibRun* r) {
  const size_t m = 3 * (size_t)c->local->p.nc;
  memset(lambda, 0, m * sizeof(double));
  int fd[2];
  if (pipe(fd)) {
    snprintf(r->note, sizeof r->note, "pipe: %s", strerror(errno));
    return;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(r->note, sizeof r->note, "fork: %s", strerror(errno));
    close(fd[0]), close(fd[1]);
    return;
  }
  if (pid == 0) {
    close(fd[0]);
    siconos_child(c, id, s, fd[1]);
  }
  close(fd[1]);
  SiconosMsg msg;
  int got =
      read_all(fd[0], &msg, sizeof msg) == 0 && read_all(fd[0], lambda, m * sizeof(double)) == 0;
  close(fd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGALRM)
      snprintf(r->note, sizeof r->note, "time limit (%g s)", s->time_limit_s);
    else if (sig == SIGABRT)
      snprintf(r->note, sizeof r->note, "aborted (an assertion in Siconos)");
    else
      snprintf(r->note, sizeof r->note, "killed by signal %d", sig);
    got = 0;
  } else if (!got) {
    snprintf(r->note, sizeof r->note, "Siconos exited (status %d) without a result",
             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  if (!got) {
    memset(lambda, 0, m * sizeof(double));
    r->ok = 0;
    r->ms = NAN;
    r->error = r->error_1pq = r->eps_abs = r->global_error = NAN;
    return;
  }
  r->ok = 1;
  r->iterations = msg.iterations;
  r->ms = msg.ms;
  r->siconos_info = msg.info;
  cs_cli_fclib_finish_run(c, s, lambda, r);
}
#endif

#ifdef CS_HAVE_SICONOS
static const char* const siconos_names[] = {"siconos_nsgs", "siconos_nsn_ac", "siconos_nsn_fb",
                                            "siconos_admm", NULL};

static void run_extra(const csCliFclibCase* c, const char* name, const csCliFclibSettings* s,
                      double* lambda, csCliFclibRun* r) {
  run_siconos(c, siconos_id(name), s, lambda, r);
}

static const csCliFclibExtraSolvers siconos_extra = {siconos_names, run_extra};
#endif

void cs_bench_fclib_use_siconos(void) {
#ifdef CS_HAVE_SICONOS
  cs_cli_fclib_extra_solvers = &siconos_extra;
#endif
}

/* ---------------------------------------------------------------- performance profile */

static int write_profile(const char* png, int nfile, int nsolv, const double* t,
                         char* const* names) {
  char dat[] = "/tmp/contactsim_profile_XXXXXX";
  int fd = mkstemp(dat);
  if (fd < 0) {
    fprintf(stderr, "contactsim bench fclib: cannot create a temporary file: %s\n",
            strerror(errno));
    return 1;
  }
  FILE* f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    remove(dat);
    return 1;
  }
  double* ratio = malloc((size_t)(nfile ? nfile : 1) * sizeof(double));
  double taumax = 2;
  for (int p = 0; p < nfile; p++) {
    double best = INFINITY;
    for (int s = 0; s < nsolv; s++) best = fmin(best, t[p * nsolv + s]);
    for (int s = 0; s < nsolv; s++) {
      double x = t[p * nsolv + s] / best;
      if (isfinite(x)) taumax = fmax(taumax, 1.5 * x);
    }
  }
  /* one gnuplot data block per solver: (tau, fraction) steps */
  for (int s = 0; s < nsolv && ratio; s++) {
    int k = 0;
    for (int p = 0; p < nfile; p++) {
      double best = INFINITY;
      for (int z = 0; z < nsolv; z++) best = fmin(best, t[p * nsolv + z]);
      double x = t[p * nsolv + s] / best;
      if (isfinite(x)) ratio[k++] = fmax(1.0, x);
    }
    qsort(ratio, (size_t)k, sizeof(double), cs_cli_cmp_double);
    fprintf(f, "# %s\n1 0\n", names[s]);
    for (int j = 0; j < k; j++) fprintf(f, "%.9g %.9g\n", ratio[j], (double)(j + 1) / nfile);
    fprintf(f, "%.9g %.9g\n\n\n", taumax, (double)k / (nfile ? nfile : 1));
  }
  free(ratio);
  fclose(f);

  char gp[] = "/tmp/contactsim_profile_gp_XXXXXX";
  fd = mkstemp(gp);
  f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    if (fd >= 0) close(fd), remove(gp);
    remove(dat);
    return 1;
  }
  fprintf(f,
          "set terminal pngcairo size 1000,650 noenhanced\n"
          "set output '%s'\n"
          "set title 'FCLIB performance profile (converged runs; time ratio to the best solver)'\n"
          "set logscale x 10\n"
          "set format x '%%g'\n"
          "set xrange [1:%g]\n"
          "set yrange [0:1.05]\n"
          "set xlabel 'tau: time / best time on the problem'\n"
          "set ylabel 'fraction of problems solved within tau'\n"
          "set key outside right\n"
          "set grid\n"
          "plot ",
          png, taumax);
  for (int s = 0; s < nsolv; s++)
    fprintf(f, "%s'%s' index %d using 1:2 with steps lw 2 lc %d dt %d title '%s'", s ? ", " : "",
            dat, s, s % 8 + 1, s / 8 + 1, names[s]);
  fprintf(f, "\n");
  fclose(f);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>&1", gp);
  int rc = system(cmd);
  remove(dat);
  remove(gp);
  if (rc != 0) {
    fprintf(stderr, "contactsim bench fclib: gnuplot failed (status %d) writing '%s'\n", rc, png);
    return 1;
  }
  return 0;
}

/* ---------------------------------------------------------------- main */

static void usage(FILE* f) {
  fprintf(f,
          "usage: contactsim bench fclib DIR [--tol T] [--solvers a,b,c] [--iterations N]\n"
          "                             [--repeats N] [--vs-siconos] [--siconos-storage S]\n"
          "                             [--time-limit SEC] [--plot FILE.png] [--json]\n"
          "\n"
          "Solves every FCLIB file of DIR (*.hdf5) with every implemented solver (global\n"
          "problems condensed to local form first) and prints, per file and solver, the\n"
          "Siconos error of the solution, whether it is <= T, the iterations and the median\n"
          "time of the repeats. Files that cannot be solved (rolling friction, bad data) give\n"
          "one line with \"error\":\"unsupported\".\n"
          "\n"
          "  --tol T            target Siconos error (default 1e-8)\n"
          "  --solvers LIST     comma-separated solver names (default: all implemented)\n"
          "  --iterations N     iteration cap (default 10000)\n"
          "  --repeats N        timed solves per (file, solver), median (default 3)\n"
          "  --vs-siconos       also Siconos 4.4's NSGS, NSN-AC, NSN-FB and ADMM%s\n"
          "  --siconos-storage  sbm (sparse 3x3 blocks, default) or dense\n"
          "  --time-limit SEC   per Siconos solve, which runs in a child process (default 120)\n"
          "  --plot FILE.png    Dolan-More performance profile (gnuplot)\n"
          "  --json             one JSON object per line on stdout\n"
          "\nsolvers: ",
          cs_bench_fclib_have_siconos() ? "" : " (not in this build)");
  cs_cli_fclib_list_solvers(f);
  fprintf(f, "\n");
}

static int cmp_str(const void* a, const void* b) {
  return strcmp(*(char* const*)a, *(char* const*)b);
}

int cs_bench_fclib_main(int argc, char** argv) {
  csCliFclibSettings set = {1e-8, 10000, 3, 120.0, 0};
  const char* dir = NULL;
  const char* solvers_arg = NULL;
  const char* plot = NULL;
  int json = 0, vs_siconos = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    int has = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--vs-siconos")) {
      vs_siconos = 1;
    } else if (!strcmp(a, "--tol") && has) {
      if (!cs_cli_parse_double(argv[++i], &set.tol) || set.tol <= 0) {
        fprintf(stderr, "contactsim bench fclib: --tol needs a positive number, got '%s'\n",
                argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--iterations") && has) {
      if (!cs_cli_parse_int(argv[++i], 1, 1000000000, &set.iterations)) {
        fprintf(stderr,
                "contactsim bench fclib: --iterations needs a positive integer, "
                "got '%s'\n",
                argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--repeats") && has) {
      if (!cs_cli_parse_int(argv[++i], 1, 1000000000, &set.repeats) || set.repeats > 64) {
        fprintf(stderr,
                "contactsim bench fclib: --repeats needs an integer in 1..64, got "
                "'%s'\n",
                argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--time-limit") && has) {
      if (!cs_cli_parse_double(argv[++i], &set.time_limit_s) || set.time_limit_s <= 0) {
        fprintf(stderr,
                "contactsim bench fclib: --time-limit needs a positive number of "
                "seconds, got '%s'\n",
                argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--siconos-storage") && has) {
      const char* v = argv[++i];
      if (strcmp(v, "sbm") && strcmp(v, "dense")) {
        fprintf(stderr, "contactsim bench fclib: --siconos-storage is sbm or dense, got '%s'\n", v);
        return 2;
      }
      set.siconos_dense = !strcmp(v, "dense");
    } else if (!strcmp(a, "--solvers") && has) {
      solvers_arg = argv[++i];
    } else if (!strcmp(a, "--plot") && has) {
      plot = argv[++i];
    } else if (a[0] == '-') {
      fprintf(stderr, "contactsim bench fclib: unknown or incomplete option '%s' (try --help)\n",
              a);
      return 2;
    } else if (!dir) {
      dir = a;
    } else {
      fprintf(stderr, "contactsim bench fclib: one directory only ('%s' and '%s')\n", dir, a);
      return 2;
    }
  }
  if (!dir) {
    fprintf(stderr, "contactsim bench fclib: missing DIR (the folder of .hdf5 files)\n");
    usage(stderr);
    return 2;
  }
  if (vs_siconos && !cs_bench_fclib_have_siconos()) {
    fprintf(stderr,
            "contactsim bench fclib: --vs-siconos: this build has no Siconos "
            "(libsiconos-numerics-dev not found at configure time)\n");
    return 2;
  }
  if (!cs_have_fclib()) {
    fprintf(stderr, "contactsim bench fclib: this build has no FCLIB support (libfclib)\n");
    return 1;
  }

  /* solver list */
  char* names[CS_SOLVER_COUNT + 16];
  int nsolv = 0;
  char* list = NULL;
  if (solvers_arg) {
    list = malloc(strlen(solvers_arg) + 1);
    if (!list) return 1;
    strcpy(list, solvers_arg);
    for (char* tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
      if (!cs_cli_fclib_solver_known(tok)) {
        fprintf(stderr,
                "contactsim bench fclib: unknown or unimplemented solver '%s'; "
                "implemented: ",
                tok);
        cs_cli_fclib_list_solvers(stderr);
        fprintf(stderr, "\n");
        free(list);
        return 2;
      }
      if (nsolv < CS_SOLVER_COUNT + 16) names[nsolv++] = tok;
    }
  } else {
    for (int t = 1; t < CS_SOLVER_COUNT; t++)
      if (cs_solver_get((csSolverType)t)) names[nsolv++] = (char*)cs_solver_name((csSolverType)t);
#ifdef CS_HAVE_SICONOS
    if (vs_siconos)
      for (int k = 0; k < N_SICONOS; k++) names[nsolv++] = (char*)siconos_solvers[k].name;
#endif
  }
  if (nsolv == 0) {
    fprintf(stderr, "contactsim bench fclib: no solver to run\n");
    free(list);
    return 1;
  }

  /* files */
  DIR* d = opendir(dir);
  if (!d) {
    fprintf(stderr, "contactsim bench fclib: cannot open directory '%s': %s\n", dir,
            strerror(errno));
    free(list);
    return 1;
  }
  char** files = NULL;
  int nfile = 0, cap = 0;
  for (struct dirent* e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".hdf5")) continue;
    if (nfile == cap) {
      cap = cap ? 2 * cap : 16;
      char** nf = realloc(files, (size_t)cap * sizeof(char*));
      if (!nf) break;
      files = nf;
    }
    size_t need = strlen(dir) + len + 2;
    files[nfile] = malloc(need);
    if (!files[nfile]) break;
    snprintf(files[nfile], need, "%s/%s", dir, e->d_name);
    nfile++;
  }
  closedir(d);
  if (nfile == 0) {
    fprintf(stderr, "contactsim bench fclib: no .hdf5 file in '%s'\n", dir);
    free(files);
    free(list);
    return 1;
  }
  qsort(files, (size_t)nfile, sizeof(char*), cmp_str);

  double* tprof = malloc((size_t)nfile * (size_t)nsolv * sizeof(double));
  int nprob = 0;
  int tty = isatty(2);
  if (!json)
    printf("%-44s %5s %-6s %-18s %4s %10s %10s %10s %7s %10s\n", "file", "nc", "kind", "solver",
           "conv", "error", "error_1pq", "global", "iters", "ms");
  for (int fi = 0; fi < nfile; fi++) {
    csCliFclibCase c;
    csStatus st = cs_cli_fclib_case_load(files[fi], &c);
    if (st) {
      if (json) {
        printf("{\"bench\":\"fclib\",\"file\":");
        cs_cli_json_str(stdout, c.name);
        printf(
            ",\"nc\":%d,\"solver\":null,\"converged\":false,\"error\":\"unsupported\","
            "\"reason\":",
            c.nc);
        cs_cli_json_str(stdout, cs_last_error());
        printf("}\n");
      } else {
        printf("%-44s %5d %-6s unsupported: %s\n", c.name, c.nc, "-", cs_last_error());
      }
      fflush(stdout);
      cs_cli_fclib_case_free(&c);
      continue;
    }
    double* lambda = malloc(3 * (size_t)c.local->p.nc * sizeof(double));
    for (int s = 0; s < nsolv && lambda; s++) {
      if (tty)
        fprintf(stderr, "\r\033[K[%d/%d] %s %s", fi + 1, nfile, c.name, names[s]), fflush(stderr);
      csCliFclibRun r;
      cs_cli_fclib_run(&c, names[s], &set, lambda, &r);
      if (tprof) tprof[nprob * nsolv + s] = r.converged ? r.ms : INFINITY;
      if (tty) fprintf(stderr, "\r\033[K");
      if (json) {
        cs_cli_fclib_print_json(stdout, &c, names[s], &r);
      } else {
        printf("%-44s %5d %-6s %-18s %4s %10.3e %10.3e %10.3e %7d %10.3f%s%s\n", c.name, c.nc,
               c.global ? "global" : "local", names[s], r.converged ? "yes" : "no", r.error,
               r.error_1pq, r.global_error, r.iterations, r.ms, r.note[0] ? "  " : "", r.note);
      }
      fflush(stdout);
    }
    nprob++;
    free(lambda);
    cs_cli_fclib_case_free(&c);
  }
  int rc = 0;
  if (plot && tprof) {
    rc = write_profile(plot, nprob, nsolv, tprof, names);
    if (!rc && !json) printf("performance profile: %s\n", plot);
  }
  free(tprof);
  for (int i = 0; i < nfile; i++) free(files[i]);
  free(files);
  free(list);
  return rc;
}
