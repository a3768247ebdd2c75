// The rotation of F's polar decomposition F = R S, found from a nearby rotation.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// R with F = R S, S symmetric positive definite, by Newton's method on the
/// rotation alone started at `guess` (a rotation close to R: the same tet's
/// last rotation). Returns false, leaving R untouched, where this does not
/// apply or does not converge: det F <= 0 (inverted or flat), F not finite, a
/// guess too far away, or S not positive definite at the end. The caller then
/// takes the rotation-variant SVD, which also gives R = U V^T when det F > 0.
bool polar_rotation_near(const Mat3& F, const Mat3& guess, Mat3& R);

}  // namespace eipc
