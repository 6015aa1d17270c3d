/* COLLADA (and the other formats Assimp reads) as a triangle mesh, through Assimp's C
   interface; without Assimp (CS_HAVE_ASSIMP unset) an "unsupported" status. */
#include <stddef.h>

#include "core/cs_error.h"
#include "io/cs_io_mesh.h"

#ifdef CS_HAVE_ASSIMP
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>

/* Vertices and faces of every mesh below node, placed by the composed transform T. */
typedef struct {
  double* v;
  int* f;
  int nv, nf;
} aiBuf;

static void ai_count(const struct aiScene* sc, const struct aiNode* n, int* nv, int* nf) {
  for (unsigned k = 0; k < n->mNumMeshes; k++) {
    const struct aiMesh* me = sc->mMeshes[n->mMeshes[k]];
    *nv += (int)me->mNumVertices;
    for (unsigned t = 0; t < me->mNumFaces; t++) *nf += me->mFaces[t].mNumIndices == 3;
  }
  for (unsigned c = 0; c < n->mNumChildren; c++) ai_count(sc, n->mChildren[c], nv, nf);
}

static void ai_mul(const struct aiMatrix4x4* a, const struct aiMatrix4x4* b,
                   struct aiMatrix4x4* out) {
  const float* A = &a->a1;
  const float* B = &b->a1;
  float* O = &out->a1;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      float s = 0;
      for (int k = 0; k < 4; k++) s += A[4 * i + k] * B[4 * k + j];
      O[4 * i + j] = s;
    }
}

static void ai_gather(const struct aiScene* sc, const struct aiNode* n,
                      const struct aiMatrix4x4* parent, aiBuf* b) {
  struct aiMatrix4x4 T;
  ai_mul(parent, &n->mTransformation, &T);
  const float* M = &T.a1;
  for (unsigned k = 0; k < n->mNumMeshes; k++) {
    const struct aiMesh* me = sc->mMeshes[n->mMeshes[k]];
    int base = b->nv;
    for (unsigned i = 0; i < me->mNumVertices; i++, b->nv++) {
      const double p[3] = {me->mVertices[i].x, me->mVertices[i].y, me->mVertices[i].z};
      for (int r = 0; r < 3; r++)
        b->v[3 * b->nv + r] =
            M[4 * r] * p[0] + M[4 * r + 1] * p[1] + M[4 * r + 2] * p[2] + M[4 * r + 3];
    }
    for (unsigned t = 0; t < me->mNumFaces; t++) {
      const struct aiFace* fc = &me->mFaces[t];
      if (fc->mNumIndices != 3) continue; /* points and lines of the file */
      for (int r = 0; r < 3; r++) b->f[3 * b->nf + r] = base + (int)fc->mIndices[r];
      b->nf++;
    }
  }
  for (unsigned c = 0; c < n->mNumChildren; c++) ai_gather(sc, n->mChildren[c], &T, b);
}

static csStatus ai_collect(const char* path, const struct aiScene* sc, int* nvert, double** vert,
                           int* nface, int** face) {
  int nv = 0, nf = 0;
  ai_count(sc, sc->mRootNode, &nv, &nf);
  if (nf == 0) return csi_error(CS_ERR_PARSE, "%s: no triangle in the file", path);
  aiBuf b = {csi_malloc(sizeof(double) * 3 * (size_t)nv), csi_malloc(sizeof(int) * 3 * (size_t)nf),
             0, 0};
  csStatus st = CS_OK;
  if (!b.v || !b.f) st = csi_error(CS_ERR_MEMORY, "%s: out of memory", path);
  if (st == CS_OK) {
    struct aiMatrix4x4 I = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    ai_gather(sc, sc->mRootNode, &I, &b);
    for (int i = 0; i < 3 * b.nv && st == CS_OK; i++)
      if (!isfinite(b.v[i])) st = csi_error(CS_ERR_PARSE, "%s: a vertex is not finite", path);
  }
  if (st == CS_OK) st = csi_mesh_compact(path, b.nv, b.v, b.nf, b.f, nvert, vert);
  if (st == CS_OK) {
    *nface = b.nf;
    *face = b.f;
    b.f = NULL;
  }
  cs_free(b.v);
  cs_free(b.f);
  return st;
}

csStatus csi_load_assimp(const char* path, int* nvert, double** vert, int* nface, int** face) {
  *nvert = 0, *vert = NULL, *nface = 0, *face = NULL;
  struct aiPropertyStore* ps = aiCreatePropertyStore();
  if (!ps) return csi_error(CS_ERR_MEMORY, "%s: out of memory", path);
  aiSetImportPropertyInteger(ps, AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, 1);
  const struct aiScene* sc = aiImportFileExWithProperties(path, aiProcess_Triangulate, NULL, ps);
  aiReleasePropertyStore(ps);
  if (!sc || !sc->mRootNode)
    return csi_error(CS_ERR_PARSE, "%s: cannot read the mesh: %s", path, aiGetErrorString());
  csStatus st = ai_collect(path, sc, nvert, vert, nface, face);
  aiReleaseImport(sc);
  return st;
}

#else

csStatus csi_load_assimp(const char* path, int* nvert, double** vert, int* nface, int** face) {
  *nvert = 0, *vert = NULL, *nface = 0, *face = NULL;
  return csi_error(CS_ERR_UNSUPPORTED, "%s: built without Assimp (CS_WITH_ASSIMP)", path);
}

#endif
