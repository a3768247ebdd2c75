// Harmonic coarsening of a fine tet mesh's linear stiffness onto a body's
// simulation nodes (numerical coarsening; docs/embedding.md, "Coarsened
// stiffness"). The nodes q are read as the mass-weighted least-squares fit of a
// fine displacement field u at the fine vertices: J^T W u = J^T W J q (J the
// embedding's map at the fine vertices, W their lumped volumes, as in the mass
// matrix J^T M J). Of all fields with that fit, the one of least fine elastic
// energy is u = Phi q, and
//   K_c = Phi^T K_fine Phi,
// the linear stiffness the fine mesh has for that fit. A P1 embedding's own
// energy (J^T K_fine J at best) is the stiffest reading of q, K_c the softest;
// the difference is the embedding's locking. With an embedding equal to the fine
// mesh, K_c = K_fine.
#pragma once

#include "eipc/common.hpp"
#include "eipc/elasticity/material.hpp"
#include "eipc/embedding/embedded_body.hpp"

#include <string>
#include <vector>

namespace eipc {

/// K_c split over parts of the fine mesh (sets of its tets; fine_regions): in,
/// tet_part (each fine tet's part, 0..P-1); out, stiffness[p] = Phi^T K_fine^(p)
/// Phi with K_fine^(p) from part p's tets only, so K_c = sum_p stiffness[p], and
/// fit[p] (n x 3) part p's shape-matching fit on the nodes: A_p = sum_v W_v (J q)_v
/// (X_v - C_p)^T over its fine vertices v (rest X_v, lumped volumes W_v of its
/// tets, centroid C_p) = sum_i q_i fit[p]_i^T (RotatedLinearElasticity's per-part
/// form; docs/embedding.md, "One rotation per fine region").
struct CoarsenedParts {
  std::vector<int> tet_part;
  std::vector<MatX> stiffness;
  std::vector<Positions> fit;
};

/// K_c (3n x 3n, node-major) for the fine tet mesh (fine_rest, fine_tets) of
/// `material`, linearised at rest, whose vertices follow `num_nodes` nodes by
/// `to_nodes` (the body's own fine_map, or locate_in_nodes for a finer mesh).
/// Throws InputError (naming `source`) when a node carries no fine vertex.
MatX coarsened_stiffness(const Positions& fine_rest, const Tets& fine_tets, const NodeMap& to_nodes, int num_nodes,
                         const Material& material, const std::string& source, CoarsenedParts* parts = nullptr);

/// `count` regions of a tet mesh: k-means clusters of the tets' centroids
/// (volume-weighted Lloyd iterations from farthest-point seeds, deterministic),
/// numbered 0.. in order of first tet; a region need not be connected.
std::vector<int> fine_regions(const Positions& rest, const Tets& tets, int count);

/// The P1 map of `nodes`' elements at `points` (each point in the element that
/// holds it, or the nearest one, extrapolated).
NodeMap locate_in_nodes(const SimulationNodes& nodes, const Positions& points);

}  // namespace eipc
