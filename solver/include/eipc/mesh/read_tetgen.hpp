// TetGen .node/.ele reader.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// Reads a TetGen mesh given either "<base>.node" or "<base>.ele" (the other file is found
/// beside it). Points are numbered consecutively from 0 or 1 (the first point's number
/// decides); attributes and boundary markers are read past; '#' starts a comment.
/// Only 4-node tetrahedra are accepted. Throws InputError naming the file and line.
TetMesh read_tetgen(const std::string& path);

}  // namespace eipc
