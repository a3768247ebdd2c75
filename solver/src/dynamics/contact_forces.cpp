#include "eipc/dynamics/contact_forces.hpp"

#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/friction/friction_potential.hpp"
#include "eipc/friction/smooth_friction.hpp"
#include "../collisions/local_assembly.hpp"

#include <map>
#include <utility>

namespace eipc {

std::vector<Vec3> contact_normal_forces(const Positions& x, const ContactSet& contacts, double dhat, double kappa) {
  return detail::map_contacts<Vec3>(contacts.size(), grain_for(0.4), [&](std::size_t k) {
    const Contact& c = contacts.contacts[k];
    const Vec<12> g = contact_barrier_gradient(c, x, dhat, contacts.ground_height);
    Vec3 f = Vec3::Zero();
    for (int i = 0; i < c.num_side_a(); ++i) f -= kappa * g.segment<3>(3 * i);
    return f;
  });
}

std::vector<Vec3> contact_friction_forces(const Positions& x, const Positions& x_n, const FrictionSet& friction) {
  return detail::map_contacts<Vec3>(friction.size(), grain_for(0.4), [&](std::size_t k) {
    const FrictionContact& c = friction.contacts[k];
    const Eigen::Vector2d u = friction_relative_displacement(c, x, x_n);
    return Vec3(-c.mu * c.normal_force * friction_f1_over_y(u.norm(), friction.epsv_h) * (c.basis * u));
  });
}

namespace {

// Key (a, b) and sign so that sign * (force on side A) is the force on body a from body b.
// Returns false for self-contact.
template <typename C> bool pair_key(const CollisionMesh& mesh, const C& c, std::pair<int, int>& key, double& sign) {
  const int body_a = mesh.vertex_body[c.vertices[0]];
  if (c.kind == ContactKind::point_ground) {
    key = {body_a, -1};
    sign = 1;
    return true;
  }
  const int body_b = mesh.vertex_body[c.vertices[c.num_side_a()]];
  if (body_a == body_b) return false;
  key = {std::min(body_a, body_b), std::max(body_a, body_b)};
  sign = body_a < body_b ? 1.0 : -1.0;
  return true;
}

}  // namespace

std::vector<BodyPairForce> body_pair_forces(const CollisionMesh& mesh, const ContactSet& contacts,
                                            const std::vector<Vec3>& normal_forces, const FrictionSet& friction,
                                            const std::vector<Vec3>& friction_forces) {
  if (normal_forces.size() != contacts.size() || friction_forces.size() != friction.size())
    throw std::invalid_argument("body_pair_forces: force vectors do not match their contact sets");
  std::map<std::pair<int, int>, BodyPairForce> pairs;  // (a, b) order: ground (-1) first
  auto entry = [&](const std::pair<int, int>& key) -> BodyPairForce& {
    auto [it, inserted] = pairs.try_emplace(key);
    if (inserted) {
      it->second.body_a = key.first;
      it->second.body_b = key.second;
    }
    return it->second;
  };
  std::pair<int, int> key;
  double sign = 1;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    if (!pair_key(mesh, contacts.contacts[k], key, sign)) continue;
    BodyPairForce& p = entry(key);
    p.normal += sign * normal_forces[k];
    p.pairs += 1;
  }
  for (std::size_t k = 0; k < friction.size(); ++k) {
    if (!pair_key(mesh, friction.contacts[k], key, sign)) continue;
    entry(key).friction += sign * friction_forces[k];
  }
  std::vector<BodyPairForce> out;
  out.reserve(pairs.size());
  for (auto& [k, p] : pairs) out.push_back(p);
  return out;
}

}  // namespace eipc
