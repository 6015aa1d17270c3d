/* Helpers shared by the contactsim tool and the benchmark executables (cs_util.h). */
#define _POSIX_C_SOURCE 200809L
#include "cs_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "contactsim/contactsim.h"

double cs_cli_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int cs_cli_cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

double cs_cli_median(double* v, long n) {
  if (n <= 0) return NAN;
  qsort(v, (size_t)n, sizeof(double), cs_cli_cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void cs_cli_json_str(FILE* f, const char* s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 32)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

void cs_cli_json_num(FILE* f, const char* key, double x) {
  if (isfinite(x))
    fprintf(f, ",\"%s\":%.6g", key, x);
  else
    fprintf(f, ",\"%s\":null", key);
}

int cs_cli_parse_long(const char* s, long lo, long hi, long* out) {
  if (!s || !*s) return 0;
  char* end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

int cs_cli_parse_int(const char* s, int lo, int hi, int* out) {
  long v;
  if (!cs_cli_parse_long(s, lo, hi, &v)) return 0;
  *out = (int)v;
  return 1;
}

int cs_cli_parse_double(const char* s, double* out) {
  if (!s || !*s) return 0;
  char* end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || *end || !isfinite(v)) return 0;
  *out = v;
  return 1;
}

/* 1 while a bar is the last thing on stderr's line */
static int bar_on_line = 0;

/* The library's log: the bar's line cleared first, then as the library's default */
static void progress_log(const char* msg) {
  if (bar_on_line) fprintf(stderr, "\r%100s\r", "");
  bar_on_line = 0;
  fprintf(stderr, "contactsim: %s\n", msg);
}

void cs_cli_progress_start(csCliProgress* p) {
  p->tty = isatty(2);
  if (p->tty) cs_set_log(progress_log);
  p->shown = 0;
  p->t0 = p->last = cs_cli_now_ns();
}

static void progress_draw(const char* label, long done, long total, const char* unit) {
  enum { WIDTH = 30 };
  int full = total > 0 ? (int)((double)WIDTH * (double)done / (double)total) : WIDTH;
  char bar[WIDTH + 1];
  for (int i = 0; i < WIDTH; i++) bar[i] = i < full ? '#' : '.';
  bar[WIDTH] = 0;
  int pct = total > 0 ? (int)(100.0 * (double)done / (double)total) : 100;
  fprintf(stderr, "\r%s [%s] %3d%% (%ld of %ld %s)", label, bar, pct, done, total, unit);
  fflush(stderr);
  bar_on_line = 1;
}

void cs_cli_progress(csCliProgress* p, const char* label, long done, long total, const char* unit) {
  if (!p->tty) return;
  double now = cs_cli_now_ns();
  if (now - p->t0 < 2e9 || now - p->last < 0.25e9) return;
  p->last = now;
  p->shown = 1;
  progress_draw(label, done, total, unit);
}

void cs_cli_progress_end(csCliProgress* p, const char* label, long total, const char* unit) {
  if (!p->shown) return;
  progress_draw(label, total, total, unit);
  fputc('\n', stderr);
  bar_on_line = 0;
  p->shown = 0;
}

int cs_cli_once(const char* cmd, const char* opt, unsigned* seen, unsigned bit) {
  if (*seen & bit) {
    fprintf(stderr, "contactsim %s: %s given twice\n", cmd, opt);
    return 0;
  }
  *seen |= bit;
  return 1;
}

int cs_cli_needs_value(const char* cmd, int argc, char** argv, int i) {
  if (i + 1 < argc) return 1;
  fprintf(stderr, "contactsim %s: %s needs a value (try --help)\n", cmd, argv[i]);
  return 0;
}

int cs_cli_number(const char* cmd, const char* opt, const char* s, double lo, int lo_open,
                  double hi, const char* what, double* out) {
  double v;
  if (cs_cli_parse_double(s, &v) && (lo_open ? v > lo : v >= lo) && v <= hi) {
    *out = v;
    return 1;
  }
  fprintf(stderr, "contactsim %s: %s '%s': %s\n", cmd, opt, s, what);
  return 0;
}

int cs_cli_count(const char* cmd, const char* opt, const char* s, long lo, long hi, long* out) {
  if (cs_cli_parse_long(s, lo, hi, out)) return 1;
  fprintf(stderr, "contactsim %s: %s '%s': not a whole number from %ld to %ld\n", cmd, opt, s, lo,
          hi);
  return 0;
}

int cs_cli_dispatch(int argc, char** argv, const char* exe, const csCliCommand* cmds) {
  int i = argc > 1 && !strcmp(argv[1], "bench") ? 2 : 1;
  if (i >= argc || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
    FILE* f = i >= argc ? stderr : stdout;
    fprintf(f, "usage: contactsim bench NAME [options]  (or %s NAME [options])\n ", exe);
    for (const csCliCommand* c = cmds; c->name; c++)
      fprintf(f, " %s%s", c->name, c[1].name ? "," : ";");
    fprintf(f, " `contactsim bench NAME --help` for each\n");
    return i >= argc ? 2 : 0;
  }
  for (const csCliCommand* c = cmds; c->name; c++)
    if (!strcmp(argv[i], c->name)) return c->main(argc - i, argv + i);
  fprintf(stderr, "contactsim bench: unknown benchmark '%s' (try --help)\n", argv[i]);
  return 2;
}
