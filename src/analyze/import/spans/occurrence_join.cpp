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

struct Collective {
  std::string func;  // NCCL's name, or the rule's word
  std::string algo;
  bool times_ranks = false;  // S = size field × nranks
};

std::string size_scope(const SizeKey& key) {
  return fmt::format("{} {} B", key.first, key.second);
}

Collective collective_of(const std::string& func, const std::string& algo, std::int32_t nranks) {
  Collective c;
  const NcclFunc f = nccl_func_of_key(func);
  c.func = f == NcclFunc::kOther ? func : std::string(nccl_func_name(f));
  c.algo = algo;
  for (char& ch : c.algo) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  const auto conv = nccl_tests_convention(func, static_cast<std::uint32_t>(std::max(nranks, 1)));
  c.times_ranks = conv && conv->bytes_times_ranks;
  return c;
}

// The number of operations of a rank's series, or nothing when its tracks disagree (a gap).
std::optional<std::uint64_t> rank_count(std::int32_t rank, const SizeKey& key,
                                        const std::map<std::uint32_t, std::uint64_t>& per_track,
                                        const std::string& track_kind, std::vector<JoinGap>& gaps) {
  std::uint64_t lo = UINT64_MAX;
  std::uint64_t hi = 0;
  for (const auto& [track, n] : per_track) {
    lo = std::min(lo, n);
    hi = std::max(hi, n);
  }
  if (lo == hi) return hi;
  std::string detail = fmt::format("rank {}:", rank);
  for (const auto& [track, n] : per_track) {
    detail += fmt::format("{} {} {} has {}", detail.back() == ':' ? "" : ",", track_kind, track, n);
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

void OccurrenceTable::define(std::uint16_t name, std::string event, std::string func,
                             std::string algo) {
  names_[name] = Name{std::move(event), std::move(func), std::move(algo)};
}

void OccurrenceTable::touch(std::int32_t rank, std::uint32_t track, std::uint16_t name) {
  const TrackKey key{rank, track, name};
  if (last_seen_ == nullptr || key != last_key_) {
    last_seen_ = &seen_[key];
    last_key_ = key;
  }
}

void OccurrenceTable::add(std::int32_t rank, std::uint32_t track, std::uint16_t name,
                          std::uint64_t size, std::int64_t start_ns, std::int64_t end_ns) {
  touch(rank, track, name);
  const std::uint64_t m = (*last_seen_)[size]++;
  const SeriesKey series_key{name, size, rank};
  if (last_series_ == nullptr || series_key != last_series_key_) {
    last_series_ = &series_[series_key];
    last_series_key_ = series_key;
  }
  Series& series = *last_series_;
  if (series.members.size() <= m) series.members.resize(m + 1);
  Member& member = series.members[m];
  member.start_ns = std::min(member.start_ns, start_ns);
  member.end_ns = std::max(member.end_ns, end_ns);
  ++member.channels;
}

void OccurrenceTable::note_incomplete(std::int32_t rank, std::uint32_t track,
                                      const std::string& why) {
  std::string& note = incomplete_[{rank, track}];
  note += (note.empty() ? "" : "; ") + why;
}

void OccurrenceTable::merge(OccurrenceTable&& other) {
  names_.merge(other.names_);
  for (auto& [key, theirs] : other.series_) {
    Series& mine = series_[key];
    if (mine.members.size() < theirs.members.size()) mine.members.resize(theirs.members.size());
    for (std::size_t m = 0; m < theirs.members.size(); ++m) {
      mine.members[m].start_ns = std::min(mine.members[m].start_ns, theirs.members[m].start_ns);
      mine.members[m].end_ns = std::max(mine.members[m].end_ns, theirs.members[m].end_ns);
      mine.members[m].channels += theirs.members[m].channels;
    }
  }
  for (auto& [key, sizes] : other.seen_) {
    auto& mine = seen_[key];
    for (const auto& [size, n] : sizes) mine[size] += n;
  }
  for (const auto& [key, note] : other.incomplete_) note_incomplete(key.first, key.second, note);
}

RunCommunicator OccurrenceTable::join(std::string scope, std::string time_source,
                                      std::int32_t nranks, const std::vector<std::int32_t>& ranks,
                                      const std::map<std::int32_t, std::string>& hosts) const {
  RunCommunicator out;
  out.from_spans = true;
  out.scope = std::move(scope);
  out.time_source = std::move(time_source);
  out.nranks = nranks;
  std::map<std::int32_t, std::string> rank_hosts;
  for (auto r : ranks) rank_hosts.emplace(r, "");
  std::map<std::string, std::set<std::int32_t>> name_ranks;
  for (const auto& [key, sizes] : seen_) {
    const auto& [rank, track, name] = key;
    const Name& n = names_.at(name);
    rank_hosts.emplace(rank, "");
    name_ranks[n.event].insert(rank);
    const auto note = incomplete_.find({rank, track});
    if (note != incomplete_.end()) {
      out.gaps.push_back({fmt::format("{} {} {}", n.event, track_kind_, track), "dropped records",
                          fmt::format("rank {}: {}", rank, note->second)});
    }
  }
  bool every_host = !seen_.empty();
  for (const auto& [key, sizes] : seen_) {
    const auto it = hosts.find(std::get<0>(key));
    every_host = every_host && it != hosts.end() && !it->second.empty();
  }
  for (auto& [rank, host] : rank_hosts) {
    const auto it = hosts.find(rank);
    if (it != hosts.end()) host = it->second;
  }
  for (const auto& [rank, host] : rank_hosts) {
    RunRank& r = out.ranks.emplace_back();
    r.rank = rank;
    if (every_host) r.host = host;
  }
  for (std::int32_t r = 0; r < nranks; ++r) {
    if (!rank_hosts.contains(r)) out.absent_ranks.push_back(r);
  }

  // Per (name, size, rank): the spans of the size on each track.
  std::map<std::tuple<std::string, std::uint64_t, std::int32_t>,
           std::map<std::uint32_t, std::uint64_t>>
      per_track;
  for (const auto& [key, sizes] : seen_) {
    const auto& [rank, track, name] = key;
    for (const auto& [size, n] : sizes) per_track[{names_.at(name).event, size, rank}][track] = n;
  }
  // Per (name, size): each rank's series.
  std::map<SizeKey, std::map<std::int32_t, const Series*>> by_size;
  std::map<std::string, Collective> collectives;
  for (const auto& [key, series] : series_) {
    const auto& [name, size, rank] = key;
    const Name& n = names_.at(name);
    by_size[{n.event, size}][rank] = &series;
    collectives.emplace(n.event, collective_of(n.func, n.algo, nranks));
  }
  for (const auto& [key, by_rank] : by_size) {
    const std::set<std::int32_t>& name_of_ranks = name_ranks[key.first];
    std::map<std::int32_t, std::uint64_t> counts;
    bool consistent = true;
    for (auto r : name_of_ranks) {
      const auto it = by_rank.find(r);
      if (it == by_rank.end()) {
        counts[r] = 0;
        continue;
      }
      const auto n =
          rank_count(r, key, per_track[{key.first, key.second, r}], track_kind_, out.gaps);
      consistent = consistent && n.has_value();
      counts[r] = n.value_or(it->second->members.size());
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
      for (const auto& [r, s] : by_rank) {
        const Member& x = s->members[m];
        RunMember member;
        member.rank = r;
        member.timed = true;
        member.start_ns = x.start_ns;
        member.end_ns = x.end_ns;
        member.channels = x.channels;
        inst.members.push_back(member);
      }
      out.instances.push_back(std::move(inst));
    }
  }
  out.order_instances_by_start();
  assign_order(out.instances);
  return out;
}

RunCommunicator join_by_occurrence(const std::vector<RankInstanceTimes>& times, std::string scope,
                                   std::string time_source, std::int32_t nranks,
                                   const std::vector<std::int32_t>& ranks) {
  OccurrenceTable table;
  std::map<std::string, std::uint16_t> ids;
  std::map<std::int32_t, std::string> hosts;
  for (const auto& t : times) {
    const auto [it, fresh] = ids.emplace(t.name, static_cast<std::uint16_t>(ids.size()));
    if (fresh) table.define(it->second, t.name, t.func, t.algo);
    table.set_track_kind(t.track_kind);
    hosts[t.rank] = t.host;
    table.touch(t.rank, t.track, it->second);
    for (const auto& s : t.spans)
      table.add(t.rank, t.track, it->second, s.size, s.start_ns, s.end_ns);
    if (!t.incomplete.empty()) table.note_incomplete(t.rank, t.track, t.incomplete);
  }
  return table.join(std::move(scope), std::move(time_source), nranks, ranks, hosts);
}

}  // namespace npkit
