/* csModel: layout of the one buffer, free, copy, name lookup. */
#include "core/cs_model.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/cs_error.h"
#include "math/cs_math.h"

#define CS_ALIGN 64

static void* take(unsigned char* base, size_t* off, size_t bytes) {
  size_t o = (*off + (CS_ALIGN - 1)) & ~(size_t)(CS_ALIGN - 1);
  *off = o + bytes;
  return base ? base + o : NULL;
}

#define TAKE(field, count) m->field = take(b, &off, sizeof(*m->field) * (size_t)(count))

size_t csi_model_layout(csModel* m, void* base) {
  unsigned char* b = base;
  size_t off = 0;
  int nb = m->nbody, nj = m->njnt, nv = m->nv, ng = m->ngeom, ns = m->nsite, nu = m->nu;
  TAKE(body_parent, nb);
  TAKE(body_rootid, nb);
  TAKE(body_jntadr, nb);
  TAKE(body_jntnum, nb);
  TAKE(body_dofadr, nb);
  TAKE(body_dofnum, nb);
  TAKE(body_lastdof, nb);
  TAKE(body_geomadr, nb);
  TAKE(body_geomnum, nb);
  TAKE(body_pos, 3 * nb);
  TAKE(body_quat, 4 * nb);
  TAKE(body_mass, nb);
  TAKE(body_ipos, 3 * nb);
  TAKE(body_inertia, 6 * nb);
  TAKE(body_subtreemass, nb);
  TAKE(body_name, nb);
  TAKE(jnt_type, nj);
  TAKE(jnt_body, nj);
  TAKE(jnt_qposadr, nj);
  TAKE(jnt_dofadr, nj);
  TAKE(jnt_pos, 3 * nj);
  TAKE(jnt_axis, 3 * nj);
  TAKE(jnt_limited, nj);
  TAKE(jnt_range, 2 * nj);
  TAKE(jnt_margin, nj);
  TAKE(jnt_name, nj);
  TAKE(dof_body, nv);
  TAKE(dof_jnt, nv);
  TAKE(dof_parent, nv);
  TAKE(dof_Madr, nv);
  TAKE(dof_Mnum, nv);
  TAKE(dof_damping, nv);
  TAKE(dof_armature, nv);
  TAKE(dof_frictionloss, nv);
  TAKE(qpos0, m->nq);
  TAKE(geom_type, ng);
  TAKE(geom_body, ng);
  TAKE(geom_contype, ng);
  TAKE(geom_conaffinity, ng);
  TAKE(geom_mesh, ng);
  TAKE(geom_size, 3 * ng);
  TAKE(geom_pos, 3 * ng);
  TAKE(geom_quat, 4 * ng);
  TAKE(geom_friction, ng);
  TAKE(geom_margin, ng);
  TAKE(geom_rbound, ng);
  TAKE(geom_name, ng);
  TAKE(site_body, ns);
  TAKE(site_pos, 3 * ns);
  TAKE(site_quat, 4 * ns);
  TAKE(site_name, ns);
  TAKE(mesh_vertadr, m->nmesh);
  TAKE(mesh_vertnum, m->nmesh);
  TAKE(mesh_faceadr, m->nmesh);
  TAKE(mesh_facenum, m->nmesh);
  TAKE(mesh_vert, 3 * m->nmeshvert);
  TAKE(mesh_face, 3 * m->nmeshface);
  TAKE(mesh_name, m->nmesh);
  TAKE(actuator_type, nu);
  TAKE(actuator_jnt, nu);
  TAKE(actuator_gear, nu);
  TAKE(actuator_kp, nu);
  TAKE(actuator_kd, nu);
  TAKE(actuator_ctrllimited, nu);
  TAKE(actuator_ctrlrange, 2 * nu);
  TAKE(actuator_forcelimited, nu);
  TAKE(actuator_forcerange, 2 * nu);
  TAKE(actuator_name, nu);
  TAKE(exclude_pair, 2 * m->nexclude);
  TAKE(eq_type, m->neq);
  TAKE(eq_obj1, m->neq);
  TAKE(eq_obj2, m->neq);
  TAKE(eq_active, m->neq);
  TAKE(eq_data, 11 * m->neq);
  TAKE(eq_name, m->neq);
  TAKE(actuator_gainprm, nu);
  TAKE(actuator_biasprm, 3 * nu);
  TAKE(actuator_tendon, nu);
  TAKE(tendon_adr, m->ntendon);
  TAKE(tendon_num, m->ntendon);
  TAKE(tendon_limited, m->ntendon);
  TAKE(tendon_range, 2 * m->ntendon);
  TAKE(tendon_name, m->ntendon);
  TAKE(wrap_jnt, m->nwrap);
  TAKE(wrap_coef, m->nwrap);
  TAKE(jntfrc_jnt, m->njntfrc);
  TAKE(jntfrc_range, 2 * m->njntfrc);
  TAKE(body_kind, nb);
  TAKE(body_anchor, 3 * nb);
  TAKE(body_paxis, 3 * nb);
  TAKE(body_qaxis, 4 * nb);
  TAKE(body_order, nb);
  TAKE(dof_Mcol, m->nM);
  TAKE(dof_tran, nv);
  TAKE(dof_Mown, nv);
  TAKE(geom_mat, 9 * ng);
  TAKE(site_mat, 9 * ns);
  TAKE(mesh_hulladr, m->nmesh);
  TAKE(mesh_hullnum, m->nmesh);
  TAKE(mesh_hull, m->nmeshhull);
  TAKE(geom_vertadr, ng);
  TAKE(geom_vertnum, ng);
  TAKE(geom_vert, 3 * m->ngeomvert);
  TAKE(geom_hfield, ng);
  TAKE(hfield_nrow, m->nhfield);
  TAKE(hfield_ncol, m->nhfield);
  TAKE(hfield_size, 4 * m->nhfield);
  TAKE(hfield_adr, m->nhfield);
  TAKE(hfield_data, m->nhfielddata);
  TAKE(hfield_name, m->nhfield);
  TAKE(geom_visual, ng);
  TAKE(key_time, m->nkey);
  TAKE(key_qpos, (size_t)m->nkey * m->nq);
  TAKE(key_qvel, (size_t)m->nkey * m->nv);
  TAKE(key_ctrl, (size_t)m->nkey * m->nu);
  TAKE(key_name, m->nkey);
  TAKE(geom_condim, ng);
  TAKE(pair_geom, 2 * m->npair);
  TAKE(pair_friction, m->npair);
  TAKE(pair_margin, m->npair);
  TAKE(pair_condim, m->npair);
  TAKE(geom_rgba, 4 * ng);
  TAKE(sensor_type, m->nsensor);
  TAKE(sensor_objtype, m->nsensor);
  TAKE(sensor_objid, m->nsensor);
  TAKE(sensor_body, m->nsensor);
  TAKE(sensor_pos, 3 * m->nsensor);
  TAKE(sensor_quat, 4 * m->nsensor);
  TAKE(sensor_adr, m->nsensor);
  TAKE(sensor_dim, m->nsensor);
  TAKE(sensor_noise, m->nsensor);
  TAKE(sensor_cutoff, m->nsensor);
  TAKE(sensor_zonetype, m->nsensor);
  TAKE(sensor_zonesize, 3 * m->nsensor);
  TAKE(sensor_name, m->nsensor);
  TAKE(names, m->nnames);
  TAKE(notes, m->nnote);
  return off + CS_ALIGN;
}
#undef TAKE

