#include "analysis/join/run_cross_rank.hpp"

#include <algorithm>

namespace npkit {

CrossRankInput cross_rank_input(const RunCommunicator& comm,
                                const std::vector<RankInfo>& rank_phases) {
  CrossRankInput in;
  in.scope = comm.scope;
  in.time_source = comm.time_source;
  in.nranks = comm.nranks;
  in.hosts_known = comm.hosts_known();
  in.gaps = comm.gaps;
  for (const auto& r : comm.ranks) {
    RankInfo info;
    info.rank = r.rank;
    info.host = in.hosts_known ? r.host : "";
    info.clock_uncertainty_ns = r.clock_uncertainty_ns;
    in.ranks.push_back(std::move(info));
  }
  for (const auto& p : rank_phases) {
    auto it = std::find_if(in.ranks.begin(), in.ranks.end(),
                           [&](const RankInfo& r) { return r.rank == p.rank; });
    if (it == in.ranks.end()) {
      it = in.ranks.insert(in.ranks.end(), p);
      it->host = in.hosts_known ? p.host : "";
    }
    it->reference_ns = p.reference_ns;
    it->phases = p.phases;
    it->net = p.net;
  }
  std::sort(in.ranks.begin(), in.ranks.end(),
            [](const RankInfo& a, const RankInfo& b) { return a.rank < b.rank; });
  // Without start times the instances hold no arrival to compare: listed without rank times.
  const bool starts = comm.no_start_times.empty();
  if (!starts) in.gaps.push_back(JoinGap{comm.scope, "no start times", comm.no_start_times});
  for (const auto& inst : comm.instances) {
    if (inst.is_pair() || !inst.agree) continue;
    JoinedInstance j;
    j.collective = inst.func;
    j.label = inst.label;
    j.bytes = inst.bytes;
    for (const auto& m : inst.members) {
      if (m.timed && starts) j.ranks.push_back({m.rank, m.start_ns, m.end_ns});
    }
    in.instances.push_back(std::move(j));
  }
  return in;
}

}  // namespace npkit
