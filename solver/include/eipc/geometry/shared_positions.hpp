// Positions handed around by shared pointer (CollisionMap::shared_positions).
#pragma once

#include "eipc/common.hpp"

#include <memory>

namespace eipc {

/// Positions that never change once shared: a memo may key on the pointer
/// (held, so that it is not reused for other positions).
using SharedPositions = std::shared_ptr<const Positions>;

}  // namespace eipc
