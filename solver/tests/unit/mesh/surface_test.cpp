// Boundary extraction, edges and volumes against brute force and analytic answers.
#include <catch2/catch.hpp>

#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/validate.hpp"
#include "eipc/mesh/volume.hpp"
#include "mesh_test_util.hpp"

#include <algorithm>
#include <set>

using namespace eipc;

namespace {

/// Number of tets containing all three vertices (brute force scan).
int tets_containing(const Tets& tets, int a, int b, int c) {
  int count = 0;
  for (Eigen::Index t = 0; t < tets.rows(); ++t) {
    const auto has = [&](int v) { return (tets.row(t).array() == v).any(); };
    count += has(a) && has(b) && has(c);
  }
  return count;
}

}  // namespace

TEST_CASE("tet signed volume is det(b-a, c-a, d-a)/6", "[mesh][volume]") {
  const Vec3 a(0, 0, 0), b(2, 0, 0), c(0, 3, 0), d(0, 0, 5);
  CHECK(tet_signed_volume(a, b, c, d) == Approx(5.0));  // 2*3*5/6
  CHECK(tet_signed_volume(a, c, b, d) == Approx(-5.0));
  const Vec3 s(0.3, -1.2, 7.0);  // translation invariant
  CHECK(tet_signed_volume(a + s, b + s, c + s, d + s) == Approx(5.0).epsilon(1e-14));
}

TEST_CASE("boundary_faces matches a brute-force count and points outward", "[mesh][surface]") {
  const TetMesh m = read_tet_mesh(eipc::test::asset("drake/torus.vtk"));
  const Tris faces = boundary_faces(m.tets);
  std::set<std::array<int, 3>> boundary;
  for (Eigen::Index f = 0; f < faces.rows(); ++f) {
    const int a = faces(f, 0), b = faces(f, 1), c = faces(f, 2);
    REQUIRE(tets_containing(m.tets, a, b, c) == 1);
    // The owning tet's fourth vertex lies behind the face: det(b-a, c-a, d-a) < 0.
    for (Eigen::Index t = 0; t < m.tets.rows(); ++t) {
      const auto row = m.tets.row(t);
      if ((row.array() == a).any() && (row.array() == b).any() && (row.array() == c).any()) {
        int d = -1;
        for (int k = 0; k < 4; ++k)
          if (row(k) != a && row(k) != b && row(k) != c) d = row(k);
        const auto x = [&](int v) { return Vec3(m.vertices.row(v).transpose()); };
        CHECK(tet_signed_volume(x(a), x(b), x(c), x(d)) < 0);
      }
    }
    std::array<int, 3> key = {a, b, c};
    std::sort(key.begin(), key.end());
    boundary.insert(key);
  }
  // Every tet face with a single owner is in the output, exactly once.
  CHECK(boundary.size() == static_cast<std::size_t>(faces.rows()));
  std::size_t single = 0;
  for (Eigen::Index t = 0; t < m.tets.rows(); ++t)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> key{};
      for (int k = 0, j = 0; k < 4; ++k)
        if (k != skip) key[j++] = m.tets(t, k);
      if (tets_containing(m.tets, key[0], key[1], key[2]) == 1) {
        ++single;
        std::sort(key.begin(), key.end());
        CHECK(boundary.count(key) == 1);
      }
    }
  CHECK(single == boundary.size());
}

TEST_CASE("unique_edges and surface_vertices match brute force", "[mesh][surface]") {
  const Tris faces = boundary_faces(read_tet_mesh(eipc::test::asset("drake/teddy.vtk")).tets);
  std::set<std::pair<int, int>> edges;
  std::set<int> verts;
  for (Eigen::Index f = 0; f < faces.rows(); ++f)
    for (int k = 0; k < 3; ++k) {
      const int a = faces(f, k), b = faces(f, (k + 1) % 3);
      edges.insert({std::min(a, b), std::max(a, b)});
      verts.insert(a);
    }
  const Edges e = unique_edges(faces);
  REQUIRE(static_cast<std::size_t>(e.rows()) == edges.size());
  std::size_t i = 0;
  for (const auto& [a, b] : edges) {  // std::set iterates in lexicographic order
    CHECK(e(static_cast<Eigen::Index>(i), 0) == a);
    CHECK(e(static_cast<Eigen::Index>(i), 1) == b);
    ++i;
  }
  CHECK(surface_vertices(faces) == std::vector<int>(verts.begin(), verts.end()));
  CHECK(e.rows() == 930);  // closed triangle surface: E = 3F/2 = 3 * 620 / 2
}

