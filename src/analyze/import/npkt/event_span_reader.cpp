#include "import/npkt/event_span_reader.hpp"

#include <algorithm>
#include <limits>

#include "import/pair/nested_pairer.hpp"

namespace npkit {
namespace {

std::uint32_t clamp32(std::uint64_t v) {
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>(v, std::numeric_limits<std::uint32_t>::max()));
}

void note_time(TrackStats& stats, std::int64_t ns) {
  stats.first_ns = std::min(stats.first_ns, ns);
  stats.last_ns = std::max(stats.last_ns, ns);
}

void read_stream(const EventRecords& records, const EventStreamRef& ref, EventSpanSink& sink) {
  const NpktDump& dump = *ref.file->dump;
  const format::StreamInfo& info = dump.streams[ref.stream];
  const EventStreamClock clock = event_stream_clock(info, *ref.file->clock);
  TrackStats stats;
  stats.records = info.records_written;
  stats.overflowed = info.records_dropped > 0;
  stats.domain = clock.domain;
  sink.begin_stream(ref, clock);
  if (!clock.usable) {
    sink.end_stream(ref, stats);
    return;
  }
  const PhaseAssignment& phases = records.phases;
  NestedPairer pairer(phases.phase_of_base, phases.other_phase);
  const format::EventRecord* first = dump.event_records.data() + info.first_record;
  Span span;
  for (std::uint64_t i = 0; i < info.records_written; ++i) {
    const format::EventRecord& r = first[i];
    if (i > 0 && r.timestamp < first[i - 1].timestamp) ++stats.nonmonotonic;
    const EventIdName* name = records.names.find(ref.file->names, r.id);
    if (name == nullptr) {
      ++stats.unknown_ids;
      continue;
    }
    const std::int64_t ns = clock.to_ns(r.timestamp);
    note_time(stats, ns);
    switch (name->kind) {
      case EventKind::kEntry:
        pairer.open(name->base, ns, clamp32(r.size), r.user, i);
        break;
      case EventKind::kExit:
        if (pairer.close(name->base, ns, clamp32(r.size), r.user, i, span)) {
          span.track = ref.track;
          ++stats.spans;
          sink.on_span(span);
        } else {
          ++stats.unmatched_exits;
          sink.on_unmatched(
              UnmatchedEvent{ref.track, name->base, EventKind::kExit, i, ns, clamp32(r.size)});
        }
        break;
      case EventKind::kInstant:
        ++stats.instants;
        sink.on_instant(EventInstant{ref.track, name->base, ns, r.size, r.user, i});
        break;
    }
  }
  for (const auto& o : pairer.drain_unmatched()) {
    ++stats.unmatched_entries;
    sink.on_unmatched(
        UnmatchedEvent{ref.track, o.base, EventKind::kEntry, o.record, o.start_ns, o.size});
  }
  sink.end_stream(ref, stats);
}

class Forwarder : public EventSpanSink {
 public:
  explicit Forwarder(SpanSink& inner) : inner_(inner) {}
  void begin_stream(const EventStreamRef& s, const EventStreamClock& clock) override {
    file_ = track_file(s);
    inner_.begin_track(file_, clock.domain);
  }
  void on_span(const Span& span) override { inner_.on_span(span); }
  void on_unmatched(const UnmatchedEvent& e) override { inner_.on_unmatched(e); }
  void end_stream(const EventStreamRef&, const TrackStats& stats) override {
    inner_.end_track(file_, stats);
  }

 private:
  static TrackFile track_file(const EventStreamRef& s) {
    const format::StreamInfo& info = s.file->dump->streams[s.stream];
    return TrackFile{s.track, locate_event_stream(*s.file, s.stream),
                     info.records_written * sizeof(format::EventRecord)};
  }
  SpanSink& inner_;
  TrackFile file_;
};

}  // namespace

void read_event_spans(const EventRecords& records, EventSpanSink& sink) {
  for (const EventFile& f : records.files) {
    for (std::size_t s = 0; s < f.dump->streams.size(); ++s) {
      read_stream(records, EventStreamRef{&f, s, event_stream_track(f, s)}, sink);
    }
  }
}

void read_event_spans_into(const EventRecords& records, SpanSink& sink) {
  Forwarder forward(sink);
  read_event_spans(records, forward);
}

}  // namespace npkit
