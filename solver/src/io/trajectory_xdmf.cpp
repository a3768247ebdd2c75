// XDMF 3 sidecar of a trajectory file (see trajectory_xdmf.hpp).
#include "eipc/io/trajectory_xdmf.hpp"

#include "eipc/io/trajectory_schema.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>

namespace eipc {
namespace {

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

// Text that reads back as the same double.
std::string exact(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

std::string trajectory_xdmf(const TrajectoryHeader& header, const std::vector<double>& times,
                            const std::string& h5_file) {
  namespace ts = trajectory_schema;
  const std::string file = xml_escape(h5_file);
  const std::size_t frames = times.size();
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    << "<Xdmf xmlns:xi=\"http://www.w3.org/2001/XInclude\" Version=\"3.0\">\n"
    << "  <Domain>\n"
    << "    <Grid Name=\"" << xml_escape(header.scenario)
    << "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (std::size_t f = 0; f < frames; ++f) {
    x << "      <Grid Name=\"frame_" << f << "\" GridType=\"Collection\" CollectionType=\"Spatial\">\n"
      << "        <Time Value=\"" << exact(times[f]) << "\"/>\n";
    for (const TrajectoryBody& body : header.bodies) {
      if (body.surface.rows() == 0) continue;
      const std::string group = xml_escape(ts::body_group(body.name));
      const long n = body.rest.rows();
      const long t = body.surface.rows();
      x << "        <Grid Name=\"" << xml_escape(body.name) << "\" GridType=\"Uniform\">\n"
        << "          <Topology TopologyType=\"Triangle\" NumberOfElements=\"" << t << "\">\n"
        << "            <DataItem Dimensions=\"" << t << " 3\" NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">"
        << file << ":" << group << "/" << ts::surface_triangles << "</DataItem>\n"
        << "          </Topology>\n"
        << "          <Geometry GeometryType=\"XYZ\">\n"
        << "            <DataItem ItemType=\"HyperSlab\" Dimensions=\"" << n << " 3\" Type=\"HyperSlab\">\n"
        << "              <DataItem Dimensions=\"3 3\" Format=\"XML\">" << f << " 0 0 1 1 1 1 " << n
        << " 3</DataItem>\n"
        << "              <DataItem Dimensions=\"" << frames << " " << n
        << " 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << file << ":" << group << "/"
        << ts::positions << "</DataItem>\n"
        << "            </DataItem>\n"
        << "          </Geometry>\n"
        << "        </Grid>\n";
    }
    x << "      </Grid>\n";
  }
  x << "    </Grid>\n  </Domain>\n</Xdmf>\n";
  return x.str();
}

std::string trajectory_xdmf_path(const std::string& h5_path) {
  return std::filesystem::path(h5_path).replace_extension(".xdmf").string();
}

}  // namespace eipc
