// analysis/select/collective_window.hpp — the stretch of host time a set of collective instances
// covers, so that a trace (or any view) can be narrowed to them.
// Contract: collective_window selects, in every communicator of `run`, the instances whose
// function is `func` (case-insensitive: "allreduce" selects AllReduce) and whose seq lies in
// [first_seq, last_seq]; the window runs from the earliest start to the latest end of their timed
// members (host ns on each rank's own clock, as the run model keeps them). No instance of that
// function is an Error listing the functions the run has; instances of it but none in the seq
// range, or none timed, an Error giving the seq range the run has.
#pragma once

#include <cstdint>
#include <string>

#include "run/run.hpp"
#include "util/result.hpp"

namespace npkit {

struct HostWindow {
  std::int64_t from_ns = 0;
  std::int64_t to_ns = 0;
  std::uint64_t instances = 0;  // selected and timed
};

Result<HostWindow> collective_window(const Run& run, const std::string& func,
                                     std::uint64_t first_seq, std::uint64_t last_seq);

}  // namespace npkit
