// json_writer.hpp — a small streaming JSON writer for command outputs: the JSON-text back end of
// util/json_builder.hpp, whose calls it takes.
// Contract: appends valid JSON to a std::string; strings are escaped (control characters,
// quotes, backslashes; bytes ≥ 0x80 pass through, invalid UTF-8 is replaced by U+FFFD);
// non-finite doubles become null. Pretty-printed with two-space indentation, or each top-level
// value on one line (JsonLayout::kOneLine, for JSON lines); a top-level value ends with a
// newline.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/diagnostics.hpp"
#include "util/json_builder.hpp"

namespace npkit {

enum class JsonLayout : std::uint8_t { kPretty, kOneLine };

class JsonWriter : public JsonBuilder<JsonWriter> {
 public:
  explicit JsonWriter(std::string& out, JsonLayout layout = JsonLayout::kPretty)
      : out_(out), one_line_(layout == JsonLayout::kOneLine) {}

 private:
  friend class JsonBuilder<JsonWriter>;
  void open_object();
  void close_object();
  void open_array();
  void close_array();
  void put_key(std::string_view k);
  void put(std::string_view s);
  void put(std::int64_t v);
  void put(std::uint64_t v);
  void put(double v);
  void put(bool v);
  void put_null();

  void before_value();
  void newline();

  std::string& out_;
  bool one_line_ = false;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Appends `s` as a JSON string literal (with quotes) to `out`: every control character (C0, DEL,
// C1) as \u00XX, so the JSON is safe on a terminal; invalid UTF-8 bytes become U+FFFD.
void append_json_string(std::string& out, std::string_view s);

// Writes "warnings": [{category, count, examples}] into the object `w` has open.
void write_warnings_json(JsonWriter& w, const Diagnostics& diagnostics);

}  // namespace npkit
