// ShellBody: dihedral angle, membrane and bending derivatives against finite
// differences; uniaxial stretch against the closed form; uniform bending in
// either direction against the plate energy D/2 kappa^2 A; a cantilever strip's
// tip deflection against Euler-Bernoulli beam theory.
#include "eipc/elasticity/shell.hpp"

#include "elasticity_test_helpers.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <catch2/catch.hpp>
#include <cmath>

using namespace eipc;
using test::rel_error;

namespace {

struct Sheet {
  Positions vertices;
  Tris triangles;
};

/// nx x ny cells of size (lx/nx, ly/ny) in the plane z = 0, each split along
/// alternating diagonals when `alternate` (else all along the same one).
Sheet grid_sheet(int nx, int ny, double lx, double ly, bool alternate = false) {
  Sheet s;
  auto id = [&](int i, int j) { return i + (nx + 1) * j; };
  s.vertices.resize((nx + 1) * (ny + 1), 3);
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) s.vertices.row(id(i, j)) << lx * i / nx, ly * j / ny, 0.0;
  s.triangles.resize(2 * nx * ny, 3);
  int t = 0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (alternate && (i + j) % 2 == 1) {
        s.triangles.row(t++) << id(i, j), id(i + 1, j), id(i, j + 1);
        s.triangles.row(t++) << id(i + 1, j), id(i + 1, j + 1), id(i, j + 1);
      } else {
        s.triangles.row(t++) << id(i, j), id(i + 1, j), id(i + 1, j + 1);
        s.triangles.row(t++) << id(i, j), id(i + 1, j + 1), id(i, j + 1);
      }
    }
  return s;
}

Material shell_material(double E, double nu) {
  Material m;
  m.youngs = E;
  m.poisson = nu;
  m.density = 300.0;
  return m;
}

Positions from_flat(const VecX& q) {
  Positions x(q.size() / 3, 3);
  flat(x) = q;
  return x;
}

/// A sheet bent and stretched smoothly, plus noise: every term active.
Positions bumped(const Positions& X, std::mt19937& rng, double noise) {
  std::uniform_real_distribution<double> u(-noise, noise);
  Positions x = X;
  for (Eigen::Index v = 0; v < X.rows(); ++v) {
    x(v, 0) = 1.1 * X(v, 0) + u(rng);
    x(v, 1) = 0.95 * X(v, 1) + 0.1 * X(v, 0) + u(rng);
    x(v, 2) = 0.3 * std::sin(3 * X(v, 0)) * std::cos(2 * X(v, 1)) + u(rng);
  }
  return x;
}

/// A stencil's 18 dofs at x (a missing vertex stands in the first one's place).
VecX stencil_dofs(const Positions& x, const std::array<int, 6>& s) {
  Positions p(6, 3);
  for (int a = 0; a < 6; ++a) p.row(a) = x.row(s[a] >= 0 ? s[a] : s[0]);
  return flat(p);
}

/// x with the stencil's vertices moved to the 18 dofs y (missing ones ignored).
Positions with_stencil(const Positions& x, const std::array<int, 6>& s, const VecX& y) {
  Positions xp = x;
  for (int a = 0; a < 6; ++a)
    if (s[a] >= 0) xp.row(s[a]) = y.segment<3>(3 * a).transpose();
  return xp;
}

/// Triangle t's bending Hessian by central differences of its gradient over the
/// stencil's dofs, the columns of missing vertices zeroed.
MatX fd_bending_hessian(const ShellBody& body, const Positions& x, int t) {
  const std::array<int, 6>& st = body.stencils()[t];
  MatX fd = test::fd_jacobian(stencil_dofs(x, st), [&](const VecX& z) {
    Vec<18> g;
    Mat<18> h;
    body.bending_derivatives(with_stencil(x, st, z), t, false, g, h);
    return VecX(g);
  });
  for (int a = 3; a < 6; ++a)
    if (st[a] < 0) fd.middleCols<3>(3 * a).setZero();
  return fd;
}

}  // namespace

