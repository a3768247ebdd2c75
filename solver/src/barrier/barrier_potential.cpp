#include "eipc/barrier/barrier_potential.hpp"

#include "eipc/barrier/barrier.hpp"
#include "eipc/distance/edge_edge.hpp"
#include "eipc/distance/edge_edge_mollifier.hpp"
#include "eipc/distance/point_triangle.hpp"
#include "eipc/optim/psd.hpp"
#include "../collisions/local_assembly.hpp"

#include <cmath>

namespace eipc {
namespace {

struct Local {
  Vec3 v[4];
};

Local gather(const Contact& c, const Positions& x) {
  Local l;
  for (int i = 0; i < c.num_vertices(); ++i) l.v[i] = x.row(c.vertices[i]).transpose();
  return l;
}

double distance_sq(const Contact& c, const Local& l) {
  return c.kind == ContactKind::point_triangle ? point_triangle_distance_sq(l.v[0], l.v[1], l.v[2], l.v[3], c.pt_type)
                                               : edge_edge_distance_sq(l.v[0], l.v[1], l.v[2], l.v[3], c.ee_type);
}
Vec<12> distance_sq_gradient(const Contact& c, const Local& l) {
  return c.kind == ContactKind::point_triangle
             ? point_triangle_distance_sq_gradient(l.v[0], l.v[1], l.v[2], l.v[3], c.pt_type)
             : edge_edge_distance_sq_gradient(l.v[0], l.v[1], l.v[2], l.v[3], c.ee_type);
}
Mat<12> distance_sq_hessian(const Contact& c, const Local& l) {
  return c.kind == ContactKind::point_triangle
             ? point_triangle_distance_sq_hessian(l.v[0], l.v[1], l.v[2], l.v[3], c.pt_type)
             : edge_edge_distance_sq_hessian(l.v[0], l.v[1], l.v[2], l.v[3], c.ee_type);
}

/// A ground contact's distance beyond its offset (its height less the offset).
double ground_gap(const Contact& c, const Positions& x, std::optional<double> ground_height) {
  return x(c.vertices[0], 2) - ground_height.value_or(0.0) - c.offset;
}

}  // namespace

// Every barrier below is b(d - o), o = c.offset (docs/design.md, "Contact offset").
double contact_barrier(const Contact& c, const Positions& x, double dhat, std::optional<double> ground_height) {
  if (c.kind == ContactKind::point_ground) return barrier(ground_gap(c, x, ground_height), dhat);
  const Local l = gather(c, x);
  const double b = barrier(std::sqrt(distance_sq(c, l)) - c.offset, dhat);
  if (c.kind == ContactKind::edge_edge) return edge_edge_mollifier(l.v[0], l.v[1], l.v[2], l.v[3], c.eps_x) * b;
  return b;
}

/// grad b = b_s grad s (s = d^2);  EE: grad(m b) = m grad b + b grad m
Vec<12> contact_barrier_gradient(const Contact& c, const Positions& x, double dhat,
                                 std::optional<double> ground_height) {
  Vec<12> g = Vec<12>::Zero();
  if (c.kind == ContactKind::point_ground) {
    g(2) = barrier_first_derivative(ground_gap(c, x, ground_height), dhat);
    return g;
  }
  const Local l = gather(c, x);
  const double s = distance_sq(c, l);
  g = barrier_sq_first_derivative(s, dhat, c.offset) * distance_sq_gradient(c, l);
  if (c.kind == ContactKind::edge_edge) {
    const double m = edge_edge_mollifier(l.v[0], l.v[1], l.v[2], l.v[3], c.eps_x);
    if (m < 1) {
      const double b = barrier(std::sqrt(s) - c.offset, dhat);
      g = m * g + b * edge_edge_mollifier_gradient(l.v[0], l.v[1], l.v[2], l.v[3], c.eps_x);
    }
  }
  return g;
}

/// hess b = b_ss grad s grad s^T + b_s hess s;
/// EE: hess(m b) = m hess b + b hess m + grad m grad b^T + grad b grad m^T
Mat<12> contact_barrier_hessian(const Contact& c, const Positions& x, double dhat,
                                std::optional<double> ground_height, bool project_psd) {
  Mat<12> h = Mat<12>::Zero();
  if (c.kind == ContactKind::point_ground) {
    // b''(d) > 0 on (0, dhat): the 1x1 block is already PSD.
    h(2, 2) = barrier_second_derivative(ground_gap(c, x, ground_height), dhat);
    if (project_psd) h(2, 2) = std::max(h(2, 2), 0.0);
    return h;
  }
  const Local l = gather(c, x);
  const double s = distance_sq(c, l);
  const Vec<12> gs = distance_sq_gradient(c, l);
  h = barrier_sq_second_derivative(s, dhat, c.offset) * gs * gs.transpose() +
      barrier_sq_first_derivative(s, dhat, c.offset) * distance_sq_hessian(c, l);
  if (c.kind == ContactKind::edge_edge) {
    const double m = edge_edge_mollifier(l.v[0], l.v[1], l.v[2], l.v[3], c.eps_x);
    if (m < 1) {
      const double b = barrier(std::sqrt(s) - c.offset, dhat);
      const Vec<12> gb = barrier_sq_first_derivative(s, dhat, c.offset) * gs;
      const Vec<12> gm = edge_edge_mollifier_gradient(l.v[0], l.v[1], l.v[2], l.v[3], c.eps_x);
      h = m * h + b * edge_edge_mollifier_hessian(l.v[0], l.v[1], l.v[2], l.v[3], c.eps_x) + gm * gb.transpose() +
          gb * gm.transpose();
    }
  }
  // Distances and the mollifier depend only on differences of the four points.
  if (project_psd) h = project_translation_invariant_psd(h);
  return h;
}

double barrier_potential(const CollisionMesh&, const Positions& x, const ContactSet& contacts, double dhat) {
  const auto local = detail::map_contacts<double>(
      contacts.size(), grain_for(0.15), [&](std::size_t k) { return contact_barrier(contacts.contacts[k], x, dhat, contacts.ground_height); });
  double sum = 0;
  for (double e : local) sum += e;  // fixed order
  return sum;
}

VecX barrier_potential_gradient(const CollisionMesh&, const Positions& x, const ContactSet& contacts, double dhat) {
  const auto local = detail::map_contacts<Vec<12>>(contacts.size(), grain_for(0.4), [&](std::size_t k) {
    return contact_barrier_gradient(contacts.contacts[k], x, dhat, contacts.ground_height);
  });
  VecX g = VecX::Zero(x.size());
  for (std::size_t k = 0; k < local.size(); ++k) detail::scatter_add(contacts.contacts[k], local[k], g);
  return g;
}

std::vector<Mat<12>> barrier_potential_local_hessians(const Positions& x, const ContactSet& contacts, double dhat,
                                                      bool project_psd) {
  return detail::map_contacts<Mat<12>>(contacts.size(), grain_for(4.0), [&](std::size_t k) {
    return contact_barrier_hessian(contacts.contacts[k], x, dhat, contacts.ground_height, project_psd);
  });
}


}  // namespace eipc
