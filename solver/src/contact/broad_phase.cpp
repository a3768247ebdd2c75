#include "eipc/contact/broad_phase.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>

namespace eipc {

namespace {

Eigen::Array3d row(const Positions& x, int v) { return x.row(v).transpose().array(); }

void extend_both(Aabb& box, const Positions& x0, const Positions& x1, int v) {
  box.extend(row(x0, v));
  box.extend(row(x1, v));
}

/// Runs `per_item(i, out)` for i in [0, n) in fixed-size chunks, in parallel,
/// and concatenates the chunk outputs in index order (thread-count independent).
template <class T, class PerItem>
std::vector<T> gather_in_order(int n, PerItem per_item) {
  constexpr int kChunk = 256;
  const int chunks = (n + kChunk - 1) / kChunk;
  std::vector<std::vector<T>> parts(chunks);
  tbb::parallel_for(0, chunks, [&](int c) {
    std::vector<int> scratch;
    for (int i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) per_item(i, scratch, parts[c]);
  });
  std::size_t total = 0;
  for (const auto& p : parts) total += p.size();
  std::vector<T> out;
  out.reserve(total);
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace

Aabb swept_vertex_box(const Positions& x0, const Positions& x1, int v, double inflation) {
  Aabb box;
  extend_both(box, x0, x1, v);
  box.inflate(inflation);
  return box;
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

Candidates find_candidates(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, double inflation) {
  if (x0.rows() != mesh.num_vertices() || x1.rows() != mesh.num_vertices())
    throw InputError("find_candidates: position count does not match the collision mesh");
  const int nv = mesh.num_vertices();
  const int nf = static_cast<int>(mesh.faces.rows());
  const int ne = static_cast<int>(mesh.edges.rows());

  // Each primitive box is inflated by half the margin, so overlap <=> gap <= inflation.
  const double r = 0.5 * inflation;
  std::vector<Aabb> face_boxes(nf), edge_boxes(ne), vertex_boxes(nv);
  tbb::parallel_for(0, nf, [&](int f) { face_boxes[f] = swept_face_box(mesh, x0, x1, f, r); });
  tbb::parallel_for(0, ne, [&](int e) { edge_boxes[e] = swept_edge_box(mesh, x0, x1, e, r); });
  tbb::parallel_for(0, nv, [&](int v) { vertex_boxes[v] = swept_vertex_box(x0, x1, v, r); });

  AabbTree face_tree, edge_tree;
  tbb::parallel_invoke([&] { face_tree = AabbTree(face_boxes); }, [&] { edge_tree = AabbTree(edge_boxes); });

  Candidates out;
  out.point_triangle = gather_in_order<PointTriangleCandidate>(
      nv, [&](int v, std::vector<int>& hits, std::vector<PointTriangleCandidate>& dst) {
        hits.clear();
        face_tree.query(vertex_boxes[v], hits);
        std::sort(hits.begin(), hits.end());
        for (int f : hits)
          if (mesh.faces(f, 0) != v && mesh.faces(f, 1) != v && mesh.faces(f, 2) != v) dst.push_back({v, f});
      });
  out.edge_edge = gather_in_order<EdgeEdgeCandidate>(
      ne, [&](int a, std::vector<int>& hits, std::vector<EdgeEdgeCandidate>& dst) {
        hits.clear();
        edge_tree.query(edge_boxes[a], hits);
        std::sort(hits.begin(), hits.end());
        const int a0 = mesh.edges(a, 0), a1 = mesh.edges(a, 1);
        for (int b : hits) {
          if (b <= a) continue;
          const int b0 = mesh.edges(b, 0), b1 = mesh.edges(b, 1);
          if (b0 != a0 && b0 != a1 && b1 != a0 && b1 != a1) dst.push_back({a, b});
        }
      });
  return out;
}

}  // namespace eipc
