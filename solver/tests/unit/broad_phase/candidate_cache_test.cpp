// CandidateCache: filtering its (cached) superset gives, for each group (the
// pairs within each body, the pairs between bodies), exactly what a fresh broad
// phase of the group finds in the group's frame, and the CCD and contact sets
// through it are those of a fresh broad phase, for random motions that stay
// inside and leave the skin; a common translation alone never leaves it, and a
// body carried along another keeps its own pairs.
#include "eipc/broad_phase/candidate_cache.hpp"
#include "eipc/ccd/collision_free_step.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/testing/two_bodies.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <random>
#include <tuple>

using namespace eipc;

namespace {

/// Two boxes (box surface triangulated through its tet mesh) 0.5 dhat apart.
CollisionMesh two_boxes(double dhat) {
  const TetMesh a = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.05), 3, 3, 2);
  const TetMesh b = box_tet_mesh(Vec3(0.02, 0.03, 0.05 + 0.5 * dhat), Vec3(0.09, 0.08, 0.1), 3, 3, 2);
  return two_body_collision_mesh(a, b);
}

/// The pairs of `superset` that find_candidates(mesh, x0, x1, inflation) reports, in order.
Candidates filter(const CollisionMesh& m, const Positions& x0, const Positions& x1, const Candidates& superset,
                  double inflation) {
  const double r = 0.5 * inflation;
  Candidates c;
  for (const auto& p : superset.point_triangle)
    if (swept_vertex_box(x0, x1, p.vertex, r).overlaps(swept_face_box(m, x0, x1, p.face, r))) c.point_triangle.push_back(p);
  for (const auto& e : superset.edge_edge)
    if (swept_edge_box(m, x0, x1, e.edge_a, r).overlaps(swept_edge_box(m, x0, x1, e.edge_b, r))) c.edge_edge.push_back(e);
  return c;
}

void check_same(const Candidates& a, const Candidates& b) {
  REQUIRE(a.point_triangle.size() == b.point_triangle.size());
  REQUIRE(a.edge_edge.size() == b.edge_edge.size());
  CHECK(a.point_triangle == b.point_triangle);
  CHECK(a.edge_edge == b.edge_edge);
}

Candidates sorted(Candidates c) {
  std::sort(c.point_triangle.begin(), c.point_triangle.end(),
            [](const auto& a, const auto& b) { return std::tie(a.vertex, a.face) < std::tie(b.vertex, b.face); });
  std::sort(c.edge_edge.begin(), c.edge_edge.end(),
            [](const auto& a, const auto& b) { return std::tie(a.edge_a, a.edge_b) < std::tie(b.edge_a, b.edge_b); });
  return c;
}

/// The pairs of c within body `body` (>= 0) or between the bodies (< 0).
Candidates group_of(const CollisionMesh& m, const Candidates& c, int body) {
  auto in_group = [&](int b0, int b1) { return body >= 0 ? b0 == body && b1 == body : b0 != b1; };
  Candidates g;
  for (const auto& p : c.point_triangle)
    if (in_group(m.vertex_body[p.vertex], m.body_of_face(p.face))) g.point_triangle.push_back(p);
  for (const auto& e : c.edge_edge)
    if (in_group(m.body_of_edge(e.edge_a), m.body_of_edge(e.edge_b))) g.edge_edge.push_back(e);
  return g;
}

/// x1 in the group's frame: following the body's mean displacement, or everything's.
Positions frame_of(const CollisionMesh& m, const Positions& x0, const Positions& x1, int body) {
  if (body < 0) return follow_mean_translation(x0, x1);
  Eigen::RowVector3d mean = Eigen::RowVector3d::Zero();
  int n = 0;
  for (int v = 0; v < m.num_vertices(); ++v)
    if (m.vertex_body[v] == body) mean += x1.row(v) - x0.row(v), ++n;
  return x1.rowwise() - mean / n;
}

/// Filtering the superset gives, for every group, exactly what a fresh broad
/// phase of that group finds in the group's frame.
void check_groups(const CollisionMesh& m, const Positions& x0, const Positions& x1, const Candidates& superset,
                  double inflation) {
  for (int body : {0, 1, -1}) {
    INFO("group " << body);
    const Positions x1f = frame_of(m, x0, x1, body);
    const Candidates fresh = body >= 0 ? find_candidates_within_body(m, x0, x1f, inflation, body)
                                       : find_candidates_between_bodies(m, x0, x1f, inflation);
    check_same(sorted(filter(m, x0, x1f, group_of(m, superset, body), inflation)), fresh);
  }
}

/// Contact sets compared as sets (the cache lists its groups one after the other).
void check_same_contacts(ContactSet a, ContactSet b) {
  auto key = [](const Contact& c) { return std::make_tuple(int(c.kind), c.vertices); };
  auto by_key = [&](const Contact& p, const Contact& q) { return key(p) < key(q); };
  std::sort(a.contacts.begin(), a.contacts.end(), by_key);
  std::sort(b.contacts.begin(), b.contacts.end(), by_key);
  CHECK(same_pairs(a, b));
}

}  // namespace

