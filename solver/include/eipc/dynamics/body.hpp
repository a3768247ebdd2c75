// A body as the dynamics sees it: simulation nodes (its DOFs), the elastic
// tets on them, and its full-resolution mesh mapped from the nodes by
// barycentric weights (x = J q). A full-space body maps each vertex to itself.
#pragma once

#include "eipc/common.hpp"
#include "eipc/dynamics/motion.hpp"
#include "eipc/elasticity/material.hpp"
#include "eipc/embedding/embedded_body.hpp"

#include <string>
#include <vector>

namespace eipc {

/// The simulation nodes (its base: the DOFs, the elastic tets on them and
/// the map x = J q of its full-resolution mesh) and everything physical.
struct Body : SimulationNodes {
  std::string name;
  bool kinematic = false;        ///< every node follows `motion` (no elasticity)
  Material material;             ///< unused for kinematic bodies
  double rayleigh_beta = 0.0;    ///< stiffness-proportional damping (s)
  /// Non-empty: the body's elasticity is RotatedLinearElasticity with this
  /// stiffness on the nodes (a coarsened embedding), not the elements' energy.
  MatX coarsened_stiffness;
  /// Non-empty ("coarsened_rotations": "per_part"): coarsened_stiffness split over
  /// the fine mesh's connected parts, each in its own rotation (CoarsenedParts).
  std::vector<MatX> coarsened_part_stiffness;
  std::vector<Positions> coarsened_part_fit;
  /// > 0: the body is a shell of this thickness (m): its surface triangles are its
  /// elements (ShellBody: membrane and bending), its nodes the surface's vertices,
  /// `fine_tets` and `elements` empty (docs/elasticity.md, "Shells").
  double shell_thickness = 0.0;
  /// A shell's elements: triangles on its nodes (the surface in full space, the coarse
  /// surface's when embedded, embed_shell_body).
  Tris shell_elements;

  // Full-resolution mesh (what is written, rendered, collided and certified).
  Positions fine_rest;
  Tets fine_tets;                ///< empty for surface-only bodies
  Tris surface;                  ///< outward surface triangles of the fine mesh

  std::string embedding = "full";  ///< which SimulationNodes: "full", "affine" or a named embedding

  Vec3 initial_velocity = Vec3::Zero();
  std::vector<int> prescribed_nodes;  ///< nodes following `motion` (all nodes if kinematic)
  Motion motion;
  Vec3 pivot = Vec3::Zero();     ///< rest centroid: rotations of `motion` are about it

};

/// `full` with the simulation nodes of an embedding mesh (embed_mesh): named
/// `name`, with no prescribed nodes (they are selected among the new nodes).
Body embed_body(const Body& full, const TetMesh& embedding, const std::string& name, const std::string& source,
                EmbeddingReport* report = nullptr, const EmbeddingOptions& options = {});

/// A full-space shell: nodes = the surface's vertices, elements its triangles (no tets).
Body make_shell_body(std::string name, Positions rest, Tris triangles, double thickness, Material material);

/// The full-space shell `full` driven by a coarse triangle surface (embed_shell):
/// nodes = its vertices, shell_elements = its triangles; named `name`, no prescribed nodes.
Body embed_shell_body(const Body& full, const SurfaceMesh& coarse, const std::string& name, const std::string& source,
                      EmbeddingReport* report = nullptr);

/// A full-space body: nodes = fine vertices, elements = fine tets with their own volumes.
Body make_full_space_body(std::string name, Positions rest, Tets tets, Tris surface, Material material);

}  // namespace eipc
