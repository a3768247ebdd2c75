// CollisionMap::positions remembers its last results: whatever the
// order of the q asked for (repeats, more distinct q than it remembers,
// concurrent callers), each answer is x = J q of that very q.
#include "eipc/dynamics/dof_system.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/util/parallel.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace eipc;

namespace {

DofSystem two_bodies() {
  const TetMesh lower = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2);
  const TetMesh upper = box_tet_mesh(Vec3(0.03, 0.02, 0.11), Vec3(0.08, 0.07, 0.16), 2, 2, 2);
  const Body a = make_full_space_body("a", lower.vertices, lower.tets, boundary_faces(lower.tets), Material{});
  const Body full_b = make_full_space_body("b", upper.vertices, upper.tets, boundary_faces(upper.tets), Material{});
  return DofSystem({a, embed_body(full_b, lattice_embedding(full_b.fine_rest, 12), "low", "test")});
}

/// x = J q through the sparse Jacobian (another summation order: equal to round-off).
Positions jacobian_times(const DofSystem& sys, const Positions& q) {
  Positions qq = q;
  const VecX x = sys.collision().jacobian() * Eigen::Map<const VecX>(qq.data(), qq.size());
  return Eigen::Map<const Positions>(x.data(), x.size() / 3, 3);
}

std::vector<Positions> random_node_positions(const DofSystem& sys, int count) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.01, 0.01);
  std::vector<Positions> qs;
  for (int i = 0; i < count; ++i) {
    Positions q = sys.rest_nodes();
    for (Eigen::Index k = 0; k < q.size(); ++k) q.data()[k] += u(rng);
    qs.push_back(q);
  }
  return qs;
}

}  // namespace

TEST_CASE("CollisionMap::positions answers for the q asked, however often and in whatever order", "[embedding]") {
  const DofSystem sys = two_bodies();
  const std::vector<Positions> qs = random_node_positions(sys, 9);
  // Repeats, a run of more distinct q than are remembered, then the early ones again.
  for (int i : {0, 1, 0, 0, 2, 1, 3, 4, 5, 6, 7, 8, 0, 1, 8, 2, 3}) {
    const Positions x = sys.collision().positions(qs[std::size_t(i)]);
    REQUIRE(x.rows() == sys.collision().mesh().num_vertices());
    REQUIRE((x - jacobian_times(sys, qs[std::size_t(i)])).cwiseAbs().maxCoeff() < 1e-14);
  }
  // A q changed in one coordinate is another q.
  Positions q = qs[0];
  const Positions before = sys.collision().positions(q);
  q(0, 2) += 1e-3;
  const Positions after = sys.collision().positions(q);
  REQUIRE((after - jacobian_times(sys, q)).cwiseAbs().maxCoeff() < 1e-14);
  REQUIRE((after - before).cwiseAbs().maxCoeff() > 1e-4);
}

TEST_CASE("CollisionMap::positions gives each concurrent caller its own q's positions", "[embedding]") {
  const DofSystem sys = two_bodies();
  const std::vector<Positions> qs = random_node_positions(sys, 16);
  std::vector<Positions> expected;
  for (const Positions& q : qs) expected.push_back(jacobian_times(sys, q));
  std::vector<double> error(200, 0.0);
  const ForceParallel parallel;
  parallel_for_each(error.size(), 1, [&](std::size_t i) {
    const std::size_t k = (7 * i) % qs.size();
    error[i] = (sys.collision().positions(qs[k]) - expected[k]).cwiseAbs().maxCoeff();
  });
  REQUIRE(*std::max_element(error.begin(), error.end()) < 1e-14);
}

TEST_CASE("CollisionMap marks kinematic bodies rigid", "[embedding]") {
  const TetMesh box = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2);
  Body moving = make_full_space_body("moving", box.vertices, box.tets, boundary_faces(box.tets), Material{});
  Body obstacle = moving;
  obstacle.name = "obstacle";
  obstacle.kinematic = true;
  const DofSystem sys({moving, obstacle});
  CHECK(sys.collision().mesh().rigid_body == std::vector<char>{0, 1});
}

TEST_CASE("CollisionMap::pull_back over a gradient's vertices equals the full J^T g bit for bit", "[embedding]") {
  const DofSystem sys = two_bodies();
  const int n = sys.collision().mesh().num_vertices();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> pick(0, n - 1);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<int> vertices;
    for (int k = 0; k < 1 + trial; ++k) vertices.push_back(pick(rng));
    std::sort(vertices.begin(), vertices.end());
    vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
    VecX g = VecX::Zero(3 * n);
    // Values over many decades, so that another order of the sums shows.
    for (int v : vertices)
      for (int d = 0; d < 3; ++d) g[3 * v + d] = u(rng) * std::pow(10.0, 6.0 * u(rng));
    const VecX full = sys.collision().pull_back(g);
    const VecX sparse = sys.collision().pull_back(g, vertices);
    REQUIRE(sparse.size() == full.size());
    CHECK(std::memcmp(sparse.data(), full.data(), sizeof(double) * std::size_t(full.size())) == 0);
  }
}
