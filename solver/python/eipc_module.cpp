// The Python module `eipc` (docs/python.md): the library run loop (Simulation)
// stepped from Python, its state as numpy arrays (copies), targets for
// prescribed nodes set between steps, trajectories written as the run goes,
// and the exact certification; and PeerRun, through which a peer engine written
// in Python (solver/peers/drake) writes its trajectory with the peers' run loop.
// All pybind11 code is in this one translation unit: it compiles slowly.
#include "eipc/certify/certify.hpp"
#include "eipc/simulation/simulation.hpp"
#include "peer_run.hpp"
#include "rigid_geometry.hpp"

#include <Eigen/LU>
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <sstream>

namespace py = pybind11;

namespace eipc::python {

namespace {

/// Bad input from Python: the same InputError (eipc.InputError) the loader throws.
[[noreturn]] void bad_input(const std::string& what) { throw InputError(what); }

py::object json_to_python(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

py::dict stats_dict(const StepStats& s) {
  py::dict d;
  d["newton_iterations"] = s.newton_iterations;
  d["line_search_steps"] = s.line_search_steps;
  d["factorizations"] = s.factorizations;
  d["wall_seconds"] = s.wall_seconds;
  d["min_distance"] = s.min_distance;  // inf when nothing was within dhat
  d["active_pairs"] = s.active_pairs;
  return d;
}

/// A numpy (n, 3) array that owns a copy of the data: later steps never change it.
py::array_t<double> to_numpy(const Positions& x) {
  py::array_t<double> a({static_cast<py::ssize_t>(x.rows()), static_cast<py::ssize_t>(3)});
  std::copy(x.data(), x.data() + x.size(), a.mutable_data());
  return a;
}

/// A numpy (3,) array that owns a copy. Allocated, then filled, like to_numpy: Debian's
/// pybind11 2.10 builds the array from a pointer wrongly under numpy 2 (all three entries
/// the first one), which the project's virtual environment has (docs/python.md).
py::array_t<double> vec3_to_numpy(const Vec3& v) {
  py::array_t<double> a(std::vector<py::ssize_t>{3});
  std::copy(v.data(), v.data() + 3, a.mutable_data());
  return a;
}

/// A (rows, cols) float array from any array-like, or InputError naming `what`.
Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> to_matrix(const py::handle& value,
                                                                                const std::string& what) {
  py::array_t<double, py::array::c_style | py::array::forcecast> a;
  try {
    a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  } catch (const py::error_already_set&) {
  }
  if (!a) bad_input(what + ": expected an array of numbers");
  Eigen::Index rows = 1, cols = 1;
  if (a.ndim() == 1) {
    cols = a.shape(0);
  } else if (a.ndim() == 2) {
    rows = a.shape(0);
    cols = a.shape(1);
  } else {
    bad_input(what + ": expected a 1- or 2-dimensional array, got " + std::to_string(a.ndim()) + " dimensions");
  }
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> m(rows, cols);
  std::copy(a.data(), a.data() + a.size(), m.data());
  if (!m.allFinite()) bad_input(what + ": values must be finite");
  return m;
}

/// The stepper reports a wrong body or row count as std::invalid_argument: bad input here.
template <class F>
auto with_input_errors(F&& f) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
}

std::string shape_text(Eigen::Index rows, Eigen::Index cols) {
  return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

/// A scene given from Python: a path (str or os.PathLike) or a dict of the scene's JSON,
/// whose relative mesh paths start at base_dir and whose messages name it as <dict> there.
Scene load_python_scene(const py::object& scene, const SceneOverrides& overrides, const std::string& base_dir) {
  if (!py::isinstance<py::dict>(scene))
    return load_scene(py::str(py::module_::import("os").attr("fspath")(scene)), overrides);
  const std::string text = py::str(py::module_::import("json").attr("dumps")(scene));
  const std::string name = (std::filesystem::absolute(base_dir) / "<dict>").string();
  return scene_from_json(nlohmann::json::parse(text), name, overrides);
}

class PySimulation {
public:
  PySimulation(const py::object& scene, std::optional<double> dt, std::optional<std::string> embedding,
               std::optional<double> duration, int threads, std::vector<std::string> set,
               const std::string& base_dir, std::optional<double> max_wall) {
    if (threads < 0) bad_input("threads: must be 0 (all cores) or positive, got " + std::to_string(threads));
    sim_ = std::make_unique<Simulation>(
        load_python_scene(scene, SceneOverrides{dt, duration, embedding, std::move(set)}, base_dir), threads);
    const py::object warn = py::module_::import("warnings").attr("warn");
    for (const std::string& w : sim_->warnings()) warn(w, py::module_::import("builtins").attr("UserWarning"), 2);
    if (max_wall) {
      if (!(*max_wall > 0)) bad_input("max_wall: must be positive");
      sim_->set_wall_limit(*max_wall, "max_wall " + py::str(py::float_(*max_wall)).cast<std::string>() + " s exceeded");
    }
  }

  ~PySimulation() {
    try {
      close();
    } catch (...) {
      // A destructor must not throw; close() explicitly to see errors.
    }
  }

  /// Ends the run: the trajectories of a run stopped before its end are
  /// finished as incomplete, with the reason. No steps after it.
  void close() {
    if (!sim_ || closed_) return;
    closed_ = true;
    if (sim_->finished()) return;  // the Simulation has finished its sinks
    const std::string at = "at step " + std::to_string(sim_->step_index()) + " of " + std::to_string(sim_->scene().steps);
    stopped_ = interrupted_at_ == sim_->step_index() ? "interrupted (KeyboardInterrupt) " + at
                                                     : "stopped by the program " + at;
    for (auto& sink : sinks_) sink->finish(TrajectoryStatus::incomplete, stopped_);
  }

  void write_trajectory(const std::string& path) {
    if (closed_) throw std::logic_error("the simulation is closed");
    if (sim_->step_index() != 0) throw std::logic_error("write_trajectory: trajectories start before the first step");
    sinks_.push_back(std::make_unique<TrajectorySink>(path, sim_->header()));
    sim_->add_sink(*sinks_.back());
  }

  py::dict step(long n) {
    if (n < 1) bad_input("step: n must be at least 1, got " + std::to_string(n));
    if (closed_) throw std::logic_error("the simulation is closed");
    for (long i = 0; i < n; ++i) {
      {
        py::gil_scoped_release release;
        try {
          last_ = sim_->step();
        } catch (const SolverFailure&) {
          // The Simulation has finished the trajectories as incomplete with this reason.
          throw SolverFailure(sim_->summary().reason);
        }
      }
      // Ctrl-C is acted on after the current step: Python's handler raises KeyboardInterrupt.
      if (PyErr_CheckSignals() != 0) {
        interrupted_at_ = sim_->step_index();
        throw py::error_already_set();
      }
    }
    return stats_dict(last_);
  }

  int body(const py::handle& which) const {
    if (py::isinstance<py::str>(which)) return sim_->body_index(which.cast<std::string>());
    if (py::isinstance<py::int_>(which)) {
      const long i = which.cast<long>();
      const long count = static_cast<long>(bodies().size());
      if (i < 0 || i >= count)
        bad_input(sim_->scene().path + ": no body " + std::to_string(i) + " (the scene has " + std::to_string(count) +
                  ")");
      return static_cast<int>(i);
    }
    bad_input("a body is given by its name or index, got " + py::repr(which).cast<std::string>());
  }

  const std::vector<Body>& bodies() const { return sim_->stepper().system().bodies(); }

  py::array_t<double> positions(const py::handle& which) const {
    const int b = body(which);
    return to_numpy(sim_->stepper().system().fine_positions(b, sim_->stepper().nodes()));
  }

  py::array_t<double> velocities(const py::handle& which) const {
    const int b = body(which);
    const DofSystem& sys = sim_->stepper().system();
    return to_numpy(bodies()[b].fine_map.apply(
        sim_->stepper().velocities().middleRows(sys.node_offset(b), bodies()[b].num_nodes())));
  }

  py::array_t<double> nodes(const py::handle& which) const {
    const int b = body(which);
    const DofSystem& sys = sim_->stepper().system();
    return to_numpy(sim_->stepper().nodes().middleRows(sys.node_offset(b), bodies()[b].num_nodes()));
  }

  /// Node indices (within the body) of the rows of targets(body), in order.
  std::vector<int> prescribed_nodes(const py::handle& which) const {
    const int b = body(which);
    const DofSystem& sys = sim_->stepper().system();
    std::vector<int> out;
    for (const PrescribedNode& p : sys.prescribed())
      if (p.body == b) out.push_back(p.node - sys.node_offset(b));
    return out;
  }

  py::array_t<double> targets(const py::handle& which) const {
    return to_numpy(with_input_errors([&] { return sim_->stepper().prescribed_targets(body(which), sim_->time()); }));
  }

  void set_targets(const py::handle& which, const py::handle& value) {
    const int b = body(which);
    const long expected = static_cast<long>(prescribed_nodes(which).size());
    const std::string what = "set_targets('" + bodies()[b].name + "')";
    if (expected == 0) bad_input(what + ": body '" + bodies()[b].name + "' has no prescribed nodes");
    const auto m = to_matrix(value, what);
    if (m.rows() != expected || m.cols() != 3)
      bad_input(what + ": expected shape " + shape_text(expected, 3) + " (one row per prescribed node), got " +
                shape_text(m.rows(), m.cols()));
    sim_->set_prescribed_targets(b, m);
  }

  void set_transform(const py::handle& which, const py::handle& rotation, const py::handle& translation) {
    const int b = body(which);
    const std::string what = "set_transform('" + bodies()[b].name + "')";
    const auto r = to_matrix(rotation, what + ": rotation");
    const auto t = to_matrix(translation, what + ": translation");
    if (r.rows() != 3 || r.cols() != 3) bad_input(what + ": rotation must be 3x3, got " + shape_text(r.rows(), r.cols()));
    if (t.size() != 3) bad_input(what + ": translation must have 3 values, got " + std::to_string(t.size()));
    const Mat3 rot = r;
    if ((rot.transpose() * rot - Mat3::Identity()).norm() > 1e-6 || rot.determinant() < 0)
      bad_input(what + ": rotation is not a rotation matrix (orthonormal, determinant +1)");
    with_input_errors([&] {
      sim_->set_prescribed_transform(b, rot, Vec3(t(0), t(1), t(2)));
      return 0;
    });
  }

  void clear_targets(const py::handle& which) { sim_->stepper().clear_prescribed_targets(body(which)); }

  py::list contact_forces() const {
    py::list out;
    for (const BodyPairForce& f : sim_->stepper().contact_forces()) {
      py::dict d;
      d["body_a"] = bodies()[f.body_a].name;
      d["body_b"] = f.body_b >= 0 ? bodies()[f.body_b].name : std::string("ground");
      d["normal"] = vec3_to_numpy(f.normal);
      d["friction"] = vec3_to_numpy(f.friction);
      d["pairs"] = f.pairs;
      out.append(d);
    }
    return out;
  }

  py::dict summary() const {
    const RunSummary& s = sim_->summary();
    py::dict d;
    const bool incomplete = s.failed || !stopped_.empty();
    d["status"] = incomplete ? "incomplete" : sim_->finished() ? "complete" : "running";
    d["steps"] = s.steps;
    d["simulated_seconds"] = s.simulated_seconds;
    d["wall_seconds"] = s.wall_seconds;
    d["real_time_factor"] = s.wall_seconds > 0 ? s.simulated_seconds / s.wall_seconds : 0.0;
    d["newton_iterations_mean"] = s.steps > 0 ? double(s.newton_total) / s.steps : 0.0;
    d["newton_iterations_max"] = s.newton_max;
    d["line_search_steps"] = s.line_search_total;
    d["factorizations_mean"] = s.steps > 0 ? double(s.factorization_total) / s.steps : 0.0;
    d["min_distance"] = std::isfinite(s.min_distance) ? py::object(py::float_(s.min_distance)) : py::object(py::none());
    d["reason"] = s.failed ? s.reason : stopped_;
    py::dict phases;
    phases["broad_phase"] = s.phases.broad_phase;
    phases["assembly"] = s.phases.assembly;
    phases["linear_solve"] = s.phases.linear_solve;
    phases["ccd"] = s.phases.ccd;
    phases["line_search"] = s.phases.line_search;
    d["phase_seconds"] = phases;
    return d;
  }

  const Simulation& sim() const { return *sim_; }
  py::object last_step() const { return sim_->step_index() > 0 ? py::object(stats_dict(last_)) : py::object(py::none()); }

private:
  std::vector<std::unique_ptr<TrajectorySink>> sinks_;  // outlive sim_ (declared first)
  std::unique_ptr<Simulation> sim_;
  StepStats last_;
  bool closed_ = false;
  std::string stopped_;  ///< why close() ended the run before its last step
  long interrupted_at_ = -1;  ///< the step after which a KeyboardInterrupt was raised
};


// ---------------------------------------------------------------------------------------
// Peer engines written in Python (docs/peers.md, "Peers in Python"). Nothing here uses
// numpy's C API: arrays come in through the buffer protocol (or as nested sequences) and
// go out as lists, so the module works with any numpy the peer's interpreter has.

py::list to_list(const Positions& x) {
  py::list out;
  for (Eigen::Index i = 0; i < x.rows(); ++i) out.append(py::make_tuple(x(i, 0), x(i, 1), x(i, 2)));
  return out;
}

template <int N>
py::list to_list(const Eigen::Matrix<int, Eigen::Dynamic, N, Eigen::RowMajor>& m) {
  py::list out;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    py::tuple row(N);
    for (int j = 0; j < N; ++j) row[j] = m(i, j);
    out.append(row);
  }
  return out;
}

/// (n, 3) float positions from a numpy array (any version: the buffer protocol) or a
/// sequence of 3-sequences; std::invalid_argument naming `what` otherwise.
Positions positions_from(const py::handle& value, const std::string& what) {
  if (PyObject_CheckBuffer(value.ptr())) {
    const py::buffer_info info = py::reinterpret_borrow<py::buffer>(value).request();
    const bool is_double = info.itemsize == sizeof(double) &&
                           (info.format == "d" || info.format == "<d" || info.format == "=d" || info.format == "@d");
    if (info.ndim == 2 && info.shape[1] == 3 && is_double) {
      Positions p(info.shape[0], 3);
      const char* base = static_cast<const char*>(info.ptr);
      for (py::ssize_t i = 0; i < info.shape[0]; ++i)
        for (py::ssize_t j = 0; j < 3; ++j)
          p(i, j) = *reinterpret_cast<const double*>(base + i * info.strides[0] + j * info.strides[1]);
      return p;
    }
    if (info.ndim != 2 || info.shape[1] != 3)
      throw std::invalid_argument(what + ": expected an (n, 3) array, got " + std::to_string(info.ndim) +
                                  " dimensions");
  }
  const py::sequence rows = py::reinterpret_borrow<py::sequence>(value);
  Positions p(static_cast<Eigen::Index>(py::len(rows)), 3);
  for (Eigen::Index i = 0; i < p.rows(); ++i) {
    const py::sequence row = rows[static_cast<size_t>(i)];
    if (py::len(row) != 3) throw std::invalid_argument(what + ": row " + std::to_string(i) + " does not have 3 values");
    for (int j = 0; j < 3; ++j) p(i, j) = row[static_cast<size_t>(j)].cast<double>();
  }
  return p;
}

Vec3 vec3_from(const py::handle& value, const std::string& what) {
  const py::sequence v = py::reinterpret_borrow<py::sequence>(value);
  if (py::len(v) != 3) throw std::invalid_argument(what + ": expected 3 values");
  return Vec3(v[0].cast<double>(), v[1].cast<double>(), v[2].cast<double>());
}

nlohmann::json json_from_python(const py::handle& value) {
  return nlohmann::json::parse(py::str(py::module_::import("json").attr("dumps")(value)).cast<std::string>());
}

/// A Python object as a PeerEngine (peer_engine.hpp): attributes `name`, `version`; methods
/// `parameters()`, `mapping()`, `step()` (returns the engine's internal steps or None),
/// `positions()` (per body, full-resolution vertices in scene order), `contact_forces()`
/// (dicts body_a, body_b, normal, friction, pairs), optional `min_distance()`, `usage()`.
/// eipc.SolverFailure raised by step() ends the run incomplete (exit 3) with its message;
/// KeyboardInterrupt as Interrupted.
class PythonEngine final : public peers::PeerEngine {
public:
  PythonEngine(py::object engine, const Scene& scene) : engine_(std::move(engine)), scene_(scene) {
    name_ = py::str(engine_.attr("name")).cast<std::string>();
    version_ = py::str(engine_.attr("version")).cast<std::string>();
  }
  std::string name() const override { return name_; }
  std::string version() const override { return version_; }
  nlohmann::json parameters() const override { return json_from_python(engine_.attr("parameters")()); }
  nlohmann::json mapping() const override { return json_from_python(engine_.attr("mapping")()); }

