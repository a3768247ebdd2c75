// Shared helpers for the contact unit tests: central finite differences and random input.
#pragma once

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

private:
  std::mt19937 gen_;
};

}  // namespace eipc::test
