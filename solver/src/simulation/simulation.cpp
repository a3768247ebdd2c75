#include "eipc/simulation/simulation.hpp"

#include "eipc/certify/state_check.hpp"
#include "eipc/embedding/contact_patch.hpp"
#include "eipc/util/spelling.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace eipc {

void check_initial_state(const TimeStepper& stepper, const std::string& scene_path) {
  // A profiling hook, for valgrind only: CGAL's filtered predicates set the
  // FPU's rounding mode, which valgrind ignores (it always rounds to nearest),
  // so under valgrind the exact check misjudges touching-but-valid starts
  // (FinRay's fingers). The simulation itself never changes the rounding mode,
  // so its trajectory under valgrind is the native one (docs/performance.md).
  if (const char* skip = std::getenv("EIPC_PROFILE_SKIP_INITIAL_CHECK"); skip && *skip == '1') return;
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

namespace {

/// A barrier that acts from the first step pushes the bodies apart at once: a jump in
/// the first frames that no h resolves, so E(h) is dominated by them (docs/error-metric.md).
std::optional<std::string> start_within_dhat(const TimeStepper& stepper, const BodyGap& gap, const Scene& scene) {
  const double dhat = scene.params.contact.dhat;
  if (!(gap.distance < dhat)) return std::nullopt;
  const auto& bodies = stepper.system().bodies();
  const std::string b = gap.body_b < 0 ? "the ground" : "'" + bodies[std::size_t(gap.body_b)].name + "'";
  return fmt::format("{}: '{}' and {} start {:.3g} m apart, within the barrier's reach dhat = {:.3g} m: the barrier "
                     "pushes them apart in the first steps, which can dominate E(h) and lower its fitted order; "
                     "start them more than dhat apart (docs/error-metric.md)",
                     scene.path, bodies[std::size_t(gap.body_a)].name, b, gap.distance, dhat);
}

}  // namespace

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
      tb.embedding_data = EmbeddingData{b.node_rest.topRows(b.num_nodes() - static_cast<int>(b.patch_vertices.size())),
                                        b.elements, b.fine_element, element_weights(b, b.fine_rest)};
    h.bodies.push_back(std::move(tb));
  }
  return h;
}

/// eipc's TimeStepper as the run loop's Stepper: a failed step is not taken, so its state
/// is still the last completed one; the deadline and stop check reach its Newton iterations.
class Simulation::EipcStepper final : public Stepper {
public:
  explicit EipcStepper(TimeStepper& s) : s_(s) {}
  StepStats step() override { return s_.step(); }
  long step_index() const override { return s_.step_index(); }
  double time() const override { return s_.time(); }
  Frame frame(const StepStats& stats) const override {
    Frame f;
    f.step = s_.step_index();
    f.time = s_.time();
    f.positions = s_.fine_positions();
    f.stats = stats;
    f.pair_forces = s_.contact_forces();
    return f;
  }
  bool keeps_state_on_failure() const override { return true; }
  void set_deadline(std::chrono::steady_clock::time_point deadline) override { s_.set_deadline(deadline); }
  void set_stop_check(StopCheck check) override { s_.set_stop_check(std::move(check)); }
  void add_to_summary(RunSummary& summary) const override { summary.phases = s_.phase_times(); }

private:
  TimeStepper& s_;
};

Simulation::Simulation(Scene scene, int threads)
    : scene_(std::move(scene)),
      threads_(std::make_unique<ThreadLimit>(threads)),
      header_(make_trajectory_header(scene_, threads_->threads())),
      stepper_(std::make_unique<TimeStepper>(scene_.bodies, scene_.params)),
      eipc_stepper_(std::make_unique<EipcStepper>(*stepper_)) {
  check_initial_state(*stepper_, scene_.path);
  StepStats frame0;
  const TimeStepper::Gaps gaps = stepper_->current_gaps();
  // Only a shell's pair can be this close without intersecting: its barrier would start infinite.
  if (!(gaps.min_distance > 0.0))
    throw InputError(fmt::format("{}: a shell starts within its contact offset (half its thickness from the ground "
                                 "or a solid, half the two thicknesses from a shell, its thickness from its own "
                                 "triangles that share no vertex; docs/scene-format.md): the closest pair's gap is "
                                 "{:.3g} m; start it farther away (or its cells larger than its thickness)",
                                 scene_.path, gaps.min_distance));
  frame0.min_distance = gaps.min_distance;
  if (const std::optional<std::string> w = start_within_dhat(*stepper_, gaps.closest_bodies, scene_))
    warnings_.push_back(*w);
  // Closer than any two bodies: a body's own primitives, e.g. a shell whose cells are finer
  // than its thickness plus dhat, whose neighbours the barrier pushes apart at once.
  if (gaps.min_distance < scene_.params.contact.dhat && gaps.min_distance < gaps.closest_bodies.distance)
    warnings_.push_back(fmt::format(
        "{}: two primitives of one body start {:.3g} m apart (beyond their contact offset), within the barrier's "
        "reach dhat = {:.3g} m: the barrier pushes them apart from the first step; for a shell, make its cells "
        "wider than its thickness plus dhat, or lower dhat (docs/elasticity.md, \"Embedded shells\")",
        scene_.path, gaps.min_distance, scene_.params.contact.dhat));
  loop_ = std::make_unique<RunLoop>(*eipc_stepper_, scene_.steps, scene_.output_stride, frame0);
}

Simulation::~Simulation() = default;

int Simulation::body_index(const std::string& name) const {
  const std::vector<Body>& bodies = stepper_->system().bodies();
  for (std::size_t b = 0; b < bodies.size(); ++b)
    if (bodies[b].name == name) return static_cast<int>(b);
  std::vector<std::string> names;
  for (const Body& b : bodies) names.push_back(b.name);
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "'" : ", '") + n + "'";
  throw InputError(scene_.path + ": no body named '" + name + "'" + did_you_mean(name, names) + "; its bodies: " + list);
}

void Simulation::add_sink(FrameSink& sink) { loop_->add_sink(sink); }

void Simulation::set_wall_limit(double seconds, std::string label) { loop_->set_wall_limit(seconds, std::move(label)); }

void Simulation::set_stop_check(StopCheck check) { loop_->set_stop_check(std::move(check)); }

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

StepStats Simulation::step() { return loop_->step(); }

const RunSummary& Simulation::run(const std::function<void(const Simulation&, const StepStats&)>& on_step) {
  try {
    while (!finished()) {
      const StepStats s = step();
      if (on_step) on_step(*this, s);
    }
  } catch (const SolverFailure&) {
    // step() has finished the sinks and recorded the reason.
  }
  return summary();
}

}  // namespace eipc