  void step() override {
    py::object r;
    try {
      r = engine_.attr("step")();
    } catch (py::error_already_set& e) {
      if (e.matches(py::module_::import("eipc").attr("SolverFailure")))
        throw SolverFailure(py::str(e.value()).cast<std::string>());
      if (e.matches(PyExc_KeyboardInterrupt)) {
        const std::string what = py::str(e.value()).cast<std::string>();
        throw Interrupted(what.empty() ? "KeyboardInterrupt" : what);
      }
      throw;
    }
    iterations_ = r.is_none() ? 1 : r.cast<int>();
  }
  int last_iterations() const override { return iterations_; }

  std::vector<Positions> fine_positions() const override {
    const py::sequence all = engine_.attr("positions")();
    if (py::len(all) != scene_.bodies.size())
      throw std::invalid_argument(name_ + ": positions() gave " + std::to_string(py::len(all)) + " bodies, the scene has " +
                                  std::to_string(scene_.bodies.size()));
    std::vector<Positions> x;
    for (size_t b = 0; b < scene_.bodies.size(); ++b) {
      x.push_back(positions_from(all[b], name_ + ": positions() of body '" + scene_.bodies[b].name + "'"));
      if (x.back().rows() != scene_.bodies[b].fine_rest.rows())
        throw std::invalid_argument(name_ + ": positions() of body '" + scene_.bodies[b].name + "' has " +
                                    std::to_string(x.back().rows()) + " vertices, the body " +
                                    std::to_string(scene_.bodies[b].fine_rest.rows()));
    }
    return x;
  }

