/* Subcommands of the contactsim tool. Each returns a process exit code:
   0 success, 1 failure (model error, numerical failure), 2 bad usage. */
#ifndef CS_CLI_H
#define CS_CLI_H

#include "contactsim/contactsim.h"

int cs_cli_run(int argc, char** argv);
int cs_cli_check(int argc, char** argv);
int cs_cli_demo(int argc, char** argv);
/* contactsim fclib info|solve FILE ... (cli_fclib.c) */
int cs_cli_fclib(int argc, char** argv);
/* contactsim impact EXAMPLE ... (cli_impact.c) */
int cs_cli_impact(int argc, char** argv);

/* Common model options: --fixed-base, --floating-base, --package-path P. Returns the index
   of the next unparsed argument, or -1 on a bad option (message printed). */
int cs_cli_model_option(int argc, char** argv, int i, csLoadOptions* o, int* consumed);
csModel* cs_cli_load(const char* path, const csLoadOptions* o);
/* Directory of contactsim's model files (the .xml files of models/), the first of: env
   CONTACTSIM_MODELS, <exe dir>/../share/contactsim/models (installed), <exe dir>/models (build
   tree) (cs_cli_paths.c). */
const char* cs_cli_models_dir(void);
/* Directory of the running executable (/proc/self/exe), or NULL if unknown. */
const char* cs_cli_exe_dir(void);

#endif
