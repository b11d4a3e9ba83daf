// The event path: parent resolution, routing of PXN operations to the detached context, stop and
// state records, drops and closed buffers. Expected fields come from the documented rules.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include "recorder/capture_context.hpp"
#include "recorder/context_registry.hpp"
#include "recorder/event_handle.hpp"
#include "recorder/event_recorder.hpp"
#include "recorder/host_clock.hpp"
#include "recorder/thread_registry.hpp"

namespace fmt = npkit::format;
using namespace npkit::capture;

namespace {

std::unique_ptr<CaptureContext> registered_context(ContextRegistry& registry, uint64_t capacity,
                                                   bool detached = false) {
  auto context = std::make_unique<CaptureContext>();
  std::string why_not;
  REQUIRE(context->buffer.reserve(capacity, &why_not));
  if (detached)
    REQUIRE(registry.set_detached(context.get()));
  else
    REQUIRE(registry.add(context.get()));
  return context;
}

StartRequest request(uint8_t type, const void* parent, uint8_t payload_byte = 0) {
  StartRequest out;
  out.type = type;
  out.parent = parent;
  std::memset(out.payload, payload_byte, sizeof(out.payload));
  return out;
}

const fmt::ProfilerRecord& record_at(CaptureContext& context, uint64_t index) {
  return *context.buffer.at(index);
}

// An address that must never be dereferenced (another process's pointer under PXN).
CaptureContext* const kForeignContext = reinterpret_cast<CaptureContext*>(uintptr_t{0x10});

}  // namespace

TEST_CASE("recorder: start records resolve their parent as documented", "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto a = registered_context(*registry, 64);
  auto b = registered_context(*registry, 64);
  CHECK(a->slot == 1);
  CHECK(b->slot == 2);

  const int64_t before = host_now_ns();
  void* group = record_start(*registry, a.get(), request(fmt::kTypeGroupApi, nullptr, 0x5A));
  const int64_t after = host_now_ns();
  void* coll = record_start(*registry, a.get(), request(fmt::kTypeColl, group));
  void* other = record_start(*registry, b.get(), request(fmt::kTypeCollApi, group));
  int not_a_handle = 0;
  void* unknown = record_start(*registry, a.get(), request(fmt::kTypeColl, &not_a_handle));

  CHECK(reinterpret_cast<uintptr_t>(group) == 0xA800010000000001ull);  // GroupApi, slot 1, id 1
  CHECK(reinterpret_cast<uintptr_t>(coll) == 0xA100010000000002ull);   // Coll, slot 1, id 2
  CHECK(reinterpret_cast<uintptr_t>(other) == 0xA900020000000001ull);  // CollApi, slot 2, id 1
  CHECK(reinterpret_cast<uintptr_t>(unknown) == 0xA100010000000003ull);

  const fmt::ProfilerRecord& g = record_at(*a, 0);
  CHECK(g.kind == fmt::kRecordStart);
  CHECK(g.type == fmt::kTypeGroupApi);
  CHECK(g.event_id == 1);
  CHECK(g.parent_id == 0);
  CHECK(g.word == fmt::kStartParentNull);
  CHECK(g.thread == current_thread_slot());
  CHECK(static_cast<int64_t>(g.host_ns) >= before);
  CHECK(static_cast<int64_t>(g.host_ns) <= after);
  CHECK(g.payload[0] == 0x5A);
  CHECK(g.payload[31] == 0x5A);

  CHECK(record_at(*a, 1).parent_id == 1);
  CHECK(record_at(*a, 1).word == 0);
  CHECK(record_at(*b, 0).parent_id == 0);
  CHECK(record_at(*b, 0).word == fmt::kStartParentOtherComm);
  CHECK(record_at(*a, 2).parent_id == 0);
  CHECK(record_at(*a, 2).word == fmt::kStartParentUnknown);
}

