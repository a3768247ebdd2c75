// eipc forces RUN.h5 [--body NAME | --pair A,B] [--out F.csv]: contact forces over time as CSV
// (docs/trajectory-format.md, "Contact forces as CSV"), from the per-pair sums the trajectory
// stores.
#include "commands.hpp"
#include "eipc/analysis/contact_force.hpp"
#include "eipc/io/csv_field.hpp"
#include "eipc/io/output_path.hpp"
#include "eipc/io/trajectory_reader.hpp"
#include "eipc/util/spelling.hpp"

#include <fmt/core.h>

#include <fstream>
#include <iostream>
#include <set>

namespace eipc::cli {

namespace {

struct ForcesOptions {
  std::string run, body, pair, out;
};

/// Index of body `name` in the trajectory, or kGroundPlane for "ground" (unless a body has
/// that name); InputError naming the file, the option and the closest body name.
int body_index(const TrajectoryReader& r, const std::string& name, const std::string& option) {
  const TrajectoryHeader& h = r.header();
  std::vector<std::string> names;
  for (std::size_t b = 0; b < h.bodies.size(); ++b) {
    if (h.bodies[b].name == name) return static_cast<int>(b);
    names.push_back(h.bodies[b].name);
  }
  if (name == "ground") {
    if (h.ground_height) return kGroundPlane;
    throw InputError(r.path() + ": " + option + ": the trajectory has no ground plane");
  }
  std::string listed;
  for (const std::string& n : names) listed += (listed.empty() ? "" : ", ") + n;
  if (h.ground_height) names.push_back("ground");
  throw InputError(r.path() + ": " + option + ": no body '" + name + "'" + did_you_mean(name, names) +
                   "; bodies: " + listed + (h.ground_height ? " (and ground)" : ""));
}

std::string body_name(const TrajectoryHeader& h, int b) {
  return b == kGroundPlane ? "ground" : h.bodies[static_cast<std::size_t>(b)].name;
}

/// One CSV row per (frame, selection): the force on `on` from `from` (or from all).
struct Selection {
  int on = 0;
  int from = kGroundPlane;
  bool from_all = false;
};

void write_header(std::ostream& out) {
  out << "frame,step,time,body,from,fx,fy,fz,norm,normal_x,normal_y,normal_z,friction_x,friction_y,friction_z,"
         "contacts\n";
}

void write_row(std::ostream& out, const TrajectoryHeader& h, long index, const Frame& frame, const Selection& s) {
  const ContactForce f = s.from_all ? force_on(frame, s.on) : force_between(frame, s.on, s.from);
  const Vec3 t = f.total();
  // {} is the shortest text that reads back as the same double.
  out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", index, frame.step, frame.time,
                     csv_field(body_name(h, s.on)), s.from_all ? "all" : csv_field(body_name(h, s.from)), t.x(),
                     t.y(), t.z(), t.norm(), f.normal.x(), f.normal.y(), f.normal.z(), f.friction.x(),
                     f.friction.y(), f.friction.z(), f.contacts);
}

void run_forces(const ForcesOptions& o) {
  const TrajectoryReader r(o.run);
  const TrajectoryHeader& h = r.header();
  std::vector<Selection> rows;
  if (!o.body.empty()) {
    rows.push_back({body_index(r, o.body, "--body"), kGroundPlane, true});
  } else if (!o.pair.empty()) {
    const std::size_t comma = o.pair.find(',');
    if (comma == std::string::npos || o.pair.find(',', comma + 1) != std::string::npos)
      throw InputError(o.run + ": --pair '" + o.pair + "': give two names A,B (the force on A from B)");
    const int a = body_index(r, o.pair.substr(0, comma), "--pair");
    const int b = body_index(r, o.pair.substr(comma + 1), "--pair");
    if (a == b)
      throw InputError(o.run + ": --pair '" + o.pair + "': names one body twice (trajectories store no self-contact force)");
    rows.push_back({a, b, false});
  }
  if (!o.out.empty()) prepare_output_file(o.out, "--out");  // before reading every frame
  std::vector<Frame> frames;  // without positions: a few numbers per frame
  for (long i = 0; i < r.frame_count(); ++i) frames.push_back(r.read_frame(i, false));
  if (o.body.empty() && o.pair.empty()) {  // every pair ever in contact, as stored: the force on its first body
    std::set<std::pair<int, int>> pairs;
    for (const Frame& f : frames)
      for (const BodyPairForce& p : f.pair_forces) pairs.insert({p.body_a, p.body_b});
    for (const auto& [a, b] : pairs) rows.push_back({a, b, false});
  }
  if (r.status() == TrajectoryStatus::incomplete)
    fmt::print(stderr, "warning: {} is incomplete ({}): forces of its {} stored frames\n", o.run, r.status_reason(),
               r.frame_count());
  std::ofstream file;
  if (!o.out.empty()) file.open(o.out);
  if (!o.out.empty() && !file) throw InputError("--out " + o.out + ": cannot write");
  std::ostream& out = o.out.empty() ? std::cout : file;
  write_header(out);
  for (std::size_t i = 0; i < frames.size(); ++i)
    for (const Selection& s : rows) write_row(out, h, static_cast<long>(i), frames[i], s);
  out.flush();
  if (!out) throw InputError((o.out.empty() ? std::string("standard output") : "--out " + o.out) + ": write failed");
  if (!o.out.empty())
    fmt::print(stderr, "wrote {} ({} frames, {} row(s) each)\n", o.out, frames.size(), rows.size());
}

}  // namespace

void add_forces_command(CLI::App& app) {
  auto opts = std::make_shared<ForcesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "forces", "Contact forces over time as CSV: on one body from all others (--body), of one pair (--pair), or "
                "every stored pair (default); docs/trajectory-format.md");
  cmd->add_option("run", opts->run, "trajectory (.h5)")->required();
  auto* body = cmd->add_option("--body", opts->body,
                               "force on this body from every other body and the ground ('ground': on the ground)");
  auto* pair = cmd->add_option("--pair", opts->pair, "A,B: force on body A from body B (B may be 'ground')");
  body->excludes(pair);
  cmd->add_option("--out", opts->out, "CSV file (default: standard output)");
  cmd->callback([opts] { run_forces(*opts); });
}

}  // namespace eipc::cli
