#include "eipc/contact/ccd_step.hpp"

#include "eipc/contact/broad_phase.hpp"
#include "eipc/contact/ccd.hpp"
#include "eipc/contact/ccd_distance.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

namespace eipc {

namespace {

Vec3 at(const Positions& x, int v) { return x.row(v).transpose(); }

/// Minimum of f(i) over i in [0, n), evaluated in parallel into a vector, reduced in order.
template <class F>
double parallel_min(int n, double init, F f) {
  std::vector<double> values(n);
  tbb::parallel_for(0, n, [&](int i) { values[i] = f(i); });
  double m = init;
  for (double v : values) m = std::min(m, v);
  return m;
}

/// The pairs of `superset` whose swept boxes overlap without inflation (what
/// find_candidates(mesh, x0, x1, 0) returns), in the same order.
Candidates swept_overlaps(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, const Candidates& superset) {
  Candidates c;
  c.point_triangle.reserve(superset.point_triangle.size());
  for (const PointTriangleCandidate& p : superset.point_triangle)
    if (swept_vertex_box(x0, x1, p.vertex, 0.0).overlaps(swept_face_box(mesh, x0, x1, p.face, 0.0)))
      c.point_triangle.push_back(p);
  c.edge_edge.reserve(superset.edge_edge.size());
  for (const EdgeEdgeCandidate& e : superset.edge_edge)
    if (swept_edge_box(mesh, x0, x1, e.edge_a, 0.0).overlaps(swept_edge_box(mesh, x0, x1, e.edge_b, 0.0)))
      c.edge_edge.push_back(e);
  return c;
}

/// Narrow phase over the candidates c (each a pair whose swept boxes overlap).
double collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, const Candidates& c,
                           std::optional<double> ground_height, double min_distance_ratio) {
  double alpha = 1.0;

  alpha = parallel_min(static_cast<int>(c.point_triangle.size()), alpha, [&](int i) {
    const int v = c.point_triangle[i].vertex;
    const int f0 = mesh.faces(c.point_triangle[i].face, 0), f1 = mesh.faces(c.point_triangle[i].face, 1),
              f2 = mesh.faces(c.point_triangle[i].face, 2);
    const double d0 = ccd::point_triangle_distance(at(x0, v), at(x0, f0), at(x0, f1), at(x0, f2));
    double toi = 1.0;
    if (!point_triangle_ccd(at(x0, v), at(x0, f0), at(x0, f1), at(x0, f2), at(x1, v), at(x1, f0), at(x1, f1),
                            at(x1, f2), min_distance_ratio * d0, 1.0, toi))
      toi = 1.0;
    return toi;
  });

  alpha = parallel_min(static_cast<int>(c.edge_edge.size()), alpha, [&](int i) {
    const int a0 = mesh.edges(c.edge_edge[i].edge_a, 0), a1 = mesh.edges(c.edge_edge[i].edge_a, 1);
    const int b0 = mesh.edges(c.edge_edge[i].edge_b, 0), b1 = mesh.edges(c.edge_edge[i].edge_b, 1);
    const double d0 = ccd::edge_edge_distance(at(x0, a0), at(x0, a1), at(x0, b0), at(x0, b1));
    double toi = 1.0;
    if (!edge_edge_ccd(at(x0, a0), at(x0, a1), at(x0, b0), at(x0, b1), at(x1, a0), at(x1, a1), at(x1, b0),
                       at(x1, b1), min_distance_ratio * d0, 1.0, toi))
      toi = 1.0;
    return toi;
  });

  if (ground_height) {
    const double h = *ground_height;
    alpha = parallel_min(mesh.num_vertices(), alpha, [&](int v) {
      double toi = 1.0;
      const double d0 = std::max(0.0, x0(v, 2) - h);
      if (!point_plane_ccd(x0(v, 2), x1(v, 2), h, min_distance_ratio * d0, 1.0, toi)) toi = 1.0;
      return toi;
    });
  }
  return alpha;
}

}  // namespace

double max_collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                               std::optional<double> ground_height, double min_distance_ratio) {
  return collision_free_step(mesh, x0, x1, find_candidates(mesh, x0, x1, 0.0), ground_height, min_distance_ratio);
}

double max_collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                               const Candidates& superset, std::optional<double> ground_height,
                               double min_distance_ratio) {
  return collision_free_step(mesh, x0, x1, swept_overlaps(mesh, x0, x1, superset), ground_height,
                             min_distance_ratio);
}

}  // namespace eipc
