#include "eipc/simulation/simulation.hpp"

#include "eipc/certify/state_check.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

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

void check_initial_state(const TimeStepper& stepper, const std::string& scene_path) {
  const certify::FrameCheck check = certify::check_stepper_state(stepper);
  if (check.ok()) return;
  const certify::Violation& v = check.examples.front();
  const auto name = [&](int b) { return b >= 0 ? "'" + stepper.system().bodies()[b].name + "'" : std::string("?"); };
  std::string what;
  switch (v.kind) {
    case certify::ViolationKind::degenerate_triangle:
      what = "body " + name(v.body_a) + " has a degenerate surface triangle " + std::to_string(v.index_a);
      break;
    case certify::ViolationKind::ground:
      what = "body " + name(v.body_a) + " vertex " + std::to_string(v.index_a) + " is at or below the ground";
      break;
    case certify::ViolationKind::triangle_pair:
      what = "surface triangles of bodies " + name(v.body_a) + " and " + name(v.body_b) + " touch or intersect";
      break;
    default:
      what = "body " + name(v.body_a) + " starts inside body " + name(v.body_b);
  }
  throw InputError(scene_path + ": the initial configuration is not intersection free (" + what + "; " +
                   std::to_string(check.total()) + " violations in total, checked exactly)");
}

TrajectoryHeader make_trajectory_header(const Scene& scene, int threads) {
  const SimulationParams& p = scene.params;
  TrajectoryHeader h;
  h.scenario = scene.name;
  h.scene_json = scene.json.dump();
  h.solver_json = nlohmann::json{{"newton_tol", p.solver.newton_tol},
                                 {"max_newton_iters", p.solver.max_newton_iters},
                                 {"ccd_separation_ratio", p.solver.ccd_separation_ratio}}
                      .dump();
  h.contact_json = nlohmann::json{{"kappa", p.contact.kappa},
                                  {"dhat", p.contact.dhat},
                                  {"epsv", p.contact.epsv},
                                  {"friction", p.contact.friction}}
                       .dump();
  h.dt = p.dt;
  h.duration = scene.duration;
  h.ground_height = p.ground_height;
  h.code_version = EIPC_VERSION;
  h.threads = threads;
  for (const Body& b : scene.bodies) {
    TrajectoryBody tb;
    tb.name = b.name;
    tb.embedding = b.embedding;
    tb.kinematic = b.kinematic;
    tb.rest = b.fine_rest;
    tb.surface = b.surface;
    tb.tets = b.fine_tets;
    if (b.fine_element.size() > 0)
      tb.embedding_data = EmbeddingData{b.node_rest, b.elements, b.fine_element, b.fine_map.weights};
    h.bodies.push_back(std::move(tb));
  }
  return h;
}

Simulation::Simulation(Scene scene, int threads)
    : scene_(std::move(scene)),
      threads_(std::make_unique<ThreadLimit>(threads)),
      header_(make_trajectory_header(scene_, threads_->threads())),
      stepper_(std::make_unique<TimeStepper>(scene_.bodies, scene_.params)),
      pending_(no_steps_yet()) {
  check_initial_state(*stepper_, scene_.path);
  frame0_stats_.min_distance = stepper_->current_min_distance();
}

int Simulation::body_index(const std::string& name) const {
  const std::vector<Body>& bodies = stepper_->system().bodies();
  for (std::size_t b = 0; b < bodies.size(); ++b)
    if (bodies[b].name == name) return static_cast<int>(b);
  throw InputError(scene_.path + ": no body named '" + name + "'");
}

void Simulation::add_sink(FrameSink& sink) {
  if (step_index() != 0 || finished_) throw std::logic_error("sinks are added before the first step");
  sinks_.push_back(&sink);
  sink.append(current_frame(frame0_stats_));
}

void Simulation::set_wall_limit(double seconds, std::string label) {
  wall_limit_ = seconds;
  wall_limit_label_ = std::move(label);
  if (run_start_)
    stepper_->set_deadline(*run_start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(seconds)));
}

void Simulation::set_stop_check(StopCheck check) {
  stop_check_ = check;
  stepper_->set_stop_check(std::move(check));
}

