// Shared helpers for the contact unit tests: central finite differences and random input.
#pragma once

#include <Eigen/SparseCore>

#include "eipc/common.hpp"

#include <random>

namespace eipc::test {

/// Central-difference gradient of a scalar function of a fixed-size vector.
template <int N, typename F> Vec<N> fd_gradient(const Vec<N>& x, F f, double h) {
  Vec<N> g;
  for (int i = 0; i < N; ++i) {
    Vec<N> xp = x, xm = x;
    xp(i) += h;
    xm(i) -= h;
    g(i) = (f(xp) - f(xm)) / (2 * h);
  }
  return g;
}

/// Central-difference Jacobian of a vector function (columns = d g / d x_i).
template <int N, typename G> Mat<N> fd_jacobian(const Vec<N>& x, G g, double h) {
  Mat<N> J;
  for (int i = 0; i < N; ++i) {
    Vec<N> xp = x, xm = x;
    xp(i) += h;
    xm(i) -= h;
    J.col(i) = (g(xp) - g(xm)) / (2 * h);
  }
  return J;
}

/// Dynamic-size versions.
template <typename F> VecX fd_gradient(const VecX& x, F f, double h) {
  VecX g(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    VecX xp = x, xm = x;
    xp(i) += h;
    xm(i) -= h;
    g(i) = (f(xp) - f(xm)) / (2 * h);
  }
  return g;
}
template <typename G> MatX fd_jacobian(const VecX& x, G g, double h) {
  MatX J(x.size(), x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    VecX xp = x, xm = x;
    xp(i) += h;
    xm(i) -= h;
    J.col(i) = (g(xp) - g(xm)) / (2 * h);
  }
  return J;
}

/// |a - b| / max(|a|, |b|, floor)
template <typename A, typename B> double relative_error(const A& a, const B& b, double floor = 1e-30) {
  return (a - b).norm() / std::max({a.norm(), b.norm(), floor});
}

inline Vec3 block(const Vec<12>& x, int i) { return x.segment<3>(3 * i); }

class Random {
public:
  explicit Random(unsigned seed) : gen_(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen_); }
  Vec3 vec3(double lo = -1, double hi = 1) { return {uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)}; }
  template <int N> Vec<N> vec(double lo = -1, double hi = 1) {
    Vec<N> v;
    for (int i = 0; i < N; ++i) v(i) = uniform(lo, hi);
    return v;
  }

  /// n independent uniform values (Eigen's NullaryExpr would call a no-index functor only once).
  VecX vecx(Eigen::Index n, double lo = -1, double hi = 1) {
    VecX v(n);
    for (Eigen::Index i = 0; i < n; ++i) v(i) = uniform(lo, hi);
    return v;
  }

private:
  std::mt19937 gen_;
};

}  // namespace eipc::test

#include "eipc/collisions/collision_mesh.hpp"

namespace eipc::test {

/// One random triangle per cell of an nx x ny x nz grid of cubes of side `cell`, each inside its
/// cell shrunk by gap/2 (so triangles are at least `gap` apart: no intersections), each its own
/// body; all cross-body candidate pairs, sorted as Candidates requires.
struct TriangleSoup {
  CollisionMesh mesh;
  Positions x;
  Candidates candidates;
};

inline TriangleSoup random_triangle_soup(int nx, int ny, int nz, double cell, double gap, unsigned seed) {
  Random rng(seed);
  TriangleSoup s;
  const int count = nx * ny * nz, n = 3 * count;
  s.x.resize(n, 3);
  s.mesh.faces.resize(count, 3);
  s.mesh.edges.resize(3 * count, 2);
  int t = 0;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k, ++t) {
        const Vec3 lo = cell * Vec3(i, j, k) + Vec3::Constant(gap / 2);
        for (int v = 0; v < 3; ++v) {
          s.x.row(3 * t + v) = (lo + rng.vec3(0, cell - gap)).transpose();
          s.mesh.vertex_body.push_back(t);
        }
        s.mesh.faces.row(t) << 3 * t, 3 * t + 1, 3 * t + 2;
        s.mesh.edges.row(3 * t) << 3 * t, 3 * t + 1;
        s.mesh.edges.row(3 * t + 1) << 3 * t + 1, 3 * t + 2;
        s.mesh.edges.row(3 * t + 2) << 3 * t, 3 * t + 2;
      }
  s.mesh.rest = s.x;
  for (int v = 0; v < n; ++v)
    for (int f = 0; f < count; ++f)
      if (s.mesh.vertex_body[v] != f) s.candidates.point_triangle.push_back({v, f});
  for (int a = 0; a < 3 * count; ++a)
    for (int b = a + 1; b < 3 * count; ++b)
      if (a / 3 != b / 3) s.candidates.edge_edge.push_back({a, b});
  return s;
}

/// Dense n x n matrix from (possibly repeated) triplets.
inline MatX dense(const std::vector<Eigen::Triplet<double>>& t, Eigen::Index n) {
  Eigen::SparseMatrix<double> m(n, n);
  m.setFromTriplets(t.begin(), t.end());
  return MatX(m);
}

inline Positions unflatten(const VecX& v) {
  Positions p(v.size() / 3, 3);
  flat(p) = v;
  return p;
}

}  // namespace eipc::test
