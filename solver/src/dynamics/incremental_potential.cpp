#include "eipc/dynamics/incremental_potential.hpp"

#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/friction/friction_potential.hpp"
#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace eipc {

namespace {

Positions body_nodes(const DofSystem& sys, int body, const Positions& q) {
  return q.middleRows(sys.node_offset(body), sys.bodies()[body].num_nodes());
}

/// For each friction contact, the index of the contact on the same vertices
/// (same kind, same vertex order), or -1.
std::vector<int> contacts_on_same_vertices(const std::vector<Contact>& contacts,
                                           const std::vector<FrictionContact>& friction) {
  using Key = std::pair<int, std::array<int, 4>>;
  std::vector<std::pair<Key, int>> sorted;
  sorted.reserve(contacts.size());
  for (std::size_t i = 0; i < contacts.size(); ++i)
    sorted.push_back({{static_cast<int>(contacts[i].kind), contacts[i].vertices}, static_cast<int>(i)});
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> into(friction.size(), -1);
  for (std::size_t k = 0; k < friction.size(); ++k) {
    const Key key{static_cast<int>(friction[k].kind), friction[k].vertices};
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), std::make_pair(key, -1));
    if (it != sorted.end() && it->first == key) into[k] = it->second;
  }
  return into;
}

/// D x for D = s.damping, bit for bit as Eigen's `D * x` (column-major D: each
/// entry summed from 0 over D_ij x_j in increasing j; `g += D * x` also sums
/// the product apart, then adds it), but as a gather along D's rows, the sum
/// in a register rather than read and written at every entry. D is symmetric
/// bit for bit, so column i holds row i.
VecX damping_times(const StepContext& s, const VecX& x) {
  const SparseMatrix& D = s.damping;
  if (!D.isCompressed()) return D * x;
  if (s.damping_memo_x.size() == x.size() &&
      std::memcmp(s.damping_memo_x.data(), x.data(), sizeof(double) * std::size_t(x.size())) == 0)  // bits, not ==: -0
    return s.damping_memo;
  const int* start = D.outerIndexPtr();
  const int* col = D.innerIndexPtr();
  const double* d = D.valuePtr();
  const double* xs = x.data();
  VecX y(D.rows());
  for (Eigen::Index i = 0; i < D.rows(); ++i) {
    double sum = 0.0;
    for (int p = start[i]; p < start[i + 1]; ++p) sum += d[p] * xs[col[p]];
    y[i] = sum;
  }
  s.damping_memo_x = x;
  s.damping_memo = y;
  return y;
}

/// fn(i) for every elastic body i, the bodies side by side (each one's tets in
/// parallel too): their DOFs, and so their gradient entries and Hessian value
/// slots, are disjoint. A few small bodies (two 212-tet bubbles beside a 61-tet
/// embedded bear) keep two threads busier this way than one after the other.
template <typename Fn>
void for_each_elastic_body(const DofSystem& sys, Fn&& fn) {
  parallel_for_each(sys.elastic_bodies().size(), 1, [&](std::size_t i) { fn(i); });
}

}  // namespace

ContactSet IncrementalPotential::contacts(const Positions& q, const Candidates& candidates) const {
  return build_contact_set(sys_.collision().mesh(), *sys_.collision().shared_positions(q), candidates, params_.contact.dhat,
                           params_.ground_height);
}

std::vector<double> IncrementalPotential::elastic_energies(const Positions& q, VecX* elastic) const {
  const std::size_t n = sys_.elastic_bodies().size();
  const std::size_t nr = sys_.rotated_bodies().size();
  std::vector<double> energies(n + nr + sys_.shell_bodies().size());
  if (elastic) *elastic = VecX::Zero(sys_.num_dofs());
  for_each_elastic_body(sys_, [&](std::size_t i) {
    const int body = sys_.elastic_body_index()[i];
    const ElasticBody& eb = sys_.elastic_bodies()[i];
    energies[i] = elastic ? eb.energy_and_add_gradient(body_nodes(sys_, body, q), *elastic, 3 * sys_.node_offset(body))
                          : eb.energy(body_nodes(sys_, body, q));
  });
  for (std::size_t i = 0; i < sys_.rotated_bodies().size(); ++i) {
    const int body = sys_.rotated_body_index()[i];
    const RotatedLinearElasticity& rb = sys_.rotated_bodies()[i];
    if (!elastic) {
      energies[n + i] = rb.energy(body_nodes(sys_, body, q));
      continue;
    }
    VecX g;
    energies[n + i] = rb.energy_and_gradient(body_nodes(sys_, body, q), g);
    elastic->segment(3 * sys_.node_offset(body), g.size()) += g;
  }
  for (std::size_t i = 0; i < sys_.shell_bodies().size(); ++i) {
    const int body = sys_.shell_body_index()[i];
    const ShellBody& sb = sys_.shell_bodies()[i];
    energies[n + nr + i] = elastic ? sb.energy_and_add_gradient(body_nodes(sys_, body, q), *elastic, 3 * sys_.node_offset(body))
                                   : sb.energy(body_nodes(sys_, body, q));
  }
  return energies;
}

