// Broad phase against brute force on random triangle soups (several bodies,
// shared vertices, self-contact) and thread-count independence.
#include <catch2/catch.hpp>

#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <utility>

using namespace eipc;

namespace {

/// Random triangles over `nv` vertices split into `bodies` bodies; unique edges derived from faces.
CollisionMesh random_mesh(int nv, int nf, int bodies, std::mt19937& rng) {
  CollisionMesh m;
  m.rest.resize(nv, 3);
  m.vertex_body.resize(nv);
  const int per_body = nv / bodies;
  for (int v = 0; v < nv; ++v) m.vertex_body[v] = std::min(v / per_body, bodies - 1);
  std::uniform_int_distribution<int> pick(0, per_body - 1), near(1, 4);
  m.faces.resize(nf, 3);
  std::set<std::pair<int, int>> edges;
  for (int f = 0; f < nf; ++f) {
    const int b = f % bodies, base = b * per_body;
    int i, j, k;
    // Vertices close in index (hence in space, see place_vertices): small triangles.
    do {
      i = base + pick(rng), j = i + near(rng), k = i + near(rng);
    } while (j == k || k >= base + per_body || j >= base + per_body);
    m.faces.row(f) << i, j, k;
    for (auto [a, c] : {std::pair{i, j}, std::pair{j, k}, std::pair{k, i}}) edges.insert({std::min(a, c), std::max(a, c)});
  }
  m.edges.resize(static_cast<int>(edges.size()), 2);
  int e = 0;
  for (auto [a, c] : edges) m.edges.row(e++) << a, c;
  return m;
}

struct Box {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
};

Box box_of(const Positions& x0, const Positions& x1, std::initializer_list<int> verts) {
  Box b;
  for (int v : verts)
    for (const Positions* x : {&x0, &x1})
      for (int k = 0; k < 3; ++k) b.lo[k] = std::min(b.lo[k], (*x)(v, k)), b.hi[k] = std::max(b.hi[k], (*x)(v, k));
  return b;
}

/// Largest per-axis gap between two boxes (<= 0 means they overlap).
double gap(const Box& a, const Box& b) {
  double g = -1e300;
  for (int k = 0; k < 3; ++k) g = std::max({g, b.lo[k] - a.hi[k], a.lo[k] - b.hi[k]});
  return g;
}

/// Brute force: all pairs with box gap <= inflation and no shared vertex.
Candidates brute_force(const CollisionMesh& m, const Positions& x0, const Positions& x1, double inflation) {
  std::vector<Box> vb, fb, eb;
  for (int v = 0; v < m.num_vertices(); ++v) vb.push_back(box_of(x0, x1, {v}));
  for (int f = 0; f < m.faces.rows(); ++f) fb.push_back(box_of(x0, x1, {m.faces(f, 0), m.faces(f, 1), m.faces(f, 2)}));
  for (int e = 0; e < m.edges.rows(); ++e) eb.push_back(box_of(x0, x1, {m.edges(e, 0), m.edges(e, 1)}));
  Candidates c;
  for (int v = 0; v < m.num_vertices(); ++v)
    for (int f = 0; f < m.faces.rows(); ++f) {
      if (m.faces(f, 0) == v || m.faces(f, 1) == v || m.faces(f, 2) == v) continue;
      if (gap(vb[v], fb[f]) <= inflation) c.point_triangle.push_back({v, f});
    }
  for (int a = 0; a < m.edges.rows(); ++a)
    for (int b = a + 1; b < m.edges.rows(); ++b) {
      const std::set<int> s{m.edges(a, 0), m.edges(a, 1), m.edges(b, 0), m.edges(b, 1)};
      if (s.size() < 4) continue;
      if (gap(eb[a], eb[b]) <= inflation) c.edge_edge.push_back({a, b});
    }
  return c;
}

/// Random positions in the unit cube where vertex v lies near v - 1 (a random walk of step 0.1).
Positions place_vertices(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0), step(-0.05, 0.05);
  Positions x(n, 3);
  x.row(0) << u(rng), u(rng), u(rng);
  for (int v = 1; v < n; ++v) {
    for (int k = 0; k < 3; ++k) x(v, k) = x(v - 1, k) + step(rng);
    if (v % 50 == 0) x.row(v) << u(rng), u(rng), u(rng);
  }
  return x;
}

