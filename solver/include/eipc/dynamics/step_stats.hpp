// What one time step cost and found: the statistics and the contact forces
// between bodies stored with every trajectory frame (docs/trajectory-format.md).
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// Statistics of the step that produced a frame (zeros for frame 0).
struct StepStats {
  int newton_iterations = 0;  ///< Newton directions (full Newton or chord steps)
  int line_search_steps = 0;
  double wall_seconds = 0.0;
  double min_distance = 0.0;  ///< smallest contact gap (distance less the contact offset) seen in the step (inf if none)
  int active_pairs = 0;       ///< contact pairs with gap d - offset < dhat at the end of the step
  int factorizations = 0;     ///< Hessian assemblies and factorisations (run summary only; not stored)
  int shifted = 0;            ///< of them, shifted matrices (NewtonMatrix::shifted; run summary only)
  int friction_rounds = 0;    ///< solves of the step, each with the lagged friction rebuilt from the last (1 without friction)
};

/// Contact forces on body a from body b, summed over their contact pairs (newtons).
/// Ground contacts use b = -1.
struct BodyPairForce {
  int body_a = 0;
  int body_b = 0;
  Vec3 normal = Vec3::Zero();
  Vec3 friction = Vec3::Zero();
  int pairs = 0;
};

}  // namespace eipc
