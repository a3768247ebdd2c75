// Consistency of a trajectory header, checked before writing and after reading.
#pragma once

#include "eipc/io/trajectory.hpp"

namespace eipc {

/// Throws InputError naming the offending dataset (as "/bodies/<name>/...") if the
/// header's bodies are inconsistent: empty, duplicate or unusable names (containing '/',
/// or "." / ".."), element index out of range, wrong embedding shapes or indices.
void check_trajectory_header(const TrajectoryHeader& header);

}  // namespace eipc
