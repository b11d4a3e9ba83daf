// The plugin's whole life in a process, three times over: load, record every event type, dump
// (finalize, and npkitProfilerFlush for a communicator never finalized), unload. Run under
// LeakSanitizer (make test-sanitize) and valgrind (scripts/check-plugin-leaks.sh), it must leave
// no leaked block and no invalid access; the dumps must read back.
#include <unistd.h>

#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/scoped_env.hpp"
#include "capture/stress/reloadable_plugin.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

// One collective as NCCL reports it with every event type enabled.
void every_event_type(CommDriver& comm, uint64_t seq) {
  void* group_api = comm.start(group_api_descr(1, false));
  comm.state(group_api, format::kStateGroupStartApiStop, nullptr);
  void* coll_api = comm.start(coll_api_descr(group_api, "AllReduce", 4096, "ncclFloat32", 0,
                                             reinterpret_cast<void*>(0x5000), false));
  void* launch = comm.start(kernel_launch_descr(group_api, reinterpret_cast<void*>(0x5000)));
  comm.stop(launch);
  void* group = comm.start(group_descr());
  void* coll = comm.start(coll_descr(coll_api, comm.setup().rank, seq, "AllReduce", 4096, 0,
                                     "ncclFloat32", 1, 8, "RING", "SIMPLE", group));
  comm.stop(coll_api);
  comm.state(group_api, format::kStateGroupEndApiStart, nullptr);
  comm.stop(group_api);
  void* p2p =
      comm.start(p2p_descr(nullptr, comm.setup().rank, "Send", 16, "ncclInt8", 1, 1, group));
  comm.stop(p2p);
  void* kernel = comm.start(kernel_ch_descr(coll, 0, 1000 + seq));
  void* op = comm.start(proxy_op_descr(coll, comm.setup().rank, ::getpid(), 0, 1, 2, 4096, 1));
  for (int s = 0; s < 2; ++s) {
    void* step = comm.start(proxy_step_descr(op, comm.setup().rank, s));
    const abi::StateArgs size = trans_size_args(4096);
    comm.state(step, format::kStateProxyStepSendGpuWait, &size);
    comm.state(step, format::kStateProxyStepSendWait, &size);
    void* net = comm.start(net_plugin_descr(step, comm.setup().rank, 0x10001, nullptr));
    const abi::StateArgs data = net_data_args(nullptr);
    comm.state(net, format::kStateNetPluginUpdate, &data);
    comm.stop(net);
    comm.stop(step);
  }
  comm.stop(op);
  const abi::StateArgs stop_time = kernel_stop_args(2000 + seq);
  comm.state(kernel, format::kStateKernelChStop, &stop_time);
  comm.stop(kernel);
  comm.stop(coll);
  comm.stop(group);
  void* ctrl = comm.start(proxy_ctrl_descr());
  const abi::StateArgs appended = appended_ops_args(1);
  comm.state(ctrl, format::kStateProxyCtrlAppend, &appended);
  comm.stop(ctrl);
}

TEST_CASE("plugin leak cycle: load, record every event type, dump, unload, three times",
          "[plugin][stress][leak]") {
  TempDir library_dir;
  ReloadablePlugin plugin(library_dir.path());
  PluginEnv env(std::nullopt, "2");
  for (int cycle = 0; cycle < 3; ++cycle) {
    INFO("cycle " << cycle);
    const std::string dir = env.dir.make_dir("cycle" + std::to_string(cycle));
    ScopedEnv dump_dir("NPKIT_DUMP_DIR", dir);
    const PluginLibrary& lib = plugin.open();
    INFO(lib.error);
    REQUIRE(lib.error.empty());
    {
      CommDriver finalized({.comm_hash = 0x1eac000000000001ull, .nranks = 2, .comm_name = "a"},
                           &lib);
      CommDriver flushed({.comm_hash = 0x1eac000000000002ull, .rank = 1, .nranks = 2}, &lib);
      CommDriver v4({.comm_hash = 0x1eac000000000003ull, .nranks = 1, .api = 4}, &lib);
      for (uint64_t seq = 0; seq < 20; ++seq) {
        every_event_type(finalized, seq);
        every_event_type(flushed, seq);
        v4.stop(v4.start(kernel_ch_descr(nullptr, 0, seq)));
      }
      finalized.finalize();
      v4.finalize();
      CHECK(lib.flush() == 1);
      const NpktDump a = read_dump(dir + "/" + dump_file_name(0x1eac000000000001ull, 0));
      CHECK(a.records.size() == finalized.calls().size());
      const NpktDump b = read_dump(dir + "/" + dump_file_name(0x1eac000000000002ull, 1));
      CHECK(b.comm.end_reason == format::kEndProcessExit);
      CHECK(b.records.size() == flushed.calls().size());
      const NpktDump c = read_dump(dir + "/" + dump_file_name(0x1eac000000000003ull, 0));
      CHECK(c.records.size() == 40);
    }
    CHECK(entries_in(dir).size() == 3);
    CHECK(plugin.close() == 0);
  }
}

}  // namespace
}  // namespace npkit::test
