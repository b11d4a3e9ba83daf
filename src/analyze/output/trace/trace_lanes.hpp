// output/trace/trace_lanes.hpp — spreads possibly overlapping spans over lanes (trace threads) so
// that on each lane spans either nest or follow one another, as Chrome/Perfetto "X" events must.
// Contract: spans are offered in order of start, longer first on equal starts. place() returns
// the lowest lane where the span fits: on a lane, a span fits after every span that ended at or
// before its start, or nested inside the innermost open span when it ends no later and that span
// accepts children. A `leaf` span accepts none (a span whose own sub-spans tile it, e.g. a proxy
// step cut by its states). Spans ending before they start are treated as zero-length. A packer
// made with a most number of lanes N opens no lane past N − 1: a span that fits none of them gets
// lane N (the caller's overflow; the packer does not keep it).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "run/trace_layout.hpp"

namespace npkit {

class LanePacker {
 public:
  LanePacker() = default;
  explicit LanePacker(std::optional<std::uint32_t> most) : most_(most) {}

  std::uint32_t place(std::int64_t start, std::int64_t end, bool leaf = false);
  std::uint32_t lanes() const { return static_cast<std::uint32_t>(open_.size()); }

 private:
  struct Open {
    std::int64_t end;
    bool leaf;
  };
  std::optional<std::uint32_t> most_;
  std::vector<std::vector<Open>> open_;  // per lane, a stack of open spans
};

}  // namespace npkit
