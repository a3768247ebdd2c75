// Transform: R = Rz * Ry * Rx in degrees, applied with the scale about the pivot, then translated.
#include <catch2/catch.hpp>

#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/transform.hpp"
#include "mesh_test_util.hpp"

#include <Eigen/Geometry>

using namespace eipc;

TEST_CASE("rotation_xyz_deg is Rz * Ry * Rx, right-handed", "[mesh][transform]") {
  CHECK((rotation_xyz_deg(Vec3(90, 0, 0)) * Vec3(0, 1, 0) - Vec3(0, 0, 1)).norm() < 1e-15);
  CHECK((rotation_xyz_deg(Vec3(0, 90, 0)) * Vec3(0, 0, 1) - Vec3(1, 0, 0)).norm() < 1e-15);
  CHECK((rotation_xyz_deg(Vec3(0, 0, 90)) * Vec3(1, 0, 0) - Vec3(0, 1, 0)).norm() < 1e-15);
  const Vec3 deg(30, -45, 110);
  const Vec3 rad = deg * M_PI / 180;
  const Mat3 want = (Eigen::AngleAxisd(rad.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rad.y(), Vec3::UnitY()) *
                     Eigen::AngleAxisd(rad.x(), Vec3::UnitX())).toRotationMatrix();
  CHECK((rotation_xyz_deg(deg) - want).norm() < 1e-14);
  // x first then z: (1,0,0) -Rx90-> (1,0,0) -Rz90-> (0,1,0); the other order would give the same,
  // so check a vector that distinguishes: (0,1,0) -Rx90-> (0,0,1) -Rz90-> (0,0,1).
  CHECK((rotation_xyz_deg(Vec3(90, 0, 90)) * Vec3(0, 1, 0) - Vec3(0, 0, 1)).norm() < 1e-15);
}

TEST_CASE("transformed scales and rotates about the centroid, then translates", "[mesh][transform]") {
  const Positions x = read_tet_mesh(eipc::test::asset("drake/teddy.vtk")).vertices;
  const Vec3 c = x.colwise().mean().transpose();
  Transform t;
  t.scale = 0.15;
  t.rotation_deg = Vec3(10, 20, 30);
  t.translation = Vec3(0.1, -0.2, 0.3);
  const Positions y = transformed(x, t);
  const Vec3 cy = y.colwise().mean().transpose();
  CHECK((cy - (c + t.translation)).norm() < 1e-14);
  const Mat3 r = rotation_xyz_deg(t.rotation_deg);
  for (Eigen::Index i = 0; i < x.rows(); i += 37) {
    const Vec3 want = c + 0.15 * r * (x.row(i).transpose() - c) + t.translation;
    CHECK((y.row(i).transpose() - want).norm() < 1e-14);
  }
  // Distances scale by s.
  CHECK((y.row(5) - y.row(100)).norm() == Approx(0.15 * (x.row(5) - x.row(100)).norm()).epsilon(1e-13));
  // Explicit pivot: the pivot maps to pivot + translation.
  Positions p(1, 3);
  p << 1, 2, 3;
  const Positions q = transformed(p, t, Vec3(1, 2, 3));
  CHECK((q.row(0).transpose() - Vec3(1.1, 1.8, 3.3)).norm() < 1e-15);
  // Identity leaves positions bit-identical.
  CHECK(transformed(x, Transform{}) == x);
}
