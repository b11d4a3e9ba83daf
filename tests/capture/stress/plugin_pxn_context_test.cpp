// PXN with another process's real context (issue 17, item 0). NCCL's proxy thread starts the
// ProxyOps of another process with that process's context and parentObj, and their ProxyStep and
// NetPlugin children with the same context. The plugin must never dereference that context: here
// it is a live communicator's context of the parent process, made to fault in the forked child
// (foreign_owner.hpp), so a dereference is a SIGSEGV of the child, reported rather than fatal to
// the test binary; a write through it is reported also where it cannot be made to fault.
// Expected records follow docs/format.md (detached file, parent flags) and docs/capture.md.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/stress/child_process.hpp"
#include "capture/stress/foreign_owner.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

// The child's side: its own plugin copy called the way NCCL's proxy thread calls it, with the
// owner's context. Counts calls that did not return ncclSuccess; allocates nothing.
struct ProxyThread {
  const PluginLibrary& lib;
  void* context;
  int failures = 0;

  void* start(abi::EventDescrV5 descr) {
    void* handle = nullptr;
    if (lib.v5->startEvent(context, &handle, &descr) != abi::kSuccess) ++failures;
    return handle;
  }
  void state(void* handle, int state, abi::StateArgs args) {
    if (lib.v5->recordEventState(handle, static_cast<abi::EventState>(state), &args) !=
        abi::kSuccess) {
      ++failures;
    }
  }
  void stop(void* handle) {
    if (lib.v5->stopEvent(handle) != abi::kSuccess) ++failures;
  }
};

// The owner's op as NCCL's proxy thread drives it under PXN: its pid, its Coll handle as parentObj
// (a handle of another instance), state 19; one step with `step_state`; one network event under
// the step (with an update when `net_update`); all stopped. Returns {op, step, net}.
std::vector<void*> drive_owner_op(ProxyThread& proxy, const ForeignOwner& owner, int step_state,
                                  bool net_update) {
  void* op = proxy.start(proxy_op_descr(owner.coll, 0, owner.pid, 2, 1, 2, 4096, 1));
  proxy.state(op, format::kStateProxyOpInProgress, zeroed_args());
  void* step = proxy.start(proxy_step_descr(op, 0, 0));
  proxy.state(step, step_state, trans_size_args(4096));
  void* net = proxy.start(net_plugin_descr(step, 0, 7, nullptr));
  if (net_update) proxy.state(net, format::kStateNetPluginUpdate, net_data_args(nullptr));
  proxy.stop(net);
  proxy.stop(step);
  proxy.stop(op);
  return {op, step, net};
}

// What the parent expects of one record.
struct Expected {
  uint8_t kind;
  uint8_t type;
  uint64_t event_id;
  uint64_t parent_id;  // start records
  uint32_t word;       // start: parent flags; state: the state number
};

std::string describe(const format::ProfilerRecord& r) {
  return "kind " + std::to_string(r.kind) + " type " + std::to_string(r.type) + " id " +
         std::to_string(r.event_id) + " parent " + std::to_string(r.parent_id) + " word " +
         std::to_string(r.word);
}

void check_records(const NpktDump& dump, const std::vector<Expected>& expected) {
  REQUIRE(dump.records.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const format::ProfilerRecord& r = dump.records[i];
    const Expected& e = expected[i];
    INFO("record " << i << ": " << describe(r));
    CHECK(r.kind == e.kind);
    CHECK(r.type == e.type);
    CHECK(r.event_id == e.event_id);
    CHECK(r.parent_id == (e.kind == format::kRecordStart ? e.parent_id : 0));
    CHECK(r.word == e.word);
  }
}

int32_t payload_pid(const format::ProfilerRecord& record) {
  format::ProxyOpPayload payload;
  std::memcpy(&payload, record.payload, sizeof(payload));
  return payload.pid;
}

// The child reports "pid <n>" first; -1 when it did not.
int reported_pid(const ChildOutcome& child) {
  for (const std::string& line : child.lines) {
    if (line.rfind("pid ", 0) == 0) return std::atoi(line.c_str() + 4);
  }
  return -1;
}

void check_ended_normally(const ChildOutcome& child) {
  INFO(child.text());
  CHECK(child.signal == 0);
  CHECK(child.exited);
  CHECK(child.exit_code == 0);
  CHECK(child.failures().empty());
}

