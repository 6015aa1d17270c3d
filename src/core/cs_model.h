/* Model internals: array layout shared by compile and copy. */
#ifndef CS_MODEL_INTERNAL_H
#define CS_MODEL_INTERNAL_H

#include "contactsim/cs_model.h"

/* Assign every array pointer of m (sizes already set) inside base (may be NULL to only
   measure). Returns the bytes needed. */
size_t csi_model_layout(csModel* m, void* base);

/* Fill the derived arrays of m (body_kind ... site_mat) from the others; called at the end
   of cs_compile. */
void csi_model_derive(csModel* m);

/* Eigenvalues (ascending) of a symmetric 3x3 given as xx yy zz xy xz yz; optional
   eigenvectors as columns of V (row-major). */
void csi_sym_eig3(const double* I, double eig[3], double* V);

#endif
