/* csData: one buffer holding every mutable array plus the scratch arena. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/cs_constraint_rows.h"
#include "constraint/cs_contact_match.h"
#include "contactsim/cs_dynamics.h"
#include "core/cs_error.h"
#include "core/cs_memory.h"
#include "math/cs_math.h"
#include "solvers/cs_solver.h"

#define CS_ALIGN 64

void* csi_stack_alloc(csData* d, size_t bytes) {
  size_t o = (d->pstack_ + (CS_ALIGN - 1)) & ~(size_t)(CS_ALIGN - 1);
  if (o + bytes > d->narena_) return NULL;
  d->pstack_ = o + bytes;
  if (d->pstack_ > d->maxstack_) d->maxstack_ = d->pstack_;
  return d->arena_ + o;
}

/* The largest solver workspace: ncon_max contacts and every block the model can have with
   its options (csi_efc_capacity: a limit per bound, friction loss per dof, every equality;
   solvers' workspaces only grow with rows and blocks). SIZE_MAX / 2 if the shape cannot be
   allocated, so that cs_data_new fails as out of memory. */
static size_t data_solver_bytes(const csModel* m) {
  int nb, nr, ns;
  csi_efc_capacity(m, &nb, &nr, &ns);
  csContactProblem shape = {0};
  shape.nc = m->ncon_max;
  csBlock* blk = nb > 0 ? csi_malloc(sizeof(csBlock) * (size_t)nb) : NULL;
  if (nb > 0 && !blk) return SIZE_MAX / 2;
  int neq = (m->opt.disable & CS_DISABLE_EQUALITY) ? 0 : m->neq, row = 3 * m->ncon_max;
  for (int k = 0; k < nb; k++) { /* the equalities' free blocks, then 1-row blocks */
    int t = k < neq ? m->eq_type[k] : -1;
    int n = t == CS_EQ_CONNECT ? 3 : t == CS_EQ_WELD ? 6 : 1;
    blk[k] = (csBlock){k < neq ? CS_CONE_FREE : CS_CONE_UNILATERAL, row, n, 0};
    row += n;
  }
  shape.nblock = nb, shape.block = blk;
  size_t b = csi_solver_max_workspace(&shape);
  cs_free(blk);
  return b;
}

/* The model's scratch estimate plus the largest solver workspace. The problem build's
   scratch (cs_contact_problem_build): nc x nv + 4 nc + nv ints, 2 nv doubles, in 9
   allocations of up to CS_ALIGN - 1 bytes of padding each; the block rows'
   (csi_constraint_rows_build): nrow x nv doubles and nrow + 1 ints; the warm start's
   matching: ncon_max ints and its hash table. */
static size_t data_arena_bytes(const csModel* m) {
  int nb, nr, ns;
  csi_efc_capacity(m, &nb, &nr, &ns);
  size_t problem = sizeof(int) * ((size_t)m->ncon_max * (size_t)m->nv + 4 * (size_t)m->ncon_max +
                                  (size_t)m->nv) +
                   sizeof(double) * 2 * (size_t)m->nv + 9 * CS_ALIGN;
  size_t rows =
      sizeof(double) * (size_t)nr * (size_t)m->nv + sizeof(int) * (size_t)(nr + 1) + 2 * CS_ALIGN;
  size_t match =
      sizeof(int) * (size_t)m->ncon_max + csi_contact_match_bytes(m->ncon_max) + 2 * CS_ALIGN;
  return m->arena_bytes + problem + rows + match + data_solver_bytes(m) + 4096;
}

static void* take(unsigned char* base, size_t* off, size_t bytes) {
  size_t o = (*off + (CS_ALIGN - 1)) & ~(size_t)(CS_ALIGN - 1);
  *off = o + bytes;
  return base ? base + o : NULL;
}
#define TAKE(field, count) d->field = take(b, &off, sizeof(*d->field) * (size_t)(count))

