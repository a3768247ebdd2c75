// Rigid-plus-scale placement of vertex positions (scene "transform" blocks).
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// x' = p + R * (scale * (x - p)) + translation, with R = Rz(rz) * Ry(ry) * Rx(rx)
/// (angles in degrees: rotate about x first, then y, then z, all fixed world axes, right-handed)
/// and pivot p = the mean of the input vertices unless given. Scale and rotation therefore
/// keep the pivot fixed and `translation` moves it.
struct Transform {
  double scale = 1.0;
  Vec3 rotation_deg = Vec3::Zero();
  Vec3 translation = Vec3::Zero();
};

/// R = Rz(deg.z) * Ry(deg.y) * Rx(deg.x).
Mat3 rotation_xyz_deg(const Vec3& deg);

/// Applies `t` about the vertex mean (centroid of the positions).
Positions transformed(const Positions& x, const Transform& t);

/// Applies `t` about an explicit pivot.
Positions transformed(const Positions& x, const Transform& t, const Vec3& pivot);

}  // namespace eipc
