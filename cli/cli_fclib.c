/* contactsim fclib info FILE [--json]
   contactsim fclib solve FILE --solver S [--tol T] [--iterations N] [--repeats N]
                                          [--out SOL.hdf5] [--json]

   FCLIB problems (Siconos' HDF5 files): local ones (W r + q = u) as they are, global ones
   (M v = H r + f, u = H^T v + w) condensed to local form W = H^T M^-1 H, q = H^T M^-1 f + w
   and, after the solve, their global velocity v = M^-1 (H r + f) and Siconos' global error.
   The solving and the JSON line are shared with `contactsim bench fclib` (cs_fclib_case.c;
   the benchmark executable adds Siconos' solvers). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_cli.h"
#include "cs_fclib_case.h"
#include "cs_util.h"

static void usage(FILE* f) {
  fprintf(f,
          "usage: contactsim fclib info FILE [--json]\n"
          "       contactsim fclib solve FILE --solver S [--tol T] [--iterations N]\n"
          "                                   [--repeats N] [--out SOL.hdf5] [--json]\n"
          "\n"
          "FCLIB frictional contact problems (HDF5). Global problems (M v = H r + f,\n"
          "u = H^T v + w) are condensed to local form (W = H^T M^-1 H, q = H^T M^-1 f + w)\n"
          "before the solve; rolling-friction problems are not supported.\n"
          "  info    kind, sizes, friction range, symmetry of W, stored solution, title\n"
          "  solve   solve with one solver; `contactsim fclib solve --help` for options\n");
}

static void usage_info(FILE* f) {
  fprintf(f,
          "usage: contactsim fclib info FILE [--json]\n"
          "\n"
          "Prints what an FCLIB file holds: local or global problem, contacts, sizes and\n"
          "stored entries, friction range, the local matrix W (condensed for a global file)\n"
          "with its symmetry and smallest diagonal entry, whether a solution or guesses are\n"
          "stored (with the Siconos error of the stored solution), title and description.\n"
          "  --json   one JSON object on stdout (default: labelled lines)\n"
          "Exit status: 0 described, 1 the file cannot be read, 2 bad command line.\n");
}

static void usage_solve(FILE* f) {
  fprintf(f,
          "usage: contactsim fclib solve FILE --solver S [--tol T] [--iterations N]\n"
          "                                   [--repeats N] [--out SOL.hdf5] [--json]\n"
          "\n"
          "Solves the (condensed) local problem of FILE from r = 0 and prints the Siconos\n"
          "error of the solution (docs/solvers.md) and, for a global problem, the global\n"
          "error of (r, v) with v = M^-1 (H r + f).\n"
          "  --solver S       solver name (required); implemented: ");
  cs_cli_fclib_list_solvers(f);
  if (!cs_cli_fclib_extra_solvers)
    fprintf(f,
            "\n"
            "                   (siconos_nsgs, siconos_nsn_ac, siconos_nsn_fb, siconos_admm:\n"
            "                   run by contactsim-bench, from a build tree with Siconos)");
  fprintf(f,
          "\n"
          "  --tol T          target Siconos error, also the solver's own tolerance, >= 0\n"
          "                   (default 1e-8); converged means error <= T\n"
          "  --iterations N   iteration cap, 1 to 1e9 (default 10000)\n"
          "  --repeats N      timed solves, 1 to 64; the median is reported (default 1)\n"
          "  --out SOL.hdf5   write the problem with the solution (r, u; v for a global\n"
          "                   problem) as an FCLIB file, then read it back to check\n"
          "                   (default: none)\n"
          "  --json           the JSON line of `contactsim bench fclib` on stdout (default:\n"
          "                   labelled lines)\n"
          "Each option once. Exit status: 0 solved, 1 the file or the solve failed, 2 bad\n"
          "command line.\n");
}

static const char* kind_name(csFclibKind k) {
  switch (k) {
    case CS_FCLIB_LOCAL:
      return "local";
    case CS_FCLIB_GLOBAL:
      return "global";
    case CS_FCLIB_LOCAL_ROLLING:
      return "local_rolling";
    case CS_FCLIB_GLOBAL_ROLLING:
      return "global_rolling";
    default:
      return "none";
  }
}

static double norm(const double* x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}

/* ---------------------------------------------------------------- info */

/* The option loop of info: -1 with *path set when all were read, else the exit code
   (--help: 0; a bad option, a second FILE or none: 2) */
static int info_parse_options(int argc, char** argv, const char** path, int* json) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage_info(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--json")) {
      *json = 1;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "contactsim fclib info: unknown option '%s' (try --help)\n", argv[i]);
      return 2;
    } else if (!*path) {
      *path = argv[i];
    } else {
      fprintf(stderr, "contactsim fclib info: one FILE only\n");
      return 2;
    }
  }
  if (!*path) {
    fprintf(stderr, "contactsim fclib info: missing FILE\n");
    usage_info(stderr);
    return 2;
  }
  return -1;
}

