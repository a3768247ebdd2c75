// ParaView collection (.pvd) reader.
#pragma once

#include <string>
#include <vector>

namespace eipc {

struct PvdDataSet {
  double time = 0.0;  ///< the timestep attribute (0 when absent)
  int part = 0;       ///< the part attribute (0 when absent)
  std::string file;   ///< as given; relative to the .pvd's directory
};

/// The DataSet entries of a VTKFile type="Collection", in file order.
/// Throws InputError naming the file, line and problem.
std::vector<PvdDataSet> read_pvd(const std::string& path);

}  // namespace eipc
