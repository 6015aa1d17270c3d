/* contactsim bench pile (bench_pile.c): the pile scene of docs/scenes.md at several sizes. */
#ifndef CS_BENCH_PILE_H
#define CS_BENCH_PILE_H

/* contactsim bench pile [--sizes N,N,..] [--solver S | --solvers S,S,..] [--seconds T]
   [--max-memory MB] [--dump-fclib DIR] [--json]: time per step, the solver's share, memory
   and settling of the pile of N boxes per size and solver, and the log-log slope of the
   time per step against N (bench_pile.c) */
int cs_bench_pile_main(int argc, char** argv);

#endif
