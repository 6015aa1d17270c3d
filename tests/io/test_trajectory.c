/* Trajectory files (docs/trajectory.md): a short run of a model with a mesh, a visual geom
   and contacts written with cs_traj_write, read back with cs_traj_open and checked dataset by
   dataset against the live csData (exact equality: the file stores the doubles as they
   are); body poses cross-checked against the free joints' qpos; a writer killed between two
   flushes leaves a readable file with the flushed frames; geom colours from MJCF and URDF;
   bad files and arguments refused with their names. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "contactsim/contactsim.h"
#include "contactsim/cs_traj.h"
#include "cs_test.h"

#define NSTEP 60
#define EVERY 3
#define NFRAME (NSTEP / EVERY + 1)
#define CMAX 64

static const char* cube_obj =
    "v -1 -1 -1\nv 1 -1 -1\nv -1 1 -1\nv 1 1 -1\nv -1 -1 1\nv 1 -1 1\nv -1 1 1\nv 1 1 1\n"
    "f 1 5 7 3\nf 2 4 8 6\nf 1 2 6 5\nf 3 7 8 4\nf 1 3 4 2\nf 5 6 8 7\n";

/* a floor, a mesh cube (falling onto it, with a visual sphere on top), a ball */
static const char* model_xml =
    "<mujoco><asset><mesh name=\"cube\" file=\"test_trajectory_cube.obj\" scale=\".1 .1 .1\"/>"
    "</asset><default><geom rgba=\"0.1 0.2 0.3 1\"/></default><worldbody>"
    "<geom name=\"floor\" type=\"plane\" size=\"2 2 .1\" rgba=\"0 0.5 0 1\"/>"
    "<body name=\"box\" pos=\"0 0 .12\" euler=\"0 0 20\"><freejoint/>"
    "<geom name=\"hull\" type=\"mesh\" mesh=\"cube\"/>"
    "<geom name=\"lamp\" type=\"sphere\" size=\".03\" pos=\"0 0 .13\" contype=\"0\" "
    "conaffinity=\"0\" rgba=\"1 1 0 .5\"/></body>"
    "<body name=\"ball\" pos=\".5 0 .06\"><freejoint/><geom name=\"b\" size=\".05\"/></body>"
    "</worldbody></mujoco>";

/* What the test saw of one frame in the live csData */
typedef struct {
  double time, qpos[14], qvel[12], xpos[3 * 3], xquat[4 * 3], energy[2], pen, res;
  int iter, ncon, geom[2 * CMAX];
  double pos[3 * CMAX], frame[9 * CMAX], force[3 * CMAX], dist[CMAX];
} liveFrame;

static liveFrame live[NFRAME];

/* frame k of the live run recorded: poses and energy from a csData set to the state */
static void record(const csModel* m, const csData* d, csData* kin, liveFrame* L) {
  L->time = d->time;
  memcpy(L->qpos, d->qpos, sizeof(double) * (size_t)m->nq);
  memcpy(L->qvel, d->qvel, sizeof(double) * (size_t)m->nv);
  CHECK(cs_data_set_state(m, kin, d->qpos, m->nq, d->qvel, m->nv) == CS_OK);
  cs_kinematics(m, kin);
  cs_com_pos(m, kin);
  cs_com_vel(m, kin);
  cs_energy(m, kin);
  memcpy(L->xpos, kin->xpos, sizeof L->xpos);
  memcpy(L->xquat, kin->xquat, sizeof L->xquat);
  memcpy(L->energy, kin->energy, sizeof L->energy);
  L->ncon = d->ncon;
  L->pen = 0;
  L->iter = d->solver_stats.iterations;
  L->res = d->solver_stats.residual;
  for (int i = 0; i < d->ncon && i < CMAX; i++) {
    double f[6];
    CHECK(cs_contact_force(m, d, i, f, NULL) == CS_OK);
    memcpy(L->pos + 3 * i, d->contact[i].pos, 3 * sizeof(double));
    memcpy(L->frame + 9 * i, d->contact[i].frame, 9 * sizeof(double));
    memcpy(L->force + 3 * i, f, 3 * sizeof(double));
    L->dist[i] = d->contact[i].dist;
    L->geom[2 * i] = d->contact[i].geom[0], L->geom[2 * i + 1] = d->contact[i].geom[1];
    if (-d->contact[i].dist > L->pen) L->pen = -d->contact[i].dist;
  }
}

