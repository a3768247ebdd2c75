// The assembled degrees of freedom of a scene: every body's simulation nodes
// stacked into q (3 per node, x y z), the reduced mass matrix M^q = J^T M J,
// gravity J^T f, the elastic bodies and prescribed nodes, and the scene's
// collision map x = J q (embedding/collision_map.hpp).
#pragma once

#include "eipc/dynamics/body.hpp"
#include "eipc/embedding/collision_map.hpp"
#include "eipc/embedding/largest_move.hpp"
#include "eipc/elasticity/elastic_body.hpp"
#include "eipc/elasticity/rotated_linear_elasticity.hpp"
#include "eipc/elasticity/shell.hpp"

#include <Eigen/Sparse>
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

  /// x = J q for the stacked collision surface of every body (the embedding map).
  const CollisionMap& collision() const { return collision_; }
  /// Full-resolution vertices of one body.
  Positions fine_positions(int body, const Positions& q) const;
  /// Largest full-resolution vertex displacement for a node displacement dq.
  double max_fine_displacement(const Positions& dq) const;

  const std::vector<ElasticBody>& elastic_bodies() const { return elastic_; }
  const std::vector<int>& elastic_body_index() const { return elastic_body_; }  ///< body of each elastic_bodies() entry
  /// Bodies with a coarsened stiffness, and the body of each.
  const std::vector<RotatedLinearElasticity>& rotated_bodies() const { return rotated_; }
  const std::vector<int>& rotated_body_index() const { return rotated_body_; }
  /// Shell bodies (Body::shell_thickness > 0), and the body of each.
  const std::vector<ShellBody>& shell_bodies() const { return shells_; }
  const std::vector<int>& shell_body_index() const { return shell_body_; }
  /// Each shell reads its angles on the branch they have at nodes q (ShellBody::follow_angles).
  void follow_shell_angles(const Positions& q);
  const std::vector<PrescribedNode>& prescribed() const { return prescribed_; }

private:
  std::vector<Body> bodies_;
  std::vector<int> node_offset_;
  int num_nodes_ = 0;
  CollisionMap collision_;
  SparseMatrix node_mass_;
  VecX node_fine_mass_;  ///< J^T m per node (row sums of the mass matrix)
  double typical_node_mass_ = 1.0;
  std::vector<ElasticBody> elastic_;
  std::vector<int> elastic_body_;
  std::vector<RotatedLinearElasticity> rotated_;
  std::vector<int> rotated_body_;
  std::vector<ShellBody> shells_;
  std::vector<int> shell_body_;
  std::vector<PrescribedNode> prescribed_;
  std::vector<LargestMove> largest_move_;  ///< of each body's fine vertices
};

}  // namespace eipc
