// eipc convert INPUT --out RUN.h5 [--bodies objects|components] [--certificate C.json]: a dataset
// that `eipc certify` reads (frame file, .pvd series, directory of frames) as an eipc trajectory,
// read by certify's own dataset reader and written by the trajectory writer every engine uses, so
// analysis/render, eipc fields and ParaView draw it (docs/render.md, "Datasets").
#include "commands.hpp"
#include "eipc/certify/dataset_input.hpp"
#include "eipc/certify/file_indices.hpp"
#include "eipc/io/output_path.hpp"
#include "eipc/io/trajectory_writer.hpp"

#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace eipc::cli {

namespace {

using nlohmann::json;

struct ConvertOptions {
  std::string input, out, certificate;
  certify::BodyRule bodies = certify::BodyRule::objects;
  bool json = false;
};

json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the certificate");
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw InputError(path + ": " + e.what());
  }
}

void run_convert(const ConvertOptions& o) {
  namespace fs = std::filesystem;
  if (fs::path(o.out).extension() != ".h5")
    throw InputError("--out " + o.out + ": a trajectory is an HDF5 file; give a name ending in .h5");
  if (fs::path(o.input).extension() == ".h5")
    throw InputError(o.input + ": already an eipc trajectory (convert reads frame files, .pvd series and "
                               "directories of frames)");
  // The certificate in the trajectory's indices, beside it: where render and fields look.
  const std::string certificate_out = fs::path(o.out).replace_extension(".certify.json").string();
  std::error_code ec;
  if (!o.certificate.empty() && fs::weakly_canonical(certificate_out, ec) == fs::weakly_canonical(o.certificate, ec))
    throw InputError("--out " + o.out + ": its certificate " + certificate_out + " would replace " + o.certificate +
                     " (the dataset's, in the files' indices); give --out another name or directory");
  prepare_output_file(o.out, "--out");
  const certify::DatasetInput input = certify::read_dataset(o.input, o.bodies);
  json certificate;
  TrajectoryHeader header = input.trajectory.header;
  header.code_version = EIPC_VERSION;
  if (!o.certificate.empty()) {
    certificate = certify::use_trajectory_indices(read_json(o.certificate), input, o.certificate);
    certificate["dataset_source"] = certificate.value("source", "");
    certificate["dataset_certificate"] = o.certificate;
    certificate["source"] = o.out;
    // A plane the certificate checked against (certify --ground) is drawn with the bodies.
    if (certificate.contains("ground_height") && certificate.at("ground_height").is_number())
      header.ground_height = certificate.at("ground_height").get<double>();
  }
  TrajectoryWriter writer(o.out, header);
  for (const Frame& f : input.trajectory.frames) writer.append(f);
  writer.finish(TrajectoryStatus::complete);
  if (!o.certificate.empty()) {
    std::ofstream c(certificate_out);
    c << certificate.dump(2) << "\n";
    if (!c) throw InputError(certificate_out + ": cannot write the certificate");
  }
  std::vector<std::string> names;
  for (const TrajectoryBody& b : header.bodies) names.push_back(b.name);
  if (o.json) {
    fmt::print("{}\n", json{{"format", "eipc-convert"},
                            {"version", 1},
                            {"source", o.input},
                            {"trajectory", o.out},
                            {"certificate", o.certificate.empty() ? json(nullptr) : json(certificate_out)},
                            {"bodies", names},
                            {"frames", input.trajectory.frames.size()},
                            {"has_times", input.has_times},
                            {"notes", input.notes}}
                           .dump(2));
    return;
  }
  fmt::print("wrote {} ({} bodies, {} frames{})\n", o.out, names.size(), input.trajectory.frames.size(),
             input.has_times ? "" : "; no times: frame k at t = k");
  for (const std::string& n : input.notes) fmt::print("note: {}\n", n);
  if (!o.certificate.empty())
    fmt::print("wrote {} ({} in the trajectory's vertex and triangle rows)\n", certificate_out, o.certificate);
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand(
      "convert", "A dataset eipc certify reads (frame file, .pvd series, directory of frames) as an eipc trajectory "
                 "(.h5 + ParaView sidecars), for analysis/render and eipc fields");
  cmd->add_option("input", o->input, "frame file (.obj .ply .stl .vtk .vtu .vtp), .pvd series or directory of frames")
      ->required();
  cmd->add_option("--out", o->out, "trajectory to write (.h5)")->required();
  add_bodies_option(*cmd, o->bodies, "as for eipc certify: 'objects' (default) or 'components'");
  cmd->add_option("--certificate", o->certificate,
                  "`eipc certify INPUT --json` report (same --bodies): written as OUT.certify.json with its file "
                  "indices turned into the trajectory's rows");
  cmd->add_flag("--json", o->json, "machine-readable summary (bodies, frames, whether the input has times)");
  cmd->callback([o] { run_convert(*o); });
}

}  // namespace eipc::cli
