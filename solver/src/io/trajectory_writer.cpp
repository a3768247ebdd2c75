// Streaming HDF5 trajectory writer (see trajectory_writer.hpp, docs/trajectory-format.md).
#include "eipc/io/trajectory_writer.hpp"

#include "eipc/io/output_path.hpp"
#include "eipc/io/trajectory_check.hpp"
#include "eipc/io/trajectory_schema.hpp"
#include "eipc/io/trajectory_xdmf.hpp"
#include "h5_handle.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace eipc {
namespace ts = trajectory_schema;
using h5::Handle;

namespace {

constexpr hsize_t frames_chunk = 256;  // 1-D per-frame datasets
constexpr hsize_t pairs_chunk = 16;    // contact datasets: [frames_chunk_contact, pairs_chunk, 3]
constexpr hsize_t frames_chunk_contact = 16;
constexpr hsize_t positions_chunk_bytes = 128 * 1024;  // well inside HDF5's 1 MB chunk cache

// Flushes file contents (and, for a directory, its entries) to stable storage.
void fsync_path(const std::string& path, bool directory) {
  int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) return;  // best effort: durability, not correctness
  ::fsync(fd);
  ::close(fd);
}

std::string parent_dir(const std::string& path) {
  auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// Whole-array write of an Eigen row-major matrix as a [rows, cols] dataset.
template <typename M>
void write_matrix(hid_t loc, const std::string& name, const M& m, hid_t file_type, hid_t mem_type) {
  h5::write_dataset(loc, name, file_type, mem_type,
                    {static_cast<hsize_t>(m.rows()), static_cast<hsize_t>(m.cols())}, m.data());
}

void write_body(hid_t file, const TrajectoryBody& body, int index) {
  Handle group = h5::create_group(file, ts::body_group(body.name));
  h5::write_int_attribute(group, "index", index, H5T_STD_I32LE);
  h5::write_string_attribute(group, "embedding", body.embedding);
  h5::write_int_attribute(group, "kinematic", body.kinematic ? 1 : 0, H5T_STD_I8LE);
  write_matrix(group, ts::rest_vertices, body.rest, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
  write_matrix(group, ts::surface_triangles, body.surface, H5T_STD_I32LE, H5T_NATIVE_INT);
  write_matrix(group, ts::tets, body.tets, H5T_STD_I32LE, H5T_NATIVE_INT);
  if (!body.embedding_data) return;
  const EmbeddingData& e = *body.embedding_data;
  Handle emb = h5::create_group(group, ts::embedding_group);
  write_matrix(emb, "vertices", e.vertices, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
  write_matrix(emb, "tets", e.tets, H5T_STD_I32LE, H5T_NATIVE_INT);
  h5::write_dataset(emb, "vertex_tet", H5T_STD_I32LE, H5T_NATIVE_INT,
                    {static_cast<hsize_t>(e.vertex_tet.size())}, e.vertex_tet.data());
  write_matrix(emb, "weights", e.weights, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
}

void write_root_attributes(hid_t file, const TrajectoryHeader& h) {
  h5::write_string_attribute(file, "format", ts::format);
  h5::write_int_attribute(file, "version", ts::version, H5T_STD_I32LE);
  h5::write_string_attribute(file, "scenario", h.scenario);
  h5::write_string_attribute(file, "scene_json", h.scene_json);
  h5::write_string_attribute(file, "solver_json", h.solver_json);
  h5::write_string_attribute(file, "contact_json", h.contact_json);
  h5::write_double_attribute(file, "dt", h.dt);
  h5::write_double_attribute(file, "duration", h.duration);
  if (h.ground_height) h5::write_double_attribute(file, "ground_height", *h.ground_height);
  h5::write_string_attribute(file, "code_version", h.code_version);
  h5::write_int_attribute(file, "threads", h.threads, H5T_STD_I32LE);
  std::vector<std::string> names, embeddings;
  for (const auto& b : h.bodies) {
    names.push_back(b.name);
    embeddings.push_back(b.embedding);
  }
  h5::write_string_list_attribute(file, "body_names", names);
  h5::write_string_list_attribute(file, "body_embeddings", embeddings);
}

}  // namespace

std::string trajectory_partial_path(const std::string& path) { return path + ".partial"; }

struct TrajectoryWriter::Impl {
  std::string path, partial;
  TrajectoryHeader header;
  TrajectoryWriterOptions options;
  Handle file;
  std::chrono::steady_clock::time_point last_flush;
  // Per-frame 1-D datasets, in the order of `frame_dataset_names`.
  std::vector<Handle> frame_datasets;
  std::vector<Handle> positions;  // per body [F, N, 3]
  Handle pairs, normal, friction, pair_count;
  std::map<std::pair<int, int>, hsize_t> pair_column;  // (a, b) -> column in the contact datasets
  std::vector<double> times;
  long last_step = 0;
  bool finished = false;
  /// Frames appended but not yet written (their pair forces already filtered):
  /// written in one block per dataset at the next flush, at kMaxPending
  /// frames, or at finish(). A hard kill loses them, as it loses unflushed
  /// data anyway (and leaves only the partial file, which readers reject).
  std::vector<Frame> pending;
  /// The batch being written (and flushed) in the background, while the
  /// simulation goes on: one at a time, so that HDF5 calls never overlap.
  std::future<void> writing;

  /// The number of the first pending frame (frames are numbered from 0).
  hsize_t first_pending() const { return static_cast<hsize_t>(times.size() - pending.size()); }
  void create_frame_datasets();
  /// Writes `frames`, the frames from number `first` on.
  void write_frames(const std::vector<Frame>& frames, hsize_t first);
  void write_contact(const std::vector<Frame>& frames, hsize_t first);
  /// Hands the pending frames to a background write (then a flush, if asked).
  void write_pending_in_background(bool flush);
  /// Waits for the background write; rethrows its error.
  void wait_for_writing();
  void close_all();
};

/// Most frames buffered before they are written (one HDF5 write per dataset
/// per frame was 6% of a fast run).
constexpr std::size_t kMaxPending = 64;

void TrajectoryWriter::Impl::create_frame_datasets() {
  h5::create_group(file, ts::frames_group);
  const std::pair<const char*, hid_t> columns[] = {
      {ts::time, H5T_IEEE_F64LE},          {ts::step, H5T_STD_I64LE},
      {ts::newton_iterations, H5T_STD_I32LE}, {ts::line_search_steps, H5T_STD_I32LE},
      {ts::wall_seconds, H5T_IEEE_F64LE},  {ts::min_distance, H5T_IEEE_F64LE},
      {ts::active_pairs, H5T_STD_I32LE}};
  for (const auto& [name, type] : columns)
    frame_datasets.push_back(h5::create_growing_dataset(file, name, type, {0}, {true}, {frames_chunk}));

  for (const TrajectoryBody& body : header.bodies) {
    const auto n = static_cast<hsize_t>(body.rest.rows());
    const hsize_t chunk_rows = std::max<hsize_t>(1, std::min<hsize_t>(n, 1 << 16));
    // Several frames of a small body per chunk: one chunk (a B-tree entry, a
    // checksum and a write) per frame and body was most of the writer's time.
    const hsize_t chunk_frames = std::clamp<hsize_t>(positions_chunk_bytes / (chunk_rows * 3 * sizeof(double)), 1, 64);
    positions.push_back(h5::create_growing_dataset(
        file, ts::body_group(body.name) + "/" + ts::positions, H5T_IEEE_F64LE, {0, n, 3},
        {true, false, false}, {chunk_frames, chunk_rows, 3}));
  }

  h5::create_group(file, ts::contact_group);
  pairs = h5::create_growing_dataset(file, ts::contact_pairs, H5T_STD_I32LE, {0, 2}, {true, false},
                                     {pairs_chunk, 2});
  normal = h5::create_growing_dataset(file, ts::contact_normal_force, H5T_IEEE_F64LE, {0, 0, 3},
                                      {true, true, false}, {frames_chunk_contact, pairs_chunk, 3});
  friction = h5::create_growing_dataset(file, ts::contact_friction_force, H5T_IEEE_F64LE, {0, 0, 3},
                                        {true, true, false}, {frames_chunk_contact, pairs_chunk, 3});
  pair_count = h5::create_growing_dataset(file, ts::contact_pair_count, H5T_STD_I32LE, {0, 0},
                                          {true, true}, {frames_chunk_contact, pairs_chunk});
}

// Rows [first, first + frames.size()) of the contact datasets from `frames`;
// pairs seen for the first time get new columns (earlier frames read the fill
// value 0 there).
void TrajectoryWriter::Impl::write_contact(const std::vector<Frame>& frames, hsize_t first) {
  const auto count = static_cast<hsize_t>(frames.size());
  for (const Frame& frame : frames)
    for (const BodyPairForce& p : frame.pair_forces) {
      auto key = std::make_pair(p.body_a, p.body_b);
      if (pair_column.count(key)) continue;
      const hsize_t column = pair_column.size();
      pair_column[key] = column;
      h5::resize(pairs, {column + 1, 2});
      const int row[2] = {p.body_a, p.body_b};
      h5::write_block(pairs, H5T_NATIVE_INT, {column, 0}, {1, 2}, row);
    }
  const hsize_t np = pair_column.size();
  h5::resize(normal, {first + count, np, 3});
  h5::resize(friction, {first + count, np, 3});
  h5::resize(pair_count, {first + count, np});
  if (np == 0) return;
  std::vector<double> n(count * np * 3, 0.0), t(count * np * 3, 0.0);
  std::vector<int> pairs_of(count * np, 0);
  for (hsize_t f = 0; f < count; ++f)
    for (const BodyPairForce& p : frames[f].pair_forces) {
      const hsize_t c = f * np + pair_column.at({p.body_a, p.body_b});
      for (int k = 0; k < 3; ++k) {
        n[c * 3 + k] = p.normal[k];
        t[c * 3 + k] = p.friction[k];
      }
      pairs_of[c] = p.pairs;
    }
  h5::write_block(normal, H5T_NATIVE_DOUBLE, {first, 0, 0}, {count, np, 3}, n.data());
  h5::write_block(friction, H5T_NATIVE_DOUBLE, {first, 0, 0}, {count, np, 3}, t.data());
  h5::write_block(pair_count, H5T_NATIVE_INT, {first, 0}, {count, np}, pairs_of.data());
}

void TrajectoryWriter::Impl::write_frames(const std::vector<Frame>& frames, hsize_t first) {
  if (frames.empty()) return;
  const auto count = static_cast<hsize_t>(frames.size());
  // Column order of create_frame_datasets: time, step, newton, line search, wall, min d, active.
  // Each in the memory type matching its file type: a converting write costs
  // HDF5 two 1 MB conversion buffers (one zeroed) per call.
  std::vector<double> time, wall, min_d;
  std::vector<std::int64_t> step;
  std::vector<std::int32_t> newton, line_search, active;
  for (const Frame& f : frames) {
    time.push_back(f.time);
    step.push_back(f.step);
    newton.push_back(f.stats.newton_iterations);
    line_search.push_back(f.stats.line_search_steps);
    wall.push_back(f.stats.wall_seconds);
    min_d.push_back(f.stats.min_distance);
    active.push_back(f.stats.active_pairs);
  }
  const std::pair<const void*, hid_t> columns[] = {
      {time.data(), H5T_NATIVE_DOUBLE},       {step.data(), H5T_NATIVE_INT64},   {newton.data(), H5T_NATIVE_INT32},
      {line_search.data(), H5T_NATIVE_INT32}, {wall.data(), H5T_NATIVE_DOUBLE},  {min_d.data(), H5T_NATIVE_DOUBLE},
      {active.data(), H5T_NATIVE_INT32}};
  for (std::size_t c = 0; c < frame_datasets.size(); ++c) {
    h5::resize(frame_datasets[c], {first + count});
    h5::write_block(frame_datasets[c], columns[c].second, {first}, {count}, columns[c].first);
  }
  for (std::size_t b = 0; b < positions.size(); ++b) {
    const auto n = static_cast<hsize_t>(frames[0].positions[b].rows());
    std::vector<double> block;
    block.reserve(count * n * 3);
    for (const Frame& f : frames) block.insert(block.end(), f.positions[b].data(), f.positions[b].data() + n * 3);
    h5::resize(positions[b], {first + count, n, 3});
    h5::write_block(positions[b], H5T_NATIVE_DOUBLE, {first, 0, 0}, {count, n, 3}, block.data());
  }
  write_contact(frames, first);
}

void TrajectoryWriter::Impl::write_pending_in_background(bool flush) {
  wait_for_writing();
  const hsize_t first = first_pending();
  auto frames = std::make_shared<const std::vector<Frame>>(std::move(pending));
  pending.clear();
  writing = std::async(std::launch::async, [this, frames, first, flush] {
    h5::silence_library_errors();  // HDF5 (thread-safe build) keeps an error stack per thread
    try {
      write_frames(*frames, first);
      if (flush) h5::check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flushing");
    } catch (const h5::Error& e) {
      throw std::runtime_error(partial + ": writing frames " + std::to_string(first + 1) + " to " +
                               std::to_string(first + frames->size()) + ": " + e.what());
    }
  });
}

void TrajectoryWriter::Impl::wait_for_writing() {
  if (writing.valid()) writing.get();
}

void TrajectoryWriter::Impl::close_all() {
  for (auto& d : frame_datasets) d.close();
  for (auto& d : positions) d.close();
  pairs.close();
  normal.close();
  friction.close();
  pair_count.close();
  if (file.valid() && !file.close()) throw h5::Error("closing the file: " + h5::library_message());
}

TrajectoryWriter::TrajectoryWriter(const std::string& path, const TrajectoryHeader& header,
                                   TrajectoryWriterOptions options)
    : impl_(std::make_unique<Impl>()) {
  check_trajectory_header(header);
  if (!(options.flush_seconds >= 0.0)) throw std::invalid_argument("TrajectoryWriter: flush_seconds must be >= 0");
  if (options.write_xdmf &&
      (trajectory_xdmf_path(path) == path || trajectory_xdmf_path(path, XdmfFlavour::legacy) == path))
    throw InputError(path + ": a trajectory file cannot have the extension .xdmf or .xdmf2");
  prepare_output_file(path, "");
  h5::silence_library_errors();
  Impl& m = *impl_;
  m.path = path;
  m.partial = trajectory_partial_path(path);
  m.header = header;
  m.options = options;
  try {
    // HDF5 1.8 object formats: checksummed metadata, still readable by any HDF5 >= 1.8.
    Handle fapl = h5::check(H5Pcreate(H5P_FILE_ACCESS), "creating the file");
    h5::check(H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18), "creating the file");
    m.file = h5::check(H5Fcreate(m.partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl),
                       "creating the file");
    write_root_attributes(m.file, header);
    h5::create_group(m.file, "/bodies");
    for (std::size_t i = 0; i < header.bodies.size(); ++i)
      write_body(m.file, header.bodies[i], static_cast<int>(i));
    m.create_frame_datasets();
    h5::check(H5Fflush(m.file, H5F_SCOPE_GLOBAL), "flushing");
    m.last_flush = std::chrono::steady_clock::now();
  } catch (const h5::Error& e) {
    throw std::runtime_error(m.partial + ": " + e.what());
  }
}

TrajectoryWriter::~TrajectoryWriter() {
  if (!impl_ || impl_->finished) return;
  try {
    impl_->wait_for_writing();
  } catch (...) {
  }
  try {
    impl_->close_all();  // the partial file stays, without a status attribute
  } catch (...) {
  }
}

void TrajectoryWriter::append(const Frame& frame) {
  Impl& m = *impl_;
  if (m.finished) throw std::logic_error("TrajectoryWriter::append after finish");
  const auto nb = m.header.bodies.size();
  if (frame.positions.size() != nb)
    throw std::invalid_argument("TrajectoryWriter::append: frame has positions for " +
                                std::to_string(frame.positions.size()) + " bodies, header has " +
                                std::to_string(nb));
  for (std::size_t b = 0; b < nb; ++b)
    if (frame.positions[b].rows() != m.header.bodies[b].rest.rows())
      throw std::invalid_argument("TrajectoryWriter::append: body '" + m.header.bodies[b].name +
                                  "' has " + std::to_string(frame.positions[b].rows()) +
                                  " vertices in the frame, " +
                                  std::to_string(m.header.bodies[b].rest.rows()) + " at rest");
  if (!m.times.empty() && frame.step <= m.last_step)
    throw std::invalid_argument("TrajectoryWriter::append: step " + std::to_string(frame.step) +
                                " does not follow step " + std::to_string(m.last_step));
  std::vector<BodyPairForce> forces;
  std::set<std::pair<int, int>> seen;
  for (const BodyPairForce& p : frame.pair_forces) {
    if (p.body_a < 0 || p.body_a >= static_cast<int>(nb) || p.body_b < -1 ||
        p.body_b >= static_cast<int>(nb) || p.body_a == p.body_b)
      throw std::invalid_argument("TrajectoryWriter::append: bad body pair (" +
                                  std::to_string(p.body_a) + ", " + std::to_string(p.body_b) + ")");
    if (!seen.insert({p.body_a, p.body_b}).second)
      throw std::invalid_argument("TrajectoryWriter::append: body pair (" + std::to_string(p.body_a) +
                                  ", " + std::to_string(p.body_b) + ") listed twice in one frame");
    if (p.pairs != 0 || !p.normal.isZero(0.0) || !p.friction.isZero(0.0)) forces.push_back(p);
  }

  Frame kept = frame;
  kept.pair_forces = std::move(forces);
  m.pending.push_back(std::move(kept));
  m.times.push_back(frame.time);
  m.last_step = frame.step;
  const auto now = std::chrono::steady_clock::now();
  const bool flush = std::chrono::duration<double>(now - m.last_flush).count() >= m.options.flush_seconds;
  if (flush || m.pending.size() >= kMaxPending) m.write_pending_in_background(flush);
  if (flush) m.last_flush = now;
}

void TrajectoryWriter::finish(TrajectoryStatus status, const std::string& reason) {
  Impl& m = *impl_;
  if (m.finished) throw std::logic_error("TrajectoryWriter::finish called twice");
  m.finished = true;  // whatever happens next, the writer is done
  m.wait_for_writing();
  // The sidecars (text from the frame times, each with its own fsync) are
  // written beside the HDF5 file's last frames, close and fsync, which they do
  // not read: the two fsyncs wait at the same time (both were ~1-10 ms of the
  // run's wall). The renames keep their order, the HDF5 file first.
  using Renames = std::vector<std::pair<std::string, std::string>>;
  std::future<Renames> sidecars;
  if (m.options.write_xdmf)
    sidecars = std::async(std::launch::async, [&m] { return write_trajectory_xdmf_partials(m.header, m.times, m.path); });
  auto drop_sidecars = [&] {
    if (!sidecars.valid()) return;
    try {
      for (const auto& renamed : sidecars.get()) std::filesystem::remove(renamed.first);
    } catch (...) {
    }
  };
  try {
    m.write_frames(m.pending, m.first_pending());
    h5::write_int_attribute(m.file, "frame_count", static_cast<long long>(m.times.size()), H5T_STD_I64LE);
    h5::write_string_attribute(m.file, "status_reason", reason);
    h5::write_string_attribute(
        m.file, "status", status == TrajectoryStatus::complete ? ts::status_complete : ts::status_incomplete);
    m.close_all();
  } catch (const h5::Error& e) {
    drop_sidecars();
    throw std::runtime_error(m.partial + ": finishing: " + e.what());
  }
  fsync_path(m.partial, false);
  std::filesystem::rename(m.partial, m.path);
  if (sidecars.valid())
    for (const auto& [partial, path] : sidecars.get()) std::filesystem::rename(partial, path);
  fsync_path(parent_dir(m.path), true);
}

long TrajectoryWriter::frames_written() const { return static_cast<long>(impl_->times.size()); }
const std::string& TrajectoryWriter::path() const { return impl_->path; }
const std::string& TrajectoryWriter::partial_path() const { return impl_->partial; }

}  // namespace eipc