  int body_index(const py::handle& which) const {
    if (py::isinstance<py::str>(which)) {
      const std::string n = which.cast<std::string>();
      if (n == "ground") return -1;
      for (size_t b = 0; b < scene_.bodies.size(); ++b)
        if (scene_.bodies[b].name == n) return static_cast<int>(b);
      throw std::invalid_argument(name_ + ": contact_forces(): no body '" + n + "'");
    }
    const int i = which.cast<int>();
    if (i < -1 || i >= static_cast<int>(scene_.bodies.size()))
      throw std::invalid_argument(name_ + ": contact_forces(): no body " + std::to_string(i));
    return i;
  }

  /// Force on body_a from body_b; a pair given as (b, a) or with the ground first is
  /// stored as (a, b), a < b (the ground, -1, second) with the opposite sign.
  std::vector<BodyPairForce> contact_forces() const override {
    std::vector<BodyPairForce> out;
    for (const py::handle& item : py::reinterpret_borrow<py::sequence>(engine_.attr("contact_forces")())) {
      const py::dict d = py::reinterpret_borrow<py::dict>(item);
      BodyPairForce f;
      f.body_a = body_index(d["body_a"]);
      f.body_b = body_index(d["body_b"]);
      f.normal = vec3_from(d["normal"], name_ + ": contact_forces() normal");
      f.friction = vec3_from(d["friction"], name_ + ": contact_forces() friction");
      f.pairs = d.contains("pairs") ? d["pairs"].cast<int>() : 0;
      if (f.body_a == f.body_b) throw std::invalid_argument(name_ + ": contact_forces(): a body paired with itself");
      if (f.body_a == -1 || (f.body_b != -1 && f.body_a > f.body_b)) {
        std::swap(f.body_a, f.body_b);
        f.normal = -f.normal;
        f.friction = -f.friction;
      }
      out.push_back(f);
    }
    return out;
  }

