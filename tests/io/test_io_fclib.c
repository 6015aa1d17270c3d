/* FCLIB input/output: a contact problem written and read back gives the same G, g, mu bit
   for bit (a project acceptance point), with and without a solution, with signed zeros
   and with a compliance R; overwriting; errors (missing file, a text file named .hdf5, a
   truncated HDF5 file, an unwritable path, nc = 0) give a status and a message naming the
   file, never a crash or an exit. Then, when ../shared is there, every Siconos FCLIB file:
   local problems read with their sizes, G symmetric with a positive diagonal; global ones
   refused with CS_ERR_UNSUPPORTED (a plain global problem with a message that points to
   cs_fclib_read_global). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contactsim/cs_contact.h"
#include "contactsim/cs_io.h"
#include "cs_test.h"
#include "cs_test_islands.h"

#define NC 5
#define N (3 * NC)
#define NV 20

/* G = J M^-1 J^T with J (N x NV) and M = B B^T + NV I random: X = L^-1 J^T, G = X^T X,
   which is exactly symmetric (the same products summed in the same order). */
static void random_delassus(double* G) {
  static double J[N * NV], M[NV * NV], L[NV * NV], X[NV * N];
  double B[NV * NV];
  for (int a = 0; a < N * NV; a++) J[a] = cs_test_gauss();
  for (int a = 0; a < NV * NV; a++) B[a] = cs_test_gauss();
  for (int a = 0; a < NV; a++)
    for (int b = 0; b < NV; b++) {
      double s = a == b ? NV : 0;
      for (int k = 0; k < NV; k++) s += B[a * NV + k] * B[b * NV + k];
      M[a * NV + b] = s;
    }
  memset(L, 0, sizeof L);
  for (int j = 0; j < NV; j++) {
    double d = M[j * NV + j];
    for (int k = 0; k < j; k++) d -= L[j * NV + k] * L[j * NV + k];
    L[j * NV + j] = sqrt(d);
    for (int i = j + 1; i < NV; i++) {
      double s = M[i * NV + j];
      for (int k = 0; k < j; k++) s -= L[i * NV + k] * L[j * NV + k];
      L[i * NV + j] = s / L[j * NV + j];
    }
  }
  for (int c = 0; c < N; c++) /* column c of X solves L x = J^T e_c = row c of J */
    for (int i = 0; i < NV; i++) {
      double s = J[c * NV + i];
      for (int k = 0; k < i; k++) s -= L[i * NV + k] * X[k * N + c];
      X[i * N + c] = s / L[i * NV + i];
    }
  for (int a = 0; a < N; a++)
    for (int b = 0; b < N; b++) {
      double s = 0;
      for (int k = 0; k < NV; k++) s += X[k * N + a] * X[k * N + b];
      G[a * N + b] = s;
    }
}

static int same_bits(const void* a, const void* b, size_t bytes) {
  return a && b && memcmp(a, b, bytes) == 0;
}

static int mentions(const char* path) { return strstr(cs_last_error(), path) != NULL; }

