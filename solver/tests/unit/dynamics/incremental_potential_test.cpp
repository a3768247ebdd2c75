// Finite-difference check of the whole step energy in reduced coordinates:
// inertia, elasticity, gravity, barrier (point-triangle, edge-edge, ground),
// friction, Rayleigh damping and the augmented-Lagrangian term, through x = J q
// for a full-space and an embedded body, for a shell in contact with a box, and
// for shells against each other and the ground at their contact offsets.
#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/dynamics/incremental_potential.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/surface.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

using namespace eipc;

namespace {
/// Central differences (step 1e-8) of the energy and of the gradient at q, contacts held fixed.
void central_differences(const IncrementalPotential& ip, const StepContext& s, const Positions& q,
                         const ContactSet& contacts, VecX& g_fd, Eigen::MatrixXd& H_fd) {
  const double eps = 1e-8;
  const Eigen::Index n = 3 * q.rows();
  g_fd.resize(n);
  H_fd.resize(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Positions qp = q, qm = q;
    flat(qp)[i] += eps;
    flat(qm)[i] -= eps;
    g_fd[i] = (ip.energy(s, qp, contacts) - ip.energy(s, qm, contacts)) / (2 * eps);
    H_fd.col(i) = (ip.gradient(s, qp, contacts) - ip.gradient(s, qm, contacts)) / (2 * eps);
  }
}
}  // namespace

TEST_CASE("the incremental potential's gradient and Hessian match finite differences", "[dynamics]") {
  Material m;
  m.youngs = 1e4;
  const TetMesh lower = box_tet_mesh(Vec3(0, 0, 4e-4), Vec3(0.1, 0.1, 0.1004), 2, 2, 2);
  const TetMesh upper = box_tet_mesh(Vec3(0.03, 0.02, 0.1008), Vec3(0.08, 0.07, 0.1508), 2, 2, 2);
  Body a = make_full_space_body("a", lower.vertices, lower.tets, boundary_faces(lower.tets), m);
  a.rayleigh_beta = 0.01;
  m.model = ElasticModel::neo_hookean;
  const Body full_b = make_full_space_body("b", upper.vertices, upper.tets, boundary_faces(upper.tets), m);
  const Body b = embed_body(full_b, lattice_embedding(full_b.fine_rest, 12), "low", "test");
  SimulationParams p;
  p.dt = 0.01;
  p.ground_height = 0.0;
  p.contact.friction = 0.4;
  const DofSystem sys({a, b});
  const IncrementalPotential ip(sys, p);

  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  const Positions q0 = sys.rest_nodes();
  StepContext s;
  s.q_prev = q0;
  s.q_tilde = q0;
  for (Eigen::Index i = 0; i < q0.rows(); ++i) s.q_tilde.row(i) += 1e-3 * Eigen::RowVector3d(u(rng), u(rng), u(rng));
  s.x_prev = sys.collision().positions(q0);
  s.external_force = sys.gravity_force(p.gravity);
  const Candidates c0 = find_candidates(sys.collision().mesh(), s.x_prev, s.x_prev, p.contact.dhat);
  const ContactSet contacts0 = ip.contacts(q0, c0);
  REQUIRE(contacts0.size() > 10);
  s.friction = build_friction_set(sys.collision().mesh(), s.x_prev, contacts0, p.contact.dhat, p.contact.kappa,
                                  p.contact.friction, p.contact.epsv, p.dt);
  s.damping = ip.damping_matrix(q0);
  s.targets.push_back({0, Vec3(0.001, 0, 0.0005), Vec3(0.1, -0.2, 0.3), 0.05});
  s.al_stiffness = 1e3;

  // A configuration near q0 (sliding a little, still in contact, no type changes under tiny steps).
  Positions q = q0;
  for (Eigen::Index i = 0; i < q.rows(); ++i) q.row(i) += 5e-5 * Eigen::RowVector3d(u(rng), u(rng), 0.2 * u(rng));
  const Candidates c = find_candidates(sys.collision().mesh(), sys.collision().positions(q), sys.collision().positions(q), p.contact.dhat);
  const ContactSet contacts = ip.contacts(q, c);
  const VecX g = ip.gradient(s, q, contacts);
  const Eigen::MatrixXd H = Eigen::MatrixXd(ip.hessian(s, q, contacts, false));

  VecX g_fd;
  Eigen::MatrixXd H_fd;
  central_differences(ip, s, q, contacts, g_fd, H_fd);
  INFO("gradient norm " << g.norm() << ", contacts " << contacts.size());
  CHECK((g - g_fd).norm() <= 1e-5 * g.norm());
  CHECK((H - H_fd).norm() <= 1e-5 * H.norm());
  // The fused assembly Newton uses gives the same gradient.
  VecX g_fused;
  SparseMatrix H_fused;
  ip.gradient_and_hessian(s, q, contacts, false, g_fused, H_fused);
  CHECK((g_fused - g).norm() <= 1e-12 * g.norm());
  // The projected Hessian (what Newton uses) is positive definite.
  const Eigen::MatrixXd Hp = Eigen::MatrixXd(ip.hessian(s, q, contacts, true));
  CHECK(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Hp).eigenvalues().minCoeff() > 0);
}

