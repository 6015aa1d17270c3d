/* Lemke's complementary pivoting for small dense LCPs (internal; docs/solvers.md "Names",
   Lemke's method"): find z >= 0 with w = M z + q >= 0 and z^T w = 0.

   Covering vector d = 1, a dense inverse of the basis kept in the workspace (the revised
   form of the tableau [I | -M | -d | q]: n x n instead of n x 2n), lexicographic ratio test
   (degeneracy-safe: no cycling on degenerate problems such as redundant contacts), and a
   pivot cap, so it always returns. Terminates with a solution for copositive-plus M and
   feasible problems (Lemke's theorem, e.g. PSD M, or the Stewart-Trinkle contact LCP);
   otherwise it may end on a secondary ray, which is reported, not hidden. */
#ifndef CS_LEMKE_H
#define CS_LEMKE_H

#include <stddef.h>

enum {
  CSI_LEMKE_OK = 0,  /* solution in z */
  CSI_LEMKE_RAY = 1, /* ray termination: no solution found (z holds the last iterate) */
  CSI_LEMKE_CAP = 2, /* pivot cap reached (z holds the last iterate) */
  CSI_LEMKE_ARG = -1 /* bad input (n <= 0, NULL pointers, non-finite data) */
};

/* Column j (0 <= j < n) of M into col (n). */
typedef void (*csiLemkeColumn)(void* ctx, int j, double* col);

/* Workspace bytes of csi_lemke and csi_lemke_cols for an LCP of size n. */
size_t csi_lemke_workspace(int n);

/* Dense M (n x n, row-major). Returns a CSI_LEMKE_* status; z (n) receives the solution. */
int csi_lemke(int n, const double* M, const double* q, double* z, void* ws, int max_pivots);

/* The same with M given by columns (M need not be stored), and the number of pivots done
   (may be NULL). */
int csi_lemke_cols(int n, csiLemkeColumn column, void* ctx, const double* q, double* z, void* ws,
                   int max_pivots, int* pivots);

#endif
