// The library's run loop: a scene, loaded and checked, stepped one step at a
// time or to its end, its frames streamed to sinks (a trajectory file is one)
// every `output.every` and at the last step. `eipc run` is this loop with a
// TrajectorySink; a program (the Python module, a controller) can also read the
// state and set new targets for prescribed nodes between steps.
//
// A step that fails (SolverFailure, including a passed wall-time limit) ends
// the run: the last completed state is sent to the sinks if it was not already,
// they are finished as incomplete with the reason, and the exception goes on.
#pragma once

#include "eipc/dynamics/time_stepper.hpp"
#include "eipc/io/trajectory.hpp"
#include "eipc/scene/scene.hpp"
#include "eipc/simulation/frame_sink.hpp"
#include "eipc/util/parallel.hpp"

#include <chrono>
#include <functional>
#include <limits>
#include <memory>
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
  long friction_rounds_total = 0;
  int friction_rounds_max = 0;
  double min_distance = std::numeric_limits<double>::infinity();
  bool failed = false;
  bool interrupted = false;  ///< the run was stopped from outside (set_stop_check), not by the solver
  std::string reason;  ///< why the run stopped early ("step N: ...")
  PhaseTimes phases;
};

/// The trajectory header of a scene (bodies, meshes, embeddings, parameters).
TrajectoryHeader make_trajectory_header(const Scene& scene, int threads);

/// Refuses (InputError naming the scene) a start where bodies touch or intersect,
/// checked exactly. Simulation does this itself; the peer engines' drivers use it too.
void check_initial_state(const TimeStepper& stepper, const std::string& scene_path);

class Simulation {
public:
  /// Prepares the scene's time stepper with at most `threads` worker threads
  /// (0: all cores) for the simulation's lifetime. Throws InputError when the
  /// initial configuration is not intersection free (checked exactly).
  explicit Simulation(Scene scene, int threads = 0);
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  const Scene& scene() const { return scene_; }
  const TrajectoryHeader& header() const { return header_; }
  /// Index of a body by name; throws InputError naming the scene if there is none.
  int body_index(const std::string& name) const;

  /// Sends frame 0 (the initial state) and every later stored frame to `sink`,
  /// which must outlive the run. Only before the first step.
  void add_sink(FrameSink& sink);
  /// From now on the run fails (WallTimeExceeded) once it has spent `seconds`
  /// of wall time; the reason starts with `label` if given.
  void set_wall_limit(double seconds, std::string label = "");

  /// Asked before every step and every Newton iteration: a reason it returns
  /// (e.g. "SIGINT") ends the run there with Interrupted, the state at the last
  /// completed step kept (summary().interrupted).
  void set_stop_check(StopCheck check);

  /// Advances one step (see the file comment for failures). std::logic_error
  /// after the last step of the scene or after a failure.
  StepStats step();
  /// Steps to the end of the scene, calling on_step after each step. A failed
  /// step ends the loop without throwing: the summary says why.
  const RunSummary& run(const std::function<void(const Simulation&, const StepStats&)>& on_step = {});
  bool finished() const { return finished_; }

  long step_index() const { return stepper_->step_index(); }
  double time() const { return stepper_->time(); }
  const RunSummary& summary() const { return summary_; }
  TimeStepper& stepper() { return *stepper_; }
  const TimeStepper& stepper() const { return *stepper_; }

  /// The prescribed nodes of a body go to these positions from the next step on
  /// (rows in the order of TimeStepper::prescribed_targets).
  void set_prescribed_targets(int body, const Positions& targets) { stepper_->set_prescribed_targets(body, targets); }
  /// The prescribed nodes of a body go to x -> R (x_rest - c) + c + t, with c the
  /// body's rest centroid (as the scene's motion keyframes), from the next step on.
  void set_prescribed_transform(int body, const Mat3& rotation, const Vec3& translation);

private:
  Frame current_frame(const StepStats& stats) const;
  void send(const Frame& frame);
  void finish(TrajectoryStatus status, const std::string& reason);

  Scene scene_;
  std::unique_ptr<ThreadLimit> threads_;
  TrajectoryHeader header_;
  std::unique_ptr<TimeStepper> stepper_;
  std::vector<FrameSink*> sinks_;
  StepStats frame0_stats_;
  StepStats pending_;  ///< statistics of the steps since the last stored frame
  RunSummary summary_;
  std::optional<std::chrono::steady_clock::time_point> run_start_;
  std::optional<double> wall_limit_;
  std::string wall_limit_label_;
  StopCheck stop_check_;
  bool finished_ = false;
};

}  // namespace eipc
