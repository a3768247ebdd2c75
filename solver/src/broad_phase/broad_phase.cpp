#include "eipc/broad_phase/broad_phase.hpp"

#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <tuple>

namespace eipc {

namespace {

Eigen::Array3d row(const Positions& x, int v) { return x.row(v).transpose().array(); }

void extend_both(Aabb& box, const Positions& x0, const Positions& x1, int v) {
  box.extend(row(x0, v));
  box.extend(row(x1, v));
}

}  // namespace

Aabb swept_vertex_box(const Positions& x0, const Positions& x1, int v, double inflation) {
  const Eigen::Array3d a = row(x0, v), b = row(x1, v);
  return {a.min(b) - inflation, a.max(b) + inflation};
}

Aabb swept_face_box(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, int f, double inflation) {
  Aabb box;
  for (int k = 0; k < 3; ++k) extend_both(box, x0, x1, mesh.faces(f, k));
  box.inflate(inflation);
  return box;
}

Aabb swept_edge_box(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, int e, double inflation) {
  Aabb box;
  for (int k = 0; k < 2; ++k) extend_both(box, x0, x1, mesh.edges(e, k));
  box.inflate(inflation);
  return box;
}

namespace {

/// Primitives of a part of the collision mesh (global indices, ascending).
struct Part {
  std::vector<int> vertices, faces, edges;
};

int body_of_vertex(const CollisionMesh& mesh, int v) { return mesh.vertex_body.empty() ? 0 : mesh.vertex_body[v]; }

Part whole_mesh(const CollisionMesh& mesh) {
  Part p;
  p.vertices.resize(std::size_t(mesh.num_vertices()));
  p.faces.resize(std::size_t(mesh.faces.rows()));
  p.edges.resize(std::size_t(mesh.edges.rows()));
  std::iota(p.vertices.begin(), p.vertices.end(), 0);
  std::iota(p.faces.begin(), p.faces.end(), 0);
  std::iota(p.edges.begin(), p.edges.end(), 0);
  return p;
}

/// The primitives of each body (index = body).
std::vector<Part> parts_by_body(const CollisionMesh& mesh) {
  std::vector<Part> parts;
  auto part = [&](int body) -> Part& {
    if (body >= int(parts.size())) parts.resize(std::size_t(body) + 1);
    return parts[std::size_t(body)];
  };
  for (int v = 0; v < mesh.num_vertices(); ++v) part(body_of_vertex(mesh, v)).vertices.push_back(v);
  for (int f = 0; f < int(mesh.faces.rows()); ++f) part(body_of_vertex(mesh, mesh.faces(f, 0))).faces.push_back(f);
  for (int e = 0; e < int(mesh.edges.rows()); ++e) part(body_of_vertex(mesh, mesh.edges(e, 0))).edges.push_back(e);
  return parts;
}

/// Swept, inflated boxes of a part's vertices, and the trees over its faces and
/// edges (tree index i is the part's i-th face / edge; an edge's box is
/// edge_tree->box(i)).
struct PartBoxes {
  std::vector<Aabb> vertices;
  const AabbTree* face_tree = nullptr;
  const AabbTree* edge_tree = nullptr;
};

PartBoxes boxes_of(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, double r, const Part& part,
                   int body, BroadPhaseTrees& trees) {
  PartBoxes b;
  std::vector<Aabb> faces(part.faces.size()), edges(part.edges.size());
  b.vertices.resize(part.vertices.size());
  const std::size_t grain = grain_for(0.02);
  parallel_for_each(faces.size(), grain, [&](std::size_t i) { faces[i] = swept_face_box(mesh, x0, x1, part.faces[i], r); });
  parallel_for_each(edges.size(), grain, [&](std::size_t i) { edges[i] = swept_edge_box(mesh, x0, x1, part.edges[i], r); });
  parallel_for_each(b.vertices.size(), grain, [&](std::size_t i) { b.vertices[i] = swept_vertex_box(x0, x1, part.vertices[i], r); });
  std::tie(b.face_tree, b.edge_tree) = trees.fit(body, std::move(faces), std::move(edges));
  return b;
}

bool shares_vertex(const CollisionMesh& mesh, int a, int b) {
  const int a0 = mesh.edges(a, 0), a1 = mesh.edges(a, 1), b0 = mesh.edges(b, 0), b1 = mesh.edges(b, 1);
  return b0 == a0 || b0 == a1 || b1 == a0 || b1 == a1;
}

// A tree query costs ~0.3 us: 64 queries make a chunk worth a task.
constexpr std::size_t kQueryChunk = 64;

/// All pairs of one part's primitives (see find_candidates) but those `exclusion` leaves out.
Candidates pairs_within(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, double inflation,
                        const Part& part, int body, BroadPhaseTrees& trees, const PatchExclusion* exclusion = nullptr) {
  // Each primitive box is inflated by half the margin, so overlap <=> gap <= inflation.
  const PartBoxes b = boxes_of(mesh, x0, x1, 0.5 * inflation, part, body, trees);
  Candidates out;
  parallel_gather(part.vertices.size(), kQueryChunk, out.point_triangle,
                  [&](std::size_t begin, std::size_t end, std::vector<PointTriangleCandidate>& dst) {
                    std::vector<int> hits;
                    for (std::size_t i = begin; i < end; ++i) {
                      const int v = part.vertices[i];
                      hits.clear();
                      b.face_tree->query(b.vertices[i], hits);
                      std::sort(hits.begin(), hits.end());
                      for (int k : hits) {
                        const int f = part.faces[std::size_t(k)];
                        if (mesh.faces(f, 0) != v && mesh.faces(f, 1) != v && mesh.faces(f, 2) != v &&
                            !(exclusion && exclusion->excludes(mesh, PointTriangleCandidate{v, f})))
                          dst.push_back({v, f});
                      }
                    }
                  });
  parallel_gather(part.edges.size(), kQueryChunk, out.edge_edge,
                  [&](std::size_t begin, std::size_t end, std::vector<EdgeEdgeCandidate>& dst) {
                    std::vector<int> hits;
                    for (std::size_t i = begin; i < end; ++i) {
                      hits.clear();
                      b.edge_tree->query(b.edge_tree->box(int(i)), hits, int(i));  // each unordered pair once
                      std::sort(hits.begin(), hits.end());
                      const int a = part.edges[i];
                      for (int k : hits) {
                        const int b = part.edges[std::size_t(k)];
                        if (!shares_vertex(mesh, a, b) && !(exclusion && exclusion->excludes(mesh, EdgeEdgeCandidate{a, b})))
                          dst.push_back({a, b});
                      }
                    }
                  });
  return out;
}

void check_counts(const CollisionMesh& mesh, const Positions& x0, const Positions& x1) {
  if (x0.rows() != mesh.num_vertices() || x1.rows() != mesh.num_vertices())
    throw InputError("find_candidates: position count does not match the collision mesh");
}

}  // namespace

namespace {

/// The patch all of `vertices` lie in, or -1.
template <std::size_t N>
int common_patch(const CollisionMesh& mesh, const std::array<int, N>& vertices) {
  if (mesh.vertex_patch.empty()) return -1;
  const int p = mesh.vertex_patch[std::size_t(vertices[0])];
  for (std::size_t i = 1; i < N; ++i)
    if (mesh.vertex_patch[std::size_t(vertices[i])] != p) return -1;
  return p;
}

}  // namespace

namespace {

/// CSR lists of `second` by `first` (n rows), each list ascending.
template <class Pairs, class First, class Second>
void by_first(const Pairs& pairs, int n, First first, Second second, std::vector<int>& start, std::vector<int>& of) {
  start.assign(std::size_t(n) + 1, 0);
  for (const auto& p : pairs) ++start[std::size_t(first(p)) + 1];
  for (int i = 0; i < n; ++i) start[std::size_t(i) + 1] += start[std::size_t(i)];
  of.resize(pairs.size());
  std::vector<int> next(start.begin(), start.end() - 1);
  for (const auto& p : pairs) of[std::size_t(next[std::size_t(first(p))]++)] = second(p);
  for (int i = 0; i < n; ++i) std::sort(of.begin() + start[std::size_t(i)], of.begin() + start[std::size_t(i) + 1]);
}

bool listed(const std::vector<int>& start, const std::vector<int>& of, int first, int second) {
  return std::binary_search(of.begin() + start[std::size_t(first)], of.begin() + start[std::size_t(first) + 1], second);
}

}  // namespace

PatchExclusion::PatchExclusion(const CollisionMesh& mesh, const Candidates& at_risk) {
  by_first(at_risk.point_triangle, mesh.num_vertices(), [](const auto& c) { return c.vertex; },
           [](const auto& c) { return c.face; }, vertex_start_, face_of_);
  by_first(at_risk.edge_edge, int(mesh.edges.rows()), [](const auto& c) { return c.edge_a; },
           [](const auto& c) { return c.edge_b; }, edge_start_, edge_of_);
}

bool PatchExclusion::excludes(const CollisionMesh& mesh, const PointTriangleCandidate& c) const {
  const int p = common_patch<4>(mesh, {c.vertex, mesh.faces(c.face, 0), mesh.faces(c.face, 1), mesh.faces(c.face, 2)});
  if (p < 0 || !trusted[std::size_t(p)]) return false;
  return vertex_start_.empty() || !listed(vertex_start_, face_of_, c.vertex, c.face);
}

bool PatchExclusion::excludes(const CollisionMesh& mesh, const EdgeEdgeCandidate& c) const {
  const int p = common_patch<4>(mesh, {mesh.edges(c.edge_a, 0), mesh.edges(c.edge_a, 1), mesh.edges(c.edge_b, 0),
                                       mesh.edges(c.edge_b, 1)});
  if (p < 0 || !trusted[std::size_t(p)]) return false;
  return edge_start_.empty() || !listed(edge_start_, edge_of_, c.edge_a, c.edge_b);
}

std::pair<const AabbTree*, const AabbTree*> BroadPhaseTrees::fit(int body, std::vector<Aabb> faces,
                                                                 std::vector<Aabb> edges) {
  if (body >= int(faces_.size())) {
    faces_.resize(std::size_t(body) + 1);
    edges_.resize(std::size_t(body) + 1);
  }
  auto fit_one = [](AabbTree& tree, std::vector<Aabb>& boxes) {
    if (tree.size() == int(boxes.size()) && !boxes.empty())
      tree.refit(std::move(boxes));
    else
      tree = AabbTree(std::move(boxes));
  };
  AabbTree &face_tree = faces_[std::size_t(body)], &edge_tree = edges_[std::size_t(body)];
  parallel_both([&] { fit_one(face_tree, faces); }, [&] { fit_one(edge_tree, edges); });
  return {&face_tree, &edge_tree};
}

Candidates find_candidates(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, double inflation) {
  check_counts(mesh, x0, x1);
  BroadPhaseTrees trees;
  return pairs_within(mesh, x0, x1, inflation, whole_mesh(mesh), 0, trees);
}

Candidates find_candidates_within_body(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                       double inflation, int body, BroadPhaseTrees* kept,
                                       const PatchExclusion* exclusion) {
  check_counts(mesh, x0, x1);
  const std::vector<Part> parts = parts_by_body(mesh);
  if (body < 0 || body >= int(parts.size())) return {};
  BroadPhaseTrees fresh;
  return pairs_within(mesh, x0, x1, inflation, parts[std::size_t(body)], body, kept ? *kept : fresh, exclusion);
}

Candidates find_candidates_between_bodies(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                          double inflation, BroadPhaseTrees* kept) {
  check_counts(mesh, x0, x1);
  const std::vector<Part> parts = parts_by_body(mesh);
  BroadPhaseTrees fresh;
  BroadPhaseTrees& trees = kept ? *kept : fresh;
  std::vector<PartBoxes> boxes(parts.size());
  for (std::size_t p = 0; p < parts.size(); ++p) boxes[p] = boxes_of(mesh, x0, x1, 0.5 * inflation, parts[p], int(p), trees);
  // Position of each vertex and edge in its body's part (to find its box).
  std::vector<int> vertex_slot(std::size_t(mesh.num_vertices())), edge_slot(std::size_t(mesh.edges.rows()));
  for (const Part& part : parts) {
    for (std::size_t i = 0; i < part.vertices.size(); ++i) vertex_slot[std::size_t(part.vertices[i])] = int(i);
    for (std::size_t i = 0; i < part.edges.size(); ++i) edge_slot[std::size_t(part.edges[i])] = int(i);
  }
  // The primitives of the other bodies (a body's tree and its index list, by
  // member) whose boxes overlap `box`, above `above`, ascending, into `found`.
  auto other_bodies = [&](int own, const Aabb& box, const AabbTree* PartBoxes::*tree, std::vector<int> Part::*ids, int above,
                          std::vector<int>& hits, std::vector<int>& found) {
    found.clear();
    for (std::size_t p = 0; p < parts.size(); ++p) {
      if (int(p) == own) continue;
      hits.clear();
      (boxes[p].*tree)->query(box, hits);
      for (int k : hits)
        if ((parts[p].*ids)[std::size_t(k)] > above) found.push_back((parts[p].*ids)[std::size_t(k)]);
    }
    std::sort(found.begin(), found.end());
  };
  Candidates out;
  parallel_gather(std::size_t(mesh.num_vertices()), kQueryChunk, out.point_triangle,
                  [&](std::size_t begin, std::size_t end, std::vector<PointTriangleCandidate>& dst) {
                    std::vector<int> hits, faces;
                    for (int v = int(begin); v < int(end); ++v) {
                      const int own = body_of_vertex(mesh, v);
                      const Aabb& box = boxes[std::size_t(own)].vertices[std::size_t(vertex_slot[std::size_t(v)])];
                      other_bodies(own, box, &PartBoxes::face_tree, &Part::faces, -1, hits, faces);
                      for (int f : faces) dst.push_back({v, f});
                    }
                  });
  parallel_gather(std::size_t(mesh.edges.rows()), kQueryChunk, out.edge_edge,
                  [&](std::size_t begin, std::size_t end, std::vector<EdgeEdgeCandidate>& dst) {
                    std::vector<int> hits, edges;
                    for (int a = int(begin); a < int(end); ++a) {
                      const int own = body_of_vertex(mesh, mesh.edges(a, 0));
                      const Aabb& box = boxes[std::size_t(own)].edge_tree->box(edge_slot[std::size_t(a)]);
                      other_bodies(own, box, &PartBoxes::edge_tree, &Part::edges, a, hits, edges);  // each pair once
                      for (int b : edges) dst.push_back({a, b});
                    }
                  });
  return out;
}

Positions follow_mean_translation(const Positions& x0, const Positions& x1) {
  if (x1.rows() == 0) return x1;
  const Eigen::RowVector3d mean = (x1 - x0).colwise().mean();
  return x1.rowwise() - mean;
}

Positions follow_body_translations(const CollisionMesh& mesh, const Positions& x0, const Positions& x1) {
  if (mesh.vertex_body.empty()) return follow_mean_translation(x0, x1);
  const int bodies = *std::max_element(mesh.vertex_body.begin(), mesh.vertex_body.end()) + 1;
  Positions mean = Positions::Zero(bodies, 3);
  Eigen::VectorXd count = Eigen::VectorXd::Zero(bodies);
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    mean.row(mesh.vertex_body[v]) += x1.row(v) - x0.row(v);
    count[mesh.vertex_body[v]] += 1.0;
  }
  Positions out = x1;
  for (int v = 0; v < mesh.num_vertices(); ++v) out.row(v) -= mean.row(mesh.vertex_body[v]) / count[mesh.vertex_body[v]];
  return out;
}

}  // namespace eipc
