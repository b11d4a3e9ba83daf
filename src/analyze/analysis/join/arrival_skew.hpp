// analysis/join/arrival_skew.hpp — who arrives late at the communicator's collectives.
// Contract: for each collective instance (Send/Recv pairs excluded) with GPU spans on at least two
// ranks, a rank's skew is its GPU start minus the earliest GPU start among those ranks (host
// time, so it is only as good as the clocks: see host_gpu_clock.hpp). Per rank: instances
// compared, median and maximum skew, and how often it started last (ties count for every rank
// that started last). Straggler order: median skew descending, then maximum, then rank.
#pragma once

#include <cstdint>
#include <vector>

#include "import/npkt/communicator_join.hpp"

namespace npkit {

struct RankSkew {
  std::int32_t rank = 0;
  std::uint64_t instances = 0;
  double median_ns = 0;
  std::int64_t max_ns = 0;
  std::uint64_t arrived_last = 0;
};

struct ArrivalSkew {
  std::uint64_t instances_compared = 0;
  std::vector<RankSkew> ranks;                // by rank
  std::vector<std::int32_t> straggler_order;  // latest first
};

ArrivalSkew arrival_skew(const Communicator& comm);

}  // namespace npkit
