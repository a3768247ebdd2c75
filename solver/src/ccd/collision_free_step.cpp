#include "eipc/ccd/collision_free_step.hpp"

#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/ccd/additive_ccd.hpp"

#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace eipc {

namespace {

Vec3 at(const Positions& x, int v) { return x.row(v).transpose(); }

/// The end of a sweep x0 -> x1 in a frame that translates with a mean: the
/// mean displacement of all vertices (follow_mean_translation) or of each
/// body's (follow_body_translations). A vertex's position there is
/// x1(v) - shift(its body), the very sums and quotients those functions
/// compute, so its boxes are the same bit for bit; made only for the vertices
/// asked about.
struct TranslatedEnd {
  const Positions* x1 = nullptr;
  const std::vector<int>* body = nullptr;  ///< null: one shift for all
  Positions shift;                         ///< one row per body (or one)

  static TranslatedEnd of_all(const Positions& x0, const Positions& x1) {
    TranslatedEnd t;
    t.x1 = &x1;
    t.shift = Positions::Zero(1, 3);
    if (x1.rows() == 0) return t;
    const Eigen::RowVector3d mean = (x1 - x0).colwise().mean();  // as follow_mean_translation
    t.shift.row(0) = mean;
    return t;
  }
  static TranslatedEnd of_bodies(const CollisionMesh& mesh, const Positions& x0, const Positions& x1) {
    if (mesh.vertex_body.empty()) return of_all(x0, x1);
    TranslatedEnd t;
    t.x1 = &x1;
    t.body = &mesh.vertex_body;
    t.shift = body_mean_translations(mesh, x0, x1);
    return t;
  }
  Eigen::Array3d at(int v) const {
    const int b = body ? (*body)[std::size_t(v)] : 0;
    return (x1->row(v) - shift.row(b)).transpose().array();
  }
};

/// Room for a sweep's boxes, reused from sweep to sweep: made afresh, the
/// ~3 MB of FinRay's boxes were default-filled and page-faulted in at every
/// sweep (together 2.3% of its samples at one thread, as much as the boxes
/// themselves). Every box a sweep reads it has written first.
struct BoxStore {
  std::vector<Aabb> vertices, edges, faces;
};

/// Swept boxes of the vertices over x0 -> x1 in a translating frame (grown
/// by `inflation`); an edge's or a face's is the union of its vertices'. The
/// vertices' are kept when a sweep tests enough pairs to touch most of them,
/// else made for each pair tested; the edges' and faces' are kept when it
/// tests more pairs than there are of them (each primitive then appears in
/// many pairs), else made for each pair tested.
struct SweptBoxes {
  const CollisionMesh* mesh = nullptr;
  const Positions* x0 = nullptr;
  TranslatedEnd x1;
  double inflation = 0.0;
  const Aabb* vertices = nullptr;  ///< null: made when asked
  const Aabb* edges = nullptr;     ///< null: from the vertices'
  const Aabb* faces = nullptr;     ///< null: from the vertices'

