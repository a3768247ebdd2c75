// HDF5 trajectory reader (see trajectory_reader.hpp, docs/trajectory-format.md).
#include "eipc/io/trajectory_reader.hpp"

#include "eipc/io/trajectory_check.hpp"
#include "eipc/io/trajectory_schema.hpp"
#include "h5_handle.hpp"

#include <algorithm>
#include <filesystem>

namespace eipc {
namespace ts = trajectory_schema;
using h5::Handle;

namespace {

std::string shape_text(const std::vector<hsize_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

// Opens `name` under `loc` and checks its shape against `expected`, where -1 marks a
// free dimension; free dimensions are returned in `dims`.
Handle open_shaped(hid_t loc, const std::string& name, const std::vector<long>& expected,
                   std::vector<hsize_t>& dims, const std::string& expected_text) {
  Handle ds = h5::open_dataset(loc, name);
  dims = h5::dataset_shape(ds);
  bool ok = dims.size() == expected.size();
  for (std::size_t i = 0; ok && i < dims.size(); ++i)
    ok = expected[i] < 0 || dims[i] == static_cast<hsize_t>(expected[i]);
  if (!ok) throw InputError(name + ": shape " + shape_text(dims) + ", expected " + expected_text);
  return ds;
}

// Reads a whole [rows, C] dataset into a row-major Eigen matrix; rows must equal
// `rows` unless it is -1.
template <typename M>
void read_matrix(hid_t loc, const std::string& name, long rows, const std::string& rows_name,
                 hid_t mem_type, M& out) {
  std::vector<hsize_t> dims;
  const long cols = M::ColsAtCompileTime;
  Handle ds = open_shaped(loc, name, {rows, cols}, dims,
                          "[" + rows_name + ", " + std::to_string(cols) + "]");
  out.resize(static_cast<Eigen::Index>(dims[0]), cols);
  try {
    h5::read_dataset(ds, mem_type, out.data());
  } catch (const h5::Error& e) {
    throw InputError(name + ": " + e.what());
  }
}

template <typename T>
std::vector<T> read_column(hid_t file, const std::string& name, long frames, hid_t mem_type) {
  std::vector<hsize_t> dims;
  Handle ds = open_shaped(file, name, {frames}, dims, "[F] with F = frame_count = " + std::to_string(frames));
  std::vector<T> out(static_cast<std::size_t>(frames));
  try {
    h5::read_dataset(ds, mem_type, out.data());
  } catch (const h5::Error& e) {
    throw InputError(name + ": " + e.what());
  }
  return out;
}

// Runs f(), turning HDF5 failures into InputError prefixed with `where`.
template <typename F>
auto at(const std::string& where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const h5::Error& e) {
    throw InputError(where + ": " + e.what());
  }
}

}  // namespace

struct TrajectoryReader::Impl {
  std::string path;
  Handle file;
  TrajectoryHeader header;
  TrajectoryStatus status = TrajectoryStatus::complete;
  std::string reason;
  long frames = 0;
  std::vector<double> time, wall_seconds, min_distance;
  std::vector<long> step;
  std::vector<int> newton_iterations, line_search_steps, active_pairs;
  std::vector<Handle> positions;  // per body [F, N, 3]
  Eigen::Matrix<int, Eigen::Dynamic, 2, Eigen::RowMajor> pairs;
  Handle normal, friction, pair_count;

