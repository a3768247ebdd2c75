// Affine patches: a patch's trust follows the smallest stretch of its map
// along a move; the candidate cache that leaves out the trusted patches' pairs
// still gives exactly the contact sets of a fresh broad phase and the CCD
// steps of a cache that keeps every pair (boxes each moving by one affine
// map, squeezed, sheared, turned), leaves out most pairs, and keeps them once a patch is squeezed
// below the bound (then they come into contact). Convex regions (a body whose
// tets form a convex shape): which unions are convex, when a region is
// trusted, the same contract on a bent and squeezed lattice, and a triangle
// straddling two tets whose maps kink kept for the point it comes close to.
// Embedded shells: a coarse triangle's patch is trusted by its in-plane
// stretch, its pairs are exactly those of fine primitives that follow that one
// triangle, and the same contract holds on a sheet that folds onto itself
// with a contact offset, a triangle now and then squeezed flat.
#include "eipc/broad_phase/candidate_cache.hpp"
#include "eipc/ccd/collision_free_step.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/dynamics/contact_queries.hpp"
#include "eipc/embedding/affine_patches.hpp"
#include "eipc/embedding/collision_map.hpp"
#include "eipc/embedding/embedded_shell.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/testing/two_bodies.hpp"

#include <catch2/catch.hpp>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <memory>
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

constexpr double kMaxStretch = 3.75;

std::vector<std::array<int, 4>> tet_list(const Tets& tets) {
  std::vector<std::array<int, 4>> out;
  for (Eigen::Index t = 0; t < tets.rows(); ++t) out.push_back({tets(t, 0), tets(t, 1), tets(t, 2), tets(t, 3)});
  return out;
}

/// A collision surface of one body embedded in `coarse` (all its tets one
/// region): each vertex follows the coarse tet it lies in.
struct Embedded {
  TetMesh coarse;
  CollisionMesh mesh;
  AffinePatches patches;
  std::vector<TetLocation> location;
  int region = -1;

  Embedded(TetMesh coarse_mesh, Positions rest, Tris faces) : coarse(std::move(coarse_mesh)) {
    mesh.rest = std::move(rest);
    mesh.faces = std::move(faces);
    mesh.edges = unique_edges(mesh.faces);
    mesh.vertex_body.assign(std::size_t(mesh.rest.rows()), 0);
    location = locate_points(coarse.vertices, coarse.tets, mesh.rest);
    std::vector<std::array<int, 4>> nodes;
    for (const TetLocation& l : location) {
      REQUIRE(l.outside_distance == 0.0);
      nodes.push_back(tet_list(coarse.tets)[std::size_t(l.tet)]);
    }
    mesh.vertex_patch = patches.add(nodes, coarse.vertices);
    region = patches.add_region(tet_list(coarse.tets), coarse.vertices);
    mesh.vertex_region.assign(mesh.vertex_patch.size(), region);
  }
  /// The vertices where the coarse nodes are at q.
  Positions at(const Positions& q) const {
    Positions x(mesh.rest.rows(), 3);
    for (Eigen::Index v = 0; v < x.rows(); ++v) {
      x.row(v).setZero();
      for (int j = 0; j < 4; ++j)
        x.row(v) += location[std::size_t(v)].weights[j] * q.row(coarse.tets(location[std::size_t(v)].tet, j));
    }
    return x;
  }
};

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

/// What one query of a cache leaving pairs out gave, checked against a fresh
/// broad phase (contacts at x0) and a cache keeping every pair (the CCD step
/// of x0 -> x1; both test the pairs' boxes in the groups' frames).
struct Compared {
  std::size_t contacts;
  const Candidates& swept;  ///< excluding.along
  const Candidates& all;    ///< plain.along
};

