/* The trajectory file's reader (docs/trajectory.md): sizes from the datasets' shapes, one
   frame at a time by rows, whole datasets by name. */
#include <stdio.h>
#include <string.h>

#include "contactsim/cs_traj.h"
#include "core/cs_error.h"
#include "io/cs_io_hdf5.h"
#include "io/cs_traj_h5.h"

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB

struct csTraj {
  hid_t file;
  hid_t frame[CSI_TF_N];
  hid_t con[CSI_TC_N];
  char* path;
  csTrajInfo info;
  long long ncrow; /* rows every contact dataset holds */
  double* buf;     /* qpos, qvel, xpos, xquat of the frame read */
  double* cbuf;    /* (ccap x 16) its contacts' pos, frame, force, dist */
  int* gbuf;       /* (ccap x 2) */
  long ccap;
  char* names[2]; /* body_name, geom_name: fixed-length strings of nlen[k] bytes */
  size_t nlen[2];
  int nnames[2];
};

/* ---------------------------------------------------------------- open */

/* A string attribute of the root group into buf (size n): 0, or -1 if absent or not a
   fixed-length string */
static int get_attr_str(hid_t f, const char* name, char* buf, size_t n) {
  if (H5Aexists(f, name) <= 0) return -1;
  hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  hid_t t = a < 0 ? -1 : H5Aget_type(a);
  int ok =
      t >= 0 && H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) == 0 && H5Tget_size(t) < n;
  if (ok) {
    memset(buf, 0, n);
    ok = H5Aread(a, t, buf) >= 0;
  }
  if (t >= 0) H5Tclose(t);
  if (a >= 0) H5Aclose(a);
  return ok ? 0 : -1;
}

/* A numeric scalar attribute of the root group as memtype into v: 0, or -1 */
static int get_attr_num(hid_t f, const char* name, hid_t memtype, void* v) {
  if (H5Aexists(f, name) <= 0) return -1;
  hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  hid_t t = a < 0 ? -1 : H5Aget_type(a);
  int ok = t >= 0 && (H5Tget_class(t) == H5T_INTEGER || H5Tget_class(t) == H5T_FLOAT) &&
           H5Aread(a, memtype, v) >= 0;
  if (t >= 0) H5Tclose(t);
  if (a >= 0) H5Aclose(a);
  return ok ? 0 : -1;
}

/* The root attributes format and version checked, timestep read */
static csStatus check_header(csTraj* t) {
  char fmt[64];
  if (get_attr_str(t->file, "format", fmt, sizeof fmt) || strcmp(fmt, CSI_TRAJ_FORMAT))
    return csi_error(CS_ERR_PARSE,
                     "'%s' is not a contactsim trajectory file (no root attribute format = "
                     "\"%s\")",
                     t->path, CSI_TRAJ_FORMAT);
  if (get_attr_num(t->file, "version", H5T_NATIVE_INT, &t->info.version) || t->info.version < 1)
    return csi_error(CS_ERR_PARSE, "trajectory file '%s': root attribute version missing or < 1",
                     t->path);
  if (t->info.version > CS_TRAJ_VERSION)
    return csi_error(CS_ERR_UNSUPPORTED,
                     "trajectory file '%s': version %d; this library reads up to version %d",
                     t->path, t->info.version, CS_TRAJ_VERSION);
  if (get_attr_num(t->file, "timestep", H5T_NATIVE_DOUBLE, &t->info.timestep))
    return csi_error(CS_ERR_PARSE, "trajectory file '%s': root attribute timestep missing",
                     t->path);
  return CS_OK;
}

/* Dataset set opened into *d with its dims; rank and trailing dims checked against want
   (-1: any) */
static csStatus open_set(csTraj* t, const csiTrajSet* set, int rank, const long* want, hid_t* d,
                         hsize_t dims[3]) {
  *d = csi_h5_exists(t->file, set->name) ? H5Dopen2(t->file, set->name, H5P_DEFAULT) : -1;
  int r = *d < 0 ? -1 : csi_traj_dims(*d, dims);
  int ok = r == rank;
  for (int k = 1; k < rank && ok; k++) ok = want[k - 1] < 0 || (long)dims[k] == want[k - 1];
  if (!ok)
    return csi_error(CS_ERR_PARSE,
                     "trajectory file '%s': dataset %s is missing or not of rank %d%s", t->path,
                     set->name, rank, r == rank ? " with the model's sizes" : "");
  return CS_OK;
}

/* The element count of dataset name (-1 if absent) */
static long long set_numel(hid_t f, const char* name) { return csi_h5_numel(f, name); }

