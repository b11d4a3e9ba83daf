#include "run/run.hpp"

#include <algorithm>

namespace npkit {

std::size_t RunInstance::timed_members() const {
  return static_cast<std::size_t>(
      std::count_if(members.begin(), members.end(), [](const RunMember& m) { return m.timed; }));
}

bool RunInstance::not_sampled() const {
  return !members.empty() && std::all_of(members.begin(), members.end(), [](const RunMember& m) {
    return m.not_sampled && !m.timed;
  });
}

std::size_t RunInstance::clean_members() const {
  return static_cast<std::size_t>(
      std::count_if(members.begin(), members.end(), [&](const RunMember& m) { return clean(m); }));
}

bool RunInstance::has_short_member() const {
  return std::any_of(members.begin(), members.end(),
                     [](const RunMember& m) { return m.implausibly_short; });
}

bool RunInstance::has_stale_member() const {
  return std::any_of(members.begin(), members.end(), [](const RunMember& m) { return m.stale; });
}

std::string RunInstance::op_on(std::int32_t rank) const {
  if (!is_pair()) return func;
  return rank == sender ? "Send" : "Recv";
}

bool RunCommunicator::one_clock() const {
  for (const auto& r : ranks) {
    if (r.host != ranks.front().host) return false;
  }
  return true;
}

void RunCommunicator::order_instances_by_start() {
  const auto earliest = [](const RunInstance& i) {
    std::int64_t t = INT64_MAX;
    for (const auto& m : i.members) t = std::min(t, m.start_ns);
    return t;
  };
  std::stable_sort(instances.begin(), instances.end(),
                   [&](const auto& a, const auto& b) { return earliest(a) < earliest(b); });
}

bool RunCommunicator::collectives_incomplete() const {
  return std::any_of(ranks.begin(), ranks.end(),
                     [](const RunRank& r) { return r.lost.collectives > 0; });
}

bool RunCommunicator::hosts_known() const {
  return !ranks.empty() &&
         std::all_of(ranks.begin(), ranks.end(), [](const RunRank& r) { return !r.host.empty(); });
}

}  // namespace npkit
