#include "eipc/certify/state_check.hpp"

#include "eipc/certify/exact_tests.hpp"

namespace eipc::certify {

FrameCheck check_stepper_state(const TimeStepper& sim) {
  const std::vector<Positions> x = sim.fine_positions();
  const std::vector<Body>& bodies = sim.system().bodies();
  std::vector<BodyState> states;
  for (std::size_t b = 0; b < bodies.size(); ++b)
    states.push_back({&x[b], &bodies[b].surface, is_closed_surface(bodies[b].surface)});
  return check_frame(states, sim.params().ground_height);
}

}  // namespace eipc::certify
