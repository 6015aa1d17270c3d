/* contactsim: multibody simulation with frictional contact. Umbrella header. */
#ifndef CONTACTSIM_H
#define CONTACTSIM_H

#include "cs_contact.h"
#include "cs_data.h"
#include "cs_dynamics.h"
#include "cs_export.h"
#include "cs_io.h"
#include "cs_impact.h"
#include "cs_model.h"
#include "cs_parallel.h"

#define CS_VERSION_STRING "0.1.0"

#endif
