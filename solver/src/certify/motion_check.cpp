#include "eipc/certify/motion_check.hpp"
#include "eipc/mesh/surface.hpp"

#include "eipc/certify/box_overlap.hpp"
#include "stacked_triangles.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

namespace eipc::certify {
namespace {

/// A primitive pair in global vertex ids: point-triangle {0, v, -1, g, -1}
/// (g = global triangle) or edge-edge {1, p0, p1, q0, q1} (each edge sorted, edges ordered).
using PrimitiveKey = std::array<long, 5>;

void emit_primitives(const StackedTriangles& tris, const std::vector<BodyState>& bodies, int s, int t,
                     std::vector<PrimitiveKey>& out) {
  std::array<long, 3> vs{}, vt{};
  for (int k = 0; k < 3; ++k) { vs[k] = tris.vertex_id(bodies, s, k); vt[k] = tris.vertex_id(bodies, t, k); }
  auto in = [](long v, const std::array<long, 3>& tri) { return v == tri[0] || v == tri[1] || v == tri[2]; };
  for (int k = 0; k < 3; ++k) {
    if (!in(vs[k], vt)) out.push_back({0, vs[k], -1, t, -1});
    if (!in(vt[k], vs)) out.push_back({0, vt[k], -1, s, -1});
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      std::array<long, 2> e{std::min(vs[i], vs[(i + 1) % 3]), std::max(vs[i], vs[(i + 1) % 3])};
      std::array<long, 2> f{std::min(vt[j], vt[(j + 1) % 3]), std::max(vt[j], vt[(j + 1) % 3])};
      if (e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]) continue;  // incident edges
      if (f < e) std::swap(e, f);
      out.push_back({1, e[0], e[1], f[0], f[1]});
    }
}

}  // namespace

MotionCheck check_motion(const std::vector<BodyState>& from, const std::vector<BodyState>& to,
                         std::optional<double> ground_height, const MotionTestOptions& options, int max_examples) {
  validate_bodies(from);
  validate_bodies(to);
  if (from.size() != to.size()) throw InputError("certify: frames have different numbers of bodies");
  for (std::size_t b = 0; b < from.size(); ++b)
    if (from[b].x->rows() != to[b].x->rows() || from[b].faces->rows() != to[b].faces->rows() ||
        *from[b].faces != *to[b].faces)
      throw InputError("certify: body " + std::to_string(b) + " changes its vertices or triangles between frames");

  MotionCheck out;
  auto record = [&](const MotionPair& p) {
    if (static_cast<int>(out.examples.size()) < max_examples) out.examples.push_back(p);
  };
  const StackedTriangles tris(from);
  const int n = tris.size();
  auto x0 = [&](long id) { return tris.position(from, id); };
  auto x1 = [&](long id) { return tris.position(to, id); };

  if (ground_height)
    for (std::size_t b = 0; b < from.size(); ++b)
      for (int v : surface_vertices(*from[b].faces))  // as in check_frame
        if ((*from[b].x)(v, 2) <= *ground_height || (*to[b].x)(v, 2) <= *ground_height) {
          ++out.collisions;
          record({MotionPrimitive::point_ground, MotionVerdict::collision, static_cast<int>(b), {v, -1}});
        }

  std::vector<Box3> boxes(n);
  for (int g = 0; g < n; ++g)
    for (int k = 0; k < 3; ++k) {
      const long id = tris.vertex_id(from, g, k);
      boxes[g].extend(x0(id));
      boxes[g].extend(x1(id));
    }
  const auto pairs = overlapping_box_pairs(boxes);
  out.triangle_candidates = pairs.size();

  // Whole-triangle proofs first; the rest become primitive pairs.
  std::vector<std::vector<PrimitiveKey>> per_pair(pairs.size());
  tbb::parallel_for(std::size_t(0), pairs.size(), [&](std::size_t i) {
    const auto [s, t] = pairs[i];
    const TriangleRef rs = tris.ref(from, s), rt = tris.ref(from, t);
    bool shares = false;
    for (long a : rs.id) shares = shares || a == rt.id[0] || a == rt.id[1] || a == rt.id[2];
    if (!shares) {
      std::array<Vec3, 6> p0, p1;
      for (int k = 0; k < 3; ++k) {
        p0[k] = rs.p[k]; p0[3 + k] = rt.p[k];
        p1[k] = x1(rs.id[k]); p1[3 + k] = x1(rt.id[k]);
      }
      if (triangle_triangle_motion_test(p0, p1, MotionTestOptions{4, 16}) == MotionVerdict::separated) return;
    }
    emit_primitives(tris, from, s, t, per_pair[i]);
  });
  std::vector<PrimitiveKey> keys;
  for (auto& v : per_pair) keys.insert(keys.end(), v.begin(), v.end());
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  out.primitive_candidates = keys.size();

  std::vector<MotionVerdict> result(keys.size());
  tbb::parallel_for(std::size_t(0), keys.size(), [&](std::size_t i) {
    const PrimitiveKey& k = keys[i];
    std::array<long, 4> ids;
    if (k[0] == 0) {
      const int g = static_cast<int>(k[3]);
      ids = {k[1], tris.vertex_id(from, g, 0), tris.vertex_id(from, g, 1), tris.vertex_id(from, g, 2)};
    } else {
      ids = {k[1], k[2], k[3], k[4]};
    }
    std::array<Vec3, 4> p0, p1;
    for (int j = 0; j < 4; ++j) { p0[j] = x0(ids[j]); p1[j] = x1(ids[j]); }
    result[i] = k[0] == 0 ? point_triangle_motion_test(p0, p1, options) : edge_edge_motion_test(p0, p1, options);
  });

  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (result[i] == MotionVerdict::separated) continue;
    ++(result[i] == MotionVerdict::collision ? out.collisions : out.inconclusive);
    const PrimitiveKey& k = keys[i];
    MotionPair p;
    p.result = result[i];
    const auto [ba, va] = tris.locate(k[1]);
    p.body_a = ba;
    p.a[0] = va;
    if (k[0] == 0) {
      const int g = static_cast<int>(k[3]);
      p.kind = MotionPrimitive::point_triangle;
      p.body_b = tris.body[g];
      p.triangle_b = tris.local[g];
      for (int c = 0; c < 3; ++c) p.b[c] = (*from[p.body_b].faces)(p.triangle_b, c);
    } else {
      p.kind = MotionPrimitive::edge_edge;
      p.a[1] = tris.locate(k[2]).second;
      const auto [bb, vb0] = tris.locate(k[3]);
      p.body_b = bb;
      p.b = {vb0, tris.locate(k[4]).second, -1};
    }
    record(p);
  }
  return out;
}

}  // namespace eipc::certify
