#include "text_file.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace eipc::mesh_detail {

namespace {
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
}  // namespace

TextFile::TextFile(std::string path) : path_(std::move(path)) {
  std::ifstream in(path_, std::ios::binary);
  if (!in) throw InputError(path_ + ": cannot read file (missing or not readable)");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InputError(path_ + ": cannot read file (I/O error)");
  text_ = buffer.str();
}

bool TextFile::next_raw_line(std::string_view& text) {
  if (pos_ >= text_.size()) return false;
  std::size_t end = text_.find('\n', pos_);
  if (end == std::string::npos) end = text_.size();
  std::size_t stop = end;
  if (stop > pos_ && text_[stop - 1] == '\r') --stop;
  text = std::string_view(text_).substr(pos_, stop - pos_);
  line_ = next_line_;
  pos_ = end < text_.size() ? end + 1 : end;
  if (end < text_.size()) ++next_line_;
  return true;
}

bool TextFile::next_line(std::vector<std::string_view>& tokens, char comment) {
  std::string_view text;
  while (next_raw_line(text)) {
    tokens.clear();
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && is_space(text[i])) ++i;
      if (i >= text.size() || (comment != 0 && text[i] == comment)) break;
      std::size_t start = i;
      while (i < text.size() && !is_space(text[i]) && !(comment != 0 && text[i] == comment)) ++i;
      tokens.push_back(text.substr(start, i - start));
      if (i < text.size() && comment != 0 && text[i] == comment) break;
    }
    if (!tokens.empty()) return true;
  }
  tokens.clear();
  return false;
}

bool TextFile::at_end() {
  while (pos_ < text_.size() && is_space(text_[pos_])) {
    if (text_[pos_] == '\n') ++next_line_;
    ++pos_;
  }
  return pos_ >= text_.size();
}

std::string_view TextFile::next_bytes(std::size_t n, const char* what) {
  const std::size_t newline = text_.find('\n', pos_);
  if (newline == std::string::npos) fail_eof(what);
  pos_ = newline + 1;
  ++next_line_;
  if (n > text_.size() - pos_) fail_eof(what);
  const std::string_view bytes = std::string_view(text_).substr(pos_, n);
  pos_ += n;
  return bytes;
}

std::string_view TextFile::next_token(const char* what) {
  if (at_end()) fail_eof(what);
  std::size_t start = pos_;
  while (pos_ < text_.size() && !is_space(text_[pos_])) ++pos_;
  line_ = next_line_;
  return std::string_view(text_).substr(start, pos_ - start);
}

void TextFile::fail(const std::string& problem) const {
  throw InputError(path_ + ":" + std::to_string(line_) + ": " + problem);
}

void TextFile::fail_file(const std::string& problem) const { throw InputError(path_ + ": " + problem); }

void TextFile::fail_eof(const std::string& what) const {
  throw InputError(path_ + ":" + std::to_string(next_line_) + ": unexpected end of file (truncated) while reading " +
                   what);
}

template <typename T>
std::optional<T> parse_number(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  T value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return value;
}
template std::optional<float> parse_number<float>(std::string_view);
template std::optional<double> parse_number<double>(std::string_view);

double TextFile::to_double(std::string_view token, const char* what) const {
  const std::optional<double> value = parse_number<double>(token);
  if (!value) fail("bad number '" + std::string(token) + "' for " + what);
  if (!std::isfinite(*value)) fail("non-finite value '" + std::string(token) + "' for " + what);
  return *value;
}

float TextFile::to_float(std::string_view token, const char* what) const {
  const std::optional<float> value = parse_number<float>(token);
  if (!value) fail("bad number '" + std::string(token) + "' for " + what);
  if (!std::isfinite(*value)) fail("non-finite value '" + std::string(token) + "' for " + what);
  return *value;
}

long long TextFile::to_integer(std::string_view token, const char* what) const {
  std::string_view t = token;
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  long long value = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size())
    fail("bad integer '" + std::string(token) + "' for " + what);
  return value;
}

int TextFile::to_int(std::string_view token, const char* what) const {
  long long v = to_integer(token, what);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    fail("integer '" + std::string(token) + "' out of range for " + what);
  return static_cast<int>(v);
}

void TextFile::check_count(long long count, int tokens_each, const char* what) const {
  const long long remaining = static_cast<long long>(text_.size() - pos_);
  if (count < 0) fail(std::string("negative ") + what);
  if (count > 0 && count > (remaining + 1) / tokens_each)  // each token takes >= 1 byte
    fail(std::string(what) + " " + std::to_string(count) + " does not fit in the rest of the file (truncated?)");
}

std::string extension_of(const std::string& path) {
  std::size_t slash = path.find_last_of("/\\");
  std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace eipc::mesh_detail
