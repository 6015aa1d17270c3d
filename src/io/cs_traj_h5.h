/* The trajectory file's layout shared by its writer (cs_traj_write.c) and reader
   (cs_traj_read.c): dataset names and shapes, and the HDF5 calls both make on extendible
   datasets (internal; docs/trajectory.md). Exists only with HDF5 (CS_HAVE_FCLIB). */
#ifndef CS_TRAJ_H5_H
#define CS_TRAJ_H5_H

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB

#include <hdf5.h>

#include "contactsim/cs_traj.h"

/* The root attribute "format" of every trajectory file */
#define CSI_TRAJ_FORMAT "contactsim trajectory"

/* The per-frame datasets (group frames), one row per frame */
enum {
  CSI_TF_TIME,
  CSI_TF_QPOS,
  CSI_TF_QVEL,
  CSI_TF_XPOS,
  CSI_TF_XQUAT,
  CSI_TF_ENERGY,
  CSI_TF_PEN,
  CSI_TF_ITER,
  CSI_TF_RES,
  CSI_TF_NCON,
  CSI_TF_ADR,
  CSI_TF_N
};
/* The contact table (group contacts), one row per contact of every frame */
enum { CSI_TC_POS, CSI_TC_FRAME, CSI_TC_FORCE, CSI_TC_DIST, CSI_TC_GEOM, CSI_TC_N };

/* A dataset's path and element kind: 'd' double, 'i' 32-bit int, 'l' 64-bit int */
typedef struct csiTrajSet {
  const char* name;
  char kind;
} csiTrajSet;
extern const csiTrajSet csi_traj_frame_sets[CSI_TF_N];
extern const csiTrajSet csi_traj_contact_sets[CSI_TC_N];

/* The file and memory types of kind 'd', 'i', 'l' */
hid_t csi_traj_file_type(char kind);
hid_t csi_traj_mem_type(char kind);
/* Rows [row0, row0 + nrows) of dataset d (every column) from or into buf, as memtype: 0,
   or -1. append extends d to row0 + nrows first. */
int csi_traj_append(hid_t d, hid_t memtype, hsize_t row0, hsize_t nrows, const void* buf);
int csi_traj_rows(hid_t d, hid_t memtype, hsize_t row0, hsize_t nrows, void* buf);
/* The dims of dataset d (up to 3) into dims: its rank, or -1 */
int csi_traj_dims(hid_t d, hsize_t dims[3]);

#endif /* CS_HAVE_FCLIB */
#endif
