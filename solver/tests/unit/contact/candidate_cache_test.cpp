// CandidateCache: filtering its (cached) superset gives exactly what a fresh
// broad phase (in the frame that follows the mean translation) finds, for
// random motions that stay inside and leave the skin, and a common
// translation alone never leaves it.
#include "eipc/contact/candidate_cache.hpp"
#include "eipc/contact/contact_set.hpp"
#include "eipc/mesh/primitives.hpp"
#include "eipc/mesh/surface.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace eipc;

namespace {

/// Two boxes (box surface triangulated through its tet mesh) 0.5 dhat apart.
CollisionMesh two_boxes(double dhat) {
  const TetMesh a = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.05), 3, 3, 2);
  const TetMesh b = box_tet_mesh(Vec3(0.02, 0.03, 0.05 + 0.5 * dhat), Vec3(0.09, 0.08, 0.1), 3, 3, 2);
  CollisionMesh m;
  const int na = static_cast<int>(a.vertices.rows());
  m.rest.resize(na + b.vertices.rows(), 3);
  m.rest << a.vertices, b.vertices;
  const Tris fa = boundary_faces(a.tets), fb = boundary_faces(b.tets);
  m.faces.resize(fa.rows() + fb.rows(), 3);
  m.faces << fa, (fb.array() + na).matrix();
  m.edges = unique_edges(m.faces);
  m.vertex_body.assign(m.rest.rows(), 0);
  for (Eigen::Index v = na; v < m.rest.rows(); ++v) m.vertex_body[v] = 1;
  return m;
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

}  // namespace

TEST_CASE("cached candidates filter to exactly the fresh broad phase", "[contact][broad_phase]") {
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
    const Candidates& near = cache.around(m, x);
    check_same(filter(m, x, x, near, dhat), find_candidates(m, x, x, dhat));
    // The contact candidates give the same contact set as a fresh broad phase,
    // at x (refiltered or not) and nearby (reused: well within their skin).
    for (const double f : {0.0, 0.02, 0.05}) {
      const Positions xf = x + f * (x1 - x);
      const ContactSet fresh = build_contact_set(m, xf, find_candidates(m, xf, xf, dhat), dhat);
      CHECK(same_pairs(build_contact_set(m, xf, cache.for_contacts(m, xf), dhat), fresh));
      contacts += fresh.size();
    }
    found += find_candidates(m, x, x, dhat).size();
    const Candidates& swept = cache.along(m, x, x1);
    const Positions x1_followed = follow_mean_translation(x, x1);
    check_same(filter(m, x, x1_followed, swept, dhat), find_candidates(m, x, x1_followed, dhat));
    check_same(filter(m, x, x1_followed, swept, 0.0), find_candidates(m, x, x1_followed, 0.0));
    queries += 2;
    x = x1;
  }
  CHECK(found > 1000);  // the boxes are in contact
  CHECK(contacts > 100);
  // The cache is reused most of the time, and rebuilt when vertices leave their skin.
  CHECK(cache.rebuilds() > 2);
  CHECK(cache.rebuilds() < queries / 3);
}

TEST_CASE("a common translation keeps the cached candidates", "[contact][broad_phase]") {
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat);
  Positions x = m.rest;
  const Candidates first = cache.around(m, x);
  for (int k = 0; k < 20; ++k) {
    Positions x1 = x;
    x1.col(2).array() += 10 * dhat;  // far past the largest skin in absolute terms
    const Candidates& swept = cache.along(m, x, x1);
    // In the following frame nothing moves: the swept pairs are the pairs at x.
    check_same(filter(m, x, follow_mean_translation(x, x1), swept, dhat), find_candidates(m, x, x, dhat));
    x = x1;
  }
  CHECK(cache.rebuilds() == 1);
  check_same(cache.around(m, x), first);
}
