#include "eipc/collisions/contact_set.hpp"

#include "eipc/distance/edge_edge.hpp"
#include "eipc/distance/edge_edge_mollifier.hpp"
#include "eipc/distance/point_triangle.hpp"

#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
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
  float f = static_cast<float>(d);
  if (!(static_cast<double>(f) > d)) return f;
  if (f > 0.0f && f < std::numeric_limits<float>::infinity()) {  // the next float down, without a libm call
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof f);
    --bits;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  return std::nextafter(f, -std::numeric_limits<float>::infinity());
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

/// Where a primitive's vertices moved: the mean c of their moves and the
/// largest distance r of one of them from it. Points of the primitives are
/// convex combinations of their vertices, so no distance between primitives
/// A and B changed by more than the largest |m_i - m_j| over a vertex i of A
/// and j of B, which is at most |c_A - c_B| + r_A + r_B: one test per pair,
/// on data of its two primitives only.
struct MoveBall {
  double c[3];
  double r;
};

/// The move ball of primitive p (a row of N vertices of `primitives`).
template <int N, class Rows>
MoveBall move_ball(const Positions& moved, const Rows& primitives, int p) {
  Eigen::RowVector3d c = Eigen::RowVector3d::Zero();
  for (int i = 0; i < N; ++i) c += moved.row(primitives(p, i));
  c /= N;
  double r2 = 0.0;
  for (int i = 0; i < N; ++i) r2 = std::max(r2, (moved.row(primitives(p, i)) - c).squaredNorm());
  return MoveBall{{c[0], c[1], c[2]}, std::sqrt(r2)};
}

/// Move balls computed when asked.
template <int N, class Rows>
struct ComputedMoveBalls {
  const Positions& moved;
  const Rows& primitives;
  MoveBall operator[](int p) const { return move_ball<N>(moved, primitives, p); }
};

/// Move balls looked up in a table of those of primitives [first, last).
struct MoveBallTable {
  std::vector<MoveBall> table;
  int first = 0;
  template <int N, class Rows>
  static MoveBallTable of(const Positions& moved, const Rows& primitives, int first, int last) {
    MoveBallTable t;
    t.first = first;
    t.table.resize(std::size_t(last - first));
    parallel_for_each(t.table.size(), 4096,
                      [&](std::size_t p) { t.table[p] = move_ball<N>(moved, primitives, first + int(p)); });
    return t;
  }
  const MoveBall& operator[](int p) const { return table[std::size_t(p - first)]; }
};

/// A vertex's move ball: its move, no spread.
struct VertexMoveBalls {
  const Positions& moved;
  MoveBall operator[](int v) const {
    const double* m = moved.data() + 3 * std::ptrdiff_t(v);
    return MoveBall{{m[0], m[1], m[2]}, 0.0};
  }
};

/// The two primitives of a pair (indices into their move balls).
std::pair<int, int> primitives(const PointTriangleCandidate& c) { return {c.vertex, c.face}; }
std::pair<int, int> primitives(const EdgeEdgeCandidate& c) { return {c.edge_a, c.edge_b}; }

/// Reduces the gap of every pair whose gap less its move-ball bound (and
/// `slack`) stays at or beyond `out_from` to that lower bound; returns the
/// other pairs (in order), which need their distance. Pairs sharing a vertex
/// (gap infinity) are neither.
template <class Candidate, class BallsA, class BallsB>
std::vector<std::size_t> reduce_gaps(const std::vector<Candidate>& pairs, float* gaps, const BallsA& balls_a,
                                     const BallsB& balls_b, double out_from, double slack) {
  std::vector<std::size_t> rest;
  parallel_gather(pairs.size(), 4096, rest, [&](std::size_t begin, std::size_t end, std::vector<std::size_t>& dst) {
    const Candidate* p = pairs.data();
    float* g = gaps;
    for (std::size_t i = begin; i < end; ++i) {
      const float gap = g[i];
      if (gap == std::numeric_limits<float>::infinity()) continue;
      const auto [pa, pb] = primitives(p[i]);
      const MoveBall &ba = balls_a[pa], &bb = balls_b[pb];
      const double dx = ba.c[0] - bb.c[0], dy = ba.c[1] - bb.c[1], dz = ba.c[2] - bb.c[2];
      const double bound = double(gap) - (std::sqrt(dx * dx + dy * dy + dz * dz) + ba.r + bb.r) - slack;
      if (bound >= out_from)
        g[i] = static_cast<float>(bound * (1.0 - 0x1p-23));  // rounded to nearest, still below bound (> 0)
      else
        dst.push_back(i);
    }
  });
  return rest;
}

/// The vertices of each side of a pair.
std::pair<std::array<int, 1>, std::array<int, 3>> sides(const CollisionMesh& mesh, const PointTriangleCandidate& c) {
  return {{c.vertex}, {mesh.faces(c.face, 0), mesh.faces(c.face, 1), mesh.faces(c.face, 2)}};
}
std::pair<std::array<int, 2>, std::array<int, 2>> sides(const CollisionMesh& mesh, const EdgeEdgeCandidate& c) {
  return {{mesh.edges(c.edge_a, 0), mesh.edges(c.edge_a, 1)}, {mesh.edges(c.edge_b, 0), mesh.edges(c.edge_b, 1)}};
}

