// Point data to colour a trajectory by in ParaView, derived from the trajectory file
// (which is left untouched) into RUN.fields.h5, after which the XDMF sidecars RUN.xdmf and
// RUN.xdmf2 are rewritten to reference it (docs/trajectory-format.md, "Point data").
// Per body /bodies/<name>/: body_id [N] int32; velocity [F,N,3] float32 (central differences
// of the stored positions, one-sided at the ends); ground_distance [F,N] float32 (z minus the
// ground height; only with a ground); intersecting [F,N] int32 (only when certificate marks are
// given: 1 at the vertices of the violations the certificate reports in that frame).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace eipc {

/// A vertex that a certificate found involved in an intersection in one frame.
struct IntersectionMark {
  long frame = 0;
  std::string body;
  long vertex = 0;  ///< row of the body's positions
};

struct TrajectoryFieldsSummary {
  std::string path;        ///< the fields file written
  long frames = 0;
  std::vector<std::string> arrays;  ///< point arrays written, in XDMF order
  long marked_points = 0;  ///< (frame, vertex) pairs flagged as intersecting
};

/// RUN.fields.h5 for RUN.h5.
std::string trajectory_fields_path(const std::string& h5_path);

/// Writes the fields file (via "<path>.partial" and a rename) and rewrites both XDMF
/// sidecars. Throws InputError if the trajectory cannot be read or a mark names an unknown
/// body, a frame or a vertex out of range.
TrajectoryFieldsSummary write_trajectory_fields(const std::string& h5_path,
                                                const std::optional<std::vector<IntersectionMark>>& marks);

}  // namespace eipc
