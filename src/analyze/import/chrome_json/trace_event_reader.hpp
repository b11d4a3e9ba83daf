// import/chrome_json/trace_event_reader.hpp — streams the events of a Chrome Trace Event JSON file
// (a bare array, or an object with "traceEvents") through simdjson On-Demand, without a DOM.
// Contract:
// - The input is read sequentially into one reused buffer (chunk_bytes, grown only for an event
//   larger than it). The event array is cut into runs of whole events at top-level commas; each
//   run is parsed as one On-Demand document and each event handed to the visitor, in file order,
//   as a TraceEvent view. Memory is bounded by the buffer and the visitor's own state, never by
//   the file's size; no heap object is made per event.
// - A cut is found by looking back from the end of the buffered bytes for `}` `,` `{`; should that
//   text lie inside a string, the run fails to parse and is cut again by an exact scan (strings,
//   escapes, nesting), its already delivered events are not delivered twice.
// - Members outside the array are returned in TraceHeader: those before "traceEvents" reach the
//   visitor's on_header before any event (our own traces put otherData first); those after it (as
//   NPKit's generator writes displayTimeUnit) are in the returned header only.
// - Tolerated, with a warning: a missing closing `]` (or `]}`) at the end of the file, a last
//   event cut short by the end of the file (dropped), a trailing comma before `]`, array elements
//   that are not objects (skipped). NCCL's `{}` closing element is an event with no fields.
// - Errors name the input and the byte offset: not JSON, malformed JSON (simdjson's error at its
//   location, else the first event of the run that failed), no "traceEvents" array in an object,
//   content after the document, an event larger than kMaxEventBytes. A visitor's Error stops the
//   read and is returned as is.
// - Values of members the reader does not interpret are skipped by On-Demand, which checks their
//   nesting but not every character inside them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "import/chrome_json/trace_event.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit {

class TraceEventVisitor {
 public:
  virtual ~TraceEventVisitor() = default;
  // The members before "traceEvents" (none for the bare-array form); called once, before events.
  virtual Status on_header(const TraceHeader& /*header*/) { return Ok{}; }
  virtual Status on_event(const TraceEvent& event) = 0;
  // True once the visitor has seen enough; the read stops after the current event.
  virtual bool done() const { return false; }
};

struct TraceReadOptions {
  static constexpr std::size_t kMaxEventBytes = std::size_t{1} << 30;
  std::size_t chunk_bytes = std::size_t{8} << 20;
  // Called after each run of events with the bytes read so far and the input's size (optional).
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct TraceReadSummary {
  TraceHeader header;  // every member outside the event array
  std::uint64_t events = 0;
  std::uint64_t bytes = 0;  // bytes of input read
  bool stopped_early = false;
};

// Reads the file at `path`; messages name it.
Result<TraceReadSummary> read_trace_file(const std::string& path, TraceEventVisitor& visitor,
                                         const TraceReadOptions& options, Diagnostics& diagnostics);

// Reads `bytes` (a whole file image); messages name `name`.
Result<TraceReadSummary> read_trace_bytes(const std::string& name, std::string_view bytes,
                                          TraceEventVisitor& visitor,
                                          const TraceReadOptions& options,
                                          Diagnostics& diagnostics);

}  // namespace npkit
