// Embedding tets copied per connected part of the body inside them (disconnected_parts.hpp).
#include "eipc/dynamics/body.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/volume.hpp"
#include "eipc/testing/box_mesh.hpp"

#include <catch2/catch.hpp>
#include <set>

using namespace eipc;

namespace {

const EmbeddingOptions kSplit{true};

/// Two 2 x 2 x 2 cm blocks of 3^3 cells, 1 cm apart along x, as one body.
Body two_blocks() {
  const TetMesh a = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.02, 0.02, 0.02), 3, 3, 3);
  const TetMesh b = box_tet_mesh(Vec3(0.03, 0, 0), Vec3(0.05, 0.02, 0.02), 3, 3, 3);
  TetMesh m;
  m.vertices.resize(a.vertices.rows() + b.vertices.rows(), 3);
  m.vertices << a.vertices, b.vertices;
  m.tets.resize(a.tets.rows() + b.tets.rows(), 4);
  m.tets << a.tets, (b.tets.array() + static_cast<int>(a.vertices.rows())).matrix();
  return make_full_space_body("blocks", m.vertices, m.tets, boundary_faces(m.tets), Material{});
}

std::set<int> nodes_of(const Body& b, int first_vertex, int end_vertex) {
  std::set<int> nodes;
  for (int v = first_vertex; v < end_vertex; ++v)
    for (int j = 0; j < 4; ++j)
      if (b.fine_map.weights(v, j) != 0.0) nodes.insert(b.fine_map.nodes(v, j));
  return nodes;
}

}  // namespace

TEST_CASE("two separate blocks in one embedding tet get a copy each", "[embedding]") {
  const Body full = two_blocks();
  const int half = full.num_nodes() / 2;
  const TetMesh one_tet = enclosing_tet(full.fine_rest);

  const Body glued = embed_body(full, one_tet, "affine", "test");
  CHECK(glued.num_nodes() == 4);
  EmbeddingReport report;
  const Body split = embed_body(full, one_tet, "affine", "test", &report, kSplit);
  CHECK(report.split_tets == 1);
  REQUIRE(split.elements.rows() == 2);
  CHECK(split.num_nodes() == 8);
  // Each block follows its own copy, with half the volume, and the map is still exact at rest.
  const std::set<int> a = nodes_of(split, 0, half), b = nodes_of(split, half, 2 * half);
  CHECK(a.size() == 4);
  CHECK(b.size() == 4);
  for (int n : a) CHECK(b.count(n) == 0);
  CHECK(split.element_volumes[0] == Approx(split.element_volumes[1]).epsilon(1e-12));
  CHECK((split.fine_map.apply(split.node_rest) - full.fine_rest).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("blocks side by side in a lattice share no node once split", "[embedding]") {
  // A lattice over both blocks: lattice vertices in the gap belong to tets on
  // both sides, so without the split the blocks share nodes (are glued).
  const Body full = two_blocks();
  const int half = full.num_nodes() / 2;
  const TetMesh lattice = lattice_embedding(full.fine_rest, 20);
  const Body glued = embed_body(full, lattice, "lattice", "test");
  std::set<int> a = nodes_of(glued, 0, half), b = nodes_of(glued, half, 2 * half), shared;
  for (int n : a)
    if (b.count(n)) shared.insert(n);
  REQUIRE(!shared.empty());

  const Body split = embed_body(full, lattice, "lattice", "test", nullptr, kSplit);
  CHECK(split.num_nodes() == glued.num_nodes() + static_cast<int>(shared.size()));
  a = nodes_of(split, 0, half);
  b = nodes_of(split, half, 2 * half);
  for (int n : a) CHECK(b.count(n) == 0);
  CHECK(split.element_volumes.sum() == Approx(tet_mesh_volume(full.fine_rest, full.fine_tets)).epsilon(1e-12));
  CHECK((split.fine_map.apply(split.node_rest) - full.fine_rest).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("splitting leaves a connected body's identity embedding as it was", "[embedding]") {
  const TetMesh m = read_tet_mesh(EIPC_ASSETS "/drake/teddy.vtk");
  const Body full = make_full_space_body("teddy", m.vertices, m.tets, boundary_faces(m.tets), Material{});
  EmbeddingReport report;
  const Body same = embed_body(full, m, "identity", "test", &report, kSplit);
  CHECK(report.split_tets == 0);
  CHECK(same.num_nodes() == full.num_nodes());
  REQUIRE(same.elements.rows() == full.elements.rows());
  for (Eigen::Index e = 0; e < full.elements.rows(); ++e)  // the same tets (nodes may be numbered otherwise)
    for (int j = 0; j < 4; ++j)
      CHECK(same.node_rest.row(same.elements(e, j)) == full.node_rest.row(full.elements(e, j)));
  CHECK((same.element_volumes - full.element_volumes).cwiseAbs().maxCoeff() < 1e-15);
}
