/* Trajectory files: a run saved frame by frame in HDF5 for viewers, plots and the Python
   package (the layout, its units and guarantees: docs/trajectory.md). The writer is called
   by the user between steps, never by the step itself; without HDF5 in the build
   (cs_have_traj() == 0) every function returns CS_ERR_UNSUPPORTED. */
#ifndef CONTACTSIM_CS_TRAJ_H
#define CONTACTSIM_CS_TRAJ_H

#include "cs_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The layout version written in the file's root attribute "version". */
#define CS_TRAJ_VERSION 1
/* Frames between two flushes of the file to disk (cs_traj_create's flush_every 0). */
#define CS_TRAJ_FLUSH_DEFAULT 100

/* 1 if the library was built with HDF5 (trajectory files are read and written), else 0. */
CS_API int cs_have_traj(void);

/* ---- writing */
typedef struct csTrajWriter csTrajWriter;
/* Creates (truncates) path and writes the model's part (bodies, geoms with their colour,
   meshes). flush_every: frames between flushes to disk (0: CS_TRAJ_FLUSH_DEFAULT); a run
   interrupted keeps every frame written before the last flush. CS_ERR_IO naming path if it
   cannot be created, CS_ERR_MEMORY. */
CS_API csStatus cs_traj_create(const char* path, const csModel* m, int flush_every,
                               csTrajWriter** out);
/* Appends d's current frame: time, qpos, qvel, body poses and energy of that state (computed
   on a csData of the writer's own: d is not modified), the last step's contacts with their
   forces (cs_contact_force), its largest penetration and its solver's iterations and
   residual. CS_ERR_IO naming the file and the dataset if HDF5 fails. */
CS_API csStatus cs_traj_write(csTrajWriter* w, const csModel* m, const csData* d);
/* Writes everything appended so far to disk. */
CS_API csStatus cs_traj_flush(csTrajWriter* w);
/* Flushes and closes the file, frees w (NULL is fine). CS_ERR_IO if the last flush failed. */
CS_API csStatus cs_traj_close(csTrajWriter* w);

/* ---- reading */
typedef struct csTraj csTraj;

/* Sizes of an opened file. nframe: the frames every frame dataset holds. */
typedef struct csTrajInfo {
  int version;
  int nq, nv, nbody, ngeom, nmesh;
  long nframe;
  long ncontact; /* rows of the contact table those frames use */
  double timestep;
} csTrajInfo;

/* One frame as cs_traj_read_frame returns it; the arrays belong to the reader and are
   valid until its next read or cs_traj_free. */
typedef struct csTrajFrame {
  double time;
  const double* qpos;  /* (nq) */
  const double* qvel;  /* (nv) */
  const double* xpos;  /* (nbody x 3) world, body 0 the world */
  const double* xquat; /* (nbody x 4) world, w x y z */
  double energy[2];    /* potential, kinetic (J) */
  double penetration_max;
  int solver_iterations;
  double solver_residual;
  int ncon;
  long contact_adr;            /* the frame's first row in the contact table */
  const double* contact_pos;   /* (ncon x 3) world */
  const double* contact_frame; /* (ncon x 9) rows n, t1, t2 (world) */
  const double* contact_force; /* (ncon x 3) N, world, on geom[1]'s body */
  const double* contact_dist;  /* (ncon) signed distance, m */
  const int* contact_geom;     /* (ncon x 2) geom ids */
} csTrajFrame;

/* Opens a trajectory file. CS_ERR_IO naming path if it cannot be opened, CS_ERR_PARSE
   naming the file and the dataset or attribute if it is not a trajectory file of a known
   version or its datasets do not agree, CS_ERR_UNSUPPORTED for a later version. */
CS_API csStatus cs_traj_open(const char* path, csTraj** out);
CS_API void cs_traj_info(const csTraj* t, csTrajInfo* info);
/* Frame k (0 .. nframe-1) into *f. CS_ERR_ARG for k outside, CS_ERR_IO if HDF5 fails. */
CS_API csStatus cs_traj_read_frame(csTraj* t, long k, csTrajFrame* f);
/* A whole dataset by path ("model/geom_size"), converted to double or int: n must be its
   element count (CS_ERR_ARG naming the dataset otherwise, or if it is absent). */
CS_API csStatus cs_traj_read_doubles(const csTraj* t, const char* name, double* out, long n);
CS_API csStatus cs_traj_read_ints(const csTraj* t, const char* name, int* out, long n);
/* The name of body or geom id (kind "body" or "geom"), "" if none; NULL for a bad kind or
   id. */
CS_API const char* cs_traj_name(const csTraj* t, const char* kind, int id);
CS_API void cs_traj_free(csTraj* t);

#ifdef __cplusplus
}
#endif
#endif
