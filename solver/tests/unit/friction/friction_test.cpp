// Smoothed friction: f0/f1, the lagged friction set and the friction potential.
#include <catch2/catch.hpp>

#include "../collisions/contact_test_helpers.hpp"
#include "eipc/testing/triplet_hessians.hpp"
#include "eipc/barrier/barrier.hpp"
#include "eipc/distance/edge_edge_mollifier.hpp"
#include "eipc/friction/friction_potential.hpp"
#include "eipc/friction/smooth_friction.hpp"
#include "eipc/util/parallel.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/SparseCore>
#include <cmath>
#include <optional>

using namespace eipc;
using eipc::test::fd_gradient;
using eipc::test::fd_jacobian;
using eipc::test::relative_error;
using eipc::test::dense;
using eipc::test::unflatten;

TEST_CASE("f0 and f1 follow the paper", "[contact][friction]") {
  const double e = 2e-3;
  CHECK(friction_f1(0, e) == 0);
  CHECK(friction_f1(e, e) == 1);
  CHECK(friction_f1(3 * e, e) == 1);
  CHECK(friction_f0(e, e) == Approx(e).epsilon(1e-15));
  CHECK(friction_f0(5 * e, e) == 5 * e);
  CHECK(friction_f0(0, e) == Approx(e / 3));
  for (double y : {1e-5, 5e-4, 1e-3, 1.9e-3, 2.5e-3, 1e-2}) {
    const double h = 1e-9;
    CHECK(friction_f1(y, e) == Approx((friction_f0(y + h, e) - friction_f0(y - h, e)) / (2 * h)).epsilon(1e-6));
    CHECK(friction_f1_over_y(y, e) == Approx(friction_f1(y, e) / y).epsilon(1e-14));
    const double d = (friction_f1_over_y(y + h, e) - friction_f1_over_y(y - h, e)) / (2 * h);
    CHECK(friction_f1_over_y_derivative_over_y(y, e) == Approx(d / y).epsilon(1e-5));
    if (y < e) CHECK(friction_f1(y, e) == Approx(-y * y / (e * e) + 2 * y / e));
  }
}

TEST_CASE("tangent basis is orthonormal and perpendicular to the normal", "[contact][friction]") {
  test::Random rng(31);
  for (int rep = 0; rep < 20; ++rep) {
    const Vec3 n = rng.vec3().normalized();
    const auto T = tangent_basis(n);
    CHECK((T.transpose() * T - Eigen::Matrix2d::Identity()).norm() < 1e-14);
    CHECK((T.transpose() * n).norm() < 1e-14);
  }
  const auto Tz = tangent_basis(Vec3::UnitZ());
  CHECK(Tz.col(0) == Vec3::UnitX());
  CHECK(Tz.col(1) == Vec3::UnitY());
}

