// SurfaceLocator on CGAL's AABB tree over the surface's non-degenerate
// triangles. Degenerate (collinear) triangles cannot be AABB primitives
// (their distance and intersection functions assume a plane); the few there
// are stay in a list tested one by one.
#include "surface_locator.hpp"

#include "eipc/certify/closest_points.hpp"
#include "ray_parity.hpp"

#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/AABB_triangle_primitive.h>

#include <cmath>
#include <iterator>
#include <limits>
#include <vector>

namespace eipc::certify {

using ray_parity::Kernel;
using LocatorTriangles = std::vector<Kernel::Triangle_3>;
using LocatorPrimitive = CGAL::AABB_triangle_primitive<Kernel, LocatorTriangles::const_iterator>;
using LocatorTree = CGAL::AABB_tree<CGAL::AABB_traits<Kernel, LocatorPrimitive>>;

struct SurfaceLocator::Tree {
  LocatorTriangles triangles;             ///< non-degenerate triangles (the tree's primitives)
  std::vector<std::array<Vec3, 3>> flat;  ///< degenerate triangles
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  LocatorTree tree;
};

namespace {
ray_parity::Point locator_point(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
}  // namespace

SurfaceLocator::SurfaceLocator(const Positions& x, const Tris& faces) : tree_(std::make_unique<Tree>()) {
  Tree& t = *tree_;
  for (int f = 0; f < faces.rows(); ++f) {
    std::array<Vec3, 3> c;
    for (int k = 0; k < 3; ++k) {
      c[k] = x.row(faces(f, k)).transpose();
      t.lo = t.lo.cwiseMin(c[k]);
      t.hi = t.hi.cwiseMax(c[k]);
    }
    if (triangle_is_degenerate(c[0], c[1], c[2])) t.flat.push_back(c);
    else t.triangles.emplace_back(locator_point(c[0]), locator_point(c[1]), locator_point(c[2]));
  }
  t.tree.insert(t.triangles.begin(), t.triangles.end());
  t.tree.build();
  if (!t.triangles.empty()) t.tree.accelerate_distance_queries();
}

SurfaceLocator::~SurfaceLocator() = default;

PointSide SurfaceLocator::side(const Vec3& p) const {
  const Tree& t = *tree_;
  if ((p.array() < t.lo.array()).any() || (p.array() > t.hi.array()).any()) return PointSide::outside;
  const ray_parity::Point pp = locator_point(p);
  if (t.tree.do_intersect(pp)) return PointSide::on_boundary;
  for (const auto& c : t.flat)
    for (int k = 0; k < 3; ++k)
      if (Kernel::Segment_3(locator_point(c[k]), locator_point(c[(k + 1) % 3])).has_on(pp))
        return PointSide::on_boundary;

  std::vector<LocatorPrimitive::Id> hits;
  for (const Vec3& d : ray_parity::directions()) {
    const ray_parity::Point qq = locator_point(ray_parity::ray_end(p, d, t.lo, t.hi));
    auto crossing = [&](const ray_parity::Point& a, const ray_parity::Point& b, const ray_parity::Point& c) {
      return ray_parity::ray_vs_triangle(pp, qq, a, b, c);
    };
    hits.clear();
    t.tree.all_intersected_primitives(Kernel::Segment_3(pp, qq), std::back_inserter(hits));
    int crossings = 0;
    bool degenerate = false;
    for (std::size_t i = 0; i < hits.size() && !degenerate; ++i) {
      const auto h = crossing(hits[i]->vertex(0), hits[i]->vertex(1), hits[i]->vertex(2));
      crossings += h == ray_parity::RayHit::cross;
      degenerate = h == ray_parity::RayHit::degenerate;
    }
    for (std::size_t i = 0; i < t.flat.size() && !degenerate; ++i)
      degenerate = crossing(locator_point(t.flat[i][0]), locator_point(t.flat[i][1]), locator_point(t.flat[i][2])) ==
                   ray_parity::RayHit::degenerate;
    if (!degenerate) return crossings % 2 ? PointSide::inside : PointSide::outside;
  }
  return PointSide::undecided;
}

double SurfaceLocator::distance(const Vec3& p) const {
  const Tree& t = *tree_;
  double d2 = t.triangles.empty() ? std::numeric_limits<double>::infinity()
                                  : CGAL::to_double(t.tree.squared_distance(locator_point(p)));
  for (const auto& c : t.flat) d2 = std::min(d2, (closest_point_on_triangle(p, c[0], c[1], c[2]) - p).squaredNorm());
  return std::sqrt(d2);
}

}  // namespace eipc::certify