TEST_CASE("dihedral angle: value and derivatives", "[elasticity][shell]") {
  // A hinge folded by a known angle.
  const double fold = 0.7;
  const Vec3 e0(0, 0, 0), e1(1, 0, 0), c(0.3, 1, 0);
  const Vec3 d(0.6, -std::cos(fold), std::sin(fold));
  CHECK(std::abs(std::abs(dihedral_angle(c, e0, e1, d)) - fold) < 1e-14);
  CHECK(std::abs(dihedral_angle(c, e0, e1, Vec3(0.6, -1, 0))) < 1e-15);

  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  for (int trial = 0; trial < 5; ++trial) {
    VecX x(12);
    x << c + Vec3(u(rng), u(rng), u(rng)), e0 + Vec3(u(rng), u(rng), u(rng)), e1 + Vec3(u(rng), u(rng), u(rng)),
        d + Vec3(u(rng), u(rng), u(rng));
    auto angle = [](const VecX& y) {
      return dihedral_angle(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6), y.segment<3>(9));
    };
    double theta;
    Vec<12> g;
    Mat<12> H;
    dihedral_angle_derivatives(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), theta, g, H);
    CHECK(theta == angle(x));
    CHECK(rel_error(g, test::fd_gradient(x, angle)) < 1e-8);
    const MatX fd = test::fd_jacobian(x, [&](const VecX& y) {
      double t;
      Vec<12> gy;
      Mat<12> hy;
      dihedral_angle_derivatives(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6), y.segment<3>(9), t, gy, hy);
      return VecX(gy);
    });
    CHECK(rel_error(H, fd) < 1e-7);
  }
}

TEST_CASE("shell membrane and bending derivatives match finite differences", "[elasticity][shell]") {
  const Sheet s = grid_sheet(4, 3, 1.0, 0.8, true);
  const ShellBody body(s.vertices, s.triangles, 0.05, shell_material(1e3, 0.3));
  std::mt19937 rng(5);
  const Positions x = bumped(s.vertices, rng, 0.02);
  for (int t = 0; t < body.num_triangles(); ++t) {
    INFO("triangle " << t);
    const std::array<int, 6>& st = body.stencils()[t];
    // Perturb the global positions of the stencil's vertices.
    auto with = [&](const VecX& z) { return with_stencil(x, st, z); };
    const VecX y = stencil_dofs(x, st);

    const Vec<9> gm = body.membrane_gradient(x, t);
    const VecX fd_gm = test::fd_gradient(y, [&](const VecX& z) { return body.membrane_energy(with(z), t); }).head(9);
    CHECK(rel_error(gm, fd_gm) < 1e-7);
    const MatX fd_hm = test::fd_jacobian(y, [&](const VecX& z) { return VecX(body.membrane_gradient(with(z), t)); });
    CHECK(rel_error(body.membrane_hessian(x, t, false), fd_hm.leftCols(9)) < 1e-7);

    Vec<18> gb;
    Mat<18> hb;
    body.bending_derivatives(x, t, false, gb, hb);
    VecX fd_gb = test::fd_gradient(y, [&](const VecX& z) { return body.bending_energy(with(z), t); });
    for (int a = 3; a < 6; ++a)
      if (st[a] < 0) fd_gb.segment<3>(3 * a).setZero();
    CHECK(rel_error(gb, fd_gb) < 1e-7);
    CHECK(body.bending_gradient(x, t) == gb);  // bit for bit: the line search's gradient is Newton's
    CHECK(gb.norm() > 1e-3);  // the bend is felt
    CHECK(rel_error(hb, fd_bending_hessian(body, x, t)) < 1e-6);

    // Projected: PSD, and the same where already PSD (the membrane at rest).
    body.bending_derivatives(x, t, true, gb, hb);
    CHECK(Eigen::SelfAdjointEigenSolver<Mat<18>>(hb).eigenvalues().minCoeff() > -1e-9 * hb.norm());
  }
  // Whole body: the gradient is the sum of the elements', and energy() agrees.
  VecX g = VecX::Zero(3 * body.num_vertices());
  body.add_gradient(x, g);
  const VecX fd = test::fd_gradient(flat(x), [&](const VecX& z) { return body.energy(from_flat(z)); });
  CHECK(rel_error(g, fd) < 1e-7);
  std::vector<Vec<18>> ge;
  std::vector<Mat<18>> he;
  body.element_derivatives(x, true, ge, he);
  VecX g2 = VecX::Zero(3 * body.num_vertices());
  body.add_element_gradients(ge, g2, 0);
  CHECK(g2 == g);
}

