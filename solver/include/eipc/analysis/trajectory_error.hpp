// Time-averaged trajectory error E(h) of a run against a fine-step reference (docs/design.md §7):
//   E(h) = sqrt( 1/F * sum_f 1/N_v * sum_v ||x_run(t_f) - x_ref(t_f)||^2 )
// over the run's stored frames f with step index >= 1 (frame 0, the common initial state,
// is left out), each matched to the reference frame with step index
// run_step * dt_run / dt_ref (an exact integer ratio); N_v is the total vertex count of
// the compared bodies. If the run stores every step, F = floor(T/h) and this is
// docs/design.md §7's definition; if it stores every k-th step, the sum runs over those frames.
// See docs/error-metric.md.
#pragma once

#include <string>
#include <vector>

namespace eipc {

struct ErrorOptions {
  std::vector<std::string> bodies;  ///< compared bodies by name; empty: every non-kinematic body
  bool allow_incomplete = false;    ///< accept trajectories marked incomplete (compares their frames)
};

struct BodyError {
  std::string name;
  long vertices = 0;
  double error = 0.0;  ///< the same RMS over this body's vertices only
  /// The body's method in the run and in the reference ("full", "low", ...); E(h) measures a
  /// method against its own reference (docs/error-metric.md), so these should be equal.
  std::string embedding, reference_embedding;
};

struct TrajectoryError {
  double error = 0.0;        ///< E(h) [m]
  long frames = 0;           ///< F: run frames that entered the sum
  long vertices = 0;         ///< N_v
  long step_ratio = 0;       ///< dt_run / dt_ref
  double dt_run = 0.0, dt_ref = 0.0;
  double first_time = 0.0, last_time = 0.0;  ///< times of the first and last compared frame
  double worst_time = 0.0;   ///< time of the frame with the largest per-frame RMS
  double worst_error = 0.0;  ///< that RMS [m]
  std::vector<BodyError> bodies;
};

/// Throws InputError (naming the file and the problem) when the time steps are not an
/// integer ratio, a run frame's matching reference frame is not stored, a compared body
/// is missing or its vertex count or rest shape differs, there is no frame to compare,
/// or a trajectory is incomplete (unless allowed).
TrajectoryError trajectory_error(const std::string& run_path, const std::string& reference_path,
                                 const ErrorOptions& options = {});

}  // namespace eipc
