#include "run/time_quality.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include "util/saturating.hpp"

namespace npkit {
namespace {

bool host_disagrees(const RunCommunicator& comm, const RunInstance& inst) {
  if (inst.is_pair() || !comm.no_start_times.empty()) return false;
  const bool known = comm.hosts_known();
  std::map<std::int32_t, std::string> host;
  for (const auto& r : comm.ranks) host[r.rank] = known ? r.host : std::string();
  // Per host: the earliest completion and the latest arrival of its timed members.
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> times;
  for (const auto& m : inst.members) {
    const auto h = host.find(m.rank);
    if (!m.timed || h == host.end()) continue;
    auto [it, inserted] = times.try_emplace(h->second, m.end_ns, m.start_ns);
    if (!inserted) {
      it->second.first = std::min(it->second.first, m.end_ns);
      it->second.second = std::max(it->second.second, m.start_ns);
    }
  }
  return std::any_of(times.begin(), times.end(),
                     [](const auto& t) { return t.second.second > t.second.first; });
}

void mark_short_members(const RunCommunicator& comm, RunInstance& inst) {
  if (inst.is_pair() || (inst.algo != "RING" && inst.algo != "TREE")) return;
  if (inst.timed_members() < 2) return;
  std::int64_t slowest = 0;
  std::int64_t last_start = 0;
  std::int64_t last_end = 0;
  bool first = true;
  for (const auto& m : inst.members) {
    if (!m.timed) continue;
    slowest = std::max(slowest, m.duration_ns());
    last_start = first ? m.start_ns : std::max(last_start, m.start_ns);
    last_end = first ? m.end_ns : std::max(last_end, m.end_ns);
    first = false;
  }
  const bool one_clock = comm.no_start_times.empty() && comm.one_clock();
  for (auto& m : inst.members) {
    if (!m.timed) continue;
    // The last to arrive waits for no one; the others then finish with it.
    const bool late_arrival =
        one_clock && m.start_ns == last_start && sat_sub(last_end, m.end_ns) <= m.duration_ns();
    m.implausibly_short = !late_arrival && static_cast<double>(m.duration_ns()) <
                                               kShortShare * static_cast<double>(slowest);
  }
}

}  // namespace

void assess_time_quality(RunCommunicator& comm) {
  for (auto& inst : comm.instances) {
    inst.host_disagree = host_disagrees(comm, inst);
    mark_short_members(comm, inst);
  }
}

void assess_time_quality(Run& run) {
  for (auto& comm : run.comms) assess_time_quality(comm);
}

std::vector<std::string> instance_flags(const RunInstance& inst) {
  std::vector<std::string> out;
  if (!inst.members.empty() && inst.timed_members() == 0) out.emplace_back("untimed");
  if (inst.has_stale_member()) out.emplace_back("stale");
  if (inst.host_disagree) out.emplace_back("host-disagree");
  std::string ranks;
  for (const auto& m : inst.members) {
    if (m.implausibly_short) ranks += (ranks.empty() ? "" : ",") + std::to_string(m.rank);
  }
  if (!ranks.empty()) out.push_back("short rank " + ranks);
  return out;
}

}  // namespace npkit