/* The frame datasets opened: nq, nv from qpos, qvel (nbody from model/body_parent), nframe
   the fewest rows of any (a file whose writer stopped between two datasets) */
static csStatus open_frames(csTraj* t) {
  const int ranks[CSI_TF_N] = {1, 2, 2, 3, 3, 2, 1, 1, 1, 1, 1};
  long long nb = set_numel(t->file, "model/body_parent");
  if (nb < 1)
    return csi_error(CS_ERR_PARSE, "trajectory file '%s': dataset model/body_parent missing",
                     t->path);
  t->info.nbody = (int)nb;
  hsize_t dims[3];
  long rows = -1;
  for (int k = 0; k < CSI_TF_N; k++) {
    long want[2] = {-1, -1};
    if (k == CSI_TF_XPOS || k == CSI_TF_XQUAT)
      want[0] = (long)nb, want[1] = k == CSI_TF_XPOS ? 3 : 4;
    if (k == CSI_TF_ENERGY) want[0] = 2;
    csStatus st = open_set(t, &csi_traj_frame_sets[k], ranks[k], want, &t->frame[k], dims);
    if (st != CS_OK) return st;
    if (k == CSI_TF_QPOS) t->info.nq = (int)dims[1];
    if (k == CSI_TF_QVEL) t->info.nv = (int)dims[1];
    if (rows < 0 || (long)dims[0] < rows) rows = (long)dims[0];
  }
  t->info.nframe = rows;
  return CS_OK;
}

/* The contact datasets opened; the rows the frames use checked against theirs */
static csStatus open_contacts(csTraj* t) {
  const int ranks[CSI_TC_N] = {2, 3, 2, 1, 2};
  const long tails[CSI_TC_N][2] = {{3, -1}, {3, 3}, {3, -1}, {-1, -1}, {2, -1}};
  hsize_t dims[3];
  t->ncrow = -1;
  for (int k = 0; k < CSI_TC_N; k++) {
    csStatus st = open_set(t, &csi_traj_contact_sets[k], ranks[k], tails[k], &t->con[k], dims);
    if (st != CS_OK) return st;
    if (t->ncrow < 0 || (long long)dims[0] < t->ncrow) t->ncrow = (long long)dims[0];
  }
  t->info.ncontact = 0;
  if (t->info.nframe > 0) {
    long long adr = 0;
    int nc = 0;
    hsize_t last = (hsize_t)t->info.nframe - 1;
    if (csi_traj_rows(t->frame[CSI_TF_ADR], H5T_NATIVE_LLONG, last, 1, &adr) < 0 ||
        csi_traj_rows(t->frame[CSI_TF_NCON], H5T_NATIVE_INT, last, 1, &nc) < 0)
      return csi_error(CS_ERR_IO, "trajectory file '%s': cannot read frame %ld's contact_adr",
                       t->path, t->info.nframe - 1);
    t->info.ncontact = (long)(adr + nc);
  }
  if (t->info.ncontact > t->ncrow)
    return csi_error(CS_ERR_PARSE,
                     "trajectory file '%s': the frames use %ld contact rows, the contacts "
                     "datasets hold %lld",
                     t->path, t->info.ncontact, t->ncrow);
  return CS_OK;
}

/* Names dataset k (0 body_name, 1 geom_name) read, if present */
static csStatus read_names(csTraj* t, int k) {
  const char* name = k ? "model/geom_name" : "model/body_name";
  if (!csi_h5_exists(t->file, name)) return CS_OK;
  hid_t d = H5Dopen2(t->file, name, H5P_DEFAULT);
  hid_t ty = d < 0 ? -1 : H5Dget_type(d);
  hsize_t dims[3] = {0, 0, 0};
  int ok = ty >= 0 && H5Tget_class(ty) == H5T_STRING && H5Tis_variable_str(ty) == 0 &&
           csi_traj_dims(d, dims) == 1;
  if (ok) {
    t->nlen[k] = H5Tget_size(ty);
    t->nnames[k] = (int)dims[0];
    t->names[k] = csi_calloc(dims[0] + 1, t->nlen[k]);
    ok = t->names[k] &&
         (dims[0] == 0 || H5Dread(d, ty, H5S_ALL, H5S_ALL, H5P_DEFAULT, t->names[k]) >= 0);
  }
  if (ty >= 0) H5Tclose(ty);
  if (d >= 0) H5Dclose(d);
  if (!ok)
    return csi_error(CS_ERR_PARSE, "trajectory file '%s': %s is not a list of fixed-length strings",
                     t->path, name);
  return CS_OK;
}

