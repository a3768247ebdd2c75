// Point data for ParaView derived from a trajectory (see trajectory_fields.hpp).
#include "eipc/io/trajectory_fields.hpp"

#include "eipc/common.hpp"
#include "eipc/io/trajectory_reader.hpp"
#include "eipc/io/trajectory_writer.hpp"
#include "eipc/io/trajectory_xdmf.hpp"
#include "h5_handle.hpp"

#include <filesystem>
#include <map>

namespace eipc {
namespace {

using PositionsF = Eigen::Matrix<float, Eigen::Dynamic, 3, Eigen::RowMajor>;

// Per body, the frames' datasets, written one frame at a time (chunks of one frame, so
// ParaView reads only the frame it shows).
struct BodyFields {
  h5::Handle group, velocity, ground_distance, intersecting;
};

h5::Handle per_frame_dataset(hid_t group, const char* name, hid_t type, long frames, long n, int components) {
  std::vector<hsize_t> dims{static_cast<hsize_t>(frames), static_cast<hsize_t>(n)};
  if (components == 3) dims.push_back(3);
  std::vector<hsize_t> chunk = dims;
  chunk[0] = 1;
  chunk[1] = std::max<hsize_t>(chunk[1], 1);
  return h5::create_growing_dataset(group, name, type, dims, std::vector<bool>(dims.size(), false), chunk);
}

void write_frame(hid_t dataset, long frame, long n, int components, hid_t mem_type, const void* data) {
  std::vector<hsize_t> start{static_cast<hsize_t>(frame), 0}, count{1, static_cast<hsize_t>(n)};
  if (components == 3) {
    start.push_back(0);
    count.push_back(3);
  }
  if (n > 0) h5::write_block(dataset, mem_type, start, count, data);
}

// Marked vertices by (frame, body index).
using MarksByFrame = std::map<std::pair<long, int>, std::vector<long>>;

// Groups the marks, checking them against the trajectory.
MarksByFrame group_marks(const std::vector<IntersectionMark>& marks,
                                                              const TrajectoryHeader& h, long frames,
                                                              const std::string& source) {
  MarksByFrame out;
  for (const IntersectionMark& m : marks) {
    int body = -1;
    for (std::size_t b = 0; b < h.bodies.size(); ++b) {
      if (h.bodies[b].name == m.body) body = static_cast<int>(b);
    }
    if (body < 0) throw InputError(source + ": intersection mark names unknown body '" + m.body + "'");
    if (m.frame < 0 || m.frame >= frames)
      throw InputError(source + ": intersection mark frame " + std::to_string(m.frame) + " is out of range");
    if (m.vertex < 0 || m.vertex >= h.bodies[body].rest.rows())
      throw InputError(source + ": intersection mark vertex " + std::to_string(m.vertex) + " of body '" + m.body +
                       "' is out of range");
    out[{m.frame, body}].push_back(m.vertex);
  }
  return out;
}

}  // namespace

std::string trajectory_fields_path(const std::string& h5_path) {
  return std::filesystem::path(h5_path).replace_extension(".fields.h5").string();
}

TrajectoryFieldsSummary write_trajectory_fields(const std::string& h5_path,
                                                const std::optional<std::vector<IntersectionMark>>& marks) {
  const TrajectoryReader reader(h5_path);
  const TrajectoryHeader& h = reader.header();
  const long frames = reader.frame_count();
  const MarksByFrame marked = marks ? group_marks(*marks, h, frames, h5_path) : MarksByFrame{};
  const bool ground = h.ground_height.has_value();

  TrajectoryFieldsSummary summary;
  summary.path = trajectory_fields_path(h5_path);
  summary.frames = frames;
  const std::string partial = trajectory_partial_path(summary.path);
  try {
    h5::silence_library_errors();
    h5::Handle fapl = h5::check(H5Pcreate(H5P_FILE_ACCESS), "creating the file");
    h5::check(H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18), "creating the file");
    h5::Handle file = h5::check(H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), "creating the file");
    h5::write_string_attribute(file, "format", "eipc-trajectory-fields");
    h5::write_int_attribute(file, "version", 1, H5T_STD_I32LE);
    h5::write_string_attribute(file, "trajectory", std::filesystem::path(h5_path).filename().string());
    h5::write_int_attribute(file, "frame_count", frames, H5T_STD_I64LE);
    h5::Handle bodies = h5::create_group(file, "bodies");
    std::vector<BodyFields> out(h.bodies.size());
    for (std::size_t b = 0; b < h.bodies.size(); ++b) {
      const long n = h.bodies[b].rest.rows();
      BodyFields& o = out[b];
      o.group = h5::create_group(bodies, h.bodies[b].name);
      const std::vector<int> id(static_cast<std::size_t>(n), static_cast<int>(b));
      h5::write_dataset(o.group, "body_id", H5T_STD_I32LE, H5T_NATIVE_INT, {static_cast<hsize_t>(n)}, id.data());
      o.velocity = per_frame_dataset(o.group, "velocity", H5T_IEEE_F32LE, frames, n, 3);
      if (ground) o.ground_distance = per_frame_dataset(o.group, "ground_distance", H5T_IEEE_F32LE, frames, n, 1);
      if (marks) o.intersecting = per_frame_dataset(o.group, "intersecting", H5T_STD_I32LE, frames, n, 1);
    }