TEST_CASE("extract_surface keeps boundary vertices with their original index", "[mesh][surface]") {
  const TetMesh m = box_tet_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 3, 3, 3);
  std::vector<int> original;
  const SurfaceMesh s = extract_surface(m, &original);
  CHECK(s.vertices.rows() == 64 - 8);  // 4^3 grid minus the 2^3 interior vertices
  REQUIRE(original.size() == static_cast<std::size_t>(s.vertices.rows()));
  const Tris faces = boundary_faces(m.tets);
  for (Eigen::Index f = 0; f < s.faces.rows(); ++f)
    for (int k = 0; k < 3; ++k) CHECK(original[static_cast<std::size_t>(s.faces(f, k))] == faces(f, k));
  for (std::size_t i = 0; i < original.size(); ++i) CHECK(s.vertices.row(static_cast<Eigen::Index>(i)) == m.vertices.row(original[i]));
}

TEST_CASE("box_tet_mesh is a conforming positive tiling of the box", "[mesh][primitives]") {
  const Vec3 lo(-1, 0.5, 2), hi(1, 2, 2.4);
  const int nx = 2, ny = 3, nz = 4;
  const TetMesh m = box_tet_mesh(lo, hi, nx, ny, nz);
  CHECK(m.vertices.rows() == 3 * 4 * 5);
  CHECK(m.tets.rows() == 6 * nx * ny * nz);
  const VecX vol = tet_signed_volumes(m.vertices, m.tets);
  CHECK(vol.minCoeff() > 0);
  const double box_volume = (hi - lo).prod();
  CHECK(tet_mesh_volume(m.vertices, m.tets) == Approx(box_volume).epsilon(1e-13));
  REQUIRE_NOTHROW(validate_tet_mesh(m, "box"));
  // Conforming: interior faces pair up, so only the 2 triangles per boundary cell face remain.
  const Tris faces = boundary_faces(m.tets);
  CHECK(faces.rows() == 4 * (nx * ny + ny * nz + nz * nx));
  REQUIRE_NOTHROW(validate_closed_surface(faces, m.num_vertices(), "box"));
  CHECK(enclosed_volume(m.vertices, faces) == Approx(box_volume).epsilon(1e-13));
  for (Eigen::Index f = 0; f < faces.rows(); ++f)  // every boundary vertex lies on a box side
    for (int k = 0; k < 3; ++k) {
      const Vec3 x = m.vertices.row(faces(f, k)).transpose();
      const bool on_side = ((x - lo).array().abs() < 1e-14).any() || ((x - hi).array().abs() < 1e-14).any();
      CHECK(on_side);
    }
  CHECK_THROWS_AS(box_tet_mesh(lo, hi, 0, 1, 1), InputError);
  CHECK_THROWS_AS(box_tet_mesh(hi, lo, 1, 1, 1), InputError);
}

TEST_CASE("box_surface is the closed outward boundary of the box", "[mesh][primitives]") {
  const SurfaceMesh s = box_surface(Vec3(0, 0, 0), Vec3(2, 3, 4));
  CHECK(s.vertices.rows() == 8);
  CHECK(s.faces.rows() == 12);
  REQUIRE_NOTHROW(validate_closed_surface(s.faces, s.num_vertices(), "box"));
  CHECK(enclosed_volume(s.vertices, s.faces) == Approx(24.0).epsilon(1e-14));
  const SurfaceMesh fine = box_surface(Vec3(0, 0, 0), Vec3(1, 1, 1), 2, 2, 2);
  CHECK(fine.vertices.rows() == 26);
  CHECK(fine.faces.rows() == 48);
}
