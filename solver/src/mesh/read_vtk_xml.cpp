// <VTKFile type="UnstructuredGrid|PolyData" byte_order= header_type= compressor=>
//   <UnstructuredGrid|PolyData><Piece NumberOfPoints= NumberOfCells= | NumberOfPolys= ...>
//     <Points><DataArray NumberOfComponents="3" .../></Points>
//     <Cells> (or <Polys>, <Strips>, <Verts>, <Lines>) DataArrays connectivity, offsets
//     (each cell's end), and for cells types </Cells>
//   </Piece>...  <AppendedData encoding="raw|base64">_...bytes...</AppendedData>
// A binary DataArray is a header (a byte count; compressed: block count, block size,
// last block size, each block's compressed size) then the data, base64 or raw.
#include "eipc/mesh/read_vtk_xml.hpp"

#include "byte_reader.hpp"
#include "text_file.hpp"
#include "vtk_cells.hpp"
#include "xml_tags.hpp"

#include <zlib.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

namespace eipc {
namespace {

using mesh_detail::XmlTag;
using mesh_detail::XmlTags;

struct ArrayRef {
  std::string section, name, type, format;
  int components = 1;
  std::size_t offset = 0;      ///< appended: bytes after the '_'
  std::string_view text;       ///< ascii / binary: the element's content
  std::size_t text_at = 0;     ///< its position in the file (for messages)
};

struct PieceRef {
  long long points = 0;
  std::vector<ArrayRef> arrays;
};

struct Layout {
  bool big_endian = false;
  bool header64 = false;
  bool zlib = false;
  std::vector<PieceRef> pieces;
  bool appended = false, appended_base64 = false;
  std::size_t appended_at = 0;  ///< file position of the byte after '_'
};

std::size_t type_size(const std::string& t) {
  if (t == "Int8" || t == "UInt8") return 1;
  if (t == "Int16" || t == "UInt16") return 2;
  if (t == "Int32" || t == "UInt32" || t == "Float32") return 4;
  if (t == "Int64" || t == "UInt64" || t == "Float64") return 8;
  return 0;
}

class XmlFile {
public:
  explicit XmlFile(const std::string& path) : file_(path), text_(file_.rest()), xml_(path, text_) {}

  Layout layout() {
    Layout l;
    XmlTag tag;
    if (!xml_.next(tag) || tag.name != "VTKFile") xml_.fail("not a VTK XML file (expected <VTKFile>)");
    const std::string type = tag.get("type");
    if (type != "UnstructuredGrid" && type != "PolyData")
      xml_.fail("VTKFile type '" + type + "' is not read (UnstructuredGrid, PolyData)");
    l.big_endian = tag.get("byte_order", "LittleEndian") == "BigEndian";
    const std::string header = tag.get("header_type", "UInt32");
    if (header != "UInt32" && header != "UInt64") xml_.fail("header_type '" + header + "' is not UInt32 or UInt64");
    l.header64 = header == "UInt64";
    const std::string compressor = tag.get("compressor");
    if (!compressor.empty() && compressor != "vtkZLibDataCompressor")
      xml_.fail("compressor '" + compressor + "' is not read (vtkZLibDataCompressor or none)");
    l.zlib = !compressor.empty();
    std::vector<std::string> open;  // enclosing elements; a DataArray belongs to the innermost
    while (xml_.next(tag)) {
      if (tag.closing) {
        if (!open.empty()) open.pop_back();
        continue;
      }
      if (tag.name == "Piece") {
        l.pieces.emplace_back();
        l.pieces.back().points = count(tag, "NumberOfPoints");
      } else if (tag.name == "DataArray") {
        if (l.pieces.empty()) xml_.fail("DataArray outside a Piece");
        ArrayRef a;
        a.section = open.empty() ? "" : open.back();
        a.name = tag.get("Name");
        a.type = tag.get("type");
        a.format = tag.get("format", "ascii");
        a.components = static_cast<int>(count(tag, "NumberOfComponents", "1"));
        if (a.format == "appended") a.offset = static_cast<std::size_t>(count(tag, "offset"));
        else if (!tag.self_closing) {
          a.text_at = xml_.position();
          a.text = xml_.text_until_tag();
        }
        if (a.format != "ascii" && a.format != "binary" && a.format != "appended")
          xml_.fail("DataArray format '" + a.format + "' is not ascii, binary or appended");
        l.pieces.back().arrays.push_back(std::move(a));
      } else if (tag.name == "AppendedData") {
        const std::string encoding = tag.get("encoding", "raw");
        if (encoding != "raw" && encoding != "base64") xml_.fail("AppendedData encoding '" + encoding + "'");
        l.appended = true;
        l.appended_base64 = encoding == "base64";
        const std::size_t underscore = text_.find('_', tag.end);
        if (underscore == std::string_view::npos) xml_.fail("AppendedData without its '_' marker");
        l.appended_at = underscore + 1;
        break;  // the rest is binary: not XML
      }
      if (!tag.self_closing) open.push_back(tag.name);
    }
    if (l.pieces.empty()) file_.fail_file("no Piece");
    return l;
  }

