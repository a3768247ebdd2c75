#include "eipc/elasticity/elastic_body.hpp"

#include "eipc/elasticity/tet_kinematics.hpp"

#include "eipc/util/parallel.hpp"

#include <stdexcept>
#include <string>

namespace eipc {

namespace {
/// fn(t) for every tet; `tet_microseconds` is the cost of one call (sets the grain).
template <typename Fn>
void for_each_tet(int n, double tet_microseconds, Fn&& fn) {
  parallel_for_each(std::size_t(n), grain_for(tet_microseconds), [&](std::size_t t) { fn(int(t)); });
}
// Rough costs per tet (linear corotated with its 3x3 SVD; order of magnitude is what matters).
constexpr double kEnergyCost = 0.3, kGradientCost = 0.4, kDerivativesCost = 1.5;
}  // namespace

ElasticBody::ElasticBody(const Positions& rest, const Tets& tets, const Material& material)
    : ElasticBody(rest, tets, VecX(), material) {}

ElasticBody::ElasticBody(const Positions& rest, const Tets& tets, const VecX& volumes,
                         const Material& material)
    : num_vertices_(static_cast<int>(rest.rows())), tets_(tets), material_(material), model_(material) {
  if (tets.size() > 0 && (tets.minCoeff() < 0 || tets.maxCoeff() >= num_vertices_))
    throw InputError("elastic body: tet vertex index out of range [0, " + std::to_string(num_vertices_) + ")");
  Dm_inv_.resize(tets.rows());
  for (int t = 0; t < num_tets(); ++t) Dm_inv_[t] = rest_shape_inverse(rest, tets, t);
  rotation_memo_.resize(tets.rows());
  if (volumes.size() == 0) {
    volumes_ = tet_volumes(rest, tets);
  } else {
    if (volumes.size() != tets.rows())
      throw InputError("elastic body: " + std::to_string(volumes.size()) + " volumes for " +
                       std::to_string(tets.rows()) + " tets");
    if (volumes.size() > 0 && !(volumes.minCoeff() >= 0.0))
      throw InputError("elastic body: tet volumes must be non-negative");
    volumes_ = volumes;
  }
}

void ElasticBody::check_positions(const Positions& x) const {
  if (x.rows() != num_vertices_)
    throw std::invalid_argument("ElasticBody: positions have " + std::to_string(x.rows()) +
                                " rows, body has " + std::to_string(num_vertices_) + " vertices");
}

double ElasticBody::tet_energy(const Positions& x, int t) const {
  return volumes_[t] * model_.energy(deformation_gradient(x, tets_, t, Dm_inv_[t]));
}

Vec<12> ElasticBody::tet_gradient(const Positions& x, int t) const {
  const Mat3 P = model_.stress(deformation_gradient(x, tets_, t, Dm_inv_[t]));
  return volumes_[t] * pull_back_stress(P, Dm_inv_[t]);
}

Mat<12> ElasticBody::tet_hessian(const Positions& x, int t, bool project) const {
  const Mat<9> d2 = model_.stress_derivative(deformation_gradient(x, tets_, t, Dm_inv_[t]), project);
  const Mat<12> H = volumes_[t] * pull_back_stress_derivative(d2, Dm_inv_[t]);
  return 0.5 * (H + H.transpose());  // exact symmetry for the sparse solver
}

void ElasticBody::tet_derivatives(const Positions& x, bool project, std::vector<Vec<12>>& gradients,
                                  std::vector<Mat<12>>& hessians) const {
  check_positions(x);
  gradients.resize(num_tets());
  hessians.resize(num_tets());
  for_each_tet(num_tets(), kDerivativesCost, [&](int t) {
    Mat3 P;
    Mat<12> H;
    model_.element_derivatives(deformation_gradient(x, tets_, t, Dm_inv_[t]), Dm_inv_[t], project, rotation_memo_[t],
                               P, H);
    gradients[t] = volumes_[t] * pull_back_stress(P, Dm_inv_[t]);
    hessians[t] = volumes_[t] * H;
  });
}

void ElasticBody::tet_hessians(const Positions& x, bool project, std::vector<Mat<12>>& hessians) const {
  check_positions(x);
  hessians.resize(num_tets());
  for_each_tet(num_tets(), kDerivativesCost, [&](int t) {
    Mat<12> H;
    model_.element_hessian(deformation_gradient(x, tets_, t, Dm_inv_[t]), Dm_inv_[t], project, rotation_memo_[t], H);
    hessians[t] = volumes_[t] * H;
  });
}

double ElasticBody::energy(const Positions& x) const {
  check_positions(x);
  std::vector<double> e(num_tets());
  for_each_tet(num_tets(), kEnergyCost, [&](int t) {
    e[t] = volumes_[t] * model_.energy(deformation_gradient(x, tets_, t, Dm_inv_[t]), rotation_memo_[t]);
  });
  double sum = 0.0;
  for (double v : e) sum += v;
  return sum;
}

void ElasticBody::check_gradient_target(const VecX& g, int dof_offset, const char* caller) const {
  if (dof_offset < 0 || g.size() < dof_offset + 3 * num_vertices_)
    throw std::invalid_argument(std::string("ElasticBody::") + caller + ": gradient vector too short");
}

void ElasticBody::add_tet_gradients(const std::vector<Vec<12>>& local, VecX& g, int dof_offset) const {
  for (int t = 0; t < num_tets(); ++t)
    for (int a = 0; a < 4; ++a) g.segment<3>(dof_offset + 3 * tets_(t, a)) += local[t].segment<3>(3 * a);
}

void ElasticBody::add_gradient(const Positions& x, VecX& g, int dof_offset) const {
  check_positions(x);
  check_gradient_target(g, dof_offset, "add_gradient");
  std::vector<Vec<12>> local(num_tets());
  for_each_tet(num_tets(), kGradientCost, [&](int t) {
    const Mat3 P = model_.stress(deformation_gradient(x, tets_, t, Dm_inv_[t]), rotation_memo_[t]);
    local[t] = volumes_[t] * pull_back_stress(P, Dm_inv_[t]);
  });
  add_tet_gradients(local, g, dof_offset);
}

double ElasticBody::energy_and_add_gradient(const Positions& x, VecX& g, int dof_offset) const {
  check_positions(x);
  check_gradient_target(g, dof_offset, "energy_and_add_gradient");
  std::vector<double> e(num_tets());
  std::vector<Vec<12>> local(num_tets());
  for_each_tet(num_tets(), kEnergyCost + kGradientCost, [&](int t) {
    const Mat3 F = deformation_gradient(x, tets_, t, Dm_inv_[t]);
    e[t] = volumes_[t] * model_.energy(F, rotation_memo_[t]);
    local[t] = volumes_[t] * pull_back_stress(model_.stress(F, rotation_memo_[t]), Dm_inv_[t]);
  });
  double sum = 0.0;
  for (double v : e) sum += v;
  add_tet_gradients(local, g, dof_offset);
  return sum;
}

void ElasticBody::add_hessian_triplets(const Positions& x, std::vector<Eigen::Triplet<double>>& out,
                                       int dof_offset, bool project) const {
  check_positions(x);
  std::vector<Mat<12>> local(num_tets());
  for_each_tet(num_tets(), kDerivativesCost, [&](int t) { local[t] = tet_hessian(x, t, project); });
  out.reserve(out.size() + 144 * static_cast<std::size_t>(num_tets()));
  for (int t = 0; t < num_tets(); ++t)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            out.emplace_back(dof_offset + 3 * tets_(t, a) + i, dof_offset + 3 * tets_(t, b) + j,
                             local[t](3 * a + i, 3 * b + j));
}

}  // namespace eipc
