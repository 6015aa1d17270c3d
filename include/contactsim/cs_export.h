/* Symbol visibility for the contactsim library. */
#ifndef CONTACTSIM_CS_EXPORT_H
#define CONTACTSIM_CS_EXPORT_H

#if defined(CS_BUILDING_LIBRARY)
#define CS_API __attribute__((visibility("default")))
#else
#define CS_API
#endif

#endif
