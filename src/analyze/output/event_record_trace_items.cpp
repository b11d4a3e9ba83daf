#include "output/event_record_trace_items.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "import/npkt/event_span_reader.hpp"
#include "output/trace_lanes.hpp"
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
    item.tid = kEventTidBase + 1000 * file.dump->stream_numbers[item.stream] + lane;
    if (threads.count(item.tid) != 0) continue;  // named by an earlier item
    const std::string name = describe_event_stream(file, item.stream);
    threads.emplace(item.tid, lane == 0 ? name : fmt::format("{} #{}", name, lane + 1));
  }
}

std::uint64_t write_event_items(TraceEventBuffer& trace, std::uint32_t pid,
                                const EventRecords& records, const EventFile& file,
                                const std::vector<EventItem>& items, std::int64_t shift_ns) {
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
    std::string& event = trace.open_event(
        name, info.source == format::kStreamHostThread ? "host_event" : "gpu_event", pid, item.tid,
        item.kind != EventItemKind::kSpan, sat_add(item.start, shift_ns),
        sat_add(item.end, shift_ns));
    {
      TraceArgs a(event);
      if (item.kind == EventItemKind::kSpan) {
        const format::EventRecord& exit = stream_records[item.exit_record];
        a.str("phase", records.phases.phase_names[item.phase]);
        a.num("depth", item.depth);
        a.num("size", r.size);
        if (exit.size != r.size) a.num("exit_size", exit.size);
        a.num("user", r.user);
        if (exit.user != r.user) a.num("exit_user", exit.user);
        a.num("id", r.id);
        a.num("entry_record", item.record);
        a.num("exit_record", item.exit_record);
        ++spans;
      } else {
        a.num("size", r.size);
        a.num("user", r.user);
        a.num("id", r.id);
        a.num("record", item.record);
      }
    }
    event.push_back('}');
  }
  return spans;
}

}  // namespace npkit