template <class T>
bool subset(const std::vector<T>& small, const std::vector<T>& big) {
  for (const auto& s : small)
    if (std::find(big.begin(), big.end(), s) == big.end()) return false;
  return true;
}

/// n boxes with corners in the unit cube and sides up to max_size.
std::vector<Aabb> random_unit_boxes(int n, double max_size, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0), size(0.0, max_size);
  std::vector<Aabb> boxes(std::size_t(n), Aabb{});
  for (Aabb& b : boxes) {
    b.lo = Eigen::Array3d(u(rng), u(rng), u(rng));
    b.hi = b.lo + Eigen::Array3d(size(rng), size(rng), size(rng));
  }
  return boxes;
}

}  // namespace

TEST_CASE("broad phase finds exactly the brute-force overlapping pairs", "[contact][broad_phase]") {
  std::mt19937 rng(GENERATE(1u, 2u));
  const int bodies = GENERATE(1, 3);
  const double inflation = GENERATE(0.0, 0.02);
  const bool moving = GENERATE(false, true);
  const CollisionMesh m = random_mesh(90, 120, bodies, rng);
  std::uniform_real_distribution<double> u(0.0, 1.0), du(-0.05, 0.05);
  const Positions x0 = place_vertices(m.num_vertices(), rng);
  Positions x1 = x0;
  if (moving)
    for (int i = 0; i < x1.size(); ++i) x1.data()[i] += du(rng);

  const Candidates found = find_candidates(m, x0, x1, inflation);
  const Candidates brute = brute_force(m, x0, x1, inflation);
  const Candidates brute_loose = brute_force(m, x0, x1, inflation * (1 + 1e-9) + 1e-12);
  INFO("pt found " << found.point_triangle.size() << " brute " << brute.point_triangle.size() << "; ee found "
                   << found.edge_edge.size() << " brute " << brute.edge_edge.size());
  REQUIRE(brute.size() > 0);
  // Not a trivial all-pairs answer:
  REQUIRE(brute.point_triangle.size() < m.num_vertices() * m.faces.rows() / 4);
  REQUIRE(brute.edge_edge.size() < m.edges.rows() * m.edges.rows() / 8);
  // Every truly overlapping pair is found; nothing beyond rounding of the inflation is added.
  CHECK(subset(brute.point_triangle, found.point_triangle));
  CHECK(subset(brute.edge_edge, found.edge_edge));
  CHECK(subset(found.point_triangle, brute_loose.point_triangle));
  CHECK(subset(found.edge_edge, brute_loose.edge_edge));
  // Sorted, unique.
  CHECK(std::is_sorted(found.point_triangle.begin(), found.point_triangle.end(),
                       [](auto& a, auto& b) { return a.vertex < b.vertex || (a.vertex == b.vertex && a.face < b.face); }));
  CHECK(std::adjacent_find(found.point_triangle.begin(), found.point_triangle.end()) == found.point_triangle.end());
  CHECK(std::is_sorted(found.edge_edge.begin(), found.edge_edge.end(),
                       [](auto& a, auto& b) { return a.edge_a < b.edge_a || (a.edge_a == b.edge_a && a.edge_b < b.edge_b); }));
  CHECK(std::adjacent_find(found.edge_edge.begin(), found.edge_edge.end()) == found.edge_edge.end());
}