double IncrementalPotential::energy(const StepContext& s, const Positions& q, const ContactSet& contacts) const {
  return energy(s, q, contacts, elastic_energies(q), damping_energy(s, q));
}

double IncrementalPotential::damping_energy(const StepContext& s, const Positions& q) const {
  if (s.damping.nonZeros() == 0) return 0.0;
  const VecX step = flat(q) - flat(s.q_prev);
  return 0.5 * step.dot(damping_times(s, step));
}

double IncrementalPotential::energy(const StepContext& s, const Positions& q, const ContactSet& contacts,
                                   const std::vector<double>& elastic, double damping) const {
  const double h2 = params_.dt * params_.dt;
  const Positions dq = q - s.q_tilde;
  double e = 0.0;
  for (int d = 0; d < 3; ++d) e += 0.5 * dq.col(d).dot(sys_.node_mass() * dq.col(d));
  for (double body_energy : elastic) e += h2 * body_energy;
  e -= h2 * flat(s.external_force).dot(flat(q));

  const std::shared_ptr<const Positions> at = sys_.collision().shared_positions(q);
  const Positions& x = *at;
  const CollisionMesh& mesh = sys_.collision().mesh();
  e += h2 * params_.contact.kappa * barrier_potential(mesh, x, contacts, params_.contact.dhat);
  if (s.friction) e += h2 * friction_potential(x, s.x_prev, *s.friction);

  if (s.damping.nonZeros() > 0) e += damping;
  for (const PrescribedTarget& t : s.targets) {
    const Vec3 r = q.row(t.node).transpose() - t.target;
    e += t.weight * (0.5 * s.al_stiffness * r.squaredNorm() - t.lambda.dot(r));
  }
  return e;
}

IncrementalPotential::IncrementalPotential(const DofSystem& system, const SimulationParams& params)
    : sys_(system), params_(params), pattern_(system), pullback_(system.collision()), contact_pattern_(pattern_.mass()) {}

VecX IncrementalPotential::gradient(const StepContext& s, const Positions& q, const ContactSet& contacts) const {
  VecX elastic = VecX::Zero(sys_.num_dofs());
  VecX contact;
  parallel_both([&] { elastic_gradient(q, elastic); },
                [&] { contact = contact_gradient(s, q, contacts); });
  return gradient_from_parts(s, q, elastic, contact);
}

VecX IncrementalPotential::contact_gradient(const StepContext& s, const Positions& q, const ContactSet& contacts) const {
  return contact_gradient_at_x(s, *sys_.collision().shared_positions(q), contacts);
}

void IncrementalPotential::elastic_gradient(const Positions& q, VecX& elastic) const {
  for_each_elastic_body(sys_, [&](std::size_t i) {
    const int body = sys_.elastic_body_index()[i];
    sys_.elastic_bodies()[i].add_gradient(body_nodes(sys_, body, q), elastic, 3 * sys_.node_offset(body));
  });
  for (std::size_t i = 0; i < sys_.rotated_bodies().size(); ++i) {
    const int body = sys_.rotated_body_index()[i];
    VecX g;
    sys_.rotated_bodies()[i].energy_and_gradient(body_nodes(sys_, body, q), g);
    elastic.segment(3 * sys_.node_offset(body), g.size()) += g;
  }
  for (std::size_t i = 0; i < sys_.shell_bodies().size(); ++i) {
    const int body = sys_.shell_body_index()[i];
    sys_.shell_bodies()[i].add_gradient(body_nodes(sys_, body, q), elastic, 3 * sys_.node_offset(body));
  }
}

