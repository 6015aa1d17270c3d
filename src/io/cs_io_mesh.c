/* Mesh files by extension: STL or Wavefront OBJ (case-insensitive). */
#include "io/cs_io_mesh.h"

#include <string.h>
#include <strings.h>

#include "core/cs_error.h"

/* The extension of the file name (after its last '/'), "" if none. */
static const char* mesh_ext(const char* path) {
  const char* slash = strrchr(path, '/');
  const char* dot = strrchr(slash ? slash + 1 : path, '.');
  return dot ? dot + 1 : "";
}

int csi_mesh_format_known(const char* path) {
  const char* e = mesh_ext(path);
  return strcasecmp(e, "stl") == 0 || strcasecmp(e, "obj") == 0;
}

csStatus csi_load_mesh(const char* path, int* nvert, double** vert, int* nface, int** face) {
  const char* e = mesh_ext(path);
  if (strcasecmp(e, "stl") == 0) return cs_load_stl(path, nvert, vert, nface, face);
  if (strcasecmp(e, "obj") == 0) return cs_load_obj(path, nvert, vert, nface, face);
  if (nvert) *nvert = 0;
  if (vert) *vert = NULL;
  if (nface) *nface = 0;
  if (face) *face = NULL;
  return csi_error(CS_ERR_UNSUPPORTED, "%s: mesh format '.%s' not read (STL and OBJ are)", path, e);
}
