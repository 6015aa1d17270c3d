/* The pile scene (docs/scenes.md, "Pile"): n free boxes dropped in a grid onto a plane; and
   the bin ("Bin"): the same boxes packed in a brick bond between four walls. Public API
   only. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cs_scene.h"

#define PILE_EDGE 0.1         /* box edge, m */
#define PILE_DENSITY 1000.    /* kg/m^3: 1 kg per box */
#define PILE_MU 0.5           /* friction of the boxes and the plane */
#define PILE_GAP_XY 0.05      /* between neighbouring columns, m */
#define PILE_GAP_Z 0.01       /* between layers at the start, m */
#define PILE_YAW 0.05         /* yaw of each box: uniform in [-PILE_YAW, PILE_YAW], rad */
#define PILE_SHIFT 0.002      /* horizontal offset: uniform in [-PILE_SHIFT, PILE_SHIFT], m */
#define PILE_SEED 1ull        /* the generator's seed (cs_scene_uniform) */
#define PILE_ISLAND_COLUMNS 4 /* the arena's islands: contacts of this many columns each */

void cs_scene_pile_layout(int n, csScenePile* p) {
  memset(p, 0, sizeof *p);
  if (n < 1) return;
  p->n = n;
  p->layers = (int)lround(cbrt((double)n));
  if (p->layers < 1) p->layers = 1;
  p->columns = (n + p->layers - 1) / p->layers;
  p->side = (int)ceil(sqrt((double)p->columns));
  while (p->side * p->side < p->columns) p->side++;
  while ((p->side - 1) * (p->side - 1) >= p->columns) p->side--;
  p->edge = PILE_EDGE;
  p->mass = PILE_DENSITY * PILE_EDGE * PILE_EDGE * PILE_EDGE;
  p->mu = PILE_MU;
  p->pitch = PILE_EDGE + PILE_GAP_XY;
  p->ncon_max = 8 * n + 64;
}

int cs_scene_pile_column_size(const csScenePile* p, int column) {
  if (column < 0 || column >= p->columns) return 0;
  return (p->n - 1 - column) / p->columns + 1;
}

/* Box k's body (cs_scene_free_box) at pos yawed by yaw: 1, or 0 if the builder refused it */
static int pile_box(csBuilder* b, const csScenePile* p, int k, const double pos[3], double yaw) {
  char name[32];
  snprintf(name, sizeof name, "box%d", k);
  return cs_scene_free_box(b, name, pos, yaw, p->mass, p->edge, p->mu);
}

static int pile_boxes(csBuilder* b, const csScenePile* p) {
  unsigned long long rng = PILE_SEED;
  double half = 0.5 * (p->side - 1) * p->pitch;
  for (int k = 0; k < p->n; k++) {
    int layer = k / p->columns, col = k % p->columns;
    double dx = PILE_SHIFT * (2 * cs_scene_uniform(&rng) - 1);
    double dy = PILE_SHIFT * (2 * cs_scene_uniform(&rng) - 1);
    double yaw = PILE_YAW * (2 * cs_scene_uniform(&rng) - 1);
    double pos[3] = {(col % p->side) * p->pitch - half + dx, (col / p->side) * p->pitch - half + dy,
                     0.5 * p->edge + PILE_GAP_Z + layer * (p->edge + PILE_GAP_Z)};
    if (!pile_box(b, p, k, pos, yaw)) return 0;
  }
  return 1;
}

csStatus cs_scene_pile_model(int n, csModel** out) {
  *out = NULL;
  if (n < 1 || n > CS_SCENE_PILE_MAX) return CS_ERR_ARG;
  csScenePile p;
  cs_scene_pile_layout(n, &p);
  csBuilder* b = cs_builder_new();
  if (!b) return CS_ERR_MEMORY;
  cs_builder_set_source(b, "pile");
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.name = "floor", g.type = CS_GEOM_PLANE, g.friction = p.mu, g.body = 0;
  int ok = cs_builder_add_geom(b, &g) >= 0 && pile_boxes(b, &p) &&
           cs_builder_set_ncon_max(b, p.ncon_max) == 0;
  csStatus st = ok ? cs_compile(b, out) : CS_ERR_MODEL;
  cs_builder_free(b);
  /* the arena: room for 6 contacts a box (4 under each resting box, more while landing), by
     islands (one per column while the columns stand apart) of up to PILE_ISLAND_COLUMNS
     columns' contacts; no less than one dense problem of 64 contacts */
  if (st == CS_OK) {
    int room = 6 * n < p.ncon_max ? 6 * n : p.ncon_max;
    int island = 6 * PILE_ISLAND_COLUMNS * p.layers;
    size_t by_islands = cs_data_need_islands(*out, room, island);
    size_t dense = cs_data_need(*out, room < 64 ? room : 64);
    (*out)->memory = by_islands > dense ? by_islands : dense;
    /* as the stacking scenes of ContactBench: at 1e-6, ncp_admm's answers on columns of 5
       boxes and more leave the top boxes rocking; under a cap of 150 the bisection's sweeps
       run out on columns of 7 (docs/scenes.md, "Pile") */
    (*out)->opt.tolerance = 1e-8;
    (*out)->opt.iterations = 1000;
  }
  return st;
}

/* ------------------------------------------------------------------ the bin */

