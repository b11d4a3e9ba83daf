// import/chrome_json/trace_producer.hpp — which program wrote a Chrome trace JSON file.
// Contract: identify_trace reads the members before the event array and the first events (it
// stops at the first decisive one, and after kMaxEvents or one buffer of events at most) and
// recognises:
// - our own `trace` output: otherData.generator starts with "npkit-analyze"; with
//   otherData.event_table it was made from a legacy NPKit dump, else from .npkt dumps;
// - NPKit's generator: a B or E event whose name starts with NPKIT_EVENT_;
// - NCCL's example profiler plugin: a b or e event of one of its categories (GROUP, COLL, P2P,
//   PROXY, NET, GPU, GROUP_API, COLL_API, P2P_API, KERNEL_LAUNCH, NET_IB, NET_SOCK).
// Anything else is an Error that names the file and says what was expected; `reason` says what
// decided. Warnings are not collected here (the full read repeats them).
#pragma once

#include <cstdint>
#include <string>

#include "import/chrome_json/trace_event.hpp"
#include "util/result.hpp"

namespace npkit {

enum class TraceProducer : std::uint8_t { kNpkitGenerator, kOwnLegacy, kOwnProfiler, kNcclExample };

// "NPKit's trace generator", ...
const char* trace_producer_name(TraceProducer producer);

struct TraceIdentity {
  TraceProducer producer = TraceProducer::kNpkitGenerator;
  std::string reason;
  TraceHeader header;  // the members before the event array
};

Result<TraceIdentity> identify_trace(const std::string& path);

}  // namespace npkit
