/* Collision detection internals: the geometry a pair function sees and the pair table.

   A pair function gets two geoms already placed in the world, with type(a) <= type(b)
   (csGeomType order: plane, sphere, capsule, cylinder, box, mesh, hfield, ellipsoid), and
   writes up to
   CSI_MAX_PAIR_CONTACTS contacts whose signed distance is <= margin. For each contact it
   fills pos (the point midway between the two surfaces), frame[0..2] (the unit normal n,
   pointing from a into b: moving b along +n separates the pair), dist (signed distance
   along n, negative when penetrating) and feature (an id of the feature pair that stays the
   same while the contact persists, for warm starting). The driver fills the tangents,
   friction and geom ids. Pair functions allocate nothing and keep no state. */
#ifndef CS_COLLISION_H
#define CS_COLLISION_H

#include "contactsim/cs_contact.h"
#include "contactsim/cs_data.h"
#include "math/cs_math.h"

#define CSI_MAX_PAIR_CONTACTS 8

typedef struct csiCollGeom {
  int type;           /* csGeomType */
  double size[3];     /* as geom_size (mesh: unused, vertices are already scaled) */
  double pos[3];      /* world position of the geom frame */
  double mat[9];      /* world rotation, row-major: column k is geom axis k in world */
  const double* vert; /* mesh: convex-hull vertices in the geom frame, scaled (nvert x 3) */
  int nvert;
  double rbound; /* bounding-sphere radius about pos (0 for a plane) */
  /* heightfield (type CS_GEOM_HFIELD; NULL/0 otherwise): the model's elevation grid
     (nrow x ncol, row-major, row = y, values in [0, 1]) and its size (half x, half y,
     height of elevation 1, base depth), as csModel.hfield_* */
  const double* hdata;
  int nrow, ncol;
  double hsize[4];
} csiCollGeom;

/* world point r of a geom-frame point x (r may alias x) */
static inline void csi_geom_to_world(double* r, const csiCollGeom* g, const double* x) {
  double t[3];
  csi_mulmat3vec(t, g->mat, x);
  csi_add3(r, t, g->pos);
}

/* geom-frame point r of a world point x (r may alias x) */
static inline void csi_geom_to_local(double* r, const csiCollGeom* g, const double* x) {
  double t[3];
  csi_sub3(t, x, g->pos);
  csi_mulmat3tvec(r, g->mat, t);
}

typedef int (*csiCollideFn)(const csiCollGeom* a, const csiCollGeom* b, double margin,
                            csContact* con);

/* ---- analytic pairs (cs_collision_primitive.c) */
int csi_collide_plane_sphere(const csiCollGeom* a, const csiCollGeom* b, double margin,
                             csContact* con);
int csi_collide_plane_capsule(const csiCollGeom* a, const csiCollGeom* b, double margin,
                              csContact* con);
int csi_collide_plane_cylinder(const csiCollGeom* a, const csiCollGeom* b, double margin,
                               csContact* con);
int csi_collide_plane_box(const csiCollGeom* a, const csiCollGeom* b, double margin,
                          csContact* con);
int csi_collide_plane_ellipsoid(const csiCollGeom* a, const csiCollGeom* b, double margin,
                                csContact* con);
int csi_collide_sphere_sphere(const csiCollGeom* a, const csiCollGeom* b, double margin,
                              csContact* con);
int csi_collide_sphere_capsule(const csiCollGeom* a, const csiCollGeom* b, double margin,
                               csContact* con);
int csi_collide_sphere_box(const csiCollGeom* a, const csiCollGeom* b, double margin,
                           csContact* con);
int csi_collide_capsule_capsule(const csiCollGeom* a, const csiCollGeom* b, double margin,
                                csContact* con);
int csi_collide_capsule_box(const csiCollGeom* a, const csiCollGeom* b, double margin,
                            csContact* con);
int csi_collide_box_box(const csiCollGeom* a, const csiCollGeom* b, double margin, csContact* con);

/* ---- convex pairs through libccd (cs_collision_convex.c): any two of sphere, capsule,
   cylinder, box, mesh, ellipsoid, with a multi-point manifold for resting faces; and
   plane-mesh. */
int csi_collide_convex(const csiCollGeom* a, const csiCollGeom* b, double margin, csContact* con);
int csi_collide_plane_mesh(const csiCollGeom* a, const csiCollGeom* b, double margin,
                           csContact* con);

/* ---- heightfield pairs (cs_collision_hfield.c): a = sphere, capsule, cylinder, box or mesh,
   b = the heightfield (the last geom type, so always b): the normal points from the geom
   into the terrain (downwards for a body resting on it). Each triangle of the cells under
   the geom, extruded down to the base, is a convex prism collided by csi_collide_convex;
   normals through shared prism walls or across flat/concave edges are rejected; face
   contacts at the geom's corners/vertices complete the manifold as a plane would; at most
   CSI_MAX_PAIR_CONTACTS kept. */
int csi_collide_hfield(const csiCollGeom* a, const csiCollGeom* b, double margin, csContact* con);

/* Convex hull of n points (n x 3): writes the indices of the hull's vertices to idx (room
   for n) and returns their number, or -1 if the points are degenerate (fewer than 4, or
   all within tol of a plane, a line or a point: a flat mesh has no volume). */
int csi_convex_hull(const double* pts, int n, double tol, int* idx);

#endif
