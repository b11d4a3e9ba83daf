// util/process_probe.hpp — whether the process that wrote a file on this machine still runs.
// Contract:
// - this_host_name(): gethostname(), "" when it fails.
// - process_running_since(pid, started_by_ns): true when process `pid` exists and started no later
//   than `started_by_ns` (CLOCK_REALTIME ns) plus 2 s of rounding (its /proc/<pid>/stat start time
//   is in clock ticks since boot, put on the wall clock with /proc/stat's btime, whole seconds):
//   it is then the process that wrote the file, not a later one that reused the pid. false when
//   no such process exists or it started later; nullopt when /proc cannot tell (not Linux, not
//   mounted, unreadable).
// - realtime_now_ns(): CLOCK_REALTIME now.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace npkit {

std::string this_host_name();
std::optional<bool> process_running_since(std::int32_t pid, std::int64_t started_by_ns);
std::int64_t realtime_now_ns();

}  // namespace npkit
