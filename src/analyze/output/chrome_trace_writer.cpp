#include "output/chrome_trace_writer.hpp"
#include "util/saturating.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "npkit/version.hpp"
#include "output/json_writer.hpp"
#include "output/trace_numbers.hpp"

namespace npkit {
namespace {

using namespace std::string_view_literals;

constexpr std::size_t kFlushBytes = 1 << 20;

std::uint32_t thread_id(const TrackRef& t, std::uint32_t lane) {
  return t.kind == TrackKind::kGpu ? t.index + 1 : (t.index + 1) * 1000 + lane;
}

}  // namespace

void TraceOriginSink::end_track(const TrackFile& file, const TrackStats& s) {
  if (s.first_ns > s.last_ns) return;
  if (s.domain == TimeDomain::kHost) {
    origins_.host_ns = std::min(origins_.host_ns, s.first_ns);
  } else {
    auto [it, inserted] = origins_.gpu_counter_ns.emplace(file.track.rank, s.first_ns);
    if (!inserted) it->second = std::min(it->second, s.first_ns);
  }
}

void TraceOriginSink::merge(const TraceOriginSink& other) {
  origins_.host_ns = std::min(origins_.host_ns, other.origins_.host_ns);
  for (const auto& [rank, ns] : other.origins_.gpu_counter_ns) {
    auto [it, inserted] = origins_.gpu_counter_ns.emplace(rank, ns);
    if (!inserted) it->second = std::min(it->second, ns);
  }
}

ChromeTraceWriter::ChromeTraceWriter(std::ostream& out, const std::vector<std::string>& base_names,
                                     const PhaseAssignment& phases, TraceOrigins origins,
                                     const TraceMetadata& metadata)
    : writer_(out),
      names_(base_names),
      phases_(phases),
      origins_(std::move(origins)),
      cpu_record_size_(metadata.cpu_record_size) {
  if (origins_.host_ns == INT64_MAX) origins_.host_ns = 0;
  for (const auto& name : phases_.phase_names) {
    std::string q;
    append_json_string(q, name);
    quoted_phases_.push_back(std::move(q));
  }
  buffer_.reserve(kFlushBytes + 4096);
  std::string other;
  JsonWriter w(other);
  w.begin_object();
  w.field("generator", "npkit-analyze " NPKIT_VERSION_STRING);
  w.field("source", metadata.source);
  w.field("event_table", metadata.event_table);
  w.field("gpu_clock", metadata.gpu_clock);
  w.field("time_origin_ns", origins_.host_ns);
  w.field("time_unit", "ts and dur are microseconds after time_origin_ns, exact to the nanosecond");
  w.key("gpu_counter_origin_ns");
  w.begin_object();
  for (const auto& [rank, ns] : origins_.gpu_counter_ns) w.field(std::to_string(rank), ns);
  w.end_object();
  w.end_object();
  while (!other.empty() && other.back() == '\n') other.pop_back();
  // displayTimeUnit first: Perfetto honours it only in the first chunk of the file.
  buffer_ = "{\"displayTimeUnit\": \"ns\",\n\"otherData\": " + other + ",\n\"traceEvents\": [";
}

const std::string& ChromeTraceWriter::quoted_name(std::uint16_t base) {
  // Readers may name spans as they go (a Chrome trace's names join its table while it is read).
  while (quoted_names_.size() <= base) {
    std::string q;
    const std::size_t b = quoted_names_.size();
    append_json_string(q, b < names_.size() ? names_[b] : "event " + std::to_string(b));
    quoted_names_.push_back(std::move(q));
  }
  return quoted_names_[base];
}

void ChromeTraceWriter::flush_if_full() {
  if (buffer_.size() < kFlushBytes) return;
  writer_.submit(buffer_);
  buffer_.reserve(kFlushBytes + 4096);
}

void ChromeTraceWriter::begin_event() {
  buffer_.append(events_ == 0 ? "\n" : ",\n");
  ++events_;
}

void ChromeTraceWriter::append_time(std::int64_t ns) {
  append_fixed3(buffer_, sat_sub(ns, origin_));
}

void ChromeTraceWriter::append_duration(std::int64_t ns) {
  append_fixed3(buffer_, std::max<std::int64_t>(ns, 0));
}

void ChromeTraceWriter::begin_track(const TrackFile& file, TimeDomain domain) {
  const auto& t = file.track;
  domains_[{t.rank, static_cast<int>(t.kind), t.index}] = domain;
  has_current_ = false;
  switch_to(t);
}

void ChromeTraceWriter::switch_to(const TrackRef& t) {
  if (has_current_ && current_ == t) return;
  const auto it = domains_.find({t.rank, static_cast<int>(t.kind), t.index});
  domain_ = it == domains_.end() ? TimeDomain::kHost : it->second;
  origin_ = origins_.host_ns;
  if (domain_ == TimeDomain::kGpuCounter) {
    auto gpu = origins_.gpu_counter_ns.find(t.rank);
    origin_ = gpu == origins_.gpu_counter_ns.end() ? 0 : gpu->second;
  }
  current_ = t;
  has_current_ = true;
}

void ChromeTraceWriter::ensure_names(std::uint32_t pid, std::uint32_t tid, const TrackRef& t,
                                     std::uint32_t lane) {
  if (named_processes_.insert(pid).second) {
    const std::string name = domain_ == TimeDomain::kHost
                                 ? fmt::format("rank {}", t.rank)
                                 : fmt::format("rank {} (GPU clock, not aligned to host)", t.rank);
    begin_event();
    fmt::format_to(std::back_inserter(buffer_),
                   R"({{"name":"process_name","ph":"M","pid":{},"args":{{"name":"{}"}}}})", pid,
                   name);
    begin_event();
    fmt::format_to(
        std::back_inserter(buffer_),
        R"({{"name":"process_sort_index","ph":"M","pid":{},"args":{{"sort_index":{}}}}})", pid,
        pid);
  }
  if (named_threads_.insert(static_cast<std::uint64_t>(pid) << 32 | tid).second) {
    const std::string name = t.kind == TrackKind::kGpu
                                 ? fmt::format("gpu buf {}", t.index)
                                 : fmt::format("cpu channel {} lane {}", t.index, lane);
    begin_event();
    fmt::format_to(std::back_inserter(buffer_),
                   R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":"{}"}}}})",
                   pid, tid, name);
    begin_event();
    fmt::format_to(
        std::back_inserter(buffer_),
        R"({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
        pid, tid, tid);
  }
}

void ChromeTraceWriter::on_span(const Span& s) {
  switch_to(s.track);
  const std::uint32_t pid =
      domain_ == TimeDomain::kHost ? s.track.rank : kGpuCounterPidBase + s.track.rank;
  const std::uint32_t tid = thread_id(s.track, s.lane);
  ensure_names(pid, tid, s.track, s.lane);
  const bool gpu = s.track.kind == TrackKind::kGpu;
  const std::int64_t dur = s.duration_ns();
  begin_event();
  buffer_.append(R"({"name":)"sv);
  buffer_.append(quoted_name(s.base));
  buffer_.append(gpu ? R"(,"cat":"gpu,)"sv : R"(,"cat":"cpu,)"sv);
  buffer_.append(quoted_phases_[s.phase], 1, std::string::npos);
  buffer_.append(R"(,"ph":"X","pid":)"sv);
  append_uint(buffer_, pid);
  buffer_.append(R"(,"tid":)"sv);
  append_uint(buffer_, tid);
  buffer_.append(R"(,"ts":)"sv);
  append_time(s.start_ns);
  buffer_.append(R"(,"dur":)"sv);
  append_duration(dur);
  buffer_.append(R"(,"args":{"size":)"sv);
  append_uint(buffer_, s.exit_size);
  if (s.entry_size != s.exit_size) {
    buffer_.append(R"(,"entry_size":)"sv);
    append_uint(buffer_, s.entry_size);
  }
  buffer_.append(R"(,"seq":)"sv);
  append_uint(buffer_, s.seq);
  buffer_.append(R"(,"bw_gbps":)"sv);
  // GB/s = bytes per ns, in thousandths, rounded: exact integer arithmetic.
  append_fixed3(buffer_, dur > 0 ? static_cast<std::int64_t>((std::uint64_t{s.exit_size} * 2000 +
                                                              static_cast<std::uint64_t>(dur)) /
                                                             (2 * static_cast<std::uint64_t>(dur)))
                                 : 0);
  if (gpu) {
    if (s.exit_rsvd != 0) {
      buffer_.append(R"(,"rsvd":)"sv);
      append_uint(buffer_, s.exit_rsvd);
    }
    buffer_.append(R"(,"depth":)"sv);
    append_uint(buffer_, s.depth);
  } else {
    buffer_.append(R"(,"slot":)"sv);
    append_uint(buffer_, s.entry_rsvd);
    buffer_.append(R"(,"lane":)"sv);
    append_uint(buffer_, s.lane);
    if (cpu_record_size_ >= 18) {
      buffer_.append(R"(,"sender_rank":)"sv);
      append_uint(buffer_, s.sender_rank);
      buffer_.append(R"(,"receiver_rank":)"sv);
      append_uint(buffer_, s.receiver_rank);
    }
    if (cpu_record_size_ >= 22) {
      buffer_.append(R"(,"step":)"sv);
      append_uint(buffer_, s.step);
    }
  }
  buffer_.append(R"(,"records":[)"sv);
  append_uint(buffer_, s.entry_record);
  buffer_.push_back(',');
  append_uint(buffer_, s.exit_record);
  buffer_.append("]}}"sv);
  flush_if_full();
}

void ChromeTraceWriter::on_unmatched(const UnmatchedEvent& e) {
  switch_to(e.track);
  const std::uint32_t pid =
      domain_ == TimeDomain::kHost ? e.track.rank : kGpuCounterPidBase + e.track.rank;
  const std::uint32_t tid = thread_id(e.track, 0);
  ensure_names(pid, tid, e.track, 0);
  begin_event();
  buffer_.append(e.kind == EventKind::kEntry ? R"({"name":"unmatched ENTRY )"sv
                                             : R"({"name":"unmatched EXIT )"sv);
  buffer_.append(quoted_name(e.base), 1,
                 std::string::npos);  // the name without its opening quote
  fmt::format_to(std::back_inserter(buffer_),
                 R"(,"cat":"unmatched","ph":"i","s":"t","pid":{},"tid":{},"ts":)", pid, tid);
  append_time(e.ns);
  fmt::format_to(std::back_inserter(buffer_), R"(,"args":{{"size":{},"record":{}}}}})", e.size,
                 e.record);
  flush_if_full();
}

Status ChromeTraceWriter::finish(const std::string& path) {
  buffer_.append("\n]}\n");
  writer_.submit(buffer_);
  if (!writer_.finish()) return Error{"cannot write " + path + " (disk full?)"};
  return Ok{};
}

}  // namespace npkit
