#include "eipc/distance/point_plane.hpp"

#include <Eigen/Geometry>

#include "../distance/cross_product_derivatives.hpp"

namespace eipc {
namespace {
const detail::Mat3N<12> kPointPlaneA = detail::difference_selector<12>(0, 1);
const detail::Mat3N<12> kPointPlaneU = detail::difference_selector<12>(2, 1);
const detail::Mat3N<12> kPointPlaneV = detail::difference_selector<12>(3, 1);

// x = (p, t0, t1, t2); a = p - t0, n = (t1 - t0) x (t2 - t0).
detail::ProjectedSquare<12> make_point_plane(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  const Vec3 u = t1 - t0, v = t2 - t0;
  return {p - t0, u.cross(v), u, v, kPointPlaneA, kPointPlaneU, kPointPlaneV};
}
}  // namespace

double point_plane_distance_sq(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return make_point_plane(p, t0, t1, t2).value();
}
Vec<12> point_plane_distance_sq_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return make_point_plane(p, t0, t1, t2).gradient();
}
Mat<12> point_plane_distance_sq_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return make_point_plane(p, t0, t1, t2).hessian();
}

}  // namespace eipc