  [[gnu::always_inline]] Aabb vertex(int v) const { return vertices ? vertices[std::size_t(v)] : made(v); }
  /// swept_vertex_box(x0, x1 in the frame, v, inflation); out of line, so
  /// that vertex() inlines into the pair loops.
  [[gnu::noinline]] Aabb made(int v) const {
    const Eigen::Array3d a = x0->row(v).transpose().array(), b = x1.at(v);
    return {a.min(b) - inflation, a.max(b) + inflation};
  }
  [[gnu::always_inline]] Aabb edge(int e) const {
    if (edges) return edges[std::size_t(e)];
    Aabb b = vertex(mesh->edges(e, 0));
    b.extend(vertex(mesh->edges(e, 1)));
    return b;
  }
  [[gnu::always_inline]] Aabb face(int f) const {
    if (faces) return faces[std::size_t(f)];
    Aabb b = vertex(mesh->faces(f, 0));
    for (int k = 1; k < 3; ++k) b.extend(vertex(mesh->faces(f, k)));
    return b;
  }
};

/// The boxes, kept in `store` (valid until its next use).
SweptBoxes swept_boxes(const CollisionMesh& mesh, const Positions& x0, TranslatedEnd x1, double inflation,
                       bool keep_vertices, bool keep_primitives, BoxStore& store) {
  SweptBoxes b;
  b.mesh = &mesh;
  b.x0 = &x0;
  b.x1 = std::move(x1);
  b.inflation = inflation;
  if (!keep_vertices && !keep_primitives) return b;
  const std::size_t grain = grain_for(0.02);
  std::vector<Aabb>& vertices = store.vertices;
  vertices.resize(std::size_t(mesh.num_vertices()));
  parallel_for_each(vertices.size(), grain, [&](std::size_t v) { vertices[v] = b.made(int(v)); });
  b.vertices = vertices.data();
  if (!keep_primitives) return b;
  std::vector<Aabb>& edges = store.edges;
  std::vector<Aabb>& faces = store.faces;
  edges.resize(std::size_t(mesh.edges.rows()));
  faces.resize(std::size_t(mesh.faces.rows()));
  parallel_for_each(edges.size(), grain, [&](std::size_t e) { edges[e] = b.edge(int(e)); });
  parallel_for_each(faces.size(), grain, [&](std::size_t f) { faces[f] = b.face(int(f)); });
  b.edges = edges.data();
  b.faces = faces.data();
  return b;
}

/// Options keeping min_distance_ratio of each pair's distance at t = 0, whose
/// distance there is at least `lower_bound`.
AdditiveCcdOptions keeping(double min_distance_ratio, double lower_bound) {
  AdditiveCcdOptions o;
  o.start_fraction = min_distance_ratio;
  o.distance_lower_bound = lower_bound;
  return o;
}

/// The minimum separation that, with start_fraction = min_distance_ratio on
/// top, keeps a pair at offset o above o + ratio (d0 - o): that fraction of
/// its gap (docs/design.md, "Contact offset").
double separation_at_offset(double offset, double min_distance_ratio) { return (1.0 - min_distance_ratio) * offset; }

double point_triangle_toi(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                          const PointTriangleCandidate& c, double min_distance_ratio, double lower_bound) {
  const int v = c.vertex, f0 = mesh.faces(c.face, 0), f1 = mesh.faces(c.face, 1), f2 = mesh.faces(c.face, 2);
  double toi = 1.0;
  if (!point_triangle_ccd(at(x0, v), at(x0, f0), at(x0, f1), at(x0, f2), at(x1, v), at(x1, f0), at(x1, f1),
                          at(x1, f2), separation_at_offset(mesh.contact_offset(v, f0), min_distance_ratio), 1.0, toi,
                          keeping(min_distance_ratio, lower_bound)))
    toi = 1.0;
  return toi;
}

double edge_edge_toi(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, const EdgeEdgeCandidate& c,
                     double min_distance_ratio, double lower_bound) {
  const int a0 = mesh.edges(c.edge_a, 0), a1 = mesh.edges(c.edge_a, 1);
  const int b0 = mesh.edges(c.edge_b, 0), b1 = mesh.edges(c.edge_b, 1);
  double toi = 1.0;
  if (!edge_edge_ccd(at(x0, a0), at(x0, a1), at(x0, b0), at(x0, b1), at(x1, a0), at(x1, a1), at(x1, b0),
                     at(x1, b1), separation_at_offset(mesh.contact_offset(a0, b0), min_distance_ratio), 1.0, toi,
                     keeping(min_distance_ratio, lower_bound)))
    toi = 1.0;
  return toi;
}

/// Box growth that covers the round-off of follow_mean_translation (a few ulps
/// of the largest coordinate), so a pair that touches on a box face is kept.
double round_off_margin(const Positions& x0, const Positions& x1) {
  if (x0.rows() == 0) return 0.0;
  return 16.0 * std::numeric_limits<double>::epsilon() * std::max(x0.cwiseAbs().maxCoeff(), x1.cwiseAbs().maxCoeff());
}

/// Narrow phase over the pairs of `c` whose swept boxes overlap in the frame
/// that follows their body's mean translation (a pair within one body) or the
/// mean translation of all (a pair between bodies): a pair whose boxes do not
/// overlap in some frame that translates both its primitives cannot collide.
/// `all_overlap` skips that test when c came from find_candidates in the
/// second frame itself. Most superset pairs are rejected by the box test
/// (~0.03 us); a narrow-phase query costs ~0.5 us; the grain is set for a mix
/// of the two. bounds[k], when there, bounds the distances at x0 of lists[k]'s
/// pairs from below, which spares most queries their distance at x0.
double collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                           const CandidateLists& lists, bool all_overlap, std::optional<double> ground_height,
                           double min_distance_ratio, const std::vector<PairDistanceBounds>& bounds = {}) {
  // One store per thread and frame, kept from sweep to sweep: the boxes are
  // read until this sweep ends, and no sweep outlives it. A sweep begun on a
  // thread that is inside one already (a task stolen while it waits) gets
  // stores of its own.
  thread_local BoxStore kept[2];
  thread_local bool kept_in_use = false;
  const bool reuse = !kept_in_use;
  BoxStore fresh[2];
  BoxStore* stores = reuse ? kept : fresh;
  kept_in_use = true;
  struct Release {
    bool reuse;
    ~Release() {
      if (reuse) kept_in_use = false;
    }
  } release{reuse};
  SweptBoxes all, own;
  if (!all_overlap) {
    std::size_t tested = 0;
    for (std::size_t k = 0; k < lists.size(); ++k) {
      const PairIndices* only = k < bounds.size() ? bounds[k].may_stop() : nullptr;
      tested += only ? only->point_triangle.size() + only->edge_edge.size()
                     : lists[k]->point_triangle.size() + lists[k]->edge_edge.size();
    }
    const bool keep = tested > std::size_t(mesh.edges.rows() + mesh.faces.rows());
    // A pair tested asks for four vertices' boxes (in one of the two frames).
    const bool keep_vertices = 4 * tested > std::size_t(mesh.num_vertices());
    // Grown by half the largest offset too: a pair that comes within its offset is tested.
    const double margin = round_off_margin(x0, x1) + 0.5 * mesh.max_contact_offset();
    all = swept_boxes(mesh, x0, TranslatedEnd::of_all(x0, x1), margin, keep_vertices, keep, stores[0]);
    own = swept_boxes(mesh, x0, TranslatedEnd::of_bodies(mesh, x0, x1), margin, keep_vertices, keep, stores[1]);
  }
  const bool bodies = !mesh.vertex_body.empty();
  const std::size_t grain = grain_for(all_overlap ? 0.5 : 0.06);
  double alpha = 1.0;
  for (std::size_t k = 0; k < lists.size(); ++k) {
    const Candidates* c = lists[k];
    const PairDistanceBounds none;
    const PairDistanceBounds& below = k < bounds.size() ? bounds[k] : none;
    const PairIndices* may_stop = below.may_stop();
    // Over every pair, or over the only ones that may stop the sweep.
    auto least = [&](std::size_t n, const std::vector<int>* only, const auto& toi) {
      if (!only) return parallel_min(n, grain, alpha, toi);
      return parallel_min(only->size(), grain, alpha, [&](std::size_t j) { return toi(std::size_t((*only)[j])); });
    };
    alpha = least(c->point_triangle.size(), may_stop ? &may_stop->point_triangle : nullptr, [&](std::size_t i) {
      const PointTriangleCandidate& p = c->point_triangle[i];
      if (!all_overlap) {
        const SweptBoxes& b = bodies && mesh.vertex_body[p.vertex] == mesh.body_of_face(p.face) ? own : all;
        if (!b.vertex(p.vertex).overlaps(b.face(p.face))) return 1.0;
      }
      return point_triangle_toi(mesh, x0, x1, p, min_distance_ratio, below ? below.point_triangle(i, p) : 0.0);
    });
    alpha = least(c->edge_edge.size(), may_stop ? &may_stop->edge_edge : nullptr, [&](std::size_t i) {
      const EdgeEdgeCandidate& e = c->edge_edge[i];
      if (!all_overlap) {
        const SweptBoxes& b = bodies && mesh.body_of_edge(e.edge_a) == mesh.body_of_edge(e.edge_b) ? own : all;
        if (!b.edge(e.edge_a).overlaps(b.edge(e.edge_b))) return 1.0;
      }
      return edge_edge_toi(mesh, x0, x1, e, min_distance_ratio, below ? below.edge_edge(i, e) : 0.0);
    });
  }
  if (ground_height) {
    const double h = *ground_height;
    alpha = parallel_min(std::size_t(mesh.num_vertices()), grain_for(0.02), alpha, [&](std::size_t v) {
      double toi = 1.0;
      const double d0 = std::max(0.0, x0(Eigen::Index(v), 2) - h);
      const double keep = min_distance_ratio * d0 + separation_at_offset(mesh.contact_offset(int(v), -1), min_distance_ratio);
      if (!point_plane_ccd(x0(Eigen::Index(v), 2), x1(Eigen::Index(v), 2), h, keep, 1.0, toi)) toi = 1.0;
      return toi;
    });
  }
  return alpha;
}

}  // namespace

double max_collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                               std::optional<double> ground_height, double min_distance_ratio) {
  const Candidates c = find_candidates(mesh, x0, follow_mean_translation(x0, x1),
                                       2.0 * round_off_margin(x0, x1) + mesh.max_contact_offset());
  return collision_free_step(mesh, x0, x1, {&c}, true, ground_height, min_distance_ratio);
}

double max_collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                               const Candidates& superset, std::optional<double> ground_height,
                               double min_distance_ratio) {
  return collision_free_step(mesh, x0, x1, {&superset}, false, ground_height, min_distance_ratio);
}

double max_collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                               const CandidateLists& supersets, std::optional<double> ground_height,
                               double min_distance_ratio, const std::vector<PairDistanceBounds>& bounds) {
  return collision_free_step(mesh, x0, x1, supersets, false, ground_height, min_distance_ratio, bounds);
}

double ccd_stop_fraction(double min_distance_ratio) {
  // The additive CCD stops once the gap above the kept distance is at most
  // stop_fraction of the gap it started with (additive_ccd.cpp).
  const double stop = AdditiveCcdOptions{}.stop_fraction;
  return min_distance_ratio + stop * (1.0 - min_distance_ratio);
}

}  // namespace eipc
