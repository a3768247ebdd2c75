// Exact geometric tests for certification (CGAL Epick predicates: the inputs,
// doubles, are exact; every decision is an exact sign). All sets are closed:
// touching (distance exactly zero) counts as intersecting.
#pragma once

#include "eipc/common.hpp"

#include <array>

namespace eipc::certify {

/// A triangle with identities for its corners: equal ids mean a shared vertex
/// (topological adjacency). Coinciding positions with different ids are not shared.
struct TriangleRef {
  std::array<Vec3, 3> p;
  std::array<long, 3> id;
};

/// True when the three corners are exactly collinear (zero area), including repeated points.
bool triangle_is_degenerate(const Vec3& a, const Vec3& b, const Vec3& c);

/// Exact test of two non-degenerate closed triangles for an intersection that
/// is not explained by their shared vertices:
/// - no shared vertex: any common point;
/// - one shared vertex v: a common point other than v, i.e. the edge opposite
///   v in either triangle meets the other triangle (covers the coplanar case);
/// - a shared edge uw: the triangles are coplanar with both apexes on the same
///   side of uw (they overlap); otherwise their intersection is exactly uw;
/// - three shared vertices: always (a duplicated face).
bool triangles_intersect(const TriangleRef& s, const TriangleRef& t);

/// The first proof triangles_intersect tries for triangles in (or near) one plane, alone:
/// true when 2-D tests in a coordinate projection prove that s and t meet at most in their
/// shared vertices (triangles_intersect is then false); false when they do not decide.
bool proven_apart_in_projection(const TriangleRef& s, const TriangleRef& t);

/// Side of a point relative to a closed surface (every edge in an even number of triangles).
enum class PointSide { outside, inside, on_boundary, undecided };

/// Ray parity with exact orientation predicates. A ray that hits an edge or a
/// vertex of the surface exactly is discarded and another direction is tried;
/// `undecided` only if every tried direction was degenerate.
PointSide side_of_closed_surface(const Vec3& p, const Positions& x, const Tris& faces);

/// True when every undirected edge is used by an even number of triangles
/// (a Z2 cycle: ray parity is then well defined). Repeated-index faces make it false.
bool is_closed_surface(const Tris& faces);

}  // namespace eipc::certify