Compared compare(const CollisionMesh& m, const Positions& x0, const Positions& x1, double dhat,
                 CandidateCache& excluding, CandidateCache& plain, const std::vector<char>& at_x0,
                 const std::vector<char>& along) {
  const ContactSet fresh = build_contact_set(m, x0, find_candidates(m, x0, x0, dhat + m.max_contact_offset()), dhat);
  check_same_contacts(build_contact_set(m, x0, excluding.for_contacts(m, x0, at_x0), dhat), fresh);
  const Candidates& swept = excluding.along(m, x0, x1, along);
  const Candidates& all = plain.along(m, x0, x1);
  CHECK(max_collision_free_step(m, x0, x1, swept, std::nullopt, 0.1) ==
        max_collision_free_step(m, x0, x1, all, std::nullopt, 0.1));
  return {fresh.size(), swept, all};
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
    const Compared query = compare(m, x0, x1, dhat, excluding, plain, at_x0, along);
    const Candidates &swept = query.swept, &all = query.all;
    contacts += query.contacts;
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

TEST_CASE("a patch losing its trust rebuilds only the group of its own body", "[contact][broad_phase]") {
  const double dhat = 1e-2;
  const TwoPatches t = two_patches(dhat);
  const CollisionMesh& m = t.mesh;
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1), kMinStretch);
  const Positions x = m.rest;
  cache.around(m, x, {1, 1});
  const int built = cache.rebuilds();  // both bodies' groups and the one between them
  REQUIRE(built == 3);
  cache.around(m, x, {1, 1});
  CHECK(cache.rebuilds() == built);
  cache.around(m, x, {1, 0});  // body 1's patch no longer trusted: its pairs come back
  CHECK(cache.rebuilds() == built + 1);
  cache.around(m, x, {0, 0});
  CHECK(cache.rebuilds() == built + 2);
}

TEST_CASE("a union of tets is a convex region only when it is convex", "[contact][broad_phase]") {
  const TetMesh box = box_tet_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  AffinePatches patches;
  CHECK(patches.add_region(tet_list(box.tets), box.vertices) == 0);
  // An L of three cells, two cells apart, one tet: none.
  const TetMesh grid = box_tet_mesh(Vec3(0, 0, 0), Vec3(2, 2, 1), 2, 2, 1);
  std::vector<std::array<int, 4>> l_shape, apart;
  for (int cell : {0, 1, 2})
    for (int k = 0; k < 6; ++k) l_shape.push_back(tet_list(grid.tets)[std::size_t(6 * cell + k)]);
  for (int cell : {0, 3})
    for (int k = 0; k < 6; ++k) apart.push_back(tet_list(grid.tets)[std::size_t(6 * cell + k)]);
  CHECK(patches.add_region(l_shape, grid.vertices) == -1);
  CHECK(patches.add_region(apart, grid.vertices) == -1);
  CHECK(patches.add_region({tet_list(grid.tets)[0]}, grid.vertices) == -1);
  CHECK(patches.size() == 1);
}

