/* FCLIB global problems (fclib.h: M v = H r + f, u = H^T v + w; Siconos' q is this f, with
   the same sign) read and written through libfclib 3.1.0: one source of the global form
   (csGlobalProblem), whose condensation, velocity and error are in
   src/constraint/cs_global_problem.c. The signs were checked on Siconos' files with stored
   solutions (Box_Stacks, Spheres, spheres-in-a-box): (r, v) satisfies M v = H r + f to rounding.

   Reading follows src/io/cs_io_fclib.c: libfclib exits the process on any failed HDF5 call
   and trusts the stored sizes, so every dataset it will touch is checked first with plain
   HDF5 calls (the probing helpers of src/io/cs_io_hdf5.c, shared with cs_io_fclib.c). Also
   checked here, which libfclib never does: every value finite, mu >= 0, indices inside the
   matrix, M symmetric. The stored solution and the first guess are read directly (sizes
   checked), not by libfclib.

   The matrices are converted to compressed columns (rows sorted, duplicates summed) by
   src/sparse/cs_sparse.h's triplet builder. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraint/cs_global_problem.h"
#include "contactsim/cs_contact.h"
#include "core/cs_error.h"
#include "io/cs_io_hdf5.h"
#include "sparse/cs_sparse.h"

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB

#include <fclib.h>
#include <hdf5.h>

/* ---------------------------------------------------------------- HDF5 strings */

/* A string dataset (fixed or variable length, scalar or one element) into buf (always
   terminated, truncated to cap). 0 if absent. */
static int h5_string(hid_t f, const char* name, char* buf, size_t cap) {
  buf[0] = 0;
  H5T_class_t cls = H5T_NO_CLASS;
  int varstr = 0;
  if (csi_h5_info(f, name, &cls, &varstr, NULL) != 1 || cls != H5T_STRING) return 0;
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return 0;
  int ok = 0;
  hid_t ft = H5Dget_type(d);
  if (varstr) {
    hid_t mt = H5Tcopy(H5T_C_S1);
    char* s = NULL;
    if (mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 &&
        H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, &s) >= 0 && s) {
      snprintf(buf, cap, "%s", s);
      H5free_memory(s);
      ok = 1;
    }
    if (mt >= 0) H5Tclose(mt);
  } else if (ft >= 0) {
    size_t size = H5Tget_size(ft);
    char* tmp = size > 0 && size < ((size_t)1 << 24) ? csi_calloc(size + 1, 1) : NULL;
    hid_t mt = tmp ? H5Tcopy(ft) : -1;
    if (tmp && mt >= 0 && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, tmp) >= 0) {
      snprintf(buf, cap, "%s", tmp);
      ok = 1;
    }
    if (mt >= 0) H5Tclose(mt);
    cs_free(tmp);
  }
  if (ft >= 0) H5Tclose(ft);
  H5Dclose(d);
  /* control characters (but newlines and tabs) and bytes that are not valid UTF-8 (one
     LMGC title starts with a stray 0x80) become '?', so the text prints and goes into JSON */
  for (unsigned char* c = (unsigned char*)buf; *c;) {
    int len = *c < 0x80             ? 1
              : (*c & 0xE0) == 0xC0 ? 2
              : (*c & 0xF0) == 0xE0 ? 3
              : (*c & 0xF8) == 0xF0 ? 4
                                    : 0;
    int good = len > 0 && (*c >= 32 || *c == '\n' || *c == '\t');
    for (int k = 1; good && k < len; k++) good = (c[k] & 0xC0) == 0x80;
    if (!good) {
      *c++ = '?';
      continue;
    }
    c += len;
  }
  return ok;
}

/* ---------------------------------------------------------------- cs_fclib_info */

static long long matrix_nnz(hid_t f, const char* grp) {
  char name[192]; /* grp comes from a char[160] */
  int nz = 0;
  snprintf(name, sizeof name, "%s/nz", grp);
  if (!csi_h5_int(f, name, &nz)) return -1;
  if (nz >= 0) return nz;
  snprintf(name, sizeof name, "%s/x", grp);
  return csi_h5_numel(f, name);
}

