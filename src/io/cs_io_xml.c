#include "io/cs_io_xml.h"

#include <errno.h>
#include <libxml/parser.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cs_error.h"

csStatus csi_xml_read(const char* path, xmlDocPtr* doc) {
  *doc = NULL;
  if (!path || access(path, R_OK) != 0)
    return csi_error(CS_ERR_IO, "%s: cannot open file (%s)", path ? path : "(null)",
                     strerror(errno));
  xmlDocPtr d = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!d) {
    const xmlError* e = xmlGetLastError();
    if (e && e->message) {
      char msg[512];
      snprintf(msg, sizeof msg, "%s", e->message);
      size_t l = strlen(msg);
      while (l && (msg[l - 1] == '\n' || msg[l - 1] == ' ')) msg[--l] = 0;
      return csi_error(CS_ERR_PARSE, "%s:%d: malformed XML: %s", path, e->line, msg);
    }
    return csi_error(CS_ERR_PARSE, "%s: malformed XML", path);
  }
  if (!xmlDocGetRootElement(d)) {
    xmlFreeDoc(d);
    return csi_error(CS_ERR_PARSE, "%s: empty XML document", path);
  }
  *doc = d;
  return CS_OK;
}

const char* csi_xml_name(const xmlNode* n) { return (const char*)n->name; }

char* csi_xml_attr(const xmlNode* n, const char* name) {
  return (char*)xmlGetProp((xmlNode*)n, (const xmlChar*)name);
}

static int parse_list(const char* file, const xmlNode* n, const char* name, double* out, int count,
                      int is_int) {
  char* s = csi_xml_attr(n, name);
  if (!s) return 0;
  int want = count < 0 ? -count : count;
  int got = 0;
  const char* p = s;
  char* end;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',') p++;
    if (!*p) break;
    errno = 0;
    double v = strtod(p, &end);
    if (end == p || !isfinite(v)) {
      csi_error(CS_ERR_PARSE, "%s:%d: <%s %s=\"%s\">: not a finite number", file, n->line,
                csi_xml_name(n), name, s);
      xmlFree(s);
      return -1;
    }
    if (is_int && v != floor(v)) {
      csi_error(CS_ERR_PARSE, "%s:%d: <%s %s=\"%s\">: expected integers", file, n->line,
                csi_xml_name(n), name, s);
      xmlFree(s);
      return -1;
    }
    if (got >= want) {
      got++;
      break;
    }
    out[got++] = v;
    p = end;
  }
  if ((count >= 0 && got != count) || (count < 0 && (got < 1 || got > want))) {
    csi_error(CS_ERR_PARSE, "%s:%d: <%s %s=\"%s\">: expected %s%d number%s", file, n->line,
              csi_xml_name(n), name, s, count < 0 ? "1 to " : "", want, want > 1 ? "s" : "");
    xmlFree(s);
    return -1;
  }
  xmlFree(s);
  return count < 0 ? got : 1;
}

int csi_xml_doubles(const char* file, const xmlNode* n, const char* name, double* out, int count) {
  return parse_list(file, n, name, out, count, 0);
}

int csi_xml_ints(const char* file, const xmlNode* n, const char* name, int* out, int count) {
  double tmp[64];
  int want = count < 0 ? -count : count;
  if (want > 64) return -1;
  int r = parse_list(file, n, name, tmp, count, 1);
  if (r > 0) {
    int k = count < 0 ? r : count;
    for (int i = 0; i < k; i++) out[i] = (int)tmp[i];
  }
  return r;
}

void csi_path_dir(const char* path, char* buf, size_t nbuf) {
  const char* slash = strrchr(path, '/');
  if (!slash) {
    snprintf(buf, nbuf, "./");
    return;
  }
  size_t l = (size_t)(slash - path) + 1;
  if (l >= nbuf) l = nbuf - 1;
  memcpy(buf, path, l);
  buf[l] = 0;
}

void csi_path_join(const char* dir, const char* rel, char* buf, size_t nbuf) {
  if (rel[0] == '/' || !dir || !*dir)
    snprintf(buf, nbuf, "%s", rel);
  else
    snprintf(buf, nbuf, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", rel);
}
