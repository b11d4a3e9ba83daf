// The v4 entry points (NCCL 2.27, or NCCL 2.28 falling back): init argument order (mask first,
// comm hash fourth), 104-byte descriptor with a 1-byte type, the legacy Group -> Coll/P2p
// hierarchy; the dump says profiler_api 4 and holds every field as fed.
#include <unistd.h>

#include <cstring>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/other_thread.hpp"
#include "capture/plugin/plugin_env.hpp"

namespace npkit::test {
namespace {

TEST_CASE("plugin v4: init order, 1-byte type descriptors, fields read back", "[plugin]") {
  PluginEnv env;
  char comm_name[16] = "v4-comm";
  const uint64_t hash = 0x7e57000000000801ull;
  CommDriver comm(
      {.comm_hash = hash, .rank = 2, .nranks = 3, .nnodes = 3, .comm_name = comm_name, .api = 4});
  comm_name[0] = '?';
  CHECK((comm.mask() & 0xff) == 0xff);  // every event v4 knows

  void* group = comm.start(group_descr());
  void* coll = comm.start(coll_descr(group, 2, 9, "ReduceScatter", 2048, 0, "ncclFloat16", 4, 8,
                                     "RING", "LL", nullptr));
  // NCCL 2.27 drives v4 natively and fills p2p.nChannels: kept (only NCCL 2.28+, whose v4
  // adapter leaves it uninitialised, gets 0; the tests' logger is no NCCL's).
  void* p2p = comm.start(p2p_descr(group, 2, "Recv", 300, "ncclUint8", 0, 9, nullptr));
  comm.stop(coll);
  comm.stop(p2p);
  comm.stop(group);
  run_on_other_thread("v4-proxy", [&] {
    void* op = comm.start(proxy_op_descr(coll, 2, ::getpid(), 17, 0, 3, 262144, 1));
    const abi::StateArgs zero = zeroed_args();
    comm.state(op, format::kStateProxyOpInProgress, &zero);
    void* step = comm.start(proxy_step_descr(op, 2, 1));
    const abi::StateArgs sent = trans_size_args(262144);
    comm.state(step, format::kStateProxyStepSendGpuWait, &sent);
    comm.state(step, format::kStateProxyStepSendWait, &sent);
    comm.stop(step);
    comm.stop(op);
    void* kernel = comm.start(kernel_ch_descr(p2p, 63, 1800000000000000000ull));
    const abi::StateArgs end = kernel_stop_args(1800000000000009984ull);
    comm.state(kernel, format::kStateKernelChStop, &end);
    comm.stop(kernel);
    void* ctrl = comm.start(proxy_ctrl_descr());
    const abi::StateArgs appended = appended_ops_args(2);
    comm.state(ctrl, format::kStateProxyCtrlAppendEnd, &appended);
    comm.stop(ctrl);
  });
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  CHECK(dump.comm.profiler_api == 4);
  CHECK(dump.meta("comm_name") == "v4-comm");
  REQUIRE(dump.records.size() == 19);
  format::P2pPayload p2p_payload;
  std::memcpy(&p2p_payload, dump.records[2].payload, sizeof(p2p_payload));
  CHECK(p2p_payload.n_channels == 9);
  CHECK(p2p_payload.count == 300);
  format::KernelChPayload kernel_payload;
  std::memcpy(&kernel_payload, dump.records[13].payload, sizeof(kernel_payload));
  CHECK(kernel_payload.channel == 63);
  CHECK(kernel_payload.gpu_start_ns == 1800000000000000000ull);
}

}  // namespace
}  // namespace npkit::test