void csi_model_derive(csModel* m) {
  for (int k = 0; k < m->nbody; k++) {
    int ja = m->body_jntadr[k], jn = k > 0 ? m->body_jntnum[k] : 0;
    double R[9];
    csi_quat2mat(R, m->body_quat + 4 * k);
    int kind = CS_BODY_GENERAL;
    if (k == 0)
      kind = CS_BODY_WORLD;
    else if (jn == 1 && m->jnt_type[ja] == CS_JNT_FREE)
      kind = CS_BODY_FREE;
    else if (jn == 1 && m->jnt_type[ja] == CS_JNT_REVOLUTE)
      kind = CS_BODY_REVOLUTE;
    else if (jn == 1 && m->jnt_type[ja] == CS_JNT_PRISMATIC)
      kind = CS_BODY_PRISMATIC;
    m->body_kind[k] = kind;
    double* anchor = m->body_anchor + 3 * k;
    double* paxis = m->body_paxis + 3 * k;
    double* qaxis = m->body_qaxis + 4 * k;
    csi_copy3(anchor, m->body_pos + 3 * k);
    csi_zero(paxis, 3);
    csi_zero(qaxis, 4);
    if (jn > 0) {
      double t[3];
      csi_mulmat3vec(t, R, m->jnt_pos + 3 * ja);
      csi_add3(anchor, m->body_pos + 3 * k, t);
      csi_mulmat3vec(paxis, R, m->jnt_axis + 3 * ja);
    }
    if (kind == CS_BODY_REVOLUTE) {
      const double* a = m->jnt_axis + 3 * ja;
      double pa[4] = {0, a[0], a[1], a[2]};
      csi_quat_mul(qaxis, m->body_quat + 4 * k, pa);
    }
  }
  /* breadth-first order: by depth, then by id (parents have smaller ids) */
  {
    int n = 0;
    m->body_order[n++] = 0;
    for (int head = 0; head < n; head++)
      for (int k = m->body_order[head] + 1; k < m->nbody; k++)
        if (m->body_parent[k] == m->body_order[head]) m->body_order[n++] = k;
  }
  for (int i = 0; i < m->nv; i++) {
    int t = m->dof_Madr[i];
    for (int j = i; j >= 0; j = m->dof_parent[j]) m->dof_Mcol[t++] = j;
  }
  for (int i = 0; i < m->nv; i++) {
    int j = m->dof_jnt[i], k = i - m->jnt_dofadr[j];
    m->dof_tran[i] = (m->jnt_type[j] == CS_JNT_FREE && k < 3) ? k : -1;
  }
  for (int i = 0; i < m->nv; i++) {
    int n = m->dof_Mnum[i];
    m->dof_Mown[i] = n > 6 && m->dof_tran[m->dof_Mcol[m->dof_Madr[i] + n - 1]] == 0 ? n - 6 : n;
  }
  for (int g = 0; g < m->ngeom; g++) csi_quat2mat(m->geom_mat + 9 * g, m->geom_quat + 4 * g);
  for (int s = 0; s < m->nsite; s++) csi_quat2mat(m->site_mat + 9 * s, m->site_quat + 4 * s);
}

