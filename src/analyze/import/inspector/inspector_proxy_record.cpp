#include "import/inspector/inspector_proxy_record.hpp"

#include <fmt/format.h>

#include "import/inspector/inspector_json_fields.hpp"

namespace npkit {
namespace {

using namespace json_fields;

constexpr std::array<const char*, 3> kSendPhases = {"gpu_produce_us", "peer_credit_us", "wire_us"};
constexpr std::array<const char*, 3> kRecvPhases = {"wire_us", "flush_us", "gpu_consume_us"};

Result<InspectorProxyStep> read_step(dom::object obj, std::string_view where, bool send) {
  InspectorProxyStep s;
  NPKIT_ASSIGN(s.total_us, optional_uint(obj, where, "total_us"));
  const auto& keys = send ? kSendPhases : kRecvPhases;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    NPKIT_ASSIGN(s.phase_us[i], optional_uint(obj, where, keys[i]));
  }
  return s;
}

}  // namespace

Result<InspectorProxyTrace> read_proxy_trace(dom::element v) {
  constexpr std::string_view kWhere = "proxy_trace";
  dom::object obj;
  if (v.get(obj) != simdjson::SUCCESS) return wrong_type(kWhere, "an object", v);
  InspectorProxyTrace t;
  NPKIT_ASSIGN(auto type, string_member(obj, kWhere, "record_type"));
  t.record_type = std::string(type);
  NPKIT_ASSIGN(auto direction, string_member(obj, kWhere, "direction"));
  if (direction != "send" && direction != "recv") {
    return Error{fmt::format("proxy_trace.direction '{}': expected send or recv", direction)};
  }
  t.send = direction == "send";
  if (type == "proxy_step") {
    NPKIT_ASSIGN(auto step, read_step(obj, kWhere, t.send));
    t.steps.push_back(step);
    return t;
  }
  if (type == "proxy_op") {
    NPKIT_ASSIGN(auto dropped, optional_uint(obj, kWhere, "n_steps_dropped"));
    t.steps_dropped = dropped.value_or(0);
  }
  if (!has(obj, "steps")) return t;
  NPKIT_ASSIGN(auto steps, member(obj, kWhere, "steps", "an array"));
  dom::array list;
  if (steps.get(list) != simdjson::SUCCESS) {
    return wrong_type("proxy_trace.steps", "an array", steps);
  }
  std::size_t i = 0;
  for (dom::element e : list) {
    const std::string at = fmt::format("proxy_trace.steps[{}]", i++);
    dom::object so;
    if (e.get(so) != simdjson::SUCCESS) return wrong_type(at, "an object", e);
    NPKIT_ASSIGN(auto step, read_step(so, at, t.send));
    t.steps.push_back(step);
  }
  return t;
}

}  // namespace npkit
