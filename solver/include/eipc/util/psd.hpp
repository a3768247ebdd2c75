// Projection of a symmetric matrix onto the cone of positive semi-definite
// matrices (projected Newton: every element/contact Hessian is made PSD before
// assembly so the global system is PSD).
#pragma once

#include "eipc/common.hpp"

#include <Eigen/Eigenvalues>

namespace eipc {

/// H = Q diag(l) Q^T  ->  Q diag(max(l, 0)) Q^T.
/// The input is assumed symmetric (only its lower triangle is read). When no
/// eigenvalue is negative the input is returned unchanged (bit for bit).
/// N is any fixed size (3, 6, 9, 12 are the ones used) or Eigen::Dynamic.
template <int N>
Mat<N> project_psd(const Mat<N>& H) {
  Eigen::SelfAdjointEigenSolver<Mat<N>> eig(H);
  if (eig.info() != Eigen::Success) return H;  // e.g. NaN input: let it propagate
  const Vec<N>& l = eig.eigenvalues();
  if (l.minCoeff() >= 0.0) return H;
  const Vec<N> clamped = l.cwiseMax(0.0);
  return eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
}

/// Dynamic-size convenience overload.
inline MatX project_psd(const MatX& H) { return project_psd<Eigen::Dynamic>(H); }

}  // namespace eipc
