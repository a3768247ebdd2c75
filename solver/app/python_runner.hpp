// Running the project's Python scripts (plots, reports) from the eipc binary.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace eipc::cli {

/// An interpreter that can import every module in `modules`: $EIPC_PYTHON if set, else
/// Debian's /usr/bin/python3 (the one with matplotlib/h5py on these machines), else the
/// first python3 on PATH. Empty if none can; `tried` lists what was tried.
std::optional<std::string> find_python(const std::vector<std::string>& modules, std::vector<std::string>& tried);

/// The analysis/ script `name`: in the source tree this binary was built from, else in
/// <exe dir>/analysis or <exe dir>/../share/eipc/analysis. Empty if not found.
std::optional<std::string> find_analysis_script(const std::string& name);

/// Runs `argv` (argv[0] is the program path) with stdout/stderr inherited; returns its exit
/// code, or 128 + signal if it was killed.
int run_program(const std::vector<std::string>& argv, bool quiet = false);

}  // namespace eipc::cli
