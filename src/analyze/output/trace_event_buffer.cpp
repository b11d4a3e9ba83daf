#include "output/trace_event_buffer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "output/json_writer.hpp"
#include "output/trace_numbers.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

constexpr std::size_t kFlushBytes = 1 << 20;

}  // namespace

TraceEventBuffer::TraceEventBuffer(std::ostream& out, std::int64_t origin_ns)
    : writer_(out), origin_ns_(origin_ns) {
  text_.reserve(kFlushBytes + 4096);
}

void TraceEventBuffer::begin(std::string_view other_data) {
  text_ = "{\"displayTimeUnit\": \"ns\",\n\"otherData\": ";
  text_.append(other_data);
  text_.append(",\n\"traceEvents\": [");
}

std::string& TraceEventBuffer::next_event() {
  if (text_.size() >= kFlushBytes) {
    writer_.submit(text_);
    text_.reserve(kFlushBytes + 4096);
  }
  text_.append(events_ == 0 ? "\n" : ",\n");
  ++events_;
  return text_;
}

std::string& TraceEventBuffer::open_event(std::string_view name, std::string_view cat,
                                          std::uint32_t pid, std::uint32_t tid, bool instant,
                                          std::int64_t start_ns, std::int64_t end_ns) {
  std::string& e = next_event();
  e.append("{\"name\":");
  append_json_string(e, name);
  e.append(",\"cat\":\"");
  e.append(cat);
  e.append(instant ? "\",\"ph\":\"i\",\"s\":\"t\",\"pid\":" : "\",\"ph\":\"X\",\"pid\":");
  append_uint(e, pid);
  e.append(",\"tid\":");
  append_uint(e, tid);
  e.append(",\"ts\":");
  append_fixed3(e, sat_sub(start_ns, origin_ns_));
  if (!instant) {
    e.append(",\"dur\":");
    append_fixed3(e, std::max<std::int64_t>(0, sat_sub(end_ns, start_ns)));
  }
  return e;
}

void TraceEventBuffer::name_threads(std::uint32_t pid, std::string_view process_name,
                                    const std::map<std::uint32_t, std::string>& thread_names) {
  std::string& p = next_event();
  fmt::format_to(std::back_inserter(p), R"({{"name":"process_name","ph":"M","pid":{},)", pid);
  p.append(R"("args":{"name":)");
  append_json_string(p, process_name);
  p.append("}}");
  fmt::format_to(std::back_inserter(next_event()),
                 R"({{"name":"process_sort_index","ph":"M","pid":{},"args":{{"sort_index":{}}}}})",
                 pid, pid);
  for (const auto& [tid, name] : thread_names) {
    std::string& t = next_event();
    fmt::format_to(std::back_inserter(t),
                   R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":)", pid,
                   tid);
    append_json_string(t, name);
    t.append("}}");
    fmt::format_to(
        std::back_inserter(next_event()),
        R"({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
        pid, tid, tid);
  }
}

Status TraceEventBuffer::finish(const std::string& path) {
  text_.append("\n]}\n");
  writer_.submit(text_);
  if (!writer_.finish()) return Error{"cannot write " + path + " (disk full?)"};
  return Ok{};
}

TraceArgs::TraceArgs(std::string& event) : out_(event) {
  out_.append(",\"args\":{");
}

void TraceArgs::num(std::string_view key, std::uint64_t v) {
  begin(key);
  append_uint(out_, v);
}

void TraceArgs::inum(std::string_view key, std::int64_t v) {
  begin(key);
  out_.append(std::to_string(v));
}

void TraceArgs::str(std::string_view key, std::string_view v) {
  begin(key);
  append_json_string(out_, v);
}

void TraceArgs::begin(std::string_view key) {
  if (!first_) out_.push_back(',');
  first_ = false;
  out_.push_back('"');
  out_.append(key);
  out_.append("\":");
}

}  // namespace npkit
