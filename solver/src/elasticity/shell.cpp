#include "eipc/elasticity/shell.hpp"

#include "eipc/optim/psd.hpp"
#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

namespace eipc {

namespace {

/// A value with its gradient over 12 variables and, when `second`, its Hessian
/// (forward differentiation): the dihedral angle's derivatives are those of the
/// few products, one square root and one atan2 that compute it.
template <bool second>
struct Jet {
  double v = 0.0;
  Vec<12> g = Vec<12>::Zero();
  Mat<12> h = second ? Mat<12>::Zero() : Mat<12>();
};

template <bool s>
Jet<s> operator-(const Jet<s>& a, const Jet<s>& b) {
  Jet<s> r{a.v - b.v, a.g - b.g};
  if constexpr (s) r.h = a.h - b.h;
  return r;
}
template <bool s>
Jet<s> operator+(const Jet<s>& a, const Jet<s>& b) {
  Jet<s> r{a.v + b.v, a.g + b.g};
  if constexpr (s) r.h = a.h + b.h;
  return r;
}
template <bool s>
Jet<s> operator*(const Jet<s>& a, const Jet<s>& b) {
  Jet<s> r{a.v * b.v, a.v * b.g + b.v * a.g};
  if constexpr (s) {
    const Mat<12> gg = a.g * b.g.transpose();
    r.h = a.v * b.h + b.v * a.h + gg + gg.transpose();
  }
  return r;
}
template <bool s>
Jet<s> sqrt_jet(const Jet<s>& a) {
  const double q = std::sqrt(a.v), dq = 0.5 / q, d2q = -0.25 / (q * a.v);
  Jet<s> r{q, dq * a.g};
  if constexpr (s) r.h = dq * a.h + d2q * a.g * a.g.transpose();
  return r;
}
template <bool s>
Jet<s> atan2_jet(const Jet<s>& y, const Jet<s>& x) {
  const double r2 = x.v * x.v + y.v * y.v, r4 = r2 * r2;
  const double fy = x.v / r2, fx = -y.v / r2;
  Jet<s> r{std::atan2(y.v, x.v), fy * y.g + fx * x.g};
  if constexpr (s) {
    const double fyy = -2.0 * x.v * y.v / r4, fxx = 2.0 * x.v * y.v / r4, fxy = (y.v * y.v - x.v * x.v) / r4;
    const Mat<12> xy = x.g * y.g.transpose();
    r.h = fy * y.h + fx * x.h + fyy * y.g * y.g.transpose() + fxx * x.g * x.g.transpose() + fxy * (xy + xy.transpose());
  }
  return r;
}

template <bool s>
using JetVec = std::array<Jet<s>, 3>;
template <bool s>
JetVec<s> sub(const JetVec<s>& a, const JetVec<s>& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
template <bool s>
JetVec<s> cross(const JetVec<s>& a, const JetVec<s>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
template <bool s>
Jet<s> dot(const JetVec<s>& a, const JetVec<s>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/// The same formula on doubles or jets: theta = atan2((n1 x n2) . e / |e|, n1 . n2).
template <class V, class S, class Sub, class Cross, class Dot, class Sqrt, class Atan2>
S dihedral(const V& c, const V& e0, const V& e1, const V& d, Sub sb, Cross cr, Dot dt, Sqrt sq, Atan2 at) {
  const V n1 = cr(sb(e0, c), sb(e1, c));
  const V n2 = cr(sb(e1, d), sb(e0, d));
  const V e = sb(e1, e0);
  return at(dt(cr(n1, n2), e), sq(dt(e, e)) * dt(n1, n2));
}

/// Plane-stress metric of the curvature tensor s = (S11, S22, S12):
/// nu (tr S)^2 + (1 - nu) tr(S^2) = s^T M s.
Mat3 curvature_metric(double nu) {
  Mat3 m;
  m << 1.0, nu, 0.0, nu, 1.0, 0.0, 0.0, 0.0, 2.0 * (1.0 - nu);
  return m;
}

/// The slope of the linear interpolant on triangle (p0, p1, p2) of z(p) = 1/2 p^T S p,
/// as a 2x3 matrix acting on s = (S11, S22, S12).
Eigen::Matrix<double, 2, 3> interpolant_slope(const Eigen::Vector2d& p0, const Eigen::Vector2d& p1,
                                              const Eigen::Vector2d& p2) {
  auto coefficients = [](const Eigen::Vector2d& p) {
    return Eigen::RowVector3d(0.5 * p.x() * p.x(), 0.5 * p.y() * p.y(), p.x() * p.y());
  };
  Eigen::Matrix2d G;
  G.row(0) = (p1 - p0).transpose();
  G.row(1) = (p2 - p0).transpose();
  Eigen::Matrix<double, 2, 3> dz;
  dz.row(0) = coefficients(p1) - coefficients(p0);
  dz.row(1) = coefficients(p2) - coefficients(p0);
  return G.inverse() * dz;
}

constexpr double kShellCost = 8.0;  // microseconds per triangle's derivatives (order of magnitude)

}  // namespace

double dihedral_angle(const Vec3& c, const Vec3& e0, const Vec3& e1, const Vec3& d) {
  return dihedral<Vec3, double>(
      c, e0, e1, d, [](const Vec3& a, const Vec3& b) { return Vec3(a - b); },
      [](const Vec3& a, const Vec3& b) { return Vec3(a.cross(b)); },
      [](const Vec3& a, const Vec3& b) { return a.dot(b); }, [](double a) { return std::sqrt(a); },
      [](double y, double x) { return std::atan2(y, x); });
}

namespace {
template <bool second>
Jet<second> dihedral_jet(const Vec3& c, const Vec3& e0, const Vec3& e1, const Vec3& d) {
  auto variable = [](const Vec3& p, int first) {
    JetVec<second> v;
    for (int i = 0; i < 3; ++i) {
      v[i].v = p[i];
      v[i].g[first + i] = 1.0;
    }
    return v;
  };
  return dihedral<JetVec<second>, Jet<second>>(variable(c, 0), variable(e0, 3), variable(e1, 6), variable(d, 9),
                                               sub<second>, cross<second>, dot<second>, sqrt_jet<second>,
                                               atan2_jet<second>);
}
}  // namespace

void dihedral_angle_gradient(const Vec3& c, const Vec3& e0, const Vec3& e1, const Vec3& d, double& theta,
                             Vec<12>& gradient) {
  const Jet<false> t = dihedral_jet<false>(c, e0, e1, d);
  theta = t.v;
  gradient = t.g;
}

void dihedral_angle_derivatives(const Vec3& c, const Vec3& e0, const Vec3& e1, const Vec3& d, double& theta,
                                Vec<12>& gradient, Mat<12>& hessian) {
  const Jet<true> t = dihedral_jet<true>(c, e0, e1, d);
  theta = t.v;
  gradient = t.g;
  hessian = 0.5 * (t.h + t.h.transpose());
}

ShellBody::ShellBody(const Positions& rest, const Tris& triangles, double thickness, const Material& material)
    : num_vertices_(static_cast<int>(rest.rows())), thickness_(thickness), material_(material) {
  validate(material);
  if (!(thickness > 0.0) || !std::isfinite(thickness))
    throw InputError("shell: thickness must be a positive number, got " + std::to_string(thickness));
  if (triangles.size() > 0 && (triangles.minCoeff() < 0 || triangles.maxCoeff() >= num_vertices_))
    throw InputError("shell: triangle vertex index out of range [0, " + std::to_string(num_vertices_) + ")");
  const double E = material.youngs, nu = material.poisson;
  mu_ = E / (2.0 * (1.0 + nu));
  lambda_ = E * nu / (1.0 - nu * nu);

  // Stencils: the vertex across each edge.
  const int n = static_cast<int>(triangles.rows());
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> edge_faces;  // (lo, hi) -> (triangle, edge)
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < 3; ++i) {
      const int a = triangles(t, (i + 1) % 3), b = triangles(t, (i + 2) % 3);
      edge_faces[{std::min(a, b), std::max(a, b)}].push_back({t, i});
    }
  stencils_.resize(n);
  for (int t = 0; t < n; ++t) {
    for (int i = 0; i < 3; ++i) stencils_[t][i] = triangles(t, i);
    for (int i = 3; i < 6; ++i) stencils_[t][i] = -1;
  }
  for (const auto& [edge, faces] : edge_faces) {
    if (faces.size() > 2)
      throw InputError("shell: edge (" + std::to_string(edge.first) + ", " + std::to_string(edge.second) + ") has " +
                       std::to_string(faces.size()) + " triangles (a shell must be a manifold surface)");
    if (faces.size() == 2) {
      const auto [t0, i0] = faces[0];
      const auto [t1, i1] = faces[1];
      stencils_[t0][3 + i0] = triangles(t1, i1);
      stencils_[t1][3 + i1] = triangles(t0, i0);
    }
  }

  area_.resize(n);
  beta_.resize(n);
  rest_angle_.resize(n);
  bending_form_.resize(n);
  const double D = bending_stiffness();
  const Mat3 metric = curvature_metric(nu);
  for (int t = 0; t < n; ++t) {
    const std::array<int, 6>& s = stencils_[t];
    const Vec3 x0 = rest.row(s[0]).transpose(), e1 = rest.row(s[1]).transpose() - x0,
               e2 = rest.row(s[2]).transpose() - x0;
    area_[t] = 0.5 * e1.cross(e2).norm();
    if (!(area_[t] > 1e-14 * std::max(e1.squaredNorm(), e2.squaredNorm())))
      throw InputError("shell: triangle " + std::to_string(t) + " is degenerate at rest");
    // The rest triangle in its own frame (u along e1, n = u x v its normal).
    const Vec3 u = e1.normalized(), v = (e2 - e2.dot(u) * u).normalized();
    std::array<Eigen::Vector2d, 3> p{Eigen::Vector2d(0, 0), Eigen::Vector2d(e1.norm(), 0),
                                     Eigen::Vector2d(e2.dot(u), e2.dot(v))};
    Eigen::Matrix2d Dm;
    Dm.col(0) = p[1];
    Dm.col(1) = p[2];
    Eigen::Matrix<double, 3, 2> corners;
    corners << -1, -1, 1, 0, 0, 1;
    beta_[t] = corners * Dm.inverse();

    // Bending: the curvature tensor s = (S11, S22, S12) from the three edges'
    // angles, theta = L s for a quadratic bend on the rest mesh (each neighbour
    // unfolded into this plane; a boundary edge gets its mirror image, which the
    // condensation below makes irrelevant).
    Mat3 L;
    for (int i = 0; i < 3; ++i) {
      const int a = (i + 1) % 3, b = (i + 2) % 3;
      const Eigen::Vector2d along = (p[b] - p[a]).normalized();
      Eigen::Vector2d out(along.y(), -along.x());
      if (out.dot(p[i] - p[a]) > 0) out = -out;
      Eigen::Vector2d across = p[a] + p[b] - p[i];
      if (s[3 + i] >= 0) {
        const Vec3 xa = rest.row(s[a]).transpose(), xb = rest.row(s[b]).transpose(),
                   xd = rest.row(s[3 + i]).transpose();
        const Vec3 edge = (xb - xa).normalized();
        const double along_d = (xd - xa).dot(edge), off_d = (xd - xa - along_d * edge).norm();
        across = p[a] + along_d * along + off_d * out;
        rest_angle_[t][i] = dihedral_angle(rest.row(s[i]).transpose(), xa, xb, xd);
      } else {
        rest_angle_[t][i] = 0.0;
      }
      L.row(i) = out.transpose() * (interpolant_slope(across, p[b], p[a]) - interpolant_slope(p[0], p[1], p[2]));
    }
    const Mat3 Linv = L.inverse();
    Mat3 Q = area_[t] * D * Linv.transpose() * metric * Linv;
    // Boundary edges carry no moment: their angles are free, so condense them out
    // (the least energy over them).
    std::vector<int> inner, free;
    for (int i = 0; i < 3; ++i) (s[3 + i] >= 0 ? inner : free).push_back(i);
    Mat3 condensed = Mat3::Zero();
    if (!inner.empty()) {
      const int ni = static_cast<int>(inner.size()), nf = static_cast<int>(free.size());
      MatX qii(ni, ni), qif(ni, nf), qff(nf, nf);
      for (int r = 0; r < ni; ++r) {
        for (int c = 0; c < ni; ++c) qii(r, c) = Q(inner[r], inner[c]);
        for (int c = 0; c < nf; ++c) qif(r, c) = Q(inner[r], free[c]);
      }
      for (int r = 0; r < nf; ++r)
        for (int c = 0; c < nf; ++c) qff(r, c) = Q(free[r], free[c]);
      const MatX schur = nf > 0 ? MatX(qii - qif * qff.ldlt().solve(qif.transpose())) : qii;
      for (int r = 0; r < ni; ++r)
        for (int c = 0; c < ni; ++c) condensed(inner[r], inner[c]) = 0.5 * (schur(r, c) + schur(c, r));
    }
    bending_form_[t] = condensed;
  }
  branch_angle_ = rest_angle_;
}

void ShellBody::follow_angles(const Positions& x) {
  check_positions(x);
  for (int t = 0; t < num_triangles(); ++t)
    for (int i = 0; i < 3; ++i) branch_angle_[t][i] = edge_angle(x, t, i);
}

double ShellBody::on_branch(int t, int i, double theta) const {
  constexpr double two_pi = 2.0 * 3.14159265358979323846;
  return theta + two_pi * std::round((branch_angle_[t][i] - theta) / two_pi);
}

double ShellBody::bending_stiffness() const {
  const double nu = material_.poisson;
  return material_.youngs * thickness_ * thickness_ * thickness_ / (12.0 * (1.0 - nu * nu));
}

void ShellBody::check_positions(const Positions& x) const {
  if (x.rows() != num_vertices_)
    throw std::invalid_argument("ShellBody: positions have " + std::to_string(x.rows()) + " rows, body has " +
                                std::to_string(num_vertices_) + " vertices");
}

namespace {
Eigen::Matrix<double, 3, 2> deformation_gradient_2d(const Positions& x, const std::array<int, 6>& s,
                                                    const Eigen::Matrix<double, 3, 2>& beta) {
  Eigen::Matrix<double, 3, 2> F = Eigen::Matrix<double, 3, 2>::Zero();
  for (int k = 0; k < 3; ++k) F += x.row(s[k]).transpose() * beta.row(k);
  return F;
}
}  // namespace

double ShellBody::membrane_energy(const Positions& x, int t) const {
  const Eigen::Matrix<double, 3, 2> F = deformation_gradient_2d(x, stencils_[t], beta_[t]);
  const Eigen::Matrix2d E = 0.5 * (F.transpose() * F - Eigen::Matrix2d::Identity());
  const double trE = E.trace();
  return thickness_ * area_[t] * (mu_ * E.squaredNorm() + 0.5 * lambda_ * trE * trE);
}

Vec<9> ShellBody::membrane_gradient(const Positions& x, int t) const {
  const Eigen::Matrix<double, 3, 2> F = deformation_gradient_2d(x, stencils_[t], beta_[t]);
  const Eigen::Matrix2d E = 0.5 * (F.transpose() * F - Eigen::Matrix2d::Identity());
  const Eigen::Matrix2d S = 2.0 * mu_ * E + lambda_ * E.trace() * Eigen::Matrix2d::Identity();
  const Eigen::Matrix<double, 3, 2> P = F * S;
  Vec<9> g;
  for (int k = 0; k < 3; ++k) g.segment<3>(3 * k) = thickness_ * area_[t] * P * beta_[t].row(k).transpose();
  return g;
}

Mat<9> ShellBody::membrane_hessian(const Positions& x, int t, bool project) const {
  const Eigen::Matrix<double, 3, 2> F = deformation_gradient_2d(x, stencils_[t], beta_[t]);
  const Eigen::Matrix2d E = 0.5 * (F.transpose() * F - Eigen::Matrix2d::Identity());
  const Eigen::Matrix2d S = 2.0 * mu_ * E + lambda_ * E.trace() * Eigen::Matrix2d::Identity();
  // d2Psi/dF2 column by column: dP = dF S + F dS, dS = 2 mu dE + lambda tr(dE) I, dE = sym(F^T dF).
  Mat<6> d2;
  for (int c = 0; c < 6; ++c) {
    Eigen::Matrix<double, 3, 2> dF = Eigen::Matrix<double, 3, 2>::Zero();
    dF(c % 3, c / 3) = 1.0;
    const Eigen::Matrix2d FtdF = F.transpose() * dF;
    const Eigen::Matrix2d dE = 0.5 * (FtdF + FtdF.transpose());
    const Eigen::Matrix2d dS = 2.0 * mu_ * dE + lambda_ * dE.trace() * Eigen::Matrix2d::Identity();
    const Eigen::Matrix<double, 3, 2> dP = dF * S + F * dS;
    for (int r = 0; r < 6; ++r) d2(r, c) = dP(r % 3, r / 3);
  }
  // vec(F) = B x with B(3 c + i, 3 k + i) = beta_k,c.
  Eigen::Matrix<double, 6, 9> B = Eigen::Matrix<double, 6, 9>::Zero();
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < 3; ++i) B(3 * c + i, 3 * k + i) = beta_[t](k, c);
  Mat<9> H = thickness_ * area_[t] * B.transpose() * (0.5 * (d2 + d2.transpose())) * B;
  H = 0.5 * (H + H.transpose());
  return project ? project_psd<9>(H) : H;
}

double ShellBody::edge_angle(const Positions& x, int t, int i) const {
  const std::array<int, 6>& s = stencils_[t];
  if (s[3 + i] < 0) return 0.0;
  const double theta = dihedral_angle(x.row(s[i]).transpose(), x.row(s[(i + 1) % 3]).transpose(),
                                      x.row(s[(i + 2) % 3]).transpose(), x.row(s[3 + i]).transpose());
  return on_branch(t, i, theta);
}

double ShellBody::bending_energy(const Positions& x, int t) const {
  Vec3 d;
  for (int i = 0; i < 3; ++i) d[i] = stencils_[t][3 + i] >= 0 ? edge_angle(x, t, i) - rest_angle_[t][i] : 0.0;
  return 0.5 * d.dot(bending_form_[t] * d);
}

Vec<18> ShellBody::bending_gradient(const Positions& x, int t) const {
  const std::array<int, 6>& s = stencils_[t];
  std::array<Vec<18>, 3> dtheta;
  Vec3 delta = Vec3::Zero();
  for (int i = 0; i < 3; ++i) {
    dtheta[i].setZero();
    if (s[3 + i] < 0) continue;
    const std::array<int, 4> slot{i, (i + 1) % 3, (i + 2) % 3, 3 + i};
    double theta;
    Vec<12> g;
    dihedral_angle_gradient(x.row(s[slot[0]]).transpose(), x.row(s[slot[1]]).transpose(),
                            x.row(s[slot[2]]).transpose(), x.row(s[slot[3]]).transpose(), theta, g);
    delta[i] = on_branch(t, i, theta) - rest_angle_[t][i];
    for (int a = 0; a < 4; ++a) dtheta[i].segment<3>(3 * slot[a]) = g.segment<3>(3 * a);
  }
  const Vec3 moment = bending_form_[t] * delta;
  return moment[0] * dtheta[0] + moment[1] * dtheta[1] + moment[2] * dtheta[2];
}

void ShellBody::bending_derivatives(const Positions& x, int t, bool project, Vec<18>& gradient,
                                    Mat<18>& hessian) const {
  const std::array<int, 6>& s = stencils_[t];
  std::array<Vec<18>, 3> dtheta;
  std::array<Mat<18>, 3> d2theta;
  Vec3 delta = Vec3::Zero();
  for (int i = 0; i < 3; ++i) {
    dtheta[i].setZero();
    d2theta[i].setZero();
    if (s[3 + i] < 0) continue;
    const std::array<int, 4> slot{i, (i + 1) % 3, (i + 2) % 3, 3 + i};  // (c, e0, e1, d) in the stencil
    double theta;
    Vec<12> g;
    Mat<12> h;
    dihedral_angle_derivatives(x.row(s[slot[0]]).transpose(), x.row(s[slot[1]]).transpose(),
                               x.row(s[slot[2]]).transpose(), x.row(s[slot[3]]).transpose(), theta, g, h);
    delta[i] = on_branch(t, i, theta) - rest_angle_[t][i];
    for (int a = 0; a < 4; ++a) {
      dtheta[i].segment<3>(3 * slot[a]) = g.segment<3>(3 * a);
      for (int b = 0; b < 4; ++b) d2theta[i].block<3, 3>(3 * slot[a], 3 * slot[b]) = h.block<3, 3>(3 * a, 3 * b);
    }
  }
  const Mat3& Q = bending_form_[t];
  const Vec3 moment = Q * delta;
  gradient = moment[0] * dtheta[0] + moment[1] * dtheta[1] + moment[2] * dtheta[2];
  hessian.setZero();
  for (int i = 0; i < 3; ++i) {
    hessian += moment[i] * d2theta[i];
    for (int j = 0; j < 3; ++j) hessian += Q(i, j) * dtheta[i] * dtheta[j].transpose();
  }
  hessian = 0.5 * (hessian + hessian.transpose());
  if (project) hessian = project_psd<18>(hessian);
}

double ShellBody::energy(const Positions& x) const {
  check_positions(x);
  std::vector<double> e(num_triangles());
  parallel_for_each(e.size(), grain_for(1.0),
                    [&](std::size_t t) { e[t] = membrane_energy(x, int(t)) + bending_energy(x, int(t)); });
  double sum = 0.0;
  for (double v : e) sum += v;
  return sum;
}

void ShellBody::add_element_gradients(const std::vector<Vec<18>>& local, VecX& g, int dof_offset) const {
  if (dof_offset < 0 || g.size() < dof_offset + 3 * num_vertices_)
    throw std::invalid_argument("ShellBody: gradient vector too short");
  for (int t = 0; t < num_triangles(); ++t)
    for (int a = 0; a < 6; ++a)
      if (stencils_[t][a] >= 0) g.segment<3>(dof_offset + 3 * stencils_[t][a]) += local[t].segment<3>(3 * a);
}

double ShellBody::energy_and_add_gradient(const Positions& x, VecX& g, int dof_offset) const {
  add_gradient(x, g, dof_offset);
  return energy(x);
}

void ShellBody::add_gradient(const Positions& x, VecX& g, int dof_offset) const {
  check_positions(x);
  std::vector<Vec<18>> local(num_triangles());
  parallel_for_each(local.size(), grain_for(1.0), [&](std::size_t t) {
    local[t] = bending_gradient(x, int(t));
    local[t].head<9>() += membrane_gradient(x, int(t));
  });
  add_element_gradients(local, g, dof_offset);
}

void ShellBody::element_derivatives(const Positions& x, bool project, std::vector<Vec<18>>& gradients,
                                    std::vector<Mat<18>>& hessians) const {
  check_positions(x);
  gradients.resize(num_triangles());
  hessians.resize(num_triangles());
  parallel_for_each(gradients.size(), grain_for(kShellCost), [&](std::size_t t) {
    bending_derivatives(x, int(t), project, gradients[t], hessians[t]);
    gradients[t].head<9>() += membrane_gradient(x, int(t));
    hessians[t].topLeftCorner<9, 9>() += membrane_hessian(x, int(t), project);
  });
}

}  // namespace eipc
