// Affine patches: a patch's trust follows the smallest stretch of its map
// along a move; the candidate cache that leaves out the trusted patches' pairs
// still gives exactly the contact sets of a fresh broad phase and the CCD
// steps of a cache that keeps every pair (boxes each moving by one affine
// map, squeezed, sheared, turned), leaves out most pairs, and keeps them once a patch is squeezed
// below the bound (then they come into contact).
#include "eipc/broad_phase/candidate_cache.hpp"
#include "eipc/ccd/collision_free_step.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/embedding/affine_patches.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/testing/two_bodies.hpp"

#include <catch2/catch.hpp>
#include <Eigen/Geometry>
#include <algorithm>
#include <random>

using namespace eipc;

namespace {

constexpr double kMinStretch = 0.75;

/// Four nodes spanning patch `p`'s frame: its map is F X + c where they go.
Positions nodes_of(const std::vector<Mat3>& F, const std::vector<Vec3>& c) {
  Positions q(4 * Eigen::Index(F.size()), 3);
  for (std::size_t p = 0; p < F.size(); ++p) {
    q.row(4 * Eigen::Index(p)) = c[p].transpose();
    for (int k = 0; k < 3; ++k) q.row(4 * Eigen::Index(p) + 1 + k) = (F[p].col(k) + c[p]).transpose();
  }
  return q;
}

struct TwoPatches {
  CollisionMesh mesh;
  AffinePatches patches;
};

/// Two boxes, one above the other, dhat / 2 apart; each box one patch (body).
TwoPatches two_patches(double dhat) {
  const TetMesh a = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.05), 5, 5, 3);
  const TetMesh b = box_tet_mesh(Vec3(0.02, 0.03, 0.05 + 0.5 * dhat), Vec3(0.09, 0.08, 0.1), 4, 4, 3);
  TwoPatches t;
  CollisionMesh& m = t.mesh;
  m = two_body_collision_mesh(a, b);
  // Patch p's nodes are 4p .. 4p + 3 (identity map at rest).
  const Positions rest_nodes = nodes_of({Mat3::Identity(), Mat3::Identity()}, {Vec3::Zero(), Vec3::Zero()});
  for (int body = 0; body < 2; ++body) {
    std::vector<std::array<int, 4>> nodes;
    for (int v = 0; v < m.num_vertices(); ++v)
      if (m.vertex_body[std::size_t(v)] == body) nodes.push_back({4 * body, 4 * body + 1, 4 * body + 2, 4 * body + 3});
    const std::vector<int> patch = t.patches.add(nodes, rest_nodes);
    m.vertex_patch.insert(m.vertex_patch.end(), patch.begin(), patch.end());
  }
  return t;
}

/// x = F_p X + c_p per vertex.
Positions mapped(const CollisionMesh& m, const std::vector<Mat3>& F, const std::vector<Vec3>& c) {
  Positions x(m.rest.rows(), 3);
  for (Eigen::Index v = 0; v < x.rows(); ++v) {
    const std::size_t p = std::size_t(m.vertex_patch[std::size_t(v)]);
    x.row(v) = (F[p] * m.rest.row(v).transpose() + c[p]).transpose();
  }
  return x;
}

/// The same contacts, in any order (the cache lists them group by group).
void check_same_contacts(ContactSet a, ContactSet b) {
  auto by_vertices = [](const Contact& p, const Contact& q) {
    return std::make_pair(int(p.kind), p.vertices) < std::make_pair(int(q.kind), q.vertices);
  };
  std::sort(a.contacts.begin(), a.contacts.end(), by_vertices);
  std::sort(b.contacts.begin(), b.contacts.end(), by_vertices);
  REQUIRE(a.size() == b.size());
  CHECK(same_pairs(a, b));
}

/// How many pairs of c lie within one body.
std::size_t within_bodies(const CollisionMesh& m, const Candidates& c) {
  std::size_t n = 0;
  for (const auto& p : c.point_triangle) n += m.vertex_body[std::size_t(p.vertex)] == m.body_of_face(p.face);
  for (const auto& e : c.edge_edge) n += m.body_of_edge(e.edge_a) == m.body_of_edge(e.edge_b);
  return n;
}

}  // namespace

