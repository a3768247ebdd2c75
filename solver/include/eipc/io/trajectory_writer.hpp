// Streaming HDF5 trajectory writer (docs/design.md §5, schema in docs/trajectory-format.md).
//
// Life cycle of the files on disk:
//   constructor   creates "<path>.partial" with the header; nothing at <path> yet
//   append()      adds one frame: buffered, written to the partial file every 64 frames,
//                 and written and flushed to disk at most `flush_seconds` of wall time
//                 after the previous flush (for watching a run); each batch is written by
//                 a background thread while the caller goes on; finish() writes the rest
//   finish(s, r)  writes status s (and reason r), closes, renames "<path>.partial" to
//                 <path> atomically and writes the XDMF sidecars (<path> with extensions .xdmf and .xdmf2)
//   no finish     (hard kill, or the writer destroyed by an exception) leaves only the
//                 partial file, which has no "status" attribute and is rejected by the reader.
// A run that fails in a controlled way calls finish(incomplete, reason): its trajectory so
// far is kept at <path> and reads fine, reporting status and reason.
#pragma once

#include "eipc/io/trajectory.hpp"

#include <memory>
#include <string>

namespace eipc {

struct TrajectoryWriterOptions {
  /// Flush the HDF5 file at the first append this long (wall time) after the last
  /// flush; 0: after every frame. (A flush per frame was 3% of a fast run.)
  double flush_seconds = 1.0;
  bool write_xdmf = true;  ///< write the ParaView sidecars (.xdmf, .xdmf2) at finish()
};

/// "<path>.partial": where a trajectory lives until finish() renames it.
std::string trajectory_partial_path(const std::string& path);

class TrajectoryWriter {
public:
  /// Creates the partial file and writes the header. Throws InputError if the header is
  /// inconsistent (body names, index ranges, embedding shapes), std::runtime_error if the
  /// file cannot be created.
  TrajectoryWriter(const std::string& path, const TrajectoryHeader& header,
                   TrajectoryWriterOptions options = {});
  /// Without finish(): closes the partial file and leaves it under its partial name.
  ~TrajectoryWriter();
  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  /// Appends one frame. Throws std::invalid_argument if the frame does not match the
  /// header (body count, vertex counts, pair body indices, duplicate pairs, step not
  /// increasing) and std::logic_error after finish(); std::runtime_error when an earlier
  /// batch's write failed (also from finish()). Pair-force entries whose forces and
  /// pair count are all zero carry no information and are not stored.
  void append(const Frame& frame);

  /// Marks the file complete or incomplete (with a reason), closes it and renames it to
  /// the final path. Further calls throw std::logic_error.
  void finish(TrajectoryStatus status, const std::string& reason = "");

  /// Frames appended so far (written or still buffered).
  long frames_written() const;
  const std::string& path() const;
  const std::string& partial_path() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eipc
