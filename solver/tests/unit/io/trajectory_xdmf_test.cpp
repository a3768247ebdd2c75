// The XDMF sidecar is well-formed XML and references datasets the HDF5 file has.
#include "eipc/io/trajectory_file.hpp"
#include "trajectory_fixture.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <vector>

using namespace eipc;
using eipc::test::ScratchDir;

namespace {

// Minimal well-formedness check: tags nest and close in order, attributes are quoted,
// and no raw '&' or '<' appears outside tags. Returns "" if fine, else the problem.
std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  std::size_t i = 0;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const auto semi = xml.find(';', i);
      const std::string ent = xml.substr(i, semi == std::string::npos ? 0 : semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&apos;")
        return "bad entity at " + std::to_string(i);
      i = semi + 1;
      continue;
    }
    if (xml[i] != '<') { ++i; continue; }
    const auto end = xml.find('>', i);
    if (end == std::string::npos) return "unterminated tag";
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.find('<') != std::string::npos) return "'<' inside a tag";
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (std::count(tag.begin(), tag.end(), '"') % 2) return "unbalanced quotes in <" + tag + ">";
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "mismatched </" + tag.substr(1) + ">";
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    const std::string name = tag.substr(0, tag.find_first_of(" /"));
    if (!self_closing) open.push_back(name);
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

// A complete 3-frame synthetic run at dir/run.h5 (with its sidecars).
std::string write_complete_run(const ScratchDir& dir) {
  const std::string path = dir.file("run.h5");
  const TrajectoryHeader h = test::synthetic_header();
  TrajectoryWriter w(path, h);
  for (int i = 0; i < 3; ++i) w.append(test::synthetic_frame(h, i));
  w.finish(TrajectoryStatus::complete);
  return path;
}

}  // namespace

TEST_CASE("the XDMF checker itself rejects broken XML", "[io][xdmf]") {
  CHECK(xml_problem("<a><b/></a>").empty());
  CHECK_FALSE(xml_problem("<a><b></a>").empty());
  CHECK_FALSE(xml_problem("<a x=\"1></a>").empty());
  CHECK_FALSE(xml_problem("<a>x & y</a>").empty());
  CHECK_FALSE(xml_problem("<a>").empty());
}

TEST_CASE("XDMF sidecar is well-formed and references existing datasets", "[io][xdmf]") {
  ScratchDir dir("traj_xdmf");
  const std::string path = dir.file("run.h5");
  const TrajectoryHeader h = test::synthetic_header();
  {
    TrajectoryWriter w(path, h);
    for (int i = 0; i < 3; ++i) w.append(test::synthetic_frame(h, i));
    w.finish(TrajectoryStatus::complete);
  }
  CHECK(trajectory_xdmf_path(path) == dir.file("run.xdmf"));
  const std::string xml = test::read_bytes(dir.file("run.xdmf"));
  REQUIRE_FALSE(xml.empty());
  CHECK(xml_problem(xml).empty());
  INFO(xml_problem(xml));

  // One temporal collection; per frame a Time and one Grid per body.
  CHECK(count(xml, "CollectionType=\"Temporal\"") == 1);
  CHECK(count(xml, "<Time Value=") == 3);
  CHECK(count(xml, "TopologyType=\"Triangle\"") == 3 * 2);
  CHECK(count(xml, "Name=\"floor &amp; &lt;plate&gt;\"") == 3);

  // Every HDF reference names the file (relative) and a dataset that exists in it with
  // the dimensions the XDMF states; positions are read one frame at a time through XDMF 3's
  // inline hyperslab "path|start:stride:count:dims".
  std::set<std::string> expected;
  for (const auto& b : h.bodies) {
    expected.insert("/bodies/" + b.name + "/surface_triangles");
    expected.insert("/bodies/" + b.name + "/positions");
  }
  const std::regex ref(R"re(<DataItem Dimensions="([0-9 ]+)"[^>]*Format="HDF">([^<|]*)(\|[^<]*)?</DataItem>)re");
  std::set<std::string> seen;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), ref); it != std::sregex_iterator(); ++it) {
    const std::string dims = (*it)[1], target = (*it)[2], slice = (*it)[3];
    REQUIRE(target.rfind("run.h5:", 0) == 0);
    std::string dataset = target.substr(7);
    for (std::string::size_type p; (p = dataset.find("&amp;")) != std::string::npos;) dataset.replace(p, 5, "&");
    for (std::string::size_type p; (p = dataset.find("&lt;")) != std::string::npos;) dataset.replace(p, 4, "<");
    for (std::string::size_type p; (p = dataset.find("&gt;")) != std::string::npos;) dataset.replace(p, 4, ">");
    INFO(dataset);
    CHECK(expected.count(dataset) == 1);
    seen.insert(dataset);
    for (std::size_t b = 0; b < h.bodies.size(); ++b) {
      const std::string g = "/bodies/" + h.bodies[b].name;
      const std::string n = std::to_string(h.bodies[b].rest.rows());
      if (dataset == g + "/positions") {
        CHECK(dims == n + " 3");
        CHECK(std::regex_match(slice, std::regex("\\|[0-2] 0 0:1 1 1:1 " + n + " 3:3 " + n + " 3")));
      }
      if (dataset == g + "/surface_triangles") {
        CHECK(dims == std::to_string(h.bodies[b].surface.rows()) + " 3");
        CHECK(slice.empty());
      }
    }
  }
  CHECK(seen == expected);
  // Frame 2's slice starts at frame index 2.
  CHECK(xml.find("/positions|2 0 0:1 1 1:1 5 3:3 5 3</DataItem>") != std::string::npos);
  // The per-frame collections are unnamed (Xdmf3ReaderT then keeps the body names).
  CHECK(count(xml, "<Grid GridType=\"Collection\" CollectionType=\"Spatial\">") == 3);
}

