#include "eipc/testing/two_bodies.hpp"

#include "eipc/mesh/surface.hpp"

namespace eipc {

CollisionMesh two_body_collision_mesh(const TetMesh& a, const TetMesh& b) {
  CollisionMesh m;
  const Eigen::Index na = a.vertices.rows();
  m.rest.resize(na + b.vertices.rows(), 3);
  m.rest << a.vertices, b.vertices;
  const Tris fa = boundary_faces(a.tets), fb = boundary_faces(b.tets);
  m.faces.resize(fa.rows() + fb.rows(), 3);
  m.faces << fa, (fb.array() + int(na)).matrix();
  m.edges = unique_edges(m.faces);
  m.vertex_body.assign(std::size_t(m.rest.rows()), 0);
  for (Eigen::Index v = na; v < m.rest.rows(); ++v) m.vertex_body[std::size_t(v)] = 1;
  return m;
}

}  // namespace eipc
