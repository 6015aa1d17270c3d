/* HDF5 probing shared by the FCLIB readers and writers (see cs_io_hdf5.h). */
#include "io/cs_io_hdf5.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/cs_error.h"

double* csi_dup_doubles(const double* x, size_t n) {
  double* y = csi_malloc(n * sizeof(double));
  if (y) memcpy(y, x, n * sizeof(double));
  return y;
}

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB

/* ---------------------------------------------------------------- files */

void csi_h5_quiet(csiH5Quiet* q) {
  q->fn = NULL;
  q->data = NULL;
  H5Eget_auto2(H5E_DEFAULT, &q->fn, &q->data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void csi_h5_restore(const csiH5Quiet* q) { H5Eset_auto2(H5E_DEFAULT, q->fn, q->data); }

csStatus csi_h5_open_read(const char* path, hid_t* f) {
  *f = -1;
  FILE* fp = fopen(path, "rb");
  if (!fp) return csi_error(CS_ERR_IO, "cannot open FCLIB file '%s': %s", path, strerror(errno));
  fclose(fp);
  if (H5Fis_hdf5(path) <= 0)
    return csi_error(CS_ERR_PARSE, "'%s' is not an HDF5 file (FCLIB problems are HDF5)", path);
  *f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (*f < 0) return csi_error(CS_ERR_IO, "cannot open '%s' as an HDF5 file", path);
  return CS_OK;
}

csStatus csi_h5_create_empty(const char* path) {
  FILE* fp = fopen(path, "wb");
  if (!fp) return csi_error(CS_ERR_IO, "cannot write FCLIB file '%s': %s", path, strerror(errno));
  fclose(fp);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) return csi_error(CS_ERR_IO, "cannot create HDF5 file '%s'", path);
  H5Fclose(f);
  return CS_OK;
}

/* ---------------------------------------------------------------- datasets */

int csi_h5_exists(hid_t f, const char* name) {
  /* H5Lexists fails (< 0) when an intermediate group is missing: that is "absent" too. */
  return H5Lexists(f, name, H5P_DEFAULT) > 0;
}

long long csi_h5_info(hid_t f, const char* name, H5T_class_t* cls, int* varstr, int* rank) {
  if (!csi_h5_exists(f, name)) return -1;
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return -1;
  long long count = -1;
  hid_t s = H5Dget_space(d), t = H5Dget_type(d);
  if (s >= 0 && t >= 0) {
    hssize_t np = H5Sget_simple_extent_npoints(s);
    int r = H5Sget_simple_extent_ndims(s);
    if (np >= 0 && r >= 0) {
      count = (long long)np;
      if (cls) *cls = H5Tget_class(t);
      if (varstr) *varstr = H5Tis_variable_str(t) > 0;
      if (rank) *rank = r;
    }
  }
  if (t >= 0) H5Tclose(t);
  if (s >= 0) H5Sclose(s);
  H5Dclose(d);
  return count;
}

long long csi_h5_numel(hid_t f, const char* name) {
  H5T_class_t cls = H5T_NO_CLASS;
  long long n = csi_h5_info(f, name, &cls, NULL, NULL);
  if (n < 0 || (cls != H5T_INTEGER && cls != H5T_FLOAT)) return -1;
  return n;
}

int csi_h5_read(hid_t f, const char* name, hid_t memtype, void* buf) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return -1;
  herr_t e = H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  H5Dclose(d);
  return e < 0 ? -1 : 0;
}

int csi_h5_int(hid_t f, const char* name, int* val) {
  return csi_h5_numel(f, name) == 1 && csi_h5_read(f, name, H5T_NATIVE_INT, val) == 0;
}

/* ---------------------------------------------------------------- checks */

csStatus csi_h5_need_int(hid_t f, const char* path, const char* name, int* val) {
  if (!csi_h5_int(f, name, val))
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': %s is missing or not a single number", path,
                     name);
  return CS_OK;
}

csStatus csi_h5_need_len(hid_t f, const char* path, const char* name, long long len) {
  long long n = csi_h5_numel(f, name);
  if (n < 0)
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': %s is missing or not numeric", path, name);
  if (n != len)
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': %s has %lld entries, expected %lld", path,
                     name, n, len);
  return CS_OK;
}

