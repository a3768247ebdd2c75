#include "eipc/embedding/affine_patches.hpp"

#include "eipc/mesh/surface.hpp"
#include "eipc/util/parallel.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace eipc {

namespace {

Mat3 edge_matrix(const Positions& q, const std::array<int, 4>& n) {
  Mat3 D;
  for (int k = 0; k < 3; ++k) D.col(k) = (q.row(n[std::size_t(k) + 1]) - q.row(n[0])).transpose();
  return D;
}

}  // namespace

namespace {

/// Each point's patch: points with the same distinct nodes (in any order) share one, made
/// once by `make(sorted nodes)` (a patch index, or -1 where its map is ill-determined);
/// -1 for points whose nodes repeat.
template <std::size_t N, class Make>
std::vector<int> patch_per_node_set(const std::vector<std::array<int, N>>& nodes, Make&& make) {
  std::map<std::array<int, N>, int> patch_of;  // sorted nodes -> patch
  std::vector<int> out(nodes.size(), -1);
  for (std::size_t v = 0; v < nodes.size(); ++v) {
    std::array<int, N> key = nodes[v];
    std::sort(key.begin(), key.end());
    if (std::adjacent_find(key.begin(), key.end()) != key.end()) continue;  // not N distinct nodes
    auto found = patch_of.find(key);
    if (found == patch_of.end()) found = patch_of.emplace(key, make(key)).first;
    out[v] = found->second;
  }
  return out;
}

}  // namespace

std::vector<int> AffinePatches::add(const std::vector<std::array<int, 4>>& nodes, const Positions& rest_nodes) {
  return patch_per_node_set(nodes, [&](const std::array<int, 4>& key) {
    const Mat3 D = edge_matrix(rest_nodes, key);
    // A flat or tiny tet: its map is ill-determined, leave its vertices out.
    if (!(std::abs(D.determinant()) > 1e-12 * std::pow(D.norm(), 3))) return -1;
    pieces_.push_back({{key}, {D.inverse()}});
    return size() - 1;
  });
}

std::vector<int> AffinePatches::add_triangles(const std::vector<std::array<int, 3>>& nodes,
                                              const Positions& rest_nodes, double offset) {
  return patch_per_node_set(nodes, [&](const std::array<int, 3>& key) {
    // The rest edges in an orthonormal frame (u, w) of the triangle's plane.
    const Vec3 a = rest_nodes.row(key[0]).transpose();
    const Vec3 e1 = rest_nodes.row(key[1]).transpose() - a, e2 = rest_nodes.row(key[2]).transpose() - a;
    const Vec3 u = e1.normalized();
    const Vec3 w = (e2 - e2.dot(u) * u).normalized();
    Eigen::Matrix2d E;
    E << e1.dot(u), e2.dot(u), e1.dot(w), e2.dot(w);
    if (!(std::abs(E.determinant()) > 1e-12 * E.squaredNorm())) return -1;  // degenerate: ill-determined map
    Piece piece;
    piece.triangle = key;
    piece.triangle_rest_inverse = E.inverse();
    piece.offset = offset;
    pieces_.push_back(piece);
    return size() - 1;
  });
}

