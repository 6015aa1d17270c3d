#include <stdio.h>
#include <string.h>

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

csModel* cs_test_load_text(const char* dir, const char* name, const char* text,
                           const csLoadOptions* o) {
  const char* path = cs_test_write_file(dir, name, text);
  CHECK_MSG(path != NULL, "%s: cannot write it in %s", name, dir);
  if (!path) return NULL;
  csModel* m = NULL;
  csStatus st = cs_load_model(path, o, &m);
  CHECK_MSG(st == CS_OK, "%s: %s", name, cs_last_error());
  return m;
}

csModel* cs_test_load_text_fixed(const char* dir, const char* name, const char* text) {
  csLoadOptions o;
  cs_load_options_default(&o);
  o.floating_base = 0;
  return cs_test_load_text(dir, name, text, &o);
}

void cs_test_expect_load_error(const char* dir, const char* name, const char* text, csStatus want,
                               int line, const char* also) {
  const char* path = cs_test_write_file(dir, name, text);
  CHECK_MSG(path != NULL, "%s: cannot write it in %s", name, dir);
  if (!path) return;
  csModel* m = NULL;
  csStatus st = cs_load_model(path, NULL, &m);
  const char* e = cs_last_error();
  CHECK_MSG(st == want, "%s: status %s, want %s (%s)", name, cs_status_name(st),
            cs_status_name(want), e);
  CHECK(m == NULL);
  if (m) cs_model_free(m);
  char where[128];
  snprintf(where, sizeof where, "%s:%d:", name, line);
  CHECK_MSG(strstr(e, where) != NULL, "%s: message lacks '%s': %s", name, where, e);
  CHECK_MSG(strstr(e, also) != NULL, "%s: message lacks '%s': %s", name, also, e);
}

void cs_test_mesh_read_fails(csTestMeshReader read, const char* what, const char* path,
                             csStatus want, const char* also) {
  int nv = 5, nf = 5;
  double* v = (double*)1;
  int* f = (int*)1;
  csStatus st = read(path, &nv, &v, &nf, &f);
  CHECK_MSG(st == want, "%s: status %s, want %s (%s)", what, cs_status_name(st),
            cs_status_name(want), cs_last_error());
  const char* base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  CHECK_MSG(strstr(cs_last_error(), base) != NULL, "%s: message does not name the file: %s", what,
            cs_last_error());
  if (also)
    CHECK_MSG(strstr(cs_last_error(), also) != NULL, "%s: message lacks '%s': %s", what, also,
              cs_last_error());
  CHECK(nv == 0 && nf == 0 && v == NULL && f == NULL);
  if (st == CS_OK) {
    cs_free(v);
    cs_free(f);
  }
}
