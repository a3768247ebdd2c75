// Contact set construction and the assembled barrier potential over a collision mesh.
#include <catch2/catch.hpp>

#include "../collisions/contact_test_helpers.hpp"
#include "eipc/testing/triplet_hessians.hpp"
#include "eipc/barrier/barrier.hpp"
#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/distance/distance.hpp"
#include "eipc/collisions/minimum_distance.hpp"
#include "eipc/util/parallel.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCore>
#include <cmath>
#include <optional>

using namespace eipc;
using eipc::test::fd_gradient;
using eipc::test::fd_jacobian;
using eipc::test::relative_error;
using eipc::test::dense;
using eipc::test::unflatten;

TEST_CASE("contact set keeps pairs closer than dhat and skips shared vertices", "[contact][contact_set]") {
  // Two triangles of one body sharing vertex 0 and an independent vertex 4 above triangle 0.
  CollisionMesh mesh;
  mesh.rest.resize(5, 3);
  mesh.rest << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.2, 0.2, 0.05;
  mesh.faces.resize(2, 3);
  mesh.faces << 0, 1, 2, 0, 1, 3;
  mesh.edges.resize(5, 2);
  mesh.edges << 0, 1, 0, 2, 0, 3, 1, 2, 1, 3;
  mesh.vertex_body = {0, 0, 0, 0, 1};
  Candidates cand;
  cand.point_triangle = {{2, 1}, {3, 0}, {4, 0}, {4, 1}};  // 2-face1 and 3-face0: far; 4: close to face 0 only
  cand.edge_edge = {{0, 3}, {1, 4}};                        // (0,1)-(1,2) share vertex 1; (0,2)-(1,3) far
  const Positions x = mesh.rest;
  const ContactSet set = build_contact_set(mesh, x, cand, 0.1, -0.08);
  // PT: vertex 4 to face 0 (d = 0.05); ground: vertices 0,1,2 (z - (-0.08) < 0.1; vertex 4 is at 0.13).
  REQUIRE(set.size() == 4);
  CHECK(set.contacts[0].kind == ContactKind::point_triangle);
  CHECK(set.contacts[0].vertices == std::array<int, 4>{4, 0, 1, 2});
  CHECK(set.contacts[0].pt_type == PointTriangleDistanceType::P_T);
  for (int k = 1; k < 4; ++k) CHECK(set.contacts[k].kind == ContactKind::point_ground);
  CHECK(set.contacts[3].vertices[0] == 2);
  CHECK(contact_distance(set.contacts[0], x, set.ground_height) == Approx(0.05));
  CHECK(minimum_distance(mesh, x, cand, -0.08) == Approx(0.05));
  CHECK(std::isinf(minimum_distance(mesh, x, Candidates{}, std::nullopt)));
  // Barrier value is the sum of b over the four contacts.
  const double expected = barrier(0.05, 0.1) + 3 * barrier(0.08, 0.1);
  CHECK(barrier_potential(mesh, x, set, 0.1) == Approx(expected).epsilon(1e-14));
}

TEST_CASE("edge-edge contacts store eps_x from the rest positions", "[contact][contact_set]") {
  CollisionMesh mesh;
  mesh.rest.resize(4, 3);
  mesh.rest << 0, 0, 0, 2, 0, 0, 0.5, -1, 0.05, 0.5, 2, 0.05;
  mesh.edges.resize(2, 2);
  mesh.edges << 0, 1, 2, 3;
  mesh.faces.resize(0, 3);
  mesh.vertex_body = {0, 0, 1, 1};
  Positions x = mesh.rest;
  x.row(3) << 0.5, 0.5, 0.05;  // deformed: edge b shorter than at rest
  const ContactSet set = build_contact_set(mesh, x, Candidates{{}, {{0, 1}}}, 0.1);
  REQUIRE(set.size() == 1);
  CHECK(set.contacts[0].ee_type == EdgeEdgeDistanceType::EA_EB);
  CHECK(set.contacts[0].eps_x == Approx(1e-3 * 4 * 9));
}

