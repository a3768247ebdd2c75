#include "eipc/dynamics/dof_system.hpp"

#include "eipc/elasticity/lumped_mass.hpp"
#include "eipc/mesh/volume.hpp"

#include <algorithm>

namespace eipc {

namespace {

std::vector<int> node_offsets(const std::vector<Body>& bodies) {
  std::vector<int> offsets;
  int n = 0;
  for (const Body& b : bodies) {
    offsets.push_back(n);
    n += b.num_nodes();
  }
  return offsets;
}

std::vector<SurfaceOnNodes> surfaces_on_nodes(const std::vector<Body>& bodies, const std::vector<int>& offsets) {
  std::vector<SurfaceOnNodes> out;
  for (std::size_t b = 0; b < bodies.size(); ++b)
    out.push_back({&bodies[b].fine_rest, &bodies[b].surface, &bodies[b].fine_map, offsets[b], &bodies[b].node_rest,
                   &bodies[b].elements, bodies[b].kinematic, 0.5 * bodies[b].shell_thickness});
  return out;
}

}  // namespace

DofSystem::DofSystem(std::vector<Body> bodies)
    : bodies_(std::move(bodies)),
      node_offset_(node_offsets(bodies_)),
      num_nodes_(bodies_.empty() ? 0 : node_offset_.back() + bodies_.back().num_nodes()),
      collision_(surfaces_on_nodes(bodies_, node_offset_), num_nodes_) {
  for (const Body& b : bodies_) largest_move_.emplace_back(b.fine_map);

  // Reduced mass M^q = J^T M J with M the fine lumped (diagonal) mass.
  Triplets mass;
  node_fine_mass_.setZero(num_nodes_);
  double mass_sum = 0.0;
  int massive_nodes = 0;
  for (std::size_t bi = 0; bi < bodies_.size(); ++bi) {
    const Body& b = bodies_[bi];
    if (b.kinematic || (b.fine_tets.rows() == 0 && b.shell_thickness <= 0.0)) continue;
    const VecX m = b.shell_thickness > 0.0
                       ? shell_lumped_mass(b.fine_rest, b.surface, b.shell_thickness, b.material.density)
                       : lumped_mass(b.fine_rest, b.fine_tets, tet_signed_volumes(b.fine_rest, b.fine_tets),
                                     b.material.density);
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

  // Elasticity on the simulation nodes, prescribed nodes.
  for (std::size_t bi = 0; bi < bodies_.size(); ++bi) {
    const Body& b = bodies_[bi];
    if (!b.kinematic && b.coarsened_stiffness.size() > 0) {
      if (b.coarsened_part_stiffness.empty())
        rotated_.emplace_back(b.node_rest, b.coarsened_stiffness);
      else
        rotated_.emplace_back(b.node_rest, b.coarsened_part_stiffness, b.coarsened_part_fit);
      rotated_body_.push_back(static_cast<int>(bi));
    } else if (!b.kinematic && b.shell_thickness > 0.0) {
      shells_.emplace_back(b.node_rest, b.shell_elements, b.shell_thickness, b.material);
      shell_body_.push_back(static_cast<int>(bi));
    } else if (!b.kinematic && b.elements.rows() > 0) {
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

Positions DofSystem::fine_positions(int body, const Positions& q) const {
  const Body& b = bodies_[body];
  return b.fine_map.apply(q.middleRows(node_offset_[body], b.num_nodes()));
}

double DofSystem::max_fine_displacement(const Positions& dq) const {
  double largest = 0.0;
  for (std::size_t bi = 0; bi < bodies_.size(); ++bi)
    largest = std::max(largest, largest_move_[bi].of(bodies_[bi].fine_map, dq, node_offset_[bi]));
  return largest;
}

void DofSystem::follow_shell_angles(const Positions& q) {
  for (std::size_t i = 0; i < shells_.size(); ++i) {
    const int body = shell_body_[i];
    shells_[i].follow_angles(q.middleRows(node_offset_[body], bodies_[body].num_nodes()));
  }
}

}  // namespace eipc
