#include "eipc/simulation/run_loop.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace eipc {
namespace {

/// Combines the statistics of the steps between two stored frames.
void accumulate(StepStats& into, const StepStats& s) {
  into.newton_iterations += s.newton_iterations;
  into.line_search_steps += s.line_search_steps;
  into.wall_seconds += s.wall_seconds;
  into.min_distance = std::min(into.min_distance, s.min_distance);
  into.active_pairs = s.active_pairs;
}

StepStats no_steps_yet() {
  StepStats s;
  s.min_distance = std::numeric_limits<double>::infinity();
  return s;
}

}  // namespace

RunLoop::RunLoop(Stepper& stepper, long steps, long output_stride, StepStats frame0_stats)
    : stepper_(stepper), steps_(steps), stride_(output_stride), frame0_stats_(frame0_stats), pending_(no_steps_yet()) {}

void RunLoop::add_sink(FrameSink& sink) {
  if (stepper_.step_index() != 0 || finished_) throw std::logic_error("sinks are added before the first step");
  sinks_.push_back(&sink);
  sink.append(stepper_.frame(frame0_stats_));
}

void RunLoop::set_wall_limit(double seconds, std::string label) {
  wall_limit_ = seconds;
  wall_limit_label_ = std::move(label);
  if (run_start_)
    stepper_.set_deadline(*run_start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                            std::chrono::duration<double>(seconds)));
}

void RunLoop::set_stop_check(StopCheck check) {
  stop_check_ = check;
  stepper_.set_stop_check(std::move(check));
}

void RunLoop::send(const Frame& frame) {
  for (FrameSink* sink : sinks_) sink->append(frame);
}

void RunLoop::finish(TrajectoryStatus status, const std::string& reason) {
  finished_ = true;
  for (FrameSink* sink : sinks_) sink->finish(status, reason);
}

StepStats RunLoop::step() {
  if (finished_) throw std::logic_error("the run has ended (" + (summary_.failed ? summary_.reason : "complete") + ")");
  const auto now = std::chrono::steady_clock::now();
  if (!run_start_) {
    run_start_ = now;
    if (wall_limit_) set_wall_limit(*wall_limit_, wall_limit_label_);
  }
  const long n = stepper_.step_index() + 1;
  StepStats s;
  bool stepping = false;  // the failure came from inside the stepper's step
  try {
    if (stop_check_)
      if (const std::optional<std::string> stop = stop_check_()) throw Interrupted("interrupted by " + *stop + " before the step");
    if (wall_limit_ && now - *run_start_ >= std::chrono::duration<double>(*wall_limit_))
      throw WallTimeExceeded("wall-time limit reached before the step");
    stepping = true;
    s = stepper_.step();
  } catch (const SolverFailure& e) {
    summary_.failed = true;
    summary_.interrupted = dynamic_cast<const Interrupted*>(&e) != nullptr;
    summary_.reason = fmt::format("step {}: {}", n, e.what());
    if (dynamic_cast<const WallTimeExceeded*>(&e) && !wall_limit_label_.empty())
      summary_.reason = wall_limit_label_ + ": " + summary_.reason;
    // Keep the last completed state even when it is between output frames.
    if (summary_.steps % stride_ != 0 && (!stepping || stepper_.keeps_state_on_failure())) send(stepper_.frame(pending_));
    finish(TrajectoryStatus::incomplete, summary_.reason);
    summary_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - *run_start_).count();
    stepper_.add_to_summary(summary_);
    throw;
  }
  accumulate(pending_, s);
  summary_.steps = n;
  summary_.simulated_seconds = stepper_.time();
  summary_.newton_total += s.newton_iterations;
  summary_.newton_max = std::max(summary_.newton_max, s.newton_iterations);
  summary_.line_search_total += s.line_search_steps;
  summary_.factorization_total += s.factorizations;
  summary_.shifted_total += s.shifted;
  summary_.friction_rounds_total += s.friction_rounds;
  summary_.friction_rounds_max = std::max(summary_.friction_rounds_max, s.friction_rounds);
  summary_.min_distance = std::min(summary_.min_distance, s.min_distance);
  if (n % stride_ == 0 || n == steps_) {
    send(stepper_.frame(pending_));
    pending_ = no_steps_yet();
  }
  if (n == steps_) finish(TrajectoryStatus::complete, "");
  summary_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - *run_start_).count();
  stepper_.add_to_summary(summary_);
  return s;
}

}  // namespace eipc