  long long count(const XmlTag& tag, const std::string& key, const std::string& fallback = "") {
    const std::string text = tag.get(key, fallback);
    long long v = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0)
      xml_.fail("<" + tag.name + "> needs a non-negative integer " + key + ", found '" + text + "'");
    return v;
  }

  /// The array's values as doubles (exact for every VTK type but 64-bit integers past 2^53).
  std::vector<double> values(const Layout& l, const ArrayRef& a) {
    const std::size_t size = type_size(a.type);
    if (size == 0) fail_at(a, "DataArray " + a.name + " has unknown type '" + a.type + "'");
    if (a.format == "ascii") return ascii_values(a);
    const std::string bytes = a.format == "binary" ? decode_block(l, a, a.text, true) : appended_block(l, a);
    if (bytes.size() % size != 0) fail_at(a, "DataArray " + a.name + ": " + std::to_string(bytes.size()) + " bytes is not a whole number of " + a.type);
    mesh_detail::ByteReader in(file_.path(), bytes, l.big_endian);
    std::vector<double> out(bytes.size() / size);
    for (double& v : out) v = scalar(in, a.type);
    return out;
  }

  [[noreturn]] void fail_at(const ArrayRef& a, const std::string& problem) {
    xml_.seek(a.text_at);
    xml_.fail(problem);
  }
  [[noreturn]] void fail(const std::string& problem) { file_.fail_file(problem); }

private:
  static double scalar(mesh_detail::ByteReader& in, const std::string& t) {
    if (t == "Float32") return static_cast<double>(in.read<float>("a Float32"));
    if (t == "Float64") return in.read<double>("a Float64");
    if (t == "Int8") return in.read<std::int8_t>("an Int8");
    if (t == "UInt8") return in.read<std::uint8_t>("a UInt8");
    if (t == "Int16") return in.read<std::int16_t>("an Int16");
    if (t == "UInt16") return in.read<std::uint16_t>("a UInt16");
    if (t == "Int32") return in.read<std::int32_t>("an Int32");
    if (t == "UInt32") return in.read<std::uint32_t>("a UInt32");
    if (t == "Int64") return static_cast<double>(in.read<std::int64_t>("an Int64"));
    return static_cast<double>(in.read<std::uint64_t>("a UInt64"));
  }

  std::vector<double> ascii_values(const ArrayRef& a) {
    std::vector<double> out;
    std::size_t i = 0;
    const std::string_view t = a.text;
    while (true) {
      while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
      if (i >= t.size()) break;
      std::size_t j = i;
      while (j < t.size() && !std::isspace(static_cast<unsigned char>(t[j]))) ++j;
      const std::string_view token = t.substr(i, j - i);
      std::optional<double> v = mesh_detail::parse_number<double>(token);
      if (a.type == "Float32") {  // the float the text denotes, widened
        const std::optional<float> f = mesh_detail::parse_number<float>(token);
        v = f ? std::optional<double>(*f) : std::nullopt;
      }
      if (!v) fail_at(a, "DataArray " + a.name + ": bad number '" + std::string(token) + "'");
      out.push_back(*v);
      i = j;
    }
    return out;
  }

  std::string appended_block(const Layout& l, const ArrayRef& a) {
    if (!l.appended) fail_at(a, "DataArray " + a.name + " is appended but the file has no AppendedData");
    if (a.offset > text_.size() - l.appended_at) fail_at(a, "DataArray " + a.name + ": offset past the end of the file");
    return decode_block(l, a, text_.substr(l.appended_at + a.offset), l.appended_base64);
  }

