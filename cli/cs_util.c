/* Helpers shared by the contactsim tool and the benchmark executables (cs_util.h). */
#define _POSIX_C_SOURCE 200809L
#include "cs_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
