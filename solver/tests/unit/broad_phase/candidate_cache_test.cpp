// CandidateCache: its (cached) superset holds every pair within dhat at the
// positions asked about and along the moves asked about, and the CCD and
// contact sets through it are those of a fresh broad phase, for random moves
// and turns that stay inside and leave the skin; a common translation or a
// common turn alone never leaves it, and a body carried along another keeps
// its own pairs.
#include "eipc/broad_phase/candidate_cache.hpp"
#include "eipc/ccd/collision_free_step.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/testing/two_bodies.hpp"

#include <catch2/catch.hpp>
#include <Eigen/Geometry>
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

/// m with `box` appended as a rigid body (a rack standing still) after its two.
CollisionMesh with_rigid_box(CollisionMesh m, const TetMesh& box) {
  const Eigen::Index n = m.rest.rows();
  Positions rest(n + box.vertices.rows(), 3);
  rest << m.rest, box.vertices;
  const Tris faces = boundary_faces(box.tets);
  Tris all(m.faces.rows() + faces.rows(), 3);
  all << m.faces, (faces.array() + int(n)).matrix();
  m.rest = rest;
  m.faces = all;
  m.edges = unique_edges(m.faces);
  m.vertex_body.resize(std::size_t(rest.rows()), 2);
  m.rigid_body = {0, 0, 1};
  return m;
}

/// two_boxes with a rigid box beside them along x, 2 dhat away.
CollisionMesh two_boxes_and_a_rigid_one(double dhat) {
  return with_rigid_box(two_boxes(dhat), box_tet_mesh(Vec3(0.1 + 2 * dhat, 0, 0), Vec3(0.15, 0.1, 0.1), 2, 3, 3));
}

/// `from`'s pairs after `to`'s.
void append(Candidates& to, const Candidates& from) {
  to.point_triangle.insert(to.point_triangle.end(), from.point_triangle.begin(), from.point_triangle.end());
  to.edge_edge.insert(to.edge_edge.end(), from.edge_edge.begin(), from.edge_edge.end());
}

void check_same(const Candidates& a, const Candidates& b) {
  REQUIRE(a.point_triangle.size() == b.point_triangle.size());
  REQUIRE(a.edge_edge.size() == b.edge_edge.size());
  CHECK(a.point_triangle == b.point_triangle);
  CHECK(a.edge_edge == b.edge_edge);
}

