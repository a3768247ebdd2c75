// Squared distance between two edges, by closest-feature type.
#pragma once

#include "eipc/distance/distance_type.hpp"

namespace eipc {

/// d^2 for the given type: point-point (EAi_EBj), point-line (EA_EBj, EAi_EB) or line-line (EA_EB).
double edge_edge_distance_sq(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                             EdgeEdgeDistanceType type);
/// d^2 with the type chosen by edge_edge_distance_type.
double edge_edge_distance_sq(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
/// Gradient w.r.t. stacked (ea0, ea1, eb0, eb1).
Vec<12> edge_edge_distance_sq_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                       EdgeEdgeDistanceType type);
/// Hessian w.r.t. stacked (ea0, ea1, eb0, eb1).
Mat<12> edge_edge_distance_sq_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                      EdgeEdgeDistanceType type);

}  // namespace eipc