TEST_CASE("a fold closing past pi stays on its branch once followed", "[elasticity][shell]") {
  // One hinge: triangle (c, e0, e1) flat, triangle (d, e1, e0) turned about the
  // edge by phi, an isometry, so the energy is the bending energy of angle phi alone.
  Positions rest(4, 3);
  rest << 0.5, -1, 0, 0, 0, 0, 1, 0, 0, 0.5, 1, 0;
  Tris tris(2, 3);
  tris << 0, 1, 2, 3, 2, 1;
  auto folded = [&](double phi) {
    Positions x = rest;
    x.row(3) << 0.5, std::cos(phi), std::sin(phi);
    return x;
  };
  const double before = M_PI - 0.1, after = M_PI + 0.1;
  ShellBody body(rest, tris, 0.01, shell_material(1e5, 0.3));
  // Unfollowed, an angle is read in (-pi, pi]: past pi the fold reads as its mirror image.
  CHECK(body.energy(folded(after)) == Approx(body.energy(folded(before))).epsilon(1e-12));
  body.follow_angles(folded(before));
  // Followed, the fold goes on closing: W = Q phi^2 / 2.
  CHECK(body.energy(folded(after)) / body.energy(folded(before)) == Approx((after / before) * (after / before)).epsilon(1e-9));
  // And its derivatives are those of that branch.
  const Positions x = folded(M_PI + 0.05);
  VecX g = VecX::Zero(12);
  body.add_gradient(x, g);
  CHECK(rel_error(g, test::fd_gradient(flat(x), [&](const VecX& z) { return body.energy(from_flat(z)); })) < 1e-7);
  for (int t = 0; t < 2; ++t) {
    Vec<18> gb;
    Mat<18> hb;
    body.bending_derivatives(x, t, false, gb, hb);
    CHECK(rel_error(hb, fd_bending_hessian(body, x, t)) < 1e-6);
  }
}

TEST_CASE("shell at rest and moved rigidly has no energy", "[elasticity][shell]") {
  std::mt19937 rng(7);
  Sheet s = grid_sheet(3, 3, 1.0, 1.0);
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) s.vertices(v, 2) = 0.2 * std::sin(2 * s.vertices(v, 0));  // curved rest
  const ShellBody body(s.vertices, s.triangles, 0.01, shell_material(1e5, 0.3));
  CHECK(body.energy(s.vertices) < 1e-20);
  const Mat3 R = test::random_rotation(rng);
  Positions x = (s.vertices * R.transpose()).rowwise() + Eigen::RowVector3d(0.3, -1, 2);
  CHECK(body.energy(x) < 1e-20);
}

TEST_CASE("uniaxial stretch of a sheet: energy and edge force are the closed form", "[elasticity][shell]") {
  const double E = 2e5, nu = 0.3, t = 1e-3, lx = 0.3, ly = 0.2;
  const Sheet s = grid_sheet(6, 4, lx, ly, true);
  const ShellBody body(s.vertices, s.triangles, t, shell_material(E, nu));
  const double a = 1.2, b = 0.93;  // stretches along x and y
  Positions x = s.vertices;
  x.col(0) *= a;
  x.col(1) *= b;
  const double mu = E / (2 * (1 + nu)), lambda = E * nu / (1 - nu * nu);
  const double E11 = 0.5 * (a * a - 1), E22 = 0.5 * (b * b - 1);
  const double energy = t * lx * ly * (mu * (E11 * E11 + E22 * E22) + 0.5 * lambda * (E11 + E22) * (E11 + E22));
  CHECK(std::abs(body.energy(x) - energy) < 1e-9 * energy);
  // The pull on the edge x = lx: first Piola stress P11 = a S11 times the section t ly.
  VecX g = VecX::Zero(3 * body.num_vertices());
  body.add_gradient(x, g);
  double pull = 0.0;
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v)
    if (s.vertices(v, 0) > lx - 1e-12) pull += g[3 * v];
  const double force = a * (2 * mu * E11 + lambda * (E11 + E22)) * t * ly;
  CHECK(std::abs(pull - force) < 1e-9 * force);
}

