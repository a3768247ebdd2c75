// Internal: the exact pieces of ray-parity point location shared by
// side_of_closed_surface (exact_tests.cpp) and SurfaceLocator (surface_locator.cpp).
#pragma once

#include "eipc/common.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <array>

namespace eipc::certify::ray_parity {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;

enum class RayHit { miss, cross, degenerate };

/// Does the segment pq (q outside the surface's box) cross the triangle abc
/// through its interior (cross), miss it, or touch an edge/vertex or lie in its plane (degenerate)?
RayHit ray_vs_triangle(const Point& p, const Point& q, const Point& a, const Point& b, const Point& c);

/// Fixed, "generic" ray directions, tried in order (deterministic): a
/// degenerate hit on one is practically never repeated on the next.
const std::array<Vec3, 8>& directions();

/// The far end of the ray from p along d: outside the box [lo, hi].
Vec3 ray_end(const Vec3& p, const Vec3& d, const Vec3& lo, const Vec3& hi);

}  // namespace eipc::certify::ray_parity