namespace {

/// A damped 0.1 m elastic box of n x n x n cells in full space, its DOF system
/// and its potential at h = 0.01 s (the potential refers to the others: not moved).
struct DampedBox {
  static Body body(int n) {
    Material m;
    m.youngs = 1e4;
    const TetMesh mesh = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), n, n, n);
    Body a = make_full_space_body("a", mesh.vertices, mesh.tets, boundary_faces(mesh.tets), m);
    a.rayleigh_beta = 0.01;
    return a;
  }
  static SimulationParams params() {
    SimulationParams p;
    p.dt = 0.01;
    return p;
  }
  explicit DampedBox(int n) : sys({body(n)}), ip(sys, p) {}
  DampedBox(const DampedBox&) = delete;

  /// The rest nodes, each moved by up to `size` per coordinate (uniform, from rng).
  Positions moved(std::mt19937& rng, double size) const {
    std::uniform_real_distribution<double> u(-1, 1);
    Positions q = sys.rest_nodes();
    for (Eigen::Index i = 0; i < q.rows(); ++i) q.row(i) += size * Eigen::RowVector3d(u(rng), u(rng), u(rng));
    return q;
  }
  /// A step from rest under gravity, damped with the matrix at `damping_at`.
  StepContext step_from_rest(const Positions& damping_at) const {
    StepContext s;
    s.q_prev = sys.rest_nodes();
    s.q_tilde = s.q_prev;
    s.x_prev = sys.collision().positions(s.q_prev);
    s.external_force = sys.gravity_force(p.gravity);
    s.damping = ip.damping_matrix(damping_at);
    return s;
  }

  SimulationParams p = params();
  DofSystem sys;
  IncrementalPotential ip;
};

}  // namespace

TEST_CASE("the damping matrix is symmetric bit for bit; its products equal Eigen's", "[dynamics][damping]") {
  const DampedBox box(3);
  const IncrementalPotential& ip = box.ip;
  std::mt19937 rng(5);
  const Positions q0 = box.sys.rest_nodes();
  StepContext s = box.step_from_rest(box.moved(rng, 1e-2));
  REQUIRE(s.damping.nonZeros() > 0);
  // The products read D's columns as its rows.
  const SparseMatrix transposed = s.damping.transpose();
  REQUIRE(transposed.nonZeros() == s.damping.nonZeros());
  CHECK(std::memcmp(transposed.valuePtr(), s.damping.valuePtr(), sizeof(double) * std::size_t(s.damping.nonZeros())) == 0);
  CHECK(std::equal(transposed.innerIndexPtr(), transposed.innerIndexPtr() + transposed.nonZeros(),
                   s.damping.innerIndexPtr()));
  StepContext undamped = s;
  undamped.damping = SparseMatrix();
  const ContactSet none;
  for (int trial = 0; trial < 20; ++trial) {
    const Positions q = box.moved(rng, 1e-3);
    const VecX step = flat(q) - flat(q0);
    const VecX product = s.damping * step;  // Eigen's
    CHECK(ip.damping_energy(s, q) == 0.5 * step.dot(product));
    VecX expected = ip.gradient(undamped, q, none);
    expected += product;
    const VecX g = ip.gradient(s, q, none);
    CHECK(std::memcmp(g.data(), expected.data(), sizeof(double) * std::size_t(g.size())) == 0);
  }
}

