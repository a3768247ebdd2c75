// Contact Hessian blocks pulled back from collision vertices to simulation
// nodes, one contact at a time: J_c^T H_c J_c, with J_c the rows of x = J q for
// the contact's vertices restricted to the nodes they depend on. An embedded
// contact's vertices usually share most of their nodes, so its block is small;
// for a full-space body (J = I) it is the contact block itself.
#pragma once

#include "eipc/dynamics/dof_system.hpp"

#include <array>
#include <vector>

namespace eipc {

class ContactPullback {
public:
  explicit ContactPullback(const DofSystem& system);

  /// Appends scale * J_c^T local J_c as triplets on the 3 Nq node DOFs, for a
  /// contact on collision vertices vertices[0 .. count) (local is 3 count square).
  void append(const std::array<int, 4>& vertices, int count, const Mat<12>& local, double scale,
              Triplets& out) const;

private:
  struct NodeWeight {
    int node = 0;
    double weight = 0.0;
  };
  std::vector<std::array<NodeWeight, 4>> weights_;  ///< per collision vertex, by increasing node
  std::vector<int> count_;                          ///< used entries of weights_
};

}  // namespace eipc
