#include "eipc/certify/obj_frames.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace eipc::certify {
namespace fs = std::filesystem;
namespace {

struct RawGroup {
  std::string name;
  std::vector<std::array<long, 3>> faces;  ///< global 0-based OBJ vertex indices
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool is_obj(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".obj";
}

std::vector<fs::path> sorted_entries(const fs::path& dir, bool want_dirs) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (want_dirs ? e.is_directory() : (e.is_regular_file() && is_obj(e.path()))) out.push_back(e.path());
  std::sort(out.begin(), out.end(),
            [](const fs::path& a, const fs::path& b) { return natural_less(a.filename().string(), b.filename().string()); });
  return out;
}

/// One body holding every face of every body of a file.
ObjBody merge(std::vector<ObjBody> bodies, const std::string& name) {
  ObjBody m;
  m.name = name;
  long nv = 0, nf = 0;
  for (const auto& b : bodies) { nv += b.x.rows(); nf += b.faces.rows(); }
  m.x.resize(nv, 3);
  m.faces.resize(nf, 3);
  long v = 0, f = 0;
  for (const auto& b : bodies) {
    m.x.middleRows(v, b.x.rows()) = b.x;
    m.faces.middleRows(f, b.faces.rows()) = b.faces.array() + static_cast<int>(v);
    v += b.x.rows();
    f += b.faces.rows();
  }
  return m;
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
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

std::vector<ObjBody> parse_obj(std::istream& in, const std::string& source, const std::string& default_name) {
  std::vector<Vec3> vertices;
  std::vector<RawGroup> objects, groups;  // `o` and `g` partitions, both recorded
  std::map<std::string, std::size_t> object_index, group_index;
  auto select = [](std::vector<RawGroup>& list, std::map<std::string, std::size_t>& index, const std::string& name) {
    auto [it, inserted] = index.emplace(name, list.size());
    if (inserted) list.push_back({name, {}});
    return it->second;
  };
  std::size_t obj = select(objects, object_index, default_name), grp = select(groups, group_index, default_name);
  bool has_o = false;
  std::string line;
  long line_no = 0;
  auto fail = [&](const std::string& what) {
    throw InputError(source + ":" + std::to_string(line_no) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++line_no;
    line = trim(line.substr(0, line.find('#')));
    std::istringstream ss(line);
    std::string tag;
    if (!(ss >> tag)) continue;
    if (tag == "v") {
      Vec3 p;
      for (int k = 0; k < 3; ++k) {
        std::string tok;
        if (!(ss >> tok)) fail("vertex needs 3 coordinates");
        char* end = nullptr;
        p[k] = std::strtod(tok.c_str(), &end);
        if (end == tok.c_str() || *end != '\0' || !std::isfinite(p[k])) fail("bad vertex coordinate '" + tok + "'");
      }
      vertices.push_back(p);
    } else if (tag == "f") {
      std::vector<long> poly;
      std::string tok;
      while (ss >> tok) {
        char* end = nullptr;
        const long i = std::strtol(tok.c_str(), &end, 10);
        if (end == tok.c_str() || (*end != '\0' && *end != '/') || i == 0) fail("bad face index '" + tok + "'");
        const long idx = i > 0 ? i - 1 : static_cast<long>(vertices.size()) + i;
        if (idx < 0 || idx >= static_cast<long>(vertices.size())) fail("face index " + tok + " out of range");
        poly.push_back(idx);
      }
      if (poly.size() < 3) fail("face with fewer than 3 vertices");
      for (std::size_t k = 1; k + 1 < poly.size(); ++k) {  // fan triangulation
        objects[obj].faces.push_back({poly[0], poly[k], poly[k + 1]});
        groups[grp].faces.push_back({poly[0], poly[k], poly[k + 1]});
      }
    } else if (tag == "o" || tag == "g") {
      std::string name = trim(line.substr(1));
      if (name.empty()) name = default_name;
      if (tag == "o") { has_o = true; obj = select(objects, object_index, name); }
      else grp = select(groups, group_index, name);
    }
  }
  std::vector<ObjBody> bodies;
  for (const RawGroup& g : has_o ? objects : groups) {
    if (g.faces.empty()) continue;
    std::vector<long> used;
    for (const auto& f : g.faces) used.insert(used.end(), f.begin(), f.end());
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    ObjBody b;
    b.name = g.name;
    b.x.resize(static_cast<long>(used.size()), 3);
    for (std::size_t k = 0; k < used.size(); ++k) b.x.row(k) = vertices[used[k]].transpose();
    b.faces.resize(static_cast<long>(g.faces.size()), 3);
    for (std::size_t f = 0; f < g.faces.size(); ++f)
      for (int k = 0; k < 3; ++k)
        b.faces(f, k) = static_cast<int>(std::lower_bound(used.begin(), used.end(), g.faces[f][k]) - used.begin());
    bodies.push_back(std::move(b));
  }
  return bodies;
}

std::vector<ObjBody> read_obj(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open");
  return parse_obj(in, path, fs::path(path).stem().string());
}

Trajectory read_obj_frames(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path + ": no such file or directory");
  std::vector<std::vector<ObjBody>> frames;  // per frame, bodies
  if (!fs::is_directory(path)) {
    frames.push_back(read_obj(path));
  } else if (const auto files = sorted_entries(path, false); !files.empty()) {
    for (const auto& f : files) frames.push_back(read_obj(f.string()));
  } else {
    const auto dirs = sorted_entries(path, true);
    std::vector<std::vector<fs::path>> per_body;
    for (const auto& d : dirs)
      if (auto files = sorted_entries(d, false); !files.empty()) per_body.push_back(std::move(files));
    if (per_body.empty())
      throw InputError(path + ": no .obj files (expected frame files or one subdirectory of frames per body)");
    for (std::size_t b = 0; b < per_body.size(); ++b)
      if (per_body[b].size() != per_body[0].size())
        throw InputError(path + ": body directories hold different numbers of frames (" +
                         per_body[0][0].parent_path().string() + ": " + std::to_string(per_body[0].size()) + ", " +
                         per_body[b][0].parent_path().string() + ": " + std::to_string(per_body[b].size()) + ")");
    frames.resize(per_body[0].size());
    for (std::size_t k = 0; k < frames.size(); ++k)
      for (const auto& files : per_body)
        frames[k].push_back(merge(read_obj(files[k].string()), files[k].parent_path().filename().string()));
  }

  Trajectory traj;
  traj.header.scenario = fs::path(path).filename().string();
  traj.header.dt = 1.0;
  traj.header.duration = static_cast<double>(frames.size() - 1);
  for (const ObjBody& b : frames[0]) {
    TrajectoryBody tb;
    tb.name = b.name;
    tb.rest = b.x;
    tb.surface = b.faces;
    traj.header.bodies.push_back(std::move(tb));
  }
  for (std::size_t k = 0; k < frames.size(); ++k) {
    Frame fr;
    fr.time = static_cast<double>(k);
    fr.step = static_cast<long>(k);
    if (frames[k].size() != frames[0].size())
      throw InputError(path + ": frame " + std::to_string(k) + " has " + std::to_string(frames[k].size()) +
                       " bodies, frame 0 has " + std::to_string(frames[0].size()));
    for (const TrajectoryBody& tb : traj.header.bodies) {
      const auto it = std::find_if(frames[k].begin(), frames[k].end(), [&](const ObjBody& b) { return b.name == tb.name; });
      if (it == frames[k].end())
        throw InputError(path + ": frame " + std::to_string(k) + " has no body '" + tb.name + "'");
      if (it->x.rows() != tb.rest.rows() || it->faces.rows() != tb.surface.rows() || it->faces != tb.surface)
        throw InputError(path + ": body '" + tb.name + "' changes its triangles in frame " + std::to_string(k));
      fr.positions.push_back(it->x);
    }
    traj.frames.push_back(std::move(fr));
  }
  return traj;
}

}  // namespace eipc::certify
