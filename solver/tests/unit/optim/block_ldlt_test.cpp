// BlockLdlt against a dense LDL^T on block-sparse SPD matrices shaped like
// Newton matrices (3x3 node blocks coupling nodes of random "elements").
#include "eipc/optim/block_ldlt.hpp"
#include "eipc/optim/linear_solver.hpp"
#include "eipc/optim/node_ordering.hpp"
#include "eipc/util/parallel.hpp"

#include <Eigen/Dense>
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

using namespace eipc;

namespace {

/// Sum of random PSD 12x12 element blocks over random node quadruples, plus a
/// diagonal shift; optionally a few coordinates replaced by identity rows.
Eigen::SparseMatrix<double> random_newton_matrix(int nodes, int elements, unsigned seed, bool fix_some) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> node(0, nodes - 1);
  std::normal_distribution<double> normal;
  std::vector<Eigen::Triplet<double>> t;
  for (int e = 0; e < elements; ++e) {
    int v[4];
    for (int& x : v) x = node(rng);
    Eigen::Matrix<double, 12, 6> b;
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 6; ++j) b(i, j) = normal(rng);
    const Eigen::Matrix<double, 12, 12> h = b * b.transpose();
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) t.emplace_back(3 * v[i / 3] + i % 3, 3 * v[j / 3] + j % 3, h(i, j));
  }
  for (int i = 0; i < 3 * nodes; ++i) t.emplace_back(i, i, 0.1);
  Eigen::SparseMatrix<double> a(3 * nodes, 3 * nodes);
  a.setFromTriplets(t.begin(), t.end());
  if (fix_some)
    for (int col = 0; col < a.outerSize(); ++col)
      for (Eigen::SparseMatrix<double>::InnerIterator it(a, col); it; ++it)
        if (it.row() % 7 == 0 || col % 7 == 0) it.valueRef() = it.row() == col ? 1.0 : 0.0;
  return a;
}

VecX random_vector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  VecX b(n);
  for (int i = 0; i < n; ++i) b[i] = normal(rng);
  return b;
}

}  // namespace

TEST_CASE("the node graph has a node pair wherever any coordinates couple; AMD orders it as from triplets", "[optim]") {
  // Symmetric scalar patterns with partial blocks: single coordinate entries
  // (u x, s z) and (s z, u x) between random nodes, plus the diagonal.
  for (unsigned seed = 1; seed <= 5; ++seed) {
    std::mt19937 rng(seed);
    const int nodes = 40;
    std::uniform_int_distribution<int> coordinate(0, 3 * nodes - 1);
    std::vector<Eigen::Triplet<double>> t;
    for (int i = 0; i < 3 * nodes; ++i) t.emplace_back(i, i, 1.0);
    for (int e = 0; e < 150; ++e) {
      const int r = coordinate(rng), c = coordinate(rng);
      t.emplace_back(r, c, 1.0);
      t.emplace_back(c, r, 1.0);
    }
    Eigen::SparseMatrix<double> a(3 * nodes, 3 * nodes);
    a.setFromTriplets(t.begin(), t.end());
    std::vector<Eigen::Triplet<double>> pairs;
    for (int col = 0; col < a.outerSize(); ++col)
      for (Eigen::SparseMatrix<double>::InnerIterator it(a, col); it; ++it)
        pairs.emplace_back(int(it.row() / 3), col / 3, 1.0);
    Eigen::SparseMatrix<double> expected(nodes, nodes);
    expected.setFromTriplets(pairs.begin(), pairs.end());
    const Eigen::SparseMatrix<double> graph = node_graph(a);
    REQUIRE(graph.nonZeros() == expected.nonZeros());
    CHECK(std::equal(graph.outerIndexPtr(), graph.outerIndexPtr() + nodes + 1, expected.outerIndexPtr()));
    CHECK(std::equal(graph.innerIndexPtr(), graph.innerIndexPtr() + graph.nonZeros(), expected.innerIndexPtr()));
    NodeAmdOrdering::PermutationType from_graph, from_triplets;
    Eigen::AMDOrdering<int>()(graph, from_graph);
    Eigen::AMDOrdering<int>()(expected, from_triplets);
    CHECK(from_graph.indices() == from_triplets.indices());
  }
}

