// commands/span_bandwidth_output.hpp — `npkit-analyze bandwidth` for span sources: legacy NPKit
// dumps, Chrome-trace JSON and the event records of .npkt files share these sinks and outputs.
// Contract:
// - SpanBandwidthSinks feeds both views from one pass: collectives rebuilt from collective-level
//   spans (analysis/bandwidth/collective_bandwidth.hpp, nccl-tests conventions) and every span by
//   size bucket (analysis/bandwidth/span_bandwidth.hpp).
// - write_span_bandwidth renders them into `out`: kJson writes the "npkit-analyze.bandwidth"
//   object (schema_version 1, docs/cli.md) with `diagnostics` as its warnings; kCsv the
//   collectives table, or the per-rank events table when `view` is "events" or (for "auto")
//   there is no collective row; kTable and kMarkdown the collectives view (or a line saying why
//   there is none) unless `view` is "events", then the events view unless `view` is
//   "collectives" (`per_rank` adds per-rank rows).
// - write_span_bandwidth_fields writes that JSON object's fields "coll", "nranks", "collectives"
//   and "events" into the object `w` has open (for outputs that nest them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/bandwidth/collective_bandwidth.hpp"
#include "analysis/bandwidth/span_bandwidth.hpp"
#include "commands/command.hpp"
#include "output/json_writer.hpp"
#include "util/diagnostics.hpp"

namespace npkit::cli {

struct SpanBandwidthSinks : SpanSink {
  CollectiveBandwidthSink collectives;
  SpanBandwidthSink spans;
  SpanBandwidthSinks(const PhaseAssignment& phases, const std::vector<std::string>& base_names,
                     const std::string& coll)
      : collectives(phases, coll), spans(phases, base_names, coll) {}
  void begin_track(const TrackFile& f, TimeDomain d) override { collectives.begin_track(f, d); }
  void on_span(const Span& s) override {
    collectives.on_span(s);
    spans.on_span(s);
  }
  void merge(SpanBandwidthSinks&& other) {
    collectives.merge(other.collectives);
    spans.merge(std::move(other.spans));
  }
};

struct SpanBandwidthView {
  std::string path;
  std::string coll = "all";
  std::string view = "auto";  // auto, collectives, events
  bool per_rank = false;
  std::uint32_t nranks = 0;
};

void write_span_bandwidth(const SpanBandwidthView& view,
                          const std::vector<CollectiveSizeRow>& collectives,
                          const std::vector<SpanBandwidthRow>& spans,
                          const Diagnostics& diagnostics, OutputFormat format, std::string& out);

void write_span_bandwidth_fields(JsonWriter& w, const SpanBandwidthView& view,
                                 const std::vector<CollectiveSizeRow>& collectives,
                                 const std::vector<SpanBandwidthRow>& spans);

}  // namespace npkit::cli