/// The pairs listed in `rest` closer than `distance` at x, in order, each
/// measured (its gap set to the lower bound found).
template <class Candidate, class Make>
std::vector<Candidate> measured_within(const CollisionMesh& mesh, const Positions& x, const std::vector<Candidate>& pairs,
                                       const std::vector<std::size_t>& rest, float* gaps, double distance, Make make) {
  std::vector<Candidate> out;
  parallel_gather(rest.size(), 256, out, [&](std::size_t begin, std::size_t end, std::vector<Candidate>& dst) {
    for (std::size_t k = begin; k < end; ++k) {
      const std::size_t i = rest[k];
      const auto [a, b] = sides(mesh, pairs[i]);
      constexpr int NA = int(std::tuple_size<decltype(a)>::value), NB = int(std::tuple_size<decltype(b)>::value);
      if (measure<NA, NB>(mesh, x, pairs[i], a, b, distance, make, gaps[i])) dst.push_back(pairs[i]);
    }
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
  // Each pair within dhat beyond its offset (docs/design.md, "Contact offset").
  collect(
      candidates.point_triangle.size(),
      [&](std::size_t i, Contact& c) {
        const PointTriangleCandidate& p = candidates.point_triangle[i];
        c.offset = mesh.contact_offset(p.vertex, mesh.faces(p.face, 0));
        return make_point_triangle(mesh, x, p, dhat + c.offset, c);
      },
      set.contacts);
  collect(
      candidates.edge_edge.size(),
      [&](std::size_t i, Contact& c) {
        const EdgeEdgeCandidate& e = candidates.edge_edge[i];
        c.offset = mesh.contact_offset(mesh.edges(e.edge_a, 0), mesh.edges(e.edge_b, 0));
        return make_edge_edge(mesh, x, e, dhat + c.offset, c);
      },
      set.contacts);
  if (ground_height) {
    const double h = *ground_height;
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
      const double offset = mesh.contact_offset(int(i), -1);
      if (x(i, 2) - h < dhat + offset) {
        Contact c;
        c.kind = ContactKind::point_ground;
        c.vertices = {static_cast<int>(i), -1, -1, -1};
        c.offset = offset;
        set.contacts.push_back(c);
      }
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
                             double distance, std::vector<float>& gaps, const Positions& moved,
                             const PrimitiveRanges* primitives) {
  if (x.rows() != mesh.num_vertices() || moved.rows() != x.rows() || gaps.size() != candidates.size())
    throw std::invalid_argument("candidates_within: sizes of x, moved or gaps do not match");
  // A relative margin far above the round-off of gaps, moves and distances;
  // the slack covers the round-off of the move balls (a few ulps of the
  // moves), so that gaps reduced again and again stay lower bounds.
  const double out_from = distance * (1.0 + 1e-6);
  const double slack = moved.rows() > 0 ? 1e-12 * moved.cwiseAbs().maxCoeff() : 0.0;
  float* pt_gaps = gaps.data();
  float* ee_gaps = gaps.data() + candidates.point_triangle.size();
  // Pairs not kept out by their move balls, which need their distance. A
  // table of all faces' (edges') balls when a list has more pairs than there
  // are faces (edges): each is then in many pairs; else each computed when
  // asked (a short list, such as the pairs between bodies, need not pay for
  // every primitive of the mesh).
  const PrimitiveRanges all{0, int(mesh.faces.rows()), 0, int(mesh.edges.rows())};
  const PrimitiveRanges& range = primitives ? *primitives : all;
  const VertexMoveBalls vertex_balls{moved};
  const std::vector<std::size_t> pt_rest =
      candidates.point_triangle.size() > std::size_t(range.last_face - range.first_face)
          ? reduce_gaps(candidates.point_triangle, pt_gaps, vertex_balls,
                        MoveBallTable::of<3>(moved, mesh.faces, range.first_face, range.last_face), out_from, slack)
          : reduce_gaps(candidates.point_triangle, pt_gaps, vertex_balls, ComputedMoveBalls<3, Tris>{moved, mesh.faces},
                        out_from, slack);
  std::vector<std::size_t> ee_rest;
  if (candidates.edge_edge.size() > std::size_t(range.last_edge - range.first_edge)) {
    const MoveBallTable edge_balls = MoveBallTable::of<2>(moved, mesh.edges, range.first_edge, range.last_edge);
    ee_rest = reduce_gaps(candidates.edge_edge, ee_gaps, edge_balls, edge_balls, out_from, slack);
  } else {
    const ComputedMoveBalls<2, Edges> edge_balls{moved, mesh.edges};
    ee_rest = reduce_gaps(candidates.edge_edge, ee_gaps, edge_balls, edge_balls, out_from, slack);
  }
  Candidates out;
  out.point_triangle =
      measured_within(mesh, x, candidates.point_triangle, pt_rest, pt_gaps, distance, make_point_triangle);
  out.edge_edge = measured_within(mesh, x, candidates.edge_edge, ee_rest, ee_gaps, distance, make_edge_edge);
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

double closest_contact_gap(const ContactSet& contacts, const Positions& x) {
  double closest = std::numeric_limits<double>::infinity();
  for (const Contact& c : contacts.contacts)
    closest = std::min(closest, contact_distance(c, x, contacts.ground_height) - c.offset);
  return closest;
}

}  // namespace eipc