csStatus csi_h5_check_string(hid_t f, const char* path, const char* name) {
  H5T_class_t cls = H5T_NO_CLASS;
  int varstr = 0, rank = 0;
  long long n = csi_h5_info(f, name, &cls, &varstr, &rank);
  if (n < 0 && !csi_h5_exists(f, name)) return CS_OK;
  if (n != 1 || cls != H5T_STRING || varstr || rank > 1)
    return csi_error(CS_ERR_PARSE, "FCLIB file '%s': %s is not a single fixed-length string", path,
                     name);
  return CS_OK;
}

csStatus csi_h5_probe_matrix(hid_t f, const char* path, const char* grp, int* m, int* n) {
  char name[128];
  int nzmax = 0, nz = 0;
  csStatus st;
#define CS_NAME(leaf) (snprintf(name, sizeof name, "%s/%s", grp, leaf), name)
  if ((st = csi_h5_need_int(f, path, CS_NAME("nzmax"), &nzmax))) return st;
  if ((st = csi_h5_need_int(f, path, CS_NAME("m"), m))) return st;
  if ((st = csi_h5_need_int(f, path, CS_NAME("n"), n))) return st;
  if ((st = csi_h5_need_int(f, path, CS_NAME("nz"), &nz))) return st;
  if (*m <= 0 || *n <= 0 || nzmax <= 0 || nz < -2 || nz == 0)
    return csi_error(CS_ERR_PARSE,
                     "FCLIB file '%s': %s has bad sizes m %d, n %d, nzmax %d, "
                     "nz %d (an empty matrix is refused too)",
                     path, grp, *m, *n, nzmax, nz);
  long long lp = csi_h5_numel(f, CS_NAME("p"));
  long long li = csi_h5_numel(f, CS_NAME("i"));
  long long lx = csi_h5_numel(f, CS_NAME("x"));
  int ok;
  if (nz > 0) /* triplet: libfclib reads p, i into nz ints and x into nzmax doubles */
    ok = lp == nz && li == nz && lx >= nz && lx <= nzmax;
  else if (nz == -1) /* compressed columns */
    ok = lp == (long long)*n + 1 && li == nzmax && lx == nzmax;
  else /* compressed rows */
    ok = lp == (long long)*m + 1 && li == nzmax && lx == nzmax;
  if (!ok)
    return csi_error(CS_ERR_PARSE,
                     "FCLIB file '%s': %s: arrays p, i, x have %lld, %lld, %lld entries, "
                     "inconsistent with a %d x %d matrix with nz %d, nzmax %d",
                     path, grp, lp, li, lx, *m, *n, nz, nzmax);
  /* Optional matrix info: libfclib reads all of it once "conditioning" is there. */
  if (csi_h5_exists(f, CS_NAME("conditioning"))) {
    static const char* const leaf[3] = {"conditioning", "determinant", "rank"};
    for (int k = 0; k < 3; k++)
      if (csi_h5_numel(f, CS_NAME(leaf[k])) != 1)
        return csi_error(CS_ERR_PARSE, "FCLIB file '%s': %s is missing or not a single number",
                         path, name);
    if ((st = csi_h5_check_string(f, path, CS_NAME("comment")))) return st;
  }
#undef CS_NAME
  return CS_OK;
}

csStatus csi_h5_probe_spacedim(hid_t f, const char* path, const char* grp) {
  char name[64];
  snprintf(name, sizeof name, "%s/spacedim", grp);
  int spacedim = 0;
  csStatus st = csi_h5_need_int(f, path, name, &spacedim);
  if (st) return st;
  if (spacedim != 3)
    return csi_error(CS_ERR_UNSUPPORTED,
                     "FCLIB file '%s': spacedim %d; only 3D contact problems (spacedim 3) are read",
                     path, spacedim);
  return CS_OK;
}

csStatus csi_h5_probe_info(hid_t f, const char* path, const char* grp) {
  static const char* const fields[] = {"title", "description", "math_info"};
  char name[64];
  snprintf(name, sizeof name, "%s/info", grp);
  if (!csi_h5_exists(f, name)) return CS_OK;
  for (int k = 0; k < 3; k++) {
    snprintf(name, sizeof name, "%s/info/%s", grp, fields[k]);
    csStatus st = csi_h5_check_string(f, path, name);
    if (st) return st;
  }
  return CS_OK;
}

#endif /* CS_HAVE_FCLIB */
