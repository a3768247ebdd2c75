#include "eipc/dynamics/dof_system.hpp"

#include "eipc/elasticity/lumped_mass.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/volume.hpp"

#include <algorithm>
#include <map>

namespace eipc {

DofSystem::DofSystem(std::vector<Body> bodies) : bodies_(std::move(bodies)) {
  for (const Body& b : bodies_) {
    node_offset_.push_back(num_nodes_);
    num_nodes_ += b.num_nodes();
  }

  // Reduced mass M^q = J^T M J with M the fine lumped (diagonal) mass.
  Triplets mass;
  node_fine_mass_.setZero(num_nodes_);
  double mass_sum = 0.0;
  int massive_nodes = 0;
  for (std::size_t bi = 0; bi < bodies_.size(); ++bi) {
    const Body& b = bodies_[bi];
    if (b.kinematic || b.fine_tets.rows() == 0) continue;
    const VecX m = lumped_mass(b.fine_rest, b.fine_tets, tet_signed_volumes(b.fine_rest, b.fine_tets), b.material.density);
    const int off = node_offset_[bi];
    for (int v = 0; v < b.fine_map.size(); ++v)
      for (int i = 0; i < 4; ++i) {
        const double wi = b.fine_map.weights(v, i);
        if (wi == 0.0) continue;
        node_fine_mass_[off + b.fine_map.nodes(v, i)] += wi * m[v];
        for (int j = 0; j < 4; ++j) {
          const double wj = b.fine_map.weights(v, j);
          if (wj != 0.0) mass.emplace_back(off + b.fine_map.nodes(v, i), off + b.fine_map.nodes(v, j), wi * wj * m[v]);
        }
      }
    mass_sum += m.sum();
    massive_nodes += b.num_nodes();
  }
  node_mass_.resize(num_nodes_, num_nodes_);
  node_mass_.setFromTriplets(mass.begin(), mass.end());
  if (massive_nodes > 0) typical_node_mass_ = mass_sum / massive_nodes;

  // Collision surface: the surface vertices of every body, in body then vertex order.
  std::vector<Eigen::Triplet<double>> jac;
  std::vector<Eigen::RowVector3i> faces;
  std::vector<Eigen::RowVector3d> rest;
  std::vector<Eigen::RowVector4i> map_nodes;
  std::vector<Eigen::RowVector4d> map_weights;
  for (std::size_t bi = 0; bi < bodies_.size(); ++bi) {
    const Body& b = bodies_[bi];
    std::map<int, int> local;  // fine vertex -> collision vertex
    for (Eigen::Index f = 0; f < b.surface.rows(); ++f)
      for (int k = 0; k < 3; ++k) local.emplace(b.surface(f, k), 0);
    for (auto& [fine, col] : local) {
      col = static_cast<int>(rest.size());
      rest.push_back(b.fine_rest.row(fine));
      collision_mesh_.vertex_body.push_back(static_cast<int>(bi));
      collision_fine_vertex_.push_back(fine);
      std::vector<std::pair<int, double>> terms;  // (node, weight), by node as J q sums them
      for (int j = 0; j < 4; ++j)
        if (b.fine_map.weights(fine, j) != 0.0)
          terms.emplace_back(node_offset_[bi] + b.fine_map.nodes(fine, j), b.fine_map.weights(fine, j));
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
    for (Eigen::Index f = 0; f < b.surface.rows(); ++f)
      faces.emplace_back(local.at(b.surface(f, 0)), local.at(b.surface(f, 1)), local.at(b.surface(f, 2)));
  }
  collision_mesh_.rest.resize(static_cast<Eigen::Index>(rest.size()), 3);
  for (std::size_t i = 0; i < rest.size(); ++i) collision_mesh_.rest.row(i) = rest[i];
  collision_mesh_.faces.resize(static_cast<Eigen::Index>(faces.size()), 3);
  for (std::size_t i = 0; i < faces.size(); ++i) collision_mesh_.faces.row(i) = faces[i];
  collision_mesh_.edges = unique_edges(collision_mesh_.faces);
  collision_jacobian_.resize(3 * static_cast<Eigen::Index>(rest.size()), 3 * num_nodes_);
  collision_jacobian_.setFromTriplets(jac.begin(), jac.end());
  collision_map_.nodes.resize(static_cast<Eigen::Index>(map_nodes.size()), 4);
  collision_map_.weights.resize(static_cast<Eigen::Index>(map_nodes.size()), 4);
  for (std::size_t i = 0; i < map_nodes.size(); ++i) {
    collision_map_.nodes.row(static_cast<Eigen::Index>(i)) = map_nodes[i];
    collision_map_.weights.row(static_cast<Eigen::Index>(i)) = map_weights[i];
  }

  // Elasticity on the simulation nodes, prescribed nodes.
  for (std::size_t bi = 0; bi < bodies_.size(); ++bi) {
    const Body& b = bodies_[bi];
    if (!b.kinematic && b.elements.rows() > 0) {
      elastic_.emplace_back(b.node_rest, b.elements, b.element_volumes, b.material);
      elastic_body_.push_back(static_cast<int>(bi));
    }
    std::vector<int> nodes = b.prescribed_nodes;
    if (b.kinematic) {
      nodes.resize(b.num_nodes());
      for (int n = 0; n < b.num_nodes(); ++n) nodes[n] = n;
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    for (int n : nodes) prescribed_.push_back({node_offset_[bi] + n, static_cast<int>(bi)});
  }
}

Positions DofSystem::rest_nodes() const {
  Positions q(num_nodes_, 3);
  for (std::size_t bi = 0; bi < bodies_.size(); ++bi)
    q.middleRows(node_offset_[bi], bodies_[bi].num_nodes()) = bodies_[bi].node_rest;
  return q;
}

Positions DofSystem::gravity_force(const Vec3& g) const {
  Positions f(num_nodes_, 3);
  for (int n = 0; n < num_nodes_; ++n) f.row(n) = node_fine_mass_[n] * g.transpose();
  return f;
}

Positions DofSystem::collision_positions(const Positions& q) const {
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
  oldest.x = collision_map_.apply(q);
  oldest.last_use = uses_;
  return oldest.x;
}

VecX DofSystem::reduced_gradient(const VecX& collision_gradient) const {
  return collision_jacobian_.transpose() * collision_gradient;
}

Positions DofSystem::fine_positions(int body, const Positions& q) const {
  const Body& b = bodies_[body];
  return b.fine_map.apply(q.middleRows(node_offset_[body], b.num_nodes()));
}

double DofSystem::max_fine_displacement(const Positions& dq) const {
  double largest = 0.0;
  for (std::size_t bi = 0; bi < bodies_.size(); ++bi)
    largest = std::max(largest, bodies_[bi].fine_map.max_norm(dq, node_offset_[bi]));
  return largest;
}

}  // namespace eipc
