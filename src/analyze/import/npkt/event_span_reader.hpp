// import/npkt/event_span_reader.hpp — pairs the event records of .npkt files
// (import/npkt/event_records.hpp) into spans, stream by stream, the way span_reader.hpp does for
// legacy NPKit buffers. Contract: read_event_spans walks the files in order and each file's streams
// in order. Per stream it converts timestamps (import/npkt/event_stream_clock.hpp), pairs
// ENTRY/EXIT nested by base name (import/pair/nested_pairer.hpp: the innermost open span of the
// same name; instants are kept and handed to on_instant) and streams each span to the sink as its
// EXIT is read. Span and unmatched record numbers are indexes in the stream (0 = its first record);
// spans carry the event's size saturated to 32 bits (the full sizes stay in the records) and the
// user field in entry_rsvd / exit_rsvd. Records whose id the file does not name are counted
// (unknown_ids) and skipped; so is a stream whose clock is unusable (clock64 without a rate: its
// records count as records, nothing else). TrackStats::overflowed is true when the stream dropped
// records. Nothing is stored: memory is bounded by the open events.
#pragma once

#include <cstdint>

#include "import/npkt/event_records.hpp"
#include "import/npkt/event_stream_clock.hpp"
#include "run/span_sink.hpp"

namespace npkit {

struct EventStreamRef {
  const EventFile* file = nullptr;
  std::size_t stream = 0;  // index into file->dump->streams
  TrackRef track;
};

struct EventInstant {
  TrackRef track;
  std::uint16_t base = 0;
  std::int64_t ns = 0;
  std::uint64_t size = 0;
  std::uint32_t user = 0;
  std::uint64_t record = 0;  // index in the stream
};

class EventSpanSink : public SpanSink {
 public:
  virtual void begin_stream(const EventStreamRef& /*stream*/, const EventStreamClock& /*clock*/) {}
  virtual void on_instant(const EventInstant& /*instant*/) {}
  virtual void end_stream(const EventStreamRef& /*stream*/, const TrackStats& /*stats*/) {}
};

void read_event_spans(const EventRecords& records, EventSpanSink& sink);

// Feeds a plain SpanSink (e.g. the phase breakdown): begin_track / end_track get a TrackFile
// whose path is locate_event_stream() and whose bytes are the stream's record bytes.
void read_event_spans_into(const EventRecords& records, SpanSink& sink);

}  // namespace npkit