/// c in Candidates order (operator<, which std::includes below uses too).
Candidates sorted(Candidates c) {
  std::sort(c.point_triangle.begin(), c.point_triangle.end());
  std::sort(c.edge_edge.begin(), c.edge_edge.end());
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

/// Every pair closer than dhat at x is in `superset`.
void check_holds_contacts(const CollisionMesh& m, const Positions& x, const Candidates& superset, double dhat) {
  const Candidates near = candidates_within(m, x, find_candidates(m, x, x, dhat), dhat);
  const Candidates all = sorted(superset);
  CHECK(std::includes(all.point_triangle.begin(), all.point_triangle.end(), near.point_triangle.begin(),
                      near.point_triangle.end()));
  CHECK(std::includes(all.edge_edge.begin(), all.edge_edge.end(), near.edge_edge.begin(), near.edge_edge.end()));
}

/// `superset` holds every pair within dhat anywhere on the move x0 -> x1, and
/// the CCD over it finds the step that testing every pair finds.
void check_move(const CollisionMesh& m, const Positions& x0, const Positions& x1, const Candidates& superset,
                double dhat) {
  for (const double t : {0.0, 0.3, 0.5, 0.7, 1.0}) check_holds_contacts(m, x0 + t * (x1 - x0), superset, dhat);
  CHECK(max_collision_free_step(m, x0, x1, superset, std::nullopt, 0.1) == max_collision_free_step(m, x0, x1, std::nullopt, 0.1));
}

/// x turned by `angle` about `axis` through `centre`.
Positions turned(const Positions& x, double angle, const Vec3& axis, const Vec3& centre) {
  const Mat3 R = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  Positions y = x;
  for (Eigen::Index v = 0; v < x.rows(); ++v) y.row(v) = (R * (x.row(v).transpose() - centre) + centre).transpose();
  return y;
}

/// One body of two flat slivers along x, `gap` apart along z: their boxes are
/// as far apart as they are, until they turn.
CollisionMesh two_slivers(double length, double gap) {
  CollisionMesh m;
  m.rest.resize(6, 3);
  m.rest << -length, 0, 0, length, 0, 0, length, 0.1 * length, 0,  //
      -length, 0, gap, length, 0, gap, length, 0.1 * length, gap;
  m.faces.resize(2, 3);
  m.faces << 0, 1, 2, 3, 4, 5;
  m.edges.resize(6, 2);
  m.edges << 0, 1, 0, 2, 1, 2, 3, 4, 3, 5, 4, 5;
  m.vertex_body.assign(6, 0);
  return m;
}

/// The slivers pushed apart along z by `apart` (each half of it), then turned
/// by `angle` about y through their midpoint.
Positions slivers_at(const CollisionMesh& m, double apart, double angle) {
  Positions x = m.rest;
  for (int v = 0; v < 6; ++v) x(v, 2) += v < 3 ? -0.5 * apart : 0.5 * apart;
  return turned(x, angle, Vec3::UnitY(), 0.5 * (m.rest.row(0) + m.rest.row(3)).transpose());
}

/// The contact set at x from the cache's contact candidates is that of a fresh
/// broad phase, compared as sets (the cache lists its groups one after the
/// other). Returns its size.
std::size_t check_contacts(CandidateCache& cache, const CollisionMesh& m, const Positions& x, double dhat) {
  ContactSet cached = build_contact_set(m, x, cache.for_contacts(m, x), dhat);
  ContactSet fresh = build_contact_set(m, x, find_candidates(m, x, x, dhat), dhat);
  auto key = [](const Contact& c) { return std::make_tuple(int(c.kind), c.vertices); };
  auto by_key = [&](const Contact& p, const Contact& q) { return key(p) < key(q); };
  std::sort(cached.contacts.begin(), cached.contacts.end(), by_key);
  std::sort(fresh.contacts.begin(), fresh.contacts.end(), by_key);
  CHECK(same_pairs(cached, fresh));
  return fresh.size();
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
    append(parts, find_candidates_within_body(m, m.rest, x1, inflation, 1));
    append(parts, find_candidates_between_bodies(m, m.rest, x1, inflation));
    const Candidates all = find_candidates(m, m.rest, x1, inflation);
    CHECK(group_of(m, all, -1).size() > 10);
    check_same(sorted(parts), all);
  }
}

TEST_CASE("the pairs between deforming bodies and those with a rigid one split the pairs between bodies",
          "[contact][broad_phase]") {
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes_and_a_rigid_one(dhat);
  std::mt19937 rng(5);
  std::normal_distribution<double> step(0.0, 2 * dhat);
  Positions x1 = m.rest;
  for (Eigen::Index i = 0; i < x1.size(); ++i) x1.data()[i] += step(rng);
  for (double inflation : {0.0, dhat}) {
    const Candidates all = find_candidates_between_bodies(m, m.rest, x1, inflation);
    const Candidates deforming = find_candidates_between_bodies(m, m.rest, x1, inflation, nullptr, BodyPairs::deforming);
    const Candidates with_rigid = find_candidates_between_bodies(m, m.rest, x1, inflation, nullptr, BodyPairs::with_rigid);
    CHECK(deforming.size() > 10);
    CHECK(with_rigid.size() > 10);
    Candidates both = deforming;
    append(both, with_rigid);
    check_same(sorted(both), all);
    for (const auto& p : deforming.point_triangle) CHECK(m.body_of_face(p.face) != 2);
    for (const auto& p : with_rigid.point_triangle) CHECK((m.vertex_body[p.vertex] == 2 || m.body_of_face(p.face) == 2));
  }
}

