#include "analysis/bandwidth/collective_bandwidth.hpp"

#include <algorithm>

#include "run/nccl_tests_convention.hpp"
#include "util/saturating.hpp"

namespace npkit {

CollectiveBandwidthSink::CollectiveBandwidthSink(const PhaseAssignment& phases, std::string coll)
    : phases_(phases), coll_(std::move(coll)) {}

void CollectiveBandwidthSink::begin_track(const TrackFile&, TimeDomain domain) {
  track_counters_.clear();
  track_aligned_ = domain == TimeDomain::kHost;
}

void CollectiveBandwidthSink::on_span(const Span& span) {
  if (span.depth != 0 || span.track.kind != TrackKind::kGpu) return;
  if (span.base >= phases_.collective_of_base.size()) return;
  const std::int32_t c = phases_.collective_of_base[span.base];
  if (c == kNoCollective) return;
  const CollectiveKind& kind = phases_.collectives[c];
  if (kind.algo == "p2p" || !coll_selects(coll_, kind.func)) return;
  const std::uint64_t k = track_counters_[{c, span.entry_size}]++;
  auto& list = instances_[{c, span.entry_size, span.track.rank}];
  if (list.size() <= k) list.resize(k + 1);
  Instance& inst = list[k];
  inst.start = std::min(inst.start, span.start_ns);
  inst.end = std::max(inst.end, span.end_ns);
  inst.host_aligned = inst.host_aligned && track_aligned_;
}

void CollectiveBandwidthSink::merge(const CollectiveBandwidthSink& other) {
  for (const auto& [key, theirs] : other.instances_) {
    auto& mine = instances_[key];
    if (mine.size() < theirs.size()) mine.resize(theirs.size());
    for (std::size_t k = 0; k < theirs.size(); ++k) {
      mine[k].start = std::min(mine[k].start, theirs[k].start);
      mine[k].end = std::max(mine[k].end, theirs[k].end);
      mine[k].host_aligned = mine[k].host_aligned && theirs[k].host_aligned;
    }
  }
}

std::vector<CollectiveSizeRow> CollectiveBandwidthSink::summarise(std::uint32_t nranks) const {
  std::map<std::pair<std::int32_t, std::uint32_t>,
           std::vector<std::pair<std::uint32_t, const std::vector<Instance>*>>>
      groups;
  for (const auto& [key, list] : instances_) {
    const auto& [c, size, rank] = key;
    groups[{c, size}].emplace_back(rank, &list);
  }
  std::vector<CollectiveSizeRow> rows;
  for (const auto& [key, per_rank] : groups) {
    const auto& [c, size] = key;
    CollectiveSizeRow row;
    row.func = phases_.collectives[c].func;
    row.algo = phases_.collectives[c].algo;
    row.size_field = size;
    row.ranks = static_cast<std::uint32_t>(per_rank.size());
    std::vector<double> all_times;
    bool aligned = true;
    for (const auto& [rank, list] : per_rank) {
      std::vector<double> times;
      for (const auto& inst : *list) {
        if (inst.end < inst.start) continue;  // an instance index with no span on this rank
        times.push_back(static_cast<double>(sat_sub(inst.end, inst.start)));
        aligned = aligned && inst.host_aligned;
      }
      row.instances = std::max<std::uint64_t>(row.instances, list->size());
      all_times.insert(all_times.end(), times.begin(), times.end());
      row.per_rank.push_back({rank, summarize(times)});
    }
    row.rank_time_ns = summarize(all_times);
    if (aligned && per_rank.size() > 1) {
      std::vector<double> cross;
      for (std::uint64_t k = 0; k < row.instances; ++k) {
        std::int64_t start = INT64_MAX;
        std::int64_t end = INT64_MIN;
        bool complete = true;
        for (const auto& [rank, list] : per_rank) {
          if (k >= list->size() || (*list)[k].end < (*list)[k].start) {
            complete = false;
            break;
          }
          start = std::min(start, (*list)[k].start);
          end = std::max(end, (*list)[k].end);
        }
        if (complete) cross.push_back(static_cast<double>(sat_sub(end, start)));
      }
      if (!cross.empty()) row.cross_rank_time_ns = summarize(cross);
    }
    if (const auto conv = nccl_tests_convention(row.func, nranks)) {
      row.algbw_bytes = algbw_bytes(*conv, size, nranks);
      row.algbw_gbps = gb_per_s(row.algbw_bytes, row.rank_time_ns.p50);
      row.busbw_gbps = row.algbw_gbps * conv->factor;
    }
    rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end(), [](const CollectiveSizeRow& a, const CollectiveSizeRow& b) {
    return std::tie(a.func, a.algo, a.size_field) < std::tie(b.func, b.algo, b.size_field);
  });
  return rows;
}

}  // namespace npkit
