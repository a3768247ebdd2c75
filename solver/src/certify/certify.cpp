#include "eipc/certify/certify.hpp"

#include "eipc/certify/exact_tests.hpp"
#include "eipc/certify/dataset_input.hpp"
#include "eipc/certify/file_indices.hpp"
#include "eipc/mesh/surface_file.hpp"
#include "eipc/io/output_path.hpp"
#include "eipc/io/trajectory_file.hpp"
#include "eipc/util/parallel.hpp"
#include "contact_conditions.hpp"

#include <nlohmann/json.hpp>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <chrono>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace eipc::certify {

std::size_t CertifyReport::failed_frames() const {
  std::size_t n = 0;
  for (const auto& f : frames) n += !f.check.ok();
  return n;
}

std::size_t CertifyReport::motions_with(MotionStatus s) const {
  std::size_t n = 0;
  for (const auto& m : motions) n += m.check.status() == s;
  return n;
}

std::array<double, 2> MotionReport::times_of(double s_lo, double s_hi) const {
  // Exact rationals, rounded outward once: the bracket stays a bracket.
  const Rational a = Rational(t0) + Rational(s_lo) * (Rational(t1) - Rational(t0));
  const Rational b = Rational(t0) + Rational(s_hi) * (Rational(t1) - Rational(t0));
  return a <= b ? outward(a, b) : outward(b, a);  // t1 < t0 reverses the order
}

bool CertifyReport::all_clear() const {
  return failed_frames() == 0 && motions_with(MotionStatus::certified) == motions.size();
}

CertifyReport certify_trajectory(const Trajectory& trajectory, const CertifyOptions& options,
                                 const std::string& source) {
  const auto start = std::chrono::steady_clock::now();
  const ThreadLimit limit(options.threads);
  const auto& bodies = trajectory.header.bodies;
  CertifyReport report;
  report.source = source.empty() ? trajectory.header.scenario : source;
  report.continuous = options.continuous;
  report.ground_height = options.no_ground ? std::nullopt
                         : options.ground_height ? options.ground_height
                                                 : trajectory.header.ground_height;
  if (trajectory.status == TrajectoryStatus::incomplete)
    report.notes.push_back("trajectory is incomplete (" + trajectory.status_reason + "); its stored frames are certified");

  std::vector<bool> closed(bodies.size());
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    report.body_names.push_back(bodies[b].name);
    closed[b] = is_closed_surface(bodies[b].surface);
    if (!closed[b])
      report.notes.push_back("surface of body '" + bodies[b].name +
                             "' is not closed: other bodies are not tested for being inside it");
  }
  auto states = [&](const Frame& f, std::size_t k) {
    if (f.positions.size() != bodies.size())
      throw InputError("certify: frame " + std::to_string(k) + " stores " + std::to_string(f.positions.size()) +
                       " bodies, the header has " + std::to_string(bodies.size()));
    std::vector<BodyState> s(bodies.size());
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      if (f.positions[b].rows() != bodies[b].rest.rows())
        throw InputError("certify: frame " + std::to_string(k) + ", body '" + bodies[b].name + "' has " +
                         std::to_string(f.positions[b].rows()) + " vertices, expected " +
                         std::to_string(bodies[b].rest.rows()));
      s[b] = {&f.positions[b], &bodies[b].surface, closed[b]};
    }
    return s;
  };

  // Nothing is cleared that was not checked: no frame, or a frame without a triangle, is bad input.
  if (trajectory.frames.empty()) throw InputError(report.source + ": no frames to certify");
  std::size_t triangles = 0;
  for (const auto& b : bodies) triangles += static_cast<std::size_t>(b.surface.rows());
  if (triangles == 0) throw InputError(report.source + ": no triangles to certify (no body has a surface)");

  // Every frame's check and every motion's are independent: they run side by side, so the
  // serial stretches of one (a grid's fill, a tree's top splits) overlap the parallel work
  // of another. Each writes its own slot: the report does not depend on the order. Each is
  // isolated: a thread waiting inside one check's loops does not start another whole check,
  // so at most one check per thread holds its memory.
  const std::size_t n = trajectory.frames.size();
  std::vector<std::vector<BodyState>> state(n);
  for (std::size_t k = 0; k < n; ++k) state[k] = states(trajectory.frames[k], k);  // bad input before any work
  report.frames.resize(n);
  report.motions.resize(options.continuous ? n - 1 : 0);
  tbb::task_group checks;
  const auto run_isolated = [&checks](auto work) { checks.run([work] { tbb::this_task_arena::isolate(work); }); };
  for (std::size_t k = 0; k < n; ++k) {
    run_isolated([&, k] {
      const Frame& f = trajectory.frames[k];
      FrameReport r{static_cast<int>(k), f.time, f.step, check_frame(state[k], report.ground_height, options.max_examples)};
      if (!r.check.ok()) r.pairs = measure_penetration(state[k], r.check, report.ground_height);
      r.check.body_hits = {};  // measured: no need to keep every hit
      report.frames[k] = std::move(r);
    });
    if (options.continuous && k > 0)
      run_isolated([&, k] {
        const Frame &prev = trajectory.frames[k - 1], &f = trajectory.frames[k];
        report.motions[k - 1] = {static_cast<int>(k - 1), static_cast<int>(k), prev.time, f.time,
                                 check_motion(state[k - 1], state[k], report.ground_height, options.max_examples,
                                              !options.pairs_out.empty())};
      });
  }
  checks.wait();
  // Shells are certified as their mid-surfaces above; how far beyond their
  // contact offsets they stayed is measured, up to the barrier's reach.
  report.shell_thickness = shell_thicknesses(trajectory);
  const nlohmann::json contact = nlohmann::json::parse(trajectory.header.contact_json, nullptr, false);
  const double dhat = contact.is_object() && contact.contains("dhat") && contact["dhat"].is_number()
                          ? contact["dhat"].get<double>()
                          : 1e-3;
  report.shell_gap = smallest_shell_gap(trajectory, report.shell_thickness, report.ground_height, dhat);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