  void open();
  void read_root();
  void read_body(std::size_t index, const std::string& name, const std::string& embedding);
  void read_frames_and_contact();
  Frame frame(long index, bool with_positions = true) const;
};

void TrajectoryReader::Impl::read_root() {
  const std::string root = "root group '/'";
  const std::string format = at(root, [&] { return h5::read_string_attribute(file, "format"); });
  if (format != ts::format)
    throw InputError("root attribute 'format' is '" + format + "', expected '" + ts::format +
                     "': not an eipc trajectory");
  const long long version = at(root, [&] { return h5::read_int_attribute(file, "version"); });
  if (version != ts::version)
    throw InputError("root attribute 'version' is " + std::to_string(version) +
                     ", this reader supports version " + std::to_string(ts::version));
  if (!h5::attribute_exists(file, "status"))
    throw InputError("root attribute 'status' is missing: the run never finished "
                     "(a partial or truncated file)");
  at(root, [&] {
    const std::string s = h5::read_string_attribute(file, "status");
    if (s == ts::status_complete) status = TrajectoryStatus::complete;
    else if (s == ts::status_incomplete) status = TrajectoryStatus::incomplete;
    else throw InputError("root attribute 'status' is '" + s + "', expected 'complete' or 'incomplete'");
    reason = h5::read_string_attribute(file, "status_reason");
    frames = static_cast<long>(h5::read_int_attribute(file, "frame_count"));
    if (frames < 0) throw InputError("root attribute 'frame_count' is negative");
    header.scenario = h5::read_string_attribute(file, "scenario");
    header.scene_json = h5::read_string_attribute(file, "scene_json");
    header.solver_json = h5::read_string_attribute(file, "solver_json");
    header.contact_json = h5::read_string_attribute(file, "contact_json");
    header.dt = h5::read_double_attribute(file, "dt");
    header.duration = h5::read_double_attribute(file, "duration");
    if (h5::attribute_exists(file, "ground_height"))
      header.ground_height = h5::read_double_attribute(file, "ground_height");
    header.code_version = h5::read_string_attribute(file, "code_version");
    header.threads = static_cast<int>(h5::read_int_attribute(file, "threads"));
  });
  const auto names = at(root, [&] { return h5::read_string_list_attribute(file, "body_names"); });
  const auto embeddings = at(root, [&] { return h5::read_string_list_attribute(file, "body_embeddings"); });
  if (names.size() != embeddings.size())
    throw InputError("root attributes 'body_names' and 'body_embeddings' differ in length");
  for (std::size_t i = 0; i < names.size(); ++i) read_body(i, names[i], embeddings[i]);
}

void TrajectoryReader::Impl::read_body(std::size_t index, const std::string& name,
                                       const std::string& embedding) {
  const std::string g = ts::body_group(name);
  if (name.empty() || name.find('/') != std::string::npos)
    throw InputError("root attribute 'body_names' holds an unusable body name '" + name + "'");
  TrajectoryBody body;
  body.name = name;
  Handle group = at(g, [&] { return h5::open_group(file, g); });
  at(g, [&] {
    if (h5::read_int_attribute(group, "index") != static_cast<long long>(index))
      throw InputError("attribute 'index' does not match the position in 'body_names' (" +
                       std::to_string(index) + ")");
    body.embedding = h5::read_string_attribute(group, "embedding");
    body.kinematic = h5::read_int_attribute(group, "kinematic") != 0;
  });
  if (body.embedding != embedding)
    throw InputError(g + ": attribute 'embedding' ('" + body.embedding +
                     "') differs from root attribute 'body_embeddings' ('" + embedding + "')");
  read_matrix(file, g + "/" + ts::rest_vertices, -1, "N", H5T_NATIVE_DOUBLE, body.rest);
  const long n = body.rest.rows();
  read_matrix(file, g + "/" + ts::surface_triangles, -1, "T", H5T_NATIVE_INT, body.surface);
  read_matrix(file, g + "/" + ts::tets, -1, "M", H5T_NATIVE_INT, body.tets);
  const std::string e = g + "/" + ts::embedding_group;
  if (h5::link_exists(file, e)) {
    EmbeddingData emb;
    read_matrix(file, e + "/vertices", -1, "V", H5T_NATIVE_DOUBLE, emb.vertices);
    read_matrix(file, e + "/tets", -1, "K", H5T_NATIVE_INT, emb.tets);
    read_matrix(file, e + "/weights", n, "N", H5T_NATIVE_DOUBLE, emb.weights);
    std::vector<hsize_t> dims;
    Handle ds = open_shaped(file, e + "/vertex_tet", {n}, dims, "[N] with N = " + std::to_string(n));
    emb.vertex_tet.resize(n);
    at(e + "/vertex_tet", [&] { h5::read_dataset(ds, H5T_NATIVE_INT, emb.vertex_tet.data()); });
    body.embedding_data = std::move(emb);
  }
  std::vector<hsize_t> dims;
  positions.push_back(open_shaped(file, g + "/" + ts::positions, {frames, n, 3}, dims,
                                  "[F, N, 3] with F = frame_count = " + std::to_string(frames) +
                                      ", N = " + std::to_string(n)));
  header.bodies.push_back(std::move(body));
}

void TrajectoryReader::Impl::read_frames_and_contact() {
  time = read_column<double>(file, ts::time, frames, H5T_NATIVE_DOUBLE);
  step = read_column<long>(file, ts::step, frames, H5T_NATIVE_LONG);
  newton_iterations = read_column<int>(file, ts::newton_iterations, frames, H5T_NATIVE_INT);
  line_search_steps = read_column<int>(file, ts::line_search_steps, frames, H5T_NATIVE_INT);
  wall_seconds = read_column<double>(file, ts::wall_seconds, frames, H5T_NATIVE_DOUBLE);
  min_distance = read_column<double>(file, ts::min_distance, frames, H5T_NATIVE_DOUBLE);
  active_pairs = read_column<int>(file, ts::active_pairs, frames, H5T_NATIVE_INT);

  read_matrix(file, ts::contact_pairs, -1, "P", H5T_NATIVE_INT, pairs);
  const long p = pairs.rows();
  const long nb = static_cast<long>(header.bodies.size());
  for (long i = 0; i < p; ++i)
    if (pairs(i, 0) < 0 || pairs(i, 0) >= nb || pairs(i, 1) < -1 || pairs(i, 1) >= nb ||
        pairs(i, 0) == pairs(i, 1))
      throw InputError(std::string(ts::contact_pairs) + ": row " + std::to_string(i) + " (" +
                       std::to_string(pairs(i, 0)) + ", " + std::to_string(pairs(i, 1)) +
                       ") is not a valid body pair (a in [0, B), b in [-1, B), a != b)");
  std::vector<hsize_t> dims;
  const std::string fp = "F = frame_count = " + std::to_string(frames) + ", P = " + std::to_string(p);
  normal = open_shaped(file, ts::contact_normal_force, {frames, p, 3}, dims, "[F, P, 3] with " + fp);
  friction = open_shaped(file, ts::contact_friction_force, {frames, p, 3}, dims, "[F, P, 3] with " + fp);
  pair_count = open_shaped(file, ts::contact_pair_count, {frames, p}, dims, "[F, P] with " + fp);
}

void TrajectoryReader::Impl::open() {
  h5::silence_library_errors();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(path + ": no such trajectory file");
  try {
    file = h5::check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT),
                     "not a readable HDF5 file (truncated or corrupted?)");
    read_root();
    read_frames_and_contact();
    check_trajectory_header(header);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  } catch (const h5::Error& e) {
    throw InputError(path + ": " + e.what());
  }
}

