/* The pile scene (docs/scenes.md, "Pile"): PILE_N free boxes (50: 4 layers of 13 columns)
   dropped in a grid onto a plane, with the default solver and with ncp_admm:
   - it settles: the kinetic energy 0.5 v^T M v falls below 1e-3 J within 5 s simulated and
     stays there to the end;
   - no step fails, no NaN, no CS_WARN_CONTACTFULL; no box corner below the plane by more
     than 3 mm; every column still stands where it was dropped (each box within 2 cm of
     its column's axis), so the next checks apply;
   - the step stores and solves the problem by islands, one per column (docs/memory.md,
     "Islands"); the csData is smaller than the arena the same contacts would need as one
     dense problem (cs_data_need);
   - analytic: at the end each bottom box's normal impulses from the plane sum to the
     weight of its column over the step, m g dt times the boxes in the column, to 1e-3
     relative;
   - the layout is deterministic: two loads give the same model bytes and the same
     trajectory, bit for bit, for 300 steps; the layout's sizes for 1 to 100,000 boxes;
     sizes 0, 2.5 and 100,001 refused; the pile is not among cs_scene_names() (the scenes
     the determinism hashes pin).
   `test_pile N` runs the pile of N boxes instead (the settling, island, energy and impulse
   checks; it prints the wall time of each 5 s run). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "contactsim/contactsim.h"
#include "cs_scene.h"
#include "cs_test.h"

#define PILE_N 50
#define SECONDS 5.0
#define KE_STILL 1e-3

static double wall_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Lowest corner of box k's geom above the plane (m; negative: below). */
static double box_bottom(const csModel* m, const csData* d, int g) {
  const double* R = d->geom_xmat + 9 * g;
  double h = 0;
  for (int c = 0; c < 3; c++) h += fabs(R[6 + c]) * m->geom_size[3 * g + c];
  return d->geom_xpos[3 * g + 2] - h;
}

typedef struct {
  double settle_time; /* first time the kinetic energy stays below KE_STILL to the end */
  double ke_end, bottom_min, drift_max, wall;
  int failed, nan;
} PileRun;

/* The largest horizontal distance of a box from its column's start position (the axis of
   the bottom box at the start). */
static double column_drift(const csScene* s, const csScenePile* p) {
  double worst = 0;
  for (int k = 0; k < p->n; k++) {
    const double* x = s->d->qpos + 7 * k; /* box k's free joint is the k-th */
    const double* x0 = s->qpos0 + 7 * (k % p->columns);
    double dx = x[0] - x0[0], dy = x[1] - x0[1];
    worst = fmax(worst, sqrt(dx * dx + dy * dy));
  }
  return worst;
}

static void run_pile(csScene* s, const csScenePile* p, PileRun* r) {
  const csModel* m = s->m;
  csData* d = s->d;
  memset(r, 0, sizeof *r);
  r->bottom_min = INFINITY;
  long steps = lround(SECONDS / m->opt.timestep);
  double t0 = wall_s();
  r->settle_time = -1;
  for (long k = 0; k < steps; k++) {
    if (cs_step(m, d) != CS_OK) {
      fprintf(stderr, "pile: step %ld: %s\n", k, cs_last_error());
      r->failed = 1;
      break;
    }
    for (int i = 0; i < m->nq; i++) r->nan += !isfinite(d->qpos[i]);
    for (int g = 1; g < m->ngeom; g++) r->bottom_min = fmin(r->bottom_min, box_bottom(m, d, g));
    double ke = cs_scene_kinetic(m, d, s->work);
    if (ke >= KE_STILL)
      r->settle_time = -1;
    else if (r->settle_time < 0)
      r->settle_time = d->time;
    r->ke_end = ke;
  }
  r->wall = wall_s() - t0;
  r->drift_max = column_drift(s, p);
}

/* Each bottom box's normal impulses from the plane against m g dt times its column; the
   worst relative error. */
static double column_weight_error(const csModel* m, const csData* d, const csScenePile* p) {
  int floor_geom = cs_name2id(m, "geom", "floor");
  double worst = 0, g = fabs(m->opt.gravity[2]);
  for (int c = 0; c < p->columns; c++) {
    char name[32];
    snprintf(name, sizeof name, "box%d", c);
    int geom = cs_name2id(m, "geom", name);
    double sum = 0;
    for (int i = 0; i < d->ncon; i++) {
      const csContact* con = &d->contact[i];
      if (con->geom[0] == floor_geom && con->geom[1] == geom) sum += con->lambda[0];
    }
    double want = p->mass * g * m->opt.timestep * cs_scene_pile_column_size(p, c);
    worst = fmax(worst, fabs(sum - want) / want);
  }
  return worst;
}

