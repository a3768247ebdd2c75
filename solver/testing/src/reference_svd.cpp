// Eigen's two-sided JacobiSVD with the reflection moved onto the smallest
// singular value: the previous production path, kept as an independent
// reference for the tests and the before/after benchmark.
#include "eipc/testing/reference_svd.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>

namespace eipc {

RotationVariantSvd rotation_variant_svd_reference(const Mat3& F) {
  const Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  RotationVariantSvd r{svd.matrixU(), svd.singularValues(), svd.matrixV()};
  // Eigen sorts singular values by decreasing size: flipping column 2 moves the
  // reflection onto the smallest one.
  if (r.U.determinant() < 0.0) {
    r.U.col(2) *= -1.0;
    r.sigma[2] *= -1.0;
  }
  if (r.V.determinant() < 0.0) {
    r.V.col(2) *= -1.0;
    r.sigma[2] *= -1.0;
  }
  return r;
}

}  // namespace eipc
