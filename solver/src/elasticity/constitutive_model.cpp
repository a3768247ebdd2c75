#include "eipc/elasticity/constitutive_model.hpp"

#include "eipc/elasticity/tet_kinematics.hpp"

namespace eipc {

namespace {
std::variant<LinearCorotated, StableNeoHookean, AbdOrthogonality> make_model(const Material& m) {
  validate(m);
  const Lame lame = lame_from_youngs(m.youngs, m.poisson);
  switch (m.model) {
    case ElasticModel::linear_corotated: return LinearCorotated(lame.mu, lame.lambda);
    case ElasticModel::neo_hookean: return StableNeoHookean(lame.mu, lame.lambda);
    case ElasticModel::abd: return AbdOrthogonality(abd_stiffness(m.youngs, m.poisson));
  }
  throw InputError("material.model: unsupported model");
}

template <class Model>
double energy_of(const Model& m, const Mat3& F, RotationMemo&) {
  return m.energy(F);
}
double energy_of(const LinearCorotated& m, const Mat3& F, RotationMemo& memo) {
  return m.energy(F, memo.rotation_of(F));
}

template <class Model>
Mat3 stress_of(const Model& m, const Mat3& F, RotationMemo&) {
  return m.stress(F);
}
Mat3 stress_of(const LinearCorotated& m, const Mat3& F, RotationMemo& memo) {
  return m.stress(F, memo.rotation_of(F));
}

template <class Model>
void element_hessian_of(const Model& m, const Mat3& F, const Mat3& Dm_inv, bool project, RotationMemo&, Mat<12>& H) {
  const Mat<9> dP = project ? m.projected_stress_derivative(F) : m.stress_derivative(F);
  const Mat<12> A = pull_back_stress_derivative(dP, Dm_inv);
  H = 0.5 * (A + A.transpose());  // exact symmetry for the sparse solver
}
void element_hessian_of(const LinearCorotated& m, const Mat3& F, const Mat3& Dm_inv, bool project, RotationMemo& memo,
                        Mat<12>& H) {
  H = m.element_hessian(memo.svd_of(F), Dm_inv, project);
}
}  // namespace

ConstitutiveModel::ConstitutiveModel(const Material& material) : model_(make_model(material)) {}

double ConstitutiveModel::energy(const Mat3& F) const {
  return std::visit([&](const auto& m) { return m.energy(F); }, model_);
}

Mat3 ConstitutiveModel::stress(const Mat3& F) const {
  return std::visit([&](const auto& m) { return m.stress(F); }, model_);
}

Mat<9> ConstitutiveModel::stress_derivative(const Mat3& F, bool project) const {
  return std::visit(
      [&](const auto& m) { return project ? m.projected_stress_derivative(F) : m.stress_derivative(F); }, model_);
}

double ConstitutiveModel::energy(const Mat3& F, RotationMemo& memo) const {
  return std::visit([&](const auto& m) { return energy_of(m, F, memo); }, model_);
}

Mat3 ConstitutiveModel::stress(const Mat3& F, RotationMemo& memo) const {
  return std::visit([&](const auto& m) { return stress_of(m, F, memo); }, model_);
}

void ConstitutiveModel::element_derivatives(const Mat3& F, const Mat3& Dm_inv, bool project, RotationMemo& memo,
                                            Mat3& P, Mat<12>& H) const {
  std::visit(
      [&](const auto& m) {
        P = stress_of(m, F, memo);
        element_hessian_of(m, F, Dm_inv, project, memo, H);
      },
      model_);
}

void ConstitutiveModel::element_hessian(const Mat3& F, const Mat3& Dm_inv, bool project, RotationMemo& memo,
                                        Mat<12>& H) const {
  std::visit([&](const auto& m) { element_hessian_of(m, F, Dm_inv, project, memo, H); }, model_);
}

}  // namespace eipc
