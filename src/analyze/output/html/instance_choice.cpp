#include "output/html/instance_choice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "output/html/svg.hpp"

namespace npkit::html {

std::optional<InstanceWindow> window_of(const JoinedInstance& inst) {
  if (inst.ranks.empty()) return std::nullopt;
  InstanceWindow w{inst.ranks.front().start_ns, inst.ranks.front().end_ns};
  for (const auto& r : inst.ranks) {
    w.start_ns = std::min(w.start_ns, r.start_ns);
    w.end_ns = std::max(w.end_ns, r.end_ns);
  }
  return w;
}

Result<std::size_t> choose_instance(const std::vector<JoinedInstance>& instances,
                                    std::optional<std::uint64_t> requested) {
  const std::size_t n = instances.size();
  if (requested) {
    if (*requested >= n) {
      return Error{n == 0 ? fmt::format("--iteration {}: no collective instance was joined "
                                        "across ranks",
                                        *requested)
                          : fmt::format("--iteration {}: {} collective instance(s) were joined "
                                        "across ranks (0..{})",
                                        *requested, n, n - 1)};
    }
    if (!window_of(instances[*requested])) {
      return Error{fmt::format("--iteration {}: {} has no timed rank; choose another instance",
                               *requested, instances[*requested].label)};
    }
    return static_cast<std::size_t>(*requested);
  }
  std::vector<std::pair<std::int64_t, std::size_t>> timed;
  for (std::size_t i = 0; i < n; ++i) {
    if (const auto w = window_of(instances[i])) timed.emplace_back(w->end_ns - w->start_ns, i);
  }
  if (timed.empty()) return Error{"no collective instance was joined across ranks"};
  std::sort(timed.begin(), timed.end());
  return timed[(timed.size() - 1) / 2].second;
}

std::string describe_choice(const JoinedInstance& inst, std::size_t index, std::size_t count,
                            bool chosen_by_user) {
  const auto w = window_of(inst);
  return fmt::format(
      "Instance {} of {} ({}, {}), {}; its window (first arrival to last completion over the "
      "ranks) is {}.",
      index, count, inst.label, format_bytes(static_cast<double>(inst.bytes)),
      chosen_by_user
          ? "chosen with --iteration"
          : "the one of median duration (choose another with --iteration N, counted from "
            "0 in start order like the heatmap's columns)",
      w ? format_duration(static_cast<double>(w->end_ns - w->start_ns)) : "empty");
}

}  // namespace npkit::html
