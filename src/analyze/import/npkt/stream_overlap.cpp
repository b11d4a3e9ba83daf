#include "import/npkt/stream_overlap.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace npkit {
namespace {

struct Launch {
  std::vector<ProfilerCollective*> ops;  // reported on their own: their spans make the launch's
  std::int64_t launch_ns = 0;
  bool ran = false;  // some valid channel says when
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  bool overlaps = false;
};

bool any_timed(const Launch& l) {
  return std::any_of(l.ops.begin(), l.ops.end(),
                     [](const ProfilerCollective* op) { return op->has_gpu_span; });
}

bool takes_part(const ProfilerCollective& op) {
  return op.group_api != kNoEvent && !op.graph_captured && !op.copy_engine;
}

std::vector<Launch> launches_of(std::vector<ProfilerCollective>& collectives,
                                std::vector<ProfilerCollective>& alltoalls) {
  std::map<std::uint32_t, Launch> by_group;
  auto add = [&](ProfilerCollective& op) {
    if (!takes_part(op)) return;
    Launch& l = by_group[op.group_api];
    l.launch_ns = l.ops.empty() ? op.api_start_ns : std::min(l.launch_ns, op.api_start_ns);
    l.ops.push_back(&op);
    if (!op.has_valid_channels) return;
    const std::int64_t start = op.valid_channels_start_ns;
    const std::int64_t stop = op.valid_channels_stop_ns;
    l.start_ns = l.ran ? std::min(l.start_ns, start) : start;
    l.end_ns = l.ran ? std::max(l.end_ns, stop) : stop;
    l.ran = true;
  };
  for (auto& op : collectives) {
    if (!op.in_alltoall) add(op);
  }
  for (auto& op : alltoalls) add(op);
  std::vector<Launch> out;
  for (auto& [group, launch] : by_group) out.push_back(std::move(launch));
  std::stable_sort(out.begin(), out.end(),
                   [](const Launch& a, const Launch& b) { return a.launch_ns < b.launch_ns; });
  return out;
}

// Returns whether it had a GPU span.
bool untime(ProfilerCollective& op) {
  const bool had = op.has_gpu_span;
  op.has_gpu_span = false;
  op.stream_overlap = true;
  return had;
}

}  // namespace

StreamOverlapCheck untime_stream_overlaps(double tolerance_ns,
                                          std::vector<ProfilerCollective>& collectives,
                                          std::vector<ProfilerCollective>& alltoalls) {
  const auto tolerance = static_cast<std::int64_t>(std::llround(tolerance_ns));
  std::vector<Launch> launches = launches_of(collectives, alltoalls);
  StreamOverlapCheck check;
  Launch* latest = nullptr;  // the launch so far with the latest end
  for (auto& launch : launches) {
    if (!launch.ran) continue;
    if (latest != nullptr && launch.start_ns < latest->end_ns - tolerance) {
      launch.overlaps = true;
      latest->overlaps = true;
      if (!check.first && (any_timed(launch) || any_timed(*latest))) {
        check.first =
            StreamOverlap{latest->ops.front(), launch.ops.front(), latest->end_ns, launch.start_ns};
      }
    }
    if (latest == nullptr || launch.end_ns > latest->end_ns) latest = &launch;
  }
  std::set<std::uint32_t> marked_groups;
  for (const auto& launch : launches) {
    if (!launch.overlaps) continue;
    for (auto* op : launch.ops) {
      if (untime(*op)) ++check.untimed;
      marked_groups.insert(op->group_api);
    }
  }
  // The Send/Recv of a marked AlltoAll: their spans came from the same timestamps.
  for (auto& op : collectives) {
    if (op.in_alltoall && marked_groups.count(op.group_api) > 0) untime(op);
  }
  return check;
}

}  // namespace npkit
