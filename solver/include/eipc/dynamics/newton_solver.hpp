// Projected Newton on one step's incremental potential: directions from the
// exact or PSD-projected Hessian (sparse Cholesky), chord steps that reuse the
// last factorisation, and a backtracking line search whose step is first
// clamped by CCD so no iterate is ever in contact or intersecting.
#pragma once

#include "eipc/dynamics/contact_queries.hpp"
#include "eipc/dynamics/incremental_potential.hpp"
#include "eipc/dynamics/phase_times.hpp"
#include "eipc/friction/friction_regime.hpp"
#include "eipc/optim/linear_solver.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

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

/// A stop asked for from outside (SIGINT, SIGTERM) ended a step between two Newton iterations.
class Interrupted : public SolverFailure {
public:
  using SolverFailure::SolverFailure;
};

/// Asked before every Newton iteration: a reason (e.g. "SIGINT") stops the solve with Interrupted.
using StopCheck = std::function<std::optional<std::string>()>;

/// What one Newton solve took.
struct NewtonResult {
  int iterations = 0;  ///< Newton directions (each one a line search or the stopping test)
  int line_search_steps = 0;
  int factorizations = 0;  ///< Hessian assemblies and factorisations (the others are chord steps)
  int shifted = 0;         ///< of them, directions from a shifted matrix (NewtonMatrix::shifted)
  bool stopped_early = false;  ///< an EarlyStop ended the solve before newton_tol
};

/// Lets the caller end a solve before newton_tol: the first time a direction's
/// largest fine-vertex move falls below `move`, `stop(q, contacts)` is asked at
/// the current iterate q, with its contact set. (The friction rounds check there
/// whether the lagged normal forces will settle; when not, the rest of the solve
/// is wasted.)
struct EarlyStop {
  double move = 0.0;
  std::function<bool(const Positions& q, const ContactSet& contacts)> stop;
};

class NewtonSolver {
public:
  /// Keeps references to all of them.
  NewtonSolver(const DofSystem& system, const SimulationParams& params, const IncrementalPotential& potential,
               const ContactQueries& queries, PhaseTimes& times);

  /// Minimises the step's potential from q (moved in place) with the DOFs in
  /// `fixed` held; t1 (the step's end time) is for messages. Stops when the
  /// largest fine-vertex move of a step is below newton_tol * h. Throws
  /// SolverFailure (q then holds the last accepted iterate).
  NewtonResult solve(const StepContext& s, Positions& q, const std::vector<bool>& fixed, double t1,
                     const EarlyStop* early = nullptr);

  /// -A^-1 g(q) with the linear solver's current factorisation A, assembled
  /// with the same fixed DOFs and any contact pairs (usually the last step's
  /// last matrix): a guess for where a step starts, not a descent direction
  /// (chord_direction's checks do not apply). False when there is no such A or
  /// g(q) is not finite.
  bool last_matrix_step(const StepContext& s, const Positions& q, const ContactSet& contacts,
                        const std::vector<bool>& fixed, VecX& direction);

  /// From now on a solve still running at `deadline` stops (checked every
  /// iteration) with WallTimeExceeded. nullopt: no limit.
  void set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) { deadline_ = deadline; }
  void set_stop_check(StopCheck check) { stop_check_ = std::move(check); }

private:
  /// A chord step (with the last factorisation) replaces the next Newton step
  /// while it is at most this fraction of the step before it.
  static constexpr double kChordContraction = 0.5;
  /// The direction -A^-1 g(q) with the linear solver's current factorisation A
  /// (a chord step), when A was assembled with the same contact pairs and fixed
  /// DOFs (possibly in an earlier time step: A then differs by the step's
  /// damping and friction terms and the motion since). Such a direction
  /// descends (A is positive definite), and near the answer it is close to
  /// Newton's. It costs a gradient and two triangular solves instead of an
  /// assembly and a factorisation. False when there is no such A. `gradient`:
  /// g(q) if already known (the line search's accepted trial).
  bool chord_direction(const StepContext& s, const Positions& q, const ContactSet& contacts,
                       const std::vector<bool>& fixed, VecX& direction, const VecX* gradient = nullptr);
  /// Assembles the Hessian at q (per-element and per-contact projected to PSD
  /// if `project`), factorises it and solves for the Newton direction; false
  /// if the matrix is not positive definite or the direction does not descend.
  /// With `shift`, a matrix that is not positive definite is retried as
  /// H + mu diag(M) (NewtonMatrix::shifted), and shift_ says which mu took.
  /// `beside` (work that needs only q) runs beside the factorisation, which
  /// does not split across threads once the contact set is large. `gradient`:
  /// g(q) if already known.
  bool newton_direction(const StepContext& s, const Positions& q, const ContactSet& contacts,
                        const std::vector<bool>& fixed, Projection project, bool shift, double t1, VecX& direction,
                        const std::function<void()>& beside, const VecX* gradient = nullptr);
  /// Newton's stopping test on the step dq from q, whose largest fine-vertex
  /// move is `move`: true when it is below newton_tol * h. A converged solve
  /// still takes dq when it is collision free (so q moves). `contacts`: the contacts at q.
  bool converged_after_last_step(Positions& q, const Positions& dq, double move, const ContactSet& contacts) const;

  const DofSystem& sys_;
  const SimulationParams& params_;
  const IncrementalPotential& potential_;
  const ContactQueries& queries_;
  PhaseTimes& times_;
  LinearSolver linear_solver_;
  /// What the linear solver's current factorisation was assembled with.
  struct Factorized {
    ContactSet contacts;
    std::vector<bool> fixed;
    std::vector<FrictionContactKey> sticking;  ///< friction contacts that stuck where it was assembled
    bool shifted = false;  ///< H + mu diag(M): no chord steps (a chord's stopping test would be on it)
  };
  std::optional<Factorized> factorized_;
  /// The shift mu of the last direction (0: none), and the last nonzero one, where the next search starts.
  double shift_ = 0.0, last_shift_ = 0.0;
  /// The shifts tried: from kMinShift (or a tenth of the last) tenfold up to kMaxShift, then the projected matrix.
  static constexpr double kMinShift = 1e-4, kMaxShift = 1e6;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  StopCheck stop_check_;
};

}  // namespace eipc
