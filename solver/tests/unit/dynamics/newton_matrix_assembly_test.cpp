// The Newton matrix assembled in place (fixed pattern + growing contact
// pattern, damping added value by value) against an independent triplet
// assembly: M + h^2 K + beta h K(q^n) + AL diagonal + h^2 J^T (kappa H_b + H_f) J,
// with friction contacts on the same vertices as barrier contacts or not.
#include "eipc/testing/triplet_hessians.hpp"
#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/friction/friction_potential.hpp"
#include "eipc/dynamics/incremental_potential.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/surface.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace eipc;

namespace {

struct Scene {
  SimulationParams params;
  DofSystem sys;
};

Scene two_boxes() {
  Material m;
  m.youngs = 1e4;
  const TetMesh lower = box_tet_mesh(Vec3(0, 0, 4e-4), Vec3(0.1, 0.1, 0.1004), 2, 2, 2);
  const TetMesh upper = box_tet_mesh(Vec3(0.03, 0.02, 0.1008), Vec3(0.08, 0.07, 0.1508), 2, 2, 2);
  Body a = make_full_space_body("a", lower.vertices, lower.tets, boundary_faces(lower.tets), m);
  a.rayleigh_beta = 0.01;
  const Body full_b = make_full_space_body("b", upper.vertices, upper.tets, boundary_faces(upper.tets), m);
  Body b = embed_body(full_b, lattice_embedding(full_b.fine_rest, 12), "low", "test");
  b.rayleigh_beta = 0.03;
  SimulationParams p;
  p.dt = 0.01;
  p.ground_height = 0.0;
  p.contact.friction = 0.4;
  return {p, DofSystem({a, b})};
}

/// f(body, triplet) for every projected elastic Hessian entry of every elastic body at q.
template <class F>
void for_each_stiffness_entry(const DofSystem& sys, const Positions& q, F f) {
  for (std::size_t i = 0; i < sys.elastic_bodies().size(); ++i) {
    const int body = sys.elastic_body_index()[i];
    const int offset = sys.node_offset(body);
    Triplets k;
    sys.elastic_bodies()[i].add_hessian_triplets(q.middleRows(offset, sys.bodies()[body].num_nodes()), k, 3 * offset,
                                                 true);
    for (const auto& e : k) f(body, e);
  }
}

/// beta h K(q) from the element triplets.
Eigen::MatrixXd reference_damping(const DofSystem& sys, const Positions& q, double h) {
  Triplets t;
  for_each_stiffness_entry(sys, q, [&](int body, const Eigen::Triplet<double>& e) {
    t.emplace_back(e.row(), e.col(), sys.bodies()[body].rayleigh_beta * h * e.value());
  });
  SparseMatrix D(sys.num_dofs(), sys.num_dofs());
  D.setFromTriplets(t.begin(), t.end());
  return Eigen::MatrixXd(D);
}

Eigen::MatrixXd reference_hessian(const Scene& sc, const StepContext& s, const Positions& q, const ContactSet& contacts) {
  const DofSystem& sys = sc.sys;
  const double h = sc.params.dt;
  const int n = sys.num_dofs();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
  const Eigen::MatrixXd m(sys.node_mass());
  for (int d = 0; d < 3; ++d)
    for (int i = 0; i < m.rows(); ++i)
      for (int j = 0; j < m.cols(); ++j) H(3 * i + d, 3 * j + d) += m(i, j);
  for_each_stiffness_entry(sys, q, [&](int, const Eigen::Triplet<double>& e) { H(e.row(), e.col()) += h * h * e.value(); });
  H += Eigen::MatrixXd(s.damping);
  for (const PrescribedTarget& t : s.targets) H.block<3, 3>(3 * t.node, 3 * t.node).diagonal().array() += t.weight * s.al_stiffness;
  const Positions x = sys.collision().positions(q);
  const int nx = 3 * sys.collision().mesh().num_vertices();
  Triplets c = barrier_potential_hessian(sys.collision().mesh(), x, contacts, sc.params.contact.dhat, true);
  for (auto& e : c) e = {e.row(), e.col(), sc.params.contact.kappa * e.value()};
  const Triplets f = friction_potential_hessian(x, s.x_prev, *s.friction, true);
  c.insert(c.end(), f.begin(), f.end());
  SparseMatrix Hx(nx, nx);
  Hx.setFromTriplets(c.begin(), c.end());
  const SparseMatrix& J = sys.collision().jacobian();
  H += h * h * Eigen::MatrixXd(SparseMatrix(J.transpose() * Hx * J));
  return H;
}

ContactSet only_ground(const ContactSet& all) {
  ContactSet g = all;
  g.contacts.clear();
  for (const Contact& c : all.contacts)
    if (c.kind == ContactKind::point_ground) g.contacts.push_back(c);
  return g;
}

}  // namespace

