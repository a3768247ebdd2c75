#include "eipc/embedding/embedded_shell.hpp"

#include "eipc/distance/closest_point.hpp"
#include "eipc/distance/point_triangle.hpp"
#include "eipc/geometry/aabb_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace eipc {

SimulationNodes embed_shell(const Positions& fine_rest, const SurfaceMesh& coarse, const std::string& body,
                            const std::string& source, EmbeddingReport* report) {
  const double diagonal = (fine_rest.colwise().maxCoeff() - fine_rest.colwise().minCoeff()).norm();
  const double reach = kShellEmbeddingTolerance * diagonal;
  std::vector<Aabb> boxes(static_cast<std::size_t>(coarse.num_faces()));
  for (int t = 0; t < coarse.num_faces(); ++t)
    for (int k = 0; k < 3; ++k) boxes[std::size_t(t)].extend(coarse.vertices.row(coarse.faces(t, k)).transpose().array());
  const AabbTree tree(std::move(boxes));

  SimulationNodes out;
  out.node_rest = coarse.vertices;
  out.fine_map.nodes.resize(fine_rest.rows(), 4);
  out.fine_map.weights.resize(fine_rest.rows(), 4);
  EmbeddingReport r;
  r.vertices = static_cast<int>(fine_rest.rows());
  std::vector<int> near;
  for (Eigen::Index v = 0; v < fine_rest.rows(); ++v) {
    const Vec3 p = fine_rest.row(v).transpose();
    Aabb query;
    query.extend(p.array());
    query.inflate(reach);
    near.clear();
    tree.query(query, near);
    double best = std::numeric_limits<double>::infinity();
    int best_tri = -1;
    for (const int t : near) {
      const double d2 = point_triangle_distance_sq(p, coarse.vertices.row(coarse.faces(t, 0)).transpose(),
                                                   coarse.vertices.row(coarse.faces(t, 1)).transpose(),
                                                   coarse.vertices.row(coarse.faces(t, 2)).transpose());
      if (d2 < best || (d2 == best && t < best_tri)) {
        best = d2;
        best_tri = t;
      }
    }
    if (best_tri < 0 || std::sqrt(best) > reach)
      throw InputError(source + ": vertex " + std::to_string(v) + " of shell '" + body +
                       "' is not on the coarse surface (farther than " + std::to_string(reach) +
                       " m from every triangle): an embedded shell's fine vertices must lie on it at rest (a flat "
                       "sheet, or a coarse surface whose triangles the fine ones subdivide)");
    const Vec3 a = coarse.vertices.row(coarse.faces(best_tri, 0)).transpose();
    const Vec3 b = coarse.vertices.row(coarse.faces(best_tri, 1)).transpose();
    const Vec3 c = coarse.vertices.row(coarse.faces(best_tri, 2)).transpose();
    const Vec3 w = point_triangle_closest_weights(p, a, b, c, point_triangle_distance_type(p, a, b, c));
    out.fine_map.nodes.row(v) << coarse.faces(best_tri, 0), coarse.faces(best_tri, 1), coarse.faces(best_tri, 2),
        coarse.faces(best_tri, 2);
    out.fine_map.weights.row(v) << w[0], w[1], w[2], 0.0;
    r.max_outside = std::max(r.max_outside, std::sqrt(best));
  }
  std::vector<char> carries(static_cast<std::size_t>(coarse.num_vertices()), 0);
  for (Eigen::Index v = 0; v < fine_rest.rows(); ++v)
    for (int j = 0; j < 3; ++j)
      if (out.fine_map.weights(v, j) > 0.0) carries[std::size_t(out.fine_map.nodes(v, j))] = 1;
  for (int n = 0; n < coarse.num_vertices(); ++n)
    if (!carries[std::size_t(n)])
      throw InputError(source + ": coarse vertex " + std::to_string(n) + " carries no vertex of shell '" + body +
                       "' (it would have no mass): use a coarser surface, or one that the fine mesh covers");
  if (report) *report = r;
  return out;
}

}  // namespace eipc
