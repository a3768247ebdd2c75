#include "eipc/elasticity/rotation_memo.hpp"

#include "eipc/elasticity/polar_rotation_near.hpp"
#include "eipc/util/small_product.hpp"

namespace eipc {

const Mat3& RotationMemo::rotation_of(const Mat3& F) {
  if (has_rotation_ && same_F(F)) return R_;
  Mat3 R;
  if (has_rotation_ && polar_rotation_near(F, R_, R)) {
    F_ = F;
    R_ = R;
    has_svd_ = false;
    return R_;
  }
  svd_of(F);
  return R_;
}

const RotationVariantSvd& RotationMemo::svd_of(const Mat3& F) {
  const bool same = same_F(F);
  if (has_svd_ && same) return svd_;
  svd_ = had_svd_ ? rotation_variant_svd(F, svd_.V) : rotation_variant_svd(F);
  // An F keeps the rotation it was first given (U V^T may differ in the last
  // bits): energy, stress and gradient at one F agree whatever came first.
  if (!(has_rotation_ && same)) R_ = times_3x3<3>(svd_.U, svd_.V.transpose());
  F_ = F;
  has_rotation_ = has_svd_ = had_svd_ = true;
  return svd_;
}

}  // namespace eipc
