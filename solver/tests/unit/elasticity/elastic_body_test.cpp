// ElasticBody: per-tet and assembled gradient/Hessian against finite differences,
// rest state, uniaxial stretch energy, volumes, PSD projection, determinism.
#include "eipc/elasticity/elastic_body.hpp"

#include "eipc/elasticity/lumped_mass.hpp"
#include "eipc/util/parallel.hpp"
#include "elasticity_test_helpers.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCore>
#include <catch2/catch.hpp>
#include <cstring>

using namespace eipc;
using test::rel_error;

namespace {
const ElasticModel kAllModels[] = {ElasticModel::linear_corotated, ElasticModel::neo_hookean, ElasticModel::abd};

Material make_material(ElasticModel model, double E = 1.0, double nu = 0.3) {
  Material m;
  m.model = model;
  m.youngs = E;
  m.poisson = nu;
  m.density = 500.0;
  return m;
}

/// Rest mesh mapped by a random rotation and stretch plus noise of size `noise`.
Positions deform(const Positions& X, std::mt19937& rng, double noise) {
  const Mat3 A = test::random_rotation(rng) * Vec3(1.3, 0.9, 0.8).asDiagonal();
  std::uniform_real_distribution<double> u(-noise, noise);
  Positions x(X.rows(), 3);
  for (Eigen::Index v = 0; v < X.rows(); ++v)
    x.row(v) = (A * X.row(v).transpose()).transpose() + Eigen::RowVector3d(u(rng), u(rng), u(rng));
  return x;
}

Positions from_flat(const VecX& q) {
  Positions x(q.size() / 3, 3);
  flat(x) = q;
  return x;
}

MatX assemble(const ElasticBody& body, const Positions& x, int offset, int total, bool project) {
  std::vector<Eigen::Triplet<double>> trips;
  body.add_hessian_triplets(x, trips, offset, project);
  Eigen::SparseMatrix<double> H(total, total);
  H.setFromTriplets(trips.begin(), trips.end());
  return MatX(H);
}
}  // namespace

TEST_CASE("rest and rigidly moved states have zero energy and gradient", "[elasticity][body]") {
  std::mt19937 rng(1);
  const auto box = test::box_mesh(2, 2, 2, 0.1);
  for (ElasticModel model : kAllModels) {
    INFO(model_name(model));
    const ElasticBody body(box.vertices, box.tets, make_material(model, 1e5, 0.45));
    CHECK(body.energy(box.vertices) == 0.0);
    VecX g = VecX::Zero(3 * box.vertices.rows());
    body.add_gradient(box.vertices, g, 0);
    CHECK(g.norm() == 0.0);
    const Mat3 Q = test::random_rotation(rng);
    Positions moved = (box.vertices * Q.transpose()).rowwise() + Eigen::RowVector3d(1.0, -2.0, 0.5);
    CHECK(std::abs(body.energy(moved)) < 1e-10);
    g.setZero();
    body.add_gradient(moved, g, 0);
    CHECK(g.norm() < 1e-9);
  }
}

TEST_CASE("per-tet gradient and Hessian match finite differences", "[elasticity][body]") {
  std::mt19937 rng(2);
  Positions X(4, 3);
  X << 0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0.2, 0.9, 0.1, 0.1, 0.2, 1.1;
  Tets T(1, 4);
  T << 0, 1, 2, 3;
  for (ElasticModel model : kAllModels) {
    const ElasticBody body(X, T, make_material(model, 1.0, 0.3));
    for (int k = 0; k < 6; ++k) {
      Positions x = deform(X, rng, 0.1);
      if (k == 5) x.row(3) = -x.row(3) + 2.0 * x.row(0);  // mirror vertex 3 through vertex 0: inverted
      INFO(model_name(model) << " sample " << k);
      const VecX q = flat(x);
      const VecX g_fd = test::fd_gradient(q, [&](const VecX& v) { return body.tet_energy(from_flat(v), 0); });
      CHECK(rel_error(body.tet_gradient(x, 0), g_fd) < 1e-7);
      const MatX H_fd =
          test::fd_jacobian(q, [&](const VecX& v) { return VecX(body.tet_gradient(from_flat(v), 0)); });
      CHECK(rel_error(body.tet_hessian(x, 0, false), H_fd) < 1e-6);
      // The fused path of the Newton assembly (linear corotated: without the
      // 9x9) gives the same gradient and (projected) Hessian, exactly symmetric.
      std::vector<Vec<12>> gradients;
      std::vector<Mat<12>> hessians;
      for (const bool project : {false, true}) {
        body.tet_derivatives(x, project, gradients, hessians);
        CHECK(rel_error(gradients[0], body.tet_gradient(x, 0)) < 1e-13);
        CHECK(rel_error(hessians[0], body.tet_hessian(x, 0, project)) < 1e-13);
        CHECK(hessians[0] == hessians[0].transpose());
      }
    }
  }
}

