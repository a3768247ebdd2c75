#include "eipc/dynamics/newton_solver.hpp"

#include "eipc/friction/friction_potential.hpp"
#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace eipc {

namespace {

/// Zeroes the gradient entries of fixed DOFs.
void eliminate_fixed(VecX& g, const std::vector<bool>& fixed) {
  for (std::size_t i = 0; i < fixed.size(); ++i)
    if (fixed[i]) g[static_cast<Eigen::Index>(i)] = 0.0;
}

/// Also removes the rows and columns of fixed DOFs from the pattern, 1 on their
/// diagonal. Removed, not zeroed in place: explicit zeros are couplings to the
/// factorisation's ordering and fill (the grasp's bubble backs, 34 of its 166
/// nodes, cost 4% of its one-thread wall that way). The pattern then changes with
/// the fixed set, which changes seldom (a step that cannot move its prescribed
/// nodes), and the solver analyses it again.
void eliminate_fixed(SparseMatrix& H, VecX& g, const std::vector<bool>& fixed) {
  eliminate_fixed(g, fixed);
  if (std::find(fixed.begin(), fixed.end(), true) == fixed.end()) return;
  const std::vector<char> is_fixed(fixed.begin(), fixed.end());
  H.prune([&](Eigen::Index row, Eigen::Index col, double) { return row == col || !(is_fixed[row] || is_fixed[col]); });
  for (int col = 0; col < H.outerSize(); ++col)
    if (is_fixed[col]) H.coeffRef(col, col) = 1.0;
  H.makeCompressed();  // a no-op unless a diagonal entry was missing and got inserted
}

/// The next trial below a rejected step alpha: the largest step in [alpha / 16,
/// alpha) at which a sliding contact sticks (descending list), else alpha / 2.
/// There the friction force reverses, a kink of the energy along the direction
/// that Newton's model, without curvature along the slip, overshoots by
/// millimetres (the grasp's landing step: 48 -> 2 halvings). At most
/// kMaxStickTrials crossings are tried in one line search: where thousands of
/// contacts slide (a towel dragged over a table) the crossings lie dense, each
/// kink is small, and stepping from one to the next creeps (2,564 trials in one
/// search of a 20k-vertex towel, each a broad phase).
constexpr int kMaxStickTrials = 4;
double backtrack(double alpha, const std::vector<double>& stick_crossings, int& stick_trials) {
  const auto below = std::find_if(stick_crossings.begin(), stick_crossings.end(), [&](double a) { return a < alpha; });
  if (stick_trials < kMaxStickTrials && below != stick_crossings.end() && *below >= alpha / 16) {
    ++stick_trials;
    return *below;
  }
  return alpha / 2;
}

Positions as_positions(const VecX& v) {
  Positions p(v.size() / 3, 3);
  flat(p) = v;
  return p;
}

}  // namespace

NewtonSolver::NewtonSolver(const DofSystem& system, const SimulationParams& params, const IncrementalPotential& potential,
                           const ContactQueries& queries, PhaseTimes& times)
    : sys_(system), params_(params), potential_(potential), queries_(queries), times_(times) {}

bool NewtonSolver::converged_after_last_step(Positions& q, const Positions& dq, double move,
                                             const ContactSet& contacts) const {
  if (move / params_.dt >= params_.solver.newton_tol) return false;
  // Converged: still take this last (tiny) step when it is collision free.
  // Otherwise the stopping error, up to newton_tol * h per step, builds up
  // along a run that starts Newton near the answer (warm start).
  if (queries_.collision_free_fraction(q, dq, &contacts) >= 1.0) q += dq;
  return true;
}

bool NewtonSolver::newton_direction(const StepContext& s, const Positions& q, const ContactSet& contacts,
                                   const std::vector<bool>& fixed, Projection project, bool shift, double t1, VecX& direction,
                                   const std::function<void()>& beside, const VecX* gradient) {
  shift_ = 0.0;
  VecX g;
  SparseMatrix H;
  {
    ScopedTimer timer(times_.assembly);
    potential_.gradient_and_hessian(s, q, contacts, project, g, H, gradient);
    eliminate_fixed(H, g, fixed);
  }
  if (!g.allFinite()) throw SolverFailure("non-finite gradient (NaN or inf) at t = " + std::to_string(t1) + " s");
  ScopedTimer timer(times_.linear_solve);
  bool solved = false;
  parallel_both([&] { solved = linear_solver_.solve(H, -g, direction) && g.dot(direction) <= 0.0; }, beside);
  if (solved || !shift) return solved;
  // Levenberg-Marquardt: H + mu diag(M), mu in units of each DOF's own
  // inertia (a massless node's: the typical node mass), so one mu damps every
  // node alike whatever its mass.
  VecX inertia = sys_.node_mass().diagonal();
  for (Eigen::Index i = 0; i < inertia.size(); ++i)
    if (!(inertia[i] > 0.0)) inertia[i] = sys_.typical_node_mass();
  SparseMatrix shift_matrix(H.rows(), H.cols());
  shift_matrix.setIdentity();
  for (Eigen::Index i = 0; i < H.rows(); ++i) shift_matrix.coeffRef(i, i) = inertia[i / 3];
  for (double mu = std::max(kMinShift, last_shift_ / 10); mu <= kMaxShift; mu *= 10) {
    const SparseMatrix shifted = H + mu * shift_matrix;
    if (linear_solver_.solve(shifted, -g, direction) && g.dot(direction) <= 0.0) {
      shift_ = last_shift_ = mu;
      return true;
    }
  }
  return false;
}

