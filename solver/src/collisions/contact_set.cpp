#include "eipc/collisions/contact_set.hpp"

#include "eipc/distance/edge_edge.hpp"
#include "eipc/distance/edge_edge_mollifier.hpp"
#include "eipc/distance/point_triangle.hpp"

#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace eipc {
namespace {

Vec3 contact_row(const Positions& x, int i) { return x.row(i).transpose(); }

/// True when, along some axis, the vertices `a` and the vertices `b` of x are
/// at least dhat apart (the boxes of the two primitives are): then every
/// distance between the primitives is >= dhat. A cheap rejection of
/// broad-phase candidates before the exact distance; most stop at an axis
/// before the last.
template <int NA, int NB>
bool boxes_apart(const Positions& x, const std::array<int, NA>& a, const std::array<int, NB>& b, double dhat) {
  for (int k = 0; k < 3; ++k) {
    double a_lo = x(a[0], k), a_hi = a_lo, b_lo = x(b[0], k), b_hi = b_lo;
    for (int i = 1; i < NA; ++i) {
      a_lo = std::min(a_lo, x(a[i], k));
      a_hi = std::max(a_hi, x(a[i], k));
    }
    for (int i = 1; i < NB; ++i) {
      b_lo = std::min(b_lo, x(b[i], k));
      b_hi = std::max(b_hi, x(b[i], k));
    }
    if (b_lo - a_hi >= dhat || a_lo - b_hi >= dhat) return true;
  }
  return false;
}

// Builds the contact for one candidate; returns false when it is inactive or shares a vertex.
bool make_point_triangle(const CollisionMesh& mesh, const Positions& x, const PointTriangleCandidate& cand,
                         double dhat, Contact& out) {
  const int p = cand.vertex, f0 = mesh.faces(cand.face, 0), f1 = mesh.faces(cand.face, 1),
            f2 = mesh.faces(cand.face, 2);
  if (p == f0 || p == f1 || p == f2) return false;
  if (boxes_apart<1, 3>(x, {p}, {f0, f1, f2}, dhat)) return false;
  const auto type = point_triangle_distance_type(contact_row(x, p), contact_row(x, f0), contact_row(x, f1), contact_row(x, f2));
  const double d2 = point_triangle_distance_sq(contact_row(x, p), contact_row(x, f0), contact_row(x, f1), contact_row(x, f2), type);
  if (!(d2 < dhat * dhat)) return false;
  out.kind = ContactKind::point_triangle;
  out.vertices = {p, f0, f1, f2};
  out.pt_type = type;
  return true;
}

bool make_edge_edge(const CollisionMesh& mesh, const Positions& x, const EdgeEdgeCandidate& cand, double dhat,
                    Contact& out) {
  const int a0 = mesh.edges(cand.edge_a, 0), a1 = mesh.edges(cand.edge_a, 1), b0 = mesh.edges(cand.edge_b, 0),
            b1 = mesh.edges(cand.edge_b, 1);
  if (a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1) return false;
  if (boxes_apart<2, 2>(x, {a0, a1}, {b0, b1}, dhat)) return false;
  const auto type = edge_edge_distance_type(contact_row(x, a0), contact_row(x, a1), contact_row(x, b0), contact_row(x, b1));
  const double d2 = edge_edge_distance_sq(contact_row(x, a0), contact_row(x, a1), contact_row(x, b0), contact_row(x, b1), type);
  if (!(d2 < dhat * dhat)) return false;
  out.kind = ContactKind::edge_edge;
  out.vertices = {a0, a1, b0, b1};
  out.ee_type = type;
  out.eps_x = edge_edge_mollifier_threshold(contact_row(mesh.rest, a0), contact_row(mesh.rest, a1), contact_row(mesh.rest, b0),
                                            contact_row(mesh.rest, b1));
  return true;
}

// The active contacts of items [0, n), in index order. Most candidates are
// rejected by the box test (~0.03 us each), so chunks are large.
template <typename F> void collect(std::size_t n, F make, std::vector<Contact>& out) {
  parallel_gather(n, 1024, out, [&](std::size_t begin, std::size_t end, std::vector<Contact>& dst) {
    Contact c;
    for (std::size_t i = begin; i < end; ++i)
      if (make(i, c)) dst.push_back(c);
  });
}

/// The items of `in` for which make(item, contact) is true, in order.
template <class Item, typename Make>
std::vector<Item> kept(const std::vector<Item>& in, Make make) {
  std::vector<Item> out;
  parallel_gather(in.size(), 1024, out, [&](std::size_t begin, std::size_t end, std::vector<Item>& dst) {
    Contact c;
    for (std::size_t i = begin; i < end; ++i)
      if (make(in[i], c)) dst.push_back(in[i]);
  });
  return out;
}

}  // namespace

