// A body as the dynamics sees it: simulation nodes (its DOFs), the elastic
// tets on them, and its full-resolution mesh mapped from the nodes by
// barycentric weights (x = J q). A full-space body maps each vertex to itself.
#pragma once

#include "eipc/common.hpp"
#include "eipc/dynamics/motion.hpp"
#include "eipc/elasticity/material.hpp"

#include <string>
#include <vector>

namespace eipc {

/// Barycentric map from simulation nodes to full-resolution vertices: vertex v
/// sits at sum_j weights(v, j) * q[nodes(v, j)]. Unused slots have weight 0.
struct NodeMap {
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> nodes;
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> weights;

  static NodeMap identity(int n);
  int size() const { return static_cast<int>(nodes.rows()); }
  Positions apply(const Positions& q) const;
  /// Largest |x_v| over the vertices, x = the map applied to the nodes of q
  /// from row first_node on (no copy of either).
  double max_norm(const Positions& q, int first_node) const;
};

struct Body {
  std::string name;
  bool kinematic = false;        ///< every node follows `motion` (no elasticity)
  Material material;             ///< unused for kinematic bodies
  double rayleigh_beta = 0.0;    ///< stiffness-proportional damping (s)

  // Full-resolution mesh (what is written, rendered, collided and certified).
  Positions fine_rest;
  Tets fine_tets;                ///< empty for surface-only bodies
  Tris surface;                  ///< outward surface triangles of the fine mesh

  // Simulation nodes and elements.
  Positions node_rest;           ///< rest positions of the DOF nodes
  Tets elements;                 ///< elastic tets on the nodes
  VecX element_volumes;          ///< fine-mesh volume represented by each element
  NodeMap fine_map;              ///< fine vertex -> nodes
  Eigen::VectorXi fine_element;  ///< embedded bodies: the element holding each fine vertex (empty if full)
  std::string embedding = "full";

  Vec3 initial_velocity = Vec3::Zero();
  std::vector<int> prescribed_nodes;  ///< nodes following `motion` (all nodes if kinematic)
  Motion motion;
  Vec3 pivot = Vec3::Zero();     ///< rest centroid: rotations of `motion` are about it

  int num_nodes() const { return static_cast<int>(node_rest.rows()); }
};

/// A full-space body: nodes = fine vertices, elements = fine tets with their own volumes.
Body make_full_space_body(std::string name, Positions rest, Tets tets, Tris surface, Material material);

}  // namespace eipc
