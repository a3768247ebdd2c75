// Internal: the tags of an XML file one after another (enough for ParaView's
// .pvd and VTK's .vtu/.vtp: elements, attributes, text between tags; no DTDs,
// no namespaces). Problems throw InputError naming the file and line.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace eipc::mesh_detail {

struct XmlTag {
  std::string name;
  std::map<std::string, std::string> attributes;
  bool closing = false;       ///< </name>
  bool self_closing = false;  ///< <name ... />
  std::size_t end = 0;        ///< offset just past the tag's '>'

  /// The attribute, or `fallback` when absent.
  std::string get(const std::string& key, const std::string& fallback = "") const {
    const auto it = attributes.find(key);
    return it == attributes.end() ? fallback : it->second;
  }
};

class XmlTags {
public:
  XmlTags(std::string path, std::string_view text) : path_(std::move(path)), text_(text) {}
  /// The next tag (skipping the prolog, comments and text); false at the end.
  bool next(XmlTag& tag);
  /// The text from the current position to the next '<' (a DataArray's content).
  std::string_view text_until_tag();
  std::size_t position() const { return pos_; }
  void seek(std::size_t pos) { pos_ = pos; }
  [[noreturn]] void fail(const std::string& problem) const;  ///< "<path>:<line>: problem" at the position

private:
  std::string path_;
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace eipc::mesh_detail
