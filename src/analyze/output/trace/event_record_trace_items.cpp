#include "output/trace/event_record_trace_items.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "import/npkt/event_span_reader.hpp"
#include "output/trace/trace_lanes.hpp"
#include "run/trace_layout.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

class EventItemCollector : public EventSpanSink {
 public:
  void begin_stream(const EventStreamRef& s, const EventStreamClock& clock) override {
    if (files_.empty() || files_.back().file != s.file) {
      files_.emplace_back();
      files_.back().file = s.file;
    }
    stream_ = s.stream;
    EventFileItems& f = files_.back();
    target_ = clock.domain == TimeDomain::kHost           ? &f.host
              : clock.clock == format::kStreamClockCycles ? &f.cycles
                                                          : &f.timer;
  }
  void on_span(const Span& span) override {
    EventItem item =
        at(span.start_ns, span.end_ns, EventItemKind::kSpan, span.base, span.entry_record);
    item.phase = span.phase;
    item.depth = span.depth;
    item.exit_record = span.exit_record;
    target_->push_back(item);
  }
  void on_instant(const EventInstant& e) override {
    target_->push_back(at(e.ns, e.ns, EventItemKind::kInstant, e.base, e.record));
  }
  void on_unmatched(const UnmatchedEvent& e) override {
    target_->push_back(at(
        e.ns, e.ns, e.kind == EventKind::kEntry ? EventItemKind::kNoExit : EventItemKind::kNoEntry,
        e.base, e.record));
  }
  std::vector<EventFileItems> take() { return std::move(files_); }

 private:
  EventItem at(std::int64_t start, std::int64_t end, EventItemKind kind, std::uint16_t base,
               std::uint64_t record) const {
    EventItem item;
    item.start = start;
    item.end = std::max(start, end);
    item.stream = stream_;
    item.kind = kind;
    item.base = base;
    item.record = record;
    return item;
  }
  std::vector<EventFileItems> files_;
  std::vector<EventItem>* target_ = nullptr;
  std::size_t stream_ = 0;
};

}  // namespace

std::vector<EventFileItems> collect_event_items(const EventRecords& records) {
  EventItemCollector collector;
  read_event_spans(records, collector);
  return collector.take();
}

void place_event_items(const EventFile& file, std::vector<EventItem>& items,
                       std::map<std::uint32_t, std::string>& threads) {
  std::sort(items.begin(), items.end(), [](const EventItem& a, const EventItem& b) {
    return std::tie(a.stream, a.start, b.end, a.record) <
           std::tie(b.stream, b.start, a.end, b.record);
  });
  std::map<std::size_t, LanePacker> packers;
  for (auto& item : items) {
    const bool instant = item.kind != EventItemKind::kSpan;
    const std::uint32_t lane =
        std::min(instant ? 0 : packers[item.stream].place(item.start, item.end), kMaxTraceLane);
    const std::uint32_t number = file.dump->stream_numbers[item.stream];
    item.tid = trace_tid(TraceThread::kEventStream, number, lane);
    if (threads.count(item.tid) != 0) continue;  // named by an earlier item
    threads.emplace(item.tid, trace_thread_name(TraceThread::kEventStream, number, lane,
                                                describe_event_stream(file, item.stream)));
  }
}

std::uint64_t write_event_items(TraceEncoder& trace, std::uint32_t pid, const EventRecords& records,
                                const EventFile& file, const std::vector<EventItem>& items,
                                std::int64_t shift_ns) {
  std::uint64_t spans = 0;
  const ingest::NpktDump& d = *file.dump;
  for (const auto& item : items) {
    const format::StreamInfo& info = d.streams[item.stream];
    const format::EventRecord* stream_records = d.event_records.data() + info.first_record;
    const format::EventRecord& r = stream_records[item.record];
    std::string name;
    switch (item.kind) {
      case EventItemKind::kSpan:
        name = records.names.base_names()[item.base];
        break;
      case EventItemKind::kInstant:
        name = records.names.full_name(file.names, r.id);
        break;
      case EventItemKind::kNoExit:
        name = records.names.full_name(file.names, r.id) + " (no EXIT)";
        break;
      case EventItemKind::kNoEntry:
        name = records.names.full_name(file.names, r.id) + " (no ENTRY)";
        break;
    }
    TraceArgList a;
    if (item.kind == EventItemKind::kSpan) {
      const format::EventRecord& exit = stream_records[item.exit_record];
      a.add_string("phase", records.phases.phase_names[item.phase]);
      a.add_uint("depth", item.depth, TraceArgUse::kRoundTrip);
      a.add_uint("size", r.size);
      if (exit.size != r.size) a.add_uint("exit_size", exit.size);
      a.add_uint("user", r.user);
      if (exit.user != r.user) a.add_uint("exit_user", exit.user);
      a.add_uint("id", r.id);
      a.add_uint("entry_record", item.record, TraceArgUse::kRoundTrip);
      a.add_uint("exit_record", item.exit_record, TraceArgUse::kRoundTrip);
      ++spans;
    } else {
      a.add_uint("size", r.size);
      a.add_uint("user", r.user);
      a.add_uint("id", r.id);
      a.add_uint("record", item.record);
    }
    TraceSlice slice;
    slice.name = name;
    slice.category = info.source == format::kStreamHostThread ? "host_event" : "gpu_event";
    slice.pid = pid;
    slice.tid = item.tid;
    slice.instant = item.kind != EventItemKind::kSpan;
    slice.start_ns = sat_add(item.start, shift_ns);
    slice.end_ns = sat_add(item.end, shift_ns);
    slice.args = &a;
    trace.write(slice);
  }
  return spans;
}

}  // namespace npkit
