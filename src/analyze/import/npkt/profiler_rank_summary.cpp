#include "import/npkt/profiler_rank_summary.hpp"

#include <algorithm>
#include <map>

#include "util/quantiles.hpp"
#include "util/saturating.hpp"

namespace npkit {

std::vector<FuncSummary> summarize_by_func(const RankCapture& capture) {
  std::map<std::string, std::pair<FuncSummary, std::vector<double>>> by_func;
  auto add = [&](const ProfilerCollective& op) {
    auto& [summary, times] = by_func[std::string(op.func_name)];
    summary.func = std::string(op.func_name);
    ++summary.count;
    summary.kernel_channels += op.kernel_channels;
    summary.stale_channels += op.channels_stale;
    if (op.channels_stale > 0) ++summary.untimed_stale;
    if (!op.has_gpu_span) return;
    ++summary.timed;
    summary.total_ns = sat_add(summary.total_ns, op.gpu_duration_ns());
    times.push_back(static_cast<double>(op.gpu_duration_ns()));
  };
  for (const auto& op : capture.collectives) {
    if (!op.in_alltoall) add(op);
  }
  for (const auto& op : capture.alltoall.alltoalls) add(op);
  std::vector<FuncSummary> out;
  for (auto& [func, entry] : by_func) {
    auto& [summary, times] = entry;
    if (!times.empty()) {
      std::sort(times.begin(), times.end());
      summary.median_ns = sorted_quantile(times, 0.5);
    }
    out.push_back(summary);
  }
  return out;
}

}  // namespace npkit
