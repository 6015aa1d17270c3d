/* csData: one buffer holding every mutable array plus the scratch arena. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/cs_constraint_rows.h"
#include "constraint/cs_contact_match.h"
#include "contactsim/cs_dynamics.h"
#include "core/cs_data_memory.h"
#include "core/cs_error.h"
#include "core/cs_memory.h"
#include "math/cs_math.h"
#include "solvers/cs_solver.h"

#define CS_ALIGN 64

static void* take(unsigned char* base, size_t* off, size_t bytes) {
  size_t o = (*off + (CS_ALIGN - 1)) & ~(size_t)(CS_ALIGN - 1);
  *off = o + bytes;
  return base ? base + o : NULL;
}
#define TAKE(field, count) d->field = take(b, &off, sizeof(*d->field) * (size_t)(count))

static size_t data_layout(const csModel* m, csData* d, void* base, size_t arena) {
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
  d->nblock_max = nblk;
  d->nefc_room_ = nrow;
  d->nslot = nslot;
  d->efc_sources = csi_efc_sources(m);
  TAKE(efc_block, nblk);
  TAKE(efc_block_src, 2 * nblk);
  TAKE(efc_block_dist, nblk);
  TAKE(efc_slot_lambda, nslot);
  TAKE(efc_slot_on, nslot);
  TAKE(efc_row_slot, nrow + 1);
  TAKE(qvel_free, nv);
  TAKE(xfrc_applied, 6 * nb);
  TAKE(fwd_keep_, 2);
  TAKE(fwd_slot_lambda_, nslot);
  TAKE(fwd_slot_on_, nslot);
  TAKE(sensordata, m->nsensordata);
  TAKE(arena_, arena);
  return off + CS_ALIGN;
}
#undef TAKE

/* A buffer for d laid out with an arena of the given bytes (rounded up to CS_ALIGN), or
   CS_ERR_MEMORY; d's pointers are set to it. */
static csStatus data_alloc(const csModel* m, csData* d, size_t arena) {
  arena = (arena + CS_ALIGN - 1) & ~(size_t)(CS_ALIGN - 1);
  size_t bytes = data_layout(m, d, NULL, arena);
  void* buf = csi_calloc(1, bytes);
  if (!buf)
    return csi_error(CS_ERR_MEMORY, "csData: out of memory (%zu bytes, of which %zu arena)", bytes,
                     arena);
  d->buffer_ = buf;
  d->nbuffer_ = bytes;
  data_layout(m, d, buf, arena);
  d->narena_ = arena;
  d->room_ = -1;
  return CS_OK;
}

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
  size_t arena = csi_data_arena_default(m);
  if (arena == 0) csi_error(CS_ERR_MEMORY, "cs_data_new: the arena's size overflows");
  if (arena > 0 && m->memory > 0 && cs_data_need(m, 0) > m->memory) {
    csi_error(CS_ERR_MEMORY,
              "cs_data_new: the model's memory (%zu bytes, <size memory>) is less than a step "
              "without contacts needs (%zu bytes)",
              m->memory, cs_data_need(m, 0));
    arena = 0;
  }
  if (arena == 0 || data_alloc(m, d, arena) != CS_OK) {
    cs_free(d);
    return NULL;
  }
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
  d->pefc_ = 0;
  d->pstack_ = d->narena_;
  memset(d->warning, 0, sizeof d->warning);
  memset(d->energy, 0, sizeof d->energy);
  d->ncon = d->ncon_prev = 0;
  d->prev_converged = 0;
  d->nslot_on = 0;
  memset(&d->problem, 0, sizeof d->problem);
  csi_efc_layout(m, d, 0);
  memset(&d->solver_stats, 0, sizeof d->solver_stats);
  memset(d->time_ns, 0, sizeof d->time_ns);
  for (int i = 0; i < m->nbody; i++) csi_quat_identity(d->xquat + 4 * i);
}

/* p moved from src's arena to dst's (NULL stays NULL) */
static void* rebase(const csData* src, const csData* dst, const void* p) {
  if (!p) return NULL;
  return dst->arena_ + ((const unsigned char*)p - src->arena_);
}