VecX IncrementalPotential::contact_gradient_at_x(const StepContext& s, const Positions& x, const ContactSet& contacts) const {
  const CollisionMesh& mesh = sys_.collision().mesh();
  VecX gx = params_.contact.kappa * barrier_potential_gradient(mesh, x, contacts, params_.contact.dhat);
  if (s.friction) gx += friction_potential_gradient(x, s.x_prev, *s.friction);
  // Only the contacts' vertices have a gradient: pull back those alone.
  std::vector<int> touched;
  auto add = [&](const auto& list) {
    for (const auto& c : list)
      for (int i = 0; i < c.num_vertices(); ++i) touched.push_back(c.vertices[std::size_t(i)]);
  };
  add(contacts.contacts);
  if (s.friction) add(s.friction->contacts);
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  return sys_.collision().pull_back(gx, touched);
}

VecX IncrementalPotential::gradient_from_parts(const StepContext& s, const Positions& q, const VecX& elastic,
                                               const VecX& contact) const {
  const double h2 = params_.dt * params_.dt;
  const Positions dq = q - s.q_tilde;
  Positions inertia(q.rows(), 3);
  for (int d = 0; d < 3; ++d) inertia.col(d) = sys_.node_mass() * dq.col(d);
  VecX g = flat(inertia);
  g += h2 * (elastic - flat(s.external_force));
  g += h2 * contact;

  if (s.damping.nonZeros() > 0) g += damping_times(s, flat(q) - flat(s.q_prev));
  for (const PrescribedTarget& t : s.targets) {
    const Vec3 r = q.row(t.node).transpose() - t.target;
    g.segment<3>(3 * t.node) += t.weight * (s.al_stiffness * r - t.lambda);
  }
  return g;
}

SparseMatrix IncrementalPotential::hessian(const StepContext& s, const Positions& q, const ContactSet& contacts,
                                           bool project) const {
  VecX g;
  SparseMatrix H;
  gradient_and_hessian(s, q, contacts, project, g, H);
  return H;
}