  double min_distance() const override {
    if (!py::hasattr(engine_, "min_distance")) return std::numeric_limits<double>::quiet_NaN();
    return engine_.attr("min_distance")().cast<double>();
  }
  nlohmann::json usage() const override {
    if (!py::hasattr(engine_, "usage")) return nlohmann::json::object();
    return json_from_python(engine_.attr("usage")());
  }

private:
  py::object engine_;
  const Scene& scene_;
  std::string name_, version_;
  int iterations_ = 0;
};

/// A scene loaded and start-checked for a peer engine, its bodies as the trajectory
/// header has them, and the peers' run loop (peer_run.hpp) around a Python engine.
class PyPeerRun {
public:
  PyPeerRun(const py::object& scene, std::optional<double> dt, std::optional<std::string> embedding,
            std::optional<double> duration, std::vector<std::string> set, const std::string& base_dir) {
    scene_ = load_python_scene(scene, SceneOverrides{dt, duration, embedding, std::move(set)}, base_dir);
    peers::check_peer_start(scene_);
  }

  const Scene& scene() const { return scene_; }

  int body(const py::handle& which) const {
    if (py::isinstance<py::str>(which)) {
      const std::string n = which.cast<std::string>();
      for (size_t b = 0; b < scene_.bodies.size(); ++b)
        if (scene_.bodies[b].name == n) return static_cast<int>(b);
      bad_input(scene_.path + ": no body '" + n + "'");
    }
    const long i = which.cast<long>();
    if (i < 0 || i >= static_cast<long>(scene_.bodies.size())) bad_input(scene_.path + ": no body " + std::to_string(i));
    return static_cast<int>(i);
  }

