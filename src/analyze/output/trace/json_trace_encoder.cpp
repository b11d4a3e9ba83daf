#include "output/trace/json_trace_encoder.hpp"

#include <algorithm>

#include "output/json_writer.hpp"
#include "output/trace/trace_numbers.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

using namespace std::string_view_literals;

void append_int(std::string& out, std::int64_t v) {
  if (v < 0) {
    out.push_back('-');
    append_uint(out, 0 - static_cast<std::uint64_t>(v));
  } else {
    append_uint(out, static_cast<std::uint64_t>(v));
  }
}

void append_args(std::string& e, const TraceArgList& args) {
  e.append(R"(,"args":{)"sv);
  bool first = true;
  for (const TraceArg& a : args) {
    if (!first) e.push_back(',');
    first = false;
    e.push_back('"');
    e.append(a.key);
    e.append("\":"sv);
    switch (a.kind) {
      case TraceArgKind::kUint:
        append_uint(e, a.u);
        break;
      case TraceArgKind::kInt:
        append_int(e, a.i);
        break;
      case TraceArgKind::kString:
        append_json_string(e, a.s);
        break;
      case TraceArgKind::kThousandths:
        append_fixed3(e, a.i);
        break;
      case TraceArgKind::kUintPair:
        e.push_back('[');
        append_uint(e, a.u);
        e.push_back(',');
        append_uint(e, a.u2);
        e.push_back(']');
        break;
    }
  }
  e.push_back('}');
}

}  // namespace

JsonTraceEncoder::JsonTraceEncoder(std::ostream& out) : out_(out) {}

std::unique_ptr<TraceEncoder> JsonTraceEncoder::fragment(std::uint32_t /*index*/) const {
  return std::unique_ptr<TraceEncoder>(new JsonTraceEncoder());
}

void JsonTraceEncoder::begin(std::string_view other_data, std::int64_t /*origin_ns*/) {
  std::string& text = out_.text();
  text.append("{\"displayTimeUnit\": \"ns\",\n\"otherData\": ");
  text.append(other_data);
  text.append(",\n\"traceEvents\": [");
}

std::string& JsonTraceEncoder::next_event() {
  out_.flush_if_full();
  std::string& text = out_.text();
  text.append(events_ == 0 ? "\n"sv : ",\n"sv);
  ++events_;
  return text;
}

void JsonTraceEncoder::append_quoted(std::string_view s) {
  Quoted& q = quoted_[recent_string_slot(s)];
  if (q.quoted.empty() || q.raw != s) {  // an unused slot holds no quotes
    q.raw.assign(s);
    q.quoted.clear();
    append_json_string(q.quoted, s);
  }
  out_.text().append(q.quoted);
}

void JsonTraceEncoder::metadata(std::string_view kind, std::uint32_t pid, const std::uint32_t* tid,
                                std::string_view name, std::uint32_t sort_index) {
  for (int sort = 0; sort < 2; ++sort) {
    std::string& e = next_event();
    e.append(R"({"name":")"sv);
    e.append(kind);
    e.append(sort == 0 ? R"(_name","ph":"M","pid":)"sv : R"(_sort_index","ph":"M","pid":)"sv);
    append_uint(e, pid);
    if (tid != nullptr) {
      e.append(R"(,"tid":)"sv);
      append_uint(e, *tid);
    }
    if (sort == 0) {
      e.append(R"(,"args":{"name":)"sv);
      append_json_string(e, name);
    } else {
      e.append(R"(,"args":{"sort_index":)"sv);
      append_uint(e, sort_index);
    }
    e.append("}}"sv);
  }
}

void JsonTraceEncoder::name_process(std::uint32_t pid, std::string_view name) {
  if (out_.is_fragment()) return fragment_names_.push_back({pid, std::nullopt, std::string(name)});
  written_names_.first({pid, std::nullopt, {}});
  metadata("process"sv, pid, nullptr, name, pid);
}

void JsonTraceEncoder::name_thread(std::uint32_t pid, std::uint32_t tid, std::string_view name) {
  if (out_.is_fragment()) return fragment_names_.push_back({pid, tid, std::string(name)});
  written_names_.first({pid, tid, {}});
  metadata("thread"sv, pid, &tid, name, tid);
}

void JsonTraceEncoder::append(TraceEncoder& fragment) {
  auto& f = static_cast<JsonTraceEncoder&>(fragment);
  written_names_.pass_on(f.fragment_names_, *this);
  if (f.events_ == 0) return;
  // The fragment's first event has no comma before it.
  if (events_ != 0) out_.text().push_back(',');
  events_ += f.events_;
  out_.append(f.out_);
}

void JsonTraceEncoder::write(const TraceSlice& s) {
  std::string& e = next_event();
  e.append(R"({"name":)"sv);
  append_quoted(s.name);
  e.append(R"(,"cat":)"sv);
  append_quoted(s.category);
  e.append(s.instant ? R"(,"ph":"i","s":"t","pid":)"sv : R"(,"ph":"X","pid":)"sv);
  append_uint(e, s.pid);
  e.append(R"(,"tid":)"sv);
  append_uint(e, s.tid);
  e.append(R"(,"ts":)"sv);
  append_fixed3(e, s.start_ns);
  if (!s.instant) {
    e.append(R"(,"dur":)"sv);
    append_fixed3(e, std::max<std::int64_t>(0, sat_sub(s.end_ns, s.start_ns)));
  }
  if (s.args != nullptr && s.args->size() != 0) append_args(e, *s.args);
  e.push_back('}');
}

Status JsonTraceEncoder::finish(const std::string& path) {
  if (out_.is_fragment()) return Ok{};  // its text is complete
  out_.text().append("\n]}\n");
  return out_.finish(path);
}

}  // namespace npkit
