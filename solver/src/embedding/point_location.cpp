#include "eipc/embedding/point_location.hpp"

#include "eipc/geometry/aabb_tree.hpp"
#include "eipc/distance/point_triangle.hpp"

#include <Eigen/LU>
#include <tbb/parallel_for.h>
#include <algorithm>
#include <cmath>
#include <limits>

namespace eipc {

namespace {

/// The factorised edge matrix of a tet (b - a, c - a, d - a).
Eigen::PartialPivLU<Mat3> edge_matrix(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  Mat3 D;
  D << b - a, c - a, d - a;
  return D.partialPivLu();
}

Eigen::Vector4d barycentric(const Eigen::PartialPivLU<Mat3>& edges, const Vec3& p, const Vec3& a) {
  const Vec3 l = edges.solve(p - a);
  return {1.0 - l.sum(), l[0], l[1], l[2]};
}

}  // namespace

Eigen::Vector4d barycentric(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return barycentric(edge_matrix(a, b, c, d), p, a);
}

namespace {

Vec3 vertex(const Positions& x, int i) { return x.row(i).transpose(); }

/// Distance from p to the closed tet (0 inside).
double distance_to_tet(const Vec3& p, const Positions& x, const Eigen::RowVector4i& t, const Eigen::Vector4d& w) {
  if (w.minCoeff() >= 0.0) return 0.0;
  static constexpr int faces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  double best = std::numeric_limits<double>::infinity();
  for (const auto& f : faces) {
    const Vec3 a = vertex(x, t[f[0]]), b = vertex(x, t[f[1]]), c = vertex(x, t[f[2]]);
    best = std::min(best, point_triangle_distance_sq(p, a, b, c, point_triangle_distance_type(p, a, b, c)));
  }
  return std::sqrt(best);
}

}  // namespace

std::vector<TetLocation> locate_points(const Positions& x, const Tets& tets, const Positions& points) {
  if (tets.rows() == 0) throw InputError("point location: the embedding mesh has no tets");
  std::vector<Aabb> boxes(tets.rows());
  for (Eigen::Index t = 0; t < tets.rows(); ++t)
    for (int j = 0; j < 4; ++j) boxes[t].extend(x.row(tets(t, j)).transpose().array());
  Aabb all;
  for (const Aabb& b : boxes) all.extend(b);
  const double diagonal = (all.hi - all.lo).matrix().norm();
  const AabbTree tree(boxes);
  // Factorised once per tet: most tets hold many points.
  std::vector<Eigen::PartialPivLU<Mat3>> edges(std::size_t(tets.rows()));
  tbb::parallel_for(Eigen::Index(0), tets.rows(), [&](Eigen::Index t) {
    edges[std::size_t(t)] = edge_matrix(vertex(x, tets(t, 0)), vertex(x, tets(t, 1)), vertex(x, tets(t, 2)), vertex(x, tets(t, 3)));
  });

  std::vector<TetLocation> out(points.rows());
  tbb::parallel_for(Eigen::Index(0), points.rows(), [&](Eigen::Index i) {
    const Vec3 p = points.row(i).transpose();
    TetLocation best;
    best.outside_distance = std::numeric_limits<double>::infinity();
    // Grow the query box until it reaches a tet; inside tets are found by the first query.
    for (double r = 0.0;; r = (r == 0.0 ? 1e-3 * diagonal : 2.0 * r)) {
      Aabb q;
      q.extend(p.array());
      q.inflate(r);
      std::vector<int> hits;
      tree.query(q, hits);
      std::sort(hits.begin(), hits.end());
      std::vector<Eigen::Vector4d> weights(hits.size());
      bool inside_one = false;
      for (std::size_t k = 0; k < hits.size(); ++k) {
        weights[k] = barycentric(edges[std::size_t(hits[k])], p, vertex(x, tets(hits[k], 0)));
        inside_one = inside_one || weights[k].minCoeff() >= 0.0;
      }
      for (std::size_t k = 0; k < hits.size(); ++k) {
        const Eigen::Vector4d& w = weights[k];
        // A tet containing p beats every other (distance 0 and a larger
        // smallest weight), so then the others' distances are not needed.
        if (inside_one && w.minCoeff() < 0.0) continue;
        const double d = distance_to_tet(p, x, tets.row(hits[k]), w);
        // Prefer the closer tet; among containing tets the one with the largest smallest weight.
        if (d < best.outside_distance || (d == 0.0 && best.outside_distance == 0.0 && w.minCoeff() > best.weights.minCoeff()))
          best = {hits[k], w, d};
      }
      // A hit at distance <= r is the nearest one: any closer tet's box lies within the query.
      if (best.tet >= 0 && best.outside_distance <= r) break;
      if (r > 4.0 * diagonal + 1.0 && best.tet >= 0) break;
    }
    out[i] = best;
  });
  return out;
}

}  // namespace eipc