static void write_text(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void test_round_trip(const char* path) {
  static double G[N * N], g[N], mu[NC], lambda[N], R[N];
  random_delassus(G);
  for (int a = 0; a < N; a++) g[a] = cs_test_uniform(-3, 3), lambda[a] = cs_test_uniform(-1, 1);
  for (int i = 0; i < NC; i++) mu[i] = cs_test_uniform(0.1, 1.0);
  mu[2] = 0; /* frictionless contacts are legal in FCLIB */
  csContactProblem p;
  memset(&p, 0, sizeof p);
  p.nc = NC, p.mu = mu, p.G = G, p.g = g;

  /* problem only; path exists (empty, from mkstemp): libfclib alone would refuse it */
  csStatus st = cs_fclib_write_local(path, &p, NULL, "test problem");
  CHECK_MSG(st == CS_OK, "write: %s", cs_last_error());
  csOwnedProblem* o = NULL;
  st = cs_fclib_read_local(path, &o);
  CHECK_MSG(st == CS_OK && o, "read: %s", cs_last_error());
  if (o) {
    CHECK(o->p.nc == NC && o->p.nv == 0 && !o->p.J && !o->p.R && !o->R);
    CHECK_MSG(same_bits(o->p.G, G, sizeof G), "G differs after the round trip");
    CHECK_MSG(same_bits(o->p.g, g, sizeof g), "g differs after the round trip");
    CHECK_MSG(same_bits(o->p.mu, mu, sizeof mu), "mu differs after the round trip");
    CHECK(o->p.G == o->G && o->p.g == o->g && o->p.mu == o->mu);
    CHECK(!o->lambda && !o->velocity);
  }
  cs_problem_free(o);

  /* overwrite the same file, now with a solution (libfclib alone refuses a second
     problem in a file) */
  st = cs_fclib_write_local(path, &p, lambda, NULL);
  CHECK_MSG(st == CS_OK, "write with solution: %s", cs_last_error());
  o = NULL;
  st = cs_fclib_read_local(path, &o);
  CHECK_MSG(st == CS_OK && o, "read with solution: %s", cs_last_error());
  if (o) {
    CHECK(same_bits(o->p.G, G, sizeof G) && same_bits(o->p.g, g, sizeof g) &&
          same_bits(o->p.mu, mu, sizeof mu));
    CHECK_MSG(same_bits(o->lambda, lambda, sizeof lambda), "lambda differs");
    CHECK(o->velocity != NULL);
    if (o->velocity) {
      double v[N];
      for (int a = 0; a < N; a++) {
        v[a] = g[a];
        for (int b = 0; b < N; b++) v[a] += G[a * N + b] * lambda[b];
      }
      double e = cs_test_relerr(o->velocity, v, N, 1e-300);
      CHECK_MSG(e <= 1e-14, "stored u = G lambda + g off by %g", e);
    }
    /* the report of the stored solution is the same as of the original */
    csNcpReport r1, r2;
    cs_ncp_report(&p, lambda, &r1);
    cs_ncp_report(&o->p, o->lambda, &r2);
    CHECK(same_bits(&r1, &r2, sizeof r1));
  }
  cs_problem_free(o);

  /* overwrite again without a solution: the old one must be gone */
  CHECK(cs_fclib_write_local(path, &p, NULL, NULL) == CS_OK);
  o = NULL;
  CHECK(cs_fclib_read_local(path, &o) == CS_OK && o && !o->lambda && !o->velocity);
  cs_problem_free(o);

  /* signed zeros and an all-zero row survive: -0.0 is not dropped as a "zero" */
  static double Gz[N * N];
  memcpy(Gz, G, sizeof G);
  for (int b = 0; b < N; b++) Gz[4 * N + b] = Gz[b * N + 4] = 0.0;
  Gz[1 * N + 7] = Gz[7 * N + 1] = -0.0;
  Gz[4 * N + 4] = -0.0;
  p.G = Gz;
  CHECK(cs_fclib_write_local(path, &p, NULL, NULL) == CS_OK);
  o = NULL;
  CHECK(cs_fclib_read_local(path, &o) == CS_OK && o);
  if (o) CHECK_MSG(same_bits(o->p.G, Gz, sizeof Gz), "signed zeros lost");
  cs_problem_free(o);

  /* compliance: FCLIB has no R on W, so W = G + diag(R) is written and read back as G */
  p.G = G;
  for (int a = 0; a < N; a++) R[a] = a % 4 ? cs_test_uniform(0, 0.1) : 0.0;
  p.R = R;
  CHECK(cs_fclib_write_local(path, &p, lambda, NULL) == CS_OK);
  o = NULL;
  CHECK(cs_fclib_read_local(path, &o) == CS_OK && o);
  if (o) {
    int ok = !o->p.R;
    for (int a = 0; a < N; a++)
      for (int b = 0; b < N; b++)
        ok &= o->p.G[a * N + b] == (a == b ? G[a * N + b] + R[a] : G[a * N + b]);
    CHECK_MSG(ok, "G + diag(R) not what was read back");
    csNcpReport r1, r2;
    cs_ncp_report(&p, lambda, &r1);
    cs_ncp_report(&o->p, o->lambda, &r2);
    CHECK_NEAR(r2.error, r1.error, 1e-14 * r1.error);
  }
  cs_problem_free(o);
  p.R = NULL;

  /* a truncated HDF5 file: an error, not a crash or an exit inside libfclib */
  CHECK(cs_fclib_write_local(path, &p, lambda, NULL) == CS_OK);
  long size = 0;
  FILE* f = fopen(path, "rb");
  if (f) {
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fclose(f);
  }
  CHECK(size > 0 && truncate(path, size / 2) == 0);
  o = (csOwnedProblem*)&o; /* any non-NULL value: a failed read must reset *out */
  st = cs_fclib_read_local(path, &o);
  CHECK_MSG(st != CS_OK && !o && mentions(path), "truncated file: %d %s", st, cs_last_error());
}

static void test_errors(const char* path) {
  char other[4200];
  csOwnedProblem* o = NULL;
  /* missing file */
  snprintf(other, sizeof other, "%s.missing.hdf5", path);
  csStatus st = cs_fclib_read_local(other, &o);
  CHECK_MSG(st == CS_ERR_IO && !o && mentions(other), "missing: %d %s", st, cs_last_error());
  /* a text file named .hdf5 */
  snprintf(other, sizeof other, "%s.text.hdf5", path);
  write_text(other, "this is not an HDF5 file\n1 2 3\n");
  st = cs_fclib_read_local(other, &o);
  CHECK_MSG(st != CS_OK && !o && mentions(other), "text: %d %s", st, cs_last_error());
  printf("text file: %s\n", cs_last_error());
  /* an empty file */
  write_text(other, "");
  st = cs_fclib_read_local(other, &o);
  CHECK_MSG(st != CS_OK && !o && mentions(other), "empty: %d %s", st, cs_last_error());
  remove(other);

  double G[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, g[3] = {-1, 0, 0}, mu[1] = {0.5};
  csContactProblem p;
  memset(&p, 0, sizeof p);
  p.nc = 1, p.G = G, p.g = g, p.mu = mu;
  /* unwritable: a directory that does not exist, and a directory itself */
  const char* bad = "/nonexistent-contactsim-dir/problem.hdf5";
  st = cs_fclib_write_local(bad, &p, NULL, NULL);
  CHECK_MSG(st == CS_ERR_IO && mentions(bad), "unwritable: %d %s", st, cs_last_error());
  printf("unwritable: %s\n", cs_last_error());
  st = cs_fclib_write_local("/tmp", &p, NULL, NULL);
  CHECK_MSG(st == CS_ERR_IO && mentions("/tmp"), "directory: %d %s", st, cs_last_error());
  /* nc = 0: FCLIB needs a problem */
  p.nc = 0;
  st = cs_fclib_write_local(path, &p, NULL, NULL);
  CHECK_MSG(st == CS_ERR_ARG && mentions(path), "nc 0: %d %s", st, cs_last_error());
  /* a one-contact problem works */
  p.nc = 1;
  CHECK(cs_fclib_write_local(path, &p, NULL, NULL) == CS_OK);
  CHECK(cs_fclib_read_local(path, &o) == CS_OK && o && o->p.nc == 1);
  if (o) CHECK(same_bits(o->p.G, G, sizeof G));
  cs_problem_free(o);
  cs_problem_free(NULL);
}

/* Every file of shared/fclib/siconos_hdf5 listed in its INDEX.tsv. */
/* A shared local file read by islands: the same G as the dense reading (written out by
   cs_problem_dense_G) and the same report terms of its stored solution. */
static void check_shared_islands(const char* path, const char* name, const csOwnedProblem* d) {
  csOwnedProblem* o = NULL;
  CHECK_MSG(cs_fclib_read_local_islands(path, &o) == CS_OK && o, "%s: %s", name, cs_last_error());
  if (!o) return;
  size_t n = 3 * (size_t)d->p.nc;
  double* G = malloc(sizeof(double) * n * n);
  cs_problem_dense_G(&o->p, G);
  CHECK_MSG(same_bits(G, d->G, sizeof(double) * n * n) && o->p.asym == d->p.asym,
            "%s: G by islands differs", name);
  int big = 0;
  for (int k = 0; k < o->p.nisland; k++) big = o->p.island[k].nc > big ? o->p.island[k].nc : big;
  printf("%s: %d islands (0: one, read dense), the largest of %d contacts\n", name, o->p.nisland,
         big);
  if (d->lambda) {
    csNcpReport a, b;
    cs_ncp_report(&d->p, d->lambda, &a);
    cs_ncp_report(&o->p, o->lambda, &b);
    CHECK_MSG(a.eps_abs == b.eps_abs && a.signorini == b.signorini &&
                  fabs(a.error - b.error) <= 1e-13 * a.error,
              "%s: report by islands differs", name);
  }
  free(G);
  cs_problem_free(o);
}

static void test_shared(void) {
  const char* dir0 = cs_test_shared("fclib/siconos_hdf5");
  if (!dir0) {
    printf("../shared absent: Siconos FCLIB files not checked\n");
    return;
  }
  char dir[4096], index[4200];
  snprintf(dir, sizeof dir, "%s", dir0);
  snprintf(index, sizeof index, "%s/INDEX.tsv", dir);
  FILE* f = fopen(index, "r");
  CHECK_MSG(f != NULL, "cannot open %s", index);
  if (!f) return;
  char line[4096];
  int nlocal = 0, nglobal = 0;
  while (fgets(line, sizeof line, f)) {
    char* col[10] = {0};
    int nf = 0;
    for (char* s = line; nf < 10;) {
      col[nf++] = s;
      char* tab = strchr(s, '\t');
      if (!tab) break;
      *tab = 0;
      s = tab + 1;
    }
    if (nf < 5 || strcmp(col[0], "file") == 0) continue;
    char path[8300];
    snprintf(path, sizeof path, "%s/%s", dir, col[0]);
    csOwnedProblem* o = NULL;
    csStatus st = cs_fclib_read_local(path, &o);
    if (strcmp(col[2], "fclib_local") == 0) {
      nlocal++;
      int nc = atoi(col[4]);
      CHECK_MSG(st == CS_OK && o, "%s: %s", col[0], cs_last_error());
      if (!o) continue;
      CHECK_MSG(o->p.nc == nc, "%s: nc %d, INDEX says %d", col[0], o->p.nc, nc);
      int n = 3 * o->p.nc;
      double gmax = 0, asym = 0, dmin = INFINITY;
      for (int a = 0; a < n * n; a++) gmax = fmax(gmax, fabs(o->p.G[a]));
      for (int a = 0; a < n; a++) {
        dmin = fmin(dmin, o->p.G[a * n + a]);
        for (int b = 0; b < a; b++) asym = fmax(asym, fabs(o->p.G[a * n + b] - o->p.G[b * n + a]));
      }
      /* Capsules' W itself is not symmetric: its CSR arrays hold W(69,70) = 0.609461952
         and W(70,69) = 0.609463228, and so on (asymmetry 9.4e-3, 1.3e-3 of max |W|), in
         the file, not from reading it. Every other local file is symmetric to 1e-12. */
      double symtol = strcmp(col[0], "Capsules-i125-1213.hdf5") == 0 ? 2e-3 : 1e-12;
      CHECK_MSG(asym <= symtol * gmax, "%s: G asymmetric by %g (max |G| %g)", col[0], asym, gmax);
      CHECK_MSG(dmin > 0, "%s: G has a diagonal entry %g <= 0", col[0], dmin);
      /* a stored solution, else the first guess, becomes lambda */
      int has_sol = (nf > 7 && atoi(col[7]) == 1) || (nf > 8 && atoi(col[8]) == 1);
      CHECK_MSG(has_sol == (o->lambda != NULL), "%s: stored solution %s", col[0],
                o->lambda ? "read but not listed" : "listed but not read");
      double mumin = INFINITY, mumax = 0;
      for (int i = 0; i < o->p.nc; i++) {
        mumin = fmin(mumin, o->p.mu[i]);
        mumax = fmax(mumax, o->p.mu[i]);
      }
      printf("%s: nc %d, |G|max %.3g, asym %.2g, diag min %.3g, mu %.3g..%.3g", col[0], o->p.nc,
             gmax, asym, dmin, mumin, mumax);
      if (o->lambda) {
        csNcpReport r;
        cs_ncp_report(&o->p, o->lambda, &r);
        double v[3 * 400];
        double e = -1;
        if (n <= 3 * 400 && o->velocity) {
          for (int a = 0; a < n; a++) {
            v[a] = o->p.g[a];
            for (int b = 0; b < n; b++) v[a] += o->p.G[a * n + b] * o->lambda[b];
          }
          e = cs_test_relerr(o->velocity, v, n, 1e-300);
        }
        printf(
            ", stored solution: error %.3g, error_1pq %.3g, eps_abs %.3g, |u - (G r + q)| "
            "rel %.3g",
            r.error, r.error_1pq, r.eps_abs, e);
      }
      printf("\n");
      check_shared_islands(path, col[0], o);
      cs_problem_free(o);
    } else if (strncmp(col[2], "fclib_global", 12) == 0) {
      nglobal++;
      CHECK_MSG(st == CS_ERR_UNSUPPORTED && !o, "%s: expected CS_ERR_UNSUPPORTED, got %d (%s)",
                col[0], st, cs_last_error());
      CHECK_MSG(mentions(path), "%s: message does not name the file: %s", col[0], cs_last_error());
      if (strcmp(col[2], "fclib_global") == 0)
        CHECK_MSG(strstr(cs_last_error(), "cs_fclib_read_global") != NULL,
                  "%s: message does not point to cs_fclib_read_global: %s", col[0],
                  cs_last_error());
      cs_problem_free(o);
    } else {
      CHECK_MSG(0, "%s: unknown kind '%s' in INDEX.tsv", col[0], col[2]);
      cs_problem_free(o);
    }
  }
  fclose(f);
  printf("shared FCLIB files: %d local read, %d global refused\n", nlocal, nglobal);
  CHECK(nlocal > 0 && nglobal > 0);
}

/* Solve p with type through cs_solve from zero into lambda (3nc). */
static void solve_into(int type, const csContactProblem* p, double* lambda) {
  csSolverOptions o = {20000, 1e-13, 1.0, 0, 0};
  size_t b = cs_solve_workspace_bytes((csSolverType)type, p, &o);
  void* ws = aligned_alloc(64, (b + 127) / 64 * 64);
  csSolverStats st;
  memset(lambda, 0, sizeof(double) * 3 * (size_t)p->nc);
  CHECK_MSG(ws && cs_solve((csSolverType)type, p, &o, ws, lambda, &st) == CS_OK, "%s: %s",
            cs_solver_name((csSolverType)type), cs_last_error());
  free(ws);
}

/* o read by islands holds t's islands bit for bit. */
static void check_islands_read(const csOwnedProblem* o, const csTestIslands* t) {
  int n = t->nrow;
  CHECK_MSG(o->p.nisland == t->k && !o->p.G && !o->G, "nisland %d, expected %d", o->p.nisland,
            t->k);
  for (int s = 0; s < t->k && s < o->p.nisland; s++) {
    const csIsland *a = o->p.island + s, *b = t->table + s;
    CHECK(a->nc == b->nc && a->nblock == 0 &&
          same_bits(a->contact, b->contact, sizeof(int) * (size_t)b->nc) &&
          same_bits(a->G, b->G, sizeof(double) * 9 * (size_t)b->nc * (size_t)b->nc));
  }
  CHECK(same_bits(o->p.g, t->g, sizeof(double) * (size_t)n) &&
        same_bits(o->p.mu, t->mu, sizeof(double) * (size_t)t->dense.nc));
  double* G = malloc(sizeof(double) * (size_t)n * (size_t)n);
  cs_problem_dense_G(&o->p, G);
  CHECK_MSG(same_bits(G, t->G, sizeof(double) * (size_t)n * (size_t)n), "dense G differs");
  free(G);
}

/* A problem of several islands written with its dense G reads back by islands with the same
   values (the islands in the order of their first contact, each island's G its own);
   written again from the island form it reads back (dense) to the same G and stored
   velocity; cs_solve on both forms agrees. A problem of one island reads by islands
   exactly as by cs_fclib_read_local. */
static void test_islands(const char* path) {
  static const int size[4][4] = {{3, 0, 0, 0}, {1, 0, 0, 0}, {4, 0, 0, 0}, {2, 0, 0, 0}};
  csTestIslands* t = cs_test_islands_new(4, size);
  int n = t->nrow;
  double* lam = malloc(sizeof(double) * (size_t)n);
  double* l2 = malloc(sizeof(double) * (size_t)n);
  for (int a = 0; a < n; a++) lam[a] = cs_test_uniform(-1, 1);
  CHECK_MSG(cs_fclib_write_local(path, &t->dense, lam, "islands") == CS_OK, "%s", cs_last_error());
  csOwnedProblem *o = NULL, *d = NULL, *back = NULL;
  CHECK_MSG(cs_fclib_read_local_islands(path, &o) == CS_OK && o, "%s", cs_last_error());
  CHECK(cs_fclib_read_local(path, &d) == CS_OK && d && d->p.nisland == 0);
  if (!o || !d) goto done;
  check_islands_read(o, t);
  CHECK(same_bits(o->lambda, lam, sizeof(double) * (size_t)n) &&
        same_bits(o->velocity, d->velocity, sizeof(double) * (size_t)n));
  CHECK_MSG(cs_fclib_write_local(path, &o->p, o->lambda, "islands again") == CS_OK, "%s",
            cs_last_error());
  CHECK(cs_fclib_read_local(path, &back) == CS_OK && back);
  if (back)
    CHECK_MSG(same_bits(back->G, t->G, sizeof(double) * (size_t)n * (size_t)n) &&
                  same_bits(back->velocity, d->velocity, sizeof(double) * (size_t)n),
              "written from islands, G or the velocity differs");
  const int types[3] = {CS_SOLVER_NCP_ADMM, CS_SOLVER_NSN_AC, CS_SOLVER_NCP_PGS};
  for (int k = 0; k < 3; k++) {
    solve_into(types[k], &d->p, lam);
    solve_into(types[k], &o->p, l2);
    double e = cs_test_relerr(l2, lam, n, 1.0);
    printf("islands read: %s agrees with the dense reading to %.2e\n",
           cs_solver_name((csSolverType)types[k]), e);
    CHECK_MSG(e <= 1e-9, "%s: by islands %g off", cs_solver_name((csSolverType)types[k]), e);
  }
  cs_problem_free(back), cs_problem_free(o), cs_problem_free(d);
  o = d = back = NULL;
  /* one island: as cs_fclib_read_local */
  CHECK(cs_fclib_write_local(path, &t->part[2]->p, NULL, NULL) == CS_OK);
  CHECK(cs_fclib_read_local_islands(path, &o) == CS_OK && cs_fclib_read_local(path, &d) == CS_OK);
  if (o && d)
    CHECK(o->p.nisland == 0 && !o->island && o->p.asym == d->p.asym &&
          same_bits(o->G, d->G, sizeof(double) * 144) && same_bits(o->G, t->part[2]->G, 144 * 8));
done:
  cs_problem_free(back), cs_problem_free(o), cs_problem_free(d);
  free(lam);
  free(l2);
  cs_test_islands_free(t);
}

int main(void) {
  cs_test_seed(7);
  if (!cs_have_fclib()) {
    /* Built without libfclib: the functions must say so, not pretend. */
    csOwnedProblem* o = (csOwnedProblem*)&o;
    CHECK(cs_fclib_read_local("/tmp/x.hdf5", &o) == CS_ERR_UNSUPPORTED && !o);
    csContactProblem p;
    memset(&p, 0, sizeof p);
    CHECK(cs_fclib_write_local("/tmp/x.hdf5", &p, NULL, NULL) == CS_ERR_UNSUPPORTED);
    int rc = cs_test_finish("test_io_fclib (no FCLIB support)");
    return rc ? rc : CS_SKIP_CODE;
  }
  char path[4096];
  snprintf(path, sizeof path, "/tmp/contactsim_fclib_XXXXXX");
  int fd = mkstemp(path);
  CHECK_MSG(fd >= 0, "mkstemp failed");
  if (fd < 0) return cs_test_finish("test_io_fclib");
  close(fd);
  test_round_trip(path);
  test_errors(path);
  test_islands(path);
  remove(path);
  test_shared();
  return cs_test_finish("test_io_fclib");
}
