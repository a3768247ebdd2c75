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

/// The same projection for the 12x12 Hessian of a function of four points that
/// depends only on their differences (every point-triangle / edge-edge barrier,
/// mollifier included): the three translations are exact null vectors, so the
/// clamp only acts in their 9-dimensional complement. An orthonormal basis of
/// it is the 4-point Hadamard transform W = 1/2 [1 1 1 1; 1 -1 1 -1; 1 1 -1 -1;
/// 1 -1 -1 1] (x) I3 (symmetric, W W = I, first row = translation): with
/// R = W H W, P(H) = W diag(0, P(R_99)) W -- a 9x9 eigenproblem instead of 12x12
/// (about 2.5x fewer flops), and exact up to round-off. Returns H unchanged
/// when R_99 is PSD.
Mat<12> project_translation_invariant_psd(const Mat<12>& h);

}  // namespace eipc