  py::list bodies() const {
    py::list out;
    for (const Body& b : scene_.bodies) {
      py::dict d;
      d["name"] = b.name;
      d["kinematic"] = b.kinematic;
      d["embedding"] = b.embedding;
      d["rest"] = to_list(b.fine_rest);
      d["tets"] = to_list<4>(b.fine_tets);
      d["surface"] = to_list<3>(b.surface);
      d["num_nodes"] = b.num_nodes();
      d["prescribed_nodes"] = b.prescribed_nodes;
      d["has_motion"] = !b.motion.empty();
      d["pivot"] = py::make_tuple(b.pivot(0), b.pivot(1), b.pivot(2));
      py::dict material;
      // A shell's model is the scene's name for it (its Material holds only E, nu, rho).
      material["model"] = b.shell_thickness > 0 ? std::string("stvk_shell") : eipc::model_name(b.material.model);
      material["youngs"] = b.material.youngs;
      material["poisson"] = b.material.poisson;
      material["density"] = b.material.density;
      if (b.shell_thickness > 0) material["thickness"] = b.shell_thickness;
      d["material"] = material;
      d["rayleigh_beta"] = b.rayleigh_beta;
      out.append(d);
    }
    return out;
  }

  /// The body's scripted motion at time t: {"translation", "rotation_deg"} (rotation about
  /// the body's pivot, its rest centroid), eipc's own interpolation of the keyframes.
  py::dict motion_at(const py::handle& which, double t) const {
    const Body& b = scene_.bodies[body(which)];
    if (b.motion.empty()) bad_input(scene_.path + ": body '" + b.name + "' has no motion");
    const Keyframe k = b.motion.at(t);
    py::dict d;
    d["translation"] = py::make_tuple(k.translation(0), k.translation(1), k.translation(2));
    d["rotation_deg"] = py::make_tuple(k.rotation_deg(0), k.rotation_deg(1), k.rotation_deg(2));
    return d;
  }

