// Contact forces per contact and per body pair.
#include <catch2/catch.hpp>

#include "../collisions/contact_test_helpers.hpp"
#include "eipc/barrier/barrier.hpp"
#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/dynamics/contact_forces.hpp"
#include "eipc/friction/friction_potential.hpp"

#include <cmath>
#include <map>

using namespace eipc;
using eipc::test::unflatten;

TEST_CASE("ground contact: normal force up, friction opposes sliding with magnitude mu lambda", "[contact][forces]") {
  CollisionMesh mesh;
  mesh.rest.resize(1, 3);
  mesh.rest << 0, 0, 0.0004;
  mesh.faces.resize(0, 3);
  mesh.edges.resize(0, 2);
  mesh.vertex_body = {0};
  const double dhat = 1e-3, kappa = 1e4, mu = 0.8, eps_v = 1e-3, dt = 0.01;
  const ContactSet set = build_contact_set(mesh, mesh.rest, Candidates{}, dhat, 0.0);
  REQUIRE(set.size() == 1);
  const FrictionSet fs = build_friction_set(mesh, mesh.rest, set, dhat, kappa, mu, eps_v, dt);
  Positions x = mesh.rest;
  x.row(0) += Eigen::RowVector3d(0.003, -0.004, 0.0001);  // slides 5 mm >> eps_v h = 1e-5 m
  const auto fn = contact_normal_forces(x, set, dhat, kappa);
  const auto ff = contact_friction_forces(x, mesh.rest, fs);
  const double lambda = kappa * std::abs(barrier_first_derivative(0.0004, dhat));
  CHECK(fn[0].x() == 0);
  CHECK(fn[0].z() == Approx(-kappa * barrier_first_derivative(0.0005, dhat)));
  CHECK(fn[0].z() > 0);
  CHECK(ff[0].x() == Approx(-mu * lambda * 0.6));
  CHECK(ff[0].y() == Approx(mu * lambda * 0.8));
  CHECK(ff[0].z() == 0);
  const auto pairs = body_pair_forces(mesh, set, fn, fs, ff);
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].body_a == 0);
  CHECK(pairs[0].body_b == -1);
  CHECK(pairs[0].pairs == 1);
  CHECK(pairs[0].normal == fn[0]);
  CHECK(pairs[0].friction == ff[0]);
}

TEST_CASE("body pair forces equal minus the potential gradients summed over each body", "[contact][forces]") {
  // Triangles in a 3x2x1 grid: bodies 0..5, plus the ground.
  const auto soup = test::random_triangle_soup(3, 2, 1, 1.0, 0.05, 51);
  const double dhat = 0.5, kappa = 7.0, mu = 0.6, ground = soup.x.col(2).minCoeff() - 0.1;
  const ContactSet set = build_contact_set(soup.mesh, soup.x, soup.candidates, dhat, ground);
  const FrictionSet fs = build_friction_set(soup.mesh, soup.x, set, dhat, kappa, mu, 1e-3, 0.01);
  test::Random rng(52);
  const Positions x = unflatten(flat(soup.x) + 1e-3 * rng.vecx(soup.x.size()));
  const ContactSet set_x = build_contact_set(soup.mesh, x, soup.candidates, dhat, ground);
  const auto fn = contact_normal_forces(x, set_x, dhat, kappa);
  const auto ff = contact_friction_forces(x, soup.x, fs);
  const auto pairs = body_pair_forces(soup.mesh, set_x, fn, fs, ff);
  REQUIRE(pairs.size() > 3);

  // Net force on each body from all partners = -(gradient summed over its vertices).
  const VecX gb = barrier_potential_gradient(soup.mesh, x, set_x, dhat);
  const VecX gd = friction_potential_gradient(x, soup.x, fs);
  std::map<int, Vec3> normal, friction;
  for (int b = 0; b < 6; ++b) normal[b] = friction[b] = Vec3::Zero();
  for (const auto& p : pairs) {
    CHECK((p.body_b == -1 || p.body_a < p.body_b));
    normal[p.body_a] += p.normal;
    friction[p.body_a] += p.friction;
    if (p.body_b >= 0) {
      normal[p.body_b] -= p.normal;  // Newton's third law
      friction[p.body_b] -= p.friction;
    }
  }
  int total_pairs = 0;
  for (const auto& p : pairs) total_pairs += p.pairs;
  CHECK(total_pairs == static_cast<int>(set_x.size()));  // no self-contacts in this scene
  int touched = 0;
  for (int b = 0; b < 6; ++b) {
    Vec3 expect_n = Vec3::Zero(), expect_f = Vec3::Zero();
    for (int v = 3 * b; v < 3 * b + 3; ++v) {
      expect_n -= kappa * gb.segment<3>(3 * v);
      expect_f -= gd.segment<3>(3 * v);
    }
    INFO("body " << b << " normal " << normal[b].transpose() << " expected " << expect_n.transpose());
    if (expect_n.norm() > 0) ++touched;
    CHECK((normal[b] - expect_n).norm() <= 1e-12 * (1 + expect_n.norm()));
    CHECK((friction[b] - expect_f).norm() <= 1e-12 * (1 + expect_f.norm()));
  }
  CHECK(touched >= 4);  // the comparison is not vacuous
}
