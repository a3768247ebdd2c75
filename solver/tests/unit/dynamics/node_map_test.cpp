// NodeMap: the whole-map x = J q and the largest mapped norm agree bit for bit
// with the per-vertex sum over the nonzero weights.
#include "eipc/dynamics/body.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

using namespace eipc;

namespace {

/// Vertices on one node, on two (an edge), on three (a face, the zero weight in
/// the middle) and inside a tet, with some exact zeros and negative zeros in q.
struct Case {
  NodeMap map;
  Positions q;
};

Case make_case() {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Case c;
  c.q.resize(6, 3);
  for (Eigen::Index i = 0; i < c.q.size(); ++i) c.q.data()[i] = u(rng);
  c.q.row(2) << 0.0, -0.0, 0.0;
  c.q.row(3) << -0.0, -0.0, -0.0;
  c.map.nodes.resize(6, 4);
  c.map.weights.resize(6, 4);
  c.map.nodes << 3, 0, 0, 0,  //
      1, 3, 0, 0,             //
      0, 2, 4, 5,             //
      2, 3, 4, 5,             //
      3, 3, 3, 3,             //
      0, 1, 4, 5;
  c.map.weights << 1.0, 0, 0, 0,  //
      0.25, 0.75, 0, 0,           //
      0.5, 0.0, 0.3, 0.2,         //
      0.1, 0.2, 0.3, 0.4,         //
      -1.0, 0, 0, 0,              //
      1.2, -0.1, -0.05, -0.05;    // outside its tet (extrapolated)
  return c;
}

/// Vertex v as a sum from +0 over its nonzero weights only.
Vec3 reference_vertex(const NodeMap& map, int v, const Positions& q) {
  Vec3 x = Vec3::Zero();
  for (int j = 0; j < 4; ++j)
    if (map.weights(v, j) != 0.0) x += map.weights(v, j) * q.row(map.nodes(v, j)).transpose();
  return x;
}

}  // namespace

TEST_CASE("NodeMap::apply equals the per-vertex sum over nonzero weights bit for bit", "[dynamics]") {
  const Case c = make_case();
  const Positions x = c.map.apply(c.q);
  REQUIRE(x.rows() == c.map.size());
  for (int v = 0; v < c.map.size(); ++v) {
    INFO("vertex " << v);
    const Vec3 expected = reference_vertex(c.map, v, c.q);
    for (int d = 0; d < 3; ++d) CHECK(std::memcmp(&x(v, d), &expected[d], sizeof(double)) == 0);
  }
  // Vertex 0 sits on node 3, which is at (-0, -0, -0): the sum from +0 gives +0.
  CHECK_FALSE(std::signbit(x(0, 0)));
}

TEST_CASE("NodeMap::max_norm is the largest norm of the mapped rows from an offset", "[dynamics]") {
  const Case c = make_case();
  Positions padded = Positions::Constant(9, 3, 1e3);  // two rows before, one after, that must not count
  padded.middleRows(2, 6) = c.q;
  const Positions x = c.map.apply(c.q);
  CHECK(c.map.max_norm(padded, 2) == x.rowwise().norm().maxCoeff());
  CHECK(NodeMap{}.max_norm(padded, 0) == 0.0);
}
