// Glue between a loaded scene, the simulator and the trajectory file.
#pragma once

#include "eipc/dynamics/simulator.hpp"
#include "eipc/io/trajectory.hpp"
#include "eipc/scene/scene.hpp"

namespace eipc::cli {

TrajectoryHeader make_header(const Scene& scene, int threads);
Frame make_frame(const Simulator& sim, const StepStats& stats);
/// Refuses (InputError) a start where bodies touch or intersect, checked exactly.
void check_initial_state(const Simulator& sim, const std::string& scene_path);

}  // namespace eipc::cli