TEST_CASE("broad phase output does not depend on the thread count", "[contact][broad_phase]") {
  std::mt19937 rng(7);
  const CollisionMesh m = random_mesh(3000, 6000, 4, rng);
  std::uniform_real_distribution<double> u(0.0, 1.0), du(-0.01, 0.01);
  const Positions x0 = place_vertices(m.num_vertices(), rng);
  Positions x1 = x0;
  for (int i = 0; i < x1.size(); ++i) x1.data()[i] += du(rng);
  Candidates one, many;
  {
    ThreadLimit limit(1);
    one = find_candidates(m, x0, x1, 1e-3);
  }
  {
    ThreadLimit limit(4);
    many = find_candidates(m, x0, x1, 1e-3);
  }
  REQUIRE(one.size() > 0);
  CHECK(one.point_triangle == many.point_triangle);
  CHECK(one.edge_edge == many.edge_edge);
}

TEST_CASE("broad phase rejects positions of the wrong size", "[contact][broad_phase]") {
  std::mt19937 rng(1);
  const CollisionMesh m = random_mesh(30, 10, 1, rng);
  Positions x(5, 3);
  x.setZero();
  CHECK_THROWS_AS(find_candidates(m, x, x, 0.0), InputError);
}

TEST_CASE("broad phase with kept trees refit to new positions finds what fresh trees find", "[contact][broad_phase]") {
  std::mt19937 rng(11);
  const CollisionMesh m = random_mesh(300, 400, 3, rng);
  BroadPhaseTrees kept;
  // The trees are built at the first positions, then refit to positions that
  // scramble the shapes (each vertex moved independently by up to 0.3).
  std::uniform_real_distribution<double> du(-0.3, 0.3);
  Positions x = place_vertices(m.num_vertices(), rng);
  std::size_t found = 0;
  for (int round = 0; round < 4; ++round) {
    const Candidates between = find_candidates_between_bodies(m, x, x, 0.02, &kept);
    CHECK(between.point_triangle == find_candidates_between_bodies(m, x, x, 0.02).point_triangle);
    CHECK(between.edge_edge == find_candidates_between_bodies(m, x, x, 0.02).edge_edge);
    found += between.size();
    for (int body = 0; body < 3; ++body) {
      const Candidates within = find_candidates_within_body(m, x, x, 0.02, body, &kept);
      CHECK(within.point_triangle == find_candidates_within_body(m, x, x, 0.02, body).point_triangle);
      CHECK(within.edge_edge == find_candidates_within_body(m, x, x, 0.02, body).edge_edge);
      found += within.size();
    }
    for (int i = 0; i < x.size(); ++i) x.data()[i] += du(rng);
  }
  CHECK(found > 100);
}

TEST_CASE("a box tree refit to new boxes answers like one built on them", "[contact][broad_phase]") {
  std::mt19937 rng(5);
  auto random_boxes = [&](int n) { return random_unit_boxes(n, 0.1, rng); };
  AabbTree tree(random_boxes(200));
  const std::vector<Aabb> moved = random_boxes(200);
  tree.refit(moved);
  const AabbTree built(moved);
  for (const Aabb& q : random_boxes(100)) {
    std::vector<int> a, b;
    tree.query(q, a);
    built.query(q, b);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
  }
  CHECK_THROWS_AS(tree.refit(random_boxes(199)), std::invalid_argument);
  // Its leaves hold every box once, each inside its leaf's box (after the refit too).
  std::vector<int> seen;
  for (int k = 0; k < tree.num_leaves(); ++k)
    for (const int* i = tree.leaf_begin(k); i != tree.leaf_end(k); ++i) {
      seen.push_back(*i);
      CHECK((tree.leaf_box(k).lo <= moved[std::size_t(*i)].lo).all());
      CHECK((tree.leaf_box(k).hi >= moved[std::size_t(*i)].hi).all());
    }
  std::sort(seen.begin(), seen.end());
  std::vector<int> all(moved.size());
  std::iota(all.begin(), all.end(), 0);
  CHECK(seen == all);
  CHECK(tree.num_leaves() > 200 / 8);
}

