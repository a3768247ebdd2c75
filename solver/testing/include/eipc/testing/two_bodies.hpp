// Collision meshes of two bodies for contact tests.
#pragma once

#include "eipc/collisions/collision_mesh.hpp"
#include "eipc/mesh/tet_mesh.hpp"

namespace eipc {

/// The boundary surfaces of `a` (body 0) and `b` (body 1) stacked into one
/// collision mesh: a's vertices first, b's after them; rest = the meshes' vertices.
CollisionMesh two_body_collision_mesh(const TetMesh& a, const TetMesh& b);

}  // namespace eipc
