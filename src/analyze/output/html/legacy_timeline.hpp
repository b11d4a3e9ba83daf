// output/html/legacy_timeline.hpp — the timeline of one collective instance of a legacy NPKit
// dump: ranks × GPU buffers and CPU channels, spans coloured by phase.
// Contract:
// - WindowSpans (a SpanSink for the legacy span reader) keeps the spans on the host clock that
//   overlap [start, end]; spans of GPU buffers without TIME_SYNC (their own counter clock) cannot
//   be placed and are counted instead. merge() appends another sink's spans (the parallel
//   reader's runs, merged in track order).
// - legacy_timeline lays them out (output/html/timeline_layout.hpp) per rank: "buf B" rows (GPU
//   buffers), then "cpu ch C" rows; nested spans share their parent's row and are drawn over it.
//   Category = the span's phase (run/phase_map.hpp), label = its event name, tooltip = size,
//   bandwidth (size / duration) and nesting depth. Rows beyond `max_rows` are merged or ranks
//   thinned as the layout says, and the note says so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "output/html/instance_choice.hpp"
#include "output/html/report_model.hpp"
#include "run/phase_map.hpp"
#include "run/span_sink.hpp"

namespace npkit::html {

class WindowSpans : public SpanSink {
 public:
  WindowSpans(std::int64_t start_ns, std::int64_t end_ns) : start_(start_ns), end_(end_ns) {}
  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  void merge(WindowSpans&& other);

  const std::vector<Span>& spans() const { return spans_; }
  std::uint64_t unplaced() const { return unplaced_; }

 private:
  std::int64_t start_;
  std::int64_t end_;
  bool on_host_ = true;
  std::vector<Span> spans_;
  std::uint64_t unplaced_ = 0;
};

Timeline legacy_timeline(const WindowSpans& spans, const std::vector<std::string>& base_names,
                         const PhaseAssignment& phases, const InstanceWindow& window,
                         const std::string& title, const std::string& choice,
                         std::size_t max_rows = 256);

}  // namespace npkit::html
