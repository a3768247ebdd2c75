// Convex regions: a body whose simulation tets form a convex shape moves by
// one continuous piecewise-affine map; while its tets' maps stay close, the
// cache lists only the body's pairs close at rest (plus a straddling
// primitive's longest edge). These tests check which unions count as convex,
// when a region is trusted, that the cache then finds exactly the contacts of
// a fresh broad phase and the CCD steps of a cache keeping every pair, and
// that a triangle straddling two tets whose maps kink is kept for the point
// it comes close to.
#include "eipc/broad_phase/candidate_cache.hpp"
#include "eipc/ccd/collision_free_step.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/embedding/affine_patches.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/testing/box_mesh.hpp"

#include <catch2/catch.hpp>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <random>

using namespace eipc;

namespace {

constexpr double kMinStretch = 0.75, kMaxStretch = 3.75;

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
bool same_contacts(ContactSet a, ContactSet b) {
  auto by_vertices = [](const Contact& p, const Contact& q) {
    return std::make_pair(int(p.kind), p.vertices) < std::make_pair(int(q.kind), q.vertices);
  };
  std::sort(a.contacts.begin(), a.contacts.end(), by_vertices);
  std::sort(b.contacts.begin(), b.contacts.end(), by_vertices);
  return a.size() == b.size() && same_pairs(a, b);
}

}  // namespace

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
  CHECK(same_contacts(build_contact_set(body.mesh, x1, cache.for_contacts(body.mesh, x1, at_x1), dhat), fresh));
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
    const ContactSet fresh = build_contact_set(m, x0, find_candidates(m, x0, x0, dhat), dhat);
    CHECK(same_contacts(build_contact_set(m, x0, regions.for_contacts(m, x0, at_x0), dhat), fresh));
    contacts += fresh.size();
    const Candidates& swept = regions.along(m, x0, x1, along);
    const Candidates& all = plain.along(m, x0, x1);
    CHECK(max_collision_free_step(m, x0, x1, swept, std::nullopt, 0.1) ==
          max_collision_free_step(m, x0, x1, all, std::nullopt, 0.1));
    if (along[std::size_t(body.region)]) {
      kept += swept.size();
      all_pairs += all.size();
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