TEST_CASE("friction set: lagged normal force, weights and basis", "[contact][friction]") {
  // Point 3 above triangle (0,1,2) at height 0.02; edges (4,5) and (6,7) crossing at distance 0.03.
  CollisionMesh mesh;
  mesh.rest.resize(8, 3);
  mesh.rest << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.25, 0.25, 0.02,  //
      2, 0, 0.5, 3, 0, 0.5, 2.5, -0.5, 0.53, 2.5, 0.5, 0.53;
  mesh.faces.resize(1, 3);
  mesh.faces << 0, 1, 2;
  mesh.edges.resize(2, 2);
  mesh.edges << 4, 5, 6, 7;
  mesh.vertex_body = {0, 0, 0, 1, 2, 2, 3, 3};
  const double dhat = 0.05, kappa = 1e4, mu = 0.5;
  const ContactSet set = build_contact_set(mesh, mesh.rest, Candidates{{{3, 0}}, {{0, 1}}}, dhat, -0.01);
  REQUIRE(set.size() == 6);  // PT, EE, ground for 0,1,2,3
  const FrictionSet fs = build_friction_set(mesh, mesh.rest, set, dhat, kappa, mu, 1e-3, 1e-2);
  REQUIRE(fs.size() == set.size());
  CHECK(fs.epsv_h == Approx(1e-5));
  const auto& pt = fs.contacts[0];
  CHECK(pt.normal_force == Approx(kappa * std::abs(barrier_first_derivative(0.02, dhat))));
  CHECK(pt.weights[0] == 1);
  CHECK(pt.weights[1] == Approx(-0.5));
  CHECK(pt.weights[2] == Approx(-0.25));
  CHECK(pt.weights[3] == Approx(-0.25));
  CHECK((pt.basis.transpose() * Vec3::UnitZ()).norm() < 1e-14);
  const auto& ee = fs.contacts[1];
  const double m = edge_edge_mollifier(mesh.rest.row(4).transpose(), mesh.rest.row(5).transpose(),
                                       mesh.rest.row(6).transpose(), mesh.rest.row(7).transpose(), set.contacts[1].eps_x);
  CHECK(ee.normal_force == Approx(kappa * m * std::abs(barrier_first_derivative(0.03, dhat))));
  CHECK(ee.weights[0] == Approx(0.5));
  CHECK(ee.weights[1] == Approx(0.5));
  CHECK(ee.weights[2] == Approx(-0.5));
  CHECK(ee.weights[3] == Approx(-0.5));
  const auto& g = fs.contacts[2];
  CHECK(g.kind == ContactKind::point_ground);
  CHECK(g.normal_force == Approx(kappa * std::abs(barrier_first_derivative(0.01, dhat))));
  CHECK(g.basis.col(0) == Vec3::UnitX());
  // Lagged relative displacement: zero at x^n, blind to normal motion, sees tangential motion.
  Positions x = mesh.rest;
  CHECK(friction_relative_displacement(pt, x, mesh.rest).norm() == 0);
  x(3, 2) += 0.01;
  CHECK(friction_relative_displacement(pt, x, mesh.rest).norm() < 1e-15);
  x(3, 0) += 0.003;
  CHECK(friction_relative_displacement(pt, x, mesh.rest).norm() == Approx(0.003));
  x.row(0) += Eigen::RowVector3d(0.003, 0, 0);
  x.row(1) += Eigen::RowVector3d(0.003, 0, 0);
  x.row(2) += Eigen::RowVector3d(0.003, 0, 0);  // triangle follows: no relative motion
  CHECK(friction_relative_displacement(pt, x, mesh.rest).norm() < 1e-15);
}

TEST_CASE("friction potential derivatives match finite differences (sliding and sticking)", "[contact][friction][fd]") {
  const auto soup = test::random_triangle_soup(3, 2, 1, 1.0, 0.05, 41);
  const double dhat = 0.5, kappa = 10, mu = 0.7, dt = 0.01;
  const double ground = soup.x.col(2).minCoeff() - 0.1;
  const ContactSet set = build_contact_set(soup.mesh, soup.x, soup.candidates, dhat, ground);
  REQUIRE(set.size() > 10);
  test::Random rng(42);
  for (double eps_v : {1e-3, 1.0}) {  // e = 1e-5: sliding for displacements ~1e-2; e = 1e-2: ...
    const FrictionSet fs = build_friction_set(soup.mesh, soup.x, set, dhat, kappa, mu, eps_v, dt);
    for (double scale : {1e-2, 1e-3}) {
      const VecX x0 = flat(soup.x) + scale * rng.vecx(flat(soup.x).size());
      int sliding = 0, sticking = 0;
      double ymin = INFINITY;
      for (const auto& c : fs.contacts) {
        const double y = friction_relative_displacement(c, unflatten(x0), soup.x).norm();
        ymin = std::min(ymin, y);
        (y >= fs.epsv_h ? sliding : sticking)++;
      }
      CHECK(ymin > 1e-6);  // away from the u = 0 point where f0(|u|) is only C^2
      INFO("eps_v " << eps_v << " scale " << scale << " sliding " << sliding << " sticking " << sticking);
      if (eps_v == 1e-3) CHECK(sticking == 0);
      if (eps_v == 1.0 && scale == 1e-3) CHECK(sliding == 0);
      auto f = [&](const VecX& y) { return friction_potential(unflatten(y), soup.x, fs); };
      auto g = [&](const VecX& y) { return friction_potential_gradient(unflatten(y), soup.x, fs); };
      const double h = 1e-4 * std::min(scale, fs.epsv_h);
      CHECK(relative_error(g(x0), fd_gradient(x0, f, h)) < 1e-6);
      const MatX H = dense(friction_potential_hessian(unflatten(x0), soup.x, fs, false), x0.size());
      CHECK(relative_error(H, fd_jacobian(x0, g, h)) < 1e-6);
      const MatX P = dense(friction_potential_hessian(unflatten(x0), soup.x, fs, true), x0.size());
      CHECK(Eigen::SelfAdjointEigenSolver<MatX>(P).eigenvalues().minCoeff() > -1e-10 * P.norm());
      CHECK(relative_error(P, H) < 1e-9);  // the exact Hessian of f0(|u|) is already PSD
    }
  }
}

