#include <stdio.h>

#include "cs_test.h"
#include "cs_test_models.h"

csModel* cs_test_load_shared(const char* rel, int floating) {
  const char* path = cs_test_shared(rel);
  if (!path) return NULL;
  csLoadOptions o;
  cs_load_options_default(&o);
  o.floating_base = floating;
  csModel* m = NULL;
  if (cs_load_model(path, &o, &m) != CS_OK) {
    fprintf(stderr, "cannot load %s: %s\n", path, cs_last_error());
    return NULL;
  }
  return m;
}
