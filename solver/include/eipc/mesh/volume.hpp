// Tetrahedron and mesh volumes.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

namespace eipc {

/// Signed volume V = det(b - a, c - a, d - a) / 6 (> 0 for a positively oriented tet).
double tet_signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// Signed volume of each tet of the mesh.
VecX tet_signed_volumes(const Positions& x, const Tets& tets);

/// Sum of the signed tet volumes (summed in tet order).
double tet_mesh_volume(const Positions& x, const Tets& tets);

/// Volume enclosed by a closed triangle surface by the divergence theorem,
/// V = 1/6 sum_f det(x0 - p, x1 - p, x2 - p) with p the mean vertex (any p gives the same
/// value for a closed surface; the mean reduces round-off). Positive when faces point outward.
double enclosed_volume(const Positions& x, const Tris& faces);

/// Largest side of the axis-aligned bounding box of the positions (0 if empty).
double bounding_box_size(const Positions& x);

}  // namespace eipc
