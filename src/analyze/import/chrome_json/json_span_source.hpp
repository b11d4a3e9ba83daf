// import/chrome_json/json_span_source.hpp — the span analyses' input from JSON traces of NPKit
// data: NPKit's generator output and our own traces of legacy dumps.
// Contract:
// - open_json_span_input identifies every file (trace_producer.hpp); they must all be span
//   traces (generator or our legacy traces, mixed is allowed), else an Error naming the first
//   other one. It starts the event table from --event-table (a built-in name or an
//   npkit_event.h path) or, for "auto", from the table our trace names in otherData.event_table
//   when that is a built-in one, else the standard NCCL table — so report rows come in the binary
//   reader's order — and resolves the phase rules (built-in, then `user_rules` first).
// - read_json_spans reads the files in order, each through its producer's decoder, and streams
//   the spans of the ranks `ranks` selects to `target` (interleaved across tracks, as the files
//   order them), then the events left open as unmatched; per-track counts land in `tracks`.
//   Memory: the reader's buffer, the open events and one top-level span's nested spans per track.
// - JsonSinkDemux turns that interleaved stream into what read_merged (commands/command.hpp)
//   gives a span sink: one sink per track, fed in file order, ended, then merged in track order.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "import/chrome_json/event_name_book.hpp"
#include "import/chrome_json/json_span_tracks.hpp"
#include "import/chrome_json/trace_producer.hpp"
#include "run/phase_map.hpp"
#include "run/rank_filter.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit {

struct JsonSpanFile {
  std::string path;
  TraceIdentity identity;
  std::uint64_t bytes = 0;
  std::uint64_t events = 0;  // trace events read (set by read_json_spans)
};

struct JsonSpanInput {
  std::vector<JsonSpanFile> files;
  std::unique_ptr<EventNameBook> names;
  std::string table_reason;
};

Result<JsonSpanInput> open_json_span_input(const std::vector<std::string>& paths,
                                           const std::string& event_table,
                                           const PhaseMap& phase_map, Diagnostics& diagnostics);

struct JsonSpanReadOptions {
  RankFilter ranks;
  // Bytes read so far and in total, after each run of events (optional).
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

Status read_json_spans(JsonSpanInput& input, const JsonSpanReadOptions& options, TrackBook& tracks,
                       JsonSpanTarget& target, Diagnostics& diagnostics);

template <typename Sink>
class JsonSinkDemux : public JsonSpanTarget {
 public:
  explicit JsonSinkDemux(std::function<Sink()> make) : make_(std::move(make)) {}

  void on_span(const Span& span, TimeDomain domain) override {
    sink_for(span.track, domain).on_span(span);
  }
  void on_unmatched(const UnmatchedEvent& event, TimeDomain domain) override {
    sink_for(event.track, domain).on_unmatched(event);
  }

  // Ends each track with its counts and merges the sinks in track order into one.
  Sink finish(const std::vector<JsonTrack>& tracks) {
    for (const auto& t : tracks) {
      sink_for(t.track, t.stats.domain).end_track(TrackFile{t.track, t.path, 0}, t.stats);
    }
    if (sinks_.empty()) return make_();
    auto it = sinks_.begin();
    Sink merged = std::move(*it->second);
    for (++it; it != sinks_.end(); ++it) merged.merge(std::move(*it->second));
    return merged;
  }

 private:
  Sink& sink_for(const TrackRef& track, TimeDomain domain) {
    if (last_ != nullptr && last_track_ == track) return *last_;
    auto& slot = sinks_[track_order(track)];
    if (!slot) {
      slot = std::make_unique<Sink>(make_());
      slot->begin_track(TrackFile{track, std::string(), 0}, domain);
    }
    last_track_ = track;
    last_ = slot.get();
    return *last_;
  }

  std::function<Sink()> make_;
  std::map<std::tuple<std::uint32_t, int, std::uint32_t>, std::unique_ptr<Sink>> sinks_;
  TrackRef last_track_;
  Sink* last_ = nullptr;
};

}  // namespace npkit