TEST_CASE("legacy XDMF sidecar: one temporal collection per body, HyperSlab wrappers", "[io][xdmf]") {
  ScratchDir dir("traj_xdmf2");
  const std::string path = write_complete_run(dir);
  CHECK(trajectory_xdmf_path(path, XdmfFlavour::legacy) == dir.file("run.xdmf2"));
  const std::string xml = test::read_bytes(dir.file("run.xdmf2"));
  REQUIRE_FALSE(xml.empty());
  INFO(xml_problem(xml));
  CHECK(xml_problem(xml).empty());
  CHECK(count(xml, "CollectionType=\"Temporal\"") == 2);
  CHECK(count(xml, "<Grid Name=\"cube\" GridType=\"Collection\" CollectionType=\"Temporal\">") == 1);
  CHECK(count(xml, "<Grid Name=\"cube\" GridType=\"Uniform\">") == 3);
  CHECK(count(xml, "<Time Value=") == 3 * 2);
  CHECK(count(xml, "ItemType=\"HyperSlab\"") == 3 * 2);
  CHECK(xml.find(">2 0 0 1 1 1 1 5 3</DataItem>") != std::string::npos);
  CHECK(xml.find("<DataItem Dimensions=\"3 5 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">"
                 "run.h5:/bodies/cube/positions</DataItem>") != std::string::npos);
  CHECK(xml.find('|') == std::string::npos);
}

TEST_CASE("finish leaves both sidecars in place and no partial files", "[io][xdmf]") {
  ScratchDir dir("traj_xdmf_finish");
  const std::string path = write_complete_run(dir);
  for (XdmfFlavour flavour : {XdmfFlavour::xdmf3, XdmfFlavour::legacy}) {
    const std::string sidecar = trajectory_xdmf_path(path, flavour);
    REQUIRE(std::filesystem::exists(sidecar));
    CHECK_FALSE(std::filesystem::exists(trajectory_partial_path(sidecar)));
    std::ifstream in(sidecar);
    const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(xml_problem(xml).empty());
    CHECK(count(xml, "<Time Value=") >= 3);  // the 3 frames
  }
  CHECK(std::filesystem::exists(path));
  CHECK_FALSE(std::filesystem::exists(trajectory_partial_path(path)));
}