void IncrementalPotential::gradient_and_hessian(const StepContext& s, const Positions& q, const ContactSet& contacts,
                                                Projection project, VecX& gradient, SparseMatrix& H,
                                                const VecX* known_gradient) const {
  const double h2 = params_.dt * params_.dt;
  // Mass, elasticity, damping and the augmented Lagrangian on the fixed pattern.
  const SparseMatrix& fixed = pattern_.mass();
  if (s.damping.nonZeros() > 0 &&
      (s.damping.nonZeros() != fixed.nonZeros() || s.damping.cols() != fixed.cols() ||
       !std::equal(fixed.outerIndexPtr(), fixed.outerIndexPtr() + fixed.cols() + 1, s.damping.outerIndexPtr()) ||
       !std::equal(fixed.innerIndexPtr(), fixed.innerIndexPtr() + fixed.nonZeros(), s.damping.innerIndexPtr())))
    throw std::invalid_argument("StepContext::damping is not on the Hessian pattern (use damping_matrix())");
  std::vector<double>& values = fixed_values_;
  VecX elastic = VecX::Zero(sys_.num_dofs());
  std::vector<double>* memo = s.reuse_elastic_hessian ? &s.elastic_hessian_memo[project.elastic ? 1 : 0] : nullptr;
  auto fixed_part = [&] {
    const double* d = s.damping.nonZeros() > 0 ? s.damping.valuePtr() : nullptr;
    if (memo && !memo->empty()) {
      if (d) {  // the kept part and the damping in one pass (the same single sum per value)
        values.resize(memo->size());
        for (std::size_t k = 0; k < values.size(); ++k) values[k] = (*memo)[k] + d[k];
      } else {
        values = *memo;
      }
      if (!known_gradient) elastic_gradient(q, elastic);
    } else {
      elastic_part(q, project.elastic, values, elastic);
      if (memo) *memo = values;
      if (d)
        for (std::size_t k = 0; k < values.size(); ++k) values[k] += d[k];
    }
    for (const PrescribedTarget& p : s.targets)
      for (int d = 0; d < 3; ++d) values[pattern_.diagonal_slot(3 * p.node + d)] += p.weight * s.al_stiffness;
  };
  // Meanwhile, contact and friction blocks, pulled back to the nodes contact by
  // contact and added into the grown pattern; a node pair not seen before grows
  // it (rare). The fixed part is added once both are done.
  const std::shared_ptr<const Positions> at = sys_.collision().shared_positions(q);
  const Positions& x = *at;
  VecX contact;
  auto contact_part = [&] {
    if (!known_gradient) contact = contact_gradient_at_x(s, x, contacts);
    // Scaled barrier Hessians, each with the friction Hessian of the same
    // vertices added: one pull-back per vertex tuple, not two (an embedded
    // contact has up to 16 nodes, so 49-100 node blocks to pull back).
    std::vector<Mat<12>> local = barrier_potential_local_hessians(x, contacts, params_.contact.dhat, project.contact);
    for (Mat<12>& m : local) m *= h2 * params_.contact.kappa;
    std::vector<FrictionContact> unmatched;
    std::vector<Mat<12>> unmatched_local;
    if (s.friction) {
      const std::vector<Mat<12>> friction = friction_potential_local_hessians(x, s.x_prev, *s.friction, project.contact);
      const std::vector<int> into = contacts_on_same_vertices(contacts.contacts, s.friction->contacts);
      for (std::size_t k = 0; k < friction.size(); ++k) {
        if (into[k] >= 0) {
          local[into[k]] += h2 * friction[k];
        } else {
          unmatched.push_back(s.friction->contacts[k]);
          unmatched_local.push_back(h2 * friction[k]);
        }
      }
    }
    contact_pattern_.reset_if_oversized();
    for (;;) {
      H = contact_pattern_.matrix();
      missing_.clear();
      scatter_contacts(contacts.contacts, local, H, missing_);
      scatter_contacts(unmatched, unmatched_local, H, missing_);
      if (missing_.empty()) return;
      contact_pattern_.grow(missing_);
    }
  };
  parallel_both(fixed_part, contact_part);
  double* h = H.valuePtr();
  const std::vector<int>& to = contact_pattern_.fixed_slots();
  // Distinct slots: split freely (the grasp's 21k values took ~35 us serially).
  parallel_for_chunks(values.size(), grain_for(0.002), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) h[to[k]] += values[k];
  });
  gradient = known_gradient ? *known_gradient : gradient_from_parts(s, q, elastic, contact);
}

template <class ContactList>
void IncrementalPotential::scatter_contacts(const ContactList& contacts, const std::vector<Mat<12>>& local,
                                            SparseMatrix& H, std::vector<std::pair<int, int>>& missing) const {
  double* h = H.valuePtr();
  for (std::size_t k = 0; k < local.size(); ++k)
    pullback_.for_each_block(contacts[k].vertices, contacts[k].num_vertices(), local[k],
                             [&](int row_node, int col_node, const Mat3& block) {
                               const std::array<int, 3>* slots = contact_pattern_.block_slots(row_node, col_node);
                               if (!slots) {
                                 missing.emplace_back(row_node, col_node);
                                 return;
                               }
                               for (int b = 0; b < 3; ++b)
                                 for (int a = 0; a < 3; ++a) h[(*slots)[b] + a] += block(a, b);
                             });
}

void IncrementalPotential::scatter_elements(std::size_t i, double scale, double* values) const {
  for (int t = 0; t < sys_.elastic_bodies()[i].num_tets(); ++t) {
    // In the block's memory order (the slots are column-major too): a tet's 144
    // slots are distinct, so the order changes no sum. Row by row it was 11
    // instructions an entry (6% of the grasp's), reading the block with stride 12.
    const int* slots = pattern_.element_slots(static_cast<int>(i), t);
    const double* ht = local_h_[i][t].data();
    // Unrolled: the loop's own count and branch were 2 of its 9 instructions an entry.
#pragma GCC unroll 16
    for (int k = 0; k < 144; ++k) values[slots[k]] += scale * ht[k];
  }
}

void IncrementalPotential::scatter_dense(std::size_t i, const MatX& hessian, double scale, double* values) const {
  const std::vector<int>& slots = pattern_.dense_slots(static_cast<int>(i));
  const double* hb = hessian.data();  // column-major, as the slots
  for (std::size_t k = 0; k < slots.size(); ++k) values[slots[k]] += scale * hb[k];
}

