// E(h) of a run against its reference: frames matched by step index (see the header).
#include "eipc/analysis/trajectory_error.hpp"

#include "eipc/common.hpp"
#include "eipc/io/trajectory_reader.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace eipc {
namespace {

std::string num(double x) {
  std::ostringstream s;
  s.precision(12);
  s << x;
  return s.str();
}

int find_body(const TrajectoryHeader& h, const std::string& name) {
  for (std::size_t b = 0; b < h.bodies.size(); ++b)
    if (h.bodies[b].name == name) return static_cast<int>(b);
  return -1;
}

/// (run body index, reference body index) of every compared body.
std::vector<std::pair<int, int>> compared_bodies(const TrajectoryReader& run, const TrajectoryReader& ref,
                                                 const ErrorOptions& options) {
  const TrajectoryHeader &hr = run.header(), &hf = ref.header();
  std::vector<std::string> names = options.bodies;
  if (names.empty())
    for (const TrajectoryBody& b : hr.bodies)
      if (!b.kinematic) names.push_back(b.name);
  if (names.empty()) throw InputError(run.path() + ": no non-kinematic body to compare (name one with --body)");
  std::vector<std::pair<int, int>> pairs;
  for (const std::string& name : names) {
    const int a = find_body(hr, name), b = find_body(hf, name);
    if (a < 0) throw InputError(run.path() + ": no body '" + name + "'");
    if (b < 0) throw InputError(ref.path() + ": reference has no body '" + name + "'");
    if (std::find(pairs.begin(), pairs.end(), std::make_pair(a, b)) != pairs.end())
      throw InputError("body '" + name + "' is named twice");
    const Positions &ra = hr.bodies[a].rest, &rb = hf.bodies[b].rest;
    if (ra.rows() != rb.rows())
      throw InputError("body '" + name + "' has " + std::to_string(ra.rows()) + " vertices in " + run.path() +
                       " but " + std::to_string(rb.rows()) + " in the reference " + ref.path());
    // Same vertex count but another mesh or placement would give a meaningless number.
    const double scale = 1.0 + ra.cwiseAbs().maxCoeff();
    if (ra.rows() > 0 && (ra - rb).cwiseAbs().maxCoeff() > 1e-9 * scale)
      throw InputError("body '" + name + "': rest vertices differ between " + run.path() + " and the reference " +
                       ref.path() + " (not the same mesh or placement)");
    pairs.emplace_back(a, b);
  }
  return pairs;
}

void require_usable(const TrajectoryReader& t, const ErrorOptions& options) {
  if (t.status() == TrajectoryStatus::complete || options.allow_incomplete) return;
  throw InputError(t.path() + ": trajectory is incomplete (" + t.status_reason() +
                   "); pass --allow-incomplete to compare its stored frames");
}

}  // namespace

TrajectoryError trajectory_error(const std::string& run_path, const std::string& reference_path,
                                 const ErrorOptions& options) {
  const TrajectoryReader run(run_path), ref(reference_path);
  require_usable(run, options);
  require_usable(ref, options);
  TrajectoryError out;
  out.dt_run = run.header().dt;
  out.dt_ref = ref.header().dt;
  const double ratio = out.dt_run / out.dt_ref;
  out.step_ratio = std::lround(ratio);
  if (!(out.step_ratio >= 1 && std::abs(ratio - out.step_ratio) <= 1e-9 * ratio))
    throw InputError(run_path + ": time step " + num(out.dt_run) + " s is not an integer multiple of the reference's " +
                     num(out.dt_ref) + " s (" + reference_path + "); frames cannot be matched by step index");

  const auto pairs = compared_bodies(run, ref, options);
  std::vector<double> body_sum(pairs.size(), 0.0);
  for (const auto& [a, b] : pairs) out.vertices += run.header().bodies[a].rest.rows();
  if (out.vertices == 0) throw InputError(run_path + ": the compared bodies have no vertices");

  double total = 0.0;
  long ref_index = -1;
  Frame ref_frame;
  for (long f = 0; f < run.frame_count(); ++f) {
    const Frame frame = run.read_frame(f);
    if (frame.step < 1) continue;  // the initial state is shared, not compared
    const long target = frame.step * out.step_ratio;
    // A run that stopped keeps its last finished step, which is usually off the
    // output grid: with --allow-incomplete that frame is left out, not an error.
    const bool partial_end = run.status() != TrajectoryStatus::complete && f + 1 == run.frame_count();
    // Steps increase along both files: walk the reference once.
    while (ref_index < 0 || ref_frame.step < target) {
      if (ref_index + 1 >= ref.frame_count() && partial_end) break;
      if (++ref_index >= ref.frame_count())
        throw InputError(reference_path + ": no reference frame at t = " + num(frame.time) + " s (step " +
                         std::to_string(target) + " of dt " + num(out.dt_ref) + "); it ends at t = " +
                         num(ref_index > 0 ? ref_frame.time : 0.0) + " s");
      ref_frame = ref.read_frame(ref_index);
    }
    if (ref_frame.step != target && partial_end) break;
    if (ref_frame.step != target)
      throw InputError(reference_path + ": the reference does not store t = " + num(frame.time) + " s (step " +
                       std::to_string(target) + " of dt " + num(out.dt_ref) +
                       "); store reference frames on the run's output grid (output.every)");
    double frame_sum = 0.0;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const double s = (frame.positions[pairs[p].first] - ref_frame.positions[pairs[p].second]).squaredNorm();
      body_sum[p] += s;
      frame_sum += s;
    }
    const double frame_rms = std::sqrt(frame_sum / out.vertices);
    if (out.frames == 0) out.first_time = frame.time;
    out.last_time = frame.time;
    if (frame_rms > out.worst_error || out.frames == 0) {
      out.worst_error = frame_rms;
      out.worst_time = frame.time;
    }
    total += frame_sum / out.vertices;
    ++out.frames;
  }
  if (out.frames == 0) throw InputError(run_path + ": no stored frame after t = 0 to compare");
  out.error = std::sqrt(total / out.frames);
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const TrajectoryBody& body = run.header().bodies[pairs[p].first];
    const long n = body.rest.rows();
    out.bodies.push_back({body.name, n, n > 0 ? std::sqrt(body_sum[p] / n / out.frames) : 0.0, body.embedding,
                          ref.header().bodies[pairs[p].second].embedding});
  }
  return out;
}

}  // namespace eipc
