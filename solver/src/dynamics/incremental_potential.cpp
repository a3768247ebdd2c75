#include "eipc/dynamics/incremental_potential.hpp"

#include "eipc/contact/barrier_potential.hpp"
#include "eipc/contact/friction_potential.hpp"

namespace eipc {

namespace {

Positions body_nodes(const DofSystem& sys, int body, const Positions& q) {
  return q.middleRows(sys.node_offset(body), sys.bodies()[body].num_nodes());
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

IncrementalPotential::IncrementalPotential(const DofSystem& system, const SimulationParams& params)
    : sys_(system), params_(params), pattern_(system), pullback_(system) {}

VecX IncrementalPotential::gradient(const StepState& s, const Positions& q, const ContactSet& contacts) const {
  VecX elastic = VecX::Zero(sys_.num_dofs());
  for (std::size_t i = 0; i < sys_.elastic_bodies().size(); ++i) {
    const int body = sys_.elastic_body_index()[i];
    sys_.elastic_bodies()[i].add_gradient(body_nodes(sys_, body, q), elastic, 3 * sys_.node_offset(body));
  }
  return gradient_from_elastic(s, q, contacts, elastic);
}

VecX IncrementalPotential::gradient_from_elastic(const StepState& s, const Positions& q, const ContactSet& contacts,
                                                 const VecX& elastic) const {
  const double h2 = params_.dt * params_.dt;
  const Positions dq = q - s.q_tilde;
  Positions inertia(q.rows(), 3);
  for (int d = 0; d < 3; ++d) inertia.col(d) = sys_.node_mass() * dq.col(d);
  VecX g = flat(inertia);
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
  VecX g;
  SparseMatrix H;
  gradient_and_hessian(s, q, contacts, project, g, H);
  return H;
}

void IncrementalPotential::gradient_and_hessian(const StepState& s, const Positions& q, const ContactSet& contacts,
                                                bool project, VecX& gradient, SparseMatrix& H) const {
  const double h2 = params_.dt * params_.dt;
  // Mass, elasticity and the augmented Lagrangian on the fixed pattern.
  H = pattern_.mass();
  double* values = H.valuePtr();
  VecX elastic = VecX::Zero(sys_.num_dofs());
  std::vector<Vec<12>> local_g;
  std::vector<Mat<12>> local_h;
  for (std::size_t i = 0; i < sys_.elastic_bodies().size(); ++i) {
    const int body = sys_.elastic_body_index()[i];
    const ElasticBody& eb = sys_.elastic_bodies()[i];
    eb.tet_derivatives(body_nodes(sys_, body, q), project, local_g, local_h);
    const int offset = 3 * sys_.node_offset(body);
    for (int t = 0; t < eb.num_tets(); ++t) {
      for (int a = 0; a < 4; ++a) elastic.segment<3>(offset + 3 * eb.tets()(t, a)) += local_g[t].segment<3>(3 * a);
      const int* slots = pattern_.element_slots(static_cast<int>(i), t);
      const Mat<12>& ht = local_h[t];
      for (int r = 0; r < 12; ++r)
        for (int c = 0; c < 12; ++c) values[slots[12 * r + c]] += h2 * ht(r, c);
    }
  }
  for (const PrescribedTarget& p : s.targets)
    for (int d = 0; d < 3; ++d) values[pattern_.diagonal_slot(3 * p.node + d)] += p.weight * s.al_stiffness;
  gradient = gradient_from_elastic(s, q, contacts, elastic);

  // Contact and friction blocks, pulled back to the nodes contact by contact.
  const Positions x = sys_.collision_positions(q);
  Triplets t;
  const std::vector<Mat<12>> barrier = barrier_potential_local_hessians(x, contacts, params_.contact.dhat, project);
  for (std::size_t k = 0; k < barrier.size(); ++k)
    pullback_.append(contacts.contacts[k].vertices, contacts.contacts[k].num_vertices(), barrier[k],
                     params_.contact.kappa, t);
  if (s.friction) {
    const std::vector<Mat<12>> friction = friction_potential_local_hessians(x, s.x_prev, *s.friction, project);
    for (std::size_t k = 0; k < friction.size(); ++k)
      pullback_.append(s.friction->contacts[k].vertices, s.friction->contacts[k].num_vertices(), friction[k], 1.0, t);
  }
  if (!t.empty()) {
    SparseMatrix C(sys_.num_dofs(), sys_.num_dofs());
    C.setFromTriplets(t.begin(), t.end());
    H += h2 * C;
  }
  if (s.damping.nonZeros() > 0) H += s.damping;
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
