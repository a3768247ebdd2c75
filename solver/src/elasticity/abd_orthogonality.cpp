#include "eipc/elasticity/abd_orthogonality.hpp"

#include "eipc/elasticity/tet_kinematics.hpp"
#include "eipc/optim/psd.hpp"

namespace eipc {

double AbdOrthogonality::energy(const Mat3& F) const {
  // F F^T - I = H + H^T + H H^T with H = F - I (no cancellation for small strain).
  const Mat3 H = F - Mat3::Identity();
  return kappa_ * (H + H.transpose() + H * H.transpose()).squaredNorm();
}

Mat3 AbdOrthogonality::stress(const Mat3& F) const {
  return 4.0 * kappa_ * (F * F.transpose() - Mat3::Identity()) * F;
}

Mat<9> AbdOrthogonality::stress_derivative(const Mat3& F) const {
  const Mat3 A = F * F.transpose() - Mat3::Identity();
  Mat<9> H;
  for (int k = 0; k < 9; ++k) {  // column k = dP/dF applied to the k-th basis matrix
    Mat3 E = Mat3::Zero();
    E(k % 3, k / 3) = 1.0;
    H.col(k) = vectorize(4.0 * kappa_ * ((E * F.transpose() + F * E.transpose()) * F + A * E));
  }
  return H;
}

Mat<9> AbdOrthogonality::projected_stress_derivative(const Mat3& F) const {
  return project_psd<9>(stress_derivative(F));
}

}  // namespace eipc
