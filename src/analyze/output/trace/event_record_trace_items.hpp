// output/trace/event_record_trace_items.hpp — the event records of .npkt captures
// (import/npkt/event_records.hpp) as events of the profiler trace
// (output/trace/capture_trace_writer.hpp). Contract:
// - collect_event_items reads every stream's spans, instants and unmatched events
//   (import/npkt/event_span_reader.hpp) into one EventFileItems per file, split by time base: the
//   host clock, %globaltimer without a clock fit, clock64.
// - place_event_items sorts items by stream and start (longer first) and gives each its thread:
//   tid kEventTidBase + 1000 * stream number + lane, lanes per stream so that spans nest
//   (output/trace/trace_lanes.hpp; lanes past kMaxTraceLane share its tid); `threads` gets each
//   tid's name, the stream's ("GPU block 3", "host thread 4711 (worker)", "... #2" for lane 1).
// - write_event_items writes placed items, times moved by `shift_ns`, as events of process `pid`:
//   spans ("X", cat "gpu_event" or "host_event") named by their base name with args phase,
//   depth, size, user (exit_size and exit_user where the EXIT differs), id and the stream's entry
//   and exit record numbers; instants "i" with size, user, id and record; unmatched ENTRY or EXIT
//   events as instants "NAME (no EXIT)" / "NAME (no ENTRY)". Returns the spans written.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "import/npkt/event_records.hpp"
#include "output/trace/trace_encoder.hpp"

namespace npkit {

enum class EventItemKind : std::uint8_t { kSpan, kInstant, kNoExit, kNoEntry };

struct EventItem {
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::size_t stream = 0;  // index into the file's streams
  EventItemKind kind = EventItemKind::kSpan;
  std::uint16_t base = 0;
  std::uint16_t phase = 0;
  std::uint32_t depth = 0;
  std::uint64_t record = 0;  // the span's ENTRY, or the event's record, in the stream
  std::uint64_t exit_record = 0;
  std::uint32_t tid = 0;
};

// One file's event items by time base.
struct EventFileItems {
  const EventFile* file = nullptr;
  std::vector<EventItem> host;    // on the host clock
  std::vector<EventItem> timer;   // %globaltimer without a clock fit
  std::vector<EventItem> cycles;  // clock64
};

std::vector<EventFileItems> collect_event_items(const EventRecords& records);

void place_event_items(const EventFile& file, std::vector<EventItem>& items,
                       std::map<std::uint32_t, std::string>& threads);

std::uint64_t write_event_items(TraceEncoder& trace, std::uint32_t pid, const EventRecords& records,
                                const EventFile& file, const std::vector<EventItem>& items,
                                std::int64_t shift_ns);

}  // namespace npkit
