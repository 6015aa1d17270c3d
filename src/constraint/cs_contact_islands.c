/* The contact problem stored by islands (docs/memory.md, "Islands").

   Two contacts couple (share a non-zero of G = J M^-1 J^T) only if they move a common dof,
   and the dofs of a contact are its two bodies' chains to the root: contacts on different
   kinematic trees (the world apart) never couple. The islands are the groups of trees that
   contacts join (union-find over the trees' root bodies); a pile of boxes in separate
   columns is one island per column. When the contacts form two or more islands and the
   model has no block rows (limits, friction loss, equalities), the step stores:
     J    sparse, per contact over its dofs (its chain), the three rows sharing the list;
     Y    = L^-T J^T on the same dofs (scratch: the chain holds every ancestor the solve
          reaches), scaled by D^-1/2 so that a block of G is Y_i^T Y_j;
     G    one dense matrix per island, only over the pairs of contacts that share a tree,
   and cs_solve solves the islands one by one. Memory and work then grow with the islands'
   sizes, not with the square of all contacts and all dofs. Each J entry, g and Y entry is
   computed with the operations of the dense build's general path, in the same order. */
#include "constraint/cs_contact_islands.h"

#include <math.h>
#include <string.h>

#include "constraint/cs_contact_jac.h"
#include "constraint/cs_contact_problem.h"
#include "core/cs_error.h"
#include "core/cs_memory.h"

/* ------------------------------------------------------------------ the islands */

/* The tree of body b: its root body, or -1 if no dof moves it (the world, or welded to it) */
static int body_tree(const csModel* m, int b) {
  return b > 0 && m->body_lastdof[b] >= 0 ? m->body_rootid[b] : -1;
}

