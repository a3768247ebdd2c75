#include <catch2/catch.hpp>

#include "eipc/certify/exact_tests.hpp"
#include "test_meshes.hpp"

using namespace eipc;
using namespace eipc::certify;

namespace {
TriangleRef tri(const Vec3& a, const Vec3& b, const Vec3& c, long i, long j, long k) { return {{a, b, c}, {i, j, k}}; }
// Distinct ids: no topological sharing.
TriangleRef tri(const Vec3& a, const Vec3& b, const Vec3& c, long base) { return tri(a, b, c, base, base + 1, base + 2); }
}  // namespace

TEST_CASE("disjoint triangles: crossing, piercing, coplanar overlap, touching and near misses", "[certify]") {
  const TriangleRef base = tri({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, 0);
  SECTION("two crossing triangles") {
    CHECK(triangles_intersect(base, tri({0.2, 0.2, -0.5}, {0.3, 0.2, 0.5}, {5, 5, 0.1}, 10)));
  }
  SECTION("an edge piercing the face") {
    CHECK(triangles_intersect(base, tri({0.25, 0.25, -1}, {0.25, 0.25, 1}, {3, 3, 3}, 10)));
  }
  SECTION("coplanar overlapping triangles") {
    CHECK(triangles_intersect(base, tri({0.1, 0.1, 0}, {2, 0.1, 0}, {0.1, 2, 0}, 10)));
  }
  SECTION("coplanar, one inside the other") {
    CHECK(triangles_intersect(base, tri({0.1, 0.1, 0}, {0.2, 0.1, 0}, {0.1, 0.2, 0}, 10)));
  }
  SECTION("touching: a vertex exactly on the face counts") {
    CHECK(triangles_intersect(base, tri({0.25, 0.25, 0}, {0.25, 0.25, 1}, {1, 1, 1}, 10)));
  }
  SECTION("touching: coincident vertices with different ids count") {
    CHECK(triangles_intersect(base, tri({1, 0, 0}, {2, 0, 1}, {2, 1, 1}, 10)));
  }
  SECTION("separated by 1e-12 above the face") {
    CHECK_FALSE(triangles_intersect(base, tri({0.25, 0.25, 1e-12}, {0.25, 0.25, 1}, {1, 1, 1}, 10)));
  }
  SECTION("coplanar, separated by 1e-12 across the hypotenuse") {
    const double e = 1e-12;
    CHECK_FALSE(triangles_intersect(base, tri({1 + e, 0, 0}, {1, 1, 0}, {e, 1, 0}, 10)));
    CHECK(triangles_intersect(base, tri({1, 0, 0}, {1, 1, 0}, {0, 1, 0}, 10)));  // shares the hypotenuse geometrically
  }
}

TEST_CASE("triangles sharing one vertex", "[certify]") {
  const Vec3 v(0, 0, 0);
  const TriangleRef s = tri(v, {1, 0, 0}, {0, 1, 0}, 0, 1, 2);
  SECTION("legal fan neighbours") {
    CHECK_FALSE(triangles_intersect(s, tri(v, {0, 1, 0.5}, {-1, 0, 0}, 0, 3, 4)));
    CHECK_FALSE(triangles_intersect(s, tri(v, {-1, 0, 0}, {0, -1, 0}, 0, 3, 4)));  // coplanar, opposite quadrant
    CHECK_FALSE(triangles_intersect(s, tri(v, {1, 0, 1}, {0, 1, 1}, 0, 3, 4)));    // above, touching only at v
  }
  SECTION("coplanar overlap beyond the shared vertex") {
    CHECK(triangles_intersect(s, tri(v, {1, 1, 0}, {-1, 2, 0}, 0, 3, 4)));
  }
  SECTION("coplanar, a common boundary ray (edge along edge)") {
    CHECK(triangles_intersect(s, tri(v, {2, 0, 0}, {1, -1, 0}, 0, 3, 4)));
  }
  SECTION("crossing through the other triangle") {
    CHECK(triangles_intersect(s, tri(v, {0.3, 0.3, -1}, {0.4, 0.3, 1}, 0, 3, 4)));
  }
  SECTION("opposite edge exactly touching the other triangle") {
    CHECK(triangles_intersect(s, tri(v, {0.5, 0.5, 0}, {0.5, 0.5, 1}, 0, 3, 4)));
  }
}

TEST_CASE("triangles sharing an edge", "[certify]") {
  const Vec3 u(0, 0, 0), w(1, 0, 0);
  const TriangleRef s = tri(u, w, {0.5, 1, 0}, 0, 1, 2);
  CHECK_FALSE(triangles_intersect(s, tri(w, u, {0.5, -1, 0}, 1, 0, 3)));   // flat continuation
  CHECK_FALSE(triangles_intersect(s, tri(w, u, {0.5, 0.1, 1}, 1, 0, 3)));  // any dihedral angle
  CHECK_FALSE(triangles_intersect(s, tri(w, u, {0.5, 1, 1e-12}, 1, 0, 3)));
  CHECK(triangles_intersect(s, tri(w, u, {0.2, 3, 0}, 1, 0, 3)));  // folded flat onto it
  CHECK(triangles_intersect(s, tri(u, w, {0.5, 1, 0}, 0, 1, 3)));  // duplicate position, new apex id
  CHECK(triangles_intersect(s, tri(w, u, {0.5, 1, 0}, 1, 0, 2)));  // duplicated face
}

TEST_CASE("degenerate triangles are detected exactly", "[certify]") {
  CHECK(triangle_is_degenerate({0, 0, 0}, {1, 1, 1}, {3, 3, 3}));
  CHECK(triangle_is_degenerate({0, 0, 0}, {0, 0, 0}, {3, 1, 3}));
  CHECK_FALSE(triangle_is_degenerate({0, 0, 0}, {1, 1, 1}, {3, 3, 3 + 1e-15 * 3}));
}

TEST_CASE("exact point in closed surface", "[certify]") {
  const auto b = test::box({0, 0, 0}, {1, 1, 1});
  REQUIRE(is_closed_surface(b.faces));
  CHECK(side_of_closed_surface({0.5, 0.5, 0.5}, b.x, b.faces) == PointSide::inside);
  CHECK(side_of_closed_surface({1e-300, 0.5, 0.5}, b.x, b.faces) == PointSide::inside);
  CHECK(side_of_closed_surface({-1e-300, 0.5, 0.5}, b.x, b.faces) == PointSide::outside);
  CHECK(side_of_closed_surface({0, 0.5, 0.5}, b.x, b.faces) == PointSide::on_boundary);
  CHECK(side_of_closed_surface({1, 1, 1}, b.x, b.faces) == PointSide::on_boundary);
  CHECK(side_of_closed_surface({2, 0.5, 0.5}, b.x, b.faces) == PointSide::outside);
  // Inside the box's bounding box but outside a sphere (the concave gaps of an icosphere hull).
  const auto s = test::sphere({0, 0, 0}, 1.0, 2);
  REQUIRE(is_closed_surface(s.faces));
  CHECK(side_of_closed_surface({0.9, 0.9, 0.0}, s.x, s.faces) == PointSide::outside);
  CHECK(side_of_closed_surface({0.1, -0.2, 0.3}, s.x, s.faces) == PointSide::inside);
  // Open surface: one face removed.
  Tris open = b.faces.topRows(11);
  CHECK_FALSE(is_closed_surface(open));
}
