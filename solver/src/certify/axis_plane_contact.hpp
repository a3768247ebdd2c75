// A contact proof for a point meeting a segment inside a coordinate plane. Where a
// point p and the end points of a segment ab have exactly the same coordinate k in
// both frames (a sheet lying on a floor, a mesh's symmetry plane, rings of a mesh at
// equal heights), the three move in the plane x_k = c throughout, and p meets [a, b]
// where their 2-D orientation in the other two coordinates is zero with p between a
// and b. That contact lies on the boundary of the other primitive (an edge of the
// triangle, an end point on an edge), which the strict proofs of straight_motion.cpp
// cannot show, and would otherwise go to the exact path.
#pragma once

#include "eipc/common.hpp"

#include <array>

namespace eipc::certify {

/// Vertex `point` and the segment between vertices `a` and `b`, all with coordinate `axis`
/// exactly equal at t = 0 and t = 1.
struct PlanarPointSegment {
  int point, a, b, axis;
};

/// The point-segment triples of `triples` that keep a coordinate plane (at most 4).
struct PlanarPointSegments {
  std::array<PlanarPointSegment, 4> items;
  int size = 0;
};

/// Point-triangle (p, a, b, c): p with each edge; edge-edge (p0, p1, q0, q1): each end point with the other edge.
PlanarPointSegments planar_point_segments(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1,
                                          bool point_triangle);

/// The coordinate that all four vertices keep exactly equal at t = 0 and t = 1 (they move
/// in that plane throughout), or -1.
int shared_plane_axis(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1);

/// Is the point proven on the open segment at some t in [t0, t1]? The 2-D orientation
/// changes sign strictly between t0 and t1 while p's projection onto the line ab stays
/// strictly between a and b throughout (outward-rounded intervals; needs
/// CGAL::Protect_FPU_rounding). Never true without a contact in [t0, t1].
bool meets_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const PlanarPointSegment& s,
                    double t0, double t1);

}  // namespace eipc::certify
