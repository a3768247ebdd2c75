#include "eipc/dynamics/time_stepper.hpp"

#include "eipc/broad_phase/broad_phase.hpp"

#include "eipc/dynamics/contact_forces.hpp"
#include "eipc/friction/friction_rounds.hpp"
#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace eipc {

TimeStepper::TimeStepper(std::vector<Body> bodies, SimulationParams params)
    : sys_(std::move(bodies)),
      params_(params),
      potential_(sys_, params_),
      queries_(sys_, params_, times_),
      newton_(sys_, params_, potential_, queries_, times_),
      target_override_(sys_.bodies().size()) {
  q_ = sys_.rest_nodes();
  v_.setZero(q_.rows(), 3);
  for (std::size_t b = 0; b < sys_.bodies().size(); ++b)
    v_.middleRows(sys_.node_offset(static_cast<int>(b)), sys_.bodies()[b].num_nodes()).rowwise() =
        sys_.bodies()[b].initial_velocity.transpose();
  for (const PrescribedNode& p : sys_.prescribed()) v_.row(p.node).setZero();
}

void TimeStepper::set_prescribed_targets(int body, const Positions& targets) {
  const Positions current = prescribed_targets(body, time());  // checks the body
  if (targets.rows() != current.rows() || targets.cols() != 3)
    throw std::invalid_argument("body '" + sys_.bodies()[body].name + "' has " + std::to_string(current.rows()) +
                                " prescribed nodes, got " + std::to_string(targets.rows()) + " targets");
  target_override_[body] = targets;
}

void TimeStepper::clear_prescribed_targets(int body) { target_override_.at(body).reset(); }

Positions TimeStepper::prescribed_targets(int body, double t) const {
  if (body < 0 || body >= static_cast<int>(sys_.bodies().size()))
    throw std::invalid_argument("no body " + std::to_string(body));
  const std::vector<Vec3> all = all_prescribed_targets(t);
  std::vector<int> rows;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (sys_.prescribed()[i].body == body) rows.push_back(static_cast<int>(i));
  if (rows.empty()) throw std::invalid_argument("body '" + sys_.bodies()[body].name + "' has no prescribed nodes");
  Positions out(static_cast<Eigen::Index>(rows.size()), 3);
  for (std::size_t k = 0; k < rows.size(); ++k) out.row(static_cast<Eigen::Index>(k)) = all[rows[k]].transpose();
  return out;
}

std::vector<Vec3> TimeStepper::all_prescribed_targets(double t) const {
  std::vector<Vec3> targets;
  std::vector<int> rank(sys_.bodies().size(), 0);  // the node's row among its body's prescribed nodes
  for (const PrescribedNode& p : sys_.prescribed()) {
    const Body& b = sys_.bodies()[p.body];
    const int row = rank[p.body]++;
    if (target_override_[p.body]) {
      targets.push_back(target_override_[p.body]->row(row).transpose());
      continue;
    }
    const Vec3 rest = b.node_rest.row(p.node - sys_.node_offset(p.body)).transpose();
    targets.push_back(b.motion.apply(t, rest, b.pivot));
  }
  return targets;
}

std::vector<Positions> TimeStepper::fine_positions() const {
  std::vector<Positions> out;
  for (std::size_t b = 0; b < sys_.bodies().size(); ++b) out.push_back(sys_.fine_positions(static_cast<int>(b), q_));
  return out;
}

bool TimeStepper::try_move_prescribed(Positions& q, const std::vector<Vec3>& targets) const {
  Positions dq = Positions::Zero(q.rows(), 3);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const int node = sys_.prescribed()[i].node;
    dq.row(node) = targets[i].transpose() - q.row(node);
  }
  if (dq.isZero(0.0)) return true;
  if (queries_.collision_free_fraction(q, dq) < 1.0) return false;
  q += dq;
  return true;
}

std::optional<Positions> TimeStepper::keyframe_start(const StepContext& s, const std::vector<Vec3>& targets) {
  // With the prescribed nodes at their targets and the free ones at their
  // prediction the body is bent by the jump; the last matrix's step from there
  // is that bend's elastic answer (and the contacts' of the last step).
  Positions bent = s.q_tilde;
  for (std::size_t i = 0; i < targets.size(); ++i) bent.row(sys_.prescribed()[i].node) = targets[i].transpose();
  VecX step;
  if (!contacts_ || !newton_.last_matrix_step(s, bent, *contacts_, prescribed_dofs(), step)) return std::nullopt;
  Positions dq(bent.rows(), 3);
  flat(dq) = step;
  return bent + dq;
}

std::vector<bool> TimeStepper::prescribed_dofs() const {
  std::vector<bool> dofs(std::size_t(sys_.num_dofs()), false);
  for (const PrescribedNode& p : sys_.prescribed())
    for (int d = 0; d < 3; ++d) dofs[std::size_t(3 * p.node + d)] = true;
  return dofs;
}

