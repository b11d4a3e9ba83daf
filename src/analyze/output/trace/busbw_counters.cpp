#include "output/trace/busbw_counters.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "run/measures.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

// More than any link carries (1 ZB/s): a corrupt size or time, left out.
constexpr double kMostGbps = 1e12;

// (time, change in thousandths of GB/s) of one process.
using Changes = std::vector<std::pair<std::int64_t, std::int64_t>>;

// Each timed member's busbw from its start to its end, into its process's changes.
void add_changes(const RunCommunicator& comm, const TraceProcessOf& pid_of,
                 std::map<std::uint32_t, Changes>& by_pid) {
  for (const RunInstance& inst : comm.instances) {
    if (!bus_factor(inst.func, comm.nranks)) continue;
    for (const RunMember& m : inst.members) {
      const std::int64_t ns = m.duration_ns();
      if (!m.timed || ns <= 0) continue;
      const double busbw = busbw_gbps(inst.func, comm.nranks, static_cast<double>(inst.bytes),
                                      static_cast<double>(ns));
      if (!(busbw < kMostGbps)) continue;  // corrupt sizes or times
      const auto thousandths = static_cast<std::int64_t>(std::llround(busbw * 1000.0));
      if (thousandths == 0) continue;
      const auto pid = pid_of(comm, m.rank);
      if (!pid) continue;
      Changes& changes = by_pid[*pid];
      changes.emplace_back(m.start_ns, thousandths);
      changes.emplace_back(m.end_ns, -thousandths);
    }
  }
}

}  // namespace

std::uint64_t write_busbw_counters(const Run& run, const TraceProcessOf& pid_of,
                                   std::int64_t origin_ns, TraceEncoder& encoder) {
  std::map<std::uint32_t, Changes> by_pid;
  for (const RunCommunicator& comm : run.comms) {
    if (comm.no_start_times.empty()) add_changes(comm, pid_of, by_pid);
  }
  std::uint64_t samples = 0;
  for (auto& [pid, changes] : by_pid) {
    std::stable_sort(changes.begin(), changes.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::int64_t value = 0;
    std::int64_t written = 0;
    for (std::size_t i = 0; i < changes.size(); ++i) {
      value = sat_add(value, changes[i].second);
      if (i + 1 < changes.size() && changes[i + 1].first == changes[i].first) continue;
      if (value == written) continue;
      TraceCounter c;
      c.name = "busbw";
      c.series = "GB/s";
      c.pid = pid;
      c.at_ns = sat_sub(changes[i].first, origin_ns);
      c.thousandths = value;
      encoder.count(c);
      written = value;
      ++samples;
    }
  }
  return samples;
}

}  // namespace npkit