TEST_CASE("the pairs between deforming bodies follow them past a rigid body", "[contact][broad_phase]") {
  // Two boxes in contact are carried together along y and turned, 3 dhat and
  // 2 mrad a step, past a rigid box 2 dhat beside them, standing still (a
  // gripper carrying a plate past a rack). The pairs between the two keep
  // their set; the pairs with the rigid box are found again; contacts and CCD
  // are those of a fresh broad phase throughout.
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes_and_a_rigid_one(dhat);
  CandidateCache cache(dhat, dhat, 2 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  Positions x = m.rest;
  cache.around(m, x);
  REQUIRE(cache.along_lists(m, x, x).size() == 4);  // box 0, box 1, between the two, with the rigid one
  const Candidates between = *cache.along_lists(m, x, x)[2];
  REQUIRE(between.size() > 10);
  const int built = cache.rebuilds();
  for (int k = 0; k < 10; ++k) {
    Positions x1 = x;
    const Positions moved = turned(x, 0.002, Vec3(0, 0, 1), Vec3(0.05, 0.05 + 3 * k * dhat, 0.05));
    for (int v = 0; v < m.num_vertices(); ++v)
      if (m.vertex_body[v] != 2) x1.row(v) = moved.row(v) + Eigen::RowVector3d(0, 3 * dhat, 0);
    check_move(m, x, x1, cache.along(m, x, x1), dhat);
    check_contacts(cache, m, x1, dhat);
    x = x1;
  }
  const CandidateLists& lists = cache.along_lists(m, x, x);
  check_same(*lists[2], between);
  // Only the group with the rigid box is rebuilt (about once a step).
  CHECK(cache.rebuilds() <= built + 10);
  CHECK(cache.rebuilds() >= built + 5);
}

TEST_CASE("a one-off between deforming bodies is found in the frame the CCD tests them in", "[contact][broad_phase]") {
  // Two boxes face each other across x, 20 dhat apart; a rigid box stands far
  // off. The pairs between the two follow their mean translation, but the CCD
  // tests those pairs' swept boxes in the frame of every vertex's. Carried 60
  // dhat along x while closing to 1.05 dhat (past every skin: a one-off), the
  // facing pairs' swept boxes overlap in that frame and they stop the CCD,
  // though in the boxes' own frame they stay more than dhat apart.
  const double dhat = 1e-3, gap = 20 * dhat;
  const TetMesh a = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.02, 0.02, 0.02), 2, 2, 2);
  const TetMesh b = box_tet_mesh(Vec3(0.02 + gap, 0, 0), Vec3(0.04 + gap, 0.02, 0.02), 2, 2, 2);
  const CollisionMesh m =
      with_rigid_box(two_body_collision_mesh(a, b), box_tet_mesh(Vec3(0, 0.5, 0), Vec3(0.02, 0.52, 0.02), 2, 2, 2));
  Positions x1 = m.rest;
  for (int v = 0; v < m.num_vertices(); ++v)
    if (m.vertex_body[v] != 2) x1(v, 0) += 60 * dhat - (m.vertex_body[v] == 1 ? gap - 1.05 * dhat : 0.0);
  CandidateCache cache(dhat, dhat, 2 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  cache.around(m, m.rest);
  REQUIRE(max_collision_free_step(m, m.rest, x1, std::nullopt, 0.1) < 1.0);
  check_move(m, m.rest, x1, cache.along(m, m.rest, x1), dhat);
}