TEST_CASE("assembled gradient and Hessian match finite differences, with dof offset", "[elasticity][body]") {
  std::mt19937 rng(3);
  const auto box = test::box_mesh(2, 2, 1, 0.5);
  const int n = 3 * static_cast<int>(box.vertices.rows());
  const int offset = 6;
  for (ElasticModel model : kAllModels) {
    INFO(model_name(model));
    const ElasticBody body(box.vertices, box.tets, make_material(model, 10.0, 0.4));
    const Positions x = deform(box.vertices, rng, 0.05);
    const VecX q = flat(x);
    VecX g = VecX::Constant(n + offset + 3, 1.0);  // add_gradient adds: pre-fill with ones
    body.add_gradient(x, g, offset);
    CHECK((g.head(offset).array() == 1.0).all());
    CHECK((g.tail(3).array() == 1.0).all());
    const VecX g_fd = test::fd_gradient(q, [&](const VecX& v) { return body.energy(from_flat(v)); });
    CHECK(rel_error(g.segment(offset, n) - VecX::Ones(n), g_fd) < 1e-7);

    const MatX H = assemble(body, x, offset, n + offset, false);
    CHECK(H.topRows(offset).norm() == 0.0);
    const MatX H_fd = test::fd_jacobian(q, [&](const VecX& v) {
      VecX gv = VecX::Zero(n);
      body.add_gradient(from_flat(v), gv, 0);
      return gv;
    });
    CHECK(rel_error(H.bottomRightCorner(n, n), H_fd) < 1e-6);
  }
}

TEST_CASE("projected Hessian is PSD and equals the exact one when that is PSD", "[elasticity][body]") {
  std::mt19937 rng(4);
  const auto box = test::box_mesh(2, 1, 1, 1.0);
  const int n = 3 * static_cast<int>(box.vertices.rows());
  for (ElasticModel model : kAllModels) {
    INFO(model_name(model));
    const ElasticBody body(box.vertices, box.tets, make_material(model, 1.0, 0.3));
    // Strongly compressed + noisy: the exact Hessian is indefinite here.
    Positions x = deform(box.vertices, rng, 0.3) * 0.5;
    const MatX H = assemble(body, x, 0, n, false);
    const MatX Hp = assemble(body, x, 0, n, true);
    Eigen::SelfAdjointEigenSolver<MatX> eh(H), ep(Hp);
    CHECK(eh.eigenvalues().minCoeff() < -1e-6);  // the test case does exercise the projection
    CHECK(ep.eigenvalues().minCoeff() >= -1e-10 * H.norm());
    for (int t = 0; t < body.num_tets(); ++t) {
      const Mat<12> Ht = body.tet_hessian(x, t, true);
      const double scale = body.tet_hessian(x, t, false).norm();  // Ht may be exactly 0
      CHECK(Eigen::SelfAdjointEigenSolver<Mat<12>>(Ht).eigenvalues().minCoeff() >= -1e-10 * scale);
    }
    // At rest the element Hessians are PSD: projecting changes nothing.
    CHECK((assemble(body, box.vertices, 0, n, true) - assemble(body, box.vertices, 0, n, false)).norm() <
          1e-12 * assemble(body, box.vertices, 0, n, false).norm());
  }
}

TEST_CASE("uniaxial stretch of a mesh: energy E/2 eps^2 V (nu = 0)", "[elasticity][body]") {
  const auto box = test::box_mesh(3, 2, 2, 0.1);
  const double V = 0.3 * 0.2 * 0.2, E = 5e4, eps = 1e-3;
  Positions x = box.vertices;
  x.col(0) *= 1.0 + eps;
  for (ElasticModel model : {ElasticModel::linear_corotated, ElasticModel::neo_hookean}) {
    const ElasticBody body(box.vertices, box.tets, make_material(model, E, 0.0));
    CHECK(body.energy(x) == Approx(0.5 * E * eps * eps * V).epsilon(1e-9));
  }
  const ElasticBody abd(box.vertices, box.tets, make_material(ElasticModel::abd, E, 0.0));
  CHECK(abd.energy(x) == Approx(0.5 * E * eps * eps * V).epsilon(2e-3));
  // Reaction force on the +x face balances the -x face and equals E eps A in total.
  const ElasticBody body(box.vertices, box.tets, make_material(ElasticModel::linear_corotated, E, 0.0));
  VecX g = VecX::Zero(3 * x.rows());
  body.add_gradient(x, g, 0);
  double fx_right = 0.0;
  for (Eigen::Index v = 0; v < x.rows(); ++v)
    if (box.vertices(v, 0) > 0.3 - 1e-9) fx_right += g[3 * v];
  CHECK(fx_right == Approx(E * eps * 0.2 * 0.2).epsilon(1e-9));
}