static size_t data_layout(const csModel* m, csData* d, void* base) {
  unsigned char* b = base;
  size_t off = 0;
  int nb = m->nbody, nv = m->nv;
  TAKE(qpos, m->nq);
  TAKE(qvel, nv);
  TAKE(ctrl, m->nu);
  TAKE(qfrc_applied, nv);
  TAKE(qacc, nv);
  TAKE(qfrc_actuator, nv);
  TAKE(qfrc_bias, nv);
  TAKE(qfrc_damping, nv);
  TAKE(xpos, 3 * nb);
  TAKE(xquat, 4 * nb);
  TAKE(xmat, 9 * nb);
  TAKE(xipos, 3 * nb);
  TAKE(xanchor, 3 * m->njnt);
  TAKE(xaxis, 3 * m->njnt);
  TAKE(geom_xpos, 3 * m->ngeom);
  TAKE(geom_xmat, 9 * m->ngeom);
  TAKE(site_xpos, 3 * m->nsite);
  TAKE(site_xmat, 9 * m->nsite);
  TAKE(cdof, 6 * nv);
  TAKE(cdof_dot, 6 * nv);
  TAKE(cinert, 10 * nb);
  TAKE(crb, 10 * nb);
  TAKE(cvel, 6 * nb);
  TAKE(cacc, 6 * nb);
  TAKE(cfrc, 6 * nb);
  TAKE(qM, m->nM);
  TAKE(qLD, m->nM);
  TAKE(qLDiagInv, nv);
  TAKE(contact, m->ncon_max);
  TAKE(contact_prev, m->ncon_max);
  TAKE(qfrc_contact, nv);
  int nblk, nrow, nslot;
  csi_efc_capacity(m, &nblk, &nrow, &nslot);
  size_t nefc = 3 * (size_t)m->ncon_max + (size_t)nrow;
  d->nefc_max = (int)nefc;
  d->nblock_max = nblk;
  d->nslot = nslot;
  d->efc_sources = csi_efc_sources(m);
  TAKE(efc_J, nefc * nv);
  TAKE(efc_Y, 3 * (size_t)m->ncon_max * nv);
  TAKE(efc_G, nefc * nefc);
  TAKE(efc_g, nefc);
  TAKE(efc_mu, m->ncon_max);
  TAKE(efc_lambda, nefc);
  TAKE(efc_block, nblk);
  TAKE(efc_block_src, 2 * nblk);
  TAKE(efc_block_dist, nblk);
  TAKE(efc_slot_lambda, nslot);
  TAKE(efc_slot_on, nslot);
  TAKE(efc_row_slot, nrow + 1);
  TAKE(qvel_free, nv);
  TAKE(arena_, data_arena_bytes(m));
  return off + CS_ALIGN;
}
#undef TAKE

csData* cs_data_new(const csModel* m) {
  if (!m) {
    csi_error(CS_ERR_ARG, "cs_data_new: model is NULL");
    return NULL;
  }
  csData* d = csi_calloc(1, sizeof *d);
  if (!d) {
    csi_error(CS_ERR_MEMORY, "cs_data_new: out of memory");
    return NULL;
  }
  d->nbuffer_ = data_layout(m, d, NULL);
  d->buffer_ = csi_calloc(1, d->nbuffer_);
  if (!d->buffer_) {
    cs_free(d);
    csi_error(CS_ERR_MEMORY, "cs_data_new: out of memory (%zu bytes)", (size_t)0);
    return NULL;
  }
  data_layout(m, d, d->buffer_);
  d->narena_ = data_arena_bytes(m);
  cs_data_reset(m, d);
  return d;
}

void cs_data_free(csData* d) {
  if (!d) return;
  cs_free(d->buffer_);
  cs_free(d);
}

void cs_data_reset(const csModel* m, csData* d) {
  /* everything but the arena */
  memset(d->buffer_, 0, (size_t)(d->arena_ - (unsigned char*)d->buffer_));
  memcpy(d->qpos, m->qpos0, sizeof(double) * (size_t)m->nq);
  d->time = 0;
  d->nstep = 0;
  d->pstack_ = 0;
  memset(d->warning, 0, sizeof d->warning);
  memset(d->energy, 0, sizeof d->energy);
  d->ncon = d->ncon_prev = 0;
  d->prev_converged = 0;
  d->nslot_on = 0;
  d->problem.nblock = 0;
  memset(&d->solver_stats, 0, sizeof d->solver_stats);
  memset(d->time_ns, 0, sizeof d->time_ns);
  for (int i = 0; i < m->nbody; i++) csi_quat_identity(d->xquat + 4 * i);
}

void cs_data_copy(const csModel* m, csData* dst, const csData* src) {
  (void)m;
  size_t n = (size_t)(src->arena_ - (unsigned char*)src->buffer_);
  memcpy(dst->buffer_, src->buffer_, n);
  dst->time = src->time;
  dst->nstep = src->nstep;
  memcpy(dst->warning, src->warning, sizeof src->warning);
  memcpy(dst->energy, src->energy, sizeof src->energy);
  dst->ncon = src->ncon;
  dst->ncon_prev = src->ncon_prev;
  dst->prev_converged = src->prev_converged;
  dst->nslot_on = src->nslot_on;
  dst->solver_stats = src->solver_stats;
}

csStatus cs_data_set_state(const csModel* m, csData* d, const double* qpos, int nq,
                           const double* qvel, int nv) {
  if (qpos && nq != m->nq)
    return csi_error(CS_ERR_ARG, "state: %d positions given, the model has nq = %d", nq, m->nq);
  if (qvel && nv != m->nv)
    return csi_error(CS_ERR_ARG, "state: %d velocities given, the model has nv = %d", nv, m->nv);
  for (int i = 0; qpos && i < nq; i++)
    if (!isfinite(qpos[i])) return csi_error(CS_ERR_STATE, "state: qpos[%d] is not finite", i);
  for (int i = 0; qvel && i < nv; i++)
    if (!isfinite(qvel[i])) return csi_error(CS_ERR_STATE, "state: qvel[%d] is not finite", i);
  if (qpos) memcpy(d->qpos, qpos, sizeof(double) * (size_t)nq);
  if (qvel) memcpy(d->qvel, qvel, sizeof(double) * (size_t)nv);
  return CS_OK;
}
