#include "eipc/embedding/contact_patch.hpp"

#include "eipc/embedding/point_location.hpp"

#include <algorithm>

namespace eipc {

void add_contact_patch(SimulationNodes& nodes, const Positions& fine_rest, const std::vector<int>& vertices) {
  const Eigen::Index first = nodes.node_rest.rows();
  const auto count = static_cast<Eigen::Index>(vertices.size());
  nodes.node_rest.conservativeResize(first + count, 3);
  for (Eigen::Index k = 0; k < count; ++k) {
    const int v = vertices[static_cast<std::size_t>(k)];
    nodes.node_rest.row(first + k) = fine_rest.row(v);
    nodes.fine_map.nodes.row(v).setConstant(static_cast<int>(first + k));
    nodes.fine_map.weights.row(v) << 1.0, 0.0, 0.0, 0.0;
    nodes.patch_vertices.push_back(v);
  }
}

void bind_contact_patch(NodeMap& finer_map, const Positions& finer_rest, const SimulationNodes& nodes,
                        const Positions& fine_rest, const std::string& source) {
  const double tolerance = 1e-9 * (finer_rest.colwise().maxCoeff() - finer_rest.colwise().minCoeff()).norm();
  const int first = nodes.num_nodes() - static_cast<int>(nodes.patch_vertices.size());
  for (std::size_t k = 0; k < nodes.patch_vertices.size(); ++k) {
    const Eigen::RowVector3d p = fine_rest.row(nodes.patch_vertices[k]);
    Eigen::Index nearest;
    const double distance = std::sqrt((finer_rest.rowwise() - p).rowwise().squaredNorm().minCoeff(&nearest));
    if (distance > tolerance)
      throw InputError(source + ": contact-patch vertex " + std::to_string(nodes.patch_vertices[k]) +
                       " of the body has no vertex of this finer mesh at its rest position (nearest " +
                       std::to_string(distance) + " m away); the finer mesh must contain the body's surface "
                       "vertices (a red refinement does)");
    finer_map.nodes.row(nearest).setConstant(first + static_cast<int>(k));
    finer_map.weights.row(nearest) << 1.0, 0.0, 0.0, 0.0;
  }
}

Positions embedding_rotation_fit(const SimulationNodes& nodes) {
  const Eigen::Index own = nodes.node_rest.rows() - static_cast<Eigen::Index>(nodes.patch_vertices.size());
  Positions fit = Positions::Zero(nodes.node_rest.rows(), 3);
  const Positions embedding_nodes = nodes.node_rest.topRows(own);
  fit.topRows(own) = embedding_nodes.rowwise() - embedding_nodes.colwise().mean();
  return fit;
}

Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> element_weights(const SimulationNodes& nodes,
                                                                          const Positions& fine_rest) {
  auto weights = nodes.fine_map.weights;
  for (const int v : nodes.patch_vertices) {
    const auto tet = nodes.elements.row(nodes.fine_element[v]);
    const auto corner = [&](int j) -> Vec3 { return nodes.node_rest.row(tet[j]).transpose(); };
    weights.row(v) = barycentric(fine_rest.row(v).transpose(), corner(0), corner(1), corner(2), corner(3)).transpose();
  }
  return weights;
}

}  // namespace eipc
