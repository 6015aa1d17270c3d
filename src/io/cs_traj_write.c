/* The trajectory file's writer (docs/trajectory.md): the model's part once, then one row
   per frame appended to extendible, chunked datasets, flushed every flush_every frames. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "contactsim/cs_traj.h"
#include "core/cs_error.h"
#include "io/cs_io_hdf5.h"
#include "io/cs_traj_h5.h"

#if defined(CS_HAVE_FCLIB) && CS_HAVE_FCLIB

/* Doubles per contact in the writer's row buffer: pos 3, frame 9, force 3, dist 1 */
#define CON_DOUBLES 16

struct csTrajWriter {
  hid_t file;
  hid_t frame[CSI_TF_N];
  hid_t con[CSI_TC_N];
  char* path;
  long nframe;
  long long ncontact;
  int flush_every, since_flush;
  csData* scratch; /* the frame's kinematics and energy */
  double* cbuf;    /* (ncon_max x CON_DOUBLES) the contacts' columns, one after the other */
  int* gbuf;       /* (ncon_max x 2) */
  int ncon_max;
};

int cs_have_traj(void) { return 1; }

/* ---------------------------------------------------------------- the model's part */

/* A whole dataset name of rank 1 or 2 (d1 0: rank 1) from buf; 0, or -1 */
static int put(hid_t f, const char* name, char kind, hsize_t d0, hsize_t d1, const void* buf) {
  hsize_t dims[2] = {d0, d1};
  hid_t s = H5Screate_simple(d1 ? 2 : 1, dims, NULL);
  if (s < 0) return -1;
  hid_t d = H5Dcreate2(f, name, csi_traj_file_type(kind), s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  herr_t e = d < 0 ? -1 : 0;
  if (d >= 0 && d0 * (d1 ? d1 : 1) > 0)
    e = H5Dwrite(d, csi_traj_mem_type(kind), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  if (d >= 0) H5Dclose(d);
  H5Sclose(s);
  return e < 0 ? -1 : 0;
}

/* The n names of kind (cs_id2name) as a dataset of fixed-length strings; 0, or -1 */
static int put_names(const csModel* m, hid_t f, const char* name, const char* kind, int n) {
  size_t len = 1;
  for (int i = 0; i < n; i++) {
    size_t l = strlen(cs_id2name(m, kind, i)) + 1;
    if (l > len) len = l;
  }
  char* buf = csi_calloc((size_t)(n ? n : 1), len);
  if (!buf) return -1;
  for (int i = 0; i < n; i++) memcpy(buf + i * len, cs_id2name(m, kind, i), len - 1);
  hid_t t = H5Tcopy(H5T_C_S1);
  hsize_t dims[1] = {(hsize_t)n};
  hid_t s = H5Screate_simple(1, dims, NULL);
  herr_t e = t < 0 || s < 0 ? -1 : H5Tset_size(t, len);
  hid_t d = e < 0 ? -1 : H5Dcreate2(f, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d < 0) e = -1;
  if (d >= 0 && n > 0) e = H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  if (d >= 0) H5Dclose(d);
  if (s >= 0) H5Sclose(s);
  if (t >= 0) H5Tclose(t);
  cs_free(buf);
  return e < 0 ? -1 : 0;
}

/* A scalar attribute of the root group: a double (s NULL) or a string; 0, or -1 */
static int put_attr(hid_t f, const char* name, const char* s, double v, int is_int) {
  hid_t t = s ? H5Tcopy(H5T_C_S1) : H5Tcopy(is_int ? H5T_STD_I32LE : H5T_IEEE_F64LE);
  if (t < 0) return -1;
  if (s) H5Tset_size(t, strlen(s) + 1);
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(f, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
  int iv = (int)v;
  herr_t e = a < 0    ? -1
             : s      ? H5Awrite(a, t, s)
             : is_int ? H5Awrite(a, H5T_NATIVE_INT, &iv)
                      : H5Awrite(a, H5T_NATIVE_DOUBLE, &v);
  if (a >= 0) H5Aclose(a);
  H5Sclose(sp);
  H5Tclose(t);
  return e < 0 ? -1 : 0;
}

/* The root attributes and the group model: bodies, geoms, meshes; 0, or -1 */
static int write_model(hid_t f, const csModel* m) {
  hsize_t nb = (hsize_t)m->nbody, ng = (hsize_t)m->ngeom, nm = (hsize_t)m->nmesh;
  int e = put_attr(f, "format", CSI_TRAJ_FORMAT, 0, 0) |
          put_attr(f, "version", NULL, CS_TRAJ_VERSION, 1) |
          put_attr(f, "contactsim_version", cs_version_string(), 0, 0) |
          put_attr(f, "timestep", NULL, m->opt.timestep, 0);
  hid_t g = H5Gcreate2(f, "model", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (g < 0) return -1;
  H5Gclose(g);
  e |= put(f, "model/body_parent", 'i', nb, 0, m->body_parent) |
       put_names(m, f, "model/body_name", "body", m->nbody) |
       put(f, "model/geom_type", 'i', ng, 0, m->geom_type) |
       put(f, "model/geom_body", 'i', ng, 0, m->geom_body) |
       put(f, "model/geom_size", 'd', ng, 3, m->geom_size) |
       put(f, "model/geom_pos", 'd', ng, 3, m->geom_pos) |
       put(f, "model/geom_quat", 'd', ng, 4, m->geom_quat) |
       put(f, "model/geom_rgba", 'd', ng, 4, m->geom_rgba) |
       put(f, "model/geom_visual", 'i', ng, 0, m->geom_visual) |
       put(f, "model/geom_mesh", 'i', ng, 0, m->geom_mesh) |
       put_names(m, f, "model/geom_name", "geom", m->ngeom) |
       put(f, "model/mesh_vertadr", 'i', nm, 0, m->mesh_vertadr) |
       put(f, "model/mesh_vertnum", 'i', nm, 0, m->mesh_vertnum) |
       put(f, "model/mesh_faceadr", 'i', nm, 0, m->mesh_faceadr) |
       put(f, "model/mesh_facenum", 'i', nm, 0, m->mesh_facenum) |
       put(f, "model/mesh_vert", 'd', (hsize_t)m->nmeshvert, 3, m->mesh_vert) |
       put(f, "model/mesh_face", 'i', (hsize_t)m->nmeshface, 3, m->mesh_face);
  return e ? -1 : 0;
}

/* ---------------------------------------------------------------- the frames' datasets */

/* An extendible dataset of 0 rows of `tail` (rank - 1 dims after the row), chunked by
   about 64 KiB of rows; its id, or -1 */
static hid_t create_rows(hid_t f, const csiTrajSet* set, int rank, const hsize_t* tail) {
  hsize_t dims[3] = {0, 0, 0}, maxd[3] = {H5S_UNLIMITED, 0, 0}, chunk[3] = {1, 1, 1};
  hsize_t row = 8;
  for (int r = 1; r < rank; r++) {
    dims[r] = tail[r - 1];
    maxd[r] = tail[r - 1] ? tail[r - 1] : H5S_UNLIMITED;
    chunk[r] = tail[r - 1] ? tail[r - 1] : 1;
    row *= chunk[r];
  }
  chunk[0] = row >= 65536 ? 1 : 65536 / row;
  if (chunk[0] > 1024) chunk[0] = 1024;
  hid_t s = H5Screate_simple(rank, dims, maxd);
  hid_t p = H5Pcreate(H5P_DATASET_CREATE);
  hid_t d = -1;
  if (s >= 0 && p >= 0 && H5Pset_chunk(p, rank, chunk) >= 0)
    d = H5Dcreate2(f, set->name, csi_traj_file_type(set->kind), s, H5P_DEFAULT, p, H5P_DEFAULT);
  if (p >= 0) H5Pclose(p);
  if (s >= 0) H5Sclose(s);
  return d;
}

/* The groups frames and contacts with their empty datasets; 0, or -1 */
static int create_frames(csTrajWriter* w, const csModel* m) {
  hsize_t nq = (hsize_t)m->nq, nv = (hsize_t)m->nv, nb = (hsize_t)m->nbody;
  const hsize_t tails[CSI_TF_N][2] = {{0}, {nq}, {nv}, {nb, 3}, {nb, 4}, {2},
                                      {0}, {0},  {0},  {0},     {0}};
  const int ranks[CSI_TF_N] = {1, 2, 2, 3, 3, 2, 1, 1, 1, 1, 1};
  const hsize_t ctails[CSI_TC_N][2] = {{3}, {3, 3}, {3}, {0}, {2}};
  const int cranks[CSI_TC_N] = {2, 3, 2, 1, 2};
  const char* groups[2] = {"frames", "contacts"};
  for (int k = 0; k < 2; k++) {
    hid_t g = H5Gcreate2(w->file, groups[k], H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    H5Gclose(g);
  }
  for (int k = 0; k < CSI_TF_N; k++)
    if ((w->frame[k] = create_rows(w->file, &csi_traj_frame_sets[k], ranks[k], tails[k])) < 0)
      return -1;
  for (int k = 0; k < CSI_TC_N; k++)
    if ((w->con[k] = create_rows(w->file, &csi_traj_contact_sets[k], cranks[k], ctails[k])) < 0)
      return -1;
  return 0;
}

/* ---------------------------------------------------------------- create, write, close */

/* Everything w holds released (the file closed without a flush) */
static void writer_free(csTrajWriter* w) {
  for (int k = 0; k < CSI_TF_N; k++)
    if (w->frame[k] >= 0) H5Dclose(w->frame[k]);
  for (int k = 0; k < CSI_TC_N; k++)
    if (w->con[k] >= 0) H5Dclose(w->con[k]);
  if (w->file >= 0) H5Fclose(w->file);
  cs_data_free(w->scratch);
  cs_free(w->cbuf);
  cs_free(w->gbuf);
  cs_free(w->path);
  cs_free(w);
}

csStatus cs_traj_create(const char* path, const csModel* m, int flush_every, csTrajWriter** out) {
  *out = NULL;
  if (!path || !m || flush_every < 0)
    return csi_error(CS_ERR_ARG, "cs_traj_create: NULL path or model, or flush_every %d < 0",
                     flush_every);
  csTrajWriter* w = csi_calloc(1, sizeof *w);
  if (!w) return csi_error(CS_ERR_MEMORY, "trajectory file '%s': out of memory", path);
  w->file = -1;
  for (int k = 0; k < CSI_TF_N; k++) w->frame[k] = -1;
  for (int k = 0; k < CSI_TC_N; k++) w->con[k] = -1;
  w->flush_every = flush_every ? flush_every : CS_TRAJ_FLUSH_DEFAULT;
  w->ncon_max = m->ncon_max;
  w->path = csi_strdup(path);
  w->scratch = cs_data_new(m);
  w->cbuf = csi_malloc(sizeof(double) * CON_DOUBLES * (size_t)(m->ncon_max + 1));
  w->gbuf = csi_malloc(sizeof(int) * 2 * (size_t)(m->ncon_max + 1));
  if (!w->path || !w->scratch || !w->cbuf || !w->gbuf) {
    writer_free(w);
    return csi_error(CS_ERR_MEMORY, "trajectory file '%s': out of memory", path);
  }
  FILE* fp = fopen(path, "wb"); /* for an errno to report */
  if (!fp) {
    csStatus st =
        csi_error(CS_ERR_IO, "cannot write trajectory file '%s': %s", path, strerror(errno));
    writer_free(w);
    return st;
  }
  fclose(fp);
  csiH5Quiet q;
  csi_h5_quiet(&q);
  w->file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  int e = w->file < 0 || write_model(w->file, m) || create_frames(w, m) ||
          H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0;
  csi_h5_restore(&q);
  if (e) {
    writer_free(w);
    return csi_error(CS_ERR_IO, "trajectory file '%s': HDF5 could not write the model's part",
                     path);
  }
  *out = w;
  return CS_OK;
}

/* The frame's body poses and energy, from its qpos and qvel, in w's own csData */
static void frame_kinematics(csTrajWriter* w, const csModel* m, const csData* d) {
  csData* s = w->scratch;
  memcpy(s->qpos, d->qpos, sizeof(double) * (size_t)m->nq);
  memcpy(s->qvel, d->qvel, sizeof(double) * (size_t)m->nv);
  cs_kinematics(m, s);
  cs_com_pos(m, s);
  cs_com_vel(m, s);
  cs_energy(m, s);
}

/* d's contacts appended to the contact table; 0, or the index of the dataset that failed */
static int write_contacts(csTrajWriter* w, const csModel* m, const csData* d) {
  int nc = d->ncon < w->ncon_max ? d->ncon : w->ncon_max;
  double *pos = w->cbuf, *fr = pos + 3 * nc, *force = fr + 9 * nc, *dist = force + 3 * nc;
  for (int i = 0; i < nc; i++) {
    const csContact* c = &d->contact[i];
    double f[6];
    cs_contact_force(m, d, i, f, NULL);
    memcpy(pos + 3 * i, c->pos, sizeof c->pos);
    memcpy(fr + 9 * i, c->frame, sizeof c->frame);
    memcpy(force + 3 * i, f, 3 * sizeof(double));
    dist[i] = c->dist;
    w->gbuf[2 * i] = c->geom[0], w->gbuf[2 * i + 1] = c->geom[1];
  }
  const void* bufs[CSI_TC_N] = {pos, fr, force, dist, w->gbuf};
  for (int k = 0; k < CSI_TC_N; k++)
    if (csi_traj_append(w->con[k], csi_traj_mem_type(csi_traj_contact_sets[k].kind),
                        (hsize_t)w->ncontact, (hsize_t)nc, bufs[k]) < 0)
      return CSI_TC_N + k;
  return 0;
}

csStatus cs_traj_write(csTrajWriter* w, const csModel* m, const csData* d) {
  if (!w || !m || !d) return csi_error(CS_ERR_ARG, "cs_traj_write: NULL writer, model or data");
  frame_kinematics(w, m, d);
  int nc = d->ncon < w->ncon_max ? d->ncon : w->ncon_max;
  double pen = 0;
  for (int c = 0; c < nc; c++)
    if (-d->contact[c].dist > pen) pen = -d->contact[c].dist;
  long long adr = w->ncontact;
  const void* bufs[CSI_TF_N] = {&d->time,
                                d->qpos,
                                d->qvel,
                                w->scratch->xpos,
                                w->scratch->xquat,
                                w->scratch->energy,
                                &pen,
                                &d->solver_stats.iterations,
                                &d->solver_stats.residual,
                                &nc,
                                &adr};
  csiH5Quiet q;
  csi_h5_quiet(&q);
  int bad = write_contacts(w, m, d) - 1;
  for (int k = 0; k < CSI_TF_N && bad < 0; k++)
    if (csi_traj_append(w->frame[k], csi_traj_mem_type(csi_traj_frame_sets[k].kind),
                        (hsize_t)w->nframe, 1, bufs[k]) < 0)
      bad = k;
  csi_h5_restore(&q);
  if (bad >= 0) {
    const char* name =
        bad < CSI_TF_N ? csi_traj_frame_sets[bad].name : csi_traj_contact_sets[bad - CSI_TF_N].name;
    return csi_error(CS_ERR_IO, "trajectory file '%s': HDF5 could not append frame %ld to %s",
                     w->path, w->nframe, name);
  }
  w->ncontact += nc;
  w->nframe++;
  if (++w->since_flush >= w->flush_every) return cs_traj_flush(w);
  return CS_OK;
}

csStatus cs_traj_flush(csTrajWriter* w) {
  if (!w) return csi_error(CS_ERR_ARG, "cs_traj_flush: NULL writer");
  w->since_flush = 0;
  if (H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
    return csi_error(CS_ERR_IO, "trajectory file '%s': HDF5 could not flush it", w->path);
  return CS_OK;
}

csStatus cs_traj_close(csTrajWriter* w) {
  if (!w) return CS_OK;
  csStatus st = cs_traj_flush(w);
  writer_free(w);
  return st;
}

#else /* no HDF5 */

int cs_have_traj(void) { return 0; }

static csStatus no_hdf5(void) {
  return csi_error(CS_ERR_UNSUPPORTED,
                   "trajectory files: this build of contactsim has no HDF5 (built without "
                   "libfclib, -DCS_WITH_FCLIB=OFF)");
}

csStatus cs_traj_create(const char* path, const csModel* m, int flush_every, csTrajWriter** out) {
  (void)path, (void)m, (void)flush_every;
  *out = NULL;
  return no_hdf5();
}
csStatus cs_traj_write(csTrajWriter* w, const csModel* m, const csData* d) {
  (void)w, (void)m, (void)d;
  return no_hdf5();
}
csStatus cs_traj_flush(csTrajWriter* w) {
  (void)w;
  return no_hdf5();
}
csStatus cs_traj_close(csTrajWriter* w) {
  (void)w;
  return CS_OK;
}

#endif /* CS_HAVE_FCLIB */
