#include "import/chrome_json/trace_event.hpp"

#include "import/chrome_json/json_number.hpp"

namespace npkit {

const EventArg* TraceEvent::arg(std::string_view key) const {
  for (const auto& a : args) {
    if (a.key == key) return &a;
  }
  return nullptr;
}

std::optional<std::int64_t> TraceEvent::arg_int(std::string_view key) const {
  const EventArg* a = arg(key);
  if (a == nullptr || a->kind != EventArgKind::kNumber) return std::nullopt;
  return parse_json_int(a->text);
}

std::optional<std::uint64_t> TraceEvent::arg_uint(std::string_view key) const {
  const EventArg* a = arg(key);
  if (a == nullptr || a->kind != EventArgKind::kNumber) return std::nullopt;
  return parse_json_uint(a->text);
}

std::optional<std::string_view> TraceEvent::arg_string(std::string_view key) const {
  const EventArg* a = arg(key);
  if (a == nullptr || a->kind != EventArgKind::kString) return std::nullopt;
  return a->text;
}

const std::string* TraceHeader::other(std::string_view key) const {
  for (const auto& [k, v] : other_data) {
    if (k == key) return &v;
  }
  return nullptr;
}

}  // namespace npkit
