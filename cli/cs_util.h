/* Helpers shared by the contactsim tool (cli/) and the benchmark executables (bench/,
   experiments/), cs_util.c. Plain C, no contactsim internals. */
#ifndef CS_UTIL_H
#define CS_UTIL_H

#include <stdio.h>

/* Monotonic clock in nanoseconds. */
double cs_cli_now_ns(void);

/* qsort comparator of doubles, ascending. */
int cs_cli_cmp_double(const void* a, const void* b);
/* Median of v[0..n) (sorted in place); NaN if n <= 0. */
double cs_cli_median(double* v, long n);
/* s as a JSON string on f: quotes, backslashes and control characters escaped. */
void cs_cli_json_str(FILE* f, const char* s);
/* ,"key":x on f (%.6g), or ,"key":null if x is not finite. */
void cs_cli_json_num(FILE* f, const char* key, double x);
/* The whole of s as a decimal integer in [lo, hi] into *out: 1; else 0, *out untouched. */
int cs_cli_parse_long(const char* s, long lo, long hi, long* out);
int cs_cli_parse_int(const char* s, int lo, int hi, int* out);
/* The whole of s as a finite number into *out: 1; else 0, *out untouched. */
int cs_cli_parse_double(const char* s, double* out);

/* A subcommand of a benchmark executable: its name and entry point (argv[0] = the name). */
typedef struct csCliCommand {
  const char* name;
  int (*main)(int argc, char** argv);
} csCliCommand;
/* The main of a benchmark executable `exe`: argv[1] (after an optional "bench", as
   `contactsim bench NAME` hands it over) names one of cmds (NULL-name terminated); its
   entry runs with the arguments from the name on. No name or --help: the usage line listing
   the names (exit 2, or 0 for --help); an unknown name: exit 2. */
int cs_cli_dispatch(int argc, char** argv, const char* exe, const csCliCommand* cmds);

#endif