TEST_CASE("minimum distance equals the brute-force minimum over candidates", "[contact][contact_set]") {
  const auto soup = test::random_triangle_soup(3, 2, 2, 0.5, 0.01, 21);
  double brute = INFINITY;
  const auto& m = soup.mesh;
  auto row = [&](int i) -> Vec3 { return soup.x.row(i).transpose(); };
  for (const auto& c : soup.candidates.point_triangle)
    brute = std::min(brute, point_triangle_distance_sq(row(c.vertex), row(m.faces(c.face, 0)), row(m.faces(c.face, 1)),
                                                       row(m.faces(c.face, 2))));
  for (const auto& c : soup.candidates.edge_edge)
    brute = std::min(brute, edge_edge_distance_sq(row(m.edges(c.edge_a, 0)), row(m.edges(c.edge_a, 1)),
                                                  row(m.edges(c.edge_b, 0)), row(m.edges(c.edge_b, 1))));
  CHECK(minimum_distance(m, soup.x, soup.candidates) == std::sqrt(brute));
  CHECK(minimum_distance(m, soup.x, soup.candidates, -1.0) == std::sqrt(brute));
  CHECK(minimum_distance(m, soup.x, soup.candidates, soup.x.col(2).minCoeff() - 1e-4) == Approx(1e-4));

  // From the contacts: the same minimum when the closest pair is within dhat, a
  // candidate pass when nothing is.
  const double closest = std::sqrt(brute);
  for (const double dhat : {2.0 * closest, 0.5 * closest}) {
    const ContactSet contacts = build_contact_set(m, soup.x, soup.candidates, dhat);
    CHECK(contacts.empty() == (dhat < closest));
    bool asked = false;
    const auto candidates = [&]() -> const Candidates& {
      asked = true;
      return soup.candidates;
    };
    CHECK(minimum_distance(m, soup.x, contacts, candidates) == Approx(closest).epsilon(1e-12));
    CHECK(asked == contacts.empty());  // the candidates only when no pair is a contact
  }
  const double ground = soup.x.col(2).minCoeff() - 0.1 * closest;
  const ContactSet with_ground = build_contact_set(m, soup.x, soup.candidates, 2.0 * closest, ground);
  CHECK(minimum_distance(m, soup.x, with_ground, [&]() -> const Candidates& { return soup.candidates; }) ==
        Approx(0.1 * closest).epsilon(1e-9));
}

TEST_CASE("barrier potential gradient and Hessian match finite differences", "[contact][barrier][fd]") {
  const auto soup = test::random_triangle_soup(3, 2, 1, 1.0, 0.05, 22);
  const double dhat = 0.3;
  const double ground = soup.x.col(2).minCoeff() - 0.1;
  const ContactSet set = build_contact_set(soup.mesh, soup.x, soup.candidates, dhat, ground);
  int pt = 0, ee = 0, pg = 0;
  for (const auto& c : set.contacts)
    (c.kind == ContactKind::point_triangle ? pt : c.kind == ContactKind::edge_edge ? ee : pg)++;
  INFO("pt " << pt << " ee " << ee << " ground " << pg);
  REQUIRE(pt > 0);
  REQUIRE(ee > 0);
  REQUIRE(pg > 0);
  const VecX x0 = flat(soup.x);
  auto f = [&](const VecX& y) { return barrier_potential(soup.mesh, unflatten(y), set, dhat); };
  auto g = [&](const VecX& y) { return barrier_potential_gradient(soup.mesh, unflatten(y), set, dhat); };
  const VecX grad = g(x0);
  CHECK(relative_error(grad, fd_gradient(x0, f, 1e-7)) < 1e-6);
  const MatX H = dense(barrier_potential_hessian(soup.mesh, soup.x, set, dhat, false), x0.size());
  CHECK(relative_error(H, fd_jacobian(x0, g, 1e-7)) < 1e-6);
  // Projected: PSD, and equal to the exact Hessian where a contact's block already was PSD.
  const MatX P = dense(barrier_potential_hessian(soup.mesh, soup.x, set, dhat, true), x0.size());
  Eigen::SelfAdjointEigenSolver<MatX> eig(P);
  CHECK(eig.eigenvalues().minCoeff() > -1e-9 * P.norm());
  CHECK(Eigen::SelfAdjointEigenSolver<MatX>(H).eigenvalues().minCoeff() < -1e-6 * H.norm());  // the projection matters
}

TEST_CASE("barrier assembly is bit-identical for 1 and 2 threads", "[contact][barrier][determinism]") {
  const auto soup = test::random_triangle_soup(6, 6, 6, 0.2, 0.01, 23);
  const double dhat = 0.1;
  auto run = [&](int threads) {
    ThreadLimit limit(threads);
    std::optional<ForceParallel> force;  // every loop through TBB, however small
    if (threads > 1) force.emplace();
    const ContactSet set = build_contact_set(soup.mesh, soup.x, soup.candidates, dhat, 0.0);
    const double e = barrier_potential(soup.mesh, soup.x, set, dhat);
    const VecX g = barrier_potential_gradient(soup.mesh, soup.x, set, dhat);
    const auto h = barrier_potential_hessian(soup.mesh, soup.x, set, dhat, true);
    return std::make_tuple(set.size(), e, g, h, minimum_distance(soup.mesh, soup.x, soup.candidates, 0.0));
  };
  const auto [n1, e1, g1, h1, m1] = run(1);
  const auto [n2, e2, g2, h2, m2] = run(2);
  INFO("contacts " << n1);
  CHECK(n1 > 1000);
  CHECK(n1 == n2);
  CHECK(e1 == e2);
  CHECK(m1 == m2);
  CHECK((g1.array() == g2.array()).all());
  REQUIRE(h1.size() == h2.size());
  bool same = true;
  for (std::size_t i = 0; i < h1.size(); ++i)
    same = same && h1[i].row() == h2[i].row() && h1[i].col() == h2[i].col() && h1[i].value() == h2[i].value();
  CHECK(same);
}