ContactSet build_contact_set(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                             double dhat, std::optional<double> ground_height) {
  if (x.rows() != mesh.num_vertices())
    throw std::invalid_argument("build_contact_set: x has a different vertex count than the collision mesh");
  ContactSet set;
  set.dhat = dhat;
  set.ground_height = ground_height;
  collect(
      candidates.point_triangle.size(),
      [&](std::size_t i, Contact& c) { return make_point_triangle(mesh, x, candidates.point_triangle[i], dhat, c); },
      set.contacts);
  collect(
      candidates.edge_edge.size(),
      [&](std::size_t i, Contact& c) { return make_edge_edge(mesh, x, candidates.edge_edge[i], dhat, c); },
      set.contacts);
  if (ground_height) {
    const double h = *ground_height;
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      if (x(i, 2) - h < dhat) {
        Contact c;
        c.kind = ContactKind::point_ground;
        c.vertices = {static_cast<int>(i), -1, -1, -1};
        set.contacts.push_back(c);
      }
  }
  return set;
}

Candidates candidates_within(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                             double distance) {
  if (x.rows() != mesh.num_vertices())
    throw std::invalid_argument("candidates_within: x has a different vertex count than the collision mesh");
  Candidates out;
  out.point_triangle = kept(candidates.point_triangle, [&](const PointTriangleCandidate& p, Contact& c) {
    return make_point_triangle(mesh, x, p, distance, c);
  });
  out.edge_edge = kept(candidates.edge_edge, [&](const EdgeEdgeCandidate& e, Contact& c) {
    return make_edge_edge(mesh, x, e, distance, c);
  });
  return out;
}

bool same_pairs(const ContactSet& a, const ContactSet& b) {
  return std::equal(a.contacts.begin(), a.contacts.end(), b.contacts.begin(), b.contacts.end(),
                    [](const Contact& p, const Contact& q) {
                      return p.kind == q.kind && p.vertices == q.vertices && p.pt_type == q.pt_type &&
                             p.ee_type == q.ee_type;
                    });
}

double contact_distance(const Contact& c, const Positions& x, std::optional<double> ground_height) {
  const auto& v = c.vertices;
  switch (c.kind) {
    case ContactKind::point_triangle:
      return std::sqrt(point_triangle_distance_sq(contact_row(x, v[0]), contact_row(x, v[1]), contact_row(x, v[2]), contact_row(x, v[3]), c.pt_type));
    case ContactKind::edge_edge:
      return std::sqrt(edge_edge_distance_sq(contact_row(x, v[0]), contact_row(x, v[1]), contact_row(x, v[2]), contact_row(x, v[3]), c.ee_type));
    case ContactKind::point_ground:
      return x(v[0], 2) - ground_height.value_or(0.0);
  }
  return 0.0;
}

double closest_contact_distance(const ContactSet& contacts, const Positions& x) {
  double closest = std::numeric_limits<double>::infinity();
  for (const Contact& c : contacts.contacts) closest = std::min(closest, contact_distance(c, x, contacts.ground_height));
  return closest;
}

}  // namespace eipc