TEST_CASE("friction assembly is bit-identical for 1 and 2 threads", "[contact][friction][determinism]") {
  const auto soup = test::random_triangle_soup(6, 6, 6, 0.2, 0.01, 43);
  const double dhat = 0.1;
  test::Random rng(44);
  const Positions x = unflatten(flat(soup.x) + 1e-3 * rng.vecx(soup.x.size()));
  auto run = [&](int threads) {
    ThreadLimit limit(threads);
    std::optional<ForceParallel> force;  // every loop through TBB, however small
    if (threads > 1) force.emplace();
    const ContactSet set = build_contact_set(soup.mesh, soup.x, soup.candidates, dhat, 0.0);
    const FrictionSet fs = build_friction_set(soup.mesh, soup.x, set, dhat, 1e4, 0.5, 1e-3, 0.01);
    return std::make_tuple(friction_potential(x, soup.x, fs), friction_potential_gradient(x, soup.x, fs),
                           friction_potential_hessian(x, soup.x, fs, true), fs.size());
  };
  const auto [e1, g1, h1, n1] = run(1);
  const auto [e2, g2, h2, n2] = run(2);
  CHECK(n1 > 1000);
  CHECK(e1 == e2);
  CHECK((g1.array() == g2.array()).all());
  REQUIRE(h1.size() == h2.size());
  bool same = true;
  for (std::size_t i = 0; i < h1.size(); ++i) same = same && h1[i].value() == h2[i].value() && h1[i].row() == h2[i].row();
  CHECK(same);
}

TEST_CASE("stick crossings: where a sliding contact's straight path passes through its stick zone",
          "[contact][friction]") {
  // Point-ground contacts, one vertex each, x^n = 0 so u = (x, y) of the vertex; e = 1e-5.
  const std::vector<std::pair<Eigen::Vector2d, Eigen::Vector2d>> paths = {
      {{1e-3, 0}, {-1e-3, 1e-6}},  // reverses through the stick zone halfway: alpha ~ 0.5
      {{1e-3, 0}, {-1e-3, 1e-3}},  // reverses but passes 7e-4 from u = 0: no kink
      {{5e-6, 0}, {-1e-3, 0}},     // starts sticking: Newton's model has its curvature
      {{1e-3, 0}, {2e-3, 0}},      // slides on, away from u = 0
      {{1e-3, 0}, {-1e-4, 0}},     // reaches u = 0 at alpha = 1 / 1.1
      {{1e-3, 0}, {5e-4, 0}},      // would reach u = 0 only at alpha = 2
  };
  FrictionSet friction;
  friction.epsv_h = 1e-5;
  Positions x0 = Positions::Zero(paths.size(), 3), x1 = x0;
  for (std::size_t k = 0; k < paths.size(); ++k) {
    FrictionContact c;
    c.kind = ContactKind::point_ground;
    c.vertices[0] = static_cast<int>(k);
    c.weights[0] = 1;
    c.basis = tangent_basis(Vec3::UnitZ());
    friction.contacts.push_back(c);
    x0.row(k).head<2>() = paths[k].first.transpose();
    x1.row(k).head<2>() = paths[k].second.transpose();
  }
  const std::vector<double> alphas = friction_stick_crossings(x0, x1, Positions::Zero(paths.size(), 3), friction);
  REQUIRE(alphas.size() == 2);
  CHECK(alphas[0] == Approx(1 / 1.1).epsilon(1e-12));
  CHECK(alphas[1] == Approx(0.5).epsilon(1e-6));
}
