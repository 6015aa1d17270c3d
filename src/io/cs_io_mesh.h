/* Mesh files (STL, Wavefront OBJ; COLLADA through Assimp when built with it) for the MJCF and
   URDF loaders. */
#ifndef CS_IO_MESH_H
#define CS_IO_MESH_H

#include "contactsim/cs_io.h"

/* 1 if the library reads mesh files with path's extension: .stl or .obj, and .dae when built
   with Assimp (CS_HAVE_ASSIMP), any case. */
int csi_mesh_format_known(const char* path);
/* The formats read, for messages: "STL, OBJ and DAE" or "STL and OBJ". */
const char* csi_mesh_formats(void);

/* A mesh file by its extension (csi_mesh_format_known): cs_load_stl, cs_load_obj or
   csi_load_assimp; another extension is CS_ERR_UNSUPPORTED naming it. */
csStatus csi_load_mesh(const char* path, int* nvert, double** vert, int* nface, int** face);

/* COLLADA (.dae) through Assimp's C interface: every mesh of the scene triangulated, placed by
   its node's transform (the file's unit scale applied, its up axis ignored: robot packages
   write their meshes in the link frame), merged as csi_mesh_compact. CS_ERR_UNSUPPORTED when
   the library is built without Assimp; CS_ERR_IO / CS_ERR_PARSE naming the file otherwise. */
csStatus csi_load_assimp(const char* path, int* nvert, double** vert, int* nface, int** face);

/* The vertices v (n x 3) used by the faces f (nf x 3, rewritten in place to the new numbering),
   equal positions merged (-0 and +0 alike), numbered by first use in the faces: *vert a
   library allocation of *nvert x 3. path names the file in an out-of-memory error. */
csStatus csi_mesh_compact(const char* path, int n, const double* v, int nf, int* f, int* nvert,
                          double** vert);

#endif