bool TimeStepper::start_step(Positions& q, const std::vector<Vec3>& targets, const Positions& free_start,
                              const ContactSet* contacts) const {
  auto free_nodes_to_start = [&](const Positions& from) {
    Positions d = free_start - from;
    for (const PrescribedNode& p : sys_.prescribed()) d.row(p.node).setZero();
    return d;
  };
  Positions both = free_nodes_to_start(q);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const int node = sys_.prescribed()[i].node;
    both.row(node) = targets[i].transpose() - q.row(node);
  }
  // Usually the whole move is collision free: one CCD pass.
  if (!both.isZero(0.0) && queries_.collision_free_fraction(q, both, contacts) >= 1.0) {
    q += both;
    return true;
  }
  const bool moved = try_move_prescribed(q, targets);
  const Positions to_start = free_nodes_to_start(q);
  if (!to_start.isZero(0.0)) q += std::min(1.0, queries_.collision_free_fraction(q, to_start)) * to_start;
  return moved;
}

TimeStepper::Gaps TimeStepper::current_gaps() const {
  const Positions x = sys_.collision().positions(q_);
  const Candidates c = find_candidates(sys_.collision().mesh(), x, x,
                                       params_.contact.dhat + sys_.collision().mesh().max_contact_offset());
  return {minimum_distance(sys_.collision().mesh(), x, c, params_.ground_height),
          closest_bodies(sys_.collision().mesh(), x, c, params_.ground_height)};
}

bool TimeStepper::solve_round(StepContext& s, Positions& q, const std::vector<bool>& fixed, double t1,
                              StepStats& stats, const EarlyStop* early) {
  const auto add = [&](const NewtonResult& r) {
    stats.newton_iterations += r.iterations;
    stats.factorizations += r.factorizations;
    stats.shifted += r.shifted;
    stats.line_search_steps += r.line_search_steps;
  };
  if (s.targets.empty()) {
    const NewtonResult r = newton_.solve(s, q, fixed, t1, early);
    add(r);
    return r.stopped_early;
  }
  auto residual = [&](const Positions& qq) {
    double r = 0;
    for (const PrescribedTarget& t : s.targets) r += t.weight * (qq.row(t.node).transpose() - t.target).squaredNorm();
    return std::sqrt(r);
  };
  const double initial = residual(q_);
  for (int round = 0; round < params_.solver.max_al_rounds; ++round) {
    add(newton_.solve(s, q, fixed, t1));
    const double progress = 1.0 - residual(q) / initial;
    if (progress >= 0.999) break;
    if (progress < 0.99) {
      s.al_stiffness *= 2.0;
    } else {
      for (PrescribedTarget& t : s.targets) t.lambda -= s.al_stiffness * (q.row(t.node).transpose() - t.target);
    }
  }
  return false;
}

