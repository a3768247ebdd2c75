// eipc fields RUN.h5 [--certificate C.json]: point data to colour a trajectory by in ParaView
// (RUN.fields.h5, referenced from the rewritten RUN.xdmf / RUN.xdmf2; docs/trajectory-format.md).
#include "commands.hpp"
#include "eipc/common.hpp"
#include "eipc/io/trajectory_fields.hpp"
#include "eipc/io/trajectory_reader.hpp"

#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <nlohmann/json.hpp>

namespace eipc::cli {

namespace {

struct FieldsOptions {
  std::string run, certificate;
  bool no_certificate = false;
};

using nlohmann::json;

// The vertices a certificate's violation (frame check or motion pair) names.
class MarkCollector {
public:
  MarkCollector(const TrajectoryHeader& h, std::string source) : header_(h), source_(std::move(source)) {}

  void add_frame_violation(long frame, const json& v) {
    const std::string kind = v.at("kind").get<std::string>();
    if (kind == "triangle_pair") {
      add_triangle(frame, v.at("body_a"), v.at("triangle_a"));
      add_triangle(frame, v.at("body_b"), v.at("triangle_b"));
    } else if (kind == "degenerate_triangle") {
      add_triangle(frame, v.at("body"), v.at("triangle"));
    } else if (v.contains("vertex")) {  // ground, containment
      marks.push_back({frame, v.at("body").get<std::string>(), v.at("vertex").get<long>()});
    }
  }

  // A collision found along the motion from frame `from` to `to`: marked in both frames.
  void add_motion_collision(long from, long to, const json& p) {
    for (long frame : {from, to}) {
      const std::string a = p.at("body_a").get<std::string>();
      for (const char* key : {"vertex_a", "edge_a"}) {
        if (!p.contains(key)) continue;
        if (p.at(key).is_array()) {
          for (const json& v : p.at(key)) marks.push_back({frame, a, v.get<long>()});
        } else {
          marks.push_back({frame, a, p.at(key).get<long>()});
        }
      }
      for (const char* key : {"corners_b", "edge_b"}) {
        if (!p.contains(key)) continue;
        for (const json& v : p.at(key)) marks.push_back({frame, p.at("body_b").get<std::string>(), v.get<long>()});
      }
    }
  }

  std::vector<IntersectionMark> marks;

private:
  void add_triangle(long frame, const json& body, const json& triangle) {
    const std::string name = body.get<std::string>();
    const long t = triangle.get<long>();
    for (const TrajectoryBody& b : header_.bodies) {
      if (b.name != name) continue;
      if (t < 0 || t >= b.surface.rows())
        throw InputError(source_ + ": triangle " + std::to_string(t) + " of body '" + name + "' is out of range");
      for (int k = 0; k < 3; ++k) marks.push_back({frame, name, b.surface(t, k)});
      return;
    }
    throw InputError(source_ + ": unknown body '" + name + "'");
  }

  const TrajectoryHeader& header_;
  std::string source_;
};

std::vector<IntersectionMark> read_certificate_marks(const std::string& path, const TrajectoryHeader& header) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the certificate");
  MarkCollector marks(header, path);
  try {
    const json j = json::parse(in);
    if (j.value("format", "") != "eipc-certify")
      throw InputError(path + ": format: not an `eipc certify --json` report");
    for (const json& f : j.at("frames")) {
      for (const json& v : f.at("examples")) marks.add_frame_violation(f.at("frame").get<long>(), v);
    }
    for (const json& m : j.value("motions", json::array())) {
      for (const json& p : m.at("examples")) {
        if (p.value("result", "") == "collision")
          marks.add_motion_collision(m.at("from").get<long>(), m.at("to").get<long>(), p);
      }
    }
  } catch (const json::exception& e) {
    throw InputError(path + ": " + e.what());
  }
  return marks.marks;
}

int run_fields(const FieldsOptions& o) {
  namespace fs = std::filesystem;
  std::string certificate = o.certificate;
  const std::string beside = fs::path(o.run).replace_extension(".certify.json").string();
  if (certificate.empty() && !o.no_certificate && fs::exists(beside)) certificate = beside;
  std::optional<std::vector<IntersectionMark>> marks;
  if (!certificate.empty()) marks = read_certificate_marks(certificate, read_trajectory_header(o.run));
  const TrajectoryFieldsSummary s = write_trajectory_fields(o.run, marks);
  std::string arrays;
  for (const std::string& a : s.arrays) arrays += (arrays.empty() ? "" : ", ") + a;
  fmt::print("wrote {} ({} frames; point arrays {})\n", s.path, s.frames, arrays);
  if (marks) fmt::print("{} intersecting points marked from {}\n", s.marked_points, certificate);
  return 0;
}

}  // namespace

void add_fields_command(CLI::App& app) {
  auto opts = std::make_shared<FieldsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fields", "Point data for ParaView (body id, velocity, ground distance, certified intersections) into "
                "RUN.fields.h5, referenced from the rewritten RUN.xdmf / RUN.xdmf2");
  cmd->add_option("run", opts->run, "trajectory (.h5)")->required();
  cmd->add_option("--certificate", opts->certificate,
                  "`eipc certify RUN.h5 --json` report to mark intersections from "
                  "(default: RUN.certify.json if present)");
  cmd->add_flag("--no-certificate", opts->no_certificate, "do not look for RUN.certify.json");
  cmd->callback([opts] {
    if (const int code = run_fields(*opts); code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace eipc::cli