TEST_CASE("cached candidates hold the contacts and CCD pairs of random moves and turns", "[contact][broad_phase]") {
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  std::normal_distribution<double> step(0.0, 0.2 * dhat);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Positions x = m.rest;
  int queries = 0;
  std::size_t found = 0, contacts = 0;
  for (int k = 0; k < 60; ++k) {
    // Each box turned a little about its own centre (up to 40 mrad, about 2
    // dhat at its corners), then every vertex moved at random.
    Positions x1 = x;
    for (int body : {0, 1}) {
      Vec3 centre = Vec3::Zero();
      int n = 0;
      for (int v = 0; v < m.num_vertices(); ++v)
        if (m.vertex_body[v] == body) centre += x.row(v).transpose(), ++n;
      const Positions spun = turned(x, 0.04 * unit(rng), Vec3(unit(rng), unit(rng), 1.0), centre / n);
      for (int v = 0; v < m.num_vertices(); ++v)
        if (m.vertex_body[v] == body) x1.row(v) = spun.row(v);
    }
    const double scale = k % 15 == 14 ? 30.0 : 1.0;  // now and then a sweep longer than the largest skin
    for (Eigen::Index i = 0; i < x1.size(); ++i) x1.data()[i] += scale * step(rng);
    check_holds_contacts(m, x, cache.around(m, x), dhat);
    // The contact candidates give the same contact set as a fresh broad phase,
    // at x (refiltered or not) and nearby (reused: well within their skin).
    for (const double f : {0.0, 0.02, 0.05}) {
      const Positions xf = x + f * (x1 - x);
      contacts += check_contacts(cache, m, xf, dhat);
    }
    found += find_candidates(m, x, x, dhat).size();
    check_move(m, x, x1, cache.along(m, x, x1), dhat);
    queries += 2;
    x = x1;
  }
  CHECK(found > 1000);  // the boxes are in contact
  CHECK(contacts > 100);
  // The cache is reused most of the time, and rebuilt when vertices leave their skin.
  CHECK(cache.rebuilds() > 2);
  CHECK(cache.rebuilds() < queries);  // three groups
}

TEST_CASE("contact candidates asked for alone, at small moves that add up past the skin, stay exact",
          "[contact][broad_phase]") {
  // Newton's trial points between sweeps: each within the contact skin of the
  // last filtering, so that filtering serves, until the moves since the
  // cache's reference add up past its skin. The upper box starts 3.1 dhat
  // above the lower one, just beyond the cache's reach (dhat + 2 skin), and
  // comes down 0.15 dhat at a time: each box moves half of that from the mean
  // translation both follow, so a filtering serves about four moves, and
  // after fourteen the moves since the reference exceed the skin. The cache
  // must then find the pairs that come within dhat (at 3.1 - 2.25 dhat).
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  Positions x = m.rest;
  for (int v = 0; v < m.num_vertices(); ++v)
    if (m.vertex_body[v] == 1) x(v, 2) += 2.6 * dhat;
  std::size_t contacts = 0;
  for (int k = 0; k < 18; ++k) {
    contacts += check_contacts(cache, m, x, dhat);
    for (int v = 0; v < m.num_vertices(); ++v)
      if (m.vertex_body[v] == 1) x(v, 2) -= 0.15 * dhat;
  }
  CHECK(contacts > 0);
}

TEST_CASE("pairs left out of the cache that a turned move brings close are found", "[contact][broad_phase]") {
  const double dhat = 1e-3;
  const CollisionMesh m = two_slivers(20 * dhat, 9.5 * dhat);
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  // A sweep that deforms 2 dhat builds the cache at rest with the largest
  // skin, 4 dhat: pairs within 9 dhat. The slivers' pairs are 9.5 dhat apart.
  cache.along(m, m.rest, slivers_at(m, 4 * dhat, 0.0));
  REQUIRE(cache.around(m, m.rest).size() == 0);
  const int built = cache.rebuilds();

  SECTION("a move within the skin after a turn, that the CCD stops") {
    // Turned 45 degrees, the slivers' boxes overlap; pushed apart then
    // together by 3.95 dhat each (within the skin), they go from 17.4 to 1.6
    // dhat apart: never in contact, but the CCD, keeping 10% of 17.4, stops them.
    const Positions x0 = slivers_at(m, 7.9 * dhat, M_PI / 4), x1 = slivers_at(m, -7.9 * dhat, M_PI / 4);
    REQUIRE(max_collision_free_step(m, x0, x1, std::nullopt, 0.1) < 1.0);
    check_move(m, x0, x1, cache.along(m, x0, x1), dhat);
    // Rebuilt halfway along the move, the set serves both its ends.
    const int rebuilt = cache.rebuilds();
    CHECK(rebuilt == built + 1);
    check_holds_contacts(m, x0, cache.around(m, x0), dhat);
    check_holds_contacts(m, x1, cache.around(m, x1), dhat);
    CHECK(cache.rebuilds() == rebuilt);
  }
  SECTION("a position just past the skin, turned or not") {
    for (const double angle : {0.0, M_PI / 4}) {
      const Positions x = slivers_at(m, -9 * dhat, angle);  // 0.5 dhat apart
      check_holds_contacts(m, x, cache.around(m, x), dhat);
    }
    CHECK(cache.rebuilds() > built);
  }
  SECTION("a straight move between two placements far apart in angle") {
    // Halfway along a straight move between placements 3 rad apart, every
    // vector in the plane of the turn is cos(1.5) = 0.07 times as long: the
    // slivers come within 0.7 dhat though neither end deforms.
    const Positions x1 = slivers_at(m, 0.0, 3.0);
    cache.around(m, m.rest);
    check_move(m, m.rest, x1, cache.along(m, m.rest, x1), dhat);
  }
}

