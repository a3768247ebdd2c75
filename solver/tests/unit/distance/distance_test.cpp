// Squared distances: types against brute-force sampling, derivatives against finite differences.
#include <catch2/catch.hpp>

#include "../collisions/contact_test_helpers.hpp"
#include "eipc/distance/distance.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <vector>

using namespace eipc;
using eipc::test::block;
using eipc::test::fd_gradient;
using eipc::test::fd_jacobian;
using eipc::test::relative_error;
using PT = PointTriangleDistanceType;
using EE = EdgeEdgeDistanceType;

namespace {

// Closest sampled point of the triangle: barycentric grid with n steps per side.
double sampled_point_triangle_sq(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2, int n) {
  double best = INFINITY;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; i + j <= n; ++j) {
      const double a = double(i) / n, b = double(j) / n;
      best = std::min(best, (p - ((1 - a - b) * t0 + a * t1 + b * t2)).squaredNorm());
    }
  return best;
}
double sampled_edge_edge_sq(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1, int n) {
  double best = INFINITY;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const double s = double(i) / n, t = double(j) / n;
      best = std::min(best, ((a0 + s * (a1 - a0)) - (b0 + t * (b1 - b0))).squaredNorm());
    }
  return best;
}

struct PTCase {
  PT type;
  Vec3 p;
};
// Reference triangle (0,0,0), (1,0,0), (0,1,0) and a point whose closest feature is known.
const std::vector<PTCase> pt_cases = {
    {PT::P_T, {0.2, 0.2, 0.5}},    {PT::P_T0, {-0.5, -0.5, 0.3}}, {PT::P_T1, {1.5, -0.3, 0.2}},
    {PT::P_T2, {-0.3, 1.5, 0.2}},  {PT::P_E0, {0.5, -0.5, 0.2}},  {PT::P_E1, {0.8, 0.8, 0.1}},
    {PT::P_E2, {-0.5, 0.5, -0.2}},
};

struct EECase {
  EE type;
  Vec3 eb0, eb1;  // edge a is (0,0,0)-(1,0,0)
};
const std::vector<EECase> ee_cases = {
    {EE::EA_EB, {0.5, -1, 0.3}, {0.4, 1, 0.35}},   {EE::EA0_EB, {-0.5, -1, 0.3}, {-0.5, 1, 0.3}},
    {EE::EA1_EB, {1.5, -1, 0.3}, {1.5, 1, 0.2}},   {EE::EA_EB0, {0.5, 0.5, 0.3}, {0.5, 1.5, 0.3}},
    {EE::EA_EB1, {0.5, 1.5, 0.3}, {0.5, 0.5, 0.3}}, {EE::EA0_EB0, {-0.5, 0.5, 0.3}, {-0.5, 1.5, 0.3}},
    {EE::EA0_EB1, {-0.5, 1.5, 0.3}, {-0.5, 0.5, 0.3}}, {EE::EA1_EB0, {1.5, 0.5, 0.3}, {1.5, 1.5, 0.3}},
    {EE::EA1_EB1, {1.5, 1.5, 0.3}, {1.5, 0.5, 0.3}},
};

// A random rigid motion with scaling: distances scale by s^2, types are invariant.
struct Similarity {
  Mat3 R;
  Vec3 t;
  double s;
  Vec3 operator()(const Vec3& x) const { return s * (R * x) + t; }
};
Similarity random_similarity(test::Random& rng) {
  const Eigen::Quaterniond q(Eigen::Vector4d(rng.vec<4>()).normalized());
  return {q.toRotationMatrix(), rng.vec3(), rng.uniform(0.1, 3.0)};
}

}  // namespace

TEST_CASE("point-triangle distance type picks the closest feature", "[contact][distance]") {
  test::Random rng(1);
  const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
  for (const auto& c : pt_cases) {
    for (int rep = 0; rep < 5; ++rep) {
      const Similarity T = random_similarity(rng);
      const Vec3 p = T(c.p), a = T(t0), b = T(t1), d = T(t2);
      CHECK(point_triangle_distance_type(p, a, b, d) == c.type);
      // The chosen formula equals the true distance (here: brute force on a fine grid).
      const double exact = point_triangle_distance_sq(p, a, b, d);
      const double sampled = sampled_point_triangle_sq(p, a, b, d, 400);
      CHECK(std::sqrt(exact) <= std::sqrt(sampled) + 1e-12);
      CHECK(std::sqrt(sampled) - std::sqrt(exact) <= T.s * std::sqrt(2.0) / 400);
    }
  }
}