csStatus cs_fclib_info(const char* path, csFclibInfo* info) {
  if (!path || !info) return csi_error(CS_ERR_ARG, "cs_fclib_info: NULL path or info");
  memset(info, 0, sizeof *info);
  csiH5Quiet quiet;
  csi_h5_quiet(&quiet);
  hid_t f;
  csStatus st = csi_h5_open_read(path, &f);
  if (st) {
    csi_h5_restore(&quiet);
    return st;
  }
  static const struct {
    const char* grp;
    csFclibKind kind;
  } kinds[4] = {{"/fclib_local", CS_FCLIB_LOCAL},
                {"/fclib_global", CS_FCLIB_GLOBAL},
                {"/fclib_local_rolling", CS_FCLIB_LOCAL_ROLLING},
                {"/fclib_global_rolling", CS_FCLIB_GLOBAL_ROLLING}};
  const char* grp = NULL;
  for (int k = 0; k < 4 && !grp; k++)
    if (csi_h5_exists(f, kinds[k].grp)) grp = kinds[k].grp, info->kind = kinds[k].kind;
  if (grp) {
    char name[160];
    const int local = info->kind == CS_FCLIB_LOCAL || info->kind == CS_FCLIB_LOCAL_ROLLING;
    snprintf(name, sizeof name, "%s/spacedim", grp);
    if (!csi_h5_int(f, name, &info->spacedim)) info->spacedim = 0;
    if (local) {
      snprintf(name, sizeof name, "%s/W/m", grp);
      if (!csi_h5_int(f, name, &info->rows)) info->rows = 0;
      snprintf(name, sizeof name, "%s/W", grp);
      info->nnz[0] = matrix_nnz(f, name);
      info->nnz[1] = -1;
    } else {
      snprintf(name, sizeof name, "%s/M/n", grp);
      if (!csi_h5_int(f, name, &info->n)) info->n = 0;
      snprintf(name, sizeof name, "%s/H/n", grp);
      if (!csi_h5_int(f, name, &info->rows)) info->rows = 0;
      snprintf(name, sizeof name, "%s/M", grp);
      info->nnz[0] = matrix_nnz(f, name);
      snprintf(name, sizeof name, "%s/H", grp);
      info->nnz[1] = matrix_nnz(f, name);
    }
    if (info->spacedim > 0 && info->rows > 0) info->nc = info->rows / info->spacedim;
    snprintf(name, sizeof name, "%s/vectors/mu", grp);
    long long nmu = csi_h5_numel(f, name);
    info->mu_min = info->mu_max = NAN;
    if (nmu > 0 && nmu <= 100000000) {
      double* mu = csi_malloc((size_t)nmu * sizeof(double));
      if (mu && csi_h5_read(f, name, H5T_NATIVE_DOUBLE, mu) == 0) {
        info->mu_min = info->mu_max = mu[0];
        for (long long i = 1; i < nmu; i++) {
          info->mu_min = fmin(info->mu_min, mu[i]);
          info->mu_max = fmax(info->mu_max, mu[i]);
        }
      }
      cs_free(mu);
    }
    snprintf(name, sizeof name, "%s/info/title", grp);
    h5_string(f, name, info->title, sizeof info->title);
    snprintf(name, sizeof name, "%s/info/description", grp);
    h5_string(f, name, info->description, sizeof info->description);
  }
  info->has_solution = csi_h5_exists(f, "/solution");
  info->has_guess = csi_h5_exists(f, "/guesses");
  H5Fclose(f);
  csi_h5_restore(&quiet);
  return st;
}

/* ---------------------------------------------------------------- probing */

typedef struct GlobalProbe {
  int n, m;
  int sol; /* 1: /solution, 2: /guesses/1 */
  int sol_u;
  int sol_v;
} GlobalProbe;