TEST_CASE("a common translation keeps the cached candidates", "[contact][broad_phase]") {
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  Positions x = m.rest;
  const Candidates first = cache.around(m, x);
  const int built = cache.rebuilds();
  CHECK(built == 3);  // within each box, between them
  for (int k = 0; k < 20; ++k) {
    Positions x1 = x;
    x1.col(2).array() += 10 * dhat;  // far past the largest skin in absolute terms
    const Candidates& swept = cache.along(m, x, x1);
    check_move(m, x, x1, swept, dhat);
    x = x1;
  }
  CHECK(cache.rebuilds() == built);
  check_same(cache.around(m, x), first);
}

TEST_CASE("a body turned whole keeps its cached candidates", "[contact][broad_phase]") {
  // One body (two slivers 0.5 dhat apart, 40 dhat long) turned 30 mrad a step
  // about a skew axis: its ends move 0.6 dhat a step, past the largest skin in
  // 7 steps, but no distance changes.
  const double dhat = 1e-3;
  const CollisionMesh m = two_slivers(20 * dhat, 0.5 * dhat);
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  Positions x = m.rest;
  const Candidates first = cache.around(m, x);
  REQUIRE(first.size() > 0);
  const int built = cache.rebuilds();
  for (int k = 0; k < 20; ++k) {
    const Positions x1 = turned(x, 0.03, Vec3(1, -1, 2), Vec3(0.0, 0.001, 0.0));
    check_move(m, x, x1, cache.along(m, x, x1), dhat);
    check_contacts(cache, m, x1, dhat);
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
  CandidateCache cache(dhat, dhat, 2 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  Positions x = m.rest;
  cache.around(m, x);
  const int built = cache.rebuilds();
  for (int k = 0; k < 10; ++k) {
    Positions x1 = x;
    for (int v = 0; v < m.num_vertices(); ++v)
      if (m.vertex_body[v] == 1) x1(v, 0) += 3 * dhat;
    check_move(m, x, x1, cache.along(m, x, x1), dhat);
    check_contacts(cache, m, x1, dhat);
    x = x1;
  }
  // Only the between-body group is rebuilt (once per step, at the contact sets).
  CHECK(cache.rebuilds() <= built + 10);
  CHECK(cache.rebuilds() >= built + 5);
}

TEST_CASE("a rigid body's own pairs are left out of the cache", "[contact][broad_phase]") {
  // One body of two slivers 0.5 dhat apart: in contact with itself unless it
  // moves rigidly (a kinematic body), when no pair of its own can close.
  const double dhat = 1e-3;
  CollisionMesh m = two_slivers(20 * dhat, 0.5 * dhat);
  const Positions turned_whole = slivers_at(m, 0.0, 0.3);
  CandidateCache deforming(dhat, dhat, 2 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  CHECK(build_contact_set(m, m.rest, deforming.for_contacts(m, m.rest), dhat).contacts.size() > 0);
  CHECK(deforming.along(m, m.rest, turned_whole).size() > 0);
  m.rigid_body = {1};
  CandidateCache rigid(dhat, dhat, 2 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  CHECK(rigid.for_contacts(m, m.rest).size() == 0);
  CHECK(rigid.along(m, m.rest, turned_whole).size() == 0);
}

TEST_CASE("a move up to twice the largest skin is one build, which serves its end too", "[contact][broad_phase]") {
  // The slivers stretched 10% along their length: their ends move 2.7 dhat
  // beyond the mean translation, more than the largest skin (2 dhat). Built
  // halfway along, the set serves the sweep and then the contacts at its end.
  const double dhat = 1e-3;
  const CollisionMesh m = two_slivers(20 * dhat, 0.5 * dhat);
  CandidateCache cache(dhat, dhat, 2 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  cache.around(m, m.rest);
  const int built = cache.rebuilds();
  Positions x1 = m.rest;
  x1.col(0) *= 1.1;
  check_move(m, m.rest, x1, cache.along(m, m.rest, x1), dhat);
  CHECK(cache.rebuilds() == built + 1);
  check_contacts(cache, m, x1, dhat);
  CHECK(cache.rebuilds() == built + 1);
}

TEST_CASE("along_lists holds the sets along joins, and the CCD over them is the same", "[contact][broad_phase]") {
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, 2 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  Positions x = m.rest;
  for (int k = 0; k < 6; ++k) {
    Positions x1 = x;
    for (int v = 0; v < m.num_vertices(); ++v)
      if (m.vertex_body[v] == 1) x1(v, 0) += (k + 1) * dhat;  // past the skin from the third step
    Candidates joined;
    for (const Candidates* c : cache.along_lists(m, x, x1)) {
      joined.point_triangle.insert(joined.point_triangle.end(), c->point_triangle.begin(), c->point_triangle.end());
      joined.edge_edge.insert(joined.edge_edge.end(), c->edge_edge.begin(), c->edge_edge.end());
    }
    CHECK(max_collision_free_step(m, x, x1, cache.along_lists(m, x, x1), std::nullopt, 0.1) ==
          max_collision_free_step(m, x, x1, std::nullopt, 0.1));
    check_same(joined, cache.along(m, x, x1));
    x = x1;
  }
}

TEST_CASE("the CCD with the cache's distance bounds is the CCD without them", "[contact][broad_phase]") {
  // The gaps of a contact filtering with the boxes 3 dhat apart bound the
  // distances after the upper box came back down (less its move since): a
  // sweep from there that would close the last 0.5 dhat is stopped as without
  // the bounds. A bound that ignored the move since would skip those pairs.
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, 2 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  auto lowered = [&](const Positions& x, double by) {
    Positions out = x;
    for (int v = 0; v < m.num_vertices(); ++v)
      if (m.vertex_body[v] == 1) out(v, 2) -= by;
    return out;
  };
  const Positions lifted = lowered(m.rest, -2.5 * dhat);
  cache.for_contacts(m, lifted);
  const Positions back = lowered(lifted, 2.5 * dhat);
  for (const auto& [x0, x1] : {std::pair{lifted, back}, std::pair{back, lowered(back, 0.6 * dhat)}}) {
    const CandidateLists& lists = cache.along_lists(m, x0, x1);
    const std::vector<PairDistanceBounds> bounds = cache.distance_bounds(m, x0, x1);
    CHECK(std::any_of(bounds.begin(), bounds.end(), [](const PairDistanceBounds& b) { return bool(b); }));
    const double with = max_collision_free_step(m, x0, x1, lists, std::nullopt, 0.1, bounds);
    CHECK(with == max_collision_free_step(m, x0, x1, lists, std::nullopt, 0.1));
    CHECK(with == max_collision_free_step(m, x0, x1, std::nullopt, 0.1));
  }
  CHECK(max_collision_free_step(m, back, lowered(back, 0.6 * dhat), std::nullopt, 0.1) < 1.0);
}

TEST_CASE("a body's far pairs are left out of a sweep's CCD only when they cannot stop it", "[contact][broad_phase]") {
  // Two slivers of one body 1.6 dhat apart: cached, and far (at least
  // 1.5 dhat apart) at the contact filtering at rest, where their gaps are
  // measured. The CCD stops a pair once it has lost 81% of its distance.
  const double dhat = 1e-3;
  const CollisionMesh m = two_slivers(20 * dhat, 1.6 * dhat);
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  cache.for_contacts(m, m.rest);
  REQUIRE(cache.around(m, m.rest).size() > 0);
  // The CCD over the lists with the cache's bounds, checked against a fresh
  // broad phase; `left_out`: whether the bounds left the far pairs out.
  auto ccd = [&](const Positions& x0, const Positions& x1, bool& left_out) {
    const CandidateLists& lists = cache.along_lists(m, x0, x1);
    const std::vector<PairDistanceBounds> bounds = cache.distance_bounds(m, x0, x1);
    left_out = std::any_of(bounds.begin(), bounds.end(), [](const PairDistanceBounds& b) { return b.may_stop(); });
    const double step = max_collision_free_step(m, x0, x1, lists, std::nullopt, 0.1, bounds);
    CHECK(step == max_collision_free_step(m, x0, x1, std::nullopt, 0.1));
    return step;
  };
  const double turn = M_PI / 4;  // the slivers' boxes overlap: the CCD tests them
  bool left_out = false;
  SECTION("a turn and a carry leave them out") {
    Positions x1 = slivers_at(m, 0.0, turn);
    x1.rowwise() += Eigen::RowVector3d(2 * dhat, 0, 0);
    CHECK(ccd(m.rest, x1, left_out) == 1.0);
    CHECK(left_out);
  }
  SECTION("a sweep that bends them 1.48 dhat closer keeps them") {
    // Each vertex 0.74 dhat off the sweep's rigid motion (a far pair keeps at
    // least 1.5 - 1.48 dhat), and 0.12 dhat apart at its end: the CCD stops.
    CHECK(ccd(slivers_at(m, 0.0, turn), slivers_at(m, -1.48 * dhat, turn), left_out) < 1.0);
    CHECK_FALSE(left_out);
  }
  SECTION("a short sweep after a bend since the filtering keeps them") {
    // Bent 0.5 dhat closer since their gaps were measured, then 1 dhat closer.
    CHECK(ccd(slivers_at(m, -0.5 * dhat, turn), slivers_at(m, -1.5 * dhat, turn), left_out) < 1.0);
    CHECK_FALSE(left_out);
  }
}

TEST_CASE("the far pairs between bodies carried together are left out of a sweep's CCD", "[contact][broad_phase]") {
  // The pairs between bodies follow a translation only: carried together, the
  // two boxes' far pairs cannot stop the sweep; pushed together, they are kept.
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes(dhat);
  CandidateCache cache(dhat, dhat, 2 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  cache.for_contacts(m, m.rest);
  auto between_left_out = [&](const Positions& x0, const Positions& x1) {
    const CandidateLists& lists = cache.along_lists(m, x0, x1);
    const std::vector<PairDistanceBounds> bounds = cache.distance_bounds(m, x0, x1);
    CHECK(max_collision_free_step(m, x0, x1, lists, std::nullopt, 0.1, bounds) ==
          max_collision_free_step(m, x0, x1, std::nullopt, 0.1));
    return bounds.size() == 3 && bounds[2].may_stop() != nullptr;  // groups: box 0, box 1, between
  };
  Positions carried = m.rest;
  carried.rowwise() += Eigen::RowVector3d(0.5 * dhat, 0.2 * dhat, 0.0);
  CHECK(between_left_out(m.rest, carried));
  Positions pushed = m.rest;
  for (int v = 0; v < m.num_vertices(); ++v)
    if (m.vertex_body[v] == 1) pushed(v, 2) -= 2 * dhat;
  CHECK_FALSE(between_left_out(m.rest, pushed));
}

TEST_CASE("a cache asked on shared positions (its fits memoized) answers as one asked on plain ones",
          "[contact][broad_phase]") {
  // Newton-like queries (contacts at x, a sweep to x1 and its bounds, x1 the
  // next x under the same pointer) on two boxes and a rigid one that turn,
  // bend and come close: the contact candidates, sweep lists, bounds and CCD
  // steps of a cache whose groups reuse their fits (FitMemo) are those of a
  // cache that fits everything afresh.
  const double dhat = 1e-3;
  const CollisionMesh m = two_boxes_and_a_rigid_one(dhat);
  CandidateCache memo(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  CandidateCache plain(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  std::mt19937 rng(GENERATE(5u, 6u));
  std::normal_distribution<double> step(0.0, 0.1 * dhat);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  SharedPositions x = std::make_shared<const Positions>(m.rest);
  int refits = 0;
  for (int k = 0; k < 40; ++k) {
    Positions next = *x;
    for (int body : {0, 1}) {
      Vec3 centre = Vec3::Zero();
      int n = 0;
      for (int v = 0; v < m.num_vertices(); ++v)
        if (m.vertex_body[v] == body) centre += x->row(v).transpose(), ++n;
      const Positions spun = turned(*x, 0.02 * unit(rng), Vec3(unit(rng), unit(rng), 1.0), centre / n);
      for (int v = 0; v < m.num_vertices(); ++v)
        if (m.vertex_body[v] == body) next.row(v) = spun.row(v) + Eigen::RowVector3d(0.5 * dhat, 0, -0.05 * dhat);
    }
    for (Eigen::Index i = 0; i < next.size(); ++i)
      if (m.vertex_body[std::size_t(i / 3)] < 2) next.data()[i] += (k % 9 == 8 ? 20.0 : 1.0) * step(rng);
      else next.data()[i] = x->data()[i];  // the rigid box stands still
    const SharedPositions x1 = std::make_shared<const Positions>(std::move(next));
    for (int again = 0; again < 2; ++again) {  // a line search asks twice at the same positions
      check_same(memo.for_contacts(m, x), plain.for_contacts(m, *x));
      const CandidateLists& a = memo.along_lists(m, x, x1);
      const std::vector<Candidates> a_copy = [&] {
        std::vector<Candidates> out;
        for (const Candidates* c : a) out.push_back(*c);
        return out;
      }();
      const CandidateLists& b = plain.along_lists(m, *x, *x1);
      REQUIRE(a_copy.size() == b.size());
      for (std::size_t g = 0; g < b.size(); ++g) check_same(a_copy[g], *b[g]);
      const std::vector<PairDistanceBounds> bounds_a = memo.distance_bounds(m, x, x1);
      const std::vector<PairDistanceBounds> bounds_b = plain.distance_bounds(m, *x, *x1);
      REQUIRE(bounds_a.size() == bounds_b.size());
      for (std::size_t g = 0; g < bounds_a.size(); ++g) {
        CHECK(bool(bounds_a[g]) == bool(bounds_b[g]));
        CHECK((bounds_a[g].may_stop() != nullptr) == (bounds_b[g].may_stop() != nullptr));
        refits += bounds_a[g].may_stop() != nullptr;
      }
      CHECK(max_collision_free_step(m, *x, *x1, memo.along_lists(m, x, x1), std::nullopt, 0.1,
                                    memo.distance_bounds(m, x, x1)) ==
            max_collision_free_step(m, *x, *x1, plain.along_lists(m, *x, *x1), std::nullopt, 0.1,
                                    plain.distance_bounds(m, *x, *x1)));
      check_same(memo.around(m, x1), plain.around(m, *x1));
    }
    CHECK(memo.rebuilds() == plain.rebuilds());
    x = x1;
  }
  CHECK(memo.rebuilds() > 3);
  CHECK(refits > 0);  // some sweeps left far pairs out through the memoized fits
}
