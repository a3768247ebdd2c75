// Independent oracles for the elasticity tests and benchmarks.
#pragma once

#include "eipc/elasticity/rotation_variant_svd.hpp"

namespace eipc {

/// Same contract through Eigen's two-sided JacobiSVD (several times slower):
/// an independent reference for tests and benchmarks.
RotationVariantSvd rotation_variant_svd_reference(const Mat3& F);

}  // namespace eipc
