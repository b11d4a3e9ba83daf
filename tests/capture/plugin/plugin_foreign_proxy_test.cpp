// PXN: NCCL's proxy delivers ProxyOps created by another process, whose context and parentObj are
// that process's pointers (NCCL profiler reference 2.10, 3.1). The plugin must not dereference
// them; its documented policy (docs/capture.md, docs/format.md) records such ops and their steps in
// npkit_detached_pid<pid>.npkt, flagged kStartParentForeign.
//
// The detached context belongs to the process and is created at its first init, in that init's
// dump directory; a fresh copy of the library gives this test a process-like fresh instance.
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/host_clock.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {
namespace {

template <typename Payload>
Payload payload_of(const format::ProfilerRecord& record) {
  Payload p;
  std::memcpy(&p, record.payload, sizeof(p));
  return p;
}

TEST_CASE("plugin quirk: foreign ProxyOp (PXN) goes to the detached dump, pointers untouched",
          "[plugin]") {
  PluginEnv env;
  TempDir library_dir;
  const PluginLibrary lib = open_plugin_copy(library_dir.path());
  INFO(lib.error);
  REQUIRE(lib.error.empty());

  const uint64_t hash = 0x7e57000000000901ull;
  CommDriver comm({.comm_hash = hash, .rank = 1, .nranks = 2}, &lib);
  void* group_api = comm.start(group_api_descr(1, false));
  comm.stop(group_api);

  // Another process's context and parent: values that fault if dereferenced.
  void* const foreign_context = reinterpret_cast<void*>(0x10);
  void* const foreign_parent = reinterpret_cast<void*>(0x18);
  const pid_t other_pid = ::getpid() + 1;
  const int64_t t_before = realtime_ns();
  abi::EventDescrV5 op_descr = proxy_op_descr(foreign_parent, 0, other_pid, 6, 1, 2, 8192, 1);
  void* op = nullptr;
  REQUIRE(lib.v5->startEvent(foreign_context, &op, &op_descr) == abi::kSuccess);
  REQUIRE(op != nullptr);
  abi::StateArgs zero = zeroed_args();
  CHECK(lib.v5->recordEventState(op, static_cast<abi::EventState>(19), &zero) == abi::kSuccess);
  abi::EventDescrV5 step_descr = proxy_step_descr(op, 0, 1);
  void* step = nullptr;
  REQUIRE(lib.v5->startEvent(foreign_context, &step, &step_descr) == abi::kSuccess);
  REQUIRE(step != nullptr);
  abi::StateArgs sent = trans_size_args(8192);
  CHECK(lib.v5->recordEventState(step, static_cast<abi::EventState>(9), &sent) == abi::kSuccess);
  CHECK(lib.v5->stopEvent(step) == abi::kSuccess);
  CHECK(lib.v5->stopEvent(op) == abi::kSuccess);
  const int64_t t_after = realtime_ns();

  // The communicator's own dump has none of it.
  const NpktDump own = finalize_and_check(comm, env.dir.path());
  CHECK(own.records.size() == 2);

  CHECK(lib.flush() == 1);
  const std::string detached_name = detached_file_name(::getpid());
  std::vector<std::string> expected_files = {detached_name, dump_file_name(hash, 1)};
  std::sort(expected_files.begin(), expected_files.end());
  CHECK(entries_in(env.dir.path()) == expected_files);
  const NpktDump dump = read_dump(env.file(detached_name));
  CHECK(dump.comm.comm_hash == 0);
  CHECK(dump.comm.rank == -1);
  CHECK(dump.comm.pid == ::getpid());
  CHECK(dump.comm.end_reason == format::kEndProcessExit);
  CHECK(dump.comm.records_attempted == 6);
  REQUIRE(dump.records.size() == 6);

  const format::ProfilerRecord& op_start = dump.records[0];
  CHECK(op_start.kind == format::kRecordStart);
  CHECK(op_start.type == format::kTypeProxyOp);
  CHECK(op_start.word == format::kStartParentForeign);
  CHECK(op_start.parent_id == 0);
  CHECK(start_payload_mismatch(dump, op_start, op_descr).empty());
  CHECK(payload_of<format::ProxyOpPayload>(op_start).pid == other_pid);

  const format::ProfilerRecord& step_start = dump.records[2];
  CHECK(step_start.kind == format::kRecordStart);
  CHECK(step_start.type == format::kTypeProxyStep);
  CHECK(step_start.word == 0);
  CHECK(step_start.parent_id == op_start.event_id);
  CHECK(payload_of<format::ProxyStepPayload>(step_start).step == 1);

  const uint8_t kinds[6] = {format::kRecordStart, format::kRecordState, format::kRecordStart,
                            format::kRecordState, format::kRecordStop,  format::kRecordStop};
  const uint64_t events[6] = {op_start.event_id,   op_start.event_id,   step_start.event_id,
                              step_start.event_id, step_start.event_id, op_start.event_id};
  for (size_t i = 0; i < 6; ++i) {
    INFO("record " << i);
    CHECK(dump.records[i].kind == kinds[i]);
    CHECK(dump.records[i].event_id == events[i]);
    CHECK(static_cast<int64_t>(dump.records[i].host_ns) >= t_before);
    CHECK(static_cast<int64_t>(dump.records[i].host_ns) <= t_after);
  }
  CHECK(dump.records[1].word == format::kStateProxyOpInProgress);
  CHECK(dump.records[3].word == format::kStateProxyStepSendWait);
  CHECK(payload_of<format::StatePayload>(dump.records[3]).value == 8192);
}

}  // namespace
}  // namespace npkit::test
