// json_writer.hpp — a small streaming JSON writer for command outputs.
// Contract: appends valid JSON to a std::string; strings are escaped (control characters,
// quotes, backslashes; bytes ≥ 0x80 pass through, invalid UTF-8 is replaced by U+FFFD);
// non-finite doubles become null. Pretty-printed with two-space indentation, or each top-level
// value on one line (JsonLayout::kOneLine, for JSON lines); a top-level value ends with a
// newline. Callers nest begin/end calls correctly; key() is required before each value inside an
// object.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/diagnostics.hpp"

namespace npkit {

enum class JsonLayout : std::uint8_t { kPretty, kOneLine };

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out, JsonLayout layout = JsonLayout::kPretty)
      : out_(out), one_line_(layout == JsonLayout::kOneLine) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view k);

  void value(std::string_view s);
  void value(const char* s) { value(std::string_view(s)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(std::int64_t v);
  void value(std::uint64_t v);
  void value(int v) { value(static_cast<std::int64_t>(v)); }
  void value(unsigned v) { value(static_cast<std::uint64_t>(v)); }
  void value(double v);
  void value(bool v);
  void null_value();

  template <typename T>
  void field(std::string_view k, const T& v) {
    key(k);
    value(v);
  }

 private:
  void before_value();
  void newline();

  std::string& out_;
  bool one_line_ = false;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Appends `s` as a JSON string literal (with quotes) to `out`.
void append_json_string(std::string& out, std::string_view s);

// Writes "warnings": [{category, count, examples}] into the object `w` has open.
void write_warnings_json(JsonWriter& w, const Diagnostics& diagnostics);

}  // namespace npkit
