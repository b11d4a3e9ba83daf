#include "support/json_trace_slices.hpp"

#include <simdjson.h>

#include <cmath>
#include <cstdio>

namespace npkit::test {
namespace {

std::string json_value(simdjson::dom::element v) {
  switch (v.type()) {
    case simdjson::dom::element_type::UINT64:
      return std::to_string(v.get_uint64().value());
    case simdjson::dom::element_type::INT64:
      return std::to_string(v.get_int64().value());
    case simdjson::dom::element_type::DOUBLE: {
      char text[64];
      std::snprintf(text, sizeof text, "%.3f", v.get_double().value());
      return text;
    }
    case simdjson::dom::element_type::STRING:
      return std::string(v.get_string().value());
    case simdjson::dom::element_type::ARRAY: {
      std::string out = "[";
      for (simdjson::dom::element item : v.get_array()) {
        if (out.size() > 1) out += ",";
        out += json_value(item);
      }
      return out + "]";
    }
    default:
      return "?";
  }
}

std::uint64_t ns_after_origin(double us) {
  return static_cast<std::uint64_t>(std::llround(us * 1000.0));
}

}  // namespace

JsonTrace read_json_trace(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.load(path);
  JsonTrace t;
  t.origin_ns = doc["otherData"]["time_origin_ns"].get_int64();
  if (doc["otherData"]["first_event_ns"].get(t.first_event_ns) != simdjson::SUCCESS) {
    t.first_event_ns = t.origin_ns;
  }
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    const std::string_view ph = e["ph"].get_string();
    const std::int64_t pid = e["pid"].get_int64();
    if (ph == "M") {
      const std::string_view name = e["name"].get_string();
      if (name == "process_name") t.process_names[pid] = e["args"]["name"].get_string().value();
      if (name == "thread_name") {
        t.thread_names[{pid, e["tid"].get_int64().value()}] =
            e["args"]["name"].get_string().value();
      }
      continue;
    }
    if (ph == "C") {
      const std::string_view name = e["name"].get_string();
      for (auto [key, value] : e["args"].get_object()) {
        t.counters.push_back({pid, std::string(name) + " " + std::string(key),
                              ns_after_origin(e["ts"].get_double()), value.get_double()});
      }
      continue;
    }
    PerfettoSlice s;
    s.pid = pid;
    s.tid = e["tid"].get_int64();
    s.name = e["name"].get_string().value();
    s.category = e["cat"].get_string().value();
    s.instant = ph == "i";
    s.start_ns = ns_after_origin(e["ts"].get_double());
    s.end_ns = s.instant ? s.start_ns : s.start_ns + ns_after_origin(e["dur"].get_double());
    simdjson::dom::object args;
    if (!e["args"].get_object().get(args)) {
      for (auto [key, value] : args) s.args[std::string(key)] = json_value(value);
    }
    t.slices.push_back(std::move(s));
  }
  return t;
}

}  // namespace npkit::test