namespace {
/// Frame files, .pvd series and directories are datasets; anything else an eipc trajectory.
bool is_dataset_input(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return fs::is_directory(path, ec) || ext == ".pvd" || is_surface_frame_extension(ext);
}

Trajectory read_eipc_trajectory(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path + ": no such file or directory");
  try {
    return read_trajectory(path);
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) +
                     " (eipc certify reads eipc trajectories (.h5), frame files (.obj .ply .stl .vtk .vtu .vtp), "
                     ".pvd series and directories of frames)");
  }
}
}  // namespace

CertifyReport certify_input(const std::string& path, const CertifyOptions& options) {
  if (!is_dataset_input(path)) {
    if (options.bodies != BodyRule::objects)
      throw InputError(path + ": --bodies applies to datasets; an eipc trajectory's bodies are its own");
    return certify_trajectory(read_eipc_trajectory(path), options, path);
  }
  const DatasetInput input = read_dataset(path, options.bodies);
  CertifyReport report = certify_trajectory(input.trajectory, options, path);
  report.has_times = input.has_times;
  report.si_units = false;
  report.notes.insert(report.notes.begin(), input.notes.begin(), input.notes.end());
  use_file_indices(report, input);
  return report;
}

int certify_command(const std::string& path, const CertifyOptions& options, std::ostream& out, std::ostream& err) {
  try {
    if (!options.pairs_out.empty()) prepare_output_file(options.pairs_out, "--pairs-out");  // before any work
    const CertifyReport report = certify_input(path, options);
    if (!options.pairs_out.empty()) {
      std::ofstream csv(options.pairs_out);
      if (csv) write_colliding_pairs_csv(report, csv);
      if (!csv) throw InputError(options.pairs_out + ": cannot write the colliding pairs");
    }
    if (options.json) print_report_json(report, out);
    else print_report(report, out);
    return report.exit_code();
  } catch (const InputError& e) {
    err << "eipc certify: " << e.what() << "\n";
    if (options.json)
      out << nlohmann::json{{"format", "eipc-certify"}, {"version", 1}, {"exit_code", 2}, {"error", e.what()}}.dump(2)
          << "\n";
    return 2;
  }
}

}  // namespace eipc::certify
