// XDMF sidecars of a trajectory file (see trajectory_xdmf.hpp).
#include "eipc/io/trajectory_xdmf.hpp"

#include "eipc/io/trajectory_schema.hpp"
#include "eipc/io/trajectory_writer.hpp"

#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

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

std::string joined(const std::vector<long>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + std::to_string(v[i]);
  return s;
}

// One HDF5 dataset, or one frame's slice of a dataset whose first dimension is the frame.
struct HeavyData {
  std::string file_and_path;  // "file:/group/dataset", already XML-escaped
  std::vector<long> item_dims;  // the shape one frame (or the whole dataset) has
  std::string type;             // NumberType="..." Precision="..."
  long frames = 0;              // > 0: the dataset is [frames, item_dims...]; take frame `frame`
  long frame = 0;
};

void write_data_item(std::ostringstream& x, const HeavyData& d, XdmfFlavour flavour, const std::string& indent) {
  const std::string dims = joined(d.item_dims);
  if (d.frames == 0) {
    x << indent << "<DataItem Dimensions=\"" << dims << "\" " << d.type << " Format=\"HDF\">" << d.file_and_path
      << "</DataItem>\n";
    return;
  }
  std::vector<long> start{d.frame}, stride{1}, count{1}, whole{d.frames};
  for (long n : d.item_dims) {
    start.push_back(0);
    stride.push_back(1);
    count.push_back(n);
    whole.push_back(n);
  }
  if (flavour == XdmfFlavour::xdmf3) {  // XDMF 3 inline hyperslab: path|start:stride:count:dims
    x << indent << "<DataItem Dimensions=\"" << dims << "\" " << d.type << " Format=\"HDF\">" << d.file_and_path
      << "|" << joined(start) << ":" << joined(stride) << ":" << joined(count) << ":" << joined(whole)
      << "</DataItem>\n";
    return;
  }
  x << indent << "<DataItem ItemType=\"HyperSlab\" Dimensions=\"" << dims << "\" Type=\"HyperSlab\">\n"
    << indent << "  <DataItem Dimensions=\"3 " << start.size() << "\" Format=\"XML\">" << joined(start) << " "
    << joined(stride) << " " << joined(count) << "</DataItem>\n"
    << indent << "  <DataItem Dimensions=\"" << joined(whole) << "\" " << d.type << " Format=\"HDF\">"
    << d.file_and_path << "</DataItem>\n"
    << indent << "</DataItem>\n";
}

// One body at one frame: a uniform Grid named after the body.
void write_body_grid(std::ostringstream& x, const TrajectoryBody& body, long frame, long frames,
                     const std::string& h5_file, XdmfFlavour flavour, const XdmfFields& fields,
                     const std::string* time, const std::string& indent) {
  namespace ts = trajectory_schema;
  const std::string group = xml_escape(ts::body_group(body.name));
  const long n = body.rest.rows();
  const long t = body.surface.rows();
  const std::string in = indent + "    ";
  x << indent << "<Grid Name=\"" << xml_escape(body.name) << "\" GridType=\"Uniform\">\n";
  if (time) x << indent << "  <Time Value=\"" << *time << "\"/>\n";
  x << indent << "  <Topology TopologyType=\"Triangle\" NumberOfElements=\"" << t << "\">\n";
  const char* int32 = "NumberType=\"Int\" Precision=\"4\"";
  write_data_item(x, {h5_file + ":" + group + "/" + ts::surface_triangles, {t, 3}, int32}, flavour, in);
  x << indent << "  </Topology>\n" << indent << "  <Geometry GeometryType=\"XYZ\">\n";
  write_data_item(x, {h5_file + ":" + group + "/" + ts::positions, {n, 3}, "NumberType=\"Float\" Precision=\"8\"",
                      frames, frame}, flavour, in);
  x << indent << "  </Geometry>\n";
  for (const XdmfPointArray& a : fields.arrays) {
    std::vector<long> dims{n};
    if (a.components == 3) dims.push_back(3);
    const char* type = a.integer ? int32 : "NumberType=\"Float\" Precision=\"4\"";
    x << indent << "  <Attribute Name=\"" << xml_escape(a.name) << "\" AttributeType=\""
      << (a.components == 3 ? "Vector" : "Scalar") << "\" Center=\"Node\">\n";
    write_data_item(x, {xml_escape(fields.file) + ":" + group + "/" + xml_escape(a.name), dims, type,
                        a.per_frame ? frames : 0, frame}, flavour, in);
    x << indent << "  </Attribute>\n";
  }
  x << indent << "</Grid>\n";
}

