// The assembled degrees of freedom of a scene: every body's simulation nodes
// stacked into q (3 per node, x y z), the reduced mass matrix M^q = J^T M J,
// gravity J^T f, and the map from q to the stacked collision surface.
#pragma once

#include "eipc/contact/collision_mesh.hpp"
#include "eipc/dynamics/body.hpp"
#include "eipc/elasticity/elastic_body.hpp"

#include <Eigen/Sparse>
#include <array>
#include <mutex>
#include <vector>

namespace eipc {

using SparseMatrix = Eigen::SparseMatrix<double>;
using Triplets = std::vector<Eigen::Triplet<double>>;

/// A node whose position is scripted (prescribed vertices, kinematic bodies).
struct PrescribedNode {
  int node;  ///< global node index
  int body;
};

class DofSystem {
public:
  explicit DofSystem(std::vector<Body> bodies);

  const std::vector<Body>& bodies() const { return bodies_; }
  int num_nodes() const { return num_nodes_; }
  int num_dofs() const { return 3 * num_nodes_; }
  int node_offset(int body) const { return node_offset_[body]; }

  Positions rest_nodes() const;
  /// Scalar node mass matrix (num_nodes^2); the 3D mass matrix is this times I3.
  const SparseMatrix& node_mass() const { return node_mass_; }
  /// Force on the nodes from a uniform acceleration g acting on the fine mass: J^T M g.
  Positions gravity_force(const Vec3& g) const;
  /// Mass scale used to weight the penalty on nodes that carry no mass (kinematic surfaces).
  double typical_node_mass() const { return typical_node_mass_; }

  const CollisionMesh& collision_mesh() const { return collision_mesh_; }
  /// d x_collision / d q (3 Ncol x 3 Nq), rows and columns stacked x y z per vertex/node.
  const SparseMatrix& collision_jacobian() const { return collision_jacobian_; }
  /// x = J q: collision-surface positions of node positions q. The results for
  /// the last few q are remembered (matched by value): a Newton iteration asks
  /// for its iterate's positions several times. Safe to call concurrently.
  Positions collision_positions(const Positions& q) const;
  /// J^T g: a gradient over the collision vertices (3 Ncol, x y z per vertex) pulled back to the DOFs.
  VecX reduced_gradient(const VecX& collision_gradient) const;
  /// Full-resolution vertices of one body.
  Positions fine_positions(int body, const Positions& q) const;
  /// Largest full-resolution vertex displacement for a node displacement dq.
  double max_fine_displacement(const Positions& dq) const;

  const std::vector<ElasticBody>& elastic_bodies() const { return elastic_; }
  const std::vector<int>& elastic_body_index() const { return elastic_body_; }  ///< body of each elastic_bodies() entry
  const std::vector<PrescribedNode>& prescribed() const { return prescribed_; }

private:
  std::vector<Body> bodies_;
  std::vector<int> node_offset_;
  int num_nodes_ = 0;
  SparseMatrix node_mass_;
  VecX node_fine_mass_;  ///< J^T m per node (row sums of the mass matrix)
  double typical_node_mass_ = 1.0;
  CollisionMesh collision_mesh_;
  std::vector<int> collision_fine_vertex_;  ///< per collision vertex: (body from vertex_body) fine vertex
  SparseMatrix collision_jacobian_;
  NodeMap collision_map_;  ///< J as weights over global nodes (faster to apply than the sparse product)
  struct RememberedPositions {
    Positions q, x;
    long last_use = -1;  ///< < 0: empty
  };
  mutable std::mutex remembered_mutex_;
  mutable std::array<RememberedPositions, 4> remembered_;
  mutable long uses_ = 0;
  std::vector<ElasticBody> elastic_;
  std::vector<int> elastic_body_;
  std::vector<PrescribedNode> prescribed_;
};

}  // namespace eipc
