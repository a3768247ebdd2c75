#include "eipc/contact/broad_phase.hpp"

#include "eipc/util/parallel.hpp"

#include <algorithm>

namespace eipc {

namespace {

Eigen::Array3d row(const Positions& x, int v) { return x.row(v).transpose().array(); }

void extend_both(Aabb& box, const Positions& x0, const Positions& x1, int v) {
  box.extend(row(x0, v));
  box.extend(row(x1, v));
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
  const std::size_t box_grain = grain_for(0.02);
  parallel_for_each(nf, box_grain, [&](std::size_t f) { face_boxes[f] = swept_face_box(mesh, x0, x1, int(f), r); });
  parallel_for_each(ne, box_grain, [&](std::size_t e) { edge_boxes[e] = swept_edge_box(mesh, x0, x1, int(e), r); });
  parallel_for_each(nv, box_grain, [&](std::size_t v) { vertex_boxes[v] = swept_vertex_box(x0, x1, int(v), r); });

  AabbTree face_tree, edge_tree;
  parallel_both([&] { face_tree = AabbTree(face_boxes); }, [&] { edge_tree = AabbTree(edge_boxes); });

  // A tree query costs ~0.3 us: 64 queries make a chunk worth a task.
  constexpr std::size_t kQueryChunk = 64;
  Candidates out;
  parallel_gather(nv, kQueryChunk, out.point_triangle,
                  [&](std::size_t begin, std::size_t end, std::vector<PointTriangleCandidate>& dst) {
                    std::vector<int> hits;
                    for (int v = int(begin); v < int(end); ++v) {
                      hits.clear();
                      face_tree.query(vertex_boxes[v], hits);
                      std::sort(hits.begin(), hits.end());
                      for (int f : hits)
                        if (mesh.faces(f, 0) != v && mesh.faces(f, 1) != v && mesh.faces(f, 2) != v)
                          dst.push_back({v, f});
                    }
                  });
  parallel_gather(ne, kQueryChunk, out.edge_edge,
                  [&](std::size_t begin, std::size_t end, std::vector<EdgeEdgeCandidate>& dst) {
                    std::vector<int> hits;
                    for (int a = int(begin); a < int(end); ++a) {
                      hits.clear();
                      edge_tree.query(edge_boxes[a], hits, a);  // each unordered pair once
                      std::sort(hits.begin(), hits.end());
                      const int a0 = mesh.edges(a, 0), a1 = mesh.edges(a, 1);
                      for (int b : hits) {
                        const int b0 = mesh.edges(b, 0), b1 = mesh.edges(b, 1);
                        if (b0 != a0 && b0 != a1 && b1 != a0 && b1 != a1) dst.push_back({a, b});
                      }
                    }
                  });
  return out;
}

Positions follow_mean_translation(const Positions& x0, const Positions& x1) {
  if (x1.rows() == 0) return x1;
  const Eigen::RowVector3d mean = (x1 - x0).colwise().mean();
  return x1.rowwise() - mean;
}

}  // namespace eipc
