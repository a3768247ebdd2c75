#include "eipc/elasticity/material.hpp"

#include "eipc/common.hpp"

#include <array>
#include <cmath>
#include <utility>

namespace eipc {

namespace {
constexpr std::array<std::pair<const char*, ElasticModel>, 3> kModels{{
    {"linear_corotated", ElasticModel::linear_corotated},
    {"neo_hookean", ElasticModel::neo_hookean},
    {"abd", ElasticModel::abd},
}};
}  // namespace

Lame lame_from_youngs(double youngs, double poisson) {
  if (!(youngs > 0.0) || !std::isfinite(youngs))
    throw InputError("material.youngs must be a positive number, got " + std::to_string(youngs));
  if (!(poisson > -1.0 && poisson < 0.5))
    throw InputError("material.poisson must lie in (-1, 0.5), got " + std::to_string(poisson));
  return {youngs / (2.0 * (1.0 + poisson)), youngs * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson))};
}

double abd_stiffness(double youngs, double poisson) { return lame_from_youngs(youngs, poisson).mu / 4.0; }

ElasticModel parse_model_name(const std::string& name) {
  for (const auto& [key, model] : kModels)
    if (name == key) return model;
  std::string valid;
  for (const auto& entry : kModels) valid += std::string(valid.empty() ? "" : ", ") + entry.first;
  throw InputError("unknown material model '" + name + "' (valid: " + valid + ")");
}

std::string model_name(ElasticModel model) {
  for (const auto& [key, m] : kModels)
    if (m == model) return key;
  return "unknown";
}

void validate(const Material& material) {
  lame_from_youngs(material.youngs, material.poisson);
  if (!(material.density > 0.0) || !std::isfinite(material.density))
    throw InputError("material.density must be a positive number, got " + std::to_string(material.density));
}

}  // namespace eipc
