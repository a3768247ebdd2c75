// The files of a dataset's frame sequence: which file holds which frame (and
// which body, where the layout says so), in order, with times where the input
// has them. Reading the files is read_surface_file's job (surface_file.hpp);
// a dataset runner lists a sequence once and reads its frames one by one.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace eipc {

struct FrameSequence {
  std::string name;  ///< directory name, or the .pvd's / single file's stem
  /// Each frame is read from one file per part; part_names[p] names the surfaces
  /// of part p that have no name of their own (all but OBJ objects and groups).
  std::vector<std::string> part_names;
  /// A folder per body: each part's file is one body (its surfaces merged).
  bool part_is_body = false;
  std::vector<std::vector<std::string>> files;  ///< files[frame][part]
  std::optional<std::vector<double>> times;     ///< from a .pvd; else frame k is at k
};

/// Lists `path`:
/// - a frame file (.obj .ply .stl .vtk .vtu .vtp): one frame;
/// - a ParaView .pvd collection: its DataSets by timestep (times kept), several
///   parts of one timestep are the frame's parts;
/// - a directory holding one .pvd: that series (several: an error);
/// - a directory of frame files (one format): one frame per file;
/// - a directory of directories of frame files: a folder per body, each with one
///   file per frame (all must hold the same number).
/// Files are ordered by name with digit runs compared as numbers. Throws
/// InputError naming the path and problem (nothing to read, mixed formats, ...).
FrameSequence list_frame_sequence(const std::string& path);

/// Natural order of file names: "f2.obj" < "f10.obj".
bool natural_less(const std::string& a, const std::string& b);

}  // namespace eipc
