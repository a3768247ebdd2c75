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

/// Edges (p0, p1, q0, q1) moving in the coordinate plane x_axis = c throughout (all four
/// keep that coordinate, shared_plane_axis): are they proven apart for all t in [t0, t1]?
/// Two segments in a plane start to touch with an end point on the other segment (a strict
/// crossing holds a little earlier too), so: no end point ever on the other segment (its
/// 2-D orientation never zero, or its projection strictly beyond one end, throughout:
/// Bernstein coefficients of quadratics in t, outward-rounded; needs
/// CGAL::Protect_FPU_rounding) and, at t0, the ends of one edge strictly on one side of the
/// other's line. A cheap proof where the coplanarity cubic is zero throughout.
bool edges_apart_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, int axis, double t0,
                          double t1);

/// Are those edges proven to cross strictly (each one's ends strictly on opposite sides of
/// the other's line) at the instant t? Where the edges are apart before, contact starts
/// with an end on the other edge, so this matters at t = 0 only.
bool edges_cross_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, int axis, double t);

/// The sign of the point's 2-D orientation against the segment's ends at the instant t, +1
/// or -1 where it is proven strict, else 0 (zero: the point on the segment's line).
int side_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const PlanarPointSegment& s, double t);

/// Is the point proven on the open segment at some t in [t0, t1]? The 2-D orientation
/// changes sign strictly between t0 and t1 while p's projection onto the line ab stays
/// strictly between a and b throughout (outward-rounded intervals; needs
/// CGAL::Protect_FPU_rounding). Never true without a contact in [t0, t1].
bool meets_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const PlanarPointSegment& s,
                    double t0, double t1);

}  // namespace eipc::certify
