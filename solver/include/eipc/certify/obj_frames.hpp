// Reading datasets of other tools for certification: Wavefront OBJ surfaces,
// one file per frame (layout documented in docs/certify.md). Self-contained
// on purpose (the mesh/ readers are a separate concern).
#pragma once

#include "eipc/common.hpp"
#include "eipc/io/trajectory.hpp"

#include <istream>
#include <string>
#include <vector>

namespace eipc::certify {

/// A surface body read from an OBJ file: the vertices its faces use (in
/// file order) and its triangles (polygons fan-triangulated).
struct ObjBody {
  std::string name;
  Positions x;
  Tris faces;
};

/// Parses OBJ text. Bodies are the `o` objects if the file has any, else the
/// `g` groups; faces before the first one belong to a body named `default_name`.
/// Bodies without faces are dropped. Throws InputError naming `source` and the line.
std::vector<ObjBody> parse_obj(std::istream& in, const std::string& source, const std::string& default_name);

/// parse_obj on a file (default body name: the file's stem).
std::vector<ObjBody> read_obj(const std::string& path);

/// A certifiable trajectory from OBJ frames:
/// - `path` is a directory holding *.obj files: one frame per file, bodies are
///   the objects/groups inside, matched by name across frames;
/// - `path` is a directory of subdirectories: one body per subdirectory (its
///   name), each holding one *.obj per frame;
/// - `path` is one .obj file: a single frame.
/// Files are ordered by name with digit runs compared as numbers. Frame k gets
/// time = step = k (dt = 1). Every body must keep its triangles across frames.
Trajectory read_obj_frames(const std::string& path);

/// Natural order of file names: "f2.obj" < "f10.obj".
bool natural_less(const std::string& a, const std::string& b);

}  // namespace eipc::certify