Frame TrajectoryReader::Impl::frame(long index, bool with_positions) const {
  if (index < 0 || index >= frames)
    throw InputError(path + ": frame index " + std::to_string(index) + " out of range [0, " +
                     std::to_string(frames) + ")");
  const auto i = static_cast<std::size_t>(index);
  const auto f = static_cast<hsize_t>(index);
  Frame fr;
  fr.time = time[i];
  fr.step = step[i];
  fr.stats = {newton_iterations[i], line_search_steps[i], wall_seconds[i], min_distance[i], active_pairs[i]};
  try {
    for (std::size_t b = 0; with_positions && b < header.bodies.size(); ++b) {
      const auto n = static_cast<hsize_t>(header.bodies[b].rest.rows());
      Positions x(static_cast<Eigen::Index>(n), 3);
      at(ts::body_group(header.bodies[b].name) + "/" + ts::positions,
         [&] { h5::read_block(positions[b], H5T_NATIVE_DOUBLE, {f, 0, 0}, {1, n, 3}, x.data()); });
      fr.positions.push_back(std::move(x));
    }
    const auto np = static_cast<hsize_t>(pairs.rows());
    std::vector<double> n(np * 3), t(np * 3);
    std::vector<int> count(np);
    at(ts::contact_normal_force, [&] { h5::read_block(normal, H5T_NATIVE_DOUBLE, {f, 0, 0}, {1, np, 3}, n.data()); });
    at(ts::contact_friction_force, [&] { h5::read_block(friction, H5T_NATIVE_DOUBLE, {f, 0, 0}, {1, np, 3}, t.data()); });
    at(ts::contact_pair_count, [&] { h5::read_block(pair_count, H5T_NATIVE_INT, {f, 0}, {1, np}, count.data()); });
    for (hsize_t c = 0; c < np; ++c) {
      BodyPairForce p;
      p.body_a = pairs(static_cast<Eigen::Index>(c), 0);
      p.body_b = pairs(static_cast<Eigen::Index>(c), 1);
      p.normal = Vec3(n[3 * c], n[3 * c + 1], n[3 * c + 2]);
      p.friction = Vec3(t[3 * c], t[3 * c + 1], t[3 * c + 2]);
      p.pairs = count[c];
      if (p.pairs != 0 || !p.normal.isZero(0.0) || !p.friction.isZero(0.0)) fr.pair_forces.push_back(p);
    }
  } catch (const InputError& e) {
    throw InputError(path + ": frame " + std::to_string(index) + ": " + e.what());
  }
  std::sort(fr.pair_forces.begin(), fr.pair_forces.end(), [](const BodyPairForce& a, const BodyPairForce& b) {
    return std::make_pair(a.body_a, a.body_b) < std::make_pair(b.body_a, b.body_b);
  });
  return fr;
}

TrajectoryReader::TrajectoryReader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->open();
}
TrajectoryReader::~TrajectoryReader() = default;
TrajectoryReader::TrajectoryReader(TrajectoryReader&&) noexcept = default;
TrajectoryReader& TrajectoryReader::operator=(TrajectoryReader&&) noexcept = default;

const std::string& TrajectoryReader::path() const { return impl_->path; }
const TrajectoryHeader& TrajectoryReader::header() const { return impl_->header; }
TrajectoryStatus TrajectoryReader::status() const { return impl_->status; }
const std::string& TrajectoryReader::status_reason() const { return impl_->reason; }
long TrajectoryReader::frame_count() const { return impl_->frames; }
Frame TrajectoryReader::read_frame(long index, bool positions) const { return impl_->frame(index, positions); }

Trajectory TrajectoryReader::read_all() const {
  Trajectory t;
  t.header = impl_->header;
  t.status = impl_->status;
  t.status_reason = impl_->reason;
  t.frames.reserve(static_cast<std::size_t>(impl_->frames));
  for (long i = 0; i < impl_->frames; ++i) t.frames.push_back(impl_->frame(i));
  return t;
}

Trajectory read_trajectory(const std::string& path) { return TrajectoryReader(path).read_all(); }
TrajectoryHeader read_trajectory_header(const std::string& path) { return TrajectoryReader(path).header(); }
Frame read_frame(const std::string& path, long index) { return TrajectoryReader(path).read_frame(index); }

}  // namespace eipc