TEST_CASE("uniform bending energy is D/2 kappa^2 A in either direction", "[elasticity][shell]") {
  // A sheet rolled onto a cylinder of curvature kappa (lengths along the arc kept),
  // about the y axis and about the x axis, on both triangulations.
  const double E = 1e6, nu = 0.3, t = 1e-3, kappa = 0.5;
  for (bool alternate : {false, true})
    for (int axis : {0, 1}) {
      INFO("alternate " << alternate << ", bent along " << (axis == 0 ? "x" : "y"));
      const Sheet s = grid_sheet(20, 16, 1.0, 0.8, alternate);
      const ShellBody body(s.vertices, s.triangles, t, shell_material(E, nu));
      Positions x = s.vertices;
      for (Eigen::Index v = 0; v < x.rows(); ++v) {
        const double arc = s.vertices(v, axis);
        x(v, axis) = std::sin(kappa * arc) / kappa;
        x(v, 2) = (1 - std::cos(kappa * arc)) / kappa;
      }
      // Triangles with a boundary edge leave its angle free (no moment there), so
      // they carry less: the interior ones are compared.
      double bending = 0.0, area = 0.0;
      for (int tr = 0; tr < body.num_triangles(); ++tr) {
        const std::array<int, 6>& st = body.stencils()[tr];
        if (st[3] < 0 || st[4] < 0 || st[5] < 0) continue;
        bending += body.bending_energy(x, tr);
        area += body.rest_areas()[tr];
      }
      const double exact = 0.5 * body.bending_stiffness() * kappa * kappa * area;
      INFO("bending " << bending << ", D/2 kappa^2 A " << exact << ", ratio " << bending / exact);
      CHECK(std::abs(bending - exact) < 1e-3 * exact);
    }
}

TEST_CASE("cantilever strip: tip deflection within 5% of beam theory", "[elasticity][shell]") {
  // 80 x 4 cells, clamped at x <= dx (two columns fixed), a small load at the tip.
  const int nx = 80, ny = 4;
  const double L = 0.2, w = 0.01, t = 5e-4, E = 1e7, nu = 0.0;
  const Sheet s = grid_sheet(nx, ny, L, w);
  const ShellBody body(s.vertices, s.triangles, t, shell_material(E, nu));
  const double dx = L / nx, I = w * t * t * t / 12.0;
  const double length = L - dx;  // the clamp holds the first cell flat
  const double P = 1e-4 * 3 * E * I / (length * length * length) * length;  // deflection 1e-4 L
  const int n = body.num_vertices();
  std::vector<char> fixed(n, 0);
  VecX f = VecX::Zero(3 * n);
  int tip = 0;
  for (int v = 0; v < n; ++v) {
    if (s.vertices(v, 0) < dx + 1e-12) fixed[v] = 1;
    if (s.vertices(v, 0) > L - 1e-12) ++tip;
  }
  for (int v = 0; v < n; ++v)
    if (s.vertices(v, 0) > L - 1e-12) f[3 * v + 2] = P / tip;
  // Newton on Phi(x) - f . x over the free dofs.
  VecX q = flat(Positions(s.vertices));
  for (int it = 0; it < 20; ++it) {
    const Positions x = from_flat(q);
    std::vector<Vec<18>> ge;
    std::vector<Mat<18>> he;
    body.element_derivatives(x, false, ge, he);
    VecX g = -f;
    body.add_element_gradients(ge, g, 0);
    std::vector<Eigen::Triplet<double>> trips;
    for (int e = 0; e < body.num_triangles(); ++e)
      for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b) {
          const int va = body.stencils()[e][a], vb = body.stencils()[e][b];
          if (va < 0 || vb < 0 || fixed[va] || fixed[vb]) continue;
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) trips.emplace_back(3 * va + i, 3 * vb + j, he[e](3 * a + i, 3 * b + j));
        }
    for (int v = 0; v < n; ++v)
      if (fixed[v])
        for (int i = 0; i < 3; ++i) {
          trips.emplace_back(3 * v + i, 3 * v + i, 1.0);
          g[3 * v + i] = 0.0;
        }
    Eigen::SparseMatrix<double> H(3 * n, 3 * n);
    H.setFromTriplets(trips.begin(), trips.end());
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(H);
    REQUIRE(ldlt.info() == Eigen::Success);
    const VecX step = ldlt.solve(g);
    q -= step;
    if (step.norm() < 1e-14) break;
  }
  double deflection = 0.0;
  for (int v = 0; v < n; ++v)
    if (s.vertices(v, 0) > L - 1e-12) deflection += q[3 * v + 2] / tip;
  const double beam = P * length * length * length / (3 * E * I);
  INFO("tip deflection " << deflection << ", beam theory " << beam << ", ratio " << deflection / beam);
  CHECK(std::abs(deflection / beam - 1.0) < 0.05);
}
