// Barrier b(d), the edge-edge mollifier and the per-contact mollified barrier energy.
#include <catch2/catch.hpp>

#include "../collisions/contact_test_helpers.hpp"
#include "eipc/barrier/barrier.hpp"
#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/distance/closest_point.hpp"
#include "eipc/distance/distance.hpp"
#include "eipc/distance/edge_edge_mollifier.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>

using namespace eipc;
using eipc::test::block;
using eipc::test::fd_gradient;
using eipc::test::fd_jacobian;
using eipc::test::relative_error;

namespace {
double fd1(double (*f)(double, double), double x, double p, double h) { return (f(x + h, p) - f(x - h, p)) / (2 * h); }

Positions positions_of(const Vec<12>& x, int n) {
  Positions p(n, 3);
  for (int i = 0; i < n; ++i) p.row(i) = x.segment<3>(3 * i).transpose();
  return p;
}
}  // namespace

TEST_CASE("barrier matches the paper's definition and its derivatives", "[contact][barrier]") {
  const double dhat = 1e-3;
  for (double d : {1e-6, 1e-5, 2e-4, 5e-4, 9.9e-4}) {
    CHECK(barrier(d, dhat) == Approx(-(d - dhat) * (d - dhat) * std::log(d / dhat)).epsilon(1e-14));
    CHECK(barrier_first_derivative(d, dhat) == Approx(fd1(barrier, d, dhat, d * 1e-6)).epsilon(1e-6));
    CHECK(barrier_second_derivative(d, dhat) ==
          Approx(fd1(barrier_first_derivative, d, dhat, d * 1e-6)).epsilon(1e-6));
    CHECK(barrier(d, dhat) > 0);
    CHECK(barrier_first_derivative(d, dhat) < 0);
    CHECK(barrier_second_derivative(d, dhat) > 0);
    // Squared-distance parametrisation is the same function of s = d^2.
    const double s = d * d;
    auto b_of_s = [](double s_, double dh) { return barrier(std::sqrt(s_), dh); };
    CHECK(barrier_sq_first_derivative(s, dhat) ==
          Approx((b_of_s(s * (1 + 1e-6), dhat) - b_of_s(s * (1 - 1e-6), dhat)) / (2e-6 * s)).epsilon(1e-6));
    auto db_of_s = [](double s_, double dh) { return barrier_sq_first_derivative(s_, dh); };
    CHECK(barrier_sq_second_derivative(s, dhat) ==
          Approx((db_of_s(s * (1 + 1e-6), dhat) - db_of_s(s * (1 - 1e-6), dhat)) / (2e-6 * s)).epsilon(1e-6));
  }
  // C^1 at dhat and zero beyond; infinite for intersecting states.
  CHECK(barrier(dhat, dhat) == 0);
  CHECK(barrier(2 * dhat, dhat) == 0);
  CHECK(barrier_first_derivative(dhat * (1 - 1e-9), dhat) == Approx(0).margin(1e-12));
  CHECK(std::isinf(barrier(0.0, dhat)));
}

TEST_CASE("mollifier scalar function and its derivatives", "[contact][mollifier]") {
  const double eps = 0.3;
  CHECK(mollifier(0.0, eps) == 0);
  CHECK(mollifier(eps, eps) == 1);
  CHECK(mollifier(2 * eps, eps) == 1);
  CHECK(mollifier_first_derivative(eps * (1 - 1e-12), eps) == Approx(0).margin(1e-10));
  for (double c : {0.01, 0.1, 0.2, 0.29}) {
    CHECK(mollifier(c, eps) == Approx(-c * c / (eps * eps) + 2 * c / eps));
    CHECK(mollifier_first_derivative(c, eps) == Approx(fd1(mollifier, c, eps, 1e-6)).epsilon(1e-7));
    CHECK(mollifier_second_derivative(c, eps) == Approx(fd1(mollifier_first_derivative, c, eps, 1e-6)).epsilon(1e-7));
  }
}