    // A window of three frames (prev, cur, next): velocity by central differences in time.
    std::vector<double> times;
    auto load = [&](long i) { return reader.read_frame(std::min(i, frames - 1)); };
    Frame prev, cur, next;
    if (frames > 0) {
      cur = load(0);
      next = load(1);
    }
    for (long f = 0; f < frames; ++f) {
      if (f > 0) {
        prev = std::move(cur);
        cur = std::move(next);
        next = load(f + 1);
      }
      times.push_back(cur.time);
      const Frame& a = f > 0 ? prev : cur;
      const Frame& c = f + 1 < frames ? next : cur;
      const double span = c.time - a.time;
      for (std::size_t b = 0; b < h.bodies.size(); ++b) {
        const long n = h.bodies[b].rest.rows();
        const PositionsF v = span > 0 ? ((c.positions[b] - a.positions[b]) / span).cast<float>().eval()
                                      : PositionsF::Zero(n, 3).eval();
        write_frame(out[b].velocity, f, n, 3, H5T_NATIVE_FLOAT, v.data());
        if (ground) {
          const Eigen::VectorXf d = (cur.positions[b].col(2).array() - *h.ground_height).cast<float>();
          write_frame(out[b].ground_distance, f, n, 1, H5T_NATIVE_FLOAT, d.data());
        }
        if (marks) {
          std::vector<int> flag(static_cast<std::size_t>(n), 0);
          if (auto it = marked.find({f, static_cast<int>(b)}); it != marked.end()) {
            for (long vtx : it->second) flag[static_cast<std::size_t>(vtx)] = 1;
          }
          for (int x : flag) summary.marked_points += x;
          write_frame(out[b].intersecting, f, n, 1, H5T_NATIVE_INT, flag.data());
        }
      }
    }
    out.clear();
    bodies.reset();
    if (!file.close()) throw h5::Error("closing the file: " + h5::library_message());
    std::filesystem::rename(partial, summary.path);

    XdmfFields fields{std::filesystem::path(summary.path).filename().string(),
                      {{"body_id", 1, false, true}, {"velocity", 3, true, false}}};
    if (ground) fields.arrays.push_back({"ground_distance", 1, true, false});
    if (marks) fields.arrays.push_back({"intersecting", 1, true, true});
    for (const XdmfPointArray& a : fields.arrays) summary.arrays.push_back(a.name);
    write_trajectory_xdmf_sidecars(h, times, h5_path, fields);
  } catch (const h5::Error& e) {
    std::filesystem::remove(partial);
    throw std::runtime_error(partial + ": " + e.what());
  } catch (...) {  // e.g. a frame that does not read: leave no partial file behind
    std::filesystem::remove(partial);
    throw;
  }
  return summary;
}

}  // namespace eipc