bool NewtonSolver::chord_direction(const StepContext& s, const Positions& q, const ContactSet& contacts,
                                  const std::vector<bool>& fixed, VecX& direction, const VecX* gradient) {
  if (!factorized_ || factorized_->shifted || factorized_->fixed != fixed || !same_pairs(contacts, factorized_->contacts))
    return false;
  // Assembled where a contact stuck and it slides now: the matrix is up to
  // mu lambda 2 / (eps_v h) too stiff along its slip, and a chord step (or the
  // stopping test on it) would hold the contact back.
  if (s.friction && any_started_sliding(factorized_->sticking, *sys_.collision().shared_positions(q), s.x_prev, *s.friction))
    return false;
  VecX g;
  {
    ScopedTimer timer(times_.assembly);
    g = gradient ? *gradient : potential_.gradient(s, q, contacts);
    eliminate_fixed(g, fixed);
  }
  ScopedTimer timer(times_.linear_solve);
  return linear_solver_.solve_again(-g, direction);
}

bool NewtonSolver::last_matrix_step(const StepContext& s, const Positions& q, const ContactSet& contacts,
                                    const std::vector<bool>& fixed, VecX& direction) {
  if (!factorized_ || factorized_->fixed != fixed) return false;
  VecX g;
  {
    ScopedTimer timer(times_.assembly);
    g = potential_.gradient(s, q, contacts);
    eliminate_fixed(g, fixed);
  }
  if (!g.allFinite()) return false;
  ScopedTimer timer(times_.linear_solve);
  return linear_solver_.solve_again(-g, direction);
}

