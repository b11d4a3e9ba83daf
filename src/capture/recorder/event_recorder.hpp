// recorder/event_recorder.hpp — the event path: one record per profiler callback.
//
// Contract:
// - No lock, no allocation, no system call (the thread's first callback excepted, see
//   thread_registry.hpp); safe to call concurrently from any number of threads.
// - record_start() with a NULL context (capture disabled for that communicator) records nothing
//   and returns NULL. Otherwise it stamps the host clock first, resolves the parent handle, appends
//   a start record (RecordBuffer protocol) and returns the event's handle (event_handle.hpp).
//   Parent resolution: NULL -> kStartParentNull; a handle of the same context -> parent_id; a
//   handle of another communicator -> kStartParentOtherComm (parent_id 0); anything else ->
//   kStartParentUnknown. A start whose `foreign` flag is set (a ProxyOp created by another process
//   under PXN) or whose parent belongs to the detached context goes to the detached context
//   (ContextRegistry::kDetachedSlot) with kStartParentForeign (foreign ops) or its parent id
//   (their descendants); `context` is not dereferenced then, since it may be another process's
//   pointer. The returned handle is also NULL when there is no detached context, when the target
//   was already dumped (the callback only counts in events_after_dump), or when the context's event
//   ids are exhausted (more than kMaxEventId callbacks); a start dropped because the buffer is
//   full still gets a valid handle, so its children keep their parent link.
// - record_stop()/record_state() ignore handles that are not ours or name no context; otherwise
//   they append a stop record, or a state record whose word is the state number and whose
//   payload is format::StatePayload{value, has_args}. A second stop of an event is recorded too.
#pragma once

#include <cstdint>

#include "recorder/capture_context.hpp"
#include "recorder/context_registry.hpp"
#include "recorder/event_handle.hpp"

namespace npkit::capture {

struct StartRequest {
  uint8_t type = 0;              // format::EventType
  const void* parent = nullptr;  // NCCL's parentObj
  bool foreign = false;          // ProxyOp created by another process (PXN)
  uint8_t payload[32] = {};      // the type's format payload struct
};

void* record_start(ContextRegistry& registry, CaptureContext* context,
                   const StartRequest& request) noexcept;
void record_stop(ContextRegistry& registry, const DecodedHandle& handle) noexcept;
void record_state(ContextRegistry& registry, const DecodedHandle& handle, uint32_t state,
                  bool has_args, uint64_t value) noexcept;

}  // namespace npkit::capture
