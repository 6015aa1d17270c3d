/* contactsim: multibody simulation with frictional contact. Umbrella header. */
#ifndef CONTACTSIM_H
#define CONTACTSIM_H

#include "cs_contact.h"
#include "cs_data.h"
#include "cs_dynamics.h"
#include "cs_export.h"
#include "cs_io.h"
#include "cs_impact.h"
#include "cs_traj.h"
#include "cs_model.h"
#include "cs_parallel.h"

#define CS_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif
/* The library's version at run time (the project version of its build): "major.minor.patch"
   and 10000 major + 100 minor + patch. */
CS_API const char* cs_version_string(void);
CS_API int cs_version(void);
#ifdef __cplusplus
}
#endif

#endif
