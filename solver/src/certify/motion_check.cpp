#include "eipc/certify/motion_check.hpp"
#include "eipc/mesh/surface.hpp"

#include "eipc/certify/box_overlap.hpp"
#include "eipc/certify/exact_ccd.hpp"
#include "contact_conditions.hpp"
#include "stacked_triangles.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <tuple>

namespace eipc::certify {
namespace {

/// The primitives of all bodies under global vertex ids (StackedTriangles numbering).
struct Primitives {
  std::vector<long> vertices;                  ///< surface vertices
  std::vector<std::array<long, 2>> edges;      ///< sorted ends
  std::vector<std::array<long, 3>> faces;      ///< corners, global triangle order
  std::vector<int> vertex_body, edge_body, face_body;
};

Primitives collect(const std::vector<BodyState>& bodies, const StackedTriangles& tris) {
  Primitives p;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const Tris& f = *bodies[b].faces;
    const long offset = tris.vertex_offset[b];
    for (int v : surface_vertices(f)) p.vertices.push_back(offset + v);
    std::vector<std::array<long, 2>> edges;
    for (int r = 0; r < f.rows(); ++r) {
      p.faces.push_back({offset + f(r, 0), offset + f(r, 1), offset + f(r, 2)});
      for (int k = 0; k < 3; ++k) {
        const long u = offset + f(r, k), w = offset + f(r, (k + 1) % 3);
        edges.push_back({std::min(u, w), std::max(u, w)});
      }
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    p.edges.insert(p.edges.end(), edges.begin(), edges.end());
    p.vertex_body.resize(p.vertices.size(), static_cast<int>(b));
    p.edge_body.resize(p.edges.size(), static_cast<int>(b));
    p.face_body.resize(p.faces.size(), static_cast<int>(b));
  }
  return p;
}

template <std::size_t N>
Box3 swept_box(const std::array<long, N>& ids, const std::vector<Vec3>& x0, const std::vector<Vec3>& x1) {
  Box3 box;
  for (long id : ids) { box.extend(x0[id]); box.extend(x1[id]); }
  return box;
}

MotionPair ground_pair(int body, int vertex, double z0, double z1, double h) {
  MotionPair p{MotionPrimitive::point_ground, MotionVerdict::collision, body, {vertex, -1}};
  if (z0 > h) {  // first reaches z = h at (z0 - h) / (z0 - z1), exactly
    const Rational t = (Rational(z0) - Rational(h)) / (Rational(z0) - Rational(z1));
    const auto b = outward(t, t);
    p.t_lo = b[0];
    p.t_hi = b[1];
  }
  return p;
}

}  // namespace

MotionCheck check_motion(const std::vector<BodyState>& from, const std::vector<BodyState>& to,
                         std::optional<double> ground_height, int max_examples, bool keep_all) {
  validate_bodies(from);
  validate_bodies(to);
  if (from.size() != to.size()) throw InputError("certify: frames have different numbers of bodies");
  for (std::size_t b = 0; b < from.size(); ++b)
    if (from[b].x->rows() != to[b].x->rows() || from[b].faces->rows() != to[b].faces->rows() ||
        *from[b].faces != *to[b].faces)
      throw InputError("certify: body " + std::to_string(b) + " changes its vertices or triangles between frames");

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  MotionCheck out;
  const StackedTriangles tris(from);
  const long n_vertices = tris.vertex_offset.back();
  std::vector<Vec3> x0(n_vertices), x1(n_vertices);
  for (long id = 0; id < n_vertices; ++id) { x0[id] = tris.position(from, id); x1[id] = tris.position(to, id); }
  const Primitives prim = collect(from, tris);

  std::vector<MotionPair> found;
  if (ground_height)
    for (std::size_t i = 0; i < prim.vertices.size(); ++i) {  // surface vertices, as in check_frame
      const long id = prim.vertices[i];
      if (x0[id].z() <= *ground_height || x1[id].z() <= *ground_height)
        found.push_back(ground_pair(prim.vertex_body[i], tris.locate(id).second, x0[id].z(), x1[id].z(), *ground_height));
    }

  // Broad phase: swept boxes of vertices against faces, edges against edges.
  std::vector<Box3> vertex_boxes(prim.vertices.size()), edge_boxes(prim.edges.size()), face_boxes(prim.faces.size());
  tbb::parallel_for(std::size_t(0), prim.vertices.size(), [&](std::size_t i) {
    vertex_boxes[i] = swept_box(std::array<long, 1>{prim.vertices[i]}, x0, x1);
  });
  tbb::parallel_for(std::size_t(0), prim.edges.size(), [&](std::size_t i) { edge_boxes[i] = swept_box(prim.edges[i], x0, x1); });
  tbb::parallel_for(std::size_t(0), prim.faces.size(), [&](std::size_t i) { face_boxes[i] = swept_box(prim.faces[i], x0, x1); });
  std::vector<std::pair<int, int>> vertex_face = overlapping_box_pairs(vertex_boxes, face_boxes);
  vertex_face.erase(std::remove_if(vertex_face.begin(), vertex_face.end(),
                                   [&](const std::pair<int, int>& vf) {
                                     const auto& f = prim.faces[vf.second];
                                     const long v = prim.vertices[vf.first];
                                     return v == f[0] || v == f[1] || v == f[2];
                                   }),
                    vertex_face.end());
  std::vector<std::pair<int, int>> edge_edge = overlapping_box_pairs(edge_boxes);
  edge_edge.erase(std::remove_if(edge_edge.begin(), edge_edge.end(),
                                 [&](const std::pair<int, int>& ee) {
                                   const auto& e = prim.edges[ee.first];
                                   const auto& f = prim.edges[ee.second];
                                   return e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1];
                                 }),
                  edge_edge.end());
  out.vertex_face_candidates = vertex_face.size();
  out.edge_edge_candidates = edge_edge.size();
  const auto broad_done = Clock::now();
  out.broad_seconds = std::chrono::duration<double>(broad_done - start).count();

