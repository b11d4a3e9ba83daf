#include "import/npkt/event_stream_check.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace npkit {
namespace {

class SummarySink : public EventSpanSink {
 public:
  explicit SummarySink(const EventRecords& records) : records_(records) {}

  void begin_stream(const EventStreamRef& s, const EventStreamClock& clock) override {
    EventStreamSummary summary;
    summary.file = s.file;
    summary.stream = s.stream;
    summary.track = s.track;
    summary.clock = clock.describe();
    summaries_.push_back(std::move(summary));
  }
  void on_span(const Span& span) override {
    auto& s = summaries_.back();
    s.max_depth = std::max(s.max_depth, span.depth);
  }
  void on_unmatched(const UnmatchedEvent& e) override {
    auto& s = summaries_.back();
    if (s.unmatched.size() >= EventStreamSummary::kMaxUnmatched) return;
    const EventFile& f = *s.file;
    const format::EventRecord& r =
        f.dump->event_records[f.dump->streams[s.stream].first_record + e.record];
    s.unmatched.push_back(EventUnmatched{records_.names.full_name(f.names, r.id), e.kind, e.record,
                                         event_record_offset(f, s.stream, e.record)});
  }
  void end_stream(const EventStreamRef&, const TrackStats& stats) override {
    summaries_.back().stats = stats;
  }

  std::vector<EventStreamSummary> take() { return std::move(summaries_); }

 private:
  const EventRecords& records_;
  std::vector<EventStreamSummary> summaries_;
};

void find_unknown_ids(const EventRecords& records, EventStreamSummary& s) {
  const NpktDump& d = *s.file->dump;
  const format::StreamInfo& info = d.streams[s.stream];
  for (std::uint64_t i = 0; i < info.records_written; ++i) {
    const std::uint16_t id = d.event_records[info.first_record + i].id;
    if (records.names.find(s.file->names, id) != nullptr) continue;
    if (std::find(s.unknown_ids.begin(), s.unknown_ids.end(), id) != s.unknown_ids.end()) continue;
    s.unknown_ids.push_back(id);
    if (s.unknown_ids.size() >= EventStreamSummary::kMaxUnknownIds) return;
  }
}

const char* kind_words(EventKind kind) {
  return kind == EventKind::kEntry ? "ENTRY without EXIT" : "EXIT without ENTRY";
}

void warn_stream(const EventStreamSummary& s, Diagnostics& diagnostics) {
  const std::string where = locate_event_stream(*s.file, s.stream);
  const TrackStats& t = s.stats;
  const format::StreamInfo& info = s.file->dump->streams[s.stream];
  if (t.unmatched_entries + t.unmatched_exits > 0) {
    const EventUnmatched& first = s.unmatched.front();
    diagnostics.warn("unmatched events",
                     fmt::format("{}: {} ENTRY without EXIT, {} EXIT without ENTRY; first: {} "
                                 "({}) at record {} (offset {})",
                                 where, t.unmatched_entries, t.unmatched_exits, first.name,
                                 kind_words(first.kind), first.record, first.offset),
                     t.unmatched_entries + t.unmatched_exits);
  }
  if (info.records_dropped > 0) {
    diagnostics.warn("dropped event records",
                     fmt::format("{}: {} record(s) dropped, the buffer of {} record(s) was full; "
                                 "the stream's later events are missing (ENTRYs left open are "
                                 "expected)",
                                 where, info.records_dropped, info.capacity),
                     info.records_dropped);
  }
  if (t.unknown_ids > 0) {
    std::string ids;
    for (auto id : s.unknown_ids) ids += (ids.empty() ? "" : ", ") + event_id_hex(id);
    diagnostics.warn("unknown event id",
                     fmt::format("{}: {} record(s) with ids the file does not name ({}); skipped",
                                 where, t.unknown_ids, ids),
                     t.unknown_ids);
  }
  if (t.nonmonotonic > 0) {
    diagnostics.warn("non-monotonic timestamps",
                     fmt::format("{}: {} record(s) have a timestamp earlier than the record before",
                                 where, t.nonmonotonic),
                     t.nonmonotonic);
  }
}

// Per file, one warning per kind of stream whose times are not on the host clock.
void warn_clocks(const std::vector<EventStreamSummary>& summaries, Diagnostics& diagnostics) {
  for (std::size_t i = 0; i < summaries.size();) {
    const EventFile* file = summaries[i].file;
    std::uint64_t timer = 0;
    std::uint64_t cycles = 0;
    std::uint64_t no_rate = 0;
    std::string cycles_example;
    for (; i < summaries.size() && summaries[i].file == file; ++i) {
      const format::StreamInfo& info = file->dump->streams[summaries[i].stream];
      if (info.clock == format::kStreamClockGlobalTimer && !file->clock->usable()) ++timer;
      if (info.clock != format::kStreamClockCycles) continue;
      if (info.cycles_per_second == 0) {
        ++no_rate;
      } else if (cycles++ == 0) {
        cycles_example = summaries[i].clock;
      }
    }
    const std::string& path = file->dump->path;
    if (timer > 0) {
      diagnostics.warn("GPU time not on the host clock",
                       fmt::format("{}: no clock samples and no KernelCh events; {} %globaltimer "
                                   "stream(s) stay on the GPU timer (durations exact, times not "
                                   "comparable with host events)",
                                   path, timer),
                       timer);
    }
    if (cycles > 0) {
      diagnostics.warn("clock64 streams",
                       fmt::format("{}: {} stream(s) time-stamped in clock64 cycles ({}): "
                                   "durations at the measured rate; their times stay on the cycle "
                                   "counter (the dump records no clock64/%globaltimer pair)",
                                   path, cycles, cycles_example),
                       cycles);
    }
    if (no_rate > 0) {
      diagnostics.warn("clock64 without a rate",
                       fmt::format("{}: {} clock64 stream(s) without a measured cycles_per_second "
                                   "are left out (cycles cannot be turned into time)",
                                   path, no_rate),
                       no_rate);
    }
  }
}

}  // namespace

std::vector<EventStreamSummary> check_event_streams(const EventRecords& records,
                                                    Diagnostics& diagnostics) {
  SummarySink sink(records);
  read_event_spans(records, sink);
  std::vector<EventStreamSummary> summaries = sink.take();
  for (auto& s : summaries) {
    if (s.stats.unknown_ids > 0) find_unknown_ids(records, s);
    warn_stream(s, diagnostics);
  }
  warn_clocks(summaries, diagnostics);
  return summaries;
}

}  // namespace npkit
