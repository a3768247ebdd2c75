#include "eipc/mesh/frame_sequence.hpp"

#include "eipc/common.hpp"
#include "eipc/mesh/read_pvd.hpp"
#include "eipc/mesh/surface_file.hpp"
#include "text_file.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace eipc {
namespace fs = std::filesystem;
namespace {

std::vector<fs::path> sorted(std::vector<fs::path> paths) {
  std::sort(paths.begin(), paths.end(),
            [](const fs::path& a, const fs::path& b) { return natural_less(a.filename().string(), b.filename().string()); });
  return paths;
}

/// The frame files directly in `dir`; throws when they are of more than one format.
std::vector<fs::path> frame_files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  std::set<std::string> formats;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string ext = mesh_detail::extension_of(e.path().string());
    if (e.is_regular_file() && is_surface_frame_extension(ext)) {
      files.push_back(e.path());
      formats.insert(ext);
    }
  }
  if (formats.size() > 1) {
    std::string list;
    for (const auto& f : formats) list += (list.empty() ? "" : ", ") + f;
    throw InputError(dir.string() + ": frame files of several formats (" + list + "); keep one format per directory");
  }
  return sorted(std::move(files));
}

FrameSequence from_pvd(const fs::path& path) {
  const std::vector<PvdDataSet> sets = read_pvd(path.string());
  FrameSequence seq;
  seq.name = path.stem().string();
  std::vector<double> times;
  std::vector<int> parts;  // of the first timestep, in order
  for (const PvdDataSet& d : sets) {
    const std::string file = (path.parent_path() / d.file).string();
    if (times.empty() || d.time != times.back()) {
      if (!times.empty() && d.time < times.back())
        throw InputError(path.string() + ": timestep " + std::to_string(d.time) + " comes after " +
                         std::to_string(times.back()) + " (DataSets must be in increasing time)");
      times.push_back(d.time);
      seq.files.emplace_back();
    }
    if (seq.files.size() == 1) parts.push_back(d.part);
    const std::size_t p = seq.files.back().size();
    if (p >= parts.size() || parts[p] != d.part)
      throw InputError(path.string() + ": timestep " + std::to_string(d.time) +
                       " does not list the same parts in the same order as the first timestep");
    seq.files.back().push_back(file);
  }
  if (seq.files.empty()) throw InputError(path.string() + ": no DataSet entries");
  for (std::size_t k = 0; k < seq.files.size(); ++k)
    if (seq.files[k].size() != parts.size())
      throw InputError(path.string() + ": timestep " + std::to_string(times[k]) + " has " +
                       std::to_string(seq.files[k].size()) + " parts, the first has " + std::to_string(parts.size()));
  for (int p : parts) seq.part_names.push_back(parts.size() == 1 ? seq.name : seq.name + "_part" + std::to_string(p));
  seq.times = std::move(times);
  return seq;
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      std::string da = a.substr(i, ie - i), db = b.substr(j, je - j);
      da.erase(0, std::min(da.find_first_not_of('0'), da.size()));
      db.erase(0, std::min(db.find_first_not_of('0'), db.size()));
      if (da.size() != db.size()) return da.size() < db.size();
      if (da != db) return da < db;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;  // e.g. "f01" vs "f1": any fixed tie-break
}

FrameSequence list_frame_sequence(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  if (!fs::exists(p, ec)) throw InputError(path + ": no such file or directory");
  const std::string ext = mesh_detail::extension_of(path);
  if (!fs::is_directory(p, ec)) {
    if (ext == ".pvd") return from_pvd(p);
    if (!is_surface_frame_extension(ext))
      throw InputError(path + ": not a frame file (frames: .obj, .ply, .stl, .vtk, .vtu, .vtp; series: .pvd, "
                       "or a directory)");
    FrameSequence seq;
    seq.name = p.stem().string();
    seq.part_names = {seq.name};
    seq.files = {{path}};
    return seq;
  }
  std::vector<fs::path> series;  // a directory holding one .pvd is that series (ParaView's export)
  for (const auto& e : fs::directory_iterator(p))
    if (e.is_regular_file() && mesh_detail::extension_of(e.path().string()) == ".pvd") series.push_back(e.path());
  if (series.size() == 1) return from_pvd(series[0]);
  if (series.size() > 1)
    throw InputError(path + ": holds " + std::to_string(series.size()) + " .pvd series; name the one to read");
  FrameSequence seq;
  seq.name = p.filename().empty() ? p.parent_path().filename().string() : p.filename().string();
  if (const auto files = frame_files_in(p); !files.empty()) {
    seq.part_names = {seq.name};
    for (const auto& f : files) seq.files.push_back({f.string()});
    return seq;
  }
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(p))
    if (e.is_directory()) dirs.push_back(e.path());
  std::vector<std::vector<fs::path>> per_body;
  for (const auto& d : sorted(std::move(dirs)))
    if (auto files = frame_files_in(d); !files.empty()) {
      seq.part_names.push_back(d.filename().string());
      per_body.push_back(std::move(files));
    }
  if (per_body.empty())
    throw InputError(path + ": no frame files (.obj, .ply, .stl, .vtk, .vtu, .vtp) in it or in its subdirectories");
  for (std::size_t b = 0; b < per_body.size(); ++b)
    if (per_body[b].size() != per_body[0].size())
      throw InputError(path + ": body directories hold different numbers of frames (" + seq.part_names[0] + ": " +
                       std::to_string(per_body[0].size()) + ", " + seq.part_names[b] + ": " +
                       std::to_string(per_body[b].size()) + ")");
  seq.part_is_body = true;
  seq.files.resize(per_body[0].size());
  for (std::size_t k = 0; k < seq.files.size(); ++k)
    for (const auto& files : per_body) seq.files[k].push_back(files[k].string());
  return seq;
}

}  // namespace eipc