TEST_CASE("point-triangle distance matches brute-force sampling at random configurations", "[contact][distance]") {
  test::Random rng(2);
  const int n = 300;
  for (int rep = 0; rep < 60; ++rep) {
    const Vec3 p = rng.vec3(), t0 = rng.vec3(), t1 = rng.vec3(), t2 = rng.vec3();
    const double exact = point_triangle_distance_sq(p, t0, t1, t2);
    const double sampled = sampled_point_triangle_sq(p, t0, t1, t2, n);
    const double h = std::max({(t1 - t0).norm(), (t2 - t1).norm(), (t0 - t2).norm()}) / n;
    INFO("rep " << rep);
    CHECK(std::sqrt(exact) <= std::sqrt(sampled) + 1e-12);
    CHECK(std::sqrt(sampled) - std::sqrt(exact) <= h);
  }
}

TEST_CASE("edge-edge distance type picks the closest features", "[contact][distance]") {
  test::Random rng(3);
  const Vec3 a0(0, 0, 0), a1(1, 0, 0);
  for (const auto& c : ee_cases) {
    for (int rep = 0; rep < 5; ++rep) {
      const Similarity T = random_similarity(rng);
      const Vec3 x0 = T(a0), x1 = T(a1), y0 = T(c.eb0), y1 = T(c.eb1);
      CHECK(edge_edge_distance_type(x0, x1, y0, y1) == c.type);
      const double exact = edge_edge_distance_sq(x0, x1, y0, y1);
      const double sampled = sampled_edge_edge_sq(x0, x1, y0, y1, 400);
      CHECK(std::sqrt(exact) <= std::sqrt(sampled) + 1e-12);
      CHECK(std::sqrt(sampled) - std::sqrt(exact) <= ((x1 - x0).norm() + (y1 - y0).norm()) / 400);
    }
  }
}

TEST_CASE("edge-edge distance matches brute-force sampling at random configurations", "[contact][distance]") {
  test::Random rng(4);
  const int n = 400;
  for (int rep = 0; rep < 60; ++rep) {
    const Vec3 a0 = rng.vec3(), a1 = rng.vec3(), b0 = rng.vec3(), b1 = rng.vec3();
    const double exact = edge_edge_distance_sq(a0, a1, b0, b1);
    const double sampled = sampled_edge_edge_sq(a0, a1, b0, b1, n);
    INFO("rep " << rep);
    CHECK(std::sqrt(exact) <= std::sqrt(sampled) + 1e-12);
    CHECK(std::sqrt(sampled) - std::sqrt(exact) <= ((a1 - a0).norm() + (b1 - b0).norm()) / n);
  }
}

TEST_CASE("parallel edges fall back to point-edge and point-point types", "[contact][distance]") {
  const Vec3 a0(0, 0, 0), a1(1, 0, 0);
  SECTION("parallel, overlapping: interior of one edge to an endpoint of the other") {
    const Vec3 b0(0.3, 0.2, 0.1), b1(1.6, 0.2, 0.1);
    const EE type = edge_edge_distance_type(a0, a1, b0, b1);
    CHECK(type != EE::EA_EB);
    CHECK(edge_edge_distance_sq(a0, a1, b0, b1) == Approx(0.05).epsilon(1e-14));
  }
  SECTION("parallel, anti-aligned and disjoint along the axis: point-point") {
    const Vec3 b0(2.5, 0.0, 0.3), b1(1.5, 0.0, 0.3);
    CHECK(edge_edge_distance_type(a0, a1, b0, b1) == EE::EA1_EB1);
    CHECK(edge_edge_distance_sq(a0, a1, b0, b1) == Approx(0.25 + 0.09).epsilon(1e-14));
  }
  SECTION("collinear and disjoint") {
    const Vec3 b0(-2, 0, 0), b1(-0.5, 0, 0);
    CHECK(edge_edge_distance_type(a0, a1, b0, b1) == EE::EA0_EB1);
    CHECK(edge_edge_distance_sq(a0, a1, b0, b1) == Approx(0.25).epsilon(1e-14));
  }
  SECTION("one edge contained in the other's span") {
    const Vec3 b0(0.2, 0.1, 0.0), b1(0.7, 0.1, 0.0);
    const EE type = edge_edge_distance_type(a0, a1, b0, b1);
    CHECK((type == EE::EA_EB0 || type == EE::EA_EB1));
    CHECK(edge_edge_distance_sq(a0, a1, b0, b1) == Approx(0.01).epsilon(1e-14));
  }
  SECTION("nearly parallel (angle 1e-12) stays finite and matches sampling") {
    const Vec3 b0(0.3, 0.2, 0.1), b1(1.6, 0.2 + 1.3e-12, 0.1);
    const double exact = edge_edge_distance_sq(a0, a1, b0, b1);
    REQUIRE(std::isfinite(exact));
    const double sampled = sampled_edge_edge_sq(a0, a1, b0, b1, 400);
    CHECK(std::sqrt(exact) <= std::sqrt(sampled) + 1e-12);
    CHECK(std::sqrt(sampled) - std::sqrt(exact) <= 2.3 / 400);
    CHECK(std::sqrt(exact) == Approx(std::sqrt(0.05)).epsilon(1e-9));
    const Vec<12> g = edge_edge_distance_sq_gradient(a0, a1, b0, b1, edge_edge_distance_type(a0, a1, b0, b1));
    CHECK(g.allFinite());
  }
}

