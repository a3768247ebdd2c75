// Converging the lagged friction inside a step (IPC's friction iterations):
// how much the lagged normal forces moved between two rounds.
#pragma once

#include "eipc/friction/friction_set.hpp"

namespace eipc {

/// max_k |lambda_k(after) - lambda_k(before)| / max_k lambda_k(after), with
/// contacts matched by kind and vertices; a contact in only one of the sets
/// counts with its whole normal force. 0 when neither set has a normal force.
double relative_normal_force_change(const FrictionSet& before, const FrictionSet& after);

}  // namespace eipc
