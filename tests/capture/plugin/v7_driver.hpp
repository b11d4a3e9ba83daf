// v7_driver.hpp — drives one communicator of the plugin through ncclProfiler_v7 (API v7, NCCL
// 2.31+) in the order NCCL 2.31.2's src/plugin/profiler.cc and src/enqueue.cc make the calls.
//
// Contract:
// - V7Comm's constructor calls init (REQUIREs ncclSuccess and a non-NULL context) with the test
//   logger; start() REQUIREs ncclSuccess and returns the handle (NULL allowed); state() and stop()
//   REQUIRE ncclSuccess; finalize() calls finalize once.
// - enqueue_v7_call() makes the application thread's calls of one collective in an implicit group
//   of a blocking communicator: GroupApi (depth 1) start, state 23 (NULL args), CollApi start and
//   stop (the call's tag), state 24 (NULL args), KernelLaunch start and stop, then
//   hostStreamPlanTask's Group start, Coll start (parentGroup = the Group, the call's tag; a
//   symmetric kernel as ncclProfilerStartTaskEvents describes it: isSymColl, kernelVariant, algo
//   the part after its '_', proto ""), Coll stop and Group stop, and GroupApi stop. Returns the
//   Coll handle, the parent of the call's KernelCh events.
// - run_kernel_channel() makes the profiler thread's calls of one channel's work item
//   (profilerProgressOps): KernelCh start (pTimer = the channel's begin), then
//   profilerFireKernelPhaseEvents' phases — instants begin, after_open, before_close, end; a
//   missing (0) inner instant folded onto its outer neighbour, no phase at all when both inner
//   ones are missing; phase i from instant i to i + 1 unless either is 0 or they are equal: start
//   (parent KernelCh, phaseId i, NCCL's phase name, pTimer instant i), state 31 with
//   kernelCh.pTimer = instant i + 1, stop — then state 22 with kernelCh.pTimer = end and stop.
#pragma once

#include <cstdint>
#include <string>

#include "capture/plugin/nccl_abi_for_tests.hpp"
#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {

// A v7 descriptor of `type`, every other byte zero.
abi::EventDescrV7 v7_descr(uint64_t type, void* parent, int rank);

class V7Comm {
 public:
  V7Comm(uint64_t comm_hash, int rank, int nranks, const char* comm_name = "v7-comm");
  void* start(abi::EventDescrV7 descr);
  void state(void* handle, int state, abi::StateArgs* args);
  void stop(void* handle);
  void finalize();
  int mask() const { return mask_; }
  int rank() const { return rank_; }

 private:
  const PluginLibrary& lib_;
  void* context_ = nullptr;
  int mask_ = 0;
  int rank_ = 0;
};

// One collective call as the application makes it, and what NCCL chose for it.
struct V7Call {
  const char* func = "AllReduce";
  uint64_t seq = 0;
  uint64_t count = 0;  // the user's count (CollApi) and the Coll's
  const char* datatype = "ncclFloat32";
  uint64_t tag = 0;  // ncclCollConfig_t.userProfilerTag
  uint8_t channels = 2;
  const char* algo = "RING";  // a plain kernel's choice
  const char* proto = "SIMPLE";
  const char* sym_variant = nullptr;  // a symmetric kernel: its variant, e.g. "AGxLL_R"
};

void* enqueue_v7_call(V7Comm& comm, const V7Call& call);

// NCCL's four instants of one channel's work item (GPU %globaltimer ns; 0 = not stamped).
struct ChannelStamps {
  uint8_t channel = 0;
  uint64_t begin = 0;
  uint64_t after_open = 0;
  uint64_t before_close = 0;
  uint64_t end = 0;
};

void run_kernel_channel(V7Comm& comm, void* task, const ChannelStamps& stamps);

}  // namespace npkit::test
