// Chaining (NPKIT_CHAIN_PLUGIN): the counting test profiler is loaded next to ours. It must get
// exactly the events its mask makes NCCL emit, with its own context and its own parent handles,
// its init and finalize once per communicator; our dump must be what it is without chaining
// (finalize_and_check compares it with every call fed); and no failure of the chained plugin may
// change that or any return code NCCL sees.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/counting_profiler_log.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/v6_driver.hpp"

namespace npkit::test {
namespace {

using Call = CountingProfilerCall;

// A communicator's usual calls, v5 or v4 (no API events, Coll under the legacy Group), with the
// stale second CollApi stop NCCL issues and a ProxyOp started after its Coll stopped.
void drive_tree(CommDriver& comm) {
  const bool v5 = comm.setup().api >= 5;  // v5 and v6 (same calls, v6 layout)
  void* group_api = nullptr;
  void* coll_api = nullptr;
  if (v5) {
    group_api = comm.start(group_api_descr(1, false));
    comm.state(group_api, format::kStateGroupStartApiStop, nullptr);
    coll_api =
        comm.start(coll_api_descr(group_api, "AllReduce", 64, "ncclFloat32", 0, nullptr, false));
  }
  void* group = comm.start(group_descr());
  void* coll =
      comm.start(coll_descr(v5 ? coll_api : group, comm.setup().rank, 1, "AllReduce", 64, 0,
                            "ncclFloat32", 2, 8, "RING", "SIMPLE", v5 ? group : nullptr));
  comm.stop(coll);
  if (v5) {
    comm.stop(coll_api);
    comm.stop(coll_api);
  }
  comm.stop(group);
  if (v5) {
    comm.state(group_api, format::kStateGroupEndApiStart, nullptr);
    comm.stop(group_api);
  }
  void* op = comm.start(proxy_op_descr(coll, comm.setup().rank, ::getpid(), 1, 1, 2, 4096, 1));
  const abi::StateArgs zero = zeroed_args();
  comm.state(op, format::kStateProxyOpInProgress, &zero);
  void* step = comm.start(proxy_step_descr(op, comm.setup().rank, 0));
  const abi::StateArgs sent = trans_size_args(4096);
  comm.state(step, format::kStateProxyStepSendWait, &sent);
  comm.stop(step);
  comm.stop(op);
  void* kernel = comm.start(kernel_ch_descr(coll, 3, 1000));
  const abi::StateArgs end = kernel_stop_args(2000);
  comm.state(kernel, format::kStateKernelChStop, &end);
  comm.stop(kernel);
  void* ctrl = comm.start(proxy_ctrl_descr());
  comm.stop(ctrl);
}

std::vector<uint64_t> types_of(const std::vector<Call>& starts) {
  std::vector<uint64_t> out;
  for (const Call& call : starts) out.push_back(call.type);
  return out;
}

// The chained plugin's handles of its starts, in start order.
std::vector<void*> handles_of(const std::vector<Call>& calls) {
  std::vector<void*> out;
  for (const Call& call : calls) out.push_back(call.handle);
  return out;
}

// A run whose chained plugin failed or was never loaded: our dump is complete, NCCL's mask is
// ours, the metadata says why, and the only WARNs are `warnings_naming_path` naming the path.
void check_unchained_run(const std::string& chain_path, size_t warnings_naming_path) {
  PluginEnv env;
  LogCapture log;
  CommDriver comm({.comm_hash = 0x7e57000000000c01ull, .rank = 0, .nranks = 2});
  CHECK(comm.mask() == static_cast<int>(abi::kAllV5Events));
  drive_tree(comm);
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  CHECK_THAT(dump.meta("capture.chained_plugin"), Catch::StartsWith("not loaded: "));
  CHECK_THAT(dump.meta("capture.chained_plugin"), Catch::Contains(chain_path));
  INFO(log.dump());
  CHECK(log.count(abi::kLogWarn, chain_path) == warnings_naming_path);
  CHECK(log.count(abi::kLogWarn) == warnings_naming_path);
}

TEST_CASE("plugin chain: the chained plugin gets its mask's events with its own handles",
          "[plugin]") {
  PluginEnv env;
  ChainEnv chain(kCountingProfiler, abi::kColl | abi::kProxyOp);
  LogCapture log;
  const uint64_t hash = 0x7e57000000000c02ull;
  CommDriver comm({.comm_hash = hash, .rank = 1, .nranks = 2});
  CHECK(comm.mask() == static_cast<int>(abi::kAllV5Events));
  drive_tree(comm);
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  CHECK(dump.meta("capture.chained_plugin") == std::string("counting (") + kCountingProfiler + ")");
  CHECK(log.count(abi::kLogWarn) == 0);

  const std::vector<Call> calls = counting_calls(kCountingProfiler);
  const std::vector<Call> inits = calls_of(calls, Call::kInit);
  REQUIRE(inits.size() == 1);
  CHECK(inits[0].api == 5);
  CHECK(inits[0].comm_hash == hash);
  CHECK(inits[0].rank == 1);
  void* const their_context = inits[0].context;
  CHECK(calls.front().kind == Call::kInit);
  CHECK(calls.back().kind == Call::kFinalize);
  REQUIRE(calls_of(calls, Call::kFinalize).size() == 1);
  CHECK(calls.back().context == their_context);

  // Coll | ProxyOp and their ancestors (reference 3.2); not ProxyStep, KernelCh, ProxyCtrl.
  const std::vector<Call> starts = calls_of(calls, Call::kStart);
  CHECK(types_of(starts) == std::vector<uint64_t>{abi::kGroupApi, abi::kCollApi, abi::kGroup,
                                                  abi::kColl, abi::kProxyOp});
  REQUIRE(starts.size() == 5);
  for (const Call& start : starts) CHECK(start.context == their_context);
  const std::vector<void*> theirs = handles_of(starts);
  CHECK(starts[0].parent == nullptr);
  CHECK(starts[1].parent == theirs[0]);
  CHECK(starts[2].parent == nullptr);
  CHECK(starts[3].parent == theirs[1]);
  CHECK(starts[3].parent_group == theirs[2]);
  CHECK(starts[4].parent == theirs[3]);  // its Coll had stopped already

  // Each of their events stopped once (the stale second CollApi stop is not forwarded), states
  // only of their events.
  std::vector<void*> stopped = handles_of(calls_of(calls, Call::kStop));
  std::sort(stopped.begin(), stopped.end());
  std::vector<void*> started = theirs;
  std::sort(started.begin(), started.end());
  CHECK(stopped == started);
  const std::vector<Call> states = calls_of(calls, Call::kState);
  REQUIRE(states.size() == 3);
  CHECK((states[0].handle == theirs[0] && states[0].state == format::kStateGroupStartApiStop));
  CHECK((states[1].handle == theirs[0] && states[1].state == format::kStateGroupEndApiStart));
  CHECK((states[2].handle == theirs[4] && states[2].state == format::kStateProxyOpInProgress));
}

TEST_CASE("plugin chain: NCCL gets the union of the masks, each plugin only its own events",
          "[plugin]") {
  PluginEnv env("ctrl");
  ChainEnv chain(kCountingProfiler, abi::kKernelCh);
  const PluginLibrary& lib = require_plugin();
  const uint64_t hash = 0x7e57000000000c03ull;
  void* context = nullptr;
  int mask = 0;
  REQUIRE(lib.v5->init(&context, hash, &mask, nullptr, 1, 1, 0, capture_log) == abi::kSuccess);
  REQUIRE(context != nullptr);
  CHECK(mask == static_cast<int>(abi::kProxyCtrl | abi::kKernelCh));

  auto start = [&](abi::EventDescrV5 descr) {
    void* handle = nullptr;
    CHECK(lib.v5->startEvent(context, &handle, &descr) == abi::kSuccess);
    return handle;
  };
  void* group_api = start(group_api_descr(1, false));
  void* coll_api =
      start(coll_api_descr(group_api, "AllReduce", 8, "ncclFloat32", 0, nullptr, false));
  void* coll = start(
      coll_descr(coll_api, 0, 0, "AllReduce", 8, 0, "ncclFloat32", 1, 8, "RING", "LL", nullptr));
  void* kernel = start(kernel_ch_descr(coll, 0, 10));
  void* ctrl = start(proxy_ctrl_descr());
  void* launch = start(kernel_launch_descr(group_api, nullptr));
  for (void* handle : {group_api, coll_api, coll, kernel, ctrl}) CHECK(handle != nullptr);
  CHECK(launch == nullptr);  // neither mask emits KernelLaunch
  abi::StateArgs end = kernel_stop_args(20);
  CHECK(lib.v5->recordEventState(kernel, static_cast<abi::EventState>(format::kStateKernelChStop),
                                 &end) == abi::kSuccess);
  for (void* handle : {kernel, coll, coll_api, ctrl, group_api}) {
    CHECK(lib.v5->stopEvent(handle) == abi::kSuccess);
  }
  CHECK(lib.v5->finalize(context) == abi::kSuccess);

  const NpktDump dump = read_dump(env.file(dump_file_name(hash, 0)));
  REQUIRE(dump.records.size() == 2);
  for (const format::ProfilerRecord& record : dump.records) {
    CHECK(record.type == format::kTypeProxyCtrl);
  }
  const std::vector<Call> calls = counting_calls(kCountingProfiler);
  const std::vector<Call> starts = calls_of(calls, Call::kStart);
  CHECK(types_of(starts) ==
        std::vector<uint64_t>{abi::kGroupApi, abi::kCollApi, abi::kColl, abi::kKernelCh});
  REQUIRE(starts.size() == 4);
  CHECK(starts[3].parent == starts[2].handle);
  CHECK(calls_of(calls, Call::kStop).size() == 4);
  REQUIRE(calls_of(calls, Call::kState).size() == 1);
  CHECK(calls_of(calls, Call::kState)[0].handle == starts[3].handle);
  CHECK(calls_of(calls, Call::kFinalize).size() == 1);
}

TEST_CASE("plugin chain: v4 calls reach the chained plugin's ncclProfiler_v4", "[plugin]") {
  PluginEnv env;
  ChainEnv chain(kCountingProfilerV4Only, abi::kProxyOp);
  const uint64_t hash = 0x7e57000000000c04ull;
  CommDriver first({.comm_hash = hash, .rank = 0, .nranks = 2, .api = 4});
  CommDriver second({.comm_hash = hash + 1, .rank = 1, .nranks = 2, .api = 4});
  drive_tree(first);
  drive_tree(second);
  const NpktDump dump = finalize_and_check(first, env.dir.path());
  CHECK(dump.meta("capture.chained_plugin") ==
        std::string("counting-v4 (") + kCountingProfilerV4Only + ")");
  finalize_and_check(second, env.dir.path());

  const std::vector<Call> calls = counting_calls(kCountingProfilerV4Only);
  const std::vector<Call> inits = calls_of(calls, Call::kInit);
  REQUIRE(inits.size() == 2);
  CHECK((inits[0].api == 4 && inits[0].comm_hash == hash));
  CHECK((inits[1].api == 4 && inits[1].comm_hash == hash + 1));
  const std::vector<Call> finalizes = calls_of(calls, Call::kFinalize);
  REQUIRE(finalizes.size() == 2);
  CHECK(finalizes[0].context == inits[0].context);
  CHECK(finalizes[1].context == inits[1].context);
  // Per communicator: Group, Coll (parent: Group), ProxyOp (parent: Coll).
  const std::vector<Call> starts = calls_of(calls, Call::kStart);
  REQUIRE(starts.size() == 6);
  for (size_t comm = 0; comm < 2; ++comm) {
    const Call* s = &starts[comm * 3];
    CHECK(types_of({s[0], s[1], s[2]}) ==
          std::vector<uint64_t>{abi::kGroup, abi::kColl, abi::kProxyOp});
    for (int i = 0; i < 3; ++i) CHECK((s[i].api == 4 && s[i].context == inits[comm].context));
    CHECK(s[1].parent == s[0].handle);
    CHECK(s[2].parent == s[1].handle);
  }
  CHECK(calls_of(calls, Call::kStop).size() == 6);
  CHECK(calls_of(calls, Call::kState).size() == 2);
}

TEST_CASE("plugin chain: events of several threads at once keep both plugins' links", "[plugin]") {
  PluginEnv env;
  ChainEnv chain(kCountingProfiler, abi::kProxyOp);
  const PluginLibrary& lib = require_plugin();
  const uint64_t hash = 0x7e57000000000c06ull;
  void* context = nullptr;
  int mask = 0;
  REQUIRE(lib.v5->init(&context, hash, &mask, nullptr, 1, 1, 0, capture_log) == abi::kSuccess);
  REQUIRE(context != nullptr);
  constexpr int kThreads = 4;
  constexpr int kRounds = 500;
  std::atomic<int> failed_calls{0};
  auto start = [&](abi::EventDescrV5 descr) {
    void* handle = nullptr;
    if (lib.v5->startEvent(context, &handle, &descr) != abi::kSuccess || handle == nullptr) {
      ++failed_calls;
    }
    return handle;
  };
  auto call = [&](abi::Result result) {
    if (result != abi::kSuccess) ++failed_calls;
  };
  // Per round: Group, Coll (parentGroup: the Group, a detail record of ours), ProxyOp (parent:
  // the Coll), ProxyStep (parent: the ProxyOp; ours only), a state of each proxy event, four
  // stops: 11 records of ours, 3 starts, 1 state and 3 stops of theirs.
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      abi::StateArgs zero = zeroed_args();
      abi::StateArgs sent = trans_size_args(512);
      for (int round = 0; round < kRounds; ++round) {
        void* group = start(group_descr());
        void* coll = start(coll_descr(nullptr, 0, static_cast<uint64_t>(round), "AllReduce", 8, 0,
                                      "ncclInt8", 1, 8, "RING", "LL", group));
        void* op = start(proxy_op_descr(coll, 0, ::getpid(), 0, 1, 1, 512, 1));
        void* step = start(proxy_step_descr(op, 0, 0));
        call(lib.v5->recordEventState(op, static_cast<abi::EventState>(19), &zero));
        call(lib.v5->recordEventState(step, static_cast<abi::EventState>(9), &sent));
        for (void* handle : {step, op, coll, group}) call(lib.v5->stopEvent(handle));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(failed_calls == 0);
  CHECK(lib.v5->finalize(context) == abi::kSuccess);

  const NpktDump dump = read_dump(env.file(dump_file_name(hash, 0)));
  CHECK(dump.records.size() == size_t{kThreads} * kRounds * 11);
  size_t linked_steps = 0;
  for (const format::ProfilerRecord& record : dump.records) {
    if (record.kind == format::kRecordStart && record.type == format::kTypeProxyStep &&
        record.parent_id != 0 && record.word == 0) {
      ++linked_steps;
    }
  }
  CHECK(linked_steps == size_t{kThreads} * kRounds);

  const std::vector<Call> calls = counting_calls(kCountingProfiler);
  const std::vector<Call> starts = calls_of(calls, Call::kStart);
  REQUIRE(starts.size() == size_t{kThreads} * kRounds * 3);
  std::map<void*, uint64_t> type_of;
  for (const Call& s : starts) type_of[s.handle] = s.type;
  CHECK(type_of.size() == starts.size());  // distinct handles
  size_t bad_links = 0;
  for (const Call& s : starts) {
    if (s.type == abi::kColl && type_of[s.parent_group] != abi::kGroup) ++bad_links;
    if (s.type == abi::kProxyOp && type_of[s.parent] != abi::kColl) ++bad_links;
  }
  CHECK(bad_links == 0);
  std::vector<void*> stopped = handles_of(calls_of(calls, Call::kStop));
  std::sort(stopped.begin(), stopped.end());
  std::vector<void*> started = handles_of(starts);
  std::sort(started.begin(), started.end());
  CHECK(stopped == started);
  const std::vector<Call> states = calls_of(calls, Call::kState);
  CHECK(states.size() == size_t{kThreads} * kRounds);
  CHECK(std::all_of(states.begin(), states.end(),
                    [&](const Call& c) { return type_of[c.handle] == abi::kProxyOp; }));
}

TEST_CASE("plugin chain: v6 calls reach the chained plugin's ncclProfiler_v6, CE events too",
          "[plugin]") {
  PluginEnv env;
  ChainEnv chain(kCountingProfiler, abi::kColl | abi::kCeSync | abi::kCeBatch);
  const uint64_t hash = 0x7e57000000000c0aull;
  CommDriver comm({.comm_hash = hash, .rank = 0, .nranks = 2, .api = 6});
  CHECK(comm.mask() == static_cast<int>(abi::kAllV6Events));
  drive_tree(comm);
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  CHECK(dump.meta("capture.chained_plugin") == std::string("counting (") + kCountingProfiler + ")");
  V6Comm ce_comm(hash + 1, 1, 2);
  enqueue_ce_allgather(ce_comm, 1, 0);
  ce_comm.finalize();

  const std::vector<Call> calls = counting_calls(kCountingProfiler);
  const std::vector<Call> inits = calls_of(calls, Call::kInit);
  REQUIRE(inits.size() == 2);
  CHECK((inits[0].api == 6 && inits[0].comm_hash == hash));
  CHECK((inits[1].api == 6 && inits[1].comm_hash == hash + 1));
  // Their mask (Coll, CeSync, CeBatch) emits GroupApi, CollApi, Group and Coll in the first
  // communicator (Coll with its Group translated to their handle), and GroupApi, CollApi, CeColl,
  // CeSync, CeBatch, CeSync in the second (every CE child with their CeColl as parent).
  const std::vector<Call> starts = calls_of(calls, Call::kStart);
  REQUIRE(starts.size() == 10);
  for (const Call& start : starts) CHECK(start.api == 6);
  CHECK(types_of({starts[0], starts[1], starts[2], starts[3]}) ==
        std::vector<uint64_t>{abi::kGroupApi, abi::kCollApi, abi::kGroup, abi::kColl});
  CHECK(starts[3].parent == starts[1].handle);
  CHECK(starts[3].parent_group == starts[2].handle);
  CHECK(types_of({starts[4], starts[5], starts[6], starts[7], starts[8], starts[9]}) ==
        std::vector<uint64_t>{abi::kGroupApi, abi::kCollApi, abi::kCeColl, abi::kCeSync,
                              abi::kCeBatch, abi::kCeSync});
  CHECK(starts[6].parent == starts[5].handle);
  for (int i = 7; i < 10; ++i) CHECK(starts[i].parent == starts[6].handle);
}

TEST_CASE("plugin chain: v6 calls reach a plugin without ncclProfiler_v6 through its v5",
          "[plugin]") {
  PluginEnv env;
  ChainEnv chain(kCountingProfilerNoV6, abi::kAllV6Events);
  const uint64_t hash = 0x7e57000000000c0cull;
  CommDriver comm({.comm_hash = hash, .rank = 0, .nranks = 2, .api = 6});
  drive_tree(comm);
  finalize_and_check(comm, env.dir.path());
  V6Comm ce_comm(hash + 1, 1, 2);
  enqueue_ce_allgather(ce_comm, 1, 0);
  ce_comm.finalize();

  const std::vector<Call> calls = counting_calls(kCountingProfilerNoV6);
  const std::vector<Call> inits = calls_of(calls, Call::kInit);
  REQUIRE(inits.size() == 2);
  for (const Call& init : inits) CHECK(init.api == 5);
  // A v5 plugin never gets a CE event: the second communicator brings GroupApi and CollApi only.
  const std::vector<Call> starts = calls_of(calls, Call::kStart);
  for (const Call& start : starts) {
    CHECK(start.api == 5);
    CHECK(start.type < abi::kCeColl);
  }
  REQUIRE(starts.size() >= 2);
  CHECK(types_of({starts[starts.size() - 2], starts.back()}) ==
        std::vector<uint64_t>{abi::kGroupApi, abi::kCollApi});
}

TEST_CASE("plugin chain failure: a library that does not load", "[plugin]") {
  const std::string missing = "/nonexistent/libnccl-profiler-missing.so";
  ChainEnv chain(missing, 0);
  check_unchained_run(missing, 1);
}

TEST_CASE("plugin chain failure: no symbol of the version NCCL called", "[plugin]") {
  ChainEnv chain(kCountingProfilerV4Only, abi::kAllV5Events);
  check_unchained_run(kCountingProfilerV4Only, 1);
  CHECK(calls_of(counting_calls(kCountingProfilerV4Only), Call::kInit).empty());
}

TEST_CASE("plugin chain failure: chaining this plugin itself", "[plugin]") {
  ChainEnv chain(NPKIT_PLUGIN_PATH, abi::kAllV5Events);
  check_unchained_run(NPKIT_PLUGIN_PATH, 1);
}

TEST_CASE("plugin chain failure: init returns an error or a NULL context", "[plugin]") {
  const CountingFailures failures[] = {{.init_result = "3"}, {.null_context = "1"}};
  for (const CountingFailures& failure : failures) {
    ChainEnv chain(kCountingProfiler, abi::kAllV5Events, failure);
    check_unchained_run(kCountingProfiler, 1);
    // Init only: no event, no finalize for a chained init that failed.
    const std::vector<Call> calls = counting_calls(kCountingProfiler);
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].kind == Call::kInit);
  }
}

TEST_CASE("plugin chain failure: NULL handles and error returns change nothing of ours",
          "[plugin]") {
  const CountingFailures failures[] = {{.null_handles = "1"}, {.event_result = "5"}};
  for (const CountingFailures& failure : failures) {
    PluginEnv env;
    ChainEnv chain(kCountingProfiler, abi::kAllV5Events, failure);
    LogCapture log;
    CommDriver comm({.comm_hash = 0x7e57000000000c05ull, .rank = 0, .nranks = 2});
    CHECK(comm.mask() == static_cast<int>(abi::kAllV5Events));
    drive_tree(comm);  // CommDriver REQUIREs success from every call
    const NpktDump dump = finalize_and_check(comm, env.dir.path());
    CHECK(dump.meta("capture.chained_plugin") ==
          std::string("counting (") + kCountingProfiler + ")");
    CHECK(log.count(abi::kLogWarn) == 0);
    const std::vector<Call> calls = counting_calls(kCountingProfiler);
    const size_t starts = calls_of(calls, Call::kStart).size();
    CHECK(starts == 8);  // every start of drive_tree
    const bool null_handles = failure.null_handles.has_value();
    CHECK(calls_of(calls, Call::kStop).size() == (null_handles ? 0 : starts));
    CHECK(calls_of(calls, Call::kState).size() == (null_handles ? 0 : 5));
    CHECK(calls_of(calls, Call::kFinalize).size() == 1);
  }
}

}  // namespace
}  // namespace npkit::test
