/* Sobol points for Algorithm 2 (docs/impacts.md): dimension 1 is van der Corput's sequence,
   dimensions 2 to 51 use the primitive polynomials and initial direction numbers of Joe and
   Kuo's table new-joe-kuo-6.21201 (S. Joe and F. Y. Kuo, SIAM J. Sci. Comput. 30 (2008)
   2635-2654; docs/references.md). Point i is the XOR of the direction numbers of the set
   bits of i (natural order), so any point is computed from its index alone. */
#include "impact/cs_impact.h"

enum { NDIM = 51, NBIT = 32 };

/* Per dimension 2..51: degree s, coefficient a, then m_1..m_s (Joe-Kuo's table). */
static const unsigned short joe_kuo[NDIM - 1][10] = {
    {1, 0, 1},
    {2, 1, 1, 3},
    {3, 1, 1, 3, 1},
    {3, 2, 1, 1, 1},
    {4, 1, 1, 1, 3, 3},
    {4, 4, 1, 3, 5, 13},
    {5, 2, 1, 1, 5, 5, 17},
    {5, 4, 1, 1, 5, 5, 5},
    {5, 7, 1, 1, 7, 11, 19},
    {5, 11, 1, 1, 5, 1, 1},
    {5, 13, 1, 1, 1, 3, 11},
    {5, 14, 1, 3, 5, 5, 31},
    {6, 1, 1, 3, 3, 9, 7, 49},
    {6, 13, 1, 1, 1, 15, 21, 21},
    {6, 16, 1, 3, 1, 13, 27, 49},
    {6, 19, 1, 1, 1, 15, 7, 5},
    {6, 22, 1, 3, 1, 15, 13, 25},
    {6, 25, 1, 1, 5, 5, 19, 61},
    {7, 1, 1, 3, 7, 11, 23, 15, 103},
    {7, 4, 1, 3, 7, 13, 13, 15, 69},
    {7, 7, 1, 1, 3, 13, 7, 35, 63},
    {7, 8, 1, 3, 5, 9, 1, 25, 53},
    {7, 14, 1, 3, 1, 13, 9, 35, 107},
    {7, 19, 1, 3, 1, 5, 27, 61, 31},
    {7, 21, 1, 1, 5, 11, 19, 41, 61},
    {7, 28, 1, 3, 5, 3, 3, 13, 69},
    {7, 31, 1, 1, 7, 13, 1, 19, 1},
    {7, 32, 1, 3, 7, 5, 13, 19, 59},
    {7, 37, 1, 1, 3, 9, 25, 29, 41},
    {7, 41, 1, 3, 5, 13, 23, 1, 55},
    {7, 42, 1, 3, 7, 3, 13, 59, 17},
    {7, 50, 1, 3, 1, 3, 5, 53, 69},
    {7, 55, 1, 1, 5, 5, 23, 33, 13},
    {7, 56, 1, 1, 7, 7, 1, 61, 123},
    {7, 59, 1, 1, 7, 9, 13, 61, 49},
    {7, 62, 1, 3, 3, 5, 3, 55, 33},
    {8, 14, 1, 3, 1, 15, 31, 13, 49, 245},
    {8, 21, 1, 3, 5, 15, 31, 59, 63, 97},
    {8, 22, 1, 3, 1, 11, 11, 11, 77, 249},
    {8, 38, 1, 3, 1, 11, 27, 43, 71, 9},
    {8, 47, 1, 1, 7, 15, 21, 11, 81, 45},
    {8, 49, 1, 3, 7, 3, 25, 31, 65, 79},
    {8, 50, 1, 3, 1, 1, 19, 11, 3, 205},
    {8, 52, 1, 1, 5, 9, 19, 21, 29, 157},
    {8, 56, 1, 3, 7, 11, 1, 33, 89, 185},
    {8, 67, 1, 3, 3, 3, 15, 9, 79, 71},
    {8, 70, 1, 3, 7, 11, 15, 39, 119, 27},
    {8, 84, 1, 1, 3, 1, 11, 31, 97, 225},
    {8, 97, 1, 1, 1, 3, 23, 43, 57, 177},
    {8, 103, 1, 3, 7, 7, 17, 17, 37, 71},
};

/* Direction number j (0-based) of dimension d (0-based), scaled to 32 bits. */
static unsigned direction(int d, int j) {
  if (d == 0) return 1u << (NBIT - 1 - j);
  const unsigned short* r = joe_kuo[d - 1];
  int s = r[0];
  unsigned a = r[1], v[NBIT];
  for (int k = 0; k <= j; k++) {
    if (k < s) {
      v[k] = (unsigned)r[2 + k] << (NBIT - 1 - k);
      continue;
    }
    unsigned x = v[k - s] ^ (v[k - s] >> s);
    for (int i = 1; i < s; i++)
      if ((a >> (s - 1 - i)) & 1u) x ^= v[k - i];
    v[k] = x;
  }
  return v[j];
}

int cs_impact_sobol_dims(void) { return NDIM; }

double cs_impact_sobol(unsigned index, int dim) {
  if (dim < 0 || dim >= NDIM) return 0;
  unsigned x = 0;
  for (int j = 0; index; j++, index >>= 1)
    if (index & 1u) x ^= direction(dim, j);
  return x / 4294967296.0;
}

void csi_imp_sobol_table(unsigned* dirs) {
  for (int d = 0; d < NDIM; d++)
    for (int j = 0; j < NBIT; j++) dirs[d * NBIT + j] = direction(d, j);
}
