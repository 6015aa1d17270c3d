/* The arena sized by need (docs/memory.md): the default room, a step with more contacts than
   the arena holds (the first ones kept, a counted warning, the state sane), the model's
   memory, re-sizing for another solver (cs_data_fit), and copies that carry the last step's
   constraint arrays. */
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

/* n boxes of 0.1 m resting on a plane in a grid (4 contacts each), memory bytes (0: need) */
static csModel* boxes(int n, size_t memory) {
  csBuilder* b = cs_builder_new();
  cs_test_box_grid(b, n);
  CHECK(cs_builder_set_memory(b, memory) == 0);
  csModel* m = NULL;
  CHECK_MSG(cs_compile(b, &m) == CS_OK, "%s", cs_last_error());
  cs_builder_free(b);
  return m;
}

/* the default arena holds CS_NCON_ROOM contacts; the need grows with the contacts */
static void test_default(void) {
  csModel* m = boxes(20, 0);
  if (!m) return;
  csData* d = cs_data_new(m);
  CHECK(m->ncon_max > CS_NCON_ROOM);
  CHECK(d && cs_data_room(m, d) == CS_NCON_ROOM);
  CHECK(d && d->narena_ >= cs_data_need(m, CS_NCON_ROOM) &&
        d->narena_ < cs_data_need(m, CS_NCON_ROOM + 1));
  size_t a = cs_data_need(m, 10), b = cs_data_need(m, 20), c = cs_data_need(m, 40);
  CHECK(a < b && b < c);
  cs_data_free(d);
  cs_model_free(m);
}

/* 20 resting boxes make 80 contacts in 20 islands: stored by islands, the default arena
   holds them all (each island's G is 12 x 12) */
static void test_islands(void) {
  csModel* m = boxes(20, 0);
  if (!m) return;
  csData* d = cs_data_new(m);
  int bad = 0;
  for (int k = 0; k < 50 && d; k++) bad |= cs_step(m, d) != CS_OK;
  CHECK(d && !bad && d->ncon == 80 && d->problem.nisland == 20 && d->problem.G == NULL);
  CHECK(d && d->warning[CS_WARN_CONTACTFULL].count == 0);
  double sum = 0;
  for (int i = 0; d && i < d->ncon; i++) sum += d->contact[i].lambda[0];
  CHECK_MSG(fabs(sum - 20 * 9.81 * m->opt.timestep) < 1e-3 * 20 * 9.81 * m->opt.timestep,
            "total normal impulse %g", sum);
  cs_data_free(d);
  cs_model_free(m);
}

/* 100 resting boxes, 400 contacts: cs_data_need_islands for 100 islands of 4 contacts is
   enough (the step's own check, no warning); an arena without room for them (the need of a
   step without contacts) builds the dense problem and keeps the contacts that fit, with a
   counted warning each step */
static void test_islands_room(void) {
  csModel* m = boxes(100, 0);
  if (!m) return;
  size_t need = cs_data_need_islands(m, 400, 4);
  CHECK(need < cs_data_need(m, 400) && need > cs_data_need_islands(m, 200, 4));
  for (int small = 0; small < 2; small++) {
    m->memory = small ? cs_data_need(m, 0) : need;
    csData* e = cs_data_new(m);
    for (int k = 0; k < 10 && e; k++) CHECK(cs_step(m, e) == CS_OK);
    int full = e ? e->warning[CS_WARN_CONTACTFULL].count : -1, nc = e ? e->ncon : -1;
    if (!small)
      CHECK_MSG(nc == 400 && e->problem.nisland == 100 && full == 0, "%d contacts, %d warnings", nc,
                full);
    else
      CHECK_MSG(nc < 400 && e->problem.nisland == 0 && full == 10, "%d contacts, %d warnings", nc,
                full);
    cs_data_free(e);
  }
  cs_model_free(m);
}

/* The same 80 contacts as one dense problem (CS_DISABLE_ISLAND): the default arena keeps 64
   with a counted warning; the model's memory at the need of 80 keeps them all */
static void test_room(void) {
  csModel* m = boxes(20, 0);
  if (!m) return;
  m->opt.disable |= CS_DISABLE_ISLAND;
  csData* d = cs_data_new(m);
  int bad = 0;
  for (int k = 0; k < 50 && d; k++) {
    bad |= cs_step(m, d) != CS_OK;
    for (int i = 0; i < m->nq; i++) bad |= !isfinite(d->qpos[i]);
  }
  CHECK(d && !bad && d->ncon == CS_NCON_ROOM && d->problem.nc == CS_NCON_ROOM);
  CHECK(d && d->warning[CS_WARN_CONTACTFULL].count == 50);
  m->memory = cs_data_need(m, 80);
  csData* e = cs_data_new(m);
  for (int k = 0; k < 50 && e; k++) bad |= cs_step(m, e) != CS_OK;
  CHECK(e && !bad && e->ncon == 80 && e->warning[CS_WARN_CONTACTFULL].count == 0);
  /* every box rests: its four contacts carry its weight (m g dt) */
  double sum = 0;
  for (int i = 0; e && i < e->ncon; i++) sum += e->contact[i].lambda[0];
  CHECK_MSG(e && fabs(sum - 20 * 9.81 * m->opt.timestep) < 1e-3 * 20 * 9.81 * m->opt.timestep,
            "total normal impulse %g", sum);
  cs_data_free(d), cs_data_free(e);
  cs_model_free(m);
}

