#include "eipc/distance/edge_edge.hpp"

#include "../distance/cross_product_derivatives.hpp"
#include "eipc/distance/line_line.hpp"
#include "eipc/distance/point_line.hpp"
#include "eipc/distance/point_point.hpp"

namespace eipc {

using T = EdgeEdgeDistanceType;

double edge_edge_distance_sq(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1, T type) {
  switch (type) {
    case T::EA0_EB0: return point_point_distance_sq(ea0, eb0);
    case T::EA0_EB1: return point_point_distance_sq(ea0, eb1);
    case T::EA1_EB0: return point_point_distance_sq(ea1, eb0);
    case T::EA1_EB1: return point_point_distance_sq(ea1, eb1);
    case T::EA_EB0: return point_line_distance_sq(eb0, ea0, ea1);
    case T::EA_EB1: return point_line_distance_sq(eb1, ea0, ea1);
    case T::EA0_EB: return point_line_distance_sq(ea0, eb0, eb1);
    case T::EA1_EB: return point_line_distance_sq(ea1, eb0, eb1);
    case T::EA_EB: return line_line_distance_sq(ea0, ea1, eb0, eb1);
  }
  return 0;
}

double edge_edge_distance_sq(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return edge_edge_distance_sq(ea0, ea1, eb0, eb1, edge_edge_distance_type(ea0, ea1, eb0, eb1));
}

Vec<12> edge_edge_distance_sq_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1, T type) {
  using detail::scatter_gradient;
  switch (type) {
    case T::EA0_EB0: return scatter_gradient<2>(point_point_distance_sq_gradient(ea0, eb0), {0, 2});
    case T::EA0_EB1: return scatter_gradient<2>(point_point_distance_sq_gradient(ea0, eb1), {0, 3});
    case T::EA1_EB0: return scatter_gradient<2>(point_point_distance_sq_gradient(ea1, eb0), {1, 2});
    case T::EA1_EB1: return scatter_gradient<2>(point_point_distance_sq_gradient(ea1, eb1), {1, 3});
    case T::EA_EB0: return scatter_gradient<3>(point_line_distance_sq_gradient(eb0, ea0, ea1), {2, 0, 1});
    case T::EA_EB1: return scatter_gradient<3>(point_line_distance_sq_gradient(eb1, ea0, ea1), {3, 0, 1});
    case T::EA0_EB: return scatter_gradient<3>(point_line_distance_sq_gradient(ea0, eb0, eb1), {0, 2, 3});
    case T::EA1_EB: return scatter_gradient<3>(point_line_distance_sq_gradient(ea1, eb0, eb1), {1, 2, 3});
    case T::EA_EB: return line_line_distance_sq_gradient(ea0, ea1, eb0, eb1);
  }
  return Vec<12>::Zero();
}

Mat<12> edge_edge_distance_sq_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1, T type) {
  using detail::scatter_hessian;
  switch (type) {
    case T::EA0_EB0: return scatter_hessian<2>(point_point_distance_sq_hessian(ea0, eb0), {0, 2});
    case T::EA0_EB1: return scatter_hessian<2>(point_point_distance_sq_hessian(ea0, eb1), {0, 3});
    case T::EA1_EB0: return scatter_hessian<2>(point_point_distance_sq_hessian(ea1, eb0), {1, 2});
    case T::EA1_EB1: return scatter_hessian<2>(point_point_distance_sq_hessian(ea1, eb1), {1, 3});
    case T::EA_EB0: return scatter_hessian<3>(point_line_distance_sq_hessian(eb0, ea0, ea1), {2, 0, 1});
    case T::EA_EB1: return scatter_hessian<3>(point_line_distance_sq_hessian(eb1, ea0, ea1), {3, 0, 1});
    case T::EA0_EB: return scatter_hessian<3>(point_line_distance_sq_hessian(ea0, eb0, eb1), {0, 2, 3});
    case T::EA1_EB: return scatter_hessian<3>(point_line_distance_sq_hessian(ea1, eb0, eb1), {1, 2, 3});
    case T::EA_EB: return line_line_distance_sq_hessian(ea0, ea1, eb0, eb1);
  }
  return Mat<12>::Zero();
}

}  // namespace eipc
