// output/trace/json_trace_encoder.hpp — the Chrome Trace Event JSON format (chrome://tracing,
// Perfetto) of output/trace/trace_encoder.hpp.
// Contract:
// - begin() starts the document with `"displayTimeUnit": "ns"` (Perfetto reads it only in the
//   first chunk of a file), on the host's wall clock `"baseTimeNanoseconds": ORIGIN` (the
//   TraceTimes origin, as PyTorch's profiler writes it: ts are µs after it), then `other_data`
//   as otherData, then opens the traceEvents array.
// - name_process writes "process_name" and "process_sort_index" (= pid) metadata events,
//   name_thread "thread_name" and "thread_sort_index" (= tid); names are JSON-escaped.
// - A span is an "X" event, an instant an "i" event with thread scope; ts and dur are
//   microseconds with three decimals (exact nanoseconds; dur 0 for a span ending before its
//   start); args in the order given: unsigned and signed integers, strings (escaped), thousandths
//   as a number with three decimals, pairs as a two-element array.
// - A counter sample is a "C" event of its process: name, ts, and args {SERIES: value} with three
//   decimals (Perfetto names the track "NAME SERIES"; chrome://tracing shows the series).
// - The text goes to a background writer in chunks of about 1 MiB (output/background_writer.hpp):
//   memory stays constant however long the trace. A fragment keeps its text and names until
//   it is appended.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "output/trace/trace_encoder.hpp"
#include "output/trace/trace_output.hpp"

namespace npkit {

class JsonTraceEncoder : public TraceEncoder {
 public:
  explicit JsonTraceEncoder(std::ostream& out);

  void begin(std::string_view other_data, const TraceTimes& times) override;
  void name_process(std::uint32_t pid, std::string_view name) override;
  void name_thread(std::uint32_t pid, std::uint32_t tid, std::string_view name) override;
  void write(const TraceSlice& slice) override;
  void count(const TraceCounter& counter) override;
  Status finish(const std::string& path) override;
  std::uint64_t events() const override { return events_; }
  std::uint64_t bytes() const override { return out_.bytes(); }
  std::unique_ptr<TraceEncoder> fragment(std::uint32_t index) const override;
  void append(TraceEncoder& fragment) override;

  // What begin() was given.
  const TraceTimes& times() const { return times_; }
  // Adds `object`, a whole JSON object, as the next event (another tool's, commands/trace_merge).
  void raw_event(std::string_view object);
  // `last` runs at the start of finish(), to add the last events; its Error stops finish().
  void before_finish(std::function<Status(JsonTraceEncoder&)> last) { last_ = std::move(last); }

 private:
  JsonTraceEncoder() = default;  // a fragment
  std::string& next_event();
  // `s` as a JSON string; names and categories repeat, so their escaped text is kept (until the
  // next call: another string may take the slot).
  const std::string& quoted(std::string_view s);
  void metadata(std::string_view kind, std::uint32_t pid, const std::uint32_t* tid,
                std::string_view name, std::uint32_t sort_index);

  TraceOutput out_;
  TraceNames names_;
  TraceTimes times_;
  std::function<Status(JsonTraceEncoder&)> last_;
  std::uint64_t events_ = 0;
  struct Quoted {
    std::string raw;
    std::string quoted;
  };
  std::array<Quoted, 256> quoted_;  // by recent_string_slot
  std::string escaped_;             // scratch: a string argument's JSON text
};

}  // namespace npkit