  /// Header then data, from `src` (base64 text or raw bytes).
  std::string decode_block(const Layout& l, const ArrayRef& a, std::string_view src, bool base64) {
    const std::size_t word = l.header64 ? 8 : 4;
    Base64Cursor b64{src, 0, {}};
    auto take = [&](std::size_t n, const char* what) -> std::string {
      if (base64) return b64.take(n, [&](const std::string& p) { fail_at(a, "DataArray " + a.name + ": " + p + " in " + what); });
      if (n > src.size()) fail_at(a, std::string("DataArray ") + a.name + ": file ends inside its " + what);
      std::string out(src.substr(0, n));
      src.remove_prefix(n);
      return out;
    };
    auto words = [&](const std::string& bytes) {
      mesh_detail::ByteReader in(file_.path(), bytes, l.big_endian);
      std::vector<std::uint64_t> out;
      while (in.remaining() > 0) out.push_back(l.header64 ? in.read<std::uint64_t>("a header word") : in.read<std::uint32_t>("a header word"));
      return out;
    };
    if (!l.zlib) {
      const std::uint64_t n = words(take(word, "header"))[0];
      if (n > src.size()) fail_at(a, "DataArray " + a.name + ": " + std::to_string(n) + " bytes do not fit in the file");
      if (base64) b64.next_chunk();
      return take(static_cast<std::size_t>(n), "data");
    }
    if (!base64 && src.size() < word) fail_at(a, "DataArray " + a.name + ": file ends inside its header");
    Base64Cursor ahead = b64;  // the block count, to know the header's size
    const std::uint64_t blocks = words(base64 ? ahead.take(word, [&](const std::string& p) { fail_at(a, "DataArray " + a.name + ": " + p); })
                                              : std::string(src.substr(0, std::min(word, src.size()))))
                                     .at(0);
    if (blocks > src.size()) fail_at(a, "DataArray " + a.name + ": implausible block count " + std::to_string(blocks));
    const std::vector<std::uint64_t> h = words(take(word * (3 + blocks), "header"));
    if (base64) b64.next_chunk();
    const std::uint64_t block_size = h[1], last = h[2] == 0 ? h[1] : h[2];
    std::string out;
    for (std::uint64_t k = 0; k < blocks; ++k) {
      const std::uint64_t raw_size = k + 1 == blocks ? last : block_size;
      const std::uint64_t packed = h[3 + k];
      if (packed > src.size() || raw_size > 1032 * packed + 64)  // zlib expands at most ~1032x
        fail_at(a, "DataArray " + a.name + ": implausible compressed block sizes");
      const std::string in = take(static_cast<std::size_t>(packed), "compressed data");
      std::string block(static_cast<std::size_t>(raw_size), '\0');
      uLongf produced = static_cast<uLongf>(raw_size);
      if (uncompress(reinterpret_cast<Bytef*>(block.data()), &produced, reinterpret_cast<const Bytef*>(in.data()),
                     static_cast<uLong>(in.size())) != Z_OK || produced != raw_size)
        fail_at(a, "DataArray " + a.name + ": zlib block " + std::to_string(k) + " does not decompress to " +
                       std::to_string(raw_size) + " bytes");
      out += block;
    }
    return out;
  }

  /// Base64 text, decoded in chunks: VTK encodes a binary array's header and its data
  /// separately (each chunk padded), and older writers as one stream; both are read.
  struct Base64Cursor {
    std::string_view text;
    std::size_t pos = 0;
    std::string pending;  ///< decoded bytes not yet taken (one-stream files)

    template <typename Fail>
    std::string take(std::size_t n, Fail fail) {
      while (pending.size() < n)
        if (quad(fail) < 0) fail("base64 data end early");
      std::string out = pending.substr(0, n);
      pending.erase(0, n);
      return out;
    }
    /// After the header: drop its padding's leftovers if it was its own chunk.
    void next_chunk() {
      if (pos > 0 && pos <= text.size() && text[pos - 1] == '=') pending.clear();
    }
    /// Decodes 4 characters (skipping whitespace) into pending; -1 at the end.
    template <typename Fail>
    int quad(Fail fail) {
      int vals[4], n = 0, pad = 0;
      while (n < 4) {
        if (pos >= text.size() || text[pos] == '<') {
          if (n > 0) fail("truncated base64 data");
          return -1;
        }
        const char c = text[pos++];
        if (std::isspace(static_cast<unsigned char>(c))) continue;
        int v = -1;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '+') v = 62;
        else if (c == '/') v = 63;
        else if (c == '=' && n >= 2) {
          v = 0;
          ++pad;
        }
        else fail(std::string("bad base64 character '") + c + "'");
        if (pad > 0 && c != '=') fail("bad base64 padding");
        vals[n++] = v;
      }
      const std::uint32_t bits = (vals[0] << 18) | (vals[1] << 12) | (vals[2] << 6) | vals[3];
      pending += static_cast<char>((bits >> 16) & 0xFF);
      if (pad < 2) pending += static_cast<char>((bits >> 8) & 0xFF);
      if (pad < 1) pending += static_cast<char>(bits & 0xFF);
      return 1;
    }
  };

