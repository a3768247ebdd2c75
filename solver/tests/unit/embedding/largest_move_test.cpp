// LargestMove: the largest move of the fine vertices, found tet by tet with
// bounds, equals NodeMap::max_norm over every vertex bit for bit.
#include "eipc/embedding/largest_move.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace eipc;

namespace {

/// `vertices` vertices in `tets` random tets of `nodes` nodes: barycentric
/// weights, some with a zero slot, some extrapolated (a negative weight, sum of
/// |weights| above 1).
NodeMap random_embedding(int nodes, int tets, int vertices, std::mt19937& rng) {
  std::uniform_int_distribution<int> node(0, nodes - 1), tet(0, tets - 1), kind(0, 3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::array<int, 4>> corners(static_cast<std::size_t>(tets));
  for (auto& c : corners)
    for (int& n : c) n = node(rng);
  NodeMap map;
  map.nodes.resize(vertices, 4);
  map.weights.resize(vertices, 4);
  for (int v = 0; v < vertices; ++v) {
    const auto& c = corners[std::size_t(tet(rng))];
    double w[4], sum = 0.0;
    for (double& x : w) sum += (x = u(rng));
    for (double& x : w) x /= sum;
    const int k = kind(rng);
    if (k == 1) w[2] = 0.0;                  // on a face
    if (k == 2) { w[0] += 0.4; w[3] -= 0.4; }  // outside its tet
    for (int j = 0; j < 4; ++j) {
      map.nodes(v, j) = c[std::size_t(j)];
      map.weights(v, j) = w[j];
    }
  }
  return map;
}

}  // namespace

TEST_CASE("LargestMove equals NodeMap::max_norm bit for bit", "[embedding]") {
  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  const int nodes = 12;
  const NodeMap map = random_embedding(nodes, 9, 400, rng);
  const LargestMove largest(map);
  std::uniform_real_distribution<double> u(-1.0, 1.0), scale(-8.0, 0.0);
  int equal = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Positions q(nodes + 3, 3);  // two rows before the body's nodes and one after
    for (Eigen::Index i = 0; i < q.size(); ++i) q.data()[i] = u(rng) * std::pow(10.0, scale(rng));
    if (trial % 4 == 0) q.row(2 + trial % nodes) *= 1e3;  // one node moving far more than the rest
    const double expected = map.max_norm(q, 2);
    CHECK(largest.of(map, q, 2) == expected);
    equal += largest.of(map, q, 2) == expected;
  }
  CHECK(equal == 200);
}

TEST_CASE("LargestMove of a full-space body is its largest node move", "[embedding]") {
  const NodeMap map = NodeMap::identity(5);
  Positions q(5, 3);
  q << 1, 0, 0, 0, 2, 0, 0, 0, -3, 1, 1, 1, 0, 0, 0;
  CHECK(LargestMove(map).of(map, q, 0) == 3.0);
  CHECK(LargestMove(NodeMap{}).of(NodeMap{}, q, 0) == 0.0);
}