int AffinePatches::add_region(const std::vector<std::array<int, 4>>& tets, const Positions& rest_nodes) {
  if (tets.size() < 2) return -1;
  Piece region;
  Tets as_rows(static_cast<Eigen::Index>(tets.size()), 4);
  std::vector<int> nodes;
  for (std::size_t t = 0; t < tets.size(); ++t) {
    const Mat3 D = edge_matrix(rest_nodes, tets[t]);
    if (!(std::abs(D.determinant()) > 1e-12 * std::pow(D.norm(), 3))) return -1;
    region.tets.push_back(tets[t]);
    region.rest_inverse.push_back(D.inverse());
    for (int k = 0; k < 4; ++k) {
      as_rows(static_cast<Eigen::Index>(t), k) = tets[t][std::size_t(k)];
      nodes.push_back(tets[t][std::size_t(k)]);
    }
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  // Convex (and connected) exactly when every boundary face's plane has all
  // the nodes on one side: each face then bounds the union, which is the
  // intersection of their half-spaces. Coplanar nodes (a lattice's faces)
  // sit within round-off of the plane.
  double scale = 0.0;
  for (int n : nodes) scale = std::max(scale, rest_nodes.row(n).cwiseAbs().maxCoeff());
  const Tris faces = boundary_faces(as_rows);
  for (Eigen::Index f = 0; f < faces.rows(); ++f) {
    const Vec3 a = rest_nodes.row(faces(f, 0)).transpose();
    const Vec3 normal =
        (rest_nodes.row(faces(f, 1)).transpose() - a).cross(rest_nodes.row(faces(f, 2)).transpose() - a).normalized();
    bool below = false, above = false;
    for (int n : nodes) {
      const double side = normal.dot(rest_nodes.row(n).transpose() - a);
      below = below || side < -1e-12 * scale;
      above = above || side > 1e-12 * scale;
    }
    if (below && above) return -1;
  }
  pieces_.push_back(std::move(region));
  return size() - 1;
}

Mat3 AffinePatches::map_at(const Positions& q, const Piece& piece, std::size_t tet) const {
  return edge_matrix(q, piece.tets[tet]) * piece.rest_inverse[tet];
}

Eigen::Matrix<double, 3, 2> AffinePatches::triangle_map_at(const Positions& q, const Piece& piece) const {
  Eigen::Matrix<double, 3, 2> D;
  for (int k = 0; k < 2; ++k)
    D.col(k) = (q.row(piece.triangle[std::size_t(k) + 1]) - q.row(piece.triangle[0])).transpose();
  return D * piece.triangle_rest_inverse;
}

namespace {

/// The least eigenvalue of a symmetric 3x3 matrix, less an allowance for the
/// closed form's round-off (~1e-15 of the largest).
double least_eigenvalue(const Mat3& symmetric) {
  Eigen::SelfAdjointEigenSolver<Mat3> eig;
  eig.computeDirect(symmetric, Eigen::EigenvaluesOnly);
  return eig.eigenvalues()[0] - 1e-12 * eig.eigenvalues().cwiseAbs().maxCoeff();
}

/// A lower bound on the least eigenvalue of a symmetric 3x3 matrix (the least
/// left end of Gershgorin's discs): a few flops, and close for a nearly
/// diagonal matrix, such as F^T F of a mildly deformed tet.
double least_eigenvalue_bound(const Mat3& symmetric) {
  double bound = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i)
    bound = std::min(bound, symmetric(i, i) - std::abs(symmetric(i, (i + 1) % 3)) - std::abs(symmetric(i, (i + 2) % 3)));
  return bound;
}

/// The largest singular value of A, rounded up.
double spectral_norm(const Mat3& A) {
  Eigen::SelfAdjointEigenSolver<Mat3> eig;
  eig.computeDirect(A.transpose() * A, Eigen::EigenvaluesOnly);
  return std::sqrt(std::max(0.0, eig.eigenvalues()[2]) + 1e-12 * A.squaredNorm());
}

}  // namespace

bool AffinePatches::patch_trusted(const Positions& q, const Positions& q_end, const Piece& p, double min_stretch,
                                  double max_stretch) const {
  const Mat3 F = map_at(q, p, 0);
  const double moved = &q_end == &q ? 0.0 : (map_at(q_end, p, 0) - F).norm();
  if (!(F.norm() <= max_stretch)) return false;
  // sigma_min(F)^2 = smallest eigenvalue of F^T F. Gershgorin's bound settles
  // most patches; its margin, far above the round-off of the eigenvalue solver
  // and its allowance, keeps every decision the solver's.
  const Mat3 FtF = F.transpose() * F;
  const double need = min_stretch + moved;
  if (need > 0.0 && least_eigenvalue_bound(FtF) >= need * need + 1e-9 * FtF.trace()) return true;
  const double smallest = std::max(0.0, least_eigenvalue(FtF));
  return std::sqrt(smallest) - moved >= min_stretch;
}