TEST_CASE("recorder: PXN operations and their steps go to the detached context", "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto detached = registered_context(*registry, 64, /*detached=*/true);
  auto a = registered_context(*registry, 64);

  StartRequest op = request(fmt::kTypeProxyOp, reinterpret_cast<void*>(uintptr_t{0x20}));
  op.foreign = true;
  // The context and the parent are another process's pointers: never dereferenced.
  void* op_handle = record_start(*registry, kForeignContext, op);
  void* step_handle =
      record_start(*registry, kForeignContext, request(fmt::kTypeProxyStep, op_handle));
  StartRequest orphan = request(fmt::kTypeProxyOp, nullptr);
  orphan.foreign = true;
  record_start(*registry, a.get(), orphan);

  CHECK(reinterpret_cast<uintptr_t>(op_handle) == 0xA300000000000001ull);  // slot 0, id 1
  CHECK(reinterpret_cast<uintptr_t>(step_handle) == 0xA400000000000002ull);
  CHECK(record_at(*detached, 0).word == fmt::kStartParentForeign);
  CHECK(record_at(*detached, 0).parent_id == 0);
  CHECK(record_at(*detached, 1).word == 0);
  CHECK(record_at(*detached, 1).parent_id == 1);
  CHECK(record_at(*detached, 2).word == (fmt::kStartParentForeign | fmt::kStartParentNull));
  CHECK(a->buffer.claimed() == 0);

  record_stop(*registry, decode_handle(step_handle));
  CHECK(record_at(*detached, 3).kind == fmt::kRecordStop);
  CHECK(record_at(*detached, 3).event_id == 2);
  CHECK(record_at(*detached, 3).type == fmt::kTypeProxyStep);
}

TEST_CASE("recorder: ProxyStep and NetPlugin take their context from their parent only",
          "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto detached = registered_context(*registry, 64, /*detached=*/true);
  auto a = registered_context(*registry, 64);
  // NCCL passes the op's context with its steps; under PXN it is another process's pointer.
  void* op = record_start(*registry, a.get(), request(fmt::kTypeProxyOp, nullptr));
  void* step = record_start(*registry, kForeignContext, request(fmt::kTypeProxyStep, op));
  void* net = record_start(*registry, kForeignContext, request(fmt::kTypeNetPlugin, step));
  CHECK(reinterpret_cast<uintptr_t>(step) == 0xA400010000000002ull);
  CHECK(reinterpret_cast<uintptr_t>(net) == 0xA700010000000003ull);
  CHECK(record_at(*a, 1).parent_id == 1);
  CHECK(record_at(*a, 2).parent_id == 2);
  CHECK(record_at(*a, 2).word == 0);

  // No parent of ours: the detached context, flagged; `context` is not used.
  int not_a_handle = 0;
  void* orphan_step =
      record_start(*registry, kForeignContext, request(fmt::kTypeProxyStep, nullptr));
  void* orphan_net =
      record_start(*registry, kForeignContext, request(fmt::kTypeNetPlugin, &not_a_handle));
  void* empty_slot =
      record_start(*registry, kForeignContext,
                   request(fmt::kTypeProxyStep, encode_handle(fmt::kTypeProxyOp, 9, 1)));
  void* child = record_start(*registry, kForeignContext, request(fmt::kTypeNetPlugin, orphan_step));
  CHECK(reinterpret_cast<uintptr_t>(orphan_step) == 0xA400000000000001ull);
  CHECK(reinterpret_cast<uintptr_t>(orphan_net) == 0xA700000000000002ull);
  CHECK(reinterpret_cast<uintptr_t>(empty_slot) == 0xA400000000000003ull);
  CHECK(reinterpret_cast<uintptr_t>(child) == 0xA700000000000004ull);
  CHECK(record_at(*detached, 0).word == fmt::kStartParentNull);
  CHECK(record_at(*detached, 1).word == fmt::kStartParentUnknown);
  CHECK(record_at(*detached, 2).word == fmt::kStartParentUnknown);
  CHECK(record_at(*detached, 3).word == 0);
  CHECK(record_at(*detached, 3).parent_id == 1);
  for (uint64_t i = 0; i < 3; ++i) CHECK(record_at(*detached, i).parent_id == 0);
  CHECK(a->buffer.claimed() == 3);
}

