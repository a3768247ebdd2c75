// A dataset's report in the files' own vertex and triangle numbers.
#pragma once

#include "eipc/certify/certify.hpp"
#include "eipc/certify/dataset_input.hpp"

#include <nlohmann/json_fwd.hpp>

namespace eipc::certify {

/// Replaces the body-local vertex and triangle indices of `report` (examples,
/// deepest vertices, motion pairs) by the file indices `input` recorded.
void use_file_indices(CertifyReport& report, const DatasetInput& input);

/// The inverse, for a saved report: `report` (`eipc certify --json` of the dataset `input`
/// was read from, with the same body rule) with every file index replaced by the row of
/// `input.trajectory`'s body, as `eipc certify` reports the converted trajectory (eipc
/// convert, docs/render.md). Throws InputError naming `source` (the report's file) where
/// the report's bodies, frames or indices are not those of `input`.
nlohmann::json use_trajectory_indices(nlohmann::json report, const DatasetInput& input, const std::string& source);

}  // namespace eipc::certify
