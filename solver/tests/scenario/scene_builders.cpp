#include "scene_builders.hpp"

#include "eipc/certify/exact_tests.hpp"
#include "eipc/certify/frame_check.hpp"
#include "eipc/mesh/primitives.hpp"
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

Vec3 body_centroid(const Simulator& sim, int body) {
  return sim.fine_positions()[body].colwise().mean().transpose();
}

bool intersection_free(const Simulator& sim) {
  const std::vector<Positions> x = sim.fine_positions();
  const std::vector<Body>& bodies = sim.system().bodies();
  std::vector<certify::BodyState> states;
  for (std::size_t b = 0; b < bodies.size(); ++b)
    states.push_back({&x[b], &bodies[b].surface, certify::is_closed_surface(bodies[b].surface)});
  return certify::check_frame(states, sim.params().ground_height).ok();
}

}  // namespace eipc::test
