// Files read with h5py (Debian's /usr/bin/python3, the interpreter with h5py), and
// files edited with h5py (missing datasets, wrong shapes, no status) are rejected
// with InputError naming the dataset. Skipped with a warning if h5py is unavailable.
#include "eipc/io/trajectory_file.hpp"
#include "trajectory_fixture.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <functional>

using namespace eipc;
using Catch::Matchers::Contains;
using eipc::test::ScratchDir;

namespace {

const char* python = "/usr/bin/python3";

bool have_h5py() {
  static const bool ok = std::filesystem::exists(python) &&
                         std::system((std::string(python) + " -c 'import h5py' 2>/dev/null").c_str()) == 0;
  return ok;
}

// Runs `script` with the file path as sys.argv[1]; returns the exit status.
int run_python(const ScratchDir& dir, const std::string& script, const std::string& file) {
  const std::string script_path = dir.file("script.py");
  test::write_bytes(script_path, script);
  return std::system((std::string(python) + " " + script_path + " '" + file + "'").c_str());
}

}  // namespace

TEST_CASE("h5py reads the trajectory as documented", "[io][trajectory][h5py]") {
  if (!have_h5py()) {
    WARN("skipped: no h5py for " << python);
    return;
  }
  ScratchDir dir("traj_h5py_read");
  const std::string path = test::write_complete(dir, "run.h5");
  // The docs/trajectory-format.md example, plus assertions on the values written.
  const std::string script = R"(
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    assert f.attrs["format"] == "eipc-trajectory", f.attrs["format"]
    assert f.attrs["version"] == 1 and f.attrs["status"] == "complete"
    assert abs(f.attrs["dt"] - 0.01) == 0 and f.attrs["ground_height"] == -0.25
    names = list(f.attrs["body_names"])
    assert names == ["cube", "floor & <plate>"], names
    t = f["frames/time"][:]
    assert np.array_equal(t, [0.0, 0.01, 0.02]), t
    x = f["bodies/cube/positions"][:]          # [F, N, 3]
    assert x.shape == (3, 5, 3)
    rest = f["bodies/cube/rest_vertices"][:]
    assert np.allclose(x[2] - rest, [0, 0, -0.2 - 1e-3 * 2 ** 0.5])
    assert f["bodies/cube/embedding/weights"].shape == (5, 4)
    assert f["bodies/floor & <plate>"].attrs["kinematic"] == 1
    pairs = f["contact/pairs"][:]
    assert pairs.tolist() == [[0, -1], [0, 1]], pairs
    fn = f["contact/normal_force"][:]            # [F, P, 3]
    assert fn.shape == (3, 2, 3)
    assert np.array_equal(fn[:, 1, 2], [0, 0, 2.5])   # pair (0, 1) appears in frame 2
    assert f["contact/pair_count"][2].tolist() == [6, 5]
    assert np.isinf(f["frames/min_distance"][0])
)";
  CHECK(run_python(dir, script, path) == 0);
}

TEST_CASE("files edited with h5py are rejected naming the problem", "[io][trajectory][h5py]") {
  if (!have_h5py()) {
    WARN("skipped: no h5py for " << python);
    return;
  }
  ScratchDir dir("traj_h5py_edit");
  const std::string original = test::write_complete(dir, "run.h5");
  struct Edit {
    const char* what;
    const char* python;    // edits f
    const char* expected;  // in the error message
  };
  const Edit edits[] = {
      {"missing positions", "del f['bodies/cube/positions']", "/bodies/cube/positions"},
      {"missing time", "del f['frames/time']", "/frames/time"},
      {"missing embedding weights", "del f['bodies/cube/embedding/weights']", "/bodies/cube/embedding/weights"},
      {"missing body group", "del f['bodies/cube']", "/bodies/cube"},
      {"missing status", "del f.attrs['status']", "'status'"},
      {"unknown status", "f.attrs['status'] = 'running'", "'status'"},
      {"missing format", "del f.attrs['format']", "'format'"},
      {"wrong format", "f.attrs['format'] = 'eipc-scene'", "'format'"},
      {"newer version", "f.attrs['version'] = np.int32(2)", "'version'"},
      {"status of the wrong type", "f.attrs['status'] = 3", "'status'"},
      {"frame count larger than the data", "f.attrs['frame_count'] = np.int64(4)", "frame_count = 4"},
      {"positions with the wrong vertex count",
       "d = f['bodies/cube/positions'][:, :4, :]; del f['bodies/cube/positions']; "
       "f['bodies/cube/positions'] = d",
       "/bodies/cube/positions"},
      {"one time column short",
       "d = f['frames/step'][:2]; del f['frames/step']; f['frames/step'] = d", "/frames/step"},
      {"rest vertices with 2 columns",
       "d = f['bodies/cube/rest_vertices'][:, :2]; del f['bodies/cube/rest_vertices']; "
       "f['bodies/cube/rest_vertices'] = d",
       "/bodies/cube/rest_vertices"},
      {"triangle index out of range", "f['bodies/cube/surface_triangles'][0, 0] = 99",
       "/bodies/cube/surface_triangles"},
      {"pair naming a missing body", "f['contact/pairs'][1, 1] = 7", "/contact/pairs"},
      {"contact forces missing a pair column",
       "d = f['contact/normal_force'][:, :1, :]; del f['contact/normal_force']; "
       "f['contact/normal_force'] = d",
       "/contact/normal_force"},
      {"positions stored as text", "del f['bodies/cube/positions']; "
       "f['bodies/cube/positions'] = np.array([[[b'x'] * 3] * 5] * 3)",
       "/bodies/cube/positions"},
  };
  // One Python run makes every edited copy (starting Python per edit is slow).
  std::string script = "import sys, shutil, h5py, numpy as np\n";
  for (std::size_t i = 0; i < std::size(edits); ++i) {
    const std::string copy = dir.file("edited_" + std::to_string(i) + ".h5");
    script += "shutil.copyfile(sys.argv[1], '" + copy + "')\n";
    script += "with h5py.File('" + copy + "', 'r+') as f:\n    " + edits[i].python + "\n";
  }
  REQUIRE(run_python(dir, script, original) == 0);
  for (std::size_t i = 0; i < std::size(edits); ++i) {
    INFO(edits[i].what);
    const std::string path = dir.file("edited_" + std::to_string(i) + ".h5");
    const std::string msg = test::read_error(path);
    INFO(msg);
    CHECK_THAT(msg, Contains(path) && Contains(edits[i].expected));
  }
}