// In the child: a fresh plugin copy in `library_dir`, dumps to `dump_dir`.
PluginLibrary open_child_plugin(const std::string& library_dir, const std::string& dump_dir,
                                ChildReport& report) {
  report.note("pid " + std::to_string(::getpid()));
  ::setenv("NPKIT_DUMP_DIR", dump_dir.c_str(), 1);
  PluginLibrary lib = open_plugin_copy(library_dir);
  if (!lib.error.empty()) report.fail(lib.error);
  return lib;
}

// In the child: inits its own communicator; NULL after a report.fail.
void* init_own(const PluginLibrary& lib, uint64_t hash, ChildReport& report) {
  void* context = nullptr;
  int mask = 0;
  if (lib.v5->init(&context, hash, &mask, "pxn-child", 1, 2, 1, capture_log) != abi::kSuccess ||
      context == nullptr) {
    report.fail("own init gave no context");
    return nullptr;
  }
  return context;
}

void check_handles(const std::vector<void*>& handles, ChildReport& report) {
  for (size_t i = 0; i < handles.size(); ++i) {
    if (handles[i] == nullptr) report.fail("handle " + std::to_string(i) + " is NULL");
  }
}

constexpr uint64_t kOwnerHash = 0x9e00000000000001ull;
constexpr uint64_t kChildHash = 0x9e00000000000002ull;

TEST_CASE(
    "plugin stress: PXN ops started with another process's real context go to the detached "
    "dump, also when that process has our pid",
    "[plugin][stress]") {
  PluginEnv env;
  TempDir owner_lib_dir, child_lib_dir, child_dumps;
  const ForeignOwner owner = open_foreign_owner(owner_lib_dir.path(), kOwnerHash);
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    const OwnerArenaHold hold(owner.context);
    const PluginLibrary lib = open_child_plugin(child_lib_dir.path(), child_dumps.path(), report);
    if (report.failed()) return;
    void* own = init_own(lib, kChildHash, report);
    if (own == nullptr) return;
    abi::EventDescrV5 group = group_api_descr(1, false);
    void* group_api = nullptr;
    lib.v5->startEvent(own, &group_api, &group);
    lib.v5->stopEvent(group_api);

    ProxyThread proxy{lib, owner.context};
    std::vector<void*> handles;
    {
      ForeignContextGuard guard(owner.context, hold);
      if (!guard.ok()) report.fail("mprotect of the owner's context failed");
      if (!guard.protects()) report.note("reads through the owner's context are not caught");
      handles = drive_owner_op(proxy, owner, format::kStateProxyStepSendWait, true);
      // The owner in another PID namespace, where its pid is ours.
      void* same_pid_op = proxy.start(proxy_op_descr(owner.coll, 0, ::getpid(), 3, 1, 1, 512, 0));
      void* same_pid_step = proxy.start(proxy_step_descr(same_pid_op, 0, 0));
      proxy.stop(same_pid_step);
      proxy.stop(same_pid_op);
      handles.insert(handles.end(), {same_pid_op, same_pid_step});
      if (!guard.end()) report.fail("the owner's context was written through");
    }
    check_handles(handles, report);
    if (proxy.failures != 0) report.fail("a call did not return ncclSuccess");
    const int written = lib.flush();
    if (written != 2) report.fail("npkitProfilerFlush wrote " + std::to_string(written));
  });
  check_ended_normally(child);
  finalize_foreign_owner(owner);

  const int child_pid = reported_pid(child);
  REQUIRE(child_pid > 0);
  std::vector<std::string> expected_files = {detached_file_name(child_pid),
                                             dump_file_name(kChildHash, 1)};
  std::sort(expected_files.begin(), expected_files.end());
  REQUIRE(entries_in(child_dumps.path()) == expected_files);
  const NpktDump own = read_dump(child_dumps.file(dump_file_name(kChildHash, 1)));
  CHECK(own.records.size() == 2);  // the GroupApi only
  const NpktDump detached = read_dump(child_dumps.file(detached_file_name(child_pid)));
  CHECK(detached.comm.pid == child_pid);
  CHECK(detached.comm.records_attempted == 13);
  using namespace format;
  check_records(detached, {
                              {kRecordStart, kTypeProxyOp, 1, 0, kStartParentForeign},
                              {kRecordState, kTypeProxyOp, 1, 0, kStateProxyOpInProgress},
                              {kRecordStart, kTypeProxyStep, 3, 1, 0},
                              {kRecordState, kTypeProxyStep, 3, 0, kStateProxyStepSendWait},
                              {kRecordStart, kTypeNetPlugin, 5, 3, 0},
                              {kRecordState, kTypeNetPlugin, 5, 0, kStateNetPluginUpdate},
                              {kRecordStop, kTypeNetPlugin, 5, 0, 0},
                              {kRecordStop, kTypeProxyStep, 3, 0, 0},
                              {kRecordStop, kTypeProxyOp, 1, 0, 0},
                              {kRecordStart, kTypeProxyOp, 10, 0, kStartParentForeign},
                              {kRecordStart, kTypeProxyStep, 11, 10, 0},
                              {kRecordStop, kTypeProxyStep, 11, 0, 0},
                              {kRecordStop, kTypeProxyOp, 10, 0, 0},
                          });
  CHECK(payload_pid(detached.records[0]) == owner.pid);
  CHECK(payload_pid(detached.records[9]) == child_pid);
}

