// import/json/json_value_reader.hpp — checked reading of one JSON document with simdjson
// On-Demand, for the readers of whole JSON files (npkit summaries, nccl-tests results).
// Contract:
// - Never throws or crashes on hostile bytes: every problem is an Error "NAME: offset N: what was
//   expected", N the byte offset of the offending value, key or character (malformed UTF-8, a
//   control character in a string, an unclosed string, an object or array left open at the end
//   (offset: the input's size), bad JSON structure, a wrong type, a
//   missing or duplicate field, content after the document).
// - parse() runs the lexical checks, then calls on_root with the document's root value; the
//   helpers below read values under it (they are valid only inside on_root).
// - object() calls on_field for every field in order; a duplicate key is an error; every
//   `required` key must be present. array() calls on_element for every element.
// - JsonPrefix reads the first bytes of a file to tell its kind: take() consumes a token after
//   optional blanks, digits() a run of at least one decimal digit after optional blanks.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace npkit {

class JsonValueReader {
 public:
  using Value = simdjson::ondemand::value;

  // `text` must outlive the reader; `name` prefixes every message (the file's path).
  JsonValueReader(std::string name, const simdjson::padded_string& text);

  Status parse(std::string_view what, const std::function<Status(Value&)>& on_root);

  Error at(std::size_t offset, std::string_view what) const;
  std::size_t offset(Value& v) const;
  // A value of the wrong type, or the input ended where a value should be.
  Error type_error(Value& v, std::string_view what, std::string_view expected) const;

  Result<std::uint64_t> u64(Value& v, std::string_view what);
  Result<std::int64_t> i64(Value& v, std::string_view what, std::int64_t min, std::int64_t max);
  Result<std::string> str(Value& v, std::string_view what);
  Status object(Value& v, std::string_view what, std::initializer_list<std::string_view> required,
                const std::function<Status(std::string_view, Value&)>& on_field);
  Status array(Value& v, std::string_view what, const std::function<Status(Value&)>& on_element);
  Status string_set(Value& v, std::string_view what, std::set<std::string>& out);
  Status set_map(Value& v, std::string_view what,
                 std::map<std::string, std::set<std::string>>& out);

 private:
  std::size_t here(simdjson::ondemand::document& doc) const;
  Error json_error(simdjson::error_code e, simdjson::ondemand::document& doc) const;
  Status scan(std::string_view text) const;

  std::string name_;
  const simdjson::padded_string* text_;
  const char* base_;
  std::size_t size_;
  simdjson::ondemand::document* doc_ = nullptr;
};

class JsonPrefix {
 public:
  explicit JsonPrefix(std::string_view text) : rest_(text) {}
  bool take(std::string_view token);
  bool digits();

 private:
  std::string_view rest_;
};

}  // namespace npkit
