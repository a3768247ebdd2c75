// PLY: a text header ("ply", "format <ascii|binary_little_endian|binary_big_endian> 1.0",
// "element <name> <count>", "property <type> <name>", "property list <count type>
// <item type> <name>", comment/obj_info lines, "end_header"), then the elements in
// header order: one value per property, a list as its count then its items.
#include "eipc/mesh/read_ply.hpp"

#include "byte_reader.hpp"
#include "text_file.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace eipc {
namespace {

using mesh_detail::ByteReader;
using mesh_detail::TextFile;

enum class Scalar { int8, uint8, int16, uint16, int32, uint32, float32, float64 };

std::optional<Scalar> scalar_type(std::string_view name) {
  if (name == "char" || name == "int8") return Scalar::int8;
  if (name == "uchar" || name == "uint8") return Scalar::uint8;
  if (name == "short" || name == "int16") return Scalar::int16;
  if (name == "ushort" || name == "uint16") return Scalar::uint16;
  if (name == "int" || name == "int32") return Scalar::int32;
  if (name == "uint" || name == "uint32") return Scalar::uint32;
  if (name == "float" || name == "float32") return Scalar::float32;
  if (name == "double" || name == "float64") return Scalar::float64;
  return std::nullopt;
}

std::size_t size_of(Scalar s) {
  switch (s) {
    case Scalar::int8: case Scalar::uint8: return 1;
    case Scalar::int16: case Scalar::uint16: return 2;
    case Scalar::int32: case Scalar::uint32: case Scalar::float32: return 4;
    case Scalar::float64: return 8;
  }
  return 0;
}

bool is_integer(Scalar s) { return s != Scalar::float32 && s != Scalar::float64; }

struct Property {
  std::string name;
  Scalar type = Scalar::float32;     ///< of the value, or of a list's items
  std::optional<Scalar> list_count;  ///< set for a list property
};

struct Element {
  std::string name;
  long long count = 0;
  std::vector<Property> properties;
  std::size_t min_bytes() const {  ///< binary size of one element, lists empty
    std::size_t n = 0;
    for (const Property& p : properties) n += size_of(p.list_count ? *p.list_count : p.type);
    return n;
  }
};

enum class Encoding { ascii, little_endian, big_endian };

struct Header {
  Encoding encoding = Encoding::ascii;
  std::vector<Element> elements;
};

Header read_header(TextFile& f) {
  std::vector<std::string_view> t;
  if (!f.next_line(t) || t.size() != 1 || t[0] != "ply") f.fail("not a PLY file (first line must be 'ply')");
  Header h;
  bool has_format = false;
  while (true) {
    if (!f.next_line(t)) f.fail_eof("the PLY header (no end_header)");
    if (t[0] == "end_header") break;
    if (t[0] == "comment" || t[0] == "obj_info") continue;
    if (t[0] == "format") {
      if (t.size() != 3) f.fail("format line must be 'format <encoding> 1.0'");
      if (t[1] == "ascii") h.encoding = Encoding::ascii;
      else if (t[1] == "binary_little_endian") h.encoding = Encoding::little_endian;
      else if (t[1] == "binary_big_endian") h.encoding = Encoding::big_endian;
      else f.fail("unknown PLY format '" + std::string(t[1]) + "'");
      if (t[2] != "1.0") f.fail("unsupported PLY version '" + std::string(t[2]) + "' (1.0 is read)");
      has_format = true;
    } else if (t[0] == "element") {
      if (t.size() != 3) f.fail("element line must be 'element <name> <count>'");
      const long long count = f.to_integer(t[2], "element count");
      if (count < 0) f.fail("negative element count");
      h.elements.push_back({std::string(t[1]), count, {}});
    } else if (t[0] == "property") {
      if (h.elements.empty()) f.fail("property before any element");
      Property p;
      const bool list = t.size() == 5 && t[1] == "list";
      if (!list && t.size() != 3) f.fail("property line must be 'property <type> <name>' or 'property list <count type> <item type> <name>'");
      const std::size_t type_at = list ? 3 : 1;
      const auto type = scalar_type(t[type_at]);
      if (!type) f.fail("unknown property type '" + std::string(t[type_at]) + "'");
      p.type = *type;
      if (list) {
        p.list_count = scalar_type(t[2]);
        if (!p.list_count || !is_integer(*p.list_count)) f.fail("list count type must be an integer type, found '" + std::string(t[2]) + "'");
      }
      p.name = std::string(t.back());
      h.elements.back().properties.push_back(std::move(p));
    } else {
      f.fail("unknown header line '" + std::string(t[0]) + "'");
    }
  }
  if (!has_format) f.fail("no format line in the PLY header");
  return h;
}

/// The values of one element, read one property after another.
class ValueSource {
public:
  virtual ~ValueSource() = default;
  virtual double value(Scalar type, const char* what) = 0;
  [[noreturn]] virtual void fail(const std::string& problem) const = 0;
  /// Guards allocation: `count` elements of at least `bytes` each must fit.
  virtual void check_fits(long long count, std::size_t bytes, std::size_t tokens, const char* what) const = 0;
};

class AsciiValues final : public ValueSource {
public:
  explicit AsciiValues(TextFile& f) : f_(f) {}
  double value(Scalar type, const char* what) override {
    const std::string_view token = f_.next_token(what);
    if (type == Scalar::float64) return f_.to_double(token, what);
    if (type == Scalar::float32) return f_.to_float(token, what);  // the float the text denotes, widened
    return static_cast<double>(f_.to_integer(token, what));
  }
  void fail(const std::string& problem) const override { f_.fail(problem); }
  void check_fits(long long count, std::size_t, std::size_t tokens, const char* what) const override {
    if (tokens > 0) f_.check_count(count, static_cast<int>(tokens), what);
  }

private:
  TextFile& f_;
};

class BinaryValues final : public ValueSource {
public:
  explicit BinaryValues(ByteReader bytes) : bytes_(std::move(bytes)) {}
  double value(Scalar type, const char* what) override {
    switch (type) {
      case Scalar::int8: return bytes_.read<std::int8_t>(what);
      case Scalar::uint8: return bytes_.read<std::uint8_t>(what);
      case Scalar::int16: return bytes_.read<std::int16_t>(what);
      case Scalar::uint16: return bytes_.read<std::uint16_t>(what);
      case Scalar::int32: return bytes_.read<std::int32_t>(what);
      case Scalar::uint32: return bytes_.read<std::uint32_t>(what);
      case Scalar::float32: return static_cast<double>(bytes_.read<float>(what));
      case Scalar::float64: return bytes_.read<double>(what);
    }
    return 0.0;
  }
  void fail(const std::string& problem) const override { bytes_.fail(problem); }
  void check_fits(long long count, std::size_t bytes, std::size_t, const char* what) const override {
    if (bytes > 0 && static_cast<unsigned long long>(count) > bytes_.remaining() / bytes)
      bytes_.fail(std::string(what) + ": " + std::to_string(count) + " do not fit in the rest of the file (truncated?)");
  }

private:
  ByteReader bytes_;
};

/// A list's length or an index: an integral value that fits in int.
int to_index(ValueSource& in, double v, const std::string& element, long long i, const char* what) {
  if (!(v >= 0 && v <= std::numeric_limits<int>::max()) || v != std::floor(v))
    in.fail(element + " " + std::to_string(i) + ": " + what + " " + std::to_string(v) + " is not a valid index or count");
  return static_cast<int>(v);
}

}  // namespace