TEST_CASE("recorder: a ProxyOp with our pid is recorded in its context only if that is ours",
          "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto detached = registered_context(*registry, 64, /*detached=*/true);
  auto a = registered_context(*registry, 64);
  auto b = registered_context(*registry, 64);
  void* coll = record_start(*registry, b.get(), request(fmt::kTypeColl, nullptr));
  void* op = record_start(*registry, b.get(), request(fmt::kTypeProxyOp, coll));
  void* no_parent = record_start(*registry, b.get(), request(fmt::kTypeProxyOp, nullptr));
  CHECK(reinterpret_cast<uintptr_t>(op) == 0xA300020000000002ull);
  CHECK(reinterpret_cast<uintptr_t>(no_parent) == 0xA300020000000003ull);
  CHECK(record_at(*b, 1).parent_id == 1);
  CHECK(record_at(*b, 2).word == fmt::kStartParentNull);

  // Another process with the same pid (another PID namespace): its context is no context of
  // ours, its parent a handle of its own plugin (here one that names a slot of ours).
  void* foreign = record_start(*registry, kForeignContext, request(fmt::kTypeProxyOp, coll));
  CHECK(reinterpret_cast<uintptr_t>(foreign) == 0xA300000000000001ull);
  CHECK(record_at(*detached, 0).word == fmt::kStartParentForeign);
  CHECK(record_at(*detached, 0).parent_id == 0);
  CHECK(a->buffer.claimed() == 0);
  CHECK(b->buffer.claimed() == 3);
}

TEST_CASE("recorder: without a detached context PXN operations get a dropped handle", "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto a = registered_context(*registry, 64);
  StartRequest op = request(fmt::kTypeProxyOp, nullptr);
  op.foreign = true;
  void* op_handle = record_start(*registry, kForeignContext, op);
  CHECK(reinterpret_cast<uintptr_t>(op_handle) == 0xA300000000000000ull);  // slot 0, dropped
  void* step = record_start(*registry, kForeignContext, request(fmt::kTypeProxyStep, op_handle));
  void* net = record_start(*registry, kForeignContext, request(fmt::kTypeNetPlugin, step));
  void* orphan = record_start(*registry, kForeignContext, request(fmt::kTypeProxyStep, nullptr));
  CHECK(reinterpret_cast<uintptr_t>(step) == 0xA400000000000000ull);
  CHECK(reinterpret_cast<uintptr_t>(net) == 0xA700000000000000ull);
  CHECK(reinterpret_cast<uintptr_t>(orphan) == 0xA400000000000000ull);
  record_state(*registry, decode_handle(step), 9, true, 4096);
  record_stop(*registry, decode_handle(net));
  record_stop(*registry, decode_handle(op_handle));
  CHECK(a->buffer.claimed() == 0);
}

TEST_CASE("recorder: proxy events refused by a dumped context get dropped handles, counted there",
          "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto detached = registered_context(*registry, 64, /*detached=*/true);
  auto a = registered_context(*registry, 64);
  RecordBuffer::Closed closed;
  REQUIRE(detached->buffer.close(std::chrono::milliseconds(50), &closed));
  REQUIRE(a->buffer.close(std::chrono::milliseconds(50), &closed));

  StartRequest foreign = request(fmt::kTypeProxyOp, nullptr);
  foreign.foreign = true;
  void* op = record_start(*registry, kForeignContext, foreign);
  void* step = record_start(*registry, kForeignContext, request(fmt::kTypeProxyStep, op));
  void* net = record_start(*registry, kForeignContext, request(fmt::kTypeNetPlugin, step));
  CHECK(reinterpret_cast<uintptr_t>(op) == 0xA300000000000000ull);
  CHECK(reinterpret_cast<uintptr_t>(step) == 0xA400000000000000ull);
  CHECK(reinterpret_cast<uintptr_t>(net) == 0xA700000000000000ull);
  record_state(*registry, decode_handle(step), 9, true, 4096);
  record_stop(*registry, decode_handle(net));
  record_stop(*registry, decode_handle(step));
  record_stop(*registry, decode_handle(op));
  CHECK(detached->buffer.claims_after_close() == 7);

  // This process's own op on its dumped communicator: the same, in its slot.
  void* own_op = record_start(*registry, a.get(), request(fmt::kTypeProxyOp, nullptr));
  void* own_step = record_start(*registry, a.get(), request(fmt::kTypeProxyStep, own_op));
  CHECK(reinterpret_cast<uintptr_t>(own_op) == 0xA300010000000000ull);
  CHECK(reinterpret_cast<uintptr_t>(own_step) == 0xA400010000000000ull);
  record_stop(*registry, decode_handle(own_step));
  // Other types keep the NULL handle.
  CHECK(record_start(*registry, a.get(), request(fmt::kTypeKernelCh, nullptr)) == nullptr);
  CHECK(a->buffer.claims_after_close() == 4);
  CHECK(detached->buffer.claims_after_close() == 7);
}

