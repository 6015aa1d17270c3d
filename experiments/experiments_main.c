/* contactsim-experiments: the paper experiments, run by `contactsim bench
   single-contact|table2|contactbench ...` from a build tree: the tool hands over to this
   executable with its arguments unchanged. Also runs `contactsim-experiments NAME ...`. */
#include <stdio.h>
#include <string.h>

#include "cs_bench.h"

int main(int argc, char** argv) {
  int i = argc > 1 && !strcmp(argv[1], "bench") ? 2 : 1;
  if (i >= argc || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
    fprintf(i >= argc ? stderr : stdout,
            "usage: contactsim bench NAME [options]  (or contactsim-experiments NAME [options])\n"
            "  single-contact, table2, contactbench; `contactsim bench NAME --help` for each\n");
    return i >= argc ? 2 : 0;
  }
  if (!strcmp(argv[i], "single-contact")) return cs_bench_single_main(argc - i, argv + i);
  if (!strcmp(argv[i], "contactbench")) return cs_bench_contactbench_main(argc - i, argv + i);
  if (!strcmp(argv[i], "table2")) return cs_bench_table2_main(argc - i, argv + i);
  fprintf(stderr, "contactsim bench: unknown benchmark '%s' (try --help)\n", argv[i]);
  return 2;
}
