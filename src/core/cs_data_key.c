/* Reset a csData to one of the model's keyframes (csModel.key_*). */
#include <string.h>

#include "contactsim/cs_data.h"
#include "contactsim/cs_model.h"
#include "core/cs_error.h"

csStatus cs_data_reset_key(const csModel* m, csData* d, int key) {
  if (!m || !d) return csi_error(CS_ERR_ARG, "cs_data_reset_key: NULL argument");
  if (key < 0 || key >= m->nkey)
    return csi_error(CS_ERR_ARG, "cs_data_reset_key: key %d is not in 0..%d (the model has %d)",
                     key, m->nkey - 1, m->nkey);
  cs_data_reset(m, d);
  memcpy(d->qpos, m->key_qpos + (size_t)key * m->nq, sizeof(double) * (size_t)m->nq);
  memcpy(d->qvel, m->key_qvel + (size_t)key * m->nv, sizeof(double) * (size_t)m->nv);
  memcpy(d->ctrl, m->key_ctrl + (size_t)key * m->nu, sizeof(double) * (size_t)m->nu);
  d->time = m->key_time[key];
  return CS_OK;
}
