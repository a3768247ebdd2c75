// Trajectory files: HDF5 writer, reader and XDMF sidecar (docs/design.md §5).
// The schema is documented in docs/trajectory-format.md.
// Debian's HDF5 is the serial, non-thread-safe build: call the writer and reader from
// one thread at a time (simulation threads hand finished frames to one writer).
#pragma once

#include "eipc/io/trajectory.hpp"
#include "eipc/io/trajectory_check.hpp"
#include "eipc/io/trajectory_reader.hpp"
#include "eipc/io/trajectory_schema.hpp"
#include "eipc/io/trajectory_writer.hpp"
#include "eipc/io/trajectory_xdmf.hpp"
