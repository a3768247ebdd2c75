// <VTKFile type="Collection"><Collection><DataSet timestep="t" group="" part="p" file="f"/>...
#include "eipc/mesh/read_pvd.hpp"

#include "text_file.hpp"
#include "xml_tags.hpp"

#include <cmath>

namespace eipc {

std::vector<PvdDataSet> read_pvd(const std::string& path) {
  mesh_detail::TextFile f(path);
  mesh_detail::XmlTags xml(path, f.rest());
  mesh_detail::XmlTag tag;
  if (!xml.next(tag) || tag.name != "VTKFile" || tag.get("type") != "Collection")
    xml.fail("not a ParaView collection (expected <VTKFile type=\"Collection\">)");
  std::vector<PvdDataSet> sets;
  auto number = [&](const std::string& text, const char* what) {
    std::size_t used = 0;
    double v = 0.0;
    try {
      v = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(v)) xml.fail(std::string("bad ") + what + " '" + text + "'");
    return v;
  };
  while (xml.next(tag)) {
    if (tag.closing || tag.name != "DataSet") continue;
    PvdDataSet d;
    d.time = number(tag.get("timestep", "0"), "timestep");
    const double part = number(tag.get("part", "0"), "part");
    if (part != std::floor(part) || std::abs(part) > 1e9) xml.fail("bad part '" + tag.get("part") + "'");
    d.part = static_cast<int>(part);
    d.file = tag.get("file");
    if (d.file.empty()) xml.fail("DataSet without a file attribute");
    sets.push_back(std::move(d));
  }
  return sets;
}

}  // namespace eipc
