// recorder/event_names.hpp — what the NCCL profiler's event types and states are called, for the
// Names section of every dump (readers then need no copy of the NCCL headers).
//
// Contract: event_type_name(i) names event type bit index i (format::EventType, 0..14) as NCCL's
// ncclProfile<Name> constant without its prefix ("Coll", "KernelCh", "CeColl"); state_name(s)
// names state s (0..30) as NCCL 2.30.7's ncclProfiler<Name> enumerator without its prefix
// ("ProxyStepSendGPUWait", "KernelChStop", "CeCollStart"; 19 and 20 keep their "_v4" suffix).
// Both return NULL outside range.
#pragma once

#include <cstdint>

namespace npkit::capture {

inline constexpr uint32_t kEventTypeCount = 15;
inline constexpr uint32_t kStateCount = 31;

const char* event_type_name(uint32_t type_index) noexcept;
const char* state_name(uint32_t state) noexcept;

}  // namespace npkit::capture
