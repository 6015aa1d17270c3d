/* Mesh files (STL, Wavefront OBJ) for the MJCF and URDF loaders. */
#ifndef CS_IO_MESH_H
#define CS_IO_MESH_H

#include "contactsim/cs_io.h"

/* Wavefront OBJ: positions and faces (polygons split into triangle fans), vertices used by a
   face with equal positions merged, as cs_load_stl's output; *vert and *face are library
   allocations (cs_free). Bad input: CS_ERR_IO (cannot open) or CS_ERR_PARSE naming the file
   and line. */
csStatus csi_load_obj(const char* path, int* nvert, double** vert, int* nface, int** face);

/* 1 if the library reads mesh files with path's extension: .stl or .obj, any case. */
int csi_mesh_format_known(const char* path);

/* A mesh file by its extension (csi_mesh_format_known): cs_load_stl or csi_load_obj; another
   extension is CS_ERR_UNSUPPORTED naming it. */
csStatus csi_load_mesh(const char* path, int* nvert, double** vert, int* nface, int** face);

#endif