/* The run: NSTEP steps, a frame every EVERY (the first state included), the writer closed
   unless stop_after >= 0: then the process ends (_exit, no close) after that many frames */
static long run(const csModel* m, const char* path, int flush_every, int stop_after) {
  csData* d = cs_data_new(m);
  csData* kin = cs_data_new(m);
  csTrajWriter* w = NULL;
  CHECK(d && kin && cs_traj_create(path, m, flush_every, &w) == CS_OK);
  long nf = 0, total = 0;
  for (int k = 0; w && k <= NSTEP; k++) {
    if (k % EVERY == 0) {
      if (stop_after < 0) record(m, d, kin, &live[nf]);
      CHECK(cs_traj_write(w, m, d) == CS_OK);
      if (++nf == stop_after) _exit(0); /* a crash: no close, no atexit */
    }
    if (k < NSTEP) CHECK(cs_step(m, d) == CS_OK);
    total += d->ncon;
  }
  CHECK(cs_traj_close(w) == CS_OK);
  cs_data_free(kin);
  cs_data_free(d);
  return total;
}

/* n doubles equal bit for bit (up to -0 == 0) */
static int same(const double* a, const double* b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

/* frame k of the file equal to live[k] */
static void check_frame(const csModel* m, csTraj* t, long k, long adr) {
  csTrajFrame f;
  const liveFrame* L = &live[k];
  CHECK_MSG(cs_traj_read_frame(t, k, &f) == CS_OK, "%s", cs_last_error());
  CHECK_MSG(f.time == L->time && same(f.qpos, L->qpos, m->nq) && same(f.qvel, L->qvel, m->nv),
            "frame %ld: time or state differs", k);
  CHECK_MSG(same(f.xpos, L->xpos, 3 * m->nbody) && same(f.xquat, L->xquat, 4 * m->nbody) &&
                same(f.energy, L->energy, 2),
            "frame %ld: poses or energy differ", k);
  CHECK(f.penetration_max == L->pen && f.solver_iterations == L->iter &&
        f.solver_residual == L->res);
  CHECK_MSG(f.ncon == L->ncon && f.contact_adr == adr, "frame %ld: ncon %d (%d), adr %ld (%ld)", k,
            f.ncon, L->ncon, f.contact_adr, adr);
  if (f.ncon != L->ncon) return;
  CHECK(same(f.contact_pos, L->pos, 3 * f.ncon) && same(f.contact_frame, L->frame, 9 * f.ncon) &&
        same(f.contact_force, L->force, 3 * f.ncon) && same(f.contact_dist, L->dist, f.ncon));
  CHECK(f.ncon == 0 || !memcmp(f.contact_geom, L->geom, sizeof(int) * 2 * (size_t)f.ncon));
  /* the free bodies' world poses are their qpos (bodies 1, 2: box, ball) */
  for (int b = 1; b < 3; b++) {
    for (int a = 0; a < 3; a++) CHECK_NEAR(f.xpos[3 * b + a], f.qpos[7 * (b - 1) + a], 1e-15);
    for (int a = 0; a < 4; a++) CHECK_NEAR(f.xquat[4 * b + a], f.qpos[7 * (b - 1) + 3 + a], 1e-15);
  }
}

/* The model's part against m */
static void check_model(const csModel* m, const csTraj* t) {
  double dv[512];
  int iv[512];
  CHECK(cs_traj_read_ints(t, "model/body_parent", iv, m->nbody) == CS_OK &&
        !memcmp(iv, m->body_parent, sizeof(int) * (size_t)m->nbody));
  const char* isets[] = {"model/geom_type", "model/geom_body", "model/geom_visual",
                         "model/geom_mesh"};
  const int* iref[] = {m->geom_type, m->geom_body, m->geom_visual, m->geom_mesh};
  for (int s = 0; s < 4; s++)
    CHECK_MSG(cs_traj_read_ints(t, isets[s], iv, m->ngeom) == CS_OK &&
                  !memcmp(iv, iref[s], sizeof(int) * (size_t)m->ngeom),
              "%s", isets[s]);
  const char* dsets[] = {"model/geom_size", "model/geom_pos", "model/geom_quat", "model/geom_rgba"};
  const double* dref[] = {m->geom_size, m->geom_pos, m->geom_quat, m->geom_rgba};
  const int width[] = {3, 3, 4, 4};
  for (int s = 0; s < 4; s++)
    CHECK_MSG(cs_traj_read_doubles(t, dsets[s], dv, width[s] * m->ngeom) == CS_OK &&
                  same(dv, dref[s], width[s] * m->ngeom),
              "%s", dsets[s]);
  CHECK(cs_traj_read_doubles(t, "model/mesh_vert", dv, 3 * m->nmeshvert) == CS_OK &&
        same(dv, m->mesh_vert, 3 * m->nmeshvert));
  CHECK(cs_traj_read_ints(t, "model/mesh_face", iv, 3 * m->nmeshface) == CS_OK &&
        !memcmp(iv, m->mesh_face, sizeof(int) * 3 * (size_t)m->nmeshface));
  CHECK(cs_traj_read_ints(t, "model/mesh_vertnum", iv, m->nmesh) == CS_OK &&
        iv[0] == m->mesh_vertnum[0]);
  for (int b = 0; b < m->nbody; b++)
    CHECK(!strcmp(cs_traj_name(t, "body", b), cs_id2name(m, "body", b)));
  for (int g = 0; g < m->ngeom; g++)
    CHECK(!strcmp(cs_traj_name(t, "geom", g), cs_id2name(m, "geom", g)));
  CHECK(cs_traj_name(t, "body", m->nbody) == NULL && cs_traj_name(t, "joint", 0) == NULL);
  /* wrong sizes and names are refused, naming the dataset */
  CHECK(cs_traj_read_doubles(t, "model/geom_size", dv, 3) == CS_ERR_ARG &&
        strstr(cs_last_error(), "model/geom_size"));
  CHECK(cs_traj_read_ints(t, "model/nothing", iv, 1) == CS_ERR_ARG &&
        strstr(cs_last_error(), "model/nothing"));
}

/* The colours of the model: MJCF rgba, a default class, the visual geom's */
static void check_rgba(const csModel* m) {
  int hull = cs_name2id(m, "geom", "hull"), lamp = cs_name2id(m, "geom", "lamp");
  int fl = cs_name2id(m, "geom", "floor");
  CHECK(hull >= 0 && lamp >= 0 && fl >= 0 && m->geom_visual[lamp] && !m->geom_visual[hull]);
  const double want[3][4] = {{0.1, 0.2, 0.3, 1}, {1, 1, 0, 0.5}, {0, 0.5, 0, 1}};
  const int id[3] = {hull, lamp, fl};
  for (int k = 0; k < 3; k++) CHECK(same(m->geom_rgba + 4 * id[k], want[k], 4));
}

/* URDF: a visual's own <material><color>, a <robot>-level material by name, the default */
static void check_urdf_rgba(void) {
  const char* urdf =
      "<robot name=\"r\"><material name=\"red\"><color rgba=\"1 0 0 1\"/></material>"
      "<link name=\"base\"><inertial><mass value=\"1\"/><inertia ixx=\".1\" iyy=\".1\" "
      "izz=\".1\"/></inertial><visual><geometry><box size=\".1 .1 .1\"/></geometry>"
      "<material name=\"red\"/></visual><visual><geometry><sphere radius=\".1\"/></geometry>"
      "<material name=\"x\"><color rgba=\"0 0 1 .25\"/></material></visual>"
      "<collision><geometry><sphere radius=\".1\"/></geometry></collision></link></robot>";
  const char* path = cs_test_write_file(".", "test_trajectory.urdf", urdf);
  csModel* m = NULL;
  CHECK(path && cs_load_model(path, NULL, &m) == CS_OK);
  if (!m) return;
  const double want[3][4] = {{0.5, 0.5, 0.5, 1}, {1, 0, 0, 1}, {0, 0, 1, 0.25}};
  CHECK(m->ngeom == 3);
  for (int g = 0; g < 3 && m->ngeom == 3; g++)
    CHECK_MSG(same(m->geom_rgba + 4 * g, want[g], 4), "geom %d", g);
  cs_model_free(m);
}

/* A writer that stopped between two flushes: the flushed frames read back */
static void check_interrupted(const csModel* m) {
  pid_t pid = fork();
  if (pid == 0) run(m, "test_trajectory_cut.h5", 4, 10); /* flushed after 4 and 8 */
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status));
  csTraj* t = NULL;
  CHECK_MSG(cs_traj_open("test_trajectory_cut.h5", &t) == CS_OK, "%s", cs_last_error());
  if (!t) return;
  csTrajInfo in;
  cs_traj_info(t, &in);
  CHECK_MSG(in.nframe >= 8 && in.nframe <= 10, "%ld frames of 10, 8 flushed", in.nframe);
  long adr = 0;
  for (long k = 0; k < in.nframe; k++) {
    check_frame(m, t, k, adr);
    adr += live[k].ncon;
  }
  cs_traj_free(t);
}

