/* The step's contact problem by islands (docs/memory.md, "Islands"), cross-checked against
   the dense build of the same state (CS_DISABLE_ISLAND on a copy, one step each):
   - the same contacts; J's sparse rows, scattered, equal the dense rows entry for entry;
     g equal; the islands' G, placed at their rows, equal to the dense G to 1e-12 relative
     and zero between islands (the dense G has nothing there either: max |G_ij| over pairs
     of contacts in different islands is 0);
   - the island-by-island solution solves the whole dense problem: its NCP residual on the
     dense G within the solver's tolerance;
   - the islands are what the kinematic trees make them: in the 16-box pile (6 columns), one
     island per column that touches (every contact's boxes in one column); in the hinged
     scene, a free box and a hinged pair touching another free box are one island (a
     contact whose dofs are the union of two chains, one of depth 7), a third box another;
   - the model's flag: CS_DISABLE_ISLAND keeps the dense problem (nisland 0). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_scene.h"
#include "cs_test.h"

/* d's contact rows written out dense (3 ncon x nv) from its sparse rows */
static void scatter_J(const csModel* m, const csData* d, double* J) {
  int nv = m->nv;
  memset(J, 0, sizeof(double) * 3 * (size_t)d->ncon * (size_t)nv);
  for (int i = 0; i < d->ncon; i++) {
    int a = d->efc_Jadr[i], n = d->efc_Jadr[i + 1] - a;
    for (int r = 0; r < 3; r++)
      for (int e = 0; e < n; e++)
        J[(size_t)(3 * i + r) * nv + d->efc_Jcol[a + e]] = d->efc_Jval[3 * (size_t)a + r * n + e];
  }
}

/* contact i's island in d's table */
static int island_of(const csData* d, int i) {
  for (int k = 0; k < d->problem.nisland; k++) {
    const csIsland* I = d->problem.island + k;
    for (int a = 0; a < I->nc; a++)
      if (I->contact[a] == i) return k;
  }
  return -1;
}

/* One step of a (islands) and of its copy b (dense) from the same state, compared. Returns
   a's number of islands. */
static int cross_check(csModel* m, csData* a, const char* what) {
  csData* b = cs_data_new(m);
  if (!b || cs_data_copy(m, b, a) != CS_OK) {
    CHECK(0);
    cs_data_free(b);
    return 0;
  }
  CHECK(cs_step(m, a) == CS_OK);
  m->opt.disable |= CS_DISABLE_ISLAND;
  CHECK(cs_step(m, b) == CS_OK);
  m->opt.disable &= ~CS_DISABLE_ISLAND;
  int nc = a->ncon, nv = m->nv, n = 3 * nc;
  CHECK_MSG(b->ncon == nc && b->problem.nisland == 0 && a->problem.nisland >= 2,
            "%s: %d and %d contacts, %d islands", what, nc, b->ncon, a->problem.nisland);
  if (b->ncon != nc || a->problem.nisland < 2) {
    cs_data_free(b);
    return 0;
  }
  double* J = malloc(sizeof(double) * (size_t)n * (size_t)nv);
  double* G = malloc(sizeof(double) * (size_t)n * (size_t)n);
  if (!J || !G) {
    CHECK(0);
    free(J), free(G), cs_data_free(b);
    return 0;
  }
  scatter_J(m, a, J);
  CHECK_MSG(!memcmp(J, b->efc_J, sizeof(double) * (size_t)n * (size_t)nv), "%s: J differs", what);
  CHECK_MSG(!memcmp(a->problem.g, b->problem.g, sizeof(double) * (size_t)n), "%s: g differs", what);
  cs_problem_dense_G(&a->problem, G);
  double gmax = 0, eG = 0, across = 0;
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      double x = b->problem.G[(size_t)r * n + c];
      gmax = fmax(gmax, fabs(x));
      eG = fmax(eG, fabs(G[(size_t)r * n + c] - x));
      if (island_of(a, r / 3) != island_of(a, c / 3)) across = fmax(across, fabs(x));
    }
  CHECK_MSG(eG <= 1e-12 * gmax && across == 0, "%s: |G - G_dense| %g of %g, across islands %g",
            what, eG, gmax, across);
  csNcpReport rep;
  cs_ncp_report(&b->problem, a->efc_lambda, &rep);
  printf(
      "%-7s %3d contacts, %2d islands: |G - G_dense| / max|G| %.2g, islands' lambda on the "
      "dense problem: eps_abs %.2g\n",
      what, nc, a->problem.nisland, eG / gmax, rep.eps_abs);
  CHECK_MSG(rep.eps_abs <= m->opt.tolerance && a->solver_stats.converged,
            "%s: the islands' solution on the dense problem: eps_abs %g", what, rep.eps_abs);
  free(J), free(G);
  cs_data_free(b);
  return a->problem.nisland;
}

