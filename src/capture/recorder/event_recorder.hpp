// recorder/event_recorder.hpp — the event path: one record per profiler callback.
//
// Contract:
// - No lock, no allocation, no system call, except: the thread's first callback
//   (thread_registry.hpp) and the first use of a string (string_interner.hpp) write them into the
//   live files, and a writer that outruns the live file's extender extends it itself
//   (record_buffer.hpp). Safe to call concurrently from any number of threads.
// - record_start() with a NULL context (capture disabled for that communicator, here or in the
//   process that created a PXN op) records nothing and returns NULL. Otherwise it stamps the host
//   clock first, picks the target context and parent link, appends a start record (RecordBuffer
//   protocol) and returns the event's handle (event_handle.hpp).
// - `context` is read only for events NCCL starts with this process's context: API, Group, Coll,
//   P2p and KernelLaunch (user threads), ProxyCtrl and KernelCh (this process's own proxy
//   connection). Events of the proxy thread may carry another process's context (PXN):
//   * ProxyOp is recorded in `context` only when its pid is ours and `context` is one of our
//     communicator contexts (ContextRegistry::find compares addresses: pids repeat across PID
//     namespaces). Otherwise it goes to the detached context (ContextRegistry::kDetachedSlot)
//     with kStartParentForeign (| kStartParentNull for a NULL parentObj), parentObj unread.
//   * ProxyStep and NetPlugin go where their parent handle is (registry.at(its slot)), linked to
//     its id; `context` is not used at all. A NULL parent, or one that is not a handle of ours,
//     goes to the detached context with kStartParentNull / kStartParentUnknown: the record is
//     kept, and its process is unknown.
//   Others resolve their parent as: NULL -> kStartParentNull; a handle of the same context ->
//   parent_id; a handle of the detached context -> the detached context, linked; a handle of
//   another communicator -> kStartParentOtherComm (parent_id 0); anything else ->
//   kStartParentUnknown.
// - A start that records nothing (no detached context, target already dumped, the target's
//   event ids used up past kMaxEventId, or a parent that is a dropped handle) returns, for
//   ProxyOp, ProxyStep and NetPlugin, a dropped handle (event_handle.hpp) with the slot of the
//   context that refused it: NCCL passes it as the parent of their children, which then record
//   nothing either (a NULL would send them to the detached context). Other types return NULL.
//   Each such callback, and each stop/state of a dropped handle, counts once in the context that
//   refused it, as a refused claim (RecordBuffer::claim_refused: records_attempted and
//   records_dropped, or events_after_dump once dumped); nowhere when there is none. A start
//   dropped because the buffer is full still gets a valid handle, so its children keep their
//   parent link.
// - A request with a detail_kind gets a detail record (format::kRecordDetail) right after its
//   start record, in the same context, by the same thread; a kDetailParentGroup payload is the
//   parent_group handle resolved as a parent is for a start in that context (event id when it is
//   a handle of the same context, kStartParent* flags otherwise). A request with has_call_tag then
//   gets a kDetailCallTag detail record holding call_tag. A full buffer drops them.
// - record_stop()/record_state() ignore handles that are not ours or name no context, count
//   dropped ones as above; otherwise they append a stop record, or a state record whose word is
//   the state number and whose payload is format::StatePayload{value, has_args}. A second stop
//   of an event is recorded too.
#pragma once

#include <cstdint>

#include "recorder/capture_context.hpp"
#include "recorder/context_registry.hpp"
#include "recorder/event_handle.hpp"

namespace npkit::capture {

struct StartRequest {
  uint8_t type = 0;                    // format::EventType
  const void* parent = nullptr;        // NCCL's parentObj
  bool foreign = false;                // ProxyOp whose pid is not ours (PXN)
  uint8_t payload[32] = {};            // the type's format payload struct
  uint32_t detail_kind = 0;            // format::DetailKind of a detail record to follow; 0: none
  uint8_t detail[32] = {};             // its payload (kDetailCeColl)
  const void* parent_group = nullptr;  // kDetailParentGroup: NCCL's parentGroup, resolved here
  bool has_call_tag = false;           // a kDetailCallTag record follows (API v7)
  uint8_t call_tag[32] = {};           // its format::CallTagDetail
};

// `context`: NCCL's context, a CaptureContext* of ours or, under PXN, another process's pointer.
void* record_start(ContextRegistry& registry, void* context, const StartRequest& request) noexcept;
void record_stop(ContextRegistry& registry, const DecodedHandle& handle) noexcept;
void record_state(ContextRegistry& registry, const DecodedHandle& handle, uint32_t state,
                  bool has_args, uint64_t value) noexcept;

}  // namespace npkit::capture
