// What a certificate says of shells beyond their mid-surfaces: contact keeps
// each pair's distance above its contact offset, half the thickness of each
// side (docs/design.md §3, "Contact offset"), which the exact checks (on the
// mid-surfaces) do not see. This measures, in floating point, how far beyond
// their offsets the pairs with a shell stayed.
#pragma once

#include "eipc/io/trajectory.hpp"

#include <limits>
#include <optional>
#include <vector>

namespace eipc::certify {

/// The smallest gap (distance less the pair's offset) over the pairs with a
/// shell in any frame, and where: frame index, the two bodies (body_b = -1:
/// the ground; body_a == body_b: the shell with itself).
struct ShellGap {
  double gap = std::numeric_limits<double>::infinity();
  int frame = -1;
  int body_a = -1, body_b = -1;
  /// The search's reach beyond the offsets: a gap at or above it means no pair came closer.
  double reach = 0.0;
};

/// Each body's shell thickness from an eipc trajectory's scene (material
/// `stvk_shell`, docs/scene-format.md); 0 for every other body.
std::vector<double> shell_thicknesses(const Trajectory& trajectory);

/// The smallest gap of the pairs with a shell over the frames, searched up to
/// `reach` beyond their offsets; none when no body is a shell.
std::optional<ShellGap> smallest_shell_gap(const Trajectory& trajectory, const std::vector<double>& thickness,
                                           std::optional<double> ground_height, double reach);

}  // namespace eipc::certify
