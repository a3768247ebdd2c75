#include "eipc/testing/box_mesh.hpp"

#include "eipc/mesh/surface.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace eipc {

TetMesh box_tet_mesh(const Vec3& lo, const Vec3& hi, int nx, int ny, int nz) {
  if (nx < 1 || ny < 1 || nz < 1) throw InputError("box_tet_mesh: cell counts must be >= 1");
  if (!((hi.array() > lo.array()).all())) throw InputError("box_tet_mesh: need hi > lo on every axis");
  const std::array<int, 3> n = {nx, ny, nz};
  const auto index = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  TetMesh m;
  m.vertices.resize(static_cast<Eigen::Index>(nx + 1) * (ny + 1) * (nz + 1), 3);
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const Vec3 s(double(i) / n[0], double(j) / n[1], double(k) / n[2]);
        m.vertices.row(index(i, j, k)) = (lo.array() + s.array() * (hi - lo).array()).transpose();
      }
  // Kuhn split: one tet per axis order (p, q, r): corners 000, e_p, e_p + e_q, 111.
  // Its volume sign is the permutation's sign, so odd orders swap the middle two corners.
  std::array<int, 3> order = {0, 1, 2};
  std::array<std::array<std::array<int, 3>, 4>, 6> pattern{};
  for (int p = 0; p < 6; ++p) {
    std::array<int, 3> c = {0, 0, 0};
    pattern[p][0] = c;
    c[order[0]] = 1;
    pattern[p][1] = c;
    c[order[1]] = 1;
    pattern[p][2] = c;
    pattern[p][3] = {1, 1, 1};
    const int inversions = (order[0] > order[1]) + (order[0] > order[2]) + (order[1] > order[2]);
    if (inversions % 2 == 1) std::swap(pattern[p][1], pattern[p][2]);
    std::next_permutation(order.begin(), order.end());
  }
  m.tets.resize(static_cast<Eigen::Index>(6) * nx * ny * nz, 4);
  Eigen::Index t = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (const auto& tet : pattern) {
          for (int c = 0; c < 4; ++c) m.tets(t, c) = index(i + tet[c][0], j + tet[c][1], k + tet[c][2]);
          ++t;
        }
  return m;
}

SurfaceMesh box_surface(const Vec3& lo, const Vec3& hi, int nx, int ny, int nz) {
  return extract_surface(box_tet_mesh(lo, hi, nx, ny, nz));
}

SurfaceMesh grid_surface(int nx, int ny, double a, double b, const Vec3& origin, const Vec3& u, const Vec3& v) {
  SurfaceMesh m;
  m.vertices.resize((nx + 1) * (ny + 1), 3);
  auto id = [&](int i, int j) { return i + (nx + 1) * j; };
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) m.vertices.row(id(i, j)) = (origin + a * i / nx * u + b * j / ny * v).transpose();
  m.faces.resize(2 * nx * ny, 3);
  int k = 0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      m.faces.row(k++) << id(i, j), id(i + 1, j), id(i + 1, j + 1);
      m.faces.row(k++) << id(i, j), id(i + 1, j + 1), id(i, j + 1);
    }
  return m;
}

}  // namespace eipc
