// The peer's identity in its trajectory: root attributes `engine`, `engine_version` and
// `engine_json` (parameters and body mapping), written into the partial file before
// TrajectoryWriter::finish renames it, so a finished file always has them.
#pragma once

#include <string>

namespace eipc::peers {

void write_engine_attributes(const std::string& partial_path, const std::string& engine, const std::string& version,
                             const std::string& engine_json);

}  // namespace eipc::peers
