// The cross-product matrix: [v]x w = v x w.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

inline Mat3 cross_matrix(const Vec3& v) {
  Mat3 m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

}  // namespace eipc
