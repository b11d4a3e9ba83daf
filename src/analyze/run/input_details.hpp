// run/input_details.hpp — what an input is, as data its reader fills, so that output renders it
// without knowing formats: its facts (a line each, for the headers of reports) and what `info`
// shows of it beyond what every input shows (its format's own files, clocks, events).
// Contract:
// - blocks (text and Markdown), in order: key/value lines (under `title` where it has one), a
//   table, or a list under its heading (`title`). Text separates blocks by a blank line.
// - csv: the input kind's table in machine units (per file or per rank); none: info's per-rank
//   span table.
// - json: the members of info's "details" object. DetailWriter builds it with the calls of every
//   JSON writer (util/json_builder.hpp), and each number keeps the type it was written with.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/json_builder.hpp"
#include "util/string_table.hpp"

namespace npkit {

// One line of what an input is, e.g. {"format", "NPKit dump directory"}.
struct InputFact {
  std::string name;
  std::string value;
};

struct DetailBlock {
  enum class Kind : std::uint8_t { kFields, kTable, kList };
  Kind kind = Kind::kFields;
  std::string title;
  std::vector<Field> fields;
  TextTable table;
  std::vector<std::string> items;
};

struct DetailValue {
  enum class Kind : std::uint8_t { kString, kInt, kUint, kDouble, kBool, kObject, kArray };
  Kind kind = Kind::kObject;
  std::string key;  // the member's name inside an object
  std::string text;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
  bool b = false;
  std::vector<DetailValue> items;  // an object's members, an array's elements
};

struct InputDetails {
  std::vector<DetailBlock> blocks;
  std::optional<TextTable> csv;
  DetailValue json;
};

// The back end of util/json_builder.hpp that keeps what it is given as DetailValues.
class DetailWriter : public JsonBuilder<DetailWriter> {
 public:
  // Writes the members of `object`.
  explicit DetailWriter(DetailValue& object) : open_{&object} {}

 private:
  friend class JsonBuilder<DetailWriter>;
  void open_object() { open_.push_back(add(DetailValue{})); }
  void close_object() { open_.pop_back(); }
  void open_array();
  void close_array() { open_.pop_back(); }
  void put_key(std::string_view k) { key_ = k; }
  void put(std::string_view s);
  void put(std::int64_t v);
  void put(std::uint64_t v);
  void put(double v);
  void put(bool v);

  // Appends `v` to the innermost open object (under the last key) or array.
  DetailValue* add(DetailValue v);

  std::vector<DetailValue*> open_;
  std::string key_;
};

}  // namespace npkit
