// Contact-patch nodes (contact_patch.hpp): with the stiffness coarsened onto the
// embedding's nodes and the patch, the patch answers forces exactly as the fine
// mesh does, since the coarse nodes are free and so impose nothing.
#include "eipc/elasticity/elastic_body.hpp"
#include "eipc/embedding/coarsened_stiffness.hpp"
#include "eipc/embedding/contact_patch.hpp"
#include "eipc/testing/box_mesh.hpp"

#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>
#include <random>

using namespace eipc;

namespace {

const Material kRubber{ElasticModel::linear_corotated, 5e4, 0.45, 1000};
const Vec3 kLo(0, 0, 0), kHi(0.04, 0.03, 0.02);

MatX fine_stiffness(const TetMesh& m) {
  std::vector<Eigen::Triplet<double>> t;
  ElasticBody(m.vertices, m.tets, kRubber).add_hessian_triplets(m.vertices, t, 0, false);
  Eigen::SparseMatrix<double> K(3 * m.vertices.rows(), 3 * m.vertices.rows());
  K.setFromTriplets(t.begin(), t.end());
  return MatX(K);
}

/// Rigid motions of `points` (columns, 3 v + i rows).
MatX rigid_modes(const Positions& points) {
  const Vec3 c = points.colwise().mean().transpose();
  MatX R = MatX::Zero(3 * points.rows(), 6);
  for (Eigen::Index v = 0; v < points.rows(); ++v)
    for (int k = 0; k < 3; ++k) {
      R(3 * v + k, k) = 1.0;
      R.block<3, 1>(3 * v, 3 + k) = Vec3::Unit(k).cross(points.row(v).transpose() - c);
    }
  return R;
}

/// `v` without its least-squares rigid part.
VecX without_rigid(const VecX& v, const MatX& R) { return v - R * R.colPivHouseholderQr().solve(v); }

/// K x = f for a balanced f: the solution orthogonal to K's null space (the rigid motions).
VecX compliance(const MatX& K, const VecX& f) {
  Eigen::SelfAdjointEigenSolver<MatX> eig(K);
  const double cut = 1e-10 * eig.eigenvalues().cwiseAbs().maxCoeff();
  VecX x = VecX::Zero(f.size());
  for (Eigen::Index k = 0; k < K.rows(); ++k)
    if (eig.eigenvalues()[k] > cut) x += eig.eigenvectors().col(k) * (eig.eigenvectors().col(k).dot(f) / eig.eigenvalues()[k]);
  return x;
}

std::vector<int> top_face(const Positions& x) {
  std::vector<int> top;
  for (Eigen::Index v = 0; v < x.rows(); ++v)
    if (x(v, 2) > kHi.z() - 1e-12) top.push_back(static_cast<int>(v));
  return top;
}

/// Balanced random forces on the patch vertices, scattered into `dofs` rows at `rows_of`.
VecX scatter(const VecX& patch_force, const std::vector<int>& rows_of, Eigen::Index dofs) {
  VecX f = VecX::Zero(dofs);
  for (std::size_t k = 0; k < rows_of.size(); ++k) f.segment<3>(3 * rows_of[k]) = patch_force.segment<3>(3 * k);
  return f;
}

/// How far the patch's displacement under balanced forces is from the fine mesh's,
/// relative (rigid parts removed): the embedding `nodes`, coarsened from `fine`.
double patch_response_error(const SimulationNodes& nodes, const MatX& Kc, const TetMesh& fine,
                            const std::vector<int>& fine_rows_of_patch, const std::vector<int>& node_rows_of_patch) {
  Positions patch_rest(static_cast<Eigen::Index>(fine_rows_of_patch.size()), 3);
  for (std::size_t k = 0; k < fine_rows_of_patch.size(); ++k) patch_rest.row(k) = fine.vertices.row(fine_rows_of_patch[k]);
  const MatX R = rigid_modes(patch_rest);
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  VecX force(3 * patch_rest.rows());
  for (Eigen::Index i = 0; i < force.size(); ++i) force[i] = normal(rng);
  force = without_rigid(force, R);  // balanced: no net force or moment

  const VecX u = compliance(fine_stiffness(fine), scatter(force, fine_rows_of_patch, 3 * fine.vertices.rows()));
  VecX u_patch(force.size()), x_patch(force.size());
  for (std::size_t k = 0; k < fine_rows_of_patch.size(); ++k) u_patch.segment<3>(3 * k) = u.segment<3>(3 * fine_rows_of_patch[k]);
  // Forces at the patch vertices act on the nodes through the map (J^T f); the
  // vertices then move by J q.
  VecX f_nodes = VecX::Zero(3 * nodes.num_nodes());
  for (std::size_t k = 0; k < node_rows_of_patch.size(); ++k) {
    const int v = node_rows_of_patch[k];
    for (int j = 0; j < 4; ++j)
      f_nodes.segment<3>(3 * nodes.fine_map.nodes(v, j)) += nodes.fine_map.weights(v, j) * force.segment<3>(3 * k);
  }
  const VecX q = compliance(Kc, f_nodes);
  for (std::size_t k = 0; k < node_rows_of_patch.size(); ++k) {
    const int v = node_rows_of_patch[k];
    Vec3 x = Vec3::Zero();
    for (int j = 0; j < 4; ++j) x += nodes.fine_map.weights(v, j) * q.segment<3>(3 * nodes.fine_map.nodes(v, j));
    x_patch.segment<3>(3 * k) = x;
  }
  const VecX du = without_rigid(x_patch - u_patch, R);
  return du.norm() / without_rigid(u_patch, R).norm();
}

}  // namespace

