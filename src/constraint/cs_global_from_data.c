/* The global form of a step's contact problem (cs_global_from_data): the second source of
   csGlobalProblem after the FCLIB reader. The step (src/pipeline/cs_forward.c) solves
     A v+ = A v_free + J^T lambda,   u = J v+ + (g - J v_free)
   with A the matrix it factors: M, plus dt D on the diagonal with implicit joint damping
   (integrator CS_INT_EULER_IMPLICITDAMP and damping enabled: cs_factor_m adds dt
   dof_damping to M's diagonal), and its local problem is G = J A^-1 J^T,
   g = J v_free + stabilisation (src/constraint/cs_contact_problem.c). In FCLIB's form
   M v = H r + f, u = H^T v + w that is
     M = A,  H = J^T,  r = lambda,  f = A v_free,  w = g - J v_free,
   so that condensation gives W = G and q = J v_free + w = g, and cs_global_velocity of the
   step's lambda gives the step's v+. The arrays are the data's after a successful cs_step:
   qM, qvel_free and the efc arrays of that step (cs_forward or a stage run afterwards
   recomputes qM at the new positions, which no longer matches J). */
#include <stdio.h>
#include <string.h>

#include "constraint/cs_global_problem.h"
#include "contactsim/cs_data.h"
#include "core/cs_error.h"
#include "sparse/cs_sparse.h"

/* The step's problem has only contacts: else CS_ERR_UNSUPPORTED naming its first blocks */
static csStatus check_contacts_only(const csModel* m, const csData* d) {
  const int nb = d->problem.nblock;
  if (nb == 0) return CS_OK;
  char what[256] = "";
  size_t len = 0;
  for (int b = 0; b < nb && b < 4 && len < sizeof what; b++) {
    const int src = d->efc_block_src[2 * b], id = d->efc_block_src[2 * b + 1];
    char one[96];
    if (src == CS_EFC_LIMIT_LOW || src == CS_EFC_LIMIT_HIGH)
      snprintf(one, sizeof one, "%s limit of joint '%s'",
               src == CS_EFC_LIMIT_LOW ? "lower" : "upper", m->names + m->jnt_name[id]);
    else if (src == CS_EFC_FRICTIONLOSS)
      snprintf(one, sizeof one, "friction loss of dof %d", id);
    else if (src == CS_EFC_TENDON_LOW || src == CS_EFC_TENDON_HIGH)
      snprintf(one, sizeof one, "%s limit of tendon '%s'",
               src == CS_EFC_TENDON_LOW ? "lower" : "upper", m->names + m->tendon_name[id]);
    else
      snprintf(one, sizeof one, "equality '%s'", m->names + m->eq_name[id]);
    len += (size_t)snprintf(what + len, sizeof what - len, "%s%s", b ? ", " : "", one);
  }
  return csi_error(CS_ERR_UNSUPPORTED,
                   "cs_global_from_data: the last step's problem has %d block%s after its "
                   "contacts (%s%s); only a problem of contacts alone has a global form",
                   nb, nb == 1 ? "" : "s", what, nb > 4 ? ", ..." : "");
}

/* A = M (+ dt D): both triangles of the rows of ancestors (dof_Madr, dof_Mnum, dof_Mcol) */
static csStatus step_matrix(const csModel* m, const csData* d, csSparseMatrix* A) {
  const int nv = m->nv;
  const int implicit =
      m->opt.integrator == CS_INT_EULER_IMPLICITDAMP && !(m->opt.disable & CS_DISABLE_DAMPING);
  const double dt = m->opt.timestep;
  size_t cnt = 0;
  for (int i = 0; i < nv; i++) cnt += 2 * (size_t)m->dof_Mnum[i] - 1;
  int* row = csi_malloc(cnt * sizeof(int));
  int* col = csi_malloc(cnt * sizeof(int));
  double* x = csi_malloc(cnt * sizeof(double));
  csStatus st = CS_OK;
  if (!row || !col || !x) st = csi_error(CS_ERR_MEMORY, "cs_global_from_data: out of memory for M");
  size_t k = 0;
  for (int i = 0; !st && i < nv; i++) {
    const int adr = m->dof_Madr[i];
    double diag = d->qM[adr]; /* cs_factor_m's L[adr] += dt dof_damping, the same sum */
    if (implicit) diag += dt * m->dof_damping[i];
    row[k] = col[k] = i, x[k++] = diag;
    for (int t = 1; t < m->dof_Mnum[i]; t++) {
      const int j = m->dof_Mcol[adr + t];
      row[k] = i, col[k] = j, x[k++] = d->qM[adr + t];
      row[k] = j, col[k] = i, x[k++] = d->qM[adr + t];
    }
  }
  if (!st) st = csi_sparse_from_triplets(nv, nv, cnt, row, col, x, A);
  cs_free(row), cs_free(col), cs_free(x);
  return st;
}