// Opening tag of a grid collection; without a Name attribute if `name` is empty.
std::string collection(const std::string& name, const char* type) {
  return "<Grid " + (name.empty() ? "" : "Name=\"" + xml_escape(name) + "\" ") +
         "GridType=\"Collection\" CollectionType=\"" + type + "\">\n";
}

void write_text_durably(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error(path + ": could not write the XDMF sidecar");
  if (int fd = ::open(path.c_str(), O_RDONLY); fd >= 0) {  // best effort: durability, not correctness
    ::fsync(fd);
    ::close(fd);
  }
}

}  // namespace

std::string trajectory_xdmf(const TrajectoryHeader& header, const std::vector<double>& times,
                            const std::string& h5_file, XdmfFlavour flavour, const XdmfFields& fields) {
  const std::string file = xml_escape(h5_file);
  const long frames = static_cast<long>(times.size());
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    << "<Xdmf xmlns:xi=\"http://www.w3.org/2001/XInclude\" Version=\""
    << (flavour == XdmfFlavour::xdmf3 ? "3.0" : "2.0") << "\">\n"
    << "  <Domain>\n";
  if (flavour == XdmfFlavour::xdmf3) {
    // The per-frame collections stay unnamed: Xdmf3ReaderT then keeps the body names as
    // block names (a named one makes it rename every grid uniquely: teddy[1], teddy[2], ...).
    x << "    " << collection(header.scenario, "Temporal");
    for (long f = 0; f < frames; ++f) {
      x << "      " << collection("", "Spatial") << "        <Time Value=\"" << exact(times[f]) << "\"/>\n";
      for (const TrajectoryBody& body : header.bodies) {
        if (body.surface.rows() > 0) write_body_grid(x, body, f, frames, file, flavour, fields, nullptr, "        ");
      }
      x << "      </Grid>\n";
    }
  } else {
    // One temporal collection per body, named after it: the legacy reader shows one block per body.
    x << "    " << collection(header.scenario, "Spatial");
    for (const TrajectoryBody& body : header.bodies) {
      if (body.surface.rows() == 0) continue;
      x << "      " << collection(body.name, "Temporal");
      for (long f = 0; f < frames; ++f) {
        const std::string time = exact(times[f]);
        write_body_grid(x, body, f, frames, file, flavour, fields, &time, "        ");
      }
      x << "      </Grid>\n";
    }
  }
  x << "    </Grid>\n  </Domain>\n</Xdmf>\n";
  return x.str();
}

std::string trajectory_xdmf_path(const std::string& h5_path, XdmfFlavour flavour) {
  const char* extension = flavour == XdmfFlavour::xdmf3 ? ".xdmf" : ".xdmf2";
  return std::filesystem::path(h5_path).replace_extension(extension).string();
}

std::vector<std::pair<std::string, std::string>> write_trajectory_xdmf_partials(
    const TrajectoryHeader& header, const std::vector<double>& times, const std::string& h5_path,
    const XdmfFields& fields) {
  const std::string h5_file = std::filesystem::path(h5_path).filename().string();
  std::vector<std::pair<std::string, std::string>> renames;
  for (XdmfFlavour flavour : {XdmfFlavour::xdmf3, XdmfFlavour::legacy}) {
    const std::string path = trajectory_xdmf_path(h5_path, flavour);
    const std::string partial = trajectory_partial_path(path);
    write_text_durably(partial, trajectory_xdmf(header, times, h5_file, flavour, fields));
    renames.emplace_back(partial, path);
  }
  return renames;
}

void write_trajectory_xdmf_sidecars(const TrajectoryHeader& header, const std::vector<double>& times,
                                    const std::string& h5_path, const XdmfFields& fields) {
  for (const auto& [partial, path] : write_trajectory_xdmf_partials(header, times, h5_path, fields))
    std::filesystem::rename(partial, path);
}

}  // namespace eipc
