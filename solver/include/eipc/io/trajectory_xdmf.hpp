// XDMF sidecars of a trajectory file, so ParaView opens the surface-mesh time series
// (docs/trajectory-format.md, "XDMF sidecars"). ParaView 5.11's readers disagree on how a
// frame's slice of /bodies/<name>/positions [F,N,3] is written, so there are two files:
//  - RUN.xdmf  (XDMF 3, for Xdmf3ReaderS, ParaView's default, and Xdmf3ReaderT): a temporal
//    collection of unnamed spatial collections, one per frame, holding one Grid per body;
//    frame slices use XDMF 3's inline hyperslab "file:/path|start:stride:count:dims".
//  - RUN.xdmf2 (for the legacy XDMFReader, the only reader ParaView offers for .xdmf2): a
//    spatial collection of one temporal collection per body; frame slices use the
//    HyperSlab DataItem wrapper, the form that reader understands.
// Either way a body's block keeps the body's name at every time. Bodies without surface
// triangles are skipped. Point arrays to colour by can come from a second HDF5 file
// (RUN.fields.h5, see trajectory_fields.hpp).
#pragma once

#include "eipc/io/trajectory.hpp"

#include <string>
#include <utility>
#include <vector>

namespace eipc {

enum class XdmfFlavour { xdmf3, legacy };

/// One point array per body, read from dataset /bodies/<body>/<name> of the fields file.
struct XdmfPointArray {
  std::string name;
  int components = 1;       ///< 1 (scalar) or 3 (vector)
  bool per_frame = false;   ///< shape [F, N(, 3)]; else [N(, 3)], the same at every time
  bool integer = false;     ///< int32, else float32
};

struct XdmfFields {
  std::string file;  ///< how the XDMF refers to the fields file (its file name); empty: none
  std::vector<XdmfPointArray> arrays;
};

/// `h5_file` is how the XDMF refers to the HDF5 file (normally its file name, so the
/// files can be moved together); `times` holds one time per stored frame.
std::string trajectory_xdmf(const TrajectoryHeader& header, const std::vector<double>& times,
                            const std::string& h5_file, XdmfFlavour flavour = XdmfFlavour::xdmf3,
                            const XdmfFields& fields = {});

/// Sidecar path of a trajectory: the same path with extension ".xdmf" (or ".xdmf2").
std::string trajectory_xdmf_path(const std::string& h5_path, XdmfFlavour flavour = XdmfFlavour::xdmf3);

/// Writes both sidecars next to `h5_path` (each via "<path>.partial" and a rename).
void write_trajectory_xdmf_sidecars(const TrajectoryHeader& header, const std::vector<double>& times,
                                    const std::string& h5_path, const XdmfFields& fields = {});
/// The first half of that: both sidecars written (and synced) to their
/// "<path>.partial" files; returns the (partial, path) renames still to do.
std::vector<std::pair<std::string, std::string>> write_trajectory_xdmf_partials(
    const TrajectoryHeader& header, const std::vector<double>& times, const std::string& h5_path,
    const XdmfFields& fields = {});

}  // namespace eipc
