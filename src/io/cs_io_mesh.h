/* Mesh files (STL, Wavefront OBJ) for the MJCF and URDF loaders. */
#ifndef CS_IO_MESH_H
#define CS_IO_MESH_H

#include "contactsim/cs_io.h"

/* 1 if the library reads mesh files with path's extension: .stl or .obj, any case. */
int csi_mesh_format_known(const char* path);

/* A mesh file by its extension (csi_mesh_format_known): cs_load_stl or cs_load_obj; another
   extension is CS_ERR_UNSUPPORTED naming it. */
csStatus csi_load_mesh(const char* path, int* nvert, double** vert, int* nface, int** face);

#endif
