// Box and grid meshes for tests and simple scenes.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

namespace eipc {

/// Regular grid of nx * ny * nz cells on [lo, hi]; vertex (i, j, k) has index
/// i + (nx + 1) * (j + (ny + 1) * k). Each cell is split into 6 positively oriented tets
/// along its diagonal from corner (0,0,0) to (1,1,1) (Kuhn/Freudenthal split: the same split
/// in every cell, so neighbouring cells share conforming faces). Throws InputError when a
/// count is < 1 or hi <= lo on an axis.
TetMesh box_tet_mesh(const Vec3& lo, const Vec3& hi, int nx = 1, int ny = 1, int nz = 1);

/// The closed, outward-oriented boundary of box_tet_mesh(lo, hi, nx, ny, nz) (surface
/// vertices only, in increasing grid index); 2 triangles per boundary cell face.
SurfaceMesh box_surface(const Vec3& lo, const Vec3& hi, int nx = 1, int ny = 1, int nz = 1);

/// nx x ny cells over [0, a] x [0, b] in the plane of unit vectors u, v from `origin`,
/// each split along its (i, j)-(i+1, j+1) diagonal; vertex (i, j) has index i + (nx + 1) j.
SurfaceMesh grid_surface(int nx, int ny, double a, double b, const Vec3& origin, const Vec3& u, const Vec3& v);

}  // namespace eipc