/* Sizes, datasets and buffers of t, its file open */
static csStatus open_all(csTraj* t) {
  csStatus st = check_header(t);
  if (!st) st = open_frames(t);
  if (!st) st = open_contacts(t);
  if (!st) st = read_names(t, 0);
  if (!st) st = read_names(t, 1);
  if (st) return st;
  t->info.ngeom =
      (int)(set_numel(t->file, "model/geom_type") > 0 ? set_numel(t->file, "model/geom_type") : 0);
  t->info.nmesh =
      (int)(set_numel(t->file, "model/mesh_vertadr") > 0 ? set_numel(t->file, "model/mesh_vertadr")
                                                         : 0);
  size_t n = (size_t)t->info.nq + (size_t)t->info.nv + 7 * (size_t)t->info.nbody;
  t->buf = csi_malloc(sizeof(double) * (n + 1));
  if (!t->buf) return csi_error(CS_ERR_MEMORY, "trajectory file '%s': out of memory", t->path);
  return CS_OK;
}

csStatus cs_traj_open(const char* path, csTraj** out) {
  *out = NULL;
  csTraj* t = csi_calloc(1, sizeof *t);
  if (!t || !(t->path = csi_strdup(path))) {
    cs_free(t);
    return csi_error(CS_ERR_MEMORY, "trajectory file '%s': out of memory", path);
  }
  for (int k = 0; k < CSI_TF_N; k++) t->frame[k] = -1;
  for (int k = 0; k < CSI_TC_N; k++) t->con[k] = -1;
  csiH5Quiet q;
  csi_h5_quiet(&q);
  FILE* fp = fopen(path, "rb");
  csStatus st = CS_OK;
  if (!fp) {
    st = csi_error(CS_ERR_IO, "cannot open trajectory file '%s'", path);
  } else {
    fclose(fp);
    t->file = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    st = t->file < 0 ? csi_error(CS_ERR_PARSE, "'%s' is not an HDF5 file", path) : open_all(t);
  }
  csi_h5_restore(&q);
  if (st != CS_OK) {
    cs_traj_free(t);
    return st;
  }
  *out = t;
  return CS_OK;
}

void cs_traj_info(const csTraj* t, csTrajInfo* info) { *info = t->info; }

/* ---------------------------------------------------------------- frames */

/* Room for nc contacts in t's buffers; 0, or -1 */
static int contact_room(csTraj* t, long nc) {
  if (nc <= t->ccap) return 0;
  cs_free(t->cbuf);
  cs_free(t->gbuf);
  t->cbuf = csi_malloc(sizeof(double) * 16 * (size_t)nc);
  t->gbuf = csi_malloc(sizeof(int) * 2 * (size_t)nc);
  t->ccap = t->cbuf && t->gbuf ? nc : 0;
  return t->ccap ? 0 : -1;
}

/* Frame k's contact rows into t's buffers and f */
static csStatus read_contacts(csTraj* t, long k, csTrajFrame* f) {
  long nc = f->ncon;
  if (f->contact_adr < 0 || nc < 0 || f->contact_adr + nc > t->ncrow)
    return csi_error(CS_ERR_PARSE,
                     "trajectory file '%s': frame %ld's contacts (rows %ld + %ld) are outside "
                     "the contact table (%lld rows)",
                     t->path, k, f->contact_adr, nc, t->ncrow);
  if (contact_room(t, nc))
    return csi_error(CS_ERR_MEMORY, "trajectory file '%s': out of memory", t->path);
  double* pos = t->cbuf;
  double *fr = pos + 3 * nc, *force = fr + 9 * nc, *dist = force + 3 * nc;
  void* bufs[CSI_TC_N] = {pos, fr, force, dist, t->gbuf};
  for (int s = 0; s < CSI_TC_N; s++)
    if (csi_traj_rows(t->con[s], csi_traj_mem_type(csi_traj_contact_sets[s].kind),
                      (hsize_t)f->contact_adr, (hsize_t)nc, bufs[s]) < 0)
      return csi_error(CS_ERR_IO, "trajectory file '%s': cannot read frame %ld from %s", t->path, k,
                       csi_traj_contact_sets[s].name);
  f->contact_pos = pos, f->contact_frame = fr, f->contact_force = force, f->contact_dist = dist;
  f->contact_geom = t->gbuf;
  return CS_OK;
}

