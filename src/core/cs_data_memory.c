/* The arena's need and the step's constraint arrays in it (docs/memory.md).

   A step takes from the arena: the constraint arrays of its contacts at the bottom
   (csi_efc_layout: J and G dense over 3 nc + the room for block rows, Y over the contacts'
   chains), and on the stack the dynamics' and collision's scratch (csModel.arena_bytes), the
   problem build's (its dof chains: nc x nv ints in the general case), the warm start's
   matching, the block rows' (their M^-1 J^T) and the selected solver's workspace with its
   fall-back chain. cs_data_need adds these up for a number of contacts; a step whose
   contacts need more than the arena holds keeps the first ones that fit. */
#include "core/cs_data_memory.h"

#include <stdint.h>
#include <string.h>

#include "constraint/cs_constraint_rows.h"
#include "constraint/cs_contact_match.h"
#include "core/cs_error.h"
#include "core/cs_memory.h"
#include "solvers/cs_solver.h"
#include "solvers/cs_solver_island.h"

#define ALIGN 64
/* alignment padding of the stack allocations a step makes (about 30) and slack */
#define STEP_PAD (64 * ALIGN + 4096)

static size_t place(unsigned char* base, size_t* off, size_t bytes) {
  size_t o = (*off + (ALIGN - 1)) & ~(size_t)(ALIGN - 1);
  *off = o + bytes;
  (void)base;
  return o;
}

