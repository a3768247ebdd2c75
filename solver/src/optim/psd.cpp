#include "eipc/optim/psd.hpp"

namespace eipc {

namespace {

/// W m for the 4-point Hadamard W of project_translation_invariant_psd (rows in blocks of 3).
Mat<12> hadamard_rows(const Mat<12>& m) {
  Mat<12> out;
  const auto b = [&](int i) { return m.middleRows<3>(3 * i); };
  const Eigen::Matrix<double, 3, 12> s01 = b(0) + b(1), d01 = b(0) - b(1), s23 = b(2) + b(3), d23 = b(2) - b(3);
  out.middleRows<3>(0) = 0.5 * (s01 + s23);
  out.middleRows<3>(3) = 0.5 * (d01 + d23);
  out.middleRows<3>(6) = 0.5 * (s01 - s23);
  out.middleRows<3>(9) = 0.5 * (d01 - d23);
  return out;
}

/// W m W (m symmetric, so W m W = W (W m)^T).
Mat<12> hadamard_both(const Mat<12>& m) { return hadamard_rows(Mat<12>(hadamard_rows(m).transpose())); }

}  // namespace

Mat<12> project_translation_invariant_psd(const Mat<12>& h) {
  const Mat<12> r = hadamard_both(h);
  Eigen::SelfAdjointEigenSolver<Mat<9>> eig(r.bottomRightCorner<9, 9>());
  if (eig.info() != Eigen::Success) return h;  // e.g. NaN input: let it propagate
  if (eig.eigenvalues().minCoeff() >= 0) return h;
  const Vec<9> clamped = eig.eigenvalues().cwiseMax(0.0);
  Mat<12> p = Mat<12>::Zero();
  p.bottomRightCorner<9, 9>() = eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
  const Mat<12> out = hadamard_both(p);
  return 0.5 * (out + out.transpose());  // exact symmetry for the sparse solver
}

}  // namespace eipc