TEST_CASE("edge-edge mollifier derivatives match finite differences", "[contact][mollifier][fd]") {
  test::Random rng(11);
  int active = 0;
  for (int rep = 0; rep < 30; ++rep) {
    // Nearly parallel edges: c = |ea x eb|^2 well below eps_x.
    Vec<12> x;
    x << Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.2, 0.1, 0.05), Vec3(1.3, 0.1, 0.05);
    x += 0.01 * rng.vec<12>();
    const double eps_x = edge_edge_mollifier_threshold(block(x, 0), block(x, 1), block(x, 2), block(x, 3));
    auto f = [&](const Vec<12>& y) { return edge_edge_mollifier(block(y, 0), block(y, 1), block(y, 2), block(y, 3), eps_x); };
    auto g = [&](const Vec<12>& y) {
      return edge_edge_mollifier_gradient(block(y, 0), block(y, 1), block(y, 2), block(y, 3), eps_x);
    };
    const Mat<12> H = edge_edge_mollifier_hessian(block(x, 0), block(x, 1), block(x, 2), block(x, 3), eps_x);
    if (f(x) < 1) ++active;
    INFO("rep " << rep << " m " << f(x));
    CHECK(relative_error(g(x), fd_gradient<12>(x, f, 1e-7)) < 1e-6);
    CHECK(relative_error(H, fd_jacobian<12>(x, g, 1e-7)) < 1e-6);
  }
  CHECK(active > 20);  // the test exercises the smoothing region
}

