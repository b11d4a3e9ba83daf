#include "output/trace/json_trace_encoder.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "output/json_writer.hpp"
#include "output/trace/reserved_text.hpp"
#include "output/trace/trace_numbers.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

using namespace std::string_view_literals;

// JSON numbers written into reserved room (output/trace/reserved_text.hpp).
class RawText : public ReservedText {
 public:
  using ReservedText::ReservedText;
  void uint(std::uint64_t v) { p_ = std::to_chars(p_, p_ + 20, v).ptr; }
  void sint(std::int64_t v) { p_ = std::to_chars(p_, p_ + 20, v).ptr; }
  void fixed3(std::int64_t thousandths) { p_ = write_fixed3(p_, thousandths); }
};

// The most an event's fixed text and numbers take (keys, 4 numbers of at most 21 characters).
constexpr std::size_t kEventText = 160;
// The most one argument takes beside its key and string value: quotes, a pair of numbers.
constexpr std::size_t kArgText = 48;

}  // namespace

JsonTraceEncoder::JsonTraceEncoder(std::ostream& out) : out_(out) {}

std::unique_ptr<TraceEncoder> JsonTraceEncoder::fragment(std::uint32_t /*index*/) const {
  return std::unique_ptr<TraceEncoder>(new JsonTraceEncoder());
}

void JsonTraceEncoder::begin(std::string_view other_data, const TraceTimes& times) {
  times_ = times;
  std::string& text = out_.text();
  text.append("{\"displayTimeUnit\": \"ns\",\n");
  if (times.on_wall_clock) {
    text.append("\"baseTimeNanoseconds\": ");
    append_uint(text, static_cast<std::uint64_t>(std::max<std::int64_t>(0, times.origin_ns)));
    text.append(",\n");
  }
  text.append("\"otherData\": ");
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
  if (!names_.write_now(out_.is_fragment(), {pid, std::nullopt, std::string(name)})) return;
  metadata("process"sv, pid, nullptr, name, pid);
}

void JsonTraceEncoder::name_thread(std::uint32_t pid, std::uint32_t tid, std::string_view name) {
  if (!names_.write_now(out_.is_fragment(), {pid, tid, std::string(name)})) return;
  metadata("thread"sv, pid, &tid, name, tid);
}

void JsonTraceEncoder::append(TraceEncoder& fragment) {
  auto& f = static_cast<JsonTraceEncoder&>(fragment);
  names_.pass_on(f.names_, *this);
  if (f.events_ == 0) return;
  // The fragment's first event has no comma before it.
  if (events_ != 0) out_.text().push_back(',');
  events_ += f.events_;
  out_.append(f.out_);
}

const std::string& JsonTraceEncoder::quoted(std::string_view s) {
  Quoted& q = quoted_[recent_string_slot(s)];
  if (q.quoted.empty() || q.raw != s) {  // an unused slot holds no quotes
    q.raw.assign(s);
    q.quoted.clear();
    append_json_string(q.quoted, s);
  }
  return q.quoted;
}

void JsonTraceEncoder::write(const TraceSlice& s) {
  std::string& e = next_event();
  // Two strings may share a cache slot: each is looked up again right before it is written.
  const bool has_args = s.args != nullptr && s.args->size() != 0;
  std::size_t most = kEventText + quoted(s.name).size() + quoted(s.category).size();
  if (has_args) {
    for (const TraceArg& a : *s.args) {
      // A string's character takes at most 6 escaped (\u00XX).
      most += kArgText + a.key.size() + 6 * a.s.size();
    }
  }
  RawText t(e, most);
  t.raw(R"({"name":)"sv);
  t.raw(quoted(s.name));
  t.raw(R"(,"cat":)"sv);
  t.raw(quoted(s.category));
  t.raw(s.instant ? R"(,"ph":"i","s":"t","pid":)"sv : R"(,"ph":"X","pid":)"sv);
  t.uint(s.pid);
  t.raw(R"(,"tid":)"sv);
  t.uint(s.tid);
  t.raw(R"(,"ts":)"sv);
  t.fixed3(s.start_ns);
  if (!s.instant) {
    t.raw(R"(,"dur":)"sv);
    t.fixed3(std::max<std::int64_t>(0, sat_sub(s.end_ns, s.start_ns)));
  }
  if (has_args) {
    t.raw(R"(,"args":{)"sv);
    bool first = true;
    for (const TraceArg& a : *s.args) {
      if (!first) t.raw(',');
      first = false;
      t.raw('"');
      t.raw(a.key);
      t.raw("\":"sv);
      switch (a.kind) {
        case TraceArgKind::kUint:
          t.uint(a.u);
          break;
        case TraceArgKind::kInt:
          t.sint(a.i);
          break;
        case TraceArgKind::kString:
          escaped_.clear();
          append_json_string(escaped_, a.s);
          t.raw(escaped_);
          break;
        case TraceArgKind::kThousandths:
          t.fixed3(a.i);
          break;
        case TraceArgKind::kUintPair:
          t.raw('[');
          t.uint(a.u);
          t.raw(',');
          t.uint(a.u2);
          t.raw(']');
          break;
      }
    }
    t.raw('}');
  }
  t.raw('}');
  t.done();
}

void JsonTraceEncoder::count(const TraceCounter& c) {
  std::string& e = next_event();
  e.append(R"({"name":)"sv);
  append_json_string(e, c.name);
  e.append(R"(,"ph":"C","pid":)"sv);
  append_uint(e, c.pid);
  e.append(R"(,"ts":)"sv);
  append_fixed3(e, c.at_ns);
  e.append(R"(,"args":{)"sv);
  append_json_string(e, c.series);
  e.push_back(':');
  append_fixed3(e, c.thousandths);
  e.append("}}"sv);
}

void JsonTraceEncoder::raw_event(std::string_view object) {
  next_event().append(object);
}

Status JsonTraceEncoder::finish(const std::string& path) {
  if (out_.is_fragment()) return Ok{};  // its text is complete
  if (last_) NPKIT_TRY(last_(*this));
  out_.text().append("\n]}\n");
  return out_.finish(path);
}

}  // namespace npkit
