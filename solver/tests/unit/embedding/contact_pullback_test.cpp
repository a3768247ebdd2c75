// ContactPullback against the dense product J^T H J for contacts on an
// embedded and a full-space body (shared nodes, weights, ground contacts).
#include "eipc/dynamics/dof_system.hpp"
#include "eipc/embedding/contact_pullback.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/surface.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace eipc;

TEST_CASE("contact blocks pulled back to nodes equal J^T H J", "[dynamics]") {
  Material m;
  const TetMesh lower = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2);
  const TetMesh upper = box_tet_mesh(Vec3(0, 0, 0.11), Vec3(0.1, 0.1, 0.2), 3, 3, 3);
  const Body a = make_full_space_body("a", lower.vertices, lower.tets, boundary_faces(lower.tets), m);
  const Body full_b = make_full_space_body("b", upper.vertices, upper.tets, boundary_faces(upper.tets), m);
  const DofSystem sys({a, embed_body(full_b, lattice_embedding(full_b.fine_rest, 12), "low", "test")});
  const ContactPullback pullback(sys.collision());
  const int nx = 3 * sys.collision().mesh().num_vertices(), nq = sys.num_dofs();
  const Eigen::MatrixXd J = Eigen::MatrixXd(sys.collision().jacobian());

  std::mt19937 rng(7);
  std::uniform_int_distribution<int> vertex(0, sys.collision().mesh().num_vertices() - 1);
  std::uniform_real_distribution<double> u(-1, 1);
  Triplets t;
  Eigen::MatrixXd Hx = Eigen::MatrixXd::Zero(nx, nx);
  for (int k = 0; k < 40; ++k) {
    const int count = k % 5 == 0 ? 1 : 4;  // ground contacts have one vertex
    std::array<int, 4> v{-1, -1, -1, -1};
    for (int i = 0; i < count; ++i) {
      do v[i] = vertex(rng);
      while (std::find(v.begin(), v.begin() + i, v[i]) != v.begin() + i);
    }
    Mat<12> local;
    for (int i = 0; i < 144; ++i) local.data()[i] = u(rng);
    local = (local + local.transpose()).eval();
    const double scale = 3.0;
    pullback.append(v, count, local, scale, t);
    for (int i = 0; i < count; ++i)
      for (int j = 0; j < count; ++j) Hx.block<3, 3>(3 * v[i], 3 * v[j]) += scale * local.block<3, 3>(3 * i, 3 * j);
  }
  SparseMatrix Hq(nq, nq);
  Hq.setFromTriplets(t.begin(), t.end());
  const Eigen::MatrixXd expected = J.transpose() * Hx * J;
  CHECK((Eigen::MatrixXd(Hq) - expected).norm() <= 1e-12 * expected.norm());
  CHECK(expected.norm() > 1.0);
}