TEST_CASE("per-contact barrier energy: value and finite-difference derivatives", "[contact][barrier][fd]") {
  const double dhat = 1.0;  // unit scale keeps finite differences well conditioned
  test::Random rng(12);

  SECTION("point-triangle, every distance type") {
    using PT = PointTriangleDistanceType;
    const std::pair<PT, Vec3> cases[] = {{PT::P_T, {0.2, 0.2, 0.5}},   {PT::P_T0, {-0.3, -0.3, 0.3}},
                                         {PT::P_T1, {1.3, -0.2, 0.2}}, {PT::P_T2, {-0.2, 1.3, 0.2}},
                                         {PT::P_E0, {0.5, -0.4, 0.2}}, {PT::P_E1, {0.7, 0.7, 0.1}},
                                         {PT::P_E2, {-0.4, 0.5, -0.2}}};
    for (const auto& [type, p] : cases)
      for (int rep = 0; rep < 5; ++rep) {
        Vec<12> x0;
        x0 << p, Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0);
        x0 += 0.03 * rng.vec<12>();
        Contact c;
        c.kind = ContactKind::point_triangle;
        c.vertices = {0, 1, 2, 3};
        c.pt_type = type;
        REQUIRE(point_triangle_distance_type(block(x0, 0), block(x0, 1), block(x0, 2), block(x0, 3)) == type);
        auto f = [&](const Vec<12>& y) { return contact_barrier(c, positions_of(y, 4), dhat, std::nullopt); };
        auto g = [&](const Vec<12>& y) { return contact_barrier_gradient(c, positions_of(y, 4), dhat, std::nullopt); };
        const double d = std::sqrt(point_triangle_distance_sq(block(x0, 0), block(x0, 1), block(x0, 2), block(x0, 3)));
        INFO("type " << int(type));
        CHECK(f(x0) == Approx(-(d - dhat) * (d - dhat) * std::log(d / dhat)).epsilon(1e-12));
        CHECK(relative_error(g(x0), fd_gradient<12>(x0, f, 1e-6)) < 1e-6);
        const Mat<12> H = contact_barrier_hessian(c, positions_of(x0, 4), dhat, std::nullopt, false);
        CHECK(relative_error(H, fd_jacobian<12>(x0, g, 1e-6)) < 1e-6);
        const Mat<12> P = contact_barrier_hessian(c, positions_of(x0, 4), dhat, std::nullopt, true);
        CHECK(Eigen::SelfAdjointEigenSolver<Mat<12>>(P).eigenvalues().minCoeff() > -1e-10 * P.norm());
      }
  }

  SECTION("edge-edge, every distance type, far from and near parallel (mollified)") {
    using EE = EdgeEdgeDistanceType;
    const std::pair<EE, std::pair<Vec3, Vec3>> cases[] = {
        {EE::EA_EB, {{0.5, -1, 0.3}, {0.4, 1, 0.35}}},   {EE::EA0_EB, {{-0.3, -1, 0.3}, {-0.3, 1, 0.3}}},
        {EE::EA1_EB, {{1.3, -1, 0.3}, {1.3, 1, 0.2}}},   {EE::EA_EB0, {{0.5, 0.3, 0.3}, {0.5, 1.5, 0.3}}},
        {EE::EA_EB1, {{0.5, 1.5, 0.3}, {0.5, 0.3, 0.3}}}, {EE::EA0_EB0, {{-0.3, 0.3, 0.3}, {-0.3, 1.5, 0.3}}},
        {EE::EA0_EB1, {{-0.3, 1.5, 0.3}, {-0.3, 0.3, 0.3}}}, {EE::EA1_EB0, {{1.3, 0.3, 0.3}, {1.3, 1.5, 0.3}}},
        {EE::EA1_EB1, {{1.3, 1.5, 0.3}, {1.3, 0.3, 0.3}}},
        // nearly parallel: EA_EB0 and EA_EB with c < eps_x
        {EE::EA_EB0, {{0.3, 0.2, 0.1}, {1.6, 0.21, 0.1}}}, {EE::EA_EB, {{-0.2, 0.01, 0.1}, {1.2, -0.01, 0.1}}}};
    for (const auto& [type, eb] : cases)
      for (int rep = 0; rep < 5; ++rep) {
        Vec<12> x0;
        x0 << Vec3(0, 0, 0), Vec3(1, 0, 0), eb.first, eb.second;
        // Near-parallel closest points move fast with the edge directions: perturb less.
        const bool near_parallel = std::abs(eb.first.y() - eb.second.y()) < 0.05;
        x0 += (near_parallel ? 2e-5 : 2e-3) * rng.vec<12>();
        INFO("x0 " << x0.transpose() << " st "
                   << edge_edge_closest_parameters(block(x0, 0), block(x0, 1), block(x0, 2), block(x0, 3), EE::EA_EB).transpose());
        REQUIRE(edge_edge_distance_type(block(x0, 0), block(x0, 1), block(x0, 2), block(x0, 3)) == type);
        Contact c;
        c.kind = ContactKind::edge_edge;
        c.vertices = {0, 1, 2, 3};
        c.ee_type = type;
        c.eps_x = edge_edge_mollifier_threshold(block(x0, 0), block(x0, 1), block(x0, 2), block(x0, 3));
        auto f = [&](const Vec<12>& y) { return contact_barrier(c, positions_of(y, 4), dhat, std::nullopt); };
        auto g = [&](const Vec<12>& y) { return contact_barrier_gradient(c, positions_of(y, 4), dhat, std::nullopt); };
        const double m = edge_edge_mollifier(block(x0, 0), block(x0, 1), block(x0, 2), block(x0, 3), c.eps_x);
        const double d = std::sqrt(edge_edge_distance_sq(block(x0, 0), block(x0, 1), block(x0, 2), block(x0, 3)));
        INFO("type " << int(type) << " m " << m);
        if (near_parallel) CHECK(m < 0.9);  // these cases exercise the mollified energy
        CHECK(f(x0) == Approx(-m * (d - dhat) * (d - dhat) * std::log(d / dhat)).epsilon(1e-12));
        CHECK(relative_error(g(x0), fd_gradient<12>(x0, f, 1e-7)) < 1e-6);
        const Mat<12> H = contact_barrier_hessian(c, positions_of(x0, 4), dhat, std::nullopt, false);
        CHECK(relative_error(H, fd_jacobian<12>(x0, g, 1e-7)) < 1e-6);
        const Mat<12> P = contact_barrier_hessian(c, positions_of(x0, 4), dhat, std::nullopt, true);
        CHECK(Eigen::SelfAdjointEigenSolver<Mat<12>>(P).eigenvalues().minCoeff() > -1e-10 * P.norm());
      }
  }

  SECTION("point-ground") {
    const double h = -0.2, dh = 1e-3;
    Contact c;
    c.kind = ContactKind::point_ground;
    c.vertices = {0, -1, -1, -1};
    for (double z : {h + 1e-5, h + 3e-4, h + 9e-4}) {
      Vec<12> x0 = Vec<12>::Zero();
      x0.head<3>() = Vec3(0.3, -0.1, z);
      auto f = [&](const Vec<12>& y) { return contact_barrier(c, positions_of(y, 1), dh, h); };
      auto g = [&](const Vec<12>& y) { return contact_barrier_gradient(c, positions_of(y, 1), dh, h); };
      const double d = z - h;
      CHECK(f(x0) == Approx(-(d - dh) * (d - dh) * std::log(d / dh)).epsilon(1e-10));
      CHECK(relative_error(g(x0), fd_gradient<12>(x0, f, d * 1e-5)) < 1e-6);
      const Mat<12> H = contact_barrier_hessian(c, positions_of(x0, 1), dh, h, false);
      CHECK(relative_error(H, fd_jacobian<12>(x0, g, d * 1e-5)) < 1e-6);
    }
  }
}
