#include "eipc/distance/point_triangle.hpp"

#include "../distance/cross_product_derivatives.hpp"
#include "eipc/distance/point_line.hpp"
#include "eipc/distance/point_plane.hpp"
#include "eipc/distance/point_point.hpp"

namespace eipc {

using T = PointTriangleDistanceType;

double point_triangle_distance_sq(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2, T type) {
  switch (type) {
    case T::P_T0: return point_point_distance_sq(p, t0);
    case T::P_T1: return point_point_distance_sq(p, t1);
    case T::P_T2: return point_point_distance_sq(p, t2);
    case T::P_E0: return point_line_distance_sq(p, t0, t1);
    case T::P_E1: return point_line_distance_sq(p, t1, t2);
    case T::P_E2: return point_line_distance_sq(p, t2, t0);
    case T::P_T: return point_plane_distance_sq(p, t0, t1, t2);
  }
  return 0;
}

double point_triangle_distance_sq(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return point_triangle_distance_sq(p, t0, t1, t2, point_triangle_distance_type(p, t0, t1, t2));
}

Vec<12> point_triangle_distance_sq_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2, T type) {
  using detail::scatter_gradient;
  switch (type) {
    case T::P_T0: return scatter_gradient<2>(point_point_distance_sq_gradient(p, t0), {0, 1});
    case T::P_T1: return scatter_gradient<2>(point_point_distance_sq_gradient(p, t1), {0, 2});
    case T::P_T2: return scatter_gradient<2>(point_point_distance_sq_gradient(p, t2), {0, 3});
    case T::P_E0: return scatter_gradient<3>(point_line_distance_sq_gradient(p, t0, t1), {0, 1, 2});
    case T::P_E1: return scatter_gradient<3>(point_line_distance_sq_gradient(p, t1, t2), {0, 2, 3});
    case T::P_E2: return scatter_gradient<3>(point_line_distance_sq_gradient(p, t2, t0), {0, 3, 1});
    case T::P_T: return point_plane_distance_sq_gradient(p, t0, t1, t2);
  }
  return Vec<12>::Zero();
}

Mat<12> point_triangle_distance_sq_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2, T type) {
  using detail::scatter_hessian;
  switch (type) {
    case T::P_T0: return scatter_hessian<2>(point_point_distance_sq_hessian(p, t0), {0, 1});
    case T::P_T1: return scatter_hessian<2>(point_point_distance_sq_hessian(p, t1), {0, 2});
    case T::P_T2: return scatter_hessian<2>(point_point_distance_sq_hessian(p, t2), {0, 3});
    case T::P_E0: return scatter_hessian<3>(point_line_distance_sq_hessian(p, t0, t1), {0, 1, 2});
    case T::P_E1: return scatter_hessian<3>(point_line_distance_sq_hessian(p, t1, t2), {0, 2, 3});
    case T::P_E2: return scatter_hessian<3>(point_line_distance_sq_hessian(p, t2, t0), {0, 3, 1});
    case T::P_T: return point_plane_distance_sq_hessian(p, t0, t1, t2);
  }
  return Mat<12>::Zero();
}

}  // namespace eipc
