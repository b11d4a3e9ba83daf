// import/inspector/inspector_json_fields.hpp — typed access to the members of one Inspector JSON
// record, with messages that say where and what was expected.
// Contract:
// - `where` names the object ("header", "coll_perf.event_trace_ts"); messages read
//   "<where>.<key>: expected <what>, found <what>" or "<where>: missing member <key> (expected
//   <what>)". Integers are JSON integers (a fractional number or a string is an Error);
//   int_member also rejects values outside 32 bits, uint members negative ones.
// - The optional_* forms return "" / nullopt when the member is absent and an Error when it holds
//   another type.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "util/result.hpp"

namespace npkit::json_fields {

namespace dom = simdjson::dom;

Error wrong_type(std::string_view where, std::string_view expected, dom::element v);
Result<dom::element> member(dom::object obj, std::string_view where, std::string_view key,
                            std::string_view expected);
Result<dom::object> object_member(dom::object obj, std::string_view where, std::string_view key);
Result<std::uint64_t> as_uint(dom::element v, std::string_view where);
Result<std::uint64_t> uint_member(dom::object obj, std::string_view where, std::string_view key);
Result<std::optional<std::uint64_t>> optional_uint(dom::object obj, std::string_view where,
                                                   std::string_view key);
Result<std::int32_t> int_member(dom::object obj, std::string_view where, std::string_view key);
Result<std::string_view> string_member(dom::object obj, std::string_view where,
                                       std::string_view key);
Result<std::string_view> optional_string(dom::object obj, std::string_view where,
                                         std::string_view key);
bool has(dom::object obj, std::string_view key);

}  // namespace npkit::json_fields
