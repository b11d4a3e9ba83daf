// run/channel_span.hpp — what ran on one of a rank's channels below its collectives: a GPU
// channel's part of an operation, or a proxy operation (the network proxy's send or receive).
// Contract:
// - start_ns <= end_ns, on the rank's host clock (GPU times already converted).
// - op: the operation the span belongs to, where the input links them (nullopt: none). Its
//   gpu_span_ns is the whole operation's GPU span over all its channels, 0 when it has none.
// - peer, steps and chunk_bytes describe proxy spans (GPU spans leave them at their defaults).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "run/nccl_names.hpp"

namespace npkit {

struct ChannelOperation {
  NcclFunc func = NcclFunc::kOther;
  std::string func_name;  // "AllReduce", "Send"
  std::string label;      // "AllReduce seq 5", "Send peer 1 #3"
  std::uint64_t bytes = 0;
  std::string algo;
  std::string proto;
  std::int64_t gpu_span_ns = 0;
};

enum class ChannelSpanKind : std::uint8_t { kGpu, kProxySend, kProxyRecv };

struct ChannelSpan {
  std::int32_t rank = 0;
  ChannelSpanKind kind = ChannelSpanKind::kGpu;
  std::uint32_t channel = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::optional<ChannelOperation> op;
  std::int32_t peer = -1;
  std::int32_t steps = 0;  // as recorded (untrusted input may hold any value)
  std::int64_t chunk_bytes = 0;
};

}  // namespace npkit
