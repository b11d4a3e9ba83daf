// output/trace_event_buffer.hpp — the text of a Chrome Trace Event JSON file as it is written:
// the header with otherData, then the traceEvents array one event at a time, handed to a
// background writer in chunks of about 1 MiB (output/background_writer.hpp).
// Contract:
// - begin(other_data) starts the document with `"displayTimeUnit": "ns"` (Perfetto reads it only
//   in the first chunk of a file), then `other_data` (a JSON object) as otherData, and opens
//   traceEvents.
// - next_event() separates the next event from the last and returns the text to append it to;
//   the caller completes the event before the next call. events() counts the events, metadata
//   included.
// - open_event starts an event: an "X" span from `start_ns` to `end_ns`, or an "i" instant at
//   `start_ns`, of (pid, tid); times are ns on the trace's clock, written as microseconds after
//   `origin_ns` with three decimals (exact nanoseconds); a span ending before it starts has
//   dur 0. It returns the text: the caller may add args (TraceArgs) and closes the event with
//   '}'.
// - name_threads writes the "M" events naming process `pid` and each thread (tid → name) of it,
//   each sorted by its own number; names are JSON-escaped.
// - TraceArgs appends `,"args":{...}` to the event being written: its fields in call order,
//   closed when it goes out of scope.
// - finish(path) closes the array and the document and waits for every write; an Error naming
//   `path` if one failed.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>

#include "output/background_writer.hpp"
#include "util/result.hpp"

namespace npkit {

class TraceEventBuffer {
 public:
  TraceEventBuffer(std::ostream& out, std::int64_t origin_ns);

  void begin(std::string_view other_data);
  std::string& next_event();
  std::string& open_event(std::string_view name, std::string_view cat, std::uint32_t pid,
                          std::uint32_t tid, bool instant, std::int64_t start_ns,
                          std::int64_t end_ns);
  void name_threads(std::uint32_t pid, std::string_view process_name,
                    const std::map<std::uint32_t, std::string>& thread_names);
  std::uint64_t events() const { return events_; }
  Status finish(const std::string& path);

 private:
  io::BackgroundWriter writer_;
  std::int64_t origin_ns_;
  std::string text_;
  std::uint64_t events_ = 0;
};

class TraceArgs {
 public:
  explicit TraceArgs(std::string& event);
  ~TraceArgs() { out_.push_back('}'); }
  TraceArgs(const TraceArgs&) = delete;
  TraceArgs& operator=(const TraceArgs&) = delete;

  void num(std::string_view key, std::uint64_t v);
  void inum(std::string_view key, std::int64_t v);
  void str(std::string_view key, std::string_view v);

 private:
  void begin(std::string_view key);
  std::string& out_;
  bool first_ = true;
};

}  // namespace npkit