/* What info reports of the local matrix W and the stored solution (NaN: not known) */
typedef struct {
  int rows;                /* W's order */
  double asym, wmax, dmin; /* max |W - W^T| / max |W|, max |W|, smallest diagonal entry */
  double sol_err, sol_r;   /* the stored solution's Siconos (global) error and |r| */
} infoLocal;

/* W's symmetry and diagonal, and the stored solution's error (global error for a global
   problem with r and v stored, else the local one of the stored lambda) */
static void info_local(const csCliFclibCase* c, infoLocal* w) {
  const csContactProblem* p = &c->local->p;
  const size_t m = 3 * (size_t)p->nc;
  w->rows = (int)m;
  double a = 0;
  w->dmin = INFINITY;
  /* a problem read by islands: its G written out dense */
  double* own = p->G ? NULL : malloc(m * m * sizeof(double));
  if (own) cs_problem_dense_G(p, own);
  const double* G = p->G ? p->G : own;
  for (size_t i = 0; G && i < m; i++) {
    w->dmin = fmin(w->dmin, G[i * m + i]);
    for (size_t j = 0; j < m; j++) {
      a = fmax(a, fabs(G[i * m + j] - G[j * m + i]));
      w->wmax = fmax(w->wmax, fabs(G[i * m + j]));
    }
  }
  free(own);
  w->asym = w->wmax > 0 ? a / w->wmax : a;
  if (c->global && c->global->r && c->global->v) {
    w->sol_err = cs_global_error(c->global, c->global->r, c->global->v, NULL);
    w->sol_r = norm(c->global->r, m);
  } else if (c->local->lambda) {
    csNcpReport rep;
    cs_ncp_report(p, c->local->lambda, &rep);
    w->sol_err = rep.error;
    w->sol_r = norm(c->local->lambda, m);
  }
}

/* info --json: one object (lst: the local problem's load status, why its message) */
static void info_print_json(const csFclibInfo* in, const csCliFclibCase* c, csStatus lst,
                            const char* why, const infoLocal* w) {
  printf("{\"file\":");
  cs_cli_json_str(stdout, c->name);
  printf(",\"kind\":\"%s\",\"spacedim\":%d,\"nc\":%d,\"n\":%d,\"rows\":%d", kind_name(in->kind),
         in->spacedim, in->nc, in->n, in->rows);
  if (in->kind == CS_FCLIB_LOCAL || in->kind == CS_FCLIB_LOCAL_ROLLING)
    printf(",\"nnz_W\":%lld", in->nnz[0]);
  else
    printf(",\"nnz_M\":%lld,\"nnz_H\":%lld", in->nnz[0], in->nnz[1]);
  cs_cli_json_num(stdout, "mu_min", in->mu_min);
  cs_cli_json_num(stdout, "mu_max", in->mu_max);
  printf(",\"supported\":%s", lst ? "false" : "true");
  if (lst) {
    printf(",\"reason\":");
    cs_cli_json_str(stdout, why);
  } else {
    cs_cli_json_num(stdout, "w_asymmetry", w->asym);
    cs_cli_json_num(stdout, "w_min_diagonal", w->dmin);
    cs_cli_json_num(stdout, "condense_ms", c->condense_ms);
  }
  printf(",\"has_solution\":%s,\"has_guess\":%s", in->has_solution ? "true" : "false",
         in->has_guess ? "true" : "false");
  cs_cli_json_num(stdout, "solution_error", w->sol_err);
  cs_cli_json_num(stdout, "solution_r_norm", w->sol_r);
  printf(",\"title\":");
  cs_cli_json_str(stdout, in->title);
  printf(",\"description\":");
  cs_cli_json_str(stdout, in->description);
  printf("}\n");
}

/* The stored description on one line: leading newlines dropped, the others " / " (none
   for a newline that ends the text or is followed by another) */
static void info_print_description(const char* s) {
  printf("description  ");
  while (*s == '\n') s++;
  for (; *s; s++) {
    if (*s == '\n') {
      if (s[1] && s[1] != '\n') printf(" / ");
    } else {
      putchar(*s);
    }
  }
  printf("\n");
}

