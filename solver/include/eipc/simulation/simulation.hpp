// The library's run loop: a scene, loaded and checked, stepped one step at a
// time or to its end, its frames streamed to sinks (a trajectory file is one)
// every `output.every` and at the last step. `eipc run` is this loop with a
// TrajectorySink; a program (the Python module, a controller) can also read the
// state and set new targets for prescribed nodes between steps.
//
// The loop itself is RunLoop (run_loop.hpp), which the peer engines' drivers share.
// A step that fails (SolverFailure, including a passed wall-time limit) ends
// the run: the last completed state is sent to the sinks if it was not already,
// they are finished as incomplete with the reason, and the exception goes on.
#pragma once

#include "eipc/dynamics/time_stepper.hpp"
#include "eipc/io/trajectory.hpp"
#include "eipc/scene/scene.hpp"
#include "eipc/simulation/frame_sink.hpp"
#include "eipc/simulation/run_loop.hpp"
#include "eipc/util/parallel.hpp"

#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace eipc {

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
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  const Scene& scene() const { return scene_; }
  const TrajectoryHeader& header() const { return header_; }
  /// Index of a body by name; throws InputError naming the scene, the closest name and
  /// the scene's bodies if there is none.
  int body_index(const std::string& name) const;
  /// What the user should hear before the run (besides scene().notes): a start the barrier
  /// acts on (two bodies, or a body and the ground, within dhat).
  const std::vector<std::string>& warnings() const { return warnings_; }

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
  bool finished() const { return loop_->finished(); }

  long step_index() const { return stepper_->step_index(); }
  double time() const { return stepper_->time(); }
  const RunSummary& summary() const { return loop_->summary(); }
  TimeStepper& stepper() { return *stepper_; }
  const TimeStepper& stepper() const { return *stepper_; }

  /// The prescribed nodes of a body go to these positions from the next step on
  /// (rows in the order of TimeStepper::prescribed_targets).
  void set_prescribed_targets(int body, const Positions& targets) { stepper_->set_prescribed_targets(body, targets); }
  /// The prescribed nodes of a body go to x -> R (x_rest - c) + c + t, with c the
  /// body's rest centroid (as the scene's motion keyframes), from the next step on.
  void set_prescribed_transform(int body, const Mat3& rotation, const Vec3& translation);

private:
  class EipcStepper;  ///< the TimeStepper as the run loop's Stepper

  Scene scene_;
  std::unique_ptr<ThreadLimit> threads_;
  TrajectoryHeader header_;
  std::unique_ptr<TimeStepper> stepper_;
  std::unique_ptr<EipcStepper> eipc_stepper_;
  std::unique_ptr<RunLoop> loop_;
  std::vector<std::string> warnings_;
};

}  // namespace eipc