  /// The body's full-resolution rest vertices where its scripted motion puts them at time t
  /// (Motion::apply, the pose eipc itself prescribes), one (x, y, z) per vertex.
  py::list posed(const py::handle& which, double t) const {
    const Body& b = scene_.bodies[body(which)];
    if (b.motion.empty()) bad_input(scene_.path + ": body '" + b.name + "' has no motion");
    py::list out;
    for (int v = 0; v < b.fine_rest.rows(); ++v) {
      const Vec3 x = b.motion.apply(t, b.fine_rest.row(v).transpose(), b.pivot);
      out.append(py::make_tuple(x(0), x(1), x(2)));
    }
    return out;
  }

  /// The body as a rigid body: its tets' mass, centre and central inertia at its density
  /// (rigid_geometry.hpp, as eipc-bullet and eipc-mujoco build rigid bodies).
  py::dict mass_properties(const py::handle& which) const {
    const Body& b = scene_.bodies[body(which)];
    if (b.fine_tets.rows() == 0) bad_input(scene_.path + ": body '" + b.name + "' has no tets (mass properties)");
    const peers::MassProperties p = peers::tet_mass_properties(b.fine_rest, b.fine_tets, b.material.density);
    py::dict d;
    d["mass"] = p.mass;
    d["centre"] = py::make_tuple(p.centre(0), p.centre(1), p.centre(2));
    py::list rows;
    for (int i = 0; i < 3; ++i) rows.append(py::make_tuple(p.inertia(i, 0), p.inertia(i, 1), p.inertia(i, 2)));
    d["inertia"] = rows;
    return d;
  }

  /// The body's convex pieces (vertex indices into its rest vertices), grouped on a grid of
  /// edge `cell` metres: the decomposition eipc-bullet and eipc-mujoco use (docs/peers.md).
  std::vector<std::vector<int>> convex_pieces(const py::handle& which, double cell) const {
    if (!(cell > 0)) bad_input("convex_pieces: cell must be positive");
    return peers::convex_pieces(scene_.bodies[body(which)], cell);
  }

