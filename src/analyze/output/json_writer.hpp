// json_writer.hpp — a small streaming JSON writer for command outputs.
// Contract: appends valid JSON to a std::string; strings are escaped (control characters,
// quotes, backslashes; bytes ≥ 0x80 pass through, invalid UTF-8 is replaced by U+FFFD);
// non-finite doubles become null. Pretty-printed with two-space indentation, or each top-level
// value on one line (JsonLayout::kOneLine, for JSON lines); a top-level value ends with a
// newline. Callers nest begin/end calls correctly; key() is required before each value inside an
// object. object(), objects() and values() write a keyed member whole, so that they cannot be
// left unbalanced.
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

  // "k": {...}, the members written by members().
  template <typename Members>
  void object(std::string_view k, Members members) {
    key(k);
    begin_object();
    members();
    end_object();
  }

  // "k": [{...}, ...], one object per item, its members written by members(item).
  template <typename Range, typename Members>
  void objects(std::string_view k, const Range& items, Members members) {
    key(k);
    begin_array();
    for (const auto& item : items) {
      begin_object();
      members(item);
      end_object();
    }
    end_array();
  }

  // "k": [v, ...], the items as plain values.
  template <typename Range>
  void values(std::string_view k, const Range& items) {
    key(k);
    begin_array();
    for (const auto& v : items) value(v);
    end_array();
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
