#include "eipc/distance/line_line.hpp"

#include <Eigen/Geometry>

#include "../distance/cross_product_derivatives.hpp"

namespace eipc {
namespace {
const detail::Mat3N<12> kLineLineA = detail::difference_selector<12>(0, 2);
const detail::Mat3N<12> kLineLineU = detail::difference_selector<12>(1, 0);
const detail::Mat3N<12> kLineLineV = detail::difference_selector<12>(3, 2);

// x = (ea0, ea1, eb0, eb1); a = ea0 - eb0, n = (ea1 - ea0) x (eb1 - eb0).
detail::ProjectedSquare<12> make(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  const Vec3 u = ea1 - ea0, v = eb1 - eb0;
  return {ea0 - eb0, u.cross(v), u, v, kLineLineA, kLineLineU, kLineLineV};
}
}  // namespace

double line_line_distance_sq(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return make(ea0, ea1, eb0, eb1).value();
}
Vec<12> line_line_distance_sq_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return make(ea0, ea1, eb0, eb1).gradient();
}
Mat<12> line_line_distance_sq_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return make(ea0, ea1, eb0, eb1).hessian();
}

}  // namespace eipc
