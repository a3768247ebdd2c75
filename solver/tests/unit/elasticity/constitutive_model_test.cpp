// Checks every constitutive model: FD of P against Psi and of d2Psi/dF2 against P,
// rest state, frame indifference and isotropy, small-strain limit, inversion.
#include "eipc/elasticity/constitutive_model.hpp"

#include "eipc/optim/psd.hpp"
#include "elasticity_test_helpers.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <catch2/catch.hpp>

using namespace eipc;
using test::rel_error;

namespace {
Material make_material(ElasticModel model, double E = 1.0, double nu = 0.3) {
  Material m;
  m.model = model;
  m.youngs = E;
  m.poisson = nu;
  m.density = 1.0;
  return m;
}

const ElasticModel kAllModels[] = {ElasticModel::linear_corotated, ElasticModel::neo_hookean, ElasticModel::abd};
}  // namespace

TEST_CASE("stress and stress derivative match finite differences", "[elasticity][model]") {
  std::mt19937 rng(42);
  const auto samples = test::sample_deformation_gradients(rng, 4);
  for (ElasticModel model : kAllModels) {
    for (double nu : {0.0, 0.3, 0.45}) {
      const ConstitutiveModel psi(make_material(model, 1.0, nu));
      for (const auto& [name, F] : samples) {
        INFO(model_name(model) << " nu=" << nu << " F " << name << "\n" << F);
        const VecX f = vectorize(F);
        const VecX P_fd = test::fd_gradient(f, [&](const VecX& v) { return psi.energy(unvectorize(v)); });
        CHECK(rel_error(vectorize(psi.stress(F)), P_fd) < 1e-7);
        const MatX H_fd =
            test::fd_jacobian(f, [&](const VecX& v) { return VecX(vectorize(psi.stress(unvectorize(v)))); });
        const Mat<9> H = psi.stress_derivative(F);
        CHECK(rel_error(H, H_fd) < 1e-6);
        CHECK((H - H.transpose()).norm() < 1e-10 * std::max(1.0, H.norm()));
      }
    }
  }
}

TEST_CASE("rest state and rigid rotations have zero energy and stress", "[elasticity][model]") {
  std::mt19937 rng(5);
  for (ElasticModel model : kAllModels) {
    INFO(model_name(model));
    const ConstitutiveModel psi(make_material(model, 1e5, 0.4));
    CHECK(psi.energy(Mat3::Identity()) == 0.0);
    CHECK(psi.stress(Mat3::Identity()).norm() == 0.0);
    for (int k = 0; k < 5; ++k) {
      const Mat3 Q = test::random_rotation(rng);
      CHECK(std::abs(psi.energy(Q)) < 1e-10);
      CHECK(psi.stress(Q).norm() < 1e-9);
    }
    // The rest Hessian is PSD, so projection must leave it unchanged.
    const Mat<9> H = psi.stress_derivative(Mat3::Identity());
    CHECK(Eigen::SelfAdjointEigenSolver<Mat<9>>(H).eigenvalues().minCoeff() > -1e-9 * H.norm());
    CHECK((project_psd<9>(H) - H).norm() < 1e-9 * H.norm());
  }
}

TEST_CASE("energy is frame indifferent and isotropic", "[elasticity][model]") {
  std::mt19937 rng(8);
  const auto samples = test::sample_deformation_gradients(rng, 2);
  for (ElasticModel model : kAllModels) {
    const ConstitutiveModel psi(make_material(model, 3.0, 0.35));
    for (const auto& [name, F] : samples) {
      INFO(model_name(model) << " F " << name);
      const Mat3 Q = test::random_rotation(rng);
      const double e = psi.energy(F);
      CHECK(psi.energy(Q * F) == Approx(e).epsilon(1e-11).margin(1e-13));
      CHECK(psi.energy(F * Q) == Approx(e).epsilon(1e-11).margin(1e-13));
      CHECK(rel_error(psi.stress(Q * F), Q * psi.stress(F)) < 1e-11);  // P(QF) = Q P(F)
    }
  }
}

