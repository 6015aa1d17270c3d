/* Visual geoms: URDF <visual> elements and MJCF geoms with contype = conaffinity = 0 are kept
   in the model with geom_visual set and never collide (a drop with visual geoms sunk into the
   floor is bit-identical to the drop without them); a visual mesh that is missing or in a
   format not read is a note, a colliding geom on such a mesh an error. */
#include <string.h>

#include "contactsim/cs_data.h"
#include "contactsim/cs_io.h"
#include "cs_test.h"

static csModel* load(const char* name, const char* text, csStatus want) {
  const char* path = cs_test_write_file(".", name, text);
  csModel* m = NULL;
  csStatus st = path ? cs_load_model(path, NULL, &m) : CS_ERR_IO;
  CHECK_MSG(st == want, "%s: status %s, want %s: %s", name, cs_status_name(st),
            cs_status_name(want), st == CS_OK ? "" : cs_last_error());
  return m;
}

static const char* cube_obj =
    "v -1 -1 -1\nv 1 -1 -1\nv -1 1 -1\nv 1 1 -1\nv -1 -1 1\nv 1 -1 1\nv -1 1 1\nv 1 1 1\n"
    "f 1 5 7 3\nf 2 4 8 6\nf 1 2 6 5\nf 3 7 8 4\nf 1 3 4 2\nf 5 6 8 7\n";

static const char* urdf_head =
    "<robot name=\"r\"><link name=\"base\"><inertial><mass value=\"2\"/>"
    "<inertia ixx=\".1\" iyy=\".1\" izz=\".1\"/></inertial>";

/* URDF: visuals become visual geoms after the link's collision geoms; the DAE and the
   missing STL are notes; masses and the contact capacity do not change. */
static void check_urdf(void) {
  char text[2048];
  snprintf(text, sizeof text,
           "%s<visual><geometry><box size=\".2 .2 .2\"/></geometry></visual>"
           "<collision><geometry><sphere radius=\".1\"/></geometry></collision>"
           "<visual name=\"shell\"><origin xyz=\"0 0 .3\"/><geometry>"
           "<mesh filename=\"test_io_visual_cube.obj\" scale=\".1 .1 .1\"/></geometry></visual>"
           "<visual><geometry><mesh filename=\"package://robot/meshes/base.PLY\"/></geometry>"
           "</visual><visual><geometry><mesh filename=\"test_io_visual_missing.stl\"/>"
           "</geometry></visual></link></robot>",
           urdf_head);
  csModel* m = load("test_io_visual.urdf", text, CS_OK);
  snprintf(text, sizeof text,
           "%s<collision><geometry><sphere radius=\".1\"/></geometry></collision></link></robot>",
           urdf_head);
  csModel* m0 = load("test_io_visual_none.urdf", text, CS_OK);
  if (!m || !m0) goto done;
  CHECK_MSG(m->ngeom == 3 && m->ngeomvisual == 2, "ngeom %d, visual %d", m->ngeom, m->ngeomvisual);
  CHECK(m0->ngeom == 1 && m0->ngeomvisual == 0 && m0->geom_visual[0] == 0);
  if (m->ngeom != 3) goto done;
  CHECK(m->geom_type[0] == CS_GEOM_SPHERE && m->geom_visual[0] == 0 && m->geom_contype[0] == 1);
  CHECK(m->geom_type[1] == CS_GEOM_BOX && m->geom_type[2] == CS_GEOM_MESH);
  for (int g = 1; g < 3; g++)
    CHECK(m->geom_visual[g] == 1 && m->geom_contype[g] == 0 && m->geom_conaffinity[g] == 0);
  CHECK(cs_name2id(m, "geom", "base_visual0") == 1 && cs_name2id(m, "geom", "shell") == 2);
  CHECK(m->nmesh == 1 && m->geom_size[3 * 2] == 0.1);
  CHECK_NEAR(m->geom_pos[3 * 2 + 2], 0.3, 1e-15);
  CHECK(m->ncon_max == m0->ncon_max && m->ncon_max == 64 + 8);
  CHECK(m->body_mass[1] == m0->body_mass[1] && m->body_mass[1] == 2);
  CHECK_MSG(strstr(m->notes, "visual mesh format not read (.ply): visual geom dropped (1 time"),
            "notes: %s", m->notes);
  CHECK_MSG(strstr(m->notes, "visual mesh not found (.stl): visual geom dropped (1 time"),
            "notes: %s", m->notes);
done:
  cs_model_free(m);
  cs_model_free(m0);
  /* a collision mesh that cannot be read stays an error */
  snprintf(text, sizeof text,
           "%s<collision><geometry><mesh filename=\"test_io_visual_missing.stl\"/></geometry>"
           "</collision></link></robot>",
           urdf_head);
  load("test_io_visual_bad.urdf", text, CS_ERR_IO);
  CHECK(strstr(cs_last_error(), "test_io_visual_missing.stl") != NULL);
}

/* MJCF: a floor, a free sphere and (with_visual) two visual boxes sunk into the floor. */
static csModel* mjcf_drop(int with_visual) {
  char text[2048];
  snprintf(text, sizeof text,
           "<mujoco><worldbody><geom type=\"plane\" size=\"5 5 .1\"/>"
           "<body pos=\"0 0 .3\"><freejoint/><geom type=\"sphere\" size=\".1\"/>%s</body>"
           "</worldbody></mujoco>",
           with_visual ? "<geom type=\"box\" size=\".5 .5 .5\" contype=\"0\" conaffinity=\"0\" "
                         "mass=\"0\"/><geom type=\"sphere\" size=\".4\" pos=\".1 0 -.2\" "
                         "contype=\"0\" conaffinity=\"0\" mass=\"0\"/>"
                       : "");
  return load(with_visual ? "test_io_visual_drop1.xml" : "test_io_visual_drop0.xml", text, CS_OK);
}

