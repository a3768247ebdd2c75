#include "eipc/embedding/sheet_embedding.hpp"

#include "eipc/embedding/embedded_shell.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <fmt/core.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace eipc {
namespace {

/// The sheet's plane (least squares): centre, in-plane axes and the normal the sheet's
/// triangles face.
struct Plane {
  Vec3 centre, e1, e2, normal;
};

Plane fit_plane(const Positions& x, const Tris& faces) {
  Plane p;
  p.centre = x.colwise().mean().transpose();
  const Eigen::MatrixXd d = x.rowwise() - p.centre.transpose();
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(d.transpose() * d);  // eigenvalues ascending
  p.normal = eig.eigenvectors().col(0);
  Vec3 facing = Vec3::Zero();  // the triangles' area-weighted normal
  for (Eigen::Index t = 0; t < faces.rows(); ++t) {
    const Vec3 a = x.row(faces(t, 0)).transpose(), b = x.row(faces(t, 1)).transpose(), c = x.row(faces(t, 2)).transpose();
    facing += (b - a).cross(c - a);
  }
  if (facing.dot(p.normal) < 0.0) p.normal = -p.normal;
  // The cells' edges along the world axis nearest the plane (x for a sheet in z = c): a
  // sheet's principal axes are arbitrary when it is square.
  int axis = 0;
  p.normal.cwiseAbs().minCoeff(&axis);
  p.e1 = (Vec3::Unit(axis) - p.normal * p.normal[axis]).normalized();
  p.e2 = p.normal.cross(p.e1);
  return p;
}

/// Grid lines at u0 + k h and v0 + k h.
struct Grid {
  double u0, v0, h;
};

/// How close (in cells) a point comes to its cell's edges and the diagonal u = v.
double clearance(double fu, double fv) {
  return std::min({fu, 1.0 - fu, fv, 1.0 - fv, std::abs(fu - fv) / std::sqrt(2.0)});
}

/// A grid of cell h over the points (u, v), shifted so every point is at least 1e-3 cells
/// from the lines it could sit on; none if no tried shift manages.
std::optional<Grid> clear_grid(const Eigen::MatrixX2d& uv, double h) {
  const Eigen::Vector2d lo = uv.colwise().minCoeff().transpose();
  for (const double s : {0.5, 0.381966, 0.618034, 0.236068, 0.145898, 0.854102, 0.3, 0.7}) {
    const Grid g{lo(0) - s * h, lo(1) - (1.0 - s) * h, h};
    bool clear = true;
    for (Eigen::Index i = 0; i < uv.rows() && clear; ++i) {
      const double a = (uv(i, 0) - g.u0) / h, b = (uv(i, 1) - g.v0) / h;
      clear = clearance(a - std::floor(a), b - std::floor(b)) >= 1e-3;
    }
    if (clear) return g;
  }
  return std::nullopt;
}

/// The grid's triangles that hold a point, as a surface (vertices in the sheet's frame).
SurfaceMesh kept_triangles(const Eigen::MatrixX2d& uv, const Grid& g, const Plane& p) {
  std::set<std::array<int, 3>> triangles;  // (j, i, upper), in grid order
  for (Eigen::Index k = 0; k < uv.rows(); ++k) {
    const double a = (uv(k, 0) - g.u0) / g.h, b = (uv(k, 1) - g.v0) / g.h;
    const int i = static_cast<int>(std::floor(a)), j = static_cast<int>(std::floor(b));
    triangles.insert({j, i, (b - j) > (a - i) ? 1 : 0});
  }
  std::map<std::array<int, 2>, int> vertex;  // (j, i) -> index
  SurfaceMesh s;
  s.faces.resize(static_cast<Eigen::Index>(triangles.size()), 3);
  std::vector<Vec3> corners;
  Eigen::Index f = 0;
  const auto corner = [&](int i, int j) {
    const auto [it, inserted] = vertex.emplace(std::array<int, 2>{j, i}, static_cast<int>(corners.size()));
    if (inserted) corners.push_back(p.centre + (g.u0 + i * g.h) * p.e1 + (g.v0 + j * g.h) * p.e2);
    return it->second;
  };
  for (const auto& key : triangles) {
    const int j = key[0], i = key[1];
    // Counter-clockwise in (u, v), so facing e1 x e2 = the sheet's normal.
    if (key[2] == 0) s.faces.row(f++) << corner(i, j), corner(i + 1, j), corner(i + 1, j + 1);
    else s.faces.row(f++) << corner(i, j), corner(i + 1, j + 1), corner(i, j + 1);
  }
  s.vertices.resize(static_cast<Eigen::Index>(corners.size()), 3);
  for (std::size_t v = 0; v < corners.size(); ++v) s.vertices.row(static_cast<Eigen::Index>(v)) = corners[v].transpose();
  return s;
}

}  // namespace

SurfaceMesh sheet_embedding(const Positions& x, const Tris& faces, int target_vertices, const std::string& source) {
  if (target_vertices < 3) throw InputError("embed: --vertices must be at least 3 (one triangle)");
  const Plane p = fit_plane(x, faces);
  const double diagonal = (x.colwise().maxCoeff() - x.colwise().minCoeff()).norm();
  // A tenth of embed_shell's tolerance: the coarse surface lies in the fitted plane.
  const double flat = 0.1 * kShellEmbeddingTolerance * diagonal;
  Eigen::MatrixX2d uv(x.rows(), 2);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const Vec3 d = x.row(i).transpose() - p.centre;
    const double off = d.dot(p.normal);
    if (!(std::abs(off) <= flat))
      throw InputError(fmt::format(
          "{}: the sheet is not flat: vertex {} is {:.3g} m off its plane (at most {:.3g} m): a coarse surface "
          "is made only for flat sheets, since the embedding puts every fine vertex on it; for a curved one give "
          "a coarse surface whose triangles the fine ones subdivide (docs/elasticity.md, \"Embedded shells\")",
          source, i, off, flat));
    uv.row(i) << d.dot(p.e1), d.dot(p.e2);
  }
  const double area = (uv.col(0).maxCoeff() - uv.col(0).minCoeff()) * (uv.col(1).maxCoeff() - uv.col(1).minCoeff());
  // Scan the cell size on a log grid around the one a full rectangle would need.
  const double guess = std::sqrt(std::max(area, diagonal * diagonal * 1e-12) / target_vertices);
  std::optional<SurfaceMesh> best;
  long best_error = std::numeric_limits<long>::max();
  for (int k = 0; k <= 240; ++k) {
    const auto g = clear_grid(uv, guess * std::pow(10.0, -1.0 + 2.0 * k / 240.0));
    if (!g) continue;
    SurfaceMesh s = kept_triangles(uv, *g, p);
    const long error = std::labs(static_cast<long>(s.num_vertices()) - target_vertices);
    if (error < best_error) {
      best_error = error;
      best = std::move(s);
    }
  }
  if (!best || best_error > 0.2 * target_vertices)
    throw InputError(fmt::format("{}: no grid of the sheet has within 20% of {} vertices{}", source, target_vertices,
                                 best ? fmt::format(" (closest: {})", best->num_vertices()) : ""));
  return *best;
}

}  // namespace eipc
