/* Benchmark drivers behind `contactsim bench <name>`. Each returns a process exit code.
   Benchmarks print one JSON object per line with --json, a human table otherwise. */
#ifndef CS_BENCH_H
#define CS_BENCH_H

/* contactsim bench dynamics --model FILE [--floating 0|1] [--repeats N] [--json] */
int cs_bench_dynamics_main(int argc, char** argv);

/* Monotonic clock in nanoseconds. */
double cs_bench_now_ns(void);

#endif
