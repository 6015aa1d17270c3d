/* Minimal test helpers shared by every test executable. */
#ifndef CS_TEST_H
#define CS_TEST_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern int cs_test_failures;
extern int cs_test_checks;

#define CS_SKIP_CODE 77

#define CHECK(cond)                                                            \
  do {                                                                         \
    cs_test_checks++;                                                          \
    if (!(cond)) {                                                             \
      cs_test_failures++;                                                      \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_MSG(cond, ...)                                                   \
  do {                                                                         \
    cs_test_checks++;                                                          \
    if (!(cond)) {                                                             \
      cs_test_failures++;                                                      \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
    }                                                                          \
  } while (0)

/* |a - b| <= tol * max(1, scale) style checks are spelled out by the caller; this one is
   absolute. */
#define CHECK_NEAR(a, b, tol)                                                                 \
  do {                                                                                        \
    double cs_a_ = (a), cs_b_ = (b);                                                          \
    cs_test_checks++;                                                                         \
    if (!(fabs(cs_a_ - cs_b_) <= (tol))) {                                                    \
      cs_test_failures++;                                                                     \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g, tol %g\n", __FILE__, \
              __LINE__, #a, cs_a_, #b, cs_b_, (double)(tol));                                 \
    }                                                                                         \
  } while (0)

/* Prints "N passed, M failed" and returns the process exit code. */
int cs_test_finish(const char* name);

/* Path of a file under ../shared (env CS_SHARED_DIR); NULL if shared/ is absent.
   Tests that need it return CS_SKIP_CODE when NULL. Result in a static buffer. */
const char* cs_test_shared(const char* rel);
/* Path of a file under the source tree (env CS_SOURCE_DIR). Static buffer. */
const char* cs_test_source(const char* rel);

/* Deterministic random numbers for tests. */
void cs_test_seed(unsigned long long seed);
double cs_test_uniform(double lo, double hi);
double cs_test_gauss(void);

/* Max |a-b| / max(max|b|, floor). */
double cs_test_relerr(const double* a, const double* b, int n, double floor);

struct csiCollGeom;
struct csBuilder;
struct csBodySpec;

/* A random unit quaternion (w, x, y, z): four cs_test_gauss draws, normalized. */
void cs_test_random_quat(double q[4]);
/* The rotation matrix (row-major) of cs_test_random_quat. */
void cs_test_random_rot(double R[9]);
/* A collision geom of the given type, sizes, position and rotation matrix, all else zero,
   rbound that of a sphere, capsule, cylinder or box (0 for other types). */
void cs_test_geom(struct csiCollGeom* g, int type, double s0, double s1, double s2,
                  const double pos[3], const double mat[9]);
/* Adds body bs to b with a free joint named "free"; returns the body's index. */
int cs_test_add_free_body(struct csBuilder* b, const struct csBodySpec* bs);
/* Writes text to dir/name; returns the path (one of four static buffers, used in turn) or NULL
   if the file cannot be written. */
const char* cs_test_write_file(const char* dir, const char* name, const char* text);
/* Adds a ground plane and n free 1 kg cubes of 0.1 m resting on it (0.1 mm deep) in rows of
   8, 0.3 m apart: four contacts each. */
void cs_test_box_grid(struct csBuilder* b, int n);

#endif
