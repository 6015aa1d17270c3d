/* Mesh files by extension (case-insensitive): STL, Wavefront OBJ, COLLADA through Assimp;
   the vertex merge they share. */
#include "io/cs_io_mesh.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cs_error.h"

#ifdef CS_HAVE_ASSIMP
#define CS_MESH_ASSIMP 1
#else
#define CS_MESH_ASSIMP 0
#endif

/* The extension of the file name (after its last '/'), "" if none. */
static const char* mesh_ext(const char* path) {
  const char* slash = strrchr(path, '/');
  const char* dot = strrchr(slash ? slash + 1 : path, '.');
  return dot ? dot + 1 : "";
}

int csi_mesh_format_known(const char* path) {
  const char* e = mesh_ext(path);
  return strcasecmp(e, "stl") == 0 || strcasecmp(e, "obj") == 0 ||
         (CS_MESH_ASSIMP && strcasecmp(e, "dae") == 0);
}

const char* csi_mesh_formats(void) { return CS_MESH_ASSIMP ? "STL, OBJ and DAE" : "STL and OBJ"; }

csStatus csi_load_mesh(const char* path, int* nvert, double** vert, int* nface, int** face) {
  const char* e = mesh_ext(path);
  if (strcasecmp(e, "stl") == 0) return cs_load_stl(path, nvert, vert, nface, face);
  if (strcasecmp(e, "obj") == 0) return cs_load_obj(path, nvert, vert, nface, face);
  if (CS_MESH_ASSIMP && strcasecmp(e, "dae") == 0)
    return csi_load_assimp(path, nvert, vert, nface, face);
  if (nvert) *nvert = 0;
  if (vert) *vert = NULL;
  if (nface) *nface = 0;
  if (face) *face = NULL;
  return csi_error(CS_ERR_UNSUPPORTED, "%s: mesh format '.%s' not read (%s are)", path, e,
                   csi_mesh_formats());
}

typedef struct {
  double x[3];
  int i;
} meshKey;

static int mesh_key_cmp(const void* pa, const void* pb) {
  const meshKey *a = pa, *b = pb;
  for (int k = 0; k < 3; k++)
    if (a->x[k] != b->x[k]) return a->x[k] < b->x[k] ? -1 : 1;
  return (a->i > b->i) - (a->i < b->i);
}

csStatus csi_mesh_compact(const char* path, int n, const double* v, int nf, int* f, int* nvert,
                          double** vert) {
  meshKey* key = csi_malloc(sizeof(meshKey) * (size_t)n);
  int* rep = csi_malloc(sizeof(int) * (size_t)n);
  int* id = csi_malloc(sizeof(int) * (size_t)n);
  double* out = csi_malloc(sizeof(double) * 3 * (size_t)n);
  csStatus st = CS_OK;
  if (!key || !rep || !id || !out) {
    st = csi_error(CS_ERR_MEMORY, "%s: out of memory", path);
    goto done;
  }
  for (int i = 0; i < n; i++) {
    memcpy(key[i].x, v + 3 * (size_t)i, sizeof key[i].x);
    key[i].i = i;
    id[i] = -1;
  }
  qsort(key, (size_t)n, sizeof(meshKey), mesh_key_cmp);
  for (int i = 0, r = 0; i < n; i++) { /* rep: the smallest index among equal positions */
    const double *x = key[i].x, *y = key[r].x;
    if (x[0] != y[0] || x[1] != y[1] || x[2] != y[2]) r = i;
    rep[key[i].i] = key[r].i;
  }
  int nu = 0;
  for (size_t t = 0; t < 3 * (size_t)nf; t++) {
    int r = rep[f[t]];
    if (id[r] < 0) {
      id[r] = nu;
      memcpy(out + 3 * (size_t)nu++, v + 3 * (size_t)r, 3 * sizeof(double));
    }
    f[t] = id[r];
  }
  *nvert = nu;
  *vert = out;
  out = NULL;
done:
  cs_free(key);
  cs_free(rep);
  cs_free(id);
  cs_free(out);
  return st;
}
