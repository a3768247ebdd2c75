// Reports on datasets speak of the files' indices: a body that is part of a
// file (an OBJ object, a connected component) numbers its vertices and
// triangles from 0, and the report translates them back.
#include "eipc/certify/file_indices.hpp"

#include "eipc/util/spelling.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_map>

namespace eipc::certify {
namespace {

class FileIndices {
public:
  explicit FileIndices(const DatasetInput& in) : in_(in) {}
  void vertex(int body, int& v) const { map(in_.file_vertex, body, v); }
  void triangle(int body, int& t) const { map(in_.file_triangle, body, t); }

private:
  static void map(const std::vector<std::vector<int>>& maps, int body, int& i) {
    if (body < 0 || i < 0 || body >= static_cast<int>(maps.size()) || maps[body].empty()) return;
    i = maps[body][i];
  }
  const DatasetInput& in_;
};

void translate(const FileIndices& files, Violation& v) {
  switch (v.kind) {
    case ViolationKind::degenerate_triangle: files.triangle(v.body_a, v.index_a); break;
    case ViolationKind::ground: files.vertex(v.body_a, v.index_a); break;
    case ViolationKind::triangle_pair:
      files.triangle(v.body_a, v.index_a);
      files.triangle(v.body_b, v.index_b);
      break;
    case ViolationKind::containment:
    case ViolationKind::containment_undecided: files.vertex(v.body_a, v.index_a); break;
  }
}

void translate(const FileIndices& files, MotionPair& p) {
  for (int& v : p.a) files.vertex(p.body_a, v);
  for (int& v : p.b) files.vertex(p.body_b, v);
  files.triangle(p.body_b, p.triangle_b);
}

using nlohmann::json;

/// A report's (body name, index) pairs back to rows of the dataset's trajectory bodies.
class TrajectoryIndices {
public:
  TrajectoryIndices(const DatasetInput& in, std::string source) : in_(in), source_(std::move(source)) {
    const std::vector<TrajectoryBody>& bodies = in.trajectory.header.bodies;
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      names_.push_back(bodies[b].name);
      vertex_.push_back(inverse(in.file_vertex[b]));
      triangle_.push_back(inverse(in.file_triangle[b]));
    }
  }

  /// Rewrites `object[index]` (an index or an array of them) of the body `object[body]`.
  void translate(json& object, const char* body, const char* index, bool triangle, long frame) const {
    if (!object.contains(body) || !object.contains(index)) return;
    const std::string name = object.at(body).get<std::string>();
    // A deepest vertex below the ground is "into" "ground": no triangle to translate.
    if (name == "ground" && std::find(names_.begin(), names_.end(), name) == names_.end()) return;
    const std::size_t b = body_of(name);
    json& value = object.at(index);
    if (value.is_array())
      for (json& v : value) v = row(b, v.get<int>(), triangle, frame);
    else if (!value.is_null())
      value = row(b, value.get<int>(), triangle, frame);
  }

  std::size_t body_of(const std::string& name) const {
    for (std::size_t b = 0; b < names_.size(); ++b)
      if (names_[b] == name) return b;
    std::string listed;
    for (const std::string& n : names_) listed += (listed.empty() ? "" : ", ") + n;
    throw InputError(source_ + ": body '" + name + "' is not a body of the dataset" + did_you_mean(name, names_) +
                     "; its bodies: " + listed + " (read it with the --bodies the certificate was made with)");
  }

private:
  static std::unordered_map<int, int> inverse(const std::vector<int>& file_index) {
    std::unordered_map<int, int> rows;
    for (std::size_t i = 0; i < file_index.size(); ++i) rows.emplace(file_index[i], static_cast<int>(i));
    return rows;
  }

  int row(std::size_t b, int i, bool triangle, long frame) const {
    if (i < 0) return i;  // "none", as use_file_indices leaves it
    const TrajectoryBody& body = in_.trajectory.header.bodies[b];
    const std::unordered_map<int, int>& rows = (triangle ? triangle_ : vertex_)[b];
    const bool mapped = !rows.empty();
    const long count = triangle ? body.surface.rows() : body.rest.rows();
    if (!mapped && i < count) return i;  // the body is the whole file: same numbers
    if (const auto it = rows.find(i); mapped && it != rows.end()) return it->second;
    throw InputError(source_ + ": frame " + std::to_string(frame) + ": " + (triangle ? "triangle " : "vertex ") +
                     std::to_string(i) + " of body '" + body.name + "' is not one of its " +
                     (triangle ? "triangles" : "vertices") + " in the dataset");
  }

