#include "eipc/collisions/minimum_distance.hpp"

#include "eipc/distance/edge_edge.hpp"
#include "eipc/distance/point_triangle.hpp"

#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace eipc {

double minimum_distance(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                        std::optional<double> ground_height) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  auto row = [&](int i) -> Vec3 { return x.row(i).transpose(); };
  const double pt = parallel_min(candidates.point_triangle.size(), grain_for(0.1), inf, [&](std::size_t i) {
    const auto& c = candidates.point_triangle[i];
    const int p = c.vertex, f0 = mesh.faces(c.face, 0), f1 = mesh.faces(c.face, 1), f2 = mesh.faces(c.face, 2);
    if (p == f0 || p == f1 || p == f2) return inf;
    return std::sqrt(point_triangle_distance_sq(row(p), row(f0), row(f1), row(f2))) - mesh.contact_offset(p, f0);
  });
  const double ee = parallel_min(candidates.edge_edge.size(), grain_for(0.1), inf, [&](std::size_t i) {
    const auto& c = candidates.edge_edge[i];
    const int a0 = mesh.edges(c.edge_a, 0), a1 = mesh.edges(c.edge_a, 1), b0 = mesh.edges(c.edge_b, 0),
              b1 = mesh.edges(c.edge_b, 1);
    if (a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1) return inf;
    return std::sqrt(edge_edge_distance_sq(row(a0), row(a1), row(b0), row(b1))) - mesh.contact_offset(a0, b0);
  });
  double m = std::min(pt, ee);
  if (ground_height)
    for (Eigen::Index v = 0; v < x.rows(); ++v) m = std::min(m, x(v, 2) - *ground_height - mesh.contact_offset(int(v), -1));
  return m;
}

BodyGap closest_bodies(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                       std::optional<double> ground_height) {
  auto row = [&](int i) -> Vec3 { return x.row(i).transpose(); };
  BodyGap gap;
  const auto consider = [&](double squared, int va, int vb) {
    const int a = mesh.vertex_body[std::size_t(va)], b = mesh.vertex_body[std::size_t(vb)];
    if (a == b || (mesh.is_rigid(a) && mesh.is_rigid(b))) return;  // kinematic bodies feel no barrier
    const double d = std::sqrt(squared) - mesh.contact_offset(va, vb);
    if (d < gap.distance) gap = {d, a, b};
  };
  for (const auto& c : candidates.point_triangle) {
    const int f0 = mesh.faces(c.face, 0), f1 = mesh.faces(c.face, 1), f2 = mesh.faces(c.face, 2);
    if (mesh.vertex_body[c.vertex] == mesh.body_of_face(c.face)) continue;
    consider(point_triangle_distance_sq(row(c.vertex), row(f0), row(f1), row(f2)), c.vertex, f0);
  }
  for (const auto& c : candidates.edge_edge) {
    if (mesh.body_of_edge(c.edge_a) == mesh.body_of_edge(c.edge_b)) continue;
    const int a0 = mesh.edges(c.edge_a, 0), b0 = mesh.edges(c.edge_b, 0);
    consider(edge_edge_distance_sq(row(a0), row(mesh.edges(c.edge_a, 1)), row(b0), row(mesh.edges(c.edge_b, 1))), a0, b0);
  }
  if (ground_height)
    for (Eigen::Index v = 0; v < x.rows(); ++v) {
      const double d = x(v, 2) - *ground_height - mesh.contact_offset(int(v), -1);
      if (!mesh.is_rigid(mesh.vertex_body[v]) && d < gap.distance) gap = {d, mesh.vertex_body[v], -1};
    }
  return gap;
}

}  // namespace eipc
