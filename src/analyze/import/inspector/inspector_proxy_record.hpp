// import/inspector/inspector_proxy_record.hpp — the proxy_trace payload of an NCCL Inspector log
// line (format v4.3: the proxy thread's NET operations and their steps, timed on the host).
// Contract:
// - Required: record_type (a string) and direction ("send" or "recv"). A "proxy_step" record is
//   one step; any other record (proxy_op, and the nested forms proxy_op_start /
//   proxy_op_segment) holds its steps in an optional "steps" array. proxy_op's optional
//   n_steps_dropped counts steps the Inspector could not keep.
// - A step's durations are whole µs the writer computed from its callbacks (each present only
//   when both ends were seen): total_us (step start → stop; absent: the step never stopped)
//   and three phases in state order — send: gpu_produce_us (SendGPUWait → SendPeerWait),
//   peer_credit_us (SendPeerWait → SendWait), wire_us (SendWait → stop); recv: wire_us
//   (RecvWait → RecvFlushWait), flush_us (RecvFlushWait → RecvGPUWait), gpu_consume_us
//   (RecvGPUWait → stop).
// - Anything else of the wrong type or a missing required member is an Error "<where>: expected
//   <what>"; members not named here (sequence numbers, event_trace_ts, op_bw_gbs) are not
//   checked.
#pragma once

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace npkit {

struct InspectorProxyStep {
  std::optional<std::uint64_t> total_us;
  std::array<std::optional<std::uint64_t>, 3> phase_us;  // in state order (see above)
};

struct InspectorProxyTrace {
  std::string record_type;  // "proxy_op", "proxy_step", ...
  bool send = false;
  std::uint64_t steps_dropped = 0;
  std::vector<InspectorProxyStep> steps;
};

Result<InspectorProxyTrace> read_proxy_trace(simdjson::dom::element v);

}  // namespace npkit