/* info as text: one labelled line per item */
static void info_print_text(const char* path, const csFclibInfo* in, const csCliFclibCase* c,
                            csStatus lst, const char* why, const infoLocal* w) {
  printf("file         %s\n", path);
  printf("kind         %s", kind_name(in->kind));
  if (in->kind == CS_FCLIB_GLOBAL) printf(" (M v = H r + f, u = H^T v + w)");
  if (in->kind == CS_FCLIB_LOCAL) printf(" (W r + q = u)");
  printf("\n");
  if (in->title[0]) printf("title        %s\n", in->title);
  if (in->description[0]) info_print_description(in->description);
  printf("spacedim     %d\n", in->spacedim);
  printf("contacts     %d\n", in->nc);
  if (in->kind == CS_FCLIB_LOCAL || in->kind == CS_FCLIB_LOCAL_ROLLING)
    printf("sizes        W %d x %d (%lld stored entries)\n", in->rows, in->rows, in->nnz[0]);
  else if (in->kind != CS_FCLIB_NONE)
    printf("sizes        M %d x %d (%lld stored), H %d x %d (%lld stored)\n", in->n, in->n,
           in->nnz[0], in->n, in->rows, in->nnz[1]);
  if (isfinite(in->mu_min)) printf("mu           %g .. %g\n", in->mu_min, in->mu_max);
  if (lst) {
    printf("supported    no: %s\n", why);
  } else {
    printf("W            %d x %d%s, max |W - W^T| / max |W| = %.3g, smallest diagonal %.6g%s\n",
           w->rows, w->rows, c->global ? " (condensed H^T M^-1 H)" : "", w->asym, w->dmin,
           w->dmin > 0 ? "" : " (not positive!)");
    if (c->global) printf("condensation %.3f ms (sparse Cholesky of M)\n", c->condense_ms);
  }
  printf("solution     %s", in->has_solution ? "stored" : "none");
  if (isfinite(w->sol_err))
    printf(" (|r| = %.6g, %s error %.6g)", w->sol_r, c->global ? "Siconos global" : "Siconos",
           w->sol_err);
  printf("\nguesses      %s\n", in->has_guess ? "stored" : "none");
}

/* fclib info: the file's summary (libfclib's view), then its local problem loaded (and
   condensed) for W's symmetry and the stored solution's error; unsupported files are
   described with the reason */
static int cmd_info(int argc, char** argv) {
  const char* path = NULL;
  int json = 0;
  int rc = info_parse_options(argc, argv, &path, &json);
  if (rc >= 0) return rc;
  csFclibInfo in;
  csStatus st = cs_fclib_info(path, &in);
  if (st) {
    fprintf(stderr, "contactsim fclib info: %s: %s\n", cs_status_name(st), cs_last_error());
    return 1;
  }
  /* the local matrix: read (and condense) to report its symmetry */
  csCliFclibCase c;
  csStatus lst = cs_cli_fclib_case_load(path, &c);
  char why[512] = "";
  if (lst) snprintf(why, sizeof why, "%s", cs_last_error());
  infoLocal w = {0, NAN, 0, NAN, NAN, NAN};
  if (!lst) info_local(&c, &w);
  if (json)
    info_print_json(&in, &c, lst, why, &w);
  else
    info_print_text(path, &in, &c, lst, why, &w);
  cs_cli_fclib_case_free(&c);
  return 0;
}

/* ---------------------------------------------------------------- solve */

/* Write the problem with its solution to out and read it back; 0 on success. */
static int write_solution(const csCliFclibCase* c, const double* lambda, const char* out,
                          int json) {
  const size_t m = 3 * (size_t)c->local->p.nc;
  csStatus st;
  int ok = 1;
  if (c->global) {
    const size_t n = (size_t)c->global->n;
    double* v = malloc(n * sizeof(double));
    if (!v) return 1;
    st = cs_global_velocity(c->global, lambda, v);
    if (!st) st = cs_fclib_write_global(out, c->global, lambda, v, c->name);
    csGlobalProblem* back = NULL;
    if (!st) st = cs_fclib_read_global(out, &back);
    if (!st)
      ok = back->r && back->u && back->v && !memcmp(back->r, lambda, m * sizeof(double)) &&
           !memcmp(back->v, v, n * sizeof(double));
    cs_global_problem_free(back);
    free(v);
  } else {
    st = cs_fclib_write_local(out, &c->local->p, lambda, c->name);
    csOwnedProblem* back = NULL;
    if (!st) st = cs_fclib_read_local(out, &back);
    if (!st)
      ok = back->lambda && back->velocity && !memcmp(back->lambda, lambda, m * sizeof(double));
    cs_problem_free(back);
  }
  if (st) {
    fprintf(stderr, "contactsim fclib solve: --out: %s: %s\n", cs_status_name(st), cs_last_error());
    return 1;
  }
  if (!ok) {
    fprintf(stderr,
            "contactsim fclib solve: --out: '%s' was written but its solution does "
            "not read back identical\n",
            out);
    return 1;
  }
  if (!json)
    printf("wrote %s: the problem and its solution (r, u%s), read back identical\n", out,
           c->global ? ", v" : "");
  return 0;
}

