// Point location, embedded-body construction and lattice embeddings.
#include "eipc/dynamics/body.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/volume.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace eipc;

namespace {

Body teddy_body() {
  const TetMesh m = read_tet_mesh(EIPC_ASSETS "/drake/teddy.vtk");
  Material mat;
  return make_full_space_body("teddy", m.vertices, m.tets, boundary_faces(m.tets), mat);
}

/// Brute-force: is p inside (or on) tet t?
bool inside(const TetMesh& m, int t, const Vec3& p) {
  const Eigen::Vector4d w = barycentric(p, m.vertices.row(m.tets(t, 0)), m.vertices.row(m.tets(t, 1)),
                                        m.vertices.row(m.tets(t, 2)), m.vertices.row(m.tets(t, 3)));
  return w.minCoeff() >= -1e-12;
}

}  // namespace

TEST_CASE("point location agrees with a brute-force scan and reproduces the points", "[embedding]") {
  const TetMesh m = box_tet_mesh(Vec3(0, 0, 0), Vec3(1, 2, 1), 3, 4, 2);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.3, 1.3);
  Positions p(300, 3);
  for (Eigen::Index i = 0; i < p.rows(); ++i) p.row(i) << u(rng), 2 * u(rng), u(rng);
  const auto loc = locate_points(m.vertices, m.tets, p);
  for (Eigen::Index i = 0; i < p.rows(); ++i) {
    const Vec3 x = p.row(i).transpose();
    bool any = false;
    for (int t = 0; t < m.num_tets(); ++t) any = any || inside(m, t, x);
    const bool in_box = (x.array() >= 0).all() && x.x() <= 1 && x.y() <= 2 && x.z() <= 1;
    CHECK(any == in_box);
    CHECK((loc[i].outside_distance == 0.0) == any);
    if (!any) {  // distance to the box = distance to the nearest tet
      const Vec3 clamped = x.cwiseMax(Vec3::Zero()).cwiseMin(Vec3(1, 2, 1));
      CHECK(loc[i].outside_distance == Approx((x - clamped).norm()).epsilon(1e-9));
    }
    Vec3 back = Vec3::Zero();
    for (int j = 0; j < 4; ++j) back += loc[i].weights[j] * m.vertices.row(m.tets(loc[i].tet, j)).transpose();
    CHECK((back - x).norm() < 1e-12);
  }
}

TEST_CASE("embedded bodies keep mass and volume exactly", "[embedding]") {
  const Body full = teddy_body();
  const double volume = tet_mesh_volume(full.fine_rest, full.fine_tets);
  for (int target : {34, 173}) {
    const TetMesh lattice = lattice_embedding(full.fine_rest, target);
    EmbeddingReport report;
    const Body b = embed_body(full, lattice, "lattice", "test", &report);
    // The lattice covers every vertex, but vertices in surface slivers that hold no
    // fine volume are rebound (extrapolated) to a neighbouring tet that does.
    CHECK(report.max_outside < 0.02 * bounding_box_size(full.fine_rest));
    CHECK(b.element_volumes.sum() == Approx(volume).epsilon(1e-12));
    CHECK((b.fine_map.apply(b.node_rest) - full.fine_rest).cwiseAbs().maxCoeff() < 1e-12);
    // Every vertex follows an element of the reduced body, through that element's nodes.
    for (Eigen::Index v = 0; v < b.fine_element.size(); ++v) {
      const int e = b.fine_element[v];
      REQUIRE((e >= 0 && e < b.elements.rows()));
      for (int j = 0; j < 4; ++j) CHECK(b.fine_map.nodes(v, j) == b.elements(e, j));
    }
    CHECK(b.num_nodes() <= lattice.num_vertices());
  }
  const Body affine = embed_body(full, enclosing_tet(full.fine_rest), "affine", "test");
  CHECK(affine.num_nodes() == 4);
  CHECK(affine.element_volumes[0] == Approx(volume).epsilon(1e-12));
}

TEST_CASE("an embedding equal to the fine mesh gives each tet its own volume", "[embedding]") {
  const Body full = teddy_body();
  const Body same = embed_body(full, TetMesh{full.fine_rest, full.fine_tets}, "identity", "test");
  REQUIRE(same.elements.rows() == full.elements.rows());
  CHECK((same.element_volumes - full.element_volumes).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("vertices far outside the embedding are refused with a message", "[embedding]") {
  const Body full = teddy_body();
  TetMesh small = lattice_embedding(full.fine_rest, 173);
  const Vec3 c = small.vertices.colwise().mean().transpose();
  for (Eigen::Index i = 0; i < small.vertices.rows(); ++i)
    small.vertices.row(i) = (c + 0.8 * (small.vertices.row(i).transpose() - c)).transpose();
  CHECK_THROWS_WITH(embed_body(full, small, "shrunk", "emb.msh"),
                    Catch::Contains("emb.msh") && Catch::Contains("outside the embedding mesh"));
}

TEST_CASE("lattice embeddings hit the vertex target and cover every vertex", "[embedding]") {
  const Body teddy = teddy_body();
  TetMesh sphere_points;
  {
    const TetMesh box = box_tet_mesh(Vec3(-1, -1, -1), Vec3(1, 1, 1), 12, 12, 12);
    std::vector<Eigen::RowVector3d> kept;
    for (Eigen::Index i = 0; i < box.vertices.rows(); ++i)
      if (box.vertices.row(i).norm() <= 1.0) kept.push_back(box.vertices.row(i));
    sphere_points.vertices.resize(static_cast<Eigen::Index>(kept.size()), 3);
    for (std::size_t i = 0; i < kept.size(); ++i) sphere_points.vertices.row(i) = kept[i];
  }
  for (const Positions* points : std::vector<const Positions*>{&teddy.fine_rest, &sphere_points.vertices})
    for (int target : {34, 173, 500}) {
      const TetMesh lattice = lattice_embedding(*points, target);
      INFO("target " << target << ", got " << lattice.num_vertices());
      CHECK(std::abs(lattice.num_vertices() - target) <= 0.2 * target);
      const auto loc = locate_points(lattice.vertices, lattice.tets, *points);
      for (const TetLocation& l : loc) CHECK(l.outside_distance == 0.0);
      CHECK(tet_signed_volumes(lattice.vertices, lattice.tets).minCoeff() > 0);
    }
}
