// output/trace/trace_window.hpp — a trace narrowed to a time window, and stopped where it would
// grow past what viewers open: a TraceEncoder (output/trace/trace_encoder.hpp) in front of
// another.
// Contract:
// - The window is [from, to] in ns after the trace's first event (TraceLimits::from_ns / to_ns;
//   TraceTimes::first_ns), intersected with [from_host_ns, to_host_ns] on the host clock (made
//   relative to the origin that begin() is given); unset ends are open. A span is kept when it
//   overlaps the window (start ≤ to and end ≥ from), so enclosing spans stay; an instant when it
//   lies in it. Times are not moved: a slice has the time it has in the whole trace. Names of
//   processes and threads are always passed on. A counter keeps its samples in the window, its last
//   sample before it (the value where the window begins) and, after the window, its samples until
//   it is back to 0 (the collectives open at the window's end end as in the whole trace; a later
//   value would stand to the end of the trace).
// - max_bytes (0: none): once the encoder behind has produced more, later slices are dropped
//   and exceeded() is true (the caller reports it; the output is not to be kept).
// - kept() and dropped() count the slices passed on and those outside the window (counter
//   samples are not counted).
// - A fragment filters by the same window into a fragment of the encoder behind (no size check);
//   appending it adds its counts, passes its contents on unless exceeded(), then checks the size.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "output/trace/trace_encoder.hpp"

namespace npkit {

struct TraceLimits {
  std::optional<std::int64_t> from_ns;  // after the trace's first event
  std::optional<std::int64_t> to_ns;
  std::optional<std::int64_t> from_host_ns;  // host clock, ns since the epoch
  std::optional<std::int64_t> to_host_ns;
  std::uint64_t max_bytes = 0;

  bool windowed() const { return from_ns || to_ns || from_host_ns || to_host_ns; }
};

class WindowedTraceEncoder : public TraceEncoder {
 public:
  WindowedTraceEncoder(TraceEncoder& inner, const TraceLimits& limits);

  void begin(std::string_view other_data, const TraceTimes& times) override;
  void name_process(std::uint32_t pid, std::string_view name) override;
  void name_thread(std::uint32_t pid, std::uint32_t tid, std::string_view name) override;
  void write(const TraceSlice& slice) override;
  void count(const TraceCounter& counter) override;
  void close_process(std::uint32_t pid) override;
  Status finish(const std::string& path) override;
  std::uint64_t events() const override { return inner_.events(); }
  std::uint64_t bytes() const override { return inner_.bytes(); }
  std::unique_ptr<TraceEncoder> fragment(std::uint32_t index) const override;
  void append(TraceEncoder& fragment) override;

  bool exceeded() const { return exceeded_; }
  std::uint64_t kept() const { return kept_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  void check_size();
  // Per counter (pid, name, series): its last sample before the window, not passed on yet, and
  // the last value passed on.
  struct CounterState {
    std::optional<std::pair<std::int64_t, std::int64_t>> before;
    std::int64_t passed = 0;
  };
  void pass_on(const TraceCounter& counter, CounterState& state);

  std::unique_ptr<TraceEncoder> owned_;  // a fragment's inner fragment
  TraceEncoder& inner_;
  TraceLimits limits_;
  std::int64_t from_ = INT64_MIN;
  std::int64_t to_ = INT64_MAX;
  bool exceeded_ = false;
  std::uint64_t kept_ = 0;
  std::uint64_t dropped_ = 0;
  std::map<std::tuple<std::uint32_t, std::string, std::string>, CounterState> counters_;
};

}  // namespace npkit
