// Trajectory files: HDF5 writer, reader and XDMF sidecar (DESIGN §5).
// The schema is documented in docs/trajectory-format.md.
#pragma once

#include "eipc/io/trajectory.hpp"
#include "eipc/io/trajectory_check.hpp"
#include "eipc/io/trajectory_reader.hpp"
#include "eipc/io/trajectory_schema.hpp"
#include "eipc/io/trajectory_writer.hpp"
#include "eipc/io/trajectory_xdmf.hpp"
