/* G block-sparse inside one island (docs/memory.md and docs/solvers.md, "Block-sparse
   islands"), on the bin of 20 boxes (docs/scenes.md, "Bin") settled into one island:
   - the same state stepped once with the island's G block-sparse (csi_bsr_set_min_contacts
     2) and once dense (CS_DISABLE_ISLAND, the dense build): the same contacts and g bit
     for bit; every stored block equal to the dense G's to 1e-15 relative; the dense G zero
     (to 1e-15 of its largest entry) at every pair of contacts off the pattern; the pattern
     is exactly the pairs of contacts sharing a tree;
   - the solvers on the blocks (bisection, bisection_desaxce, ncp_admm) against the same
     island with every 3 x 3 block stored (the full pattern, zeros included): lambda equal
     to 1e-10 relative (the products skip exact zeros only), converged the same; their NCP
     report equal to cs_ncp_report of the dense problem at their lambda (1e-10);
   - a solver that takes no blocks (ncp_pgs) gets the island expanded dense: lambda equal
     to its dense solve of cs_problem_dense_G bit for bit;
   - cs_problem_check_islands refuses a malformed block table (a column out of range,
     columns not increasing, a missing diagonal, row pointers not ending at ncouple, a
     block-sparse island with blocks), naming the island and the block or row;
   - the heap's csData (by the bin's own sizing) is below the dense need of its contacts
     (cs_data_need). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_scene.h"
#include "cs_test.h"
#include "solvers/cs_solver_bsr.h"

#define BOXES 20

/* 1 if contacts i and j of d share a moving tree (their bodies' root bodies). */
static int share_tree(const csModel* m, const csData* d, int i, int j) {
  int t[2][2];
  for (int e = 0; e < 2; e++) {
    int bi = m->geom_body[d->contact[i].geom[e]], bj = m->geom_body[d->contact[j].geom[e]];
    t[0][e] = bi > 0 && m->body_lastdof[bi] >= 0 ? m->body_rootid[bi] : -1;
    t[1][e] = bj > 0 && m->body_lastdof[bj] >= 0 ? m->body_rootid[bj] : -1;
  }
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++)
      if (t[0][a] >= 0 && t[0][a] == t[1][b]) return 1;
  return 0;
}

/* The block of contacts (a, b) of island I, or NULL if not on the pattern. */
static const double* block_at(const csIsland* I, int a, int b) {
  for (int e = I->couple_ptr[a]; e < I->couple_ptr[a + 1]; e++)
    if (I->couple_col[e] == b) return I->G + 9 * (size_t)e;
  return NULL;
}

/* The stored blocks against the dense G of the same state (b: stepped dense). */
static void check_pattern(const csModel* m, const csData* a, const csData* b) {
  const csIsland* I = a->problem.island;
  int nc = a->ncon, n = 3 * nc;
  double gmax = 0, on = 0, off = 0;
  int wrong = 0;
  for (int r = 0; r < n * n; r++) gmax = fmax(gmax, fabs(b->efc_G[r]));
  for (int i = 0; i < nc; i++)
    for (int j = 0; j < nc; j++) {
      const double* B = block_at(I, i, j);
      wrong += (B != NULL) != share_tree(m, a, i, j);
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
          double g = b->efc_G[(size_t)(3 * i + r) * n + 3 * j + c];
          if (B)
            on = fmax(on, fabs(B[3 * r + c] - g));
          else
            off = fmax(off, fabs(g));
        }
    }
  printf(
      "pattern: %d contacts, %d blocks of %d pairs; |G_bsr - G| %.2e, off the pattern %.2e "
      "(of max |G| %.3g)\n",
      nc, I->ncouple, nc * nc, on / gmax, off / gmax, gmax);
  CHECK(wrong == 0);
  CHECK(on <= 1e-15 * gmax);
  CHECK(off <= 1e-15 * gmax);
  CHECK(I->ncouple < nc * nc / 2);
  int same_g = 1;
  for (int r = 0; r < n; r++) same_g &= a->efc_g[r] == b->efc_g[r];
  CHECK(same_g);
}

