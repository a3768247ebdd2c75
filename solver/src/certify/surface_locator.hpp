// Internal: point queries against one closed surface of one frame, with an
// AABB tree (CGAL) so that locating all vertices of another body stays
// O(n log m). Used only to measure frames that already failed.
#pragma once

#include "eipc/certify/exact_tests.hpp"

#include <memory>

namespace eipc::certify {

class SurfaceLocator {
 public:
  /// x, faces: a closed surface (every edge in an even number of triangles); kept by reference.
  SurfaceLocator(const Positions& x, const Tris& faces);
  ~SurfaceLocator();
  SurfaceLocator(const SurfaceLocator&) = delete;
  SurfaceLocator& operator=(const SurfaceLocator&) = delete;

  /// Exact, like side_of_closed_surface: ray parity with exact orientation
  /// predicates, the tree only selects the triangles a ray's exact box test may hit.
  PointSide side(const Vec3& p) const;
  /// Distance from p to the surface (closest point on its triangles), double precision.
  double distance(const Vec3& p) const;

 private:
  struct Tree;
  std::unique_ptr<Tree> tree_;
};

}  // namespace eipc::certify
