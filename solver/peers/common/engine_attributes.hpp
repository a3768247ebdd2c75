// The peer's identity in its trajectory: root attributes `engine`, `engine_version` and
// `engine_json` (parameters and body mapping), written into the partial file before
// TrajectoryWriter::finish renames it, so a finished file always has them.
#pragma once

#include <string>

namespace eipc::peers {

/// Root attributes of a peer's trajectory (docs/trajectory-format.md, docs/peers.md).
inline constexpr const char* engine_attribute = "engine";
inline constexpr const char* engine_version_attribute = "engine_version";
inline constexpr const char* engine_json_attribute = "engine_json";

void write_engine_attributes(const std::string& partial_path, const std::string& engine, const std::string& version,
                             const std::string& engine_json);

}  // namespace eipc::peers
