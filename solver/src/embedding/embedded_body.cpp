#include "eipc/embedding/embedded_body.hpp"

#include "eipc/embedding/disconnected_parts.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/mesh/volume.hpp"

#include <cmath>
#include <sstream>

namespace eipc {

namespace {

/// A fine vertex located in a tet that carries no fine volume (a sliver at the
/// surface) is bound to the nearest kept tet instead, so every vertex follows an
/// element that has elasticity; its weights are extrapolated if it lies outside.
void rebind_to_kept_tets(const TetMesh& emb, const std::vector<int>& kept_tets, const Positions& points,
                         std::vector<TetLocation>& loc) {
  std::vector<char> kept(emb.tets.rows(), 0);
  for (int t : kept_tets) kept[t] = 1;
  std::vector<int> moved;
  for (std::size_t v = 0; v < loc.size(); ++v)
    if (!kept[loc[v].tet]) moved.push_back(static_cast<int>(v));
  if (moved.empty()) return;
  Tets kept_mesh(static_cast<Eigen::Index>(kept_tets.size()), 4);
  for (std::size_t k = 0; k < kept_tets.size(); ++k) kept_mesh.row(k) = emb.tets.row(kept_tets[k]);
  Positions moved_points(static_cast<Eigen::Index>(moved.size()), 3);
  for (std::size_t i = 0; i < moved.size(); ++i) moved_points.row(i) = points.row(moved[i]);
  const std::vector<TetLocation> relocated = locate_points(emb.vertices, kept_mesh, moved_points);
  for (std::size_t i = 0; i < moved.size(); ++i) {
    loc[moved[i]] = relocated[i];
    loc[moved[i]].tet = kept_tets[relocated[i].tet];
  }
}

/// Counts extrapolated vertices and refuses the embedding past kMaxExtrapolation.
void check_extrapolation(const Positions& fine_rest, const std::string& body, const std::vector<TetLocation>& loc,
                         const std::string& source, EmbeddingReport& r) {
  for (const TetLocation& l : loc)
    if (l.outside_distance > 0) {
      ++r.extrapolated;
      r.max_outside = std::max(r.max_outside, l.outside_distance);
    }
  const double size = bounding_box_size(fine_rest);
  if (r.max_outside > kMaxExtrapolation * size) {
    std::ostringstream msg;
    msg << source << ": " << r.extrapolated << " vertices of body '" << body
        << "' lie outside the embedding mesh, the farthest by " << r.max_outside << " m (limit "
        << kMaxExtrapolation * size << " m = " << kMaxExtrapolation * 100 << "% of the body size)";
    throw InputError(msg.str());
  }
}

}  // namespace

SimulationNodes embed_mesh(const Positions& fine_rest, const Tets& fine_tets, const TetMesh& embedding,
                           const std::string& body, const std::string& source, EmbeddingReport* report,
                           const EmbeddingOptions& options) {
  if (fine_tets.rows() == 0) throw InputError(source + ": body '" + body + "' has no tets to embed");
  TetMesh emb = embedding;
  std::vector<TetLocation> loc = locate_points(emb.vertices, emb.tets, fine_rest);

  EmbeddingReport r;
  r.vertices = static_cast<int>(loc.size());
  // Fine volume inside each coarse tet: every fine tet is split into four equal
  // parts, each located at its own centre (midway between the centroid and a
  // corner). Totals are exact, and an embedding equal to the fine mesh gives
  // every tet exactly its own volume (the points lie strictly inside it).
  const VecX fine_volumes = tet_signed_volumes(fine_rest, fine_tets);
  Positions quarter_points(4 * fine_tets.rows(), 3);
  for (Eigen::Index t = 0; t < fine_tets.rows(); ++t) {
    Eigen::RowVector3d centroid = Eigen::RowVector3d::Zero();
    for (int j = 0; j < 4; ++j) centroid += 0.25 * fine_rest.row(fine_tets(t, j));
    for (int j = 0; j < 4; ++j) quarter_points.row(4 * t + j) = 0.5 * (centroid + fine_rest.row(fine_tets(t, j)));
  }
  std::vector<int> quarter_tet;
  for (const TetLocation& l : locate_points(emb.vertices, emb.tets, quarter_points)) quarter_tet.push_back(l.tet);
  if (options.split_disconnected_parts)
    r.split_tets = split_disconnected_parts(fine_rest, fine_tets, emb, quarter_tet, loc);

  // Nodes that some fine vertex depends on (the others would carry no mass).
  std::vector<char> weighted(emb.vertices.rows(), 0);
  for (const TetLocation& l : loc)
    for (int j = 0; j < 4; ++j)
      if (l.weights[j] != 0.0) weighted[emb.tets(l.tet, j)] = 1;
  auto all_weighted = [&](int t) {
    for (int j = 0; j < 4; ++j)
      if (!weighted[emb.tets(t, j)]) return false;
    return true;
  };
  // A quarter landing in a tet with a massless node goes to the tet of its own
  // corner vertex instead, so every tet with volume has mass at all its nodes.
  VecX tet_volume = VecX::Zero(emb.tets.rows());
  for (std::size_t k = 0; k < quarter_tet.size(); ++k) {
    const int tet = all_weighted(quarter_tet[k]) ? quarter_tet[k]
                                                     : loc[fine_tets(static_cast<Eigen::Index>(k / 4), k % 4)].tet;
    tet_volume[tet] += 0.25 * fine_volumes[static_cast<Eigen::Index>(k / 4)];
  }

  // Keep tets that carry volume.
  std::vector<int> kept_tets;
  std::vector<int> element_index(emb.tets.rows(), -1);
  for (Eigen::Index t = 0; t < emb.tets.rows(); ++t) {
    if (tet_volume[t] <= 0.0) {
      ++r.dropped_tets;
      continue;
    }
    element_index[t] = static_cast<int>(kept_tets.size());
    kept_tets.push_back(static_cast<int>(t));
    for (int j = 0; j < 4; ++j)
      if (!weighted[emb.tets(t, j)])
        throw InputError(source + ": embedding node " + std::to_string(emb.tets(t, j)) + " of body '" + body +
                         "' belongs to a tet with fine volume but no fine vertex depends on it (it would have no "
                         "mass); refine the fine mesh or move the node");
  }
  rebind_to_kept_tets(emb, kept_tets, fine_rest, loc);
  check_extrapolation(fine_rest, body, loc, source, r);

  // Nodes: the corners of the kept tets (every fine vertex now depends on these only).
  SimulationNodes b;
  std::vector<int> node_index(emb.vertices.rows(), -1);
  for (int t : kept_tets)
    for (int j = 0; j < 4; ++j) node_index[emb.tets(t, j)] = 0;
  int n = 0;
  for (int& index : node_index)
    if (index == 0) index = n++;
  r.dropped_nodes = static_cast<int>(node_index.size()) - n;
  b.node_rest.resize(n, 3);
  for (std::size_t i = 0; i < node_index.size(); ++i)
    if (node_index[i] >= 0) b.node_rest.row(node_index[i]) = emb.vertices.row(static_cast<Eigen::Index>(i));
  b.elements.resize(static_cast<Eigen::Index>(kept_tets.size()), 4);
  b.element_volumes.resize(static_cast<Eigen::Index>(kept_tets.size()));
  for (std::size_t k = 0; k < kept_tets.size(); ++k) {
    for (int j = 0; j < 4; ++j) b.elements(k, j) = node_index[emb.tets(kept_tets[k], j)];
    b.element_volumes[k] = tet_volume[kept_tets[k]];
  }
  b.fine_map.nodes.resize(r.vertices, 4);
  b.fine_map.weights.resize(r.vertices, 4);
  b.fine_element.resize(r.vertices);
  for (int v = 0; v < r.vertices; ++v) {
    b.fine_element[v] = element_index[loc[v].tet];  // a kept tet, after rebinding
    for (int j = 0; j < 4; ++j) {
      b.fine_map.nodes(v, j) = node_index[emb.tets(loc[v].tet, j)];
      b.fine_map.weights(v, j) = loc[v].weights[j];
    }
  }
  if (report) *report = r;
  return b;
}

TetMesh enclosing_tet(const Positions& x) {
  const Vec3 lo = x.colwise().minCoeff().transpose(), hi = x.colwise().maxCoeff().transpose();
  const Vec3 c = 0.5 * (lo + hi);
  // A regular tet whose inscribed sphere (radius R) holds the bounding sphere; its vertices are at 3R.
  const double R = 1.01 * 0.5 * (hi - lo).norm();
  TetMesh m;
  m.vertices.resize(4, 3);
  const double s = 3.0 * R / std::sqrt(3.0);
  m.vertices << 1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1;
  m.vertices *= s;
  m.vertices.rowwise() += c.transpose();
  m.tets.resize(1, 4);
  m.tets << 0, 1, 2, 3;
  if (tet_signed_volume(m.vertices.row(0), m.vertices.row(1), m.vertices.row(2), m.vertices.row(3)) < 0)
    m.tets << 0, 2, 1, 3;
  return m;
}

}  // namespace eipc
