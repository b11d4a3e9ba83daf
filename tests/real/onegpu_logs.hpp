// onegpu_logs.hpp — what npkit-nccl-driver itself logged in a samples/onegpu-h200 run folder
// (samples/nccl-driver/README.md): the outside oracle of the one-GPU tests.
// - events_of: calls/events_rank<R>.txt, one "<host ns> rank<R> <event> <key=value...>" a line.
// - calls_of: calls/calls_rank<R>.csv, one row per call in call order (a call is written when
//   made and again after the stream synchronize that follows it, maybe several calls later: the
//   later row, which carries gpu_us, is kept).
// - gpu_us: the call's CUDA-event time (events recorded on the stream around the call), -1 when
//   the log has none.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npkit::test {

std::string onegpu_run_dir(const std::string& version, const std::string& run);

struct EventLine {
  std::int64_t ns = 0;
  std::string event;
  std::string text;
};

std::vector<EventLine> events_of(const std::string& dir, int rank);
// The first line of that event, copied (callers often pass a temporary log).
std::optional<EventLine> event(const std::vector<EventLine>& events, const std::string& name);
// The number after "call=" in an event line.
std::int64_t call_of(const EventLine& e);

struct CallRow {
  std::int32_t rank = 0;
  std::int64_t call = -1;
  std::string coll;  // the driver's name: allreduce, alltoall, sendrecv, ...
  std::uint64_t size_bytes = 0;
  std::string phase;  // warmup, timed, check, loop
  std::int64_t host_call_ns = 0;
  std::int64_t host_return_ns = 0;
  double gpu_us = -1;
};

std::vector<CallRow> calls_of(const std::string& dir, int rank);

}  // namespace npkit::test