  const DatasetInput& in_;
  std::string source_;
  std::vector<std::string> names_;
  std::vector<std::unordered_map<int, int>> vertex_, triangle_;
};

// The index fields of a violation or motion pair (docs/certify.md, "Output") ...
void translate_item(const TrajectoryIndices& ix, json& item, long frame) {
  if (!item.is_object()) return;
  ix.translate(item, "body_a", "triangle_a", true, frame);
  ix.translate(item, "body_b", "triangle_b", true, frame);
  ix.translate(item, "body", "triangle", true, frame);
  ix.translate(item, "body", "vertex", false, frame);
  ix.translate(item, "body_a", "vertex_a", false, frame);
  ix.translate(item, "body_a", "edge_a", false, frame);
  ix.translate(item, "body_b", "corners_b", false, frame);
  ix.translate(item, "body_b", "edge_b", false, frame);
}

// ... and of a pair's deepest vertex, whose triangle is one of the container's (the
// summary's deepest vertices name their frame).
void translate_deepest(const TrajectoryIndices& ix, json& pair, long frame) {
  if (!pair.contains("deepest") || !pair.at("deepest").is_object()) return;
  json& d = pair.at("deepest");
  frame = d.value("frame", frame);
  ix.translate(d, "body", "vertex", false, frame);
  ix.translate(d, "into", "triangle", true, frame);
}

}  // namespace

json use_trajectory_indices(json report, const DatasetInput& input, const std::string& source) {
  const TrajectoryIndices ix(input, source);
  try {
    if (report.value("format", "") != "eipc-certify")
      throw InputError(source + ": format: not an `eipc certify --json` report");
    if (report.contains("error"))  // certify's report of bad input: nothing was checked
      throw InputError(source + ": a report of no check, only of the error: " + report.value("error", ""));
    const std::vector<std::string> bodies = report.at("bodies").get<std::vector<std::string>>();
    for (const std::string& b : bodies) ix.body_of(b);
    if (bodies.size() != input.trajectory.header.bodies.size())
      throw InputError(source + ": bodies: " + std::to_string(bodies.size()) + " bodies, the dataset has " +
                       std::to_string(input.trajectory.header.bodies.size()) +
                       " (read it with the --bodies the certificate was made with)");
    if (report.at("frames").size() != input.trajectory.frames.size())
      throw InputError(source + ": frames: " + std::to_string(report.at("frames").size()) + " frames, the dataset has " +
                       std::to_string(input.trajectory.frames.size()));
    for (json& f : report.at("frames")) {
      const long k = f.at("frame").get<long>();
      for (json& v : f.at("examples")) translate_item(ix, v, k);
      if (f.contains("first")) translate_item(ix, f.at("first"), k);
      if (f.contains("pairs"))
        for (json& p : f.at("pairs")) translate_deepest(ix, p, k);
    }
    for (json& m : report.at("motions")) {
      const long k = m.at("from").get<long>();
      for (json& p : m.at("examples")) translate_item(ix, p, k);
      if (m.contains("first")) translate_item(ix, m.at("first"), k);
    }
    if (report.contains("summary") && report.at("summary").contains("pairs"))
      for (json& p : report.at("summary").at("pairs"))
        translate_deepest(ix, p, -1);
  } catch (const json::exception& e) {
    throw InputError(source + ": " + e.what());
  }
  return report;
}

void use_file_indices(CertifyReport& report, const DatasetInput& input) {
  const FileIndices files(input);
  for (FrameReport& f : report.frames) {
    for (Violation& v : f.check.examples) translate(files, v);
    for (PairPenetration& p : f.pairs)
      if (p.deepest) {
        files.vertex(p.deepest->body, p.deepest->vertex);
        files.triangle(p.deepest->into, p.deepest->triangle);
      }
  }
  for (MotionReport& m : report.motions) {
    for (MotionPair& p : m.check.examples) translate(files, p);
    for (MotionPair& p : m.check.colliding) translate(files, p);
  }
}

}  // namespace eipc::certify
