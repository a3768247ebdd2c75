// A dataset's report in the files' own vertex and triangle numbers.
#pragma once

#include "eipc/certify/certify.hpp"
#include "eipc/certify/dataset_input.hpp"

namespace eipc::certify {

/// Replaces the body-local vertex and triangle indices of `report` (examples,
/// deepest vertices, motion pairs) by the file indices `input` recorded.
void use_file_indices(CertifyReport& report, const DatasetInput& input);

}  // namespace eipc::certify