/* The constraint arrays' offsets for nc contacts and nr block rows (NULL d: bytes only) */
static size_t efc_place(const csModel* m, csData* d, int nc, int nr) {
  size_t n = 3 * (size_t)nc + (size_t)nr, nv = (size_t)m->nv, off = 0, D = sizeof(double);
  size_t oJ = place(NULL, &off, D * n * nv);
  size_t oY = place(NULL, &off, D * (3 * (size_t)nc + 1) * nv); /* + nv: paths' padding */
  size_t oG = place(NULL, &off, D * n * n);
  size_t og = place(NULL, &off, D * n);
  size_t ol = place(NULL, &off, D * n);
  size_t om = place(NULL, &off, D * (size_t)nc);
  if (d) {
    d->efc_J = (double*)(d->arena_ + oJ);
    d->efc_Y = (double*)(d->arena_ + oY);
    d->efc_G = (double*)(d->arena_ + oG);
    d->efc_g = (double*)(d->arena_ + og);
    d->efc_lambda = (double*)(d->arena_ + ol);
    d->efc_mu = (double*)(d->arena_ + om);
    d->nefc_max = (int)n;
    d->efc_Jadr = d->efc_Jcol = d->efc_island_contact = NULL;
    d->efc_Jval = d->efc_island_G = NULL;
    d->efc_island = NULL;
  }
  return (off + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

/* The constraint arrays by islands (NULL d: bytes only): s's contacts, islands, their G's
   doubles and their rows' dof entries */
static size_t island_place(csData* d, const csiIslandSizes* s) {
  size_t nc = (size_t)s->nc, off = 0, D = sizeof(double), I = sizeof(int);
  size_t og = place(NULL, &off, D * 3 * nc);
  size_t ol = place(NULL, &off, D * 3 * nc);
  size_t om = place(NULL, &off, D * nc);
  size_t oG = place(NULL, &off, D * s->ngram);
  size_t oV = place(NULL, &off, D * 3 * s->nnz);
  size_t oT = place(NULL, &off, sizeof(csIsland) * (size_t)s->nisland);
  size_t oC = place(NULL, &off, I * nc);
  size_t oA = place(NULL, &off, I * (nc + 1));
  size_t oK = place(NULL, &off, I * s->nnz);
  if (d) {
    d->efc_J = d->efc_Y = d->efc_G = NULL;
    d->efc_g = (double*)(d->arena_ + og);
    d->efc_lambda = (double*)(d->arena_ + ol);
    d->efc_mu = (double*)(d->arena_ + om);
    d->efc_island_G = (double*)(d->arena_ + oG);
    d->efc_Jval = (double*)(d->arena_ + oV);
    d->efc_island = (csIsland*)(void*)(d->arena_ + oT);
    d->efc_island_contact = (int*)(void*)(d->arena_ + oC);
    d->efc_Jadr = (int*)(void*)(d->arena_ + oA);
    d->efc_Jcol = (int*)(void*)(d->arena_ + oK);
    d->nefc_max = 3 * s->nc;
  }
  return (off + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

csStatus csi_efc_layout_islands(csData* d, const csiIslandSizes* s) {
  size_t bytes = island_place(NULL, s);
  if (bytes > d->pstack_)
    return csi_error(CS_ERR_MEMORY,
                     "constraint arrays: %d contacts in %d islands need %zu bytes, "
                     "%zu free",
                     s->nc, s->nisland, bytes, d->pstack_);
  island_place(d, s);
  d->pefc_ = bytes;
  return CS_OK;
}

size_t csi_need_islands(const csModel* m, const csiIslandSizes* s, size_t solver) {
  size_t nv = (size_t)m->nv, c = (size_t)s->nc, I = sizeof(int), D = sizeof(double);
  size_t build = D * (3 * s->nnz + nv) + I * (nv + 2 * c);
  size_t match = I * c + csi_contact_match_bytes(m->ncon_max);
  return m->arena_bytes + island_place(NULL, s) + build + match + D * nv + solver + STEP_PAD;
}

/* The block shape the room allows (the equalities' free blocks, then 1-row blocks), as
   the solvers' workspaces are sized from it; blk holds nb entries */
static void room_blocks(const csModel* m, int nc, int nb, csBlock* blk) {
  int neq = (m->opt.disable & CS_DISABLE_EQUALITY) ? 0 : m->neq, row = 3 * nc;
  for (int k = 0; k < nb; k++) {
    int t = k < neq ? m->eq_type[k] : -1;
    int n = t == CS_EQ_CONNECT ? 3 : t == CS_EQ_WELD ? 6 : 1;
    blk[k] = (csBlock){k < neq ? CS_CONE_FREE : CS_CONE_UNILATERAL, row, n, 0};
    row += n;
  }
}

/* The selected solver's workspace for nc contacts and the room's blocks (blk: nb entries,
   scratch) */
static size_t solver_bytes(const csModel* m, int nc, int nb, csBlock* blk) {
  const csSolver* s = cs_solver_get((csSolverType)m->opt.solver);
  if (!s || !s->workspace_bytes) return 0;
  room_blocks(m, nc, nb, blk);
  csContactProblem shape = {0};
  shape.nc = nc, shape.nblock = nb, shape.block = nb > 0 ? blk : NULL;
  csSolverOptions so = csi_step_solver_options(&m->opt);
  return s->workspace_bytes(&shape, &so);
}

/* cs_data_need with the block scratch given (nb entries) */
static size_t need(const csModel* m, int nc, int nb, int nr, csBlock* blk) {
  if (m->opt.solver == CS_SOLVER_NONE) return m->arena_bytes + STEP_PAD;
  size_t nv = (size_t)m->nv, c = (size_t)nc, I = sizeof(int), D = sizeof(double);
  size_t build = I * (c * nv + 5 * c + nv) + D * 2 * nv;
  size_t match = I * c + csi_contact_match_bytes(m->ncon_max);
  size_t rows = D * (size_t)nr * nv + I * ((size_t)nr + 1);
  return m->arena_bytes + efc_place(m, NULL, nc, nr) + build + match + rows + D * nv +
         solver_bytes(m, nc, nb, blk) + STEP_PAD;
}

size_t cs_data_need(const csModel* m, int ncon) {
  if (!m) return 0;
  if (ncon < 0) ncon = 0;
  int nb, nr, ns;
  csi_efc_capacity(m, &nb, &nr, &ns);
  csBlock* blk = nb > 0 ? csi_malloc(sizeof(csBlock) * (size_t)nb) : NULL;
  if (nb > 0 && !blk) return SIZE_MAX / 2;
  size_t b = need(m, ncon, nb, nr, blk);
  cs_free(blk);
  return b;
}

/* The largest number of dofs a contact moves: its two bodies' chains to the root */
static int max_contact_dofs(const csModel* m) {
  int depth = 0;
  for (int k = 0; k < m->nv; k++)
    if (m->dof_Mnum[k] > depth) depth = m->dof_Mnum[k];
  return 2 * depth;
}

size_t cs_data_need_islands(const csModel* m, int ncon, int island_ncon) {
  if (!m) return 0;
  if (ncon < 0) ncon = 0;
  if (island_ncon < 1) island_ncon = 1;
  if (island_ncon > ncon) island_ncon = ncon > 0 ? ncon : 1;
  int nisland = (ncon + island_ncon - 1) / island_ncon;
  csIsland* table = csi_calloc(nisland > 0 ? (size_t)nisland : 1, sizeof(csIsland));
  if (!table) return SIZE_MAX / 2;
  csiIslandSizes s = {ncon, nisland, 0, (size_t)ncon * (size_t)max_contact_dofs(m)};
  double dummy = 0;
  int id = 0;
  for (int k = 0, left = ncon; k < nisland; k++, left -= island_ncon) {
    table[k].nc = left < island_ncon ? left : island_ncon;
    table[k].contact = &id, table[k].G = &dummy; /* sizes only */
    s.ngram += 9 * (size_t)table[k].nc * (size_t)table[k].nc;
  }
  csContactProblem shape = {0};
  shape.nc = ncon, shape.nisland = nisland, shape.island = table;
  size_t solver = 0;
  const csSolver* sv = cs_solver_get((csSolverType)m->opt.solver);
  if (sv && m->opt.solver != CS_SOLVER_NONE) {
    csSolverOptions so = csi_step_solver_options(&m->opt);
    solver = csi_island_workspace_bytes_wellformed(sv, &shape, &so);
  }
  cs_free(table);
  return csi_need_islands(m, &s, solver);
}

/* The most contacts (up to ncon_max) whose need fits the arena's bytes with nb blocks of nr
   rows of room (blk: nb entries, scratch); -1 if not even a step without contacts fits */
static int largest_fit(const csModel* m, size_t arena, int nb, int nr, csBlock* blk) {
  if (need(m, 0, nb, nr, blk) > arena) return -1;
  int lo = 0, hi = m->ncon_max;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (need(m, mid, nb, nr, blk) <= arena)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* largest_fit with its block scratch from the heap (outside the step) */
static int largest_fit_heap(const csModel* m, size_t arena, int nb, int nr) {
  csBlock* blk = nb > 0 ? csi_malloc(sizeof(csBlock) * (size_t)nb) : NULL;
  if (nb > 0 && !blk) return -1;
  int r = largest_fit(m, arena, nb, nr, blk);
  cs_free(blk);
  return r;
}

int csi_data_room_bytes(const csModel* m, size_t arena) {
  int nb, nr, ns;
  csi_efc_capacity(m, &nb, &nr, &ns);
  return largest_fit_heap(m, arena, nb, nr);
}

int cs_data_room(const csModel* m, const csData* d) {
  if (!m || !d) return 0;
  int r = largest_fit_heap(m, d->narena_, d->nblock_max, d->nefc_room_);
  return r < 0 ? 0 : r;
}

size_t csi_data_arena_default(const csModel* m) {
  if (m->memory > 0) return m->memory;
  int nc = m->ncon_max < CS_NCON_ROOM ? m->ncon_max : CS_NCON_ROOM;
  size_t b = cs_data_need(m, nc);
  return b >= SIZE_MAX / 4 ? 0 : b;
}

csStatus csi_efc_layout(const csModel* m, csData* d, int nc) {
  int nr = d->nefc_room_;
  size_t bytes = efc_place(m, NULL, nc, nr);
  if (bytes > d->pstack_)
    return csi_error(CS_ERR_MEMORY, "constraint arrays: %d contacts need %zu bytes, %zu free", nc,
                     bytes, d->pstack_);
  efc_place(m, d, nc, nr);
  d->pefc_ = bytes;
  return CS_OK;
}

/* The room found again for the options in key when they changed (stale), and the contacts
   beyond it dropped with a warning; apart (not inlined) from csi_efc_fit's common case */
static __attribute__((noinline)) csStatus fit_room(const csModel* m, csData* d, const int* key,
                                                   int stale) {
  int nc = d->ncon, nb = d->nblock_max, nr = d->nefc_room_;
  size_t mark = csi_stack_mark(d);
  csBlock* blk = CSI_STACK_ALLOC(d, csBlock, nb);
  if (!blk) return csi_error(CS_ERR_MEMORY, "constraint arrays: arena full");
  if (stale) {
    int r = largest_fit(m, d->narena_, nb, nr, blk);
    d->room_ = r < 0 ? 0 : r; /* 0: the layout below says what does not fit */
    memcpy(d->room_key_, key, sizeof d->room_key_);
  }
  if (nc > d->room_) {
    csi_warning(d, CS_WARN_CONTACTFULL,
                "memory: %d contacts need %zu bytes of arena with solver '%s', it has %zu "
                "(csModel.memory, <size memory>): the last %d dropped",
                nc, need(m, nc, nb, nr, blk), cs_solver_name((csSolverType)m->opt.solver),
                d->narena_, nc - d->room_);
    d->ncon = d->room_;
  }
  csi_stack_free(d, mark);
  return CS_OK;
}

/* Before the build: the room (the contacts the arena holds) is found again when the options
   that size the solver's workspace change; contacts beyond it are dropped with a warning */
csStatus csi_efc_fit(const csModel* m, csData* d) {
  int key[4] = {m->opt.solver, m->opt.fallback, m->opt.iterations, m->opt.disable};
  int stale = d->room_ < 0 || memcmp(key, d->room_key_, sizeof key);
  if (stale || d->ncon > d->room_) {
    csStatus st = fit_room(m, d, key, stale);
    if (st != CS_OK) return st;
  }
  /* the dense layout depends on nc, nr and nv only: one in place for nc stays as it is */
  int nc = d->ncon;
  if (d->efc_J && d->nefc_max == 3 * nc + d->nefc_room_) return CS_OK;
  return csi_efc_layout(m, d, nc);
}
