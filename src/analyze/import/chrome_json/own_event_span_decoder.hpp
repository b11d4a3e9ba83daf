// import/chrome_json/own_event_span_decoder.hpp — the event-record spans of a trace our own
// `trace` command wrote for .npkt captures with event records
// (import/npkt/npkt_capture_tracks.hpp), read back as the spans the capture gives.
// Contract:
// - read_trace_event_names takes the base names and their phase hints from otherData.event_names
//   ([[NAME, HINT], ...], in the capture's base numbering); a trace without the key has none (it
//   holds no event records, or an earlier version wrote it: its event spans are not read).
//   merge_trace_event_names adds a file's names to a set, first hint kept.
// - OwnEventSpanDecoder streams every "X" event of category gpu_event / host_event to `sink` as a
//   Span: track = (rank of its process, GPU for gpu_event / CPU for host_event, stream number from
//   the tid: (tid − 3·10^7) / 1000); time domain host for processes 1..99999, the GPU counter's own
//   for the own-time-base processes (100000 + n, 200000 + n; their times stay relative to the
//   trace origin); start/end = otherData.time_origin_ns + ts / + dur, exact ns; sizes, user fields
//   and record numbers from args. The writer gives a stream's spans in start order, longer first,
//   so a stack per stream rebuilds the nesting: the phase — the name's rule (the user's
//   --phase-map first, then the hint, then the built-in rules), or its parent's for "inherit" —,
//   child time, root name and occurrence number (seq). "NAME_ENTRY (no EXIT)" / "NAME_EXIT (no
//   ENTRY)" instants become unmatched events. Each track is begun when first met and ended by
//   finish(), in track order, with its counts (records = the highest record number + 1).
// - A span whose name is not in the set, or whose process names no rank, is a counted warning.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "import/chrome_json/trace_event_reader.hpp"
#include "run/phase_map.hpp"
#include "run/rank_filter.hpp"
#include "run/span_sink.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

struct TraceEventNames {
  std::vector<std::string> bases;
  std::vector<std::string> hints;  // parallel to bases; "" = none
};

Result<TraceEventNames> read_trace_event_names(const TraceHeader& header, const std::string& path);

void merge_trace_event_names(TraceEventNames& into, const TraceEventNames& file);

class OwnEventSpanDecoder : public TraceEventVisitor {
 public:
  OwnEventSpanDecoder(std::string path, const TraceEventNames& names, const PhaseAssignment& phases,
                      const RankFilter& ranks, SpanSink& sink, Diagnostics& diagnostics);

  Status on_header(const TraceHeader& header) override;
  Status on_event(const TraceEvent& event) override;
  // Hands out the spans still open on the stacks and ends every track.
  void finish();

 private:
  using TrackKey = std::tuple<std::uint32_t, int, std::uint32_t>;  // rank, kind, index
  struct Stream {
    TrackRef track;
    TimeDomain domain = TimeDomain::kHost;
    TrackStats stats;
    std::vector<Span> open;  // the enclosing spans of the next one, outermost first
    std::map<std::uint16_t, std::uint64_t> entries;  // occurrences so far per base name
  };

  Status on_span(const TraceEvent& e, Stream& s);
  Status on_unmatched(const TraceEvent& e, Stream& s);
  Stream* stream_of(const TraceEvent& e);
  std::optional<std::uint16_t> named_base(std::string_view name, const TraceEvent& e);
  void close_down_to(Stream& s, std::uint32_t depth);
  void note_record(Stream& s, std::uint64_t record);
  void warn(std::string_view category, const TraceEvent& e, const std::string& what);

  std::string path_;
  std::map<std::string, std::uint16_t, std::less<>> base_of_;
  const PhaseAssignment& phases_;
  const RankFilter& ranks_;
  SpanSink& sink_;
  Diagnostics& diagnostics_;
  std::int64_t origin_ns_ = 0;
  std::map<std::int64_t, std::int64_t> rank_of_pid_;  // from the processes' names
  std::map<TrackKey, Stream> streams_;
};

}  // namespace npkit