/* dst's constraint arrays and problem: src's, in dst's arena */
static void copy_constraint(const csData* src, csData* dst) {
  memcpy(dst->arena_, src->arena_, src->pefc_);
  dst->pefc_ = src->pefc_;
  dst->nefc_max = src->nefc_max;
  dst->efc_J = rebase(src, dst, src->efc_J);
  dst->efc_Y = rebase(src, dst, src->efc_Y);
  dst->efc_G = rebase(src, dst, src->efc_G);
  dst->efc_g = rebase(src, dst, src->efc_g);
  dst->efc_lambda = rebase(src, dst, src->efc_lambda);
  dst->efc_mu = rebase(src, dst, src->efc_mu);
  dst->efc_Jadr = rebase(src, dst, src->efc_Jadr);
  dst->efc_Jcol = rebase(src, dst, src->efc_Jcol);
  dst->efc_Jval = rebase(src, dst, src->efc_Jval);
  dst->efc_island = rebase(src, dst, src->efc_island);
  dst->efc_island_contact = rebase(src, dst, src->efc_island_contact);
  dst->efc_island_G = rebase(src, dst, src->efc_island_G);
  dst->problem = src->problem;
  dst->problem.mu = dst->efc_mu;
  dst->problem.G = dst->efc_G;
  dst->problem.g = dst->efc_g;
  dst->problem.J = dst->efc_J;
  dst->problem.block = src->problem.block ? dst->efc_block : NULL;
  dst->problem.island = dst->problem.nisland > 0 ? dst->efc_island : NULL;
  for (int k = 0; k < dst->problem.nisland; k++) { /* the table's lists, in dst's arena */
    csIsland* I = dst->efc_island + k;
    I->contact = rebase(src, dst, I->contact);
    I->G = rebase(src, dst, I->G);
    if (I->ncouple > 0) {
      I->couple_ptr = rebase(src, dst, I->couple_ptr);
      I->couple_col = rebase(src, dst, I->couple_col);
    }
  }
}

csStatus cs_data_copy(const csModel* m, csData* dst, const csData* src) {
  (void)m;
  if (src->pefc_ > dst->pstack_)
    return csi_error(CS_ERR_MEMORY,
                     "cs_data_copy: the source's constraint arrays (%zu bytes) do not fit the "
                     "destination's arena (%zu bytes)",
                     src->pefc_, dst->narena_);
  size_t n = (size_t)(src->arena_ - (unsigned char*)src->buffer_);
  memcpy(dst->buffer_, src->buffer_, n);
  copy_constraint(src, dst);
  dst->time = src->time;
  dst->nstep = src->nstep;
  memcpy(dst->warning, src->warning, sizeof src->warning);
  memcpy(dst->energy, src->energy, sizeof src->energy);
  dst->ncon = src->ncon;
  dst->ncon_prev = src->ncon_prev;
  dst->prev_converged = src->prev_converged;
  dst->nslot_on = src->nslot_on;
  dst->solver_stats = src->solver_stats;
  return CS_OK;
}

csStatus cs_data_fit(const csModel* m, csData* d) {
  if (!m || !d) return csi_error(CS_ERR_ARG, "cs_data_fit: NULL model or data");
  size_t arena = csi_data_arena_default(m);
  if (arena == 0) return csi_error(CS_ERR_MEMORY, "cs_data_fit: the arena's size overflows");
  int want = m->ncon_max < CS_NCON_ROOM ? m->ncon_max : CS_NCON_ROOM;
  size_t bytes = m->memory > 0 ? cs_data_need(m, want) : 0;
  if (bytes > m->memory)
    return csi_error(CS_ERR_MEMORY,
                     "solver '%s': %d contacts need %zu bytes of arena, more than the model's "
                     "memory (%zu bytes, <size memory>): it holds %d",
                     cs_solver_name((csSolverType)m->opt.solver), want, bytes, m->memory,
                     csi_data_room_bytes(m, m->memory));
  csData tmp = *d;
  csStatus st = data_alloc(m, &tmp, arena);
  if (st != CS_OK) return st;
  tmp.pefc_ = 0;
  tmp.pstack_ = tmp.narena_;
  size_t n = (size_t)(d->arena_ - (unsigned char*)d->buffer_);
  memcpy(tmp.buffer_, d->buffer_, n);
  memset(&tmp.problem, 0, sizeof tmp.problem);
  csi_efc_layout(m, &tmp, 0);
  cs_free(d->buffer_);
  *d = tmp;
  return CS_OK;
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
