/* libxml2 helpers shared by the MJCF and URDF loaders (internal). Every error message
   names file:line and the element. */
#ifndef CS_IO_XML_H
#define CS_IO_XML_H

#include <libxml/tree.h>

#include "contactsim/cs_model.h"

/* Parse a file; on failure returns CS_ERR_IO (missing/unreadable) or CS_ERR_PARSE
   (malformed, with libxml2's line and message) and *doc = NULL. */
csStatus csi_xml_read(const char* path, xmlDocPtr* doc);
/* Name of an element as a C string. */
const char* csi_xml_name(const xmlNode* n);
/* Attribute text or NULL; the returned string must be freed with xmlFree. */
char* csi_xml_attr(const xmlNode* n, const char* name);
/* Parse exactly n numbers (whitespace separated) from attribute name. Returns 1 if the
   attribute is present and valid, 0 if absent (out untouched), -1 with cs_last_error set
   (file:line, element, attribute) if present but malformed or with the wrong count.
   With n < 0, accepts 1..-n numbers and returns the count read (>0). */
int csi_xml_doubles(const char* file, const xmlNode* n, const char* name, double* out, int count);
/* Same for ints. */
int csi_xml_ints(const char* file, const xmlNode* n, const char* name, int* out, int count);
/* Directory part of a path (with trailing '/'), into buf. */
void csi_path_dir(const char* path, char* buf, size_t nbuf);
/* Join dir and rel unless rel is absolute. */
void csi_path_join(const char* dir, const char* rel, char* buf, size_t nbuf);

#endif