/* The solution group grp (/solution or /guesses/1): r required, u and v optional. */
static csStatus probe_solution(hid_t f, const char* path, const char* grp, GlobalProbe* pr) {
  char name[64];
  csStatus st;
  snprintf(name, sizeof name, "%s/r", grp);
  if ((st = csi_h5_need_len(f, path, name, pr->m))) return st;
  snprintf(name, sizeof name, "%s/u", grp);
  if (csi_h5_exists(f, name)) {
    if ((st = csi_h5_need_len(f, path, name, pr->m))) return st;
    pr->sol_u = 1;
  }
  snprintf(name, sizeof name, "%s/v", grp);
  if (csi_h5_exists(f, name)) {
    if ((st = csi_h5_need_len(f, path, name, pr->n))) return st;
    pr->sol_v = 1;
  }
  return CS_OK;
}

static csStatus probe_global(hid_t f, const char* path, GlobalProbe* pr) {
  csStatus st;
  memset(pr, 0, sizeof *pr);
  if (!csi_h5_exists(f, "/fclib_global")) {
    if (csi_h5_exists(f, "/fclib_global_rolling") || csi_h5_exists(f, "/fclib_local_rolling"))
      return csi_error(CS_ERR_UNSUPPORTED,
                       "'%s' is an FCLIB rolling-friction problem (spacedim 5); not supported "
                       "(libfclib 3.1.0 cannot read it either)",
                       path);
    if (csi_h5_exists(f, "/fclib_local"))
      return csi_error(CS_ERR_ARG,
                       "'%s' holds an FCLIB local problem, not a global one "
                       "(read it with cs_fclib_read_local)",
                       path);
    return csi_error(CS_ERR_PARSE,
                     "'%s' is an HDF5 file without an FCLIB problem "
                     "(no /fclib_local or /fclib_global group)",
                     path);
  }
  if ((st = csi_h5_probe_spacedim(f, path, "/fclib_global"))) return st;
  if (csi_h5_exists(f, "/fclib_global/G"))
    return csi_error(CS_ERR_UNSUPPORTED,
                     "FCLIB file '%s': global problem with equality constraints (G, b); not "
                     "read",
                     path);
  int mm = 0, mn = 0, hm = 0, hn = 0;
  if ((st = csi_h5_probe_matrix(f, path, "/fclib_global/M", &mm, &mn))) return st;
  if ((st = csi_h5_probe_matrix(f, path, "/fclib_global/H", &hm, &hn))) return st;
  if (mm != mn)
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': M is %d x %d, not square", path, mm, mn);
  if (hm != mm || hn % 3 != 0)
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': H is %d x %d, expected %d x 3nc", path, hm, hn,
                     mm);
  pr->n = mm;
  pr->m = hn;
  if ((st = csi_h5_need_len(f, path, "/fclib_global/vectors/f", mm))) return st;
  if ((st = csi_h5_need_len(f, path, "/fclib_global/vectors/w", hn))) return st;
  if ((st = csi_h5_need_len(f, path, "/fclib_global/vectors/mu", hn / 3))) return st;
  if ((st = csi_h5_probe_info(f, path, "/fclib_global"))) return st;
  if (csi_h5_exists(f, "/solution")) {
    if ((st = probe_solution(f, path, "/solution", pr))) return st;
    pr->sol = 1;
  } else if (csi_h5_exists(f, "/guesses/1/r")) {
    if ((st = probe_solution(f, path, "/guesses/1", pr))) return st;
    pr->sol = 2;
  }
  return CS_OK;
}

/* ---------------------------------------------------------------- conversion */

/* libfclib's matrix as cnt triplets (row, col, x), its pointers checked. Storage as
   in CSparse (Siconos writes these files with it): triplet i = row, p = column (fclib.h says
   the opposite; H, which is not square, shows which: its i reach n - 1, its p 3nc - 1);
   CSC p = column pointers, i = rows; CSR p = row pointers, i = columns. */