  // Narrow phase: every candidate decided exactly, in parallel; per-thread lists of the unresolved.
  struct Local {
    std::vector<MotionPair> pairs;
    std::size_t exact = 0;
    double exact_seconds = 0;
  };
  tbb::enumerable_thread_specific<Local> local;
  auto record = [&](Local& l, const PairDecision& d, MotionPair p) {
    l.exact += d.exact_path;
    l.exact_seconds += d.exact_seconds;
    if (d.verdict == MotionVerdict::separated) return;
    p.result = d.verdict;
    p.t_lo = d.t_lo;
    p.t_hi = d.t_hi;
    l.pairs.push_back(p);
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, vertex_face.size(), 256), [&](const auto& range) {
    Local& l = local.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const long v = prim.vertices[vertex_face[i].first];
      const int g = vertex_face[i].second;
      const auto& f = prim.faces[g];
      const PairDecision d =
          decide_point_triangle({x0[v], x0[f[0]], x0[f[1]], x0[f[2]]}, {x1[v], x1[f[0]], x1[f[1]], x1[f[2]]});
      if (d.verdict == MotionVerdict::separated && !d.exact_path) continue;
      MotionPair p{MotionPrimitive::point_triangle, d.verdict, tris.locate(v).first, {tris.locate(v).second, -1},
                   tris.body[g]};
      p.triangle_b = tris.local[g];
      for (int c = 0; c < 3; ++c) p.b[c] = tris.locate(f[c]).second;
      record(l, d, p);
    }
  });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, edge_edge.size(), 256), [&](const auto& range) {
    Local& l = local.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const auto& e = prim.edges[edge_edge[i].first];
      const auto& f = prim.edges[edge_edge[i].second];
      const PairDecision d = decide_edge_edge({x0[e[0]], x0[e[1]], x0[f[0]], x0[f[1]]}, {x1[e[0]], x1[e[1]], x1[f[0]], x1[f[1]]});
      if (d.verdict == MotionVerdict::separated && !d.exact_path) continue;
      MotionPair p{MotionPrimitive::edge_edge, d.verdict, tris.locate(e[0]).first,
                   {tris.locate(e[0]).second, tris.locate(e[1]).second}, tris.locate(f[0]).first,
                   {tris.locate(f[0]).second, tris.locate(f[1]).second, -1}};
      record(l, d, p);
    }
  });
  for (const Local& l : local) {
    found.insert(found.end(), l.pairs.begin(), l.pairs.end());
    out.exact_pairs += l.exact;
    out.exact_seconds += l.exact_seconds;
  }
  out.narrow_seconds = std::chrono::duration<double>(Clock::now() - broad_done).count();

  // Deterministic order (thread lists arrive in any order): ground, point-triangle, edge-edge, by primitive.
  auto key = [](const MotionPair& p) { return std::tie(p.kind, p.body_a, p.a, p.body_b, p.triangle_b, p.b); };
  std::sort(found.begin(), found.end(), [&](const MotionPair& x, const MotionPair& y) { return key(x) < key(y); });
  for (const MotionPair& p : found) ++(p.result == MotionVerdict::collision ? out.collisions : out.inconclusive);
  out.examples = found;
  const std::size_t kept = std::min<std::size_t>(std::max(max_examples, 0), found.size());
  std::stable_sort(out.examples.begin(), out.examples.end(),
                   [](const MotionPair& x, const MotionPair& y) { return x.t_lo < y.t_lo; });
  out.examples.resize(kept);
  if (keep_all)
    std::copy_if(found.begin(), found.end(), std::back_inserter(out.colliding),
                 [](const MotionPair& p) { return p.result == MotionVerdict::collision; });
  return out;
}

}  // namespace eipc::certify