void IncrementalPotential::elastic_part(const Positions& q, bool project, std::vector<double>& values,
                                        VecX& elastic) const {
  const double h2 = params_.dt * params_.dt;
  const SparseMatrix& fixed = pattern_.mass();
  values.assign(fixed.valuePtr(), fixed.valuePtr() + fixed.nonZeros());
  local_g_.resize(sys_.elastic_bodies().size());
  local_h_.resize(sys_.elastic_bodies().size());
  for_each_elastic_body(sys_, [&](std::size_t i) {
    const int body = sys_.elastic_body_index()[i];
    const ElasticBody& eb = sys_.elastic_bodies()[i];
    eb.tet_derivatives(body_nodes(sys_, body, q), project, local_g_[i], local_h_[i]);
    eb.add_tet_gradients(local_g_[i], elastic, 3 * sys_.node_offset(body));
    scatter_elements(i, h2, values.data());
  });
  for (std::size_t i = 0; i < sys_.rotated_bodies().size(); ++i) {
    const int body = sys_.rotated_body_index()[i];
    VecX g;
    MatX hb;
    sys_.rotated_bodies()[i].gradient_and_hessian(body_nodes(sys_, body, q), g, hb);
    elastic.segment(3 * sys_.node_offset(body), g.size()) += g;
    scatter_dense(i, hb, h2, values.data());
  }
  shell_g_.resize(sys_.shell_bodies().size());
  shell_h_.resize(sys_.shell_bodies().size());
  for (std::size_t i = 0; i < sys_.shell_bodies().size(); ++i) {
    const int body = sys_.shell_body_index()[i];
    const ShellBody& sb = sys_.shell_bodies()[i];
    sb.element_derivatives(body_nodes(sys_, body, q), project, shell_g_[i], shell_h_[i]);
    sb.add_element_gradients(shell_g_[i], elastic, 3 * sys_.node_offset(body));
    for (int t = 0; t < sb.num_triangles(); ++t) {
      const int* slots = pattern_.shell_slots(static_cast<int>(i), t);
      const double* ht = shell_h_[i][t].data();
      for (int k = 0; k < 324; ++k)
        if (slots[k] >= 0) values[slots[k]] += h2 * ht[k];
    }
  }
}

SparseMatrix IncrementalPotential::damping_matrix(const Positions& q) const {
  // Same per-tet derivatives and value positions as the Hessian's elastic part.
  // One named result returned on every path: Eigen's SparseMatrix has no move,
  // so `damped ? D : empty` copied it once more.
  SparseMatrix D(sys_.num_dofs(), sys_.num_dofs());
  bool damped = false;
  for (std::size_t i = 0; i < sys_.elastic_bodies().size(); ++i)
    damped = damped || sys_.bodies()[sys_.elastic_body_index()[i]].rayleigh_beta > 0.0;
  for (std::size_t i = 0; i < sys_.rotated_bodies().size(); ++i)
    damped = damped || sys_.bodies()[sys_.rotated_body_index()[i]].rayleigh_beta > 0.0;
  if (!damped) return D;
  D = pattern_.mass();
  std::fill(D.valuePtr(), D.valuePtr() + D.nonZeros(), 0.0);
  local_h_.resize(sys_.elastic_bodies().size());
  for_each_elastic_body(sys_, [&](std::size_t i) {
    const int body = sys_.elastic_body_index()[i];
    const double beta_h = sys_.bodies()[body].rayleigh_beta * params_.dt;
    if (beta_h <= 0.0) return;
    sys_.elastic_bodies()[i].tet_hessians(body_nodes(sys_, body, q), true, local_h_[i]);
    scatter_elements(i, beta_h, D.valuePtr());
  });
  for (std::size_t i = 0; i < sys_.rotated_bodies().size(); ++i) {
    const int body = sys_.rotated_body_index()[i];
    const double beta_h = sys_.bodies()[body].rayleigh_beta * params_.dt;
    if (beta_h <= 0.0) continue;
    VecX g;
    MatX hb;
    sys_.rotated_bodies()[i].gradient_and_hessian(body_nodes(sys_, body, q), g, hb);
    scatter_dense(i, hb, beta_h, D.valuePtr());
  }
  return D;
}

}  // namespace eipc
