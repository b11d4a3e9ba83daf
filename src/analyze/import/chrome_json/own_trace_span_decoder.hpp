// import/chrome_json/own_trace_span_decoder.hpp — spans read back from the trace our own `trace`
// command writes for a legacy NPKit dump (output/trace/span_trace_writer.hpp).
// Contract: every "X" event becomes the Span it was written from: track from pid/tid and cat
// ("gpu,PHASE" / "cpu,PHASE"), numbered as run/trace_layout.hpp says where otherData.layout names
// it, else as earlier versions did (pid = rank, 100000 + R for rank R on its GPU counter clock;
// GPU buffer B tid B + 1, CPU channel C lane L tid (C + 1)·1000 + L), start/end from
// ts/dur plus otherData.time_origin_ns (or gpu_counter_origin_ns[R]) — exact nanoseconds — and
// sizes, seq, depth, rsvd, slot, lane, sender/receiver/step and record indices from args. The
// writer emits a track's spans as their EXITs come, children before their parent: a GPU track's
// spans are held until their top-level span arrives, then its tree (rebuilt from depth and
// order) gives each span its phase — its own rule, or its parent's phase — and its child time,
// as the pairer gave them; spans whose top-level span never arrives keep the phase the trace
// recorded ("other" when no rule gives that phase). "unmatched ENTRY/EXIT NAME" instants become
// unmatched events. "C" events (the busbw counters, output/trace/busbw_counters.hpp, derived from
// the spans) are skipped without a warning. A track's record count is its highest record index + 1
// (TIME_SYNC-only tails are not in the trace).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "import/chrome_json/event_name_book.hpp"
#include "import/chrome_json/json_span_tracks.hpp"
#include "import/chrome_json/trace_event_reader.hpp"
#include "run/rank_filter.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

class OwnTraceSpanDecoder : public TraceEventVisitor {
 public:
  static constexpr std::uint32_t kGpuCounterPidBase = 100000;

  OwnTraceSpanDecoder(std::string path, EventNameBook& names, TrackBook& tracks,
                      const RankFilter& ranks, JsonSpanTarget& target, Diagnostics& diagnostics);

  Status on_header(const TraceHeader& header) override;
  Status on_event(const TraceEvent& event) override;
  // Hands out the spans still held (their top-level span never came).
  void finish();

 private:
  struct Held {
    Span span;
    std::uint16_t recorded_phase;
  };
  struct Group {
    TrackRef track;
    TimeDomain domain = TimeDomain::kHost;
    std::vector<Held> held;
  };
  struct ThreadName {
    TrackKind kind;
    std::uint32_t index;
  };

  void warn(std::string_view category, const TraceEvent& e, const std::string& what);
  Status on_span_event(const TraceEvent& e);
  Status on_unmatched_event(const TraceEvent& e);
  void on_thread_name(const TraceEvent& e);
  void flush(Group& g, bool complete);
  bool locate(const TraceEvent& e, TrackRef& track, TimeDomain& domain, std::int64_t& origin);
  bool locate_in_layout(const TraceEvent& e, std::uint32_t pid, std::uint32_t tid, TrackRef& track,
                        TimeDomain& domain, std::int64_t& origin);

  std::string path_;
  EventNameBook& names_;
  TrackBook& tracks_;
  const RankFilter& ranks_;
  JsonSpanTarget& target_;
  Diagnostics& diagnostics_;
  bool current_layout_ = false;  // otherData.layout is run/trace_layout.hpp's
  std::int64_t host_origin_ns_ = 0;
  std::map<std::uint32_t, std::int64_t> gpu_counter_origin_ns_;
  std::map<std::uint64_t, ThreadName> thread_names_;  // (pid << 32 | tid) → track
  std::map<std::tuple<std::uint32_t, int, std::uint32_t>, Group> groups_;
  // Scratch for flush().
  std::vector<std::int32_t> parent_;
  std::vector<std::int32_t> ancestors_;
};

}  // namespace npkit
