// Time stepping: one projected-Newton solve of the incremental potential per
// step, with CCD-clamped backtracking line search, and prescribed nodes moved
// either directly (when the straight move is collision free) or by an
// augmented Lagrangian (when it would push into something).
#pragma once

#include "eipc/contact/candidate_cache.hpp"
#include "eipc/dynamics/dof_system.hpp"
#include "eipc/dynamics/incremental_potential.hpp"
#include "eipc/dynamics/params.hpp"
#include "eipc/io/trajectory.hpp"
#include "eipc/optim/linear_solver.hpp"

#include <chrono>
#include <optional>
#include <stdexcept>

namespace eipc {

/// The solver could not finish a step (Newton iteration limit, line search
/// stalled, singular system). The state stays at the last completed step.
class SolverFailure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The wall-clock deadline given to set_deadline() passed during a step.
class WallTimeExceeded : public SolverFailure {
public:
  using SolverFailure::SolverFailure;
};

/// Wall seconds spent in each phase of the Newton solves, summed over all steps.
struct PhaseTimes {
  double broad_phase = 0;   ///< candidate pairs (barrier and swept CCD boxes)
  double assembly = 0;      ///< gradient and Hessian (elasticity, contact, friction, J^T H J)
  double linear_solve = 0;  ///< sparse Cholesky
  double ccd = 0;           ///< collision-free step size
  double line_search = 0;   ///< energy evaluations
};

class Simulator {
public:
  Simulator(std::vector<Body> bodies, SimulationParams params);

  /// Advances one step of dt; throws SolverFailure (state unchanged) on failure,
  /// including a non-finite energy, gradient or state (NaN never enters the state).
  StepStats step();

  /// From now on a step still running at `deadline` stops (checked every Newton
  /// iteration) with WallTimeExceeded, state unchanged. nullopt: no limit.
  void set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) { deadline_ = deadline; }

  long step_index() const { return step_; }
  double time() const { return step_ * params_.dt; }
  const DofSystem& system() const { return sys_; }
  const SimulationParams& params() const { return params_; }
  /// Changes gravity from the next step on (e.g. to tilt a settled scene).
  void set_gravity(const Vec3& g) { params_.gravity = g; }
  const Positions& nodes() const { return q_; }
  const Positions& velocities() const { return v_; }
  /// Full-resolution vertices of every body at the current time.
  std::vector<Positions> fine_positions() const;
  /// Contact forces between body pairs at the end of the last step.
  const std::vector<BodyPairForce>& contact_forces() const { return forces_; }
  const PhaseTimes& phase_times() const { return times_; }
  /// Smallest contact distance at the current state (infinity if nothing is within dhat).
  double current_min_distance() const;

private:
  struct NewtonResult {
    int iterations = 0;  ///< Newton directions (each one a line search or the stopping test)
    int line_search_steps = 0;
    int factorizations = 0;  ///< Hessian assemblies and factorisations (the others are chord steps)
  };
  /// A chord step (with the last factorisation) replaces the next Newton step
  /// while it is at most this fraction of the step before it.
  static constexpr double kChordContraction = 0.5;
  /// The direction -A^-1 g(q) with the linear solver's current factorisation A
  /// (a chord step), when A was assembled with the same contact pairs and fixed
  /// DOFs (possibly in an earlier time step: A then differs by the step's
  /// damping and friction terms and the motion since). Such a direction
  /// descends (A is positive definite), and near the answer it is close to
  /// Newton's. It costs a gradient and two triangular solves instead of an
  /// assembly and a factorisation. False when there is no such A.
  bool chord_direction(const StepState& s, const Positions& q, const ContactSet& contacts,
                       const std::vector<bool>& fixed, VecX& direction);
  /// Assembles the Hessian at q (per-element and per-contact projected to PSD
  /// if `project`), factorises it and solves for the Newton direction; false
  /// if the matrix is not positive definite or the direction does not descend.
  bool newton_direction(const StepState& s, const Positions& q, const ContactSet& contacts,
                        const std::vector<bool>& fixed, bool project, double t1, VecX& direction);
  NewtonResult newton(StepState& s, Positions& q, const std::vector<bool>& fixed_dof, double t1);
  /// Newton's stopping test on the step dq from q, whose largest fine-vertex
  /// move is `move` (below newton_tol * h); when it passes, takes dq if that is
  /// collision free. `contacts`: the contacts at q.
  bool finished(Positions& q, const Positions& dq, double move, const ContactSet& contacts) const;
  /// Moves prescribed nodes to their targets at t1 if the straight move is collision free.
  bool try_move_prescribed(Positions& q, const std::vector<Vec3>& targets) const;
  /// Newton's start: prescribed nodes to their targets (all or nothing, as
  /// try_move_prescribed) and free nodes towards the inertial prediction
  /// q_tilde as far as collision free. Returns whether the prescribed nodes moved.
  /// `contacts`: as for sweep(), at q.
  bool start_step(Positions& q, const std::vector<Vec3>& targets, const Positions& q_tilde,
                  const ContactSet* contacts) const;
  /// Candidates holding every pair closer than dhat at q (valid until the next broad-phase call).
  const Candidates& candidates_near(const Positions& q) const;
  /// The contacts at q (from the cache's contact candidates).
  ContactSet contacts_at(const Positions& q) const;
  std::vector<Vec3> prescribed_targets(double t) const;
  /// The largest collision-free fraction of the straight move q -> q + dq (CCD
  /// over the cached broad phase). `contacts`: the contacts at q, or nullptr
  /// if unknown; with them, a move too short to close (1 - ccd ratio) of the
  /// smallest distance is collision free without any test.
  double sweep(const Positions& q, const Positions& dq, const ContactSet* contacts = nullptr) const;

  DofSystem sys_;
  SimulationParams params_;
  IncrementalPotential potential_;
  LinearSolver linear_solver_;
  Positions q_, v_;
  long step_ = 0;
  std::vector<BodyPairForce> forces_;
  std::optional<ContactSet> contacts_;  ///< contacts at q_ (end of the last step)
  /// What the linear solver's current factorisation was assembled with.
  struct Factorized {
    ContactSet contacts;
    std::vector<bool> fixed;
  };
  std::optional<Factorized> factorized_;
  mutable PhaseTimes times_;
  /// Skin of the cached broad phase, in units of dhat (see CandidateCache).
  static constexpr double kMinSkin = 2.0, kMaxSkin = 4.0, kContactSkin = 0.25;
  mutable CandidateCache candidates_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

}  // namespace eipc
