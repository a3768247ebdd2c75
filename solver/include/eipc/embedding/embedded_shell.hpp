// Embedded cloth (issue 61, item 2; docs/elasticity.md, "Embedded shells"): a fine
// triangle surface driven by a coarse shell, x = S q. Each fine vertex follows the
// point of the coarse surface closest to it at rest, through that triangle's
// barycentric weights, so contact stays on the fine surface while membrane and
// bending live on the coarse triangles (as x = J q does for solids).
#pragma once

#include "eipc/embedding/embedded_body.hpp"

#include <string>

namespace eipc {

/// How far (relative to the fine sheet's bounding-box diagonal) a fine vertex may lie
/// off the coarse surface at rest: the map puts it on the surface, so any offset would
/// move it at t = 0.
constexpr double kShellEmbeddingTolerance = 1e-6;

/// The simulation nodes of a fine shell (fine_rest) on a coarse triangle mesh in
/// the same frame: nodes = the coarse vertices, fine_map = each fine vertex's
/// closest point on the coarse surface (weights on its triangle's three corners;
/// the fourth slot repeats the third with weight 0); `report` gets the farthest
/// distance (max_outside). Throws InputError (naming `source`) when a fine vertex
/// is farther than kShellEmbeddingTolerance diagonals from every coarse triangle,
/// or a coarse vertex carries no fine vertex (it would have no mass).
SimulationNodes embed_shell(const Positions& fine_rest, const SurfaceMesh& coarse, const std::string& body,
                            const std::string& source, EmbeddingReport* report = nullptr);

}  // namespace eipc
