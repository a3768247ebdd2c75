#include "eipc/dynamics/simulator.hpp"

#include "eipc/contact/broad_phase.hpp"
#include "eipc/contact/ccd_step.hpp"
#include "eipc/contact/contact_forces.hpp"
#include "eipc/contact/friction_potential.hpp"
#include "eipc/contact/minimum_distance.hpp"
#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <chrono>
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

/// Also zeroes the rows and columns of fixed DOFs and puts 1 on their diagonal
/// (kept in place, so the pattern does not depend on which DOFs are fixed).
void eliminate_fixed(SparseMatrix& H, VecX& g, const std::vector<bool>& fixed) {
  for (int col = 0; col < H.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(H, col); it; ++it)
      if (fixed[it.row()] || fixed[col]) it.valueRef() = it.row() == col ? 1.0 : 0.0;
  eliminate_fixed(g, fixed);
}

/// Adds the wall time of its lifetime to a counter.
class ScopedTimer {
public:
  explicit ScopedTimer(double& total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
  double& total_;
  std::chrono::steady_clock::time_point start_;
};

/// The next trial below a rejected step alpha: the largest step in [alpha / 16,
/// alpha) at which a sliding contact sticks (descending list), else alpha / 2.
/// There the friction force reverses, a kink of the energy along the direction
/// that Newton's model, without curvature along the slip, overshoots by
/// millimetres (the grasp's landing step: 48 -> 2 halvings).
double backtrack(double alpha, const std::vector<double>& stick_crossings) {
  const auto below = std::find_if(stick_crossings.begin(), stick_crossings.end(), [&](double a) { return a < alpha; });
  return below != stick_crossings.end() && *below >= alpha / 16 ? *below : alpha / 2;
}

Positions as_positions(const VecX& v) {
  Positions p(v.size() / 3, 3);
  flat(p) = v;
  return p;
}

}  // namespace

Simulator::Simulator(std::vector<Body> bodies, SimulationParams params)
    : sys_(std::move(bodies)),
      params_(params),
      potential_(sys_, params_),
      candidates_(params_.contact.dhat, kMinSkin * params_.contact.dhat, kMaxSkin * params_.contact.dhat,
                  kContactSkin * params_.contact.dhat) {
  q_ = sys_.rest_nodes();
  v_.setZero(q_.rows(), 3);
  for (std::size_t b = 0; b < sys_.bodies().size(); ++b)
    v_.middleRows(sys_.node_offset(static_cast<int>(b)), sys_.bodies()[b].num_nodes()).rowwise() =
        sys_.bodies()[b].initial_velocity.transpose();
  for (const PrescribedNode& p : sys_.prescribed()) v_.row(p.node).setZero();
}

std::vector<Positions> Simulator::fine_positions() const {
  std::vector<Positions> out;
  for (std::size_t b = 0; b < sys_.bodies().size(); ++b) out.push_back(sys_.fine_positions(static_cast<int>(b), q_));
  return out;
}

std::vector<Vec3> Simulator::prescribed_targets(double t) const {
  std::vector<Vec3> targets;
  for (const PrescribedNode& p : sys_.prescribed()) {
    const Body& b = sys_.bodies()[p.body];
    const Vec3 rest = b.node_rest.row(p.node - sys_.node_offset(p.body)).transpose();
    targets.push_back(b.motion.apply(t, rest, b.pivot));
  }
  return targets;
}

double Simulator::sweep(const Positions& q, const Positions& dq, const ContactSet* contacts) const {
  const Positions x0 = sys_.collision_positions(q);
  const Positions x1 = sys_.collision_positions(q + dq);
  // No distance (pair or ground) changes by more than twice the largest vertex
  // move, and every pair is at least min(dhat, closest contact) apart, so a
  // move that cannot close (1 - ratio) of that keeps every pair above the
  // CCD's separation without any collision test.
  if (contacts) {
    const double closest = std::min(params_.contact.dhat, closest_contact_distance(*contacts, x0));
    const double move = x0.rows() > 0 ? (x1 - x0).rowwise().norm().maxCoeff() : 0.0;
    if (2.0 * move < (1.0 - params_.solver.ccd_separation_ratio) * closest) return 1.0;
  }
  const Candidates* candidates;
  {
    ScopedTimer timer(times_.broad_phase);
    candidates = &candidates_.along(sys_.collision_mesh(), x0, x1);
  }
  ScopedTimer timer(times_.ccd);
  return max_collision_free_step(sys_.collision_mesh(), x0, x1, *candidates, params_.ground_height,
                                 params_.solver.ccd_separation_ratio);
}

