#include <catch2/catch.hpp>

#include "eipc/certify/exact_tests.hpp"
#include "test_meshes.hpp"

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

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

namespace {
using EK = CGAL::Exact_predicates_exact_constructions_kernel;
EK::Point_3 exact(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

/// The oracle, from exact constructions apart from triangles_intersect: do s and t have a
/// common point outside the hull of their shared corners? (CGAL's intersection of the two
/// triangles is convex: it is inside iff its corners are.)
bool meet_beyond_shared(const TriangleRef& s, const TriangleRef& t) {
  std::vector<EK::Point_3> shared;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (s.id[i] == t.id[j]) shared.push_back(exact(s.p[i]));
  if (shared.size() >= 3) return true;
  const auto common = CGAL::intersection(EK::Triangle_3(exact(s.p[0]), exact(s.p[1]), exact(s.p[2])),
                                         EK::Triangle_3(exact(t.p[0]), exact(t.p[1]), exact(t.p[2])));
  if (!common) return false;
  std::vector<EK::Point_3> corners;
  if (const auto* p = boost::get<EK::Point_3>(&*common)) corners = {*p};
  else if (const auto* g = boost::get<EK::Segment_3>(&*common)) corners = {g->source(), g->target()};
  else if (const auto* r = boost::get<EK::Triangle_3>(&*common)) corners = {r->vertex(0), r->vertex(1), r->vertex(2)};
  else corners = boost::get<std::vector<EK::Point_3>>(*common);
  const auto allowed = [&](const EK::Point_3& p) {
    if (shared.empty()) return false;
    return shared.size() == 1 ? p == shared[0] : EK::Segment_3(shared[0], shared[1]).has_on(p);
  };
  return !std::all_of(corners.begin(), corners.end(), allowed);
}

/// Lattice points o + i e1 + j e2 (dyadic: exact, so exactly in one plane), id i + 10 j.
struct Lattice {
  Vec3 o, e1, e2;
  Vec3 at(int i, int j) const { return o + i * e1 + j * e2; }
  TriangleRef tri(const std::array<std::array<int, 2>, 3>& c) const {
    TriangleRef t;
    for (int k = 0; k < 3; ++k) {
      t.p[k] = at(c[k][0], c[k][1]);
      t.id[k] = c[k][0] + 10 * c[k][1];
    }
    return t;
  }
};

// Planes that are no coordinate plane, where the 3-D orientations are zero but not
// structurally so: tilted, and vertical like a tube's flat sides.
const std::array<Lattice, 2> kPlanes{Lattice{{0.5, -0.25, 1.0}, {0.75, 0.25, 0.5}, {-0.25, 0.5, 0.375}},
                                     Lattice{{0.125, 0.5, 0.0}, {0.5, 0.75, 0.0}, {0.0, 0.0, 1.0}}};
}  // namespace

TEST_CASE("triangles in one tilted plane: the 2-D proofs agree with an exact oracle", "[certify]") {
  SECTION("every pair of a flat triangulated grid is proven apart in projection") {
    std::mt19937 rng(59);
    for (const Lattice& plane : kPlanes) {
      std::vector<TriangleRef> tris;
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          const std::array<int, 2> a{i, j}, b{i + 1, j}, c{i + 1, j + 1}, d{i, j + 1};
          const bool diagonal_ac = rng() % 2;  // either diagonal, at random
          tris.push_back(diagonal_ac ? plane.tri({a, b, c}) : plane.tri({a, b, d}));
          tris.push_back(diagonal_ac ? plane.tri({a, c, d}) : plane.tri({b, c, d}));
        }
      for (std::size_t x = 0; x < tris.size(); ++x)
        for (std::size_t y = x + 1; y < tris.size(); ++y) {
          INFO("triangles " << x << " and " << y);
          REQUIRE_FALSE(meet_beyond_shared(tris[x], tris[y]));
          CHECK_FALSE(triangles_intersect(tris[x], tris[y]));
          CHECK(proven_apart_in_projection(tris[x], tris[y]));
        }
    }
  }
  SECTION("random triangles on the lattice, and with a corner nudged off the plane") {
    std::mt19937 rng(60);
    std::uniform_int_distribution<int> c(0, 3);
    int legal = 0, proven = 0;
    for (const Lattice& plane : kPlanes)
      for (int n = 0; n < 1500; ++n) {
        auto corners = [&] {
          return std::array<std::array<int, 2>, 3>{{{c(rng), c(rng)}, {c(rng), c(rng)}, {c(rng), c(rng)}}};
        };
        const TriangleRef s = plane.tri(corners());
        TriangleRef t = plane.tri(corners());
        if (n % 3 == 2)  // a corner that s lacks off the plane by 2^-k of the normal, with a new id
          for (int k = 0; k < 3; ++k)
            if (std::find(s.id.begin(), s.id.end(), t.id[k]) == s.id.end()) {
              t.p[k] += std::ldexp(1.0, -10 - n % 40) * plane.e1.cross(plane.e2);
              t.id[k] = 100;
              break;
            }
        if (triangle_is_degenerate(s.p[0], s.p[1], s.p[2]) || triangle_is_degenerate(t.p[0], t.p[1], t.p[2]))
          continue;
        const bool meet = meet_beyond_shared(s, t);
        INFO("pair " << n);
        CHECK(triangles_intersect(s, t) == meet);
        if (proven_apart_in_projection(s, t)) {
          CHECK_FALSE(meet);
          ++proven;
        }
        legal += !meet;
      }
    // The 2-D proofs decide most pairs that do not meet (a proof always failing fails this).
    CHECK(proven * 4 >= legal * 3);
  }
  SECTION("random triangles in space agree with the oracle") {
    std::mt19937 rng(61);
    std::uniform_int_distribution<int> c(0, 2);
    const auto point = [&] { return Vec3(c(rng), c(rng), c(rng)); };
    for (int n = 0; n < 3000; ++n) {
      // Ids from positions: equal positions are shared corners.
      const auto tri = [&] {
        TriangleRef t;
        for (int k = 0; k < 3; ++k) {
          t.p[k] = point();
          t.id[k] = static_cast<long>(t.p[k].x() + 3 * t.p[k].y() + 9 * t.p[k].z());
        }
        return t;
      };
      const TriangleRef s = tri(), t = tri();
      if (triangle_is_degenerate(s.p[0], s.p[1], s.p[2]) || triangle_is_degenerate(t.p[0], t.p[1], t.p[2]))
        continue;
      INFO("pair " << n);
      CHECK(triangles_intersect(s, t) == meet_beyond_shared(s, t));
    }
  }
}

