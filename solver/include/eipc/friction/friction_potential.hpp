// Lagged friction potential D(x) = sum_k mu lambda_k f0(|u_k(x)|) (joules). It enters the
// incremental potential as h^2 D; the physical friction force is -grad D (newtons).
#pragma once

#include "eipc/friction/friction_set.hpp"

#include <Eigen/SparseCore>

#include <vector>

namespace eipc {

/// u_k = T^T sum_i w_i (x_i - x^n_i)
Eigen::Vector2d friction_relative_displacement(const FrictionContact& c, const Positions& x, const Positions& x_n);

/// Local D_k = mu lambda f0(|u|).
double contact_friction(const FrictionContact& c, const Positions& x, const Positions& x_n, double epsv_h);
/// grad_i D_k = mu lambda w_i T (f1(y)/y) u   (first 3 * num_vertices entries)
Vec<12> contact_friction_gradient(const FrictionContact& c, const Positions& x, const Positions& x_n, double epsv_h);
/// hess_ij D_k = mu lambda w_i w_j T M T^T with M = (f1/y) I + ((f1/y)'/y) u u^T (M = 2/e I at y = 0).
/// Projected: M = (f1/y)(I - u u^T/y^2) + max(f1'(y), 0) u u^T/y^2 (its eigen-clamp).
Mat<12> contact_friction_hessian(const FrictionContact& c, const Positions& x, const Positions& x_n, double epsv_h,
                                 bool project_psd);

/// Step sizes alpha in (0, 1) at which a sliding contact (|u| > e at x0) passes through its stick
/// zone (|u| <= e) on the straight line from x0 to x1, at the point of the line closest to u = 0:
/// there its friction force reverses, a kink of the energy along the line that Newton's model,
/// which has no curvature along the slip, cannot see. Sorted descending, duplicates kept.
std::vector<double> friction_stick_crossings(const Positions& x0, const Positions& x1, const Positions& x_n,
                                             const FrictionSet& friction);

double friction_potential(const Positions& x, const Positions& x_n, const FrictionSet& friction);
/// grad D, size 3N.
VecX friction_potential_gradient(const Positions& x, const Positions& x_n, const FrictionSet& friction);
/// The per-contact 12x12 blocks that friction_potential_hessian scatters, in contact order.
std::vector<Mat<12>> friction_potential_local_hessians(const Positions& x, const Positions& x_n,
                                                       const FrictionSet& friction, bool project_psd);

}  // namespace eipc
