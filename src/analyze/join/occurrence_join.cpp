#include "join/occurrence_join.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace npkit {
namespace {

using TrackKey = std::pair<std::string, std::uint32_t>;                     // name, track
using InstanceKey = std::tuple<std::string, std::uint64_t, std::uint64_t>;  // name, size, m

std::string track_scope(const RankInstanceTimes& t) {
  return fmt::format("{} {} {}", t.name, t.track_kind, t.track);
}

// The joinable prefix of one (name, track): the first index where a rank of the name lacks a
// span or the ranks' sizes differ. Adds the track's gaps.
std::size_t joinable_prefix(const std::vector<const RankInstanceTimes*>& per_rank,
                            const std::set<std::int32_t>& name_ranks, const std::string& scope,
                            std::vector<JoinGap>& gaps) {
  std::size_t shortest = per_rank.size() < name_ranks.size() ? 0 : SIZE_MAX;
  std::size_t longest = 0;
  for (const auto* t : per_rank) {
    shortest = std::min(shortest, t->spans.size());
    longest = std::max(longest, t->spans.size());
  }
  if (shortest != longest) {
    std::string detail;
    for (auto r : name_ranks) {
      std::size_t n = 0;
      for (const auto* t : per_rank) {
        if (t->rank == r) n = t->spans.size();
      }
      detail += fmt::format("{}rank {} has {}", detail.empty() ? "" : ", ", r, n);
    }
    gaps.push_back({scope, "count mismatch", detail});
  }
  for (std::size_t k = 0; k < shortest; ++k) {
    const std::uint64_t size = per_rank.front()->spans[k].size;
    const bool agree = std::all_of(per_rank.begin(), per_rank.end(),
                                   [&](const auto* t) { return t->spans[k].size == size; });
    if (agree) continue;
    std::string sizes;
    for (const auto* t : per_rank) {
      sizes += fmt::format("{}rank {} {} B", sizes.empty() ? "" : ", ", t->rank, t->spans[k].size);
    }
    gaps.push_back(
        {scope, "size mismatch",
         fmt::format("occurrence {} differs ({}); later occurrences not joined", k, sizes)});
    return k;
  }
  return shortest;
}

struct PartialInstance {
  std::map<std::int32_t, RankTimes> ranks;
  bool excluded = false;
};

}  // namespace

CrossRankInput join_by_occurrence(const std::vector<RankInstanceTimes>& times, std::string scope,
                                  std::string time_source) {
  CrossRankInput out;
  out.scope = std::move(scope);
  out.time_source = std::move(time_source);
  std::map<std::int32_t, std::string> hosts;
  bool every_host = !times.empty();
  std::map<TrackKey, std::vector<const RankInstanceTimes*>> tracks;
  std::map<std::string, std::set<std::int32_t>> name_ranks;
  for (const auto& t : times) {
    hosts.emplace(t.rank, t.host);
    every_host = every_host && !t.host.empty();
    tracks[{t.name, t.track}].push_back(&t);
    if (!t.spans.empty()) name_ranks[t.name].insert(t.rank);
    if (!t.incomplete.empty()) {
      out.gaps.push_back(
          {track_scope(t), "dropped records", fmt::format("rank {}: {}", t.rank, t.incomplete)});
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

  std::map<InstanceKey, PartialInstance> instances;
  for (auto& [key, per_rank] : tracks) {
    std::sort(per_rank.begin(), per_rank.end(),
              [](const auto* a, const auto* b) { return a->rank < b->rank; });
    const std::set<std::int32_t>& ranks = name_ranks[key.first];
    if (ranks.empty()) continue;
    const std::size_t prefix =
        joinable_prefix(per_rank, ranks, track_scope(*per_rank.front()), out.gaps);
    for (const auto* t : per_rank) {
      std::map<std::uint64_t, std::uint64_t> seen_of_size;
      for (std::size_t j = 0; j < t->spans.size(); ++j) {
        const OccurrenceSpan& s = t->spans[j];
        PartialInstance& inst = instances[{t->name, s.size, seen_of_size[s.size]++}];
        if (j >= prefix) {
          inst.excluded = true;
          continue;
        }
        auto [it, inserted] =
            inst.ranks.try_emplace(t->rank, RankTimes{t->rank, s.start_ns, s.end_ns});
        if (!inserted) {
          it->second.start_ns = std::min(it->second.start_ns, s.start_ns);
          it->second.end_ns = std::max(it->second.end_ns, s.end_ns);
        }
      }
    }
  }
  std::map<std::string, std::uint64_t> not_joined;
  for (auto& [key, partial] : instances) {
    const auto& [name, size, m] = key;
    if (partial.excluded || partial.ranks.size() != name_ranks[name].size()) {
      ++not_joined[name];
      continue;
    }
    JoinedInstance inst;
    inst.collective = name;
    inst.bytes = size;
    inst.label = fmt::format("{} {} B #{}", name, size, m);
    for (const auto& [rank, t] : partial.ranks) inst.ranks.push_back(t);
    out.instances.push_back(std::move(inst));
  }
  for (const auto& [name, n] : not_joined) {
    out.gaps.push_back({name, "not joined",
                        fmt::format("{} instance(s) left out: some of their spans lie beyond a "
                                    "track where the ranks disagree",
                                    n)});
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