TEST_CASE("within-body and between-body pairs split find_candidates", "[contact][broad_phase]") {
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  std::mt19937 rng(4);
  std::normal_distribution<double> step(0.0, 2 * dhat);
  Positions x1 = m.rest;
  for (Eigen::Index i = 0; i < x1.size(); ++i) x1.data()[i] += step(rng);
  for (double inflation : {0.0, dhat}) {
    Candidates parts = find_candidates_within_body(m, m.rest, x1, inflation, 0);
    for (const Candidates& c : {find_candidates_within_body(m, m.rest, x1, inflation, 1),
                                find_candidates_between_bodies(m, m.rest, x1, inflation)}) {
      parts.point_triangle.insert(parts.point_triangle.end(), c.point_triangle.begin(), c.point_triangle.end());
      parts.edge_edge.insert(parts.edge_edge.end(), c.edge_edge.begin(), c.edge_edge.end());
    }
    const Candidates all = find_candidates(m, m.rest, x1, inflation);
    CHECK(group_of(m, all, -1).size() > 10);
    check_same(sorted(parts), all);
  }
}

TEST_CASE("cached candidates filter to exactly each group's fresh broad phase", "[contact][broad_phase]") {
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat);
  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  std::normal_distribution<double> step(0.0, 0.2 * dhat);
  Positions x = m.rest;
  int queries = 0;
  std::size_t found = 0, contacts = 0;
  for (int k = 0; k < 60; ++k) {
    Positions x1 = x;
    const double scale = k % 15 == 14 ? 30.0 : 1.0;  // now and then a sweep longer than the largest skin
    for (Eigen::Index i = 0; i < x1.size(); ++i) x1.data()[i] += scale * step(rng);
    check_groups(m, x, x, cache.around(m, x), dhat);
    // The contact candidates give the same contact set as a fresh broad phase,
    // at x (refiltered or not) and nearby (reused: well within their skin).
    for (const double f : {0.0, 0.02, 0.05}) {
      const Positions xf = x + f * (x1 - x);
      const ContactSet fresh = build_contact_set(m, xf, find_candidates(m, xf, xf, dhat), dhat);
      check_same_contacts(build_contact_set(m, xf, cache.for_contacts(m, xf), dhat), fresh);
      contacts += fresh.size();
    }
    found += find_candidates(m, x, x, dhat).size();
    const Candidates& swept = cache.along(m, x, x1);
    check_groups(m, x, x1, swept, dhat);
    check_groups(m, x, x1, swept, 0.0);
    // The CCD through the cache finds the step that testing every pair finds.
    CHECK(max_collision_free_step(m, x, x1, swept, std::nullopt, 0.1) == max_collision_free_step(m, x, x1, std::nullopt, 0.1));
    queries += 2;
    x = x1;
  }
  CHECK(found > 1000);  // the boxes are in contact
  CHECK(contacts > 100);
  // The cache is reused most of the time, and rebuilt when vertices leave their skin.
  CHECK(cache.rebuilds() > 2);
  CHECK(cache.rebuilds() < queries);  // three groups
}

TEST_CASE("a common translation keeps the cached candidates", "[contact][broad_phase]") {
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat);
  Positions x = m.rest;
  const Candidates first = cache.around(m, x);
  const int built = cache.rebuilds();
  CHECK(built == 3);  // within each box, between them
  for (int k = 0; k < 20; ++k) {
    Positions x1 = x;
    x1.col(2).array() += 10 * dhat;  // far past the largest skin in absolute terms
    const Candidates& swept = cache.along(m, x, x1);
    // In the following frames nothing moves: the swept pairs are the pairs at x.
    check_groups(m, x, x1, swept, dhat);
    check_same(sorted(filter(m, x, follow_mean_translation(x, x1), swept, dhat)), find_candidates(m, x, x, dhat));
    x = x1;
  }
  CHECK(cache.rebuilds() == built);
  check_same(cache.around(m, x), first);
}

TEST_CASE("a body carried past the skin keeps its own pairs", "[contact][broad_phase]") {
  // The upper box slides 3 dhat a step along the lower one (a finger carried
  // along a rack): the pairs between them are found again every step, the
  // pairs within each box never.
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, 2 * dhat, 0.25 * dhat);
  Positions x = m.rest;
  cache.around(m, x);
  const int built = cache.rebuilds();
  for (int k = 0; k < 10; ++k) {
    Positions x1 = x;
    for (int v = 0; v < m.num_vertices(); ++v)
      if (m.vertex_body[v] == 1) x1(v, 0) += 3 * dhat;
    const Candidates& swept = cache.along(m, x, x1);
    check_groups(m, x, x1, swept, dhat);
    CHECK(max_collision_free_step(m, x, x1, swept, std::nullopt, 0.1) == max_collision_free_step(m, x, x1, std::nullopt, 0.1));
    check_same_contacts(build_contact_set(m, x1, cache.for_contacts(m, x1), dhat),
                        build_contact_set(m, x1, find_candidates(m, x1, x1, dhat), dhat));
    x = x1;
  }
  // Only the between-body group is rebuilt (once per step, at the contact sets).
  CHECK(cache.rebuilds() <= built + 10);
  CHECK(cache.rebuilds() >= built + 5);
}
