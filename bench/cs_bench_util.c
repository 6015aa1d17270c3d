/* The ANYmal task names of the benchmarks (cs_bench.h). */
#include <string.h>

#include "cs_bench.h"

const char* const cs_bench_anymal_tasks[] = {"hang", "drop", "trot", "random", NULL};

int cs_bench_anymal_task_ok(const char* v) {
  if (!v) return 0;
  int ok = !strcmp(v, "all");
  for (int t = 0; cs_bench_anymal_tasks[t]; t++) ok |= !strcmp(v, cs_bench_anymal_tasks[t]);
  return ok;
}
