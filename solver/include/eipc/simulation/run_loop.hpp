// The one run loop (docs/design.md): any stepper (eipc's TimeStepper, a peer engine)
// stepped to its end, its stored frames streamed to sinks every output stride and at the
// last step, the statistics of the steps between two frames combined, a wall-time limit
// and a stop check asked before every step.
//
// A step that fails (SolverFailure, including a passed wall-time limit or a stop) ends
// the run: the last completed state is sent to the sinks if it was not already (when the
// stepper still holds it), they are finished as incomplete with the reason, and the
// exception goes on.
#pragma once

#include "eipc/dynamics/newton_solver.hpp"
#include "eipc/dynamics/phase_times.hpp"
#include "eipc/dynamics/step_stats.hpp"
#include "eipc/io/trajectory.hpp"
#include "eipc/simulation/frame_sink.hpp"

#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace eipc {

/// Totals of a run so far.
struct RunSummary {
  long steps = 0;
  double simulated_seconds = 0;
  double wall_seconds = 0;  ///< time spent inside step()
  long newton_total = 0;
  int newton_max = 0;
  long line_search_total = 0;
  long factorization_total = 0;
  long shifted_total = 0;  ///< factorisations of a shifted matrix (solver.hessian "shifted")
  long friction_rounds_total = 0;
  int friction_rounds_max = 0;
  double min_distance = std::numeric_limits<double>::infinity();
  bool failed = false;
  bool interrupted = false;  ///< the run was stopped from outside (set_stop_check), not by the solver
  std::string reason;  ///< why the run stopped early ("step N: ...")
  PhaseTimes phases;
};

/// What the run loop steps.
class Stepper {
public:
  virtual ~Stepper() = default;
  /// Advances one step; throws SolverFailure when it cannot.
  virtual StepStats step() = 0;
  virtual long step_index() const = 0;
  virtual double time() const = 0;
  /// The current state as a stored frame, with the statistics of the steps since the last one.
  virtual Frame frame(const StepStats& stats) const = 0;
  /// Whether the state after a failed step() is still the last completed one (eipc's is:
  /// a failed step is not taken; a peer engine's is not).
  virtual bool keeps_state_on_failure() const = 0;
  /// The wall-time deadline and stop check, for steppers that also look inside a step.
  virtual void set_deadline(std::chrono::steady_clock::time_point) {}
  virtual void set_stop_check(StopCheck) {}
  /// Stepper-specific totals (eipc: its phase times), after every step and on failure.
  virtual void add_to_summary(RunSummary&) const {}
};

class RunLoop {
public:
  /// A run of `steps` steps storing every `output_stride`-th step (and the last).
  RunLoop(Stepper& stepper, long steps, long output_stride, StepStats frame0_stats);

  /// Sends frame 0 and every later stored frame to `sink`; only before the first step.
  void add_sink(FrameSink& sink);
  /// The run fails (WallTimeExceeded) once it has spent `seconds`; the reason starts
  /// with `label` if given.
  void set_wall_limit(double seconds, std::string label = "");
  /// Asked before every step (and inside steps where the stepper can): a reason it
  /// returns ends the run with Interrupted.
  void set_stop_check(StopCheck check);

  /// Advances one step (see the file comment for failures). std::logic_error after
  /// the last step or after a failure.
  StepStats step();
  bool finished() const { return finished_; }
  const RunSummary& summary() const { return summary_; }

private:
  void send(const Frame& frame);
  void finish(TrajectoryStatus status, const std::string& reason);

  Stepper& stepper_;
  long steps_, stride_;
  StepStats frame0_stats_;
  StepStats pending_;  ///< statistics of the steps since the last stored frame
  std::vector<FrameSink*> sinks_;
  RunSummary summary_;
  std::optional<std::chrono::steady_clock::time_point> run_start_;
  std::optional<double> wall_limit_;
  std::string wall_limit_label_;
  StopCheck stop_check_;
  bool finished_ = false;
};

}  // namespace eipc
