// Callbacks that arrive after a communicator's finalize (NCCL's stale CollApi double stop, proxy
// threads finishing late): accepted with ncclSuccess, recorded nowhere, and never mistaken for a
// live communicator's events.
#include <unistd.h>

#include <cstdint>
#include <filesystem>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {
namespace {

TEST_CASE(
    "plugin stress: callbacks after finalize are ignored and never reach another "
    "communicator",
    "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const uint64_t closed_hash = 0x57a1e00000000001ull;
  const uint64_t live_hash = 0x57a1e00000000002ull;
  CommDriver closed({.comm_hash = closed_hash, .nranks = 2});
  CommDriver live({.comm_hash = live_hash, .rank = 1, .nranks = 2});

  // Handles of `closed` left open at its finalize, of several types.
  void* coll = closed.start(
      coll_descr(nullptr, 0, 7, "AllGather", 64, 0, "ncclInt8", 1, 4, "RING", "LL", nullptr));
  void* kernel = closed.start(kernel_ch_descr(coll, 0, 5000));
  void* op = closed.start(proxy_op_descr(coll, 0, ::getpid(), 0, 1, 4, 65536, 1));
  void* step = closed.start(proxy_step_descr(op, 0, 0));
  void* live_coll = live.start(
      coll_descr(nullptr, 1, 7, "AllGather", 64, 0, "ncclInt8", 1, 4, "RING", "LL", nullptr));
  const NpktDump closed_dump = finalize_and_check(closed, env.dir.path());
  const auto closed_file = std::filesystem::path(env.file(dump_file_name(closed_hash, 0)));
  const auto closed_size = std::filesystem::file_size(closed_file);

  // After the finalize: starts on the closed context give no handle; stops and states of its
  // handles are accepted and dropped, through both API versions.
  for (int i = 0; i < 100; ++i) {
    abi::EventDescrV5 d = kernel_ch_descr(kernel, 1, 6000 + i);
    void* handle = reinterpret_cast<void*>(0x1);
    CHECK(lib.v5->startEvent(closed.context(), &handle, &d) == abi::kSuccess);
    CHECK(handle == nullptr);
    abi::StateArgs transferred = trans_size_args(4096);
    CHECK(lib.v5->recordEventState(step,
                                   static_cast<abi::EventState>(format::kStateProxyStepSendWait),
                                   &transferred) == abi::kSuccess);
    CHECK(lib.v4->recordEventState(kernel, static_cast<abi::EventState>(format::kStateKernelChStop),
                                   nullptr) == abi::kSuccess);
    CHECK(lib.v5->stopEvent(step) == abi::kSuccess);
    CHECK(lib.v4->stopEvent(op) == abi::kSuccess);
    CHECK(lib.v5->stopEvent(kernel) == abi::kSuccess);
    CHECK(lib.v5->stopEvent(coll) == abi::kSuccess);  // the stale double stop
    // The live communicator keeps recording in between; a stale handle as its parent is another
    // communicator's handle.
    void* child = live.start(kernel_ch_descr(coll, 2, 7000 + i), ParentLink::kOtherComm);
    live.stop(child);
  }
  // Values that are no handle of this plugin at all.
  int not_a_handle = 0;
  for (void* bogus : {static_cast<void*>(nullptr), static_cast<void*>(&not_a_handle),
                      reinterpret_cast<void*>(uintptr_t{0xAFFFF00000000001ull})}) {
    CHECK(lib.v5->stopEvent(bogus) == abi::kSuccess);
    CHECK(lib.v5->recordEventState(bogus, static_cast<abi::EventState>(format::kStateKernelChStop),
                                   nullptr) == abi::kSuccess);
  }
  // A second finalize of the closed communicator, and a finalize of no context.
  CHECK(lib.v5->finalize(closed.context()) == abi::kSuccess);
  CHECK(lib.v5->finalize(nullptr) == abi::kSuccess);
  live.stop(live_coll);

  finalize_and_check(live, env.dir.path());
  CHECK(std::filesystem::file_size(closed_file) == closed_size);
  const NpktDump reread = read_dump(closed_file.string());
  CHECK(reread.records.size() == closed_dump.records.size());
  CHECK(reread.comm.capture_end_ns == closed_dump.comm.capture_end_ns);
  CHECK(entries_in(env.dir.path()).size() == 2);
}

}  // namespace
}  // namespace npkit::test