TEST_CASE("the in-place Newton matrix equals a triplet assembly as its contact pattern grows", "[dynamics]") {
  const Scene sc = two_boxes();
  const DofSystem& sys = sc.sys;
  const IncrementalPotential ip(sys, sc.params);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  const Positions q0 = sys.rest_nodes();
  StepContext s;
  s.q_prev = s.q_tilde = q0;
  s.x_prev = sys.collision().positions(q0);
  s.external_force = sys.gravity_force(sc.params.gravity);
  const ContactSet all =
      ip.contacts(q0, find_candidates(sys.collision().mesh(), s.x_prev, s.x_prev, sc.params.contact.dhat));
  const ContactSet ground = only_ground(all);
  REQUIRE(ground.size() > 0);
  REQUIRE(all.size() > ground.size() + 10);
  // Friction on the ground contacts, so that only the barrier's contacts between the bodies grow the pattern.
  s.friction = build_friction_set(sys.collision().mesh(), s.x_prev, ground, sc.params.contact.dhat, sc.params.contact.kappa,
                                  sc.params.contact.friction, sc.params.contact.epsv, sc.params.dt);
  s.damping = ip.damping_matrix(q0);
  s.targets.push_back({2, Vec3(0.001, 0, 0.0005), Vec3::Zero(), 0.05});
  s.al_stiffness = 1e3;
  CHECK((Eigen::MatrixXd(s.damping) - reference_damping(sys, q0, sc.params.dt)).norm() <=
        1e-12 * Eigen::MatrixXd(s.damping).norm());

  Positions q = q0;
  for (Eigen::Index i = 0; i < q.rows(); ++i) q.row(i) += 5e-5 * Eigen::RowVector3d(u(rng), u(rng), 0.2 * u(rng));
  auto assembled = [&](const ContactSet& contacts) {
    VecX g;
    SparseMatrix H;
    ip.gradient_and_hessian(s, q, contacts, true, g, H);
    return H;
  };

  // Ground contacts touch one vertex's nodes only: already in the fixed pattern.
  const SparseMatrix H_ground = assembled(ground);
  CHECK(ip.pattern_growths() == 0);
  const Eigen::MatrixXd ref_ground = reference_hessian(sc, s, q, ground);
  CHECK((Eigen::MatrixXd(H_ground) - ref_ground).norm() <= 1e-12 * ref_ground.norm());

  // Contacts between the bodies add node pairs: the pattern grows.
  const SparseMatrix H_all = assembled(all);
  CHECK(ip.pattern_growths() >= 1);
  CHECK(H_all.nonZeros() > H_ground.nonZeros());
  const Eigen::MatrixXd ref_all = reference_hessian(sc, s, q, all);
  CHECK((Eigen::MatrixXd(H_all) - ref_all).norm() <= 1e-12 * ref_all.norm());
  CHECK((ref_all - ref_ground).norm() > 1e-3 * ref_all.norm());

  // Fewer contacts again: same grown pattern (stale blocks are zeros), same values as a fresh assembly.
  const int growths = ip.pattern_growths();
  const SparseMatrix H_again = assembled(ground);
  CHECK(ip.pattern_growths() == growths);
  CHECK(H_again.nonZeros() == H_all.nonZeros());
  CHECK((Eigen::MatrixXd(H_again) - ref_ground).norm() <= 1e-12 * ref_ground.norm());

  // Friction is lagged, the barrier's contacts are not: friction contacts with
  // no barrier contact on their vertices are pulled back on their own (the
  // others are added to the barrier Hessian of the same vertices first).
  ContactSet between = all;
  between.contacts.clear();
  for (const Contact& c : all.contacts)
    if (c.kind != ContactKind::point_ground) between.contacts.push_back(c);
  const Eigen::MatrixXd ref_between = reference_hessian(sc, s, q, between);
  CHECK((Eigen::MatrixXd(assembled(between)) - ref_between).norm() <= 1e-12 * ref_between.norm());
  CHECK((ref_between - ref_all).norm() > 1e-3 * ref_all.norm());

  // The damping matrix at the last assembly's nodes equals the independent one.
  const SparseMatrix D = ip.damping_matrix(q);
  CHECK((Eigen::MatrixXd(D) - reference_damping(sys, q, sc.params.dt)).norm() <= 1e-12 * Eigen::MatrixXd(D).norm());
}
