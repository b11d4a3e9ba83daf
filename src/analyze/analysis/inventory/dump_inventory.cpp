#include "analysis/inventory/dump_inventory.hpp"

#include <algorithm>

namespace npkit {

RankInventory& InventorySink::rank(std::uint32_t r) {
  if (ranks_.empty() || ranks_.back().rank != r) {
    auto it = std::find_if(ranks_.begin(), ranks_.end(),
                           [&](const RankInventory& x) { return x.rank == r; });
    if (it != ranks_.end()) return *it;
    ranks_.push_back(RankInventory{});
    ranks_.back().rank = r;
  }
  return ranks_.back();
}

void InventorySink::begin_track(const TrackFile& file, TimeDomain) {
  RankInventory& r = rank(file.track.rank);
  (file.track.kind == TrackKind::kGpu ? r.gpu_files : r.cpu_files) += 1;
}

void InventorySink::on_span(const Span& span) {
  RankInventory& r = rank(span.track.rank);
  r.max_depth = std::max<std::uint64_t>(r.max_depth, span.depth);
}

void InventorySink::on_unmatched(const UnmatchedEvent& e) {
  if (examples_.size() >= kMaxExamples) return;
  examples_.push_back(UnmatchedExample{
      e.track, (e.base < names_.size() ? names_[e.base] : std::string("?")), e.kind, e.record});
}

void InventorySink::end_track(const TrackFile& file, const TrackStats& s) {
  RankInventory& r = rank(file.track.rank);
  if (s.records > 0) ++r.nonempty_tracks;
  r.records += s.records;
  r.pairs += s.spans;
  r.sync_records += s.sync_records;
  r.unmatched_entries += s.unmatched_entries;
  r.unmatched_exits += s.unmatched_exits;
  r.unknown_ids += s.unknown_ids;
  r.dropped_records += s.partial_bytes > 0 ? 1 : 0;
  if (s.overflowed) {
    ++r.overflowed_buffers;
    if (r.overflowed_files.size() < 5) r.overflowed_files.push_back(file.path);
  }
  if (file.track.kind == TrackKind::kGpu && s.domain == TimeDomain::kGpuCounter && s.records > 0) {
    ++r.unaligned_gpu_tracks;
  }
  if (s.domain == TimeDomain::kHost && s.first_ns <= s.last_ns) {
    r.first_ns = std::min(r.first_ns, s.first_ns);
    r.last_ns = std::max(r.last_ns, s.last_ns);
  }
}

namespace {

void add(RankInventory& t, const RankInventory& r) {
  t.gpu_files += r.gpu_files;
  t.cpu_files += r.cpu_files;
  t.nonempty_tracks += r.nonempty_tracks;
  t.records += r.records;
  t.pairs += r.pairs;
  t.sync_records += r.sync_records;
  t.unmatched_entries += r.unmatched_entries;
  t.unmatched_exits += r.unmatched_exits;
  t.unknown_ids += r.unknown_ids;
  t.dropped_records += r.dropped_records;
  t.overflowed_buffers += r.overflowed_buffers;
  t.unaligned_gpu_tracks += r.unaligned_gpu_tracks;
  t.max_depth = std::max(t.max_depth, r.max_depth);
  t.first_ns = std::min(t.first_ns, r.first_ns);
  t.last_ns = std::max(t.last_ns, r.last_ns);
}

}  // namespace

void InventorySink::merge(const InventorySink& later) {
  for (const auto& r : later.ranks_) {
    RankInventory& mine = rank(r.rank);
    add(mine, r);
    for (const auto& f : r.overflowed_files) {
      if (mine.overflowed_files.size() < 5) mine.overflowed_files.push_back(f);
    }
  }
  for (const auto& e : later.examples_) {
    if (examples_.size() < kMaxExamples) examples_.push_back(e);
  }
}

RankInventory InventorySink::totals() const {
  RankInventory t;
  for (const auto& r : ranks_) add(t, r);
  return t;
}

}  // namespace npkit
