// output/trace/busbw_counters.hpp — the bus bandwidth a rank's collectives drive, as a counter of
// its process in a trace (output/trace/trace_encoder.hpp), the same for every input kind.
// Contract:
// - For each communicator of `run` with start times, and each of its ranks that `pid_of` gives a
//   process: a counter "busbw", series "GB/s". Each timed member of an instance whose func
//   nccl-tests defines (run/nccl_tests_convention.hpp) adds its busbw, S / the member's time ×
//   factor(the communicator's nranks), from its start to its end; the counter is the sum of the
//   members open at each time (collectives that overlap on a rank add up), in thousandths rounded
//   per member, so that it returns to exactly 0 between collectives. A sample is written at each
//   time where the sum changes (several changes at one time: one sample, the value after them),
//   in time order, processes in pid order. Ranks of several communicators that share a process
//   add up there too. Members of no length add nothing, nor members whose busbw would exceed
//   10^12 GB/s (a corrupt size or time).
// - Sample times are member times − origin_ns (the trace's origin on the ranks' host clock).
// - Returns the number of samples written.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "output/trace/trace_encoder.hpp"
#include "run/run.hpp"

namespace npkit {

// The process of `rank` of `comm` in the trace; nullopt where the trace has none.
using TraceProcessOf =
    std::function<std::optional<std::uint32_t>(const RunCommunicator& comm, std::int32_t rank)>;

std::uint64_t write_busbw_counters(const Run& run, const TraceProcessOf& pid_of,
                                   std::int64_t origin_ns, TraceEncoder& encoder);

}  // namespace npkit