/* Row a of J: its entries vals[e] at dofs cols[e] (cols NULL: the dense row, dof e), either
   from efc_J or, stored by islands, from its contact's sparse rows. Returns their number. */
static int j_row(const csModel* m, const csData* d, int a, const int** cols, const double** vals) {
  if (!d->efc_Jadr) {
    *cols = NULL, *vals = d->efc_J + (size_t)a * (size_t)m->nv;
    return m->nv;
  }
  const int i = a / 3, e0 = d->efc_Jadr[i], n = d->efc_Jadr[i + 1] - e0;
  *cols = d->efc_Jcol + e0, *vals = d->efc_Jval + 3 * (size_t)e0 + (size_t)(a % 3) * n;
  return n;
}

/* H = J^T (nv x 3nc) from J's rows, non-zeros only */
static csStatus step_h(const csModel* m, const csData* d, int nc, csSparseMatrix* H) {
  const int nv = m->nv, nr = 3 * nc;
  size_t cnt = 0;
  for (int a = 0; a < nr; a++) {
    const int* cols;
    const double* vals;
    const int n = j_row(m, d, a, &cols, &vals);
    for (int e = 0; e < n; e++) cnt += vals[e] != 0;
  }
  int* row = csi_malloc((cnt ? cnt : 1) * sizeof(int));
  int* col = csi_malloc((cnt ? cnt : 1) * sizeof(int));
  double* x = csi_malloc((cnt ? cnt : 1) * sizeof(double));
  csStatus st = CS_OK;
  if (!row || !col || !x) st = csi_error(CS_ERR_MEMORY, "cs_global_from_data: out of memory for H");
  size_t k = 0;
  for (int a = 0; !st && a < nr; a++) {
    const int* cols;
    const double* vals;
    const int n = j_row(m, d, a, &cols, &vals);
    for (int e = 0; e < n; e++)
      if (vals[e] != 0) row[k] = cols ? cols[e] : e, col[k] = a, x[k++] = vals[e];
  }
  if (!st) st = csi_sparse_from_triplets(nv, nr, cnt, row, col, x, H);
  cs_free(row), cs_free(col), cs_free(x);
  return st;
}

/* f = A v_free, w = g - J v_free, mu; the step's solution r = lambda, v = qvel,
   u = H^T v + w */
static csStatus step_vectors(const csModel* m, const csData* d, csGlobalProblem* g) {
  const int nv = m->nv, nr = 3 * g->nc;
  g->f = csi_calloc((size_t)nv, sizeof(double));
  g->w = csi_malloc((size_t)nr * sizeof(double));
  g->mu = csi_malloc((size_t)g->nc * sizeof(double));
  g->r = csi_malloc((size_t)nr * sizeof(double));
  g->u = csi_malloc((size_t)nr * sizeof(double));
  g->v = csi_malloc((size_t)nv * sizeof(double));
  if (!g->f || !g->w || !g->mu || !g->r || !g->u || !g->v)
    return csi_error(CS_ERR_MEMORY, "cs_global_from_data: out of memory (%d contacts)", g->nc);
  csi_sparse_gaxpy(&g->M, d->qvel_free, g->f);
  for (int a = 0; a < nr; a++) {
    const int* cols;
    const double* vals;
    const int n = j_row(m, d, a, &cols, &vals);
    double jv = 0;
    for (int e = 0; e < n; e++) jv += vals[e] * d->qvel_free[cols ? cols[e] : e];
    g->w[a] = d->efc_g[a] - jv;
  }
  memcpy(g->mu, d->efc_mu, (size_t)g->nc * sizeof(double));
  memcpy(g->r, d->efc_lambda, (size_t)nr * sizeof(double));
  memcpy(g->v, d->qvel, (size_t)nv * sizeof(double));
  memcpy(g->u, g->w, (size_t)nr * sizeof(double));
  csi_sparse_tgaxpy(&g->H, g->v, g->u);
  return CS_OK;
}

csStatus cs_global_from_data(const csModel* m, const csData* d, csGlobalProblem** out) {
  if (out) *out = NULL;
  if (!m || !d || !out)
    return csi_error(CS_ERR_ARG, "cs_global_from_data: NULL model, data or out");
  csStatus st = check_contacts_only(m, d);
  if (st) return st;
  const int nc = d->problem.nc;
  if (nc <= 0)
    return csi_error(CS_ERR_ARG,
                     "cs_global_from_data: the last step's problem has no contacts (nc = %d)", nc);
  csGlobalProblem* g = csi_calloc(1, sizeof *g);
  if (!g) return csi_error(CS_ERR_MEMORY, "cs_global_from_data: out of memory");
  g->n = m->nv;
  g->nc = nc;
  st = step_matrix(m, d, &g->M);
  if (!st) st = step_h(m, d, nc, &g->H);
  if (!st) st = step_vectors(m, d, g);
  if (!st) st = csi_global_check(g, "cs_global_from_data");
  if (st) {
    cs_global_problem_free(g);
    return st;
  }
  *out = g;
  return CS_OK;
}