TEST_CASE("BlockLdlt solves block-sparse SPD systems like a dense LDL^T", "[optim]") {
  for (const bool fix : {false, true}) {
    const Eigen::SparseMatrix<double> a = random_newton_matrix(60, 90, fix ? 7u : 3u, fix);
    const VecX b = random_vector(180, 11);
    const VecX expected = Eigen::MatrixXd(a).ldlt().solve(b);
    BlockLdlt solver;
    solver.analyzePattern(a);
    solver.factorize(a);
    REQUIRE(solver.info() == Eigen::Success);
    const VecX x = solver.solve(b);
    CHECK((x - expected).norm() <= 1e-9 * expected.norm());
    CHECK((a * x - b).norm() <= 1e-10 * b.norm());
    // Fill: L has at least the strictly lower blocks of A.
    CHECK(solver.factor_blocks() > 0);
  }
}

TEST_CASE("BlockLdlt refactorises new values on the analysed pattern", "[optim]") {
  Eigen::SparseMatrix<double> a = random_newton_matrix(40, 50, 5, false);
  BlockLdlt solver;
  solver.analyzePattern(a);
  solver.factorize(a);
  REQUIRE(solver.info() == Eigen::Success);
  a.coeffs() *= 3.0;
  a.diagonal().array() += 2.0;
  solver.factorize(a);
  REQUIRE(solver.info() == Eigen::Success);
  const VecX b = random_vector(120, 2);
  CHECK((a * solver.solve(b) - b).norm() <= 1e-10 * b.norm());
}

TEST_CASE("BlockLdlt reports an indefinite matrix", "[optim]") {
  Eigen::SparseMatrix<double> a = random_newton_matrix(20, 20, 9, false);
  a.coeffRef(30, 30) = -1.0;
  BlockLdlt solver;
  solver.analyzePattern(a);
  solver.factorize(a);
  CHECK(solver.info() == Eigen::NumericalIssue);
  LinearSolver linear;
  VecX x;
  CHECK_FALSE(linear.solve(a, VecX::Ones(60), x));
}

TEST_CASE("BlockLdlt rejects sizes that are not whole nodes", "[optim]") {
  Eigen::SparseMatrix<double> a(4, 4);
  a.setIdentity();
  BlockLdlt solver;
  CHECK_THROWS_AS(solver.analyzePattern(a), std::invalid_argument);
}

namespace {

/// Two independent random Newton matrices side by side (two bodies not in
/// contact): the elimination tree has two disjoint subtrees.
Eigen::SparseMatrix<double> two_bodies(bool indefinite_in_one) {
  const Eigen::SparseMatrix<double> left = random_newton_matrix(40, 60, 21, false);
  const Eigen::SparseMatrix<double> right = random_newton_matrix(40, 60, 22, true);
  std::vector<Eigen::Triplet<double>> t;
  for (int side = 0; side < 2; ++side) {
    const Eigen::SparseMatrix<double>& m = side == 0 ? left : right;
    for (int col = 0; col < m.outerSize(); ++col)
      for (Eigen::SparseMatrix<double>::InnerIterator it(m, col); it; ++it)
        t.emplace_back(120 * side + int(it.row()), 120 * side + col, it.value());
  }
  if (indefinite_in_one) t.emplace_back(30, 30, -1e3);
  Eigen::SparseMatrix<double> a(240, 240);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  return a;
}

}  // namespace

TEST_CASE("BlockLdlt factorises disjoint subtrees side by side, bit for bit as one after the other", "[optim]") {
  const Eigen::SparseMatrix<double> a = two_bodies(false);
  const VecX b = random_vector(240, 4);
  VecX serial;
  {
    ThreadLimit one(1);
    BlockLdlt solver;
    solver.analyzePattern(a);
    CHECK(solver.parallel_tasks() == 0);
    solver.factorize(a);
    REQUIRE(solver.info() == Eigen::Success);
    serial = solver.solve(b);
    CHECK((a * serial - b).norm() <= 1e-10 * b.norm());
  }
  ForceParallel forced;
  ThreadLimit two(2);
  BlockLdlt solver;
  solver.analyzePattern(a);
  CHECK(solver.parallel_tasks() == 2);
  for (int repeat = 0; repeat < 3; ++repeat) {
    solver.factorize(a);
    REQUIRE(solver.info() == Eigen::Success);
    const VecX x = solver.solve(b);
    CHECK(std::memcmp(x.data(), serial.data(), sizeof(double) * std::size_t(x.size())) == 0);
  }
  // A non-positive pivot inside one of the subtrees is still reported.
  const Eigen::SparseMatrix<double> bad = two_bodies(true);
  solver.analyzePattern(bad);
  solver.factorize(bad);
  CHECK(solver.info() == Eigen::NumericalIssue);
}