TEST_CASE("contact patch: the patch answers forces as the fine mesh does; without it the fit does not", "[embedding]") {
  const TetMesh fine = box_tet_mesh(kLo, kHi, 4, 3, 2);
  const std::vector<int> top = top_face(fine.vertices);
  REQUIRE(top.size() == 20);

  SimulationNodes plain = embed_mesh(fine.vertices, fine.tets, enclosing_tet(fine.vertices), "box", "test");
  SimulationNodes patched = plain;
  add_contact_patch(patched, fine.vertices, top);
  REQUIRE(patched.num_nodes() == 4 + 20);
  REQUIRE(patched.patch_vertices == top);
  // Each patch vertex is its own node, at its rest position, in no affine patch.
  CHECK(patched.fine_map.apply(patched.node_rest).isApprox(fine.vertices, 1e-12));
  CHECK(patched.fine_map.nodes(top[3], 0) == 4 + 3);
  CHECK(patched.fine_map.nodes(top[3], 3) == 4 + 3);

  const MatX Kc = coarsened_stiffness(fine.vertices, fine.tets, patched.fine_map, patched.num_nodes(), kRubber, "test");
  CHECK(patch_response_error(patched, Kc, fine, top, top) < 1e-7);
  const MatX Kc_plain = coarsened_stiffness(fine.vertices, fine.tets, plain.fine_map, plain.num_nodes(), kRubber, "test");
  CHECK(patch_response_error(plain, Kc_plain, fine, top, top) > 0.3);
}

TEST_CASE("contact patch coarsened from a finer mesh: bound at its coincident vertices, exact there", "[embedding]") {
  const TetMesh body = box_tet_mesh(kLo, kHi, 2, 2, 1);
  const TetMesh finer = box_tet_mesh(kLo, kHi, 4, 4, 2);  // holds every vertex of `body`
  const std::vector<int> top = top_face(body.vertices);
  SimulationNodes nodes = embed_mesh(body.vertices, body.tets, enclosing_tet(body.vertices), "box", "test");
  add_contact_patch(nodes, body.vertices, top);
  NodeMap to_nodes = locate_in_nodes(nodes, finer.vertices);
  bind_contact_patch(to_nodes, finer.vertices, nodes, body.vertices, "finer.msh");
  std::vector<int> finer_rows;  // the finer vertex at each patch vertex
  for (const int v : top) {
    Eigen::Index nearest;
    (finer.vertices.rowwise() - body.vertices.row(v)).rowwise().squaredNorm().minCoeff(&nearest);
    finer_rows.push_back(static_cast<int>(nearest));
    CHECK(to_nodes.nodes(nearest, 0) == nodes.num_nodes() - static_cast<int>(top.size()) + static_cast<int>(finer_rows.size()) - 1);
  }
  const MatX Kc = coarsened_stiffness(finer.vertices, finer.tets, to_nodes, nodes.num_nodes(), kRubber, "finer.msh");
  CHECK(patch_response_error(nodes, Kc, finer, finer_rows, top) < 1e-7);

  TetMesh shifted = finer;
  shifted.vertices.col(0).array() += 1e-4;
  NodeMap shifted_map = locate_in_nodes(nodes, shifted.vertices);
  CHECK_THROWS_WITH(bind_contact_patch(shifted_map, shifted.vertices, nodes, body.vertices, "finer.msh"),
                    Catch::Matchers::Contains("finer.msh: contact-patch vertex") &&
                        Catch::Matchers::Contains("has no vertex of this finer mesh at its rest position"));
}

TEST_CASE("contact patch: the trajectory's weights are rest barycentric weights in the element", "[embedding]") {
  const TetMesh body = box_tet_mesh(kLo, kHi, 2, 2, 1);
  SimulationNodes nodes = embed_mesh(body.vertices, body.tets, enclosing_tet(body.vertices), "box", "test");
  const auto before = nodes.fine_map.weights;
  add_contact_patch(nodes, body.vertices, top_face(body.vertices));
  CHECK(element_weights(nodes, body.vertices).isApprox(before, 1e-12));
  // The rotation fit ignores the patch nodes and sums to zero.
  const Positions fit = embedding_rotation_fit(nodes);
  CHECK(fit.bottomRows(static_cast<Eigen::Index>(nodes.patch_vertices.size())).isZero(0.0));
  CHECK(fit.colwise().sum().norm() < 1e-15);
}
