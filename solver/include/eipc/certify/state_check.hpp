// Exact intersection check of a running simulation's current configuration.
#pragma once

#include "eipc/certify/frame_check.hpp"
#include "eipc/dynamics/time_stepper.hpp"

namespace eipc::certify {

/// check_frame on the stepper's full-resolution surfaces and its ground.
FrameCheck check_stepper_state(const TimeStepper& stepper);

}  // namespace eipc::certify
