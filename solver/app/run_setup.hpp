// Glue between a loaded scene, the simulator and the trajectory file.
#pragma once

#include "eipc/certify/frame_check.hpp"
#include "eipc/dynamics/simulator.hpp"
#include "eipc/io/trajectory.hpp"
#include "eipc/scene/scene.hpp"

namespace eipc::cli {

TrajectoryHeader make_header(const Scene& scene, int threads);
Frame make_frame(const Simulator& sim, const StepStats& stats);
/// Exact intersection check of the simulator's current configuration.
certify::FrameCheck check_current_frame(const Simulator& sim);
/// Refuses (InputError) a start where bodies touch or intersect, checked exactly.
void check_initial_state(const Simulator& sim, const std::string& scene_path);

}  // namespace eipc::cli
