// dump_inventory.hpp — what a dump holds, per rank: tracks, records, pairs, unmatched events,
// overflowed buffers, time span and clock domain (the data behind `npkit-analyze info`).
// Contract: InventorySink is fed by any input's span stream (RunInput::read); memory is per rank
// plus a bounded list of unmatched-event examples, independent of the input's size. "files" are
// the tracks begun (a legacy dump's buffer and channel files, a trace's or a recorder's streams).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "run/span_sink.hpp"

namespace npkit {

struct UnmatchedExample {
  TrackRef track;
  std::string name;
  EventKind kind = EventKind::kEntry;
  std::uint64_t record = 0;
};

struct RankInventory {
  std::uint32_t rank = 0;
  std::uint64_t gpu_files = 0;
  std::uint64_t cpu_files = 0;
  std::uint64_t nonempty_tracks = 0;
  std::uint64_t records = 0;
  std::uint64_t pairs = 0;
  std::uint64_t sync_records = 0;
  std::uint64_t unmatched_entries = 0;
  std::uint64_t unmatched_exits = 0;
  std::uint64_t unknown_ids = 0;
  std::uint64_t dropped_records = 0;  // partial trailing records
  std::uint64_t overflowed_buffers = 0;
  std::uint64_t unaligned_gpu_tracks = 0;  // GPU buffers without TIME_SYNC
  std::uint64_t max_depth = 0;
  std::int64_t first_ns = std::numeric_limits<std::int64_t>::max();  // host domain
  std::int64_t last_ns = std::numeric_limits<std::int64_t>::min();
  std::vector<std::string> overflowed_files;  // first few
};

class InventorySink : public SpanSink {
 public:
  static constexpr std::size_t kMaxExamples = 10;

  // `base_names`: the span names by Span::base (RunInput::span_names()).
  explicit InventorySink(const std::vector<std::string>& base_names) : names_(base_names) {}

  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  void on_unmatched(const UnmatchedEvent& event) override;
  void end_track(const TrackFile& file, const TrackStats& stats) override;

  const std::vector<RankInventory>& ranks() const { return ranks_; }
  const std::vector<UnmatchedExample>& unmatched_examples() const { return examples_; }
  RankInventory totals() const;
  // Adds what `later` saw; `later` read tracks that come after this sink's (examples keep order).
  void merge(const InventorySink& later);

 private:
  RankInventory& rank(std::uint32_t r);

  const std::vector<std::string>& names_;
  std::vector<RankInventory> ranks_;
  std::vector<UnmatchedExample> examples_;
};

}  // namespace npkit