SurfaceMesh read_ply(const std::string& path) {
  TextFile f(path);
  const Header h = read_header(f);
  AsciiValues ascii(f);
  BinaryValues binary(ByteReader(path, f.rest(), h.encoding == Encoding::big_endian, f.offset()));
  ValueSource& in = h.encoding == Encoding::ascii ? static_cast<ValueSource&>(ascii) : binary;

  SurfaceMesh mesh;
  std::vector<int> corners;
  std::vector<std::array<int, 3>> triangles;
  bool has_vertices = false, has_faces = false;
  for (const Element& e : h.elements) {
    if (e.properties.empty()) continue;  // nothing stored per element
    in.check_fits(e.count, e.min_bytes(), e.properties.size(), "element count");
    const bool is_vertex = e.name == "vertex" && !has_vertices;
    const bool is_face = e.name == "face" && !has_faces;
    int axis_of[3] = {-1, -1, -1};  // property index of x, y, z
    int indices = -1;               // property index of the face's vertex list
    for (std::size_t p = 0; p < e.properties.size(); ++p) {
      const Property& prop = e.properties[p];
      if (is_vertex && !prop.list_count && prop.name.size() == 1 && prop.name[0] >= 'x' && prop.name[0] <= 'z')
        axis_of[prop.name[0] - 'x'] = static_cast<int>(p);
      if (is_face && prop.list_count && (prop.name == "vertex_indices" || prop.name == "vertex_index"))
        indices = static_cast<int>(p);
    }
    if (is_vertex) {
      if (axis_of[0] < 0 || axis_of[1] < 0 || axis_of[2] < 0) f.fail_file("vertex element lacks an x, y or z property");
      if (e.count > std::numeric_limits<int>::max()) f.fail_file("too many vertices");
      mesh.vertices.resize(static_cast<Eigen::Index>(e.count), 3);
      has_vertices = true;
    }
    if (is_face) {
      if (indices < 0) f.fail_file("face element has no list property vertex_indices (or vertex_index)");
      has_faces = true;
    }
    for (long long i = 0; i < e.count; ++i) {
      for (std::size_t p = 0; p < e.properties.size(); ++p) {
        const Property& prop = e.properties[p];
        if (prop.list_count) {
          const int n = to_index(in, in.value(*prop.list_count, "a list length"), e.name, i, "list length");
          if (static_cast<int>(p) == indices) {
            if (n < 3) in.fail("face " + std::to_string(i) + " has " + std::to_string(n) + " vertices, needs at least 3");
            corners.clear();
            for (int k = 0; k < n; ++k) {
              corners.push_back(to_index(in, in.value(prop.type, "a face vertex index"), e.name, i, "vertex index"));
              if (has_vertices && corners.back() >= mesh.vertices.rows())
                in.fail("face " + std::to_string(i) + " refers to vertex " + std::to_string(corners.back()) + ", out of range (" +
                        std::to_string(mesh.vertices.rows()) + " vertices)");
            }
            for (int j = 1; j + 1 < n; ++j) triangles.push_back({corners[0], corners[j], corners[j + 1]});
          } else {
            for (int k = 0; k < n; ++k) in.value(prop.type, "a list item");
          }
          continue;
        }
        const double v = in.value(prop.type, "a property value");
        if (is_vertex)
          for (int a = 0; a < 3; ++a)
            if (axis_of[a] == static_cast<int>(p)) {
              if (!std::isfinite(v)) in.fail("vertex " + std::to_string(i) + " has a non-finite coordinate");
              mesh.vertices(static_cast<Eigen::Index>(i), a) = v;
            }
      }
    }
  }
  if (!has_vertices) f.fail_file("no vertex element");
  if (triangles.empty()) f.fail_file("no faces (a frame needs triangles)");
  mesh.faces.resize(static_cast<Eigen::Index>(triangles.size()), 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      if (triangles[t][k] >= mesh.vertices.rows())
        f.fail_file("triangle " + std::to_string(t) + " refers to vertex " + std::to_string(triangles[t][k]) +
                    ", out of range (" + std::to_string(mesh.vertices.rows()) + " vertices)");
      mesh.faces(static_cast<Eigen::Index>(t), k) = triangles[t][k];
    }
  return mesh;
}

}  // namespace eipc
