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

/// The separation along axis k of the box of the vertices `a` of x and the
/// box of the vertices `b` (negative when they overlap along k).
template <int NA, int NB>
double axis_gap(const Positions& x, const std::array<int, NA>& a, const std::array<int, NB>& b, int k) {
  double a_lo = x(a[0], k), a_hi = a_lo, b_lo = x(b[0], k), b_hi = b_lo;
  for (int i = 1; i < NA; ++i) {
    a_lo = std::min(a_lo, x(a[i], k));
    a_hi = std::max(a_hi, x(a[i], k));
  }
  for (int i = 1; i < NB; ++i) {
    b_lo = std::min(b_lo, x(b[i], k));
    b_hi = std::max(b_hi, x(b[i], k));
  }
  return std::max(b_lo - a_hi, a_lo - b_hi);
}

/// The gap between the two primitives' boxes: every distance between them is at least this.
template <int NA, int NB>
double box_gap(const Positions& x, const std::array<int, NA>& a, const std::array<int, NB>& b) {
  return std::max({axis_gap<NA, NB>(x, a, b, 0), axis_gap<NA, NB>(x, a, b, 1), axis_gap<NA, NB>(x, a, b, 2)});
}

/// True when, along some axis, the vertices `a` and the vertices `b` of x are
/// at least dhat apart (the boxes of the two primitives are): then every
/// distance between the primitives is >= dhat. A cheap rejection of
/// broad-phase candidates before the exact distance; most stop at an axis
/// before the last.
template <int NA, int NB>
bool boxes_apart(const Positions& x, const std::array<int, NA>& a, const std::array<int, NB>& b, double dhat) {
  for (int k = 0; k < 3; ++k)
    if (axis_gap<NA, NB>(x, a, b, k) >= dhat) return true;
  return false;
}

// Builds the contact for one candidate; returns false when it is inactive or shares a vertex.
// `d2`, when given, receives the squared distance once it is computed.
bool make_point_triangle(const CollisionMesh& mesh, const Positions& x, const PointTriangleCandidate& cand,
                         double dhat, Contact& out, double* d2_out = nullptr) {
  const int p = cand.vertex, f0 = mesh.faces(cand.face, 0), f1 = mesh.faces(cand.face, 1),
            f2 = mesh.faces(cand.face, 2);
  if (p == f0 || p == f1 || p == f2) return false;
  if (boxes_apart<1, 3>(x, {p}, {f0, f1, f2}, dhat)) return false;
  const auto type = point_triangle_distance_type(contact_row(x, p), contact_row(x, f0), contact_row(x, f1), contact_row(x, f2));
  const double d2 = point_triangle_distance_sq(contact_row(x, p), contact_row(x, f0), contact_row(x, f1), contact_row(x, f2), type);
  if (d2_out) *d2_out = d2;
  if (!(d2 < dhat * dhat)) return false;
  out.kind = ContactKind::point_triangle;
  out.vertices = {p, f0, f1, f2};
  out.pt_type = type;
  return true;
}

