// HDF5 trajectory reader with per-frame access (docs/design.md §5, docs/trajectory-format.md).
// Opening validates the whole layout (format, version, status, every dataset's
// presence, shape and index ranges); any problem is an eipc::InputError naming the file
// and the dataset or attribute. Frames are read on demand, so big files are never
// loaded whole unless asked to.
#pragma once

#include "eipc/io/trajectory.hpp"

#include <memory>
#include <string>

namespace eipc {

class TrajectoryReader {
public:
  explicit TrajectoryReader(const std::string& path);
  ~TrajectoryReader();
  TrajectoryReader(TrajectoryReader&&) noexcept;
  TrajectoryReader& operator=(TrajectoryReader&&) noexcept;

  const std::string& path() const;
  const TrajectoryHeader& header() const;
  TrajectoryStatus status() const;
  const std::string& status_reason() const;  ///< empty for complete files
  long frame_count() const;

  /// Frame `index` in [0, frame_count()). Pair forces come sorted by (body_a, body_b)
  /// and only for pairs with a non-zero force or pair count in that frame. Without
  /// `positions` the frame's positions are left empty (reading forces or statistics
  /// of a long run then costs no vertex data).
  Frame read_frame(long index, bool positions = true) const;
  /// Header, every frame, status and reason.
  Trajectory read_all() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Whole file in memory.
Trajectory read_trajectory(const std::string& path);
/// Header only (still validates the whole layout).
TrajectoryHeader read_trajectory_header(const std::string& path);
/// One frame; prefer a TrajectoryReader to read many.
Frame read_frame(const std::string& path, long index);

}  // namespace eipc
