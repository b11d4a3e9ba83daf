#include "analysis/join/occurrence_join.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace npkit {
namespace {

using SizeKey = std::pair<std::string, std::uint64_t>;  // name, size

// One rank's operations of one (name, size): per m, the time over its tracks; per track, how
// many spans of the size it holds.
struct RankSeries {
  std::vector<RankTimes> times;
  std::map<std::uint32_t, std::uint64_t> per_track;
  std::string track_kind;
};

std::string track_scope(const RankInstanceTimes& t) {
  return fmt::format("{} {} {}", t.name, t.track_kind, t.track);
}

std::string size_scope(const SizeKey& key) {
  return fmt::format("{} {} B", key.first, key.second);
}

// The number of operations of a rank's series, or nothing when its tracks disagree (a gap).
std::optional<std::uint64_t> rank_count(std::int32_t rank, const SizeKey& key, const RankSeries& s,
                                        std::vector<JoinGap>& gaps) {
  std::uint64_t lo = UINT64_MAX;
  std::uint64_t hi = 0;
  for (const auto& [track, n] : s.per_track) {
    lo = std::min(lo, n);
    hi = std::max(hi, n);
  }
  if (lo == hi) return hi;
  std::string detail = fmt::format("rank {}:", rank);
  for (const auto& [track, n] : s.per_track) {
    detail +=
        fmt::format("{} {} {} has {}", detail.back() == ':' ? "" : ",", s.track_kind, track, n);
  }
  gaps.push_back({size_scope(key), "track mismatch", detail});
  return std::nullopt;
}

}  // namespace

CrossRankInput join_by_occurrence(const std::vector<RankInstanceTimes>& times, std::string scope,
                                  std::string time_source) {
  CrossRankInput out;
  out.scope = std::move(scope);
  out.time_source = std::move(time_source);
  std::map<std::int32_t, std::string> hosts;
  bool every_host = !times.empty();
  std::map<std::string, std::set<std::int32_t>> name_ranks;
  std::map<SizeKey, std::map<std::int32_t, RankSeries>> series;
  for (const auto& t : times) {
    hosts.emplace(t.rank, t.host);
    every_host = every_host && !t.host.empty();
    name_ranks[t.name].insert(t.rank);
    if (!t.incomplete.empty()) {
      out.gaps.push_back(
          {track_scope(t), "dropped records", fmt::format("rank {}: {}", t.rank, t.incomplete)});
    }
    std::map<std::uint64_t, std::uint64_t> seen_of_size;
    for (const auto& s : t.spans) {
      RankSeries& rs = series[{t.name, s.size}][t.rank];
      rs.track_kind = t.track_kind;
      const std::uint64_t m = seen_of_size[s.size]++;
      ++rs.per_track[t.track];
      if (rs.times.size() <= m) rs.times.resize(m + 1, RankTimes{t.rank, INT64_MAX, INT64_MIN});
      rs.times[m].start_ns = std::min(rs.times[m].start_ns, s.start_ns);
      rs.times[m].end_ns = std::max(rs.times[m].end_ns, s.end_ns);
    }
  }
  out.hosts_known = every_host;
  for (const auto& [rank, host] : hosts) {
    RankInfo info;
    info.rank = rank;
    info.host = every_host ? host : "";
    out.ranks.push_back(info);
  }
  out.nranks = static_cast<std::int32_t>(out.ranks.size());

  for (const auto& [key, by_rank] : series) {
    const std::set<std::int32_t>& ranks = name_ranks[key.first];
    std::map<std::int32_t, std::uint64_t> counts;
    bool consistent = true;
    for (auto r : ranks) {
      const auto it = by_rank.find(r);
      if (it == by_rank.end()) {
        counts[r] = 0;
        continue;
      }
      const auto n = rank_count(r, key, it->second, out.gaps);
      consistent = consistent && n.has_value();
      counts[r] = n.value_or(it->second.times.size());
    }
    std::uint64_t lo = UINT64_MAX;
    std::uint64_t hi = 0;
    for (const auto& [r, n] : counts) {
      lo = std::min(lo, n);
      hi = std::max(hi, n);
    }
    if (lo != hi) {
      std::string detail;
      for (const auto& [r, n] : counts) {
        detail += fmt::format("{}rank {} has {}", detail.empty() ? "" : ", ", r, n);
      }
      out.gaps.push_back({size_scope(key), "count mismatch", detail});
      consistent = false;
    }
    if (!consistent) {
      out.gaps.push_back({size_scope(key), "not joined",
                          fmt::format("{} instance(s) left out: occurrence order cannot tell "
                                      "which are missing where",
                                      hi)});
      continue;
    }
    for (std::uint64_t m = 0; m < hi; ++m) {
      JoinedInstance inst;
      inst.collective = key.first;
      inst.bytes = key.second;
      inst.label = fmt::format("{} {} B #{}", key.first, key.second, m);
      for (const auto& [r, s] : by_rank) inst.ranks.push_back(s.times[m]);
      out.instances.push_back(std::move(inst));
    }
  }
  auto earliest = [](const JoinedInstance& i) {
    std::int64_t t = INT64_MAX;
    for (const auto& r : i.ranks) t = std::min(t, r.start_ns);
    return t;
  };
  std::stable_sort(
      out.instances.begin(), out.instances.end(),
      [&](const JoinedInstance& a, const JoinedInstance& b) { return earliest(a) < earliest(b); });
  return out;
}

}  // namespace npkit
