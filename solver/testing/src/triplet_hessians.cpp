#include "eipc/testing/triplet_hessians.hpp"

namespace eipc {

namespace {

/// The contact's local block as triplets on its vertices' full-space indices.
template <typename C>
void append_triplets(const C& c, const Mat<12>& local, std::vector<Eigen::Triplet<double>>& out) {
  const int n = c.num_vertices();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          out.emplace_back(3 * c.vertices[i] + a, 3 * c.vertices[j] + b, local(3 * i + a, 3 * j + b));
}

}  // namespace

std::vector<Eigen::Triplet<double>> barrier_potential_hessian(const CollisionMesh&, const Positions& x,
                                                              const ContactSet& contacts, double dhat,
                                                              bool project_psd) {
  const auto local = barrier_potential_local_hessians(x, contacts, dhat, project_psd);
  std::vector<Eigen::Triplet<double>> triplets;
  std::size_t count = 0;
  for (const auto& c : contacts.contacts) count += 9 * c.num_vertices() * c.num_vertices();
  triplets.reserve(count);
  for (std::size_t k = 0; k < local.size(); ++k) append_triplets(contacts.contacts[k], local[k], triplets);
  return triplets;
}

std::vector<Eigen::Triplet<double>> friction_potential_hessian(const Positions& x, const Positions& x_n,
                                                               const FrictionSet& friction, bool project_psd) {
  const auto local = friction_potential_local_hessians(x, x_n, friction, project_psd);
  std::vector<Eigen::Triplet<double>> triplets;
  std::size_t count = 0;
  for (const auto& c : friction.contacts) count += 9 * c.num_vertices() * c.num_vertices();
  triplets.reserve(count);
  for (std::size_t k = 0; k < local.size(); ++k) append_triplets(friction.contacts[k], local[k], triplets);
  return triplets;
}

}  // namespace eipc
