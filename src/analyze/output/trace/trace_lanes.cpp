#include "output/trace/trace_lanes.hpp"

#include <algorithm>

namespace npkit {

std::uint32_t LanePacker::place(std::int64_t start, std::int64_t end, bool leaf) {
  end = std::max(start, end);
  for (std::uint32_t lane = 0; lane < open_.size(); ++lane) {
    auto& stack = open_[lane];
    while (!stack.empty() && stack.back().end <= start) stack.pop_back();
    if (stack.empty() || (!stack.back().leaf && end <= stack.back().end)) {
      stack.push_back({end, leaf});
      return lane;
    }
  }
  if (most_ && open_.size() >= *most_) return *most_;
  open_.push_back({{end, leaf}});
  return static_cast<std::uint32_t>(open_.size() - 1);
}

}  // namespace npkit
