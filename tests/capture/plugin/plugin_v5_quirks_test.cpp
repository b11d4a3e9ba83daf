// NCCL's call patterns that a plugin must survive and record faithfully (NCCL profiler reference
// 2.3, 3.3, 3.4, 3.9 and design implication 5): each its own test case, each checked record by
// record against what was fed.
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/other_thread.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// One collective as NCCL opens it on the application thread: GroupApi > CollApi > Coll (with its
// legacy Group), everything stopped again ("enqueued") before any GPU or proxy work is seen.
struct EnqueuedColl {
  void* group_api;
  void* coll_api;
  void* group;
  void* coll;
};

EnqueuedColl enqueue_allreduce(CommDriver& comm, uint64_t seq) {
  EnqueuedColl c{};
  c.group_api = comm.start(group_api_descr(1, false));
  comm.state(c.group_api, format::kStateGroupStartApiStop, nullptr);
  c.coll_api =
      comm.start(coll_api_descr(c.group_api, "AllReduce", 4096, "ncclFloat32", 0, nullptr, false));
  comm.stop(c.coll_api);
  comm.state(c.group_api, format::kStateGroupEndApiStart, nullptr);
  c.group = comm.start(group_descr());
  c.coll = comm.start(coll_descr(c.coll_api, comm.setup().rank, seq, "AllReduce", 4096, 0,
                                 "ncclFloat32", 2, 8, "RING", "SIMPLE", c.group));
  comm.stop(c.coll);
  comm.stop(c.group);
  comm.stop(c.group_api);
  return c;
}

TEST_CASE("plugin quirk: Coll stopped before its KernelCh and ProxyOp children start elsewhere",
          "[plugin]") {
  PluginEnv env;
  CommDriver comm({.comm_hash = 0x7e57000000000201ull, .rank = 0, .nranks = 2});
  const EnqueuedColl c = enqueue_allreduce(comm, 0);
  run_on_other_thread("proxy-late", [&] {
    void* op = comm.start(proxy_op_descr(c.coll, 0, ::getpid(), 1, 1, 2, 65536, 1));
    void* kernel0 = comm.start(kernel_ch_descr(c.coll, 0, 5000000000000000000ull));
    void* kernel1 = comm.start(kernel_ch_descr(c.coll, 1, 5000000000000000032ull));
    const abi::StateArgs stop0 = kernel_stop_args(5000000000000100000ull);
    const abi::StateArgs stop1 = kernel_stop_args(5000000000000100032ull);
    comm.state(kernel1, format::kStateKernelChStop, &stop1);
    comm.stop(kernel1);
    comm.state(kernel0, format::kStateKernelChStop, &stop0);
    comm.stop(kernel0);
    comm.stop(op);
  });
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  // Spelled out as well: the three children (records 11..13) name the stopped Coll (record 6,
  // followed by its parentGroup detail).
  REQUIRE(dump.records.size() == 19);
  CHECK(dump.records[6].type == format::kTypeColl);
  CHECK(dump.records[7].kind == format::kRecordDetail);
  CHECK(dump.records[8].kind == format::kRecordStop);
  for (size_t child : {11, 12, 13}) {
    CHECK(dump.records[child].parent_id == dump.records[6].event_id);
  }
}

TEST_CASE("plugin quirk: NULL state args (GroupApi states 23 and 24) record has_args 0",
          "[plugin]") {
  PluginEnv env;
  CommDriver comm({.comm_hash = 0x7e57000000000202ull});
  void* group_api = comm.start(group_api_descr(1, false));
  comm.state(group_api, format::kStateGroupStartApiStop, nullptr);
  comm.state(group_api, format::kStateGroupEndApiStart, nullptr);
  comm.stop(group_api);
  // Not sent by NCCL 2.28.9 for these types, and harmless all the same.
  void* kernel = comm.start(kernel_ch_descr(nullptr, 3, 77));
  comm.state(kernel, format::kStateKernelChStop, nullptr);
  comm.stop(kernel);
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  REQUIRE(dump.records.size() == 7);
  for (size_t i : {1, 2, 5}) {
    format::StatePayload state;
    std::memcpy(&state, dump.records[i].payload, sizeof(state));
    CHECK(dump.records[i].kind == format::kRecordState);
    CHECK(state.has_args == 0);
    CHECK(state.value == 0);
  }
}

TEST_CASE("plugin quirk: uninitialised args of states 19, 23 and 24 (NCCL 2.29/2.30) not recorded",
          "[plugin]") {
  // NCCL 2.29/2.30's v5 adapter passes a stack union it never set for these states: no value
  // may reach the dump, whatever the bytes are.
  PluginEnv env;
  CommDriver comm({.comm_hash = 0x7e57000000000203ull, .nranks = 2});
  abi::StateArgs garbage;
  std::memset(static_cast<void*>(&garbage), 0x5A, sizeof(garbage));
  void* group_api = comm.start(group_api_descr(1, false));
  comm.state(group_api, format::kStateGroupStartApiStop, &garbage);
  comm.state(group_api, format::kStateGroupEndApiStart, &garbage);
  comm.stop(group_api);
  void* op = comm.start(proxy_op_descr(nullptr, 0, ::getpid(), 1, 1, 2, 4096, 1));
  comm.state(op, format::kStateProxyOpInProgress, &garbage);
  comm.stop(op);
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  REQUIRE(dump.records.size() == 7);
  for (size_t i : {1, 2, 5}) {
    format::StatePayload state;
    std::memcpy(&state, dump.records[i].payload, sizeof(state));
    CHECK(dump.records[i].kind == format::kRecordState);
    CHECK(state.has_args == 0);
    CHECK(state.value == 0);
  }
}

