// Rotation-variant SVD (Irving et al. 2004; Kim & Eberle, "Dynamic
// Deformables", 2022): F = U diag(sigma) V^T with U, V proper rotations
// (det = +1). When det F < 0 the singular value of smallest magnitude carries
// the sign, so R = U V^T is the closest rotation to F and S = V diag(sigma) V^T.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

struct RotationVariantSvd {
  Mat3 U;      ///< rotation
  Vec3 sigma;  ///< |sigma_0| >= |sigma_1| >= |sigma_2|; only sigma_2 may be negative
  Mat3 V;      ///< rotation
};

/// One-sided Jacobi (see the .cpp): ||U diag(sigma) V^T - F|| and the
/// orthogonality of U, V at a few ulps of ||F||, also for repeated, tiny or
/// zero singular values. Non-finite F gives NaNs throughout.
RotationVariantSvd rotation_variant_svd(const Mat3& F);
/// The same contract, with the sweeps started from V_guess (re-orthonormalised
/// first; the identity if unusable): fewer sweeps when V_guess is the V of a
/// nearby matrix. The result may differ from the cold start in the last bits.
RotationVariantSvd rotation_variant_svd(const Mat3& F, const Mat3& V_guess);

/// Rotation part R = U V^T of the polar decomposition F = R S (det R = +1).
Mat3 polar_rotation(const Mat3& F);

}  // namespace eipc