TEST_CASE("boxes overlap exactly when they meet on every axis", "[contact][broad_phase]") {
  // Aabb::overlaps tests axes 0-1 as one SSE2 packet: against the six scalar
  // comparisons, on coordinates from a coarse grid (touching faces, edges
  // and corners are common), and on empty and infinite boxes.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> grid(-3, 3);
  auto random_box = [&] {
    Aabb b;
    for (int k = 0; k < 3; ++k) {
      const double p = 0.5 * grid(rng), q = 0.5 * grid(rng);
      b.lo[k] = std::min(p, q);
      b.hi[k] = std::max(p, q);
    }
    return b;
  };
  auto scalar = [](const Aabb& a, const Aabb& b) {
    bool all = true;
    for (int k = 0; k < 3; ++k) all = all && a.lo[k] <= b.hi[k] && b.lo[k] <= a.hi[k];
    return all;
  };
  int overlapping = 0;
  for (int n = 0; n < 20000; ++n) {
    const Aabb a = random_box(), b = random_box();
    REQUIRE(a.overlaps(b) == scalar(a, b));
    REQUIRE(b.overlaps(a) == scalar(a, b));
    overlapping += scalar(a, b);
  }
  CHECK(overlapping > 2000);
  CHECK(overlapping < 18000);
  Aabb all;
  all.lo.setConstant(-std::numeric_limits<double>::infinity());
  all.hi.setConstant(std::numeric_limits<double>::infinity());
  CHECK(all.overlaps(random_box()));
  CHECK_FALSE(Aabb{}.overlaps(random_box()));  // an empty box meets no finite one
}

TEST_CASE("a box tree queried from a leaf on finds exactly the overlapping boxes of that leaf and the later ones",
          "[contact][broad_phase]") {
  // The walk within one tree meets each pair of leaves once, from the earlier
  // one: against brute force over the leaves' members, after a refit too.
  std::mt19937 rng(11);
  auto random_boxes = [&](int n) { return random_unit_boxes(n, 0.15, rng); };
  AabbTree tree(random_boxes(300));
  const std::vector<Aabb> moved = random_boxes(300);
  tree.refit(moved);
  std::size_t found = 0;
  for (int from = 0; from <= tree.num_leaves(); from += 3) {
    std::vector<char> later(moved.size(), 0);
    for (int k = from; k < tree.num_leaves(); ++k)
      for (const int* i = tree.leaf_begin(k); i != tree.leaf_end(k); ++i) later[std::size_t(*i)] = 1;
    for (const Aabb& q : random_boxes(20)) {
      std::vector<int> got, want;
      tree.query(q, got, from);
      for (int i = 0; i < int(moved.size()); ++i)
        if (later[std::size_t(i)] && moved[std::size_t(i)].overlaps(q)) want.push_back(i);
      std::sort(got.begin(), got.end());
      REQUIRE(got == want);
      found += got.size();
    }
  }
  CHECK(found > 100);
}

TEST_CASE("a large box tree answers like brute force and is the same every build", "[contact][broad_phase]") {
  std::mt19937 rng(11);
  const std::vector<Aabb> boxes = random_unit_boxes(20011, 0.01, rng);
  const AabbTree tree(boxes), again(boxes);
  // Leaves in order_ order: contiguous ranges covering every box once, the same in both builds.
  REQUIRE(tree.num_leaves() == again.num_leaves());
  std::vector<int> seen;
  for (int k = 0; k < tree.num_leaves(); ++k) {
    if (k > 0) CHECK(tree.leaf_begin(k) == tree.leaf_end(k - 1));
    CHECK(std::vector<int>(tree.leaf_begin(k), tree.leaf_end(k)) ==
          std::vector<int>(again.leaf_begin(k), again.leaf_end(k)));
    seen.insert(seen.end(), tree.leaf_begin(k), tree.leaf_end(k));
  }
  std::sort(seen.begin(), seen.end());
  std::vector<int> all(boxes.size());
  std::iota(all.begin(), all.end(), 0);
  CHECK(seen == all);
  for (const Aabb& q : random_unit_boxes(200, 0.05, rng)) {
    std::vector<int> found, expected;
    tree.query(q, found);
    for (int i = 0; i < static_cast<int>(boxes.size()); ++i)
      if (q.overlaps(boxes[std::size_t(i)])) expected.push_back(i);
    std::sort(found.begin(), found.end());
    CHECK(found == expected);
  }
}
