#include "eipc/embedding/collision_map.hpp"

#include "eipc/mesh/surface.hpp"

#include <algorithm>
#include <map>

namespace eipc {

int CollisionMap::convex_region(const SurfaceOnNodes& b, const std::map<int, int>& local, const std::vector<int>& patch,
                                const Positions& rest_nodes) {
  if (!b.elements || b.elements->rows() < 2) return -1;
  // Every vertex must move by its own tet's map, which the region's
  // piecewise-affine map matches only inside the tet.
  for (const auto& fine_and_collision : local)
    if (b.map->weights.row(fine_and_collision.first).minCoeff() < -1e-12) return -1;
  if (std::find(patch.begin(), patch.end(), -1) != patch.end()) return -1;
  std::vector<std::array<int, 4>> tets;
  for (Eigen::Index t = 0; t < b.elements->rows(); ++t) {
    std::array<int, 4> n;
    for (int j = 0; j < 4; ++j) n[std::size_t(j)] = b.node_offset + (*b.elements)(t, j);
    tets.push_back(n);
  }
  return patches_.add_region(tets, rest_nodes);
}

CollisionMap::CollisionMap(const std::vector<SurfaceOnNodes>& bodies, int num_nodes) {
  std::vector<Eigen::Triplet<double>> jac;
  std::vector<Eigen::RowVector3i> faces;
  std::vector<Eigen::RowVector3d> rest;
  std::vector<Eigen::RowVector4i> map_nodes;
  std::vector<Eigen::RowVector4d> map_weights;
  for (std::size_t bi = 0; bi < bodies.size(); ++bi) {
    const SurfaceOnNodes& b = bodies[bi];
    mesh_.rigid_body.push_back(b.rigid ? 1 : 0);
    mesh_.half_thickness.push_back(b.half_thickness);
    std::map<int, int> local;  // fine vertex -> collision vertex
    for (Eigen::Index f = 0; f < b.surface->rows(); ++f)
      for (int k = 0; k < 3; ++k) local.emplace((*b.surface)(f, k), 0);
    // A shell's vertices start where its map puts them, on the coarse surface
    // (embed_shell projects them there): the rest its triangle patches bound.
    const bool shell = b.half_thickness > 0.0 && b.node_rest;
    const Positions shell_rest = shell ? b.map->apply(*b.node_rest) : Positions();
    for (auto& [fine, col] : local) {
      col = static_cast<int>(rest.size());
      rest.push_back(shell ? shell_rest.row(fine) : b.fine_rest->row(fine));
      mesh_.vertex_body.push_back(static_cast<int>(bi));
      std::vector<std::pair<int, double>> terms;  // (node, weight), by node as J q sums them
      for (int j = 0; j < 4; ++j)
        if (b.map->weights(fine, j) != 0.0) terms.emplace_back(b.node_offset + b.map->nodes(fine, j), b.map->weights(fine, j));
      std::sort(terms.begin(), terms.end());
      map_nodes.emplace_back(0, 0, 0, 0);
      map_weights.emplace_back(0, 0, 0, 0);
      for (std::size_t j = 0; j < terms.size(); ++j) {
        const auto [node, w] = terms[j];
        map_nodes.back()[static_cast<Eigen::Index>(j)] = node;
        map_weights.back()[static_cast<Eigen::Index>(j)] = w;
        for (int d = 0; d < 3; ++d) jac.emplace_back(3 * col + d, 3 * node + d, w);
      }
    }
    if (b.node_rest) {
      Positions rest_nodes = Positions::Zero(num_nodes, 3);
      rest_nodes.middleRows(b.node_offset, b.node_rest->rows()) = *b.node_rest;
      std::vector<int> patch;
      if (shell) {  // each vertex follows the coarse triangle of its map's first three nodes
        std::vector<std::array<int, 3>> triangle_nodes;
        for (const auto& [fine, col] : local) {
          std::array<int, 3> n;
          for (int j = 0; j < 3; ++j) n[std::size_t(j)] = b.node_offset + b.map->nodes(fine, j);
          triangle_nodes.push_back(n);
        }
        patch = patches_.add_triangles(triangle_nodes, rest_nodes, 2.0 * b.half_thickness);
      } else {
        std::vector<std::array<int, 4>> tet_nodes;
        for (const auto& [fine, col] : local) {
          std::array<int, 4> n;
          for (int j = 0; j < 4; ++j) n[std::size_t(j)] = b.node_offset + b.map->nodes(fine, j);
          tet_nodes.push_back(n);
        }
        patch = patches_.add(tet_nodes, rest_nodes);
      }
      mesh_.vertex_patch.insert(mesh_.vertex_patch.end(), patch.begin(), patch.end());
      mesh_.vertex_region.insert(mesh_.vertex_region.end(), local.size(), convex_region(b, local, patch, rest_nodes));
    } else {
      mesh_.vertex_patch.insert(mesh_.vertex_patch.end(), local.size(), -1);
      mesh_.vertex_region.insert(mesh_.vertex_region.end(), local.size(), -1);
    }
    for (Eigen::Index f = 0; f < b.surface->rows(); ++f)
      faces.emplace_back(local.at((*b.surface)(f, 0)), local.at((*b.surface)(f, 1)), local.at((*b.surface)(f, 2)));
  }
  // No shell: no offset to look up for every pair.
  if (std::all_of(mesh_.half_thickness.begin(), mesh_.half_thickness.end(), [](double h) { return h == 0.0; }))
    mesh_.half_thickness.clear();
  // No region at all: none to look up for every pair.
  if (std::all_of(mesh_.vertex_region.begin(), mesh_.vertex_region.end(), [](int r) { return r < 0; }))
    mesh_.vertex_region.clear();
  mesh_.rest.resize(static_cast<Eigen::Index>(rest.size()), 3);
  for (std::size_t i = 0; i < rest.size(); ++i) mesh_.rest.row(i) = rest[i];
  mesh_.faces.resize(static_cast<Eigen::Index>(faces.size()), 3);
  for (std::size_t i = 0; i < faces.size(); ++i) mesh_.faces.row(i) = faces[i];
  mesh_.edges = unique_edges(mesh_.faces);
  jacobian_.resize(3 * static_cast<Eigen::Index>(rest.size()), 3 * num_nodes);
  jacobian_.setFromTriplets(jac.begin(), jac.end());
  map_.nodes.resize(static_cast<Eigen::Index>(map_nodes.size()), 4);
  map_.weights.resize(static_cast<Eigen::Index>(map_nodes.size()), 4);
  for (std::size_t i = 0; i < map_nodes.size(); ++i) {
    map_.nodes.row(static_cast<Eigen::Index>(i)) = map_nodes[i];
    map_.weights.row(static_cast<Eigen::Index>(i)) = map_weights[i];
  }
}

std::shared_ptr<const Positions> CollisionMap::shared_positions(const Positions& q) const {
  const std::lock_guard<std::mutex> lock(remembered_mutex_);
  ++uses_;
  for (RememberedPositions& r : remembered_)
    if (r.last_use >= 0 && r.q.rows() == q.rows() && r.q == q) {
      r.last_use = uses_;
      return r.x;
    }
  RememberedPositions& oldest = *std::min_element(
      remembered_.begin(), remembered_.end(),
      [](const RememberedPositions& a, const RememberedPositions& b) { return a.last_use < b.last_use; });
  oldest.q = q;
  oldest.x = std::make_shared<const Positions>(map_.apply(q));
  oldest.last_use = uses_;
  return oldest.x;
}

VecX CollisionMap::pull_back(const VecX& collision_gradient) const {
  return jacobian_.transpose() * collision_gradient;
}

VecX CollisionMap::pull_back(const VecX& collision_gradient, const std::vector<int>& vertices) const {
  // Eigen sums each node's entry over the column of J, by ascending vertex, from
  // +0; vertices in ascending order add the same nonzero terms in the same
  // order, and the terms left out are zeros, which change no sum that never is
  // -0 (one starting from +0 is not).
  VecX g = VecX::Zero(jacobian_.cols());
  for (const int v : vertices)
    for (int j = 0; j < 4; ++j) {
      const double w = map_.weights(v, j);
      if (w == 0.0) continue;  // J has no entry there
      const int node = map_.nodes(v, j);
      for (int d = 0; d < 3; ++d) g[3 * node + d] += w * collision_gradient[3 * v + d];
    }
  return g;
}

}  // namespace eipc