/* too little memory: cs_data_new refuses; cs_data_fit names the solver that does not fit */
static void test_limits(void) {
  csModel* m = boxes(2, 4096);
  if (!m) return;
  CHECK(cs_data_new(m) == NULL && strstr(cs_last_error(), "memory") != NULL);
  m->memory = cs_data_need(m, 8); /* the boxes' 8 contacts with the default solver */
  csData* d = cs_data_new(m);
  CHECK(d && cs_data_room(m, d) == 8);
  for (int k = 0; k < 20 && d; k++) cs_step(m, d);
  double q = d ? d->qpos[2] : 0;
  m->opt.solver = CS_SOLVER_LEMKE;
  if (cs_data_need(m, 8) > m->memory) { /* lemke needs more: the call names it and the room */
    CHECK(d && cs_data_fit(m, d) == CS_ERR_MEMORY && strstr(cs_last_error(), "lemke") != NULL);
  }
  m->memory = 0; /* sized by need again: fits, the state kept */
  CHECK(d && cs_data_fit(m, d) == CS_OK && d->qpos[2] == q &&
        cs_data_room(m, d) == (m->ncon_max < CS_NCON_ROOM ? m->ncon_max : CS_NCON_ROOM));
  for (int k = 0; k < 20 && d; k++) CHECK(cs_step(m, d) == CS_OK);
  CHECK(d && d->ncon == 8 && d->warning[CS_WARN_CONTACTFULL].count == 0);
  cs_data_free(d);
  cs_model_free(m);
}

static int in_arena(const csData* d, const void* p) {
  return (const unsigned char*)p >= d->arena_ && (const unsigned char*)p < d->arena_ + d->narena_;
}

/* b's problem is a's, in b's own arena: dense G, or the island table, lists and G's */
static void check_copied_problem(const csData* a, const csData* b) {
  int n = 3 * a->problem.nc;
  CHECK(n == 36 && b->problem.nc == a->problem.nc && b->problem.nisland == a->problem.nisland);
  if (a->problem.nisland == 0) {
    CHECK(b->problem.G != a->problem.G && in_arena(b, b->problem.G));
    CHECK(!memcmp(a->problem.G, b->problem.G, sizeof(double) * (size_t)n * (size_t)n));
    return;
  }
  CHECK(a->problem.nisland == 3 && in_arena(b, b->problem.island));
  for (int k = 0; k < 3; k++) {
    const csIsland* I = a->problem.island + k;
    const csIsland* J = b->problem.island + k;
    int r = 3 * I->nc;
    CHECK(J->nc == I->nc && in_arena(b, J->G) && in_arena(b, J->contact));
    CHECK(!memcmp(I->contact, J->contact, sizeof(int) * (size_t)I->nc));
    CHECK(!memcmp(I->G, J->G, sizeof(double) * (size_t)r * (size_t)r));
  }
}

/* a copy carries the last step's problem in its own arena, and steps on identically; with
   the three boxes by islands and as one dense problem */
static void test_copy(int disable) {
  csModel* m = boxes(3, 0);
  if (!m) return;
  m->opt.disable |= disable;
  csData* a = cs_data_new(m);
  csData* b = cs_data_new(m);
  for (int k = 0; k < 30 && a; k++) cs_step(m, a);
  CHECK(a && b && cs_data_copy(m, b, a) == CS_OK);
  if (!a || !b) return;
  check_copied_problem(a, b);
  for (int k = 0; k < 30; k++) cs_step(m, a), cs_step(m, b);
  CHECK(!memcmp(a->qpos, b->qpos, sizeof(double) * (size_t)m->nq));
  CHECK(!memcmp(a->qvel, b->qvel, sizeof(double) * (size_t)m->nv));
  cs_data_free(a), cs_data_free(b);
  cs_model_free(m);
}

int main(void) {
  test_default();
  test_islands();
  test_islands_room();
  test_room();
  test_limits();
  test_copy(0);
  test_copy(CS_DISABLE_ISLAND);
  return cs_test_finish("test_memory");
}
