/* The trajectory file's datasets and the row-wise HDF5 access of its writer and reader (see
   cs_traj_h5.h). */
#include "io/cs_traj_h5.h"

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB

const csiTrajSet csi_traj_frame_sets[CSI_TF_N] = {{"frames/time", 'd'},
                                                  {"frames/qpos", 'd'},
                                                  {"frames/qvel", 'd'},
                                                  {"frames/xpos", 'd'},
                                                  {"frames/xquat", 'd'},
                                                  {"frames/energy", 'd'},
                                                  {"frames/penetration_max", 'd'},
                                                  {"frames/solver_iterations", 'i'},
                                                  {"frames/solver_residual", 'd'},
                                                  {"frames/ncon", 'i'},
                                                  {"frames/contact_adr", 'l'}};

const csiTrajSet csi_traj_contact_sets[CSI_TC_N] = {{"contacts/pos", 'd'},
                                                    {"contacts/frame", 'd'},
                                                    {"contacts/force", 'd'},
                                                    {"contacts/dist", 'd'},
                                                    {"contacts/geom", 'i'}};

hid_t csi_traj_file_type(char kind) {
  return kind == 'd' ? H5T_IEEE_F64LE : kind == 'i' ? H5T_STD_I32LE : H5T_STD_I64LE;
}

hid_t csi_traj_mem_type(char kind) {
  return kind == 'd' ? H5T_NATIVE_DOUBLE : kind == 'i' ? H5T_NATIVE_INT : H5T_NATIVE_LLONG;
}

int csi_traj_dims(hid_t d, hsize_t dims[3]) {
  hid_t s = H5Dget_space(d);
  if (s < 0) return -1;
  int rank = H5Sget_simple_extent_ndims(s);
  if (rank < 1 || rank > 3 || H5Sget_simple_extent_dims(s, dims, NULL) < 0) rank = -1;
  H5Sclose(s);
  return rank;
}

/* Rows [row0, row0 + nrows) of d selected: the file space (*fs) and a memory space (*ms) of
   their shape; 0, or -1 (nothing left open). *empty: the selection has no element. */
static int select_rows(hid_t d, hsize_t row0, hsize_t nrows, hid_t* fs, hid_t* ms, int* empty) {
  hsize_t start[3] = {row0, 0, 0}, count[3];
  *fs = H5Dget_space(d);
  int rank = *fs < 0 ? -1 : H5Sget_simple_extent_dims(*fs, count, NULL);
  if (rank < 1) {
    if (*fs >= 0) H5Sclose(*fs);
    return -1;
  }
  count[0] = nrows;
  hsize_t n = 1;
  for (int r = 0; r < rank; r++) n *= count[r];
  *empty = n == 0;
  *ms = -1;
  if (*empty) return 0;
  *ms = H5Screate_simple(rank, count, NULL);
  if (*ms < 0 || H5Sselect_hyperslab(*fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0) {
    if (*ms >= 0) H5Sclose(*ms);
    H5Sclose(*fs);
    return -1;
  }
  return 0;
}

int csi_traj_append(hid_t d, hid_t memtype, hsize_t row0, hsize_t nrows, const void* buf) {
  hsize_t dims[3];
  if (csi_traj_dims(d, dims) < 0) return -1;
  dims[0] = row0 + nrows;
  if (H5Dset_extent(d, dims) < 0) return -1;
  hid_t fs, ms;
  int empty;
  if (select_rows(d, row0, nrows, &fs, &ms, &empty) < 0) return -1;
  herr_t e = empty ? 0 : H5Dwrite(d, memtype, ms, fs, H5P_DEFAULT, buf);
  if (ms >= 0) H5Sclose(ms);
  H5Sclose(fs);
  return e < 0 ? -1 : 0;
}

int csi_traj_rows(hid_t d, hid_t memtype, hsize_t row0, hsize_t nrows, void* buf) {
  hid_t fs, ms;
  int empty;
  if (select_rows(d, row0, nrows, &fs, &ms, &empty) < 0) return -1;
  herr_t e = empty ? 0 : H5Dread(d, memtype, ms, fs, H5P_DEFAULT, buf);
  if (ms >= 0) H5Sclose(ms);
  H5Sclose(fs);
  return e < 0 ? -1 : 0;
}

#else
typedef int csi_traj_h5_unused; /* ISO C: a translation unit is not empty */
#endif /* CS_HAVE_FCLIB */