csStatus cs_traj_read_frame(csTraj* t, long k, csTrajFrame* f) {
  memset(f, 0, sizeof *f);
  if (k < 0 || k >= t->info.nframe)
    return csi_error(CS_ERR_ARG, "trajectory file '%s': frame %ld is not in 0..%ld", t->path, k,
                     t->info.nframe - 1);
  double* qpos = t->buf;
  double *qvel = qpos + t->info.nq, *xpos = qvel + t->info.nv, *xquat = xpos + 3 * t->info.nbody;
  long long adr = 0;
  void* bufs[CSI_TF_N] = {&f->time,
                          qpos,
                          qvel,
                          xpos,
                          xquat,
                          f->energy,
                          &f->penetration_max,
                          &f->solver_iterations,
                          &f->solver_residual,
                          &f->ncon,
                          &adr};
  csiH5Quiet q;
  csi_h5_quiet(&q);
  csStatus st = CS_OK;
  for (int s = 0; s < CSI_TF_N && !st; s++)
    if (csi_traj_rows(t->frame[s], csi_traj_mem_type(csi_traj_frame_sets[s].kind), (hsize_t)k, 1,
                      bufs[s]) < 0)
      st = csi_error(CS_ERR_IO, "trajectory file '%s': cannot read frame %ld from %s", t->path, k,
                     csi_traj_frame_sets[s].name);
  f->qpos = qpos, f->qvel = qvel, f->xpos = xpos, f->xquat = xquat;
  f->contact_adr = (long)adr;
  if (!st) st = read_contacts(t, k, f);
  csi_h5_restore(&q);
  return st;
}

/* ---------------------------------------------------------------- whole datasets */

static csStatus read_whole(const csTraj* t, const char* name, hid_t memtype, void* out, long n) {
  long long have = csi_h5_numel(t->file, name);
  if (have < 0 || have != n)
    return csi_error(CS_ERR_ARG,
                     "trajectory file '%s': dataset %s %s (%lld elements), %ld asked for", t->path,
                     name, have < 0 ? "is missing or not numeric" : "has another size", have, n);
  csiH5Quiet q;
  csi_h5_quiet(&q);
  int e = n > 0 ? csi_h5_read(t->file, name, memtype, out) : 0;
  csi_h5_restore(&q);
  if (e < 0) return csi_error(CS_ERR_IO, "trajectory file '%s': cannot read %s", t->path, name);
  return CS_OK;
}

csStatus cs_traj_read_doubles(const csTraj* t, const char* name, double* out, long n) {
  return read_whole(t, name, H5T_NATIVE_DOUBLE, out, n);
}

csStatus cs_traj_read_ints(const csTraj* t, const char* name, int* out, long n) {
  return read_whole(t, name, H5T_NATIVE_INT, out, n);
}

const char* cs_traj_name(const csTraj* t, const char* kind, int id) {
  int k = !strcmp(kind, "body") ? 0 : !strcmp(kind, "geom") ? 1 : -1;
  if (k < 0 || id < 0 || id >= t->nnames[k]) return NULL;
  return t->names[k] + (size_t)id * t->nlen[k];
}

void cs_traj_free(csTraj* t) {
  if (!t) return;
  for (int k = 0; k < CSI_TF_N; k++)
    if (t->frame[k] >= 0) H5Dclose(t->frame[k]);
  for (int k = 0; k < CSI_TC_N; k++)
    if (t->con[k] >= 0) H5Dclose(t->con[k]);
  if (t->file > 0) H5Fclose(t->file);
  for (int k = 0; k < 2; k++) cs_free(t->names[k]);
  cs_free(t->buf);
  cs_free(t->cbuf);
  cs_free(t->gbuf);
  cs_free(t->path);
  cs_free(t);
}

#else /* no HDF5 */

static csStatus no_hdf5(void) {
  return csi_error(CS_ERR_UNSUPPORTED,
                   "trajectory files: this build of contactsim has no HDF5 (built without "
                   "libfclib, -DCS_WITH_FCLIB=OFF)");
}

csStatus cs_traj_open(const char* path, csTraj** out) {
  (void)path;
  *out = NULL;
  return no_hdf5();
}
void cs_traj_info(const csTraj* t, csTrajInfo* info) {
  (void)t;
  memset(info, 0, sizeof *info);
}
csStatus cs_traj_read_frame(csTraj* t, long k, csTrajFrame* f) {
  (void)t, (void)k;
  memset(f, 0, sizeof *f);
  return no_hdf5();
}
csStatus cs_traj_read_doubles(const csTraj* t, const char* name, double* out, long n) {
  (void)t, (void)name, (void)out, (void)n;
  return no_hdf5();
}
csStatus cs_traj_read_ints(const csTraj* t, const char* name, int* out, long n) {
  (void)t, (void)name, (void)out, (void)n;
  return no_hdf5();
}
const char* cs_traj_name(const csTraj* t, const char* kind, int id) {
  (void)t, (void)kind, (void)id;
  return NULL;
}
void cs_traj_free(csTraj* t) { (void)t; }

#endif /* CS_HAVE_FCLIB */
