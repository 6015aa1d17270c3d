/* HDF5 probing shared by the FCLIB readers and writers (internal): cs_io_fclib.c (local
   problems) and cs_io_fclib_global.c (global problems, cs_fclib_info).

   libfclib 3.1.0 exits the process on any HDF5 call that fails and trusts the sizes stored
   in the file, so every dataset it will touch is first checked with these plain HDF5 calls
   (see the top of cs_io_fclib.c). HDF5 prints an error stack on stderr for every failed
   call by default: callers switch it off with csi_h5_quiet around probing and libfclib
   calls, and restore it with csi_h5_restore.

   Everything but csi_dup_doubles needs HDF5 and exists only when the library is built with
   libfclib (CS_HAVE_FCLIB). */
#ifndef CS_IO_HDF5_H
#define CS_IO_HDF5_H

#include <stddef.h>

#include "contactsim/cs_model.h" /* csStatus */

/* A copy of x[0..n) from csi_malloc, or NULL when out of memory. */
double* csi_dup_doubles(const double* x, size_t n);

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB

#include <hdf5.h>

/* HDF5's automatic error printing, saved by csi_h5_quiet (which switches it off). */
typedef struct csiH5Quiet {
  H5E_auto2_t fn;
  void* data;
} csiH5Quiet;

void csi_h5_quiet(csiH5Quiet* q);
void csi_h5_restore(const csiH5Quiet* q);

/* Opens path read-only into *f: CS_ERR_IO if the file cannot be opened (with strerror's
   text) or HDF5 cannot open it, CS_ERR_PARSE if it is not an HDF5 file. Every message
   names path. */
csStatus csi_h5_open_read(const char* path, hid_t* f);
/* Creates path afresh as an empty HDF5 file (truncated): stdio first, for an errno to
   report, then HDF5. libfclib's writers add to an existing file and refuse one that
   already holds a problem or a solution, so they are given this empty file. */
csStatus csi_h5_create_empty(const char* path);

/* 1 if the link name exists (a missing intermediate group counts as absent). */
int csi_h5_exists(hid_t f, const char* name);
/* Element count of dataset name (a scalar counts 1), its type class and whether it is a
   variable-length string, and its rank (each out pointer may be NULL); -1 if absent or
   not a dataset. */
long long csi_h5_info(hid_t f, const char* name, H5T_class_t* cls, int* varstr, int* rank);
/* Element count of a numeric (integer or float) dataset, -1 if absent or not numeric. */
long long csi_h5_numel(hid_t f, const char* name);
/* The whole dataset name into buf as memtype: 0, or -1 on failure. */
int csi_h5_read(hid_t f, const char* name, hid_t memtype, void* buf);
/* A single number as an int into *val: 1, or 0 if absent, not numeric or not one entry. */
int csi_h5_int(hid_t f, const char* name, int* val);

/* The checks below return CS_OK, or CS_ERR_PARSE with a message naming the file path and
   the dataset. */

/* name is a single number (read into *val). */
csStatus csi_h5_need_int(hid_t f, const char* path, const char* name, int* val);
/* name is numeric with len entries. */
csStatus csi_h5_need_len(hid_t f, const char* path, const char* name, long long len);
/* name is absent or a single fixed-length string: libfclib reads such info strings with
   H5LTget_dataset_info into one hsize_t and H5LTread_dataset_string into a buffer of the
   type's size, so nothing else is safe. */
csStatus csi_h5_check_string(hid_t f, const char* path, const char* name);
/* grp/spacedim is a single number and 3 (CS_ERR_UNSUPPORTED for another dimension). */
csStatus csi_h5_probe_spacedim(hid_t f, const char* path, const char* grp);
/* grp/info, when present: its title, description and math_info pass csi_h5_check_string. */
csStatus csi_h5_probe_info(hid_t f, const char* path, const char* grp);
/* Everything libfclib's read_matrix reads from the group grp (nzmax, m, n, nz, p, i, x and
   the optional conditioning/determinant/rank/comment), sizes consistent with the storage
   (nz >= 1: triplet, -1: compressed columns, -2: compressed rows); m, n out. An empty
   matrix (m, n or nzmax 0, or nz 0) is refused: libfclib would allocate empty arrays,
   and its reader exits on a NULL from malloc, which malloc(0) may return. */
csStatus csi_h5_probe_matrix(hid_t f, const char* path, const char* grp, int* m, int* n);

#endif /* CS_HAVE_FCLIB */

#endif