TEST_CASE("the line search's energies bring the gradient along, the same bit for bit", "[dynamics][gradient]") {
  // Two boxes, so that each keeps its own per-tet rotations: one evaluated as
  // energy, then gradient and Newton matrix; the other in the one pass.
  const DampedBox separate(2), together(2);
  std::mt19937 rng(11);
  const StepContext s = separate.step_from_rest(separate.sys.rest_nodes());
  const StepContext t = together.step_from_rest(together.sys.rest_nodes());
  const ContactSet none;
  const auto same = [](const auto& a, const auto& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())) == 0;
  };
  for (int trial = 0; trial < 10; ++trial) {
    const Positions q = separate.moved(rng, 2e-2);
    const std::vector<double> energies = separate.ip.elastic_energies(q);
    const VecX g = separate.ip.gradient(s, q, none);
    VecX elastic;
    const std::vector<double> energies_too = together.ip.elastic_energies(q, &elastic);
    CHECK(same(energies, energies_too));
    const VecX g_too = together.ip.gradient_from_parts(t, q, elastic, together.ip.contact_gradient(t, q, none));
    CHECK(same(g, g_too));
    VecX g_assembled, g_given;
    SparseMatrix H, H_given;
    separate.ip.gradient_and_hessian(s, q, none, false, g_assembled, H);
    together.ip.gradient_and_hessian(t, q, none, false, g_given, H_given, &g_too);
    CHECK(same(g_assembled, g));
    CHECK(same(g_given, g));
    CHECK(H.nonZeros() == H_given.nonZeros());
    CHECK(std::memcmp(H.valuePtr(), H_given.valuePtr(), sizeof(double) * std::size_t(H.nonZeros())) == 0);
  }
}

TEST_CASE("later Newton matrices reuse the elastic part of an earlier one; the gradient stays exact",
          "[dynamics][reuse]") {
  const DampedBox box(2);
  const IncrementalPotential& ip = box.ip;
  std::mt19937 rng(7);
  const Positions q1 = box.moved(rng, 1e-2), q2 = box.moved(rng, 1e-2);
  StepContext exact = box.step_from_rest(box.sys.rest_nodes());
  exact.targets.push_back({1, Vec3(0.01, 0, 0), Vec3::Zero(), 0.05});
  exact.al_stiffness = 1e3;
  StepContext s = exact;
  s.reuse_elastic_hessian = true;
  const ContactSet none;
  auto assemble = [&](const StepContext& c, const Positions& q, bool project, VecX& g) {
    SparseMatrix H;
    ip.gradient_and_hessian(c, q, none, project, g, H);
    return Eigen::MatrixXd(H);
  };
  VecX g, g_exact;
  // The first matrix of the step is the Hessian at its q.
  const Eigen::MatrixXd H1 = assemble(s, q1, false, g);
  CHECK(H1 == assemble(exact, q1, false, g_exact));
  CHECK(g == g_exact);
  // A later one (here of the next step: new damping) keeps its elastic part,
  // with this call's damping and augmented-Lagrangian terms, and the exact
  // gradient at its own q.
  const SparseMatrix old_damping = s.damping;
  s.damping = exact.damping = ip.damping_matrix(q1);
  s.damping_memo_x.resize(0);
  exact.damping_memo_x.resize(0);
  s.al_stiffness = exact.al_stiffness = 2e3;
  const Eigen::MatrixXd H2 = assemble(s, q2, false, g);
  Eigen::MatrixXd expected = H1 + Eigen::MatrixXd(s.damping) - Eigen::MatrixXd(old_damping);
  for (int d = 0; d < 3; ++d) expected(3 + d, 3 + d) += 0.05 * 1e3;
  CHECK((H2 - expected).cwiseAbs().maxCoeff() <= 1e-14 * H1.cwiseAbs().maxCoeff());
  CHECK((g - ip.gradient(exact, q2, none)).norm() <= 1e-12 * g.norm());
  const Eigen::MatrixXd H2_exact = assemble(exact, q2, false, g_exact);
  CHECK((H2 - H2_exact).norm() > 1e-6 * H2_exact.norm());  // the reuse is visible
  // The projected matrix has its own first assembly.
  CHECK(assemble(s, q2, true, g) == assemble(exact, q2, true, g_exact));
  // Forgotten, the next matrix is the Hessian at its q again.
  s.forget_elastic_hessian();
  CHECK(assemble(s, q2, false, g) == H2_exact);
}

