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

/* A progress bar on stderr for long runs: drawn only when stderr is a terminal, from two
   seconds after cs_cli_progress_start, at most four times a second, as
   "LABEL [######......]  42% (DONE of TOTAL UNIT)" over one line; cs_cli_progress_end
   draws it full and ends the line if it was drawn. On a terminal the library's log
   (cs_set_log) is set to clear the bar's line before a message. */
typedef struct csCliProgress {
  int tty, shown;
  double t0, last; /* ns */
} csCliProgress;
void cs_cli_progress_start(csCliProgress* p);
void cs_cli_progress(csCliProgress* p, const char* label, long done, long total, const char* unit);
void cs_cli_progress_end(csCliProgress* p, const char* label, long total, const char* unit);

/* Option checks of the contactsim tool, each message "contactsim CMD: OPT ..." on stderr:
   cs_cli_once: 1 the first time opt is met (bit set in *seen), else 0 with "given twice";
   cs_cli_needs_value: 1 if argv[i + 1] exists, else 0 with "needs a value". */
int cs_cli_once(const char* cmd, const char* opt, unsigned* seen, unsigned bit);
int cs_cli_needs_value(const char* cmd, int argc, char** argv, int i);
/* The whole of s as a finite number in [lo, hi] (lo_open: > lo) into *out: 1; else 0 with
   "contactsim CMD: OPT 'S': WHAT" (WHAT: e.g. "must be a number > 0") */
int cs_cli_number(const char* cmd, const char* opt, const char* s, double lo, int lo_open,
                  double hi, const char* what, double* out);
/* The whole of s as a decimal integer in [lo, hi]: 1; else 0 with
   "contactsim CMD: OPT 'S': not a whole number from LO to HI" */
int cs_cli_count(const char* cmd, const char* opt, const char* s, long lo, long hi, long* out);

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
