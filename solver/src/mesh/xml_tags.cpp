#include "xml_tags.hpp"

#include "eipc/common.hpp"

#include <algorithm>

namespace eipc::mesh_detail {
namespace {

bool is_xml_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_name_char(char c) { return !is_xml_space(c) && c != '=' && c != '>' && c != '/' && c != '<' && c != '"' && c != '\''; }

/// The five predefined entities; others are kept as written.
std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '&') {
      static const std::pair<std::string_view, char> entities[] = {
          {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
      bool done = false;
      for (const auto& [name, c] : entities)
        if (s.substr(i, name.size()) == name) {
          out += c;
          i += name.size() - 1;
          done = true;
          break;
        }
      if (done) continue;
    }
    out += s[i];
  }
  return out;
}

}  // namespace

void XmlTags::fail(const std::string& problem) const {
  const std::size_t upto = std::min(pos_, text_.size());
  const long line = 1 + std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(upto), '\n');
  throw InputError(path_ + ":" + std::to_string(line) + ": " + problem);
}

std::string_view XmlTags::text_until_tag() {
  const std::size_t start = pos_;
  const std::size_t lt = text_.find('<', pos_);
  pos_ = lt == std::string_view::npos ? text_.size() : lt;
  return text_.substr(start, pos_ - start);
}

bool XmlTags::next(XmlTag& tag) {
  while (true) {
    const std::size_t lt = text_.find('<', pos_);
    if (lt == std::string_view::npos) {
      pos_ = text_.size();
      return false;
    }
    pos_ = lt;
    if (text_.substr(pos_, 4) == "<!--") {
      const std::size_t end = text_.find("-->", pos_);
      if (end == std::string_view::npos) fail("unterminated comment");
      pos_ = end + 3;
      continue;
    }
    if (text_.substr(pos_, 2) == "<?" || text_.substr(pos_, 2) == "<!") {
      const std::size_t end = text_.find('>', pos_);
      if (end == std::string_view::npos) fail("unterminated declaration");
      pos_ = end + 1;
      continue;
    }
    break;
  }
  tag = XmlTag{};
  std::size_t i = pos_ + 1;
  if (i < text_.size() && text_[i] == '/') {
    tag.closing = true;
    ++i;
  }
  const std::size_t name_start = i;
  while (i < text_.size() && is_name_char(text_[i])) ++i;
  tag.name = std::string(text_.substr(name_start, i - name_start));
  if (tag.name.empty()) fail("malformed tag");
  while (true) {
    while (i < text_.size() && is_xml_space(text_[i])) ++i;
    if (i >= text_.size()) fail("unterminated tag <" + tag.name + ">");
    if (text_[i] == '>') {
      ++i;
      break;
    }
    if (text_[i] == '/' && i + 1 < text_.size() && text_[i + 1] == '>') {
      tag.self_closing = true;
      i += 2;
      break;
    }
    const std::size_t key_start = i;
    while (i < text_.size() && is_name_char(text_[i])) ++i;
    const std::string key(text_.substr(key_start, i - key_start));
    while (i < text_.size() && is_xml_space(text_[i])) ++i;
    if (key.empty() || i >= text_.size() || text_[i] != '=') fail("malformed attribute in <" + tag.name + ">");
    ++i;
    while (i < text_.size() && is_xml_space(text_[i])) ++i;
    if (i >= text_.size() || (text_[i] != '"' && text_[i] != '\'')) fail("attribute " + key + " needs a quoted value");
    const char quote = text_[i++];
    const std::size_t close = text_.find(quote, i);
    if (close == std::string_view::npos) fail("unterminated attribute value of " + key);
    tag.attributes[key] = unescape(text_.substr(i, close - i));
    i = close + 1;
  }
  pos_ = i;
  tag.end = i;
  return true;
}

}  // namespace eipc::mesh_detail
