// Projection of a small symmetric matrix onto the PSD cone (projected Newton).
#pragma once

#include <Eigen/Eigenvalues>

namespace eipc {

/// H = Q diag(max(lambda_i, 0)) Q^T. Returns H unchanged when it is already PSD.
template <typename Derived>
typename Derived::PlainObject project_to_psd(const Eigen::MatrixBase<Derived>& h) {
  using M = typename Derived::PlainObject;
  Eigen::SelfAdjointEigenSolver<M> eig(h.derived());
  if (eig.eigenvalues().minCoeff() >= 0) return h.derived();
  const auto clamped = eig.eigenvalues().cwiseMax(0.0);
  return eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
}

}  // namespace eipc
