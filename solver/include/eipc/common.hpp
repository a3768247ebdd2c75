// Basic types shared by every part of the solver.
#pragma once

#include <Eigen/Core>
#include <stdexcept>
#include <string>

namespace eipc {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
template <int N> using Vec = Eigen::Matrix<double, N, 1>;
template <int N> using Mat = Eigen::Matrix<double, N, N>;

/// Vertex positions, one row per vertex.
using Positions = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
/// Element index lists, one row per element.
using Tets = Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>;
using Tris = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;
using Edges = Eigen::Matrix<int, Eigen::Dynamic, 2, Eigen::RowMajor>;

/// Bad input (file, mesh, scene, command line). The message names the source
/// (file or field) and the problem; the CLI maps it to exit code 2.
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Stacked 3N vector view of a Positions matrix (row-major, so x0 y0 z0 x1 ...).
inline Eigen::Map<VecX> flat(Positions& x) { return {x.data(), x.size()}; }
inline Eigen::Map<const VecX> flat(const Positions& x) { return {x.data(), x.size()}; }

}  // namespace eipc
