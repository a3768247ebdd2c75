// Internal: text and JSON of the per-pair penetration measurements (used by report.cpp).
#pragma once

#include "eipc/certify/certify.hpp"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

namespace eipc::certify::pair_report {

/// "1 body", "3 bodies".
std::string count(std::size_t n, const std::string& one, const std::string& many);

/// A frame time: "0.24 s" for eipc trajectories, "0.24" for a .pvd's timesteps (no unit).
std::string time_text(const CertifyReport& r, double time);

/// "frame 12  t = 0.24 s" (eipc trajectories) or "frame 12" (OBJ frames have no times).
std::string frame_label(const CertifyReport& r, int frame, double time);

/// One indented line per intersecting pair of a frame.
void print_frame_pairs(const CertifyReport& r, const FrameReport& f, std::ostream& out);
/// The per-pair summary block (nothing when no frame intersects).
void print_summaries(const CertifyReport& r, std::ostream& out);

nlohmann::json frame_pairs_json(const CertifyReport& r, const FrameReport& f);
/// The summary fields: intersecting_frames, first_intersection_frame/time, max_depth, pairs.
nlohmann::json summary_json(const CertifyReport& r);

}  // namespace eipc::certify::pair_report
