// Reports on datasets speak of the files' indices: a body that is part of a
// file (an OBJ object, a connected component) numbers its vertices and
// triangles from 0, and the report translates them back.
#include "eipc/certify/file_indices.hpp"

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

}  // namespace

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
