#include "output/trace/capture_trace_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "npkit/version.hpp"
#include "output/json_writer.hpp"
#include "output/trace/busbw_counters.hpp"
#include "output/trace/trace_lanes.hpp"
#include "run/trace_layout.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

// A span with its place in the trace: its thread (lane included) and whether it is on the
// thread's merged lane.
struct Placed {
  TrackSpan span;
  std::uint32_t tid = 0;
  bool merged = false;
};

bool same_track(const TrackSpan& a, const TrackSpan& b) {
  return a.thread == b.thread && a.index == b.index;
}

// Track by track, then by start, longer first, then in the reader's order.
void sort_spans(std::vector<TrackSpan>& spans) {
  std::sort(spans.begin(), spans.end(), [](const TrackSpan& a, const TrackSpan& b) {
    return std::tie(a.thread, a.index, a.start, b.end, a.order) <
           std::tie(b.thread, b.index, b.start, a.end, b.order);
  });
}

std::int64_t earliest(const std::vector<TrackSpan>& spans, std::int64_t bound) {
  for (const auto& span : spans) bound = std::min(bound, span.start);
  return bound;
}

std::string process_name(const CaptureTrackFacts& facts, TraceTimeBase base) {
  return trace_process_name(facts.rank, facts.comm_hash, facts.host, base);
}

class TraceBuilder {
 public:
  TraceBuilder(TraceEncoder& encoder, const TraceTimes& times)
      : trace_(encoder), times_(times), origin_(times.origin_ns) {}

  void begin(const std::string& other_data) { trace_.begin(other_data, times_); }

  void add_file(const CaptureTrackFile& file, std::uint32_t pid) {
    file_ = &file;
    pid_ = pid;
    std::vector<TrackSpan> spans = file.profiler_spans();
    sort_spans(spans);
    std::map<std::uint32_t, std::string> threads;
    const std::vector<Placed> placed = place_profiler_spans(spans, threads);
    std::vector<TrackSpan> records = file.record_spans(TraceTimeBase::kHost);
    const std::vector<Placed> placed_records = place_records(records, threads);
    name_threads(process_name(file.facts(), TraceTimeBase::kHost), threads);
    // Spans on a merged lane that overlap one another become one slice; one alone stays itself.
    std::vector<const Placed*> merged;  // by track, then start (the spans' order)
    for (const auto& p : placed) {
      if (p.merged) {
        merged.push_back(&p);
      } else {
        write_span(p);
      }
    }
    for (std::size_t i = 0; i < merged.size();) {
      std::size_t last = i;
      std::int64_t end = merged[i]->span.end;
      while (last + 1 < merged.size() && same_track(merged[last + 1]->span, merged[i]->span) &&
             merged[last + 1]->span.start < end) {
        end = std::max(end, merged[++last]->span.end);
      }
      if (last == i) {
        write_span(*merged[i]);
      } else {
        write_merged(*merged[i], last - i + 1, end);
      }
      i = last + 1;
    }
    write_records(placed_records, 0);
    trace_.close_process(pid_);
  }

  // The file's event records on their own time base: a process of their own whose earliest event
  // lies at the trace's first event.
  void add_own_clock_process(const CaptureTrackFile& file, TraceTimeBase base, std::uint32_t pid) {
    std::vector<TrackSpan> records = file.record_spans(base);
    if (records.empty()) return;
    file_ = &file;
    pid_ = pid;
    const std::int64_t shift = sat_sub(times_.first_ns, earliest(records, INT64_MAX));
    std::map<std::uint32_t, std::string> threads;
    const std::vector<Placed> placed = place_records(records, threads);
    name_threads(process_name(file.facts(), base), threads);
    write_records(placed, shift);
    trace_.close_process(pid_);
  }

  Result<CaptureTraceStats> finish(const std::string& path, CaptureTraceStats stats) {
    NPKIT_TRY(trace_.finish(path));
    stats.events = trace_.events();
    stats.event_spans = event_spans_;
    return stats;
  }

