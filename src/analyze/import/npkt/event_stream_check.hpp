// import/npkt/event_stream_check.hpp — one pass over the event records of .npkt files: what each
// stream holds once paired, and the warnings a reader must see (the data behind `info` for event
// records).
// Contract: check_event_streams reads every stream once (import/npkt/event_span_reader.hpp) and
// returns, per stream in reading order, its TrackStats, the largest nesting depth and the first few
// unmatched events (record number and file offset). Into `diagnostics`, per stream: "unmatched
// events" (how many of each kind, the first with its record and offset), "dropped event records"
// (records_dropped > 0: the buffer of `capacity` records was full, later events of the stream
// are missing and ENTRYs left open are expected), "unknown event id" (ids the file does not
// name, with the first few ids), "non-monotonic timestamps"; per file: "GPU time not on the host
// clock" for %globaltimer streams of a file without a usable clock fit, "clock64 streams" for
// cycle streams (durations at the measured rate, times on the cycle counter) and "clock64
// without a rate" for cycle streams left out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/npkt/event_records.hpp"
#include "import/npkt/event_span_reader.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

struct EventUnmatched {
  std::string name;  // the event's full name
  EventKind kind = EventKind::kEntry;
  std::uint64_t record = 0;  // index in the stream
  std::uint64_t offset = 0;  // file offset of the record
};

struct EventStreamSummary {
  const EventFile* file = nullptr;
  std::size_t stream = 0;
  TrackRef track;
  std::string clock;  // EventStreamClock::describe()
  TrackStats stats;
  std::uint32_t max_depth = 0;
  std::vector<EventUnmatched> unmatched;   // the first kMaxUnmatched
  std::vector<std::uint16_t> unknown_ids;  // distinct, the first kMaxUnknownIds

  static constexpr std::size_t kMaxUnmatched = 5;
  static constexpr std::size_t kMaxUnknownIds = 5;
};

std::vector<EventStreamSummary> check_event_streams(const EventRecords& records,
                                                    Diagnostics& diagnostics);

}  // namespace npkit