namespace {

/// An n x n sheet of square cells from `origin`, bowed up by `bow` at its x edges.
Body grid_shell(const std::string& name, int n, double cell, const Vec3& origin, double bow, double thickness,
                const Material& m) {
  Positions xs((n + 1) * (n + 1), 3);
  Tris ts(2 * n * n, 3);
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      xs.row(i + (n + 1) * j) << origin.x() + cell * i, origin.y() + cell * j,
          origin.z() + bow * (i - n / 2) * (i - n / 2) / double((n / 2) * (n / 2));
  for (int j = 0, k = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      ts.row(k++) << i + (n + 1) * j, i + 1 + (n + 1) * j, i + 1 + (n + 1) * (j + 1);
      ts.row(k++) << i + (n + 1) * j, i + 1 + (n + 1) * (j + 1), i + (n + 1) * (j + 1);
    }
  return make_shell_body(name, xs, ts, thickness, m);
}

/// At a configuration near the rest nodes of `sys` (in contact, sliding a
/// little, friction lagged from the rest), the potential's gradient and
/// Hessian against central differences, and the block of body `shell` alone.
/// Returns the contacts checked.
ContactSet check_shell_potential(const DofSystem& sys, const SimulationParams& p, int shell, unsigned seed,
                                 std::size_t min_contacts) {
  const IncrementalPotential ip(sys, p);
  const CollisionMesh& mesh = sys.collision().mesh();
  const double reach = p.contact.dhat + mesh.max_contact_offset();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const Positions q0 = sys.rest_nodes();
  StepContext s;
  s.q_prev = q0;
  s.q_tilde = q0;
  for (Eigen::Index i = 0; i < q0.rows(); ++i) s.q_tilde.row(i) += 1e-3 * Eigen::RowVector3d(u(rng), u(rng), u(rng));
  s.x_prev = sys.collision().positions(q0);
  s.external_force = sys.gravity_force(p.gravity);
  const ContactSet contacts0 = ip.contacts(q0, find_candidates(mesh, s.x_prev, s.x_prev, reach));
  REQUIRE(contacts0.size() >= min_contacts);
  s.friction = build_friction_set(mesh, s.x_prev, contacts0, p.contact.dhat, p.contact.kappa, p.contact.friction,
                                  p.contact.epsv, p.dt);
  Positions q = q0;
  for (Eigen::Index i = 0; i < q.rows(); ++i) q.row(i) += 5e-5 * Eigen::RowVector3d(u(rng), u(rng), 0.2 * u(rng));
  const Positions x = sys.collision().positions(q);
  const ContactSet contacts = ip.contacts(q, find_candidates(mesh, x, x, reach));
  const VecX g = ip.gradient(s, q, contacts);
  const Eigen::MatrixXd H = Eigen::MatrixXd(ip.hessian(s, q, contacts, false));
  VecX g_fd;
  Eigen::MatrixXd H_fd;
  central_differences(ip, s, q, contacts, g_fd, H_fd);
  INFO("gradient norm " << g.norm() << ", contacts " << contacts.size());
  CHECK((g - g_fd).norm() <= 1e-5 * g.norm());
  CHECK((H - H_fd).norm() <= 1e-5 * H.norm());
  // The shell's own block: its Hessian rows against FD alone (the mass dominates the norm above).
  const int off = 3 * sys.node_offset(shell), n = 3 * sys.bodies()[std::size_t(shell)].num_nodes();
  const Eigen::MatrixXd Hs = H.block(off, off, n, n), Hs_fd = H_fd.block(off, off, n, n);
  const Eigen::MatrixXd M = Eigen::MatrixXd(ip.hessian(s, q, ContactSet{}, false)).block(off, off, n, n);
  CHECK((Hs - Hs_fd).norm() <= 1e-5 * (Hs - M).norm() + 1e-6 * Hs.norm());
  VecX g_fused;
  SparseMatrix H_fused;
  ip.gradient_and_hessian(s, q, contacts, false, g_fused, H_fused);
  CHECK((g_fused - g).norm() <= 1e-12 * g.norm());
  const Eigen::MatrixXd Hp = Eigen::MatrixXd(ip.hessian(s, q, contacts, true));
  CHECK(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Hp).eigenvalues().minCoeff() > 0);
  return contacts;
}

}  // namespace