TEST_CASE("recorder: stop and state records", "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto a = registered_context(*registry, 64);
  void* kernel = record_start(*registry, a.get(), request(fmt::kTypeKernelCh, nullptr));
  record_state(*registry, decode_handle(kernel), 22, true, 123456789);
  record_stop(*registry, decode_handle(kernel));
  record_stop(*registry, decode_handle(kernel));  // a double stop is recorded too
  void* group = record_start(*registry, a.get(), request(fmt::kTypeGroupApi, nullptr));
  record_state(*registry, decode_handle(group), 23, false, 0);

  const fmt::ProfilerRecord& state = record_at(*a, 1);
  CHECK(state.kind == fmt::kRecordState);
  CHECK(state.type == fmt::kTypeKernelCh);
  CHECK(state.event_id == 1);
  CHECK(state.word == 22);
  fmt::StatePayload payload{};
  std::memcpy(&payload, state.payload, sizeof(payload));
  CHECK(payload.value == 123456789);
  CHECK(payload.has_args == 1);

  for (uint64_t i : {2, 3}) {
    const fmt::ProfilerRecord& stop = record_at(*a, i);
    CHECK(stop.kind == fmt::kRecordStop);
    CHECK(stop.type == fmt::kTypeKernelCh);
    CHECK(stop.event_id == 1);
    CHECK(stop.word == 0);
    CHECK(stop.parent_id == 0);
  }
  const fmt::ProfilerRecord& null_args = record_at(*a, 5);
  CHECK(null_args.kind == fmt::kRecordState);
  CHECK(null_args.type == fmt::kTypeGroupApi);
  CHECK(null_args.event_id == 5);
  CHECK(null_args.word == 23);
  std::memcpy(&payload, null_args.payload, sizeof(payload));
  CHECK(payload.value == 0);
  CHECK(payload.has_args == 0);
  CHECK(a->buffer.claimed() == 6);
}

TEST_CASE("recorder: what is not ours or has no context is ignored", "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto a = registered_context(*registry, 64);
  CHECK(record_start(*registry, nullptr, request(fmt::kTypeColl, nullptr)) == nullptr);
  int local = 0;
  record_stop(*registry, decode_handle(nullptr));
  record_stop(*registry, decode_handle(&local));
  record_stop(*registry, decode_handle(encode_handle(fmt::kTypeColl, 9, 1)));  // empty slot
  record_state(*registry, decode_handle(&local), 9, true, 1);
  CHECK(a->buffer.claimed() == 0);
}

TEST_CASE("recorder: a full buffer still hands out handles, a closed one does not", "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto a = registered_context(*registry, 2);
  void* first = record_start(*registry, a.get(), request(fmt::kTypeColl, nullptr));
  record_start(*registry, a.get(), request(fmt::kTypeColl, nullptr));
  void* dropped = record_start(*registry, a.get(), request(fmt::kTypeKernelCh, first));
  // A handle of its own: an id past the capacity (which one depends on the thread's drop stripe).
  const DecodedHandle handle = decode_handle(dropped);
  CHECK(handle.ours);
  CHECK_FALSE(handle.dropped);
  CHECK(handle.type == fmt::kTypeKernelCh);
  CHECK(handle.slot == a->slot);
  CHECK(handle.event_id > 2);
  record_stop(*registry, decode_handle(dropped));

  RecordBuffer::Closed closed;
  REQUIRE(a->buffer.close(std::chrono::milliseconds(50), &closed));
  CHECK(closed.count == 2);
  CHECK(closed.attempted == 4);
  CHECK(closed.dropped == 2);

  CHECK(record_start(*registry, a.get(), request(fmt::kTypeColl, nullptr)) == nullptr);
  record_stop(*registry, decode_handle(first));  // NCCL's stale stop after the dump
  record_state(*registry, decode_handle(first), 9, true, 1);
  CHECK(a->buffer.claims_after_close() == 3);
}