static void fclib_triplets(const struct fclib_matrix* A, long long cnt, int* row, int* col,
                           double* x) {
  if (A->nz >= 0) {
    for (long long k = 0; k < cnt; k++) row[k] = A->i[k], col[k] = A->p[k], x[k] = A->x[k];
    return;
  }
  const int csc = A->nz == -1, outer = csc ? A->n : A->m;
  long long k = 0;
  for (int a = 0; a < outer; a++)
    for (int q = A->p[a]; q < A->p[a + 1]; q++, k++) {
      row[k] = csc ? A->i[q] : a;
      col[k] = csc ? a : A->i[q];
      x[k] = A->x[q];
    }
}

/* A compressed matrix's pointers increasing from 0 within 0..nzmax */
static csStatus check_pointers(const struct fclib_matrix* A, const char* what, const char* path) {
  if (A->nz >= 0) return CS_OK;
  const int csc = A->nz == -1, outer = csc ? A->n : A->m;
  for (int a = 0; a < outer; a++)
    if (A->p[a] < 0 || A->p[a + 1] < A->p[a] || A->p[a + 1] > A->nzmax || (a == 0 && A->p[0]))
      return csi_error(CS_ERR_PARSE,
                       "FCLIB file '%s': %s's %s pointers are not increasing "
                       "within 0..nzmax %d at %d",
                       path, what, csc ? "column" : "row", A->nzmax, a);
  return CS_OK;
}

/* Every triplet inside the m x n matrix and finite */
static csStatus check_triplets(int m, int n, long long cnt, const int* row, const int* col,
                               const double* x, const char* what, const char* path) {
  for (long long k = 0; k < cnt; k++) {
    if (row[k] < 0 || row[k] >= m || col[k] < 0 || col[k] >= n)
      return csi_error(CS_ERR_PARSE,
                       "FCLIB file '%s': %s entry %lld at (%d, %d) is outside the "
                       "%d x %d matrix",
                       path, what, k, row[k], col[k], m, n);
    if (!isfinite(x[k]))
      return csi_error(CS_ERR_PARSE, "FCLIB file '%s': %s entry %lld at (%d, %d) is %g", path, what,
                       k, row[k], col[k], x[k]);
  }
  return CS_OK;
}

/* libfclib's matrix to compressed columns, rows sorted, duplicates summed in file order. */
static csStatus to_csc(const struct fclib_matrix* A, const char* what, const char* path,
                       csSparseMatrix* out) {
  const int m = A->m, n = A->n;
  long long cnt = A->nz >= 0 ? A->nz : A->nz == -1 ? A->p[n] : A->p[m];
  csStatus st = check_pointers(A, what, path);
  if (st) return st;
  size_t room = (size_t)(cnt > 0 ? cnt : 1);
  int* row = csi_malloc(room * sizeof(int));
  int* col = csi_malloc(room * sizeof(int));
  double* x = csi_malloc(room * sizeof(double));
  if (!row || !col || !x)
    st = csi_error(CS_ERR_MEMORY, "out of memory reading %s from '%s'", what, path);
  if (!st) fclib_triplets(A, cnt, row, col, x);
  if (!st) st = check_triplets(m, n, cnt, row, col, x, what, path);
  if (!st) st = csi_sparse_from_triplets(m, n, (size_t)cnt, row, col, x, out);
  cs_free(row), cs_free(col), cs_free(x);
  return st;
}

/* M must be symmetric: both triangles stored (Siconos' files), or one triangle only, which
   is mirrored. Asymmetry up to 1e-12 of the largest entry (rounding in the producer) is
   accepted; the global error is then measured with M as stored. */
