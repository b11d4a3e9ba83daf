// run/trace_layout.hpp — the one process and thread numbering of every trace this tool
// writes, whatever the input (NPKit dumps, .npkt captures, Chrome traces of spans).
// Contract:
// - A process is one rank of one communicator on one time base. Processes on the host clock are
//   numbered 1, 2, ... in the order the producer gives them (a legacy NPKit dump: rank R is
//   process R + 1); a stream on a time base of its own gets a process of its own: pid 100000 +
//   that number (a GPU clock or %globaltimer not aligned to the host) or 200000 + it (clock64).
//   Its name: "rank R", then ", comm HASH" and " (HOST)" where known, then ", <time base> time
//   base" off the host clock.
// - A thread is one stream of a process, spread over lanes where its spans overlap without
//   nesting (output/trace/trace_lanes.hpp): tid = base + 1000 · index + lane, lanes past
//   kMaxTraceLane sharing its tid. Bases: host API calls 1, host enqueue 100, proxy control
//   200, net plugin 300, proxy steps without their op 400, collectives 500 (inputs that time
//   whole operations only) (index 0; tid = base + lane); GPU
//   channel or NPKit GPU buffer 10^7; proxy channel or NPKit CPU channel 2·10^7; event-record
//   stream (device and host recorders) 3·10^7; proxy steps of channel C 4·10^7. Indices past
//   kMaxTraceIndex share its tid, so that the ranges never meet.
// - The threads of a .npkt capture's profiler events (API calls to proxy steps) have at most
//   trace_lanes(thread) lanes each, so that a rank fits one screen: a span that fits none of
//   them goes to one more lane, lane trace_lanes(thread), where spans that overlap are merged
//   into one (output/trace/capture_trace_writer.hpp). Other threads have as many lanes as their
//   spans need.
// - Thread names: "API calls", "host enqueue", "proxy control", "net plugin", "proxy steps
//   without op", "collectives", "GPU channel C", "GPU buffer B", "proxy channel C", "CPU channel
//   C", "proxy steps C", or the event stream's own name; lane L > 0 adds " #L+1", the merged
//   lane " (overlaps merged)".
// - Counters belong to processes: "busbw" (GB/s) of a rank's collectives
//   (output/trace/busbw_counters.hpp).
// - kTraceLayout names this layout in a trace's otherData ("layout"), so that readers
//   (import/chrome_json) know how to read the numbers back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npkit {

inline constexpr std::string_view kTraceLayout = "npkit-analyze.trace v2";

// The last lane with a tid of its own: a thread's tids are numbered in steps of 1000.
inline constexpr std::uint32_t kMaxTraceLane = 999;

enum class TraceThread : std::uint8_t {
  kApi,
  kEnqueue,
  kProxyCtrl,
  kNet,
  kStepWithoutOp,
  kCollectives,
  kGpuChannel,
  kGpuBuffer,
  kProxyChannel,
  kCpuChannel,
  kEventStream,
  kProxySteps,
};

enum class TraceTimeBase : std::uint8_t { kHost, kGpuClock, kGpuTimer, kCycles };

inline constexpr std::uint32_t kTracePidOwnClockBase = 100000;
inline constexpr std::uint32_t kTracePidCyclesBase = 200000;
inline constexpr std::uint32_t kTraceTidGpuBase = 10'000'000;
inline constexpr std::uint32_t kTraceTidProxyBase = 20'000'000;
inline constexpr std::uint32_t kTraceTidEventBase = 30'000'000;
inline constexpr std::uint32_t kTraceTidStepBase = 40'000'000;
inline constexpr std::uint32_t kMaxTraceIndex = 9999;

// `number`: the process's place among the host-clock processes, from 1.
std::uint32_t trace_pid(std::uint32_t number, TraceTimeBase base);

std::string trace_process_name(std::int64_t rank, std::optional<std::uint64_t> comm_hash,
                               std::string_view host, TraceTimeBase base);

std::uint32_t trace_tid(TraceThread thread, std::uint32_t index, std::uint32_t lane);

// The lanes a thread has before its merged lane (the number of that lane); none: unbounded.
std::optional<std::uint32_t> trace_lanes(TraceThread thread);

// `stream_name`: the name of a kEventStream thread (ignored for the others).
std::string trace_thread_name(TraceThread thread, std::uint32_t index, std::uint32_t lane,
                              std::string_view stream_name = {});

}  // namespace npkit
