#include "eipc/certify/certify.hpp"

#include "eipc/certify/exact_tests.hpp"
#include "eipc/certify/obj_frames.hpp"
#include "eipc/io/output_path.hpp"
#include "eipc/io/trajectory_file.hpp"
#include "eipc/util/parallel.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
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

  for (std::size_t k = 0; k < trajectory.frames.size(); ++k) {
    const Frame& f = trajectory.frames[k];
    const std::vector<BodyState> state = states(f, k);
    FrameReport r{static_cast<int>(k), f.time, f.step, check_frame(state, report.ground_height, options.max_examples)};
    if (!r.check.ok()) r.pairs = measure_penetration(state, r.check, report.ground_height);
    r.check.body_hits = {};  // measured: no need to keep every hit
    report.frames.push_back(std::move(r));
    if (options.continuous && k > 0) {
      const Frame& prev = trajectory.frames[k - 1];
      report.motions.push_back({static_cast<int>(k - 1), static_cast<int>(k), prev.time, f.time,
                                check_motion(states(prev, k - 1), states(f, k), report.ground_height,
                                             options.max_examples, !options.pairs_out.empty())});
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

namespace {
bool is_obj_input(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  return fs::is_directory(path, ec) || fs::path(path).extension() == ".obj" || fs::path(path).extension() == ".OBJ";
}
}  // namespace

Trajectory load_certify_input(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (is_obj_input(path)) return read_obj_frames(path);
  if (!fs::exists(path, ec)) throw InputError(path + ": no such file or directory");
  return read_trajectory(path);
}

int certify_command(const std::string& path, const CertifyOptions& options, std::ostream& out, std::ostream& err) {
  try {
    if (!options.pairs_out.empty()) prepare_output_file(options.pairs_out, "--pairs-out");  // before any work
    CertifyReport report = certify_trajectory(load_certify_input(path), options, path);
    report.has_times = !is_obj_input(path);
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
