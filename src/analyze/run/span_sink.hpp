// run/span_sink.hpp — the stream of spans every reader of span data writes (legacy NPKit dumps,
// .npkt event records, Chrome traces of spans) and every span analysis reads.
// Contract: a reader begins a track before its first span (or unmatched event) and ends it after
// its last one, with what the track held (TrackStats); spans of several begun tracks may
// interleave. TimeDomain says which clock a track's times are on.
#pragma once

#include <cstdint>
#include <limits>

#include "run/event_table.hpp"
#include "run/span.hpp"
#include "run/track.hpp"

namespace npkit {

enum class TimeDomain : std::uint8_t {
  kHost,        // host clock (epoch or steady ns, as the dump recorded it)
  kGpuCounter,  // a GPU buffer without TIME_SYNC: the counter's own ns, per rank
};

struct TrackStats {
  std::uint64_t records = 0;
  std::uint64_t spans = 0;
  std::uint64_t sync_records = 0;
  std::uint64_t instants = 0;  // defined instant events other than TIME_SYNC
  std::uint64_t unknown_ids = 0;
  std::uint64_t unmatched_entries = 0;
  std::uint64_t unmatched_exits = 0;
  std::uint64_t partial_bytes = 0;  // trailing bytes that do not form a whole record
  std::uint64_t nonmonotonic = 0;   // records whose raw timestamp went backwards
  std::uint64_t before_first_sync = 0;
  std::uint64_t negative_sizes = 0;  // GPU step sizes ≥ 2^31 (wrapped negatives), read as 0
  bool overflowed = false;           // exactly as many records as the buffer holds
  TimeDomain domain = TimeDomain::kHost;
  std::int64_t first_ns = std::numeric_limits<std::int64_t>::max();
  std::int64_t last_ns = std::numeric_limits<std::int64_t>::min();
};

struct UnmatchedEvent {
  TrackRef track;
  std::uint16_t base = 0;
  EventKind kind = EventKind::kEntry;
  std::uint64_t record = 0;
  std::int64_t ns = 0;
  std::uint32_t size = 0;
};

class SpanSink {
 public:
  virtual ~SpanSink() = default;
  virtual void begin_track(const TrackFile& /*file*/, TimeDomain /*domain*/) {}
  virtual void on_span(const Span& span) = 0;
  virtual void on_unmatched(const UnmatchedEvent& /*event*/) {}
  virtual void end_track(const TrackFile& /*file*/, const TrackStats& /*stats*/) {}
};

}  // namespace npkit
