/* The library's version at run time: the project version of CMakeLists.txt
   (CS_PROJECT_VERSION, defined by the build), or the header's CS_VERSION_STRING. */
#include <stdio.h>

#include "contactsim/contactsim.h"

#ifndef CS_PROJECT_VERSION
#define CS_PROJECT_VERSION CS_VERSION_STRING
#endif

const char* cs_version_string(void) { return CS_PROJECT_VERSION; }

int cs_version(void) {
  int major = 0, minor = 0, patch = 0;
  if (sscanf(CS_PROJECT_VERSION, "%d.%d.%d", &major, &minor, &patch) < 1) return 0;
  return 10000 * major + 100 * minor + patch;
}
