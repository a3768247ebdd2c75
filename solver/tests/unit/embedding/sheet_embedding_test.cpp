// Automatic coarse surfaces for flat shells (eipc embed SHEET --out COARSE.obj).
#include "eipc/embedding/embedded_shell.hpp"
#include "eipc/embedding/sheet_embedding.hpp"
#include "eipc/testing/box_mesh.hpp"

#include <Eigen/Geometry>
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace eipc;

namespace {

/// grid_surface's square of n x n cells of side `cell`, centred on `centre`; with `round` only
/// its triangles within half the side of the centre (a disk), their vertices renumbered.
SurfaceMesh sheet(int n, double cell, const Vec3& centre, const Vec3& a, const Vec3& b, bool round = false) {
  const double side = n * cell;
  const SurfaceMesh square = grid_surface(n, n, side, side, centre - 0.5 * side * (a + b), a, b);
  if (!round) return square;
  std::vector<int> index(static_cast<std::size_t>(square.num_vertices()), -1);
  std::vector<Eigen::Index> kept;
  SurfaceMesh disk;
  for (int t = 0; t < square.num_faces(); ++t) {
    bool inside = true;
    for (int k = 0; k < 3; ++k) inside = inside && (square.vertices.row(square.faces(t, k)).transpose() - centre).norm() <= 0.5 * side;
    if (inside) kept.push_back(t);
  }
  disk.faces.resize(static_cast<Eigen::Index>(kept.size()), 3);
  std::vector<Eigen::Index> used;
  for (std::size_t f = 0; f < kept.size(); ++f)
    for (int k = 0; k < 3; ++k) {
      int& v = index[static_cast<std::size_t>(square.faces(kept[f], k))];
      if (v < 0) {
        v = static_cast<int>(used.size());
        used.push_back(square.faces(kept[f], k));
      }
      disk.faces(static_cast<Eigen::Index>(f), k) = v;
    }
  disk.vertices.resize(static_cast<Eigen::Index>(used.size()), 3);
  for (std::size_t v = 0; v < used.size(); ++v) disk.vertices.row(static_cast<Eigen::Index>(v)) = square.vertices.row(used[v]);
  return disk;
}

Vec3 normal_of(const SurfaceMesh& m, int t) {
  const Vec3 a = m.vertices.row(m.faces(t, 0)).transpose(), b = m.vertices.row(m.faces(t, 1)).transpose(),
             c = m.vertices.row(m.faces(t, 2)).transpose();
  return (b - a).cross(c - a);
}

/// The coarse surface is accepted by embed_shell, reproduces the sheet at rest and faces as it.
void check_embeds(const SurfaceMesh& fine, const SurfaceMesh& coarse) {
  const SimulationNodes nodes = embed_shell(fine.vertices, coarse, "sheet", "test");  // throws if not
  double worst = 0.0;
  for (Eigen::Index v = 0; v < fine.vertices.rows(); ++v) {
    Vec3 x = Vec3::Zero();
    for (int j = 0; j < 4; ++j) x += nodes.fine_map.weights(v, j) * nodes.node_rest.row(nodes.fine_map.nodes(v, j)).transpose();
    worst = std::max(worst, (x - fine.vertices.row(v).transpose()).norm());
    for (int j = 0; j < 3; ++j) CHECK(nodes.fine_map.weights(v, j) > 0.0);  // strictly inside one triangle
  }
  CHECK(worst < 1e-12);
  const Vec3 facing = normal_of(fine, 0).normalized();
  for (int t = 0; t < coarse.num_faces(); ++t) CHECK(normal_of(coarse, t).normalized().dot(facing) > 1.0 - 1e-9);
}

}  // namespace

TEST_CASE("a flat sheet's coarse surface: about the vertices asked, every fine vertex strictly inside one triangle",
          "[embedding][shell]") {
  const Vec3 a = Vec3(1, 2, 2).normalized(), b = Vec3(2, -2, 1).normalized();  // a tilted plane
  SECTION("a square sheet, its fine vertices on a grid the coarse cells could share") {
    const SurfaceMesh fine = sheet(40, 0.005, Vec3(0.1, -0.2, 0.3), a, b);
    for (const int target : {16, 121, 400}) {
      INFO("target " << target);
      const SurfaceMesh coarse = sheet_embedding(fine.vertices, fine.faces, target, "sheet.obj");
      CHECK(std::abs(coarse.num_vertices() - target) <= 0.2 * target);
      check_embeds(fine, coarse);
    }
  }
  SECTION("a round sheet: the cells outside it are left out") {
    const SurfaceMesh fine = sheet(40, 0.005, Vec3::Zero(), a, -b, true);
    const SurfaceMesh coarse = sheet_embedding(fine.vertices, fine.faces, 200, "disk.obj");
    check_embeds(fine, coarse);
    // Every coarse vertex is a corner of a cell that holds a fine vertex: within a cell
    // diagonal of the disk (the cell's area is the disk's over about the vertex count).
    const double radius = 0.1, cell = std::sqrt(M_PI * radius * radius / coarse.num_vertices());
    for (int v = 0; v < coarse.num_vertices(); ++v) CHECK(coarse.vertices.row(v).norm() < radius + 2.0 * cell);
  }
  SECTION("a sheet facing the other way gets coarse triangles facing that way") {
    SurfaceMesh fine = sheet(10, 0.01, Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY());
    fine.faces.col(1).swap(fine.faces.col(2));
    check_embeds(fine, sheet_embedding(fine.vertices, fine.faces, 30, "flipped.obj"));
  }
}

TEST_CASE("a curved sheet is refused, naming the file and a vertex off the plane", "[embedding][shell]") {
  SurfaceMesh fine = sheet(10, 0.01, Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY());
  for (Eigen::Index v = 0; v < fine.vertices.rows(); ++v) fine.vertices(v, 2) = 0.5 * fine.vertices(v, 0) * fine.vertices(v, 0);
  CHECK_THROWS_WITH(sheet_embedding(fine.vertices, fine.faces, 30, "bent.obj"),
                    Catch::Contains("bent.obj: the sheet is not flat: vertex") && Catch::Contains("off its plane"));
  const SurfaceMesh flat = sheet(10, 0.01, Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY());
  CHECK_THROWS_WITH(sheet_embedding(flat.vertices, flat.faces, 2, "flat.obj"), Catch::Contains("at least 3"));
}
