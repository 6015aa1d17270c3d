#include "core/cs_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/cs_io.h"

static _Thread_local char cs_errbuf[2048] = "no error";
static csMallocFn cs_malloc_fn = NULL;
static csFreeFn cs_free_fn = NULL;

static void default_log(const char* msg) { fprintf(stderr, "contactsim: %s\n", msg); }
static csLogFn cs_log_fn = default_log;

const char* cs_last_error(void) { return cs_errbuf; }

const char* cs_status_name(csStatus s) {
  switch (s) {
    case CS_OK:
      return "ok";
    case CS_ERR_IO:
      return "io error";
    case CS_ERR_PARSE:
      return "parse error";
    case CS_ERR_MODEL:
      return "model error";
    case CS_ERR_ARG:
      return "bad argument";
    case CS_ERR_STATE:
      return "bad state";
    case CS_ERR_MEMORY:
      return "out of memory";
    case CS_ERR_NUMERIC:
      return "numerical error";
    case CS_ERR_UNSUPPORTED:
      return "unsupported";
  }
  return "unknown status";
}

csStatus csi_error(csStatus status, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cs_errbuf, sizeof cs_errbuf, fmt, ap);
  va_end(ap);
  return status;
}

void cs_set_log(csLogFn fn) { cs_log_fn = fn; }

void csi_log(const char* fmt, ...) {
  if (!cs_log_fn) return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  cs_log_fn(buf);
}

void csi_warning(csData* d, csWarningType w, const char* fmt, ...) {
  if (!d || (int)w < 0 || w >= CS_WARN_COUNT) return;
  d->warning[w].count++;
  d->warning[w].last_time = d->time;
  if (d->warning[w].count == 1 && cs_log_fn) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    csi_log("warning at t = %g: %s (further ones counted in d->warning)", d->time, buf);
  }
}

void cs_set_allocator(csMallocFn m, csFreeFn f) {
  cs_malloc_fn = m;
  cs_free_fn = f;
}

void* csi_malloc(size_t n) {
  if (n == 0) n = 1;
  return cs_malloc_fn ? cs_malloc_fn(n) : malloc(n);
}

void* csi_calloc(size_t count, size_t size) {
  if (size && count > (size_t)-1 / size) return NULL;
  void* p = csi_malloc(count * size);
  if (p) memset(p, 0, count * size);
  return p;
}

void* csi_realloc(void* p, size_t old_size, size_t new_size) {
  void* q = csi_malloc(new_size);
  if (!q) return NULL;
  if (p) {
    memcpy(q, p, old_size < new_size ? old_size : new_size);
    cs_free(p);
  }
  return q;
}

void cs_free(void* p) {
  if (!p) return;
  if (cs_free_fn)
    cs_free_fn(p);
  else
    free(p);
}

char* csi_strdup(const char* s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char* r = csi_malloc(n);
  if (r) memcpy(r, s, n);
  return r;
}
