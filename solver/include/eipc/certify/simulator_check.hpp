// Exact intersection check of a running simulation's current configuration.
#pragma once

#include "eipc/certify/frame_check.hpp"
#include "eipc/dynamics/time_stepper.hpp"

namespace eipc::certify {

/// check_frame on the simulator's full-resolution surfaces and its ground.
FrameCheck check_simulator_state(const TimeStepper& sim);

}  // namespace eipc::certify
