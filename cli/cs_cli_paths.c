/* Where the executables find their files: no source-tree path is compiled in. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cs_cli.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

const char* cs_cli_exe_dir(void) {
  static char dir[PATH_MAX];
  static int done = 0;
  if (!done) {
    done = 1;
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0) {
      dir[0] = 0;
    } else {
      dir[n] = 0;
      char* slash = strrchr(dir, '/');
      if (slash == dir)
        dir[1] = 0; /* the executable is in / */
      else if (slash)
        *slash = 0;
      else
        dir[0] = 0;
    }
  }
  return dir[0] ? dir : NULL;
}

static int is_dir(const char* p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char* cs_cli_models_dir(void) {
  static char path[PATH_MAX + 64];
  const char* e = getenv("CONTACTSIM_MODELS");
  if (e && *e) return e;
  if (path[0]) return path;
  const char* exe = cs_cli_exe_dir();
  if (!exe) return "models"; /* no /proc: relative to the working directory */
  char up[PATH_MAX + 64], canon[PATH_MAX];
  snprintf(up, sizeof up, "%s/../share/contactsim/models", exe); /* installed */
  if (is_dir(up)) {
    snprintf(path, sizeof path, "%s", realpath(up, canon) ? canon : up);
    return path;
  }
  snprintf(path, sizeof path, "%s/models", exe); /* build tree, copied there by CMake */
  return path;
}
