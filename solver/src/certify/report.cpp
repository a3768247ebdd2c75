// Text and JSON forms of a certification report.
#include "eipc/certify/certify.hpp"

#include "pair_report.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <sstream>

namespace eipc::certify {
namespace {

using nlohmann::json;

std::string body_name(const CertifyReport& r, int b) {
  return b >= 0 && b < static_cast<int>(r.body_names.size()) ? r.body_names[b] : "body" + std::to_string(b);
}

std::string describe(const CertifyReport& r, const Violation& v) {
  const std::string a = body_name(r, v.body_a), b = body_name(r, v.body_b);
  switch (v.kind) {
    case ViolationKind::degenerate_triangle:
      return "degenerate (zero-area) triangle " + a + "#" + std::to_string(v.index_a);
    case ViolationKind::ground: return "vertex " + a + ":" + std::to_string(v.index_a) + " on or below the ground";
    case ViolationKind::triangle_pair:
      return "triangles " + a + "#" + std::to_string(v.index_a) + " and " + b + "#" + std::to_string(v.index_b) +
             " intersect";
    case ViolationKind::containment:
      return "body " + a + " (vertex " + std::to_string(v.index_a) + ") is inside body " + b;
    case ViolationKind::containment_undecided: return "containment of body " + a + " in body " + b + " undecided";
  }
  return "";
}

std::string corners(const std::array<int, 3>& c) {
  std::string s = "(" + std::to_string(c[0]) + "," + std::to_string(c[1]);
  if (c[2] >= 0) s += "," + std::to_string(c[2]);
  return s + ")";
}

std::string describe(const CertifyReport& r, const MotionPair& p) {
  const std::string a = body_name(r, p.body_a), b = body_name(r, p.body_b);
  switch (p.kind) {
    case MotionPrimitive::point_ground: return "vertex " + a + ":" + std::to_string(p.a[0]) + " vs ground";
    case MotionPrimitive::point_triangle:
      return "vertex " + a + ":" + std::to_string(p.a[0]) + " vs triangle " + b + "#" + std::to_string(p.triangle_b) +
             " " + corners(p.b);
    case MotionPrimitive::edge_edge:
      return "edge " + a + corners({p.a[0], p.a[1], -1}) + " vs edge " + b + corners(p.b);
  }
  return "";
}

const char* status_name(MotionStatus s) {
  return s == MotionStatus::certified ? "certified" : s == MotionStatus::collision ? "collision" : "inconclusive";
}

json violation_json(const CertifyReport& r, const Violation& v) {
  switch (v.kind) {
    case ViolationKind::degenerate_triangle:
      return {{"kind", "degenerate_triangle"}, {"body", body_name(r, v.body_a)}, {"triangle", v.index_a}};
    case ViolationKind::ground: return {{"kind", "ground"}, {"body", body_name(r, v.body_a)}, {"vertex", v.index_a}};
    case ViolationKind::triangle_pair:
      return {{"kind", "triangle_pair"}, {"body_a", body_name(r, v.body_a)}, {"triangle_a", v.index_a},
              {"body_b", body_name(r, v.body_b)}, {"triangle_b", v.index_b}};
    case ViolationKind::containment:
    case ViolationKind::containment_undecided:
      return {{"kind", v.kind == ViolationKind::containment ? "containment" : "containment_undecided"},
              {"body", body_name(r, v.body_a)}, {"vertex", v.index_a}, {"container", body_name(r, v.body_b)}};
  }
  return {};
}

/// What the frames' `time` (and a motion's t0, t1) holds.
const char* times_name(const CertifyReport& r) {
  return !r.has_times ? "none" : r.si_units ? "seconds" : "timesteps";
}

json motion_pair_json(const CertifyReport& r, const MotionReport& m, const MotionPair& p) {
  json j = {{"kind", p.kind == MotionPrimitive::point_triangle ? "point_triangle"
                     : p.kind == MotionPrimitive::edge_edge    ? "edge_edge"
                                                               : "point_ground"},
            {"result", p.result == MotionVerdict::collision ? "collision" : "inconclusive"},
            {"body_a", body_name(r, p.body_a)}};
  if (p.result == MotionVerdict::collision) {
    j["first_contact"] = {p.t_lo, p.t_hi};  // the motion parameter s
    j["first_contact_time"] = r.has_times ? json(m.times_of(p.t_lo, p.t_hi)) : json(nullptr);
  }
  if (p.kind == MotionPrimitive::edge_edge) j["edge_a"] = {p.a[0], p.a[1]};
  else j["vertex_a"] = p.a[0];
  if (p.kind == MotionPrimitive::point_triangle) {
    j["body_b"] = body_name(r, p.body_b);
    j["triangle_b"] = p.triangle_b;
    j["corners_b"] = {p.b[0], p.b[1], p.b[2]};
  } else if (p.kind == MotionPrimitive::edge_edge) {
    j["body_b"] = body_name(r, p.body_b);
    j["edge_b"] = {p.b[0], p.b[1]};
  }
  return j;
}

/// The pair of a shell gap: "'a' and 'b'", "'a' with itself", "'a' and the ground".
std::string shell_gap_pair(const CertifyReport& r, const ShellGap& g) {
  const std::string a = "'" + body_name(r, g.body_a) + "'";
  if (g.body_b < 0) return a + " and the ground";
  if (g.body_b == g.body_a) return a + " with itself";
  return a + " and '" + body_name(r, g.body_b) + "'";
}

/// What the certificate says of shells: their mid-surfaces are what the exact
/// checks certified; the gap beyond their contact offsets is only measured.
void print_shell_gap(const CertifyReport& r, std::ostream& out) {
  if (!r.shell_gap) return;
  out << "  shells:";
  for (std::size_t b = 0; b < r.shell_thickness.size(); ++b)
    if (r.shell_thickness[b] > 0.0) out << " '" << body_name(r, int(b)) << "' " << r.shell_thickness[b] << " m thick;";
  out << " certified above as their mid-surfaces; their contact offsets (half a shell's thickness to each side) "
         "measured in floating point: ";
  const ShellGap& g = *r.shell_gap;
  if (!(g.gap < g.reach))
    out << "no pair with a shell came within " << g.reach << " m of its offset\n";
  else
    out << "smallest gap beyond the offsets " << g.gap << " m (frame " << g.frame << ", " << shell_gap_pair(r, g)
        << ")" << (g.gap > 0.0 ? "" : ": THE OFFSET SURFACES MEET") << "\n";
}

/// The shells and their smallest gap beyond the offsets (null: no shell; gap null: none within reach).
json shell_gap_json(const CertifyReport& r) {
  if (!r.shell_gap) return nullptr;
  const ShellGap& g = *r.shell_gap;
  json thickness = json::object();
  for (std::size_t b = 0; b < r.shell_thickness.size(); ++b)
    if (r.shell_thickness[b] > 0.0) thickness[body_name(r, int(b))] = r.shell_thickness[b];
  const bool found = g.gap < g.reach;
  return {{"thickness", thickness},
          {"reach", g.reach},
          {"gap", found ? json(g.gap) : json(nullptr)},
          {"frame", found ? json(g.frame) : json(nullptr)},
          {"body_a", found ? json(body_name(r, g.body_a)) : json(nullptr)},
          {"body_b", found && g.body_b >= 0 ? json(body_name(r, g.body_b)) : json(nullptr)}};
}

}  // namespace

void print_report(const CertifyReport& r, std::ostream& out) {
  out << "eipc certify: " << r.source << "\n  " << pair_report::count(r.body_names.size(), "body", "bodies") << ", "
      << pair_report::count(r.frames.size(), "frame", "frames") << ", ground: "
      << (r.ground_height ? "z = " + std::to_string(*r.ground_height) : std::string("none"))
      << (r.continuous ? ", continuous" : "") << "\n";
  for (const auto& n : r.notes) out << "  note: " << n << "\n";
  print_shell_gap(r, out);
  for (const auto& f : r.frames) {
    out << pair_report::frame_label(r, f.frame, f.time);
    if (f.check.ok()) {
      out << "  ok\n";
      continue;
    }
    out << "  FAIL  " << f.check.total() << " violation(s): " << f.check.triangle_pairs << " triangle pairs, "
        << f.check.containment << " containment, " << f.check.ground << " ground, " << f.check.degenerate
        << " degenerate";
    if (!f.check.examples.empty()) out << "; first: " << describe(r, f.check.examples.front());
    out << "\n";
    pair_report::print_frame_pairs(r, f, out);
  }
  for (const auto& m : r.motions) {
    if (m.check.status() == MotionStatus::certified) continue;
    // Two clocks: the frames' time t (seconds for eipc trajectories; none for datasets
    // without times) and the motion parameter s in [0, 1] the contacts are found in.
    out << "motion " << m.from << " -> " << m.to;
    if (r.has_times)
      out << "  (t = " << pair_report::time_text(r, m.t0) << " to " << pair_report::time_text(r, m.t1) << ")";
    out << "  " << status_name(m.check.status()) << ": " << m.check.collisions << " colliding, "
        << m.check.inconclusive << " inconclusive pairs";
    if (!m.check.examples.empty()) {
      const MotionPair& p = m.check.examples.front();
      out << "; earliest: " << describe(r, p);
      if (p.result == MotionVerdict::collision) {
        out << ", first contact at s in [" << p.t_lo << ", " << p.t_hi << "] (motion parameter: 0 at frame " << m.from
            << ", 1 at frame " << m.to << ")";
        if (r.has_times) {
          const auto t = m.times_of(p.t_lo, p.t_hi);
          out << ", t in [" << t[0] << ", " << t[1] << "]" << (r.si_units ? " s" : "");
        } else {
          out << "; the frames have no times";
        }
      }
    }
    out << "\n";
  }
  pair_report::print_summaries(r, out);
  out << "summary: " << r.frames.size() - r.failed_frames() << "/" << r.frames.size() << " frames clear, "
      << r.intersecting_frames() << " intersecting";
  if (r.continuous)
    out << "; motions: " << r.motions_with(MotionStatus::certified) << " certified, "
        << r.motions_with(MotionStatus::inconclusive) << " inconclusive, " << r.motions_with(MotionStatus::collision)
        << " collision";
  out << "; " << (r.all_clear() ? "ALL CLEAR" : r.failed_frames() ? "INTERSECTION FOUND" : "NOT CERTIFIED") << " ("
      << std::setprecision(3) << r.seconds << " s)\n";
}

void print_report_json(const CertifyReport& r, std::ostream& out) {
  json frames = json::array(), motions = json::array(), notes = r.notes;
  for (const auto& f : r.frames) {
    json ex = json::array();
    for (const auto& v : f.check.examples) ex.push_back(violation_json(r, v));
    frames.push_back({{"frame", f.frame}, {"time", f.time}, {"step", f.step}, {"ok", f.check.ok()},
                      {"violations", f.check.total()},
                      {"counts", {{"triangle_pairs", f.check.triangle_pairs}, {"containment", f.check.containment},
                                  {"ground", f.check.ground}, {"degenerate", f.check.degenerate}}},
                      {"candidate_pairs", f.check.candidate_pairs},
                      {"seconds", {{"triangle_pairs", f.check.pair_seconds}}},
                      {"first", ex.empty() ? json(nullptr) : ex.front()}, {"examples", ex},
                      {"pairs", pair_report::frame_pairs_json(r, f)}});
  }
  for (const auto& m : r.motions) {
    json ex = json::array();
    for (const auto& p : m.check.examples) ex.push_back(motion_pair_json(r, m, p));
    motions.push_back({{"from", m.from}, {"to", m.to}, {"t0", m.t0}, {"t1", m.t1},
                       {"status", status_name(m.check.status())}, {"collisions", m.check.collisions},
                       {"inconclusive", m.check.inconclusive},
                       {"candidates", {{"vertex_face", m.check.vertex_face_candidates},
                                       {"edge_edge", m.check.edge_edge_candidates}}},
                       {"exact_pairs", m.check.exact_pairs},
                       {"seconds", {{"broad_phase", m.check.broad_seconds}, {"narrow_phase", m.check.narrow_seconds},
                                    {"exact", m.check.exact_seconds}}},
                       {"first", ex.empty() ? json(nullptr) : ex.front()}, {"examples", ex}});
  }
  json j = {{"format", "eipc-certify"},
            {"version", 1},
            {"source", r.source},
            {"bodies", r.body_names},
            {"ground_height", r.ground_height ? json(*r.ground_height) : json(nullptr)},
            {"continuous", r.continuous},
            {"times", times_name(r)},
            {"length_unit", r.si_units ? json("m") : json(nullptr)},
            {"notes", notes},
            {"shell_gap", shell_gap_json(r)},
            {"frames", frames},
            {"motions", motions},
            {"summary",
             {{"frames", r.frames.size()},
              {"failed_frames", r.failed_frames()},
              {"motions_certified", r.motions_with(MotionStatus::certified)},
              {"motions_inconclusive", r.motions_with(MotionStatus::inconclusive)},
              {"motions_collision", r.motions_with(MotionStatus::collision)},
              {"seconds", r.seconds}}},
            {"ok", r.all_clear()},
            {"exit_code", r.exit_code()}};
  j["summary"].update(pair_report::summary_json(r));
  out << j.dump(2) << "\n";
}

}  // namespace eipc::certify
