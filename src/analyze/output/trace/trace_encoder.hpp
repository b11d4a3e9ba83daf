// output/trace/trace_encoder.hpp — what every trace writer hands to a trace file format: named
// processes and threads, and spans and instants with typed arguments.
// Contract:
// - The producers (output/trace/span_trace_writer.hpp for spans,
//   output/trace/capture_trace_writer.hpp for captures on typed tracks,
//   output/trace/instance_trace_writer.hpp for collective instances) decide the layout
//   (run/trace_layout.hpp) and the time origin; an encoder (output/trace/json_trace_encoder.hpp,
//   output/trace/perfetto_trace_encoder.hpp) only writes what it is given, in the order given.
// - begin(other_data, times) comes first, once: `other_data` is a JSON object describing the
//   trace (generator, layout, source, time origin; the JSON format's otherData), `times` where
//   its times lie (TraceTimes).
// - name_process / name_thread come before the first event of that process / thread.
// - TraceSlice times are nanoseconds after the trace's origin (negative before it); a span whose
//   end lies before its start has length 0; an instant uses start_ns only. Strings the slice
//   points to need only live during the call.
// - count(counter) sets a counter of a process from a time on (a step: the value holds until the
//   counter's next sample). A counter is named by (pid, name, series): `name` is the counter,
//   `series` its one series (a unit, e.g. "GB/s"); viewers show it as the track "NAME SERIES".
//   Samples of one counter come in time order; they need not follow the slices of their process.
// - close_process(pid) promises that no more events of that process follow (an encoder that
//   buffers may write them out); finish(path) writes what is left and the end of the file, an
//   Error naming `path` when a write failed. events() counts what was written, metadata
//   included; bytes() the bytes produced so far.
// - fragment(index) makes an encoder of the same format, on the same origin, that keeps what it
//   is given in memory, so that parts of a trace can be encoded on several threads (a fragment
//   is filled on one thread; several may be filled at once). finish() on a fragment encodes what
//   it holds and writes nothing. append(fragment) adds a finished fragment's events to this
//   encoder, fragments in increasing `index`, each once: first the names of processes and
//   threads it was given that this encoder has not written yet, then its events. The output
//   depends only on the fragments' contents and order, not on the threads that filled them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "run/trace_args.hpp"
#include "util/result.hpp"

namespace npkit {

struct TraceSlice {
  std::string_view name;
  std::string_view category;
  std::uint32_t pid = 0;
  std::uint32_t tid = 0;
  bool instant = false;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  const TraceArgList* args = nullptr;
};

// A slot 0..255 for `s` in an encoder's small cache of recent strings: names, categories and
// argument keys come again and again from the same storage, so their address and length find
// them (an encoder still compares the text: another string may take the same slot).
inline std::size_t recent_string_slot(std::string_view s) {
  const auto key = (reinterpret_cast<std::uintptr_t>(s.data()) ^ s.size()) * 0x9E3779B97F4A7C15u;
  return static_cast<std::size_t>(key >> 56);
}

// A counter's value from at_ns (ns after the trace's origin) on: thousandths / 1000.
struct TraceCounter {
  std::string_view name;
  std::string_view series;
  std::uint32_t pid = 0;
  std::int64_t at_ns = 0;
  std::int64_t thousandths = 0;
};

// The process and thread names an encoder was given. A fragment keeps them for append; the
// encoder they are appended to writes each (pid, tid) name once.
struct TraceName {
  std::uint32_t pid = 0;
  std::optional<std::uint32_t> tid;  // none: the process's name
  std::string name;
};

// Where a trace's times lie. Slice times count from origin_ns; first_ns is the trace's first
// event (where --from and --to count from). On the host's wall clock (a .npkt capture's host
// clock is CLOCK_REALTIME), both are ns since the epoch and the origin is that of PyTorch's
// profiler (Kineto's baseTimeNanoseconds): the first event's time rounded down to a multiple of
// kWallClockPeriodNs, so that every time of the trace, in µs after it, holds its nanoseconds in a
// double (2^53 ns is about 104 days) and a Kineto trace of the same quarter has the same origin.
// Otherwise the origin is private (times of an input without a wall clock) and equals first_ns.
struct TraceTimes {
  static constexpr std::int64_t kWallClockPeriodNs = 7'889'238'000'000'000;  // 3 × 2629746 s

  TraceTimes() = default;
  // A private origin at the first event.
  TraceTimes(std::int64_t origin) : origin_ns(origin), first_ns(origin) {}  // NOLINT: implicit
  static TraceTimes wall_clock(std::int64_t first) {
    TraceTimes t(first);
    const std::int64_t rest = first % kWallClockPeriodNs;
    t.origin_ns = first - (rest < 0 ? rest + kWallClockPeriodNs : rest);
    t.on_wall_clock = true;
    return t;
  }

  std::int64_t origin_ns = 0;
  std::int64_t first_ns = 0;
  bool on_wall_clock = false;
};

class TraceEncoder;

class TraceNames {
 public:
  // A fragment keeps `n` and answers false; any other encoder records it as written and answers
  // true (it writes the name now).
  bool write_now(bool fragment, TraceName n) {
    if (fragment) {
      kept_.push_back(std::move(n));
      return false;
    }
    first(n);
    return true;
  }
  // Gives `encoder` each name `fragment` kept that was not written before.
  void pass_on(const TraceNames& fragment, TraceEncoder& encoder);

 private:
  // True the first time (pid, tid) is seen.
  bool first(const TraceName& n) {
    return seen_.insert(std::uint64_t{n.pid} << 32 | n.tid.value_or(UINT32_MAX)).second;
  }

  std::vector<TraceName> kept_;
  std::set<std::uint64_t> seen_;
};

class TraceEncoder {
 public:
  virtual ~TraceEncoder() = default;
  virtual void begin(std::string_view other_data, const TraceTimes& times) = 0;
  virtual void name_process(std::uint32_t pid, std::string_view name) = 0;
  virtual void name_thread(std::uint32_t pid, std::uint32_t tid, std::string_view name) = 0;
  virtual void write(const TraceSlice& slice) = 0;
  virtual void count(const TraceCounter& counter) = 0;
  virtual void close_process(std::uint32_t /*pid*/) {}
  virtual Status finish(const std::string& path) = 0;
  virtual std::uint64_t events() const = 0;
  virtual std::uint64_t bytes() const = 0;
  virtual std::unique_ptr<TraceEncoder> fragment(std::uint32_t index) const = 0;
  virtual void append(TraceEncoder& fragment) = 0;
};

inline void TraceNames::pass_on(const TraceNames& fragment, TraceEncoder& encoder) {
  for (const TraceName& n : fragment.kept_) {
    if (!first(n)) continue;
    if (n.tid) {
      encoder.name_thread(n.pid, *n.tid, n.name);
    } else {
      encoder.name_process(n.pid, n.name);
    }
  }
}

}  // namespace npkit
