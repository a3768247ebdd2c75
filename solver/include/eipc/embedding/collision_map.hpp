// The embedding map of a whole scene's collision surface: the surface vertices
// of every body stacked (body by body, each in increasing fine-vertex order) into
// one CollisionMesh, and x = J q from the stacked simulation nodes q to them.
// Contacts, CCD and the barrier work on x; their gradients come back to q as
// J^T g and their Hessians as J^T H J (ContactPullback).
#pragma once

#include "eipc/collisions/collision_mesh.hpp"
#include "eipc/embedding/affine_patches.hpp"
#include "eipc/embedding/node_map.hpp"

#include <Eigen/Sparse>
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace eipc {

/// One body's share of the collision surface.
struct SurfaceOnNodes {
  const Positions* fine_rest;  ///< full-resolution rest vertices
  const Tris* surface;         ///< outward surface triangles (indices into fine_rest)
  const NodeMap* map;          ///< fine vertex -> the body's nodes
  int node_offset;             ///< the body's first node in q
  const Positions* node_rest = nullptr;  ///< the body's rest nodes (none: no affine patches)
  const Tets* elements = nullptr;        ///< the body's simulation tets (none: no convex region)
  bool rigid = false;                    ///< moves rigidly (a kinematic body): its own pairs keep their distances
  double half_thickness = 0.0;           ///< a shell's half thickness (CollisionMesh::half_thickness)
};

class CollisionMap {
public:
  CollisionMap(const std::vector<SurfaceOnNodes>& bodies, int num_nodes);

  const CollisionMesh& mesh() const { return mesh_; }
  /// The affine patches of mesh().vertex_patch.
  const AffinePatches& patches() const { return patches_; }
  /// d x / d q (3 Ncol x 3 Nq), rows and columns stacked x y z per vertex/node.
  const Eigen::SparseMatrix<double>& jacobian() const { return jacobian_; }
  /// x = J q. The results for the last few q are remembered (matched by
  /// value): a Newton iteration asks for its iterate's positions several
  /// times. Safe to call concurrently.
  Positions positions(const Positions& q) const { return *shared_positions(q); }
  /// The same positions without a copy (about 0.2 MB for FinRay, asked for
  /// ~11 k times in its 4 s): shared with the memory of the last few q, and
  /// kept alive by the pointer after that forgets them.
  std::shared_ptr<const Positions> shared_positions(const Positions& q) const;
  /// J^T g: a gradient over the collision vertices (3 Ncol, x y z per vertex) pulled back to the nodes.
  VecX pull_back(const VecX& collision_gradient) const;
  /// The same for a g that is zero outside `vertices` (ascending, each once):
  /// bit for bit the sums of pull_back(g), over those vertices only (a few
  /// hundred contact vertices of FinRay's 7,220).
  VecX pull_back(const VecX& collision_gradient, const std::vector<int>& vertices) const;

private:
  /// Adds body b's convex region (its vertices `local`, fine -> collision, in
  /// `patch`): returns its number, or -1 when it has none.
  int convex_region(const SurfaceOnNodes& b, const std::map<int, int>& local, const std::vector<int>& patch,
                    const Positions& rest_nodes);

  CollisionMesh mesh_;
  AffinePatches patches_;
  Eigen::SparseMatrix<double> jacobian_;
  NodeMap map_;  ///< J as weights over global nodes (faster to apply than the sparse product)
  struct RememberedPositions {
    Positions q;
    std::shared_ptr<const Positions> x;
    long last_use = -1;  ///< < 0: empty
  };
  mutable std::mutex remembered_mutex_;
  mutable std::array<RememberedPositions, 4> remembered_;
  mutable long uses_ = 0;
};

}  // namespace eipc