TEST_CASE("point-triangle distance derivatives match finite differences for every type", "[contact][distance][fd]") {
  test::Random rng(5);
  for (const auto& c : pt_cases) {
    for (int rep = 0; rep < 10; ++rep) {
      Vec<12> x;
      x << c.p, Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0);
      x += 0.05 * rng.vec<12>();
      auto f = [&](const Vec<12>& y) {
        return point_triangle_distance_sq(block(y, 0), block(y, 1), block(y, 2), block(y, 3), c.type);
      };
      auto g = [&](const Vec<12>& y) {
        return point_triangle_distance_sq_gradient(block(y, 0), block(y, 1), block(y, 2), block(y, 3), c.type);
      };
      const Mat<12> H = point_triangle_distance_sq_hessian(block(x, 0), block(x, 1), block(x, 2), block(x, 3), c.type);
      INFO("type " << int(c.type) << " rep " << rep);
      CHECK(relative_error(g(x), fd_gradient<12>(x, f, 1e-6)) < 1e-7);
      CHECK(relative_error(H, fd_jacobian<12>(x, g, 1e-6)) < 1e-7);
      CHECK(relative_error(H, Mat<12>(H.transpose())) < 1e-14);
    }
  }
}

TEST_CASE("edge-edge distance derivatives match finite differences for every type", "[contact][distance][fd]") {
  test::Random rng(6);
  for (const auto& c : ee_cases) {
    for (int rep = 0; rep < 10; ++rep) {
      Vec<12> x;
      x << Vec3(0, 0, 0), Vec3(1, 0, 0), c.eb0, c.eb1;
      x += 0.05 * rng.vec<12>();
      auto f = [&](const Vec<12>& y) {
        return edge_edge_distance_sq(block(y, 0), block(y, 1), block(y, 2), block(y, 3), c.type);
      };
      auto g = [&](const Vec<12>& y) {
        return edge_edge_distance_sq_gradient(block(y, 0), block(y, 1), block(y, 2), block(y, 3), c.type);
      };
      const Mat<12> H = edge_edge_distance_sq_hessian(block(x, 0), block(x, 1), block(x, 2), block(x, 3), c.type);
      INFO("type " << int(c.type) << " rep " << rep);
      CHECK(relative_error(g(x), fd_gradient<12>(x, f, 1e-6)) < 1e-7);
      CHECK(relative_error(H, fd_jacobian<12>(x, g, 1e-6)) < 1e-7);
    }
  }
}

TEST_CASE("primitive distances agree with analytic values", "[contact][distance]") {
  // point-plane: height above the plane; point-line: distance to the axis; line-line: offset.
  CHECK(point_plane_distance_sq({0.3, 5, 2}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}) == Approx(4.0));
  CHECK(point_line_distance_sq({7, 3, 4}, {0, 0, 0}, {2, 0, 0}) == Approx(25.0));
  CHECK(line_line_distance_sq({0, 0, 0}, {1, 0, 0}, {3, -1, 0.5}, {3, 1, 0.5}) == Approx(0.25));
  CHECK(point_point_distance_sq({1, 2, 3}, {1, 2, 5}) == Approx(4.0));
}
