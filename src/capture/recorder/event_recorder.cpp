#include "recorder/event_recorder.hpp"

#include <cstring>

#include "recorder/host_clock.hpp"
#include "recorder/thread_registry.hpp"

namespace npkit::capture {
namespace {

// Claims the next record of `context`. Sets *record (NULL when the buffer is full) and returns
// the claimed index, or RecordBuffer::kClosedMark when the context was already dumped.
uint64_t claim_record(CaptureContext* context, format::ProfilerRecord** record) noexcept {
  const uint64_t index = context->buffer.claim();
  if (index >= RecordBuffer::kClosedMark) return RecordBuffer::kClosedMark;
  *record = context->buffer.at(index);
  return index;
}

void fill_header(format::ProfilerRecord* record, int64_t now, uint64_t event_id, uint64_t parent_id,
                 uint8_t type, uint32_t word) noexcept {
  record->host_ns = static_cast<uint64_t>(now);
  record->event_id = event_id;
  record->parent_id = parent_id;
  record->type = type;
  record->thread = current_thread_slot();
  record->word = word;
}

}  // namespace

void* record_start(ContextRegistry& registry, CaptureContext* context,
                   const StartRequest& request) noexcept {
  const int64_t now = host_now_ns();
  if (context == nullptr) return nullptr;
  const DecodedHandle parent = decode_handle(request.parent);
  CaptureContext* target = context;
  uint32_t flags = 0;
  uint64_t parent_id = 0;
  if (request.foreign) {
    target = registry.at(ContextRegistry::kDetachedSlot);
    flags = format::kStartParentForeign;
    if (request.parent == nullptr) flags |= format::kStartParentNull;
  } else if (parent.ours && parent.slot == ContextRegistry::kDetachedSlot) {
    target = registry.at(ContextRegistry::kDetachedSlot);
    parent_id = parent.event_id;
  } else if (request.parent == nullptr) {
    flags = format::kStartParentNull;
  } else if (!parent.ours) {
    flags = format::kStartParentUnknown;
  } else if (parent.slot == context->slot) {
    parent_id = parent.event_id;
  } else {
    flags = format::kStartParentOtherComm;
  }
  if (target == nullptr) return nullptr;

  format::ProfilerRecord* record = nullptr;
  const uint64_t index = claim_record(target, &record);
  if (index >= kMaxEventId) return nullptr;  // closed, or the id space is used up
  const uint64_t event_id = index + 1;
  if (record != nullptr) {
    fill_header(record, now, event_id, parent_id, request.type, flags);
    std::memcpy(record->payload, request.payload, sizeof(record->payload));
    RecordBuffer::publish(record, format::kRecordStart);
  }
  return encode_handle(request.type, target->slot, event_id);
}

void record_stop(ContextRegistry& registry, const DecodedHandle& handle) noexcept {
  const int64_t now = host_now_ns();
  if (!handle.ours) return;
  CaptureContext* context = registry.at(handle.slot);
  if (context == nullptr) return;
  format::ProfilerRecord* record = nullptr;
  if (claim_record(context, &record) == RecordBuffer::kClosedMark || record == nullptr) return;
  fill_header(record, now, handle.event_id, 0, handle.type, 0);
  std::memset(record->payload, 0, sizeof(record->payload));
  RecordBuffer::publish(record, format::kRecordStop);
}

void record_state(ContextRegistry& registry, const DecodedHandle& handle, uint32_t state,
                  bool has_args, uint64_t value) noexcept {
  const int64_t now = host_now_ns();
  if (!handle.ours) return;
  CaptureContext* context = registry.at(handle.slot);
  if (context == nullptr) return;
  format::ProfilerRecord* record = nullptr;
  if (claim_record(context, &record) == RecordBuffer::kClosedMark || record == nullptr) return;
  fill_header(record, now, handle.event_id, 0, handle.type, state);
  format::StatePayload payload{};
  payload.value = value;
  payload.has_args = has_args ? 1 : 0;
  std::memcpy(record->payload, &payload, sizeof(payload));
  RecordBuffer::publish(record, format::kRecordState);
}

}  // namespace npkit::capture