TEST_CASE("an affine patch is trusted while its map shortens no direction below the bound", "[contact][broad_phase]") {
  const Positions rest = nodes_of({Mat3::Identity()}, {Vec3::Zero()});
  AffinePatches patches;
  CHECK(patches.add({{0, 1, 2, 3}, {3, 2, 1, 0}, {0, 0, 1, 2}}, rest) == std::vector<int>{0, 0, -1});
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  auto trusted = [&](const Mat3& F0, const Mat3& F1) {
    const Positions q0 = nodes_of({F0}, {Vec3(1, 2, 3)}), q1 = nodes_of({F1}, {Vec3(-1, 0, 2)});
    return patches.trusted(q0, q1, kMinStretch, 4.0)[0] != 0;
  };
  const Mat3 squeeze = Vec3(1.0, 0.8, 1.1).asDiagonal();
  CHECK(trusted(R * squeeze, R * squeeze));                                 // turned, squeezed 20%: trusted
  CHECK_FALSE(trusted(R * Mat3(Vec3(1.0, 0.7, 1.0).asDiagonal()), R));     // squeezed 30% at the start
  CHECK_FALSE(trusted(R, R * Mat3(Vec3(1.0, 0.7, 1.0).asDiagonal())));     // ... or at the end of the move
  CHECK_FALSE(trusted(R * Mat3(Vec3(1.0, 1.0, 5.0).asDiagonal()), R * Mat3(Vec3(1.0, 1.0, 5.0).asDiagonal())));  // stretched 5x
  // Along a move the map passes through the segment between its ends: a
  // half turn about an axis passes through a flat map halfway.
  const Mat3 half_turn = Eigen::AngleAxisd(M_PI, Vec3::UnitZ()).toRotationMatrix();
  CHECK_FALSE(trusted(Mat3::Identity(), half_turn));
  const Positions q = nodes_of({R}, {Vec3::Zero()});
  CHECK(patches.trusted(q, q, kMinStretch, 4.0)[0] != 0);
}

TEST_CASE("the cache leaving out trusted patches' pairs finds the contacts and CCD steps of one keeping them",
          "[contact][broad_phase]") {
  const double dhat = 1e-2;  // coarser than the boxes' triangles: many pairs within a box are near
  const TwoPatches t = two_patches(dhat);
  const CollisionMesh& m = t.mesh;
  CandidateCache excluding(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1), kMinStretch);
  CandidateCache plain(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Mat3> F(2, Mat3::Identity());
  std::vector<Vec3> c(2, Vec3::Zero());
  std::size_t left_out = 0, kept = 0, contacts = 0;
  int untrusted = 0;
  for (int k = 0; k < 40; ++k) {
    std::vector<Mat3> F1 = F;
    std::vector<Vec3> c1 = c;
    for (std::size_t p = 0; p < 2; ++p) {
      // Turning steadily, sheared and squeezed a little (up to 5%) in a new
      // way each step; now and then the lower box is squeezed flat (far
      // below the bound) and its own pairs come close.
      const Vec3 axis = p == 0 ? Vec3(0, 0, 1) : Vec3(1, 1, 0).normalized();
      F1[p] = Eigen::AngleAxisd(0.03 * (k + 1), axis).toRotationMatrix() *
              (Mat3::Identity() + 0.05 * Mat3::NullaryExpr([&] { return unit(rng); }));
      c1[p] += 0.002 * Vec3::NullaryExpr([&] { return unit(rng); });
    }
    if (k % 10 == 9) F1[0].col(2) *= 0.15;
    const Positions x0 = mapped(m, F, c), x1 = mapped(m, F1, c1);
    const Positions q0 = nodes_of(F, c), q1 = nodes_of(F1, c1);
    const std::vector<char> at_x0 = t.patches.trusted(q0, q0, kMinStretch, 5.0);
    const std::vector<char> along = t.patches.trusted(q0, q1, kMinStretch, 5.0);
    untrusted += !at_x0[0];
    // Contacts at x0: exactly the fresh ones.
    const ContactSet fresh = build_contact_set(m, x0, find_candidates(m, x0, x0, dhat), dhat);
    check_same_contacts(build_contact_set(m, x0, excluding.for_contacts(m, x0, at_x0), dhat), fresh);
    contacts += fresh.size();
    // The CCD over the sweep: exactly the step found over the cache that
    // keeps every pair (both test the pairs' boxes in the groups' frames).
    const Candidates& swept = excluding.along(m, x0, x1, along);
    const Candidates& all = plain.along(m, x0, x1);
    CHECK(max_collision_free_step(m, x0, x1, swept, std::nullopt, 0.1) ==
          max_collision_free_step(m, x0, x1, all, std::nullopt, 0.1));
    if (k < 9) {  // before the first squeeze (afterwards a box's pairs stay in until its group is rebuilt)
      left_out += within_bodies(m, all) - within_bodies(m, swept);
      kept += within_bodies(m, swept);
    }
    F = F1;
    c = c1;
  }
  CHECK(contacts > 100);
  CHECK(untrusted >= 3);    // squeezed flat: the box's own pairs are then tested, and they touch
  CHECK(left_out > kept);   // most pairs within a box are left out
}