static void check_pile(int n, int solver) {
  csScene s;
  csStatus st = cs_scene_load("pile", cs_test_source("models"), n, &s);
  CHECK_MSG(st == CS_OK, "pile %d: %s", n, cs_last_error());
  if (st != CS_OK) return;
  csScenePile p;
  cs_scene_pile_layout(n, &p);
  if (solver > 0) s.m->opt.solver = solver;
  const char* sname = cs_solver_name((csSolverType)s.m->opt.solver);
  PileRun r;
  run_pile(&s, &p, &r);
  double werr = column_weight_error(s.m, s.d, &p);
  int full = s.d->warning[CS_WARN_CONTACTFULL].count;
  printf(
      "pile %d (%d layers, %d columns), %s: settled at %.3f s (kinetic %.3g J at %.1f s), "
      "lowest corner %.3g mm, column drift %.3g mm, %d contacts, column weight error %.3g, "
      "warnings: contactfull %d solver %d; %.2f s wall for %.1f s\n",
      n, p.layers, p.columns, sname, r.settle_time, r.ke_end, SECONDS, 1e3 * r.bottom_min,
      1e3 * r.drift_max, s.d->ncon, werr, full, s.d->warning[CS_WARN_SOLVER].count, r.wall,
      SECONDS);
  CHECK_MSG(!r.failed && r.nan == 0, "pile %d %s: a step failed or NaN", n, sname);
  CHECK_MSG(r.settle_time >= 0 && r.settle_time < SECONDS, "pile %d %s: not settled (%.3g J)", n,
            sname, r.ke_end);
  CHECK_MSG(r.bottom_min > -3e-3, "pile %d %s: a corner %.3g mm below the plane", n, sname,
            1e3 * r.bottom_min);
  CHECK_MSG(r.drift_max < 0.02, "pile %d %s: a box %.3g mm off its column", n, sname,
            1e3 * r.drift_max);
  CHECK_MSG(full == 0, "pile %d %s: %d contact overflows", n, sname, full);
  CHECK_MSG(werr < 1e-3, "pile %d %s: column weight error %.3g", n, sname, werr);
  /* by islands, one per column; less memory than the dense problem of these contacts */
  size_t dense = cs_data_need(s.m, s.d->ncon);
  CHECK_MSG(s.d->problem.nisland == p.columns, "pile %d %s: %d islands, %d columns", n, sname,
            s.d->problem.nisland, p.columns);
  CHECK_MSG(s.d->nbuffer_ < dense, "pile %d %s: csData %zu bytes, the dense need %zu", n, sname,
            s.d->nbuffer_, dense);
  cs_scene_free(&s);
}

/* Two loads: the same model bytes, and 300 steps bit for bit the same. */
static void check_deterministic(int n) {
  csScene a, b;
  const char* dir = cs_test_source("models");
  CHECK(cs_scene_load("pile", dir, n, &a) == CS_OK);
  CHECK(cs_scene_load("pile", dir, n, &b) == CS_OK);
  if (!a.m || !b.m) return;
  CHECK(a.m->nbuffer_ == b.m->nbuffer_ && !memcmp(a.m->buffer_, b.m->buffer_, a.m->nbuffer_));
  CHECK(a.m->nq == 7 * n && a.m->nbody == n + 1 && a.m->ngeom == n + 1);
  CHECK(a.m->ncon_max == 8 * n + 64);
  int same = 1;
  for (int k = 0; k < 300 && same; k++) {
    CHECK(cs_step(a.m, a.d) == CS_OK && cs_step(b.m, b.d) == CS_OK);
    same = !memcmp(a.d->qpos, b.d->qpos, sizeof(double) * (size_t)a.m->nq) &&
           !memcmp(a.d->qvel, b.d->qvel, sizeof(double) * (size_t)a.m->nv);
  }
  CHECK_MSG(same, "pile %d: two loads differ within 300 steps", n);
  CHECK_MSG(a.d->ncon > 0, "pile %d: no contacts after 300 steps", n);
  cs_scene_free(&a);
  cs_scene_free(&b);
}

/* The layout: sizes, column sizes summing to n, and bad sizes refused. */
static void check_layout(void) {
  int sizes[] = {1, 2, 10, 50, 100, 300, 1000, 100000};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    csScenePile p;
    cs_scene_pile_layout(sizes[i], &p);
    int total = 0;
    for (int c = 0; c < p.columns; c++) total += cs_scene_pile_column_size(&p, c);
    CHECK_MSG(total == sizes[i] && p.side * p.side >= p.columns &&
                  (p.side - 1) * (p.side - 1) < p.columns && p.layers * p.columns >= sizes[i],
              "layout of %d: %d layers, %d columns, side %d", sizes[i], p.layers, p.columns,
              p.side);
  }
  csScenePile p;
  cs_scene_pile_layout(1000, &p);
  CHECK(p.layers == 10 && p.columns == 100 && p.side == 10);
  /* the fixed scenes (pinned by the determinism hashes) without the sized ones; every scene
     with them */
  int nfixed = 0, nall = 0;
  for (const char* const* n = cs_scene_names(); *n; n++) {
    nfixed++;
    CHECK(strcmp(*n, "pile") != 0);
  }
  for (const char* const* n = cs_scene_all_names(); *n; n++) nall++;
  CHECK(nfixed == 7 && nall == 9 && !strcmp(cs_scene_all_names()[7], "pile") &&
        !strcmp(cs_scene_all_names()[8], "bin"));
  csScene s;
  const char* dir = cs_test_source("models");
  CHECK(cs_scene_load("pile", dir, 0, &s) == CS_ERR_ARG && !s.m);
  CHECK(cs_scene_load("pile", dir, 2.5, &s) == CS_ERR_ARG && !s.m);
  CHECK(cs_scene_load("pile", dir, CS_SCENE_PILE_MAX + 1, &s) == CS_ERR_ARG && !s.m);
}

int main(int argc, char** argv) {
  int n = PILE_N;
  if (argc > 1) n = atoi(argv[1]);
  if (argc <= 1) {
    check_layout();
    check_deterministic(n);
  }
  check_pile(n, 0);
  check_pile(n, CS_SOLVER_NCP_ADMM);
  return cs_test_finish("test_pile");
}
