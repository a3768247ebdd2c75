// XDMF 3 sidecar of a trajectory file, so ParaView opens the surface-mesh time series:
// a temporal collection with one spatial collection per stored frame, holding one
// uniform Grid per body (Topology = its surface triangles, Geometry = the frame's
// hyperslab of /bodies/<name>/positions). Bodies without surface triangles are skipped.
#pragma once

#include "eipc/io/trajectory.hpp"

#include <string>
#include <vector>

namespace eipc {

/// `h5_file` is how the XDMF refers to the HDF5 file (normally its file name, so the
/// pair can be moved together); `times` holds one time per stored frame.
std::string trajectory_xdmf(const TrajectoryHeader& header, const std::vector<double>& times,
                            const std::string& h5_file);

/// Sidecar path of a trajectory: the same path with extension ".xdmf".
std::string trajectory_xdmf_path(const std::string& h5_path);

}  // namespace eipc
