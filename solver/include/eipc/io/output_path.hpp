// Output paths checked before any work: a run that cannot store its result
// should fail at once with a message (exit 2), not after the simulation.
#pragma once

#include <string>

namespace eipc {

/// `path` will be written as a file: it must not name a directory (or end in '/');
/// missing parent directories are created. Throws InputError naming `option`
/// (e.g. "--out") and the problem.
void prepare_output_file(const std::string& path, const std::string& option);

/// `dir` will hold output files: created if missing, and a file can be made in it.
/// Throws InputError naming `option` and the problem.
void prepare_output_directory(const std::string& dir, const std::string& option);

}  // namespace eipc
