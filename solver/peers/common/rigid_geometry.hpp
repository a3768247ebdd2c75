// Rigid-body views of eipc bodies for peers that need them: mass properties from the
// tets, a convex decomposition of non-convex meshes, and rigid poses of scripted motion.
#pragma once

#include "eipc/dynamics/body.hpp"

#include <vector>

namespace eipc::peers {

struct MassProperties {
  double mass = 0.0;
  Vec3 centre = Vec3::Zero();      ///< centre of mass [m]
  Mat3 inertia = Mat3::Zero();     ///< about the centre of mass, world axes [kg m^2]
};

/// Mass, centre and inertia of a uniform-density tet mesh.
MassProperties tet_mass_properties(const Positions& x, const Tets& tets, double density);

/// A convex decomposition by a grid: elements (tets, or surface triangles of a
/// surface-only body) are grouped by connected component and by the grid cell of edge
/// `cell` holding their centroid; each group's vertices span one convex piece (its hull).
/// Pieces whose points are (nearly) flat are merged into the nearest piece of the same
/// component. Returns the vertex indices of every piece.
std::vector<std::vector<int>> convex_pieces(const Body& body, double cell);

/// Rigid pose of scripted motion at time t: x = rotation * (X - pivot) + pivot + translation.
struct RigidPose {
  Mat3 rotation = Mat3::Identity();
  Vec3 translation = Vec3::Zero();
  Vec3 apply(const Vec3& rest, const Vec3& pivot) const { return rotation * (rest - pivot) + pivot + translation; }
};
RigidPose motion_pose(const Motion& motion, double t);

/// Rest positions moved by a rigid pose about `pivot`.
Positions posed(const Positions& rest, const RigidPose& pose, const Vec3& pivot);

}  // namespace eipc::peers
