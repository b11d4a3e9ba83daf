#include "run/summary/run_summary.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "run/measures.hpp"
#include "run/summary/saturating_count.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

// Merges `theirs` into the sorted vector `mine`: equal keys combine with `combine`, new ones
// are inserted in order.
template <typename T, typename KeyOf, typename Combine>
void merge_sorted(std::vector<T>& mine, const std::vector<T>& theirs, KeyOf key_of,
                  Combine combine) {
  for (const T& t : theirs) {
    auto it = std::lower_bound(mine.begin(), mine.end(), t,
                               [&](const T& a, const T& b) { return key_of(a) < key_of(b); });
    if (it != mine.end() && key_of(*it) == key_of(t)) {
      combine(*it, t);
    } else {
      mine.insert(it, t);
    }
  }
}

template <typename Map>
void unite_sets(Map& into, const Map& from) {
  for (const auto& [k, values] : from) into[k].insert(values.begin(), values.end());
}

void merge_collectives(std::vector<CollectiveRow>& into, const std::vector<CollectiveRow>& other) {
  merge_sorted(
      into, other, [](const CollectiveRow& r) { return r.key; },
      [](CollectiveRow& a, const CollectiveRow& b) {
        a.instances = sat_add_count(a.instances, b.instances);
        a.untimed_instances = sat_add_count(a.untimed_instances, b.untimed_instances);
        a.stale_instances = sat_add_count(a.stale_instances, b.stale_instances);
        a.flagged_instances = sat_add_count(a.flagged_instances, b.flagged_instances);
        a.host_disagree_instances =
            sat_add_count(a.host_disagree_instances, b.host_disagree_instances);
        a.short_instances = sat_add_count(a.short_instances, b.short_instances);
        a.not_sampled_instances = sat_add_count(a.not_sampled_instances, b.not_sampled_instances);
        a.incomplete_instances = sat_add_count(a.incomplete_instances, b.incomplete_instances);
        a.bytes_sum = sat_add_count(a.bytes_sum, b.bytes_sum);
        merge_sorted(
            a.ranks, b.ranks, [](const RankDurations& r) { return r.rank; },
            [](RankDurations& x, const RankDurations& y) { x.time_ns.merge(y.time_ns); });
      });
}

}  // namespace

DurationSample CollectiveRow::pooled() const {
  DurationSample all;
  for (const auto& r : ranks) all.merge(r.time_ns);
  return all;
}

double CollectiveRow::time_ns() const {
  return mean_rank_median_ns(ranks);
}

double mean_rank_median_ns(const std::vector<RankDurations>& ranks) {
  std::vector<double> medians;
  for (const auto& r : ranks) {
    if (!r.time_ns.empty()) medians.push_back(r.time_ns.median());
  }
  return mean_of_rank_medians(medians);
}

DurationSample& CollectiveRow::rank_sample(std::int32_t rank) {
  auto it = std::lower_bound(ranks.begin(), ranks.end(), rank,
                             [](const RankDurations& r, std::int32_t x) { return r.rank < x; });
  if (it == ranks.end() || it->rank != rank) it = ranks.insert(it, RankDurations{rank, {}});
  return it->time_ns;
}

double CollectiveRow::mean_bytes() const {
  return instances == 0 ? 0.0 : static_cast<double>(bytes_sum) / static_cast<double>(instances);
}

double RankPhase::share() const {
  return reference_ns > 0 ? static_cast<double>(ns) / static_cast<double>(reference_ns) : 0.0;
}

void merge_into(RunSummary& into, const RunSummary& other) {
  into.inputs.insert(into.inputs.end(), other.inputs.begin(), other.inputs.end());
  into.warnings = sat_add_count(into.warnings, other.warnings);

  RunConfig& c = into.config;
  const RunConfig& o = other.config;
  c.formats.insert(o.formats.begin(), o.formats.end());
  c.nccl_versions.insert(o.nccl_versions.begin(), o.nccl_versions.end());
  c.gpus.insert(o.gpus.begin(), o.gpus.end());
  c.hosts.insert(o.hosts.begin(), o.hosts.end());
  unite_sets(c.env, o.env);
  c.env_files.insert(o.env_files.begin(), o.env_files.end());
  unite_sets(c.capture, o.capture);
  for (const auto& [hash, comm] : o.communicators) {
    CommunicatorRanks& mine = c.communicators[hash];
    mine.nranks = std::max(mine.nranks, comm.nranks);
    mine.ranks.insert(comm.ranks.begin(), comm.ranks.end());
  }
  c.files = sat_add_count(c.files, o.files);

  merge_collectives(into.collectives, other.collectives);
  merge_sorted(
      into.phases, other.phases, [](const PhaseRow& r) { return r.key; },
      [](PhaseRow& a, const PhaseRow& b) {
        merge_sorted(
            a.ranks, b.ranks, [](const RankPhase& r) { return r.rank; },
            [](RankPhase& x, const RankPhase& y) {
              x.ns = sat_add(x.ns, y.ns);
              x.reference_ns = sat_add(x.reference_ns, y.reference_ns);
              x.count = sat_add_count(x.count, y.count);
              x.span_ns.merge(y.span_ns);
            });
      });
  merge_sorted(
      into.sync, other.sync, [](const SyncRank& r) { return std::pair(r.nranks, r.rank); },
      [](SyncRank& a, const SyncRank& b) {
        a.instances = sat_add_count(a.instances, b.instances);
        a.arrived_last = sat_add_count(a.arrived_last, b.arrived_last);
        a.skew_ns.merge(b.skew_ns);
      });
}

bool has_tags(const std::vector<CollectiveRow>& rows) {
  return std::any_of(rows.begin(), rows.end(),
                     [](const CollectiveRow& r) { return r.key.tag != 0; });
}

std::vector<CollectiveRow> untagged(std::vector<CollectiveRow> rows) {
  for (auto& r : rows) r.key.tag = 0;
  std::vector<CollectiveRow> out;
  merge_collectives(out, rows);
  return out;
}

const char* size_kind_name(SizeKind kind) {
  return kind == SizeKind::kExact ? "exact" : "pow2";
}

std::string size_label(std::uint64_t size_bytes, SizeKind kind) {
  if (kind == SizeKind::kExact || size_bytes == 0) return std::to_string(size_bytes);
  return std::to_string(size_bytes) + "-" + std::to_string(size_bytes * 2 - 1);
}

double row_algbw_gbps(const CollectiveKey& key, double mean_bytes, double ns) {
  return bus_factor(key.collective, key.nranks) ? algbw_gbps(mean_bytes, ns) : 0.0;
}

double row_busbw_gbps(const CollectiveKey& key, double mean_bytes, double ns) {
  return busbw_gbps(key.collective, key.nranks, mean_bytes, ns);
}

}  // namespace npkit
