#include "eipc/dynamics/incremental_potential.hpp"

#include "eipc/contact/barrier_potential.hpp"
#include "eipc/contact/friction_potential.hpp"

namespace eipc {

namespace {

Positions body_nodes(const DofSystem& sys, int body, const Positions& q) {
  return q.middleRows(sys.node_offset(body), sys.bodies()[body].num_nodes());
}

/// 3D block expansion of a scalar node matrix: A (n x n) -> A kron I3.
void add_expanded(const SparseMatrix& a, double scale, Triplets& out) {
  for (int k = 0; k < a.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(a, k); it; ++it)
      for (int d = 0; d < 3; ++d) out.emplace_back(3 * it.row() + d, 3 * it.col() + d, scale * it.value());
}

}  // namespace

ContactSet IncrementalPotential::contacts(const Positions& q, const Candidates& candidates) const {
  return build_contact_set(sys_.collision_mesh(), sys_.collision_positions(q), candidates, params_.contact.dhat,
                           params_.ground_height);
}

double IncrementalPotential::energy(const StepState& s, const Positions& q, const ContactSet& contacts) const {
  const double h2 = params_.dt * params_.dt;
  const Positions dq = q - s.q_tilde;
  double e = 0.0;
  for (int d = 0; d < 3; ++d) e += 0.5 * dq.col(d).dot(sys_.node_mass() * dq.col(d));
  for (std::size_t i = 0; i < sys_.elastic_bodies().size(); ++i)
    e += h2 * sys_.elastic_bodies()[i].energy(body_nodes(sys_, sys_.elastic_body_index()[i], q));
  e -= h2 * flat(s.external_force).dot(flat(q));

  const Positions x = sys_.collision_positions(q);
  const CollisionMesh& mesh = sys_.collision_mesh();
  e += h2 * params_.contact.kappa * barrier_potential(mesh, x, contacts, params_.contact.dhat);
  if (s.friction) e += h2 * friction_potential(x, s.x_prev, *s.friction);

  if (s.damping.nonZeros() > 0) {
    const VecX step = flat(q) - flat(s.q_prev);
    e += 0.5 * step.dot(s.damping * step);
  }
  for (const PrescribedTarget& t : s.targets) {
    const Vec3 r = q.row(t.node).transpose() - t.target;
    e += t.weight * (0.5 * s.al_stiffness * r.squaredNorm() - t.lambda.dot(r));
  }
  return e;
}

VecX IncrementalPotential::gradient(const StepState& s, const Positions& q, const ContactSet& contacts) const {
  const double h2 = params_.dt * params_.dt;
  const Positions dq = q - s.q_tilde;
  Positions inertia(q.rows(), 3);
  for (int d = 0; d < 3; ++d) inertia.col(d) = sys_.node_mass() * dq.col(d);
  VecX g = flat(inertia);

  VecX elastic = VecX::Zero(sys_.num_dofs());
  for (std::size_t i = 0; i < sys_.elastic_bodies().size(); ++i) {
    const int body = sys_.elastic_body_index()[i];
    sys_.elastic_bodies()[i].add_gradient(body_nodes(sys_, body, q), elastic, 3 * sys_.node_offset(body));
  }
  g += h2 * (elastic - flat(s.external_force));

  const Positions x = sys_.collision_positions(q);
  const CollisionMesh& mesh = sys_.collision_mesh();
  VecX gx = params_.contact.kappa * barrier_potential_gradient(mesh, x, contacts, params_.contact.dhat);
  if (s.friction)
    gx += friction_potential_gradient(x, s.x_prev, *s.friction);
  g += h2 * sys_.reduced_gradient(gx);

  if (s.damping.nonZeros() > 0) g += s.damping * (flat(q) - flat(s.q_prev));
  for (const PrescribedTarget& t : s.targets) {
    const Vec3 r = q.row(t.node).transpose() - t.target;
    g.segment<3>(3 * t.node) += t.weight * (s.al_stiffness * r - t.lambda);
  }
  return g;
}

SparseMatrix IncrementalPotential::hessian(const StepState& s, const Positions& q, const ContactSet& contacts,
                                           bool project) const {
  const double h2 = params_.dt * params_.dt;
  const int n = sys_.num_dofs();
  Triplets t;
  add_expanded(sys_.node_mass(), 1.0, t);
  Triplets elastic;
  for (std::size_t i = 0; i < sys_.elastic_bodies().size(); ++i) {
    const int body = sys_.elastic_body_index()[i];
    sys_.elastic_bodies()[i].add_hessian_triplets(body_nodes(sys_, body, q), elastic, 3 * sys_.node_offset(body), project);
  }
  for (const auto& e : elastic) t.emplace_back(e.row(), e.col(), h2 * e.value());
  for (const PrescribedTarget& p : s.targets)
    for (int d = 0; d < 3; ++d) t.emplace_back(3 * p.node + d, 3 * p.node + d, p.weight * s.al_stiffness);
  SparseMatrix H(n, n);
  H.setFromTriplets(t.begin(), t.end());

  const Positions x = sys_.collision_positions(q);
  const CollisionMesh& mesh = sys_.collision_mesh();
  Triplets contact = barrier_potential_hessian(mesh, x, contacts, params_.contact.dhat, project);
  for (auto& c : contact) c = {c.row(), c.col(), params_.contact.kappa * c.value()};
  if (s.friction) {
    const Triplets f = friction_potential_hessian(x, s.x_prev, *s.friction, project);
    contact.insert(contact.end(), f.begin(), f.end());
  }
  if (!contact.empty()) {
    SparseMatrix Hx(3 * mesh.num_vertices(), 3 * mesh.num_vertices());
    Hx.setFromTriplets(contact.begin(), contact.end());
    H += h2 * sys_.reduced_hessian(Hx);
  }
  if (s.damping.nonZeros() > 0) H += s.damping;
  return H;
}

SparseMatrix IncrementalPotential::damping_matrix(const Positions& q) const {
  Triplets t;
  for (std::size_t i = 0; i < sys_.elastic_bodies().size(); ++i) {
    const int body = sys_.elastic_body_index()[i];
    const double beta = sys_.bodies()[body].rayleigh_beta;
    if (beta <= 0.0) continue;
    Triplets k;
    sys_.elastic_bodies()[i].add_hessian_triplets(body_nodes(sys_, body, q), k, 3 * sys_.node_offset(body), true);
    for (const auto& e : k) t.emplace_back(e.row(), e.col(), beta * params_.dt * e.value());
  }
  SparseMatrix D(sys_.num_dofs(), sys_.num_dofs());
  D.setFromTriplets(t.begin(), t.end());
  return D;
}

}  // namespace eipc