/* the 16-box pile after landing: one island per column, every check above */
static void test_pile(void) {
  csModel* m = NULL;
  CHECK(cs_scene_pile_model(16, &m) == CS_OK);
  if (!m) return;
  csScenePile p;
  cs_scene_pile_layout(16, &p);
  m->memory = cs_data_need(m, 8 * 16); /* room for the dense copy's problem too */
  csData* d = cs_data_new(m);
  for (int k = 0; k < 300 && d; k++) CHECK(cs_step(m, d) == CS_OK);
  int nisland = d ? cross_check(m, d, "pile") : 0;
  CHECK_MSG(nisland == p.columns, "%d islands, %d columns", nisland, p.columns);
  /* each island holds one column's contacts: box k (body k + 1) is in column k % columns */
  int bad = 0;
  for (int k = 0; d && k < d->problem.nisland; k++) {
    const csIsland* I = d->problem.island + k;
    int col = -1;
    for (int a = 0; a < I->nc; a++) {
      const csContact* c = d->contact + I->contact[a];
      for (int s = 0; s < 2; s++) {
        int body = m->geom_body[c->geom[s]];
        if (body == 0) continue;
        int bc = (body - 1) % p.columns;
        bad |= col >= 0 && bc != col;
        col = bc;
      }
    }
  }
  CHECK(!bad);
  m->opt.disable |= CS_DISABLE_ISLAND; /* the flag keeps the dense problem */
  CHECK(d && cs_step(m, d) == CS_OK && d->problem.nisland == 0 && d->problem.G && d->efc_J);
  cs_data_free(d);
  cs_model_free(m);
}

static int add_box(csBuilder* b, int parent, double x, double y, double z, double half) {
  csBodySpec bs;
  cs_body_spec_default(&bs);
  bs.parent = parent, bs.pos[0] = x, bs.pos[1] = y, bs.pos[2] = z;
  bs.mass = 1, bs.inertia[0] = bs.inertia[1] = bs.inertia[2] = 2.0 / 3.0 * half * half;
  int body = parent == 0 ? cs_test_add_free_body(b, &bs) : cs_builder_add_body(b, &bs);
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.body = body, g.type = CS_GEOM_BOX, g.size[0] = g.size[1] = g.size[2] = half;
  cs_builder_add_geom(b, &g);
  return body;
}

/* A free box with a hinged box beside it (hinge about y at their common edge), the hinged
   box pressed against a second free box; a third free box apart: 2 islands, the hinged
   contact's dofs the union of a 7-dof and a 6-dof chain */
static void test_hinged(void) {
  csBuilder* b = cs_builder_new();
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.type = CS_GEOM_PLANE;
  cs_builder_add_geom(b, &g);
  int a = add_box(b, 0, 0, 0, 0.0499, 0.05);
  int h = add_box(b, a, 0.1, 0, 0, 0.05);
  csJointSpec js;
  cs_joint_spec_default(&js);
  js.body = h, js.type = CS_JNT_REVOLUTE, js.pos[0] = -0.05, js.pos[2] = -0.05, js.axis[1] = 1;
  js.name = "hinge";
  cs_builder_add_joint(b, &js);
  add_box(b, 0, 0.199, 0, 0.0499, 0.05);
  add_box(b, 0, 1.0, 0, 0.0499, 0.05);
  csModel* m = NULL;
  CHECK_MSG(cs_compile(b, &m) == CS_OK, "%s", cs_last_error());
  cs_builder_free(b);
  if (!m) return;
  m->opt.tolerance = 1e-8;
  csData* d = cs_data_new(m);
  for (int k = 0; k < 20 && d; k++) CHECK(cs_step(m, d) == CS_OK);
  int deep = 0; /* a contact whose dofs are 7 + 6 */
  for (int i = 0; d && i < d->ncon; i++)
    deep |= d->efc_Jadr && d->efc_Jadr[i + 1] - d->efc_Jadr[i] == 13;
  CHECK_MSG(deep, "no contact between the hinged box and the second box");
  int nisland = d ? cross_check(m, d, "hinged") : 0;
  CHECK_MSG(nisland == 2, "%d islands", nisland);
  cs_data_free(d);
  cs_model_free(m);
}

int main(void) {
  test_pile();
  test_hinged();
  return cs_test_finish("test_contact_islands");
}