static int cmd_solve(int argc, char** argv) {
  const char* path = NULL;
  const char* solver = NULL;
  const char* out = NULL;
  int json = 0;
  csCliFclibSettings set = {1e-8, 10000, 1, 120.0, 0};
  static const char* const names[] = {"--solver",     "--out",     "--tol",
                                      "--iterations", "--repeats", NULL};
  unsigned seen = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    int k = 0;
    while (names[k] && strcmp(a, names[k])) k++;
    long x = 0;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage_solve(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      json = 1;
      continue;
    } else if (a[0] == '-' && !names[k]) {
      fprintf(stderr, "contactsim fclib solve: unknown option '%s' (try --help)\n", a);
      return 2;
    } else if (!names[k] && !path) {
      path = a;
      continue;
    } else if (!names[k]) {
      fprintf(stderr, "contactsim fclib solve: one FILE only ('%s' and '%s')\n", path, a);
      return 2;
    }
    if (!cs_cli_needs_value("fclib solve", argc, argv, i) ||
        !cs_cli_once("fclib solve", a, &seen, 1u << k))
      return 2;
    const char* v = argv[++i];
    int ok = 1;
    if (k == 0)
      solver = v;
    else if (k == 1)
      out = v;
    else if (k == 2)
      ok = cs_cli_number("fclib solve", a, v, 0, 0, INFINITY, "must be a finite number >= 0",
                         &set.tol);
    else if (k == 3 && (ok = cs_cli_count("fclib solve", a, v, 1, 1000000000, &x)))
      set.iterations = (int)x;
    else if (k == 4 && (ok = cs_cli_count("fclib solve", a, v, 1, 64, &x)))
      set.repeats = (int)x;
    if (!ok) return 2;
  }
  if (!path) {
    fprintf(stderr, "contactsim fclib solve: missing FILE\n");
    usage_solve(stderr);
    return 2;
  }
  if (!solver) {
    fprintf(stderr, "contactsim fclib solve: missing --solver S; implemented: ");
    cs_cli_fclib_list_solvers(stderr);
    fprintf(stderr, "\n");
    return 2;
  }
  if (!cs_cli_fclib_solver_known(solver)) {
    fprintf(stderr,
            "contactsim fclib solve: --solver '%s': unknown or unimplemented solver; "
            "implemented: ",
            solver);
    cs_cli_fclib_list_solvers(stderr);
    fprintf(stderr, "\n");
    return 2;
  }
  csCliFclibCase c;
  csStatus st = cs_cli_fclib_case_load(path, &c);
  if (st) {
    fprintf(stderr, "contactsim fclib solve: %s: %s\n", cs_status_name(st), cs_last_error());
    cs_cli_fclib_case_free(&c);
    return 1;
  }
  const size_t m = 3 * (size_t)c.local->p.nc;
  double* lambda = malloc(m * sizeof(double));
  if (!lambda) {
    cs_cli_fclib_case_free(&c);
    return 1;
  }
  csCliFclibRun r;
  cs_cli_fclib_run(&c, solver, &set, lambda, &r);
  int rc = r.ok ? 0 : 1;
  if (json) {
    cs_cli_fclib_print_json(stdout, &c, solver, &r);
  } else {
    printf("file         %s (%s, %d contacts)\n", c.name, c.global ? "global, condensed" : "local",
           c.local->p.nc);
    printf("solver       %s\n", solver);
    if (!r.ok) printf("failed       %s\n", r.note);
    printf("converged    %s (Siconos error <= %g)\n", r.converged ? "yes" : "no", set.tol);
    printf("error        %.6g (Siconos: natural map / max(|q|, |r|, |u|))\n", r.error);
    printf("error_1pq    %.6g (natural map / (1 + |q|))\n", r.error_1pq);
    printf("eps_abs      %.6g (NCP report)\n", r.eps_abs);
    if (c.global) printf("global_error %.6g (v = M^-1 (H r + f))\n", r.global_error);
    printf("iterations   %d\n", r.iterations);
    printf("time         %.3f ms%s\n", r.ms, set.repeats > 1 ? " (median)" : "");
  }
  fflush(stdout);
  if (out && r.ok && write_solution(&c, lambda, out, json)) rc = 1;
  free(lambda);
  cs_cli_fclib_case_free(&c);
  return rc;
}

int cs_cli_fclib(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char* sub = argv[1];
  if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
    usage(stdout);
    return 0;
  }
  if (!cs_have_fclib()) {
    fprintf(stderr, "contactsim fclib: this build has no FCLIB support (libfclib)\n");
    return 1;
  }
  if (!strcmp(sub, "info")) return cmd_info(argc - 1, argv + 1);
  if (!strcmp(sub, "solve")) return cmd_solve(argc - 1, argv + 1);
  fprintf(stderr, "contactsim fclib: unknown subcommand '%s' (info or solve; try --help)\n", sub);
  return 2;
}