TEST_CASE("a corner on or a hair off the other triangle's plane: the double-precision plane test agrees with an exact oracle",
          "[certify]") {
  // t's first corner is put in s's plane in doubles (so within round-off of it, on either
  // side) and moved 2^-k of s's normal off it, k up to 70, on either side; its other
  // corners are well above or below. Where round-off decides the sign, the filter in
  // doubles must leave the pair to exact arithmetic, never prove it apart.
  std::mt19937 rng(62);
  std::uniform_real_distribution<double> u(-1.0, 1.0), w(0.0, 1.0);
  int meet = 0, apart = 0;
  for (int n = 0; n < 4000; ++n) {
    TriangleRef s, t;
    for (int k = 0; k < 3; ++k) {
      s.p[k] = Vec3(u(rng), u(rng), u(rng));
      s.id[k] = k;
      t.id[k] = 3 + k;
    }
    const Vec3 normal = (s.p[1] - s.p[0]).cross(s.p[2] - s.p[0]);
    const auto in_plane = [&] {
      const double a = w(rng), b = w(rng) * (1.0 - a);  // mostly inside s
      return s.p[0] + a * (s.p[1] - s.p[0]) + b * (s.p[2] - s.p[0]);
    };
    const double side = n % 2 ? 1.0 : -1.0;
    t.p[0] = in_plane() + (n % 4 < 2 ? 1.0 : -1.0) * std::ldexp(1.0, -(n % 71)) * normal;
    t.p[1] = in_plane() + side * (0.1 + w(rng)) * normal + 0.3 * Vec3(u(rng), u(rng), u(rng));
    t.p[2] = in_plane() + side * (0.1 + w(rng)) * normal + 0.3 * Vec3(u(rng), u(rng), u(rng));
    if (n % 7 == 0) {  // share a corner
      t.p[1] = s.p[1];
      t.id[1] = 1;
    }
    if (triangle_is_degenerate(s.p[0], s.p[1], s.p[2]) || triangle_is_degenerate(t.p[0], t.p[1], t.p[2])) continue;
    INFO("pair " << n);
    const bool exact = meet_beyond_shared(s, t);
    CHECK(triangles_intersect(s, t) == exact);
    CHECK(triangles_intersect(t, s) == exact);
    (exact ? meet : apart)++;
  }
  INFO("meet " << meet << ", apart " << apart);
  CHECK(meet > 1000);  // both answers are exercised
  CHECK(apart > 1000);
}
