// Backward-Euler time stepping of a scene: each step starts with the
// prescribed nodes at their targets and the free nodes at the inertial
// prediction (as far as collision free), then minimises the incremental
// potential with Newton. Prescribed nodes whose straight move would push into
// something are pulled to their targets through the energy instead (an
// augmented Lagrangian), so the barrier keeps everything apart.
#pragma once

#include "eipc/collisions/minimum_distance.hpp"
#include "eipc/dynamics/contact_queries.hpp"
#include "eipc/dynamics/dof_system.hpp"
#include "eipc/dynamics/incremental_potential.hpp"
#include "eipc/dynamics/newton_solver.hpp"
#include "eipc/dynamics/params.hpp"
#include "eipc/dynamics/phase_times.hpp"
#include "eipc/dynamics/step_stats.hpp"

#include <array>
#include <chrono>
#include <optional>
#include <vector>

namespace eipc {

class TimeStepper {
public:
  TimeStepper(std::vector<Body> bodies, SimulationParams params);
  // Its parts refer to each other: a stepper stays where it was made.
  TimeStepper(const TimeStepper&) = delete;
  TimeStepper& operator=(const TimeStepper&) = delete;

  /// Advances one step of dt; throws SolverFailure (state unchanged) on failure,
  /// including a non-finite energy, gradient or state (NaN never enters the state).
  StepStats step();

  /// From now on a step still running at `deadline` stops (checked every Newton
  /// iteration) with WallTimeExceeded, state unchanged. nullopt: no limit.
  void set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) { newton_.set_deadline(deadline); }
  /// From now on a stop request (StopCheck) ends a step between Newton iterations
  /// with Interrupted, state unchanged.
  void set_stop_check(StopCheck check) { newton_.set_stop_check(std::move(check)); }

  long step_index() const { return step_; }
  double time() const { return step_ * params_.dt; }
  const DofSystem& system() const { return sys_; }
  const SimulationParams& params() const { return params_; }
  /// Changes gravity from the next step on (e.g. to tilt a settled scene).
  void set_gravity(const Vec3& g) { params_.gravity = g; }

  /// The prescribed nodes of `body` (its `prescribed_nodes`, all nodes if
  /// kinematic, in increasing order) go to `targets` (one row each, in that
  /// order) from the next step on, instead of following the body's motion:
  /// a controller's set point. Throws std::invalid_argument for a body
  /// without prescribed nodes or a wrong number of rows.
  void set_prescribed_targets(int body, const Positions& targets);
  /// The body's prescribed nodes follow its scripted motion again.
  void clear_prescribed_targets(int body);
  /// Where the body's prescribed nodes go at time t (one row each, as above).
  Positions prescribed_targets(int body, double t) const;

  const Positions& nodes() const { return q_; }
  const Positions& velocities() const { return v_; }
  /// Full-resolution vertices of every body at the current time.
  std::vector<Positions> fine_positions() const;
  /// Contact forces between body pairs at the end of the last step.
  const std::vector<BodyPairForce>& contact_forces() const { return forces_; }
  const PhaseTimes& phase_times() const { return times_; }
  /// At the current state, from one broad phase over pairs within dhat: the smallest
  /// gap, the distance less the pair's contact offset (infinity if nothing is within
  /// dhat), and the two bodies closest to
  /// each other or a body and the ground (collisions/minimum_distance.hpp, closest_bodies).
  struct Gaps {
    double min_distance;
    BodyGap closest_bodies;
  };
  Gaps current_gaps() const;
  double current_min_distance() const { return current_gaps().min_distance; }

private:
  /// Targets of every prescribed node at t (sys_.prescribed() order).
  std::vector<Vec3> all_prescribed_targets(double t) const;
  /// Every DOF of a prescribed node (held fixed once they reach their targets).
  std::vector<bool> prescribed_dofs() const;
  /// Moves prescribed nodes to their targets if the straight move is collision free.
  bool try_move_prescribed(Positions& q, const std::vector<Vec3>& targets) const;
  /// Newton's start: prescribed nodes to their targets (all or nothing, as
  /// try_move_prescribed) and free nodes towards `free_start` (the inertial
  /// prediction, or keyframe_start's) as far as collision free. Returns whether
  /// the prescribed nodes moved. `contacts`: the contacts at q, if known.
  bool start_step(Positions& q, const std::vector<Vec3>& targets, const Positions& free_start,
                  const ContactSet* contacts) const;
  /// Where the free nodes start after a keyframe (kFreshStartDeparture): the
  /// prediction with the prescribed nodes at their targets, moved by the last
  /// matrix's step there (NewtonSolver::last_matrix_step, with the last step's
  /// contacts). None when there is no such matrix.
  std::optional<Positions> keyframe_start(const StepContext& s, const std::vector<Vec3>& targets);
  /// One solve of the step with the current lagged friction: Newton, or the
  /// augmented-Lagrangian rounds when s has prescribed targets. Adds its counts to stats.
  /// True when `early` ended it (Newton only).
  bool solve_round(StepContext& s, Positions& q, const std::vector<bool>& fixed, double t1, StepStats& stats,
                   const EarlyStop* early);
  /// A friction round's forces are checked early, once Newton's moves fall below this
  /// times newton_tol * h (grasp, h = 0.02: directions per step 4.02 -> 3.70 at 30; 3.87 at
  /// 10, 3.68 at 50 with more rounds; docs/performance.md "Friction rounds").
  static constexpr double kFrictionPeek = 30.0;
  /// A step whose prescribed nodes leave their inertial prediction by more than
  /// this times newton_tol * h (a keyframe changing a gripper's velocity) starts
  /// its free nodes at keyframe_start, from where Newton may go on with the
  /// last matrix's chord. Without that start it begins with a fresh matrix: the
  /// last step's chord from the bent prediction bent FinRay's fingers
  /// 1.6-1.9 mm, then 6-9 directions followed (docs/performance.md).
  static constexpr double kFreshStartDeparture = 100.0;

  DofSystem sys_;
  SimulationParams params_;
  PhaseTimes times_;
  IncrementalPotential potential_;
  ContactQueries queries_;
  NewtonSolver newton_;
  Positions q_, v_;
  long step_ = 0;
  std::vector<BodyPairForce> forces_;
  std::optional<ContactSet> contacts_;  ///< contacts at q_ (end of the last step)
  std::vector<std::optional<Positions>> target_override_;  ///< per body: set_prescribed_targets()
  /// StepContext::elastic_hessian_memo of the last step, for the next one.
  std::array<std::vector<double>, 2> elastic_hessian_;
};

}  // namespace eipc
