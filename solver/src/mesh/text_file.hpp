// Internal: a text file read whole, walked line by line or token by token,
// that turns every problem into an InputError naming the file and the line.
#pragma once

#include "eipc/common.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eipc::mesh_detail {

class TextFile {
public:
  /// Reads the whole file; throws InputError "<path>: cannot read file" when it cannot.
  explicit TextFile(std::string path);

  const std::string& path() const { return path_; }
  /// 1-based line number of the last line or token returned.
  int line() const { return line_; }

  /// Next line that has a token (blank lines and text after `comment`, when
  /// non-zero, are skipped), split on whitespace. Returns false at end of file.
  bool next_line(std::vector<std::string_view>& tokens, char comment = 0);
  /// Next raw line (may be empty), without its line break. False at end of file.
  bool next_raw_line(std::string_view& text);
  /// Next whitespace-separated token across lines; throws "unexpected end of file" naming `what`.
  std::string_view next_token(const char* what);
  /// True when only whitespace remains.
  bool at_end();
  /// The bytes after the last line or token returned (the binary part of a file
  /// with a text header), and their offset in the file.
  std::string_view rest() const { return std::string_view(text_).substr(pos_); }
  std::size_t offset() const { return pos_; }
  /// Where the reading is, to come back to after looking ahead.
  struct Mark {
    std::size_t pos;
    int line, next_line;
  };
  Mark mark() const { return {pos_, line_, next_line_}; }
  void go_back(const Mark& m) {
    pos_ = m.pos;
    line_ = m.line;
    next_line_ = m.next_line;
  }
  /// Binary data after the current line: moves to the next line, returns the next
  /// `n` bytes and moves past them (throws "truncated" naming `what`).
  std::string_view next_bytes(std::size_t n, const char* what);

  [[noreturn]] void fail(const std::string& problem) const;          ///< "<path>:<line>: problem"
  [[noreturn]] void fail_file(const std::string& problem) const;     ///< "<path>: problem"
  [[noreturn]] void fail_eof(const std::string& what) const;         ///< truncated file

  /// Parses a whole token as a finite double (throws on bad number, NaN or inf).
  double to_double(std::string_view token, const char* what) const;
  /// Parses a whole token as the finite float it denotes (a float property: its text
  /// means the float nearest to it, which then widens exactly).
  float to_float(std::string_view token, const char* what) const;
  /// Parses a whole token as an integer (throws on bad number).
  long long to_integer(std::string_view token, const char* what) const;
  int to_int(std::string_view token, const char* what) const;
  /// Throws "truncated" when `count` items of `tokens_each` tokens (>= 1 byte each) cannot fit
  /// in the rest of the file (guards allocations against absurd counts in damaged headers).
  void check_count(long long count, int tokens_each, const char* what) const;

private:
  std::string path_;
  std::string text_;
  std::size_t pos_ = 0;
  int line_ = 0;       // line of the last thing returned
  int next_line_ = 1;  // line number at pos_
};

/// A whole token as a number of type T (float or double; a leading '+' allowed), or nothing.
template <typename T>
std::optional<T> parse_number(std::string_view token);

/// Lower-case file extension including the dot ("" if none).
std::string extension_of(const std::string& path);

}  // namespace eipc::mesh_detail
