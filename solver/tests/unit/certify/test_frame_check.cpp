#include <catch2/catch.hpp>

#include "eipc/certify/exact_tests.hpp"
#include "eipc/certify/frame_check.hpp"
#include "eipc/util/parallel.hpp"
#include "test_meshes.hpp"

#include <random>

using namespace eipc;
using namespace eipc::certify;
using test::Surface;

namespace {
FrameCheck check(const std::vector<Surface>& s, std::optional<double> ground = std::nullopt) {
  std::vector<BodyState> b;
  for (const auto& x : s) b.push_back({&x.x, &x.faces, is_closed_surface(x.faces)});
  return check_frame(b, ground);
}
}  // namespace

TEST_CASE("clean scenes pass", "[certify]") {
  const Surface box = test::box({0, 0, 0}, {1, 1, 1});
  CHECK(check({box}).ok());
  CHECK(check({test::sphere({0, 0, 0}, 1, 3)}).ok());
  // Two boxes 1e-12 apart; two spheres 1e-12 apart along x.
  CHECK(check({box, test::box({1 + 1e-12, 0, 0}, {2, 1, 1})}).ok());
  CHECK(check({box, test::box({0, 0, 1 + 1e-12}, {1, 1, 2})}, 0.0 - 1e-12).ok());
  // A hollow body (outer and inner box surfaces) with a small box in its cavity (parity: outside).
  Surface hollow = test::box({-2, -2, -2}, {2, 2, 2});
  const Surface inner = test::box({-1, -1, -1}, {1, 1, 1});
  hollow.x.conservativeResize(16, 3);
  hollow.x.bottomRows(8) = inner.x;
  hollow.faces.conservativeResize(24, 3);
  hollow.faces.bottomRows(12) = inner.faces.array() + 8;
  CHECK(check({hollow, test::box({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5})}).ok());
  CHECK(check({hollow, test::box({1.5, -0.5, -0.5}, {1.7, 0.5, 0.5})}).containment == 1);
}

TEST_CASE("planted failures are caught", "[certify]") {
  const Surface box = test::box({0, 0, 0}, {1, 1, 1});
  SECTION("boxes touching exactly") {
    const auto r = check({box, test::box({1, 0, 0}, {2, 1, 1})});
    CHECK(r.triangle_pairs > 0);
    REQUIRE(!r.examples.empty());
    CHECK(r.examples.front().kind == ViolationKind::triangle_pair);
    CHECK(r.examples.front().body_a == 0);
    CHECK(r.examples.front().body_b == 1);
  }
  SECTION("an edge of a tet piercing a face of the box") {
    const auto t = test::tet({0.5, 0.5, 0.9}, {0.6, 0.5, 1.5}, {0.5, 0.6, 1.5}, {0.55, 0.55, 2.0});
    const auto r = check({box, t});
    CHECK(r.triangle_pairs > 0);
    CHECK(r.containment == 1);  // its tip (0.5, 0.5, 0.9), the tested vertex, is inside the box
  }
  SECTION("a tet wholly inside another body") {
    const auto t = test::tet({0.2, 0.2, 0.2}, {0.6, 0.2, 0.2}, {0.2, 0.6, 0.2}, {0.2, 0.2, 0.6});
    const auto r = check({box, t});
    CHECK(r.triangle_pairs == 0);
    CHECK(r.containment == 1);
    REQUIRE(r.examples.size() == 1);
    CHECK(r.examples[0].kind == ViolationKind::containment);
    CHECK(r.examples[0].body_a == 1);
    CHECK(r.examples[0].body_b == 0);
  }
  SECTION("a vertex on or below the ground") {
    CHECK(check({box}, -1e-12).ok());
    const auto r = check({box}, 0.0);
    CHECK(r.ground == 4);  // the z = 0 face touches the ground exactly
    CHECK(r.examples.front().kind == ViolationKind::ground);
  }
  SECTION("only surface vertices are tested against the ground") {
    // An interior (tet-only) vertex below the plane means an inverted element,
    // not an intersection: the surface of the solid is still above it.
    Surface with_interior = test::box({0, 0, 1}, {1, 1, 2});
    with_interior.x.conservativeResize(with_interior.x.rows() + 1, 3);
    with_interior.x.row(with_interior.x.rows() - 1) << 0.5, 0.5, -1.0;
    CHECK(check({with_interior}, 0.0).ok());
    CHECK(check({with_interior}, 1.0).ground == 4);
  }
  SECTION("a self-intersecting fold of one body") {
    // A strip of four triangles; the last one is folded back through the first.
    Surface strip;
    strip.x.resize(6, 3);
    strip.x << 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0.5, -0.5, 0.5, 0.5, 1.5, -0.5;
    strip.faces.resize(4, 3);
    strip.faces << 0, 2, 1, 1, 2, 3, 2, 4, 3, 3, 4, 5;
    const auto r = check({strip});
    CHECK(r.triangle_pairs > 0);
    // The same strip unfolded is clean.
    strip.x.row(4) << 2, 0, 0;
    strip.x.row(5) << 2, 1, 0;
    CHECK(check({strip}).ok());
  }
  SECTION("a degenerate triangle is reported") {
    Surface s = box;
    s.x.row(7) = 0.5 * (s.x.row(5) + s.x.row(6));  // corner between two others of a face
    const auto r = check({s});
    CHECK(r.degenerate >= 1);
  }
}

TEST_CASE("broad phase + exact tests agree with brute force on a random soup", "[certify]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Surface soup;
  const int n = 150;
  soup.x.resize(3 * n, 3);
  soup.faces.resize(n, 3);
  for (int i = 0; i < n; ++i) {
    const Vec3 c(u(rng), u(rng), u(rng));
    for (int k = 0; k < 3; ++k) soup.x.row(3 * i + k) = (c + 0.08 * Vec3(u(rng), u(rng), u(rng))).transpose();
    soup.faces.row(i) << 3 * i, 3 * i + 1, 3 * i + 2;
  }
  // Snap some vertices onto others' exact coordinates so touching cases occur.
  for (int i = 0; i + 1 < n; i += 10) soup.x.row(3 * i + 3) = soup.x.row(3 * i);
  std::size_t brute = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      TriangleRef a, b;
      for (int k = 0; k < 3; ++k) {
        a.p[k] = soup.x.row(3 * i + k).transpose(); a.id[k] = 3 * i + k;
        b.p[k] = soup.x.row(3 * j + k).transpose(); b.id[k] = 3 * j + k;
      }
      brute += triangles_intersect(a, b);
    }
  const auto r = check({soup});
  CHECK(r.degenerate == 0);
  CHECK(r.triangle_pairs == brute);
  CHECK(brute > 0);
}

TEST_CASE("frame check is identical for any thread count", "[certify]") {
  const Surface a = test::sphere({0, 0, 0}, 1, 3), b = test::sphere({1.5, 0.2, 0}, 1, 3);
  FrameCheck r1, r2;
  {
    ThreadLimit one(1);
    r1 = check({a, b});
  }
  {
    ThreadLimit two(2);
    r2 = check({a, b});
  }
  REQUIRE(r1.triangle_pairs > 0);
  CHECK(r1.triangle_pairs == r2.triangle_pairs);
  REQUIRE(r1.examples.size() == r2.examples.size());
  for (std::size_t i = 0; i < r1.examples.size(); ++i) {
    CHECK(r1.examples[i].index_a == r2.examples[i].index_a);
    CHECK(r1.examples[i].index_b == r2.examples[i].index_b);
  }
}
