// Datasets of other tools, read for certification: frame files in any format
// mesh/ reads (surface_file.hpp), laid out as mesh/frame_sequence.hpp lists them,
// split into bodies by a rule (docs/certify.md, "Inputs").
#pragma once

#include "eipc/io/trajectory.hpp"

#include <string>
#include <vector>

namespace eipc::certify {

enum class BodyRule {
  objects,     ///< OBJ objects/groups, a folder per body, .pvd parts; else the whole file
  components,  ///< each of those split into its connected components
};

/// A dataset as a trajectory, with what the report needs to speak of the files.
struct DatasetInput {
  Trajectory trajectory;  ///< frame k at its .pvd time, else at time = step = k
  bool has_times = false;  ///< the times came from the input (.pvd)
  /// Per body, the file index of each of its vertices / triangles (empty: the same index).
  std::vector<std::vector<int>> file_vertex, file_triangle;
  std::vector<std::string> notes;  ///< e.g. how STL corners were joined
};

/// Reads the sequence at `path` (a frame file, a .pvd, a directory; see
/// list_frame_sequence). Every frame must hold the same bodies with the same
/// triangles (and, for a body that is part of a file, the same file indices).
/// Throws InputError naming the file and problem.
DatasetInput read_dataset(const std::string& path, BodyRule rule = BodyRule::objects);

}  // namespace eipc::certify
