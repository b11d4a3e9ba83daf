#include "import/inspector/inspector_json_fields.hpp"

#include <fmt/format.h>

#include <limits>

namespace npkit::json_fields {
namespace {

const char* type_name(dom::element_type t) {
  switch (t) {
    case dom::element_type::ARRAY:
      return "an array";
    case dom::element_type::OBJECT:
      return "an object";
    case dom::element_type::INT64:
    case dom::element_type::UINT64:
      return "an integer";
    case dom::element_type::DOUBLE:
      return "a fractional number";
    case dom::element_type::STRING:
      return "a string";
    case dom::element_type::BOOL:
      return "a boolean";
    case dom::element_type::NULL_VALUE:
      return "null";
  }
  return "a value";
}

}  // namespace

Error wrong_type(std::string_view where, std::string_view expected, dom::element v) {
  return Error{fmt::format("{}: expected {}, found {}", where, expected, type_name(v.type()))};
}

Result<dom::element> member(dom::object obj, std::string_view where, std::string_view key,
                            std::string_view expected) {
  dom::element v;
  if (obj[key].get(v) != simdjson::SUCCESS) {
    return Error{fmt::format("{}: missing member {} (expected {})", where, key, expected)};
  }
  return v;
}

Result<dom::object> object_member(dom::object obj, std::string_view where, std::string_view key) {
  NPKIT_ASSIGN(auto v, member(obj, where, key, "an object"));
  dom::object out;
  if (v.get(out) != simdjson::SUCCESS) {
    return wrong_type(fmt::format("{}.{}", where, key), "an object", v);
  }
  return out;
}

Result<std::uint64_t> as_uint(dom::element v, std::string_view where) {
  std::uint64_t x = 0;
  if (v.is_int64() || v.is_uint64()) {
    if (v.get(x) != simdjson::SUCCESS) {
      return Error{
          fmt::format("{}: expected an integer of 0 or more, found a negative one", where)};
    }
    return x;
  }
  return wrong_type(where, "an integer", v);
}

Result<std::uint64_t> uint_member(dom::object obj, std::string_view where, std::string_view key) {
  NPKIT_ASSIGN(auto v, member(obj, where, key, "an integer"));
  return as_uint(v, fmt::format("{}.{}", where, key));
}

Result<std::optional<std::uint64_t>> optional_uint(dom::object obj, std::string_view where,
                                                   std::string_view key) {
  if (!has(obj, key)) return std::optional<std::uint64_t>();
  NPKIT_ASSIGN(auto x, uint_member(obj, where, key));
  return std::optional<std::uint64_t>(x);
}

Result<std::int32_t> int_member(dom::object obj, std::string_view where, std::string_view key) {
  NPKIT_ASSIGN(auto v, member(obj, where, key, "an integer"));
  std::int64_t x = 0;
  if (!v.is_int64() || v.get(x) != simdjson::SUCCESS ||
      x < std::numeric_limits<std::int32_t>::min() ||
      x > std::numeric_limits<std::int32_t>::max()) {
    if (v.is_int64() || v.is_uint64()) {
      return Error{fmt::format("{}.{}: expected a 32-bit integer", where, key)};
    }
    return wrong_type(fmt::format("{}.{}", where, key), "an integer", v);
  }
  return static_cast<std::int32_t>(x);
}

Result<std::string_view> string_member(dom::object obj, std::string_view where,
                                       std::string_view key) {
  NPKIT_ASSIGN(auto v, member(obj, where, key, "a string"));
  std::string_view s;
  if (v.get(s) != simdjson::SUCCESS) {
    return wrong_type(fmt::format("{}.{}", where, key), "a string", v);
  }
  return s;
}

Result<std::string_view> optional_string(dom::object obj, std::string_view where,
                                         std::string_view key) {
  if (!has(obj, key)) return std::string_view();
  return string_member(obj, where, key);
}

bool has(dom::object obj, std::string_view key) {
  dom::element v;
  return obj[key].get(v) == simdjson::SUCCESS;
}

}  // namespace npkit::json_fields
