/* How much arena a csData needs (internal; docs/memory.md). */
#ifndef CS_DATA_MEMORY_H
#define CS_DATA_MEMORY_H

#include <stddef.h>

#include "contactsim/cs_data.h"

/* The arena cs_data_new gives: the model's memory, or cs_data_need at
   min(ncon_max, CS_NCON_ROOM) contacts; 0 if that overflows. */
size_t csi_data_arena_default(const csModel* m);
/* The most contacts (up to ncon_max) an arena of the given bytes holds with the model's
   current options; -1 if not even a step without contacts fits. */
int csi_data_room_bytes(const csModel* m, size_t arena);

#endif