const Candidates& Simulator::candidates_near(const Positions& q) const {
  ScopedTimer timer(times_.broad_phase);
  return candidates_.around(sys_.collision_mesh(), sys_.collision_positions(q));
}

ContactSet Simulator::contacts_at(const Positions& q) const {
  const Positions x = sys_.collision_positions(q);
  const Candidates* c;
  {
    ScopedTimer timer(times_.broad_phase);
    c = &candidates_.for_contacts(sys_.collision_mesh(), x);
  }
  return build_contact_set(sys_.collision_mesh(), x, *c, params_.contact.dhat, params_.ground_height);
}

bool Simulator::try_move_prescribed(Positions& q, const std::vector<Vec3>& targets) const {
  Positions dq = Positions::Zero(q.rows(), 3);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const int node = sys_.prescribed()[i].node;
    dq.row(node) = targets[i].transpose() - q.row(node);
  }
  if (dq.isZero(0.0)) return true;
  if (sweep(q, dq) < 1.0) return false;
  q += dq;
  return true;
}

bool Simulator::start_step(Positions& q, const std::vector<Vec3>& targets, const Positions& q_tilde,
                           const ContactSet* contacts) const {
  auto free_nodes_to_tilde = [&](const Positions& from) {
    Positions d = q_tilde - from;
    for (const PrescribedNode& p : sys_.prescribed()) d.row(p.node).setZero();
    return d;
  };
  Positions both = free_nodes_to_tilde(q);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const int node = sys_.prescribed()[i].node;
    both.row(node) = targets[i].transpose() - q.row(node);
  }
  // Usually the whole move is collision free: one sweep.
  if (!both.isZero(0.0) && sweep(q, both, contacts) >= 1.0) {
    q += both;
    return true;
  }
  const bool moved = try_move_prescribed(q, targets);
  const Positions to_tilde = free_nodes_to_tilde(q);
  if (!to_tilde.isZero(0.0)) q += std::min(1.0, sweep(q, to_tilde)) * to_tilde;
  return moved;
}

double Simulator::current_min_distance() const {
  const Positions x = sys_.collision_positions(q_);
  const Candidates c = find_candidates(sys_.collision_mesh(), x, x, params_.contact.dhat);
  return minimum_distance(sys_.collision_mesh(), x, c, params_.ground_height);
}

bool Simulator::finished(Positions& q, const Positions& dq, double move, const ContactSet& contacts) const {
  if (move / params_.dt >= params_.solver.newton_tol) return false;
  // Converged: still take this last (tiny) step when it is collision free.
  // Otherwise the stopping error, up to newton_tol * h per step, builds up
  // along a run that starts Newton near the answer (warm start).
  if (sweep(q, dq, &contacts) >= 1.0) q += dq;
  return true;
}

bool Simulator::newton_direction(const StepState& s, const Positions& q, const ContactSet& contacts,
                                 const std::vector<bool>& fixed, bool project, double t1, VecX& direction) {
  VecX g;
  SparseMatrix H;
  {
    ScopedTimer timer(times_.assembly);
    potential_.gradient_and_hessian(s, q, contacts, project, g, H);
    eliminate_fixed(H, g, fixed);
  }
  if (!g.allFinite()) throw SolverFailure("non-finite gradient (NaN or inf) at t = " + std::to_string(t1) + " s");
  ScopedTimer timer(times_.linear_solve);
  return linear_solver_.solve(H, -g, direction) && g.dot(direction) <= 0.0;
}

bool Simulator::chord_direction(const StepState& s, const Positions& q, const ContactSet& contacts,
                                const std::vector<bool>& fixed, VecX& direction) {
  if (!factorized_ || factorized_->fixed != fixed || !same_pairs(contacts, factorized_->contacts)) return false;
  VecX g;
  {
    ScopedTimer timer(times_.assembly);
    g = potential_.gradient(s, q, contacts);
    eliminate_fixed(g, fixed);
  }
  ScopedTimer timer(times_.linear_solve);
  return linear_solver_.solve_again(-g, direction);
}

