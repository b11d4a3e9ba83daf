// output/trace/perfetto_trace_encoder.hpp — Perfetto's native protobuf trace format
// (perfetto.protos.Trace: TracePacket / TrackEvent) of output/trace/trace_encoder.hpp, for the
// Perfetto UI and trace processor (`trace --format perfetto`, or -o FILE.pftrace).
// Contract:
// - begin() writes, on the host's wall clock (TraceTimes), a ClockSnapshot packet making REALTIME
//   (builtin clock 1) the trace's clock (primary_trace_clock) with REALTIME = the origin; then
//   the root track (uuid 0) asking for processes and threads in explicit order.
//   A process is a TrackDescriptor with a ProcessDescriptor (pid, name), uuid pid·2^32 + 2^32 −
//   1, ordered by pid; a thread a TrackDescriptor with a ThreadDescriptor (pid, tid, name) under
//   its process, uuid pid·2^32 + tid, ordered by tid. Descriptors are written when named.
// - Events are held per thread until close_process(pid) or finish(), then written thread by
//   thread, each thread on a packet sequence of its own: a first packet that clears the
//   sequence's state and carries the interned event names, categories and argument names the
//   thread uses, an incremental clock (id 64, ns, deltas from the previous packet, anchored to
//   origin + the thread's first time on REALTIME on the wall clock, else on BOOTTIME, Perfetto's
//   default trace clock) and the thread's track as default; then its
//   events in start order (longer first on equal starts, then as given) as SLICE_BEGIN /
//   SLICE_END pairs (an instant: INSTANT), ends written when the next event starts after them,
//   so that timestamps never go back on a sequence. A span that outlasts the span it starts in is
//   cut at that span's end (Perfetto's slices nest); a span ending before it starts has length
//   0. Times: origin_ns + slice time (clamped at 0).
// - Arguments become debug annotations with interned names: unsigned → uint_value, signed →
//   int_value, strings → string_value, thousandths → double_value (value / 1000), pairs → an
//   array of two uint_values. Arguments marked TraceArgUse::kRoundTrip are left out. Event
//   packets do not set SEQ_NEEDS_INCREMENTAL_STATE (readers apply the sequence's state anyway).
// - A counter is a TrackDescriptor named "NAME SERIES" with a CounterDescriptor, under its
//   process, uuid pid·2^32 + 2^32 − 2 − k for the process's k-th counter (from 0), sibling order
//   0 (above the threads). Its samples are held like a thread's events and written, with the
//   descriptor before them the first time, on a packet sequence of its own (the same first
//   packet, no interned strings): TYPE_COUNTER events with double_counter_value (value / 1000)
//   on the sequence's default track, in time order (equal times as given).
// - `other_data` is not written (Perfetto has no place for it); the packets go to a background
//   writer in chunks of about 1 MiB.
// - A fragment interns its strings afresh, and its threads share one sequence, id index + 1,
//   one after the other, each clearing the sequence's state first; finish() writes them in uuid
//   order. Its track descriptors are written when it is appended.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "output/trace/trace_encoder.hpp"
#include "output/trace/trace_output.hpp"

namespace npkit {

class PerfettoTraceEncoder : public TraceEncoder {
 public:
  explicit PerfettoTraceEncoder(std::ostream& out);

  void begin(std::string_view other_data, const TraceTimes& times) override;
  void name_process(std::uint32_t pid, std::string_view name) override;
  void name_thread(std::uint32_t pid, std::uint32_t tid, std::string_view name) override;
  void write(const TraceSlice& slice) override;
  void count(const TraceCounter& counter) override;
  void close_process(std::uint32_t pid) override;
  Status finish(const std::string& path) override;
  std::uint64_t events() const override { return events_; }
  std::uint64_t bytes() const override { return out_.bytes(); }
  std::unique_ptr<TraceEncoder> fragment(std::uint32_t index) const override;
  void append(TraceEncoder& fragment) override;

 private:
  PerfettoTraceEncoder(std::int64_t origin_ns, std::uint64_t clock,
                       std::uint32_t sequence);  // a fragment
  // Interned strings: one table for the whole trace, iids from 1.
  enum InternKind : std::uint8_t { kEventName, kCategory, kArgName, kInternKinds };
  struct Held {
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::uint32_t order = 0;
    std::uint32_t name = 0;
    std::uint32_t category = 0;
    bool instant = false;
    std::uint32_t args_offset = 0;  // in Thread::args
    std::uint32_t args_size = 0;
  };
  struct Thread {
    std::uint32_t pid = 0;
    std::uint32_t tid = 0;
    std::vector<Held> held;
    std::string args;                               // encoded debug annotations of the held events
    std::vector<std::uint32_t> used[kInternKinds];  // iids the held events use
  };

  struct Counter {
    std::uint32_t pid = 0;
    std::string name;  // of the track: "NAME SERIES"
    bool described = false;
    std::vector<std::pair<std::int64_t, std::int64_t>> samples;  // (time, thousandths)
  };

  std::uint32_t intern(InternKind kind, std::string_view s, Thread& t);
  // A sequence's first packet: state cleared, `interned` (when not null), the clock anchored at
  // `first`, `track` as the default track.
  void start_sequence(std::uint32_t sequence, std::uint64_t first, std::uint64_t track,
                      const std::string* interned);
  void flush_thread(Thread& t);
  void flush_counter(std::uint64_t uuid, Counter& c);
  void flush_counters(std::uint64_t from_uuid, std::uint64_t to_uuid);
  void emit_packet(std::string_view body);

  TraceOutput out_;
  std::int64_t origin_ns_ = 0;
  std::uint64_t clock_ = 6;  // the builtin clock of the times: BOOTTIME, REALTIME on the wall clock
  std::uint64_t events_ = 0;
  std::uint32_t next_sequence_ = 1;
  std::optional<std::uint32_t> fragment_sequence_;  // a fragment's one sequence
  TraceNames names_;
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> iids_[kInternKinds];
  std::vector<std::string_view> strings_[kInternKinds];  // by iid − 1 (keys of iids_)
  // Recently interned strings by recent_string_slot: most lookups end here.
  struct Recent {
    std::string raw;
    std::uint32_t iid = 0;
  };
  std::array<Recent, 256> recent_[kInternKinds];
  std::map<std::uint64_t, Thread> threads_;  // by uuid: held events
  Thread* last_thread_ = nullptr;            // the last one written to, and its uuid
  std::uint64_t last_uuid_ = 0;
  std::map<std::uint64_t, Counter> counters_;  // by uuid: held samples
  // Per pid, its counters' track names: the k-th at k.
  std::map<std::uint32_t, std::vector<std::string>> counter_names_;
  // Scratch.
  std::string counter_name_;
  std::string packet_;
  std::string event_;
  std::string nested_;
};

}  // namespace npkit
