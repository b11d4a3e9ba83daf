// recorder/event_names.hpp — what the NCCL profiler's event types and states are called, for the
// Names section of every dump (readers then need no copy of the NCCL headers).
//
// Contract: event_type_name(i) names event type bit index i (format::EventType, 0..15) as NCCL's
// ncclProfile<Name> constant without its prefix ("Coll", "KernelCh", "CeColl", "KernelPhase");
// state_name(s) names state s (0..31) as NCCL 2.31.2's ncclProfiler<Name> enumerator without its
// prefix ("ProxyStepSendGPUWait", "KernelChStop", "CeCollStart", "KernelPhaseStop"; 19 and 20 keep
// their "_v4" suffix).
// Both return NULL outside range.
#pragma once

#include <cstdint>

namespace npkit::capture {

inline constexpr uint32_t kEventTypeCount = 16;
inline constexpr uint32_t kStateCount = 32;

const char* event_type_name(uint32_t type_index) noexcept;
const char* state_name(uint32_t state) noexcept;

}  // namespace npkit::capture
