// A tet's last deformation gradient with its rotation and, when asked, its SVD.
#pragma once

#include "eipc/common.hpp"
#include "eipc/elasticity/rotation_variant_svd.hpp"

#include <cstring>

namespace eipc {

/// Newton takes the energy at a trial point and then the gradient there (the
/// same F, bit for bit): both need only the rotation R of F = R S, which comes
/// from the last one by polar_rotation_near (under half an SVD's cost). The
/// element Hessian needs the SVD; a new one starts its sweeps from the last V.
/// Where the warm rotation does not apply (an inverted tet, the first call) R
/// is U V^T of the SVD, as the rotation-variant SVD defines it.
class RotationMemo {
public:
  /// R = U V^T of F's rotation-variant SVD (to round-off).
  const Mat3& rotation_of(const Mat3& F);
  /// F's rotation-variant SVD.
  const RotationVariantSvd& svd_of(const Mat3& F);

private:
  bool same_F(const Mat3& F) const { return std::memcmp(F.data(), F_.data(), sizeof(double) * 9) == 0; }
  Mat3 F_ = Mat3::Zero();
  Mat3 R_;                  ///< rotation of F_, when has_rotation_
  RotationVariantSvd svd_;  ///< of F_ when has_svd_; else an earlier F's (its V starts the next SVD)
  bool has_rotation_ = false, has_svd_ = false, had_svd_ = false;
};

}  // namespace eipc