TEST_CASE("plugin quirk: double stop of a CollApi handle, stale handles after finalize",
          "[plugin]") {
  PluginEnv env;
  const PluginLibrary& lib = require_plugin();
  CommDriver comm({.comm_hash = 0x7e57000000000203ull, .rank = 1, .nranks = 2});
  void* group_api = comm.start(group_api_descr(1, false));
  void* coll_api =
      comm.start(coll_api_descr(group_api, "AllReduce", 8, "ncclFloat32", 0, nullptr, false));
  comm.stop(coll_api);
  // NCCL keeps its thread-local CollApi handle and stops it again when the next call does not
  // start a CollApi (reference 3.9).
  comm.stop(coll_api);
  comm.stop(group_api);
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  REQUIRE(dump.records.size() == 5);
  CHECK(dump.records[2].event_id == dump.records[1].event_id);
  CHECK(dump.records[3].event_id == dump.records[1].event_id);

  // The same handles once more after finalize: no crash, no record, the dump stays as written.
  const std::string path = env.file(dump_file_name(0x7e57000000000203ull, 1));
  const std::string written = file_bytes(path);
  CHECK(lib.v5->stopEvent(coll_api) == abi::kSuccess);
  CHECK(lib.v5->recordEventState(group_api, static_cast<abi::EventState>(24), nullptr) ==
        abi::kSuccess);
  CHECK(lib.v5->stopEvent(group_api) == abi::kSuccess);
  lib.flush();
  CHECK(file_bytes(path) == written);
  CHECK(entries_in(env.dir.path()) ==
        std::vector<std::string>{dump_file_name(0x7e57000000000203ull, 1)});
}

TEST_CASE("plugin quirk: orphan ProxyStep, started and never stopped", "[plugin]") {
  PluginEnv env;
  CommDriver comm({.comm_hash = 0x7e57000000000204ull, .nranks = 2});
  const EnqueuedColl c = enqueue_allreduce(comm, 7);
  void* op = comm.start(proxy_op_descr(c.coll, 0, ::getpid(), 0, 1, 2, 1024, 0));
  // Recv side: the start is issued again before an irecv was posted; NCCL overwrites the first
  // handle and never stops it (reference 3.4).
  void* orphan = comm.start(proxy_step_descr(op, 0, 0));
  const abi::StateArgs none = trans_size_args(0);
  comm.state(orphan, format::kStateProxyStepRecvWait, &none);
  void* step = comm.start(proxy_step_descr(op, 0, 0));
  const abi::StateArgs got = trans_size_args(1024);
  comm.state(step, format::kStateProxyStepRecvWait, &none);
  comm.state(step, format::kStateProxyStepRecvFlushWait, &got);
  comm.state(step, format::kStateProxyStepRecvGpuWait, &got);
  comm.stop(step);
  comm.stop(op);
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  CHECK(dump.comm.records_incomplete == 0);
}

TEST_CASE("plugin quirk: ProxyOp that never stops (non-network proxy transport)", "[plugin]") {
  PluginEnv env;
  CommDriver comm({.comm_hash = 0x7e57000000000205ull, .nranks = 2});
  const EnqueuedColl c = enqueue_allreduce(comm, 3);
  run_on_other_thread("proxy-cemem", [&] {
    comm.start(proxy_op_descr(c.coll, 0, ::getpid(), 2, 1, 4, 524288, 1));
    comm.start(proxy_op_descr(c.coll, 0, ::getpid(), 3, 1, 4, 524288, 0));
  });
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  CHECK(dump.comm.records_incomplete == 0);
}