/* The island of p with every block stored: ptr (nc + 1), col (nc^2), val (9 nc^2). */
static csIsland full_pattern(const csIsland* I, int* ptr, int* col, double* val) {
  csIsland F = *I;
  int nc = I->nc;
  for (int a = 0; a < nc; a++) {
    ptr[a] = a * nc;
    for (int b = 0; b < nc; b++) {
      const double* B = block_at(I, a, b);
      col[a * nc + b] = b;
      for (int k = 0; k < 9; k++) val[9 * (size_t)(a * nc + b) + k] = B ? B[k] : 0;
    }
  }
  ptr[nc] = nc * nc;
  F.ncouple = nc * nc, F.couple_ptr = ptr, F.couple_col = col, F.G = val;
  return F;
}

static double rel_diff(const double* x, const double* y, int n) {
  double d = 0, s = 0;
  for (int i = 0; i < n; i++) d = fmax(d, fabs(x[i] - y[i])), s = fmax(s, fabs(y[i]));
  return s > 0 ? d / s : d;
}

static int solve(int type, const csContactProblem* p, double* lambda, csSolverStats* st) {
  csSolverOptions o = {200, 1e-6, 1, 0, -1};
  void* ws = malloc(cs_solve_workspace_bytes((csSolverType)type, p, &o));
  memset(lambda, 0, sizeof(double) * 3 * (size_t)p->nc);
  int r = ws ? (int)cs_solve((csSolverType)type, p, &o, ws, lambda, st) : -1;
  free(ws);
  return r;
}

/* The solvers on the blocks against the full pattern and the dense report. */
static void check_solvers(const csData* a) {
  const csContactProblem* p = &a->problem;
  int nc = p->nc, n = 3 * nc;
  int* ptr = malloc(sizeof(int) * (size_t)(nc + 1));
  int* col = malloc(sizeof(int) * (size_t)nc * nc);
  double* val = malloc(sizeof(double) * 9 * (size_t)nc * nc);
  double* G = malloc(sizeof(double) * (size_t)n * n);
  double *l1 = malloc(sizeof(double) * n), *l2 = malloc(sizeof(double) * n);
  csIsland F = full_pattern(p->island, ptr, col, val);
  csContactProblem full = *p, dense = *p;
  full.island = &F;
  cs_problem_dense_G(p, G);
  dense.nisland = 0, dense.island = NULL, dense.G = G;
  const char* names[3] = {"bisection", "bisection_desaxce", "ncp_admm"};
  for (int s = 0; s < 3; s++) {
    int t = cs_solver_from_name(names[s]);
    csSolverStats s1, s2;
    csNcpReport rep;
    CHECK(solve(t, p, l1, &s1) == CS_OK && solve(t, &full, l2, &s2) == CS_OK);
    cs_ncp_report(&dense, l1, &rep);
    double dl = rel_diff(l1, l2, n),
           dr = fabs(rep.eps_abs - s1.ncp.eps_abs) / fmax(rep.eps_abs, 1e-300);
    printf("%-18s blocks %d it, eps %.2e | full pattern %d it | lambda %.1e apart, report %.1e\n",
           names[s], s1.iterations, s1.ncp.eps_abs, s2.iterations, dl, dr);
    CHECK(dl <= 1e-10 && s1.converged == s2.converged && s1.iterations == s2.iterations);
    CHECK(dr <= 1e-10);
  }
  /* a solver without block-sparse kernels: expanded dense, as its dense solve */
  int t = cs_solver_from_name("ncp_pgs");
  csSolverStats s1, s2;
  CHECK(solve(t, p, l1, &s1) == CS_OK && solve(t, &dense, l2, &s2) == CS_OK);
  printf("ncp_pgs expanded: lambda %.1e apart\n", rel_diff(l1, l2, n));
  CHECK(memcmp(l1, l2, sizeof(double) * n) == 0);
  free(ptr), free(col), free(val), free(G), free(l1), free(l2);
}

/* One corruption of the table: cs_problem_check_islands refuses it naming what. */
static void refuse(const csContactProblem* p, const csIsland* bad, const char* what) {
  csContactProblem q = *p;
  q.island = bad;
  csStatus st = cs_problem_check_islands(&q, NULL);
  const char* msg = cs_last_error();
  printf("refused (%s): %s\n", what, msg);
  CHECK(st == CS_ERR_ARG && strstr(msg, "island 0") && strstr(msg, what));
}

