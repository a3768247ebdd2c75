#include "scene_builders.hpp"

#include "eipc/certify/state_check.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/surface.hpp"

namespace eipc::test {

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

Material material(ElasticModel model, double youngs, double poisson, double density) {
  Material m;
  m.model = model;
  m.youngs = youngs;
  m.poisson = poisson;
  m.density = density;
  return m;
}

Body make_box(const std::string& name, const Vec3& lo, const Vec3& hi, int n, const Material& material) {
  const TetMesh mesh = box_tet_mesh(lo, hi, n, n, n);
  return make_full_space_body(name, mesh.vertices, mesh.tets, boundary_faces(mesh.tets), material);
}

Body make_kinematic_box(const std::string& name, const Vec3& lo, const Vec3& hi, Motion motion) {
  Body b = make_box(name, lo, hi, 1, material(ElasticModel::linear_corotated, 1e6, 0.3, 1000));
  b.kinematic = true;
  b.motion = std::move(motion);
  return b;
}

Vec3 body_centroid(const TimeStepper& sim, int body) {
  return sim.fine_positions()[body].colwise().mean().transpose();
}

bool intersection_free(const TimeStepper& sim) { return certify::check_stepper_state(sim).ok(); }

}  // namespace eipc::test