 private:
  // Profiler spans (sorted) on at most trace_lanes(thread) lanes a track, then its merged lane.
  static std::vector<Placed> place_profiler_spans(const std::vector<TrackSpan>& spans,
                                                  std::map<std::uint32_t, std::string>& threads) {
    std::vector<Placed> placed;
    placed.reserve(spans.size());
    std::map<std::pair<TraceThread, std::uint32_t>, LanePacker> packers;
    for (const auto& span : spans) {
      auto packer = packers.find({span.thread, span.index});
      if (packer == packers.end()) {
        packer =
            packers
                .emplace(std::pair(span.thread, span.index), LanePacker(trace_lanes(span.thread)))
                .first;
      }
      const std::uint32_t lane =
          span.instant ? 0 : packer->second.place(span.start, span.end, span.leaf);
      Placed p{span, trace_tid(span.thread, span.index, lane),
               !span.instant && lane == trace_lanes(span.thread)};
      if (threads.count(p.tid) == 0)  // formatted once per thread, not once per span
        threads.emplace(p.tid, trace_thread_name(span.thread, span.index, lane));
      placed.push_back(p);
    }
    return placed;
  }

  // Event-record spans by stream and start (longer first), on as many lanes as they need.
  std::vector<Placed> place_records(std::vector<TrackSpan>& records,
                                    std::map<std::uint32_t, std::string>& threads) const {
    sort_spans(records);
    std::vector<Placed> placed;
    placed.reserve(records.size());
    std::map<std::uint32_t, LanePacker> packers;
    for (const auto& span : records) {
      const std::uint32_t lane = std::min(
          span.instant ? 0 : packers[span.index].place(span.start, span.end), kMaxTraceLane);
      const std::uint32_t tid = trace_tid(TraceThread::kEventStream, span.index, lane);
      placed.push_back({span, tid, false});
      if (threads.count(tid) != 0) continue;  // named by an earlier span
      threads.emplace(tid, trace_thread_name(TraceThread::kEventStream, span.index, lane,
                                             file_->stream_name(span)));
    }
    return placed;
  }

  void name_threads(const std::string& process,
                    const std::map<std::uint32_t, std::string>& threads) {
    trace_.name_process(pid_, process);
    for (const auto& [tid, name] : threads) trace_.name_thread(pid_, tid, name);
  }

  void write_span(const Placed& p) {
    TrackSpanText text;
    file_->describe(p.span, text);
    if (p.span.instant) text.name += " (never stopped)";
    write_slice(text.name, text.category, p, p.span.start, p.span.end, &text.args, 0);
    for (const TrackState& state : text.states) {
      write_slice(state.name, state.category, p, state.from_ns, state.to_ns, nullptr, 0);
    }
  }

  // `count` overlapping spans from `first` on, on their thread's merged lane, as one slice.
  void write_merged(const Placed& first, std::size_t count, std::int64_t end) {
    TraceArgList args;
    args.add_uint("spans", count);
    const std::string name = fmt::format("{} overlapping spans", count);
    write_slice(name, "merged", first, first.span.start, end, &args, 0);
  }

  void write_records(const std::vector<Placed>& records, std::int64_t shift) {
    for (const auto& p : records) {
      TrackSpanText text;
      file_->describe(p.span, text);
      write_slice(text.name, text.category, p, p.span.start, p.span.end, &text.args, shift);
      if (!p.span.instant) ++event_spans_;
    }
  }

  void write_slice(std::string_view name, std::string_view cat, const Placed& p, std::int64_t start,
                   std::int64_t end, const TraceArgList* args, std::int64_t shift) {
    TraceSlice slice;
    slice.name = name;
    slice.category = cat;
    slice.pid = pid_;
    slice.tid = p.tid;
    slice.instant = p.span.instant;
    slice.start_ns = sat_add(start, sat_sub(shift, origin_));
    slice.end_ns = sat_add(end, sat_sub(shift, origin_));
    slice.args = args;
    trace_.write(slice);
  }

  TraceEncoder& trace_;
  TraceTimes times_;
  std::int64_t origin_;
  std::uint64_t event_spans_ = 0;
  const CaptureTrackFile* file_ = nullptr;
  std::uint32_t pid_ = 0;
};

// The trace's first event: the earliest profiler time, and the earliest host-clock event record
// (of these alone when no file holds profiler events).
std::int64_t first_event(const CaptureTrackSet& tracks) {
  std::int64_t first = INT64_MAX;
  std::int64_t first_record = INT64_MAX;
  bool profiler_times = false;
  for (const auto& f : tracks.files) {
    first = std::min(first, f->facts().first_ns);
    profiler_times = profiler_times || f->facts().profiler_times;
    if (tracks.has_event_records) {
      first_record = earliest(f->record_spans(TraceTimeBase::kHost), first_record);
    }
  }
  if (first == INT64_MAX) first = 0;
  if (first_record == INT64_MAX) return first;
  return profiler_times ? std::min(first, first_record) : first_record;
}