static int uf_find(int* parent, int a) {
  while (parent[a] != a) {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}

/* Contact i's trees (tree[2 i], tree[2 i + 1]: -1 for none) and island (island[i], numbered
   in the order of their first contact; a contact that moves no dof is an island alone).
   parent, label: scratch of nbody. Returns the number of islands. */
static int label_islands(const csModel* m, const csData* d, int* tree, int* island, int* parent,
                         int* label) {
  for (int b = 0; b < m->nbody; b++) parent[b] = b, label[b] = -1;
  for (int i = 0; i < d->ncon; i++) {
    const csContact* c = d->contact + i;
    int t0 = body_tree(m, m->geom_body[c->geom[0]]), t1 = body_tree(m, m->geom_body[c->geom[1]]);
    tree[2 * i] = t0, tree[2 * i + 1] = t1;
    if (t0 >= 0 && t1 >= 0) {
      int r0 = uf_find(parent, t0), r1 = uf_find(parent, t1);
      if (r0 != r1) parent[r0 > r1 ? r0 : r1] = r0 < r1 ? r0 : r1;
    }
  }
  int n = 0;
  for (int i = 0; i < d->ncon; i++) {
    int t = tree[2 * i + 1] >= 0 ? tree[2 * i + 1] : tree[2 * i];
    if (t < 0) {
      island[i] = n++;
      continue;
    }
    int r = uf_find(parent, t);
    if (label[r] < 0) label[r] = n++;
    island[i] = label[r];
  }
  return n;
}

/* ------------------------------------------------------------------ block-sparse G
   An island of bsr_min contacts or more (csi_bsr_min_contacts: the selected solver takes
   block-sparse islands, and they pay from that size on) stores its G as the 3 x 3 blocks of
   the pairs of contacts that share a tree (csIsland.ncouple): contact i's row holds the
   contacts of its trees, both lists in increasing id, merged. Its part of efc_island_G holds
   the blocks' values, then the row pointers and columns (ints, two to a double), so the
   arena's layout by islands (csi_efc_layout_islands) needs only the doubles' count. */

/* The contacts of each tree (by root body): tlist[tstart[t] .. tstart[t + 1] - 1], ids
   increasing; a contact on one tree twice is listed once. */
static void tree_lists(const csModel* m, int nc, const int* tree, int* tstart, int* tlist) {
  memset(tstart, 0, sizeof(int) * ((size_t)m->nbody + 1));
  for (int i = 0; i < nc; i++)
    for (int e = 0; e < 2; e++) {
      int t = tree[2 * i + e];
      if (t >= 0 && !(e == 1 && t == tree[2 * i])) tstart[t + 1]++;
    }
  for (int t = 0; t < m->nbody; t++) tstart[t + 1] += tstart[t];
  for (int i = 0; i < nc; i++)
    for (int e = 0; e < 2; e++) {
      int t = tree[2 * i + e];
      if (t >= 0 && !(e == 1 && t == tree[2 * i])) tlist[tstart[t]++] = i;
    }
  for (int t = m->nbody; t > 0; t--) tstart[t] = tstart[t - 1]; /* back to the starts */
  tstart[0] = 0;
}

/* Contact i's row: the contacts sharing a tree with it (itself among them), ids increasing,
   into out (NULL: counted only). Returns their number. */
static int couple_row(const int* tree, const int* tstart, const int* tlist, int i, int* out) {
  int t0 = tree[2 * i], t1 = tree[2 * i + 1];
  if (t1 == t0) t1 = -1;
  if (t0 < 0) t0 = t1, t1 = -1;
  if (t0 < 0) {
    if (out) out[0] = i;
    return 1;
  }
  int a = tstart[t0], ae = tstart[t0 + 1];
  int b = t1 >= 0 ? tstart[t1] : 0, be = t1 >= 0 ? tstart[t1 + 1] : 0, n = 0;
  while (a < ae || b < be) {
    int x;
    if (b >= be || (a < ae && tlist[a] < tlist[b])) {
      x = tlist[a++];
    } else if (a >= ae || tlist[b] < tlist[a]) {
      x = tlist[b++];
    } else {
      x = tlist[a++], b++;
    }
    if (out) out[n] = x;
    n++;
  }
  return n;
}

/* Doubles of efc_island_G for an island of nc contacts: dense, or ncouple blocks with their
   row pointers and columns */
static size_t island_doubles(int nc, int ncouple) {
  if (ncouple <= 0) return 9 * (size_t)nc * (size_t)nc;
  return 9 * (size_t)ncouple + ((size_t)nc + 1 + (size_t)ncouple + 1) / 2;
}

/* What the block-sparse islands need beside the dense layout: ncoup[k] (0: dense). */
typedef struct Couple {
  int* ncoup;  /* (nisland) blocks of each island, 0 for a dense one */
  int* tstart; /* (nbody + 1) tree_lists */
  int* tlist;  /* (2 nc) */
  int* local;  /* (nc) each contact's index in its island */
} Couple;

/* c->ncoup for the islands of bsr_min contacts or more (count: their contacts); 0 if none is */
static int couple_counts(const csModel* m, const csData* d, const int* tree, const int* island,
                         const int* count, int nisland, int bsr_min, Couple* c) {
  int any = 0;
  for (int k = 0; k < nisland; k++) c->ncoup[k] = 0, any |= count[k] >= bsr_min;
  if (!any) return 0;
  tree_lists(m, d->ncon, tree, c->tstart, c->tlist);
  for (int i = 0; i < d->ncon; i++)
    if (count[island[i]] >= bsr_min)
      c->ncoup[island[i]] += couple_row(tree, c->tstart, c->tlist, i, NULL);
  return 1;
}

/* Island I's row pointers and columns (ncouple blocks after its values at I->G) */
static void couple_fill(csIsland* I, const int* tree, const Couple* c) {
  int* ptr = (int*)(void*)((double*)I->G + 9 * (size_t)I->ncouple);
  int* col = ptr + I->nc + 1;
  ptr[0] = 0;
  for (int a = 0; a < I->nc; a++) {
    int n = couple_row(tree, c->tstart, c->tlist, I->contact[a], col + ptr[a]);
    for (int e = ptr[a]; e < ptr[a] + n; e++) col[e] = c->local[col[e]];
    ptr[a + 1] = ptr[a] + n;
  }
  I->couple_ptr = ptr, I->couple_col = col;
}

/* ------------------------------------------------------------------ the layout */

/* The sizes of the layout: the islands' G and the contacts' dof lists (chain: scratch of
   nv); count[k]: island k's contacts */
static csiIslandSizes island_sizes(const csModel* m, const csData* d, int nisland,
                                   const int* island, int* count, int* chain) {
  csiIslandSizes s = {d->ncon, nisland, 0, 0};
  memset(count, 0, sizeof(int) * (size_t)nisland);
  for (int i = 0; i < d->ncon; i++) {
    const csContact* c = d->contact + i;
    count[island[i]]++;
    s.nnz +=
        (size_t)csi_contact_chain(m, m->geom_body[c->geom[0]], m->geom_body[c->geom[1]], chain);
  }
  for (int k = 0; k < nisland; k++) s.ngram += 9 * (size_t)count[k] * (size_t)count[k];
  return s;
}

/* s->ngram with the block-sparse islands of c */
static void couple_sizes(int nisland, const int* count, const Couple* c, csiIslandSizes* s) {
  s->ngram = 0;
  for (int k = 0; k < nisland; k++) s->ngram += island_doubles(count[k], c->ncoup[k]);
}

/* The island table, the contact lists and the dof lists on the layout (cp: NULL, or the
   block-sparse islands' counts and lists) */
static void fill_layout(const csModel* m, csData* d, int nisland, const int* island,
                        const int* count, const int* tree, const Couple* cp) {
  int* ids = d->efc_island_contact;
  double* G = d->efc_island_G;
  for (int k = 0, a = 0; k < nisland; k++) {
    csIsland* I = d->efc_island + k;
    memset(I, 0, sizeof *I);
    I->contact = ids + a, I->G = G;
    a += count[k];
    I->ncouple = cp ? cp->ncoup[k] : 0;
    G += island_doubles(count[k], I->ncouple);
  }
  for (int i = 0; i < d->ncon; i++) {
    csIsland* I = d->efc_island + island[i];
    if (cp) cp->local[i] = I->nc;
    ids[(I->contact - ids) + I->nc++] = i;
  }
  for (int k = 0; cp && k < nisland; k++)
    if (d->efc_island[k].ncouple > 0) couple_fill(d->efc_island + k, tree, cp);
  d->efc_Jadr[0] = 0;
  for (int i = 0; i < d->ncon; i++) {
    const csContact* c = d->contact + i;
    int* ch = d->efc_Jcol + d->efc_Jadr[i];
    int n = csi_contact_chain(m, m->geom_body[c->geom[0]], m->geom_body[c->geom[1]], ch);
    d->efc_Jadr[i + 1] = d->efc_Jadr[i] + n;
  }
  csContactProblem* p = &d->problem;
  memset(p, 0, sizeof *p);
  p->nc = d->ncon, p->nv = m->nv, p->mu = d->efc_mu, p->g = d->efc_g;
  p->nisland = nisland, p->island = d->efc_island;
}

/* Every contact moves one and the same tree (a robot on the ground): one island, found
   without the union-find */
static int one_tree(const csModel* m, const csData* d) {
  const int *gb = m->geom_body, *last = m->body_lastdof, *root = m->body_rootid;
  int t = -1;
  for (int i = 0; i < d->ncon; i++) {
    const csContact* c = d->contact + i;
    int b0 = gb[c->geom[0]], b1 = gb[c->geom[1]];
    if (b1 <= 0 || last[b1] < 0) return 0; /* body_tree(b1) < 0 */
    int t1 = root[b1];
    if ((b0 > 0 && last[b0] >= 0 && root[b0] != t1) || (t >= 0 && t1 != t)) return 0;
    t = t1;
  }
  return 1;
}

/* Stack room for the block-sparse islands' counts and lists; 0 if it does not fit */
static int couple_alloc(const csModel* m, csData* d, int nisland, Couple* c) {
  c->ncoup = CSI_STACK_ALLOC(d, int, nisland);
  c->tstart = CSI_STACK_ALLOC(d, int, m->nbody + 1);
  c->tlist = CSI_STACK_ALLOC(d, int, 2 * d->ncon);
  c->local = CSI_STACK_ALLOC(d, int, d->ncon);
  return c->ncoup && c->tstart && c->tlist && c->local;
}

int csi_contact_islands_none(const csModel* m, const csData* d) {
  return (m->opt.disable & CS_DISABLE_ISLAND) || d->nblock_max > 0 || d->ncon < 2 || one_tree(m, d);
}

int csi_contact_islands_layout(const csModel* m, csData* d, csiIslandSizes* s, int bsr_min) {
  int nc = d->ncon;
  if (csi_contact_islands_none(m, d)) return 0;
  if (bsr_min < 2) bsr_min = 2;
  size_t mark = csi_stack_mark(d);
  int* tree = CSI_STACK_ALLOC(d, int, 2 * nc);
  int* island = CSI_STACK_ALLOC(d, int, nc);
  int* parent = CSI_STACK_ALLOC(d, int, m->nbody);
  int* label = CSI_STACK_ALLOC(d, int, m->nbody > m->nv ? m->nbody : m->nv);
  int ok = tree && island && parent && label;
  int nisland = ok ? label_islands(m, d, tree, island, parent, label) : 0;
  /* one island: the dense build, unless it is large enough to be block-sparse */
  if (nisland < 1 || (nisland < 2 && nc < bsr_min)) {
    csi_stack_free(d, mark);
    return 0;
  }
  /* parent and label are free again: the counts and the chain scratch */
  int* count = nisland <= m->nbody ? parent : CSI_STACK_ALLOC(d, int, nisland);
  memset(s, 0, sizeof *s);
  if (count) *s = island_sizes(m, d, nisland, island, count, label);
  Couple c;
  int bsr = count && nc >= bsr_min && couple_alloc(m, d, nisland, &c) &&
            couple_counts(m, d, tree, island, count, nisland, bsr_min, &c);
  if (bsr) couple_sizes(nisland, count, &c, s);
  ok = count && (nisland > 1 || bsr) && csi_efc_layout_islands(d, s) == CS_OK;
  if (ok) fill_layout(m, d, nisland, island, count, tree, bsr ? &c : NULL);
  csi_stack_free(d, mark);
  return ok;
}

/* ------------------------------------------------------------------ the build */

/* Contact i's rows on its dofs ch (n, descending; pos[ch[e]] = e): J (the dense build's
   sums: +columns along geom[1]'s body's chain, -columns along geom[0]'s), g = J v_free,
   and Y = L^-T J^T scaled by D^-1/2 (sd) into y (3 rows of n) */
static void contact_rows(const csModel* m, csData* d, int i, const double* vfree, const int* pos,
                         const double* sd, double* y) {
  const csContact* c = d->contact + i;
  int a = d->efc_Jadr[i], n = d->efc_Jadr[i + 1] - a;
  const int* ch = d->efc_Jcol + a;
  double* J = d->efc_Jval + 3 * (size_t)a;
  memset(J, 0, sizeof(double) * 3 * (size_t)n);
  int body[2] = {m->geom_body[c->geom[1]], m->geom_body[c->geom[0]]};
  for (int s = 0; s < 2; s++) {
    if (s == 1 && body[1] == 0) break;
    double sign = s == 0 ? 1.0 : -1.0;
    for (int k = m->body_lastdof[body[s]]; k >= 0; k = m->dof_parent[k]) {
      double j[3];
      csi_contact_jac_col(d->cdof + 6 * k, c->pos, c->frame, j);
      int e = pos[k];
      J[e] += sign * j[0], J[n + e] += sign * j[1], J[2 * n + e] += sign * j[2];
    }
  }
  double g0 = 0, g1 = 0, g2 = 0;
  for (int e = 0; e < n; e++) {
    double v = vfree[ch[e]];
    g0 += J[e] * v, g1 += J[n + e] * v, g2 += J[2 * n + e] * v;
  }
  d->efc_g[3 * i] = g0, d->efc_g[3 * i + 1] = g1, d->efc_g[3 * i + 2] = g2;
  memcpy(y, J, sizeof(double) * 3 * (size_t)n);
  const double* LD = d->qLD;
  for (int e = 0; e < n; e++) { /* row k of L^T couples k to its ancestors, on the chain */
    int k = ch[e];
    double a0 = y[e], a1 = y[n + e], a2 = y[2 * n + e];
    const double* rk = LD + m->dof_Madr[k];
    int t = 1;
    for (int q = m->dof_parent[k]; q >= 0; q = m->dof_parent[q], t++) {
      double l = rk[t];
      int f = pos[q];
      y[f] -= l * a0, y[n + f] -= l * a1, y[2 * n + f] -= l * a2;
    }
  }
  for (int e = 0; e < n; e++) {
    double sk = sd[ch[e]];
    y[e] *= sk, y[n + e] *= sk, y[2 * n + e] *= sk;
  }
}

/* Contacts i and j share a tree (tree: their bodies' trees, -1 for none) */
static int share_tree(const int* tree, int i, int j) {
  const int* a = tree + 2 * i;
  const int* b = tree + 2 * j;
  return (a[0] >= 0 && (a[0] == b[0] || a[0] == b[1])) ||
         (a[1] >= 0 && (a[1] == b[0] || a[1] == b[1]));
}

/* Island I's G = Y^T Y block by block over the pairs that share a tree (Y: the contacts'
   blocks at Y + 3 efc_Jadr[i]) */
static void island_gram(const csData* d, const csIsland* I, const double* Y, const int* tree) {
  int n = 3 * I->nc;
  double* G = (double*)I->G; /* the layout's, in d's arena */
  memset(G, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int a = 0; a < I->nc; a++) {
    int i = I->contact[a], ai = d->efc_Jadr[i], ni = d->efc_Jadr[i + 1] - ai;
    for (int b = a; b < I->nc; b++) {
      int j = I->contact[b], aj = d->efc_Jadr[j];
      if (!share_tree(tree, i, j)) continue;
      double B[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      csi_block_merge(Y + 3 * (size_t)ai, d->efc_Jcol + ai, ni, Y + 3 * (size_t)aj,
                      d->efc_Jcol + aj, d->efc_Jadr[j + 1] - aj, B);
      csi_block_store(G, n, a, b, B);
    }
  }
}

/* Block-sparse island I's blocks Y_i^T Y_j on its pattern, each as the dense island_gram's
   (its mirror block (j, i) has the same products: the transpose, bit for bit) */
static void couple_gram(const csData* d, const csIsland* I, const double* Y) {
  double* G = (double*)I->G; /* the layout's, in d's arena */
  for (int a = 0; a < I->nc; a++) {
    int i = I->contact[a], ai = d->efc_Jadr[i], ni = d->efc_Jadr[i + 1] - ai;
    for (int e = I->couple_ptr[a]; e < I->couple_ptr[a + 1]; e++) {
      int j = I->contact[I->couple_col[e]], aj = d->efc_Jadr[j];
      double* B = G + 9 * (size_t)e;
      memset(B, 0, sizeof(double) * 9);
      csi_block_merge(Y + 3 * (size_t)ai, d->efc_Jcol + ai, ni, Y + 3 * (size_t)aj,
                      d->efc_Jcol + aj, d->efc_Jadr[j + 1] - aj, B);
    }
  }
}

csStatus csi_contact_islands_build(const csModel* m, csData* d, const double* vfree) {
  int nc = d->ncon, nv = m->nv;
  size_t mark = csi_stack_mark(d);
  double* Y = CSI_STACK_ALLOC(d, double, 3 * (size_t)d->efc_Jadr[nc]);
  double* sd = CSI_STACK_ALLOC(d, double, nv);
  int* pos = CSI_STACK_ALLOC(d, int, nv);
  int* tree = CSI_STACK_ALLOC(d, int, 2 * nc);
  if (!Y || !sd || !pos || !tree) {
    csi_stack_free(d, mark);
    d->problem.nc = 0, d->problem.nisland = 0;
    return csi_error(CS_ERR_MEMORY, "contact problem: arena full (%d contacts)", nc);
  }
  for (int k = 0; k < nv; k++) sd[k] = sqrt(d->qLDiagInv[k]);
  for (int i = 0; i < nc; i++) {
    const csContact* c = d->contact + i;
    tree[2 * i] = body_tree(m, m->geom_body[c->geom[0]]);
    tree[2 * i + 1] = body_tree(m, m->geom_body[c->geom[1]]);
    d->efc_mu[i] = c->mu;
    int a = d->efc_Jadr[i];
    for (int e = a; e < d->efc_Jadr[i + 1]; e++) pos[d->efc_Jcol[e]] = e - a;
    contact_rows(m, d, i, vfree, pos, sd, Y + 3 * (size_t)a);
  }
  for (int k = 0; k < d->problem.nisland; k++) {
    const csIsland* I = d->efc_island + k;
    if (I->ncouple > 0)
      couple_gram(d, I, Y);
    else
      island_gram(d, I, Y, tree);
  }
  csi_stack_free(d, mark);
  csStatus st = csi_contact_problem_finish(m, d);
  if (st != CS_OK) d->problem.nc = 0, d->problem.nisland = 0;
  return st;
}

/* ------------------------------------------------------------------ after the solve */

void csi_contact_islands_force(const csData* d, double* f) {
  for (int i = 0; i < d->ncon; i++) {
    const double* lam = d->efc_lambda + 3 * i;
    if (lam[0] == 0 && lam[1] == 0 && lam[2] == 0) continue;
    int a = d->efc_Jadr[i], n = d->efc_Jadr[i + 1] - a;
    const int* ch = d->efc_Jcol + a;
    const double* J = d->efc_Jval + 3 * (size_t)a;
    for (int e = 0; e < n; e++) {
      int k = ch[e];
      f[k] = ((f[k] + J[e] * lam[0]) + J[n + e] * lam[1]) + J[2 * n + e] * lam[2];
    }
  }
}

void csi_contact_tangent_vel(const csModel* m, const csData* d, int i, const double* v, double* v1,
                             double* v2) {
  double s1 = 0, s2 = 0;
  if (d->efc_Jadr) {
    int a = d->efc_Jadr[i], n = d->efc_Jadr[i + 1] - a;
    const int* ch = d->efc_Jcol + a;
    const double* J1 = d->efc_Jval + 3 * (size_t)a + n;
    for (int e = 0; e < n; e++) s1 += J1[e] * v[ch[e]], s2 += J1[n + e] * v[ch[e]];
  } else {
    int nv = m->nv;
    const double* J1 = d->efc_J + (size_t)(3 * i + 1) * nv;
    const double* J2 = J1 + nv;
    for (int k = 0; k < nv; k++) s1 += J1[k] * v[k], s2 += J2[k] * v[k];
  }
  *v1 = s1, *v2 = s2;
}
