#include "eipc/contact/contact_set.hpp"

#include "eipc/contact/edge_edge_distance.hpp"
#include "eipc/contact/edge_edge_mollifier.hpp"
#include "eipc/contact/point_triangle_distance.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace eipc {
namespace {

Vec3 contact_row(const Positions& x, int i) { return x.row(i).transpose(); }

/// True when the boxes of the two vertex groups are at least dhat apart along
/// some axis: then every distance between them is >= dhat (cheap rejection of
/// broad-phase candidates before the exact distance).
template <std::size_t A, std::size_t B>
bool boxes_apart(const Positions& x, const std::array<int, A>& a, const std::array<int, B>& b, double dhat) {
  for (int k = 0; k < 3; ++k) {
    double alo = x(a[0], k), ahi = alo, blo = x(b[0], k), bhi = blo;
    for (std::size_t i = 1; i < A; ++i) alo = std::min(alo, x(a[i], k)), ahi = std::max(ahi, x(a[i], k));
    for (std::size_t i = 1; i < B; ++i) blo = std::min(blo, x(b[i], k)), bhi = std::max(bhi, x(b[i], k));
    if (blo - ahi >= dhat || alo - bhi >= dhat) return true;
  }
  return false;
}

// Builds the contact for one candidate; returns false when it is inactive or shares a vertex.
bool make_point_triangle(const CollisionMesh& mesh, const Positions& x, const PointTriangleCandidate& cand,
                         double dhat, Contact& out) {
  const int p = cand.vertex, f0 = mesh.faces(cand.face, 0), f1 = mesh.faces(cand.face, 1),
            f2 = mesh.faces(cand.face, 2);
  if (p == f0 || p == f1 || p == f2) return false;
  if (boxes_apart(x, std::array<int, 1>{p}, std::array<int, 3>{f0, f1, f2}, dhat)) return false;
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
  if (boxes_apart(x, std::array<int, 2>{a0, a1}, std::array<int, 2>{b0, b1}, dhat)) return false;
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

// Evaluate n items in parallel into per-item slots, then keep the active ones in index order.
template <typename F> void collect(std::size_t n, F make, std::vector<Contact>& out) {
  std::vector<Contact> slot(n);
  std::vector<char> keep(n, 0);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) { keep[i] = make(i, slot[i]) ? 1 : 0; });
  for (std::size_t i = 0; i < n; ++i)
    if (keep[i]) out.push_back(slot[i]);
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
    collect(
        static_cast<std::size_t>(x.rows()),
        [&](std::size_t i, Contact& c) {
          if (!(x(static_cast<Eigen::Index>(i), 2) - h < dhat)) return false;
          c.kind = ContactKind::point_ground;
          c.vertices = {static_cast<int>(i), -1, -1, -1};
          return true;
        },
        set.contacts);
  }
  return set;
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

}  // namespace eipc