// otherData: what the trace is, where its times lie, and what of the captures it leaves out.
std::string describe_trace(const CaptureTrackSet& tracks, const std::string& source,
                           const TraceTimes& times, const CaptureTraceStats& stats) {
  std::string other;
  JsonWriter w(other);
  w.begin_object();
  w.field("generator", "npkit-analyze " NPKIT_VERSION_STRING);
  w.field("layout", kTraceLayout);
  w.field("source", source);
  w.field("clock", "host wall clock (CLOCK_REALTIME, ns since the epoch)");
  w.field("time_origin_ns", times.origin_ns);
  w.field("first_event_ns", times.first_ns);
  w.field("time_unit",
          "ts and dur are microseconds after time_origin_ns (baseTimeNanoseconds, as PyTorch's "
          "profiler writes it), exact to the nanosecond");
  w.object("gpu_clocks", [&] {
    for (const auto& f : tracks.files) {
      w.field(fmt::format("rank {}, comm {:016x}", f->facts().rank, f->facts().comm_hash),
              f->facts().gpu_clock);
    }
  });
  w.field("kernel_spans_without_clock", stats.kernel_spans_without_clock);
  w.field("kernel_spans_stale", stats.kernel_spans_stale);
  if (tracks.has_event_records) {
    std::uint64_t host = 0;
    std::uint64_t own = 0;
    std::uint64_t left_out = 0;
    for (const auto& f : tracks.files) {
      host += f->facts().host_clock_streams;
      own += f->facts().own_clock_streams;
      left_out += f->facts().streams_left_out;
    }
    w.object("event_streams", [&] {
      w.field("host_time_base", host);
      w.field("own_time_base", own);
      w.field("left_out", left_out);
    });
    // What a reader needs to give the spans their phases again: the base names in their
    // numbering, each with the phase hint its files carry ("" for none).
    w.key("event_names");
    w.begin_array();
    for (const auto& [name, hint] : tracks.event_names) {
      w.begin_array();
      w.value(name);
      w.value(hint);
      w.end_array();
    }
    w.end_array();
  }
  w.end_object();
  while (!other.empty() && other.back() == '\n') other.pop_back();
  return other;
}

}  // namespace

Result<CaptureTraceStats> write_capture_trace(const CaptureTrackSet& tracks, const Run* run,
                                              const std::string& source, TraceEncoder& encoder,
                                              const std::string& path_for_messages) {
  CaptureTraceStats stats;
  for (const auto& f : tracks.files) {
    stats.kernel_spans_without_clock += f->facts().kernel_spans_without_clock;
    stats.kernel_spans_stale += f->facts().kernel_spans_stale;
  }
  const TraceTimes times = TraceTimes::wall_clock(first_event(tracks));
  TraceBuilder builder(encoder, times);
  builder.begin(describe_trace(tracks, source, times, stats));
  for (std::size_t i = 0; i < tracks.files.size(); ++i) {
    builder.add_file(*tracks.files[i], static_cast<std::uint32_t>(i + 1));
  }
  for (std::size_t i = 0; i < tracks.files.size(); ++i) {
    const auto number = static_cast<std::uint32_t>(i + 1);
    for (const TraceTimeBase base : {TraceTimeBase::kGpuTimer, TraceTimeBase::kCycles}) {
      builder.add_own_clock_process(*tracks.files[i], base, trace_pid(number, base));
    }
  }
  if (run != nullptr) {
    std::map<std::pair<std::uint64_t, std::int64_t>, std::uint32_t> pids;  // the first file's
    for (std::size_t i = 0; i < tracks.files.size(); ++i) {
      const CaptureTrackFacts& facts = tracks.files[i]->facts();
      pids.emplace(std::pair(facts.comm_hash, facts.rank),
                   trace_pid(static_cast<std::uint32_t>(i + 1), TraceTimeBase::kHost));
    }
    write_busbw_counters(
        *run,
        [&](const RunCommunicator& comm, std::int32_t rank) -> std::optional<std::uint32_t> {
          const auto it = pids.find({comm.hash, rank});
          if (it == pids.end()) return std::nullopt;
          return it->second;
        },
        times.origin_ns, encoder);
  }
  return builder.finish(path_for_messages, stats);
}

}  // namespace npkit