bool make_edge_edge(const CollisionMesh& mesh, const Positions& x, const EdgeEdgeCandidate& cand, double dhat,
                    Contact& out, double* d2_out = nullptr) {
  const int a0 = mesh.edges(cand.edge_a, 0), a1 = mesh.edges(cand.edge_a, 1), b0 = mesh.edges(cand.edge_b, 0),
            b1 = mesh.edges(cand.edge_b, 1);
  if (a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1) return false;
  if (boxes_apart<2, 2>(x, {a0, a1}, {b0, b1}, dhat)) return false;
  const auto type = edge_edge_distance_type(contact_row(x, a0), contact_row(x, a1), contact_row(x, b0), contact_row(x, b1));
  const double d2 = edge_edge_distance_sq(contact_row(x, a0), contact_row(x, a1), contact_row(x, b0), contact_row(x, b1), type);
  if (d2_out) *d2_out = d2;
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

/// The items i of `in` for which keep(i) is true, in order.
template <class Item, typename Keep>
std::vector<Item> kept_items(const std::vector<Item>& in, Keep keep) {
  std::vector<Item> out;
  parallel_gather(in.size(), 1024, out, [&](std::size_t begin, std::size_t end, std::vector<Item>& dst) {
    for (std::size_t i = begin; i < end; ++i)
      if (keep(i)) dst.push_back(in[i]);
  });
  return out;
}

/// A float not above d (a lower bound stays one when stored as float).
float float_below(double d) {
  const float f = static_cast<float>(d);
  return static_cast<double>(f) > d ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
}

/// Is the pair closer than `distance` (make_point_triangle / make_edge_edge
/// decide), and a lower bound of its distance at x: the distance when it was
/// computed, else the gap between the primitives' boxes (infinity for pairs
/// sharing a vertex, which make_* refuses whatever the positions).
template <int NA, int NB, class Candidate, class Make>
bool measure(const CollisionMesh& mesh, const Positions& x, const Candidate& cand, const std::array<int, NA>& a,
             const std::array<int, NB>& b, double distance, Make make, float& lower_bound) {
  lower_bound = std::numeric_limits<float>::infinity();
  for (int i : a)
    if (std::find(b.begin(), b.end(), i) != b.end()) return false;
  const double gap = box_gap<NA, NB>(x, a, b);
  if (gap >= distance) {
    lower_bound = float_below(gap);
    return false;
  }
  Contact unused;
  double d2 = 0.0;
  const bool near = make(mesh, x, cand, distance, unused, &d2);
  lower_bound = float_below(std::max(gap, std::sqrt(d2) * (1.0 - 1e-12)));
  return near;
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
  out.point_triangle = kept_items(candidates.point_triangle, [&](std::size_t i) {
    Contact c;
    return make_point_triangle(mesh, x, candidates.point_triangle[i], distance, c);
  });
  out.edge_edge = kept_items(candidates.edge_edge, [&](std::size_t i) {
    Contact c;
    return make_edge_edge(mesh, x, candidates.edge_edge[i], distance, c);
  });
  return out;
}

Candidates candidates_within(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                             double distance, std::vector<float>& gaps) {
  if (x.rows() != mesh.num_vertices())
    throw std::invalid_argument("candidates_within: x has a different vertex count than the collision mesh");
  const std::size_t npt = candidates.point_triangle.size();
  gaps.resize(candidates.size());
  Candidates out;
  out.point_triangle = kept_items(candidates.point_triangle, [&](std::size_t i) {
    const PointTriangleCandidate& c = candidates.point_triangle[i];
    return measure<1, 3>(mesh, x, c, {c.vertex}, {mesh.faces(c.face, 0), mesh.faces(c.face, 1), mesh.faces(c.face, 2)},
                         distance, make_point_triangle, gaps[i]);
  });
  out.edge_edge = kept_items(candidates.edge_edge, [&](std::size_t i) {
    const EdgeEdgeCandidate& c = candidates.edge_edge[i];
    return measure<2, 2>(mesh, x, c, {mesh.edges(c.edge_a, 0), mesh.edges(c.edge_a, 1)},
                         {mesh.edges(c.edge_b, 0), mesh.edges(c.edge_b, 1)}, distance, make_edge_edge, gaps[npt + i]);
  });
  return out;
}

Candidates candidates_within(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                             double distance, const std::vector<float>& gaps, const std::vector<double>& moved) {
  if (x.rows() != mesh.num_vertices() || moved.size() != std::size_t(mesh.num_vertices()) ||
      gaps.size() != candidates.size())
    throw std::invalid_argument("candidates_within: sizes of x, moved or gaps do not match");
  // A relative margin far above the round-off of gaps, moves and distances.
  const double out_from = distance * (1.0 + 1e-6);
  const std::size_t npt = candidates.point_triangle.size();
  Candidates out;
  out.point_triangle = kept_items(candidates.point_triangle, [&](std::size_t i) {
    const PointTriangleCandidate& c = candidates.point_triangle[i];
    const double face_moved = std::max({moved[std::size_t(mesh.faces(c.face, 0))], moved[std::size_t(mesh.faces(c.face, 1))],
                                        moved[std::size_t(mesh.faces(c.face, 2))]});
    if (double(gaps[i]) - moved[std::size_t(c.vertex)] - face_moved >= out_from) return false;
    Contact contact;
    return make_point_triangle(mesh, x, c, distance, contact);
  });
  out.edge_edge = kept_items(candidates.edge_edge, [&](std::size_t i) {
    const EdgeEdgeCandidate& c = candidates.edge_edge[i];
    const double a_moved = std::max(moved[std::size_t(mesh.edges(c.edge_a, 0))], moved[std::size_t(mesh.edges(c.edge_a, 1))]);
    const double b_moved = std::max(moved[std::size_t(mesh.edges(c.edge_b, 0))], moved[std::size_t(mesh.edges(c.edge_b, 1))]);
    if (double(gaps[npt + i]) - a_moved - b_moved >= out_from) return false;
    Contact contact;
    return make_edge_edge(mesh, x, c, distance, contact);
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