static void check_malformed(const csData* a) {
  const csContactProblem* p = &a->problem;
  const csIsland* I = p->island;
  int nc = I->nc, nb = I->ncouple;
  int* ptr = malloc(sizeof(int) * (size_t)(nc + 1));
  int* col = malloc(sizeof(int) * (size_t)nb);
  CHECK(cs_problem_check_islands(p, NULL) == CS_OK);
  csIsland B = *I;
  B.couple_ptr = ptr, B.couple_col = col;
  memcpy(ptr, I->couple_ptr, sizeof(int) * (size_t)(nc + 1));
  memcpy(col, I->couple_col, sizeof(int) * (size_t)nb);
  col[5] = nc;
  refuse(p, &B, "block 5");
  memcpy(col, I->couple_col, sizeof(int) * (size_t)nb);
  int e = I->couple_ptr[1] + 1; /* row 1 has its diagonal and a neighbour */
  col[e] = col[e - 1];
  refuse(p, &B, "not strictly increasing");
  memcpy(col, I->couple_col, sizeof(int) * (size_t)nb);
  col[csi_bsr_diag(I, 3)] = -1;
  refuse(p, &B, "block");
  memcpy(col, I->couple_col, sizeof(int) * (size_t)nb);
  /* row 2 without its diagonal block: the table with that block left out */
  int dg = csi_bsr_diag(I, 2);
  for (int a2 = 0; a2 <= nc; a2++) ptr[a2] = I->couple_ptr[a2] - (a2 > 2);
  for (int e2 = 0, o = 0; e2 < nb; e2++)
    if (e2 != dg) col[o++] = I->couple_col[e2];
  B.ncouple = nb - 1;
  refuse(p, &B, "no diagonal block");
  B.ncouple = nb;
  memcpy(ptr, I->couple_ptr, sizeof(int) * (size_t)(nc + 1));
  memcpy(col, I->couple_col, sizeof(int) * (size_t)nb);
  ptr[nc] = nb - 1;
  refuse(p, &B, "ncouple");
  ptr[nc] = nb;
  int blk = 0;
  B.nblock = 1, B.block = &blk;
  refuse(p, &B, "block-sparse");
  free(ptr), free(col);
}

static int inside(const csData* d, const void* p) {
  const char* b = d->buffer_;
  return (const char*)p >= b && (const char*)p < b + d->nbuffer_;
}

/* A copy of a data holding a block-sparse island has the table in its own buffer, with the
   same contents. */
static void check_copy(const csModel* m, const csData* a) {
  csData* c = cs_data_new(m);
  CHECK(c && cs_data_copy(m, c, a) == CS_OK);
  if (!c) return;
  const csIsland *I = a->problem.island, *J = c->problem.island;
  CHECK(J && inside(c, J) && inside(c, J->contact) && inside(c, J->G) && inside(c, J->couple_ptr) &&
        inside(c, J->couple_col));
  CHECK(J && J->ncouple == I->ncouple && J->nc == I->nc);
  if (J && J->ncouple == I->ncouple) {
    CHECK(memcmp(J->couple_ptr, I->couple_ptr, sizeof(int) * (size_t)(I->nc + 1)) == 0);
    CHECK(memcmp(J->couple_col, I->couple_col, sizeof(int) * (size_t)I->ncouple) == 0);
    CHECK(memcmp(J->G, I->G, sizeof(double) * 9 * (size_t)I->ncouple) == 0);
  }
  cs_data_free(c);
}

/* cs_ncp_report and the FCLIB writer on the block-sparse problem equal them on the same
   problem with G written out dense: the report field by field (1e-12 relative), the file's
   W (read back dense) entry by entry and its stored velocity to 1e-12. */