StepStats TimeStepper::step() {
  const auto start = std::chrono::steady_clock::now();
  const double h = params_.dt;
  const double t1 = (step_ + 1) * h;
  const CollisionMesh& mesh = sys_.collision().mesh();

  sys_.follow_shell_angles(q_);  // a fold closing past pi within the step stays continuous
  StepContext s;
  s.q_prev = q_;
  s.q_tilde = q_ + h * v_;
  s.x_prev = sys_.collision().positions(q_);
  s.external_force = sys_.gravity_force(params_.gravity);
  if (params_.contact.friction > 0) {
    if (!contacts_) contacts_ = queries_.contacts_at(q_);
    s.friction = build_friction_set(mesh, s.x_prev, *contacts_, params_.contact.dhat, params_.contact.kappa,
                                    params_.contact.friction, params_.contact.epsv, h);
  }
  Positions q = q_;
  const std::vector<Vec3> targets = all_prescribed_targets(t1);
  // How far the prescribed nodes' targets leave their inertial prediction: a
  // keyframe changing their velocity makes the last step's matrix a poor start.
  double departure = 0.0;
  for (std::size_t i = 0; i < targets.size(); ++i)
    departure = std::max(departure, (targets[i] - s.q_tilde.row(sys_.prescribed()[i].node).transpose()).norm());
  const bool jump = departure > kFreshStartDeparture * params_.solver.newton_tol * h;
  // Newton's matrices keep their elastic part, from the last step's on, unless
  // the prescribed nodes jump: then the body is bent away from where it was
  // assembled and bends on within the step (FinRay, whose steps all jump, ran
  // 5% slower with the part kept inside such steps).
  // With shells in the scene none is carried from step to step: the part
  // kept from the last step made a 20k-vertex towel's directions poor enough
  // to double its wall (docs/performance.md, "The elastic Hessian kept").
  s.reuse_elastic_hessian = !jump;
  if (!jump && sys_.shell_bodies().empty()) s.elastic_hessian_memo = std::move(elastic_hessian_);
  // Starting from x_t + h v_t instead of x_t halves the Newton iterations of
  // steady motion (grasp: 5.8 -> 3.6 per step at h = 0.02) with the same result.
  // The start's CCD and the damping matrix are independent: side by side.
  bool moved = false;
  auto damping = [&] {
    // swap, not `=`: Eigen's SparseMatrix copies even from a temporary.
    potential_.damping_matrix(q_).swap(s.damping);
    s.damping_memo_x.resize(0);
  };
  if (jump) {
    damping();  // keyframe_start's gradient includes it
    const std::optional<Positions> start = keyframe_start(s, targets);
    // From the last matrix's answer to the jump its chord is a fair first
    // direction again; from the bent prediction it was not.
    s.fresh_start = !start;
    moved = start_step(q, targets, start ? *start : s.q_tilde, contacts_ ? &*contacts_ : nullptr);
  } else {
    parallel_both(damping, [&] { moved = start_step(q, targets, s.q_tilde, contacts_ ? &*contacts_ : nullptr); });
  }
  const std::vector<bool> fixed = moved ? prescribed_dofs() : std::vector<bool>(std::size_t(sys_.num_dofs()), false);
  if (!moved) {
    // Augmented Lagrangian (IPC 2020, Sec. 4.4): pull prescribed nodes towards
    // their targets through the energy, so the barrier keeps everything apart.
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const int node = sys_.prescribed()[i].node;
      const double m = sys_.node_mass().coeff(node, node);
      s.targets.push_back({node, targets[i], Vec3::Zero(), m > 0 ? m : sys_.typical_node_mass()});
    }
    s.al_stiffness = 1e3;
  }
  StepStats stats;
  // Friction rounds (IPC's friction iterations): the friction lagged at x^n
  // holds little where a contact is new or its normal force grows within the
  // step, so the body slips by h^2-small amounts it never gets back. Rebuild
  // the lagged normal forces, tangent bases and contacts at the solution and
  // solve again (from there) until the normal forces settle.
  std::optional<ContactSet> end_contacts;  // contacts at q, when known
  const int max_rounds = s.friction ? std::max(1, params_.contact.friction_max_rounds) : 1;
  const auto friction_at = [&](const Positions& qq, const ContactSet& contacts) {
    return build_friction_set(mesh, *sys_.collision().shared_positions(qq), contacts, params_.contact.dhat,
                              params_.contact.kappa, params_.contact.friction, params_.contact.epsv, h);
  };
  // A round whose forces will not settle need not be solved to newton_tol: once
  // Newton is within kFrictionPeek x newton_tol, check the forces there, and if
  // they moved by more than friction_tol already, start the next round from there.
  std::optional<FrictionSet> peeked;
  const EarlyStop early{kFrictionPeek * params_.solver.newton_tol * h,
                        [&](const Positions& qq, const ContactSet& contacts) {
                          FrictionSet next = friction_at(qq, contacts);
                          if (relative_normal_force_change(*s.friction, next) <= params_.contact.friction_tol)
                            return false;
                          peeked = std::move(next);
                          return true;
                        }};
  for (int round = 1;; ++round) {
    stats.friction_rounds = round;
    if (solve_round(s, q, fixed, t1, stats, round < max_rounds ? &early : nullptr)) {
      s.friction = std::move(peeked);
      continue;
    }
    if (round >= max_rounds) break;
    end_contacts = queries_.contacts_at(q);
    FrictionSet next = friction_at(q, *end_contacts);
    // Settled: keep the set this solution was solved with (its forces are reported).
    if (relative_normal_force_change(*s.friction, next) <= params_.contact.friction_tol) break;
    s.friction = std::move(next);
    end_contacts.reset();
  }
  if (!moved) {
    // Close the remaining gap exactly when that is collision free.
    s.targets.clear();
    try_move_prescribed(q, targets);
    end_contacts.reset();
  }

  const Positions v = (q - q_) / h;
  if (!q.allFinite() || !v.allFinite())
    throw SolverFailure("non-finite state (NaN or inf) after the step to t = " + std::to_string(t1) + " s");
  v_ = v;
  q_ = q;
  ++step_;
  elastic_hessian_ = std::move(s.elastic_hessian_memo);

  const std::shared_ptr<const Positions> at = sys_.collision().shared_positions(q_);
  const Positions& x = *at;
  contacts_ = end_contacts ? std::move(end_contacts) : queries_.contacts_at(q_);
  const ContactSet& contacts = *contacts_;
  stats.min_distance =
      minimum_distance(mesh, x, contacts, [&]() -> const Candidates& { return queries_.candidates_near(q_); });
  stats.active_pairs = static_cast<int>(contacts.size());
  const FrictionSet friction = s.friction.value_or(FrictionSet{});
  forces_ = body_pair_forces(mesh, contacts, contact_normal_forces(x, contacts, params_.contact.dhat, params_.contact.kappa),
                             friction, contact_friction_forces(x, s.x_prev, friction));
  stats.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace eipc