static csStatus check_symmetric(csSparseMatrix* M, const char* path) {
  const int n = M->n;
  long long lower = 0, upper = 0;
  double amax = 0;
  for (int j = 0; j < n; j++)
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
      int i = M->rowind[k];
      if (i > j) lower++;
      if (i < j) upper++;
      amax = fmax(amax, fabs(M->val[k]));
    }
  if ((lower == 0) != (upper == 0)) {
    /* one triangle: build the full matrix */
    csSparseMatrix F = {n, n, NULL, NULL, NULL};
    long long nnz = (long long)M->colptr[n] + (lower + upper);
    if (nnz > INT_MAX)
      return csi_error(CS_ERR_PARSE, "FCLIB file '%s': M has too many entries", path);
    F.colptr = csi_calloc((size_t)n + 1, sizeof(int));
    F.rowind = csi_malloc((size_t)nnz * sizeof(int));
    F.val = csi_malloc((size_t)nnz * sizeof(double));
    int* fill = csi_malloc(((size_t)n + 1) * sizeof(int));
    if (!F.colptr || !F.rowind || !F.val || !fill) {
      csi_sparse_free(&F);
      cs_free(fill);
      return csi_error(CS_ERR_MEMORY, "out of memory reading M from '%s'", path);
    }
    for (int j = 0; j < n; j++)
      for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
        int i = M->rowind[k];
        F.colptr[j + 1]++;
        if (i != j) F.colptr[i + 1]++;
      }
    for (int j = 0; j < n; j++) F.colptr[j + 1] += F.colptr[j];
    memcpy(fill, F.colptr, ((size_t)n + 1) * sizeof(int));
    /* columns in increasing order: for column c, mirrored entries (rows r < c when the
       lower triangle is stored) come from columns r < c, placed before the own entries */
    for (int j = 0; j < n; j++)
      for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
        int i = M->rowind[k];
        if (i != j) {
          F.rowind[fill[i]] = j;
          F.val[fill[i]++] = M->val[k];
        }
        F.rowind[fill[j]] = i;
        F.val[fill[j]++] = M->val[k];
      }
    cs_free(fill);
    /* rows within each column are now increasing: entries (j < i) from earlier columns
       arrive in increasing j, then the own column's rows in increasing order, and for the
       upper-triangle case the symmetric argument holds */
    csi_sparse_free(M);
    *M = F;
    return CS_OK;
  }
  const double tol = 1e-12 * amax;
  for (int j = 0; j < n; j++)
    for (int k = M->colptr[j]; k < M->colptr[j + 1]; k++) {
      int i = M->rowind[k];
      if (i <= j) continue;
      double a = M->val[k], b = csi_sparse_get(M, j, i);
      if (fabs(a - b) > tol)
        return csi_error(CS_ERR_PARSE,
                         "FCLIB file '%s': M is not symmetric: M(%d, %d) = %.17g "
                         "but M(%d, %d) = %.17g",
                         path, i, j, a, j, i, b);
    }
  return CS_OK;
}

static csStatus check_vector(const double* x, int n, const char* what, const char* path) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return csi_error(CS_ERR_PARSE, "FCLIB file '%s': %s[%d] is %g", path, what, i, x[i]);
  return CS_OK;
}

/* ---------------------------------------------------------------- read */

static csStatus read_solution_group(hid_t f, const char* path, const GlobalProbe* pr,
                                    csGlobalProblem* g) {
  const char* grp = pr->sol == 1 ? "/solution" : "/guesses/1";
  char name[64];
  const size_t m = (size_t)pr->m, n = (size_t)pr->n;
  g->r = csi_malloc(m * sizeof(double));
  if (pr->sol_u) g->u = csi_malloc(m * sizeof(double));
  if (pr->sol_v) g->v = csi_malloc(n * sizeof(double));
  if (!g->r || (pr->sol_u && !g->u) || (pr->sol_v && !g->v))
    return csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
  snprintf(name, sizeof name, "%s/r", grp);
  if (csi_h5_read(f, name, H5T_NATIVE_DOUBLE, g->r) < 0)
    return csi_error(CS_ERR_IO, "FCLIB file '%s': cannot read %s", path, name);
  if (pr->sol_u) {
    snprintf(name, sizeof name, "%s/u", grp);
    if (csi_h5_read(f, name, H5T_NATIVE_DOUBLE, g->u) < 0)
      return csi_error(CS_ERR_IO, "FCLIB file '%s': cannot read %s", path, name);
  }
  if (pr->sol_v) {
    snprintf(name, sizeof name, "%s/v", grp);
    if (csi_h5_read(f, name, H5T_NATIVE_DOUBLE, g->v) < 0)
      return csi_error(CS_ERR_IO, "FCLIB file '%s': cannot read %s", path, name);
  }
  return CS_OK;
}

