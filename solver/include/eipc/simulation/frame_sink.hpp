// Where a Simulation sends its stored frames: a trajectory file, or anything
// else that wants the frames as they are made.
#pragma once

#include "eipc/io/trajectory_writer.hpp"

#include <string>

namespace eipc {

class FrameSink {
public:
  virtual ~FrameSink() = default;
  /// One stored frame (frame 0 is the initial state).
  virtual void append(const Frame& frame) = 0;
  /// The run ended: complete, or incomplete with the reason.
  virtual void finish(TrajectoryStatus status, const std::string& reason) = 0;
};

/// Writes the frames to an HDF5 trajectory (and its XDMF sidecar) as they come.
class TrajectorySink : public FrameSink {
public:
  TrajectorySink(const std::string& path, const TrajectoryHeader& header) : writer_(path, header) {}
  void append(const Frame& frame) override { writer_.append(frame); }
  void finish(TrajectoryStatus status, const std::string& reason) override { writer_.finish(status, reason); }
  const std::string& path() const { return writer_.path(); }

private:
  TrajectoryWriter writer_;
};

}  // namespace eipc
