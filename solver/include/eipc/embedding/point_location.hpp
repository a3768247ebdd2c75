// Locating points in a tetrahedral mesh: the tet that contains each point and
// its barycentric weights, or, for a point outside every tet, the nearest tet
// with extrapolated weights (they still reproduce the point exactly at rest).
#pragma once

#include "eipc/common.hpp"

#include <vector>

namespace eipc {

struct TetLocation {
  int tet = -1;
  Eigen::Vector4d weights = Eigen::Vector4d::Zero();  ///< sum to 1; point = sum w_j v_j
  double outside_distance = 0.0;  ///< 0 inside, else the distance to the tet
};

/// Barycentric coordinates of p in the tet (a, b, c, d).
Eigen::Vector4d barycentric(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// Locates every point with an AABB tree over the tets (not a scan).
std::vector<TetLocation> locate_points(const Positions& tet_vertices, const Tets& tets, const Positions& points);

}  // namespace eipc