csStatus cs_fclib_read_global(const char* path, csGlobalProblem** out) {
  if (out) *out = NULL;
  if (!path || !out) return csi_error(CS_ERR_ARG, "cs_fclib_read_global: NULL path or out");

  csiH5Quiet quiet;
  csi_h5_quiet(&quiet);
  csStatus st = CS_OK;
  struct fclib_global* fg = NULL;
  csGlobalProblem* g = NULL;
  GlobalProbe pr;

  hid_t f;
  if ((st = csi_h5_open_read(path, &f))) goto done;
  st = probe_global(f, path, &pr);
  if (!st) {
    g = csi_calloc(1, sizeof *g);
    if (!g) st = csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
  }
  if (!st && pr.sol) st = read_solution_group(f, path, &pr, g);
  H5Fclose(f);
  if (st) goto done;

  fg = fclib_read_global(path);
  if (!fg || !fg->M || !fg->H || !fg->f || !fg->w || !fg->mu) {
    st = csi_error(CS_ERR_IO, "libfclib could not read the global problem in '%s'", path);
    goto done;
  }
  if (fg->M->m != pr.n || fg->M->n != pr.n || fg->H->m != pr.n || fg->H->n != pr.m) {
    st = csi_error(CS_ERR_PARSE,
                   "FCLIB file '%s': libfclib returned matrices of other sizes "
                   "than stored",
                   path);
    goto done;
  }
  g->n = pr.n;
  g->nc = pr.m / 3;
  if ((st = to_csc(fg->M, "M", path, &g->M))) goto done;
  if ((st = to_csc(fg->H, "H", path, &g->H))) goto done;
  if ((st = check_symmetric(&g->M, path))) goto done;
  g->f = csi_dup_doubles(fg->f, (size_t)pr.n);
  g->w = csi_dup_doubles(fg->w, (size_t)pr.m);
  g->mu = csi_dup_doubles(fg->mu, (size_t)g->nc);
  if (!g->f || !g->w || !g->mu) {
    st = csi_error(CS_ERR_MEMORY, "out of memory reading '%s'", path);
    goto done;
  }
  if ((st = check_vector(g->f, pr.n, "f", path))) goto done;
  if ((st = check_vector(g->w, pr.m, "w", path))) goto done;
  if ((st = check_vector(g->mu, g->nc, "mu", path))) goto done;
  for (int i = 0; i < g->nc; i++)
    if (g->mu[i] < 0) {
      st = csi_error(CS_ERR_PARSE, "FCLIB file '%s': friction coefficient mu[%d] = %g < 0", path, i,
                     g->mu[i]);
      goto done;
    }
  if (g->r && (st = check_vector(g->r, pr.m, "solution r", path))) goto done;
  for (int j = 0; j < pr.n; j++) {
    double d = csi_sparse_get(&g->M, j, j);
    if (!(d > 0)) {
      st = csi_error(CS_ERR_PARSE,
                     "FCLIB file '%s': M(%d, %d) = %g; M must be positive "
                     "definite",
                     path, j, j, d);
      goto done;
    }
  }

done:
  if (fg) {
    fclib_delete_global(fg); /* frees the members (and info), not the struct itself */
    free(fg);
  }
  csi_h5_restore(&quiet);
  if (st) {
    cs_global_problem_free(g);
    return st;
  }
  *out = g;
  return CS_OK;
}

/* ---------------------------------------------------------------- write */

