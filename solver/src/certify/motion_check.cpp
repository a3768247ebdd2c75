#include "eipc/certify/motion_check.hpp"
#include "eipc/mesh/surface.hpp"

#include "eipc/broad_phase/broad_phase.hpp"
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

/// The surfaces of all bodies as one collision mesh of their surface vertices
/// only (interior vertices of tet meshes take no part), for the core's broad phase.
struct SurfaceMesh {
  CollisionMesh mesh;
  Positions x0, x1;
  std::vector<int> body, local;  ///< per mesh vertex: its body and its row in the body's positions
};

SurfaceMesh surface_mesh(const std::vector<BodyState>& from, const std::vector<BodyState>& to) {
  SurfaceMesh s;
  std::vector<std::array<int, 3>> faces;
  std::vector<std::array<int, 2>> edges;
  for (std::size_t b = 0; b < from.size(); ++b) {
    const Tris& f = *from[b].faces;
    std::vector<int> index(static_cast<std::size_t>(from[b].x->rows()), -1);
    for (int v : surface_vertices(f)) {
      index[v] = static_cast<int>(s.body.size());
      s.body.push_back(static_cast<int>(b));
      s.local.push_back(v);
    }
    std::vector<std::array<int, 2>> body_edges;
    for (int r = 0; r < f.rows(); ++r) {
      faces.push_back({index[f(r, 0)], index[f(r, 1)], index[f(r, 2)]});
      for (int k = 0; k < 3; ++k) {
        const int u = index[f(r, k)], w = index[f(r, (k + 1) % 3)];
        body_edges.push_back({std::min(u, w), std::max(u, w)});
      }
    }
    std::sort(body_edges.begin(), body_edges.end());
    body_edges.erase(std::unique(body_edges.begin(), body_edges.end()), body_edges.end());
    edges.insert(edges.end(), body_edges.begin(), body_edges.end());
  }
  const int n = static_cast<int>(s.body.size());
  s.x0.resize(n, 3);
  s.x1.resize(n, 3);
  for (int i = 0; i < n; ++i) {
    s.x0.row(i) = from[s.body[i]].x->row(s.local[i]);
    s.x1.row(i) = to[s.body[i]].x->row(s.local[i]);
  }
  s.mesh.rest = s.x0;
  s.mesh.vertex_body = s.body;
  s.mesh.faces.resize(static_cast<long>(faces.size()), 3);
  for (std::size_t r = 0; r < faces.size(); ++r) s.mesh.faces.row(r) << faces[r][0], faces[r][1], faces[r][2];
  s.mesh.edges.resize(static_cast<long>(edges.size()), 2);
  for (std::size_t r = 0; r < edges.size(); ++r) s.mesh.edges.row(r) << edges[r][0], edges[r][1];
  return s;
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
  const StackedTriangles tris(from);  // global triangle numbering, as the frame check's
  const SurfaceMesh surface = surface_mesh(from, to);
  const CollisionMesh& mesh = surface.mesh;
  auto x0 = [&](int v) -> Vec3 { return surface.x0.row(v).transpose(); };
  auto x1 = [&](int v) -> Vec3 { return surface.x1.row(v).transpose(); };

  std::vector<MotionPair> found;
  if (ground_height)
    for (int v = 0; v < mesh.num_vertices(); ++v)  // surface vertices, as in check_frame
      if (surface.x0(v, 2) <= *ground_height || surface.x1(v, 2) <= *ground_height)
        found.push_back(ground_pair(surface.body[v], surface.local[v], surface.x0(v, 2), surface.x1(v, 2), *ground_height));

  // Broad phase (the simulator's, eipc_core): closed swept boxes (no inflation) of
  // vertices, edges and faces; pairs joined by a shared vertex are left out.
  const Candidates candidates = find_candidates(mesh, surface.x0, surface.x1, 0.0);
  out.vertex_face_candidates = candidates.point_triangle.size();
  out.edge_edge_candidates = candidates.edge_edge.size();
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
  const auto& pt = candidates.point_triangle;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pt.size(), 256), [&](const auto& range) {
    Local& l = local.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const int v = pt[i].vertex, g = pt[i].face;
      const auto f = mesh.faces.row(g);
      const PairDecision d =
          decide_point_triangle({x0(v), x0(f[0]), x0(f[1]), x0(f[2])}, {x1(v), x1(f[0]), x1(f[1]), x1(f[2])});
      if (d.verdict == MotionVerdict::separated && !d.exact_path) continue;
      MotionPair p{MotionPrimitive::point_triangle, d.verdict, surface.body[v], {surface.local[v], -1}, tris.body[g]};
      p.triangle_b = tris.local[g];
      for (int c = 0; c < 3; ++c) p.b[c] = surface.local[f[c]];
      record(l, d, p);
    }
  });
  const auto& ee = candidates.edge_edge;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, ee.size(), 256), [&](const auto& range) {
    Local& l = local.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const auto e = mesh.edges.row(ee[i].edge_a), f = mesh.edges.row(ee[i].edge_b);
      const PairDecision d =
          decide_edge_edge({x0(e[0]), x0(e[1]), x0(f[0]), x0(f[1])}, {x1(e[0]), x1(e[1]), x1(f[0]), x1(f[1])});
      if (d.verdict == MotionVerdict::separated && !d.exact_path) continue;
      MotionPair p{MotionPrimitive::edge_edge, d.verdict, surface.body[e[0]], {surface.local[e[0]], surface.local[e[1]]},
                   surface.body[f[0]], {surface.local[f[0]], surface.local[f[1]], -1}};
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