bool AffinePatches::triangle_trusted(const Positions& q, const Positions& q_end, const Piece& p, double min_stretch,
                                     double max_stretch) const {
  const Eigen::Matrix<double, 3, 2> F = triangle_map_at(q, p);
  const double moved = &q_end == &q ? 0.0 : (triangle_map_at(q_end, p) - F).norm();
  // sigma^2 are the eigenvalues of the 2x2 F^T F, in closed form, widened by
  // far more than their round-off.
  const Eigen::Matrix2d G = F.transpose() * F;
  const double mean = 0.5 * (G(0, 0) + G(1, 1)), radius = std::hypot(0.5 * (G(0, 0) - G(1, 1)), G(0, 1));
  const double allowance = 1e-12 * G.trace();
  const double largest = std::sqrt(mean + radius + allowance);
  const double smallest = std::sqrt(std::max(0.0, mean - radius - allowance));
  return largest <= max_stretch && smallest - moved >= min_stretch;
}

bool AffinePatches::region_trusted(const Positions& q, const Positions& q_end, const Piece& p, double min_stretch,
                                   double max_stretch) const {
  // Along the move each F_T(t) is on the segment between its ends, and the
  // stretch of a rest segment is an average of those: in their convex hull.
  // For F there, |F d| >= d^T R^T F d / |d| >= m |d| (m concave in F: least at
  // a corner), and |F - F_ref| <= D.
  std::vector<Mat3> F;
  Mat3 reference = Mat3::Zero();
  for (std::size_t t = 0; t < p.tets.size(); ++t) {
    F.push_back(map_at(q, p, t));
    reference += F.back() / double(p.tets.size());
    if (&q_end != &q) F.push_back(map_at(q_end, p, t));
  }
  if (!(reference.determinant() > 0.0)) return false;
  const Eigen::JacobiSVD<Mat3> svd(reference, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Mat3 rotation = svd.matrixU() * svd.matrixV().transpose();
  double least = std::numeric_limits<double>::infinity(), spread = 0.0;
  for (const Mat3& f : F) {
    const Mat3 turned_back = rotation.transpose() * f;
    least = std::min(least, least_eigenvalue(0.5 * (turned_back + turned_back.transpose())));
    spread = std::max(spread, spectral_norm(f - reference));
  }
  // A pair |d| >= dhat / min_stretch + c l apart at rest, l the longest edge
  // of a primitive of it that straddles tets (c = kStraddleReach), keeps
  // m |d| - D l >= m dhat / min_stretch + (m c - D) l, and with l < |d| / c
  // more than min_stretch / max_stretch of its distance at q, at most
  // (|F_ref| + D) |d| + D l, as a patch's pairs do. The second condition
  // implies m c > D, so the first keeps the pair above dhat.
  const double c = kStraddleReach;
  return least >= min_stretch &&
         (least - spread / c) * max_stretch >= min_stretch * (spectral_norm(reference) + spread + spread / c);
}

std::vector<char> AffinePatches::trusted(const Positions& q, const Positions& q_end, double min_stretch,
                                         double max_stretch, double offset_loss) const {
  std::vector<char> out(pieces_.size(), 0);
  parallel_for_each(pieces_.size(), grain_for(0.1), [&](std::size_t p) {
    const Piece& piece = pieces_[p];
    const double most = piece.offset > 0.0 ? max_stretch * (1.0 - offset_loss * piece.offset) : max_stretch;
    out[p] = piece.tets.empty()       ? triangle_trusted(q, q_end, piece, min_stretch, most)
             : piece.tets.size() == 1 ? patch_trusted(q, q_end, piece, min_stretch, most)
                                      : region_trusted(q, q_end, piece, min_stretch, most);
  });
  return out;
}

}  // namespace eipc
