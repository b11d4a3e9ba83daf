#include "import/spans/occurrence_join.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit {
namespace {

using SizeKey = std::pair<std::string, std::uint64_t>;  // name, size

// One rank's operations of one (name, size): per m, its member (times over its tracks); per
// track, how many spans of the size it holds.
struct RankSeries {
  std::vector<RunMember> members;
  std::map<std::uint32_t, std::uint64_t> per_track;
  std::string track_kind;
};

struct Collective {
  std::string func;  // NCCL's name, or the rule's word
  std::string algo;
  bool times_ranks = false;  // S = size field × nranks
};

std::string track_scope(const RankInstanceTimes& t) {
  return fmt::format("{} {} {}", t.name, t.track_kind, t.track);
}

std::string size_scope(const SizeKey& key) {
  return fmt::format("{} {} B", key.first, key.second);
}

Collective collective_of(const RankInstanceTimes& t, std::int32_t nranks) {
  Collective c;
  const NcclFunc func = nccl_func_of_key(t.func);
  c.func = func == NcclFunc::kOther ? t.func : std::string(nccl_func_name(func));
  c.algo = t.algo;
  for (char& ch : c.algo) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  const auto conv = nccl_tests_convention(t.func, static_cast<std::uint32_t>(std::max(nranks, 1)));
  c.times_ranks = conv && conv->bytes_times_ranks;
  return c;
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

// Each member's position among its rank's members, in start order.
void assign_order(std::vector<RunInstance>& instances) {
  std::map<std::int32_t, std::vector<RunMember*>> by_rank;
  for (auto& inst : instances) {
    for (auto& m : inst.members) by_rank[m.rank].push_back(&m);
  }
  for (auto& [rank, members] : by_rank) {
    std::stable_sort(members.begin(), members.end(), [](const RunMember* a, const RunMember* b) {
      return a->start_ns < b->start_ns;
    });
    for (std::size_t i = 0; i < members.size(); ++i) {
      members[i]->order = static_cast<std::uint32_t>(i);
    }
  }
}

}  // namespace

RunCommunicator join_by_occurrence(const std::vector<RankInstanceTimes>& times, std::string scope,
                                   std::string time_source, std::int32_t nranks,
                                   const std::vector<std::int32_t>& ranks) {
  RunCommunicator out;
  out.scope = std::move(scope);
  out.time_source = std::move(time_source);
  out.nranks = nranks;
  std::map<std::int32_t, std::string> hosts;
  for (auto r : ranks) hosts.emplace(r, "");
  bool every_host = !times.empty();
  std::map<std::string, std::set<std::int32_t>> name_ranks;
  std::map<std::string, Collective> collectives;
  std::map<SizeKey, std::map<std::int32_t, RankSeries>> series;
  for (const auto& t : times) {
    hosts[t.rank] = t.host;
    every_host = every_host && !t.host.empty();
    name_ranks[t.name].insert(t.rank);
    collectives.emplace(t.name, collective_of(t, nranks));
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
      if (rs.members.size() <= m) {
        RunMember fresh;
        fresh.rank = t.rank;
        fresh.timed = true;
        fresh.start_ns = INT64_MAX;
        fresh.end_ns = INT64_MIN;
        rs.members.resize(m + 1, fresh);
      }
      RunMember& member = rs.members[m];
      member.start_ns = std::min(member.start_ns, s.start_ns);
      member.end_ns = std::max(member.end_ns, s.end_ns);
      ++member.channels;
    }
  }
  for (const auto& [rank, host] : hosts) {
    out.ranks.push_back(RunRank{rank, every_host ? host : "", "", std::nullopt});
  }
  for (std::int32_t r = 0; r < nranks; ++r) {
    if (!hosts.contains(r)) out.absent_ranks.push_back(r);
  }

  for (const auto& [key, by_rank] : series) {
    const std::set<std::int32_t>& name_of_ranks = name_ranks[key.first];
    std::map<std::int32_t, std::uint64_t> counts;
    bool consistent = true;
    for (auto r : name_of_ranks) {
      const auto it = by_rank.find(r);
      if (it == by_rank.end()) {
        counts[r] = 0;
        continue;
      }
      const auto n = rank_count(r, key, it->second, out.gaps);
      consistent = consistent && n.has_value();
      counts[r] = n.value_or(it->second.members.size());
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
    const Collective& c = collectives.at(key.first);
    for (std::uint64_t m = 0; m < hi; ++m) {
      RunInstance inst;
      inst.func = c.func;
      inst.algo = c.algo;
      inst.seq = m;
      inst.bytes =
          c.times_ranks ? key.second * static_cast<std::uint64_t>(std::max(nranks, 1)) : key.second;
      inst.label = fmt::format("{} {} B #{}", key.first, key.second, m);
      for (const auto& [r, s] : by_rank) inst.members.push_back(s.members[m]);
      out.instances.push_back(std::move(inst));
    }
  }
  auto earliest = [](const RunInstance& i) {
    std::int64_t t = INT64_MAX;
    for (const auto& m : i.members) t = std::min(t, m.start_ns);
    return t;
  };
  std::stable_sort(
      out.instances.begin(), out.instances.end(),
      [&](const RunInstance& a, const RunInstance& b) { return earliest(a) < earliest(b); });
  assign_order(out.instances);
  return out;
}

}  // namespace npkit
