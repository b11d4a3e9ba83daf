#include "commands/trace_merge.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>

#include "output/json_writer.hpp"
#include "output/trace/trace_numbers.hpp"
#include "util/file_io.hpp"
#include "util/gunzip.hpp"
#include "util/out_of_memory.hpp"
#include "util/saturating.hpp"

namespace npkit::cli {

namespace {

Result<MergedTrace> read_merged_trace_unguarded(const std::string& path) {
  std::vector<std::uint8_t> bytes;
  NPKIT_TRY(io::read_file_into(path, bytes, {std::uint64_t{16} << 30, "a --merge trace"}));
  if (gz::looks_like_gzip(bytes.data(), bytes.size())) {
    std::vector<std::uint8_t> plain;
    NPKIT_TRY(gz::gunzip(path, bytes.data(), bytes.size(),
                         {gz::gunzip_bound(bytes.size()), "more than gzip can expand to"}, plain));
    bytes = std::move(plain);
  }
  MergedTrace merged;
  merged.path = path;
  merged.text.assign(bytes.begin(), bytes.end());
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  const simdjson::error_code parsed = parser.parse(merged.text).get(doc);
  if (parsed == simdjson::MEMALLOC) return Error{"out of memory reading --merge " + path};
  if (parsed != simdjson::SUCCESS || !doc.is_object()) {
    return Error{"--merge " + path +
                 ": not a JSON object (expected a Chrome trace such as "
                 "torch.profiler's export_chrome_trace writes)"};
  }
  simdjson::dom::array events;
  if (doc["traceEvents"].get(events) != simdjson::SUCCESS) {
    return Error{"--merge " + path + ": holds no traceEvents array"};
  }
  std::int64_t base = 0;
  if (doc["baseTimeNanoseconds"].get(base) != simdjson::SUCCESS) {
    std::uint64_t unsigned_base = 0;
    if (doc["baseTimeNanoseconds"].get(unsigned_base) != simdjson::SUCCESS) {
      return Error{"--merge " + path +
                   ": no baseTimeNanoseconds, so its ts lie on no known clock (torch.profiler's "
                   "export_chrome_trace writes one)"};
    }
    base = static_cast<std::int64_t>(unsigned_base);
  }
  merged.base_ns = base;
  return merged;
}

}  // namespace

Result<MergedTrace> read_merged_trace(const std::string& path) {
  return reading_guarded("--merge " + path, [&] { return read_merged_trace_unguarded(path); });
}

namespace {

// The member `key`: `value` as it is, but for ts (moved by `shift_ns`) and a numeric pid.
void append_member(std::string& out, std::string_view key, simdjson::dom::element value,
                   std::int64_t shift_ns) {
  append_json_string(out, key);
  out.push_back(':');
  double number = 0;
  if (key == "ts" && value.get(number) == simdjson::SUCCESS) {
    append_fixed3(out, sat_add(static_cast<std::int64_t>(std::llround(number * 1000.0)), shift_ns));
    return;
  }
  std::uint64_t pid = 0;
  if (key == "pid" && value.get(pid) == simdjson::SUCCESS) {
    append_uint(out, kMergedPidBase + pid);
    return;
  }
  out.append(simdjson::minify(value));
}

}  // namespace

void merge_into(JsonTraceEncoder& json, const MergedTrace& merged) {
  json.before_finish([&merged](JsonTraceEncoder& out) -> Status {
    const TraceTimes& ours = out.times();
    if (!ours.on_wall_clock) {
      return Error{"--merge " + merged.path +
                   ": this input's times are not on the host's wall clock (only .npkt "
                   "captures are), so the two traces cannot be laid on one timeline"};
    }
    const std::int64_t shift_ns = sat_sub(merged.base_ns, ours.origin_ns);
    simdjson::dom::parser parser;
    simdjson::dom::element doc = parser.parse(merged.text);
    std::string event;
    for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
      simdjson::dom::object object;
      if (e.get(object) != simdjson::SUCCESS) continue;
      event.assign("{");
      bool first = true;
      for (const auto field : object) {
        if (!first) event.push_back(',');
        first = false;
        append_member(event, field.key, field.value, shift_ns);
      }
      event.push_back('}');
      out.raw_event(event);
    }
    return Ok{};
  });
}

}  // namespace npkit::cli
