#include "eipc/certify/dataset_input.hpp"

#include "eipc/mesh/components.hpp"
#include "eipc/mesh/frame_sequence.hpp"
#include "eipc/mesh/surface_file.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <exception>

namespace eipc::certify {
namespace {

/// The bodies of one frame before any split into components.
std::vector<NamedSurface> frame_surfaces(const FrameSequence& seq, std::size_t k, std::vector<std::string>* notes) {
  std::vector<NamedSurface> out;
  for (std::size_t p = 0; p < seq.files[k].size(); ++p) {
    SurfaceFile file = read_surface_file(seq.files[k][p], !seq.part_is_body);
    if (notes) notes->insert(notes->end(), file.notes.begin(), file.notes.end());
    for (NamedSurface& s : file.surfaces) {
      if (s.name.empty()) s.name = seq.part_names[p];
      for (const NamedSurface& other : out)
        if (other.name == s.name)
          throw InputError(seq.files[k][p] + ": a second body named '" + s.name + "' in frame " + std::to_string(k));
      out.push_back(std::move(s));
    }
  }
  return out;
}

/// The part of `s` that `c` (one of its components) covers, with file indices.
NamedSurface component_of(const NamedSurface& s, const SurfaceComponent& c) {
  auto file_index = [](const std::vector<int>& map, int i) { return map.empty() ? i : map[i]; };
  NamedSurface out;
  out.name = s.name + "@" + std::to_string(file_index(s.file_vertex, c.vertices.front()));
  out.mesh.vertices.resize(static_cast<Eigen::Index>(c.vertices.size()), 3);
  for (std::size_t i = 0; i < c.vertices.size(); ++i) {
    out.mesh.vertices.row(static_cast<Eigen::Index>(i)) = s.mesh.vertices.row(c.vertices[i]);
    out.file_vertex.push_back(file_index(s.file_vertex, c.vertices[i]));
  }
  out.mesh.faces.resize(static_cast<Eigen::Index>(c.triangles.size()), 3);
  for (std::size_t t = 0; t < c.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int v = s.mesh.faces(c.triangles[t], k);
      out.mesh.faces(static_cast<Eigen::Index>(t), k) =
          static_cast<int>(std::lower_bound(c.vertices.begin(), c.vertices.end(), v) - c.vertices.begin());
    }
    out.file_triangle.push_back(file_index(s.file_triangle, c.triangles[t]));
  }
  return out;
}

}  // namespace

DatasetInput read_dataset(const std::string& path, BodyRule rule) {
  const FrameSequence seq = list_frame_sequence(path);
  DatasetInput in;
  in.has_times = seq.times.has_value();
  Trajectory& traj = in.trajectory;
  traj.header.scenario = seq.name;
  std::vector<NamedSurface> first;  // frame 0's bodies before the split
  std::vector<std::vector<SurfaceComponent>> parts;  // per body of `first`, with BodyRule::components
  // Frames are read a block at a time in parallel (parsing is most of a small dataset's time),
  // then checked in order, so the first bad frame is the one reported.
  const std::size_t block = 8;
  std::vector<std::vector<NamedSurface>> read(block);
  std::vector<std::exception_ptr> failed(block);
  for (std::size_t k = 0; k < seq.files.size(); ++k) {
    if (k % block == 0)
      tbb::parallel_for(k, std::min(k + block, seq.files.size()), [&](std::size_t j) {
        try {
          read[j - k] = frame_surfaces(seq, j, j == 0 ? &in.notes : nullptr);
        } catch (...) {
          failed[j - k] = std::current_exception();
        }
      });
    if (failed[k % block]) std::rethrow_exception(failed[k % block]);
    std::vector<NamedSurface> bodies = std::move(read[k % block]);
    const std::string where = seq.files[k].size() == 1 ? seq.files[k][0] : path + " frame " + std::to_string(k);
    if (k == 0) {
      first = bodies;
      for (const NamedSurface& b : first)
        parts.push_back(rule == BodyRule::components ? surface_components(b.mesh.faces, b.mesh.num_vertices())
                                                     : std::vector<SurfaceComponent>{});
    }
    if (bodies.size() != first.size())
      throw InputError(where + ": " + std::to_string(bodies.size()) + " bodies, frame 0 has " +
                       std::to_string(first.size()));
    Frame frame;
    frame.time = seq.times ? (*seq.times)[k] : static_cast<double>(k);
    frame.step = static_cast<long>(k);
    for (std::size_t b = 0; b < first.size(); ++b) {
      const auto it = std::find_if(bodies.begin(), bodies.end(), [&](const NamedSurface& s) { return s.name == first[b].name; });
      if (it == bodies.end()) throw InputError(where + ": no body '" + first[b].name + "' (frame 0 has one)");
      if (it->mesh.num_vertices() != first[b].mesh.num_vertices())
        throw InputError(where + ": body '" + first[b].name + "' has " + std::to_string(it->mesh.num_vertices()) +
                         " vertices, " + std::to_string(first[b].mesh.num_vertices()) + " in frame 0");
      if (it->mesh.faces != first[b].mesh.faces)
        throw InputError(where + ": body '" + first[b].name + "' has other triangles than in frame 0 (" +
                         std::to_string(it->mesh.num_faces()) + " vs " + std::to_string(first[b].mesh.num_faces()) + ")");
      if (it->file_vertex != first[b].file_vertex || it->file_triangle != first[b].file_triangle)
        throw InputError(where + ": body '" + first[b].name + "' is made of other vertices of its file than in frame 0");
      if (rule == BodyRule::objects) {
        frame.positions.push_back(std::move(it->mesh.vertices));
        continue;
      }
      for (const SurfaceComponent& c : parts[b]) {
        NamedSurface piece = component_of(*it, c);
        if (k == 0) {
          traj.header.bodies.push_back({piece.name, "full", false, piece.mesh.vertices, piece.mesh.faces, {}, std::nullopt});
          in.file_vertex.push_back(std::move(piece.file_vertex));
          in.file_triangle.push_back(std::move(piece.file_triangle));
        }
        frame.positions.push_back(std::move(piece.mesh.vertices));
      }
    }
    if (k == 0 && rule == BodyRule::objects)
      for (std::size_t b = 0; b < first.size(); ++b) {
        traj.header.bodies.push_back({first[b].name, "full", false, frame.positions[b], first[b].mesh.faces, {}, std::nullopt});
        in.file_vertex.push_back(first[b].file_vertex);
        in.file_triangle.push_back(first[b].file_triangle);
      }
    traj.frames.push_back(std::move(frame));
  }
  traj.header.dt = traj.frames.size() > 1 ? traj.frames[1].time - traj.frames[0].time : 1.0;
  traj.header.duration = traj.frames.back().time - traj.frames.front().time;
  return in;
}

}  // namespace eipc::certify
