// Depth of intersecting frames (penetration.hpp, docs/certify.md "Depth").
//
// Two bodies: every surface vertex of one is located against the other's
// closed surface exactly (SurfaceLocator::side); the inside ones are counted
// and their distance to that surface is the depth. Self-intersection (and
// two open surfaces, where "inside" is undefined): for each intersecting
// triangle pair (s, t), a vertex of s behind t's plane (against t's winding,
// i.e. inside for outward triangles) whose projection falls in t is that far
// past t; the crossing measure needs no closed surface and never reaches
// farther than the crossing triangles.
#include "eipc/certify/penetration.hpp"

#include "eipc/mesh/surface.hpp"
#include "surface_locator.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <climits>
#include <map>
#include <memory>

namespace eipc::certify {
namespace {

void keep_deeper(std::optional<VertexDepth>& best, const VertexDepth& candidate) {
  if (!best || candidate.depth > best->depth) best = candidate;
}

Vec3 vertex_position(const BodyState& b, int v) { return b.x->row(v).transpose(); }

/// Surface vertices of body `from` inside or on body `into`'s closed surface.
std::size_t count_inside(const std::vector<BodyState>& bodies, int from, int into, const SurfaceLocator& locator,
                         PairPenetration& pair) {
  const std::vector<int> vertices = surface_vertices(*bodies[from].faces);
  std::vector<PointSide> side(vertices.size());
  std::vector<double> depth(vertices.size(), 0.0);
  tbb::parallel_for(std::size_t(0), vertices.size(), [&](std::size_t i) {
    const Vec3 p = vertex_position(bodies[from], vertices[i]);
    side[i] = locator.side(p);
    if (side[i] == PointSide::inside) depth[i] = locator.distance(p);
  });
  std::size_t inside = 0;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    pair.undecided += side[i] == PointSide::undecided;
    if (side[i] != PointSide::inside && side[i] != PointSide::on_boundary) continue;
    ++inside;
    keep_deeper(pair.deepest, {from, vertices[i], into, -1, depth[i]});
  }
  return inside;
}

/// Vertices of triangle s (body bs) past triangle t (body bt): behind t's plane and over t.
void crossing_depth(const std::vector<BodyState>& bodies, int bs, int s, int bt, int t,
                    std::optional<VertexDepth>& best) {
  const Tris& fs = *bodies[bs].faces;
  const Tris& ft = *bodies[bt].faces;
  const Vec3 a = vertex_position(bodies[bt], ft(t, 0)), b = vertex_position(bodies[bt], ft(t, 1));
  const Vec3 c = vertex_position(bodies[bt], ft(t, 2));
  const Vec3 n = (b - a).cross(c - a);
  const double area2 = n.norm();
  if (!(area2 > 0.0)) return;
  for (int k = 0; k < 3; ++k) {
    const int v = fs(s, k);
    if (bs == bt && (v == ft(t, 0) || v == ft(t, 1) || v == ft(t, 2))) continue;  // a shared corner
    const Vec3 p = vertex_position(bodies[bs], v);
    const double signed_distance = n.dot(p - a) / area2;
    if (!(signed_distance < 0.0)) continue;
    const Vec3 q = p - signed_distance * n / area2;
    const bool over = (b - a).cross(q - a).dot(n) >= 0 && (c - b).cross(q - b).dot(n) >= 0 &&
                      (a - c).cross(q - c).dot(n) >= 0;
    if (over) keep_deeper(best, {bs, v, bt, t, -signed_distance});
  }
}

}  // namespace

std::vector<PairPenetration> measure_penetration(const std::vector<BodyState>& bodies, const FrameCheck& check,
                                                 std::optional<double> ground_height) {
  // Pairs keyed so that the ground (kGround) sorts after every body.
  auto key = [](int a, int b) {
    return b == kGround ? std::pair<int, int>(a, INT_MAX) : std::pair<int, int>(std::min(a, b), std::max(a, b));
  };
  std::map<std::pair<int, int>, PairPenetration> pairs;
  auto entry = [&](int a, int b) -> PairPenetration& {
    PairPenetration& p = pairs[key(a, b)];
    p.body_a = key(a, b).first;
    p.body_b = b == kGround ? kGround : key(a, b).second;
    return p;
  };
  for (const Violation& v : check.body_hits) {
    if (v.kind == ViolationKind::triangle_pair) ++entry(v.body_a, v.body_b).triangle_pairs;
    else ++entry(v.body_a, v.body_b).containment;
  }

  std::map<int, std::unique_ptr<SurfaceLocator>> locators;  // built once per container body
  auto locator = [&](int b) -> const SurfaceLocator& {
    auto& l = locators[b];
    if (!l) l = std::make_unique<SurfaceLocator>(*bodies[b].x, *bodies[b].faces);
    return *l;
  };
  for (auto& [k, p] : pairs) {
    const int a = p.body_a, b = p.body_b;
    if (a != b && bodies[b].closed) p.a_in_b = count_inside(bodies, a, b, locator(b), p);
    if (a != b && bodies[a].closed) p.b_in_a = count_inside(bodies, b, a, locator(a), p);
    if (a == b || (!bodies[a].closed && !bodies[b].closed))
      for (const Violation& v : check.body_hits)
        if (v.kind == ViolationKind::triangle_pair && key(v.body_a, v.body_b) == k) {
          crossing_depth(bodies, v.body_a, v.index_a, v.body_b, v.index_b, p.deepest);
          crossing_depth(bodies, v.body_b, v.index_b, v.body_a, v.index_a, p.deepest);
        }
  }

  if (ground_height)
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      std::size_t below = 0;
      std::optional<VertexDepth> deepest;
      for (int v : surface_vertices(*bodies[b].faces)) {
        const double z = (*bodies[b].x)(v, 2);
        if (z > *ground_height) continue;
        ++below;
        keep_deeper(deepest, {static_cast<int>(b), v, kGround, -1, *ground_height - z});
      }
      if (below == 0) continue;
      PairPenetration& p = entry(static_cast<int>(b), kGround);
      p.a_in_b = below;
      p.deepest = deepest;
    }

  std::vector<PairPenetration> out;
  for (auto& [k, p] : pairs) out.push_back(std::move(p));
  return out;
}

}  // namespace eipc::certify