#define BIN_GAP_XY 0.003 /* between neighbouring boxes of a layer, and to the walls, m */
#define BIN_GAP_Z 0.005  /* between layers at the start, m */
#define BIN_YAW 0.02     /* yaw of each box: uniform in [-BIN_YAW, BIN_YAW], rad */
#define BIN_SHIFT 0.001  /* horizontal offset: uniform in [-BIN_SHIFT, BIN_SHIFT], m */
#define BIN_WALL 0.05    /* the walls' thickness, m */
/* the arena's sizing: islands of this many contacts hold a block-sparse island's rows (a
   box-box contact couples with the contacts of both boxes: about 16 each in the heap) */
#define BIN_ROW 96

/* Boxes in layer l of a bin of grid side s: s^2 on even layers, (s - 1)^2 on odd ones */
static int bin_layer_size(int side, int l) { return l % 2 ? (side - 1) * (side - 1) : side * side; }

void cs_scene_bin_layout(int n, csScenePile* p) {
  memset(p, 0, sizeof *p);
  if (n < 1) return;
  p->n = n;
  p->side = (int)lround(cbrt((double)n));
  if (p->side < 2) p->side = 2;
  for (int left = n; left > 0; p->layers++) left -= bin_layer_size(p->side, p->layers);
  p->columns = p->side * p->side;
  p->edge = PILE_EDGE;
  p->mass = PILE_DENSITY * PILE_EDGE * PILE_EDGE * PILE_EDGE;
  p->mu = PILE_MU;
  p->pitch = PILE_EDGE + BIN_GAP_XY;
  p->ncon_max = 24 * n + 64;
}

static int bin_boxes(csBuilder* b, const csScenePile* p) {
  unsigned long long rng = PILE_SEED;
  for (int k = 0, l = 0, at = 0; k < p->n; k++, at++) {
    int row = p->side - (l % 2);
    if (at == row * row) l++, at = 0, row = p->side - (l % 2);
    double half = 0.5 * (row - 1) * p->pitch;
    double dx = BIN_SHIFT * (2 * cs_scene_uniform(&rng) - 1);
    double dy = BIN_SHIFT * (2 * cs_scene_uniform(&rng) - 1);
    double yaw = BIN_YAW * (2 * cs_scene_uniform(&rng) - 1);
    double pos[3] = {(at % row) * p->pitch - half + dx, (at / row) * p->pitch - half + dy,
                     0.5 * p->edge + BIN_GAP_Z + l * (p->edge + BIN_GAP_Z)};
    if (!pile_box(b, p, k, pos, yaw)) return 0;
  }
  return 1;
}

/* The floor and the four walls, geoms of the world */
static int bin_walls(csBuilder* b, const csScenePile* p) {
  csGeomSpec g;
  cs_geom_spec_default(&g);
  g.name = "floor", g.type = CS_GEOM_PLANE, g.friction = p->mu, g.body = 0;
  if (cs_builder_add_geom(b, &g) < 0) return 0;
  double inner = 0.5 * (p->side - 1) * p->pitch + 0.5 * p->edge + BIN_GAP_XY;
  double h = 0.5 * (p->layers + 1) * (p->edge + BIN_GAP_Z), c = inner + 0.5 * BIN_WALL;
  const char* names[4] = {"wall_xp", "wall_xn", "wall_yp", "wall_yn"};
  for (int w = 0; w < 4; w++) {
    cs_geom_spec_default(&g);
    g.name = names[w], g.type = CS_GEOM_BOX, g.friction = p->mu, g.body = 0;
    int ax = w / 2;
    g.pos[ax] = w % 2 ? -c : c, g.pos[1 - ax] = 0, g.pos[2] = h;
    g.size[ax] = 0.5 * BIN_WALL, g.size[1 - ax] = inner + BIN_WALL, g.size[2] = h;
    if (cs_builder_add_geom(b, &g) < 0) return 0;
  }
  return 1;
}

csStatus cs_scene_bin_model(int n, csModel** out) {
  *out = NULL;
  if (n < 1 || n > CS_SCENE_PILE_MAX) return CS_ERR_ARG;
  csScenePile p;
  cs_scene_bin_layout(n, &p);
  csBuilder* b = cs_builder_new();
  if (!b) return CS_ERR_MEMORY;
  cs_builder_set_source(b, "bin");
  int ok = bin_walls(b, &p) && bin_boxes(b, &p) && cs_builder_set_ncon_max(b, p.ncon_max) == 0;
  csStatus st = ok ? cs_compile(b, out) : CS_ERR_MODEL;
  cs_builder_free(b);
  /* the arena: room for 20 contacts a box by islands of BIN_ROW contacts, which holds the
     settled heap's one block-sparse island (its blocks and the solver's vectors need less
     than BIN_ROW dense rows of G a contact, docs/memory.md "Block-sparse islands"); no less
     than one dense problem of 64 contacts */
  if (st == CS_OK) {
    int room = 20 * n < p.ncon_max ? 20 * n : p.ncon_max;
    size_t by_islands = cs_data_need_islands(*out, room, BIN_ROW);
    size_t dense = cs_data_need(*out, room < 64 ? room : 64);
    (*out)->memory = by_islands > dense ? by_islands : dense;
    /* the heap's contacts are redundant (four boxes under each): neither the dense solvers
       nor the block-sparse ones meet the pile's 1e-8 in 1,000 iterations (docs/scenes.md,
       "Bin") */
    (*out)->opt.tolerance = 1e-6;
    (*out)->opt.iterations = 200;
  }
  return st;
}

double cs_scene_kinetic(const csModel* m, const csData* d, double* work) {
  cs_mul_m(m, d, work, d->qvel);
  double kinetic = 0;
  for (int i = 0; i < m->nv; i++) kinetic += 0.5 * d->qvel[i] * work[i];
  return kinetic;
}
