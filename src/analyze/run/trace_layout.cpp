#include "run/trace_layout.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace npkit {

std::uint32_t trace_pid(std::uint32_t number, TraceTimeBase base) {
  switch (base) {
    case TraceTimeBase::kHost:
      return number;
    case TraceTimeBase::kGpuClock:
    case TraceTimeBase::kGpuTimer:
      return kTracePidOwnClockBase + number;
    case TraceTimeBase::kCycles:
      return kTracePidCyclesBase + number;
  }
  return number;
}

std::string trace_process_name(std::int64_t rank, std::optional<std::uint64_t> comm_hash,
                               std::string_view host, TraceTimeBase base) {
  std::string name = fmt::format("rank {}", rank);
  if (comm_hash) name += fmt::format(", comm {:016x}", *comm_hash);
  if (!host.empty()) name += fmt::format(" ({})", host);
  switch (base) {
    case TraceTimeBase::kHost:
      break;
    case TraceTimeBase::kGpuClock:
      name += ", GPU clock time base (not aligned to the host)";
      break;
    case TraceTimeBase::kGpuTimer:
      name += ", GPU timer time base";
      break;
    case TraceTimeBase::kCycles:
      name += ", clock64 time base";
      break;
  }
  return name;
}

std::uint32_t trace_tid(TraceThread thread, std::uint32_t index, std::uint32_t lane) {
  lane = std::min(lane, kMaxTraceLane);
  index = std::min(index, kMaxTraceIndex);
  switch (thread) {
    case TraceThread::kApi:
      return 1 + lane;
    case TraceThread::kEnqueue:
      return 100 + lane;
    case TraceThread::kProxyCtrl:
      return 200 + lane;
    case TraceThread::kNet:
      return 300 + lane;
    case TraceThread::kStepWithoutOp:
      return 400 + lane;
    case TraceThread::kCollectives:
      return 500 + lane;
    case TraceThread::kGpuChannel:
    case TraceThread::kGpuBuffer:
      return kTraceTidGpuBase + 1000 * index + lane;
    case TraceThread::kProxyChannel:
    case TraceThread::kCpuChannel:
      return kTraceTidProxyBase + 1000 * index + lane;
    case TraceThread::kEventStream:
      return kTraceTidEventBase + 1000 * index + lane;
    case TraceThread::kProxySteps:
      return kTraceTidStepBase + 1000 * index + lane;
  }
  return 0;
}

std::optional<std::uint32_t> trace_lanes(TraceThread thread) {
  switch (thread) {
    case TraceThread::kApi:
    case TraceThread::kEnqueue:
    case TraceThread::kProxyCtrl:
    case TraceThread::kNet:
    case TraceThread::kStepWithoutOp:
    case TraceThread::kGpuChannel:
    case TraceThread::kProxyChannel:
      return 2;
    case TraceThread::kProxySteps:  // NCCL keeps up to 8 steps of a channel in flight
      return 4;
    default:
      return std::nullopt;
  }
}

std::string trace_thread_name(TraceThread thread, std::uint32_t index, std::uint32_t lane,
                              std::string_view stream_name) {
  std::string name;
  switch (thread) {
    case TraceThread::kApi:
      name = "API calls";
      break;
    case TraceThread::kEnqueue:
      name = "host enqueue";
      break;
    case TraceThread::kProxyCtrl:
      name = "proxy control";
      break;
    case TraceThread::kNet:
      name = "net plugin";
      break;
    case TraceThread::kStepWithoutOp:
      name = "proxy steps without op";
      break;
    case TraceThread::kCollectives:
      name = "collectives";
      break;
    case TraceThread::kGpuChannel:
      name = fmt::format("GPU channel {}", index);
      break;
    case TraceThread::kGpuBuffer:
      name = fmt::format("GPU buffer {}", index);
      break;
    case TraceThread::kProxyChannel:
      name = fmt::format("proxy channel {}", index);
      break;
    case TraceThread::kCpuChannel:
      name = fmt::format("CPU channel {}", index);
      break;
    case TraceThread::kEventStream:
      name = std::string(stream_name);
      break;
    case TraceThread::kProxySteps:
      name = fmt::format("proxy steps {}", index);
      break;
  }
  lane = std::min(lane, kMaxTraceLane);
  if (lane != 0 && lane == trace_lanes(thread)) return name + " (overlaps merged)";
  return lane == 0 ? name : fmt::format("{} #{}", name, lane + 1);
}

}  // namespace npkit