TEST_CASE("small-strain limit is linear elasticity", "[elasticity][model]") {
  std::mt19937 rng(13);
  SECTION("uniaxial stretch with nu = 0: Psi = E/2 eps^2") {
    const double E = 2.5e4;
    for (double eps : {1e-3, -1e-3, 1e-2}) {
      const Mat3 F = Vec3(1.0 + eps, 1.0, 1.0).asDiagonal();
      const double expected = 0.5 * E * eps * eps;
      // Exact for linear corotated and (with lambda' = lambda + mu) for stable neo-Hookean.
      CHECK(ConstitutiveModel(make_material(ElasticModel::linear_corotated, E, 0.0)).energy(F) ==
            Approx(expected).epsilon(1e-12));
      CHECK(ConstitutiveModel(make_material(ElasticModel::neo_hookean, E, 0.0)).energy(F) ==
            Approx(expected).epsilon(1e-12));
      // ABD: kappa (2 eps + eps^2)^2 = E/2 eps^2 (1 + eps/2)^2 with kappa = E/8.
      CHECK(ConstitutiveModel(make_material(ElasticModel::abd, E, 0.0)).energy(F) ==
            Approx(expected * (1 + eps / 2) * (1 + eps / 2)).epsilon(1e-12));
    }
  }
  SECTION("random small strain: Psi ~ mu |eps|^2 + lambda/2 tr(eps)^2") {
    for (double nu : {0.0, 0.3, 0.45}) {
      const Lame l = lame_from_youngs(1.0, nu);
      for (int k = 0; k < 5; ++k) {
        const Mat3 G = test::random_matrix(rng, 1e-4);
        const Mat3 strain = 0.5 * (G + G.transpose());
        const Mat3 F = test::random_rotation(rng) * (Mat3::Identity() + strain);  // rotated small strain
        const double linear = l.mu * strain.squaredNorm() + 0.5 * l.lambda * strain.trace() * strain.trace();
        INFO("nu=" << nu);
        CHECK(ConstitutiveModel(make_material(ElasticModel::linear_corotated, 1.0, nu)).energy(F) ==
              Approx(linear).epsilon(1e-3));
        CHECK(ConstitutiveModel(make_material(ElasticModel::neo_hookean, 1.0, nu)).energy(F) ==
              Approx(linear).epsilon(1e-3));
        // ABD matches the shear (deviatoric + mu part) only: mu |eps|^2.
        CHECK(ConstitutiveModel(make_material(ElasticModel::abd, 1.0, nu)).energy(F) ==
              Approx(l.mu * strain.squaredNorm()).epsilon(1e-3));
      }
    }
  }
}

TEST_CASE("linear corotated and neo-Hookean resist inversion", "[elasticity][model]") {
  for (ElasticModel model : {ElasticModel::linear_corotated, ElasticModel::neo_hookean}) {
    INFO(model_name(model));
    const ConstitutiveModel psi(make_material(model, 1.0, 0.3));
    // Squash along z through zero volume and beyond: energy keeps growing and
    // the z-stress keeps pushing towards positive stretch.
    double previous = psi.energy(Mat3::Identity());
    for (double s : {0.8, 0.5, 0.2, 0.05, -0.05, -0.2, -0.5}) {
      const Mat3 F = Vec3(1.0, 1.0, s).asDiagonal();
      const double e = psi.energy(F);
      INFO("s=" << s);
      CHECK(std::isfinite(e));
      CHECK(e > previous);
      CHECK(psi.stress(F)(2, 2) < 0.0);  // dPsi/ds < 0 : increasing s lowers energy
      CHECK(psi.stress_derivative(F).allFinite());
      previous = e;
    }
  }
}

TEST_CASE("projected stress derivative is the nearest PSD matrix", "[elasticity][model][psd]") {
  std::mt19937 rng(21);
  auto samples = test::sample_deformation_gradients(rng, 3);
  samples.push_back({"strongly compressed", test::with_singular_values(rng, Vec3(0.3, 0.2, 0.1))});
  samples.push_back({"inverted, sum of two < 0", test::with_singular_values(rng, Vec3(0.9, 0.3, -0.6))});
  int indefinite = 0;
  for (ElasticModel model : kAllModels) {
    for (double nu : {-0.3, 0.0, 0.45}) {
      const ConstitutiveModel psi(make_material(model, 2.0, nu));
      for (const auto& [name, F] : samples) {
        INFO(model_name(model) << " nu=" << nu << " F " << name);
        const Mat<9> H = psi.stress_derivative(F);
        const Mat<9> Hp = psi.stress_derivative(F, true);
        // Brute force reference: numeric eigen-decomposition of the exact Hessian
        // (checks the analytic eigen-system of linear corotated).
        CHECK(rel_error(Hp, project_psd<9>(H)) < 1e-10);
        // (Hp may be exactly 0 when every eigenvalue was negative: scale by the input's norm.)
        CHECK(Eigen::SelfAdjointEigenSolver<Mat<9>>(Hp).eigenvalues().minCoeff() >= -1e-10 * H.norm());
        if (Eigen::SelfAdjointEigenSolver<Mat<9>>(H).eigenvalues().minCoeff() < -1e-8) ++indefinite;
      }
    }
  }
  CHECK(indefinite > 10);  // the samples do exercise the projection
}
