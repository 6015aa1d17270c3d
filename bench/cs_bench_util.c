#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "cs_bench.h"

double cs_bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
