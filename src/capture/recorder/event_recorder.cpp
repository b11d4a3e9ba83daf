#include "recorder/event_recorder.hpp"

#include <cstring>

#include "recorder/capture_settings.hpp"
#include "recorder/host_clock.hpp"
#include "recorder/thread_registry.hpp"

namespace npkit::capture {
namespace {

// A context whose event ids are used up can give no record: a refused claim there is counted.
static_assert(kMaxBufferSizeMb * kRecordsPerMb < kMaxEventId);

// Events of NCCL's proxy thread: under PXN their context may be another process's pointer.
bool is_proxy_child(uint8_t type) {
  return type == format::kTypeProxyStep || type == format::kTypeNetPlugin;
}
bool is_proxy_event(uint8_t type) {
  return type == format::kTypeProxyOp || is_proxy_child(type);
}

// Where a start goes: the target context (NULL: none) and its slot, the parent link or flags;
// `drop` when the parent is a dropped handle (nothing is written then).
struct Route {
  CaptureContext* target = nullptr;
  uint16_t slot = ContextRegistry::kDetachedSlot;
  uint64_t parent_id = 0;
  uint32_t flags = 0;
  bool drop = false;
};

Route detached_route(const ContextRegistry& registry, uint32_t flags, uint64_t parent_id) {
  Route route;
  route.target = registry.at(ContextRegistry::kDetachedSlot);
  route.flags = flags;
  route.parent_id = parent_id;
  return route;
}

// A start recorded in `own` (a context of this process), linked to its parent.
Route own_route(const ContextRegistry& registry, CaptureContext* own, const void* parent_obj,
                const DecodedHandle& parent) {
  if (parent.ours && parent.slot == ContextRegistry::kDetachedSlot) {
    return detached_route(registry, 0, parent.event_id);
  }
  Route route;
  route.target = own;
  route.slot = own->slot;
  if (parent_obj == nullptr) {
    route.flags = format::kStartParentNull;
  } else if (!parent.ours) {
    route.flags = format::kStartParentUnknown;
  } else if (parent.slot == own->slot) {
    route.parent_id = parent.event_id;
  } else {
    route.flags = format::kStartParentOtherComm;
  }
  return route;
}

Route route_start(const ContextRegistry& registry, void* context, const StartRequest& request) {
  const DecodedHandle parent = decode_handle(request.parent);
  CaptureContext* own_op = nullptr;
  if (request.type == format::kTypeProxyOp) {
    // pids repeat across PID namespaces: the context must also be one of ours.
    if (!request.foreign) own_op = registry.find(context, parent.slot);
    if (own_op == nullptr) {
      const uint32_t null = request.parent == nullptr ? format::kStartParentNull : 0;
      return detached_route(registry, format::kStartParentForeign | null, 0);
    }
  }
  if (parent.dropped) {
    Route route;
    route.target = registry.at(parent.slot);
    route.slot = parent.slot;
    route.drop = true;
    return route;
  }
  if (own_op != nullptr) return own_route(registry, own_op, request.parent, parent);
  if (is_proxy_child(request.type)) {
    // The parent handle alone says where; `context` may be another process's.
    if (request.parent == nullptr) return detached_route(registry, format::kStartParentNull, 0);
    CaptureContext* target = parent.ours ? registry.at(parent.slot) : nullptr;
    if (target == nullptr) return detached_route(registry, format::kStartParentUnknown, 0);
    Route route;
    route.target = target;
    route.slot = parent.slot;
    route.parent_id = parent.event_id;
    return route;
  }
  return own_route(registry, static_cast<CaptureContext*>(context), request.parent, parent);
}

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

// The detail payload of `request` for a start recorded in context `slot`.
void detail_payload(const StartRequest& request, uint16_t slot, uint8_t* out) noexcept {
  if (request.detail_kind != format::kDetailParentGroup) {
    std::memcpy(out, request.detail, sizeof(request.detail));
    return;
  }
  format::ParentGroupDetail detail{};
  const DecodedHandle group = decode_handle(request.parent_group);
  if (request.parent_group == nullptr) {
    detail.flags = format::kStartParentNull;
  } else if (!group.ours || group.dropped) {
    detail.flags = format::kStartParentUnknown;
  } else if (group.slot == slot) {
    detail.group_id = group.event_id;
  } else {
    detail.flags = format::kStartParentOtherComm;
  }
  std::memcpy(out, &detail, sizeof(detail));
}

void record_detail(CaptureContext* context, int64_t now, uint64_t event_id,
                   const StartRequest& request, uint16_t slot) noexcept {
  format::ProfilerRecord* record = nullptr;
  if (claim_record(context, &record) == RecordBuffer::kClosedMark || record == nullptr) return;
  fill_header(record, now, event_id, 0, request.type, request.detail_kind);
  detail_payload(request, slot, record->payload);
  RecordBuffer::publish(record, format::kRecordDetail);
}

void record_call_tag(CaptureContext* context, int64_t now, uint64_t event_id,
                     const StartRequest& request) noexcept {
  format::ProfilerRecord* record = nullptr;
  if (claim_record(context, &record) == RecordBuffer::kClosedMark || record == nullptr) return;
  fill_header(record, now, event_id, 0, request.type, format::kDetailCallTag);
  std::memcpy(record->payload, request.call_tag, sizeof(record->payload));
  RecordBuffer::publish(record, format::kRecordDetail);
}

}  // namespace

void* record_start(ContextRegistry& registry, void* context, const StartRequest& request) noexcept {
  const int64_t now = host_now_ns();
  if (context == nullptr) return nullptr;
  const Route route = route_start(registry, context, request);
  void* const refused =
      is_proxy_event(request.type) ? dropped_handle(request.type, route.slot) : nullptr;
  if (route.target == nullptr) return refused;
  if (route.drop) {
    route.target->buffer.claim_refused();
    return refused;
  }

  format::ProfilerRecord* record = nullptr;
  const uint64_t index = claim_record(route.target, &record);
  if (index >= kMaxEventId) return refused;  // closed, or the id space is used up
  const uint64_t event_id = index + 1;
  if (record != nullptr) {
    fill_header(record, now, event_id, route.parent_id, request.type, route.flags);
    std::memcpy(record->payload, request.payload, sizeof(record->payload));
    RecordBuffer::publish(record, format::kRecordStart);
    if (request.detail_kind != 0) record_detail(route.target, now, event_id, request, route.slot);
    if (request.has_call_tag) record_call_tag(route.target, now, event_id, request);
  }
  return encode_handle(request.type, route.slot, event_id);
}

void record_stop(ContextRegistry& registry, const DecodedHandle& handle) noexcept {
  const int64_t now = host_now_ns();
  if (!handle.ours) return;
  CaptureContext* context = registry.at(handle.slot);
  if (context == nullptr) return;
  if (handle.dropped) {
    context->buffer.claim_refused();
    return;
  }
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
  if (handle.dropped) {
    context->buffer.claim_refused();
    return;
  }
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
