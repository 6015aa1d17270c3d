/* Each contact's contact of the last step (same geom pair and feature id), for the warm start
   and the stiction anchor (internal; src/constraint/cs_contact_match.c). */
#ifndef CS_CONTACT_MATCH_H
#define CS_CONTACT_MATCH_H

#include <stddef.h>

#include "contactsim/cs_data.h"

/* Below this many contacts of the last step a search in order is as fast as hashing. */
enum { CSI_MATCH_HASH_MIN = 24 };

/* 1 if contacts a and b have the same geom pair and feature id (one contact, two steps). */
static inline int csi_contact_same_key(const csContact* a, const csContact* b) {
  return a->geom[0] == b->geom[0] && a->geom[1] == b->geom[1] && a->feature == b->feature;
}

/* The index in d->contact_prev of the first contact with c's key, or -1: a search in order,
   as fast as a hash table for the few contacts of a robot on the ground. */
static inline int csi_contact_previous(const csData* d, const csContact* c) {
  for (int j = 0; j < d->ncon_prev; j++)
    if (csi_contact_same_key(d->contact_prev + j, c)) return j;
  return -1;
}

/* Scratch bytes csi_contact_match's hash table needs for ncon_prev contacts of the last
   step; 0 where so few that a search in order is as fast (the caller then searches). */
size_t csi_contact_match_bytes(int ncon_prev);

/* prev[i] = the index in d->contact_prev of contact i's match (the first one, as a search in
   order finds it), or -1: a search in order for few contacts, a hash table of the last
   step's keys (in scratch, csi_contact_match_bytes) for many, so the cost grows with the
   contacts, not with their square. */
void csi_contact_match(const csData* d, int* prev, void* scratch);

#endif