static void check_report_fclib(const csData* a) {
  const csContactProblem* p = &a->problem;
  int n = 3 * p->nc;
  double* G = malloc(sizeof(double) * (size_t)n * (size_t)n);
  if (!G) return;
  cs_problem_dense_G(p, G);
  csContactProblem q = *p;
  q.G = G, q.nisland = 0, q.island = NULL;
  csNcpReport rs, rd;
  cs_ncp_report(p, a->efc_lambda, &rs);
  cs_ncp_report(&q, a->efc_lambda, &rd);
  CHECK_MSG(
      rel_diff(&rs.eps_abs, &rd.eps_abs, 1) < 1e-12 && rel_diff(&rs.error, &rd.error, 1) < 1e-12,
      "report: eps_abs %.17g vs %.17g, error %.17g vs %.17g", rs.eps_abs, rd.eps_abs, rs.error,
      rd.error);
  if (cs_have_fclib()) {
    csOwnedProblem *fs = NULL, *fd = NULL;
    CHECK(cs_fclib_write_local("test_contact_bsr_s.hdf5", p, a->efc_lambda, "bsr") == CS_OK);
    CHECK(cs_fclib_write_local("test_contact_bsr_d.hdf5", &q, a->efc_lambda, "dense") == CS_OK);
    CHECK(cs_fclib_read_local("test_contact_bsr_s.hdf5", &fs) == CS_OK);
    CHECK(cs_fclib_read_local("test_contact_bsr_d.hdf5", &fd) == CS_OK);
    if (fs && fd && fs->G && fd->G && fs->p.nc == p->nc && fd->p.nc == p->nc) {
      CHECK(memcmp(fs->G, fd->G, sizeof(double) * (size_t)n * (size_t)n) == 0);
      CHECK(fs->velocity && fd->velocity && rel_diff(fs->velocity, fd->velocity, n) < 1e-12);
    } else {
      CHECK_MSG(0, "FCLIB files not read back as dense problems of %d contacts", p->nc);
    }
    cs_problem_free(fs);
    cs_problem_free(fd);
    remove("test_contact_bsr_s.hdf5");
    remove("test_contact_bsr_d.hdf5");
  }
  free(G);
}

int main(void) {
  csModel* m = NULL;
  CHECK(cs_scene_bin_model(BOXES, &m) == CS_OK);
  if (!m) return cs_test_finish("test_contact_bsr");
  size_t by_islands = m->memory;
  m->memory = cs_data_need(m, 200); /* room for the dense build of the same contacts */
  m->opt.solver = CS_SOLVER_BISECTION;
  int old = csi_bsr_set_min_contacts(2);
  csData* a = cs_data_new(m);
  csData* b = cs_data_new(m);
  CHECK(a && b);
  if (!a || !b) return cs_test_finish("test_contact_bsr");
  for (int k = 0; k < 150; k++) CHECK(cs_step(m, a) == CS_OK);
  CHECK(cs_data_copy(m, b, a) == CS_OK);
  CHECK(cs_step(m, a) == CS_OK);
  m->opt.disable |= CS_DISABLE_ISLAND;
  CHECK(cs_step(m, b) == CS_OK);
  m->opt.disable &= ~CS_DISABLE_ISLAND;
  printf("bin %d: %d contacts, %d island(s), block-sparse %d\n", BOXES, a->ncon, a->problem.nisland,
         a->problem.nisland ? a->problem.island[0].ncouple : 0);
  CHECK(a->problem.nisland == 1 && a->problem.island[0].ncouple > 0);
  CHECK(b->ncon == a->ncon && b->problem.nisland == 0);
  if (a->problem.nisland == 1 && a->problem.island[0].ncouple > 0 && b->ncon == a->ncon) {
    check_pattern(m, a, b);
    check_copy(m, a);
    check_report_fclib(a);
    check_solvers(a);
    check_malformed(a);
    size_t dense = cs_data_need(m, a->ncon);
    printf("memory: the bin's arena %.1f MB, the dense need of %d contacts %.1f MB\n",
           by_islands / 1048576.0, a->ncon, dense / 1048576.0);
    CHECK(by_islands < dense);
  }
  csi_bsr_set_min_contacts(old);
  cs_data_free(a);
  cs_data_free(b);
  cs_model_free(m);
  return cs_test_finish("test_contact_bsr");
}