TEST_CASE("plugin quirk: NULL parentObj where a parent is expected", "[plugin]") {
  PluginEnv env;
  TempDir library_dir;
  const PluginLibrary lib = open_plugin_copy(library_dir.path());  // a detached context of its own
  INFO(lib.error);
  REQUIRE(lib.error.empty());
  CommDriver comm({.comm_hash = 0x7e57000000000206ull, .rank = 1, .nranks = 2}, &lib);
  // A Coll whose CollApi was not started (parent handle NULL in NCCL), and its children.
  void* coll = comm.start(
      coll_descr(nullptr, 1, 0, "Reduce", 100, 1, "ncclBfloat16", 1, 4, "TREE", "LL", nullptr));
  void* kernel = comm.start(kernel_ch_descr(nullptr, 9, 123456789));
  void* op = comm.start(proxy_op_descr(nullptr, 1, ::getpid(), 9, 0, 1, 512, 0));
  // A ProxyStep without a parent: its context may be another process's (PXN), so it is
  // recorded in the detached file (docs/format.md), not in the communicator's.
  abi::EventDescrV5 step_descr = proxy_step_descr(nullptr, 1, 0);
  void* step = nullptr;
  REQUIRE(lib.v5->startEvent(comm.context(), &step, &step_descr) == abi::kSuccess);
  REQUIRE(step != nullptr);
  CHECK(lib.v5->stopEvent(step) == abi::kSuccess);
  comm.stop(op);
  comm.stop(kernel);
  comm.stop(coll);
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  for (size_t i = 0; i < 3; ++i) {
    CHECK(dump.records[i].word == format::kStartParentNull);
    CHECK(dump.records[i].parent_id == 0);
  }

  CHECK(lib.flush() == 1);
  const NpktDump detached = read_dump(env.file(detached_file_name(::getpid())));
  REQUIRE(detached.records.size() == 2);
  CHECK(detached.records[0].kind == format::kRecordStart);
  CHECK(detached.records[0].type == format::kTypeProxyStep);
  CHECK(detached.records[0].word == format::kStartParentNull);
  CHECK(detached.records[0].parent_id == 0);
  CHECK(start_payload_mismatch(detached, detached.records[0], step_descr).empty());
  CHECK(detached.records[1].kind == format::kRecordStop);
  CHECK(detached.records[1].event_id == detached.records[0].event_id);
}

TEST_CASE("plugin quirk: parent from another communicator, and a parent that is no handle",
          "[plugin]") {
  PluginEnv env;
  CommDriver comm_a({.comm_hash = 0x7e57000000000207ull, .nranks = 2});
  CommDriver comm_b({.comm_hash = 0x7e57000000000208ull, .nranks = 2});
  // One GroupApi per thread, created with the first communicator of a group that spans two
  // (reference 3.1): the CollApi on comm B names comm A's GroupApi.
  void* group_api = comm_a.start(group_api_descr(2, false));
  void* coll_api_a =
      comm_a.start(coll_api_descr(group_api, "AllGather", 16, "ncclInt32", 0, nullptr, false));
  void* coll_api_b =
      comm_b.start(coll_api_descr(group_api, "AllGather", 16, "ncclInt32", 0, nullptr, false),
                   ParentLink::kOtherComm);
  // And a parent that no plugin ever returned.
  void* stray =
      comm_b.start(kernel_ch_descr(reinterpret_cast<void*>(0x10), 0, 1), ParentLink::kUnknown);
  comm_b.stop(stray);
  comm_b.stop(coll_api_b);
  comm_a.stop(coll_api_a);
  comm_a.stop(group_api);
  const NpktDump dump_a = finalize_and_check(comm_a, env.dir.path());
  const NpktDump dump_b = finalize_and_check(comm_b, env.dir.path());
  CHECK(dump_b.records[0].word == format::kStartParentOtherComm);
  CHECK(dump_b.records[1].word == format::kStartParentUnknown);
  CHECK(dump_a.records[1].parent_id == dump_a.records[0].event_id);
  CHECK(entries_in(env.dir.path()).size() == 2);
}

TEST_CASE("plugin quirk: AllGather and Broadcast Coll counts stay in bytes as given", "[plugin]") {
  PluginEnv env;
  CommDriver comm({.comm_hash = 0x7e57000000000209ull, .nranks = 8});
  void* group_api = comm.start(group_api_descr(1, false));
  // User call: 1 Mi float32 per rank; NCCL's Coll event: 4 MiB as ncclInt8 (reference 3.9).
  void* gather_api =
      comm.start(coll_api_descr(group_api, "AllGather", 1048576, "ncclFloat32", 0, nullptr, false));
  void* bcast_api =
      comm.start(coll_api_descr(group_api, "Broadcast", 3000000, "ncclFloat64", 5, nullptr, false));
  void* gather = comm.start(coll_descr(gather_api, 0, 12, "AllGather", 4194304, 0, "ncclInt8", 16,
                                       16, "RING", "SIMPLE", nullptr));
  void* bcast = comm.start(coll_descr(bcast_api, 0, 4, "Broadcast", 24000000, 5, "ncclInt8", 8, 16,
                                      "RING", "SIMPLE", nullptr));
  comm.stop(gather);
  comm.stop(bcast);
  comm.stop(gather_api);
  comm.stop(bcast_api);
  comm.stop(group_api);
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  format::CollPayload gather_payload;
  format::CollApiPayload gather_api_payload;
  std::memcpy(&gather_payload, dump.records[3].payload, sizeof(gather_payload));
  std::memcpy(&gather_api_payload, dump.records[1].payload, sizeof(gather_api_payload));
  CHECK(gather_payload.count == 4194304);
  CHECK(dump.string_at(gather_payload.datatype) == "ncclInt8");
  CHECK(gather_api_payload.count == 1048576);
  CHECK(dump.string_at(gather_api_payload.datatype) == "ncclFloat32");
}

}  // namespace
}  // namespace npkit::test