Simulator::NewtonResult Simulator::newton(StepState& s, Positions& q, const std::vector<bool>& fixed, double t1) {
  NewtonResult result;
  std::optional<double> e0;  // energy at q with the current contacts (known after an accepted step)
  std::optional<ContactSet> accepted = contacts_at(q);
  VecX direction;
  // The first direction of a step may come from the last step's factorisation.
  bool have_direction = chord_direction(s, q, *accepted, fixed, direction);
  // Largest fine-vertex move of `direction`, known already for a chord step.
  double move = have_direction ? sys_.max_fine_displacement(as_positions(direction)) : 0.0;
  for (int it = 1;; ++it) {
    if (it > params_.solver.max_newton_iters)
      throw SolverFailure("Newton did not converge in " + std::to_string(params_.solver.max_newton_iters) +
                          " iterations at t = " + std::to_string(t1) + " s");
    if (deadline_ && std::chrono::steady_clock::now() >= *deadline_)
      throw WallTimeExceeded("wall-time limit reached during Newton iteration " + std::to_string(it) +
                             " at t = " + std::to_string(t1) + " s");
    result.iterations = it;
    const ContactSet contacts = std::move(*accepted);
    const bool chord_step = have_direction;
    if (!have_direction) {
      // The exact Hessian when it is positive definite (its factorisation
      // succeeds and the step descends), else the projected one: near the
      // answer the exact one converges quadratically where the projection,
      // which flattens negative curvature, creeps (docs/robustness.md).
      bool solved = params_.solver.exact_hessian_first && newton_direction(s, q, contacts, fixed, false, t1, direction);
      if (!solved) solved = newton_direction(s, q, contacts, fixed, true, t1, direction);
      if (!solved) {
        factorized_.reset();
        throw SolverFailure("linear solve failed (system not positive definite) at t = " + std::to_string(t1) + " s");
      }
      ++result.factorizations;
      factorized_ = Factorized{contacts, fixed};
    }
    const Positions dq = as_positions(direction);
    if (!chord_step) move = sys_.max_fine_displacement(dq);
    if (finished(q, dq, move, contacts)) return result;

    // Largest collision-free step, then backtracking until the energy decreases.
    double alpha = std::min(1.0, sweep(q, dq, &contacts));
    bool retry_with_newton = false;
    {
      ScopedTimer timer(times_.line_search);
      std::optional<std::vector<double>> stick_crossings;  // found at the first rejected trial
      if (!e0) e0 = potential_.energy(s, q, contacts);
      if (!std::isfinite(*e0))
        throw SolverFailure("non-finite energy (NaN or inf) at t = " + std::to_string(t1) + " s");
      for (;;) {
        const Positions trial = q + alpha * dq;
        // The trial's contact set (serial broad-phase bookkeeping, mostly) and
        // its elastic energy (per tet) are independent: side by side.
        ContactSet trial_contacts;
        std::vector<double> elastic;
        parallel_both([&] { trial_contacts = contacts_at(trial); },
                      [&] { elastic = potential_.elastic_energies(trial); });
        const double e = potential_.energy(s, trial, trial_contacts, elastic);
        if (e <= *e0) {
          e0 = e;
          q = trial;
          accepted = std::move(trial_contacts);
          break;
        }
        if (!stick_crossings)
          stick_crossings = s.friction ? friction_stick_crossings(sys_.collision_positions(q), sys_.collision_positions(q + dq),
                                                                  s.x_prev, *s.friction)
                                       : std::vector<double>{};
        alpha = backtrack(alpha, *stick_crossings);
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
      continue;
    }
    // The next direction from the matrix already factorised (a chord step)
    // serves as the stopping test (the last iteration of most steps), and as
    // the next step while it shrinks at least kChordContraction-fold per step;
    // otherwise Newton assembles afresh.
    VecX chord;
    have_direction = false;
    if (chord_direction(s, q, *accepted, fixed, chord)) {
      const Positions chord_dq = as_positions(chord);
      const double chord_move = sys_.max_fine_displacement(chord_dq);
      if (finished(q, chord_dq, chord_move, *accepted)) return result;
      if (chord_move <= kChordContraction * alpha * move) {
        direction = std::move(chord);
        move = chord_move;
        have_direction = true;
      }
    }
  }
}

StepStats Simulator::step() {
  const auto start = std::chrono::steady_clock::now();
  const double h = params_.dt;
  const double t1 = (step_ + 1) * h;
  const CollisionMesh& mesh = sys_.collision_mesh();

  StepState s;
  s.q_prev = q_;
  s.q_tilde = q_ + h * v_;
  s.x_prev = sys_.collision_positions(q_);
  s.external_force = sys_.gravity_force(params_.gravity);
  if (params_.contact.friction > 0) {
    if (!contacts_) contacts_ = contacts_at(q_);
    s.friction = build_friction_set(mesh, s.x_prev, *contacts_, params_.contact.dhat, params_.contact.kappa,
                                    params_.contact.friction, params_.contact.epsv, h);
  }
  Positions q = q_;
  const std::vector<Vec3> targets = prescribed_targets(t1);
  std::vector<bool> fixed(sys_.num_dofs(), false);
  // Starting from x_t + h v_t instead of x_t halves the Newton iterations of
  // steady motion (grasp: 5.8 -> 3.6 per step at h = 0.02) with the same result.
  // The start's sweep and the damping matrix are independent: side by side.
  bool moved = false;
  parallel_both([&] { s.damping = potential_.damping_matrix(q_); },
                [&] { moved = start_step(q, targets, s.q_tilde, contacts_ ? &*contacts_ : nullptr); });
  if (moved)
    for (const PrescribedNode& p : sys_.prescribed())
      for (int d = 0; d < 3; ++d) fixed[3 * p.node + d] = true;

  StepStats stats;
  if (moved) {
    const NewtonResult r = newton(s, q, fixed, t1);
    stats.newton_iterations = r.iterations;
    stats.factorizations = r.factorizations;
    stats.line_search_steps = r.line_search_steps;
  } else {
    // Augmented Lagrangian (IPC 2020, Sec. 4.4): pull prescribed nodes towards
    // their targets through the energy, so the barrier keeps everything apart.
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const int node = sys_.prescribed()[i].node;
      const double m = sys_.node_mass().coeff(node, node);
      s.targets.push_back({node, targets[i], Vec3::Zero(), m > 0 ? m : sys_.typical_node_mass()});
    }
    s.al_stiffness = 1e3;
    auto residual = [&](const Positions& qq) {
      double r = 0;
      for (const PrescribedTarget& t : s.targets) r += t.weight * (qq.row(t.node).transpose() - t.target).squaredNorm();
      return std::sqrt(r);
    };
    const double initial = residual(q_);
    for (int round = 0; round < params_.solver.max_al_rounds; ++round) {
      const NewtonResult r = newton(s, q, fixed, t1);
      stats.newton_iterations += r.iterations;
      stats.factorizations += r.factorizations;
      stats.line_search_steps += r.line_search_steps;
      const double progress = 1.0 - residual(q) / initial;
      if (progress >= 0.999) break;
      if (progress < 0.99) {
        s.al_stiffness *= 2.0;
      } else {
        for (PrescribedTarget& t : s.targets) t.lambda -= s.al_stiffness * (q.row(t.node).transpose() - t.target);
      }
    }
    // Close the remaining gap exactly when that is collision free.
    s.targets.clear();
    try_move_prescribed(q, targets);
  }

  const Positions v = (q - q_) / h;
  if (!q.allFinite() || !v.allFinite())
    throw SolverFailure("non-finite state (NaN or inf) after the step to t = " + std::to_string(t1) + " s");
  v_ = v;
  q_ = q;
  ++step_;

  const Positions x = sys_.collision_positions(q_);
  contacts_ = contacts_at(q_);
  const Candidates& c = candidates_near(q_);
  const ContactSet& contacts = *contacts_;
  stats.min_distance = minimum_distance(mesh, x, c, contacts);
  stats.active_pairs = static_cast<int>(contacts.size());
  const FrictionSet friction = s.friction.value_or(FrictionSet{});
  forces_ = body_pair_forces(mesh, contacts, contact_normal_forces(x, contacts, params_.contact.dhat, params_.contact.kappa),
                             friction, contact_friction_forces(x, s.x_prev, friction));
  stats.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace eipc