TEST_CASE("a convex region is trusted while its tets' maps stay close and stretch little", "[contact][broad_phase]") {
  const TetMesh box = box_tet_mesh(Vec3(-1, -0.5, -0.5), Vec3(1, 0.5, 0.5), 2, 1, 1);
  AffinePatches patches;
  REQUIRE(patches.add_region(tet_list(box.tets), box.vertices) == 0);
  // Nodes at x > 0 sheared down by `kink` per unit of x: the two cells' maps
  // differ by kink e_z e_x^T.
  auto kinked = [&](double kink, const Mat3& turn) {
    Positions q = box.vertices;
    for (Eigen::Index n = 0; n < q.rows(); ++n) {
      q(n, 2) -= kink * std::max(0.0, q(n, 0));
      q.row(n) = (turn * q.row(n).transpose()).transpose();
    }
    return q;
  };
  auto trusted = [&](const Positions& q0, const Positions& q1) {
    return patches.trusted(q0, q1, kMinStretch, kMaxStretch)[0] != 0;
  };
  const Mat3 turn = Eigen::AngleAxisd(1.2, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Positions rest = kinked(0.0, Mat3::Identity());
  CHECK(trusted(rest, rest));
  CHECK(trusted(kinked(0.3, turn), kinked(0.3, turn)));               // kinked and turned
  CHECK(trusted(rest, kinked(0.15, Mat3::Identity())));               // along a move into the kink
  CHECK_FALSE(trusted(rest, kinked(0.3, Mat3::Identity())));          // ... but not twice as far
  CHECK_FALSE(trusted(kinked(0.8, Mat3::Identity()), rest));          // kinked too far
  CHECK_FALSE(trusted(rest, kinked(0.0, Eigen::AngleAxisd(M_PI, Vec3::UnitZ()).toRotationMatrix())));  // half turn
  Positions squeezed = rest;
  squeezed.col(1) *= 0.7;
  CHECK_FALSE(trusted(squeezed, squeezed));                           // every tet squeezed past the bound
}

TEST_CASE("a triangle straddling two tets whose maps kink keeps the point it comes close to", "[contact][broad_phase]") {
  // The triangle spans the cells' shared face x = 0, a point sits
  // dhat / 0.75 (and a little) below its middle. Kinking the map down
  // at x > 0 lowers the flat triangle's middle by about kink * L / 2 while
  // the point stays: the pair comes into contact although every tet's map
  // keeps 0.9 of every length.
  const double dhat = 0.01, L = 0.08, kink = 0.15;
  const double below = dhat / kMinStretch * 1.02;
  Positions rest(4, 3);
  rest << -L, 0, 0,  L, -0.01, 0,  L, 0.01, 0,  -1e-4, 0, -below;
  Tris faces(1, 3);
  faces << 0, 1, 2;
  Embedded body(box_tet_mesh(Vec3(-0.1, -0.05, -0.05), Vec3(0.1, 0.05, 0.05), 2, 1, 1), rest, faces);
  REQUIRE(body.region >= 0);
  Positions q = body.coarse.vertices;
  for (Eigen::Index n = 0; n < q.rows(); ++n) q(n, 2) -= kink * std::max(0.0, q(n, 0));
  const Positions x0 = body.at(body.coarse.vertices), x1 = body.at(q);
  const std::vector<char> at_x1 = body.patches.trusted(q, q, kMinStretch, kMaxStretch);
  const std::vector<char> along = body.patches.trusted(body.coarse.vertices, q, kMinStretch, kMaxStretch);
  REQUIRE(at_x1[std::size_t(body.region)]);
  REQUIRE(along[std::size_t(body.region)]);
  const ContactSet fresh = build_contact_set(body.mesh, x1, find_candidates(body.mesh, x1, x1, dhat), dhat);
  REQUIRE(fresh.size() == 1);  // the point and the triangle
  CandidateCache cache(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1), kMinStretch, AffinePatches::kStraddleReach);
  check_same_contacts(build_contact_set(body.mesh, x1, cache.for_contacts(body.mesh, x1, at_x1), dhat), fresh);
  CandidateCache plain(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  const double step = max_collision_free_step(body.mesh, x0, x1, plain.along(body.mesh, x0, x1), std::nullopt, 0.1);
  CHECK(max_collision_free_step(body.mesh, x0, x1, cache.along(body.mesh, x0, x1, along), std::nullopt, 0.1) == step);
}

TEST_CASE("the cache of a trusted convex region finds the contacts and CCD steps of one keeping every pair",
          "[contact][broad_phase]") {
  // A fine box surface (dhat coarser than its triangles: many near pairs) in
  // a coarse lattice of 2 x 2 x 2 cells, bent, sheared, squeezed and turned a
  // little more each step; now and then squeezed flat (then untrusted).
  const double dhat = 0.02;
  const SurfaceMesh fine = box_surface(Vec3(0.01, 0.01, 0.01), Vec3(0.19, 0.19, 0.19), 9, 9, 9);
  Embedded body(box_tet_mesh(Vec3(0, 0, 0), Vec3(0.2, 0.2, 0.2), 2, 2, 2), fine.vertices, fine.faces);
  REQUIRE(body.region >= 0);
  const CollisionMesh& m = body.mesh;
  CandidateCache regions(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1), kMinStretch, AffinePatches::kStraddleReach);
  CandidateCache plain(dhat, dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const Positions& rest_nodes = body.coarse.vertices;
  auto deformed = [&](int k) {
    // A steady turn, a bend growing with k, and node noise.
    const Mat3 turn = Eigen::AngleAxisd(0.05 * k, Vec3(1, 1, 0).normalized()).toRotationMatrix();
    Positions q = rest_nodes;
    for (Eigen::Index n = 0; n < q.rows(); ++n) {
      const double x = q(n, 0) - 0.1;
      q(n, 2) += 0.003 * k * x * x / 0.1;
      q.row(n) += 0.002 * Eigen::RowVector3d::NullaryExpr([&] { return unit(rng); });
      if (k % 10 == 9) q(n, 2) = 0.1 + 0.15 * (q(n, 2) - 0.1);  // squeezed flat
      q.row(n) = (turn * q.row(n).transpose()).transpose();
    }
    return q;
  };
  Positions q0 = rest_nodes;
  int trusted_moves = 0, untrusted = 0;
  std::size_t contacts = 0, kept = 0, all_pairs = 0;
  for (int k = 1; k <= 30; ++k) {
    const Positions q1 = deformed(k);
    const Positions x0 = body.at(q0), x1 = body.at(q1);
    const std::vector<char> at_x0 = body.patches.trusted(q0, q0, kMinStretch, kMaxStretch);
    const std::vector<char> along = body.patches.trusted(q0, q1, kMinStretch, kMaxStretch);
    trusted_moves += along[std::size_t(body.region)] != 0;
    untrusted += !at_x0[std::size_t(body.region)];
    const Compared query = compare(m, x0, x1, dhat, regions, plain, at_x0, along);
    contacts += query.contacts;
    if (along[std::size_t(body.region)]) {
      kept += query.swept.size();
      all_pairs += query.all.size();
    }
    q0 = q1;
  }
  INFO(trusted_moves << " moves trusted, " << contacts << " contacts");
  CHECK(contacts > 100);
  CHECK(trusted_moves >= 15);
  CHECK(untrusted >= 2);
  INFO(kept << " of " << all_pairs);
  CHECK(3 * kept < all_pairs);  // a trusted region lists under a third of the pairs
}

TEST_CASE("a patch exclusion leaves out exactly the pairs in one trusted piece but those at risk",
          "[contact][broad_phase]") {
  // Its pieces are kept per primitive: checked against common_piece over the
  // pair's four vertices, for random trusted flags and pairs at risk, on a
  // fine box surface in a lattice of 3 x 2 x 2 cells (a patch per coarse tet,
  // one region) with a second region marked on part of it, some vertices in none.
  const SurfaceMesh fine = box_surface(Vec3(0.01, 0.01, 0.01), Vec3(0.29, 0.19, 0.19), 9, 6, 6);
  Embedded body(box_tet_mesh(Vec3(0, 0, 0), Vec3(0.3, 0.2, 0.2), 3, 2, 2), fine.vertices, fine.faces);
  REQUIRE(body.region >= 0);
  CollisionMesh m = body.mesh;
  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  for (int v = 0; v < m.num_vertices(); ++v) {
    if (m.rest(v, 0) > 0.2) m.vertex_region[std::size_t(v)] = body.region + 1;
    if (rng() % 7 == 0) m.vertex_region[std::size_t(v)] = -1;
    if (rng() % 11 == 0) m.vertex_patch[std::size_t(v)] = -1;
  }
  const Candidates all = find_candidates(m, m.rest, m.rest, 0.05);
  REQUIRE(all.point_triangle.size() > 1000);
  REQUIRE(all.edge_edge.size() > 1000);
  Candidates at_risk;
  for (const auto& c : all.point_triangle)
    if (rng() % 5 == 0) at_risk.point_triangle.push_back(c);
  for (const auto& c : all.edge_edge)
    if (rng() % 5 == 0) at_risk.edge_edge.push_back(c);
  PatchExclusion exclusion(m, at_risk);
  const int pieces = std::max(*std::max_element(m.vertex_patch.begin(), m.vertex_patch.end()), body.region + 1) + 1;
  for (char& t : exclusion.trusted = std::vector<char>(std::size_t(pieces))) t = char(rng() % 3 != 0);
  auto expected = [&](const std::array<int, 4>& vertices, bool listed) {
    for (const std::vector<int>* piece : {&m.vertex_patch, &m.vertex_region}) {
      const int p = common_piece(*piece, vertices);
      if (p >= 0 && exclusion.trusted[std::size_t(p)]) return !listed;
    }
    return false;
  };
  auto listed = [](const auto& list, const auto& c) { return std::find(list.begin(), list.end(), c) != list.end(); };
  std::size_t left_out = 0;
  for (const auto& c : all.point_triangle) {
    const bool want = expected({c.vertex, m.faces(c.face, 0), m.faces(c.face, 1), m.faces(c.face, 2)},
                               listed(at_risk.point_triangle, c));
    REQUIRE(exclusion.excludes(c) == want);
    left_out += want;
  }
  for (const auto& c : all.edge_edge) {
    const bool want = expected({m.edges(c.edge_a, 0), m.edges(c.edge_a, 1), m.edges(c.edge_b, 0), m.edges(c.edge_b, 1)},
                               listed(at_risk.edge_edge, c));
    REQUIRE(exclusion.excludes(c) == want);
    left_out += want;
  }
  CHECK(left_out > (all.point_triangle.size() + all.edge_edge.size()) / 10);
  CHECK_FALSE(PatchExclusion().excludes(all.edge_edge.front()));  // a default one leaves nothing out
}

TEST_CASE("a shell triangle's patch is trusted while its map shortens no in-plane direction below the bound",
          "[contact][broad_phase][shell]") {
  // The rest triangle lies in z = 0, so a map A of space moves it by A's first two columns.
  Positions rest(3, 3);
  rest << 0, 0, 0, 1, 0, 0, 0.3, 0.8, 0;
  AffinePatches patches;
  CHECK(patches.add_triangles({{0, 1, 2}, {2, 1, 0}, {0, 0, 1}}, rest, 0.0) == std::vector<int>{0, 0, -1});
  CHECK(patches.add_triangles({{0, 1, 2}}, rest, 0.5) == std::vector<int>{1});  // its pairs at offset 0.5
  Positions collinear = rest;
  collinear.row(2) << 0.5, 0, 0;
  CHECK(AffinePatches().add_triangles({{0, 1, 2}}, collinear, 0.0) == std::vector<int>{-1});
  auto nodes = [&](const Mat3& A, const Vec3& c) {
    Positions q = rest * A.transpose();
    q.rowwise() += c.transpose();
    return q;
  };
  // max_stretch 2, less half of it per unit of offset: 1.5 for patch 1.
  auto trusted = [&](const Mat3& A0, const Mat3& A1, int patch, double max_stretch = 2.0) {
    return patches.trusted(nodes(A0, Vec3(1, 2, 3)), nodes(A1, Vec3(-1, 0, 2)), kMinStretch, max_stretch, 0.5)
               [std::size_t(patch)] != 0;
  };
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Mat3 I = Mat3::Identity();
  auto diagonal = [](double x, double y, double z) { return Mat3(Vec3(x, y, z).asDiagonal()); };
  CHECK(trusted(R * diagonal(1.0, 0.8, 1.0), R * diagonal(1.0, 0.8, 1.0), 0));  // turned, squeezed 20%
  CHECK(trusted(diagonal(1.0, 1.0, 0.0), diagonal(1.0, 1.0, 0.0), 0));          // flattened across its plane: no matter
  CHECK_FALSE(trusted(R * diagonal(1.0, 0.7, 1.0), R, 0));                      // squeezed 30% at the start
  CHECK_FALSE(trusted(R, R * diagonal(0.7, 1.0, 1.0), 0));                      // ... or at the end of the move
  CHECK(trusted(I, I, 0, 1.2));  // the spectral norm bounds the stretch: 1 (Frobenius: sqrt 2)
  CHECK(trusted(diagonal(1.4, 1.0, 1.0), diagonal(1.4, 1.0, 1.0), 0));
  CHECK(trusted(diagonal(1.4, 1.0, 1.0), diagonal(1.4, 1.0, 1.0), 1));
  CHECK(trusted(diagonal(1.6, 1.0, 1.0), diagonal(1.6, 1.0, 1.0), 0));
  CHECK_FALSE(trusted(diagonal(1.6, 1.0, 1.0), diagonal(1.6, 1.0, 1.0), 1));  // beyond 1.5: the offset's bound
  // Along the move the map passes through the segment between its ends: a half
  // turn in its plane passes through 0, a fold over an edge through a flat triangle.
  CHECK_FALSE(trusted(I, Eigen::AngleAxisd(M_PI, Vec3::UnitZ()).toRotationMatrix(), 0));
  CHECK_FALSE(trusted(I, Eigen::AngleAxisd(M_PI, Vec3::UnitX()).toRotationMatrix(), 0));
}

namespace {

/// A fine sheet of nf x nf cells embedded in a coarse one of nc x nc cells over
/// the same square (embed_shell), and its collision map (contact offset
/// `thickness` within it).
struct EmbeddedSheet {
  SurfaceMesh fine, coarse;
  SimulationNodes nodes;
  std::unique_ptr<CollisionMap> map;

  EmbeddedSheet(int nf, int nc, double side, double thickness)
      : fine(grid_surface(nf, nf, side, side, Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY())),
        coarse(grid_surface(nc, nc, side, side, Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY())),
        nodes(embed_shell(fine.vertices, coarse, "sheet", "test")) {
    const SurfaceOnNodes sheet{&fine.vertices, &fine.faces, &nodes.fine_map, 0, &nodes.node_rest, nullptr, false,
                               0.5 * thickness};
    map = std::make_unique<CollisionMap>(std::vector<SurfaceOnNodes>{sheet}, nodes.num_nodes());
  }
  const CollisionMesh& mesh() const { return map->mesh(); }
};

}  // namespace

TEST_CASE("an embedded sheet's patches leave out exactly the pairs of fine primitives in one coarse triangle",
          "[contact][broad_phase][shell]") {
  // 18 fine cells on 4 coarse ones per side: fine triangles straddle coarse edges,
  // and some fine vertices lie on them (every other coarse line is a fine one).
  // (14 fine cells, 3.5 per coarse one, left out only 19% of the pairs at a 2 mm
  // inflation, 5% at 20 mm, which on this 0.1 m sheet makes nearly every pair a
  // candidate: the checks below on the counts need a realistic reach.)
  const EmbeddedSheet sheet(18, 4, 0.1, 1e-3);
  const CollisionMesh& m = sheet.mesh();
  REQUIRE(m.num_vertices() == 19 * 19);
  CHECK(sheet.map->patches().size() == 2 * 4 * 4);
  CHECK(m.rest == sheet.nodes.fine_map.apply(sheet.nodes.node_rest));  // where the map puts the vertices at rest
  CHECK((m.rest - sheet.fine.vertices).cwiseAbs().maxCoeff() < 1e-15);  // on the flat sheet itself
  // Which coarse triangles hold each fine vertex (closed), from the grids alone.
  std::vector<std::vector<int>> holding(std::size_t(m.num_vertices()));
  for (int v = 0; v < m.num_vertices(); ++v)
    for (int t = 0; t < sheet.coarse.num_faces(); ++t) {
      const Eigen::Vector2d p = m.rest.row(v).head<2>().transpose();
      Eigen::Matrix2d E;
      const Eigen::Vector2d a = sheet.coarse.vertices.row(sheet.coarse.faces(t, 0)).head<2>().transpose();
      for (int k = 0; k < 2; ++k)
        E.col(k) = sheet.coarse.vertices.row(sheet.coarse.faces(t, k + 1)).head<2>().transpose() - a;
      const Eigen::Vector2d w = E.inverse() * (p - a);
      if (w.minCoeff() >= -1e-12 && w.sum() <= 1.0 + 1e-12) holding[std::size_t(v)].push_back(t);
    }
  // A pair in one closed coarse triangle; or with every vertex inside only one, the same.
  auto in_one = [&](const std::array<int, 4>& vertices) {
    std::vector<int> common = holding[std::size_t(vertices[0])];
    for (int v : vertices) {
      std::vector<int> both;
      std::set_intersection(common.begin(), common.end(), holding[std::size_t(v)].begin(),
                            holding[std::size_t(v)].end(), std::back_inserter(both));
      common = both;
    }
    return !common.empty();
  };
  auto inside_one = [&](const std::array<int, 4>& vertices) {
    for (int v : vertices)
      if (holding[std::size_t(v)].size() != 1 || holding[std::size_t(v)] != holding[std::size_t(vertices[0])])
        return false;
    return true;
  };
  PatchExclusion exclusion(m, {});
  exclusion.trusted.assign(std::size_t(sheet.map->patches().size()), 1);
  const Candidates all = find_candidates(m, m.rest, m.rest, 0.002);  // 2 mm: the 1 mm sheet's offset and dhat
  std::size_t left_out = 0, straddling = 0, on_edges = 0;
  auto check = [&](bool excluded, const std::array<int, 4>& vertices) {
    if (excluded) REQUIRE(in_one(vertices));
    if (inside_one(vertices)) REQUIRE(excluded);
    left_out += excluded;
    straddling += !in_one(vertices);
    on_edges += !excluded && in_one(vertices);  // vertices on a coarse edge, bound to the triangle beyond it
  };
  for (const auto& c : all.point_triangle)
    check(exclusion.excludes(c), {c.vertex, m.faces(c.face, 0), m.faces(c.face, 1), m.faces(c.face, 2)});
  for (const auto& c : all.edge_edge)
    check(exclusion.excludes(c), {m.edges(c.edge_a, 0), m.edges(c.edge_a, 1), m.edges(c.edge_b, 0), m.edges(c.edge_b, 1)});
  INFO(left_out << " left out, " << straddling << " straddling, " << on_edges << " on coarse edges, of " << all.size());
  CHECK(left_out > all.size() / 5);
  CHECK(straddling > all.size() / 5);
  CHECK(on_edges > 0);

  // A full-space shell (each vertex its own node) has no patches.
  const NodeMap identity = NodeMap::identity(sheet.fine.num_vertices());
  const CollisionMap full({{&sheet.fine.vertices, &sheet.fine.faces, &identity, 0, &sheet.fine.vertices, nullptr,
                            false, 0.5e-3}},
                          sheet.fine.num_vertices());
  CHECK(full.patches().size() == 0);
}

TEST_CASE("the cache leaving out an embedded sheet's coarse-triangle pairs finds the contacts and CCD steps of one "
          "keeping them",
          "[contact][broad_phase][shell]") {
  // A sheet (14 fine cells on 4 coarse ones, 2 mm thick, dhat 2 mm: the fine cells'
  // nearest pairs, 5 mm apart, out of reach) folding over the coarse line x = 0.05
  // onto itself, its nodes jittered; now and then one coarse node pushed nearly onto
  // its neighbour, squeezing the triangles between them flat (then untrusted).
  const double side = 0.1, thickness = 2e-3, dhat = 2e-3;
  const EmbeddedSheet sheet(14, 4, side, thickness);
  const CollisionMesh& m = sheet.mesh();
  const AffinePatches& patches = sheet.map->patches();
  const PatchStretchBound most = patch_stretch_bound(kMinStretch, 0.1, dhat, m.max_contact_offset());
  CandidateCache excluding(dhat, 2 * dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1), kMinStretch,
                           AffinePatches::kStraddleReach);
  CandidateCache plain(dhat, 2 * dhat, 4 * dhat, 0.25 * dhat, ccd_stop_fraction(0.1));
  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const Positions& rest_nodes = sheet.nodes.node_rest;
  auto deformed = [&](int k) {
    const double fold = std::min(0.12 * k, 3.0);
    Positions q = rest_nodes;
    for (Eigen::Index n = 0; n < q.rows(); ++n) {
      const double r = q(n, 0) - 0.5 * side;
      if (r > 0.0) q.row(n) << 0.5 * side + r * std::cos(fold), q(n, 1), r * std::sin(fold);
      q.row(n) += 3e-4 * Eigen::RowVector3d::NullaryExpr([&] { return unit(rng); });
    }
    if (k % 10 == 9) q.row(6) = 0.9 * q.row(5) + 0.1 * q.row(6);  // coarse node (1, 1) onto (0, 1)
    return q;
  };
  Positions q0 = rest_nodes;
  int untrusted = 0;
  std::size_t contacts = 0, left_out = 0, kept = 0;
  for (int k = 1; k <= 30; ++k) {
    const Positions q1 = deformed(k);
    const Positions x0 = sheet.map->positions(q0), x1 = sheet.map->positions(q1);
    const std::vector<char> at_x0 = patches.trusted(q0, q0, kMinStretch, most.max_stretch, most.offset_loss);
    const std::vector<char> along = patches.trusted(q0, q1, kMinStretch, most.max_stretch, most.offset_loss);
    untrusted += std::find(at_x0.begin(), at_x0.end(), 0) != at_x0.end();
    const Compared query = compare(m, x0, x1, dhat, excluding, plain, at_x0, along);
    contacts += query.contacts;
    if (k < 9) {
      left_out += query.all.size() - query.swept.size();
      kept += query.swept.size();
    }
    q0 = q1;
  }
  INFO(contacts << " contacts; before the first squeeze " << left_out << " pairs left out, " << kept << " kept");
  CHECK(contacts > 100);
  CHECK(untrusted >= 3);
  CHECK(left_out > kept / 8);  // measured: 17% of the pairs (54k of 320k) left out before the first squeeze
}