TEST_CASE(
    "plugin stress: PXN ops of another process while capture is disabled here get handles "
    "that record nothing",
    "[plugin][stress]") {
  PluginEnv env;
  TempDir owner_lib_dir, child_lib_dir, child_dumps;
  child_dumps.write_file("regular_file", "not a directory");
  const ForeignOwner owner = open_foreign_owner(owner_lib_dir.path(), kOwnerHash);
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    const OwnerArenaHold hold(owner.context);
    const PluginLibrary lib =
        open_child_plugin(child_lib_dir.path(), child_dumps.file("regular_file/dumps"), report);
    if (report.failed()) return;
    void* own = reinterpret_cast<void*>(0x1);
    int mask = 0;
    lib.v5->init(&own, kChildHash, &mask, "pxn-child", 1, 2, 1, capture_log);
    if (own != nullptr) report.fail("capture was not disabled");

    ProxyThread proxy{lib, owner.context};
    std::vector<void*> handles;
    {
      ForeignContextGuard guard(owner.context, hold);
      if (!guard.ok()) report.fail("mprotect of the owner's context failed");
      if (!guard.protects()) report.note("reads through the owner's context are not caught");
      handles = drive_owner_op(proxy, owner, format::kStateProxyStepRecvWait, true);
      void* orphan = proxy.start(proxy_step_descr(nullptr, 0, 1));
      proxy.stop(orphan);
      handles.push_back(orphan);
      if (!guard.end()) report.fail("the owner's context was written through");
    }
    check_handles(handles, report);
    if (proxy.failures != 0) report.fail("a call did not return ncclSuccess");
    const int written = lib.flush();
    if (written != 0) report.fail("npkitProfilerFlush wrote " + std::to_string(written));
  });
  check_ended_normally(child);
  finalize_foreign_owner(owner);
  CHECK(entries_in(child_dumps.path()) == std::vector<std::string>{"regular_file"});
}

TEST_CASE(
    "plugin stress: PXN ops of another process after the detached dump was flushed get handles "
    "that record nothing",
    "[plugin][stress]") {
  PluginEnv env;
  TempDir owner_lib_dir, child_lib_dir, child_dumps;
  const ForeignOwner owner = open_foreign_owner(owner_lib_dir.path(), kOwnerHash);
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    const OwnerArenaHold hold(owner.context);
    const PluginLibrary lib = open_child_plugin(child_lib_dir.path(), child_dumps.path(), report);
    if (report.failed()) return;
    void* own = init_own(lib, kChildHash, report);
    if (own == nullptr) return;
    ProxyThread proxy{lib, owner.context};
    void* before = proxy.start(proxy_op_descr(owner.coll, 0, owner.pid, 2, 1, 2, 4096, 1));
    proxy.stop(before);
    const int written = lib.flush();
    if (written != 2) report.fail("npkitProfilerFlush wrote " + std::to_string(written));

    ProxyThread own_proxy{lib, own};
    std::vector<void*> handles;
    {
      ForeignContextGuard guard(owner.context, hold);
      if (!guard.ok()) report.fail("mprotect of the owner's context failed");
      if (!guard.protects()) report.note("reads through the owner's context are not caught");
      handles = drive_owner_op(proxy, owner, format::kStateProxyStepSendWait, false);
      void* orphan = proxy.start(net_plugin_descr(nullptr, 0, 8, nullptr));
      proxy.stop(orphan);
      // This process's own op on its dumped communicator, and its step.
      void* own_op = own_proxy.start(proxy_op_descr(nullptr, 1, ::getpid(), 0, 0, 1, 512, 0));
      void* own_step = own_proxy.start(proxy_step_descr(own_op, 1, 0));
      own_proxy.stop(own_step);
      own_proxy.stop(own_op);
      handles.insert(handles.end(), {orphan, own_op, own_step});
      if (!guard.end()) report.fail("the owner's context was written through");
    }
    check_handles(handles, report);
    if (proxy.failures + own_proxy.failures != 0) report.fail("a call did not return success");
    if (lib.flush() != 0) report.fail("the second npkitProfilerFlush wrote a file");
  });
  check_ended_normally(child);
  finalize_foreign_owner(owner);

  const int child_pid = reported_pid(child);
  REQUIRE(child_pid > 0);
  std::vector<std::string> expected_files = {detached_file_name(child_pid),
                                             dump_file_name(kChildHash, 1)};
  std::sort(expected_files.begin(), expected_files.end());
  REQUIRE(entries_in(child_dumps.path()) == expected_files);
  CHECK(read_dump(child_dumps.file(dump_file_name(kChildHash, 1))).records.empty());
  const NpktDump detached = read_dump(child_dumps.file(detached_file_name(child_pid)));
  CHECK(detached.comm.records_attempted == 2);
  CHECK(detached.comm.events_after_dump == 0);
  using namespace format;
  check_records(detached, {
                              {kRecordStart, kTypeProxyOp, 1, 0, kStartParentForeign},
                              {kRecordStop, kTypeProxyOp, 1, 0, 0},
                          });
}

