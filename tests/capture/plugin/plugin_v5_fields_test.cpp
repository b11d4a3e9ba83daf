// A complete v5 event tree with known values, fed from an application thread and a proxy thread:
// the dump read back must hold every field as fed (communicator, metadata, names, strings,
// threads, records).
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/host_clock.hpp"
#include "capture/plugin/other_thread.hpp"
#include "capture/plugin/plugin_env.hpp"

namespace npkit::test {
namespace {

using format::kStateGroupEndApiStart;
using format::kStateGroupStartApiStop;

void* fake_pointer(uintptr_t value) {
  return reinterpret_cast<void*>(value);
}

TEST_CASE("plugin v5: a full event tree reads back field by field", "[plugin]") {
  PluginEnv env;
  ScopedEnv marker("NCCL_NPKIT_TEST_MARKER", "marker-42");
  char comm_name[32] = "trainer.dp0";
  const uint64_t hash = 0x7e57000000000101ull;
  CommDriver comm({.comm_hash = hash, .rank = 1, .nranks = 4, .nnodes = 2, .comm_name = comm_name});
  std::memset(comm_name, 'X', sizeof(comm_name) - 1);  // the user's buffer: init must copy it
  CHECK(comm.mask() == static_cast<int>(abi::kAllV5Events));
  const int32_t app_tid = current_tid();

  void* group_api = comm.start(group_api_descr(2, true));
  comm.state(group_api, kStateGroupStartApiStop, nullptr);
  void* coll_api = comm.start(
      coll_api_descr(group_api, "AllReduce", 1000, "ncclFloat32", 3, fake_pointer(0x1234), false));
  comm.stop(coll_api);
  void* p2p_api =
      comm.start(p2p_api_descr(group_api, "Send", 77, "ncclInt8", fake_pointer(0xabc), true));
  comm.stop(p2p_api);
  comm.state(group_api, kStateGroupEndApiStart, nullptr);
  void* launch = comm.start(kernel_launch_descr(group_api, fake_pointer(0x5678)));
  comm.stop(launch);
  void* group = comm.start(group_descr());
  void* coll = comm.start(coll_descr(coll_api, 1, 41, "AllReduce", 1000, 3, "ncclFloat32", 2, 16,
                                     "RING", "LL128", group));
  void* p2p = comm.start(p2p_descr(p2p_api, 1, "Send", 77, "ncclInt8", 2, 4, group));
  comm.stop(coll);
  comm.stop(p2p);
  comm.stop(group);
  comm.stop(group_api);

  int32_t proxy_tid = 0;
  run_on_other_thread("npkit-proxy", [&] {
    proxy_tid = current_tid();
    void* ctrl = comm.start(proxy_ctrl_descr());
    const abi::StateArgs appended_none = appended_ops_args(0);
    const abi::StateArgs appended_three = appended_ops_args(3);
    comm.state(ctrl, format::kStateProxyCtrlAppend, &appended_none);
    comm.state(ctrl, format::kStateProxyCtrlAppendEnd, &appended_three);
    comm.stop(ctrl);

    void* op = comm.start(proxy_op_descr(coll, 1, ::getpid(), 5, 2, 8, 131072, 1));
    const abi::StateArgs zero = zeroed_args();
    comm.state(op, format::kStateProxyOpInProgress, &zero);
    void* send_step = comm.start(proxy_step_descr(op, 1, 3));
    const abi::StateArgs stale = trans_size_args(4096);
    const abi::StateArgs sent = trans_size_args(131072);
    comm.state(send_step, format::kStateProxyStepSendGpuWait, &stale);
    comm.state(send_step, format::kStateProxyStepSendPeerWait, &stale);
    comm.state(send_step, format::kStateProxyStepSendWait, &sent);
    void* net = comm.start(net_plugin_descr(send_step, 1, (2 << 16) | 1, fake_pointer(0xfeed)));
    const abi::StateArgs net_update = net_data_args(fake_pointer(0xbeef));
    comm.state(net, format::kStateNetPluginUpdate, &net_update);
    comm.stop(net);
    comm.stop(send_step);
    void* recv_step = comm.start(proxy_step_descr(op, 1, 4));
    const abi::StateArgs received = trans_size_args(65536);
    comm.state(recv_step, format::kStateProxyStepRecvWait, &stale);
    comm.state(recv_step, format::kStateProxyStepRecvFlushWait, &received);
    comm.state(recv_step, format::kStateProxyStepRecvGpuWait, &received);
    comm.stop(recv_step);
    comm.stop(op);

    void* kernel = comm.start(kernel_ch_descr(coll, 5, 1700000000123456768ull));
    const abi::StateArgs kernel_end = kernel_stop_args(1700000000123488768ull);
    comm.state(kernel, format::kStateKernelChStop, &kernel_end);
    comm.stop(kernel);
  });
  comm.finalize();

  REQUIRE(entries_in(env.dir.path()) == std::vector<std::string>{dump_file_name(hash, 1)});
  const NpktDump dump = read_dump(env.file(dump_file_name(hash, 1)));
  CHECK(dump.warnings.empty());
  // 16 app-thread + 23 proxy-thread calls above, and the parentGroup details of Coll and P2p.
  CHECK(dump.comm.records_attempted == 41);
  check_comm_info(dump, comm, finalized_expectations(comm));
  check_records_match_calls(dump, comm.calls());
  check_names_section(dump);

  SECTION("metadata") {
    CHECK(dump.meta("comm_name") == "trainer.dp0");
    CHECK(dump.meta("env.NCCL_NPKIT_TEST_MARKER") == "marker-42");
    CHECK(dump.meta("env.NPKIT_DUMP_DIR") == env.dir.path());
    CHECK(dump.meta("capture.dump_dir") == env.dir.path());
    char host[256] = {};
    REQUIRE(::gethostname(host, sizeof(host) - 1) == 0);
    CHECK(dump.meta("hostname") == host);
  }
  SECTION("strings") {
    for (const char* text : {"AllReduce", "Send", "ncclFloat32", "ncclInt8", "RING", "LL128"}) {
      INFO(text);
      CHECK(std::count(dump.strings.begin(), dump.strings.end(), text) >= 1);
    }
    REQUIRE_FALSE(dump.strings.empty());
    CHECK(dump.strings[0].empty());
  }
  SECTION("threads") {
    auto entry_of = [&](int32_t tid) -> const format::ThreadEntry* {
      for (const auto& t : dump.threads) {
        if (t.os_tid == tid) return &t;
      }
      return nullptr;
    };
    REQUIRE(entry_of(app_tid) != nullptr);
    const format::ThreadEntry* proxy = entry_of(proxy_tid);
    REQUIRE(proxy != nullptr);
    CHECK(std::string(proxy->name, strnlen(proxy->name, sizeof(proxy->name))) == "npkit-proxy");
    CHECK(proxy->slot != entry_of(app_tid)->slot);
  }
}

}  // namespace
}  // namespace npkit::test