csStatus cs_fclib_write_global(const char* path, const csGlobalProblem* g, const double* r,
                               const double* v, const char* title) {
  if (!path) return csi_error(CS_ERR_ARG, "cs_fclib_write_global: NULL path");
  csStatus st = csi_global_check(g, "cs_fclib_write_global");
  if (st) return st;
  if (r && !v)
    return csi_error(CS_ERR_ARG, "cannot write '%s': a global solution needs r and v", path);
  if (g->M.colptr[g->n] <= 0 || g->H.colptr[g->H.n] <= 0)
    return csi_error(CS_ERR_ARG, "cannot write '%s': M or H has no entries", path);
  const size_t m = 3 * (size_t)g->nc;
  double* u = NULL;
  if (r) {
    u = csi_malloc(m * sizeof(double));
    if (!u) return csi_error(CS_ERR_MEMORY, "out of memory writing '%s'", path);
    memcpy(u, g->w, m * sizeof(double));
    csi_sparse_tgaxpy(&g->H, v, u);
  }
  csiH5Quiet quiet;
  csi_h5_quiet(&quiet);
  /* libfclib adds to an existing file and refuses a second problem or solution in it: the
     file is created afresh here (as cs_fclib_write_local does). */
  if ((st = csi_h5_create_empty(path))) goto done;
  {
    /* libfclib takes non-const pointers but only reads through them */
    struct fclib_matrix M, H;
    memset(&M, 0, sizeof M);
    memset(&H, 0, sizeof H);
    M.nzmax = g->M.colptr[g->M.n], M.m = g->M.m, M.n = g->M.n, M.nz = -1;
    M.p = g->M.colptr, M.i = g->M.rowind, M.x = g->M.val;
    H.nzmax = g->H.colptr[g->H.n], H.m = g->H.m, H.n = g->H.n, H.nz = -1;
    H.p = g->H.colptr, H.i = g->H.rowind, H.x = g->H.val;
    struct fclib_info info;
    info.title = (char*)(title ? title : "contactsim global contact problem");
    info.description = (char*)"contactsim: M v = H r + f, u = H^T v + w";
    info.math_info = NULL;
    struct fclib_global prob;
    memset(&prob, 0, sizeof prob);
    prob.M = &M;
    prob.H = &H;
    prob.G = NULL;
    prob.mu = g->mu;
    prob.f = g->f;
    prob.b = NULL;
    prob.w = g->w;
    prob.spacedim = 3;
    prob.info = &info;
    if (!fclib_write_global(&prob, path)) {
      st = csi_error(CS_ERR_IO, "libfclib could not write the global problem to '%s'", path);
      goto done;
    }
    if (r) {
      struct fclib_solution sol;
      sol.v = (double*)v;
      sol.u = u;
      sol.r = (double*)r;
      sol.l = NULL;
      if (!fclib_write_solution(&sol, path)) {
        st = csi_error(CS_ERR_IO, "libfclib could not write the solution to '%s'", path);
        goto done;
      }
    }
  }
done:
  csi_h5_restore(&quiet);
  cs_free(u);
  return st;
}

#else /* no libfclib */

csStatus cs_fclib_info(const char* path, csFclibInfo* info) {
  if (info) memset(info, 0, sizeof *info);
  return csi_error(CS_ERR_UNSUPPORTED,
                   "cannot read FCLIB file '%s': contactsim was built "
                   "without libfclib (FCLIB support off)",
                   path ? path : "(null)");
}

csStatus cs_fclib_read_global(const char* path, csGlobalProblem** out) {
  if (out) *out = NULL;
  return csi_error(CS_ERR_UNSUPPORTED,
                   "cannot read FCLIB file '%s': contactsim was built "
                   "without libfclib (FCLIB support off)",
                   path ? path : "(null)");
}

csStatus cs_fclib_write_global(const char* path, const csGlobalProblem* g, const double* r,
                               const double* v, const char* title) {
  (void)g, (void)r, (void)v, (void)title;
  return csi_error(CS_ERR_UNSUPPORTED,
                   "cannot write FCLIB file '%s': contactsim was built "
                   "without libfclib (FCLIB support off)",
                   path ? path : "(null)");
}

#endif
