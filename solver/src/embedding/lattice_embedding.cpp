#include "eipc/embedding/lattice_embedding.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace eipc {

namespace {

using Cell = std::array<int, 3>;

/// Kuhn subdivision of the unit cube: the six tets along the main diagonal 0 -> 7
/// (corner index bit 0 = x, bit 1 = y, bit 2 = z). All share the diagonal, so
/// neighbouring cells split their common faces the same way.
constexpr int kKuhn[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};

}  // namespace

namespace {

/// Lattice of cells[d] boxes per axis spanning the points' bounding box (grown
/// by a relative 1e-6 so boundary points fall inside), keeping occupied cells.
TetMesh lattice_with_cells(const Positions& x, const Eigen::Array3i& cells) {
  const Vec3 lo = x.colwise().minCoeff().transpose(), hi = x.colwise().maxCoeff().transpose();
  const Vec3 extent = (hi - lo).cwiseMax(1e-9 * (hi - lo).norm());
  const Vec3 origin = lo - 1e-6 * extent;
  const Vec3 spacing = (1 + 2e-6) * extent.cwiseQuotient(cells.cast<double>().matrix());

  std::set<Cell> occupied;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    Cell c;
    for (int d = 0; d < 3; ++d)
      c[d] = std::clamp(static_cast<int>(std::floor((x(i, d) - origin[d]) / spacing[d])), 0, cells[d] - 1);
    occupied.insert(c);
  }
  std::map<Cell, int> corner_index;
  std::vector<Vec3> corners;
  auto corner = [&](const Cell& k) {
    auto [it, inserted] = corner_index.emplace(k, static_cast<int>(corners.size()));
    if (inserted) corners.push_back(origin + Vec3(k[0], k[1], k[2]).cwiseProduct(spacing));
    return it->second;
  };
  std::vector<Eigen::RowVector4i> tets;
  for (const Cell& c : occupied) {
    int id[8];
    for (int b = 0; b < 8; ++b) id[b] = corner({c[0] + (b & 1), c[1] + ((b >> 1) & 1), c[2] + ((b >> 2) & 1)});
    for (const auto& t : kKuhn) {
      Eigen::RowVector4i tet(id[t[0]], id[t[1]], id[t[2]], id[t[3]]);
      Mat3 D;
      for (int j = 0; j < 3; ++j) D.col(j) = corners[tet[j + 1]] - corners[tet[0]];
      if (D.determinant() < 0) std::swap(tet[2], tet[3]);
      tets.push_back(tet);
    }
  }
  TetMesh m;
  m.vertices.resize(static_cast<Eigen::Index>(corners.size()), 3);
  for (std::size_t i = 0; i < corners.size(); ++i) m.vertices.row(i) = corners[i].transpose();
  m.tets.resize(static_cast<Eigen::Index>(tets.size()), 4);
  for (std::size_t i = 0; i < tets.size(); ++i) m.tets.row(i) = tets[i];
  return m;
}

Eigen::Array3i cells_for_spacing(const Positions& x, double spacing) {
  const Vec3 extent = x.colwise().maxCoeff() - x.colwise().minCoeff();
  Eigen::Array3i cells;
  for (int d = 0; d < 3; ++d) cells[d] = std::max(1, static_cast<int>(std::ceil(extent[d] / spacing)));
  return cells;
}

}  // namespace

TetMesh lattice_embedding_with_spacing(const Positions& x, double spacing) {
  return lattice_with_cells(x, cells_for_spacing(x, spacing));
}

TetMesh lattice_embedding(const Positions& x, int target_vertices) {
  if (target_vertices < 8) throw InputError("embed: --vertices must be at least 8 (one cube)");
  if (x.rows() == 0) throw InputError("embed: the mesh has no vertices");
  const double diagonal = (x.colwise().maxCoeff() - x.colwise().minCoeff()).norm();
  if (!(diagonal > 0)) throw InputError("embed: the mesh has zero extent");
  TetMesh best;
  long best_error = -1;
  Eigen::Array3i best_cells;
  auto consider = [&](const Eigen::Array3i& cells) {
    TetMesh m = lattice_with_cells(x, cells);
    const long error = std::labs(static_cast<long>(m.vertices.rows()) - target_vertices);
    if (best_error < 0 || error < best_error) {
      best_error = error;
      best_cells = cells;
      best = std::move(m);
    }
  };
  // Cube-like cells: scan the spacing on a log grid (the count falls roughly
  // monotonically with it), then adjust each axis's cell count around the best.
  Eigen::Array3i previous(-1, -1, -1);
  for (int i = 0; i <= 400; ++i) {
    const Eigen::Array3i cells = cells_for_spacing(x, diagonal * std::pow(10.0, -2.5 + 2.5 * i / 400.0));
    if ((cells != previous).any()) consider(cells);
    previous = cells;
  }
  const Eigen::Array3i centre = best_cells;
  for (int dx = -2; dx <= 2; ++dx)
    for (int dy = -2; dy <= 2; ++dy)
      for (int dz = -2; dz <= 2; ++dz) {
        const Eigen::Array3i cells = (centre + Eigen::Array3i(dx, dy, dz)).max(1);
        if ((cells != centre).any()) consider(cells);
      }
  if (best_error > 0.2 * target_vertices)
    throw InputError("embed: no lattice has within 20% of " + std::to_string(target_vertices) +
                     " vertices (closest: " + std::to_string(best.vertices.rows()) + ")");
  return best;
}

}  // namespace eipc