void cs_model_free(csModel* m) {
  if (!m) return;
  cs_free(m->buffer_);
  cs_free(m);
}

csModel* cs_model_copy(const csModel* src) {
  if (!src) return NULL;
  csModel* m = csi_malloc(sizeof *m);
  if (!m) return NULL;
  *m = *src;
  m->buffer_ = csi_malloc(src->nbuffer_);
  if (!m->buffer_) {
    cs_free(m);
    return NULL;
  }
  csi_model_layout(m, m->buffer_);
  memcpy(m->buffer_, src->buffer_, src->nbuffer_);
  return m;
}

static const int* kind_names(const csModel* m, const char* kind, int* n) {
  if (!strcmp(kind, "body")) return *n = m->nbody, m->body_name;
  if (!strcmp(kind, "joint")) return *n = m->njnt, m->jnt_name;
  if (!strcmp(kind, "geom")) return *n = m->ngeom, m->geom_name;
  if (!strcmp(kind, "site")) return *n = m->nsite, m->site_name;
  if (!strcmp(kind, "actuator")) return *n = m->nu, m->actuator_name;
  if (!strcmp(kind, "mesh")) return *n = m->nmesh, m->mesh_name;
  if (!strcmp(kind, "hfield")) return *n = m->nhfield, m->hfield_name;
  if (!strcmp(kind, "equality")) return *n = m->neq, m->eq_name;
  if (!strcmp(kind, "key")) return *n = m->nkey, m->key_name;
  if (!strcmp(kind, "tendon")) return *n = m->ntendon, m->tendon_name;
  if (!strcmp(kind, "sensor")) return *n = m->nsensor, m->sensor_name;
  *n = 0;
  return NULL;
}

int cs_name2id(const csModel* m, const char* kind, const char* name) {
  int n;
  const int* adr = kind_names(m, kind, &n);
  if (!adr || !name || !*name) return -1;
  for (int i = 0; i < n; i++)
    if (!strcmp(m->names + adr[i], name)) return i;
  return -1;
}

const char* cs_id2name(const csModel* m, const char* kind, int id) {
  int n;
  const int* adr = kind_names(m, kind, &n);
  if (!adr || id < 0 || id >= n) return NULL;
  return m->names + adr[id];
}

/* Jacobi eigenvalue iteration on a symmetric 3x3. */
void csi_sym_eig3(const double* I, double eig[3], double* Vout) {
  double A[3][3] = {{I[0], I[3], I[4]}, {I[3], I[1], I[5]}, {I[4], I[5], I[2]}};
  double V[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = fabs(A[0][1]) + fabs(A[0][2]) + fabs(A[1][2]);
    double scale = fabs(A[0][0]) + fabs(A[1][1]) + fabs(A[2][2]);
    if (off <= 1e-300 || off <= 1e-17 * scale) break;
    for (int p = 0; p < 2; p++)
      for (int q = p + 1; q < 3; q++) {
        if (A[p][q] == 0) continue;
        double theta = (A[q][q] - A[p][p]) / (2 * A[p][q]);
        double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        double c = 1 / sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 3; k++) {
          double akp = A[k][p], akq = A[k][q];
          A[k][p] = c * akp - s * akq;
          A[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; k++) {
          double apk = A[p][k], aqk = A[q][k];
          A[p][k] = c * apk - s * aqk;
          A[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; k++) {
          double vkp = V[k][p], vkq = V[k][q];
          V[k][p] = c * vkp - s * vkq;
          V[k][q] = s * vkp + c * vkq;
        }
      }
  }
  int idx[3] = {0, 1, 2};
  for (int i = 0; i < 2; i++)
    for (int j = i + 1; j < 3; j++)
      if (A[idx[j]][idx[j]] < A[idx[i]][idx[i]]) {
        int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
      }
  for (int i = 0; i < 3; i++) {
    eig[i] = A[idx[i]][idx[i]];
    if (Vout)
      for (int k = 0; k < 3; k++) Vout[3 * k + i] = V[k][idx[i]];
  }
}