static void check_drop(void) {
  csModel* m1 = mjcf_drop(1);
  csModel* m0 = mjcf_drop(0);
  csData* d1 = m1 ? cs_data_new(m1) : NULL;
  csData* d0 = m0 ? cs_data_new(m0) : NULL;
  CHECK(d1 && d0);
  if (d1 && d0) {
    CHECK(m1->ngeom == 4 && m1->ngeomvisual == 2 && m0->ngeomvisual == 0);
    CHECK(m1->geom_visual[2] == 1 && m1->geom_visual[3] == 1 && m1->geom_visual[1] == 0);
    int same = 1, visual_contact = 0, touched = 0;
    for (int i = 0; i < 400; i++) {
      CHECK(cs_step(m1, d1) == CS_OK && cs_step(m0, d0) == CS_OK);
      same &= d1->ncon == d0->ncon &&
              !memcmp(d1->qpos, d0->qpos, sizeof(double) * (size_t)m0->nq) &&
              !memcmp(d1->qvel, d0->qvel, sizeof(double) * (size_t)m0->nv);
      for (int k = 0; k < d1->ncon; k++)
        visual_contact |=
            m1->geom_visual[d1->contact[k].geom[0]] | m1->geom_visual[d1->contact[k].geom[1]];
      touched |= d1->ncon > 0;
    }
    CHECK_MSG(same, "the drop with visual geoms differs from the drop without");
    CHECK(!visual_contact);
    CHECK(touched); /* the sphere lands */
    printf("drop: 400 steps, qpos z %.6f with and without visual geoms\n", d1->qpos[2]);
  }
  cs_data_free(d1);
  cs_data_free(d0);
  cs_model_free(m1);
  cs_model_free(m0);
}

/* MJCF: a visual geom's mass counts (as MuJoCo's); meshes not read. */
static void check_mjcf_meshes(void) {
  csModel* m = load("test_io_visual_mass.xml",
                    "<mujoco><worldbody><body><freejoint/><geom type=\"box\" size=\".1 .1 .1\" "
                    "contype=\"0\" conaffinity=\"0\"/></body></worldbody></mujoco>",
                    CS_OK);
  if (m) {
    CHECK(m->ngeomvisual == 1);
    CHECK_NEAR(m->body_mass[1], 8.0, 1e-12);
    CHECK(m->ncon_max == 64);
  }
  cs_model_free(m);
  /* a body whose only mass would come from a visual mesh that is missing: the mass error
     quotes the note on the mesh not read */
  m = load("test_io_visual_massless.xml",
           "<mujoco><asset><mesh name=\"g\" file=\"test_io_visual_nowhere.stl\"/></asset>"
           "<worldbody><body name=\"b\"><freejoint/><geom type=\"mesh\" mesh=\"g\" "
           "contype=\"0\" conaffinity=\"0\"/></body></worldbody></mujoco>",
           CS_ERR_MODEL);
  CHECK_MSG(strstr(cs_last_error(), "mass 0") && strstr(cs_last_error(), "file not read") &&
                strstr(cs_last_error(), "'g'"),
            "%s", cs_last_error());
  cs_model_free(m);
  const char* body =
      "<worldbody><body><freejoint/><inertial mass=\"1\" diaginertia=\".1 .1 .1\"/>"
      "<geom type=\"mesh\" mesh=\"%s\" %s/><geom type=\"mesh\" mesh=\"c\"/></body></worldbody>";
  const char* assets =
      "<mujoco><asset><mesh name=\"gone\" file=\"test_io_visual_gone.obj\"/>"
      "<mesh name=\"dae\" file=\"test_io_visual_cube.ply\"/>"
      "<mesh name=\"c\" file=\"test_io_visual_cube.obj\"/></asset>";
  char text[2048];
  snprintf(text, sizeof text, "%s", assets);
  snprintf(text + strlen(text), sizeof text - strlen(text), body, "gone",
           "contype=\"0\" conaffinity=\"0\"");
  strcat(text, "</mujoco>");
  m = load("test_io_visual_gone.xml", text, CS_OK);
  if (m) {
    CHECK(m->ngeom == 1 && m->ngeomvisual == 0 && m->nmesh == 1);
    CHECK_MSG(strstr(m->notes, "<mesh> file not read") && strstr(m->notes, "2 occurrences"),
              "notes: %s", m->notes);
  }
  cs_model_free(m);
  snprintf(text, sizeof text, "%s", assets);
  snprintf(text + strlen(text), sizeof text - strlen(text), body, "gone", "");
  strcat(text, "</mujoco>");
  load("test_io_visual_gone_collides.xml", text, CS_ERR_IO);
  CHECK_MSG(strstr(cs_last_error(), "test_io_visual_gone_collides.xml:1") &&
                strstr(cs_last_error(), "colliding geom") &&
                strstr(cs_last_error(), "test_io_visual_gone.obj"),
            "%s", cs_last_error());
  snprintf(text, sizeof text, "%s", assets);
  snprintf(text + strlen(text), sizeof text - strlen(text), body, "dae", "conaffinity=\"0\"");
  strcat(text, "</mujoco>");
  load("test_io_visual_dae_collides.xml", text, CS_ERR_UNSUPPORTED);
  CHECK_MSG(strstr(cs_last_error(), "mesh format not read"), "%s", cs_last_error());
}

int main(void) {
  CHECK(cs_test_write_file(".", "test_io_visual_cube.obj", cube_obj) != NULL);
  check_urdf();
  check_drop();
  check_mjcf_meshes();
  return cs_test_finish("test_io_visual");
}
