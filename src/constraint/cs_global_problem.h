/* The global contact problem's internal checks (cs_global_problem.c), shared with its
   sources (the FCLIB global reader and writer, cs_global_from_data). */
#ifndef CS_GLOBAL_PROBLEM_H
#define CS_GLOBAL_PROBLEM_H

#include "contactsim/cs_contact.h"

/* CS_ERR_ARG naming fn if g is NULL, lacks an array, or its sizes disagree. */
csStatus csi_global_check(const csGlobalProblem* g, const char* fn);

#endif
