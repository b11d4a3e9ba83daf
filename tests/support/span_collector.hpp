// span_collector.hpp — a SpanSink that keeps everything it is given, for assertions.
// Contract: records spans, unmatched events and per-track stats in arrival order; tracks are
// remembered with the time domain begin_track reported.
#pragma once

#include <vector>

#include "run/span_sink.hpp"

namespace npkit::test {

class SpanCollector : public SpanSink {
 public:
  struct TrackResult {
    TrackFile file;
    TimeDomain domain = TimeDomain::kHost;
    TrackStats stats;
  };

  void begin_track(const TrackFile& file, TimeDomain domain) override {
    tracks.push_back(TrackResult{file, domain, {}});
  }
  void on_span(const Span& span) override { spans.push_back(span); }
  void on_unmatched(const UnmatchedEvent& event) override { unmatched.push_back(event); }
  // Tracks may interleave: the stats go to the latest track begun with the same reference.
  void end_track(const TrackFile& file, const TrackStats& stats) override {
    for (auto it = tracks.rbegin(); it != tracks.rend(); ++it) {
      if (it->file.track == file.track) {
        it->stats = stats;
        return;
      }
    }
  }

  std::vector<Span> spans;
  std::vector<UnmatchedEvent> unmatched;
  std::vector<TrackResult> tracks;
};

}  // namespace npkit::test
