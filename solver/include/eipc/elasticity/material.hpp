// Elastic material description: which constitutive model, its elastic
// constants and mass density, plus the Lamé conversions.
#pragma once

#include <string>

namespace eipc {

/// Constitutive models available for deformable bodies.
enum class ElasticModel {
  linear_corotated,  ///< the paper's model: mu ||F - R||^2 + lambda/2 tr(R^T F - I)^2
  neo_hookean,       ///< stable neo-Hookean (Smith et al. 2018), no log term
  abd,               ///< ABD orthogonality energy kappa ||F F^T - I||^2
};

struct Material {
  ElasticModel model = ElasticModel::linear_corotated;
  double youngs = 1e5;     ///< Young's modulus E [Pa]
  double poisson = 0.3;    ///< Poisson ratio nu, in (-1, 0.5)
  double density = 1000;   ///< mass density rho [kg/m^3]
};

/// Lamé parameters.
struct Lame {
  double mu;      ///< shear modulus, mu = E / (2 (1 + nu))
  double lambda;  ///< lambda = E nu / ((1 + nu) (1 - 2 nu))
};

/// mu = E / (2(1+nu)), lambda = E nu / ((1+nu)(1-2nu)).
/// Throws InputError unless E > 0 and -1 < nu < 0.5.
Lame lame_from_youngs(double youngs, double poisson);

/// ABD orthogonality stiffness: kappa = mu / 4 = E / (8 (1 + nu)).
/// Chosen so that kappa ||F F^T - I||^2 ~ 4 kappa ||eps||^2 = mu ||eps||^2 for
/// small strain eps, i.e. the shear response of linear elasticity (for nu = 0
/// it equals linear elasticity exactly to second order). There is no separate
/// bulk term, so nu only enters through mu.
double abd_stiffness(double youngs, double poisson);

/// "linear_corotated" | "neo_hookean" | "abd" -> model. Throws InputError for
/// any other name; the message lists the valid names.
ElasticModel parse_model_name(const std::string& name);

/// Inverse of parse_model_name.
std::string model_name(ElasticModel model);

/// Throws InputError (naming the bad field) if E, nu or density is out of range.
void validate(const Material& material);

}  // namespace eipc