TEST_CASE(
    "plugin stress: ProxyStep and NetPlugin with another process's context and no parent of "
    "ours go to the detached dump",
    "[plugin][stress]") {
  PluginEnv env;
  TempDir owner_lib_dir, child_lib_dir, child_dumps;
  const ForeignOwner owner = open_foreign_owner(owner_lib_dir.path(), kOwnerHash);
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    const OwnerArenaHold hold(owner.context);
    const PluginLibrary lib = open_child_plugin(child_lib_dir.path(), child_dumps.path(), report);
    if (report.failed()) return;
    if (init_own(lib, kChildHash, report) == nullptr) return;
    ProxyThread proxy{lib, owner.context};
    std::vector<void*> handles;
    {
      ForeignContextGuard guard(owner.context, hold);
      if (!guard.ok()) report.fail("mprotect of the owner's context failed");
      if (!guard.protects()) report.note("reads through the owner's context are not caught");
      void* step = proxy.start(proxy_step_descr(nullptr, 0, 4));
      proxy.state(step, format::kStateProxyStepRecvWait, trans_size_args(2048));
      void* net = proxy.start(net_plugin_descr(step, 0, 7, nullptr));
      proxy.stop(net);
      proxy.stop(step);
      void* lone_net = proxy.start(net_plugin_descr(nullptr, 0, 8, nullptr));
      proxy.state(lone_net, format::kStateNetPluginUpdate, net_data_args(nullptr));
      proxy.stop(lone_net);
      // A parentObj that is no handle: the owner's context itself.
      void* unknown = proxy.start(proxy_step_descr(owner.context, 0, 5));
      proxy.stop(unknown);
      handles = {step, net, lone_net, unknown};
      if (!guard.end()) report.fail("the owner's context was written through");
    }
    check_handles(handles, report);
    if (proxy.failures != 0) report.fail("a call did not return ncclSuccess");
    const int written = lib.flush();
    if (written != 2) report.fail("npkitProfilerFlush wrote " + std::to_string(written));
  });
  check_ended_normally(child);
  finalize_foreign_owner(owner);

  const int child_pid = reported_pid(child);
  REQUIRE(child_pid > 0);
  const NpktDump detached = read_dump(child_dumps.file(detached_file_name(child_pid)));
  CHECK(detached.comm.records_attempted == 10);
  CHECK(read_dump(child_dumps.file(dump_file_name(kChildHash, 1))).records.empty());
  using namespace format;
  check_records(detached, {
                              {kRecordStart, kTypeProxyStep, 1, 0, kStartParentNull},
                              {kRecordState, kTypeProxyStep, 1, 0, kStateProxyStepRecvWait},
                              {kRecordStart, kTypeNetPlugin, 3, 1, 0},
                              {kRecordStop, kTypeNetPlugin, 3, 0, 0},
                              {kRecordStop, kTypeProxyStep, 1, 0, 0},
                              {kRecordStart, kTypeNetPlugin, 6, 0, kStartParentNull},
                              {kRecordState, kTypeNetPlugin, 6, 0, kStateNetPluginUpdate},
                              {kRecordStop, kTypeNetPlugin, 6, 0, 0},
                              {kRecordStart, kTypeProxyStep, 9, 0, kStartParentUnknown},
                              {kRecordStop, kTypeProxyStep, 9, 0, 0},
                          });
}

}  // namespace
}  // namespace npkit::test