void Simulation::set_prescribed_transform(int body, const Mat3& rotation, const Vec3& translation) {
  const DofSystem& sys = stepper_->system();
  const Body& b = sys.bodies().at(static_cast<std::size_t>(body));
  std::vector<Vec3> targets;  // in the order of sys.prescribed(), as set_prescribed_targets expects
  for (const PrescribedNode& p : sys.prescribed())
    if (p.body == body) {
      const Vec3 x = b.node_rest.row(p.node - sys.node_offset(body)).transpose();
      targets.push_back(rotation * (x - b.pivot) + b.pivot + translation);
    }
  Positions rows(static_cast<Eigen::Index>(targets.size()), 3);
  for (std::size_t k = 0; k < targets.size(); ++k) rows.row(static_cast<Eigen::Index>(k)) = targets[k].transpose();
  stepper_->set_prescribed_targets(body, rows);  // throws for a body without prescribed nodes
}

Frame Simulation::current_frame(const StepStats& stats) const {
  Frame f;
  f.step = stepper_->step_index();
  f.time = stepper_->time();
  f.positions = stepper_->fine_positions();
  f.stats = stats;
  f.pair_forces = stepper_->contact_forces();
  return f;
}

void Simulation::send(const Frame& frame) {
  for (FrameSink* sink : sinks_) sink->append(frame);
}

void Simulation::finish(TrajectoryStatus status, const std::string& reason) {
  finished_ = true;
  for (FrameSink* sink : sinks_) sink->finish(status, reason);
}

StepStats Simulation::step() {
  if (finished_) throw std::logic_error("the run has ended (" + (summary_.failed ? summary_.reason : "complete") + ")");
  const auto now = std::chrono::steady_clock::now();
  if (!run_start_) {
    run_start_ = now;
    if (wall_limit_) set_wall_limit(*wall_limit_, wall_limit_label_);
  }
  const long n = step_index() + 1;
  StepStats s;
  try {
    if (stop_check_)
      if (const std::optional<std::string> stop = stop_check_()) throw Interrupted("interrupted by " + *stop + " before the step");
    if (wall_limit_ && now - *run_start_ >= std::chrono::duration<double>(*wall_limit_))
      throw WallTimeExceeded("wall-time limit reached before the step");
    s = stepper_->step();
  } catch (const SolverFailure& e) {
    summary_.failed = true;
    summary_.interrupted = dynamic_cast<const Interrupted*>(&e) != nullptr;
    summary_.reason = fmt::format("step {}: {}", n, e.what());
    if (dynamic_cast<const WallTimeExceeded*>(&e) && !wall_limit_label_.empty())
      summary_.reason = wall_limit_label_ + ": " + summary_.reason;
    // Keep the last completed state even when it is between output frames.
    if (summary_.steps % scene_.output_stride != 0) send(current_frame(pending_));
    finish(TrajectoryStatus::incomplete, summary_.reason);
    summary_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - *run_start_).count();
    summary_.phases = stepper_->phase_times();
    throw;
  }
  accumulate(pending_, s);
  summary_.steps = n;
  summary_.simulated_seconds = stepper_->time();
  summary_.newton_total += s.newton_iterations;
  summary_.newton_max = std::max(summary_.newton_max, s.newton_iterations);
  summary_.line_search_total += s.line_search_steps;
  summary_.factorization_total += s.factorizations;
  summary_.friction_rounds_total += s.friction_rounds;
  summary_.friction_rounds_max = std::max(summary_.friction_rounds_max, s.friction_rounds);
  summary_.min_distance = std::min(summary_.min_distance, s.min_distance);
  if (n % scene_.output_stride == 0 || n == scene_.steps) {
    send(current_frame(pending_));
    pending_ = no_steps_yet();
  }
  if (n == scene_.steps) finish(TrajectoryStatus::complete, "");
  summary_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - *run_start_).count();
  summary_.phases = stepper_->phase_times();
  return s;
}

const RunSummary& Simulation::run(const std::function<void(const Simulation&, const StepStats&)>& on_step) {
  try {
    while (!finished_) {
      const StepStats s = step();
      if (on_step) on_step(*this, s);
    }
  } catch (const SolverFailure&) {
    // step() has finished the sinks and recorded the reason.
  }
  return summary_;
}

}  // namespace eipc