TEST_CASE("given tet volumes scale the energy", "[elasticity][body]") {
  std::mt19937 rng(6);
  const auto box = test::box_mesh(2, 1, 1, 1.0);
  const Material mat = make_material(ElasticModel::linear_corotated, 1.0, 0.3);
  const ElasticBody geometric(box.vertices, box.tets, mat);
  CHECK(geometric.volumes().sum() == Approx(2.0));
  const VecX doubled = 2.0 * geometric.volumes();
  const ElasticBody scaled(box.vertices, box.tets, doubled, mat);
  const Positions x = deform(box.vertices, rng, 0.1);
  CHECK(scaled.energy(x) == Approx(2.0 * geometric.energy(x)).epsilon(1e-14));
  const ElasticBody empty(box.vertices, box.tets, VecX::Zero(box.tets.rows()), mat);
  CHECK(empty.energy(x) == 0.0);
  // Bad input
  CHECK_THROWS_AS(ElasticBody(box.vertices, box.tets, VecX::Ones(3), mat), InputError);
  CHECK_THROWS_AS(ElasticBody(box.vertices, box.tets, -geometric.volumes(), mat), InputError);
  Tets bad = box.tets;
  bad(0, 0) = static_cast<int>(box.vertices.rows());
  CHECK_THROWS_AS(ElasticBody(box.vertices, bad, mat), InputError);
  Material wrong = mat;
  wrong.poisson = 0.5;
  CHECK_THROWS_AS(ElasticBody(box.vertices, box.tets, wrong), InputError);
  CHECK_THROWS_AS(geometric.energy(Positions::Zero(3, 3)), std::invalid_argument);
}

TEST_CASE("lumped mass sums to density times volume", "[elasticity][mass]") {
  const auto box = test::box_mesh(3, 2, 2, 0.1);
  const VecX vol = tet_volumes(box.vertices, box.tets);
  const VecX m = lumped_mass(box.vertices, box.tets, vol, 1000.0);
  REQUIRE(m.size() == box.vertices.rows());
  CHECK(m.sum() == Approx(1000.0 * 0.3 * 0.2 * 0.2).epsilon(1e-12));
  CHECK(m.minCoeff() > 0.0);
  // Single tet: a quarter each. Embedded volumes are used as given.
  Positions X(4, 3);
  X << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  Tets T(1, 4);
  T << 0, 1, 2, 3;
  const VecX single = lumped_mass(X, T, VecX::Constant(1, 0.02), 50.0);
  CHECK((single.array() == 0.25 * 50.0 * 0.02).all());
}

TEST_CASE("elastic assembly is bit-identical for 1 and 2 threads", "[elasticity][body][determinism]") {
  std::mt19937 rng(9);
  const auto box = test::box_mesh(6, 6, 6, 0.05);  // 1296 tets: many TBB chunks
  const Positions x = deform(box.vertices, rng, 0.01);
  const int n = 3 * static_cast<int>(box.vertices.rows());
  for (ElasticModel model : kAllModels) {
    INFO(model_name(model));
    const ElasticBody body(box.vertices, box.tets, make_material(model, 1e5, 0.4));
    double e[2];
    VecX g[2];
    std::vector<Eigen::Triplet<double>> h[2];
    for (int run = 0; run < 2; ++run) {
      ThreadLimit limit(run + 1);
      e[run] = body.energy(x);
      g[run] = VecX::Zero(n);
      body.add_gradient(x, g[run], 0);
      body.add_hessian_triplets(x, h[run], 0, true);
    }
    CHECK(std::memcmp(&e[0], &e[1], sizeof(double)) == 0);
    CHECK(std::memcmp(g[0].data(), g[1].data(), sizeof(double) * n) == 0);
    REQUIRE(h[0].size() == h[1].size());
    bool same = true;
    for (std::size_t i = 0; i < h[0].size(); ++i)
      same = same && h[0][i].row() == h[1][i].row() && h[0][i].col() == h[1][i].col() &&
             std::memcmp(&h[0][i].value(), &h[1][i].value(), sizeof(double)) == 0;
    CHECK(same);
  }
}
