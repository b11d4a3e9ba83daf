// run/proxy_steps.hpp — where one rank's NET proxy steps spent their time: a per-rank aggregate of
// the run model (RunRank::proxy), filled by readers whose input records proxy steps (.npkt
// profiler captures; import/npkt/proxy_step_breakdown.hpp says how steps are cut into phases).
// Contract: times are ns summed over the stopped steps; states are keyed by NCCL's proxy step
// state number; explained() is (net_send + net_recv + sync) / step time, 0 without step time.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace npkit {

struct StateTime {
  std::string name;  // NCCL's name of the state ("" when the input does not name it)
  std::int64_t ns = 0;
  std::uint64_t intervals = 0;
};

struct ProxyStepBreakdown {
  std::uint64_t steps = 0;
  std::uint64_t steps_never_stopped = 0;
  std::int64_t step_ns = 0;
  std::int64_t net_send_ns = 0;
  std::int64_t net_recv_ns = 0;
  std::int64_t sync_ns = 0;
  std::int64_t other_ns = 0;
  std::map<std::uint32_t, StateTime> states;  // by state number
  std::uint64_t ring_allreduce_steps = 0;
  std::int64_t reduce_scatter_ns = 0;
  std::int64_t all_gather_ns = 0;
  std::int64_t not_ring_allreduce_ns = 0;

  double explained() const;
};

}  // namespace npkit
