#include "eipc/elasticity/lumped_mass.hpp"

#include <stdexcept>

namespace eipc {

VecX lumped_mass(const Positions& rest, const Tets& tets, const VecX& volumes, double density) {
  if (volumes.size() != tets.rows())
    throw std::invalid_argument("lumped_mass: one volume per tet expected");
  VecX m = VecX::Zero(rest.rows());
  for (Eigen::Index t = 0; t < tets.rows(); ++t)  // fixed order: deterministic
    for (int a = 0; a < 4; ++a) m[tets(t, a)] += 0.25 * density * volumes[t];
  return m;
}

}  // namespace eipc
