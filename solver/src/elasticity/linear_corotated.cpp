#include "eipc/elasticity/linear_corotated.hpp"

#include "eipc/elasticity/rotation_variant_svd.hpp"
#include "eipc/elasticity/tet_kinematics.hpp"
#include "eipc/util/small_product.hpp"

#include <algorithm>
#include <cmath>

namespace eipc {

double LinearCorotated::energy(const Mat3& F) const { return energy(F, polar_rotation(F)); }

double LinearCorotated::energy(const Mat3& F, const Mat3& R) const {
  // tr(R^T F) = tr(S), the sum of the singular values (the last one signed).
  const double trace_strain = R.cwiseProduct(F).sum() - 3.0;
  return mu_ * (F - R).squaredNorm() + 0.5 * lambda_ * trace_strain * trace_strain;
}

Mat3 LinearCorotated::stress(const Mat3& F) const { return stress(F, polar_rotation(F)); }

Mat3 LinearCorotated::stress(const Mat3& F, const Mat3& R) const {
  return 2.0 * mu_ * (F - R) + lambda_ * (R.cwiseProduct(F).sum() - 3.0) * R;
}

Mat<9> LinearCorotated::stress_derivative(const Mat3& F) const { return hessian(rotation_variant_svd(F), false); }

Mat<9> LinearCorotated::projected_stress_derivative(const Mat3& F) const {
  return hessian(rotation_variant_svd(F), true);
}

LinearCorotated::HessianTerms LinearCorotated::hessian_terms(const RotationVariantSvd& s, bool project) const {
  // H = 2 mu I + lambda r r^T + sum_ij (e_ij - 2 mu) t_ij t_ij^T,  e_ij = 2 mu + c 2/(s_i + s_j)
  HessianTerms h;
  h.M[0] = times_3x3<3>(s.U, s.V.transpose());
  h.weight[0] = lambda_;
  const double c = lambda_ * (s.sigma.sum() - 3.0) - 2.0 * mu_;
  constexpr int pairs[3][2] = {{0, 1}, {1, 2}, {0, 2}};
  for (int k = 0; k < 3; ++k) {
    const int i = pairs[k][0], j = pairs[k][1];
    // U (e_i e_j^T - e_j e_i^T) V^T = u_i v_j^T - u_j v_i^T: each entry the same
    // value as the triple product's (its third term is an exact zero), at a
    // fraction of its cost; only the sign of a zero entry may differ, which no
    // sum into the Hessian's values (starting at +0 or the mass) can see.
    h.M[k + 1] = (s.U.col(i) * s.V.col(j).transpose() - s.U.col(j) * s.V.col(i).transpose()) / std::sqrt(2.0);
    double denom = s.sigma[i] + s.sigma[j];
    if (std::abs(denom) < 1e-10) denom = denom < 0.0 ? -1e-10 : 1e-10;
    const double twist_rate = c * 2.0 / denom;  // e_ij - 2 mu
    h.weight[k + 1] = project ? std::max(twist_rate, -2.0 * mu_) : twist_rate;
  }
  return h;
}

Mat<9> LinearCorotated::hessian(const RotationVariantSvd& s, bool project) const {
  const HessianTerms h = hessian_terms(s, project);
  Mat<9> H = 2.0 * mu_ * Mat<9>::Identity();
  for (int k = 0; k < 4; ++k) {
    const Vec<9> m = vectorize(h.M[k]);
    H += h.weight[k] * m * m.transpose();
  }
  return H;
}

Mat<12> LinearCorotated::element_hessian(const RotationVariantSvd& s, const Mat3& Dm_inv, bool project) const {
  const HessianTerms h = hessian_terms(s, project);
  return pull_back_identity_plus_rank4(2.0 * mu_, h.M, h.weight, Dm_inv);
}

}  // namespace eipc
