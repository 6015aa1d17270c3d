/* Errors, warnings, allocation hooks (internal). */
#ifndef CS_ERROR_H
#define CS_ERROR_H

#include <stddef.h>

#include "contactsim/cs_data.h"
#include "contactsim/cs_io.h"

/* Set the thread's last error text (printf-style) and return status. */
csStatus csi_error(csStatus status, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/* Count a warning in d; logs the first occurrence of each kind through the log hook. */
void csi_warning(csData* d, csWarningType w, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
void csi_log(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

void* csi_malloc(size_t n);
void* csi_calloc(size_t count, size_t size);
void* csi_realloc(void* p, size_t old_size, size_t new_size);
char* csi_strdup(const char* s);

#endif
