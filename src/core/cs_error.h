/* Errors, warnings, allocation hooks (internal). */
#ifndef CS_ERROR_H
#define CS_ERROR_H

#include <stddef.h>

#include "contactsim/cs_data.h"
#include "contactsim/cs_io.h"

/* Set the thread's last error text (printf-style) and return status. */
csStatus cs_error(csStatus status, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/* Count a warning in d; logs the first occurrence of each kind through the log hook. */
void cs_warning(csData* d, csWarningType w, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cs_log(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

void* cs_malloc(size_t n);
void* cs_calloc(size_t count, size_t size);
void* cs_realloc(void* p, size_t old_size, size_t new_size);
char* cs_strdup(const char* s);

#endif
