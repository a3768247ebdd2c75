#include "pair_report.hpp"

#include <sstream>

namespace eipc::certify::pair_report {
namespace {

using nlohmann::json;

std::string name_of(const CertifyReport& r, int b) {
  if (b == kGround) return "ground";
  return b >= 0 && b < static_cast<int>(r.body_names.size()) ? r.body_names[b] : "body" + std::to_string(b);
}

const char* kind_of(int a, int b) { return b == kGround ? "ground" : a == b ? "self" : "bodies"; }

/// eipc trajectories are in metres; datasets carry no unit.
std::string length(const CertifyReport& r, double d) {
  std::ostringstream s;
  s << d << (r.si_units ? " m" : "");
  return s.str();
}

std::string pair_name(const CertifyReport& r, int a, int b) {
  return a == b ? name_of(r, a) + " (self)" : name_of(r, a) + " / " + name_of(r, b);
}

/// "teddy:12 inside finger", "teddy:12 past its triangle #40", "teddy:12 below the ground".
std::string vertex_text(const CertifyReport& r, const VertexDepth& v) {
  const std::string who = name_of(r, v.body) + ":" + std::to_string(v.vertex);
  if (v.into == kGround) return who + " below the ground";
  if (v.into == v.body) return who + " past its triangle #" + std::to_string(v.triangle);
  if (v.triangle >= 0) return who + " past triangle " + name_of(r, v.into) + "#" + std::to_string(v.triangle);
  return who + " inside " + name_of(r, v.into);
}

json vertex_json(const CertifyReport& r, const VertexDepth& v) {
  json j = {{"body", name_of(r, v.body)}, {"vertex", v.vertex}, {"into", name_of(r, v.into)}, {"depth", v.depth}};
  if (v.triangle >= 0) j["triangle"] = v.triangle;
  return j;
}

json count_json(const std::optional<std::size_t>& n) { return n ? json(*n) : json(nullptr); }

}  // namespace

std::string count(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string time_text(const CertifyReport& r, double time) {
  std::ostringstream s;
  s << time << (r.si_units ? " s" : "");
  return s.str();
}

std::string frame_label(const CertifyReport& r, int frame, double time) {
  return "frame " + std::to_string(frame) + (r.has_times ? "  t = " + time_text(r, time) : "");
}

void print_frame_pairs(const CertifyReport& r, const FrameReport& f, std::ostream& out) {
  for (const PairPenetration& p : f.pairs) {
    out << "    " << pair_name(r, p.body_a, p.body_b) << ": ";
    if (p.body_b == kGround) {
      out << *p.a_in_b << " vertices on or below";
    } else {
      out << p.triangle_pairs << " triangle pairs";
      if (p.containment) out << ", wholly inside (" << p.containment << " containment)";
      auto inside = [&](const std::optional<std::size_t>& n, int from, int into) {
        if (n) out << "; " << *n << " vertices of " << name_of(r, from) << " inside " << name_of(r, into);
      };
      inside(p.a_in_b, p.body_a, p.body_b);
      inside(p.b_in_a, p.body_b, p.body_a);
      if (p.undecided) out << "; " << p.undecided << " vertices undecided";
    }
    if (p.deepest) out << "; deepest " << length(r, p.deepest->depth) << ": " << vertex_text(r, *p.deepest);
    else if (p.a_in_b || p.b_in_a) out << "; no vertex inside (the surfaces cross through edges only)";
    else out << "; no corner past a triangle it crosses";
    out << "\n";
  }
}

void print_summaries(const CertifyReport& r, std::ostream& out) {
  const auto summaries = r.pair_summaries();
  if (summaries.empty()) return;
  out << "intersecting body pairs:\n";
  for (const PairSummary& s : summaries) {
    out << "  " << pair_name(r, s.body_a, s.body_b) << ": " << count(s.frames, "frame", "frames") << ", first "
        << frame_label(r, s.first_frame, s.first_time);
    if (s.deepest)
      out << "; deepest " << length(r, s.deepest->depth) << " in frame " << s.deepest_frame << ": "
          << vertex_text(r, *s.deepest);
    else out << "; no depth measured in any frame";
    if (s.max_inside)
      out << "; at most " << *s.max_inside << (s.body_b == kGround ? " vertices on or below" : " vertices inside");
    out << "\n";
  }
}

json frame_pairs_json(const CertifyReport& r, const FrameReport& f) {
  json pairs = json::array();
  for (const PairPenetration& p : f.pairs)
    pairs.push_back({{"kind", kind_of(p.body_a, p.body_b)},
                     {"body_a", name_of(r, p.body_a)},
                     {"body_b", name_of(r, p.body_b)},
                     {"triangle_pairs", p.triangle_pairs},
                     {"containment", p.containment},
                     {"a_in_b", count_json(p.a_in_b)},
                     {"b_in_a", count_json(p.b_in_a)},
                     {"undecided", p.undecided},
                     {"depth", p.deepest ? json(p.deepest->depth) : json(nullptr)},
                     {"deepest", p.deepest ? vertex_json(r, *p.deepest) : json(nullptr)}});
  return pairs;
}

json summary_json(const CertifyReport& r) {
  json pairs = json::array(), first_frame = nullptr, first_time = nullptr, max_depth = nullptr;
  for (const FrameReport& f : r.frames)
    if (!f.pairs.empty()) {
      first_frame = f.frame;
      if (r.has_times) first_time = f.time;
      break;
    }
  for (const PairSummary& s : r.pair_summaries()) {
    json deepest = nullptr;
    if (s.deepest) {
      deepest = vertex_json(r, *s.deepest);
      deepest["frame"] = s.deepest_frame;
      if (max_depth.is_null() || s.deepest->depth > max_depth.get<double>()) max_depth = s.deepest->depth;
    }
    pairs.push_back({{"kind", kind_of(s.body_a, s.body_b)},
                     {"body_a", name_of(r, s.body_a)},
                     {"body_b", name_of(r, s.body_b)},
                     {"frames", s.frames},
                     {"first_frame", s.first_frame},
                     {"first_time", r.has_times ? json(s.first_time) : json(nullptr)},
                     {"max_depth", s.deepest ? json(s.deepest->depth) : json(nullptr)},
                     {"deepest", deepest},
                     {"max_inside_vertices", count_json(s.max_inside)}});
  }
  return {{"intersecting_frames", r.intersecting_frames()},
          {"first_intersection_frame", first_frame},
          {"first_intersection_time", first_time},
          {"max_depth", max_depth},
          {"pairs", pairs}};
}

}  // namespace eipc::certify::pair_report