  py::dict run(const py::object& engine, const std::string& out, std::optional<double> max_wall, bool progress) {
    if (max_wall && !(*max_wall > 0)) bad_input("max_wall: must be positive");
    PythonEngine adapter(engine, scene_);
    const peers::PeerRunResult result = with_input_errors(
        [&] { return peers::run_peer_engine(scene_, adapter, out, max_wall, progress); });
    return json_to_python(peers::peer_summary_json(result, adapter.name()).dump());
  }

private:
  Scene scene_;
};

py::dict certify_file(const std::string& path, bool continuous, int threads) {
  certify::CertifyOptions options;
  options.continuous = continuous;
  options.threads = threads;
  certify::CertifyReport report;
  {
    py::gil_scoped_release release;
    report = certify::certify_input(path, options);
  }
  std::ostringstream json;
  certify::print_report_json(report, json);
  return json_to_python(json.str());
}

}  // namespace

}  // namespace eipc::python

PYBIND11_MODULE(eipc, m) {
  using namespace eipc;
  using namespace eipc::python;
  m.doc() = "Embedded IPC simulation from Python (docs/python.md)";
  m.attr("__version__") = EIPC_VERSION;
  // Every state read returns numpy arrays: import numpy now, not inside the first read after a step.
  py::module_::import("numpy");
  // Bad input (the CLI's exit 2) and solver failures (exit 3) as Python exceptions.
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<SolverFailure>(m, "SolverFailure", PyExc_RuntimeError);

  py::class_<PySimulation>(m, "Simulation", "A scene stepped from Python (docs/python.md)")
      .def(py::init<const py::object&, std::optional<double>, std::optional<std::string>, std::optional<double>, int,
                    std::vector<std::string>, const std::string&, std::optional<double>>(),
           py::arg("scene"), py::kw_only(), py::arg("dt") = py::none(), py::arg("embedding") = py::none(),
           py::arg("duration") = py::none(), py::arg("threads") = 0, py::arg("set") = std::vector<std::string>{},
           py::arg("base_dir") = ".", py::arg("max_wall") = py::none(),
           "scene: a scene file path or a scene dict (relative mesh paths from base_dir); the other arguments are "
           "eipc run's options (--dt, --embedding, --duration, --threads, --set key=value, --max-wall)")
      .def("step", &PySimulation::step, py::arg("n") = 1,
           "Advance n steps; returns the last step's statistics. Raises SolverFailure if a step fails.")
      .def("write_trajectory", &PySimulation::write_trajectory, py::arg("path"),
           "Write the trajectory (HDF5 + XDMF, as eipc run) as the run goes; before the first step")
      .def("close", &PySimulation::close, "Finish the trajectories of a run stopped early (marked incomplete)")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PySimulation& s, py::args) { s.close(); })
      .def_property_readonly("time", [](const PySimulation& s) { return s.sim().time(); })
      .def_property_readonly("step_index", [](const PySimulation& s) { return s.sim().step_index(); })
      .def_property_readonly("steps", [](const PySimulation& s) { return s.sim().scene().steps; })
      .def_property_readonly("dt", [](const PySimulation& s) { return s.sim().scene().params.dt; })
      .def_property_readonly("finished", [](const PySimulation& s) { return s.sim().finished(); })
      .def_property_readonly("bodies",
                             [](const PySimulation& s) {
                               std::vector<std::string> names;
                               for (const Body& b : s.bodies()) names.push_back(b.name);
                               return names;
                             })
      .def("positions", &PySimulation::positions, py::arg("body"), "Full-resolution vertices (n, 3), a copy")
      .def("velocities", &PySimulation::velocities, py::arg("body"), "Full-resolution vertex velocities (n, 3), a copy")
      .def("nodes", &PySimulation::nodes, py::arg("body"), "Simulation nodes q of the body (m, 3), a copy")
      .def("prescribed_nodes", &PySimulation::prescribed_nodes, py::arg("body"),
           "Indices into nodes(body) of the prescribed nodes, in the row order of targets(body)")
      .def("targets", &PySimulation::targets, py::arg("body"), "Where the prescribed nodes go at the current time")
      .def("set_targets", &PySimulation::set_targets, py::arg("body"), py::arg("positions"),
           "Prescribed nodes go to these positions (one row per prescribed node) from the next step on")
      .def("set_transform", &PySimulation::set_transform, py::arg("body"), py::arg("rotation"), py::arg("translation"),
           "Prescribed nodes go to R (x_rest - c) + c + t (c: the body's rest centroid) from the next step on")
      .def("clear_targets", &PySimulation::clear_targets, py::arg("body"),
           "Prescribed nodes follow the scene's motion again")
      .def("contact_forces", &PySimulation::contact_forces,
           "Forces (N) on body_a from body_b (or the ground) at the end of the last step, per body pair")
      .def_property_readonly("last_step", &PySimulation::last_step, "Statistics of the last step (None before it)")
      .def("summary", &PySimulation::summary, "The run so far, as eipc run --json");


  py::class_<PyPeerRun>(m, "PeerRun",
                        "A scene for a peer engine written in Python, and the peers' run loop around it (docs/peers.md)")
      .def(py::init<const py::object&, std::optional<double>, std::optional<std::string>, std::optional<double>,
                    std::vector<std::string>, const std::string&>(),
           py::arg("scene"), py::kw_only(), py::arg("dt") = py::none(), py::arg("embedding") = py::none(),
           py::arg("duration") = py::none(), py::arg("set") = std::vector<std::string>{}, py::arg("base_dir") = ".",
           "Loads and checks the scene as eipc run and the C++ peers do (InputError on bad input or bodies "
           "touching at t = 0)")
      .def_property_readonly("name", [](const PyPeerRun& r) { return r.scene().name; })
      .def_property_readonly("path", [](const PyPeerRun& r) { return r.scene().path; })
      .def_property_readonly("dt", [](const PyPeerRun& r) { return r.scene().params.dt; })
      .def_property_readonly("duration", [](const PyPeerRun& r) { return r.scene().duration; })
      .def_property_readonly("steps", [](const PyPeerRun& r) { return r.scene().steps; })
      .def_property_readonly("output_stride", [](const PyPeerRun& r) { return r.scene().output_stride; })
      .def_property_readonly("gravity",
                             [](const PyPeerRun& r) {
                               const Vec3& g = r.scene().params.gravity;
                               return py::make_tuple(g(0), g(1), g(2));
                             })
      .def_property_readonly("ground_height",
                             [](const PyPeerRun& r) {
                               const auto& h = r.scene().params.ground_height;
                               return h ? py::object(py::float_(*h)) : py::object(py::none());
                             })
      .def_property_readonly("scene", [](const PyPeerRun& r) { return json_to_python(r.scene().json.dump()); },
                             "The scene as run (overrides applied), as a dict")
      .def_property_readonly("bodies", &PyPeerRun::bodies,
                             "Per body in scene order: name, kinematic, embedding, rest (full-resolution vertices "
                             "after the transform), tets, surface, num_nodes, prescribed_nodes, has_motion, pivot, "
                             "material, rayleigh_beta (lists, not numpy arrays)")
      .def("motion_at", &PyPeerRun::motion_at, py::arg("body"), py::arg("t"),
           "The body's scripted motion at time t (translation, rotation_deg about its pivot)")
      .def("posed", &PyPeerRun::posed, py::arg("body"), py::arg("t"),
           "The body's rest vertices (those of `bodies`' rest) where its scripted motion puts them at time t")
      .def("mass_properties", &PyPeerRun::mass_properties, py::arg("body"),
           "The body's tets as a rigid body at its density: mass, centre, inertia (3x3 about the centre)")
      .def("convex_pieces", &PyPeerRun::convex_pieces, py::arg("body"), py::arg("cell"),
           "The body's convex pieces on a grid of edge `cell` (m): lists of rest-vertex indices (docs/peers.md)")
      .def("run", &PyPeerRun::run, py::arg("engine"), py::arg("out"), py::kw_only(), py::arg("max_wall") = py::none(),
           py::arg("progress") = false,
           "Runs the engine to the scene's end and writes the trajectory `out` (eipc run's header, the engine "
           "attributes); returns the summary as eipc-<engine> --json. eipc.SolverFailure from engine.step() ends "
           "the run incomplete; the summary says why.");

  m.def("certify", &certify_file, py::arg("path"), py::kw_only(), py::arg("continuous") = false,
        py::arg("threads") = 0, "Exact certification of a trajectory, as a dict like eipc certify --json");
}
