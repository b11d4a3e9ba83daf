#include "output/trace/span_trace_writer.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "npkit/version.hpp"
#include "output/json_writer.hpp"
#include "output/trace/busbw_counters.hpp"
#include "run/trace_layout.hpp"
#include "util/saturating.hpp"

namespace npkit {

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

namespace {

std::string other_data(const TraceOrigins& origins, const TraceMetadata& metadata) {
  std::string other;
  JsonWriter w(other);
  w.begin_object();
  w.field("generator", "npkit-analyze " NPKIT_VERSION_STRING);
  w.field("layout", kTraceLayout);
  w.field("source", metadata.source);
  w.field("event_table", metadata.event_table);
  w.field("gpu_clock", metadata.gpu_clock);
  w.field("clock", "private: time_origin_ns is the input's earliest time, not the wall clock");
  w.field("time_origin_ns", origins.host_ns == INT64_MAX ? 0 : origins.host_ns);
  w.field("time_unit", "ts and dur are microseconds after time_origin_ns, exact to the nanosecond");
  w.object("gpu_counter_origin_ns", [&] {
    for (const auto& [rank, ns] : origins.gpu_counter_ns) w.field(std::to_string(rank), ns);
  });
  w.end_object();
  while (!other.empty() && other.back() == '\n') other.pop_back();
  return other;
}

// No span on the host clock: the origin is 0.
TraceOrigins with_host_origin(TraceOrigins origins) {
  if (origins.host_ns == INT64_MAX) origins.host_ns = 0;
  return origins;
}

}  // namespace

void begin_span_trace(TraceEncoder& encoder, const TraceOrigins& origins,
                      const TraceMetadata& metadata) {
  const TraceOrigins o = with_host_origin(origins);
  encoder.begin(other_data(o, metadata), o.host_ns);
}

SpanTraceWriter::SpanTraceWriter(TraceEncoder& encoder, const std::vector<std::string>& base_names,
                                 const PhaseAssignment& phases, TraceOrigins origins,
                                 const TraceMetadata& metadata)
    : encoder_(encoder),
      names_(base_names),
      origins_(with_host_origin(std::move(origins))),
      cpu_record_size_(metadata.cpu_record_size) {
  for (const char* kind : {"gpu,", "cpu,"}) {
    for (const auto& phase : phases.phase_names) categories_.push_back(kind + phase);
  }
}

const std::string& SpanTraceWriter::name_of(std::uint16_t base) const {
  // Readers may name spans as they go (a Chrome trace's names join its table while it is read).
  if (base < names_.size()) return names_[base];
  fallback_name_ = "event " + std::to_string(base);
  return fallback_name_;
}

void SpanTraceWriter::begin_track(const TrackFile& file, TimeDomain domain) {
  const auto& t = file.track;
  if (has_rank_ && t.rank != rank_) {
    encoder_.close_process(trace_pid(rank_ + 1, TraceTimeBase::kHost));
    encoder_.close_process(trace_pid(rank_ + 1, TraceTimeBase::kGpuClock));
  }
  has_rank_ = true;
  rank_ = t.rank;
  domains_[{t.rank, static_cast<int>(t.kind), t.index}] = domain;
  has_current_ = false;
  switch_to(t);
}

void SpanTraceWriter::switch_to(const TrackRef& t) {
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

std::uint32_t SpanTraceWriter::pid_of(const TrackRef& t) const {
  return trace_pid(t.rank + 1,
                   domain_ == TimeDomain::kHost ? TraceTimeBase::kHost : TraceTimeBase::kGpuClock);
}

void SpanTraceWriter::ensure_names(std::uint32_t pid, std::uint32_t tid, const TrackRef& t,
                                   std::uint32_t lane) {
  const std::uint64_t thread = static_cast<std::uint64_t>(pid) << 32 | tid;
  if (thread == last_named_) return;  // spans of one thread come in runs
  last_named_ = thread;
  if (named_processes_.insert(pid).second) {
    encoder_.name_process(
        pid, trace_process_name(
                 t.rank, std::nullopt, "",
                 domain_ == TimeDomain::kHost ? TraceTimeBase::kHost : TraceTimeBase::kGpuClock));
  }
  if (named_threads_.insert(thread).second) {
    encoder_.name_thread(pid, tid,
                         trace_thread_name(t.kind == TrackKind::kGpu ? TraceThread::kGpuBuffer
                                                                     : TraceThread::kCpuChannel,
                                           t.index, lane));
  }
}

void SpanTraceWriter::on_span(const Span& s) {
  switch_to(s.track);
  const bool gpu = s.track.kind == TrackKind::kGpu;
  const std::uint32_t pid = pid_of(s.track);
  const std::uint32_t tid = trace_tid(gpu ? TraceThread::kGpuBuffer : TraceThread::kCpuChannel,
                                      s.track.index, gpu ? 0 : s.lane);
  ensure_names(pid, tid, s.track, gpu ? 0 : s.lane);
  const std::int64_t dur = s.duration_ns();
  TraceArgList args;
  args.add_uint("size", s.exit_size);
  if (s.entry_size != s.exit_size) args.add_uint("entry_size", s.entry_size);
  args.add_uint("seq", s.seq);
  // GB/s = bytes per ns, in thousandths, rounded: exact integer arithmetic.
  args.add_thousandths("bw_gbps",
                       dur > 0 ? static_cast<std::int64_t>((std::uint64_t{s.exit_size} * 2000 +
                                                            static_cast<std::uint64_t>(dur)) /
                                                           (2 * static_cast<std::uint64_t>(dur)))
                               : 0);
  if (gpu) {
    if (s.exit_rsvd != 0) args.add_uint("rsvd", s.exit_rsvd);
    args.add_uint("depth", s.depth, TraceArgUse::kRoundTrip);
  } else {
    args.add_uint("slot", s.entry_rsvd);
    args.add_uint("lane", s.lane);
    if (cpu_record_size_ >= 18) {
      args.add_uint("sender_rank", s.sender_rank);
      args.add_uint("receiver_rank", s.receiver_rank);
    }
    if (cpu_record_size_ >= 22) args.add_uint("step", s.step);
  }
  args.add_pair("records", s.entry_record, s.exit_record, TraceArgUse::kRoundTrip);
  const std::size_t phases = categories_.size() / 2;
  TraceSlice slice;
  slice.name = name_of(s.base);
  slice.category = categories_[(gpu ? 0 : phases) + s.phase];
  slice.pid = pid;
  slice.tid = tid;
  slice.start_ns = sat_sub(s.start_ns, origin_);
  slice.end_ns = sat_sub(s.end_ns, origin_);
  slice.args = &args;
  encoder_.write(slice);
}

void SpanTraceWriter::on_unmatched(const UnmatchedEvent& e) {
  switch_to(e.track);
  const bool gpu = e.track.kind == TrackKind::kGpu;
  const std::uint32_t pid = pid_of(e.track);
  const std::uint32_t tid =
      trace_tid(gpu ? TraceThread::kGpuBuffer : TraceThread::kCpuChannel, e.track.index, 0);
  ensure_names(pid, tid, e.track, 0);
  TraceArgList args;
  args.add_uint("size", e.size);
  args.add_uint("record", e.record);
  const std::string name =
      std::string(e.kind == EventKind::kEntry ? "unmatched ENTRY " : "unmatched EXIT ") +
      name_of(e.base);
  TraceSlice slice;
  slice.name = name;
  slice.category = "unmatched";
  slice.pid = pid;
  slice.tid = tid;
  slice.instant = true;
  slice.start_ns = sat_sub(e.ns, origin_);
  slice.end_ns = slice.start_ns;
  slice.args = &args;
  encoder_.write(slice);
}

SpanTraceFragment::SpanTraceFragment(std::unique_ptr<TraceEncoder> fragment,
                                     const std::vector<std::string>& base_names,
                                     const PhaseAssignment& phases, const TraceOrigins& origins,
                                     const TraceMetadata& metadata)
    : fragment_(std::move(fragment)), writer_(*fragment_, base_names, phases, origins, metadata) {}

void SpanTraceFragment::begin_track(const TrackFile& file, TimeDomain domain) {
  writer_.begin_track(file, domain);
}

void SpanTraceFragment::end_track(const TrackFile& file, const TrackStats& stats) {
  writer_.end_track(file, stats);
  // A fragment's finish only encodes what it holds; it cannot fail.
  (void)fragment_->finish("");
}

void write_span_busbw_counters(const Run& run, const TraceOrigins& origins, TraceEncoder& encoder) {
  write_busbw_counters(
      run,
      [](const RunCommunicator&, std::int32_t rank) -> std::optional<std::uint32_t> {
        if (rank < 0) return std::nullopt;
        return trace_pid(static_cast<std::uint32_t>(rank) + 1, TraceTimeBase::kHost);
      },
      with_host_origin(origins).host_ns, encoder);
}

Status write_span_trace_in_chunks(const ChunkedSpanSource& input, SpanChunks chunks,
                                  const TraceOrigins& origins, const TraceMetadata& metadata,
                                  TraceEncoder& encoder, const std::function<bool()>& stop,
                                  Diagnostics& diagnostics) {
  chunks.make_sink = [&](std::size_t chunk) -> std::unique_ptr<SpanSink> {
    return std::make_unique<SpanTraceFragment>(encoder.fragment(static_cast<std::uint32_t>(chunk)),
                                               input.span_names(), input.phases(), origins,
                                               metadata);
  };
  bool stopped = false;
  chunks.consume = [&](std::size_t, SpanSink& sink) -> Status {
    encoder.append(static_cast<SpanTraceFragment&>(sink).fragment());
    stopped = stop();
    return stopped ? Status{Error{"stopped"}} : Status{Ok{}};
  };
  const Status read = input.read_span_chunks(chunks, diagnostics);
  if (!read && !stopped) return read;
  return Ok{};
}

}  // namespace npkit
