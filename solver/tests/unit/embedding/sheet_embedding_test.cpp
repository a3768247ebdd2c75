// Automatic coarse surfaces for flat shells (eipc embed SHEET --out COARSE.obj).
#include "eipc/embedding/embedded_shell.hpp"
#include "eipc/embedding/sheet_embedding.hpp"

#include <Eigen/Geometry>
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace eipc;

namespace {

/// A flat sheet of n x n square cells of side `cell`, each split in two, in the plane through
/// `origin` spanned by a and b (unit, orthogonal); with `round` only the vertices within half
/// the side of the centre (a disk, its cells those with all corners kept).
SurfaceMesh sheet(int n, double cell, const Vec3& origin, const Vec3& a, const Vec3& b, bool round = false) {
  std::vector<int> index((n + 1) * (n + 1), -1);
  std::vector<Vec3> points;
  const double half = 0.5 * n * cell;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const double u = i * cell - half, v = j * cell - half;
      if (round && u * u + v * v > half * half) continue;
      index[j * (n + 1) + i] = static_cast<int>(points.size());
      points.push_back(origin + u * a + v * b);
    }
  std::vector<std::array<int, 3>> tris;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int p = index[j * (n + 1) + i], q = index[j * (n + 1) + i + 1], r = index[(j + 1) * (n + 1) + i + 1],
                s = index[(j + 1) * (n + 1) + i];
      if (p < 0 || q < 0 || r < 0 || s < 0) continue;
      tris.push_back({p, q, r});
      tris.push_back({p, r, s});
    }
  SurfaceMesh m;
  m.vertices.resize(static_cast<Eigen::Index>(points.size()), 3);
  for (std::size_t v = 0; v < points.size(); ++v) m.vertices.row(static_cast<Eigen::Index>(v)) = points[v].transpose();
  m.faces.resize(static_cast<Eigen::Index>(tris.size()), 3);
  for (std::size_t t = 0; t < tris.size(); ++t) m.faces.row(static_cast<Eigen::Index>(t)) << tris[t][0], tris[t][1], tris[t][2];
  return m;
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