TEST_CASE("the incremental potential with a shell: gradient and Hessian match finite differences", "[dynamics][shell]") {
  // A 4 x 4 sheet, bent a little, 0.6 mm above an elastic box (contacts, friction):
  // the shell's 18x18 stencils go through the fixed Hessian pattern.
  Material m;
  m.youngs = 1e4;
  const TetMesh lower = box_tet_mesh(Vec3(0, 0, 4e-4), Vec3(0.1, 0.1, 0.1004), 2, 2, 2);
  const Body a = make_full_space_body("a", lower.vertices, lower.tets, boundary_faces(lower.tets), m);
  m.youngs = 1e6;
  const Body sheet = grid_shell("sheet", 4, 0.02, Vec3(0.01, 0.01, 0.101), 0.002, 1e-3, m);
  SimulationParams p;
  p.dt = 0.01;
  p.contact.friction = 0.4;
  const DofSystem sys({a, sheet});
  REQUIRE(sys.shell_bodies().size() == 1);
  check_shell_potential(sys, p, 1, 4, 6);
}

TEST_CASE("the incremental potential with shells at their contact offsets matches finite differences",
          "[dynamics][shell]") {
  // Two sheets 1 and 2 mm thick, their mid-surfaces 1.9 mm apart (offset 1.5 mm,
  // gap 0.4 mm; the upper one bowed up 0.5 mm), the lower one 1.1 mm above the
  // ground (offset 0.5 mm, gap 0.6 mm): every pair is farther than dhat = 1 mm, so each contact is there
  // only through its offset, and its barrier is b(d - offset).
  Material m;
  m.youngs = 1e6;
  const Body lower = grid_shell("lower", 4, 0.02, Vec3(0, 0, 1.1e-3), 0.0, 1e-3, m);
  const Body upper = grid_shell("upper", 4, 0.02, Vec3(0.011, 0.007, 3e-3), 0.0005, 2e-3, m);
  SimulationParams p;
  p.dt = 0.01;
  p.ground_height = 0.0;
  p.contact.friction = 0.4;
  const DofSystem sys({lower, upper});
  REQUIRE(sys.collision().mesh().max_contact_offset() == 2e-3);
  const ContactSet contacts = check_shell_potential(sys, p, 1, 5, 10);
  int between = 0, ground = 0;
  for (const Contact& c : contacts.contacts) {
    const double d = contact_distance(c, sys.collision().positions(sys.rest_nodes()), contacts.ground_height);
    CHECK(d > p.contact.dhat);
    if (c.kind == ContactKind::point_ground) {
      CHECK(c.offset == 0.5e-3);
      ground += 1;
    } else {
      CHECK(c.offset == Approx(1.5e-3).epsilon(1e-15));
      between += 1;
    }
  }
  CHECK(ground == 25);
  CHECK(between > 10);
}
