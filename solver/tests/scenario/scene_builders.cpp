#include "scene_builders.hpp"

#include "eipc/certify/state_check.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/surface.hpp"

namespace eipc::test {

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
