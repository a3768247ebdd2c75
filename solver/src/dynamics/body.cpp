#include "eipc/dynamics/body.hpp"

#include "eipc/embedding/embedded_shell.hpp"
#include "eipc/mesh/volume.hpp"

namespace eipc {

Body embed_body(const Body& full, const TetMesh& embedding, const std::string& name, const std::string& source,
                EmbeddingReport* report, const EmbeddingOptions& options) {
  Body b = full;
  static_cast<SimulationNodes&>(b) =
      embed_mesh(full.fine_rest, full.fine_tets, embedding, full.name, source, report, options);
  b.embedding = name;
  b.prescribed_nodes.clear();
  return b;
}

Body embed_shell_body(const Body& full, const SurfaceMesh& coarse, const std::string& name, const std::string& source,
                      EmbeddingReport* report) {
  Body b = full;
  static_cast<SimulationNodes&>(b) = embed_shell(full.fine_rest, coarse, full.name, source, report);
  b.shell_elements = coarse.faces;
  b.embedding = name;
  b.prescribed_nodes.clear();
  return b;
}

Body make_full_space_body(std::string name, Positions rest, Tets tets, Tris surface, Material material) {
  Body body;
  body.name = std::move(name);
  body.material = material;
  body.fine_rest = rest;
  body.fine_tets = tets;
  body.surface = std::move(surface);
  body.node_rest = std::move(rest);
  body.elements = std::move(tets);
  body.element_volumes = tet_signed_volumes(body.node_rest, body.elements);
  body.fine_map = NodeMap::identity(body.num_nodes());
  body.pivot = body.node_rest.colwise().mean().transpose();
  return body;
}

Body make_shell_body(std::string name, Positions rest, Tris triangles, double thickness, Material material) {
  Body body;
  body.name = std::move(name);
  body.material = material;
  body.shell_thickness = thickness;
  body.fine_rest = rest;
  body.shell_elements = triangles;
  body.surface = std::move(triangles);
  body.node_rest = std::move(rest);
  body.element_volumes = VecX();
  body.fine_map = NodeMap::identity(body.num_nodes());
  body.pivot = body.node_rest.colwise().mean().transpose();
  return body;
}

}  // namespace eipc
