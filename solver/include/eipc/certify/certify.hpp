// `eipc certify`: exact intersection certification of stored trajectories
// (every frame; optionally the straight-line motion between frames).
// See docs/certify.md for the checks, the OBJ layout and the output.
#pragma once

#include "eipc/certify/dataset_input.hpp"
#include "eipc/certify/frame_check.hpp"
#include "eipc/certify/motion_check.hpp"
#include "eipc/certify/penetration.hpp"
#include "eipc/certify/shell_gap.hpp"
#include "eipc/io/trajectory.hpp"

#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace eipc::certify {

struct CertifyOptions {
  bool json = false;                    ///< machine-readable report
  bool continuous = false;              ///< also check the motion between consecutive frames
  std::optional<double> ground_height;  ///< overrides the trajectory's ground plane z = height
  bool no_ground = false;               ///< ignore any ground plane
  int max_examples = 10;                ///< offending pairs kept per frame / motion
  int threads = 0;                      ///< TBB threads (0 = all); results do not depend on it
  BodyRule bodies = BodyRule::objects;  ///< how a dataset's frames split into bodies
  std::string pairs_out;                ///< with continuous: write every colliding primitive pair to this CSV
};

struct FrameReport {
  int frame = 0;
  double time = 0.0;
  long step = 0;
  FrameCheck check;
  std::vector<PairPenetration> pairs;  ///< measured only when the check failed
};

/// The motion from frame `from` (time t0) to frame `to` (time t1). Its pairs' first
/// contacts are in the motion parameter s in [0, 1] (x = x_from + s (x_to - x_from)).
struct MotionReport {
  int from = 0, to = 0;
  double t0 = 0.0, t1 = 0.0;  ///< the frames' times (frame indices for datasets without times)
  MotionCheck check;
  /// [s_lo, s_hi] as frame times t0 + s (t1 - t0), rounded outward: a bracket of the same instant.
  std::array<double, 2> times_of(double s_lo, double s_hi) const;
};

/// One intersecting body pair over the whole trajectory.
struct PairSummary {
  int body_a = -1, body_b = -1;    ///< as in PairPenetration
  std::size_t frames = 0;          ///< frames in which the pair intersects
  int first_frame = -1;
  double first_time = 0.0;
  std::optional<VertexDepth> deepest;  ///< deepest vertex over all frames
  int deepest_frame = -1;
  /// Most vertices inside (a_in_b + b_in_a, or below the ground) in one frame;
  /// none where no count is defined (self pairs, two open surfaces).
  std::optional<std::size_t> max_inside;
};

struct CertifyReport {
  std::string source;
  std::vector<std::string> body_names;
  std::optional<double> ground_height;
  bool continuous = false;
  std::vector<FrameReport> frames;
  std::vector<MotionReport> motions;
  std::vector<std::string> notes;  ///< e.g. open surfaces (containment in them not tested)
  /// Shells' thicknesses (per body, 0: not a shell) and the smallest gap
  /// beyond the contact offsets, measured in floating point (none: no shell).
  std::vector<double> shell_thickness;
  std::optional<ShellGap> shell_gap;
  double seconds = 0.0;            ///< wall time of the checks
  bool has_times = true;           ///< false for datasets without times (time = frame index)
  bool si_units = true;            ///< metres and seconds (eipc trajectories); datasets have no unit

  std::size_t failed_frames() const;
  std::size_t motions_with(MotionStatus s) const;
  /// Frames with an intersecting body pair (the ground counts; degenerate triangles alone do not).
  std::size_t intersecting_frames() const;
  /// Per body pair, sorted like PairPenetration.
  std::vector<PairSummary> pair_summaries() const;
  /// Every frame clear and, with --continuous, every motion certified.
  bool all_clear() const;
  /// 0 all clear, 1 an intersection found or a motion not certified.
  int exit_code() const { return all_clear() ? 0 : 1; }
};

/// Certifies every frame of `trajectory` (and the motions with options.continuous).
/// Throws InputError on inconsistent input.
CertifyReport certify_trajectory(const Trajectory& trajectory, const CertifyOptions& options = {},
                                 const std::string& source = "");

/// Human-readable report: one line per frame, one per uncertified motion, a summary.
void print_report(const CertifyReport& report, std::ostream& out);
/// JSON report (format "eipc-certify", version 1; schema in docs/certify.md).
void print_report_json(const CertifyReport& report, std::ostream& out);

/// Certifies `path`: an eipc trajectory (.h5), or a dataset (a frame file, a .pvd
/// series, a directory of frames; dataset_input.hpp), whose report then names the
/// files' vertex and triangle indices. Throws InputError on bad input.
CertifyReport certify_input(const std::string& path, const CertifyOptions& options = {});

/// Every colliding primitive pair of every motion as CSV (columns in docs/certify.md, "--pairs-out").
void write_colliding_pairs_csv(const CertifyReport& report, std::ostream& out);

/// The whole subcommand: load, certify, print (text or JSON). Returns the exit
/// code: 0 all clear, 1 intersection / not certified, 2 bad input (message on `err`).
int certify_command(const std::string& path, const CertifyOptions& options, std::ostream& out, std::ostream& err);

}  // namespace eipc::certify
