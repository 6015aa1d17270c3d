/* contactsim-experiments: the paper experiments, run by `contactsim bench
   single-contact|table2|contactbench ...` from a build tree: the tool hands over to this
   executable with its arguments unchanged. Also runs `contactsim-experiments NAME ...`. */
#include "cs_bench.h"

int main(int argc, char** argv) {
  static const csCliCommand cmds[] = {{"single-contact", cs_bench_single_main},
                                      {"table2", cs_bench_table2_main},
                                      {"contactbench", cs_bench_contactbench_main},
                                      {NULL, NULL}};
  return cs_cli_dispatch(argc, argv, "contactsim-experiments", cmds);
}
