// Shared helpers for the elasticity tests: reproducible random matrices,
// central finite differences and a structured box tet mesh.
#pragma once

#include "eipc/common.hpp"
#include "eipc/elasticity/tet_kinematics.hpp"

#include <Eigen/Geometry>
#include <functional>
#include <random>
#include <vector>

namespace eipc::test {

inline Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  q.normalize();
  return q.toRotationMatrix();
}

inline Mat3 random_matrix(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Mat3 m;
  for (int i = 0; i < 9; ++i) m(i) = u(rng);
  return m;
}

/// Q1 diag(s) Q2^T with random rotations Q1, Q2.
inline Mat3 with_singular_values(std::mt19937& rng, const Vec3& s) {
  return random_rotation(rng) * s.asDiagonal() * random_rotation(rng).transpose();
}

struct NamedF {
  const char* name;
  Mat3 F;
};

/// Sample deformation gradients: near identity, large stretch, compressed, inverted.
/// Singular values are kept distinct and away from sums of zero so dR/dF is smooth.
inline std::vector<NamedF> sample_deformation_gradients(std::mt19937& rng, int per_kind = 3) {
  std::vector<NamedF> out;
  for (int k = 0; k < per_kind; ++k) {
    out.push_back({"near identity", Mat3::Identity() + random_matrix(rng, 0.05)});
    out.push_back({"large stretch", with_singular_values(rng, Vec3(2.1, 1.6, 1.25))});
    out.push_back({"compressed", with_singular_values(rng, Vec3(0.7, 0.55, 0.4))});
    out.push_back({"inverted", with_singular_values(rng, Vec3(1.3, 0.9, -0.35))});
  }
  return out;
}

/// Central-difference gradient of f at x.
template <typename F>
VecX fd_gradient(const VecX& x, F&& f, double h = 1e-6) {
  VecX g(x.size());
  VecX xp = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    xp[i] = x[i] + h;
    const double fp = f(xp);
    xp[i] = x[i] - h;
    const double fm = f(xp);
    xp[i] = x[i];
    g[i] = (fp - fm) / (2.0 * h);
  }
  return g;
}

/// Central-difference Jacobian of the vector function g at x (column i = dg/dx_i).
template <typename G>
MatX fd_jacobian(const VecX& x, G&& g, double h = 1e-6) {
  const VecX g0 = g(x);
  MatX J(g0.size(), x.size());
  VecX xp = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    xp[i] = x[i] + h;
    const VecX gp = g(xp);
    xp[i] = x[i] - h;
    const VecX gm = g(xp);
    xp[i] = x[i];
    J.col(i) = (gp - gm) / (2.0 * h);
  }
  return J;
}

/// ||a - b|| / max(1, ||b||)
inline double rel_error(const MatX& a, const MatX& b) { return (a - b).norm() / std::max(1.0, b.norm()); }

struct BoxMesh {
  Positions vertices;
  Tets tets;
};

/// nx*ny*nz cubes of edge `h`, each split into 6 positively oriented tets
/// (Kuhn subdivision along the 000-111 diagonal, conforming between cubes).
inline BoxMesh box_mesh(int nx, int ny, int nz, double h = 1.0) {
  BoxMesh m;
  auto id = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  m.vertices.resize((nx + 1) * (ny + 1) * (nz + 1), 3);
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) m.vertices.row(id(i, j, k)) << i * h, j * h, k * h;
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<Eigen::Vector4i> tets;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (const auto& p : perms) {
          int c[3] = {0, 0, 0};
          Eigen::Vector4i t;
          t[0] = id(i, j, k);
          for (int s = 0; s < 3; ++s) {
            c[p[s]] = 1;
            t[s + 1] = id(i + c[0], j + c[1], k + c[2]);
          }
          const auto x = [&](int a) { return Vec3(m.vertices.row(t[a]).transpose()); };
          if (signed_tet_volume(x(0), x(1), x(2), x(3)) < 0) std::swap(t[2], t[3]);
          tets.push_back(t);
        }
  m.tets.resize(static_cast<Eigen::Index>(tets.size()), 4);
  for (std::size_t t = 0; t < tets.size(); ++t) m.tets.row(static_cast<Eigen::Index>(t)) = tets[t].transpose();
  return m;
}

}  // namespace eipc::test