static void check_bad_files(const csModel* model) {
  csTraj* t = NULL;
  CHECK(cs_traj_open("test_trajectory_missing.h5", &t) == CS_ERR_IO && !t &&
        strstr(cs_last_error(), "test_trajectory_missing.h5"));
  CHECK(cs_test_write_file(".", "test_trajectory_text.h5", "not hdf5\n"));
  CHECK(cs_traj_open("test_trajectory_text.h5", &t) == CS_ERR_PARSE &&
        strstr(cs_last_error(), "test_trajectory_text.h5"));
  csModel* m = NULL;
  csTrajWriter* w = NULL;
  CHECK(cs_traj_create("no_such_dir/x.h5", m, 0, &w) == CS_ERR_ARG); /* NULL model */
  CHECK(cs_traj_create("no_such_dir/x.h5", model, 0, &w) == CS_ERR_IO && !w &&
        strstr(cs_last_error(), "no_such_dir/x.h5"));
}

int main(void) {
  if (!cs_have_traj()) {
    printf("test_trajectory: skipped (built without HDF5)\n");
    return CS_SKIP_CODE;
  }
  CHECK(cs_test_write_file(".", "test_trajectory_cube.obj", cube_obj) != NULL);
  const char* path = cs_test_write_file(".", "test_trajectory.xml", model_xml);
  csModel* m = NULL;
  CHECK_MSG(path && cs_load_model(path, NULL, &m) == CS_OK, "%s", cs_last_error());
  if (!m) return cs_test_finish("test_trajectory");
  CHECK(m->nq == 14 && m->nbody == 3 && m->nmesh == 1 && m->ngeomvisual == 1);
  check_rgba(m);
  check_urdf_rgba();
  long total = run(m, "test_trajectory.h5", 4, -1);
  csTraj* t = NULL;
  CHECK_MSG(cs_traj_open("test_trajectory.h5", &t) == CS_OK, "%s", cs_last_error());
  if (t) {
    csTrajInfo in;
    cs_traj_info(t, &in);
    CHECK(in.version == CS_TRAJ_VERSION && in.nq == m->nq && in.nv == m->nv &&
          in.nbody == m->nbody && in.ngeom == m->ngeom && in.nmesh == 1 &&
          in.timestep == m->opt.timestep);
    CHECK_MSG(in.nframe == NFRAME, "%ld frames", in.nframe);
    long adr = 0, hull_contacts = 0;
    for (long k = 0; k < in.nframe && k < NFRAME; k++) {
      check_frame(m, t, k, adr);
      adr += live[k].ncon;
      for (int i = 0; i < live[k].ncon; i++) hull_contacts += live[k].geom[2 * i + 1] == 1;
    }
    CHECK_MSG(in.ncontact == adr && hull_contacts > 0 && total > 0,
              "%ld contact rows, %ld of the mesh", in.ncontact, hull_contacts);
    csTrajFrame f;
    CHECK(cs_traj_read_frame(t, in.nframe, &f) == CS_ERR_ARG);
    check_model(m, t);
    cs_traj_free(t);
  }
  check_interrupted(m);
  check_bad_files(m);
  cs_model_free(m);
  return cs_test_finish("test_trajectory");
}