NewtonResult NewtonSolver::solve(const StepContext& s, Positions& q, const std::vector<bool>& fixed, double t1,
                                 const EarlyStop* early) {
  NewtonResult result;
  std::optional<double> e0;  // energy at q with the current contacts (known after an accepted step)
  std::optional<ContactSet> accepted = queries_.contacts_at(q);
  VecX direction;
  // The first direction of a step may come from the last step's factorisation.
  bool have_direction = !s.fresh_start && chord_direction(s, q, *accepted, fixed, direction);
  // Largest fine-vertex move of `direction`, known already for a chord step.
  double move = have_direction ? sys_.max_fine_displacement(as_positions(direction)) : 0.0;
  double last_step = std::numeric_limits<double>::infinity();  // the last accepted step's move
  // g(q) once known (from the line search that accepted q; q moves only there),
  // for the next direction, chord or fresh; empty before.
  VecX gradient_at_q;
  const auto known_gradient = [&]() -> const VecX* { return gradient_at_q.size() > 0 ? &gradient_at_q : nullptr; };
  for (int it = 1;; ++it) {
    if (it > params_.solver.max_newton_iters)
      throw SolverFailure("Newton did not converge in " + std::to_string(params_.solver.max_newton_iters) +
                          " iterations at t = " + std::to_string(t1) + " s");
    if (deadline_ && std::chrono::steady_clock::now() >= *deadline_)
      throw WallTimeExceeded("wall-time limit reached during Newton iteration " + std::to_string(it) +
                             " at t = " + std::to_string(t1) + " s");
    if (stop_check_)
      if (const std::optional<std::string> stop = stop_check_())
        throw Interrupted("interrupted by " + *stop + " during Newton iteration " + std::to_string(it) +
                          " at t = " + std::to_string(t1) + " s");
    result.iterations = it;
    const ContactSet contacts = std::move(*accepted);
    const bool chord_step = have_direction;
    if (!have_direction) {
      // The exact Hessian when it is positive definite (its factorisation
      // succeeds and the step descends), else the projected one: near the
      // answer the exact one converges quadratically where the projection,
      // which flattens negative curvature, creeps (docs/robustness.md).
      // The energy at q, which the line search needs first, beside the factorisation.
      const auto energy_at_q = [&] {
        if (!e0) e0 = potential_.energy(s, q, contacts);
      };
      const NewtonMatrix matrix = params_.solver.newton_matrix;
      const bool shift = matrix == NewtonMatrix::shifted;
      bool solved = matrix != NewtonMatrix::projected &&
                    newton_direction(s, q, contacts, fixed, false, false, t1, direction, energy_at_q, known_gradient());
      if (!solved && shift)
        solved = newton_direction(s, q, contacts, fixed, Projection::contacts_only(), true, t1, direction, energy_at_q,
                                  known_gradient());
      // A shifted direction is shorter than Newton's by up to 1 + mu: it
      // may not end the solve, the projected one decides instead.
      if (solved && shift_ > 0.0 &&
          sys_.max_fine_displacement(as_positions(direction)) / params_.dt < params_.solver.newton_tol)
        solved = false;
      if (!solved)
        solved = newton_direction(s, q, contacts, fixed, true, false, t1, direction, energy_at_q, known_gradient());
      if (!solved) {
        factorized_.reset();
        throw SolverFailure("linear solve failed (system not positive definite) at t = " + std::to_string(t1) + " s");
      }
      ++result.factorizations;
      if (shift_ > 0.0) ++result.shifted;
      factorized_ = Factorized{contacts, fixed,
                               s.friction ? sticking_contacts(*sys_.collision().shared_positions(q), s.x_prev, *s.friction)
                                          : std::vector<FrictionContactKey>{},
                               shift_ > 0.0};
    }
    const Positions dq = as_positions(direction);
    if (!chord_step) {
      move = sys_.max_fine_displacement(dq);
      // Not contracting: the elastic part kept from an earlier matrix may be
      // what is poor here, so the next matrix is assembled in full.
      if (move > kChordContraction * last_step) s.forget_elastic_hessian();
    }
    if (converged_after_last_step(q, dq, move, contacts)) return result;
    if (early && move < early->move) {
      if (early->stop(q, contacts)) {
        result.stopped_early = true;
        return result;
      }
      early = nullptr;  // asked once
    }

    // Largest collision-free step, then backtracking until the energy decreases.
    double alpha = std::min(1.0, queries_.collision_free_fraction(q, dq, &contacts));
    bool retry_with_newton = false;
    {
      ScopedTimer timer(times_.line_search);
      std::optional<std::vector<double>> stick_crossings;  // found at the first rejected trial
      int stick_trials = 0;
      if (!e0) e0 = potential_.energy(s, q, contacts);
      if (!std::isfinite(*e0))
        throw SolverFailure("non-finite energy (NaN or inf) at t = " + std::to_string(t1) + " s");
      for (;;) {
        const Positions trial = q + alpha * dq;
        // The trial's contact set (serial broad-phase bookkeeping, mostly) and
        // its elastic energy (per tet) are independent: side by side. The
        // damping term (a serial sparse product) goes beside the contacts.
        // Most trials are accepted, and the next direction starts from the
        // gradient there: its two parts come along, the elastic one from the
        // energy's pass over the tets (the same rotations).
        ContactSet trial_contacts;
        std::vector<double> elastic;
        VecX elastic_gradient, contact_gradient;
        double damping = 0.0;
        parallel_both(
            [&] {
              trial_contacts = queries_.contacts_at(trial);
              damping = potential_.damping_energy(s, trial);
              contact_gradient = potential_.contact_gradient(s, trial, trial_contacts);
            },
            [&] { elastic = potential_.elastic_energies(trial, &elastic_gradient); });
        const double e = potential_.energy(s, trial, trial_contacts, elastic, damping);
        if (e <= *e0) {
          e0 = e;
          last_step = alpha * move;
          q = trial;
          accepted = std::move(trial_contacts);
          gradient_at_q = potential_.gradient_from_parts(s, q, elastic_gradient, contact_gradient);
          break;
        }
        if (!stick_crossings)
          stick_crossings = s.friction ? friction_stick_crossings(*sys_.collision().shared_positions(q), *sys_.collision().shared_positions(q + dq),
                                                                  s.x_prev, *s.friction)
                                       : std::vector<double>{};
        alpha = backtrack(alpha, *stick_crossings, stick_trials);
        ++result.line_search_steps;
        if (alpha < 1e-12) {
          // No decrease even for a tiny step: the direction is at round-off
          // level, or (a chord step) too poor; then a fresh Newton direction.
          if (move / params_.dt < 1e3 * params_.solver.newton_tol) return result;
          if (chord_step) {
            retry_with_newton = true;
            break;
          }
          throw SolverFailure("line search found no decrease at t = " + std::to_string(t1) + " s");
        }
      }
    }
    if (retry_with_newton) {
      accepted = contacts;  // q unchanged
      have_direction = false;
      s.forget_elastic_hessian();
      continue;
    }
    // The next direction from the matrix already factorised (a chord step)
    // serves as the stopping test (the last iteration of most steps), and as
    // the next step while it shrinks at least kChordContraction-fold per step;
    // otherwise Newton assembles afresh.
    VecX chord;
    have_direction = false;
    if (chord_direction(s, q, *accepted, fixed, chord, known_gradient())) {
      const Positions chord_dq = as_positions(chord);
      const double chord_move = sys_.max_fine_displacement(chord_dq);
      if (converged_after_last_step(q, chord_dq, chord_move, *accepted)) return result;
      // A chord that does not contract leaves the elastic part kept: the
      // fresh matrix renews the contact and friction blocks, which are what
      // went stale on the grasp (its directions per step are the same either
      // way); a fresh direction that does not contract drops it (above).
      if (chord_move <= kChordContraction * alpha * move) {
        direction = std::move(chord);
        move = chord_move;
        have_direction = true;
      }
    }
  }
}

}  // namespace eipc
