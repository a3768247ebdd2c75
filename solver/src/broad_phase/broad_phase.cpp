#include "eipc/broad_phase/broad_phase.hpp"

#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <tuple>

namespace eipc {

namespace {

/// Vertex v's coordinates (Positions are row-major: contiguous).
Eigen::Map<const Eigen::Array3d> row(const Positions& x, int v) { return Eigen::Map<const Eigen::Array3d>(&x(v, 0)); }

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

int body_of_vertex(const CollisionMesh& mesh, int v) { return mesh.vertex_body.empty() ? 0 : mesh.vertex_body[v]; }

MeshPart whole_mesh(const CollisionMesh& mesh) {
  MeshPart p;
  p.vertices.resize(std::size_t(mesh.num_vertices()));
  p.faces.resize(std::size_t(mesh.faces.rows()));
  p.edges.resize(std::size_t(mesh.edges.rows()));
  std::iota(p.vertices.begin(), p.vertices.end(), 0);
  std::iota(p.faces.begin(), p.faces.end(), 0);
  std::iota(p.edges.begin(), p.edges.end(), 0);
  return p;
}

std::vector<MeshPart> parts_by_body(const CollisionMesh& mesh) {
  std::vector<MeshPart> parts;
  auto part = [&](int body) -> MeshPart& {
    if (body >= int(parts.size())) parts.resize(std::size_t(body) + 1);
    return parts[std::size_t(body)];
  };
  for (int v = 0; v < mesh.num_vertices(); ++v) part(body_of_vertex(mesh, v)).vertices.push_back(v);
  for (int f = 0; f < int(mesh.faces.rows()); ++f) part(body_of_vertex(mesh, mesh.faces(f, 0))).faces.push_back(f);
  for (int e = 0; e < int(mesh.edges.rows()); ++e) part(body_of_vertex(mesh, mesh.edges(e, 0))).edges.push_back(e);
  return parts;
}

/// Trees over the swept, inflated boxes of a part's faces, edges and vertices
/// (tree index i is the part's i-th face / edge / vertex).
using PartBoxes = BroadPhaseTrees::Fitted;

/// Each primitive's own growth of its box (global indices) beyond boxes_of's r; none: 0.
struct Growth {
  const std::vector<double>* vertices = nullptr;
  const std::vector<double>* faces = nullptr;
  const std::vector<double>* edges = nullptr;
};

PartBoxes boxes_of(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, double r, const MeshPart& part,
                   int body, BroadPhaseTrees& trees, const Growth& own = {}) {
  std::vector<Aabb> faces(part.faces.size()), edges(part.edges.size()), vertices(part.vertices.size());
  auto grown = [r](const std::vector<double>* growth, int i) { return growth ? r + (*growth)[std::size_t(i)] : r; };
  const std::size_t grain = grain_for(0.02);
  parallel_for_each(faces.size(), grain, [&](std::size_t i) {
    faces[i] = swept_face_box(mesh, x0, x1, part.faces[i], grown(own.faces, part.faces[i]));
  });
  parallel_for_each(edges.size(), grain, [&](std::size_t i) {
    edges[i] = swept_edge_box(mesh, x0, x1, part.edges[i], grown(own.edges, part.edges[i]));
  });
  parallel_for_each(vertices.size(), grain, [&](std::size_t i) {
    vertices[i] = swept_vertex_box(x0, x1, part.vertices[i], grown(own.vertices, part.vertices[i]));
  });
  return trees.fit(body, std::move(faces), std::move(edges), std::move(vertices));
}

bool shares_vertex(const CollisionMesh& mesh, int a, int b) {
  const int a0 = mesh.edges(a, 0), a1 = mesh.edges(a, 1), b0 = mesh.edges(b, 0), b1 = mesh.edges(b, 1);
  return b0 == a0 || b0 == a1 || b1 == a0 || b1 == a1;
}

// A leaf query costs ~1 us: 16 leaves make a chunk worth a task.
constexpr std::size_t kLeafChunk = 16;

/// emit(i, hits, hits_end) for every box i of `queries` in leaves [first, last),
/// with boxes of `tree` overlapping it in [hits, hits_end), in no order. One
/// walk down `tree` per leaf of `queries`, with the leaf's box: its members lie
/// close together, so the walk finds a few more boxes than one member's would
/// and serves them all. Between two trees: every box overlapping i. Within one
/// (`self`, queries == tree): each overlapping pair once, from the earlier leaf
/// of the two (its members against each other and against the later leaves'
/// boxes), so that no two leaves meet twice.
template <class Emit>
void overlaps_by_leaf(const AabbTree& queries, const AabbTree& tree, bool self, std::size_t first, std::size_t last,
                      Emit&& emit) {
  std::vector<int> near, hits;
  for (int k = int(first); k < int(last); ++k) {
    const int* begin = queries.leaf_begin(k);
    const int* end = queries.leaf_end(k);
    near.clear();
    tree.query(queries.leaf_box(k), near, self ? k + 1 : 0);
    hits.resize(std::max(hits.size(), near.size() + std::size_t(end - begin)));
    for (const int* i = begin; i != end; ++i) {
      const Aabb& box = queries.box(*i);
      // Appended without a branch: about one near box in six overlaps (Aabb::overlaps).
      int* hit = hits.data();
      for (int j : near) {
        *hit = j;
        hit += int(tree.box(j).overlaps(box));
      }
      if (self)
        for (const int* j = i + 1; j != end; ++j) {
          *hit = *j;
          hit += int(tree.box(*j).overlaps(box));
        }
      emit(*i, hits.data(), hit);
    }
  }
}

/// `pairs` ordered by first(pair) (0 <= first < n), stably: the order of each
/// first's pairs is kept. Returns where each first's run starts (n + 1 entries).
template <class T, class First>
std::vector<int> order_by_first(std::vector<T>& pairs, int n, First first) {
  std::vector<int> start(std::size_t(n) + 1, 0);
  for (const T& p : pairs) ++start[std::size_t(first(p)) + 1];
  for (int i = 0; i < n; ++i) start[std::size_t(i) + 1] += start[std::size_t(i)];
  std::vector<int> next(start.begin(), start.end() - 1);
  std::vector<T> sorted(pairs.size());
  for (const T& p : pairs) sorted[std::size_t(next[std::size_t(first(p))]++)] = p;
  pairs = std::move(sorted);
  return start;
}

/// `pairs` (0 <= first(pair) < n) in Candidates order: by first, then each
/// first's run sorted (short runs: cheaper than sorting them all).
template <class T, class First>
void in_candidates_order(std::vector<T>& pairs, int n, First first) {
  const std::vector<int> start = order_by_first(pairs, n, first);
  for (int i = 0; i < n; ++i) std::sort(pairs.begin() + start[std::size_t(i)], pairs.begin() + start[std::size_t(i) + 1]);
}

/// All pairs of one part's primitives whose boxes `b` overlap (see
/// find_candidates) but those `exclusion` leaves out.
Candidates pairs_within(const CollisionMesh& mesh, const PartBoxes& b, const MeshPart& part,
                        const PatchExclusion* exclusion = nullptr) {
  Candidates out;
  parallel_gather(std::size_t(b.vertices->num_leaves()), kLeafChunk, out.point_triangle,
                  [&](std::size_t first, std::size_t last, std::vector<PointTriangleCandidate>& dst) {
                    overlaps_by_leaf(*b.vertices, *b.faces, false, first, last, [&](int i, const int* hits, const int* hits_end) {
                      const int v = part.vertices[std::size_t(i)];
                      for (const int* k = hits; k != hits_end; ++k) {
                        const int f = part.faces[std::size_t(*k)];
                        if (mesh.faces(f, 0) != v && mesh.faces(f, 1) != v && mesh.faces(f, 2) != v &&
                            !(exclusion && exclusion->excludes(PointTriangleCandidate{v, f})))
                          dst.push_back({v, f});
                      }
                    });
                  });
  parallel_gather(std::size_t(b.edges->num_leaves()), kLeafChunk, out.edge_edge,
                  [&](std::size_t first, std::size_t last, std::vector<EdgeEdgeCandidate>& dst) {
                    overlaps_by_leaf(*b.edges, *b.edges, true, first, last, [&](int i, const int* hits, const int* hits_end) {
                      const int a = part.edges[std::size_t(i)];
                      for (const int* k = hits; k != hits_end; ++k) {
                        const int e = part.edges[std::size_t(*k)];
                        const EdgeEdgeCandidate c{std::min(a, e), std::max(a, e)};
                        if (!shares_vertex(mesh, a, e) && !(exclusion && exclusion->excludes(c))) dst.push_back(c);
                      }
                    });
                  });
  // Leaf order is spatial, and a leaf's hits come in no order.
  in_candidates_order(out.point_triangle, mesh.num_vertices(), [](const PointTriangleCandidate& c) { return c.vertex; });
  in_candidates_order(out.edge_edge, int(mesh.edges.rows()), [](const EdgeEdgeCandidate& c) { return c.edge_a; });
  return out;
}

void check_counts(const CollisionMesh& mesh, const Positions& x0, const Positions& x1) {
  if (x0.rows() != mesh.num_vertices() || x1.rows() != mesh.num_vertices())
    throw InputError("find_candidates: position count does not match the collision mesh");
}

/// CSR lists of `second` by `first` (n rows), each list ascending.
template <class T, class First, class Second>
void by_first(std::vector<T> pairs, int n, First first, Second second, std::vector<int>& start, std::vector<int>& of) {
  start = order_by_first(pairs, n, first);
  of.resize(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) of[k] = second(pairs[k]);
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
  auto pieces_of = [&](const auto& vertices) {
    return Pieces{common_piece(mesh.vertex_patch, vertices), common_piece(mesh.vertex_region, vertices)};
  };
  for (int v = 0; v < mesh.num_vertices(); ++v) vertex_pieces_.push_back(pieces_of(std::array<int, 1>{v}));
  for (int f = 0; f < int(mesh.faces.rows()); ++f)
    face_pieces_.push_back(pieces_of(std::array<int, 3>{mesh.faces(f, 0), mesh.faces(f, 1), mesh.faces(f, 2)}));
  for (int e = 0; e < int(mesh.edges.rows()); ++e)
    edge_pieces_.push_back(pieces_of(std::array<int, 2>{mesh.edges(e, 0), mesh.edges(e, 1)}));
}

bool PatchExclusion::in_trusted_piece(const Pieces& a, const Pieces& b) const {
  // The vertices of both lie in one piece when each one's do, in the same.
  auto trusted_common = [&](int p, int q) {
    return p >= 0 && p == q && std::size_t(p) < trusted.size() && trusted[std::size_t(p)];
  };
  return trusted_common(a.patch, b.patch) || trusted_common(a.region, b.region);
}

bool PatchExclusion::excludes(const PointTriangleCandidate& c) const {
  if (vertex_pieces_.empty() ||
      !in_trusted_piece(vertex_pieces_[std::size_t(c.vertex)], face_pieces_[std::size_t(c.face)]))
    return false;
  return !listed(vertex_start_, face_of_, c.vertex, c.face);
}

bool PatchExclusion::excludes(const EdgeEdgeCandidate& c) const {
  if (edge_pieces_.empty() ||
      !in_trusted_piece(edge_pieces_[std::size_t(c.edge_a)], edge_pieces_[std::size_t(c.edge_b)]))
    return false;
  return !listed(edge_start_, edge_of_, c.edge_a, c.edge_b);
}

BroadPhaseTrees::Fitted BroadPhaseTrees::fit(int body, std::vector<Aabb> faces, std::vector<Aabb> edges,
                                             std::vector<Aabb> vertices) {
  if (body >= int(faces_.size())) {
    faces_.resize(std::size_t(body) + 1);
    edges_.resize(std::size_t(body) + 1);
    vertices_.resize(std::size_t(body) + 1);
  }
  auto fit_one = [](AabbTree& tree, std::vector<Aabb>& boxes) {
    if (tree.size() == int(boxes.size()) && !boxes.empty())
      tree.refit(std::move(boxes));
    else
      tree = AabbTree(std::move(boxes));
  };
  AabbTree &face_tree = faces_[std::size_t(body)], &edge_tree = edges_[std::size_t(body)],
           &vertex_tree = vertices_[std::size_t(body)];
  parallel_both([&] { fit_one(face_tree, faces); },
                [&] { parallel_both([&] { fit_one(edge_tree, edges); }, [&] { fit_one(vertex_tree, vertices); }); });
  return {&face_tree, &edge_tree, &vertex_tree};
}

const std::vector<MeshPart>& BroadPhaseTrees::bodies(const CollisionMesh& mesh) {
  if (bodies_of_vertices_ != mesh.num_vertices()) {
    bodies_ = parts_by_body(mesh);
    bodies_of_vertices_ = mesh.num_vertices();
  }
  return bodies_;
}

Candidates find_candidates(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, double inflation) {
  check_counts(mesh, x0, x1);
  BroadPhaseTrees trees;
  const MeshPart all = whole_mesh(mesh);
  // Each primitive box is inflated by half the margin, so overlap <=> gap <= inflation.
  return pairs_within(mesh, boxes_of(mesh, x0, x1, 0.5 * inflation, all, 0, trees), all);
}

Candidates find_candidates_within_body(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                       double inflation, int body, BroadPhaseTrees* kept,
                                       const PatchExclusion* exclusion) {
  check_counts(mesh, x0, x1);
  BroadPhaseTrees fresh;
  BroadPhaseTrees& trees = kept ? *kept : fresh;
  const std::vector<MeshPart>& parts = trees.bodies(mesh);
  if (body < 0 || body >= int(parts.size())) return {};
  const MeshPart& part = parts[std::size_t(body)];
  return pairs_within(mesh, boxes_of(mesh, x0, x1, 0.5 * inflation, part, body, trees), part, exclusion);
}

Candidates find_candidates_grown(const CollisionMesh& mesh, const Positions& x, const std::vector<double>& vertex_grow,
                                 const std::vector<double>& face_grow, const std::vector<double>& edge_grow) {
  check_counts(mesh, x, x);
  const MeshPart all = whole_mesh(mesh);
  BroadPhaseTrees trees;
  return pairs_within(mesh, boxes_of(mesh, x, x, 0.0, all, 0, trees, Growth{&vertex_grow, &face_grow, &edge_grow}), all);
}

Candidates find_candidates_between_bodies(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                          double inflation, BroadPhaseTrees* kept, BodyPairs which) {
  check_counts(mesh, x0, x1);
  BroadPhaseTrees fresh;
  BroadPhaseTrees& trees = kept ? *kept : fresh;
  const std::vector<MeshPart>& bodies = trees.bodies(mesh);
  std::vector<const MeshPart*> parts(bodies.size());
  auto covered = [&](std::size_t p, std::size_t q) {
    return p != q && (which == BodyPairs::all ||
                      (which == BodyPairs::deforming) == (!mesh.is_rigid(int(p)) && !mesh.is_rigid(int(q))));
  };
  // A body none of whose covered partners comes near (bounds grown as the
  // boxes are) has no pair: its boxes are not made.
  const double r = 0.5 * inflation;
  std::vector<Aabb> bound(bodies.size());
  for (std::size_t p = 0; p < bodies.size(); ++p) {
    for (int v : bodies[p].vertices) extend_both(bound[p], x0, x1, v);
    bound[p].inflate(r);
  }
  const MeshPart none;
  std::vector<PartBoxes> boxes(bodies.size());
  for (std::size_t p = 0; p < bodies.size(); ++p) {
    bool near = false;
    for (std::size_t q = 0; q < bodies.size(); ++q) near = near || (covered(p, q) && bound[p].overlaps(bound[q]));
    parts[p] = near ? &bodies[p] : &none;
    boxes[p] = boxes_of(mesh, x0, x1, r, *parts[p], int(p), trees);
  }
  // Vertices against the faces of every other body, edges against the edges
  // of every later body (each pair once); then in Candidates order.
  Candidates out;
  for (std::size_t own = 0; own < parts.size(); ++own)
    for (std::size_t other = 0; other < parts.size(); ++other) {
      const AabbTree &vertices = *boxes[own].vertices, &faces = *boxes[other].faces;
      if (!covered(own, other) || !vertices.bounds().overlaps(faces.bounds())) continue;
      parallel_gather(std::size_t(vertices.num_leaves()), kLeafChunk, out.point_triangle,
                      [&](std::size_t first, std::size_t last, std::vector<PointTriangleCandidate>& dst) {
                        overlaps_by_leaf(vertices, faces, false, first, last, [&](int i, const int* hits, const int* hits_end) {
                          for (const int* k = hits; k != hits_end; ++k) dst.push_back({parts[own]->vertices[std::size_t(i)], parts[other]->faces[std::size_t(*k)]});
                        });
                      });
    }
  for (std::size_t own = 0; own < parts.size(); ++own)
    for (std::size_t other = own + 1; other < parts.size(); ++other) {
      const AabbTree &edges = *boxes[own].edges, &others = *boxes[other].edges;
      if (!covered(own, other) || !edges.bounds().overlaps(others.bounds())) continue;
      parallel_gather(std::size_t(edges.num_leaves()), kLeafChunk, out.edge_edge,
                      [&](std::size_t first, std::size_t last, std::vector<EdgeEdgeCandidate>& dst) {
                        overlaps_by_leaf(edges, others, false, first, last, [&](int i, const int* hits, const int* hits_end) {
                          const int a = parts[own]->edges[std::size_t(i)];
                          for (const int* k = hits; k != hits_end; ++k) {
                            const int b = parts[other]->edges[std::size_t(*k)];
                            dst.push_back({std::min(a, b), std::max(a, b)});
                          }
                        });
                      });
    }
  std::sort(out.point_triangle.begin(), out.point_triangle.end());
  std::sort(out.edge_edge.begin(), out.edge_edge.end());
  return out;
}

Positions follow_mean_translation(const Positions& x0, const Positions& x1) {
  if (x1.rows() == 0) return x1;
  const Eigen::RowVector3d mean = (x1 - x0).colwise().mean();
  return x1.rowwise() - mean;
}

Positions body_mean_translations(const CollisionMesh& mesh, const Positions& x0, const Positions& x1) {
  const int bodies = *std::max_element(mesh.vertex_body.begin(), mesh.vertex_body.end()) + 1;
  Positions mean = Positions::Zero(bodies, 3);
  Eigen::VectorXd count = Eigen::VectorXd::Zero(bodies);
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    mean.row(mesh.vertex_body[v]) += x1.row(v) - x0.row(v);
    count[mesh.vertex_body[v]] += 1.0;
  }
  for (int b = 0; b < bodies; ++b) mean.row(b) /= count[b];
  return mean;
}

Positions follow_body_translations(const CollisionMesh& mesh, const Positions& x0, const Positions& x1) {
  if (mesh.vertex_body.empty()) return follow_mean_translation(x0, x1);
  const Positions shift = body_mean_translations(mesh, x0, x1);
  Positions out = x1;
  for (int v = 0; v < mesh.num_vertices(); ++v) out.row(v) -= shift.row(mesh.vertex_body[v]);
  return out;
}

}  // namespace eipc