  mesh_detail::TextFile file_;
  std::string_view text_;
  XmlTags xml_;
};

}  // namespace

SurfaceMesh read_vtk_xml(const std::string& path) {
  XmlFile file(path);
  const Layout l = file.layout();
  mesh_detail::VtkCells cells;
  std::vector<std::vector<double>> piece_points;  // checked before anything is sized by the counts
  for (const PieceRef& p : l.pieces) {
    piece_points.emplace_back();
    for (const ArrayRef& a : p.arrays)
      if (a.section == "Points") {
        std::vector<double> x = file.values(l, a);
        if (a.components != 3 || static_cast<long long>(x.size()) != 3 * p.points)
          file.fail_at(a, "Points hold " + std::to_string(x.size()) + " values in " + std::to_string(a.components) +
                              " components, expected 3 x " + std::to_string(p.points));
        for (std::size_t i = 0; i < x.size(); ++i)
          if (!std::isfinite(x[i])) file.fail_at(a, "point " + std::to_string(i / 3) + " of a Piece has a non-finite coordinate");
        piece_points.back() = std::move(x);
      }
    if (static_cast<long long>(piece_points.back().size()) != 3 * p.points) file.fail("a Piece has no Points");
  }
  long long total_points = 0;
  for (const auto& x : piece_points) total_points += static_cast<long long>(x.size()) / 3;
  cells.points.resize(total_points, 3);
  long long first_point = 0;
  for (std::size_t k = 0; k < l.pieces.size(); ++k) {
    const PieceRef& p = l.pieces[k];
    for (long long i = 0; i < 3 * p.points; ++i) cells.points(first_point + i / 3, i % 3) = piece_points[k][i];
    std::map<std::string, std::vector<double>> cell_arrays;  // "<section>/<name>"
    for (const ArrayRef& a : p.arrays)
      if (a.section == "Cells" || a.section == "Polys" || a.section == "Strips")
        cell_arrays[a.section + "/" + a.name] = file.values(l, a);
    for (const char* section : {"Cells", "Polys", "Strips"}) {
      const std::string s = section;
      if (!cell_arrays.count(s + "/connectivity") && !cell_arrays.count(s + "/offsets")) continue;
      const auto& conn = cell_arrays[s + "/connectivity"];
      const auto& ends = cell_arrays[s + "/offsets"];
      const std::vector<double>* types = s == "Cells" ? &cell_arrays[s + "/types"] : nullptr;
      if (types && types->size() != ends.size())
        file.fail(s + ": " + std::to_string(types->size()) + " types for " + std::to_string(ends.size()) + " cells");
      std::vector<long long> corners;
      double begin = 0;
      for (std::size_t c = 0; c < ends.size(); ++c) {
        if (!(ends[c] >= begin && ends[c] <= static_cast<double>(conn.size())) || ends[c] != std::floor(ends[c]))
          file.fail(s + ": bad offset " + std::to_string(ends[c]) + " of cell " + std::to_string(c));
        corners.clear();
        for (auto i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(ends[c]); ++i) {
          if (!(conn[i] >= 0 && conn[i] < static_cast<double>(p.points)) || conn[i] != std::floor(conn[i]))
            file.fail(s + ": cell " + std::to_string(c) + " refers to point " + std::to_string(conn[i]) + ", out of range");
          corners.push_back(first_point + static_cast<long long>(conn[i]));
        }
        if (types && !((*types)[c] >= 0 && (*types)[c] <= 255))  // VTK cell types are bytes
          file.fail(s + ": cell " + std::to_string(c) + " has no valid type (" + std::to_string((*types)[c]) + ")");
        const int type = types ? static_cast<int>((*types)[c])
                               : s == "Polys" ? mesh_detail::kVtkPolygon : mesh_detail::kVtkTriangleStrip;
        cells.add_cell(type, corners.data(), corners.size(), 0);
        begin = ends[c];
      }
    }
    first_point += p.points;
  }
  return mesh_detail::surface_of_vtk_cells(std::move(cells), path);
}

}  // namespace eipc
