#include "analysis/sync/instance_sync.hpp"

#include <algorithm>
#include <map>

#include "run/measures.hpp"
#include "util/quantiles.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return sorted_quantile(v, 0.5);
}

struct RankAccumulator {
  std::vector<double> skews;
  std::vector<double> margins;
  std::uint64_t last = 0;
  std::int64_t wait = 0;
  std::int64_t busy = 0;
};

struct CollectiveAccumulator {
  std::vector<double> spreads;
  std::vector<double> true_durations;
  std::int64_t wait = 0;
};

}  // namespace

SyncAnalysis analyze_sync(const CrossRankInput& input, const HostAlignment& alignment) {
  SyncAnalysis out;
  std::map<std::int32_t, RankAccumulator> ranks;
  std::map<std::string, CollectiveAccumulator> colls;
  for (std::size_t i = 0; i < input.instances.size(); ++i) {
    const JoinedInstance& inst = input.instances[i];
    if (inst.ranks.size() < 2) continue;
    std::vector<RankTimes> t = inst.ranks;
    for (auto& r : t) {
      r.start_ns = alignment.aligned(r.rank, r.start_ns);
      r.end_ns = alignment.aligned(r.rank, r.end_ns);
    }
    InstanceSync s;
    s.instance = i;
    s.first_arrival_ns = INT64_MAX;
    s.last_arrival_ns = INT64_MIN;
    s.last_completion_ns = INT64_MIN;
    for (const auto& r : t) {
      s.first_arrival_ns = std::min(s.first_arrival_ns, r.start_ns);
      s.last_arrival_ns = std::max(s.last_arrival_ns, r.start_ns);
      s.last_completion_ns = std::max(s.last_completion_ns, r.end_ns);
    }
    s.spread_ns = sat_sub(s.last_arrival_ns, s.first_arrival_ns);
    s.true_duration_ns = true_time_ns(s.last_arrival_ns, s.last_completion_ns);
    if (s.true_duration_ns < 0) ++out.violations;
    std::int64_t latest_other = INT64_MIN;  // latest arrival among ranks not arriving last
    std::size_t last_count = 0;
    bool last_found = false;
    for (const auto& r : t) {
      if (r.start_ns == s.last_arrival_ns) {
        ++last_count;
        if (!last_found) s.last_rank = r.rank;
        last_found = true;
      } else {
        latest_other = std::max(latest_other, r.start_ns);
      }
    }
    s.margin_ns = last_count > 1 ? 0 : sat_sub(s.last_arrival_ns, latest_other);
    for (const auto& r : t) {
      RankAccumulator& a = ranks[r.rank];
      const std::int64_t skew = arrival_skew_ns(s.last_arrival_ns, r.start_ns);
      const std::int64_t duration = std::max<std::int64_t>(0, sat_sub(r.end_ns, r.start_ns));
      const std::int64_t wait = std::min(skew, duration);
      a.skews.push_back(static_cast<double>(skew));
      a.wait = sat_add(a.wait, wait);
      a.busy = sat_add(a.busy, duration);
      s.wait_ns = sat_add(s.wait_ns, wait);
      if (r.start_ns == s.last_arrival_ns) {
        ++a.last;
        a.margins.push_back(static_cast<double>(s.margin_ns));
      }
    }
    CollectiveAccumulator& c = colls[inst.collective];
    c.spreads.push_back(static_cast<double>(s.spread_ns));
    c.true_durations.push_back(static_cast<double>(s.true_duration_ns));
    c.wait = sat_add(c.wait, s.wait_ns);
    out.instances.push_back(s);
  }
  for (auto& [rank, a] : ranks) {
    RankSync r;
    r.rank = rank;
    r.instances = a.skews.size();
    r.arrived_last = a.last;
    r.arrived_last_share = static_cast<double>(a.last) / static_cast<double>(r.instances);
    r.skew_median_ns = median_of(a.skews);
    r.skew_max_ns = static_cast<std::int64_t>(*std::max_element(a.skews.begin(), a.skews.end()));
    r.wait_ns = a.wait;
    r.busy_ns = a.busy;
    r.wait_share = a.busy > 0 ? static_cast<double>(a.wait) / static_cast<double>(a.busy) : 0.0;
    if (!a.margins.empty()) {
      r.margin_median_ns = median_of(a.margins);
      r.margin_max_ns =
          static_cast<std::int64_t>(*std::max_element(a.margins.begin(), a.margins.end()));
    }
    out.ranks.push_back(r);
  }
  for (auto& [name, c] : colls) {
    CollectiveSync s;
    s.collective = name;
    s.instances = c.spreads.size();
    s.spread_median_ns = median_of(c.spreads);
    s.spread_max_ns =
        static_cast<std::int64_t>(*std::max_element(c.spreads.begin(), c.spreads.end()));
    s.true_duration_median_ns = median_of(c.true_durations);
    s.wait_ns = c.wait;
    out.collectives.push_back(s);
  }
  std::vector<RankSync> order = out.ranks;
  std::stable_sort(order.begin(), order.end(), [](const RankSync& a, const RankSync& b) {
    if (a.arrived_last != b.arrived_last) return a.arrived_last > b.arrived_last;
    return a.margin_median_ns > b.margin_median_ns;
  });
  for (const auto& r : order) out.straggler_order.push_back(r.rank);
  return out;
}

}  // namespace npkit
